//! Where a manifest's values come from: a value with the byte range it is written at
//! ([`Spanned`]), the user's manifest laid over its preset ([`Overlay`]), a validated setting
//! with its source ([`Setting`]), and [`Provenance`], the manifest's text, the keys overrides set
//! and the problems found, which every validation (the manifest stage's and each runtime's
//! `settings.rs`) reports to. Below the stages, so that a runtime's manifest section and its
//! validation live in the runtime's folder.

use std::cell::OnceCell;
use std::ops::Range;

use indexmap::IndexMap;
#[cfg(test)]
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use crate::codes::Code;
use crate::diagnostic::{did_you_mean, grouped, Diagnostic, Diagnostics, Origin};
use crate::memo::SharedText;
use crate::places::Values;
use crate::project::ReadError;

/// Whether `D` is one of the `toml` crate's deserializers: only they understand `toml::Spanned`
/// (serde_yaml's would fail on it). The span mode is a property of the deserializer a value is
/// read with, never a toggle kept beside it; the tests below hold this to the `toml` in use.
fn reads_toml_spans<'de, D: Deserializer<'de>>() -> bool {
    let name = std::any::type_name::<D>();
    let name = name.trim_start_matches('&').trim_start_matches("mut ");
    name.starts_with("toml::de::") || name.starts_with("toml_edit::de::")
}

/// A value with the byte range it came from in the manifest. TOML gives exact spans (through
/// `toml::Spanned`); serde_yaml has none, so YAML values carry `None` and diagnostics fall back
/// to finding the value's text in the file ([`Provenance::span`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Option<Range<usize>>,
}

impl<T> Spanned<T> {
    pub fn new(value: T) -> Self {
        Spanned { value, span: None }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if reads_toml_spans::<D>() {
            deserializer.deserialize_struct(SPANNED, &[SPAN_START, SPAN_END, SPAN_VALUE], SpannedVisitor(std::marker::PhantomData))
        } else {
            T::deserialize(deserializer).map(Spanned::new)
        }
    }
}

// The names under which the `toml` crate's deserializers hand out a value with its span (those
// of `toml::Spanned`, serde_spanned 0.6): asked for this struct, they answer with the span's
// start, end and the value when the value was parsed from text, and with the bare value when it
// was not (one an override wrote into the document, see `manifest::overrides`).
const SPANNED: &str = "$__serde_spanned_private_Spanned";
const SPAN_START: &str = "$__serde_spanned_private_start";
const SPAN_END: &str = "$__serde_spanned_private_end";
const SPAN_VALUE: &str = "$__serde_spanned_private_value";

/// A key of a map a `toml` deserializer hands [`SpannedVisitor`]: one of the span's names, read
/// without allocating (every spanned value of a manifest has three), or a table's own key.
enum Key {
    Start,
    End,
    Value,
    Other(String),
}

impl Key {
    fn into_name(self) -> String {
        match self {
            Key::Start => SPAN_START.to_string(),
            Key::End => SPAN_END.to_string(),
            Key::Value => SPAN_VALUE.to_string(),
            Key::Other(name) => name,
        }
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl serde::de::Visitor<'_> for KeyVisitor {
            type Value = Key;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }

            fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    SPAN_START => Key::Start,
                    SPAN_END => Key::End,
                    SPAN_VALUE => Key::Value,
                    other => Key::Other(other.to_string()),
                })
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Reads a value of a `toml` deserializer: with its span, or bare (then `span` is `None`).
struct SpannedVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> SpannedVisitor<T> {
    fn bare<E: serde::de::Error>(value: impl serde::de::IntoDeserializer<'de, E>) -> Result<Spanned<T>, E> {
        T::deserialize(value.into_deserializer()).map(Spanned::new)
    }
}

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for SpannedVisitor<T> {
    type Value = Spanned<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Spanned<T>, A::Error> {
        use serde::de::Error;
        let first: Option<Key> = map.next_key()?;
        if let Some(Key::Start) = first {
            let start: usize = map.next_value()?;
            let end = match map.next_key::<Key>()? {
                Some(Key::End) => map.next_value::<usize>()?,
                _ => return Err(A::Error::custom("a spanned value without its end")),
            };
            return match map.next_key::<Key>()? {
                Some(Key::Value) => Ok(Spanned { value: map.next_value()?, span: Some(start..end) }),
                _ => Err(A::Error::custom("a spanned value without its value")),
            };
        }
        // A table with no place in the text: read it again as a plain TOML table.
        let mut table = toml::Table::new();
        if let Some(key) = first {
            table.insert(key.into_name(), map.next_value()?);
        }
        while let Some((key, value)) = map.next_entry::<String, toml::Value>()? {
            table.insert(key, value);
        }
        T::deserialize(toml::Value::Table(table)).map(Spanned::new).map_err(A::Error::custom)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Spanned<T>, A::Error> {
        T::deserialize(serde::de::value::SeqAccessDeserializer::new(seq)).map(Spanned::new)
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Spanned<T>, E> {
        Self::bare(v)
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Spanned<T>, E> {
        Self::bare(v)
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Spanned<T>, E> {
        Self::bare(v)
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Spanned<T>, E> {
        Self::bare(v)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Spanned<T>, E> {
        Self::bare(v.to_string())
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Spanned<T>, E> {
        Self::bare(v)
    }
}

#[cfg(test)]
impl<T: JsonSchema> JsonSchema for Spanned<T> {
    fn schema_name() -> String {
        T::schema_name()
    }

    fn json_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        T::json_schema(gen)
    }

    fn is_referenceable() -> bool {
        T::is_referenceable()
    }
}

/// A release number, written as a string (`"0.7"`) or a number (`0.7`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(untagged)]
pub enum RawVersion {
    Text(String),
    Number(f64),
}

impl RawVersion {
    pub fn text(&self) -> String {
        match self {
            RawVersion::Text(s) => s.clone(),
            RawVersion::Number(n) => n.to_string(),
        }
    }
}

/// Lays `over` on top of `self`; values present in `over` win. The implementations for tables
/// destructure `over` naming every field, so a field added to a table without its overlay does
/// not compile (a `--set` of it would otherwise be dropped whenever the table already exists).
pub trait Overlay {
    fn overlay(&mut self, over: Self);
}

/// A single value: the overlay's, when it has one.
pub fn take<T>(base: &mut Option<T>, over: Option<T>) {
    if over.is_some() {
        *base = over;
    }
}

/// A table: merged key by key when both have it.
pub fn overlay_opt<T: Overlay>(base: &mut Option<T>, over: Option<T>) {
    match (base.as_mut(), over) {
        (Some(b), Some(o)) => b.overlay(o),
        (None, Some(o)) => *base = Some(o),
        (_, None) => {}
    }
}

impl<T: Overlay> Overlay for IndexMap<String, T> {
    fn overlay(&mut self, over: Self) {
        for (key, value) in over {
            match self.get_mut(&key) {
                Some(existing) => existing.overlay(value),
                None => {
                    self.insert(key, value);
                }
            }
        }
    }
}

/// A runtime setting's value and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Setting<T> {
    pub value: T,
    /// `manifest`, `override` (--set or a CTXC_ environment variable), `preset NAME`, or the
    /// reference system's own default (named).
    pub source: String,
    /// The dotted manifest key.
    #[serde(skip)]
    pub key: String,
    /// Where diagnostics about it point: the value in the manifest, or the `preset` line.
    #[serde(skip)]
    pub origin: Origin,
    /// Said in diagnostics when the user did not write the value.
    #[serde(skip)]
    pub note: Option<String>,
}

impl<T> Setting<T> {
    /// ` · source`, as a note in the window tables ends.
    pub fn source_note(&self) -> String {
        format!(" · {}", self.source)
    }

    /// The same provenance with another value (a default derived from this one's source).
    pub fn map<U>(&self, value: U) -> Setting<U> {
        Setting { value, source: self.source.clone(), key: self.key.clone(), origin: self.origin.clone(), note: self.note.clone() }
    }

    /// A finding about the setting: an error pointing at where it was written (or at the
    /// `preset` line, saying the value is the preset's default).
    pub fn finding(&self, code: Code, message: String) -> Diagnostic {
        let note = self.note.as_ref().map(|n| format!(" ({n})")).unwrap_or_default();
        Diagnostic::error(format!("{message}{note}"))
            .code(code)
            .in_file(&self.origin.file)
            .at(self.origin.span.clone())
            .label(format!("`{}`", self.key))
    }

    /// SET003, shared by every runtime: the fixed context (`fixed` tokens, measured at `place`)
    /// alone reaches `at`, where the runtime compacts, so compaction would fire on the first turn.
    pub fn fixed_reaches(&self, runtime: &str, what: &str, at: u64, fixed: i64, place: &str) -> Option<Diagnostic> {
        (fixed >= at as i64).then(|| {
            self.finding(
                Code::SET003,
                format!(
                    "the fixed context ({} tokens: system prompt, tool schemas and message framing, {place}) reaches the {runtime} {what} at {} tokens: it would fire on the first turn",
                    grouped(fixed),
                    grouped(at)
                ),
            )
        })
    }
}

/// The preset a default came from, and where the manifest names it.
pub struct PresetRef {
    pub name: String,
    pub origin: Origin,
}

/// One runtime's manifest section (`[zeph]`, …): the manifest over the preset (`merged`), the
/// manifest with its overrides (`user`), the preset alone, and the preset's name.
pub struct Section<'a, T> {
    pub merged: Option<&'a T>,
    pub user: Option<&'a T>,
    pub preset: Option<&'a T>,
    pub from: &'a PresetRef,
}

/// The manifest being validated: its display path and text, where its values are written, the
/// keys overrides set, and the problems found so far.
pub struct Provenance {
    /// Display path of the manifest.
    pub file: String,
    text: SharedText,
    /// Dotted keys set by overrides (--set, CTXC_ environment variables).
    overridden: Vec<String>,
    /// Where the manifest's keys and values are written, read when first asked.
    places: OnceCell<Values>,
    pub diagnostics: Diagnostics,
}

/// A diagnostic being written ([`Provenance::error`]): it reads and writes as the diagnostic,
/// and is added to the manifest's diagnostics when dropped.
pub struct Finding<'a> {
    diagnostic: Diagnostic,
    into: &'a mut Diagnostics,
}

impl std::ops::Deref for Finding<'_> {
    type Target = Diagnostic;

    fn deref(&self) -> &Diagnostic {
        &self.diagnostic
    }
}

impl std::ops::DerefMut for Finding<'_> {
    fn deref_mut(&mut self) -> &mut Diagnostic {
        &mut self.diagnostic
    }
}

impl Drop for Finding<'_> {
    fn drop(&mut self) {
        let done = std::mem::replace(&mut self.diagnostic, Diagnostic::error(String::new()));
        self.into.push(done);
    }
}

impl Provenance {
    pub fn new(file: String, text: SharedText, overridden: Vec<String>) -> Provenance {
        Provenance { file, text, overridden, places: OnceCell::new(), diagnostics: Vec::new() }
    }

    /// The content hash of the manifest's text.
    pub fn text_hash(&self) -> u128 {
        self.text.hash()
    }

    /// Where the manifest's keys and values are written, as its parser reports them.
    pub fn places(&self) -> &Values {
        self.places.get_or_init(|| Values::of(&self.text))
    }

    /// The span of a value: exact from TOML; for YAML, the first place its parser reports it written.
    pub fn span<T>(&self, value: &Spanned<T>, text: &str) -> Option<Range<usize>> {
        value.span.clone().or_else(|| self.locate(text))
    }

    /// Where a value (else a key) is written in the manifest, as its parser reports it.
    pub fn locate(&self, text: &str) -> Option<Range<usize>> {
        self.places().written(text)
    }

    /// The value at a path of keys in the manifest (see `places::Values::at_path`).
    pub fn locate_path(&self, path: &[&str]) -> Option<Range<usize>> {
        self.places().at_path(path)
    }

    /// The last key of a path of keys in the manifest.
    pub fn locate_key(&self, path: &[&str]) -> Option<Range<usize>> {
        self.places().key_at_path(path)
    }

    /// Whether an override (--set or CTXC_…) set this dotted key or a table holding it.
    pub fn overridden(&self, key: &str) -> bool {
        self.overridden.iter().any(|o| key == o || key.starts_with(&format!("{o}.")))
    }

    pub fn origin<T>(&self, value: &Spanned<T>, text: &str) -> Origin {
        Origin { file: self.file.clone(), span: self.span(value, text) }
    }

    /// An error about the manifest, to complete (`help`, `label`) before it is reported: it joins
    /// `diagnostics` when the returned [`Finding`] is dropped.
    pub fn error(&mut self, message: impl Into<String>, span: Option<Range<usize>>) -> Finding<'_> {
        let diagnostic = Diagnostic::error(message).in_file(&self.file).at(span);
        Finding { diagnostic, into: &mut self.diagnostics }
    }

    /// Like `error`, with the rule code.
    pub fn coded(&mut self, code: Code, message: impl Into<String>, span: Option<Range<usize>>) -> Finding<'_> {
        let mut d = self.error(message, span);
        d.code = Some(code);
        d
    }

    pub fn unknown(&mut self, what: &str, name: &str, span: Option<Range<usize>>, known: &[&str]) {
        self.unknown_in(what, "", name, span, known);
    }

    /// Like `unknown`, with `context` naming what the name belongs to (e.g. " of module `x`").
    pub fn unknown_in(&mut self, what: &str, context: &str, name: &str, span: Option<Range<usize>>, known: &[&str]) {
        let code = match what {
            "flag" => Code::MAN005,
            "condition variable" => Code::MAN006,
            "variant" => Code::MAN007,
            _ => Code::MAN009,
        };
        let mut d = self.coded(code, format!("unknown {what} `{name}`{context}"), span);
        d.label = Some(format!("not a {what}{context}"));
        d.help = Some(match did_you_mean(name, known.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None if known.is_empty() => format!("no {what} is declared"),
            None => format!("known: {}", known.join(", ")),
        });
    }

    /// A file the manifest names could not be read.
    pub fn read_error(&mut self, e: ReadError, span: Option<Range<usize>>) {
        let help = e.help();
        let mut d = self.coded(e.code(), e.message(), span);
        d.label = Some("referenced here".into());
        d.help = help.map(str::to_string);
    }

    /// A setting from the user's manifest (or an override), else from the preset.
    pub fn pick<T: Clone>(
        &self,
        key: &str,
        user: Option<&Spanned<T>>,
        preset: Option<&Spanned<T>>,
        from: &PresetRef,
    ) -> Option<Setting<T>> {
        let leaf = key.rsplit('.').next().unwrap_or(key);
        if let Some(value) = user {
            if self.overridden(key) {
                return Some(Setting {
                    value: value.value.clone(),
                    source: "override".into(),
                    key: key.into(),
                    origin: Origin { file: self.file.clone(), span: None },
                    note: Some(format!(
                        "set by an override of `{key}`: --set or an environment variable (CTXC_, or ZEPH_ under the zeph preset)"
                    )),
                });
            }
            return Some(Setting {
                value: value.value.clone(),
                source: "manifest".into(),
                key: key.into(),
                origin: self.origin(value, leaf),
                note: None,
            });
        }
        preset.map(|value| Setting {
            value: value.value.clone(),
            source: format!("preset {}", from.name),
            key: key.into(),
            origin: from.origin.clone(),
            note: Some(format!("the `{}` preset's default; set `{key}` to change it", from.name)),
        })
    }

    /// A setting every preset of the runtime defines: its absence is a broken preset (the
    /// defaults live in the preset files only, never in code).
    pub fn required<T: Clone + Default>(
        &mut self,
        key: &str,
        user: Option<&Spanned<T>>,
        preset: Option<&Spanned<T>>,
        from: &PresetRef,
    ) -> Setting<T> {
        self.pick(key, user, preset, from).unwrap_or_else(|| {
            self.error(format!("built-in preset `{}` has no `{key}`", from.name), None);
            Setting {
                value: T::default(),
                source: format!("preset {}", from.name),
                key: key.into(),
                origin: from.origin.clone(),
                note: None,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Provenance, Spanned};
    use crate::codes::Code;

    #[derive(serde::Deserialize)]
    struct Doc {
        name: Spanned<String>,
        list: Vec<Spanned<u32>>,
    }

    #[test]
    fn toml_values_carry_their_spans_and_yaml_values_none() {
        let text = "name = \"abc\"\nlist = [1, 22]\n";
        let doc: Doc = toml::from_str(text).expect("toml");
        assert_eq!(doc.name.span.map(|s| &text[s]), Some("\"abc\""));
        assert_eq!(doc.list[1].span.clone().map(|s| &text[s]), Some("22"));
        let doc: Doc = serde_yaml::from_str("name: abc\nlist: [1, 22]\n").expect("yaml");
        assert_eq!((doc.name.value.as_str(), doc.name.span), ("abc", None));
        assert_eq!(doc.list[1].value, 22);
        let doc: Doc = serde_json::from_str(r#"{"name": "abc", "list": [1]}"#).expect("json");
        assert_eq!(doc.name.span, None);
    }

    #[test]
    fn a_toml_value_with_no_place_in_the_text_reads_without_a_span() {
        #[derive(serde::Deserialize)]
        struct Tables {
            kept: Spanned<u32>,
            added: Spanned<Vec<u32>>,
            table: Spanned<std::collections::BTreeMap<String, Spanned<String>>>,
            word: Spanned<String>,
            flag: Spanned<bool>,
        }
        let text = "kept = 7\n";
        let mut root = toml_edit::ImDocument::parse(text).expect("toml").as_table().clone();
        root.insert("added", toml_edit::value(toml_edit::Array::from_iter([1i64, 2])));
        let mut inline = toml_edit::InlineTable::new();
        inline.insert("k", "v".into());
        root.insert("table", toml_edit::value(inline));
        root.insert("word", toml_edit::value("w"));
        root.insert("flag", toml_edit::value(true));
        let doc: Tables = toml_edit::de::from_document(toml_edit::DocumentMut::from(root)).expect("reads");
        assert_eq!((doc.kept.value, doc.kept.span.map(|s| &text[s])), (7, Some("7")));
        assert_eq!((doc.added.value, doc.added.span), (vec![1, 2], None));
        assert_eq!((doc.table.value["k"].value.as_str(), doc.table.span), ("v", None));
        assert_eq!((doc.word.value.as_str(), doc.flag.value, doc.word.span, doc.flag.span), ("w", true, None, None));
    }

    #[test]
    fn a_finding_joins_the_diagnostics_with_what_was_added_to_it() {
        let mut prov = Provenance::new("ctxc.toml".into(), crate::memo::SharedText::new("[agent]\n"), Vec::new());
        prov.coded(Code::MAN009, "unknown module `x`", Some(1..6)).help = Some("declare it".into());
        prov.error("second", None);
        let seen: Vec<_> = prov.diagnostics.iter().map(|d| (d.message.as_str(), d.code, d.help.as_deref())).collect();
        assert_eq!(seen, [("unknown module `x`", Some(Code::MAN009), Some("declare it")), ("second", None, None)]);
    }
}

//! A value with the byte range it came from in the manifest.
//!
//! TOML gives exact spans (through `toml::Spanned`). serde_yaml has no span support, so YAML
//! values carry `None` and diagnostics fall back to finding the value's text in the file
//! (see `ManifestText::locate` in the lint stage's configuration).

use std::ops::Range;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};

/// Whether `D` is one of the `toml` crate's deserializers: only they understand `toml::Spanned`
/// (serde_yaml's would fail on it). The span mode is a property of the deserializer a value is
/// read with, never a toggle kept beside it; the tests below hold this to the `toml` in use.
fn reads_toml_spans<'de, D: Deserializer<'de>>() -> bool {
    let name = std::any::type_name::<D>();
    let name = name.trim_start_matches('&').trim_start_matches("mut ");
    name.starts_with("toml::de::") || name.starts_with("toml_edit::de::")
}

/// TOML text read into `T` with no spans, through a table (whose values hold no position, and
/// whose keys keep the text's order: toml's `preserve_order`): for
/// built-in texts (presets, layouts), whose spans would point into a text that is not the
/// manifest's, so that diagnostics about their values fall back to locating text in the manifest.
pub(crate) fn from_toml_without_spans<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, toml::de::Error> {
    toml::from_str::<toml::Table>(text)?.try_into()
}

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
            let spanned = toml::Spanned::<T>::deserialize(deserializer)?;
            let span = spanned.span();
            Ok(Spanned { value: spanned.into_inner(), span: Some(span) })
        } else {
            T::deserialize(deserializer).map(Spanned::new)
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::Spanned;

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
        let doc: Doc = super::from_toml_without_spans(text).expect("toml");
        assert_eq!((doc.name.value.as_str(), doc.name.span, doc.list[1].span.clone()), ("abc", None, None));
    }
}

//! Stage 1: load a manifest. Parse it into raw types (unknown keys rejected, spans kept), lay it
//! over its preset, then validate every reference and read every file it names into an
//! [`model::Agent`]. Problems are collected, not thrown at the first one.

pub mod env;
mod files;
pub mod lint;
pub mod model;
mod overrides;
mod pipeline;
pub mod preset;
pub mod raw;
pub mod scenario;
mod scenarios;
mod sections;
pub mod span;
mod systems;
mod templates;

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;

use indexmap::IndexMap;

use crate::codes::Code;
use crate::diagnostic::{did_you_mean, has_errors, Diagnostic, Diagnostics, Failure, Sources};
use crate::models::ModelProfile;
use crate::project::{ProjectRoot, RunState};
use crate::provenance::Provenance;
use files::Files;
use model::*;
use preset::Overlay;
use raw::*;
use span::Spanned;

/// File names recognised as manifests, in order of preference.
pub const MANIFEST_NAMES: [&str; 3] = ["ctxc.toml", "ctxc.yaml", "ctxc.yml"];

/// The time used by scenarios that do not set `now`, so renders stay deterministic.
pub const DEFAULT_NOW: &str = "2026-01-01T00:00:00Z";

/// Where `ctxc snapshot` writes an agent's rendered prompts, relative to its manifest.
pub const DEFAULT_SNAPSHOT_DIR: &str = ".ctxc/snapshots";

/// Variables an enable condition may read.
pub const CONDITION_VARIABLES: [&str; 6] = ["mode", "scenario", "flags", "connectors", "mcp_servers", "oauth"];

/// A loaded agent with the project root it lives in and the text of every file read.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub agent: Agent,
    pub root: ProjectRoot,
    pub sources: Sources,
    /// Files read for what they say about the agent's files, not as its own, by display path
    /// (see `Files::consulted`).
    pub consulted: std::collections::BTreeSet<String>,
    /// Non-fatal findings from loading.
    pub warnings: Diagnostics,
    /// The counts recorded in `ctxc.counts` beside the manifest, when there is one.
    pub recorded: Option<std::sync::Arc<crate::counts::Recorded>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Toml,
    Yaml,
}

impl Format {
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml") => Format::Yaml,
            _ => Format::Toml,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Toml => "TOML",
            Format::Yaml => "YAML",
        }
    }
}

/// Why manifest text could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    pub span: Option<Range<usize>>,
    /// A "did you mean" for unknown keys.
    pub help: Option<String>,
}

/// Parses manifest text into raw types. Unknown keys get a "did you mean".
pub fn parse(text: &str, format: Format) -> Result<RawManifest, ParseError> {
    let (message, span) = match format {
        Format::Toml => match toml::from_str::<RawManifest>(text) {
            Ok(raw) => return Ok(raw),
            Err(e) => (e.message().to_string(), e.span()),
        },
        Format::Yaml => match crate::yaml::from_str::<RawManifest>(text) {
            Ok(raw) => return Ok(raw),
            Err(e) => (e.message, e.offset.map(|o| o..o)),
        },
    };
    // toml's message for some malformed input (a control character in a comment) is empty.
    let message = if message.trim().is_empty() { format!("invalid {}", format.name()) } else { message };
    let help = unknown_name_help(&message);
    Err(ParseError { message, span, help })
}

/// For serde's "unknown field `x`, expected one of `a`, `b`" (and "unknown variant"), suggests
/// the closest expected name.
fn unknown_name_help(message: &str) -> Option<String> {
    if !(message.starts_with("unknown field") || message.starts_with("unknown variant")) {
        return None;
    }
    let quoted: Vec<&str> = message.split('`').skip(1).step_by(2).collect();
    let (wrong, expected) = quoted.split_first()?;
    did_you_mean(wrong, expected.iter().copied()).map(|s| format!("did you mean `{s}`?"))
}

/// Checks `[project] requires` against this ctxc's version. It is read leniently, before the
/// manifest is parsed, so that a manifest for a newer ctxc (with keys this one does not know)
/// gets this error rather than a parse error; a manifest that does not parse is left to [`parse`].
fn check_requires(text: &str, format: Format) -> Result<(), Diagnostic> {
    #[derive(serde::Deserialize)]
    struct Lenient {
        project: Option<LenientProject>,
    }
    #[derive(serde::Deserialize)]
    struct LenientProject {
        requires: Option<Spanned<String>>,
    }
    // Most manifests set no requirement: they are not parsed a second time.
    if !text.contains("requires") {
        return Ok(());
    }
    let lenient = match format {
        Format::Toml => toml::from_str::<Lenient>(text).ok(),
        Format::Yaml => crate::yaml::from_str::<Lenient>(text).ok(),
    };
    let Some(requires) = lenient.and_then(|l| l.project).and_then(|p| p.requires) else { return Ok(()) };
    let span = requires.span.clone().or_else(|| crate::places::Values::of(text).at_path(&["project", "requires"]));
    let running = env!("CARGO_PKG_VERSION");
    let error =
        |message: String, label: &str, help: String| Diagnostic::error(message).code(Code::MAN014).at(span.clone()).label(label).help(help);
    let version = semver::Version::parse(running)
        .map_err(|e| error(format!("ctxc's own version `{running}` does not parse: {e}"), "here", String::new()))?;
    match semver::VersionReq::parse(&requires.value) {
        Ok(req) if req.matches(&version) => Ok(()),
        Ok(_) => Err(error(
            format!("this manifest requires ctxc {}, and this is ctxc {running}", requires.value),
            "required here",
            "upgrade ctxc (see the README's install line), or lower `[project] requires` if the manifest does not need the newer version"
                .into(),
        )),
        Err(e) => Err(error(
            format!("[project] requires: `{}` is not a version requirement ({e})", requires.value),
            "not a version requirement",
            "write it as Cargo does: `\">=0.2\"`, `\"^0.3.1\"` or `\">=0.2, <0.4\"`".into(),
        )),
    }
}

/// Loads the manifest at `manifest_path`; its directory is the project root.
pub fn load(manifest_path: &Path) -> Result<Loaded, Failure> {
    load_with(manifest_path, &[], &RunState::default())
}

/// Parses one `KEY=VALUE` override into a manifest fragment. KEY is a dotted path of table keys
/// (e.g. `budgets.system_prompt`); VALUE is a TOML value, or a plain string when it is not one.
pub fn parse_override(arg: &str) -> Result<RawManifest, String> {
    let (key, value) = arg.split_once('=').ok_or_else(|| format!("`{arg}` is not KEY=VALUE"))?;
    let not_dotted = || format!("`{key}` is not a dotted key such as `budgets.system_prompt`");
    let mut fragment = overrides::toml_value(value);
    for part in key.trim().rsplit('.') {
        if part.is_empty() {
            return Err(not_dotted());
        }
        let mut table = toml_edit::Table::new();
        table.insert(part, fragment);
        fragment = toml_edit::Item::Table(table);
    }
    let root = fragment.into_table().map_err(|_| not_dotted())?;
    // Read as the manifest's text is (a document with no places), not through a second TOML reader.
    toml_edit::de::from_document::<RawManifest>(toml_edit::DocumentMut::from(root)).map_err(|e| {
        let message = e.message().to_string();
        match unknown_name_help(&message) {
            Some(help) => format!("{message} ({help})"),
            None => message,
        }
    })
}

/// Parses manifest text with the `KEY=VALUE` overrides that parse written into it, each setting
/// only its key (`None` when the text or the overrides do not read).
pub fn parse_with(text: &str, format: Format, overrides: &[String]) -> Option<RawManifest> {
    let valid: Vec<&str> = overrides.iter().map(String::as_str).filter(|o| parse_override(o).is_ok()).collect();
    let raw = parse(text, format).ok()?;
    match valid.is_empty() {
        true => Some(raw),
        false => overrides::written_into(text, format, &valid).ok(),
    }
}

/// Loads a manifest with `KEY=VALUE` overrides laid over it, in order, reading its files as `run`
/// sees them (an editor's unsaved texts) and memoizing in its cache.
pub fn load_with(manifest_path: &Path, overrides: &[String], run: &RunState) -> Result<Loaded, Failure> {
    let dir = manifest_path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let file_name = manifest_path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let fail = |d: Diagnostic| Failure { diagnostics: vec![d], sources: Sources::default() };
    let root = ProjectRoot::in_run(dir, run.clone()).map_err(|e| fail(e.into_diagnostic()))?;
    let manifest = root.read(&file_name).map_err(|e| fail(e.into_diagnostic().in_file(root.display_path(&file_name))))?;
    let mut sources = Sources::default();
    sources.insert_shared(&manifest.display, manifest.text.clone());
    let format = Format::of(manifest_path);
    if let Err(d) = check_requires(&manifest.text, format) {
        return Err(Failure { diagnostics: vec![d.in_file(&manifest.display)], sources });
    }
    let key = manifest.text.hash() ^ u128::from(format == Format::Yaml);
    let mut user = match root.cache().get_or_insert(crate::memo::Kind::Manifest, key, || parse(&manifest.text, format)) {
        Ok(raw) => raw,
        Err(ParseError { message, span, help }) => {
            let mut d = Diagnostic::error(message).code(Code::MAN001).in_file(&manifest.display).at(span).label("here");
            if let Some(help) = help {
                d = d.help(help);
            }
            return Err(Failure { diagnostics: vec![d], sources });
        }
    };
    let overridden = apply_overrides(&mut user, &manifest.text, format, overrides)
        .map_err(|d| Failure { diagnostics: vec![d], sources: sources.clone() })?;
    let root = with_manifest_root(root, &user, &overridden, &manifest.text)
        .map_err(|d| Failure { diagnostics: vec![d.in_file(&manifest.display)], sources: sources.clone() })?;
    let mut v = Validator {
        files: Files { root, sources, skill_bodies: BTreeMap::new(), consulted: Default::default() },
        rel: manifest.rel.clone(),
        prov: Provenance::new(manifest.display.clone(), manifest.text.clone(), overridden),
    };
    let agent = v.build(user, &manifest.rel);
    // Every load diagnostic carries a rule code; the ones not given a more precise one are MAN010.
    for d in &mut v.prov.diagnostics {
        d.code.get_or_insert(Code::MAN010);
    }
    let recorded = v.files.recorded_counts(&mut v.prov);
    match agent {
        Some(agent) if !has_errors(&v.prov.diagnostics) => {
            let (root, sources, consulted) = (v.files.root, v.files.sources, v.files.consulted);
            Ok(Loaded { agent, root, sources, consulted, warnings: v.prov.diagnostics, recorded })
        }
        _ => Err(Failure { diagnostics: v.prov.diagnostics, sources: v.files.sources }),
    }
}

/// Writes each `--set KEY=VALUE` (and `CTXC_` variable) into the manifest's document, then reads
/// it again (see [`overrides`]); those from a runtime's own variables only on its preset. The keys
/// set, or the first override that does not parse.
fn apply_overrides(user: &mut RawManifest, text: &str, format: Format, overrides: &[String]) -> Result<Vec<String>, Diagnostic> {
    let preset = user.pipeline.as_ref().and_then(|p| p.preset.as_ref()).map(|p| p.value.clone());
    let overrides: Vec<&str> = overrides
        .iter()
        .filter_map(|arg| match env::only_under(arg) {
            (Some(only), arg) => (preset.as_deref() == Some(only)).then_some(arg),
            (None, arg) => Some(arg),
        })
        .collect();
    let refused = |arg: &str, message: String| Diagnostic::error(format!("--set {arg}: {message}")).code(Code::MAN001);
    for arg in overrides.iter().copied() {
        parse_override(arg).map_err(|message| refused(arg, message))?;
    }
    if !overrides.is_empty() {
        *user = overrides::written_into(text, format, &overrides).map_err(|(arg, message)| refused(&arg, message))?;
    }
    Ok(overrides.iter().filter_map(|arg| arg.split_once('=').map(|(k, _)| k.trim().to_string())).collect())
}

/// The project root, moved up to `[project] root` when the manifest (or an override) sets one.
fn with_manifest_root(
    root: ProjectRoot,
    user: &RawManifest,
    overridden: &[String],
    manifest_text: &str,
) -> Result<ProjectRoot, Diagnostic> {
    let Some(ancestor) = user.project.as_ref().and_then(|p| p.root.as_ref()) else { return Ok(root) };
    root.with_root(&ancestor.value).map_err(|e| {
        // A root from `--set` or a `CTXC_` variable has no place in the manifest: say where it came from.
        let (what, span) = match overridden.iter().any(|k| k == "project.root") {
            true => ("[project] root (set by --set or CTXC_PROJECT__ROOT)", None),
            false => {
                ("[project] root", ancestor.span.clone().or_else(|| crate::places::Values::of(manifest_text).at_path(&["project", "root"])))
            }
        };
        let mut d = Diagnostic::error(format!("{what}: {}", e.message())).at(span).label(e.label()).help(e.help());
        d.code = e.code();
        d
    })
}

struct Validator {
    /// The project the manifest is in, and the files read from it.
    files: Files,
    /// The manifest's path relative to the root.
    rel: String,
    /// The manifest's text, where its values are written, the keys overrides set, and the
    /// problems found.
    prov: Provenance,
}

impl Validator {
    /// The model's profile with the manifest's overrides, and the tokenizer file it names;
    /// warns when the model is unknown.
    fn profile(&mut self, agent: &RawAgent) -> (ModelProfile, Option<TokenizerFileRef>) {
        let model = agent.model.as_ref().map_or("", |m| m.value.as_str());
        let mut profile = crate::models::profile(model);
        let mut tokenizer_file = None;
        if let Some(tokenizer) = &agent.tokenizer {
            match crate::models::Tokenizer::parse(&tokenizer.value) {
                Some(t) => profile.tokenizer = t,
                // A file's name has a dot or a slash; an encoding's never does.
                None if tokenizer.value.contains(['.', '/', '\\']) => tokenizer_file = self.files.tokenizer_file(&mut self.prov, tokenizer),
                None => self.prov.unknown(
                    "tokenizer",
                    &tokenizer.value,
                    self.prov.span(tokenizer, &tokenizer.value),
                    &["o200k_base", "cl100k_base", "estimate"],
                ),
            }
        }
        profile.max_input_tokens = agent.context_window.unwrap_or(profile.max_input_tokens);
        profile.max_output_tokens = agent.max_output_tokens.unwrap_or(profile.max_output_tokens);
        // An agent without a model gets the defaults quietly; a named model ctxc does not know
        // is probably a typo or a new model, so it gets a warning.
        if !profile.known && !model.is_empty() && agent.context_window.is_none() {
            // A model set by `--model`, `--set` or a `CTXC_` variable has no line in the manifest.
            let (span, from) = match self.prov.overridden("agent.model") {
                true => (None, " (from --model, --set agent.model or CTXC_AGENT__MODEL)"),
                false => (agent.model.as_ref().and_then(|m| self.prov.span(m, &m.value)), ""),
            };
            let mut d = Diagnostic::warning(format!(
                "unknown model `{model}`{from}: assuming a {}-token window and estimated token counts",
                crate::models::DEFAULT_MAX_INPUT
            ))
            .in_file(&self.prov.file)
            .at(span)
            .help("set `model` to one `ctxc models` lists, or set `context_window` and `tokenizer` under [agent]")
            .code(Code::MAN011);
            if let Some(suggestion) = did_you_mean(model, crate::models::all().iter().map(|p| p.model.as_str())) {
                d.help = Some(format!("did you mean `{suggestion}`? (`ctxc models` lists every known model)"));
            }
            self.prov.diagnostics.push(d);
        }
        (profile, tokenizer_file)
    }

    fn build(&mut self, user: RawManifest, manifest_rel: &str) -> Option<Agent> {
        let preset_name = user.pipeline.as_ref().and_then(|p| p.preset.clone());
        self.check_duplicate_steps(&user);
        let mut raw = self.preset(preset_name.as_ref(), &user)?;
        let preset_defaults = raw.clone();
        let user_written = user.clone();
        raw.overlay(user);
        let Some(agent_raw) = raw.agent.clone() else {
            self.prov.error("the manifest has no [agent] table", Some(0..0)).help = Some("add `[agent]` with `name = \"...\"`".into());
            return None;
        };
        if agent_raw.name.value.trim().is_empty() {
            let places = self.prov.places();
            let span = agent_raw.name.span.clone().or_else(|| places.at_path(&["agent", "name"])).or_else(|| places.at_path(&["agent"]));
            self.prov.error("the agent needs a non-empty `name`", span);
        }
        let (profile, tokenizer_file) = self.profile(&agent_raw);
        let chat_template = agent_raw.chat_template.as_ref().and_then(|reference| self.files.chat_template(&mut self.prov, reference));
        let budgets = sections::budgets(&mut self.prov, raw.budgets.as_ref());
        let pipeline = raw.pipeline.clone().unwrap_or_default();
        let flags: IndexMap<String, bool> = raw.flags.clone();
        let template_root = self.files.template_root(&mut self.prov, raw.templates.as_ref());
        let modules = self.files.modules(&mut self.prov, &raw.modules, &template_root);
        let mut categories = self.categories(&raw.tools, &flags);
        let template_settings = sections::template_settings(&self.prov, &agent_raw, &pipeline.steps);
        let steps = self.steps(pipeline.steps, &raw.modules, &flags);
        let modes = self.modes(&raw.modes, &modules, &steps, &categories, &template_root);
        let connectors: IndexMap<String, TextFile> = raw
            .connectors
            .iter()
            .filter_map(|(name, c)| Some((name.clone(), self.files.read(&mut self.prov, &c.prompt, Some(false))?)))
            .collect();
        let runtime = preset_name.as_ref().and_then(|p| crate::runtimes::Runtime::of_preset(&p.value));
        let skip_missing = runtime.is_some_and(crate::runtimes::Runtime::reads_missing_sources_as_empty);
        let skills = self.files.skills(&mut self.prov, raw.skills.as_ref(), skip_missing);
        let (skill_locations, missing_skill_locations) = self.files.skill_locations(raw.skills.as_ref(), skip_missing);
        let memory_files = self.files.memory_files(&mut self.prov, raw.memory.as_ref(), skip_missing);
        let settings = sections::settings(&self.prov, &raw);
        let scenarios = self.scenarios(&raw.scenarios, &flags, &connectors, &skills);
        self.template_variables(&modules, &modes, &scenarios);
        let project_context =
            self.files.walk_up(&mut self.prov, raw.memory.as_ref().and_then(|m| m.walk_up.as_deref()).unwrap_or_default());
        let facts = crate::runtimes::AgentFacts {
            name: &agent_raw.name.value,
            model: agent_raw.model.as_ref().map_or("", |m| m.value.as_str()),
            provider: &profile.provider,
            context_window: agent_raw.context_window,
            max_output_tokens: agent_raw.max_output_tokens,
            history_max_messages: raw.history.as_ref().and_then(|h| h.max_messages),
            memory: raw.memory.as_ref().is_some_and(|m| !m.files.is_empty()),
        };
        let systems = self.systems(&raw, &user_written, &preset_defaults, preset_name.as_ref(), &facts);
        // The tools a runtime adds itself (the table's `tools` row).
        macro_rules! added_tools {
            ($($runtime:ident),*) => {$(
                let added = systems.$runtime.as_ref().and_then(|s| Some((s, crate::runtimes::$runtime::settings::added_tool(s)?)));
                if let Some((settings, added)) = added {
                    let file = RawToolFile::Path(added.file.to_string());
                    let raw_category = RawCategory { title: Some(added.title.into()), files: vec![file], ..Default::default() };
                    let mut tools = self.categories(&IndexMap::from([(added.category.to_string(), raw_category)]), &flags);
                    tools.iter_mut().flat_map(|c| &mut c.tools).for_each(|t| t.tool = crate::runtimes::$runtime::settings::shape_tool(settings, &t.tool));
                    let at = if added.first { 0 } else { categories.len() };
                    categories.splice(at..at, tools);
                }
            )*};
        }
        crate::runtimes::runtime_table!(tools added_tools);
        let (snapshot_dir, snapshot_dir_origin) =
            self.files.snapshot_dir(&mut self.prov, raw.snapshot.as_ref().and_then(|s| s.dir.as_ref()));
        Some(Agent {
            name: agent_raw.name.value,
            description: agent_raw.description,
            model_origin: agent_raw.model.as_ref().filter(|_| !self.prov.overridden("agent.model")).map(|m| self.prov.origin(m, &m.value)),
            model: agent_raw.model.map(|m| m.value),
            profile,
            tokenizer_file,
            preset: preset_name.map(|p| p.value),
            manifest: manifest_rel.to_string(),
            manifest_display: self.prov.file.clone(),
            separator: pipeline.separator.unwrap_or_else(|| "\n\n".to_string()),
            steps,
            modules,
            modes,
            connectors,
            categories,
            skills,
            memory_files,
            settings,
            budgets,
            scenarios,
            vars: raw.vars,
            snapshot_dir,
            snapshot_dir_origin,
            project_context,
            chat_template,
            empty_tool_list: agent_raw.empty_tool_list.as_ref().is_some_and(|v| v.value),
            template_settings,
            skill_locations,
            missing_skill_locations,
            skill_bodies: std::mem::take(&mut self.files.skill_bodies),
            systems,
            lint: raw.lint.unwrap_or_default(),
        })
    }

    /// The built-in preset the manifest names, parsed, to lay the manifest over (the empty
    /// manifest without one); `None` when the preset itself does not parse.
    fn preset(&mut self, name: Option<&Spanned<String>>, user: &RawManifest) -> Option<RawManifest> {
        let Some(name) = name else { return Some(RawManifest::default()) };
        let Some(text) = preset::preset_text(&name.value) else {
            let known: Vec<&str> = preset::PRESETS.iter().map(|(n, _)| *n).collect();
            self.prov.unknown("preset", &name.value, self.prov.span(name, &name.value), &known);
            return Some(RawManifest::default());
        };
        // Parsed without spans: preset spans would point into the preset, so diagnostics about
        // preset values fall back to locating text in the manifest.
        match span::from_toml_without_spans::<RawManifest>(text) {
            Ok(mut preset) => {
                self.apply_layout(&name.value, &mut preset, user);
                Some(preset)
            }
            Err(e) => {
                self.prov.error(format!("built-in preset `{}` is invalid: {}", name.value, e.message()), None);
                None
            }
        }
    }

    fn check_duplicate_steps(&mut self, user: &RawManifest) {
        let mut seen = BTreeSet::new();
        for step in user.pipeline.iter().flat_map(|p| &p.steps) {
            if !seen.insert(step.id.value.clone()) {
                let span = self.prov.span(&step.id, &step.id.value);
                self.prov.coded(Code::MAN008, format!("step id `{}` is used twice", step.id.value), span).label = Some("second use".into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse() {
        for (name, text) in preset::PRESETS {
            span::from_toml_without_spans::<RawManifest>(text).unwrap_or_else(|e| panic!("preset {name}: {e}"));
        }
        scenario::Timestamp::parse(DEFAULT_NOW).expect("DEFAULT_NOW parses");
    }

    /// A YAML manifest's values have no spans from serde: the requirement is found where the
    /// parser marks `project.requires`, not where its text first appears.
    #[test]
    fn an_unmet_requirement_in_yaml_points_at_its_value() {
        let text = "agent:\n  description: needs >=99\nproject:\n  requires: \">=99\"\n";
        let Err(d) = check_requires(text, Format::Yaml) else { panic!("ctxc 99 is not this one") };
        assert_eq!(d.span.map(|r| &text[r]), Some("\">=99\""));
    }

    #[test]
    fn unknown_keys_get_a_suggestion() {
        let Err(ParseError { message, span, help }) = parse("[agent]\nnme = \"x\"\n", Format::Toml) else { panic!("expected error") };
        assert!(message.starts_with("unknown field `nme`"), "{message}");
        assert_eq!(span, Some(8..11));
        assert_eq!(help.as_deref(), Some("did you mean `name`?"));
        let Err(ParseError { span, help, .. }) = parse("agent:\n  name: x\nmodse: {}\n", Format::Yaml) else { panic!("expected error") };
        assert_eq!(help.as_deref(), Some("did you mean `modes`?"));
        assert_eq!(span.map(|s| s.start), Some(17));
    }
}

//! Stage 1: load a manifest. Parse it into raw types (unknown keys rejected, spans kept), lay it
//! over its preset, then validate every reference and read every file it names into an
//! [`model::Agent`]. Problems are collected, not thrown at the first one.

pub mod env;
pub mod lint;
pub mod model;
mod pipeline;
pub mod preset;
pub mod raw;
pub mod scenario;
mod scenarios;
pub mod span;
mod systems;
mod templates;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::codes::Code;
use crate::diagnostic::{did_you_mean, has_errors, Diagnostic, Diagnostics, Failure, Sources};
use crate::memo::{content_hash, Kind};
use crate::models::ModelProfile;
use crate::project::{ProjectRoot, ReadError, RunState};
use crate::provenance::Provenance;
use crate::skills::{parse_skill, Skill};
use model::*;
use preset::Overlay;
use raw::*;
use scenario::Retrieval;
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
    let value: toml::Value = toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_string()));
    let mut fragment = value;
    for part in key.trim().rsplit('.') {
        if part.is_empty() {
            return Err(format!("`{key}` is not a dotted key such as `budgets.system_prompt`"));
        }
        let mut table = toml::Table::new();
        table.insert(part.to_string(), fragment);
        fragment = toml::Value::Table(table);
    }
    fragment.try_into::<RawManifest>().map_err(|e| {
        let message = e.message().to_string();
        match unknown_name_help(&message) {
            Some(help) => format!("{message} ({help})"),
            None => message,
        }
    })
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
    let mut user = match parse(&manifest.text, format) {
        Ok(raw) => raw,
        Err(ParseError { message, span, help }) => {
            let mut d = Diagnostic::error(message).code(Code::MAN001).in_file(&manifest.display).at(span).label("here");
            if let Some(help) = help {
                d = d.help(help);
            }
            return Err(Failure { diagnostics: vec![d], sources });
        }
    };
    let overridden = apply_overrides(&mut user, overrides).map_err(|d| Failure { diagnostics: vec![d], sources: sources.clone() })?;
    let root = with_manifest_root(root, &user, &overridden, &manifest.text)
        .map_err(|d| Failure { diagnostics: vec![d.in_file(&manifest.display)], sources: sources.clone() })?;
    let mut v = Validator {
        root,
        rel: manifest.rel.clone(),
        sources,
        prov: Provenance::new(manifest.display.clone(), manifest.text.clone(), overridden),
        skill_bodies: BTreeMap::new(),
    };
    let agent = v.build(user, &manifest.rel);
    // Every load diagnostic carries a rule code; the ones not given a more precise one are MAN010.
    for d in &mut v.prov.diagnostics {
        d.code.get_or_insert(Code::MAN010);
    }
    let recorded = v.recorded_counts();
    match agent {
        Some(agent) if !has_errors(&v.prov.diagnostics) => {
            Ok(Loaded { agent, root: v.root, sources: v.sources, warnings: v.prov.diagnostics, recorded })
        }
        _ => Err(Failure { diagnostics: v.prov.diagnostics, sources: v.sources }),
    }
}

/// Lays each `--set KEY=VALUE` (and `CTXC_` variable) over the manifest; those from Zeph's
/// variables only on the `zeph` preset. The keys set, or the first that does not parse.
fn apply_overrides(user: &mut RawManifest, overrides: &[String]) -> Result<Vec<String>, Diagnostic> {
    let preset = user.pipeline.as_ref().and_then(|p| p.preset.as_ref()).map(|p| p.value.clone());
    let overrides: Vec<&str> = overrides
        .iter()
        .filter_map(|arg| match env::only_under(arg) {
            (Some(only), arg) => (preset.as_deref() == Some(only)).then_some(arg),
            (None, arg) => Some(arg),
        })
        .collect();
    for arg in overrides.iter().copied() {
        match parse_override(arg) {
            Ok(fragment) => user.overlay(fragment),
            Err(message) => return Err(Diagnostic::error(format!("--set {arg}: {message}")).code(Code::MAN001)),
        }
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
    root: ProjectRoot,
    /// The manifest's path relative to the root.
    rel: String,
    sources: Sources,
    /// The manifest's text, where its values are written, the keys overrides set, and the
    /// problems found.
    prov: Provenance,
    /// Skill bodies by SKILL.md path, filled while reading skills.
    skill_bodies: BTreeMap<String, String>,
}

impl Validator {
    /// The counts of `ctxc.counts` beside the manifest: `None` when there is none; a file that
    /// does not parse is an error at its line and column.
    fn recorded_counts(&mut self) -> Option<std::sync::Arc<crate::counts::Recorded>> {
        let file = match self.root.read(crate::counts::FILE_NAME) {
            Ok(file) => file,
            Err(ReadError::Missing(_)) => return None,
            Err(e) => {
                let shown = self.root.display_path(crate::counts::FILE_NAME);
                self.prov.diagnostics.push(e.into_diagnostic().in_file(&shown));
                return None;
            }
        };
        match crate::counts::Recorded::parse(&file.text) {
            Ok(recorded) => Some(std::sync::Arc::new(recorded)),
            Err(e) => {
                let at = crate::diagnostic::offset_of(&file.text, e.line, e.column);
                self.sources.insert_shared(&file.display, file.text.clone());
                let d = Diagnostic::error(format!("{}: {}", crate::counts::FILE_NAME, e.message))
                    .code(Code::MAN001)
                    .in_file(&file.display)
                    .at(Some(at..at))
                    .label("here")
                    .help("the file is written by `ctxc counts sync`: run it again, or resolve the merge line by line");
                self.prov.diagnostics.push(d);
                None
            }
        }
    }

    /// Reads a referenced file; `template` is `None` to decide by the `.j2` extension.
    fn read(&mut self, reference: &Spanned<String>, template: Option<bool>) -> Option<TextFile> {
        match self.root.read(&reference.value) {
            Ok(file) => {
                self.sources.insert_shared(&file.display, file.text.clone());
                let template = template.unwrap_or(file.rel.ends_with(".j2"));
                Some(TextFile { path: file.rel, text: file.text, template, template_root: Default::default() })
            }
            Err(e) => {
                self.prov.read_error(e, self.prov.span(reference, &reference.value));
                None
            }
        }
    }

    /// The agent's `chat_template`, read and compiled: a tokenizer configuration's template, or a
    /// `.jinja` file with the special tokens of the `tokenizer_config.json` beside it (as
    /// transformers loads a tokenizer folder). One named in the manifest is read inside the
    /// project; one set by `--chat-template` (or `--set`, a `CTXC_` variable) anywhere, links
    /// followed, under the same rules otherwise (a regular UTF-8 file under the size limit).
    fn chat_template(&mut self, reference: &Spanned<String>) -> Option<Arc<crate::providers::chat_template::ChatTemplate>> {
        use crate::providers::chat_template::ChatTemplate;
        let from_command_line = self.prov.overridden("agent.chat_template");
        let span = if from_command_line { None } else { self.prov.span(reference, &reference.value) };
        let read = |this: &Self, reference: &str| match from_command_line {
            true => crate::project::read_outside(Path::new(reference), reference).map(|text| (reference.to_string(), text)),
            false => this.root.read(reference).map(|file| (file.display, file.text)),
        };
        let (display, text) = match read(self, &reference.value) {
            Ok(file) => file,
            Err(e) => {
                self.prov.read_error(e, span);
                return None;
            }
        };
        self.sources.insert_shared(&display, text.clone());
        let loaded = if reference.value.ends_with(".json") {
            ChatTemplate::from_files(Some((&display, &text)), None)
        } else {
            let beside = match (from_command_line, reference.value.rsplit_once('/')) {
                (true, _) => Path::new(&reference.value).with_file_name("tokenizer_config.json").display().to_string(),
                (false, Some((dir, _))) => format!("{dir}/tokenizer_config.json"),
                (false, None) => "tokenizer_config.json".to_string(),
            };
            let config = match read(self, &beside) {
                Ok(config) => Some(config),
                Err(ReadError::Missing(_)) => None,
                Err(e) => {
                    self.prov.read_error(e, span);
                    return None;
                }
            };
            if let Some((config_display, config_text)) = &config {
                self.sources.insert_shared(config_display, config_text.clone());
            }
            ChatTemplate::from_files(config.as_ref().map(|(d, t)| (d.as_str(), &**t)), Some((&display, &text)))
        };
        let loaded = loaded.and_then(|t| {
            t.ok_or_else(|| {
                Diagnostic::error(format!("{display} has no `chat_template`"))
                    .code(Code::MAN010)
                    .in_file(&self.prov.file)
                    .at(span.clone())
                    .help("name the model's `chat_template.jinja`, or a tokenizer_config.json that holds its chat template")
            })
        });
        let found = match from_command_line {
            true => "given by --chat-template",
            false => "named by the manifest's `chat_template`",
        };
        match loaded {
            Ok(template) => Some(Arc::new(template.found(found))),
            Err(d) => {
                self.prov.diagnostics.push(d);
                None
            }
        }
    }

    fn budget(&self, budget: &Option<Spanned<u64>>) -> Option<Budget> {
        budget.as_ref().map(|b| Budget { tokens: b.value, origin: self.prov.origin(b, &b.value.to_string()) })
    }

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
                None if tokenizer.value.contains(['.', '/', '\\']) => tokenizer_file = self.tokenizer_file(tokenizer),
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

    /// The tokenizer file `tokenizer` names, checked where it is: one named in the manifest
    /// through the project's reader (inside the project, a regular file, no link out); one set by
    /// `--tokenizer` (or `--set`, a `CTXC_` variable) relative to the current folder, anywhere.
    /// Either way a regular file of at most [`MAX_TOKENIZER_BYTES`]; it is read once per run by
    /// the session.
    fn tokenizer_file(&mut self, tokenizer: &Spanned<String>) -> Option<TokenizerFileRef> {
        use crate::tokenizer_files::MAX_TOKENIZER_BYTES;
        let from_command_line = self.prov.overridden("agent.tokenizer");
        let located = match from_command_line {
            true => {
                let path = std::path::Path::new(&tokenizer.value);
                crate::project::locate_path(path, &tokenizer.value, MAX_TOKENIZER_BYTES)
            }
            false => self.root.locate(&tokenizer.value, MAX_TOKENIZER_BYTES),
        };
        let span = if from_command_line { None } else { self.prov.span(tokenizer, &tokenizer.value) };
        match located {
            Ok(path) => Some(TokenizerFileRef {
                path,
                shown: tokenizer.value.clone(),
                from_command_line,
                origin: Origin { file: self.prov.file.clone(), span },
            }),
            Err(e) => {
                let what = if from_command_line { "--tokenizer" } else { "`tokenizer`" };
                let d = self.prov.coded(e.code(), format!("tokenizer file ({what}): {}", e.message()), span);
                d.help = Some("name a model's tokenizer.json, tiktoken rank file or Tekken JSON".into());
                None
            }
        }
    }

    fn budgets(&mut self, raw: Option<&RawBudgets>) -> Budgets {
        let raw = raw.cloned().unwrap_or_default();
        let warn_ratio = raw.warn_ratio.unwrap_or(0.9);
        if let Some(r) = &raw.response_reserve {
            if let Reserve::Ratio(ratio) = r.value {
                if !(0.0..1.0).contains(&ratio) {
                    let span = self.prov.span(r, &ratio.to_string());
                    self.prov.error(format!("response_reserve {ratio} must be a share of the window below 1, or a token count"), span);
                }
            }
        }
        Budgets {
            system_prompt: self.budget(&raw.system_prompt),
            tool_schemas: self.budget(&raw.tool_schemas),
            response_reserve: raw.response_reserve.as_ref().map(|r| r.value),
            response_reserve_origin: raw.response_reserve.as_ref().map(|r| self.prov.origin(r, "response_reserve")),
            warn_ratio,
            require_exact: raw.require_exact.as_ref().filter(|r| r.value).map(|r| self.prov.origin(r, "require_exact")),
        }
    }

    /// `[snapshot] dir`, normalised (it must stay inside the project root), and where the
    /// manifest sets it: a folder from `--dir`, `--set` or a `CTXC_` variable has no line.
    fn snapshot_dir(&mut self, dir: Option<&Spanned<String>>) -> (String, Option<Origin>) {
        let Some(dir) = dir else { return (DEFAULT_SNAPSHOT_DIR.to_string(), None) };
        let origin = (!self.prov.overridden("snapshot.dir")).then(|| self.prov.origin(dir, &dir.value));
        let span = origin.as_ref().and_then(|o| o.span.clone());
        match self.root.normalize(&dir.value) {
            Ok(rel) if !rel.is_empty() => (rel, origin),
            Ok(_) => {
                self.prov.error("[snapshot] dir must name a folder below the manifest's directory", span).help =
                    Some(format!("the default is `{DEFAULT_SNAPSHOT_DIR}`"));
                (DEFAULT_SNAPSHOT_DIR.to_string(), None)
            }
            Err(e) => {
                self.prov.read_error(e, span);
                (DEFAULT_SNAPSHOT_DIR.to_string(), None)
            }
        }
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
        let chat_template = agent_raw.chat_template.as_ref().and_then(|reference| self.chat_template(reference));
        let budgets = self.budgets(raw.budgets.as_ref());
        let pipeline = raw.pipeline.clone().unwrap_or_default();
        let flags: IndexMap<String, bool> = raw.flags.clone();
        let template_root = self.template_root(raw.templates.as_ref());
        let modules = self.modules(&raw.modules, &template_root);
        let mut categories = self.categories(&raw.tools, &flags);
        let template_settings = self.template_settings(&agent_raw, &pipeline.steps);
        let steps = self.steps(pipeline.steps, &raw.modules, &flags);
        let modes = self.modes(&raw.modes, &modules, &steps, &categories, &template_root);
        let connectors: IndexMap<String, TextFile> =
            raw.connectors.iter().filter_map(|(name, c)| Some((name.clone(), self.read(&c.prompt, Some(false))?))).collect();
        // Deep Agents lists a skills source that does not exist as one with no skills, and 0.7 warns
        // about it in the prompt (skills.py, 0.4.12 and 0.7.32): a project without `skills/` is valid.
        let skip_missing = preset_name.as_ref().is_some_and(|p| p.value == "deepagents");
        let skills = self.skills(raw.skills.as_ref(), skip_missing);
        let (skill_locations, missing_skill_locations) = self.skill_locations(raw.skills.as_ref(), skip_missing);
        let memory_files = self.memory_files(raw.memory.as_ref(), skip_missing);
        let settings = self.settings(&raw);
        let scenarios = self.scenarios(&raw.scenarios, &flags, &connectors, &skills);
        self.template_variables(&modules, &modes, &scenarios);
        let project_context = self.walk_up(raw.memory.as_ref().and_then(|m| m.walk_up.as_deref()).unwrap_or_default());
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
        // AgentScope adds its compression tool to the toolkit on every reply, after the agent's tools.
        if systems.agentscope.as_ref().is_some_and(|s| s.compression_tool_enabled.value) {
            let file = RawToolFile::Path(crate::runtimes::agentscope::window::COMPRESSION_TOOL_FILE.to_string());
            let raw_category = RawCategory { title: Some("AgentScope's compression tool".into()), files: vec![file], ..Default::default() };
            categories.extend(self.categories(&IndexMap::from([("agentscope_compression".to_string(), raw_category)]), &flags));
        }
        // ADK offers `transfer_to_agent` before the agent's tools when it has agents to transfer to.
        if let Some(adk) = systems.adk.as_ref().filter(|a| !a.targets().is_empty()) {
            let file = RawToolFile::Path(crate::runtimes::adk::settings::TRANSFER_TOOL_FILE.to_string());
            let raw_category = RawCategory { title: Some("ADK's agent transfer".into()), files: vec![file], ..Default::default() };
            let mut transfer = self.categories(&IndexMap::from([("adk_transfer".to_string(), raw_category)]), &flags);
            transfer.iter_mut().flat_map(|c| &mut c.tools).for_each(|t| t.tool = adk.transfer_tool(&t.tool));
            categories.splice(0..0, transfer);
        }
        let (snapshot_dir, snapshot_dir_origin) = self.snapshot_dir(raw.snapshot.as_ref().and_then(|s| s.dir.as_ref()));
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
            skill_bodies: std::mem::take(&mut self.skill_bodies),
            systems,
            lint: raw.lint.unwrap_or_default(),
        })
    }

    /// Where the settings only a chat template renders are set `true`: `[agent] empty_tool_list`
    /// (no place when an override sets it) and each step's `new_message` (else the step's id).
    fn template_settings(&self, agent: &RawAgent, steps: &[RawStep]) -> Vec<(&'static str, Origin)> {
        let origin = |span| Origin { file: self.prov.file.clone(), span };
        let mut settings = Vec::new();
        if let Some(set) = agent.empty_tool_list.as_ref().filter(|v| v.value) {
            let span = match self.prov.overridden("agent.empty_tool_list") {
                true => None,
                false => set.span.clone().or_else(|| self.prov.locate_path(&["agent", "empty_tool_list"])),
            };
            settings.push(("empty_tool_list", origin(span)));
        }
        for step in steps {
            if let Some(set) = step.new_message.as_ref().filter(|v| v.value) {
                settings.push(("new_message", origin(set.span.clone().or_else(|| self.prov.span(&step.id, &step.id.value)))));
            }
        }
        settings
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

    /// The skill folders the manifest lists, normalized, and (under the Deep Agents preset, which
    /// skips them) those that do not exist.
    fn skill_locations(&self, skills: Option<&RawSkills>, skip_missing: bool) -> (Vec<String>, Vec<String>) {
        let locations: Vec<String> =
            skills.iter().flat_map(|s| &s.dirs).map(|d| self.root.normalize(&d.value).unwrap_or_else(|_| d.value.clone())).collect();
        let missing = match skip_missing {
            true => locations.iter().filter(|d| matches!(self.root.resolve(d), Err(ReadError::Missing(_)))).cloned().collect(),
            false => Vec::new(),
        };
        (locations, missing)
    }

    /// The static memory files, read; a missing one is MEM001. Deep Agents' MemoryMiddleware skips
    /// a memory file that does not exist (memory.py, 0.4.12 and 0.7.32): under its preset
    /// (`skip_missing`) a missing file is left out, not an error.
    fn memory_files(&mut self, memory: Option<&RawMemory>, skip_missing: bool) -> Vec<TextFile> {
        let Some(memory) = memory else { return Vec::new() };
        let before = self.prov.diagnostics.len();
        let present: Vec<_> =
            memory.files.iter().filter(|f| !(skip_missing && matches!(self.root.resolve(&f.value), Err(ReadError::Missing(_))))).collect();
        let files = present.into_iter().filter_map(|f| self.read(f, Some(false))).collect();
        self.prov.diagnostics[before..].iter_mut().filter(|d| d.code == Some(Code::MAN002)).for_each(|d| d.code = Some(Code::MEM001));
        files
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

    fn modules(
        &mut self,
        raw: &IndexMap<String, RawModule>,
        template_root: &crate::templates::TemplateRoot,
    ) -> IndexMap<String, ModuleFiles> {
        let mut modules = IndexMap::new();
        for (id, module) in raw {
            let files = match (&module.source, module.variants.is_empty()) {
                (Some(source), true) => self.read(source, module.template).map(ModuleFiles::Single),
                (None, false) => {
                    let variants: IndexMap<String, TextFile> =
                        module.variants.iter().filter_map(|(name, path)| Some((name.clone(), self.read(path, module.template)?))).collect();
                    (variants.len() == module.variants.len()).then_some(ModuleFiles::Variants(variants))
                }
                _ => {
                    let span = self.prov.locate(id);
                    self.prov.error(format!("module `{id}` needs either `source` or `variants` (exactly one)"), span);
                    None
                }
            };
            if let Some(files) = files.and_then(|files| self.module_files(module, files, template_root)) {
                modules.insert(id.clone(), files);
            }
        }
        modules
    }

    /// The skills of every folder, a later folder's skill replacing an earlier one of its name
    /// in place. With `skip_missing`, a folder that does not exist holds no skills.
    fn skills(&mut self, raw: Option<&RawSkills>, skip_missing: bool) -> Vec<Skill> {
        let mut skills: Vec<Skill> = Vec::new();
        let mut by_name: HashMap<String, usize> = HashMap::new();
        for dir in raw.iter().flat_map(|s| &s.dirs) {
            let span = self.prov.span(dir, &dir.value);
            let found = match self.root.find_files(&dir.value, "SKILL.md") {
                Ok(found) => found,
                Err(ReadError::Missing(_)) if skip_missing => continue,
                Err(e) => {
                    self.prov.read_error(e, span);
                    continue;
                }
            };
            for path in found {
                // A file the walk found is located at the folder that led to it.
                let path = match path {
                    Ok(path) => path,
                    Err(e) => {
                        self.prov.read_error(e, span.clone());
                        continue;
                    }
                };
                let Some(file) = self.read(&Spanned { value: path, span: span.clone() }, Some(false)) else { continue };
                // Skills are often shared by many agents of a project: parse each one once.
                let key = content_hash(&file.path).rotate_left(64) ^ file.text.hash();
                match self.root.cache().get_or_insert(Kind::Skill, key, || parse_skill(&file.path, &file.text)) {
                    Ok(skill) => {
                        let body = file.text.get(skill.body_offset..).unwrap_or_default();
                        self.skill_bodies.insert(file.path.clone(), body.to_string());
                        match by_name.get(&skill.name) {
                            Some(&at) => skills[at] = skill,
                            None => {
                                by_name.insert(skill.name.clone(), skills.len());
                                skills.push(skill);
                            }
                        }
                    }
                    Err(e) => {
                        let display = self.root.display_path(&file.path);
                        self.prov.diagnostics.push(
                            Diagnostic::error(e.message).code(e.code).in_file(display).at(e.offset.map(|o| o..o)).label("in this skill"),
                        );
                    }
                }
            }
        }
        skills
    }

    fn settings(&mut self, raw: &RawManifest) -> Settings {
        let mut retrieval = Retrieval::default();
        if let Some(r) = raw.memory.as_ref().and_then(|m| m.retrieval.as_ref()) {
            retrieval.top_k = r.top_k.unwrap_or(retrieval.top_k);
            retrieval.max_chars = r.max_chars.unwrap_or(retrieval.max_chars);
            if let Some(scopes) = &r.scopes {
                retrieval.scopes = scopes.clone();
            }
            if let Some(w) = &r.weights {
                (retrieval.weight_similarity, retrieval.weight_confidence, retrieval.weight_scope) = (w.similarity, w.confidence, w.scope);
            }
        }
        Settings {
            retrieval,
            history_messages: raw.history.as_ref().and_then(|h| h.max_messages),
            summarization_trigger: raw.summarization.as_ref().and_then(|s| s.trigger_ratio.as_ref().map(|t| t.value)),
            summarization_trigger_origin: raw
                .summarization
                .as_ref()
                .and_then(|s| s.trigger_ratio.as_ref().map(|t| self.prov.origin(t, "trigger_ratio"))),
            summarization_keep: raw.summarization.as_ref().and_then(|s| s.keep_messages),
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

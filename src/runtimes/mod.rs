//! The runtimes ctxc models, one folder each (`src/runtimes/<name>/`), one file per role, and
//! the table that says which runtime has which role. Each role file sits in the layer of the
//! stage that uses it (`tests/integration/architecture.rs`, `RUNTIME_ROLES`):
//!
//! - `release.rs` (shared): what the runtime's preset models, for reports, `ctxc --version` and
//!   `simulate`, when that is one fixed release;
//! - `window.rs` (shared): its manifest section's validated settings, the releases they follow,
//!   and the window numbers it derives from them (what `measure` reports per mode and scenario);
//! - `settings.rs` (shared): its manifest section as written, laid over the preset's, and its
//!   validation, each value with its provenance (`crate::provenance`);
//! - `steps.rs` (resolve): the runtime's own step kinds, when each adds text and the text;
//! - `measure.rs` (measure): what its window numbers depend on in one render, counted its way;
//! - `checks.rs` (checks): its settings checked against what was measured (SET rules);
//! - `policy.rs` (simulate): its context policy over a conversation, call by call, for
//!   `ctxc simulate` (written against `crate::conversation`);
//! - `report.rs` (report): its rows in `ctxc cost`'s window table ([`WindowRows`]: text;
//!   `report` lays them out);
//! - `starter.rs` (report): the files of its `ctxc init --preset` starter;
//! - `import.rs` (report): `ctxc import <name>`, a manifest from the runtime's own project
//!   format (the command's arm in `src/cli/import.rs` calls it);
//! - `upstream.rs` (report): `ctxc upstream`'s reader of the runtime's own texts: the script
//!   (`upstream.py` beside it) and the files it writes ([`UpstreamReader`]), what the script is
//!   told about the agent, and the release the manifest selects and the one installed
//!   ([`Upstream`]; `src/upstream.rs` runs the script and writes the files).
//!
//! Like the rule table (`src/codes.rs`), `runtime_table!` is one list expanded where each role
//! is dispatched: here into [`Runtime`] and the release of each; in `resolve` and `render` into a
//! match on the step kind; in the manifest stage (`settings`) and the settings checks (`checks`)
//! into a call per runtime with a manifest section; in `simulate` (`policy`) into an enum of the
//! policies and a match per call; in `report` (`report`) into a call per runtime with window
//! numbers; in `upstream` (`upstream`) into a match on the manifest's preset; in the
//! manifest stage's environment overrides (`env`) into the list of each runtime's variables. A stage calls a
//! runtime's role through that match, a plain function call, so no stage imports a layer above
//! its own.

pub mod adk;
pub mod agentscope;
pub mod deepagents;
pub mod zeph;
pub mod zeus;

use serde_json::Value;

pub use crate::provenance::Setting;

/// Calls `$callback!` with one row of the table: `ids` (every runtime: its id and preset, in
/// the order of `presets`), or a role and the runtimes that have it. `steps` names, per runtime,
/// each of its step kinds with the functions of its `steps.rs` that say why the step adds
/// nothing here (`fn(&Step, &Agent, &Scenario) -> Option<String>`, `None` when it adds text)
/// and what it adds (`fn(&Agent, &Scenario, module) -> StepText`, `module` being the file of
/// the step's module in the mode), and optionally why it adds it (`fn(&Step, &Agent, &Scenario)
/// -> String`; "always" without one). `settings` names the runtimes with a manifest section,
/// `[<name>]`, in the order its problems are reported: the field `<name>` of the raw manifest
/// and of `systems::Systems`, validated by `<name>::settings::validate`. `checks` names the
/// runtimes whose settings are checked against what was measured, in the order findings are
/// reported: `<name>::checks::check(agent, settings, measured)`. `policy` names the runtimes
/// with a context policy for `simulate`, in the order they are tried, each with its policy's
/// type (and its lifetime, `'c`, when it borrows the token counter): `<name>::policy::policy(agent,
/// rendered, measured, counter)` gives it when the agent has that runtime's settings. `report`
/// names the runtimes with rows in `ctxc cost`'s window table, in the order they are printed:
/// `<name>::report::rows(window, scenario)` for the runtime's window numbers of one render
/// (`measure::Window`'s field `<name>`). `upstream` names the runtimes whose texts `ctxc
/// upstream` reads, each with its id, in the order its message lists their presets:
/// `<name>::upstream::READER` and `<name>::upstream::read(raw, root, manifest, model, read)`.
/// `env` names the runtimes that read environment variables of their own for settings ctxc
/// models, each with its id: `<name>::settings::ENV_VARS` (variable, manifest key), applied to
/// agents on its preset only, and `ENV_HELP` for a value that does not fit. `tools` names the
/// runtimes that add a tool of their own to the agent's, in the order they are added:
/// `<name>::settings::added_tool(settings)` says whether its settings add one ([`AddedTool`])
/// and `<name>::settings::shape_tool(settings, tool)` what it makes of the file's tool.
/// `missing_sources` names the runtimes that read a skills or memory source that does not
/// exist as an empty one ([`Runtime::reads_missing_sources_as_empty`]).
macro_rules! runtime_table {
    (ids $callback:ident) => {
        $callback! {
            Zeus "zeus",
            Deepagents "deepagents",
            Zeph "zeph",
            Agentscope "agentscope",
            Adk "adk",
        }
    };
    (release $callback:ident) => {
        $callback! { Zeus zeus, Adk adk }
    };
    (settings $callback:ident) => {
        $callback! { deepagents, zeph, agentscope, adk }
    };
    (checks $callback:ident) => {
        $callback! { deepagents, zeph, agentscope }
    };
    (policy $callback:ident) => {
        $callback! { deepagents DeepAgents, agentscope AgentScope<'c>, zeph Zeph<'c>, adk Adk<'c> }
    };
    (report $callback:ident) => {
        $callback! { deepagents, zeph, agentscope }
    };
    (env $callback:ident) => {
        $callback! { Zeph zeph }
    };
    (tools $callback:ident) => {
        $callback! { agentscope, adk }
    };
    (missing_sources $callback:ident) => {
        $callback! { Deepagents }
    };
    (upstream $callback:ident) => {
        $callback! { Deepagents deepagents, Agentscope agentscope, Adk adk }
    };
    (steps $callback:ident) => {
        $callback! {
            zeus { ZeusSkills: skills_missing, skills_text; }
            deepagents {
                HumanInTheLoop: interrupts_missing, interrupts_text, interrupts_present;
                AgentMemory: memory_missing, memory_text;
                SkillLocations: skills_missing, skills_text;
            }
            zeph {
                ProjectContext: context_missing, context_text;
                ActiveSkills: active_missing, active_text;
                OtherSkills: others_missing, others_text;
                BudgetHint: hint_missing, hint_text;
            }
            agentscope {
                AgentSkills: skills_missing, skills_text;
                Workspace: workspace_missing, workspace_text;
            }
            adk {
                AdkInstruction: instruction_missing, instruction_text;
                AdkIdentity: identity_missing, identity_text;
                AdkTransfer: transfer_missing, transfer_text;
            }
        }
    };
}
pub(crate) use runtime_table;

/// What a runtime's own step kind adds, with the files it comes from (`F`: the agent's file).
pub enum StepText<F> {
    /// A file as written (a template is rendered), its line breaks at the end trimmed.
    File(F),
    /// Generated text; the line breaks at its ends are trimmed, as a generic step's are.
    Text(Vec<String>, String),
    /// Generated text around files (module files may be templates), kept as the runtime
    /// writes it.
    Parts(Vec<String>, Vec<Part<F>>),
}

/// A piece of [`StepText::Parts`].
pub enum Part<F> {
    Text(String),
    File(F),
}

macro_rules! ids {
    ($($id:ident $preset:literal),* $(,)?) => {
        /// A runtime ctxc models, named by its preset.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Runtime {
            $($id,)*
        }

        impl Runtime {
            /// Every runtime, in the table's order.
            pub const ALL: &[Runtime] = &[$(Runtime::$id,)*];

            /// The name of its preset (`presets/<name>.toml`).
            pub fn preset(self) -> &'static str {
                match self {
                    $(Runtime::$id => $preset,)*
                }
            }
        }

        /// The built-in presets: each runtime's name and `presets/<name>.toml`.
        pub const PRESETS: &[(&str, &str)] = &[$(($preset, include_str!(concat!("../../presets/", $preset, ".toml"))),)*];
    };
}
runtime_table!(ids ids);

macro_rules! release {
    ($($id:ident $runtime:ident),* $(,)?) => {
        impl Runtime {
            /// What the preset models when that is one fixed release (a runtime whose release
            /// follows from its settings says so through its settings).
            pub fn release(self) -> Option<&'static str> {
                match self {
                    $(Runtime::$id => Some($runtime::release::MODELS),)*
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        }
    };
}
runtime_table!(release release);

macro_rules! missing_sources {
    ($($id:ident),* $(,)?) => {
        impl Runtime {
            /// Whether the runtime reads a skills or memory source that does not exist as one
            /// with nothing in it (Deep Agents lists such a skills source with no skills, and
            /// 0.7 warns about it in the prompt: skills.py, 0.4.12 and 0.7.32), so that a project
            /// without it is valid.
            pub fn reads_missing_sources_as_empty(self) -> bool {
                matches!(self, $(Runtime::$id)|*)
            }
        }
    };
}
runtime_table!(missing_sources missing_sources);

impl Runtime {
    /// The runtime of a preset, if the preset is one's.
    pub fn of_preset(preset: &str) -> Option<Runtime> {
        Runtime::ALL.iter().copied().find(|r| r.preset() == preset)
    }
}

/// What a runtime's manifest section is validated with from the rest of the manifest (its
/// `settings.rs`'s `validate`).
pub struct AgentFacts<'a> {
    /// `[agent] name`.
    pub name: &'a str,
    /// `[agent] model` as written, empty without one.
    pub model: &'a str,
    /// The model's provider in ctxc's table.
    pub provider: &'a str,
    /// `[agent] context_window` and `max_output_tokens`, when set.
    pub context_window: Option<u64>,
    pub max_output_tokens: Option<u64>,
    /// `[history] max_messages`.
    pub history_max_messages: Option<usize>,
    /// Whether `[memory] files` names a file.
    pub memory: bool,
}

/// A tool a runtime adds itself (its `settings.rs`'s `added_tool`, the table's `tools` row): a
/// tool category read from a file beside the manifest, as the manifest's own are.
pub struct AddedTool {
    /// The category's id and title.
    pub category: &'static str,
    pub title: &'static str,
    /// The tool file, relative to the manifest.
    pub file: &'static str,
    /// Whether the runtime offers it before the agent's tools (else after them).
    pub first: bool,
}

/// A runtime's rows in `ctxc cost`'s window table (its `report.rs`), as text: `report` lays
/// them out for the terminal or Markdown.
pub struct WindowRows {
    /// The line above the rows.
    pub title: String,
    /// Label, tokens (a number, a count of messages, or empty) and note.
    pub rows: Vec<(&'static str, String, String)>,
}

/// How `ctxc upstream` reads a runtime's texts (its `upstream.rs`'s `READER`): its package, the
/// script that prints them, and the files under `upstream/` the manifest refers to.
pub struct UpstreamReader {
    pub package: &'static str,
    /// Python, run in the user's interpreter with a list of [`UpstreamAgent`]s as JSON on its
    /// stdin; it prints a list of [`UpstreamTexts`] as JSON, one per agent, in order.
    pub script: &'static str,
    /// The texts the script prints; a text the release lacks is an empty file.
    pub texts: &'static [&'static str],
    /// The file under `upstream/` of a text.
    pub text_file: fn(&str) -> String,
    /// The file of the built-in tool schemas, for a runtime that binds tools of its own.
    pub tools_file: Option<&'static str>,
    /// What to install when the package is missing.
    pub install: &'static str,
}

/// What the agent is, as far as the release's texts depend on it (what the script reads on its
/// stdin).
#[derive(Debug, Clone, serde::Serialize)]
pub struct UpstreamAgent {
    /// The model's name, without a provider prefix.
    pub model: String,
    /// LangChain's provider name (`anthropic`, `openai`, …): Deep Agents 0.7 picks a harness
    /// profile by it.
    pub provider: Option<String>,
    /// The subagents, which Deep Agents 0.4's task prompt and the `task` tool list.
    pub subagents: Vec<UpstreamSubagent>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct UpstreamSubagent {
    pub name: String,
    pub description: Option<String>,
}

/// One release's texts, as its script printed them.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpstreamTexts {
    pub package: String,
    pub version: String,
    pub texts: std::collections::BTreeMap<String, String>,
    /// Where each text comes from in the package (for the sources file).
    pub sources: std::collections::BTreeMap<String, String>,
    /// The tools the runtime binds, as OpenAI function tools.
    pub builtin_tools: Vec<Value>,
}

/// What a runtime's `upstream.rs` read: the texts, the release the manifest selects (`None`
/// when it selects none) and the installed one, which the manifest records when they differ.
pub struct Upstream {
    pub texts: UpstreamTexts,
    pub selected: Option<String>,
    pub installed: String,
}

/// A configured number as the window table prints it (not a tokenizer count, so no `~`):
/// thousands separated; a value past `i64` prints as `i64::MAX`.
pub fn number(value: impl TryInto<i64>) -> String {
    crate::diagnostic::grouped(value.try_into().unwrap_or(i64::MAX))
}

/// `0.85` as `85 %`.
pub fn pct(ratio: f64) -> String {
    let p = ratio * 100.0;
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0} %")
    } else {
        format!("{p:.1} %")
    }
}

/// `ratio × tokens`, rounded down, as the systems compute their thresholds.
pub fn share_of(ratio: f64, tokens: u64) -> u64 {
    (ratio * tokens as f64).max(0.0).floor() as u64
}

/// Python's `str.title`: every run of letters capitalized (Deep Agents' skill
/// source labels, LangChain's tool schema titles).
pub fn title_case(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_word = false;
    for c in text.chars() {
        match (c.is_alphabetic(), in_word) {
            (true, false) => out.extend(c.to_uppercase()),
            (true, true) => out.extend(c.to_lowercase()),
            (false, _) => out.push(c),
        }
        in_word = c.is_alphabetic();
    }
    out
}

/// Python's `repr` of a JSON value as `json.loads` gives it.
pub fn py_repr(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 1e16 => format!("{f:.1}"),
            (_, _, Some(f)) => format!("{f:?}"),
            _ => n.to_string(),
        },
        Value::String(s) => py_str(s),
        Value::Array(items) => format!("[{}]", items.iter().map(py_repr).collect::<Vec<_>>().join(", ")),
        Value::Object(o) => {
            format!("{{{}}}", o.iter().map(|(k, v)| format!("{}: {}", py_str(k), py_repr(v))).collect::<Vec<_>>().join(", "))
        }
    }
}

/// Python's `repr` of a string: single quotes unless it holds one and no double quote.
pub fn py_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || (0x7f..0xa0).contains(&(c as u32)) => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

//! The runtimes ctxc models, one folder each (`src/runtimes/<name>/`), one file per role, and
//! the table that says which runtime has which role. Each role file sits in the layer of the
//! stage that uses it (`tests/integration/architecture.rs`, `RUNTIME_ROLES`):
//!
//! - `release.rs` (shared): what the runtime's preset models, for reports, `ctxc --version` and
//!   `simulate`;
//! - `steps.rs` (resolve): the runtime's own step kinds, when each adds text and the text;
//! - `starter.rs` (report): the files of its `ctxc init --preset` starter.
//!
//! Like the rule table (`src/codes.rs`), `runtime_table!` is one list expanded where each role
//! is dispatched: here into [`Runtime`] and the release of each; in `resolve` and `render` into a
//! match on the step kind. A stage calls a runtime's role through that match, a plain function
//! call, so no stage imports a layer above its own.

pub mod agentscope;
pub mod zeus;

/// Calls `$callback!` with one row of the table: `ids` (every runtime: its id and preset, in
/// the order of `presets`), or a role and the runtimes that have it. `steps` names, per runtime,
/// each of its step kinds with the functions of its `steps.rs` that say why the step adds
/// nothing here (`fn(&Step, &Agent, &Scenario) -> Option<String>`, `None` when it adds text)
/// and what it adds (`fn(&Agent, &Scenario, module) -> StepText`, `module` being the file of
/// the step's module in the mode).
macro_rules! runtime_table {
    (ids $callback:ident) => {
        $callback! {
            Zeus "zeus",
            Deepagents "deepagents",
            Zeph "zeph",
            Agentscope "agentscope",
        }
    };
    (release $callback:ident) => {
        $callback! { Zeus zeus }
    };
    (steps $callback:ident) => {
        $callback! {
            zeus { ZeusSkills: skills_missing, skills_text; }
            agentscope {
                AgentSkills: skills_missing, skills_text;
                Workspace: workspace_missing, workspace_text;
            }
        }
    };
}
pub(crate) use runtime_table;

/// What a runtime's own step kind adds, with the files it comes from (`F`: the agent's file).
pub enum StepText<F> {
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

impl Runtime {
    /// The runtime of a preset, if the preset is one's.
    pub fn of_preset(preset: &str) -> Option<Runtime> {
        Runtime::ALL.iter().copied().find(|r| r.preset() == preset)
    }
}

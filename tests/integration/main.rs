//! The integration tests that run in this one process: the library called directly, and the
//! binary run on scratch projects a test builds first (one file per subject below). The other
//! test binaries are `cmd` (the CLI as terminal sessions, run by trycmd), `hostile` (hostile
//! input, each run measured in a process of its own) and `runtimes` (differential tests against
//! the real runtimes); docs/architecture.md ("Tests") says which goes where.

#[path = "../common/mod.rs"]
mod common;

/// insta's `assert_snapshot!`, with the snapshots kept in `tests/snapshots/` (the project's layout
/// puts them at the top of `tests/`, beside `src`, `schemas` and `examples/agents`). insta reads a
/// relative snapshot path from the folder of the file that asserts.
macro_rules! assert_snapshot {
    ($($arguments:tt)*) => {
        insta::with_settings!({ snapshot_path => "../snapshots" }, {
            insta::assert_snapshot!($($arguments)*)
        })
    };
}

mod agent_kinds;
mod architecture;
mod chat_template;
mod check;
mod claude_files;
mod cli;
mod corpus;
mod cost;
mod counts;
mod editors;
mod fixes;
mod fuzz_regressions;
mod host_files;
mod host_view;
mod html;
mod integrations;
mod lsp;
mod mcp;
mod mcp_record;
mod output;
mod packaging;
mod plugins;
mod presets;
mod render;
mod review;
mod rule_fixes;
mod rules;
mod scaffold;
mod schema;
mod simulate;
mod skills_ref;
mod snapshot_api;
mod templates;
mod tokenizer_files;
mod tool_files;
mod watch;
mod zeus;

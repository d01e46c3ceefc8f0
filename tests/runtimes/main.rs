//! Differential tests against the real runtimes `scripts/runtimes` installs under
//! `target/runtimes/` (one module per runtime; the harness each runs beside it in its folder).
//! Every test here is ignored by a plain `cargo test` and run by `scripts/test`
//! (`--include-ignored`); run without its runtime installed, a test fails and says how to install
//! it. With `CTXC_SKIP_RUNTIMES=1`, `scripts/test` installs no runtime and runs this binary
//! without `--include-ignored`, so its tests are reported as ignored, never as passed.

#[path = "../common/mod.rs"]
mod common;

mod adk;
mod adk_simulate;
mod agentscope;
mod agentscope_import;
mod agentscope_simulate;
mod chat_template;
mod claude_code;
mod codex;
mod deepagents;
mod gemini_cli;
mod harmony;
mod jinja;
mod mcp_servers;
mod models;
mod opencode;
mod tokenizer_files;
mod typescript;
mod zeph;

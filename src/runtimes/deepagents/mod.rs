//! Deep Agents (the `deepagents` preset; `deepagents` on PyPI, releases 0.4 and 0.7 and later).
//! Its context policy, importer and upstream reader are still in `src/simulate/deepagents.rs`,
//! `src/import/deepagents.rs` and `src/import/upstream.rs`.

pub mod checks;
pub mod settings;
pub mod steps;
pub mod window;

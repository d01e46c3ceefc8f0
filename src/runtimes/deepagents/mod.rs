//! Deep Agents (the `deepagents` preset; `deepagents` on PyPI, releases 0.4 and 0.7 and later).

pub mod checks;
pub mod import;
pub mod policy;
pub mod report;
pub mod settings;
pub mod steps;
pub mod upstream;
pub mod window;

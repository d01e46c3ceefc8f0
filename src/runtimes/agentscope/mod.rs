//! AgentScope (the `agentscope` preset). Its window settings, releases, settings checks and
//! context policy are still in `src/systems/agentscope.rs`, `src/checks/settings/agentscope.rs`
//! and `src/simulate/agentscope.rs`.

pub mod steps;

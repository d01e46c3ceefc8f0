//! AgentScope (the `agentscope` preset). Its settings checks, context policy, report rows and
//! upstream reader are still in `src/checks/settings/agentscope.rs`,
//! `src/simulate/agentscope.rs`, `src/report/systems.rs` and `src/import/upstream.rs`.

pub mod steps;
pub mod window;

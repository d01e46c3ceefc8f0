//! AgentScope (the `agentscope` preset). Its context policy and upstream reader are still in
//! `src/simulate/agentscope.rs` and `src/import/upstream.rs`.

pub mod checks;
pub mod import;
pub mod report;
pub mod settings;
pub mod steps;
pub mod window;

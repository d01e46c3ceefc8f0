//! AgentScope (the `agentscope` preset). Its upstream reader is still in `src/upstream.rs`.

pub mod checks;
pub mod import;
pub mod policy;
pub mod report;
pub mod settings;
pub mod steps;
pub mod window;

//! AgentScope (the `agentscope` preset).

pub mod checks;
pub mod import;
pub mod policy;
pub mod report;
pub mod settings;
pub mod steps;
pub mod upstream;
pub mod window;

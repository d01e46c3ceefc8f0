//! Google's Agent Development Kit (`google-adk` on PyPI, the `adk` preset): the system
//! instruction an `LlmAgent` sends (global instruction, instruction with session state filled
//! in, identity, agent transfer) and its `transfer_to_agent` declaration, compared byte for
//! byte with the installed ADK (tests/runtimes/adk.rs), and its events compaction for `simulate`
//! (tests/runtimes/adk_simulate.rs).

pub mod import;
pub mod policy;
pub mod release;
pub mod settings;
pub mod starter;
pub mod steps;
pub mod upstream;

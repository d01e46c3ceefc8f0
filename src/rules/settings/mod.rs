//! The settings family: settings sanity: the window settings of the Deep Agents, Zeph and AgentScope presets (SET0NN, the settings stage), and the summarization, reserve, retrieval and history settings (SET1NN, the lint stage).

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Settings sanity: the window settings of the Deep Agents, Zeph and AgentScope presets (SET0NN, the settings stage), and the summarization, reserve, retrieval and history settings (SET1NN, the lint stage).";

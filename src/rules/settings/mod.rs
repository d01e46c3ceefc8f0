//! The settings family: settings sanity: the window settings of the Deep Agents, Zeph and AgentScope presets (SET0NN, the settings stage), and the summarization, reserve, retrieval and history settings (SET1NN, the lint stage).

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod set001_deepagents_trigger_out_of_range;
pub mod set002_deepagents_keep_not_below_trigger;
pub mod set003_fixed_context_reaches_trigger;
pub mod set004_deepagents_offload_threshold;
pub mod set005_zeph_shares_sum;
pub mod set006_zeph_fixed_outgrows_history;
pub mod set007_zeph_compaction_threshold;
pub mod set008_zeph_preserve_tail;
pub mod set009_zeph_prune_protect_too_large;
pub mod set010_zeph_tool_output_limit;
pub mod set011_zeph_budget_exceeds_window;
pub mod set012_zeph_reserve_out_of_range;
pub mod set013_agentscope_trigger_out_of_range;
pub mod set014_agentscope_reserve_not_below_trigger;
pub mod set015_agentscope_tool_result_limit;
pub mod set101_trigger_out_of_range;
pub mod set102_reserve_overlaps_trigger;
pub mod set103_weights_sum;
pub mod set104_keep_exceeds_history;
pub mod set105_retrieval_bound_zero;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Settings sanity: the window settings of the Deep Agents, Zeph and AgentScope presets (SET0NN, the settings stage), and the summarization, reserve, retrieval and history settings (SET1NN, the lint stage).";

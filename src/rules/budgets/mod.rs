//! The budgets family: token budgets and the context window (the findings of the budget stage).

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod budget001_over_budget;
pub mod budget002_near_budget;
pub mod budget003_summarization_on_first_turn;
pub mod budget004_no_room_for_response;
pub mod budget005_count_not_recorded;
pub mod budget006_workload_over_policy;
pub mod budget007_implausible_count;
pub mod budget008_host_over_budget;
pub mod budget009_listing_entries_left_out;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Token budgets and the context window (the findings of the budget stage).";

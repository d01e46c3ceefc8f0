//! The OpenHands family: microagents (`.openhands/microagents/`).

use std::ops::Range;

use crate::agent_files::{Doc, FileKind};
use crate::rules::context::Context;
use crate::rules::frontmatter::has_yaml_error;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod openhands001_invalid_frontmatter;
pub mod openhands002_type_invalid;
pub mod openhands003_knowledge_not_triggered;
pub mod openhands004_repo_not_always_on;
pub mod openhands005_task_without_inputs;
pub mod openhands006_input_invalid;
pub mod openhands007_variable_undeclared;
pub mod openhands008_input_unused;
pub mod openhands009_triggers_not_list;
pub mod openhands010_trigger_too_generic;
pub mod openhands011_duplicate_trigger;
pub mod openhands012_mcp_tools_no_stdio;
pub mod openhands013_unknown_field;
pub mod openhands014_empty_body;
pub mod openhands015_readme_not_loaded;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "OpenHands microagents (`.openhands/microagents/`).";

/// The microagent type OpenHands infers from the fields, whatever `type` says: `inputs` make a
/// task, else `triggers` a knowledge microagent, else it is a repository microagent
/// (All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686).
pub fn openhands_inferred_type(doc: &Doc) -> &'static str {
    let non_empty = |k: &str| doc.field(k).and_then(|v| v.as_array()).is_some_and(|a| !a.is_empty());
    match (non_empty("inputs"), non_empty("triggers")) {
        (true, _) => "task",
        (false, true) => "knowledge",
        _ => "repo",
    }
}

/// OpenHands microagents whose frontmatter parsed or is absent (OPENHANDS001 reports the
/// others); `README.md` files, which OpenHands skips, are left out.
pub fn microagents<'a>(cx: &Context<'a>) -> impl Iterator<Item = &'a Doc> {
    cx.files_of(FileKind::OpenHandsMicroagent).filter(|d| !has_yaml_error(d) && d.name() != "README.md")
}

/// The input names a microagent declares.
pub fn microagent_inputs(doc: &Doc) -> Vec<&str> {
    let inputs = doc.field("inputs").and_then(|i| i.as_array());
    inputs.map(|list| list.iter().filter_map(|i| i.get("name").and_then(|n| n.as_str())).collect()).unwrap_or_default()
}

/// The `{{ NAME }}` and `${NAME}` variables of a microagent's body, outside code, with spans.
pub fn template_variables(doc: &Doc) -> Vec<(String, Range<usize>)> {
    static VARIABLE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        // ok: a constant pattern, compiled whenever the tests run
        regex::Regex::new(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}|\$\{([A-Za-z_][A-Za-z0-9_]*)\}").expect("constant pattern")
        // ok: literal
        // ok: literal
    });
    let start = doc.body_start();
    let masked = crate::rules::markdown::prose(&doc.cache, doc.body());
    VARIABLE
        .captures_iter(&masked)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let name = c.get(1).or_else(|| c.get(2))?;
            Some((name.as_str().to_string(), start + whole.start()..start + whole.end()))
        })
        .collect()
}

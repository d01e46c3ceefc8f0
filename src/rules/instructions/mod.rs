//! The descriptions an agent routes on: a skill's, a Claude Code subagent's, a Cursor rule's that
//! the agent requests by description, a Copilot custom agent's. Read from the parsed frontmatter,
//! or line by line when it is not strict YAML (Cursor's `globs: **/*`, multi-line subagent
//! descriptions).

use std::ops::Range;

use super::context::Context;
use crate::agent_files::{Doc, FileKind};
use crate::rules::frontmatter::{raw_front, unquote};

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod instr001_description_too_short;
pub mod instr002_placeholder_description;
pub mod instr003_description_repeats_name;
pub mod instr004_description_point_of_view;
pub mod instr005_duplicate_description;
pub mod instr006_contradictory_directives;
pub mod instr007_conflicting_tool_choice;
pub mod instr008_duplicated_instructions;
pub mod instr009_link_stub;
pub mod instr010_leftover_todo;
pub mod instr011_generic_filler;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str =
    "What agent files tell the model: descriptions that can route, instructions that agree across the files one agent loads.";

/// How many words a text has, by Unicode word boundaries (UAX #29): a Japanese or Chinese
/// description written without spaces counts its words (each ideograph or kana run), not
/// one; punctuation and symbols are no words.
pub fn word_count(text: &str) -> usize {
    unicode_segmentation::UnicodeSegmentation::unicode_words(text).count()
}

/// One description with what it describes.
#[derive(Debug, Clone)]
pub struct Described<'a> {
    pub kind: FileKind,
    /// Display path.
    pub file: &'a str,
    /// The skill's or agent's name (the `name` field, else the folder or file stem).
    pub name: String,
    pub description: String,
    /// The value's range (the key's when the value is on later lines).
    pub span: Option<Range<usize>>,
}

/// Every routable description, in the order skills, subagents, Cursor rules, Copilot agents.
pub fn descriptions<'a>(cx: &Context<'a>) -> Vec<Described<'a>> {
    let mut found = Vec::new();
    for skill in cx.skills {
        if let Some((description, span)) = field(skill, "description") {
            let name = field(skill, "name").map_or_else(|| skill.folder.clone(), |(n, _)| n);
            found.push(Described { kind: FileKind::Skill, file: &skill.file, name, description, span });
        }
    }
    for kind in [FileKind::ClaudeAgent, FileKind::CursorRule, FileKind::CopilotAgent] {
        for doc in cx.files_of(kind) {
            if kind == FileKind::CursorRule && !agent_requested(doc) {
                continue;
            }
            let Some((description, span)) = field(doc, "description") else { continue };
            let name = doc.name();
            let stem = [".chatmode.md", ".agent.md", ".mdc", ".md"].iter().find_map(|e| name.strip_suffix(e)).unwrap_or(name).to_string();
            let name = field(doc, "name").map_or(stem, |(n, _)| n);
            found.push(Described { kind, file: &doc.file, name, description, span });
        }
    }
    found
}

/// A Cursor rule the agent applies only when its description matches: not always applied and
/// without globs.
fn agent_requested(doc: &Doc) -> bool {
    let always = field(doc, "alwaysApply").is_some_and(|(v, _)| v.eq_ignore_ascii_case("true"));
    let globs = field(doc, "globs").is_some_and(|(v, _)| !v.is_empty() && v != "[]" && v != "\"\"");
    !always && !globs
}

/// A frontmatter field as text: from the parsed YAML when it parsed, else from `key: value` lines.
pub fn field(doc: &Doc, key: &str) -> Option<(String, Option<Range<usize>>)> {
    if doc.front.is_ok() {
        let value = match doc.field(key)? {
            serde_json::Value::String(s) => s.trim().to_string(),
            serde_json::Value::Bool(b) => b.to_string(),
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        };
        return Some((value, doc.value_span(key)));
    }
    raw_field(&doc.text, key)
}

/// A field of a frontmatter that is not strict YAML, read by the one lenient reader: the value
/// unquoted; a block (`>`, `|` or nothing after the colon) joins the lines below the key, at the
/// key's span.
pub fn raw_field(text: &str, key: &str) -> Option<(String, Option<Range<usize>>)> {
    let front = raw_front(text).ok()?;
    let field = front.get(key)?;
    if field.value.is_empty() || matches!(field.value.as_str(), ">" | ">-" | ">+" | "|" | "|-" | "|+") {
        let below = text[field.line_span.clone()].split_inclusive('\n').skip(1);
        let block: Vec<&str> = below.map(str::trim).filter(|l| !l.is_empty()).collect();
        return Some((block.join(" "), Some(field.key_span.clone())));
    }
    Some((unquote(&field.value).trim().to_string(), Some(field.value_span.clone())))
}

/// Lowercase words of a text, every run of other characters one space.
pub fn normalized(text: &str) -> String {
    let lower = text.to_lowercase();
    let mut words = String::with_capacity(lower.len());
    for word in lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        if !words.is_empty() {
            words.push(' ');
        }
        words.push_str(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields_of_frontmatter_that_is_not_yaml() {
        let text = "---\ndescription: \"Use for **/*.ts files\"\nglobs: **/*.ts\nalwaysApply: false\nnotes: >\n  one\n  two\n---\nbody\n";
        let (value, span) = raw_field(text, "description").expect("description");
        assert_eq!(value, "Use for **/*.ts files");
        assert_eq!(&text[span.expect("span")], "\"Use for **/*.ts files\"");
        assert_eq!(raw_field(text, "globs").map(|f| f.0).as_deref(), Some("**/*.ts"));
        assert_eq!(raw_field(text, "notes").map(|f| f.0).as_deref(), Some("one two"));
        assert_eq!(raw_field(text, "body"), None);
    }
}

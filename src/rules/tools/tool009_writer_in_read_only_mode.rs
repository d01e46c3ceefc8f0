//! TOOL009: a tool that writes, callable in a mode that gives its category read-only access.

use crate::manifest::model::{Access, AccessLevel, CategoryTool};
use crate::memo::KeyMap;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A tool that writes is marked read-only, so a mode that gives its category `read-only` access can call it.",
    why: "`read-only` access promises that a mode (ask, plan) cannot change anything. ctxc decides what writes from the \
          tool's source (MCP `readOnlyHint`, a ctxc tool's `read_only`) and the category's `read_only` list; when the \
          list marks as read-only a tool whose source says it writes, or whose name says so (`write_…`, `delete_…`, \
          `create_…`, …), the mode gets a writing tool. A mode that gives a category `all` access is not checked.",
    fails: Example {
        file: "ctxc.toml",
        text: "[tools.filesystem]\nfiles = [\"tools/filesystem.json\"]\nread_only = [\"read_file\", \"write_file\"]\n\n[modes.ask]\ntools = { filesystem = \"read-only\" }\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[tools.filesystem]\nfiles = [\"tools/filesystem.json\"]\nread_only = [\"read_file\"]\n\n[modes.ask]\ntools = { filesystem = \"read-only\" }\n",
    },
    notes: "Writing verbs recognised in names: write, delete, remove, create, update, edit, set, save, put, post, send, \
            insert, upload, move, rename, drop, exec, execute, run, ingest, add, modify, patch, merge, push, commit, \
            deploy, install, append, replace, destroy, publish, submit, archive, assign, close, approve, transfer, \
            purge, truncate, overwrite, revert, reset, restore, fork, kill. A name that starts with a reading verb \
            (get, list, read, search, find, fetch, query, view, show, describe, count, check) is taken as reading.",
    stage: Stage::Lint(check),
};

const WRITE_VERBS: [&str; 47] = [
    "write",
    "delete",
    "remove",
    "create",
    "update",
    "edit",
    "set",
    "save",
    "put",
    "post",
    "send",
    "insert",
    "upload",
    "move",
    "rename",
    "drop",
    "exec",
    "execute",
    "run",
    "ingest",
    "add",
    "modify",
    "patch",
    "merge",
    "push",
    "commit",
    "deploy",
    "install",
    "append",
    "replace",
    "destroy",
    "publish",
    "submit",
    "archive",
    "assign",
    "close",
    "approve",
    "transfer",
    "purge",
    "truncate",
    "overwrite",
    "revert",
    "reset",
    "restore",
    "fork",
    "kill",
    "dispatch",
];
const READ_VERBS: [&str; 12] = ["get", "list", "read", "search", "find", "fetch", "query", "view", "show", "describe", "count", "check"];

/// The words of a tool name as written: split at `_ - . / :` and spaces, and before an uppercase
/// letter that follows a lowercase one. Slices of the name: this runs for every tool of every agent.
fn words(name: &str) -> impl Iterator<Item = &str> {
    let mut rest = name;
    std::iter::from_fn(move || loop {
        if rest.is_empty() {
            return None;
        }
        let (mut end, mut next) = (rest.len(), rest.len());
        let mut previous_lower = false;
        for (i, c) in rest.char_indices() {
            if matches!(c, '_' | '-' | '.' | '/' | ':' | ' ') {
                (end, next) = (i, i + c.len_utf8());
                break;
            }
            if c.is_uppercase() && previous_lower {
                (end, next) = (i, i);
                break;
            }
            previous_lower = c.is_lowercase();
        }
        let word = &rest[..end];
        rest = &rest[next..];
        if !word.is_empty() {
            return Some(word);
        }
    })
}

/// The verb of `verbs` that `word` is, in lowercase (`Delete` is `delete`).
fn verb_of(word: &str, verbs: &[&'static str]) -> Option<&'static str> {
    if word.is_ascii() {
        return verbs.iter().find(|v| v.eq_ignore_ascii_case(word)).copied();
    }
    // Some letters outside ASCII lowercase to ASCII ones (the Kelvin sign to `k`).
    let lower: String = word.chars().flat_map(char::to_lowercase).collect();
    verbs.iter().find(|v| **v == lower).copied()
}

/// Why a tool looks like it writes, if it does.
fn writing_evidence(tool: &CategoryTool) -> Option<String> {
    if tool.tool.read_only == Some(false) {
        return Some("its source says so: `readOnlyHint: false` or `read_only: false`".to_string());
    }
    let mut words = words(&tool.tool.name).peekable();
    if words.peek().is_some_and(|w| verb_of(w, &READ_VERBS).is_some()) {
        return None;
    }
    words.find_map(|w| verb_of(w, &WRITE_VERBS)).map(|w| format!("its name contains `{w}`"))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let Some(agent) = cx.agent() else { return Vec::new() };
    let mut findings = Vec::new();
    // Per run, the (category, name) of each enabled tool: made when the first suspect appears.
    let mut enabled: Option<Vec<KeyMap<(&str, &str), ()>>> = None;
    for (category, tool) in cx.tools().into_iter().filter(|(_, t)| !t.writes) {
        let Some(evidence) = writing_evidence(tool) else { continue };
        let enabled = enabled.get_or_insert_with(|| {
            let runs = cx.runs().iter();
            runs.map(|run| run.rendered.tools.iter().filter(|d| d.enabled).map(|d| ((d.category.as_str(), d.name.as_str()), ())).collect())
                .collect()
        });
        let read_only_run = cx.runs().iter().zip(enabled.iter()).find(|(run, enabled)| {
            let mode_gives_read_only = agent
                .modes
                .get(&run.rendered.mode)
                .is_some_and(|m| m.access.get(&category.name) == Some(&Access::Level(AccessLevel::ReadOnly)));
            mode_gives_read_only && enabled.contains_key(&(category.name.as_str(), tool.tool.name.as_str()))
        });
        let Some((run, _)) = read_only_run else { continue };
        let d = Diagnostic::finding(format!(
            "tool `{}` looks like it writes ({evidence}) but is treated as read-only, so {} mode, which gives `{}` read-only access, can call it",
            tool.tool.name, run.rendered.mode, category.name
        ))
        .label("marked read-only here")
        .help("remove it from the category's `read_only` list (or fix its source's annotation); if it really only reads, add `TOOL009` to `[lint] ignore`");
        let place = match locate::in_manifest(cx, &tool.tool.name) {
            (file, Some(span)) => (file, Some(span)),
            _ => locate::tool(cx, tool),
        };
        findings.push(locate::at(d, place));
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_names_into_words() {
        let split = |name| words(name).collect::<Vec<_>>();
        assert_eq!(split("github.createIssue"), ["github", "create", "Issue"]);
        assert_eq!(split("todo_write"), ["todo", "write"]);
        assert_eq!(split("get_file_blame"), ["get", "file", "blame"]);
        assert_eq!(split("__a--B  c_"), ["a", "B", "c"]);
        assert_eq!(split("HTTPPost"), ["HTTPPost"]);
        assert!(split("_-.").is_empty());
    }

    #[test]
    fn verbs_are_matched_in_lowercase() {
        assert_eq!(verb_of("Deploy", &WRITE_VERBS), Some("deploy"));
        assert_eq!(verb_of("GET", &READ_VERBS), Some("get"));
        // U+212A KELVIN SIGN lowercases to `k`.
        assert_eq!(verb_of("\u{212A}ill", &WRITE_VERBS), Some("kill"));
        assert_eq!(verb_of("deployé", &WRITE_VERBS), None);
    }
}

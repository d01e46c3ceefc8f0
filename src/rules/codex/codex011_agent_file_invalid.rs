//! CODEX011: a custom agent file (`.codex/agents/**/*.toml`) Codex skips as malformed.

use std::collections::BTreeSet;
use std::ops::Range;

use toml_edit::{Item, TableLike};

use crate::agent_files::{Doc, FileKind};
use crate::rules::codex::{codex_configs, key_span, named_tables, parse_config, value_span};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Codex custom agent file (`.codex/agents/*.toml`) lacks a `name`, `description` or `developer_instructions`, leaves one blank, or has an invalid `nickname_candidates` list.",
    why: "Codex loads every `*.toml` under `.codex/agents/` as a custom agent: the file is the role's configuration \
          layer plus its `name`, `description` and `nickname_candidates`. A file without a non-blank `name` or \
          `developer_instructions`, with a blank `description`, or whose `nickname_candidates` is empty or holds a \
          blank, repeated or non-ASCII name is skipped with only a startup warning (\"Ignoring malformed agent role \
          definition\"), and so is a role left without a description: the agent does not exist. Source: \
          openai/codex:codex-rs/core/src/config/agent_roles.rs@25d313cd (`parse_agent_role_file_contents`, \
          `load_agent_roles`).",
    fails: Example {
        file: ".codex/agents/reviewer.toml",
        text: "name = \"reviewer\"\ndescription = \"Reviews a diff for bugs and missing tests.\"\ninstructions = \"\"\"\nRead the diff and list the bugs you find.\n\"\"\"\n",
    },
    passes: Example {
        file: ".codex/agents/reviewer.toml",
        text: "name = \"reviewer\"\ndescription = \"Reviews a diff for bugs and missing tests.\"\ndeveloper_instructions = \"\"\"\nRead the diff and list the bugs you find.\n\"\"\"\n",
    },
    notes: "A file that an `[agents.NAME]` role of `.codex/config.toml` names with `config_file` is read with that \
            role's name and description, so it needs none of the three: only blank values and the nickname list are \
            checked there. A file that is not valid TOML is CODEX004's.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let named = named_by_roles(cx);
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CodexAgent) {
        let Ok(toml) = parse_config(doc) else { continue };
        let table = toml.as_table();
        let discovered = !named.contains(doc.rel.as_str());
        for key in FileKind::CodexAgent.spec_of("codex").required_fields() {
            if let Some(problem) = text_problem(table, key, discovered) {
                findings.push(finding(doc, problem, table, key));
            }
        }
        if let Some(item) = table.get("nickname_candidates") {
            if let Some(problem) = nickname_problem(item) {
                findings.push(finding(doc, problem, table, "nickname_candidates"));
            }
        }
    }
    findings
}

/// The agent files (relative paths) the roles of the project's `config.toml` files name with
/// `config_file`, read from the folder of the `config.toml` that names them.
fn named_by_roles<'a>(cx: &Context<'a>) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for (doc, toml) in codex_configs(cx) {
        let dir = doc.rel.rsplit_once('/').map_or("", |(d, _)| d);
        for (_, _, role) in named_tables(toml.as_table(), "agents") {
            let Some(path) = role.get("config_file").and_then(Item::as_str) else { continue };
            let joined = if dir.is_empty() { path.to_string() } else { format!("{dir}/{path}") };
            if let Ok(rel) = cx.root.normalize(&joined) {
                named.insert(rel);
            }
        }
    }
    named
}

/// Why Codex rejects the string field `key`, if it does: absent (when the file must define it),
/// not a string, or blank.
fn text_problem(table: &dyn TableLike, key: &str, discovered: bool) -> Option<String> {
    let Some(item) = table.get(key) else {
        return discovered.then(|| format!("the agent file defines no `{key}`: Codex skips it"));
    };
    match item.as_str() {
        None => Some(format!("`{key}` is not a string: Codex skips the agent file")),
        Some(text) if text.trim().is_empty() => Some(format!("`{key}` is blank: Codex skips the agent file")),
        Some(_) => None,
    }
}

/// Why Codex rejects a `nickname_candidates` value, if it does.
fn nickname_problem(item: &Item) -> Option<String> {
    let Some(list) = item.as_array() else {
        return Some("`nickname_candidates` is not a list of names: Codex skips the agent file".to_string());
    };
    if list.is_empty() {
        return Some("`nickname_candidates` is empty: Codex skips the agent file (give at least one name)".to_string());
    }
    let mut seen = BTreeSet::new();
    for value in list.iter() {
        let Some(name) = value.as_str().map(str::trim) else {
            return Some("`nickname_candidates` holds a value that is not a string: Codex skips the agent file".to_string());
        };
        if name.is_empty() {
            return Some("`nickname_candidates` holds a blank name: Codex skips the agent file".to_string());
        }
        if !seen.insert(name) {
            return Some(format!("`nickname_candidates` names `{name}` twice: Codex skips the agent file"));
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '_')) {
            return Some(format!(
                "nickname `{name}` has a character other than ASCII letters, digits, spaces, `-` and `_`: Codex skips the agent file"
            ));
        }
    }
    None
}

/// The finding at `key`'s value (or key; the file when the key is absent).
fn finding(doc: &Doc, message: String, table: &dyn TableLike, key: &str) -> Diagnostic {
    let at: Option<Range<usize>> = table.get(key).and_then(value_span).or_else(|| key_span(table, key));
    let help = match key {
        "developer_instructions" if table.contains_key("instructions") || table.contains_key("prompt") => {
            "write the agent's instructions under `developer_instructions`".to_string()
        }
        "nickname_candidates" => "list one or more distinct names of ASCII letters, digits, spaces, `-` and `_`".to_string(),
        _ => format!("give `{key}` a non-blank text"),
    };
    Diagnostic::finding(message).in_file(&doc.file).at(at).label("skipped").help(help)
}

//! `ctxc import deepagents DIR`: a ctxc manifest from a Deep Agents deploy project (the
//! `agent.json` layout of deepagents_cli `deploy/project.py`): `agent.json`, `AGENTS.md`,
//! `skills/`, `subagents/<name>/`. The project is mounted as the deploy template's
//! `create_deep_agent` call reads it (deepagents_cli deploy/templates.py at c7d529ca0: memory
//! `/memories/AGENTS.md`, skills `/memories/skills/`, no system prompt, each subagent's own
//! AGENTS.md as its prompt) or as a local FilesystemBackend (`/AGENTS.md`, `/skills/`).
//! ctxc ships none of Deep Agents' prose: the manifest declares `upstream/` module files the
//! user fills from the release they run. What ctxc cannot carry over is said in notes.

use std::ops::Range;
use std::path::Path;

use serde_json::Value;

use crate::diagnostic::{offset_of, Diagnostic, Failure, Sources};
use crate::import::{toml_string, Imported};
use crate::project::{ProjectRoot, ReadError};
use crate::runtimes::deepagents::window::LAYOUT_0_7;

/// How the project's files reach the agent's backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The deploy template: the project under `/memories/`.
    Deploy,
    /// A FilesystemBackend rooted at the project (`virtual_mode=True`).
    Local,
}

/// Where the deploy template mounts the project (`MEMORIES_PREFIX`).
const DEPLOY_MOUNT: &str = "/memories/";

/// The text modules the manifest takes from `upstream/`, one file each (`ctxc upstream` writes
/// them; an empty file turns its step off).
pub const UPSTREAM_MODULES: [&str; 7] =
    ["profile_suffix", "base_prompt", "todo", "filesystem", "subagents", "skills_usage", "memory_guidelines"];

/// Reads the project in `dir` (through the guarded reader) and makes `ctxc.toml` in it.
pub fn import(dir: &Path, layout: Layout) -> Result<Imported, Failure> {
    let mut sources = Sources::default();
    let root = ProjectRoot::new(dir).map_err(|e| failure(e.into_diagnostic(), &sources))?;
    let agent = read_json(&root, "agent.json", &mut sources).map_err(|d| {
        let legacy = d.message.contains("not found") && root.read("deepagents.toml").is_ok();
        let d = match legacy {
            true => d.help("deepagents.toml is the older deploy format, which ctxc does not read: move its [agent] name and model to agent.json (as `deepagents deploy` asks)"),
            false => d,
        };
        failure(d, &sources)
    })?;
    let (file, text, object) = agent;
    let mut notes = Vec::new();
    let (name, model) = agent_fields(&file, &text, &object, &mut notes).map_err(|d| failure(d, &sources))?;
    notes.extend(project_notes(&root));
    let subagents = subagents(&root, &mut sources)?;
    let out = manifest_text(layout, &name, model.as_deref(), &subagents);
    Ok(Imported { manifest: dir.join("ctxc.toml"), text: out, notes, sources, upstream: Some("Deep Agents"), files: Vec::new() })
}

/// The agent's name and model from agent.json's keys, with a note for each key not carried over.
fn agent_fields(
    file: &str,
    text: &str,
    object: &serde_json::Map<String, Value>,
    notes: &mut Vec<Diagnostic>,
) -> Result<(String, Option<String>), Diagnostic> {
    let spans = top_level_keys(text);
    let span = |key: &str| spans.iter().find(|(k, _)| k == key).map(|(_, s)| s.clone());
    let note = |message: String, key: &str| Diagnostic::warning(message).in_file(file).at(span(key));
    let error = |message: String, key: &str| Diagnostic::error(message).in_file(file).at(span(key).or(Some(0..0))).label("here");
    let mut name = None;
    let mut model = None;
    let mut seen: Vec<&str> = Vec::new();
    for (key, _) in &spans {
        if seen.contains(&key.as_str()) {
            notes.push(note(format!("`{key}` is given twice: the last one is read"), key));
            continue;
        }
        seen.push(key);
        let value = &object[key.as_str()];
        match key.as_str() {
            "name" => match value.as_str().map(str::trim).filter(|s| !s.is_empty()) {
                Some(s) => name = Some(s.to_string()),
                None => return Err(error("`name` must be a non-empty string".into(), key)),
            },
            "model" => match value.as_str().map(str::trim).filter(|s| !s.is_empty()) {
                Some(s) => model = Some(s.to_string()),
                None => return Err(error("`model` must be a non-empty string when given".into(), key)),
            },
            "runtime" => {
                let Some(runtime) = value.as_object() else { return Err(error("`runtime` must be an object".into(), key)) };
                if object.contains_key("model") {
                    return Err(error("use either top-level `model` or `runtime`, not both (as `deepagents deploy` requires)".into(), key));
                }
                match runtime.get("model").and_then(|m| m.get("model_id")).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
                {
                    Some(s) => model = Some(s.to_string()),
                    None => notes.push(note("`runtime` names no `model.model_id`: the manifest has no model".into(), key)),
                }
                let other: Vec<&str> = runtime.keys().map(String::as_str).filter(|k| *k != "model").collect();
                if !other.is_empty() {
                    notes
                        .push(note(format!("runtime settings {} stay with the platform: ctxc does not model them", other.join(", ")), key));
                }
            }
            other => notes.push(note(not_carried_over(other), key)),
        }
    }
    match name {
        Some(name) => Ok((name, model)),
        None => Err(error("`name` (a non-empty string) is required, as `deepagents deploy` requires it".into(), "name")),
    }
}

/// Why an agent.json key other than name, model and runtime is not carried over.
fn not_carried_over(key: &str) -> String {
    match key {
        "description" => "`description` is not carried over: the platform lists the agent by it, and it is not part of the prompt".into(),
        "agent_id" => "`agent_id` is not carried over: it names the deployed agent, not its prompt".into(),
        "backend" => "`backend` is not carried over: the manifest models the mounting chosen by --layout; a sandbox backend adds the `execute` tool and its own filesystem text, which `ctxc upstream` does not write (it reads the runtime with a local filesystem backend): add them under [tools] and [modules] yourself".into(),
        "permissions" => "`permissions` is not carried over: who may run the agent changes no prompt text".into(),
        "extras" => "`extras` is not carried over: ctxc does not model it".into(),
        other => format!("`{other}` is not a key `deepagents deploy` reads: not carried over"),
    }
}

/// Notes on the project's other files: what is not read, and a missing AGENTS.md.
fn project_notes(root: &ProjectRoot) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    for (rel, why) in [
        (
            "tools.json",
            "MCP tools are not carried over: the servers give their definitions at run time; list them under [tools] to count them",
        ),
        ("deepagents.toml", "deepagents.toml (the older deploy format) is not read: agent.json is"),
    ] {
        if root.read(rel).is_ok() {
            notes.push(Diagnostic::warning(why).in_file(root.display_path(rel)).at(Some(0..0)));
        }
    }
    if let Err(ReadError::Missing(_)) = root.read("AGENTS.md") {
        notes.push(
            Diagnostic::warning("AGENTS.md is missing: the runtime then loads no memory (and `deepagents deploy` refuses the project)")
                .in_file(root.display_path("AGENTS.md")),
        );
    }
    notes
}

/// The manifest: a header saying what was imported and how, then the agent's tables.
fn manifest_text(layout: Layout, name: &str, model: Option<&str>, subagents: &[(String, Option<String>)]) -> String {
    let mut out = format!(
        "# Imported from agent.json by `ctxc import deepagents --layout {}`: {}\n\
         # agent.json names no Deep Agents release: \"{LAYOUT_0_7}\" is the current layout; set \"0.4\" for 0.4.x.\n\
         # ctxc ships none of Deep Agents' prose: `ctxc upstream --python PY` writes your installed\n\
         # release's texts into the upstream/ files below (base prompt, each middleware's text, skills\n\
         # usage, memory guidelines, built-in tools; an empty file turns its step off).\n",
        match layout {
            Layout::Deploy => "deploy",
            Layout::Local => "local",
        },
        match layout {
            Layout::Deploy => "the project mounted under /memories/ as the deploy\n# template mounts it (memory /memories/AGENTS.md, skills /memories/skills/, no system prompt).",
            Layout::Local => "a local FilesystemBackend rooted at the project\n# (memory /AGENTS.md, skills /skills/, no system prompt).",
        }
    );
    if !subagents.is_empty() {
        out.push_str("# Subagents (each one's own AGENTS.md is its prompt, not part of this one; 0.4's subagents text lists them):\n");
        for (sub, description) in subagents {
            // JSON strings keep a description on the comment's line, whatever it holds; JSON leaves
            // DEL unescaped, and a TOML comment may not hold it.
            let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default().replace('\u{7f}', "\\u007f");
            out.push_str(&format!("#   {}: {}\n", quoted(sub), description.as_deref().map_or("(no description)".to_string(), quoted)));
        }
    }
    out.push_str(&format!("\n[agent]\nname = {}\n", toml_string(name)));
    if let Some(model) = model {
        // `provider:model` (init_chat_model's form): ctxc names models without the provider.
        let bare = model.split_once(':').map_or(model, |(_, m)| m);
        out.push_str(&format!("model = {}\n", toml_string(bare)));
    }
    out.push_str(&format!("\n[pipeline]\npreset = \"deepagents\"\n\n[deepagents]\nversion = \"{LAYOUT_0_7}\"\n"));
    if layout == Layout::Deploy {
        out.push_str(&format!("mount = \"{DEPLOY_MOUNT}\"\n"));
    }
    out.push_str("\n[modules]\n");
    for module in UPSTREAM_MODULES {
        out.push_str(&format!("{module} = {{ source = \"upstream/{module}.md\" }}\n"));
    }
    // The deploy template always passes both sources; a missing one holds nothing (see the preset).
    out.push_str("\n[tools.deepagents]\nfiles = [\"upstream/builtin_tools.json\"]\n\n[skills]\ndirs = [\"skills\"]\n\n[memory]\nfiles = [\"AGENTS.md\"]\n");
    out
}

fn failure(d: Diagnostic, sources: &Sources) -> Failure {
    Failure { diagnostics: vec![d], sources: sources.clone() }
}

/// Reads a JSON object file: (path shown, text, object). Bad JSON points at its line and column.
fn read_json(root: &ProjectRoot, rel: &str, sources: &mut Sources) -> Result<(String, String, serde_json::Map<String, Value>), Diagnostic> {
    let shown = root.display_path(rel);
    let file = match root.read(rel) {
        Ok(file) => file,
        Err(ReadError::Missing(_)) => return Err(Diagnostic::error(format!("`{shown}` not found: a Deep Agents deploy project has one"))),
        Err(e) => return Err(e.into_diagnostic().in_file(&shown)),
    };
    let text = file.text.to_string();
    sources.insert(&file.display, &text);
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(object)) => Ok((file.display, text, object)),
        Ok(_) => Err(Diagnostic::error("not a Deep Agents agent.json: it must hold a JSON object")
            .in_file(&file.display)
            .at(Some(0..0))
            .label("here")),
        Err(e) => {
            let message = e.to_string();
            let message = message.split(" at line ").next().unwrap_or(&message);
            let at = json_offset(&text, e.line(), e.column());
            Err(Diagnostic::error(format!("not valid JSON: {message}")).in_file(&file.display).at(Some(at..at)).label("here"))
        }
    }
}

/// serde_json's 1-based line and byte column as a byte offset (column 0 is the line's start).
fn json_offset(text: &str, line: usize, column: usize) -> usize {
    let mut at = (offset_of(text, line, 1) + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The keys of a JSON object's top level with the span of each (quotes included), in file order.
/// Only called on text that parsed as an object.
fn top_level_keys(text: &str) -> Vec<(String, Range<usize>)> {
    let bytes = text.as_bytes();
    let (mut keys, mut depth, mut i) = (Vec::new(), 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let end = (i + 1).min(bytes.len());
                if depth == 1 && text[end..].trim_start().starts_with(':') {
                    if let Ok(key) = serde_json::from_str::<String>(&text[start..end]) {
                        keys.push((key, start..end));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    keys
}

/// The subagents (`subagents/<name>/agent.json`, sorted): name and description.
pub fn subagents(root: &ProjectRoot, sources: &mut Sources) -> Result<Vec<(String, Option<String>)>, Failure> {
    let found = match root.find_files("subagents", "agent.json") {
        Ok(found) => found,
        Err(ReadError::Missing(_)) => return Ok(Vec::new()),
        Err(e) => return Err(failure(e.into_diagnostic(), sources)),
    };
    let mut out = Vec::new();
    for rel in found {
        let rel = rel.map_err(|e| failure(e.into_diagnostic(), sources))?;
        let parts: Vec<&str> = rel.split('/').collect();
        let [_, name, _] = parts[..] else { continue };
        let (_, _, object) = read_json(root, &rel, sources).map_err(|d| failure(d, sources))?;
        out.push((name.to_string(), object.get("description").and_then(Value::as_str).map(str::to_string)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::project;

    #[test]
    fn deploy_and_local_manifests_parse_and_notes_point_at_keys() {
        let dir = project(&[
            ("agent.json", "{\n  \"name\": \"desk \\\"one\\\"\",\n  \"model\": \"anthropic:claude-opus-4-7\",\n  \"backend\": {\"type\": \"state\"}\n}\n"),
            ("AGENTS.md", "# Desk\n"),
            ("subagents/editor/agent.json", "{\"description\": \"Edits\\n[agent]\"}"),
            ("subagents/editor/AGENTS.md", "You edit."),
            // Issue 27, D15: characters a TOML comment may not hold, quoted into one.
            ("subagents/odd\u{7f}\u{1b}/agent.json", "{\"description\": \"a\\u007fb\\u0000c\\rd\\u001b[2J\\u2028\"}"),
            ("subagents/odd\u{7f}\u{1b}/AGENTS.md", "Odd."),
        ]);
        let deploy = import(dir.path(), Layout::Deploy).expect("imports");
        assert!(deploy.text.contains("name = 'desk \"one\"'\nmodel = \"claude-opus-4-7\"\n"), "{}", deploy.text);
        assert!(deploy.text.contains("mount = \"/memories/\"\n"), "{}", deploy.text);
        assert!(deploy.text.contains("#   \"editor\": \"Edits\\n[agent]\"\n"), "{}", deploy.text);
        assert!(!deploy.text.chars().any(|c| c.is_control() && c != '\n'), "{}", deploy.text.escape_debug());
        assert!(deploy.text.contains("#   \"odd\\u007f\\u001b\": \"a\\u007fb\\u0000c\\rd\\u001b[2J\u{2028}\"\n"), "{}", deploy.text);
        crate::manifest::parse(&deploy.text, crate::manifest::Format::Toml).expect("the manifest parses");
        let backend = deploy.notes.iter().find(|d| d.message.contains("`backend`")).expect("a note on backend");
        assert_eq!(
            deploy.sources.line_col(backend.file.as_deref().expect("file"), backend.span.clone().expect("span").start),
            Some((4, 3))
        );
        let local = import(dir.path(), Layout::Local).expect("imports");
        assert!(!local.text.contains("mount"), "{}", local.text);
        crate::manifest::parse(&local.text, crate::manifest::Format::Toml).expect("the manifest parses");
    }

    #[test]
    fn hostile_agent_json_gets_a_located_error() {
        for (bad, line) in [
            ("{\n  \"name\": \"a\",\n  \"model\": \n}", 4),
            ("[1, 2]", 1),
            ("{\"model\": \"m\"}", 1),
            ("{\"name\": 3}", 1),
            ("{\"name\": \"a\", \"model\": \"m\", \"runtime\": {}}", 1),
            ("{\"name\": \"\u{e9}\", \"x\": \"\\", 1),
            (&"[".repeat(10_000), 1),
        ] {
            let dir = project(&[("agent.json", bad)]);
            let failure = import(dir.path(), Layout::Deploy).expect_err(bad);
            let d = &failure.diagnostics[0];
            let at = d.span.clone().expect("a position").start;
            assert_eq!(failure.sources.line_col(d.file.as_deref().expect("file"), at).map(|p| p.0), Some(line), "{bad}: {}", d.message);
        }
        let dir = project(&[("deepagents.toml", "[agent]\nname = \"a\"\n")]);
        let failure = import(dir.path(), Layout::Deploy).expect_err("no agent.json");
        assert!(failure.diagnostics[0].help.as_deref().is_some_and(|h| h.contains("deepagents.toml")), "{:?}", failure.diagnostics);
    }
}

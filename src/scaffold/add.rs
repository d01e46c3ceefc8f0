//! `ctxc add mode|module|tool|skill NAME`: the edit of a TOML manifest (made with `toml_edit`,
//! so comments and layout stay as they are) and the new files that add one part to an agent.
//! Nothing is written here: the command writes the files, then the manifest.

use toml_edit::{value, Array, DocumentMut, InlineTable, Item, Table, Value};

use crate::manifest::model::Agent;
use crate::rules::cache::cache001_dynamic_before_static::is_dynamic;

/// What `ctxc add` adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Mode,
    Module,
    Tool,
    Skill,
}

/// The new manifest text and the new files (paths relative to the manifest's folder), with one
/// line per change for the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Addition {
    pub manifest: String,
    pub files: Vec<(String, String)>,
    pub changes: Vec<String>,
}

/// Adds `name` as a new `part` of `agent`, whose TOML manifest text is `manifest`.
pub fn add(part: Part, name: &str, manifest: &str, agent: &Agent) -> Result<Addition, String> {
    check_name(name)?;
    let mut doc: DocumentMut = manifest.parse().map_err(|e| format!("the manifest does not parse as TOML: {e}"))?;
    let mut addition = Addition { manifest: String::new(), files: Vec::new(), changes: Vec::new() };
    match part {
        Part::Mode => add_mode(&mut doc, &mut addition, name, agent)?,
        Part::Module => add_module(&mut doc, &mut addition, name, agent)?,
        Part::Tool => add_tool(&mut doc, &mut addition, name, agent)?,
        Part::Skill => add_skill(&mut doc, &mut addition, name, agent)?,
    }
    addition.manifest = doc.to_string();
    Ok(addition)
}

/// `[modes.NAME]`, with a prompt file where a step shows the mode's prompt.
fn add_mode(doc: &mut DocumentMut, addition: &mut Addition, name: &str, agent: &Agent) -> Result<(), String> {
    if agent.modes.contains_key(name) {
        return Err(format!("agent `{}` has a mode `{name}` already", agent.name));
    }
    let mut mode = Table::new();
    mode["description"] = value(format!("What the agent does in {name} mode (shown in reports)."));
    // A prompt file only where a step shows it.
    if agent.steps.iter().any(|s| s.kind == crate::manifest::model::StepKind::ModePrompt) {
        let path = format!("prompts/modes/{name}.md");
        mode["prompt"] = value(&path);
        addition.files.push((path, format!("# Mode: {name}\n\nWhat the agent does, and does not do, in this mode.\n")));
    }
    table_of(doc, "modes")?.insert(name, Item::Table(mode));
    addition.changes.push(format!("[modes.{name}]"));
    Ok(())
}

/// A module file, its `[modules]` entry and a pipeline step for it.
fn add_module(doc: &mut DocumentMut, addition: &mut Addition, name: &str, agent: &Agent) -> Result<(), String> {
    if agent.modules.contains_key(name) || agent.steps.iter().any(|s| s.id == name) {
        return Err(format!("agent `{}` has a module or step `{name}` already", agent.name));
    }
    let path = format!("prompts/{name}.md");
    addition.files.push((path.clone(), format!("# {}\n\nThe text of this module.\n", title(name))));
    let mut source = InlineTable::new();
    source.insert("source", path.as_str().into());
    table_of(doc, "modules")?.insert(name, value(source));
    let mut step = InlineTable::new();
    step.insert("id", name.into());
    step.insert("kind", "module".into());
    step.insert("title", title(name).into());
    // Before the first dynamic step, so the new text stays in the cacheable prefix.
    let first_dynamic = agent.steps.iter().filter(|s| is_dynamic(s.kind)).min_by_key(|s| s.number);
    if let Some(dynamic) = first_dynamic {
        step.insert("before", dynamic.id.as_str().into());
    }
    push_step(table_of(doc, "pipeline")?, step)?;
    addition.changes.push(format!("[modules] {name}"));
    addition.changes.push(format!("[pipeline] steps: module step `{name}`"));
    Ok(())
}

/// A tool category with one placeholder tool file.
fn add_tool(doc: &mut DocumentMut, addition: &mut Addition, name: &str, agent: &Agent) -> Result<(), String> {
    if agent.categories.iter().any(|c| c.name == name) {
        return Err(format!("agent `{}` has a tool category `{name}` already", agent.name));
    }
    let path = format!("tools/{name}.json");
    let tool = serde_json::json!([{
        "type": "function",
        "function": {
            "name": name,
            "description": format!("What {name} does, when to call it and what it returns."),
            "parameters": { "type": "object", "properties": {}, "required": [] },
        },
    }]);
    addition.files.push((path.clone(), format!("{}\n", serde_json::to_string_pretty(&tool).unwrap_or_default())));
    let mut category = Table::new();
    category["title"] = value(title(name));
    category["files"] = value(Array::from_iter([path.as_str()]));
    table_of(doc, "tools")?.insert(name, Item::Table(category));
    addition.changes.push(format!("[tools.{name}]"));
    Ok(())
}

/// A skill folder with its SKILL.md, in the first skills folder (`skills` when none is declared).
fn add_skill(doc: &mut DocumentMut, addition: &mut Addition, name: &str, agent: &Agent) -> Result<(), String> {
    let skills = table_of(doc, "skills")?;
    let dir = match skills.get("dirs").and_then(Item::as_array).and_then(|dirs| dirs.get(0)).and_then(Value::as_str) {
        Some(dir) => dir.trim_end_matches('/').to_string(),
        None => {
            skills["dirs"] = value(Array::from_iter(["skills"]));
            addition.changes.push("[skills] dirs = [\"skills\"]".into());
            "skills".to_string()
        }
    };
    if agent.skills.iter().any(|s| s.name == name) {
        return Err(format!("agent `{}` has a skill `{name}` already", agent.name));
    }
    let text = format!(
        "---\nname: {name}\ndescription: What this skill does and when to use it; the model reads this line to decide whether to load the skill.\n---\n\n# {}\n\nThe steps to follow.\n",
        title(name)
    );
    addition.files.push((format!("{dir}/{name}/SKILL.md"), text));
    Ok(())
}

/// Names become TOML keys, file names and skill names: lower-case letters, digits, `-` and `_`.
fn check_name(name: &str) -> Result<(), String> {
    let valid = !name.is_empty()
        && name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    match valid {
        true => Ok(()),
        false => {
            Err(format!("`{name}` is not a valid name: use lower-case letters, digits, `-` and `_`, starting with a letter (at most 64)"))
        }
    }
}

/// `release-notes` as `Release notes`.
fn title(name: &str) -> String {
    let words = name.replace(['-', '_'], " ");
    let mut chars = words.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The top-level table `key`, created when missing.
fn table_of<'a>(doc: &'a mut DocumentMut, key: &str) -> Result<&'a mut Table, String> {
    let item = doc.entry(key).or_insert_with(|| {
        let mut table = Table::new();
        table.set_implicit(true);
        Item::Table(table)
    });
    item.as_table_mut().ok_or_else(|| format!("`{key}` in the manifest is not a table"))
}

/// Appends a step to `[pipeline] steps`, written either as an array of inline tables or as
/// `[[pipeline.steps]]`.
fn push_step(pipeline: &mut Table, step: InlineTable) -> Result<(), String> {
    match pipeline.entry("steps").or_insert_with(|| value(Array::new())) {
        Item::Value(Value::Array(steps)) => {
            // One step per line, as `ctxc init` writes them; the steps already there keep their layout.
            let multiline = steps.is_empty() || steps.trailing().as_str().is_some_and(|t| t.contains('\n'));
            steps.push(step);
            if let Some(new) = steps.get_mut(steps.len() - 1) {
                new.decor_mut().set_prefix("\n  ");
            }
            if multiline {
                steps.set_trailing("\n");
                steps.set_trailing_comma(true);
            }
            Ok(())
        }
        Item::ArrayOfTables(steps) => {
            steps.push(step.into_table());
            Ok(())
        }
        _ => Err("`[pipeline] steps` in the manifest is not an array".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_keys_and_file_names() {
        assert!(check_name("release-notes").is_ok());
        assert!(check_name("code_review2").is_ok());
        for bad in ["", "Plan", "2fa", "a/b", "../x", "a b", &"x".repeat(65)] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(title("release-notes"), "Release notes");
    }
}

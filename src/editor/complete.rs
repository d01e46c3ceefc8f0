//! Completion of manifest keys and values from the manifest's JSON Schema (the one `ctxc schema`
//! prints): the keys of the table the cursor is in, and the allowed values of the key before it.
//! The table is found from the lines above: the last `[header]` in TOML, the keys of the less
//! indented lines in YAML. Inline tables (`steps = [{ … }]`) are not looked into.

use std::sync::OnceLock;

use serde_json::Value;

/// One thing to insert.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    pub label: String,
    /// The schema's description.
    pub detail: Option<String>,
    /// A key (else a value).
    pub key: bool,
    pub insert: String,
}

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| serde_json::from_str(&crate::schema::manifest_schema()).unwrap_or(Value::Null))
}

/// The node a `$ref` (or an optional `anyOf: [$ref, null]`) stands for.
fn resolve<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    if let Some(name) = node.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/definitions/")) {
        return root.get("definitions").and_then(|d| d.get(name)).map_or(node, |n| resolve(root, n));
    }
    for key in ["anyOf", "allOf"] {
        let Some(variants) = node.get(key).and_then(Value::as_array) else { continue };
        let objects: Vec<&Value> =
            variants.iter().map(|v| resolve(root, v)).filter(|v| v.get("type") != Some(&Value::from("null"))).collect();
        if let [only] = objects[..] {
            return only;
        }
    }
    node
}

/// The schema of `key` inside `node`: a property, any name of a map, or an item of an array.
fn child<'a>(root: &'a Value, node: &'a Value, key: &str) -> Option<&'a Value> {
    let node = resolve(root, node);
    let node = match node.get("items") {
        Some(items) if node.get("properties").is_none() => resolve(root, items),
        _ => node,
    };
    match node.get("properties").and_then(|p| p.get(key)) {
        Some(found) => Some(found),
        None => node.get("additionalProperties").filter(|a| a.is_object()),
    }
}

fn description(node: &Value) -> Option<String> {
    node.get("description").and_then(Value::as_str).map(str::to_string)
}

fn keys(root: &Value, node: &Value, yaml: bool) -> Vec<Completion> {
    let node = resolve(root, node);
    let node = match node.get("items") {
        Some(items) if node.get("properties").is_none() => resolve(root, items),
        _ => node,
    };
    let Some(properties) = node.get("properties").and_then(Value::as_object) else { return Vec::new() };
    properties
        .iter()
        .filter(|(name, _)| !name.starts_with('$'))
        .map(|(name, schema)| Completion {
            label: name.clone(),
            detail: description(schema),
            key: true,
            insert: if yaml { format!("{name}: ") } else { format!("{name} = ") },
        })
        .collect()
}

fn values(root: &Value, node: &Value, yaml: bool) -> Vec<Completion> {
    let mut out = Vec::new();
    collect_values(root, node, yaml, &mut out, 0);
    out
}

/// The values a node allows, through nested `oneOf` / `anyOf` (to a small depth).
fn collect_values(root: &Value, node: &Value, yaml: bool, out: &mut Vec<Completion>, depth: usize) {
    let node = resolve(root, node);
    if depth > 4 {
        return;
    }
    if let Some(variants) = node.get("oneOf").or_else(|| node.get("anyOf")).and_then(Value::as_array) {
        return variants.iter().for_each(|v| collect_values(root, v, yaml, out, depth + 1));
    }
    for value in node.get("enum").and_then(Value::as_array).into_iter().flatten().chain(node.get("const")) {
        let Some(text) = value.as_str() else { continue };
        let insert = if yaml { text.to_string() } else { format!("\"{text}\"") };
        out.push(Completion { label: text.to_string(), detail: description(node), key: false, insert });
    }
    let boolean = node.get("type").is_some_and(|t| t == "boolean" || t.as_array().is_some_and(|a| a.contains(&Value::from("boolean"))));
    if boolean {
        for b in ["true", "false"] {
            out.push(Completion { label: b.to_string(), detail: description(node), key: false, insert: b.to_string() });
        }
    }
}

/// The table path at `offset` and the text of its line before the cursor.
fn context(text: &str, offset: usize, yaml: bool) -> (Vec<String>, &str) {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let above = before[..line_start].lines().rev();
    let mut path = Vec::new();
    if yaml {
        let mut indent = line.len() - line.trim_start().len();
        for l in above {
            let trimmed = l.trim_start();
            let level = l.len() - trimmed.len();
            if level < indent && !trimmed.is_empty() && !trimmed.starts_with('#') {
                if let Some(key) = trimmed.strip_suffix(':') {
                    path.push(key.trim_start_matches("- ").trim().to_string());
                }
                indent = level;
            }
        }
        path.reverse();
    } else if let Some(header) = above.map(str::trim).find(|l| l.starts_with('[')) {
        let name = header.trim_start_matches('[').split(']').next().unwrap_or("");
        path = name.split('.').map(|p| p.trim().trim_matches('"').to_string()).collect();
    }
    (path, line)
}

/// What may be written at `offset` of a manifest (`yaml`: ctxc.yaml; else TOML).
pub fn complete(text: &str, offset: usize, yaml: bool) -> Vec<Completion> {
    let root = schema();
    let (path, line) = context(text, offset, yaml);
    let mut node = Some(root);
    for key in path.iter().filter(|k| !k.is_empty()) {
        node = node.and_then(|n| child(root, n, key));
    }
    let Some(node) = node else { return Vec::new() };
    let separator = if yaml { ':' } else { '=' };
    match line.split_once(separator) {
        Some((key, _)) => {
            let key = key.trim().trim_start_matches("- ");
            key.split('.').try_fold(node, |n, k| child(root, n, k.trim())).map_or_else(Vec::new, |n| values(root, n, yaml))
        }
        None => keys(root, node, yaml),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str, yaml: bool) -> Vec<String> {
        complete(text, text.len(), yaml).into_iter().map(|c| c.label).collect()
    }

    #[test]
    fn keys_of_the_table_and_values_of_the_key() {
        let top = labels("", false);
        assert!(top.contains(&"agent".to_string()) && top.contains(&"modes".to_string()), "{top:?}");
        let agent = labels("[agent]\nna", false);
        assert!(agent.contains(&"name".to_string()) && agent.contains(&"model".to_string()), "{agent:?}");
        let mode = labels("[modes.plan]\n", false);
        assert!(mode.contains(&"prompt".to_string()) && mode.contains(&"tools".to_string()), "a map's entries: {mode:?}");
        let access = labels("[modes.plan.tools]\nfs = ", false);
        assert_eq!(access, ["all", "read-only", "disabled"]);
        let yaml = labels("agent:\n  name: x\nmodes:\n  plan:\n    ", true);
        assert!(yaml.contains(&"prompt".to_string()), "{yaml:?}");
        assert!(labels("[nonsense]\n", false).is_empty());
    }
}

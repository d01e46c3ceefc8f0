//! Walking a tool's parameter schema (JSON Schema) for the TOOL rules.

use serde_json::Value;

use super::context::Context;
use crate::manifest::model::{Category, CategoryTool};
use crate::memo::Kind;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod tool001_invalid_tool_file;
pub mod tool002_invalid_name;
pub mod tool003_duplicate_name;
pub mod tool004_empty_description;
pub mod tool005_long_description;
pub mod tool006_schema_not_object;
pub mod tool007_required_not_in_properties;
pub mod tool008_invalid_schema_type;
pub mod tool009_writer_in_read_only_mode;
pub mod tool010_not_a_tool_file;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Tool definitions as the provider receives them: names, descriptions, parameter schemas, access per mode.";

/// The JSON Schema type names.
pub const TYPES: [&str; 7] = ["string", "number", "integer", "boolean", "object", "array", "null"];

/// Every subschema of `schema` (itself included), with a JSON-pointer-like path. Only schema
/// positions are visited: property values, `items`, `additionalProperties`, compositions and
/// definitions — never `enum`, `default` or `examples` values.
pub fn subschemas(schema: &Value) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    walk(schema, String::new(), &mut out, 0);
    out
}

fn walk<'a>(schema: &'a Value, path: String, out: &mut Vec<(String, &'a Value)>, depth: usize) {
    let Value::Object(map) = schema else { return };
    if depth > 64 {
        return;
    }
    out.push((path.clone(), schema));
    for key in ["properties", "patternProperties", "$defs", "definitions"] {
        if let Some(Value::Object(children)) = map.get(key) {
            for (name, child) in children {
                walk(child, format!("{path}/{key}/{name}"), out, depth + 1);
            }
        }
    }
    for key in ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else"] {
        match map.get(key) {
            Some(child @ Value::Object(_)) => walk(child, format!("{path}/{key}"), out, depth + 1),
            Some(Value::Array(children)) if key == "items" => {
                for (i, child) in children.iter().enumerate() {
                    walk(child, format!("{path}/{key}/{i}"), out, depth + 1);
                }
            }
            _ => {}
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(children)) = map.get(key) {
            for (i, child) in children.iter().enumerate() {
                walk(child, format!("{path}/{key}/{i}"), out, depth + 1);
            }
        }
    }
}

/// What `finds` reports in the subschemas of every tool's parameters, one entry per finding:
/// (category, tool, path, what it found). A schema where it finds nothing is remembered in
/// the run's cache under `clean` (each rule has its own kind), so the tools the agents of a project share, and
/// the tools of one schema, are walked once per rule.
pub fn findings_in_tools<'a, T>(
    cx: &'a Context,
    clean: Kind,
    finds: impl Fn(&'a Value) -> Vec<T>,
) -> Vec<(&'a Category, &'a CategoryTool, String, T)> {
    let mut out = Vec::new();
    for (category, tool) in cx.tools() {
        // What `finds` reads is the schema alone: tools with the same one share its entry.
        let key = tool.tool.parameters_json_hash();
        if cx.root.cache().get::<bool>(clean, key).unwrap_or(false) {
            continue;
        }
        let before = out.len();
        for (path, schema) in subschemas(&tool.tool.parameters) {
            out.extend(finds(schema).into_iter().map(|found| (category, tool, path.clone(), found)));
        }
        if out.len() == before {
            cx.root.cache().set(clean, key, true);
        }
    }
    out
}

/// " at `PATH`" for a subschema below the top level, "" for the top level.
pub fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" at `{path}`")
    }
}

/// The JSON Schema type a common non-schema type name means (`dict` → `object`).
pub fn suggest_type(wrong: &str) -> Option<&'static str> {
    match wrong.to_ascii_lowercase().as_str() {
        "dict" | "map" | "mapping" | "obj" | "record" | "json" => Some("object"),
        "float" | "double" | "decimal" | "numeric" => Some("number"),
        "int" | "long" | "int32" | "int64" => Some("integer"),
        "str" | "text" | "char" => Some("string"),
        "list" | "tuple" | "sequence" | "set" => Some("array"),
        "bool" => Some("boolean"),
        "none" | "nil" => Some("null"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visits_schema_positions_only() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": { "type": { "type": "string", "enum": [{"type": "dict"}] }, "tags": { "type": "array", "items": { "type": "str" } } },
            "anyOf": [{ "required": ["type"] }]
        });
        let paths: Vec<String> = subschemas(&schema).into_iter().map(|(p, _)| p).collect();
        // Properties in the schema's own order (serde_json preserve_order).
        assert_eq!(paths, ["", "/properties/type", "/properties/tags", "/properties/tags/items", "/anyOf/0"]);
        assert_eq!(suggest_type("dict"), Some("object"));
    }
}

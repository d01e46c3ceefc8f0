//! Walking a tool's parameter schema (JSON Schema) for the TOOL rules.

use serde_json::Value;

use crate::lint::Context;
use crate::manifest::model::{Category, CategoryTool};

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

/// Every subschema of every tool's parameters: (category, tool, path, subschema).
pub fn of_tools<'a>(cx: &'a Context) -> Vec<(&'a Category, &'a CategoryTool, String, &'a Value)> {
    cx.tools().into_iter().flat_map(|(c, t)| subschemas(&t.tool.parameters).into_iter().map(move |(p, s)| (c, t, p, s))).collect()
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
        assert_eq!(paths, ["", "/properties/tags", "/properties/tags/items", "/properties/type", "/anyOf/0"]);
        assert_eq!(suggest_type("dict"), Some("object"));
    }
}

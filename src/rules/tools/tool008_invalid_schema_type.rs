//! TOOL008: a `type` that JSON Schema does not have (`dict`, `float`, …).

use serde_json::Value;

use crate::memo::Kind;

use crate::rules::prelude::*;
use crate::rules::tools::{self, suggest_type, TYPES};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A parameter schema uses a `type` JSON Schema does not define, such as Python's `dict`, `float`, `int`, `str` or `list`.",
    why: "JSON Schema has seven types: string, number, integer, boolean, object, array and null. Providers reject \
          schemas with other type names, or ignore the constraint and let the model send anything. Python-style names \
          slip in when schemas are written by hand from type hints.",
    fails: Example {
        file: "tools/report.json",
        text: "[{ \"name\": \"save_report\", \"description\": \"Save a report.\", \"parameters\": { \"type\": \"object\", \"properties\": { \"data\": { \"type\": \"dict\" }, \"score\": { \"type\": \"float\" } } } }]\n",
    },
    passes: Example {
        file: "tools/report.json",
        text: "[{ \"name\": \"save_report\", \"description\": \"Save a report.\", \"parameters\": { \"type\": \"object\", \"properties\": { \"data\": { \"type\": \"object\" }, \"score\": { \"type\": \"number\" } } } }]\n",
    },
    notes: "Below the top level only: a top-level `\"type\": \"dict\"` is one defect, a parameter schema that is not an \
            object schema, reported once by TOOL006 (whose help gives the object schema to write), not twice.",
    stage: Stage::Lint(check),
};

/// The type names in a schema's `type` that are not JSON Schema types.
fn bad_types(schema: &Value) -> Vec<String> {
    let names: Vec<&Value> = match schema.get("type") {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(other) => vec![other],
        None => return Vec::new(),
    };
    names
        .into_iter()
        .filter_map(|name| match name {
            Value::String(s) if TYPES.contains(&s.as_str()) => None,
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        })
        .collect()
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (category, tool, path, bad) in tools::findings_in_tools(cx, Kind::CleanTypes, bad_types) {
        // The top-level schema must be `"type": "object"`: any other type there is TOOL006's.
        if path.is_empty() {
            continue;
        }
        let mut d = Diagnostic::finding(format!(
            "tool `{}` (category `{}`) uses type `{bad}`{}, which is not a JSON Schema type",
            tool.tool.name,
            category.name,
            tools::at(&path)
        ))
        .label("not a JSON Schema type");
        d = match suggest_type(&bad) {
            Some(s) => d.help(format!("use `\"type\": \"{s}\"`")),
            None => d.help(format!("JSON Schema types: {}", TYPES.join(", "))),
        };
        findings.push(locate::at(d, locate::in_tool(cx, tool, &bad)));
    }
    findings
}

//! TOOL007: `required` names a property the schema does not declare.

use serde_json::Value;

use crate::memo::Kind;

use crate::rules::prelude::*;
use crate::rules::tools;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A parameter schema's `required` list names a property that its `properties` does not declare.",
    why: "The model fills in what `properties` describes. A required property it has never seen makes every call fail \
          validation (OpenAI's strict mode rejects the schema outright); usually it is a renamed or misspelt property.",
    fails: Example {
        file: "tools/files.json",
        text: "[{ \"name\": \"read_file\", \"description\": \"Read a file.\", \"parameters\": { \"type\": \"object\", \"properties\": { \"path\": { \"type\": \"string\" } }, \"required\": [\"file_path\"] } }]\n",
    },
    passes: Example {
        file: "tools/files.json",
        text: "[{ \"name\": \"read_file\", \"description\": \"Read a file.\", \"parameters\": { \"type\": \"object\", \"properties\": { \"path\": { \"type\": \"string\" } }, \"required\": [\"path\"] } }]\n",
    },
    notes: "Schemas that combine subschemas at the same level (`allOf`, `anyOf`, `oneOf`) are skipped, since a required \
            property may be declared in one of them.",
    stage: Stage::Lint(check),
};

/// The names `required` lists that `properties` does not declare, with the declared names.
fn missing_required(schema: &Value) -> Vec<(String, Vec<String>)> {
    let Some(Value::Array(required)) = schema.get("required") else { return Vec::new() };
    if ["allOf", "anyOf", "oneOf"].iter().any(|k| schema.get(k).is_some()) {
        return Vec::new();
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    let known: Vec<String> = properties.map(|p| p.keys().cloned().collect()).unwrap_or_default();
    required
        .iter()
        .filter_map(Value::as_str)
        .filter(|name| !properties.is_some_and(|p| p.contains_key(*name)))
        .map(|name| (name.to_string(), known.clone()))
        .collect()
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (category, tool, path, (name, known)) in tools::findings_in_tools(cx, Kind::CleanRequired, missing_required) {
        let mut d = Diagnostic::finding(format!(
            "tool `{}` (category `{}`) requires `{name}`{}, which is not among its properties",
            tool.tool.name,
            category.name,
            tools::at(&path)
        ))
        .label("not a declared property");
        d = match crate::diagnostic::did_you_mean(&name, known.iter().map(String::as_str)) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None if known.is_empty() => d.help("declare it under `properties`"),
            None => d.help(format!("properties: {}", known.join(", "))),
        };
        findings.push(locate::at(d, locate::in_tool(cx, tool, &name)));
    }
    findings
}

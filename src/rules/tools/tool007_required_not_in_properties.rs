//! TOOL007: `required` names a property the schema does not declare.

use serde_json::Value;

use crate::rules::json_schema;
use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: "TOOL007",
    name: "required-not-in-properties",
    family: Family::Tools,
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

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (category, tool, path, schema) in json_schema::of_tools(cx) {
        let Some(Value::Array(required)) = schema.get("required") else { continue };
        if ["allOf", "anyOf", "oneOf"].iter().any(|k| schema.get(k).is_some()) {
            continue;
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for name in required.iter().filter_map(Value::as_str) {
            if properties.is_some_and(|p| p.contains_key(name)) {
                continue;
            }
            let known: Vec<&str> = properties.map(|p| p.keys().map(String::as_str).collect()).unwrap_or_default();
            let mut d = Diagnostic::error(format!(
                "tool `{}` (category `{}`) requires `{name}`{}, which is not among its properties",
                tool.tool.name,
                category.name,
                json_schema::at(&path)
            ))
            .label("not a declared property");
            d = match crate::diagnostic::did_you_mean(name, known.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None if known.is_empty() => d.help("declare it under `properties`"),
                None => d.help(format!("properties: {}", known.join(", "))),
            };
            findings.push(locate::at(d, locate::in_tool(cx, tool, &format!("\"{name}\""))));
        }
    }
    findings
}

//! TOOL006: a parameter schema that is not an object schema.

use serde_json::Value;

use crate::rules::prelude::*;
use crate::rules::tools::suggest_type;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A tool's parameter schema is not a JSON object with `\"type\": \"object\"`.",
    why: "Function calling passes arguments as one JSON object: OpenAI, Anthropic and MCP (`inputSchema`) all require \
          the top-level parameter schema to be of type `object`. Anything else is rejected by the provider or \
          produces arguments the tool cannot read.",
    fails: Example { file: "tools/search.json", text: "[{ \"name\": \"search\", \"description\": \"Search.\", \"parameters\": { \"type\": \"string\" } }]\n" },
    passes: Example {
        file: "tools/search.json",
        text: "[{ \"name\": \"search\", \"description\": \"Search.\", \"parameters\": { \"type\": \"object\", \"properties\": { \"query\": { \"type\": \"string\" } } } }]\n",
    },
    notes: "An empty schema `{}` is accepted as \"no parameters\". Any top-level `type` other than `object` is this rule's \
            finding, even one JSON Schema does not have (`dict`): TOOL008 reports such types below the top level only.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (category, tool) in cx.tools() {
        let problem = match &tool.tool.parameters {
            Value::Object(map) if map.is_empty() => continue,
            Value::Object(map) => match map.get("type") {
                Some(Value::String(t)) if t == "object" => continue,
                // A Python name for a mapping (`dict`) is this rule's, not TOOL008's: one finding.
                Some(Value::String(t)) if suggest_type(t) == Some("object") => {
                    format!("has `\"type\": \"{t}\"` (JSON Schema's name is `object`)")
                }
                Some(other) => format!("has `\"type\": {other}`"),
                None => "has no `\"type\"`".to_string(),
            },
            other => format!("is {}, not a JSON object", crate::tools::json_kind(other)),
        };
        let d = Diagnostic::finding(format!(
            "the parameter schema of tool `{}` (category `{}`) {problem}: it must be an object schema",
            tool.tool.name, category.name
        ))
        .label("not an object schema")
        .help("wrap the parameters: `{\"type\": \"object\", \"properties\": {...}, \"required\": [...]}`");
        findings.push(locate::at(d, locate::tool(cx, tool)));
    }
    findings
}

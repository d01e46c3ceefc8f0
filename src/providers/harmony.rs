//! OpenAI's harmony format, as `openai-harmony` 0.0.8 renders a request for gpt-oss (its
//! `src/encoding.rs`): a system message with harmony's defaults, a developer message holding the
//! instructions and the function tools as a TypeScript-like `namespace functions { … }`, and the
//! generation prompt `<|start|>assistant`. Every text is tokenized on its own and each special
//! token is one token, so a request's count is the sum of its messages' counts.

use serde_json::Value;

use crate::tools::Tool;

/// The system message `SystemContent.new()` renders: model identity, knowledge cutoff,
/// reasoning effort and the required channels.
pub const SYSTEM: &str = "You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\n\nReasoning: medium\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.";
/// Appended to the system message when the request has function tools.
pub const FUNCTIONS_CHANNEL: &str = "\nCalls to these tools must go to the commentary channel: 'functions'.";
/// The developer message's heading before the instructions (the system prompt).
pub const INSTRUCTIONS: &str = "# Instructions\n\n";
/// Between the instructions and the tools.
pub const SECTION_BREAK: &str = "\n\n";
pub const TOOLS_OPEN: &str = "# Tools\n\n## functions\n\nnamespace functions {\n\n";
/// Between two tools (each tool's text already ends with a newline).
pub const TOOL_BREAK: &str = "\n";
pub const TOOLS_CLOSE: &str = "\n} // namespace functions";
/// The roles whose names frame the fixed part of a request, in order; the last is the generation prompt.
pub const ROLES: [&str; 3] = ["system", "developer", "assistant"];
/// `<|start|>`, `<|message|>` and `<|end|>` around the system and developer messages, and the
/// `<|start|>` of the generation prompt.
pub const SPECIAL_TOKENS: usize = 7;
/// Framing tokens of one more message in the history: `<|start|>`, `<|message|>`, `<|end|>`
/// and the role's name (one token for `user` and `assistant`).
pub const PER_MESSAGE: usize = 4;

/// One tool as it stands in the namespace: its description as `//` lines, then its type.
pub fn tool_text(tool: &Tool) -> String {
    // Written in place, no text formatted apart: a server's thousands of tools are each rendered.
    let description = tool.description_text();
    let mut out = String::with_capacity(description.len() + tool.name.len() + 32);
    for line in description.lines() {
        out.push_str("// ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("type ");
    out.push_str(&tool.name);
    out.push_str(" = (_: ");
    out.push_str(&typescript(&tool.parameters, ""));
    out.push_str(") => any;\n");
    out
}

/// The whole fixed part of a request as text, special tokens written out: what the
/// differential test compares with `openai-harmony`'s decoded rendering.
pub fn render(instructions: Option<&str>, tools: &[&Tool]) -> String {
    let mut developer = Vec::new();
    if let Some(text) = instructions {
        developer.push(format!("{INSTRUCTIONS}{text}"));
    }
    if !tools.is_empty() {
        let each: Vec<String> = tools.iter().map(|t| tool_text(t)).collect();
        developer.push(format!("{TOOLS_OPEN}{}{TOOLS_CLOSE}", each.join(TOOL_BREAK)));
    }
    let channel = if tools.is_empty() { "" } else { FUNCTIONS_CHANNEL };
    format!(
        "<|start|>system<|message|>{SYSTEM}{channel}<|end|><|start|>developer<|message|>{}<|end|><|start|>assistant",
        developer.join(SECTION_BREAK)
    )
}

fn text(value: Option<&Value>) -> Option<&str> {
    value.and_then(Value::as_str)
}

fn is_enum(schema: &Value) -> bool {
    schema.get("enum").and_then(Value::as_array).is_some_and(|a| !a.is_empty())
}

/// A default as harmony writes it: a string bare when the schema is an enum, quoted otherwise
/// (as written, not escaped); anything else as compact JSON. Variants of a top-level `oneOf`
/// write even an enum's string default as JSON (`quote_enum`).
fn default_text(schema: &Value, default: &Value, quote_enum: bool) -> String {
    match default.as_str() {
        Some(s) if !is_enum(schema) => format!("default: \"{s}\""),
        Some(s) if !quote_enum => format!("default: {s}"),
        _ => format!("default: {default}"),
    }
}

/// `type_text` with ` | null` added for a `nullable` schema that does not already say null.
fn nullable(schema: &Value, type_text: String) -> String {
    if schema.get("nullable").and_then(Value::as_bool) == Some(true) && !type_text.contains("null") {
        format!("{type_text} | null")
    } else {
        type_text
    }
}

/// A JSON Schema as harmony's TypeScript-like type. Keywords harmony does not read (`anyOf`,
/// `allOf`, `$ref`, `const`, an untyped `enum`) become `any`, as they do there.
pub fn typescript(schema: &Value, indent: &str) -> String {
    if let Some(variants) = schema.get("oneOf").and_then(Value::as_array) {
        let mut out = String::new();
        for variant in variants {
            out.push_str(&format!("\n{indent} | "));
            out.push_str(&nullable(variant, typescript(variant, &format!("{indent}   "))));
            let mut comments: Vec<String> = text(variant.get("description")).map(str::to_string).into_iter().collect();
            comments.extend(variant.get("default").map(|d| default_text(variant, d, true)));
            if !comments.is_empty() {
                out.push_str(&format!(" // {}", comments.join(" ")));
            }
        }
        return out;
    }
    if let Some(types) = schema.get("type").and_then(Value::as_array) {
        let names: Vec<&str> = types.iter().filter_map(Value::as_str).map(|t| if t == "integer" { "number" } else { t }).collect();
        if !names.is_empty() {
            return names.join(" | ");
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => object(schema, indent),
        Some("string") => {
            let values: Vec<String> = schema
                .get("enum")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|s| format!("\"{s}\""))
                .collect();
            if values.is_empty() {
                "string".to_string()
            } else {
                values.join(" | ")
            }
        }
        Some("number" | "integer") => "number".to_string(),
        Some("boolean") => "boolean".to_string(),
        Some("array") => match schema.get("items") {
            Some(items) => format!("{}[]", typescript(items, indent)),
            None => "Array<any>".to_string(),
        },
        _ => "any".to_string(),
    }
}

fn object(schema: &Value, indent: &str) -> String {
    let mut out = String::new();
    if let Some(description) = text(schema.get("description")) {
        out.push_str(&format!("{indent}// {description}\n"));
    }
    out.push_str("{\n");
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        let required: Vec<&str> =
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        for (key, property) in properties {
            let optional = if required.contains(&key.as_str()) { "" } else { "?" };
            if let Some(title) = text(property.get("title")) {
                out.push_str(&format!("{indent}// {title}\n{indent}//\n"));
            }
            let one_of = property.get("oneOf");
            if one_of.is_none() {
                if let Some(description) = text(property.get("description")) {
                    out.push_str(&format!("{indent}// {description}\n"));
                }
            }
            if let Some(examples) = property.get("examples").and_then(Value::as_array).filter(|a| !a.is_empty()) {
                out.push_str(&format!("{indent}// Examples:\n"));
                for example in examples.iter().filter_map(Value::as_str) {
                    out.push_str(&format!("{indent}// - \"{example}\"\n"));
                }
            }
            if let Some(variants) = one_of.and_then(Value::as_array) {
                out.push_str(&one_of_property(key, optional, property, variants, indent));
                continue;
            }
            out.push_str(&format!("{indent}{key}{optional}: "));
            out.push_str(&nullable(property, typescript(property, &format!("{indent}    "))));
            out.push(',');
            if let Some(default) = property.get("default").filter(|_| one_of.is_none()) {
                out.push_str(&format!(" // {}", default_text(property, default, false)));
            }
            out.push('\n');
        }
    }
    out.push_str(&format!("{indent}}}"));
    out
}

/// A property whose schema is a `oneOf`: its comments above its name, then one `|` line per
/// variant. The property's description is written once, above, unless the first variant
/// repeats it (then that variant's trailing comment says it).
fn one_of_property(key: &str, optional: &str, property: &Value, variants: &[Value], indent: &str) -> String {
    let mut out = String::new();
    let description = text(property.get("description"));
    let first_repeats = description.is_some() && text(variants.first().and_then(|v| v.get("description"))) == description;
    let above = match description {
        Some(d) if !first_repeats => {
            out.push_str(&format!("{indent}// {d}\n"));
            true
        }
        _ => false,
    };
    if let Some(default) = property.get("default") {
        out.push_str(&format!("{indent}// {}\n", default_text(property, default, false)));
    }
    out.push_str(&format!("{indent}{key}{optional}:\n"));
    for (i, variant) in variants.iter().enumerate() {
        out.push_str(&format!("{indent} | "));
        out.push_str(&nullable(variant, typescript(variant, &format!("{indent}   "))));
        let mut comments = Vec::new();
        if !(i == 0 && above) {
            comments.extend(text(variant.get("description")).filter(|d| Some(*d) != description).map(str::to_string));
        }
        comments.extend(variant.get("default").map(|d| default_text(variant, d, false)));
        if !comments.is_empty() {
            out.push_str(&format!(" // {}", comments.join(" ")));
        }
        out.push('\n');
    }
    out.push_str(&format!("{indent},\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(parameters: Value) -> Tool {
        Tool::new("get_weather".into(), "Gets the current weather in the provided location.".to_string(), parameters, None)
    }

    #[test]
    fn renders_the_reference_example() {
        let t = tool(json!({
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                "format": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"}
            },
            "required": ["location"]
        }));
        let expected = "// Gets the current weather in the provided location.\ntype get_weather = (_: {\n// The city and state, e.g. San Francisco, CA\nlocation: string,\nformat?: \"celsius\" | \"fahrenheit\", // default: celsius\n}) => any;\n";
        assert_eq!(tool_text(&t), expected);
        let request = render(Some("You are a helpful agent."), &[&t]);
        assert!(request.contains("<|start|>developer<|message|># Instructions\n\nYou are a helpful agent.\n\n# Tools\n\n## functions\n\nnamespace functions {\n\n// Gets"), "{request}");
        assert!(request.ends_with("} // namespace functions<|end|><|start|>assistant"), "{request}");
    }

    #[test]
    fn nested_types_unions_and_defaults() {
        let schema = json!({
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string"}},
                "any": {"type": "array"},
                "n": {"type": ["integer", "null"], "default": 3},
                // The first variant repeats the description: harmony then writes it nowhere.
                "mode": {"description": "How", "oneOf": [{"type": "string", "description": "How"}, {"type": "number", "default": 1}]},
                "opt": {"type": "string", "nullable": true, "default": "x"},
                "ref": {"$ref": "#/defs/x"}
            },
            "required": ["tags"]
        });
        assert_eq!(
            typescript(&schema, ""),
            "{\ntags: string[],\nany?: Array<any>,\nn?: number | null, // default: 3\nmode?:\n | string\n | number // default: 1\n,\nopt?: string | null, // default: \"x\"\nref?: any,\n}"
        );
    }
}

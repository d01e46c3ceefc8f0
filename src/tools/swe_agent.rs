//! SWE-agent tool bundles (`tools/<bundle>/config.yaml`): `tools:` maps each command's name to
//! its `signature`, `docstring` and `arguments`. Converted as SWE-agent's
//! `Command.get_function_calling_tool` does (sweagent/tools/commands.py, v1.1.0): the docstring is
//! the description, and each argument becomes a property `{type, description}` plus its `items`
//! and `enum` when given, listed in `required` when required. Placeholders such as `{WINDOW}`
//! in docstrings stay as written: SWE-agent fills them from its environment.

use serde_json::{Map, Value};

use super::Tool;

/// Whether `value` is a bundle: `tools` is a mapping of commands (possibly empty).
pub(super) fn is_bundle(value: &Value) -> bool {
    let Some(Value::Object(tools)) = value.get("tools") else { return false };
    let command_keys = ["signature", "docstring", "arguments"];
    tools.values().all(|c| command_keys.iter().any(|k| c.get(k).is_some()))
}

pub(super) fn tools(bundle: &Value) -> Result<Vec<Tool>, String> {
    let Some(Value::Object(commands)) = bundle.get("tools") else { return Ok(Vec::new()) };
    commands.iter().map(|(name, command)| tool(name, command)).collect()
}

fn tool(name: &str, command: &Value) -> Result<Tool, String> {
    let description = match command.get("docstring") {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => String::new(),
        Some(_) => return Err(format!("tool `{name}`: `docstring` must be a string")),
    };
    let arguments = match command.get("arguments") {
        Some(Value::Array(a)) => a.as_slice(),
        None | Some(Value::Null) => &[],
        Some(_) => return Err(format!("tool `{name}`: `arguments` must be a list")),
    };
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (i, argument) in arguments.iter().enumerate() {
        let field = |key: &str| argument.get(key).ok_or_else(|| format!("tool `{name}`: argument #{}: missing `{key}`", i + 1));
        let Value::String(arg_name) = field("name")? else {
            return Err(format!("tool `{name}`: argument #{}: `name` must be a string", i + 1));
        };
        let mut property = Map::new();
        property.insert("type".into(), field("type")?.clone());
        property.insert("description".into(), field("description")?.clone());
        for key in ["items", "enum"] {
            if let Some(value) = argument.get(key).filter(|v| !v.is_null()) {
                property.insert(key.into(), value.clone());
            }
        }
        if field("required")?.as_bool() == Some(true) {
            required.push(Value::String(arg_name.clone()));
        }
        properties.insert(arg_name.clone(), Value::Object(property));
    }
    let parameters = serde_json::json!({ "type": "object", "properties": properties, "required": required });
    Ok(Tool::new(name.to_string(), description, parameters, None))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{parse_tool_file, ToolFormat};
    use crate::codes::Code;

    #[test]
    fn converts_as_swe_agent_does() {
        let bundle = "tools:\n  note_add:\n    signature: \"note_add <topic> [<priority>]\"\n    docstring: records a note\n    arguments:\n      - name: topic\n        type: string\n        description: what it is about\n        required: true\n      - name: priority\n        type: string\n        description: how urgent\n        required: false\n        enum: [low, high]\n      - name: lines\n        type: array\n        items:\n          type: integer\n        description: lines\n        required: false\n  note_clear:\n    signature: note_clear\n    docstring: null\nstate_command: _state\n";
        let file = parse_tool_file(bundle).expect("bundle");
        assert_eq!(file.format, ToolFormat::SweAgent);
        let add = &file.tools[0];
        assert_eq!((add.name.as_str(), add.description_text(), add.read_only), ("note_add", "records a note", None));
        let expected = json!({
            "type": "object",
            "properties": {
                "topic": { "type": "string", "description": "what it is about" },
                "priority": { "type": "string", "description": "how urgent", "enum": ["low", "high"] },
                "lines": { "type": "array", "description": "lines", "items": { "type": "integer" } },
            },
            "required": ["topic"],
        });
        assert_eq!(add.parameters, expected);
        let clear = &file.tools[1];
        assert_eq!((clear.description_text(), &clear.parameters), ("", &json!({ "type": "object", "properties": {}, "required": [] })));
        assert!(parse_tool_file("tools: {}\n").expect("an empty bundle").tools.is_empty());
    }

    #[test]
    fn a_broken_command_is_tool001() {
        let text = "tools:\n  goto:\n    docstring: moves\n    arguments:\n      - name: line\n        description: where\n        required: true\n";
        let error = parse_tool_file(text).expect_err("no type");
        assert_eq!((error.code, error.message.as_str()), (Code::TOOL001, "tool `goto`: argument #1: missing `type`"));
    }
}

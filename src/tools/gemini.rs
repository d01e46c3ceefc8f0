//! Gemini function declarations: `{"functionDeclarations": [{name, description, parameters}]}`
//! as one entry of a request's `tools`, or bare. Gemini's schemas are an OpenAPI subset with
//! upper-case types (`"STRING"`); they are kept as given.

use serde_json::Value;

use super::{field, named_tool, Tool};

/// The declarations of a Gemini tool object (REST writes `functionDeclarations`, the Python SDK
/// `function_declarations`).
pub(super) fn declarations(item: &Value) -> Option<&Vec<Value>> {
    field(item, "functionDeclarations").or_else(|| field(item, "function_declarations")).and_then(Value::as_array)
}

pub(super) fn tools(index: usize, declarations: &[Value]) -> Result<Vec<Tool>, String> {
    let declaration = |i: usize, d: &Value| {
        // Newer declarations may give a full JSON Schema instead of the OpenAPI subset, under
        // REST's name or the Python SDK's (which sends it under REST's).
        let json_schema = ["parametersJsonSchema", "parameters_json_schema"].into_iter().find(|k| d.get(k).is_some());
        let key = json_schema.filter(|_| d.get("parameters").is_none()).unwrap_or("parameters");
        let mut tool = named_tool(i, d, key, None).map_err(|e| format!("Gemini tool #{}: {e}", index + 1))?;
        tool.parameters_json_schema = key != "parameters";
        tool.no_parameters = d.get(key).is_none();
        tool.response = d.get("response").cloned().map(Box::new);
        tool.response_json_schema = d.get("responseJsonSchema").or_else(|| d.get("response_json_schema")).cloned().map(Box::new);
        Ok(tool)
    };
    declarations.iter().enumerate().map(|(i, d)| declaration(i, d)).collect()
}

/// Whether a bare `{name, parameters}` is a Gemini declaration: its schema type is upper-case.
pub(super) fn is_declaration(item: &Value) -> bool {
    item.pointer("/parameters/type").and_then(Value::as_str).is_some_and(|t| t.chars().all(|c| c.is_ascii_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{names, read};
    use super::super::{parse_tool_file, ToolFormat};

    #[test]
    fn declarations_in_a_request_or_bare_keep_their_schema() {
        let request = r#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT","properties":{"city":{"type":"STRING"}}}},{"name":"b"}]},{"function_declarations":[{"name":"c"}]}]}"#;
        let file = parse_tool_file(request).expect("gemini");
        assert_eq!(file.format, ToolFormat::Gemini);
        assert_eq!(file.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(file.tools[0].parameters["properties"]["city"]["type"], "STRING");

        // A declaration without a schema sends none (ADK's for a function without parameters).
        assert_eq!(file.tools[1].gemini_declaration(), serde_json::json!({"name": "b"}));
        assert_eq!(file.tools[0].gemini_declaration()["parameters"]["type"], "OBJECT");

        let bare = r#"[{"name":"d","description":"x","parameters":{"type":"OBJECT","properties":{}}}]"#;
        assert_eq!(read(bare), Ok((ToolFormat::Gemini, names(&["d"]))));
        let one = r#"{"functionDeclarations":[{"name":"e","parametersJsonSchema":{"type":"object"},"response":{"type":"STRING"}}]}"#;
        let file = parse_tool_file(one).expect("one tool object");
        assert_eq!(file.tools[0].parameters["type"], "object");
        assert!(file.tools[0].parameters_json_schema && file.tools[0].response.is_some() && file.tools[0].description.is_none());
        assert!(!parse_tool_file(bare).expect("bare").tools[0].parameters_json_schema);
        // The Python SDK's names, sent under REST's: the schemas were dropped.
        let python = r#"{"function_declarations":[{"name":"f","parameters_json_schema":{"type":"object","properties":{"q":{"type":"string"}}},"response_json_schema":{"type":"string"}}]}"#;
        let camel = r#"{"name":"f","parametersJsonSchema":{"type":"object","properties":{"q":{"type":"string"}}},"responseJsonSchema":{"type":"string"}}"#;
        assert_eq!(parse_tool_file(python).expect("python").tools[0].gemini_declaration().to_string(), camel);
        assert!(read(r#"{"functionDeclarations":[{"description":"no name"}]}"#)
            .expect_err("no name")
            .1
            .contains("Gemini tool #1: tool #1: missing `name`"));
    }
}

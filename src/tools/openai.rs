//! OpenAI function tools. Chat Completions wraps the function (`{"type": "function", "function":
//! {…}}`); the Responses API writes it flat (`{"type": "function", "name", …, "parameters"}`), as
//! do BFCL records. Either way the function object is `{name, description, parameters}`.

use serde_json::Value;

use super::{named_tool, Tool};

/// The tool of one function object; OpenAI never says whether a tool only reads.
pub(super) fn function(index: usize, function: &Value) -> Result<Tool, String> {
    if !function.is_object() {
        return Err(format!("tool #{}: `function` must be an object", index + 1));
    }
    named_tool(index, function, "parameters", None)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{names, read};
    use super::super::{parse_tool_file, ToolFormat};
    use crate::codes::Code;

    #[test]
    fn chat_and_responses_function_tools() {
        let chat = r#"[{"type":"function","function":{"name":"a","description":"d","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}}]"#;
        let file = parse_tool_file(chat).expect("chat");
        assert_eq!((file.format, file.tools[0].name.as_str(), file.tools[0].read_only), (ToolFormat::OpenAi, "a", None));
        assert_eq!(file.tools[0].parameters["properties"]["x"]["type"], "string");

        let responses = r#"[{"type":"function","name":"b","description":"d","parameters":{"type":"object"},"strict":true}]"#;
        assert_eq!(read(responses), Ok((ToolFormat::OpenAiResponses, names(&["b"]))));
        // A request body holds its tools under `tools`.
        let body = r#"{"model":"gpt-4.1","tools":[{"type":"function","name":"c","parameters":{}}]}"#;
        assert_eq!(read(body), Ok((ToolFormat::OpenAiResponses, names(&["c"]))));

        assert_eq!(read(r#"[{"type":"function","function":"a"}]"#), Err((Code::TOOL001, "tool #1: `function` must be an object".into())));
        assert_eq!(read(r#"[{"type":"function","function":{"description":"d"}}]"#), Err((Code::TOOL001, "tool #1: missing `name`".into())));
    }
}

//! Anthropic tool definitions: `{name, description, input_schema}`.

use serde_json::Value;

use super::{named_tool, Tool};

pub(super) fn tool(index: usize, item: &Value) -> Result<Tool, String> {
    named_tool(index, item, "input_schema", None)
}

#[cfg(test)]
mod tests {
    use super::super::{parse_tool_file, ToolFormat};

    #[test]
    fn input_schema_is_the_parameters() {
        let text = r#"{"tools":[{"name":"get_stock","description":"d","input_schema":{"type":"object","required":["sku"]}},{"name":"bash","type":"bash_20250124"}]}"#;
        let file = parse_tool_file(text).expect("anthropic");
        assert_eq!(file.format, ToolFormat::Anthropic);
        assert_eq!(file.tools[0].parameters["required"][0], "sku");
        // A tool without a schema (Anthropic's own tools) gets the empty object schema.
        assert_eq!(file.tools[1].parameters, super::super::empty_parameters());
    }
}

//! MCP `Tool`s, as a `tools/list` result holds them: `{name, description, inputSchema,
//! annotations}`.

use serde_json::Value;

use super::{field, named_tool, Tool};

pub(super) fn tool(index: usize, item: &Value) -> Result<Tool, String> {
    // Looked up key by key: a JSON pointer allocates for each of its parts, for every tool.
    let read_only = field(item, "annotations").and_then(|a| field(a, "readOnlyHint")).and_then(Value::as_bool);
    named_tool(index, item, "inputSchema", read_only)
}

/// The server a capture names: `serverInfo.name`, as the server's `initialize` result gives it.
pub(super) fn server_name(capture: &Value) -> Option<String> {
    capture.pointer("/serverInfo/name").and_then(Value::as_str).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::super::{parse_tool_file, ToolFormat};

    #[test]
    fn results_responses_captures_and_single_tools() {
        let response = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"b","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}}"#;
        let file = parse_tool_file(response).expect("response");
        assert_eq!((file.format, file.tools[0].read_only, file.listing, file.server), (ToolFormat::Mcp, Some(true), true, None));

        let capture = r#"{"serverInfo":{"name":"notes","version":"1"},"tools":[{"name":"a","inputSchema":{}}]}"#;
        assert_eq!(parse_tool_file(capture).expect("capture").server.as_deref(), Some("notes"));

        let single = r#"{"name":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false}}"#;
        let file = parse_tool_file(single).expect("one MCP tool");
        assert_eq!((file.format, file.tools.len(), file.tools[0].read_only, file.listing), (ToolFormat::Mcp, 1, Some(false), false));
    }
}

//! MCP `Tool`s, as a `tools/list` result holds them: `{name, description, inputSchema,
//! annotations}`.

use serde_json::Value;

use super::{named_tool, Tool};

pub(super) fn tool(index: usize, item: &Value) -> Result<Tool, String> {
    named_tool(index, item, "inputSchema", item.pointer("/annotations/readOnlyHint").and_then(Value::as_bool))
}

/// The server a capture names: `serverInfo.name`, as the server's `initialize` result gives it.
pub(super) fn server_name(capture: &Value) -> Option<String> {
    capture.pointer("/serverInfo/name").and_then(Value::as_str).map(str::to_string)
}

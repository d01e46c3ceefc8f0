//! Anthropic tool definitions: `{name, description, input_schema}`.

use serde_json::Value;

use super::{named_tool, Tool};

pub(super) fn tool(index: usize, item: &Value) -> Result<Tool, String> {
    named_tool(index, item, "input_schema", None)
}

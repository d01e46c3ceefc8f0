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

//! Anthropic's Messages API: tools are sent as `{name, description, input_schema}`, and a
//! request with tools gets a tool-use system prompt whose size Anthropic publishes per model and
//! `tool_choice` (`data/tool-preambles.tsv`). How the definitions are rendered into the context is
//! not published, so ctxc counts each definition as compact JSON in the file's key order.

use crate::tools::Tool;

/// One tool definition as sent in the request's `tools` array.
pub fn tool_text(tool: &Tool) -> String {
    tool.definition("input_schema").to_string()
}

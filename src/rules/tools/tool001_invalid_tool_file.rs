//! TOOL001: a tool file that is broken: invalid JSON or YAML, or a tool definition without its name.
//!
//! Found by [`crate::tools::parse_tool_file`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A tool file is not valid JSON, or a tool in it is broken (no name, a name or description that is not a string).",
    why: "Tool schemas are sent with every request and cost tokens beside the prompt; a file that cannot be read would \
          drop a whole category from the prompt and from the cost report. The message points at the line and column \
          where the JSON breaks (in JSON Lines, at the line), or names the tool by its position.",
    fails: Example { file: "tools/files.json", text: "[\n  { \"name\": \"read_file\", \"description\": \"Read a file.\" },\n]\n" },
    passes: Example { file: "tools/files.json", text: "[\n  { \"name\": \"read_file\", \"description\": \"Read a file.\" }\n]\n" },
    notes: "A file that holds no tool format at all (Markdown, an MCP server configuration) is TOOL010.",
    stage: Stage::Load,
};

//! TOOL001: a tool file that is not valid JSON or not a tool format ctxc reads.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::TOOL001,
    name: "invalid-tool-file",
    family: Family::Tools,
    severity: Severity::Error,
    summary: "A tool file is not valid JSON, or not an OpenAI tools array, an MCP `tools/list` result, a ctxc tool list or one tool.",
    why: "Tool schemas are sent with every request and cost tokens beside the prompt; a file that cannot be read would \
          drop a whole category from the prompt and from the cost report. The message points at the line and column \
          where the JSON breaks.",
    fails: Example { file: "tools/files.json", text: "[\n  { \"name\": \"read_file\", \"description\": \"Read a file.\" },\n]\n" },
    passes: Example { file: "tools/files.json", text: "[\n  { \"name\": \"read_file\", \"description\": \"Read a file.\" }\n]\n" },
    notes: "",
    stage: Stage::Load,
};

//! OPENHANDS014: a microagent with no text.

use crate::rules::frontmatter::empty_body;

use crate::rules::openhands::microagents;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An OpenHands microagent without `mcp_tools` has nothing after its frontmatter.",
    why: "A microagent's body is the knowledge or task text added to the conversation when it loads; without it (and \
          without MCP tools, which are a reason to ship an empty body) it loads and contributes nothing. Source: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686.",
    fails: Example { file: ".openhands/microagents/docker.md", text: "---\nname: docker\ntriggers: [docker]\n---\n" },
    passes: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers: [docker]\n---\nUse multi-stage builds.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    microagents(cx)
        .filter(|d| d.field("mcp_tools").is_none())
        .filter_map(|d| empty_body(d, d.body_start(), "microagent's knowledge"))
        .collect()
}

//! TOOL002: a tool name the model's provider rejects.

use std::sync::LazyLock;

use regex::Regex;

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A tool name does not match the naming rule of the agent's provider (OpenAI, Anthropic and most others: 1–64 of `a-z A-Z 0-9 _ -`; Gemini: also `.` and `:`, starting with a letter or `_`).",
    why: "The provider rejects the whole request when one tool name is invalid, so an MCP server that names its tools \
          `github.create_issue` works with one model and fails every call with another. The rule follows the provider \
          of `[agent] model`; unknown providers get the OpenAI rule.",
    fails: Example { file: "tools/mcp/github.json", text: "{ \"tools\": [ { \"name\": \"github.create_issue\", \"description\": \"Open an issue.\", \"inputSchema\": { \"type\": \"object\" } } ] }\n" },
    passes: Example { file: "tools/mcp/github.json", text: "{ \"tools\": [ { \"name\": \"github_create_issue\", \"description\": \"Open an issue.\", \"inputSchema\": { \"type\": \"object\" } } ] }\n" },
    notes: "",
    stage: Stage::Lint(check),
};

static OPENAI: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Za-z0-9_-]{1,64}$").expect("constant pattern")); // ok: literal
static GEMINI: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$").expect("constant pattern")); // ok: literal

fn check(cx: &Context) -> Vec<Diagnostic> {
    let Some(agent) = cx.agent() else { return Vec::new() };
    let provider = agent.profile.provider.as_str();
    let (pattern, rule, who) = if provider.contains("gemini") || provider.contains("vertex") {
        (&*GEMINI, "1–64 characters of letters, digits, `_`, `.`, `:` and `-`, starting with a letter or `_`", "Gemini")
    } else {
        let who = if provider == "anthropic" { "Anthropic" } else { "OpenAI-style" };
        (&*OPENAI, "1–64 characters of letters, digits, `_` and `-`", who)
    };
    cx.tools()
        .into_iter()
        .filter(|(_, t)| !pattern.is_match(&t.tool.name))
        .map(|(category, tool)| {
            let d = Diagnostic::finding(format!(
                "tool name `{}` (category `{}`) is not valid for {who} tool calling: names must be {rule}",
                tool.tool.name, category.name
            ))
            .label("invalid name")
            .help("rename the tool (MCP clients usually map names, e.g. replace `.` with `_`)");
            locate::at(d, locate::tool(cx, tool))
        })
        .collect()
}

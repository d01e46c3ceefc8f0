//! TOOL005: a tool description over 1,024 characters.

use crate::rules::prelude::*;

/// Longest description, in characters.
pub const MAX_CHARS: usize = 1024;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A tool description is longer than 1,024 characters.",
    why: "Tool descriptions are sent with every request in every mode that enables the tool, so a long one is paid for \
          on every turn. OpenAI's API rejected function descriptions over 1,024 characters \
          (`string_above_max_length`) until 2025, and gateways and older SDKs still enforce that limit. Put long usage \
          notes in a skill or the prompt of the mode that needs them.",
    fails: Example { file: "tools/review.json", text: "[{ \"name\": \"pull_request_review_write\", \"description\": \"(1,115 characters of instructions…)\" }]\n" },
    passes: Example { file: "tools/review.json", text: "[{ \"name\": \"pull_request_review_write\", \"description\": \"Create, submit or delete a pull request review. Use `method` to choose.\" }]\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (category, tool) in cx.tools() {
        let chars = tool.tool.description_text().chars().count();
        if chars <= MAX_CHARS {
            continue;
        }
        let tokens = grouped(cx.count(tool.tool.description_text()));
        let d = Diagnostic::finding(format!(
            "tool `{}` (category `{}`) has a {chars}-character description ({}{tokens} tokens), over {MAX_CHARS} characters",
            tool.tool.name,
            category.name,
            cx.approx()
        ))
        .label("long description")
        .help("shorten it; move detailed instructions into a skill or the mode prompt");
        findings.push(locate::at(d, locate::tool(cx, tool)));
    }
    findings
}

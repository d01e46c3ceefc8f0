//! CLAUDE056: an import written inside a code span, where Claude Code does not import it.

use std::sync::LazyLock;

use regex::Regex;

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A line of a CLAUDE.md consists only of an `@path` import inside backticks (`` `@docs/style.md` ``), and the file exists.",
    why: "Claude Code does not evaluate imports inside Markdown code spans or code blocks, so `` `@docs/style.md` `` on \
          a line of its own is shown to the model as text and the file is never loaded. Written without backticks it \
          would be imported. Source: https://code.claude.com/docs/en/memory (\"imports are not evaluated inside \
          markdown code spans and code blocks\").",
    fails: Example { file: "CLAUDE.md", text: "# Project rules\n\n`@docs/style.md`\n" },
    passes: Example { file: "CLAUDE.md", text: "# Project rules\n\n@docs/style.md\n" },
    notes: "Only a line holding nothing but the code span (optionally as a list item) is reported, and only when the \
            path exists: a code span inside a sentence is usually an example of the syntax.",
    stage: Stage::Lint(check),
};

static LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^[ \t]*(?:[-*+][ \t]+)?(`@([A-Za-z0-9_./-]+\.[A-Za-z0-9]+)`)[ \t]*\r?$").expect("constant pattern")); // ok: literal

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.memory.iter().filter(|m| m.name().starts_with("CLAUDE")) {
        let dir = doc.rel.rsplit_once('/').map_or("", |(d, _)| d);
        for caps in LINE.captures_iter(&doc.text) {
            let (Some(span), Some(path)) = (caps.get(1), caps.get(2)) else { continue };
            // Inside a fenced block the span is code as a whole, not an attempted import.
            if inside_fence(&doc.text, span.start()) {
                continue;
            }
            let joined = if dir.is_empty() { path.as_str().to_string() } else { format!("{dir}/{}", path.as_str()) };
            let exists = cx.root.normalize(&joined).and_then(|rel| cx.root.resolve(&rel)).is_ok_and(|p| p.is_file());
            if exists {
                findings.push(
                    Diagnostic::finding(format!("`@{}` is inside a code span, so Claude Code does not import it", path.as_str()))
                        .in_file(&doc.file)
                        .at(Some(span.range()))
                        .help("remove the backticks to import the file"),
                );
            }
        }
    }
    findings
}

/// Whether `offset` is inside a fenced code block.
fn inside_fence(text: &str, offset: usize) -> bool {
    let fences = text[..offset].lines().filter(|l| l.trim_start().starts_with("```") || l.trim_start().starts_with("~~~")).count();
    fences % 2 == 1
}

//! SKILL020: a bundled document too large for an agent to read in one go.

use crate::rules::prelude::*;
use crate::rules::refs::Bundle;

/// Claude Code's Read tool refuses (or cuts) a file over this many tokens.
pub const READ_MAX_TOKENS: usize = 25_000;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A document bundled with a skill (`.md`, `.mdx`, `.txt`, `.rst`) is over 25,000 tokens, more than an agent's file-read tool returns at once.",
    why: "Reference files are read on demand, and \"smaller files mean less use of context\" (Agent Skills \
          specification, https://agentskills.io/specification#references; \
          /work/shared/corpus/spec/agentskills-specification.mdx). Claude Code's Read tool stops at 25,000 tokens \
          (\"File content (N tokens) exceeds maximum allowed tokens (25000)\", anthropics/claude-code#4002, #14876): \
          the agent sees the first part or an error, and each read that succeeds costs an eighth of a \
          200k window.",
    fails: Example {
        file: "skills/api-client/SKILL.md",
        text: "---\nname: api-client\ndescription: Call the billing API. Use when the user asks about invoices.\n---\nSee [the full API reference](references/api.md).\n\n# references/api.md is 140 KB (about 36,000 tokens)\n",
    },
    passes: Example {
        file: "skills/api-client/SKILL.md",
        text: "---\nname: api-client\ndescription: Call the billing API. Use when the user asks about invoices.\n---\nSee [invoices](references/invoices.md) and [payments](references/payments.md).\n",
    },
    notes: "Counted with the run's tokenizer (o200k_base zero-config); a file with fewer bytes than the limit is not \
            counted. Split the document by topic and say in SKILL.md when to read each part.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let bundle = Bundle::of(cx, &skill.rel);
        for (rel, text) in &bundle.texts {
            let lower = rel.to_ascii_lowercase();
            if text.len() <= READ_MAX_TOKENS || ![".md", ".mdx", ".txt", ".rst"].iter().any(|e| lower.ends_with(e)) {
                continue;
            }
            let tokens = cx.count(text);
            if tokens <= READ_MAX_TOKENS {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!(
                    "`{rel}` is {}{} tokens, over the {} an agent's file read returns at once",
                    cx.approx(),
                    grouped(tokens as u64),
                    grouped(READ_MAX_TOKENS as u64)
                ))
                .in_file(cx.display(&bundle.path(rel)))
                .label("too large to read at once")
                .help("split it into smaller files by topic and say in SKILL.md when to read each"),
            );
        }
    }
    findings
}

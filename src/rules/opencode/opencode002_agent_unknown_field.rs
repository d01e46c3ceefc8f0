//! OPENCODE002: an OpenCode agent's frontmatter has a field outside OpenCode's agent schema.

use crate::agent_files::FileKind;
use crate::rules::opencode::{parsed, unknown};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An OpenCode agent's frontmatter has a field OpenCode's agent schema does not define.",
    why: "OpenCode does not drop a frontmatter key it does not know: it moves the key into the agent's `options`, \
          which go to the model provider with every request. A field from another product (Claude Code's \
          `allowed-tools`) or a misspelt one (`temprature`) therefore has no effect on the agent, and the provider may \
          reject the request or silently ignore the stray option. Source: `packages/core/src/v1/config/agent.ts` in \
          anomalyco/opencode; the list is OpenCode's host model, `data/hosts/opencode.toml`.",
    fails: Example {
        file: ".opencode/agents/docs.md",
        text: "---\ndescription: Writes documentation\nmode: subagent\nallowed-tools: Read, Write\n---\nWrite clear docs.\n",
    },
    passes: Example {
        file: ".opencode/agents/docs.md",
        text: "---\ndescription: Writes documentation\nmode: subagent\npermission:\n  bash: deny\n---\nWrite clear docs.\n",
    },
    notes: "A provider option meant as one belongs under `options:`. An OpenCode plugin may read its own keys from an \
            agent's options (fields such as `fallback_models`): suppress the finding for those. A field that differs from a \
            known one only in case gets a safe fix (rename it).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::OpencodeAgent) {
        for mut d in unknown(doc, FileKind::OpencodeAgent) {
            // OpenCode keeps the key, as a provider option (see `why`).
            d.message = d.message.replace("OpenCode ignores it", "OpenCode passes it to the model provider as an option");
            findings.push(d);
        }
    }
    findings
}

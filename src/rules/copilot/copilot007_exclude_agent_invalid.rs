//! COPILOT007: an `excludeAgent` value Copilot does not know.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;

const AGENTS: [&str; 2] = ["code-review", "coding-agent"];

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A path-specific instructions file sets `excludeAgent` to something other than `code-review` or `coding-agent`.",
    why: "`excludeAgent` keeps instructions away from one GitHub agent: `\"code-review\"` or `\"coding-agent\"`. Any other \
          value excludes nothing, so the instructions reach the agent they were meant to skip. Source: \
          https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide.",
    fails: Example {
        file: ".github/instructions/tests.instructions.md",
        text: "---\napplyTo: \"tests/**\"\nexcludeAgent: \"code-reviewer\"\n---\nKeep fixtures small.\n",
    },
    passes: Example {
        file: ".github/instructions/tests.instructions.md",
        text: "---\napplyTo: \"tests/**\"\nexcludeAgent: \"code-review\"\n---\nKeep fixtures small.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotScopedInstructions) {
        let Some(value) = doc.field("excludeAgent") else { continue };
        // A list of valid names is not the documented form, but what it does is not known: left alone.
        let names: Vec<&serde_json::Value> = value.as_array().map_or_else(|| vec![value], |list| list.iter().collect());
        let Some(wrong) = names.into_iter().find(|n| !n.as_str().is_some_and(|s| AGENTS.contains(&s))) else { continue };
        let text = wrong.as_str().map_or_else(|| wrong.to_string(), str::to_string);
        let help = match did_you_mean(&text, AGENTS) {
            Some(s) => format!("did you mean `{s}`?"),
            None => "use `code-review` or `coding-agent`".to_string(),
        };
        findings.push(
            Diagnostic::finding(format!("`excludeAgent` is `{text}`, which names no Copilot agent"))
                .in_file(&doc.file)
                .at(doc.value_span("excludeAgent"))
                .label("unknown agent")
                .help(help),
        );
    }
    findings
}

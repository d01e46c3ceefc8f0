//! OPENCODE005: an OpenCode agent's or command's frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::frontmatter_error;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An OpenCode agent's or command's frontmatter is not valid YAML, or is never closed.",
    why: "OpenCode parses the frontmatter of each agent and command file before it reads the body; when the YAML \
          does not parse, it skips the agent (logging the error) or fails to load the commands, so the file does \
          nothing. Source: `packages/opencode/src/config/agent.ts` and `command.ts` in anomalyco/opencode (the commits \
          in `data/hosts/opencode.toml`).",
    fails: Example {
        file: ".opencode/agents/plan.md",
        text: "---\ndescription: Plans: never edits\nmode: primary\n---\nPlan the change step by step.\n",
    },
    passes: Example {
        file: ".opencode/agents/plan.md",
        text: "---\ndescription: \"Plans: never edits\"\nmode: primary\n---\nPlan the change step by step.\n",
    },
    notes: "Other OPENCODE rules skip a file whose frontmatter does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    [FileKind::OpencodeAgent, FileKind::OpencodeCommand]
        .into_iter()
        .flat_map(|kind| cx.files_of(kind))
        .filter_map(|d| {
            frontmatter_error(d, "fix the YAML (close it with `---`, quote a value that holds `: `); OpenCode cannot read this file")
        })
        .collect()
}

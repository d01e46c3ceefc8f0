//! CLAUDE026: a slash command frontmatter field Claude Code does not read.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::claude::{read_fields, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A slash command's frontmatter has a field Claude Code does not read (such as `args`, `tools` or `tags`).",
    why: "Command frontmatter has a small set of fields (`description`, `allowed-tools`, `argument-hint`, `model`, \
          `disable-model-invocation`, plus the skill fields commands share); others are ignored without a word. \
          `args:` shows no hint and `tools:` grants nothing. Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/command-development/references/frontmatter-reference.md` \
          and https://code.claude.com/docs/en/slash-commands (frontmatter).",
    fails: Example {
        file: ".claude/commands/review.md",
        text: "---\ndescription: Review a pull request\nargs: [pr-number]\n---\nReview pull request #$1.\n",
    },
    passes: Example {
        file: ".claude/commands/review.md",
        text: "---\ndescription: Review a pull request\nargument-hint: [pr-number]\n---\nReview pull request #$1.\n",
    },
    notes: "Frontmatter that is not valid YAML (CLAUDE002, typically the documented `argument-hint: [pr-number] [priority]`) \
            is read as Claude Code reads it, one top-level `key: value` line at a time, so its fields are still checked.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let known = read_fields(FileKind::ClaudeCommand);
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeCommand) {
        for field in fields.iter().filter(|f| !known.contains(&f.key.as_str())) {
            let key = &field.key;
            let suggestion = match key.as_str() {
                "args" | "arguments" | "argument_hint" | "argumentHint" => Some("argument-hint"),
                "tools" | "allowed_tools" | "allowedTools" | "tool_access" => Some("allowed-tools"),
                _ => did_you_mean(key, known.iter().copied()),
            };
            let d = Diagnostic::finding(format!("`{key}` is not a slash command field; Claude Code ignores it"))
                .in_file(&doc.file)
                .at(field.key_span.clone())
                .groupable();
            findings.push(match suggestion {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help("remove it; say what it means in the description or the prompt"),
            });
        }
    }
    findings
}

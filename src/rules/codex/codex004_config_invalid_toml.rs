//! CODEX004: a `.codex/config.toml` or custom agent file that is not valid TOML.

use crate::agent_files::FileKind;
use crate::rules::codex::parse_config;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The project's `.codex/config.toml`, or a custom agent file in `.codex/agents/`, is not valid TOML.",
    why: "Codex reads `.codex/config.toml` in a trusted project as a layer over the user's `~/.codex/config.toml`; \
          a file that does not parse stops Codex from starting with it, and none of its settings (model, sandbox, \
          approval policy, MCP servers) apply. Source: openai/codex:docs/config.md, codex-rs/core/config.schema.json@000c857e. \
          A custom agent file (`.codex/agents/**/*.toml`) that does not parse is skipped with a startup warning: the \
          agent does not exist (openai/codex:codex-rs/core/src/config/agent_roles.rs@25d313cd).",
    fails: Example { file: ".codex/config.toml", text: "model = \"gpt-5\"\nmodel = \"o3\"\n" },
    passes: Example { file: ".codex/config.toml", text: "model = \"gpt-5\"\n" },
    notes: "The other CODEX rules on `config.toml` and on agent files skip a file that does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CodexConfig).chain(cx.files_of(FileKind::CodexAgent)) {
        if let Err((at, message)) = parse_config(doc) {
            let help = match doc.kind {
                FileKind::CodexAgent => "fix the TOML: Codex skips an agent file it cannot read",
                _ => "fix the TOML: Codex does not start with a configuration it cannot read",
            };
            findings.push(
                Diagnostic::finding(format!("{} is not valid TOML: {message}", doc.rel))
                    .in_file(&doc.file)
                    .at(Some(at))
                    .label("here")
                    .help(help),
            );
        }
    }
    findings
}

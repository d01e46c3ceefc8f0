//! CODEX008: `profile` in `.codex/config.toml` names a profile the file does not define.

use crate::diagnostic::did_you_mean;
use crate::rules::codex::{codex_configs, named_tables, value_span};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The `profile` of `.codex/config.toml` names no `[profiles.NAME]` table in the file.",
    why: "`profile` picks the `[profiles.NAME]` table whose settings Codex applies over the others; a name no table \
          has makes Codex stop with an error, unless the user's own `~/.codex/config.toml` happens to define it, \
          which a project should not rely on (openai/codex:docs/config.md, profiles; \
          codex-rs/core/config.schema.json@000c857e, `profile`, `profiles`).",
    fails: Example { file: ".codex/config.toml", text: "profile = \"review\"\n\n[profiles.reviews]\nmodel = \"gpt-5\"\n" },
    passes: Example { file: ".codex/config.toml", text: "profile = \"review\"\n\n[profiles.review]\nmodel = \"gpt-5\"\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, toml) in codex_configs(cx) {
        let root = toml.as_table();
        let Some(item) = root.get("profile") else { continue };
        let Some(name) = item.as_str() else { continue };
        let defined: Vec<&str> = named_tables(root, "profiles").into_iter().map(|(n, _, _)| n).collect();
        if defined.contains(&name) {
            continue;
        }
        let help = match did_you_mean(name, defined.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("add a `[profiles.{name}]` table, or name one the file defines"),
        };
        findings.push(
            Diagnostic::finding(format!("profile `{name}` is not defined in {}", doc.rel))
                .in_file(&doc.file)
                .at(value_span(item))
                .label("no such profile")
                .help(help),
        );
    }
    findings
}

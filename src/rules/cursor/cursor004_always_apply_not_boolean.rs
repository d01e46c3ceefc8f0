//! CURSOR004: `alwaysApply` that is not `true` or `false`.

use crate::diagnostic::{Edit, Fix};
use crate::rules::cursor::cursor_rules;
use crate::rules::frontmatter::unquote;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Cursor project rule's `alwaysApply` is not the bare word `true` or `false`.",
    why: "`alwaysApply` is a boolean. A quoted `\"true\"`, `yes` or `True` is not `true`, so the rule is not applied to \
          every request as its author meant. Sources: https://cursor.com/docs/context/rules; skillsaw \
          `cursor-rules-valid` (stbenjam/skillsaw docs/rules/cursor-rules-valid.md).",
    fails: Example {
        file: ".cursor/rules/general.mdc",
        text: "---\ndescription: House rules\nalwaysApply: \"true\"\n---\nAnswer briefly.\n",
    },
    passes: Example { file: ".cursor/rules/general.mdc", text: "---\ndescription: House rules\nalwaysApply: true\n---\nAnswer briefly.\n" },
    notes: "A quoted or capitalised `true`/`false` gets a safe fix (write it bare, in lowercase).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let Some(field) = front.get("alwaysApply") else { continue };
        let value = field.value.split(" #").next().unwrap_or("").trim();
        if matches!(value, "true" | "false" | "") {
            continue;
        }
        let bare = unquote(value).to_ascii_lowercase();
        let mut d = Diagnostic::finding(format!("`alwaysApply` is `{value}`, not a boolean"))
            .in_file(&doc.file)
            .at(Some(field.value_span.clone()))
            .label("expected `true` or `false`")
            .help("write `alwaysApply: true` or `alwaysApply: false`, without quotes");
        if matches!(bare.as_str(), "true" | "false") {
            let span = field.value_span.start..field.value_span.start + value.len();
            d = d.fix(Fix::safe(format!("write `{bare}`"), vec![Edit::replace(&doc.file, span, bare.clone())]));
        }
        findings.push(d);
    }
    findings
}

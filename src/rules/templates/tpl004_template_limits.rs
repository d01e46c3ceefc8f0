//! TPL004: a template that exceeds ctxc's execution limits.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::TPL004,
    name: "template-limits",
    family: Family::Templates,
    severity: Severity::Error,
    summary: "A template runs more than 200,000 instructions (a runaway loop) or produces more than 1 MiB of text.",
    why: "Templates are code running in CI on every change. Limits keep a loop over a large range, or a recursive \
          include, from hanging the build or producing a prompt no model could take.",
    fails: Example { file: "prompts/intro.md.j2", text: "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}\n" },
    passes: Example { file: "prompts/intro.md.j2", text: "{% for tool in tools %}- {{ tool.name }}\n{% endfor %}\n" },
    notes: "",
    stage: Stage::Load,
};

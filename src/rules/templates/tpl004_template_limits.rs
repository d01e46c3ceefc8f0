//! TPL004: a template that exceeds ctxc's execution limits.
//!
//! Found by [`crate::templates::render_bounded`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A template runs more than 200,000 instructions (a runaway loop), makes more than 16 MiB of text and lists, reads more than 64 MiB of text and values, or produces more than 1 MiB of text.",
    why: "Templates are code running in CI on every change, often on a pull request's content. Limits keep a loop over \
          a large range, or a recursive include, from hanging the build, keep a string doubled in a loop or a huge \
          `format` width, `indent` or `replace` from exhausting memory, and keep a prompt no model could take out of \
          the output. Memory counts everything a render makes as it makes it: output and captured blocks, `~`, `+` \
          and `*`, list and map literals, slices and each filter's result; work counts what one instruction can \
          cost, the bytes a substring test, call, comparison or hash reads and the values it steps over, so `'y' in s` \
          on a 14 MB string in a loop stops too; the error points at the expression that went over.",
    fails: Example { file: "prompts/intro.md.j2", text: "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}\n" },
    passes: Example { file: "prompts/intro.md.j2", text: "{% for tool in tools %}- {{ tool.name }}\n{% endfor %}\n" },
    notes: "Enable conditions (`when`) run under the same limits; going over one there is MAN006.",
    stage: Stage::Load,
};

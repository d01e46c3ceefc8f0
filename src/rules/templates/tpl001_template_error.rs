//! TPL001: a template that cannot be parsed or rendered.
//!
//! Found by [`crate::templates::render_bounded`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A template (a `.j2` file, or one marked `template = true`) has a syntax error, or fails to render (a missing include, a bad filter call).",
    why: "A template that does not render means the section it makes is missing or wrong in every prompt that uses it. \
          The message points at the line in the template (or in the included file that failed).",
    fails: Example { file: "prompts/intro.md.j2", text: "You are {{ agent.name }}.\n{% if mode == \"plan\" %}\nPlan first.\n" },
    passes: Example { file: "prompts/intro.md.j2", text: "You are {{ agent.name }}.\n{% if mode == \"plan\" %}\nPlan first.\n{% endif %}\n" },
    notes: "",
    stage: Stage::Load,
};

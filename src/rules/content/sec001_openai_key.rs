//! SEC001: an OpenAI API key in the prompt's sources.

use crate::rules::prelude::*;
use crate::rules::secrets::{self, Kind};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file the prompt is built from contains what looks like an OpenAI API key (`sk-…`, `sk-proj-…`).",
    why: "Whatever is in the prompt is sent to the model provider with every request, lands in logs and traces, and can \
          be repeated back by the model to anyone who asks. A key in a prompt file is also a key in the repository. \
          ctxc shows only its first four characters, everywhere.",
    fails: Example { file: "prompts/tools.md", text: "Call the billing API with the key sk-proj-4fT9xQ2m… (48 random characters).\n" },
    passes: Example {
        file: "prompts/tools.md",
        text: "Call the billing API; the runtime adds the key from the OPENAI_API_KEY environment variable.\n",
    },
    notes: "Placeholders such as `sk-your-key-here` or `sk-...` are not reported: the key part must look random \
            (letters and digits, at least 3.5 bits of entropy per character).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    secrets::check(cx, Kind::OpenAi)
}

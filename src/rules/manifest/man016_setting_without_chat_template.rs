//! MAN016: a setting only a chat template renders, on an agent whose request has none.
//!
//! Found by [`crate::Session::load`], once the chat template is known (this file holds the
//! rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "`[agent] empty_tool_list` or a step's `new_message` is set, but the agent's request is not rendered through a chat \
              template, the only place either takes effect.",
    why: "Both say how the runtime sends the request: `tools: []` when no tool is callable, or a second system message. Only \
          a model's chat template renders those shapes (Llama 3.3's writes its tool-calling instructions for an empty list, \
          Qwen's renders each system message); the providers' renderings ctxc uses otherwise have one system prompt and no \
          empty list. Without a template the setting changes nothing, or, for `new_message`, only drops the separator \
          where the new message starts, so a count that looks like it includes the setting does not.",
    fails: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\nmodel = \"gpt-4o\"\nempty_tool_list = true\n" },
    passes: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\nmodel = \"gpt-4o\"\n" },
    notes: "The chat template is the one `[agent] chat_template` or `--chat-template` names, or the one found beside the model's \
            tokenizer file (see docs/counting.md): on a machine where none is found the warning says so, and a template that \
            is found makes it go.",
    stage: Stage::LoadWarning,
};

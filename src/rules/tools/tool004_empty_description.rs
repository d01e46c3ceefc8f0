//! TOOL004: a tool without a description.

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A tool has no description, or only whitespace.",
    why: "The description is all the model knows about when to call a tool and what it does; a tool without one is \
          called by guesswork from its name, or never.",
    fails: Example { file: "ctxc.toml", text: "[[tools.files.tool]]\nname = \"read_file\"\n" },
    passes: Example {
        file: "ctxc.toml",
        text: "[[tools.files.tool]]\nname = \"read_file\"\ndescription = \"Read a UTF-8 text file from the workspace.\"\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.tools()
        .into_iter()
        .filter(|(_, t)| t.tool.description_text().trim().is_empty())
        .map(|(category, tool)| {
            let d = Diagnostic::finding(format!("tool `{}` (category `{}`) has no description", tool.tool.name, category.name))
                .label("no description")
                .help("say what the tool does and when to use it");
            locate::at(d, locate::tool(cx, tool))
        })
        .collect()
}

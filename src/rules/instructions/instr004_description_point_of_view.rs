//! INSTR004: a skill description written in the first or second person.

use crate::agent_files::FileKind;
use crate::rules::instructions::descriptions;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A skill's description opens in the first or second person (`I can help…`, `You can use this…`, `We…`).",
    why: "A skill's description is injected into the system prompt next to every other skill's, and the model \
          chooses among them by it. Anthropic's skill authoring guidance: \"Always write in third person … \
          inconsistent point-of-view can cause discovery problems\" — avoid \"I can help you process Excel files\" \
          and \"You can use this to process Excel files\" \
          (https://platform.claude.com/docs/en/agents-and-tools/agent-skills/best-practices).",
    fails: Example {
        file: "skills/excel/SKILL.md",
        text: "---\nname: excel\ndescription: I can help you process Excel files and build reports.\n---\nRead the workbook.\n",
    },
    passes: Example {
        file: "skills/excel/SKILL.md",
        text: "---\nname: excel\ndescription: Processes Excel files and builds reports. Use when the user shares an .xlsx file.\n---\nRead the workbook.\n",
    },
    notes: "Only the opening word is checked: `I`, `I'm`, `I'll`, `we`, `you`, `your`, `my`, `our`, `let me`. Imperative \
            openings (`Use when…`) and pronouns later in the text are fine.",
    stage: Stage::Lint(check),
};

const OPENINGS: [&str; 9] = ["i", "we", "you", "your", "my", "our", "let me", "i'm", "i'll"];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for d in descriptions(cx).into_iter().filter(|d| d.kind == FileKind::Skill) {
        let lower = d.description.trim_start().to_lowercase();
        let Some(opening) = OPENINGS.iter().find(|o| lower.strip_prefix(**o).is_some_and(|rest| rest.starts_with([' ', '\'', '’'])))
        else {
            continue;
        };
        findings.push(
            Diagnostic::finding(format!(
                "skill description opens with `{}`: write it in the third person",
                &d.description.trim_start()[..opening.len()]
            ))
            .in_file(d.file)
            .at(d.span)
            .label("first or second person")
            .help("start with what the skill does (`Processes Excel files…`) and when to use it"),
        );
    }
    findings
}

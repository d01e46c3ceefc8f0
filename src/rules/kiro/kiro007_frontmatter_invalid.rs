//! KIRO007: steering frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::frontmatter_error;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A steering file's frontmatter is not valid YAML, or is never closed.",
    why: "Kiro reads `inclusion`, `fileMatchPattern` and `description` from the YAML frontmatter; frontmatter that \
          does not parse gives none of them, so the file is not included the way it says. A glob starting with `*` \
          must be quoted in YAML (`*` starts an alias). Source: kiro.dev/docs/steering.",
    fails: Example { file: ".kiro/steering/py.md", text: "---\ninclusion: fileMatch\nfileMatchPattern: **/*.py\n---\nUse type hints.\n" },
    passes: Example {
        file: ".kiro/steering/py.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"**/*.py\"\n---\nUse type hints.\n",
    },
    notes: "Other KIRO rules skip a file whose frontmatter does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.files_of(FileKind::KiroSteering)
        .filter_map(|d| frontmatter_error(d, "fix the YAML (quote globs that start with `*`); Kiro cannot read this frontmatter"))
        .collect()
}

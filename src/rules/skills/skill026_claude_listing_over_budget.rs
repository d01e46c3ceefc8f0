//! SKILL026: a folder of skills whose listing is over Claude Code's skill listing budget.

use crate::rules::prelude::*;
use crate::rules::skills::{listings, under};

/// Claude Code's listing budget when the window is 200,000 tokens: 1% of it, the documented
/// fallback of 8,000 characters.
pub const BUDGET_CHARS: usize = 8_000;
/// Each entry's description (with `when_to_use`) is cut at this many characters whatever the budget.
pub const ENTRY_DESCRIPTION_MAX_CHARS: usize = 1_536;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The skills of one folder list in more than 8,000 characters, Claude Code's skill listing budget (1% of a 200,000-token window), so their descriptions are shortened.",
    why: "Claude Code puts every skill's name and description in context so the model knows what it can use. The \
          listing has a budget: 1% of the context window, 8,000 characters when the window is not known (a \
          200,000-token window gives the same), and each entry's `description` with `when_to_use` is cut at 1,536 \
          characters. Over the budget, names stay but descriptions are shortened — the keywords the model matches \
          requests on can be cut, and a skill stops being used without a word. Source: \
          https://code.claude.com/docs/en/skills (\"Skill descriptions are cut short\"); the budget can be raised with \
          `SLASH_COMMAND_TOOL_CHAR_BUDGET` (https://code.claude.com/docs/en/env-vars).",
    fails: Example {
        file: "skills/*/SKILL.md",
        text: "(30 skills in `skills/`, each with a 300-character description: about 9,900 characters listed)\n",
    },
    passes: Example {
        file: "skills/pdf/SKILL.md",
        text: "---\nname: pdf\ndescription: Extract text and tables from PDF files and fill PDF forms. Use when the user gives a PDF.\n---\n",
    },
    notes: "Skills are counted per folder holding them (`.claude/skills/`, a plugin's `skills/`), the set that is \
            installed together (a folder not named `skills`, such as a catalogue's `skills/<category>/`, is never \
            listed as a whole); skills Claude Code does not list (`disable-model-invocation: true`) and folders under \
            `.agents/` or `.codex/` (Codex's) are left out. Each entry is counted as `- name: description` and a line \
            break. Other installed skills share the same budget, so a folder under it can still be cut in use; a model \
            with a 1,000,000-token window has five times the room. The finding points at the longest description. Skills an agent's manifest loads are listed by that agent, not \
            checked here.",
    stage: Stage::Lint(check),
};

/// What one skill's entry costs in Claude Code's listing, in characters; `None` when it is not listed.
fn entry_chars(skill: &crate::agent_files::SkillDoc) -> Option<usize> {
    if skill.field("disable-model-invocation").and_then(|v| v.as_bool()) == Some(true) {
        return None;
    }
    let description = skill.string("description")?;
    let when = skill.string("when_to_use").map_or(0, |w| w.chars().count() + 1);
    let name = skill.string("name").unwrap_or(&skill.folder);
    Some("- : \n".len() + name.chars().count() + (description.chars().count() + when).min(ENTRY_DESCRIPTION_MAX_CHARS))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    // An agent's manifest decides how its own skills are listed (SKILL015 measures that catalogue).
    if cx.agent.is_some() {
        return Vec::new();
    }
    let claude_lists = |folder: &str| !under(folder, ".agents") && !under(folder, ".codex");
    listings(cx.skills, claude_lists, entry_chars)
        .iter()
        .filter_map(|listing| {
            listing.over_budget(
                "Claude Code",
                BUDGET_CHARS,
                "characters",
                "Claude Code shortens descriptions to fit, and can cut the words a skill is chosen by",
                "shorten the longest descriptions (what the skill does, when to use it), or set `disable-model-invocation: true` on skills only a user starts",
            )
        })
        .collect()
}

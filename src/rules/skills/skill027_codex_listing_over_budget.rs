//! SKILL027: a folder of skills whose listing is over Codex's skills context budget.

use crate::rules::prelude::*;
use crate::rules::skills::{listings, under};

/// Codex's budget for the skill list: 2% of the context window, in tokens of about 4 bytes; for
/// the 272,000-token window of its GPT-5 Codex models, 5,440 tokens.
pub const BUDGET_TOKENS: usize = 5_440;
const BYTES_PER_TOKEN: usize = 4;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The skills of one folder list in more than 5,440 tokens, Codex's skills context budget (2% of a 272,000-token window), so Codex shortens or drops their descriptions.",
    why: "Codex lists every skill as `- name: description (file: path)` in the prompt. The list has a budget of 2% of \
          the model's context window, counted at about 4 bytes a token (8,000 characters when the window is not \
          known); 5,440 tokens for a 272,000-token window, the window Codex 0.171.0's catalogue gives most of its \
          models and any model it does not name. Over it, Codex shares the room \
          left among the descriptions, cutting each short; when even the names and paths do not fit, it removes \
          every description and leaves skills out of the list. Only a line in its log says so. Source: \
          openai/codex:codex-rs/core-skills/src/render.rs (`SKILL_METADATA_CONTEXT_WINDOW_PERCENT = 2`, \
          `DEFAULT_SKILL_METADATA_CHAR_BUDGET = 8_000`, `render_skill_lines_from_lines`); openai/codex#24299 \
          (`budget_limit=5440`, 103 of 119 descriptions truncated); the released Codex 0.171.0 (npm \
          `@openai/codex`), whose `codex debug prompt-input` tests/runtimes/codex.rs compares with ctxc's Codex host view.",
    fails: Example {
        file: ".agents/skills/*/SKILL.md",
        text: "(60 skills in `.agents/skills/`, each with a 300-character description: about 6,300 tokens listed)\n",
    },
    passes: Example {
        file: ".agents/skills/pdf/SKILL.md",
        text: "---\nname: pdf\ndescription: Extract text and tables from PDF files and fill PDF forms. Use when the user gives a PDF.\n---\n",
    },
    notes: "Skills are counted per folder holding them (`.agents/skills/`, a plugin's `skills/`; a folder not named `skills`, such as a \
            catalogue's `skills/<category>/`, is never listed as a whole); folders under \
            `.claude/` (Claude Code's) are left out. Each line is counted with the skill's path under its skills \
            folder after the folder's alias, `r0/<skill>/SKILL.md`, as Codex writes it (its table of aliases is not \
            counted in the budget), so the total is what Codex compares with the budget for that folder alone. \
            Skills installed elsewhere, and the other skills folders of the chain, share the same budget: BUDGET009 \
            (in preview) judges the whole listing of a working directory, with the window of the model counted for. The finding points at the longest description. Skills an agent's manifest loads are listed by that agent, not \
            checked here.",
    stage: Stage::Lint(check),
};

/// What one skill's line costs in Codex's list, in approximate tokens.
fn entry_tokens(skill: &crate::agent_files::SkillDoc) -> Option<usize> {
    let description = skill.string("description")?;
    let name = skill.string("name").unwrap_or(&skill.folder);
    // Codex writes the path under the skills folder after the folder's alias (`r0/pdf/SKILL.md`).
    let under: Vec<&str> = skill.rel.rsplit('/').take(2).collect();
    let path = format!("r0/{}", under.into_iter().rev().collect::<Vec<_>>().join("/"));
    let bytes = format!("- {name}: {description} (file: {path})\n").len();
    Some(bytes.div_ceil(BYTES_PER_TOKEN))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    // An agent's manifest decides how its own skills are listed (SKILL015 measures that catalogue).
    if cx.agent.is_some() {
        return Vec::new();
    }
    listings(cx.skills, |folder| !under(folder, ".claude"), entry_tokens)
        .iter()
        .filter_map(|listing| {
            listing.over_budget(
                "Codex",
                BUDGET_TOKENS,
                "tokens",
                "Codex shortens every description to fit, and drops them all (and then skills) when the names alone do not fit",
                "shorten the longest descriptions (what the skill does, when to use it), or disable the skills this project does not need",
            )
        })
        .collect()
}

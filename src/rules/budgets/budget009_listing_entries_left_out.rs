//! BUDGET009: a host's listing (Codex's skills) leaves entries out past its budget, as the host
//! view assembles it.
//!
//! Found by [`crate::hostview::budgets::listings_past_budget`] (this file holds the rule's
//! documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "Codex's skills listing, as `ctxc cost --host codex` assembles it for the repository, leaves skills out because the entries before them used up its budget.",
    why: "Codex lists every skill it loads as `- NAME: DESCRIPTION (file: PATH)` in the prompt, in name order, and \
          takes entries while they fit 2 % of the model's window (each entry's bytes / 4, rounded up). A skill past \
          the budget is not in the prompt at all, so the model never picks it, and Codex says so only in its log. \
          The finding names every skill left out, from the same listing `ctxc cost --host codex` shows (the \
          `.agents/skills` folders from the Git root to the working directory and `.codex/skills`, names as Codex \
          reads them, descriptions with their white space collapsed, absolute paths). Source: openai/codex \
          `codex-rs/core-skills/src/render.rs` (`default_skill_metadata_budget`, `render_skill_lines`), as \
          data/hosts/codex.toml cites it.",
    fails: Example {
        file: ".agents/skills/*/SKILL.md",
        text: "(10 skills in `.agents/skills/`, each with a 1,000-character description mostly of 4-byte characters: \
               about 950 tokens an entry as Codex counts, so the ninth and tenth in name order do not fit 8,000)\n",
    },
    passes: Example {
        file: ".agents/skills/pdf/SKILL.md",
        text: "---\nname: pdf\ndescription: Extract text and tables from PDF files and fill PDF forms. Use when the user gives a PDF.\n---\n",
    },
    notes: "In preview (`ctxc check --preview`, or `[lint] preview = true`): off by default, as SKILL027 already \
            warns, per folder and with a fixed window, when a folder's skills come near Codex's budget; this one \
            runs Codex's host view of the checked folder (as the working directory) and says which skills are \
            left out of the whole listing. The budget is 2 % of the window of the model the host view counts for \
            (gpt-5.3-codex: 8,000 tokens); Codex takes the window from its own model catalogue and also lists \
            its system and user skills first, so in use fewer entries fit. The finding points at the first skill \
            left out. The examples are several files: see the fixtures `tests/fixtures/rules/BUDGET009/`.",
    stage: Stage::Budgets,
};

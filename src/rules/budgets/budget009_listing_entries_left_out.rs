//! BUDGET009: a host's listing (Codex's skills) is past its budget, as the host view assembles
//! it: descriptions shortened, or entries left out.
//!
//! Found by [`crate::hostview::budgets::listings_past_budget`] (this file holds the rule's
//! documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "Codex's skills listing, as `ctxc cost --host codex` assembles it for the repository, is over its budget: Codex shortens the descriptions, or removes them all and leaves skills out.",
    why: "Codex lists every skill it loads as `- NAME: DESCRIPTION (file: rN/PATH)` in the prompt, in name order, \
          with a budget of 2 % of the model's window (each entry with its line break counted as bytes / 4, rounded \
          up). Past it, Codex shares what is left after the names and paths among the descriptions, a character \
          at a time, so every long description loses its end; when even the names and paths do not fit, it \
          removes every description and takes skills while they fit: a skill left out is not in the prompt at \
          all, so the model never picks it. Codex says so only in its log. The finding comes from the same \
          listing `ctxc cost --host codex` shows (the `.agents/skills` and `.codex/skills` folders from the Git \
          root to the working directory, names as Codex reads them, white space collapsed, paths after their \
          root's alias), checked byte for byte against the released Codex 0.171.0 (tests/runtimes/codex.rs). \
          Source: openai/codex `codex-rs/core-skills/src/render.rs` (`render_skill_lines_from_lines`) and \
          npm `@openai/codex` 0.171.0, as data/hosts/codex.toml cites them.",
    fails: Example {
        file: ".agents/skills/*/SKILL.md",
        text: "(10 skills in `.agents/skills/`, each with a 1,000-character description mostly of 4-byte characters: \
               about 950 tokens an entry as Codex counts, so the ten pass 5,440 and every description is shortened)\n",
    },
    passes: Example {
        file: ".agents/skills/*/SKILL.md",
        text: "(5 skills like those: about 4,750 tokens, within 5,440)\n",
    },
    notes: "In preview (`ctxc check --preview`, or `[lint] preview = true`): off by default. SKILL027 warns per \
            skills folder with a fixed window of 272,000 tokens, and says the same as this rule for a repository \
            whose skills are in one folder and a model of that window; this one runs Codex's host view of the \
            checked folder (as the working directory), judges the whole listing with the window Codex's own \
            catalogue gives the model the view counts for (gpt-5.3-codex, which Codex 0.171.0 does not name: \
            272,000 tokens, a budget of 5,440), and says which skills are left out, or which entry loses most. \
            Codex also lists its system and user skills first, so in use the room is smaller. The finding points \
            at the first skill left out, else at the entry whose description loses most. The examples are several \
            files: see the fixtures `tests/fixtures/rules/BUDGET009/`.",
    stage: Stage::Budgets,
};

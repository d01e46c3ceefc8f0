//! BUDGET008: what an agent host loads at session start passes the budget set for that host.
//!
//! Found by [`crate::hostview::budgets::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The tokens an agent host loads from the repository at session start (the host view of `ctxc cost --host`) pass the budget `.ctxc/hosts.toml` or `--host-budget` sets for that host.",
    why: "Everything a host loads before the first prompt (memory files and their imports, rules, the skill and \
          subagent listings, Copilot's instructions) is paid on every request and crowds the window. A budget per \
          host turns the number `ctxc cost --host` shows into a check a pull request cannot silently grow past.",
    fails: Example { file: ".ctxc/hosts.toml", text: "[hosts.claude-code]\nbudget = 2000  # CLAUDE.md and its imports come to ~2,400 tokens\n" },
    passes: Example { file: ".ctxc/hosts.toml", text: "[hosts.claude-code]\nbudget = 3000\n" },
    notes: "Checked by `ctxc check` on a folder whose `.ctxc/hosts.toml` (or whose command line, `--host-budget HOST=TOKENS`) sets a budget, for the host view of the folder itself as the working directory. The finding points at the `budget` key (none for a budget given on the command line, which replaces the file's for that host). An estimated total (Claude, Gemini) is compared as estimated; the message gives its band. Without a budget nothing is checked; `--changed-since` and `--files` do not narrow it (a changed memory file changes every host's total). An unknown host, a budget that is not a whole number, or a file that is not valid TOML is an error (exit 2).",
    stage: Stage::Budgets,
};

//! CLAUDE028: a Claude Code settings, plugin, marketplace, plugin hooks or LSP file that is not valid JSON.

use crate::agent_files::FileKind;
use crate::rules::json_span::json_syntax;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A `.claude/settings.json`, `.claude/settings.local.json`, `.claude-plugin/plugin.json`, `.claude-plugin/marketplace.json`, or a plugin's `hooks/hooks.json` or `.lsp.json`, is not valid JSON.",
    why: "Claude Code reads these files as strict JSON (no comments, no trailing commas). A settings file that does \
          not parse is skipped with at most a startup warning: its hooks do not run and its permission rules — deny \
          rules included — do not apply; a plugin or marketplace manifest that does not parse cannot be installed. \
          Source: https://code.claude.com/docs/en/settings and \
          `anthropics/claude-code:plugins/plugin-dev/skills/plugin-structure/references/manifest-reference.md`.",
    fails: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"deny\": [\"Read(./.env)\",]\n  }\n}\n" },
    passes: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"deny\": [\"Read(./.env)\"]\n  }\n}\n" },
    notes: "The other rules on these files skip a file that does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    json_syntax(
        cx,
        &[FileKind::ClaudeSettings, FileKind::ClaudePlugin, FileKind::ClaudeMarketplace, FileKind::ClaudeHooks, FileKind::ClaudeLsp],
    )
}

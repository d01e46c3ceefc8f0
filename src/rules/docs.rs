//! The rules' documentation as Markdown: one section per rule (what `ctxc explain` prints) and
//! the whole catalogue (`docs/rules.md`, checked for staleness by `tests/integration/rules.rs`).

use super::{Example, Family, Lifecycle, Rule, ALL};
use crate::diagnostic::Severity;

pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// What a preview rule's documentation adds after its severity.
const PREVIEW_NOTE: &str = " · **Preview:** runs only with `ctxc check --preview` or `[lint] preview = true`";

/// A rule's summary for a list of rules, marked `(preview)` for a rule in preview.
pub fn summary_line(rule: &Rule) -> String {
    match rule.lifecycle {
        Lifecycle::Stable => rule.summary.to_string(),
        Lifecycle::Preview => format!("(preview) {}", rule.summary),
    }
}

/// The code fence language for an example file.
fn language(file: &str) -> &'static str {
    let ext = file.rsplit('.').next().unwrap_or("");
    match ext {
        "toml" => "toml",
        "yaml" | "yml" => "yaml",
        "md" => "markdown",
        "json" => "json",
        "j2" => "jinja",
        _ => "text",
    }
}

/// A fenced block longer than any backtick run inside it.
fn fenced(example: &Example) -> String {
    let longest = example.text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let text = example.text.trim_end_matches('\n');
    format!("{fence}{}\n{text}\n{fence}\n", language(example.file))
}

/// One rule's documentation, with the heading at `level` (2 for `explain`, 3 in the catalogue).
pub fn rule_markdown(rule: &Rule, level: usize) -> String {
    let hashes = "#".repeat(level);
    let mut out = format!("{hashes} {} `{}`\n\n", rule.code, rule.name);
    out.push_str(&format!(
        "**Family:** {} · **Default severity:** {}{}\n\n{}\n\n{}\n\n",
        rule.family.name(),
        severity_name(rule.severity),
        if rule.lifecycle == Lifecycle::Preview { PREVIEW_NOTE } else { "" },
        rule.summary,
        rule.stage.describe()
    ));
    out.push_str(&format!("**Why it matters.** {}\n\n", rule.why.trim()));
    if !rule.notes.trim().is_empty() {
        out.push_str(&format!("{}\n\n", rule.notes.trim()));
    }
    out.push_str(&format!("**Fails** (`{}`):\n\n{}\n", rule.fails.file, fenced(&rule.fails)));
    out.push_str(&format!("**Passes** (`{}`):\n\n{}", rule.passes.file, fenced(&rule.passes)));
    out
}

/// The catalogue page: a table of every rule, then every rule's section, by family.
pub fn catalogue_markdown() -> String {
    let mut out = String::from(
        "# Rules\n\n\
         <!-- Generated from the rule registry (src/rules/) by `UPDATE_DOCS=1 cargo test --test integration rules::`. Do not edit by hand. -->\n\n\
         Every finding `ctxc check` reports has one of these codes. `ctxc rules` lists them and `ctxc explain CODE`\n\
         prints one. How to select, ignore, re-grade and suppress them is in [lint.md](lint.md).\n\n\
         | code | name | family | default severity | summary |\n|---|---|---|---|---|\n",
    );
    for rule in ALL {
        out.push_str(&format!(
            "| [{}](#{}) | `{}` | {} | {} | {} |\n",
            rule.code,
            anchor(rule),
            rule.name,
            rule.family.name(),
            severity_name(rule.severity),
            summary_line(rule).replace('|', "\\|")
        ));
    }
    for &family in Family::ALL {
        let rules: Vec<&Rule> = ALL.iter().filter(|r| r.family == family).collect();
        if rules.is_empty() {
            continue;
        }
        out.push_str(&format!("\n## {} ({})\n\n{}\n", family.name(), family.prefix(), family.about()));
        for rule in rules {
            out.push('\n');
            out.push_str(&rule_markdown(rule, 3));
        }
    }
    out.push_str(&agnix_markdown());
    out
}

/// Every kind of file agnix reads (its `FileType`, agnix-core 0.59.3), with the files, the ctxc
/// kinds that read them (`FileKind::id`s, comma-separated; empty when none does) and what ctxc
/// checks there or why it reads none: (agnix kind, files, ctxc kinds, how or why not). Kept with
/// the catalogue so that `docs/rules.md` says it next to the rules ctxc has.
pub const AGNIX_KINDS: &[(&str, &str, &str, &str)] = &[
    ("Skill", "`SKILL.md`", "skill", "SKILL"),
    ("ClaudeMd", "`CLAUDE.md`, `AGENTS.md`", "memory", "MEM (with `AGENTS.override.md`, `CLAUDE.local.md`, `GEMINI.md`)"),
    ("Agent", "`.claude/agents/*.md`, a plugin's `agents/*.md`", "claude-agent", "CLAUDE"),
    ("AmpCheck", "`.agents/checks/*.md` (Amp code-review checks)", "", "not yet: Amp publishes no schema or loader source ctxc could name for a check's fields"),
    ("Hooks", "`.claude/settings.json`, `.claude/settings.local.json` (and managed-settings fragments)", "claude-settings", "CLAUDE; managed settings are system files outside a repository"),
    ("Plugin", "`.claude-plugin/plugin.json`", "claude-plugin", "CLAUDE, with the plugin's `agents/`, `commands/`, `hooks/hooks.json` (claude-hooks), `.lsp.json` (claude-lsp) and `output-styles/`"),
    ("ClaudeMarketplace", "`.claude-plugin/marketplace.json`", "claude-marketplace", "CLAUDE"),
    ("Mcp", "`.mcp.json`, `mcp.json`, `mcp-*.json`", "mcp-config", "MCP, for the names hosts read (`.mcp.json`, `.cursor/mcp.json`); another JSON file is read when named on the command line (tool-definitions)"),
    ("Copilot", "`.github/copilot-instructions.md`", "copilot-instructions", "COPILOT"),
    ("CopilotScoped", "`.github/instructions/*.instructions.md`", "copilot-scoped-instructions", "COPILOT"),
    ("CopilotAgent", "`.github/agents/*.agent.md`", "copilot-agent", "COPILOT (and `.github/chatmodes/*.chatmode.md`)"),
    ("CopilotPrompt", "`.github/prompts/*.prompt.md`", "copilot-prompt", "COPILOT"),
    ("CopilotHooks", "`.github/hooks/*.json`, `.github/copilot/settings.json`, `.github/workflows/copilot-setup-steps.yml`", "", "not yet: no rule written and no host model with a source (no schema of the hook file pinned)"),
    ("CopilotPlugin", "`.github/plugin/plugin.json`, `.plugin/plugin.json`", "", "not yet: no rule written and no host model with a source"),
    ("ClaudeRule", "`.claude/rules/*.md`", "", "counted by `ctxc cost --host claude-code` (`[startup.rules]` of `data/hosts/claude-code.toml`); not linted yet: no rule written for its `paths` field"),
    ("ClaudeOutputStyle", "`.claude/output-styles/*.md`", "claude-output-style", "read (links, secrets); no field rule yet"),
    ("ClaudeMemoryIndex", "`.claude/agent-memory/*/MEMORY.md`, auto memory under `.claude/projects/`", "", "files Claude Code writes itself while it runs, in the user's folders, not files a repository holds"),
    ("ClaudeIgnore", "`.claudeignore`", "", "Claude Code does not read it (agnix reports it for that reason); ctxc lints what hosts read"),
    ("ClaudeCommand", "`.claude/commands/**/*.md`", "claude-command", "CLAUDE"),
    ("CursorRule", "`.cursor/rules/**/*.mdc`, `.cursor/rules/**/*.md`", "cursor-rule", "CURSOR, for `.mdc`; Cursor's rules documentation names `.mdc` files, and agnix itself reports a plain `.md` rule as one Cursor ignores (CUR-020), so ctxc does not read one as a rule"),
    ("CursorHooks", "`.cursor/hooks.json`", "cursor-hooks", "CURSOR019-023"),
    ("CursorAgent", "`.cursor/agents/**/*.md`", "", "not yet: no Cursor page or source for the subagent fields was found, only third-party descriptions"),
    ("CursorEnvironment", "`.cursor/environment.json`", "", "not yet: Cursor publishes its JSON Schema only on its site, in no package a script can install and a test pin"),
    ("CursorRulesLegacy", "`.cursorrules`", "cursor-rules-legacy", "CURSOR"),
    ("CursorCliConfig", "`.cursor/cli.json`, `~/.cursor/cli-config.json`", "", "not yet: no rule written and no host model with a source"),
    ("CursorPermissions", "`.cursor/permissions.json`", "", "not yet: no rule written and no host model with a source"),
    ("CursorPlugin", "`.cursor-plugin/plugin.json`, `.cursor-plugin/marketplace.json`", "", "not yet: no rule written and no host model with a source"),
    ("CursorIgnore", "`.cursorignore`", "", "an ignore file in gitignore syntax: it decides which files a host may open, not what enters the context"),
    ("ClineRules", "`.clinerules`", "cline-rule", "CLINE"),
    ("ClineRulesFolder", "`.clinerules/*.md`, `.clinerules/*.txt`, workflows and hooks of `.clinerules/` and `.cline/`", "cline-rule", "CLINE, for the Markdown rules of `.clinerules/` and `.cline/rules/`; `.txt` rules, workflows and hooks not yet (no rule written)"),
    ("ClineIgnore", "`.clineignore`", "", "an ignore file (see `.cursorignore`)"),
    ("ClineMcpSettings", "`cline_mcp_settings.json`", "", "not yet: a file of the editor's own storage, rarely in a repository; no rule written"),
    ("OpenCodeConfig", "`opencode.json`, `opencode.jsonc`", "opencode-config", "OPENCODE006 (JSONC syntax), OPENCODE007 (top-level keys, from `@opencode-ai/sdk` 1.19.3)"),
    ("OpenCodeAgent", "`.opencode/agent(s)/**/*.md`, legacy `.opencode/mode(s)/`", "opencode-agent", "OPENCODE, for `agent/` and `agents/`; the legacy `mode(s)/` folders are not read"),
    ("OpenCodeCommand", "`.opencode/command(s)/**/*.md`", "opencode-command", "OPENCODE"),
    ("OpenCodeTool", "`.opencode/tool(s)/*.ts`, `*.js`", "", "code, not context: a tool module is run by OpenCode, not read into the prompt"),
    ("OpenCodePlugin", "`.opencode/plugin(s)/*.ts`, `*.js`", "", "code, not context (as tools)"),
    ("GeminiMd", "`GEMINI.md`, `GEMINI.local.md`", "memory", "MEM, GEMINI, for `GEMINI.md`"),
    ("GeminiSettings", "`.gemini/settings.json`", "gemini-settings", "GEMINI"),
    ("AmpSettings", "`.amp/settings.json(c)`, `~/.config/amp/settings.json(c)`", "", "not yet: no rule written and no host model with a source; what Amp reads as context, AGENTS.md and skills, is read"),
    ("AmpSkillMcp", "`mcp.json` in a skill folder under an Amp skills root", "", "not yet: no rule written and no host model with a source"),
    ("GeminiExtension", "`gemini-extension.json`", "gemini-extension", "GEMINI"),
    ("GeminiIgnore", "`.geminiignore`", "", "an ignore file (see `.cursorignore`)"),
    ("GeminiHooks", "an extension's `hooks/hooks.json`", "", "not yet: no rule written and no host model with a source"),
    ("GeminiCommand", "`.gemini/commands/**/*.toml`", "", "not yet: no rule written and no host model with a source"),
    ("GeminiPolicy", "`.gemini/policies/*.toml`", "", "not yet: no rule written and no host model with a source"),
    ("CodexConfig", "`.codex/config.toml` (agnix also `config.json`, `config.yaml`)", "codex-config", "CODEX, for `config.toml`, the name Codex reads"),
    ("CodexPlugin", "`.codex-plugin/plugin.json`", "", "not yet: no rule written and no host model with a source"),
    ("CodexRequirements", "`requirements.toml` in the system's Codex folder (`/etc/codex/`)", "", "a system file an administrator installs, outside repositories"),
    ("CodexHooks", "`.codex/hooks.json`", "", "not yet: Codex's hook events grew from commit to commit; the list must be pinned to Codex's generated schema first"),
    ("CodexAgent", "`.codex/agents/*.toml`", "codex-agent", "CODEX004 (TOML syntax), CODEX011 (the fields without which Codex skips the agent)"),
    ("CodexRules", "`.codex/rules/*.rules`", "", "command rules (execpolicy) that decide what a command may run, not context"),
    ("CodexPrompt", "`~/.codex/prompts/*.md`", "", "files of the user's home folder, deprecated by Codex in favour of skills (which are read)"),
    ("CodexSkillMetadata", "a skill's `agents/openai.yaml`", "", "not yet: no rule written and no host model with a source"),
    ("WindsurfRule", "`.windsurf/rules/**/*.md`, `.devin/rules/**/*.md`", "windsurf-rule", "WINDSURF, for `.windsurf/rules/*.md`; `.devin/` not yet"),
    ("WindsurfWorkflow", "`.windsurf/workflows/**/*.md`, `.devin/workflows/`", "windsurf-workflow", "WINDSURF005, for `.windsurf/workflows/*.md`"),
    ("WindsurfRulesLegacy", "`.windsurfrules`", "", "not yet: no rule written (a rule's character limit, which Windsurf's pages give as 6,000 and as 12,000)"),
    ("WindsurfGlobalRules", "`~/.codeium/windsurf/memories/global_rules.md`", "", "a file of the user's home folder, not of a repository"),
    ("WindsurfHooks", "`.windsurf/hooks.json`, `.devin/hooks.json`, home-folder hooks", "windsurf-hooks", "WINDSURF006, for `.windsurf/hooks.json`"),
    ("KiroSteering", "`.kiro/steering/**/*.md`", "kiro-steering", "KIRO"),
    ("KiroPower", "`POWER.md` at a power's root", "", "not yet: no rule written and no host model with a source"),
    ("KiroPowerPlugin", "a power's `plugin.json`", "", "not yet: no rule written and no host model with a source"),
    ("KiroPowerSteering", "a power's `steering/*.md`", "", "not yet: no rule written and no host model with a source"),
    ("KiroAgent", "`.kiro/agents/**/*.json`, `*.md`", "", "not yet: no rule written and no host model with a source"),
    ("KiroHook", "`.kiro/hooks/*.kiro.hook`", "", "the IDE's hooks before 1.0: kiro.dev describes them only in its interface's words (triggers, actions), and the file's JSON keys appear only in third-party copies, several of them garbled, so there is no source to check them against; the versioned `.kiro/hooks/*.json` that replaces them is read (KIRO008, KIRO009)"),
    ("KiroHookV3", "`.kiro/hooks/*.json` (Kiro CLI 3, IDE 1.0)", "kiro-hooks", "KIRO008 (the file's shape, each hook's trigger and action), KIRO009 (triggers, with the 2.x names renamed)"),
    ("KiroMcp", "`.kiro/settings/mcp.json`", "", "not yet: no rule written and no host model with a source"),
    ("KiroSettings", "`.kiro/settings/cli.json`", "", "not yet: no rule written and no host model with a source"),
    ("KiroPermissions", "`.kiro/settings/permissions.yaml`", "", "not yet: no rule written and no host model with a source"),
    ("KiroWorkflow", "`.kiro/workflows/*.workflow.json`", "", "not yet: no rule written and no host model with a source"),
    ("KiroIgnore", "`.kiroignore`", "", "an ignore file (see `.cursorignore`)"),
    ("KiroNotLoaded", "files in Kiro's folders no Kiro engine loads", "", "agnix reports them as misplaced; ctxc reads the files hosts load"),
    ("GeminiAgent", "`.gemini/agents/*.md`", "", "not yet: no rule written and no host model with a source"),
    ("GenericMarkdown", "any other `.md`", "", "ctxc reads other Markdown only where an agent file links to it (LINK, SKILL017)"),
];

/// The section of `docs/rules.md` on agnix's kinds of file, from [`AGNIX_KINDS`].
fn agnix_markdown() -> String {
    let mut out = String::from(
        "\n## The files agnix reads\n\n\
         Every kind of file [agnix](https://github.com/agent-sh/agnix) 0.59.3 reads (its `FileType`, in \
         `crates/agnix-core/src/file_types/types.rs` at commit 36c6801f79a12fb1c639696d4095182a322362f2, the \
         crate's published source), whether ctxc reads it, and why not when it does not.\n\n\
         | agnix kind | files | ctxc kind | checked by, or why not read |\n|---|---|---|---|\n",
    );
    for (agnix, files, ours, how) in AGNIX_KINDS {
        let ours = if ours.is_empty() { "–".to_string() } else { format!("`{ours}`") };
        out.push_str(&format!("| {agnix} | {files} | {ours} | {how} |\n"));
    }
    out
}

/// The heading anchor GitHub gives a rule's section.
pub fn anchor(rule: &Rule) -> String {
    format!("{}-{}", rule.code.as_str().to_lowercase(), rule.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_in_preview_says_so() {
        let stable = ALL[0];
        let preview = Rule { lifecycle: Lifecycle::Preview, ..stable };
        assert!(!rule_markdown(&stable, 2).contains("Preview") && summary_line(&stable) == stable.summary);
        assert!(rule_markdown(&preview, 2).contains("**Preview:** runs only with `ctxc check --preview`"));
        assert_eq!(summary_line(&preview), format!("(preview) {}", stable.summary));
    }

    #[test]
    fn the_agnix_table_names_real_kinds_once_each() {
        let ids: Vec<&str> = crate::agent_files::FileKind::ALL.iter().map(|k| k.id()).collect();
        for (agnix, _, ours, how) in AGNIX_KINDS {
            assert!(!how.trim().is_empty(), "{agnix}: say how ctxc checks it or why not");
            for id in ours.split(", ").filter(|id| !id.is_empty()) {
                assert!(ids.contains(&id), "{agnix}: `{id}` is not a ctxc file kind");
            }
        }
        let mut names: Vec<&str> = AGNIX_KINDS.iter().map(|row| row.0).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), AGNIX_KINDS.len(), "an agnix kind is listed twice");
    }
}

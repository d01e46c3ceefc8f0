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
    out.push_str(&unread_markdown());
    out
}

/// The kinds of file agnix (0.59.3) reads that ctxc does not, by host, and why not: (host, files,
/// why). Kept with the catalogue so that `docs/rules.md` says it next to the rules ctxc has.
pub const UNREAD: &[(&str, &str, &str)] = &[
    ("Codex", "`.codex/agents/*.toml` (custom agent files), `.codex/hooks.json`, `.codex-plugin/plugin.json`, `requirements.toml`, `.codex/rules/*.rules`, a skill's `agents/openai.yaml`", "not yet: each has its own format (TOML agent layers, hook JSON, plugin manifests, managed requirements, execpolicy rules) and no rule has been written for it; the `[agents.NAME]` roles of `config.toml` are checked (CODEX005, CODEX009)"),
    ("Cursor", "`.cursor/rules/**/*.md`", "Cursor's rules documentation names `.mdc` files; agnix itself reports a plain `.md` rule as one Cursor ignores (CUR-020), so ctxc does not read one as a rule either"),
    ("Cursor", "`.cursor/agents/*.md`, `.cursor/environment.json`, `.cursor/cli.json`, `.cursor-plugin/plugin.json`", "not yet: no rule written; their fields are not yet in a host model with a source. `.cursor/hooks.json` is read (CURSOR019-023, events from `data/hosts/cursor.toml`)"),
    ("Kiro", "`.kiro/specs/*/{requirements,design,tasks}.md`", "documents Kiro's spec workflow writes and reads as plain Markdown, with no fields of their own; a spec is a file like any other Markdown there, and its links are not an agent's context"),
    ("Kiro", "`.kiro/hooks/*.kiro.hook`, `.kiro/agents/*.json`, `.kiro/settings/mcp.json`, `.kiro/settings/cli.json`, `.kiro/settings/permissions.yaml`, `.kiro/workflows/*.workflow.json`, `POWER.md`", "not yet: no rule written (hook events, agent and settings schemas); the steering files, which are Kiro's context, are read (KIRO)"),
    ("Gemini CLI", "`.gemini/commands/**/*.toml`, `.gemini/agents/*.md`, `.gemini/policies/*.toml`", "not yet: no rule written; `.gemini/settings.json`, GEMINI.md and `gemini-extension.json` are read (GEMINI)"),
    ("OpenCode", "the keys of `opencode.json` and `opencode.jsonc`, `.opencode/tools/*.ts`, `tui.json`", "not yet: OpenCode publishes two configuration versions (V1 and V2 schemas at opencode.ai) and no rule checks the keys of either (the files' syntax is OPENCODE006); `.opencode/tools/*.ts` is code, not context; the agents and commands in `.opencode/` are read (OPENCODE)"),
    ("Cline", "`.clinerules/hooks/*`, `.clinerules/workflows/*.md`, `cline_mcp_settings.json`", "not yet: no rule written; the rules themselves, `.clinerules` and the Markdown of `.clinerules/`, are read (CLINE)"),
    ("Windsurf", "`.windsurfrules`", "not yet: no rule written (the legacy rules file; a rule's character limit, which Windsurf's pages give as 6,000 and as 12,000); the workspace rules in `.windsurf/rules/` the workflows in `.windsurf/workflows/` (their 12,000-character limit, WINDSURF005) and `.windsurf/hooks.json` (its events, WINDSURF006) are read (WINDSURF)"),
    ("Amp", "`.amp/settings.json` and `amp.*` settings, Amp check files, skills' MCP declarations", "not yet: no rule written; what Amp reads as context, AGENTS.md and skills, is read (MEM, CODEX, SKILL)"),
    ("several", "`.cursorignore`, `.geminiignore`, `.kiroignore`, `.clineignore`", "ignore files in gitignore syntax: they decide which files a host may open, not what enters the context, and hold nothing ctxc counts or checks"),
];

/// The section of `docs/rules.md` on the files ctxc does not read, from [`UNREAD`].
fn unread_markdown() -> String {
    let mut out = String::from(
        "\n## Files ctxc does not read\n\n\
         The kinds of file [agnix](https://github.com/agent-sh/agnix) 0.59.3 reads that ctxc does not read, and why.\n\n\
         | host | files | why not |\n|---|---|---|\n",
    );
    for (host, files, why) in UNREAD {
        out.push_str(&format!("| {host} | {files} | {why} |\n"));
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
}

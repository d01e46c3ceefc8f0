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

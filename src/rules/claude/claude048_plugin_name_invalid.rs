//! CLAUDE048: a plugin name that is not kebab-case.

use crate::agent_files::FileKind;
use crate::diagnostic::{Edit, Fix};
use crate::rules::claude::claude004_agent_name_invalid::slug;
use crate::rules::json_span::Step;
use crate::rules::json_span::{json_docs, place};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A plugin's `name` (in `plugin.json` or a marketplace entry) is not kebab-case: lowercase letters and digits in hyphen-separated words.",
    why: "Plugin names are kebab-case (`^[a-z0-9]+(-[a-z0-9]+)*$`): they become part of every command's and agent's \
          namespace (`/my-plugin:review`) and of the install id `name@marketplace`. Spaces, capitals or underscores \
          fail validation. Source: `anthropics/claude-code:plugins/plugin-dev/skills/plugin-structure/references/manifest-reference.md` \
          (name format). A leading digit is accepted: Claude Code lists and installs \
          `42crunch-api-security-testing@claude-plugins-official` from Anthropic's own marketplace, so only the \
          kebab-case shape is checked, not the first character.",
    fails: Example { file: ".claude-plugin/plugin.json", text: "{\n  \"name\": \"Review_Helpers\",\n  \"version\": \"1.0.0\"\n}\n" },
    passes: Example { file: ".claude-plugin/plugin.json", text: "{\n  \"name\": \"review-helpers\",\n  \"version\": \"1.0.0\"\n}\n" },
    notes: "The attached fix (unsafe: it renames the plugin) writes the name in kebab-case.",
    stage: Stage::Lint(check),
};

pub fn kebab(name: &str) -> bool {
    name.split('-').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudePlugin, FileKind::ClaudeMarketplace]) {
        let Ok(value) = &*json else { continue };
        let names: Vec<(Vec<Step>, &str)> = match doc.kind {
            FileKind::ClaudePlugin => {
                value.get("name").and_then(|n| n.as_str()).map(|n| (vec![Step::Key("name")], n)).into_iter().collect()
            }
            _ => value
                .get("plugins")
                .and_then(|p| p.as_array())
                .into_iter()
                .flatten()
                .enumerate()
                .filter_map(|(i, p)| Some((vec![Step::Key("plugins"), Step::Index(i), Step::Key("name")], p.get("name")?.as_str()?)))
                .collect(),
        };
        for (path, name) in names.into_iter().filter(|(_, n)| !n.trim().is_empty() && !kebab(n)) {
            let span = place(doc, &path).map(|p| p.value);
            let mut d = Diagnostic::finding(format!("plugin name `{name}` is not kebab-case"))
                .in_file(&doc.file)
                .at(span.clone())
                .help("use lowercase letters and digits in hyphen-separated words, e.g. `review-helpers`");
            let fixed = slug(name);
            if let (Some(span), true) = (span, kebab(&fixed)) {
                d = d.fix(Fix::unsafe_(format!("rename to `{fixed}`"), vec![Edit::replace(&doc.file, span, format!("\"{fixed}\""))]));
            }
            findings.push(d);
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kebab_names() {
        assert!(kebab("review-helpers") && kebab("a11y") && kebab("x"));
        // The shape of a plugin in Anthropic's official marketplace: a company name starting with digits.
        assert!(kebab("42crunch-api-security-testing") && kebab("1x"));
        assert!(!kebab("Review") && !kebab("a--b") && !kebab("a_b") && !kebab("a-") && !kebab("-a"));
    }
}

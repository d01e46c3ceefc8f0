//! INSTR007: memory files one agent loads that prescribe different tools for the same job.

use std::sync::LazyLock;

use regex::Regex;

use crate::diagnostic::Related;
use crate::rules::chains::{self, sentences};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The memory files one agent loads prescribe two different tools for one job (`always use npm` and `use pnpm only`; `use tabs` and `use spaces`).",
    why: "Every memory file on the way to the working folder reaches the model at once (Claude Code: \
          https://docs.anthropic.com/ja/docs/claude-code/memory; Codex: \
          openai/codex:codex-rs/core/src/project_doc.rs@0bd53e45; Gemini CLI: \
          google-gemini/gemini-cli:docs/cli/gemini-md.md@5411f113). When one says `use pnpm only` and another \
          `always use npm`, the agent picks one at random and half its commands break the lockfile or the style.",
    fails: Example { file: "AGENTS.md", text: "# Tooling\n\nAlways use npm.\n\n# and web/AGENTS.md says: Use pnpm only.\n" },
    passes: Example { file: "AGENTS.md", text: "# Tooling\n\nAlways use pnpm.\n" },
    notes: "Groups: JavaScript package managers (npm, pnpm, yarn, bun), Python package managers (pip, uv, poetry, \
            pipenv, conda, pdm), indentation (tabs, spaces), JavaScript test runners (jest, vitest, mocha). A choice \
            is a sentence that starts with `use X` (after `always`, `only`, `must` or `please`) and either says \
            `only`/`always`/`must`/`exclusively` or is no more than `use X` plus `for indentation`, `for package \
            management`, `as the package manager`; a sentence naming two tools of one group is not a choice.",
    stage: Stage::Lint(check),
};

const GROUPS: [(&str, &[&str]); 4] = [
    ("JavaScript package manager", &["npm", "pnpm", "yarn", "bun"]),
    ("Python package manager", &["pip", "uv", "poetry", "pipenv", "conda", "pdm"]),
    ("indentation", &["tabs", "spaces"]),
    ("JavaScript test runner", &["jest", "vitest", "mocha"]),
];

static CHOICE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:please )?(always |only |you must |must )?use (only |exclusively )?([a-z]+)(?: (only|exclusively|always))?(?: (?:for indentation|for package management|for dependencies|as (?:the|our) package manager|to manage dependencies|for all (?:installs|dependencies|packages)))?$")
        .expect("constant pattern") // ok: literal
});

/// The group and tool a sentence prescribes.
fn choice(sentence: &str) -> Option<(&'static str, String)> {
    let caps = CHOICE.captures(sentence)?;
    let tool = caps.get(3)?.as_str();
    let (group, members) = GROUPS.iter().find(|(_, members)| members.contains(&tool))?;
    let others = sentence.split(|c: char| !c.is_alphanumeric()).filter(|w| members.contains(w) && *w != tool).count();
    (others == 0).then(|| (*group, tool.to_string()))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let mut reported = std::collections::BTreeSet::new();
    for chain in chains::chains(cx) {
        let mut chosen: Vec<(&str, String, &str, std::ops::Range<usize>)> = Vec::new();
        for member in &chain {
            for sentence in sentences(cx.root.cache(), &member.text).iter() {
                let Some((group, tool)) = choice(&sentence.text) else { continue };
                if let Some((_, other, file, span)) = chosen.iter().find(|(g, t, _, _)| *g == group && *t != tool) {
                    if reported.insert((member.file.clone(), sentence.span.start)) {
                        findings.push(
                            Diagnostic::finding(format!(
                                "`{}` conflicts with `{other}` prescribed before it ({group})",
                                &member.text[sentence.span.clone()]
                            ))
                            .in_file(&member.file)
                            .at(Some(sentence.span.clone()))
                            .label("conflicting choice")
                            .help("prescribe one tool in the chain, or say where each applies")
                            .related(vec![Related {
                                file: file.to_string(),
                                span: Some(span.clone()),
                                message: format!("`{other}` is prescribed here"),
                            }]),
                        );
                    }
                    continue;
                }
                chosen.push((group, tool, member.file.as_str(), sentence.span.clone()));
            }
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::choice;

    #[test]
    fn reads_choices() {
        assert_eq!(choice("always use npm"), Some(("JavaScript package manager", "npm".into())));
        assert_eq!(choice("use pnpm only"), Some(("JavaScript package manager", "pnpm".into())));
        assert_eq!(choice("use tabs for indentation"), Some(("indentation", "tabs".into())));
        assert_eq!(choice("use pnpm, not npm"), None);
        assert_eq!(choice("use npm to publish the package"), None);
    }
}

//! SKILL012: frontmatter keys that differ only by case.

use crate::memo::KeyMap;
use crate::rules::prelude::*;
use crate::rules::skills::SPEC_FIELDS;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary:
        "Two frontmatter keys differ only by case (`name` and `Name`), or a key is a specification field in the wrong case (`Description`).",
    why: "YAML keys are case-sensitive, so `Description:` is not `description:`: the skill has no description as far as \
          the specification is concerned, and which of two case variants an agent reads depends on its parser.",
    fails: Example { file: "skills/notes/SKILL.md", text: "---\nname: notes\nDescription: Take meeting notes.\n---\n" },
    passes: Example { file: "skills/notes/SKILL.md", text: "---\nname: notes\ndescription: Take meeting notes.\n---\n" },
    notes: "Fix (safe): a single key in the wrong case is renamed (`Description` → `description`). Two spellings of one key \
            are one finding; when they hold the same value, the fix (safe) removes the copies that are not the \
            specification's spelling, and otherwise there is none: which value to keep is the author's choice.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        // The keys of each spelling, by lowercase form, in file order: one finding per group.
        let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
        let mut index: KeyMap<String, usize> = KeyMap::default();
        for (key, _) in skill.fields() {
            let lower = key.to_ascii_lowercase();
            let i = *index.entry(lower.clone()).or_insert_with(|| {
                groups.push((lower, Vec::new()));
                groups.len() - 1
            });
            groups[i].1.push(key.as_str());
        }
        for (lower, keys) in groups {
            let spec = SPEC_FIELDS.iter().find(|f| **f == lower);
            let finding = match (&keys[..], spec) {
                ([key], Some(spec)) if key != spec => {
                    let fix = Fix::safe(
                        format!("rename `{key}` to `{spec}`"),
                        skill.key_span(key).map(|span| Edit::replace(&skill.file, span, *spec)).into_iter().collect(),
                    );
                    Diagnostic::finding(format!("frontmatter key `{key}` is the specification's `{spec}` in the wrong case"))
                        .at(skill.key_span(key))
                        .help(format!("write it as `{spec}` (keys are case-sensitive)"))
                        .fix(fix)
                }
                ([_], _) => continue,
                (keys, spec) => {
                    // Point at a spelling that is not the specification's (the later one when neither is).
                    let odd = keys.iter().rev().find(|k| spec.is_none_or(|s| *k != s)).unwrap_or(&keys[keys.len() - 1]);
                    let shown: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
                    let d = Diagnostic::finding(format!("frontmatter keys {} differ only by case", shown.join(" and ")))
                        .at(skill.key_span(odd))
                        .help("keep one of them (keys are case-sensitive)");
                    match spec.and_then(|spec| drop_copies(skill, keys, spec)) {
                        Some(fix) => d.fix(fix),
                        None => d,
                    }
                }
            };
            findings.push(finding.in_file(&skill.file));
        }
    }
    findings
}

/// Removes the other spellings of a specification field when they hold the same value as the
/// field itself, so nothing is lost; which of two different values to keep is the author's call.
fn drop_copies(skill: &crate::agent_files::Doc, keys: &[&str], spec: &str) -> Option<Fix> {
    let value = skill.field(spec)?;
    let mut edits = Vec::new();
    for key in keys.iter().filter(|k| **k != spec) {
        if skill.field(key) != Some(value) {
            return None;
        }
        edits.push(Edit::replace(&skill.file, skill.entry_lines(key)?, ""));
    }
    Some(Fix::safe(format!("remove the copies of `{spec}`"), edits))
}

//! The same finding in many files reported once. A key one product does not know (SKILL011's
//! `version`, CLAUDE016's `color`) is often written in every file of a collection: 230 skills
//! of one repository with the same field are one decision, not 230. Findings a rule marks
//! groupable ([`Diagnostic::groupable`]) with the same code, severity and message, in files of
//! one folder, become one finding at the first place, with the others as related places and the
//! fixes of all of them (so `--fix` still edits every file). Only the report is grouped: fixes,
//! suppression comments, the baseline and the editor see every file's finding.

use std::collections::BTreeMap;

use crate::diagnostic::{Diagnostic, Fix, Related};

/// Groups the groupable findings of a report in place, keeping the report's order (a group
/// stands where its first finding stood).
pub fn group(findings: &mut Vec<Diagnostic>) {
    let mut groups: BTreeMap<(Option<crate::codes::Code>, crate::diagnostic::Severity, String, String), usize> = BTreeMap::new();
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(findings.len());
    let mut members: Vec<Vec<Diagnostic>> = Vec::new();
    for d in findings.drain(..) {
        let Some(file) = d.file.as_deref().filter(|_| d.groupable) else {
            kept.push(d);
            members.push(Vec::new());
            continue;
        };
        let key = (d.code, d.severity, d.message.clone(), collection(file).to_string());
        match groups.get(&key) {
            Some(&at) => members[at].push(d),
            None => {
                groups.insert(key, kept.len());
                kept.push(d);
                members.push(Vec::new());
            }
        }
    }
    for (first, others) in kept.iter_mut().zip(members) {
        if !others.is_empty() {
            merge(first, others);
        }
    }
    *findings = kept;
}

/// The first finding of a group made to stand for all of them.
fn merge(first: &mut Diagnostic, others: Vec<Diagnostic>) {
    let folder = first.file.as_deref().map_or("", collection);
    let more = others.len();
    let files = if more == 1 { "file" } else { "files" };
    first.message = match folder {
        "" => format!("{} (and {more} more {files})", first.message),
        folder => format!("{} (and {more} more {files} in `{folder}/`)", first.message),
    };
    let mut edits = first.fix.as_ref().map(|f| f.edits.clone()).unwrap_or_default();
    let mut applicability = first.fix.as_ref().map(|f| f.applicability);
    for d in others {
        let Some(file) = d.file else { continue };
        first.related.push(Related { file, span: d.span, message: "the same here".to_string() });
        if let Some(fix) = d.fix {
            applicability = applicability.max(Some(fix.applicability));
            edits.extend(fix.edits);
        }
    }
    if let (Some(fix), Some(applicability)) = (first.fix.as_mut(), applicability) {
        let title = format!("{} (in {} files)", fix.title, more + 1);
        **fix = Fix { title, applicability, edits };
    }
}

/// The folder a file's findings are grouped in: its own, or for a file that stands for its
/// folder (a skill's `SKILL.md`, a plugin's `.claude-plugin/` manifest) the folder holding that
/// folder, where its siblings are (`skills/`, `plugins/`).
fn collection(file: &str) -> &str {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    if dir == ".claude-plugin" || dir.ends_with("/.claude-plugin") {
        parent(parent(dir))
    } else if name == "SKILL.md" {
        parent(dir)
    } else {
        dir
    }
}

/// The folder holding a path (`""` at the top).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(parent, _)| parent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::diagnostic::{Applicability, Edit};

    fn unknown(file: &str, key: &str) -> Diagnostic {
        Diagnostic::finding(format!("frontmatter field `{key}` is not in the Agent Skills specification"))
            .code(Code::SKILL011)
            .in_file(file)
            .at(Some(4..4 + key.len()))
            .fix(Fix::unsafe_(format!("remove the field `{key}`"), vec![Edit::replace(file, 4..10, "")]))
            .groupable()
    }

    #[test]
    fn one_finding_per_key_per_folder() {
        let mut findings = vec![
            unknown("repo/skills/a/SKILL.md", "version"),
            unknown("repo/skills/a/SKILL.md", "tags"),
            Diagnostic::finding("other").code(Code::SKILL013).in_file("repo/skills/b/SKILL.md"),
            unknown("repo/skills/b/SKILL.md", "version"),
            unknown("repo/skills/c/SKILL.md", "version"),
            unknown("repo/other/skills/d/SKILL.md", "version"),
        ];
        group(&mut findings);
        let messages: Vec<&str> = findings.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "frontmatter field `version` is not in the Agent Skills specification (and 2 more files in `repo/skills/`)",
                "frontmatter field `tags` is not in the Agent Skills specification",
                "other",
                "frontmatter field `version` is not in the Agent Skills specification",
            ]
        );
        let places: Vec<&str> = findings[0].related.iter().map(|r| r.file.as_str()).collect();
        assert_eq!(places, ["repo/skills/b/SKILL.md", "repo/skills/c/SKILL.md"]);
        // Every file's fix is kept: `--fix --unsafe-fixes` edits each of them.
        let fix = findings[0].fix.as_ref().expect("fix");
        assert_eq!(
            fix.edits.iter().map(|e| e.file.as_str()).collect::<Vec<_>>(),
            ["repo/skills/a/SKILL.md", "repo/skills/b/SKILL.md", "repo/skills/c/SKILL.md"]
        );
        assert_eq!((fix.applicability, fix.title.as_str()), (Applicability::Unsafe, "remove the field `version` (in 3 files)"));
    }

    #[test]
    fn only_groupable_findings_in_one_folder() {
        let plain = |file: &str| Diagnostic::finding("same").code(Code::SKILL013).in_file(file);
        let mut findings = vec![plain("skills/a/SKILL.md"), plain("skills/b/SKILL.md")];
        group(&mut findings);
        assert_eq!(findings.len(), 2, "a rule that does not ask is never grouped");
        let mut findings = vec![unknown(".claude/agents/a.md", "color"), unknown("plugins/p/agents/b.md", "color")];
        group(&mut findings);
        assert_eq!(findings.len(), 2, "files of two folders are two findings");
        assert_eq!(collection("plugins/p/.claude-plugin/plugin.json"), "plugins");
        assert_eq!(collection("SKILL.md"), "");
    }
}

//! The same finding in many files reported once. A key one product does not know (SKILL011's
//! `version`, CLAUDE016's `color`) is usually written on purpose in every file of a collection:
//! 230 skills of one repository with the same field are one decision, not 230, and a
//! marketplace keeps one skill per plugin, so no folder holds them all but the repository's.
//! Findings a rule marks groupable ([`Diagnostic::groupable`]) with the same code, severity and
//! message (so the same key) become one finding at the first place, saying how many more files
//! have it and under which folder (the deepest holding them all), with the others as related
//! places and the fixes of all of them (so `--fix` still edits every file). Only the report is
//! grouped: fixes, suppression comments, the baseline and the editor see every file's finding.

use std::collections::BTreeMap;

use crate::diagnostic::{Diagnostic, Fix, Related};

/// Groups the groupable findings of a report in place, keeping the report's order (a group
/// stands where its first finding stood).
pub fn group(findings: &mut Vec<Diagnostic>) {
    let mut groups: BTreeMap<(Option<crate::codes::Code>, crate::diagnostic::Severity, String), usize> = BTreeMap::new();
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(findings.len());
    let mut members: Vec<Vec<Diagnostic>> = Vec::new();
    for d in findings.drain(..) {
        if !d.groupable || d.file.is_none() {
            kept.push(d);
            members.push(Vec::new());
            continue;
        }
        let key = (d.code, d.severity, d.message.clone());
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
    let mut folder = parent(first.file.as_deref().unwrap_or_default()).to_string();
    let more = others.len();
    let mut fix = first.fix.take().map(|f| *f);
    for d in others {
        let Some(file) = d.file else { continue };
        folder = common_folder(&folder, parent(&file)).to_string();
        first.related.push(Related { file, span: d.span, message: "the same here".to_string() });
        match (&mut fix, d.fix) {
            (Some(fix), Some(other)) => {
                fix.applicability = fix.applicability.max(other.applicability);
                fix.edits.extend(other.edits);
            }
            (None, Some(other)) => fix = Some(*other),
            (_, None) => {}
        }
    }
    let files = if more == 1 { "file" } else { "files" };
    first.message = match folder.as_str() {
        "" => format!("{} (and {more} more {files})", first.message),
        folder => format!("{} (and {more} more {files} under `{folder}/`)", first.message),
    };
    first.fix = fix.map(|f| {
        let files = f.edits.iter().map(|e| e.file.as_str()).collect::<std::collections::BTreeSet<_>>().len();
        let title = if files > 1 { format!("{} (in {files} files)", f.title) } else { f.title.clone() };
        Box::new(Fix { title, ..f })
    });
}

/// The folder holding a path (`""` at the top).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(parent, _)| parent)
}

/// The deepest folder holding both folders (whole names: `skills/a` and `skills/ab` share `skills`).
fn common_folder<'a>(a: &'a str, b: &str) -> &'a str {
    let mut end = 0;
    for (x, y) in a.split('/').zip(b.split('/')) {
        if x != y {
            break;
        }
        end += x.len() + 1;
    }
    &a[..end.saturating_sub(1).min(a.len())]
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
    fn one_finding_per_key() {
        let mut findings = vec![
            unknown("repo/skills/a/SKILL.md", "version"),
            unknown("repo/skills/a/SKILL.md", "tags"),
            Diagnostic::finding("other").code(Code::SKILL013).in_file("repo/skills/b/SKILL.md"),
            unknown("repo/skills/b/SKILL.md", "version"),
            unknown("repo/skills/c/SKILL.md", "version"),
        ];
        group(&mut findings);
        let messages: Vec<&str> = findings.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "frontmatter field `version` is not in the Agent Skills specification (and 2 more files under `repo/skills/`)",
                "frontmatter field `tags` is not in the Agent Skills specification",
                "other",
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
    fn only_groupable_findings_under_the_folder_holding_them_all() {
        let plain = |file: &str| Diagnostic::finding("same").code(Code::SKILL013).in_file(file);
        let mut findings = vec![plain("skills/a/SKILL.md"), plain("skills/b/SKILL.md")];
        group(&mut findings);
        assert_eq!(findings.len(), 2, "a rule that does not ask is never grouped");
        // A marketplace: one skill per plugin.
        let mut findings = vec![unknown("plugins/p/skills/a/SKILL.md", "color"), unknown("plugins/pq/skills/b/SKILL.md", "color")];
        group(&mut findings);
        assert_eq!(findings.len(), 1);
        assert!(findings[0].message.ends_with("(and 1 more file under `plugins/`)"), "{}", findings[0].message);
        let mut findings = vec![unknown("a/SKILL.md", "color"), unknown("SKILL.md", "color")];
        group(&mut findings);
        assert!(findings[0].message.ends_with("(and 1 more file)"), "{}", findings[0].message);
    }
}

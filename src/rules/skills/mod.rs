//! The Agent Skills specification's frontmatter rules, shared by the SKILL rules, and the edits
//! their fixes make to a frontmatter line.

use unicode_normalization::UnicodeNormalization;

use crate::agent_files::{Doc, SkillDoc};
use crate::diagnostic::{grouped, Diagnostic, Edit};

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod skill001_missing_frontmatter;
pub mod skill002_invalid_yaml;
pub mod skill003_name_missing;
pub mod skill004_name_invalid;
pub mod skill005_name_folder_mismatch;
pub mod skill006_description_missing;
pub mod skill007_description_too_long;
pub mod skill008_compatibility_invalid;
pub mod skill009_metadata_not_strings;
pub mod skill010_field_type;
pub mod skill011_unknown_field;
pub mod skill012_case_variant_keys;
pub mod skill013_body_too_many_lines;
pub mod skill014_body_too_many_tokens;
pub mod skill015_catalogue_entry_too_long;
pub mod skill016_duplicate_name;
pub mod skill017_bundled_file_missing;
pub mod skill018_bundled_file_unreferenced;
pub mod skill019_nested_reference;
pub mod skill020_bundled_document_too_large;
pub mod skill021_reference_outside_skill;
pub mod skill022_backslash_path_mention;
pub mod skill023_long_reference_without_contents;
pub mod skill024_interpreter_mismatch;
pub mod skill025_description_xml_tag;
pub mod skill026_claude_listing_over_budget;
pub mod skill027_codex_listing_over_budget;
pub mod skill030_file_name_case;
pub mod skill031_flat_skill_file;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "SKILL.md files against the Agent Skills specification (lenient by default, strict on request).";

/// The fields the specification defines.
pub const SPEC_FIELDS: [&str; 6] = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

/// The fields Zeus reads in a SKILL.md (its documentation, Skills → "Metadata Fields"): not
/// reported at the default level in an agent on the `zeus` preset.
pub const ZEUS_FIELDS: [&str; 6] = ["version", "author", "tags", "triggers", "priority", "enabled"];

/// Longest `name`, in characters.
pub const NAME_MAX: usize = 64;
/// Longest `description`, in characters.
pub const DESCRIPTION_MAX: usize = 1024;
/// Longest `compatibility`, in characters.
pub const COMPATIBILITY_MAX: usize = 500;
/// Recommended longest body, in lines.
pub const BODY_MAX_LINES: usize = 500;
/// Recommended largest body, in tokens.
pub const BODY_MAX_TOKENS: usize = 5_000;
/// About how many tokens a skill's catalogue entry (name and description) should take.
pub const CATALOGUE_ENTRY_MAX_TOKENS: usize = 100;

/// What is wrong with a skill name, per the specification: 1–64 characters, lowercase
/// alphanumeric characters and hyphens only, no leading, trailing or consecutive hyphens.
/// Empty names are SKILL003's business and give no problem here.
/// Names are compared and checked in NFKC form, as the reference validator does (`cafe` with a
/// combining accent is `café`).
pub fn name_problems(name: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if name.is_empty() {
        return problems;
    }
    let name = &nfkc(name);
    let length = name.chars().count();
    if length > NAME_MAX {
        problems.push(format!("is {length} characters long (at most {NAME_MAX})"));
    }
    // Lowercase as the reference validator means it (`name == name.lower()`): titlecase letters too.
    let lowercase = |c: char| c.to_lowercase().eq(std::iter::once(c));
    let bad: Vec<char> = name.chars().filter(|c| !(*c == '-' || (c.is_alphanumeric() && lowercase(*c)))).collect();
    if !bad.is_empty() {
        let mut seen = std::collections::BTreeSet::new();
        let shown: Vec<String> = bad.iter().filter(|c| seen.insert(**c)).map(|c| format!("`{c}`")).collect();
        problems.push(format!("contains {} (only lowercase letters, digits and hyphens are allowed)", shown.join(", ")));
    }
    if name.starts_with('-') || name.ends_with('-') {
        problems.push("starts or ends with a hyphen".to_string());
    }
    if name.contains("--") {
        problems.push("contains consecutive hyphens".to_string());
    }
    problems
}

/// Whether the frontmatter has `key` in another case only (`Name` for `name`).
pub fn has_case_variant(doc: &Doc, key: &str) -> bool {
    doc.fields().iter().any(|(k, _)| k != key && k.eq_ignore_ascii_case(key))
}

/// A name in NFKC form.
pub fn nfkc(name: &str) -> String {
    name.nfkc().collect()
}

/// The name in kebab case (`PDF_Processing` → `pdf-processing`), when that is a valid name.
pub fn kebab(name: &str) -> Option<String> {
    let lower: String = nfkc(name).chars().flat_map(char::to_lowercase).map(|c| if c.is_alphanumeric() { c } else { '-' }).collect();
    let kebab = lower.split('-').filter(|part| !part.is_empty()).collect::<Vec<_>>().join("-");
    (!kebab.is_empty() && name_problems(&kebab).is_empty()).then_some(kebab)
}

/// An edit replacing a key's one-line scalar value with `value`, keeping its quotes (and quoting
/// a value YAML would read as another type) and any comment after it; `None` when the value is not
/// a one-line scalar, where a replacement could change more than the value.
pub fn replace_value(doc: &Doc, key: &str, value: &str) -> Option<Edit> {
    let span = doc.value_span(key)?;
    let old = &doc.text[span.clone()];
    if span == doc.key_span(key)? || old.starts_with(['[', '{', '&', '*', '!', '|', '>']) {
        return None;
    }
    let quote = match old.chars().next() {
        Some(q @ ('"' | '\'')) if old.len() >= 2 && old.ends_with(q) => Some(q),
        Some('"' | '\'') => return None,
        _ if reads_as_other_type(value) => Some('"'),
        _ => None,
    };
    let new = match quote {
        Some(q) => format!("{q}{value}{q}"),
        None => value.to_string(),
    };
    Some(Edit::replace(&doc.file, span, new))
}

/// Whether plain YAML would read `value` as something other than a string (`true`, `null`, `12`).
fn reads_as_other_type(value: &str) -> bool {
    !matches!(serde_yaml::from_str::<serde_yaml::Value>(value), Ok(serde_yaml::Value::String(_)))
}

/// The skills one folder holds (`.claude/skills/`, `.agents/skills/`, a plugin's `skills/`): the
/// set a product lists together, each skill with what its listing entry costs.
#[derive(Debug)]
pub struct Listing<'a> {
    /// The folder holding the skills' folders, relative to the project root (`""` for the root).
    pub folder: String,
    pub entries: Vec<(&'a SkillDoc, usize)>,
}

impl Listing<'_> {
    pub fn total(&self) -> usize {
        self.entries.iter().map(|(_, cost)| cost).sum()
    }

    /// A finding at the description of the costliest entry (the first of equals), where cutting
    /// gains most: the listing of `total` is over `budget` (`unit`: "characters" or "tokens").
    pub fn over_budget(&self, product: &str, budget: usize, unit: &str, consequence: &str, help: &str) -> Option<Diagnostic> {
        let total = self.total();
        let (largest, cost) = self.entries.iter().fold(None::<&(&SkillDoc, usize)>, |best, e| match best {
            Some(b) if b.1 >= e.1 => Some(b),
            _ => Some(e),
        })?;
        let folder = if self.folder.is_empty() { "the project root".to_string() } else { format!("`{}`", self.folder) };
        (total > budget).then(|| {
            Diagnostic::finding(format!(
                "the {} skills in {folder} take {} {unit} of {product}'s skill listing, over its budget of {}: {consequence}",
                self.entries.len(),
                grouped(total),
                grouped(budget)
            ))
            .in_file(&largest.file)
            .at(largest.key_span("description"))
            .label(format!("the longest entry: {} {unit}", grouped(*cost)))
            .help(help.to_string())
        })
    }
}

/// The skill listings of the `skills` folders `lists` accepts, in path order, each entry costed by `cost`
/// (`None` leaves a skill out of the listing).
pub fn listings<'a>(skills: &'a [SkillDoc], lists: impl Fn(&str) -> bool, cost: impl Fn(&SkillDoc) -> Option<usize>) -> Vec<Listing<'a>> {
    let mut by_folder: std::collections::BTreeMap<String, Vec<(&SkillDoc, usize)>> = std::collections::BTreeMap::new();
    for skill in skills {
        // `a/skills/pdf/SKILL.md` is listed with the other skills of `a/skills/`.
        let mut parts = skill.rel.rsplitn(3, '/');
        let folder = match (parts.next(), parts.next(), parts.next()) {
            (_, Some(_), Some(parent)) => format!("{parent}/"),
            _ => String::new(),
        };
        // Products discover skills only in a folder named `skills` (`.claude/skills/`,
        // `.agents/skills/`, a plugin's `skills/`); a catalogue's `skills/<category>/` is never
        // listed as a whole.
        let discovered = folder.trim_end_matches('/').rsplit('/').next() == Some("skills");
        if let Some(c) = (discovered && lists(&folder)).then(|| cost(skill)).flatten() {
            by_folder.entry(folder).or_default().push((skill, c));
        }
    }
    by_folder.into_iter().map(|(folder, entries)| Listing { folder, entries }).collect()
}

/// Whether a folder path has `dir` as one of its components (`.claude` in `x/.claude/skills/`).
pub fn under(folder: &str, dir: &str) -> bool {
    folder.split('/').any(|part| part == dir)
}

/// The project folder that installs a skill with its neighbours: the folder holding its skills
/// folder, past a product's dot-folder (`a/.claude/skills/pdf/SKILL.md` and `a/skills/x/SKILL.md`
/// are both installed with `a`).
pub fn installed_with(rel: &str) -> &str {
    let mut parts = rel.rsplitn(4, '/');
    let (_, _, container, holder) = (parts.next(), parts.next(), parts.next(), parts.next());
    // A folder of skills that is no host's `skills` folder (`.agents/skills-orchestrator/`, a
    // collection's `catalog/`) is installed with nothing beside it: its skills collide only
    // with each other.
    if let Some(container) = container.filter(|c| *c != "skills") {
        return &rel[..holder.map_or(0, |h| h.len() + 1) + container.len()];
    }
    let holder = holder.unwrap_or("");
    match holder.rsplit_once('/') {
        Some((parent, last)) if last.starts_with('.') => parent,
        None if holder.starts_with('.') => "",
        _ => holder,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_the_specification() {
        for ok in ["pdf-processing", "data-analysis", "code-review", "a", "v2-tools", "überprüfung"] {
            assert!(name_problems(ok).is_empty(), "{ok}");
        }
        for bad in ["PDF-Processing", "-pdf", "pdf-", "pdf--processing", "pdf_processing", "pdf tools"] {
            assert!(!name_problems(bad).is_empty(), "{bad}");
        }
        assert_eq!(name_problems(&"a".repeat(65)).len(), 1);
        assert!(name_problems("cafe\u{301}").is_empty(), "NFKC composes the accent");
        for not_lowercase in ["\u{1F88}", "\u{01C5}", "\u{2160}", "НАВЫК"] {
            assert!(!name_problems(not_lowercase).is_empty(), "{not_lowercase}");
        }
        for lowercase in ["技能", "мой-навык", "ß-skill", "a\u{b2}", "x\u{FF12}"] {
            assert!(name_problems(lowercase).is_empty(), "{lowercase}");
        }
    }

    #[test]
    fn skills_are_installed_with_their_project_folder() {
        assert_eq!(installed_with("a/.claude/skills/pdf/SKILL.md"), "a");
        assert_eq!(installed_with("a/skills/pdf/SKILL.md"), "a");
        assert_eq!(installed_with(".agents/skills/pdf/SKILL.md"), "");
        assert_eq!(installed_with("skills/pdf/SKILL.md"), "");
        assert_eq!(installed_with("pdf/SKILL.md"), "");
        assert_eq!(installed_with("examples/b/skills/pdf/SKILL.md"), "examples/b");
        assert_eq!(installed_with("a/.agents/skills-orchestrator/pdf/SKILL.md"), "a/.agents/skills-orchestrator");
        assert_eq!(installed_with("catalog/pdf/SKILL.md"), "catalog");
    }

    #[test]
    fn kebab_case_names() {
        assert_eq!(kebab("PDF_Processing").as_deref(), Some("pdf-processing"));
        assert_eq!(kebab("  My  Skill!! ").as_deref(), Some("my-skill"));
        assert_eq!(kebab("__").as_deref(), None);
        assert_eq!(kebab(&"a".repeat(65)), None);
    }

    fn doc(text: &str) -> Doc {
        Doc::new(
            crate::agent_files::FileKind::Skill,
            "s/SKILL.md".into(),
            "s/SKILL.md".into(),
            crate::memo::SharedText::new(text),
            &std::sync::Arc::default(),
        )
    }

    fn applied(text: &str, edit: Option<Edit>) -> Option<String> {
        let edit = edit?;
        let mut out = text.to_string();
        out.replace_range(edit.span, &edit.replacement);
        Some(out)
    }

    #[test]
    fn values_are_replaced_with_their_quotes() {
        let cases = [
            ("---\nname: Old\n---\n", "new", Some("---\nname: new\n---\n")),
            ("---\nname: 'Old'\n---\n", "new", Some("---\nname: 'new'\n---\n")),
            ("---\nname: Old\n---\n", "123", Some("---\nname: \"123\"\n---\n")),
            ("---\nname: Old # note\n---\n", "new", Some("---\nname: new # note\n---\n")),
            ("---\nname: \"a # b\"  # note\n---\n", "new", Some("---\nname: \"new\"  # note\n---\n")),
            ("---\nname: >-\n  Old\n---\n", "new", None),
        ];
        for (text, value, want) in cases {
            let d = doc(text);
            assert_eq!(applied(text, replace_value(&d, "name", value)).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn nested_values_are_found_below_their_parent() {
        let text = "---\nversion: 9\nmetadata:\n  author: Ann\n  version: 1.0\n  tags: [a]\n---\n";
        let d = doc(text);
        assert_eq!(d.plain_member_span("metadata", "version").map(|r| &text[r]), Some("1.0"));
        assert_eq!(d.plain_member_span("metadata", "tags"), None);
        assert_eq!(d.plain_member_span("metadata", "missing"), None);
    }

    #[test]
    fn a_field_spans_its_value_lines() {
        let text = "---\nname: a\ntags:\n- x\n\n  - y\nversion: 1\nlast: >\n  folded\n\n---\nbody\n";
        let d = doc(text);
        let lines = |key| d.entry_lines(key).map(|r| &text[r]);
        assert_eq!(lines("tags"), Some("tags:\n- x\n\n  - y\n"));
        assert_eq!(lines("version"), Some("version: 1\n"));
        assert_eq!(lines("last"), Some("last: >\n  folded\n"));
    }
}

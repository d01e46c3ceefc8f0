//! The Agent Skills specification's frontmatter rules, shared by the SKILL rules.

/// The fields the specification defines.
pub const SPEC_FIELDS: [&str; 6] = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

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
pub fn name_problems(name: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if name.is_empty() {
        return problems;
    }
    let length = name.chars().count();
    if length > NAME_MAX {
        problems.push(format!("is {length} characters long (at most {NAME_MAX})"));
    }
    let bad: Vec<char> = name.chars().filter(|c| !(*c == '-' || (c.is_alphanumeric() && !c.is_uppercase()))).collect();
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
    }
}

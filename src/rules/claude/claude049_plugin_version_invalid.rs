//! CLAUDE049: a plugin version that is not semantic versioning.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_value, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The `version` of a plugin manifest (or of a marketplace entry) is not a semantic version such as `1.2.0`.",
    why: "Claude Code compares plugin versions to decide when an installed plugin needs updating; the manifest \
          reference requires semantic versioning (`MAJOR.MINOR.PATCH`, optional `-prerelease` and `+build`). `v1.2`, \
          `1.0` or `latest` cannot be compared, so users may never receive updates. Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/plugin-structure/references/manifest-reference.md` \
          (\"version: semantic versioning\").",
    fails: Example { file: ".claude-plugin/plugin.json", text: "{\n  \"name\": \"review-helpers\",\n  \"version\": \"v1.2\"\n}\n" },
    passes: Example { file: ".claude-plugin/plugin.json", text: "{\n  \"name\": \"review-helpers\",\n  \"version\": \"1.2.0\"\n}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

/// `MAJOR.MINOR.PATCH` with optional `-pre` and `+build` (semver.org).
pub fn semver(v: &str) -> bool {
    let core = v.split(['-', '+']).next().unwrap_or("");
    let rest = &v[core.len()..];
    let parts: Vec<&str> = core.split('.').collect();
    let number = |p: &&str| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()) && (p.len() == 1 || !p.starts_with('0'));
    let suffix_ok = rest.is_empty() || (rest.len() > 1 && rest[1..].chars().all(|c| c.is_ascii_alphanumeric() || ".-+".contains(c)));
    parts.len() == 3 && parts.iter().all(number) && suffix_ok
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudePlugin, FileKind::ClaudeMarketplace]) {
        let Ok(value) = &*json else { continue };
        let mut versions: Vec<(Vec<Step>, &serde_json::Value)> = Vec::new();
        match doc.kind {
            FileKind::ClaudePlugin => versions.extend(value.get("version").map(|v| (vec![Step::Key("version")], v))),
            _ => {
                for (i, plugin) in value.get("plugins").and_then(|p| p.as_array()).into_iter().flatten().enumerate() {
                    versions.extend(plugin.get("version").map(|v| (vec![Step::Key("plugins"), Step::Index(i), Step::Key("version")], v)));
                }
            }
        }
        for (path, version) in versions {
            if version.as_str().is_some_and(semver) {
                continue;
            }
            let shown = version.as_str().map_or_else(|| version.to_string(), str::to_string);
            let d = Diagnostic::finding(format!("plugin version `{shown}` is not a semantic version"))
                .help("write `MAJOR.MINOR.PATCH` as a string, e.g. `\"1.2.0\"`");
            findings.push(at_value(d, doc, &path));
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        for ok in ["1.0.0", "0.1.0", "2.10.3-beta.1", "1.0.0+build.5"] {
            assert!(semver(ok), "{ok}");
        }
        for bad in ["v1.0.0", "1.0", "01.0.0", "latest", "1.0.0-", ""] {
            assert!(!semver(bad), "{bad}");
        }
    }
}

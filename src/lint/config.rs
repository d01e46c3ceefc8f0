//! Which rules run and how severe their findings are: `[lint]` in the manifest, and the
//! command-line options of `ctxc check` (`--select`, `--ignore`, `--strict`, `--deny-warnings`,
//! `--preview`).

use std::ops::Range;

use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Severity};
pub use crate::manifest::lint::{LintLevel, RawLint, SkillLevel};
use crate::manifest::span::Spanned;
use crate::rules;
use crate::rules::context::{Settings, DEFAULT_MEMORY_MAX_TOKENS};

/// Options of `ctxc check` that adjust linting.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--select`: replaces `[lint] select` when not empty.
    pub select: Vec<String>,
    /// `--ignore`: added to `[lint] ignore`.
    pub ignore: Vec<String>,
    /// `--strict`: strict Agent Skills validation.
    pub strict: bool,
    /// `--deny-warnings`: warnings fail the run (exit 1).
    pub deny_warnings: bool,
    /// `--changed-since` or `--files`: the files changed (canonical paths). Only the agents that load one of
    /// them are checked, and only findings in them are reported for files no agent loads.
    pub changed: Option<std::sync::Arc<std::collections::BTreeSet<std::path::PathBuf>>>,
    /// `--require-exact`: a Claude or Gemini render not counted from `ctxc.counts` is a finding.
    pub require_exact: bool,
    /// `--preview`: rules in preview run too (as `[lint] preview = true`).
    pub preview: bool,
    /// `--host-budget HOST=TOKENS`: budgets per host, replacing `.ctxc/hosts.toml`'s for the host.
    pub host_budgets: Vec<(String, u64)>,
}

impl Options {
    /// Whether a file (by display path) is one `--changed-since` keeps (every file without it).
    pub fn keeps(&self, display: &str) -> bool {
        self.changed.as_ref().is_none_or(|changed| std::fs::canonicalize(display).is_ok_and(|path| changed.contains(&path)))
    }
}

/// Which codes are reported, and at what severity.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    select: Option<Vec<String>>,
    ignore: Vec<String>,
    /// Severity overrides, longest pattern first.
    severity: Vec<(String, Severity)>,
    /// Whether rules in preview run.
    preview: bool,
}

/// Where `[lint]` was written, for pointing at unknown codes.
pub struct ManifestText<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

impl ManifestText<'_> {
    fn locate(&self, value: &Spanned<String>) -> Option<Range<usize>> {
        value.span.clone().or_else(|| crate::places::Values::of(self.text).written(&value.value))
    }
}

impl Selection {
    /// Builds the selection and settings from `[lint]` and the command line. Unknown codes are
    /// MAN012 errors: the input cannot be used as written.
    pub fn build(raw: &RawLint, options: &Options, manifest: Option<&ManifestText>) -> (Selection, Settings, Vec<Diagnostic>) {
        let mut problems = Vec::new();
        let mut known = |pattern: &Spanned<String>, what: &str, from_cli: bool| -> bool {
            if rules::is_known_selector(&pattern.value) {
                return true;
            }
            let mut d =
                Diagnostic::error(format!("{what} names `{}`, which is not a rule code or code prefix", pattern.value)).code(Code::MAN012);
            d = match rules::suggest(&pattern.value) {
                Some(s) => d.help(format!("did you mean `{s}`? (`ctxc rules` lists every code)")),
                None => d.help("`ctxc rules` lists every code"),
            };
            if let (false, Some(m)) = (from_cli, manifest) {
                d = d.in_file(m.file).at(m.locate(pattern)).label("unknown code");
            }
            problems.push(d);
            false
        };
        let cli = |values: &[String]| -> Vec<Spanned<String>> {
            values.iter().flat_map(|v| v.split(',')).map(str::trim).filter(|v| !v.is_empty()).map(|v| Spanned::new(v.to_string())).collect()
        };
        let select = if options.select.is_empty() {
            raw.select.as_ref().map(|s| s.iter().filter(|p| known(p, "[lint] select", false)).map(|p| p.value.clone()).collect())
        } else {
            Some(cli(&options.select).iter().filter(|p| known(p, "--select", true)).map(|p| p.value.clone()).collect())
        };
        let mut ignore: Vec<String> = raw.ignore.iter().filter(|p| known(p, "[lint] ignore", false)).map(|p| p.value.clone()).collect();
        ignore.extend(cli(&options.ignore).iter().filter(|p| known(p, "--ignore", true)).map(|p| p.value.clone()));
        let mut severity: Vec<(String, Severity)> = raw
            .severity
            .iter()
            .filter(|(pattern, _)| {
                let spanned = Spanned { value: (*pattern).clone(), span: None };
                known(&spanned, "[lint] severity", false)
            })
            .map(|(pattern, level)| {
                let severity = match level {
                    LintLevel::Error => Severity::Error,
                    LintLevel::Warning => Severity::Warning,
                };
                (pattern.clone(), severity)
            })
            .collect();
        severity.sort_by_key(|(pattern, _)| std::cmp::Reverse(pattern.len()));
        let settings = Settings {
            skills: if options.strict { SkillLevel::Strict } else { raw.skills.unwrap_or_default() },
            memory_max_tokens: raw.memory_max_tokens.unwrap_or(DEFAULT_MEMORY_MAX_TOKENS),
        };
        // The strict level makes unknown skill fields errors, unless `[lint] severity` says otherwise.
        if settings.skills == SkillLevel::Strict {
            severity.push((Code::SKILL011.as_str().to_string(), Severity::Error));
        }
        let preview = options.preview || raw.preview.unwrap_or(false);
        (Selection { select, ignore, severity, preview }, settings, problems)
    }

    /// Whether a finding with this code is reported: its rule is selected, not ignored, and
    /// stable unless preview is on.
    pub fn selects(&self, code: Code) -> bool {
        self.selects_rule(code, rules::rule(code).lifecycle)
    }

    fn selects_rule(&self, code: Code, lifecycle: rules::Lifecycle) -> bool {
        if !lifecycle.runs(self.preview) {
            return false;
        }
        let hit = |pattern: &String| pattern.eq_ignore_ascii_case("ALL") || rules::matches(pattern, code.as_str());
        self.select.as_ref().is_none_or(|s| s.iter().any(hit)) && !self.ignore.iter().any(hit)
    }

    /// The finding as reported: `None` when its rule is not selected, else with its severity
    /// adjusted. Findings without a code are always reported as they are.
    pub fn apply(&self, mut d: Diagnostic) -> Option<Diagnostic> {
        let Some(code) = d.code else { return Some(d) };
        if !self.selects(code) {
            return None;
        }
        if let Some((_, severity)) = self.severity.iter().find(|(pattern, _)| rules::matches(pattern, code.as_str())) {
            d.severity = *severity;
        }
        Some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spanned(values: &[&str]) -> Vec<Spanned<String>> {
        values.iter().map(|v| Spanned::new(v.to_string())).collect()
    }

    #[test]
    fn select_ignore_and_severity() {
        let raw = RawLint {
            select: Some(spanned(&["SKILL", "TOOL002"])),
            ignore: spanned(&["SKILL013"]),
            severity: [("SKILL".to_string(), LintLevel::Warning), ("SKILL004".to_string(), LintLevel::Error)].into_iter().collect(),
            ..RawLint::default()
        };
        let (selection, settings, problems) = Selection::build(&raw, &Options::default(), None);
        assert!(problems.is_empty());
        assert_eq!(settings.skills, SkillLevel::Lenient);
        assert!(selection.selects(Code::SKILL004) && selection.selects(Code::TOOL002));
        assert!(!selection.selects(Code::SKILL013) && !selection.selects(Code::TOOL003));
        let d = |code: Code| Diagnostic::error("x").code(code);
        assert_eq!(selection.apply(d(Code::SKILL005)).map(|d| d.severity), Some(Severity::Warning));
        assert_eq!(selection.apply(d(Code::SKILL004)).map(|d| d.severity), Some(Severity::Error));
        let cli = Options { select: vec!["TOOL".into()], ignore: vec!["TOOL003,TOOL004".into()], strict: true, ..Options::default() };
        let (selection, settings, _) = Selection::build(&raw, &cli, None);
        assert_eq!(settings.skills, SkillLevel::Strict);
        assert!(selection.selects(Code::TOOL005) && !selection.selects(Code::SKILL004) && !selection.selects(Code::TOOL004));
    }

    #[test]
    fn preview_rules_run_only_with_preview_on() {
        use crate::rules::Lifecycle::{Preview, Stable};
        let ignored = RawLint { ignore: spanned(&["SKILL004"]), ..RawLint::default() };
        let on_the_command_line = Options { preview: true, ..Options::default() };
        let in_the_manifest = RawLint { preview: Some(true), ..ignored.clone() };
        let (off, _, _) = Selection::build(&ignored, &Options::default(), None);
        let (cli, _, _) = Selection::build(&ignored, &on_the_command_line, None);
        let (manifest, _, _) = Selection::build(&in_the_manifest, &Options::default(), None);
        assert!(off.selects_rule(Code::SKILL005, Stable) && !off.selects_rule(Code::SKILL005, Preview));
        for on in [cli, manifest] {
            assert!(on.selects_rule(Code::SKILL005, Preview) && on.selects_rule(Code::SKILL005, Stable));
            assert!(!on.selects_rule(Code::SKILL004, Preview), "an ignored rule stays ignored");
        }
    }

    #[test]
    fn unknown_codes_are_reported_with_a_suggestion() {
        let raw = RawLint { ignore: spanned(&["SKIL004"]), ..RawLint::default() };
        let (_, _, problems) = Selection::build(&raw, &Options { select: vec!["NOPE1".into()], ..Options::default() }, None);
        assert_eq!(problems.len(), 2);
        assert!(problems.iter().all(|d| d.code == Some(Code::MAN012)));
        assert!(problems.iter().any(|d| d.help.as_deref().is_some_and(|h| h.contains("SKILL004"))), "{problems:?}");
    }
}

//! The autofix engine behind `ctxc check --fix` and `--diff`: the edits of the findings' fixes,
//! grouped by file and applied back to front. Edits that overlap one already taken are skipped
//! (the first one wins, as in ruff); the next round of [`fix`] picks them up when the check still
//! reports them. The library never writes: the caller passes how to read and write a file.

use std::collections::BTreeMap;

use crate::codes::Code;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Sources};

use super::CheckReport;

/// How many times [`fix`] checks and fixes before it stops (a fix that uncovers another finding
/// is fixed in the next round).
pub const MAX_ROUNDS: usize = 5;

/// One fix applied (or skipped): the finding's code, file and the fix's title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub code: Option<Code>,
    pub file: String,
    pub title: String,
    /// The files its edits change.
    pub edits: Vec<String>,
}

/// The fixes of one set of findings, applied to the files' texts in memory.
#[derive(Debug, Default)]
pub struct Round {
    /// The new text of every file a fix changed, by display path.
    pub texts: BTreeMap<String, String>,
    /// The text each changed file had before.
    pub before: BTreeMap<String, String>,
    pub fixed: Vec<Applied>,
    /// Fixes not applied because an edit overlaps one taken before, or no longer fits the file.
    pub skipped: Vec<Applied>,
}

/// Whether a finding's fix is applied: safe fixes always, unsafe ones only when asked for.
pub fn applies(d: &Diagnostic, unsafe_fixes: bool) -> bool {
    d.fix.as_ref().is_some_and(|f| !f.edits.is_empty() && (f.applicability == Applicability::Safe || unsafe_fixes))
}

/// Applies the fixes of `findings` to the texts `read` returns (the files as they are on disk:
/// the report's sources have secrets masked). A fix is taken whole or not at all.
pub fn plan(findings: &[Diagnostic], unsafe_fixes: bool, mut read: impl FnMut(&str) -> Option<String>) -> Round {
    let mut round = Round::default();
    // The edits taken so far, per file.
    let mut taken: BTreeMap<String, Vec<&Edit>> = BTreeMap::new();
    for d in findings.iter().filter(|d| applies(d, unsafe_fixes)) {
        let Some(fix) = &d.fix else { continue };
        let mut edited: Vec<String> = fix.edits.iter().map(|e| e.file.clone()).collect();
        edited.sort();
        edited.dedup();
        let applied = Applied { code: d.code, file: d.file.clone().unwrap_or_default(), title: fix.title.clone(), edits: edited };
        for edit in &fix.edits {
            if !round.before.contains_key(&edit.file) {
                if let Some(text) = read(&edit.file) {
                    round.before.insert(edit.file.clone(), text);
                }
            }
        }
        let fits = |e: &Edit| {
            round.before.get(&e.file).is_some_and(|t| {
                e.span.start <= e.span.end && e.span.end <= t.len() && t.is_char_boundary(e.span.start) && t.is_char_boundary(e.span.end)
            })
        };
        let same_file = |a: &Edit, b: &Edit| a.file == b.file && overlap(&a.span, &b.span);
        let clash = fix.edits.iter().enumerate().any(|(i, e)| {
            !fits(e)
                || taken.get(&e.file).is_some_and(|t| t.iter().any(|o| same_file(o, e)))
                || fix.edits[..i].iter().any(|o| same_file(o, e))
        });
        if clash {
            round.skipped.push(applied);
            continue;
        }
        for edit in &fix.edits {
            taken.entry(edit.file.clone()).or_default().push(edit);
        }
        round.fixed.push(applied);
    }
    for (file, mut edits) in taken {
        let mut text = round.before[&file].clone();
        // Back to front, so the spans of the edits still to apply stay valid.
        edits.sort_by_key(|e| std::cmp::Reverse((e.span.start, e.span.end)));
        for edit in edits {
            text.replace_range(edit.span.clone(), &edit.replacement);
        }
        if text != round.before[&file] {
            round.texts.insert(file, text);
        }
    }
    round.before.retain(|file, _| round.texts.contains_key(file));
    round
}

/// Two edits overlap when their ranges share a byte, or both insert at the same place (their
/// order would be a guess).
fn overlap(a: &std::ops::Range<usize>, b: &std::ops::Range<usize>) -> bool {
    (a.start < b.end && b.start < a.end) || (a.start == b.start && (a.is_empty() || b.is_empty()))
}

/// What [`fix`] did.
#[derive(Debug, Default)]
pub struct Fixing {
    /// The check after the last round: what remains.
    pub report: CheckReport,
    pub fixed: Vec<Applied>,
    /// Fixes still reported after the last round but not applied (overlapping edits).
    pub skipped: Vec<Applied>,
    /// Files that could not be written, with why.
    pub failed: Vec<(String, String)>,
}

/// Checks, applies the fixes, writes the files, and checks again, until no fix applies or after
/// [`MAX_ROUNDS`] rounds. `read` and `write` take display paths (`read` also the sources of the
/// check the fixes come from); a file `write` refuses is reported in [`Fixing::failed`] and not
/// tried again.
pub fn fix(
    mut check: impl FnMut() -> CheckReport,
    unsafe_fixes: bool,
    mut read: impl FnMut(&str, &Sources) -> Option<String>,
    mut write: impl FnMut(&str, &str) -> Result<(), String>,
) -> Fixing {
    let mut fixing = Fixing { report: check(), ..Fixing::default() };
    for _ in 0..MAX_ROUNDS {
        if fixing.report.unloadable {
            break;
        }
        let refused: Vec<&String> = fixing.failed.iter().map(|(file, _)| file).collect();
        let findings: Vec<Diagnostic> = fixing
            .report
            .diagnostics
            .iter()
            .filter(|d| d.fix.as_ref().is_some_and(|f| f.edits.iter().all(|e| !refused.contains(&&e.file))))
            .cloned()
            .collect();
        let sources = &fixing.report.sources;
        let round = plan(&findings, unsafe_fixes, |file| read(file, sources));
        fixing.skipped = round.skipped;
        if round.texts.is_empty() {
            break;
        }
        let mut written = Vec::new();
        for (file, text) in &round.texts {
            match write(file, text) {
                Ok(()) => written.push(file.clone()),
                Err(why) => fixing.failed.push((file.clone(), why)),
            }
        }
        // A fix counts when every file it changes was written.
        let done = |a: &Applied| a.edits.iter().all(|f| written.contains(f) || !round.texts.contains_key(f));
        fixing.fixed.extend(round.fixed.into_iter().filter(done));
        if written.is_empty() {
            break;
        }
        fixing.report = check();
    }
    // Skipped fixes whose findings are gone were overtaken by the fixes applied.
    let remaining = |a: &Applied| fixing.report.diagnostics.iter().any(|d| d.code == a.code && d.file.as_deref() == Some(&a.file));
    fixing.skipped.retain(|a| remaining(a));
    fixing
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Fix;

    fn finding(fix: Fix) -> Diagnostic {
        Diagnostic::error("x").in_file("a.md").fix(fix)
    }

    fn edit(span: std::ops::Range<usize>, text: &str) -> Edit {
        Edit::replace("a.md", span, text)
    }

    #[test]
    fn edits_apply_back_to_front_and_overlapping_ones_are_skipped() {
        let findings = [
            finding(Fix::safe("upper b", vec![edit(2..3, "B")])),
            finding(Fix::safe("upper a and d", vec![edit(0..1, "A"), edit(6..7, "D")])),
            finding(Fix::safe("overlaps b", vec![edit(1..3, "xx")])),
            finding(Fix::unsafe_("drop c", vec![edit(4..5, "")])),
        ];
        let round = plan(&findings, false, |_| Some("a b c d".to_string()));
        assert_eq!(round.texts["a.md"], "A B c D");
        assert_eq!(round.before["a.md"], "a b c d");
        let titles = |v: &[Applied]| v.iter().map(|a| a.title.clone()).collect::<Vec<_>>();
        assert_eq!(titles(&round.fixed), ["upper b", "upper a and d"]);
        assert_eq!(titles(&round.skipped), ["overlaps b"]);

        let round = plan(&findings, true, |_| Some("a b c d".to_string()));
        assert_eq!(round.texts["a.md"], "A B  D");
    }

    #[test]
    fn an_edit_that_no_longer_fits_the_file_is_skipped() {
        let findings =
            [finding(Fix::safe("past the end", vec![edit(5..9, "x")])), finding(Fix::safe("inside a char", vec![edit(1..2, "x")]))];
        let round = plan(&findings, false, |_| Some("é".to_string()));
        assert!(round.texts.is_empty() && round.fixed.is_empty());
        assert_eq!(round.skipped.len(), 2);
    }

    #[test]
    fn two_insertions_at_one_place_are_one_too_many() {
        let findings = [finding(Fix::safe("one", vec![edit(1..1, "x")])), finding(Fix::safe("two", vec![edit(1..1, "y")]))];
        let round = plan(&findings, false, |_| Some("ab".to_string()));
        assert_eq!(round.texts["a.md"], "axb");
        assert_eq!(round.skipped.len(), 1);
    }
}

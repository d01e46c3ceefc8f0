//! `ctxc check --baseline FILE`: adopting ctxc in a repository that already has findings.
//! `--update-baseline` records today's findings in FILE; later runs report only the findings that
//! are not in it. A finding is recorded by a fingerprint of its code, its file (relative to the
//! baseline's folder, with `/`) and the text it points at with runs of whitespace made one space,
//! never its line or column: it survives lines moved above it, re-indentation and another checkout
//! folder or machine. A finding without a place in a file is fingerprinted by its message, and so
//! is a budget finding beside its place: its message holds the token count, so an overrun that
//! changes (grows by one token) is a new finding. Findings with the same fingerprint are counted,
//! so a second copy of a recorded finding is new.
//!
//! The file is written by whoever opens a pull request: an entry matches only a finding of its
//! own recorded code and file (a fingerprint copied under a harmless code hides nothing), and a
//! finding on a secret is never recorded nor matched: a committed key is reported until removed.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::diagnostic::{Diagnostic, Sources};
use crate::lint::check::CheckReport;

/// The format's version, written in the file and checked when it is read.
const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    ctxc_baseline: u32,
    findings: Vec<Entry>,
}

/// One recorded finding. `code`, `file` and `fingerprint` must all match a finding; `message`
/// is for the people who review the file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    message: String,
    fingerprint: String,
}

/// What an entry matches: its code, its file (relative to the baseline's folder) and its fingerprint.
type Key = (String, Option<String>, String);

/// Recorded findings: how many of each key.
#[derive(Debug, Default)]
pub struct Baseline {
    counts: BTreeMap<Key, usize>,
}

impl Baseline {
    /// Reads a baseline written by [`render`]; the error names the file, line and column.
    pub fn parse(path: &Path, text: &str) -> Result<Baseline, String> {
        let mut counts = BTreeMap::new();
        for entry in read(path, text)?.findings {
            *counts.entry((entry.code, entry.file, entry.fingerprint)).or_default() += 1;
        }
        Ok(Baseline { counts })
    }

    /// Removes from the report the findings the baseline records (each recorded one once) and
    /// returns how many it removed. Load errors (no code) and findings on secrets are never
    /// baselined. `root` is the baseline's folder, canonical.
    pub fn apply(mut self, report: &mut CheckReport, root: &Path) -> usize {
        let before = report.diagnostics.len();
        let files = relative_files(report, root);
        let sources = &report.sources;
        report.diagnostics.retain(|d| {
            let Some(key) = key(d, sources, &files) else { return true };
            !take(&mut self.counts, &key)
        });
        before - report.diagnostics.len()
    }
}

/// A recorded finding, as the baseline file says it (for people: `ctxc diff --baseline`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Recorded {
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub message: String,
}

/// The entries a change adds to a baseline and those it removes (an entry recorded twice and
/// once more counts once).
#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct Changes {
    pub added: Vec<Recorded>,
    pub removed: Vec<Recorded>,
}

/// What changed between two versions of a baseline file (`None`: no file), sorted by file and
/// code; the error names the file (`shown` for each side) where it is not a baseline.
pub fn changes(before: Option<(&str, &Path)>, after: Option<(&str, &Path)>) -> Result<Changes, String> {
    let entries = |side: Option<(&str, &Path)>| -> Result<Vec<Entry>, String> {
        let Some((text, shown)) = side else { return Ok(Vec::new()) };
        Ok(read(shown, text)?.findings)
    };
    let (before, after) = (entries(before)?, entries(after)?);
    let only_in = |these: &[Entry], others: &[Entry]| -> Vec<Recorded> {
        let mut left: BTreeMap<Key, usize> = BTreeMap::new();
        for entry in others {
            *left.entry((entry.code.clone(), entry.file.clone(), entry.fingerprint.clone())).or_default() += 1;
        }
        let mut only: Vec<Recorded> = these
            .iter()
            .filter(|entry| !take(&mut left, &(entry.code.clone(), entry.file.clone(), entry.fingerprint.clone())))
            .map(|entry| Recorded { code: entry.code.clone(), file: entry.file.clone(), message: entry.message.clone() })
            .collect();
        only.sort_by(|a, b| (&a.file, &a.code, &a.message).cmp(&(&b.file, &b.code, &b.message)));
        only
    };
    Ok(Changes { added: only_in(&after, &before), removed: only_in(&before, &after) })
}

/// Takes one of `key` from `counts`: whether there was one left (each entry stands for one finding).
fn take(counts: &mut BTreeMap<Key, usize>, key: &Key) -> bool {
    match counts.get_mut(key) {
        Some(count) if *count > 0 => {
            *count -= 1;
            true
        }
        _ => false,
    }
}

/// A baseline file's text, read; the error names the file, line and column.
fn read(path: &Path, text: &str) -> Result<File, String> {
    let file: File =
        serde_json::from_str(text).map_err(|e| format!("{}:{}:{}: not a ctxc baseline: {e}", path.display(), e.line(), e.column()))?;
    if file.ctxc_baseline != VERSION {
        return Err(format!("{}: a baseline of version {}; this ctxc reads version {VERSION}", path.display(), file.ctxc_baseline));
    }
    Ok(file)
}

/// What [`render`] wrote: the file's text, and how many findings on secrets it left out.
#[derive(Debug)]
pub struct Rendered {
    pub text: String,
    pub secrets_left_out: usize,
}

/// The baseline recording every finding of the report but those on secrets (sorted, so the
/// file changes only where the findings do); `root` is the baseline's folder, canonical.
pub fn render(report: &CheckReport, root: &Path) -> Rendered {
    let files = relative_files(report, root);
    let mut findings: Vec<Entry> = report
        .diagnostics
        .iter()
        .filter_map(|d| {
            let (code, file, fingerprint) = key(d, &report.sources, &files)?;
            Some(Entry { code, file, message: d.message.clone(), fingerprint })
        })
        .collect();
    let secrets_left_out = report.diagnostics.iter().filter(|d| d.code.is_some() && on_a_secret(d)).count();
    findings.sort_by(|a, b| (&a.file, &a.code, &a.fingerprint, &a.message).cmp(&(&b.file, &b.code, &b.fingerprint, &b.message)));
    let file = File { ctxc_baseline: VERSION, findings };
    // Serializing plain strings and numbers cannot fail.
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
    text.push('\n');
    Rendered { text, secrets_left_out }
}

/// Whether a finding is on a secret (a SEC rule's key, or any finding that redacts its text):
/// such a finding is fixed by removing the secret, never recorded.
fn on_a_secret(d: &Diagnostic) -> bool {
    use crate::codes::Code::*;
    d.redact || matches!(d.code, Some(SEC001 | SEC002 | SEC003 | SEC004 | SEC005 | SEC006))
}

/// A finding's key: its code, its file relative to the baseline's folder and its fingerprint
/// (16 bytes of SHA-256, in hex); `None` for a load error or a finding on a secret.
fn key(d: &Diagnostic, sources: &Sources, files: &HashMap<String, String>) -> Option<Key> {
    let code = d.code.filter(|_| !on_a_secret(d))?;
    let file = d.file.as_deref().and_then(|f| files.get(f)).cloned();
    let mut hash = Sha256::new();
    hash.update(code.as_str());
    hash.update([0u8]);
    hash.update(file.as_deref().unwrap_or_default());
    hash.update([0u8]);
    let pointed = match (d.file.as_deref(), &d.span) {
        (Some(file), Some(span)) => sources.excerpt(file, span.clone()),
        _ => None,
    };
    let pointed = pointed.filter(|text| !text.trim().is_empty());
    if let Some(text) = &pointed {
        hash.update(text.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    // A budget finding points at the budget line, which stays put while the overrun grows: its
    // message, which holds the count, is hashed too.
    let budget = matches!(crate::rules::rule(code).definition.stage, crate::rules::Stage::Budgets);
    if pointed.is_none() || budget {
        hash.update(&d.message);
    }
    let fingerprint = hash.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect();
    Some((code.as_str().to_string(), file, fingerprint))
}

/// Each file the report's findings name, relative to the baseline's folder (`root`): resolved
/// once per file, not once per finding.
fn relative_files(report: &CheckReport, root: &Path) -> HashMap<String, String> {
    let mut files = HashMap::new();
    for file in report.diagnostics.iter().filter_map(|d| d.file.as_ref()) {
        if !files.contains_key(file) {
            files.insert(file.clone(), relative(file, root));
        }
    }
    files
}

/// A display path relative to the baseline's folder (`root`, canonical), with `/`, when it is
/// inside it.
fn relative(file: &str, root: &Path) -> String {
    let inside = std::fs::canonicalize(file).ok().and_then(|file| {
        let inside = file.strip_prefix(root).ok()?;
        Some(inside.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"))
    });
    inside.unwrap_or_else(|| file.replace('\\', "/"))
}

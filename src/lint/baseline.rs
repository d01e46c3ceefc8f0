//! `ctxc check --baseline FILE`: adopting ctxc in a repository that already has findings.
//! `--update-baseline` records today's findings in FILE; later runs report only the findings that
//! are not in it. A finding is recorded by a fingerprint of its code, its file (relative to the
//! baseline's folder, with `/`) and the text it points at with runs of whitespace made one space,
//! never its line or column: it survives lines moved above it, re-indentation and another checkout
//! folder or machine. A finding without a place in a file is fingerprinted by its message.
//! Findings with the same fingerprint are counted, so a second copy of a recorded finding is new.

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

/// One recorded finding. Only `fingerprint` is compared; the rest is for the people who review
/// the file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    message: String,
    fingerprint: String,
}

/// Recorded findings: how many of each fingerprint.
#[derive(Debug, Default)]
pub struct Baseline {
    counts: BTreeMap<String, usize>,
}

impl Baseline {
    /// Reads a baseline written by [`render`]; the error names the file, line and column.
    pub fn parse(path: &Path, text: &str) -> Result<Baseline, String> {
        let file: File =
            serde_json::from_str(text).map_err(|e| format!("{}:{}:{}: not a ctxc baseline: {e}", path.display(), e.line(), e.column()))?;
        if file.ctxc_baseline != VERSION {
            return Err(format!("{}: a baseline of version {}; this ctxc reads version {VERSION}", path.display(), file.ctxc_baseline));
        }
        let mut counts = BTreeMap::new();
        for entry in file.findings {
            *counts.entry(entry.fingerprint).or_default() += 1;
        }
        Ok(Baseline { counts })
    }

    /// Removes from the report the findings the baseline records (each recorded one once) and
    /// returns how many it removed. Load errors (no code) are never baselined. `root` is the
    /// baseline's folder, canonical.
    pub fn apply(mut self, report: &mut CheckReport, root: &Path) -> usize {
        let before = report.diagnostics.len();
        let files = relative_files(report, root);
        let sources = &report.sources;
        report.diagnostics.retain(|d| {
            if d.code.is_none() {
                return true;
            }
            match self.counts.get_mut(&fingerprint(d, sources, &files)) {
                Some(count) if *count > 0 => {
                    *count -= 1;
                    false
                }
                _ => true,
            }
        });
        before - report.diagnostics.len()
    }
}

/// The baseline recording every finding of the report (sorted, so the file changes only where
/// the findings do); `root` is the baseline's folder, canonical.
pub fn render(report: &CheckReport, root: &Path) -> String {
    let files = relative_files(report, root);
    let mut findings: Vec<Entry> = report
        .diagnostics
        .iter()
        .filter_map(|d| {
            let code = d.code?;
            Some(Entry {
                code: code.as_str().to_string(),
                file: d.file.as_ref().and_then(|file| files.get(file).cloned()),
                message: d.message.clone(),
                fingerprint: fingerprint(d, &report.sources, &files),
            })
        })
        .collect();
    findings.sort_by(|a, b| (&a.file, &a.code, &a.fingerprint, &a.message).cmp(&(&b.file, &b.code, &b.fingerprint, &b.message)));
    let file = File { ctxc_baseline: VERSION, findings };
    // Serializing plain strings and numbers cannot fail.
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
    text.push('\n');
    text
}

/// A finding's fingerprint: 16 bytes of SHA-256, in hex.
fn fingerprint(d: &Diagnostic, sources: &Sources, files: &HashMap<String, String>) -> String {
    let mut hash = Sha256::new();
    hash.update(d.code.map(|c| c.as_str()).unwrap_or_default());
    hash.update([0u8]);
    let file = d.file.as_deref();
    hash.update(file.and_then(|f| files.get(f)).map_or("", String::as_str));
    hash.update([0u8]);
    // A secret's text is not hashed into a file others read: its message stands for it.
    let pointed = match (file, &d.span) {
        (Some(file), Some(span)) if !d.redact => sources.excerpt(file, span.clone()),
        _ => None,
    };
    match pointed.filter(|text| !text.trim().is_empty()) {
        Some(text) => hash.update(text.split_whitespace().collect::<Vec<_>>().join(" ")),
        None => hash.update(&d.message),
    }
    hash.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect()
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

//! `ctxc check --format sarif`: a SARIF 2.1.0 log with one run. `tool.driver.rules` is the
//! whole rule registry (with help text); each coded finding is a result with its rule, level,
//! repository-relative location, region and a `partialFingerprints` entry that survives edits
//! elsewhere in the file. Findings without a code (usage errors) are tool notifications.

use serde_json::{json, Value};

use super::{fnv1a, region_at, Paths};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::check::{CheckReport, Outcome};
use crate::rules::{self, docs, secrets, Code, Rule};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The `uriBaseId` of every location: the repository root (or the working directory).
pub const BASE: &str = "SRCROOT";
/// Key of ctxc's fingerprint in `partialFingerprints`.
pub const FINGERPRINT: &str = "ctxc/v1";

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// Where a rule's documentation lives on the web, when the package names its repository.
fn help_uri(rule: &Rule) -> Option<String> {
    let repository = env!("CARGO_PKG_REPOSITORY").trim_end_matches('/');
    (!repository.is_empty()).then(|| format!("{repository}/blob/v{}/docs/rules.md#{}", env!("CARGO_PKG_VERSION"), docs::anchor(rule)))
}

fn descriptor(rule: &Rule) -> Value {
    let mut help_text = format!("{}\n\nWhy it matters: {}", rule.summary, rule.why.trim());
    help_text.push_str(&format!("\n\nRun `ctxc explain {}` for examples.", rule.code));
    let mut d = json!({
        "id": rule.code,
        "name": rule.name,
        "shortDescription": { "text": rule.summary },
        "fullDescription": { "text": format!("{} {}", rule.summary, rule.stage.describe()) },
        "help": { "text": help_text, "markdown": docs::rule_markdown(rule, 2) },
        "defaultConfiguration": { "level": level(rule.severity) },
        "properties": { "family": rule.family.name(), "tags": [rule.family.name()] },
    });
    if let Some(uri) = help_uri(rule) {
        d["helpUri"] = json!(uri);
    }
    d
}

/// The SARIF location of `span` in `file`: a finding's, or one of its related places.
fn location(file: &str, span: Option<&std::ops::Range<usize>>, report: &CheckReport, paths: &Paths) -> Value {
    let mut physical = json!({ "artifactLocation": { "uri": uri_encode(&secrets::mask(&paths.relative(file))), "uriBaseId": BASE } });
    if let Some(r) = span.and_then(|span| region_at(file, span, &report.sources)) {
        physical["region"] =
            json!({ "startLine": r.start_line, "startColumn": r.start_column, "endLine": r.end_line, "endColumn": r.end_column });
    }
    json!({ "physicalLocation": physical })
}

/// Fingerprints already made, by rule, file and the start of the flagged line.
type Fingerprints<'a> = std::collections::HashMap<(Code, &'a str, usize), String>;

fn result<'a>(d: &'a Diagnostic, code: Code, report: &CheckReport, paths: &Paths, fingerprints: &mut Fingerprints<'a>) -> Value {
    let index = rules::ALL.iter().position(|r| r.code == code);
    let mut text = d.message.clone();
    if let Some(help) = &d.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    let uri = d.file.as_deref().map(|f| secrets::mask(&paths.relative(f)).into_owned()).unwrap_or_default();
    // Stable across edits elsewhere: the rule, the file and the text of the flagged line (or,
    // without a line, the message with its numbers left out). The findings of one rule on one
    // line share it, made once: a minified file's one line can hold thousands of findings.
    let sources = &report.sources;
    let line = d.file.as_deref().zip(d.span.as_ref()).and_then(|(file, span)| Some((file, sources.line_range(file, span.start)?)));
    let fingerprint = match line {
        Some((file, line)) => fingerprints
            .entry((code, file, line.start))
            .or_insert_with(|| fnv1a(&[code.as_str(), &uri, sources.excerpt(file, line).unwrap_or_default().trim()]))
            .clone(),
        None => fnv1a(&[code.as_str(), &uri, &d.message.chars().filter(|c| !c.is_ascii_digit()).collect::<String>()]),
    };
    let mut r = json!({
        "ruleId": code,
        "level": level(d.severity),
        "message": { "text": text },
        "partialFingerprints": { FINGERPRINT: fingerprint },
    });
    if let Some(i) = index {
        r["ruleIndex"] = json!(i);
    }
    if let Some(file) = &d.file {
        r["locations"] = json!([location(file, d.span.as_ref(), report, paths)]);
    }
    // The other places of a grouped finding (the same unknown key in more files).
    let related: Vec<Value> = d
        .related
        .iter()
        .map(|place| {
            let mut loc = location(&place.file, place.span.as_ref(), report, paths);
            loc["message"] = json!({ "text": place.message });
            loc
        })
        .collect();
    if !related.is_empty() {
        r["relatedLocations"] = json!(related);
    }
    r
}

pub fn render(report: &CheckReport, paths: &Paths) -> String {
    let rules: Vec<Value> = rules::ALL.iter().map(descriptor).collect();
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    let mut fingerprints = Fingerprints::new();
    for d in &report.diagnostics {
        match &d.code {
            Some(code) => results.push(result(d, *code, report, paths, &mut fingerprints)),
            None => {
                let mut n = json!({ "level": level(d.severity), "message": { "text": d.message } });
                if let Some(file) = &d.file {
                    n["locations"] = json!([location(file, d.span.as_ref(), report, paths)]);
                }
                notifications.push(n);
            }
        }
    }
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "ctxc",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            } },
            "invocations": [{
                "executionSuccessful": report.outcome() != Outcome::Unloadable,
                "toolExecutionNotifications": notifications,
            }],
            "originalUriBaseIds": { BASE: { "description": { "text": "The repository root (the working directory outside a git repository)." } } },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    crate::report::escape::json_text(&log)
}

/// Percent-encodes what may not appear in a relative URI reference.
fn uri_encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b'@'
            | b'+'
            | b'='
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b','
            | b';'
            | b':' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_uris() {
        assert_eq!(uri_encode("skills/my skill/SKILL.md"), "skills/my%20skill/SKILL.md");
        assert_eq!(uri_encode("a/ü.md"), "a/%C3%BC.md");
    }
}

//! Conformance with the Agent Skills reference validator (`skills-ref`, agentskills/agentskills
//! @ 69ef37e9, tests in `skills-ref/tests/test_validator.py` and `test_parser.py`): each of its
//! 36 test cases recreated as a folder under `tests/fixtures/skills-ref/`, with a `verdict` file
//! (the reference's verdict, the path to check, the codes and exit code ctxc gives, and — where
//! ctxc deliberately differs — why). ctxc "agrees" when its exit code says the same as the
//! reference: 0 for a valid skill, non-zero for an invalid one. The agreement figures are the
//! ones docs/lint.md states ("Conformance with skills-ref").

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use ctxc::lint::{Options, Outcome};

struct Verdict {
    fields: BTreeMap<String, String>,
}

impl Verdict {
    fn read(dir: &Path) -> Verdict {
        let text = std::fs::read_to_string(dir.join("verdict")).expect("verdict file");
        let fields = text
            .lines()
            .map(|line| line.split_once(": ").or_else(|| line.strip_suffix(':').map(|k| (k, ""))).expect("`key: value` lines"))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Verdict { fields }
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(String::as_str)
    }

    fn exit(&self, key: &str) -> Option<u8> {
        self.get(key).map(|v| v.parse().expect("an exit code"))
    }
}

fn exit_code(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Clean => 0,
        Outcome::Findings => 1,
        Outcome::Unloadable => 2,
    }
}

#[test]
fn ctxc_agrees_with_the_reference_validator_except_where_documented() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/skills-ref");
    let mut cases: Vec<_> = std::fs::read_dir(&base).expect("cases").flatten().map(|e| e.path()).collect();
    cases.sort();
    assert_eq!(cases.len(), 36, "the reference has 36 validation and parsing test cases");
    let session = ctxc::Session::default();
    let (mut agree, mut agree_strict) = (0, 0);
    for case in &cases {
        let name = case.file_name().expect("name").to_string_lossy().into_owned();
        let verdict = Verdict::read(case);
        // A copy, so that a case can add a file git cannot hold on every file system.
        let work = tempfile::tempdir().expect("tempdir");
        common::copy_tree(case, work.path());
        if let Some((rel, text)) = verdict.get("write").and_then(|w| w.split_once('=')) {
            std::fs::write(work.path().join(rel), text).expect("write");
        }
        let path = work.path().join(verdict.get("path").expect("path"));
        let default = ctxc::lint::check(&path, &Options::default(), &session);
        let strict = ctxc::lint::check(&path, &Options { strict: true, ..Options::default() }, &session);

        let reported: Vec<String> = default.diagnostics.iter().filter_map(|d| d.code).map(|c| c.to_string()).collect();
        for code in verdict.get("codes").unwrap_or_default().split_whitespace() {
            assert!(reported.iter().any(|r| r == code), "{name}: ctxc does not report {code}: {:?}", default.diagnostics);
        }
        let exit = verdict.exit("exit").expect("exit");
        let strict_exit = verdict.exit("strict-exit").unwrap_or(exit);
        assert_eq!(exit_code(default.outcome()), exit, "{name}: {:?}", default.diagnostics);
        assert_eq!(exit_code(strict.outcome()), strict_exit, "{name} (--strict): {:?}", strict.diagnostics);

        let valid = match verdict.get("reference") {
            Some("valid") => true,
            Some("invalid") => false,
            other => panic!("{name}: reference verdict {other:?}"),
        };
        let agrees = (exit == 0) == valid;
        agree += usize::from(agrees);
        agree_strict += usize::from((strict_exit == 0) == valid);
        assert_eq!(verdict.get("differs").is_some(), !agrees, "{name}: `differs:` explains every difference, and only them");
    }
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lint.md")).expect("docs/lint.md");
    let figure = format!("**{agree} of 36** test cases (**{agree_strict} of 36** with `--strict`)");
    assert!(docs.contains(&figure), "docs/lint.md must state the agreement: {figure}");
}

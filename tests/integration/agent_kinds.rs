//! Agent files of several products in one repository, checked zero-config through the binary
//! (Cursor, Copilot, OpenHands, Gemini CLI and a Codex AGENTS.md chain over its 32 KiB budget),
//! and the fixes the CURSOR, COPILOT, GEMINI, OPENHANDS and CODEX rules attach: applied to
//! their failing fixtures, each gives the expected text and its finding disappears.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{copy_tree, project};
use ctxc::diagnostic::Applicability;
use ctxc::lint::Options;
use ctxc::rules::Code;

/// `lines` lines of AGENTS.md guidance, 50 bytes each.
fn guide(first: usize, lines: usize) -> String {
    (first..first + lines).map(|i| format!("- Rule {i:06}: keep this module small and tested.\n")).collect()
}

#[test]
fn one_repository_with_many_kinds_of_agent_file() {
    let root = guide(0, 400); // 20,000 bytes
    let package = guide(400, 300); // 15,000 bytes: the chain crosses 32,768 bytes in this file
    assert_eq!((root.len(), package.len()), (20_000, 15_000));
    let dir = project(&[
        (
            ".cursor/rules/web.mdc",
            "---\ndescription: Conventions for the web front end\nglobs: src/**/*.ts\nalwaysApply: \"false\"\n---\nUse ES modules.\n",
        ),
        (".github/copilot-instructions.md", "Run `cargo test` before proposing a change.\n"),
        (".github/instructions/python.instructions.md", "---\ndescription: Python conventions\n---\nUse type hints.\n"),
        (".openhands/microagents/docker.md", "---\nname: docker\ntype: knowledge\n---\nUse multi-stage builds.\n"),
        (".gemini/settings.json", "{\n  \"mcpServers\": { \"db\": { \"command\": \"db-mcp\", \"timeout\": 30 } }\n}\n"),
        ("GEMINI.md", "Project notes for Gemini.\n"),
        ("AGENTS.md", &root),
        ("pkg/AGENTS.md", &package),
        ("pkg/api/AGENTS.md", "Validate every request body.\n"),
    ]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["check", "--format", "concise", "."])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("ctxc runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let expected = "\
.cursor/rules/web.mdc:4:14: CURSOR004 `alwaysApply` is `\"false\"`, not a boolean
.openhands/microagents/docker.md:3:7: OPENHANDS003 `type: knowledge` is not what OpenHands loads: it has no `triggers`, so OpenHands loads it as an always-on repo microagent
pkg/AGENTS.md:256:19: CODEX001 Codex reads only the first 12,768 of this file's 15,000 bytes: the AGENTS.md chain is 35,000 bytes here, over the 32,768-byte budget (20,000 in the files above it)
.gemini/settings.json:2:48: GEMINI008 [warning] MCP server `db` has `timeout: 30`, which is milliseconds
.github/instructions/python.instructions.md:1:1: COPILOT004 [warning] .github/instructions/python.instructions.md has no `applyTo`: Copilot never attaches it automatically
";
    assert_eq!(stdout, expected, "stderr: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "errors found");

    // The same check in JSON names the nested file Codex then never reads.
    let json = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["check", "--format", "json", "."])
        .current_dir(dir.path())
        .output()
        .expect("ctxc runs");
    let text = String::from_utf8_lossy(&json.stdout);
    assert!(text.contains("Codex cuts the file at line 256 and drops the last 2,232 bytes; it never reads `pkg/api/AGENTS.md`"), "{text}");
}

#[test]
fn a_lone_agents_md_over_the_budget_fails_and_one_under_it_passes() {
    let over = project(&[("AGENTS.md", &guide(0, 692))]); // 34,600 bytes
    let under = project(&[("AGENTS.md", &guide(0, 600))]); // 30,000 bytes
    let session = ctxc::Session::default();
    let codes = |dir: &Path| -> Vec<Code> {
        ctxc::lint::check(dir, &Options::default(), &session)
            .diagnostics
            .iter()
            .filter_map(|d| d.code)
            .filter(|c| c.as_str().starts_with("CODEX"))
            .collect()
    };
    assert_eq!(codes(over.path()), [Code::CODEX001]);
    assert_eq!(codes(under.path()), []);
}

/// Applies every fix of `code` found in a copy of the rule's failing fixture; returns the fixed
/// files (relative paths) and what the check reports for `code` afterwards.
fn apply_fixes(code: Code) -> (BTreeMap<String, String>, usize, usize) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules").join(code.as_str()).join("fail");
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&fixture, dir.path());
    let session = ctxc::Session::default();
    let before = ctxc::lint::check(dir.path(), &Options::default(), &session);
    let mut edits: BTreeMap<String, Vec<(std::ops::Range<usize>, String)>> = BTreeMap::new();
    let mut fixed = 0;
    for d in before.diagnostics.iter().filter(|d| d.code == Some(code)) {
        let Some(fix) = &d.fix else { continue };
        fixed += 1;
        for edit in &fix.edits {
            edits.entry(edit.file.clone()).or_default().push((edit.span.clone(), edit.replacement.clone()));
        }
    }
    let mut texts = BTreeMap::new();
    for (file, mut list) in edits {
        let mut text = std::fs::read_to_string(&file).expect("read");
        list.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
        for (span, replacement) in list {
            text.replace_range(span, &replacement);
        }
        std::fs::write(&file, &text).expect("write");
        let rel = Path::new(&file).strip_prefix(dir.path()).expect("inside").to_string_lossy().replace('\\', "/");
        texts.insert(rel, text);
    }
    let count = |r: &ctxc::lint::CheckReport| r.diagnostics.iter().filter(|d| d.code == Some(code)).count();
    let after = ctxc::lint::check(dir.path(), &Options::default(), &session);
    assert_eq!(count(&after), count(&before) - fixed, "{code}: every fixed finding disappears: {:?}", after.diagnostics);
    (texts, fixed, count(&after))
}

#[test]
fn fixes_give_the_expected_text_and_remove_their_finding() {
    let cases: [(Code, &str, &str); 12] = [
        (Code::CURSOR003, ".cursor/rules/web.mdc", "---\ndescription: Conventions for the web front end\nalwaysApply: true\nglob: src/**/*.ts\n---\nUse ES modules.\n"),
        (Code::CURSOR004, ".cursor/rules/web.mdc", "---\ndescription: Conventions for the web front end\nalwaysApply: true\n---\nUse ES modules.\n"),
        (Code::CURSOR007, ".cursor/rules/web.mdc", "---\ndescription: Conventions for the web front end\nglobs: src/**/*.ts, src/**/*.tsx\nalwaysApply: false\n---\nUse ES modules.\n"),
        (Code::CURSOR009, ".cursor/rules/web.mdc", "---\ndescription: Conventions for the web front end\nglobs: src/**/*.ts, /lib/*.ts\nalwaysApply: false\n---\nUse ES modules.\n"),
        (Code::CURSOR009, ".cursor/rules/api.mdc", "---\ndescription: Conventions for the API handlers\nglobs: [\"api/**/*.py\"]\nalwaysApply: false\n---\nValidate input.\n"),
        (Code::CURSOR010, ".cursor/rules/web.mdc", "---\ndescription: Conventions for the web front end\nglobs: src/**/*.ts, src/**/*.tsx\nalwaysApply: false\n---\nUse ES modules.\n"),
        (Code::CURSOR006, ".cursor/rules/web.mdc", "---\ndescription: Conventions for the web front end\nglobs: src/**/*.ts, src/**/*.tsx\nalwaysApply: false\n---\nUse ES modules.\n"),
        (Code::COPILOT005, ".github/instructions/python.instructions.md", "---\napplyTo: \"**/*.py, **/*.pyi\"\n---\nUse type hints.\n"),
        (Code::COPILOT010, ".github/prompts/plan.prompt.md", "---\ndescription: Plan a change before editing\nagent: ask\n---\nPlan the change described below.\n"),
        (Code::COPILOT014, ".github/agents/reviewer.agent.md", "---\nname: reviewer\ndescription: Reviews pull requests for correctness and style\ntools: ['search', 'fetch']\n---\nReview the diff and list concrete problems.\n"),
        (Code::OPENHANDS002, ".openhands/microagents/docker.md", "---\nname: docker\ntype: knowledge\ntriggers: [docker]\n---\nUse multi-stage builds.\n"),
        (Code::OPENHANDS009, ".openhands/microagents/docker.md", "---\nname: docker\ntriggers: [\"docker\"]\n---\nUse multi-stage builds.\n"),
    ];
    for (code, file, expected) in cases {
        let (texts, fixed, _) = apply_fixes(code);
        assert!(fixed > 0, "{code}: the failing fixture has a fix");
        assert_eq!(texts.get(file).map(String::as_str), Some(expected), "{code}: {texts:?}");
    }
}

#[test]
fn renames_of_a_key_in_other_letter_case_are_safe_and_other_renames_unsafe() {
    let session = ctxc::Session::default();
    let fixture = |code: &str| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules").join(code).join("fail");
    let fixes = |code: &str, wanted: Code| -> Vec<Applicability> {
        let report = ctxc::lint::check(&fixture(code), &Options::default(), &session);
        report.diagnostics.iter().filter(|d| d.code == Some(wanted)).filter_map(|d| d.fix.as_ref().map(|f| f.applicability)).collect()
    };
    // `applyto` beside an `applyTo`: a rename would write the key twice, so neither it nor
    // `title` has a fix (COPILOT008/fix has the safe rename of a lone `applyto`).
    assert_eq!(fixes("COPILOT008", Code::COPILOT008), []);
    assert_eq!(fixes("COPILOT010", Code::COPILOT010), [Applicability::Unsafe]);
    assert_eq!(fixes("CURSOR006", Code::CURSOR006), [Applicability::Unsafe]);
}

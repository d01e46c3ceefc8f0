//! The rule catalogue: one rule per code, in the order of the code table, codes well formed,
//! every rule documented, `docs/rules.md` generated from the registry, and every rule with a
//! fixture that fails (reports its code, so some stage emits it) and one that passes (does not).
//!
//! Regenerate `docs/rules.md` with `UPDATE_DOCS=1 cargo test --test integration rules::`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use ctxc::lint::{CheckReport, Options};
use ctxc::rules::{self, Code, Family, Stage};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn one_rule_per_code_in_table_order() {
    let registered: Vec<Code> = rules::ALL.iter().map(|r| r.code).collect();
    assert_eq!(registered, Code::ALL, "each module of the code table holds the rule of its code");
    for code in Code::ALL {
        assert_eq!(rules::rule(*code).code, *code);
    }
}

/// A family's `mod.rs` declares its rule files with `mod` lines (so `cargo fmt` reaches them); a
/// rule of the table without its file does not compile, and this finds a file the table does not name.
#[test]
fn rule_files_are_the_table() {
    let mut folders: Vec<String> = std::fs::read_dir(repo().join("src/rules"))
        .expect("src/rules")
        .map(|entry| entry.expect("folder entry"))
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let mut families: Vec<String> = Family::ALL.iter().map(|f| f.name().to_string()).collect();
    families.sort();
    assert_eq!(folders, families, "the folders of src/rules are the families of src/codes.rs");
    for family in Family::ALL {
        let folder = repo().join("src/rules").join(family.name());
        let mut files: Vec<String> = std::fs::read_dir(&folder)
            .expect("family folder")
            .map(|entry| entry.expect("folder entry").file_name().to_string_lossy().into_owned())
            .filter(|name| name != "mod.rs")
            .collect();
        files.sort();
        let mut modules: Vec<String> = rules::ALL
            .iter()
            .filter(|r| r.family == *family)
            .map(|r| format!("{}_{}.rs", r.code.as_str().to_lowercase(), r.name.replace('-', "_")))
            .collect();
        modules.sort();
        assert_eq!(files, modules, "{}: the rule files of the folder are the family's modules in src/codes.rs", family.name());
    }
}

#[test]
fn codes_are_well_formed() {
    let mut names_per_family = BTreeSet::new();
    for rule in rules::ALL {
        assert!(rules::well_formed(rule.code.as_str(), rule.family), "{}: not {} + 3 digits", rule.code, rule.family.prefix());
        assert!(names_per_family.insert((rule.family, rule.name)), "{}: name `{}` is used twice in its family", rule.code, rule.name);
        assert!(
            rule.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{}: name `{}` is not kebab-case",
            rule.code,
            rule.name
        );
        // SET001–SET099 are the settings stage's checks of the reference systems' window settings
        // (src/runtimes/), SET1NN lint rules; the settings stage reports no other family.
        let settings_stage = matches!(rule.stage, Stage::Settings);
        if rule.family == Family::Settings {
            let n: u32 = rule.code.as_str()[3..].parse().expect("digits");
            assert_eq!(n < 100, settings_stage, "{}: SET0NN rules, and only they, are reported by the settings stage", rule.code);
        } else {
            assert!(!settings_stage, "{}: only settings rules are reported by the settings stage", rule.code);
        }
    }
    // Grouped by family, in code order.
    let order: Vec<(usize, &str)> =
        rules::ALL.iter().map(|r| (Family::ALL.iter().position(|f| *f == r.family).unwrap_or(99), r.code.as_str())).collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "rules are listed by family, then code");
    assert!(rules::ALL.len() >= 30, "{} rules", rules::ALL.len());
}

#[test]
fn every_rule_is_fully_documented() {
    for rule in rules::ALL {
        let code = rule.code;
        assert!(rule.summary.ends_with('.') && rule.summary.len() > 20, "{code}: summary is one full sentence");
        assert!(rule.why.trim().len() > 60, "{code}: why it matters");
        for (what, example) in [("failing", rule.fails), ("passing", rule.passes)] {
            assert!(!example.file.is_empty() && !example.text.trim().is_empty(), "{code}: {what} example");
        }
        assert!(rule.fails.text != rule.passes.text || rule.fails.file != rule.passes.file, "{code}: the examples differ");
    }
}

#[test]
fn docs_page_is_generated_from_the_registry() {
    let path = repo().join("docs/rules.md");
    let generated = rules::docs::catalogue_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &generated).expect("write docs/rules.md");
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "docs/rules.md is stale: run `UPDATE_DOCS=1 cargo test --test integration rules::` and commit the result"
    );
    for rule in rules::ALL {
        assert!(checked_in.contains(&format!("### {} `{}`", rule.code, rule.name)), "{} has a section", rule.code);
    }
}

/// A fixture folder's extra command-line options (an `args` file, one option per line).
fn options(dir: &Path) -> Options {
    let args = std::fs::read_to_string(dir.join("args")).unwrap_or_default();
    let mut options = Options::default();
    for arg in args.lines().map(str::trim).filter(|a| !a.is_empty()) {
        match arg {
            "--strict" => options.strict = true,
            "--deny-warnings" => options.deny_warnings = true,
            "--require-exact" => options.require_exact = true,
            _ if arg.starts_with("--file ") => {}
            other => panic!("{}: unsupported fixture option {other}", dir.display()),
        }
    }
    options
}

/// What a fixture checks: the folder, or the file its `args` names with `--file PATH` (tool
/// definitions are read only from a file named on the command line).
fn target(dir: &Path) -> std::path::PathBuf {
    let args = std::fs::read_to_string(dir.join("args")).unwrap_or_default();
    args.lines().find_map(|a| a.trim().strip_prefix("--file ")).map_or_else(|| dir.to_path_buf(), |file| dir.join(file.trim()))
}

fn codes(report: &CheckReport) -> BTreeSet<Code> {
    report.diagnostics.iter().filter_map(|d| d.code).collect()
}

#[test]
fn every_rule_has_a_failing_and_a_passing_fixture() {
    let session = ctxc::Session::default();
    let base = Path::new("tests/fixtures/rules");
    let mut seen = BTreeSet::new();
    for rule in rules::ALL {
        let code = rule.code;
        // No input reports an internal error once its bug is fixed: the guard is tested with a
        // rule that panics (src/lint/mod.rs).
        if matches!(rule.stage, Stage::Internal) {
            continue;
        }
        seen.insert(code.to_string());
        let fail = base.join(code.as_str()).join("fail");
        let pass = base.join(code.as_str()).join("pass");
        assert!(fail.is_dir() && pass.is_dir(), "{code}: add {} and {}", fail.display(), pass.display());

        // A rule in preview runs in its fixtures.
        let options = |dir: &Path| Options { preview: rule.lifecycle == rules::Lifecycle::Preview, ..options(dir) };
        let failed = ctxc::lint::check(&target(&fail), &options(&fail), &session);
        assert!(codes(&failed).contains(&code), "{code}: the failing fixture does not report it; it reports {:?}", codes(&failed));
        match rule.stage {
            Stage::Load => assert!(failed.unloadable, "{code}: a load error makes the input unloadable"),
            Stage::Lint(_) | Stage::Budgets | Stage::LoadWarning | Stage::Settings => {
                assert!(!failed.unloadable, "{code}: a finding, not a load error: {:?}", failed.diagnostics)
            }
            Stage::LoadOrLint(_) | Stage::Internal => {}
        }
        let shown = ctxc::report::diagnostics::render(&failed.diagnostics, &failed.sources, false);
        assert_snapshot!(format!("fail-{code}"), shown);

        let passed = ctxc::lint::check(&target(&pass), &options(&pass), &session);
        assert!(!codes(&passed).contains(&code), "{code}: the passing fixture reports it: {:?}", passed.diagnostics);
        assert!(!passed.unloadable, "{code}: the passing fixture loads: {:?}", passed.diagnostics);
    }
    let folders: BTreeSet<String> =
        std::fs::read_dir(base).expect("fixtures").flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    let stray: Vec<&String> = folders.difference(&seen).collect();
    assert!(stray.is_empty(), "fixture folders for unknown codes: {stray:?}");
}

#[test]
fn explain_works_for_every_listed_code() {
    let bin = env!("CARGO_BIN_EXE_ctxc");
    let listed = Command::new(bin).args(["rules", "--format", "json"]).output().expect("ctxc runs");
    assert_eq!(listed.status.code(), Some(0));
    let list: serde_json::Value = serde_json::from_slice(&listed.stdout).expect("JSON");
    let codes: Vec<&str> = list.as_array().expect("array").iter().map(|r| r["code"].as_str().expect("code")).collect();
    assert_eq!(codes.len(), rules::ALL.len());
    for code in codes {
        let out = Command::new(bin).args(["explain", &code.to_lowercase()]).env("NO_COLOR", "1").output().expect("ctxc runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{code}");
        let rule = rules::get(code).expect("registered");
        for part in [rule.code.as_str(), rule.name, "**Why it matters.**", "**Fails**", "**Passes**"] {
            assert!(text.contains(part), "{code}: explain lacks {part}");
        }
    }
}

/// Rules whose documented examples are not a whole project of one file, so they cannot run as
/// one: a manifest without the prompts and tools it names, a placeholder for a long text or for
/// several files, a file that needs another beside it. Their fixtures run instead. Every other
/// rule's examples run ([`documented_examples_run`]).
const EXAMPLES_NOT_ONE_FILE: &[&str] = &[
    "MCP022",
    "WINDSURF005",
    "MAN002",
    "MAN003",
    "MAN004",
    "MAN005",
    "MAN006",
    "MAN007",
    "MAN009",
    "MAN012",
    "TOOL001",
    "TOOL002",
    "TOOL003",
    "TOOL004",
    "TOOL005",
    "TOOL006",
    "TOOL007",
    "TOOL008",
    "TOOL009",
    "TOOL010",
    "SKILL007",
    "SKILL013",
    "SKILL014",
    "SKILL015",
    "SKILL016",
    "SKILL017",
    "SKILL018",
    "SKILL019",
    "SKILL020",
    "SKILL021",
    "SKILL023",
    "SKILL026",
    "SKILL027",
    "MEM001",
    "MEM002",
    "MEM003",
    "TPL001",
    "TPL002",
    "TPL003",
    "TPL004",
    "CACHE001",
    "SEC001",
    "SEC002",
    "SEC003",
    "SEC004",
    "SEC005",
    "SEC006",
    "SEC007",
    "BUDGET001",
    "BUDGET002",
    "BUDGET003",
    "BUDGET004",
    "BUDGET005",
    "BUDGET006",
    "BUDGET007",
    "BUDGET008",
    "BUDGET009",
    "SET001",
    "SET002",
    "SET003",
    "SET004",
    "SET005",
    "SET006",
    "SET007",
    "SET008",
    "SET009",
    "SET010",
    "SET011",
    "SET012",
    "SET013",
    "SET014",
    "SET015",
    "SET101",
    "SET102",
    "SET103",
    "SET104",
    "SET105",
    "CLAUDE018",
    "CLAUDE019",
    "CLAUDE053",
    "CLAUDE055",
    "CLAUDE056",
    "CLAUDE059",
    "MCP016",
    "MCP017",
    "MCP018",
    "MCP019",
    "MCP020",
    "MCP021",
    "CURSOR013",
    "CURSOR015",
    "CURSOR016",
    "COPILOT001",
    "COPILOT019",
    "GEMINI011",
    "GEMINI012",
    "CODEX001",
    "CODEX002",
    "CODEX003",
    "CURSOR023",
    "LINK001",
    "LINK005",
    "LINK006",
    "INSTR005",
    "INSTR006",
    "INSTR007",
    "INSTR008",
];

/// Whether checking a project holding only `example` reports `code`.
fn example_reports(session: &ctxc::Session, example: &rules::Example, code: Code) -> bool {
    let project = tempfile::tempdir().expect("tempdir");
    let path = project.path().join(example.file);
    std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("mkdir");
    std::fs::write(&path, example.text).expect("write");
    // A rule in preview runs when preview is on; its examples are checked the same way.
    let options = Options { preview: rules::rule(code).lifecycle == rules::Lifecycle::Preview, ..Options::default() };
    codes(&ctxc::lint::check(project.path(), &options, session)).contains(&code)
}

#[test]
fn documented_examples_run() {
    let session = ctxc::Session::default();
    let mut wrong = Vec::new();
    // An internal error's example is a bug in ctxc, which no file can show once it is fixed.
    let runnable = rules::ALL.iter().filter(|r| !EXAMPLES_NOT_ONE_FILE.contains(&r.code.as_str()) && !matches!(r.stage, Stage::Internal));
    for rule in runnable {
        for (example, should_report) in [(&rule.fails, true), (&rule.passes, false)] {
            if example_reports(&session, example, rule.code) != should_report {
                wrong.push(format!("{} {} ({})", rule.code, if should_report { "fails" } else { "passes" }, example.file));
            }
        }
    }
    assert!(wrong.is_empty(), "examples that do not do what their documentation says: {wrong:?}");
    for code in EXAMPLES_NOT_ONE_FILE {
        assert!(rules::get(code).is_some(), "{code} is not a rule");
    }
}

/// A finding's severity is its rule's, decided once in the rule's definition: checks build their
/// findings with `Diagnostic::finding` and never choose a severity the lint stage would replace.
#[test]
fn checks_choose_no_severity() {
    // secrets.rs also scans the rendered output (src/checks/leaks.rs) and suppress.rs reports
    // MAN013 itself: both run outside the lint stage, which is what sets a rule's severity.
    let outside_lint = ["secrets.rs", "suppress.rs"];
    let mut choosing = Vec::new();
    for file in crate::common::walk(&repo().join("src/rules")) {
        if outside_lint.iter().any(|name| file.ends_with(name)) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        if code.contains("Diagnostic::error(") || code.contains("Diagnostic::warning(") {
            choosing.push(file.display().to_string());
        }
    }
    assert!(choosing.is_empty(), "checks that choose a severity (use Diagnostic::finding): {choosing:?}");
}

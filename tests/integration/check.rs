//! `ctxc check` outputs and controls: SARIF valid against the SARIF 2.1.0 schema, GitHub
//! annotations and step summary, the JSON shape, selection, severities, suppressions,
//! zero-config linting, and secrets never printed in full in any format.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::project;
use serde_json::Value;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ctxc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("ctxc runs")
}

fn ctxc(args: &[&str]) -> Output {
    ctxc_in(repo(), args)
}

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn codes(json: &Value) -> Vec<String> {
    json["diagnostics"].as_array().expect("diagnostics").iter().filter_map(|d| d["code"].as_str().map(String::from)).collect()
}

fn sarif_schema() -> jsonschema::Validator {
    let path = common::corpus().join("spec/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).expect("SARIF schema is JSON");
    jsonschema::options().with_draft(jsonschema::Draft::Draft4).should_validate_formats(true).build(&schema).expect("SARIF schema compiles")
}

fn assert_valid_sarif(validator: &jsonschema::Validator, log: &Value, what: &str) {
    let errors: Vec<String> = validator.iter_errors(log).map(|e| format!("{} at {}", e, e.instance_path)).collect();
    assert!(errors.is_empty(), "{what}: SARIF does not validate:\n{}", errors.join("\n"));
}

/// Every example (each agent, and the directory of all of them) gives SARIF that validates
/// against the SARIF 2.1.0 schema; so does a run with findings of every kind of location.
#[test]
fn sarif_validates_against_the_schema() {
    let validator = sarif_schema();
    let mut targets: Vec<PathBuf> = std::fs::read_dir(repo().join("examples/agents"))
        .expect("examples")
        .flatten()
        .map(|e| Path::new("examples/agents").join(e.file_name()))
        .collect();
    targets.sort();
    targets.push(PathBuf::from("examples/agents"));
    for extra in [
        "tests/fixtures/rules/SEC001/fail",
        "tests/fixtures/rules/SKILL016/fail",
        "tests/fixtures/rules/MAN001/fail",
        "tests/fixtures/budgets/over-budget",
        "src",
    ] {
        targets.push(PathBuf::from(extra));
    }
    for target in &targets {
        let out = ctxc(&["check", "--format", "sarif", target.to_str().expect("utf-8")]);
        let log = stdout_json(&out);
        assert_valid_sarif(&validator, &log, &target.display().to_string());
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["rules"].as_array().expect("rules").len(), ctxc::rules::ALL.len());
        for result in run["results"].as_array().expect("results") {
            let rule_id = result["ruleId"].as_str().expect("ruleId");
            let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
            assert_eq!(run["tool"]["driver"]["rules"][index]["id"], rule_id);
            let location = &result["locations"][0]["physicalLocation"];
            let uri = location["artifactLocation"]["uri"].as_str().expect("uri");
            assert!(!uri.starts_with('/') && !uri.contains(".."), "repository-relative: {uri}");
            assert_eq!(location["artifactLocation"]["uriBaseId"], "SRCROOT");
            assert!(result["partialFingerprints"]["ctxc/v1"].as_str().is_some_and(|f| f.len() == 16));
        }
    }
}

#[test]
fn sarif_locations_are_repository_relative_from_any_directory() {
    let from_root = stdout_json(&ctxc(&["check", "--format", "sarif", "tests/fixtures/rules/SKILL005/fail"]));
    let from_inside = stdout_json(&ctxc_in(&repo().join("tests/fixtures"), &["check", "--format", "sarif", "rules/SKILL005/fail"]));
    let location = |log: &Value| log["runs"][0]["results"][0]["locations"][0].clone();
    assert_eq!(location(&from_root), location(&from_inside));
    let physical = &location(&from_root)["physicalLocation"];
    assert_eq!(physical["artifactLocation"]["uri"], "tests/fixtures/rules/SKILL005/fail/skills/template/SKILL.md");
    assert_eq!(physical["region"]["startLine"], 2);
    assert_eq!(physical["region"]["startColumn"], 7);
    assert_eq!(physical["region"]["endColumn"], 21);
    let fingerprint = |log: &Value| log["runs"][0]["results"][0]["partialFingerprints"].clone();
    assert_eq!(fingerprint(&from_root), fingerprint(&from_inside));
}

#[test]
fn json_output_has_the_documented_shape() {
    let out = ctxc(&["check", "--format", "json", "tests/fixtures/budgets/over-budget"]);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout_json(&out);
    let keys: Vec<&str> = json.as_object().expect("object").keys().map(String::as_str).collect();
    assert_eq!(keys, ["agents", "diagnostics", "exit_code", "files", "outcome", "summary", "tool", "version", "zero_config"]);
    assert_eq!((json["version"].as_u64(), json["outcome"].as_str(), json["exit_code"].as_u64()), (Some(1), Some("findings"), Some(1)));
    assert_eq!(json["summary"]["errors"], 5);
    assert_eq!(json["summary"]["warnings"], 1);
    let first = &json["diagnostics"][0];
    let keys: Vec<&str> = first.as_object().expect("object").keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["code", "column", "end_column", "end_line", "family", "file", "help", "label", "line", "message", "rule", "severity"]
    );
    assert_eq!(
        (first["code"].as_str(), first["rule"].as_str(), first["family"].as_str()),
        (Some("BUDGET001"), Some("over-budget"), Some("budgets"))
    );
    assert_eq!((first["line"].as_u64(), first["column"].as_u64()), (Some(9), Some(44)));
    let agent = &json["agents"][0];
    assert_eq!(agent["name"], "over-budget");
    assert!(agent["prefixes"].as_array().is_some_and(|p| !p.is_empty()));

    let unloadable = ctxc(&["check", "--format", "json", "tests/fixtures/errors/unknown-key"]);
    assert_eq!(unloadable.status.code(), Some(2));
    let json = stdout_json(&unloadable);
    assert_eq!(json["outcome"], "unloadable");
    assert_eq!(codes(&json), ["MAN001"]);
    assert_eq!(json["agents"][0]["loaded"], false);
}

#[test]
fn github_annotations_errors_first_and_step_summary() {
    let summary = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(summary.path(), "earlier step\n").expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["check", "--format", "github", "tests/fixtures/budgets/over-budget"])
        .current_dir(repo())
        .env("GITHUB_STEP_SUMMARY", summary.path())
        .output()
        .expect("ctxc runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines[..5].iter().all(|l| l.starts_with("::error ")), "{text}");
    assert!(lines[5].starts_with("::warning "), "{text}");
    assert!(
        lines[0].starts_with(
            "::error file=tests/fixtures/budgets/over-budget/ctxc.toml,line=9,col=44,endLine=9,endColumn=46,title=BUDGET001::step `core`"
        ),
        "{}",
        lines[0]
    );
    let written = std::fs::read_to_string(summary.path()).expect("summary");
    assert!(written.starts_with("earlier step\n## ctxc check\n"), "appended, not replaced: {written}");
    assert!(written.contains("**5 errors, 1 warning in 1 agent (1 mode × scenario)**"), "{written}");
    assert!(written.contains("| error | BUDGET001 | `tests/fixtures/budgets/over-budget/ctxc.toml:9:44` |"), "{written}");
}

#[test]
fn select_ignore_and_deny_warnings() {
    // The Zeus example accepts its one warning (the time step before the skill catalogue,
    // CACHE001) with `[lint] ignore`; a copy without that table has it.
    let zeus = "examples/agents/zeus";
    assert_eq!(ctxc(&["check", zeus, "--deny-warnings"]).status.code(), Some(0));
    let copy = tempfile::tempdir().expect("tempdir");
    common::copy_tree(Path::new(zeus), copy.path());
    let manifest = std::fs::read_to_string(copy.path().join("ctxc.toml")).expect("manifest");
    let without_lint = &manifest[..manifest.find("\n[lint]").expect("the example accepts CACHE001 in [lint]")];
    std::fs::write(copy.path().join("ctxc.toml"), without_lint).expect("write");
    let dir = copy.path().to_str().expect("UTF-8 path");
    assert_eq!(ctxc(&["check", dir]).status.code(), Some(0));
    assert_eq!(ctxc(&["check", dir, "--deny-warnings"]).status.code(), Some(1));
    assert_eq!(ctxc(&["check", dir, "--deny-warnings", "--ignore", "CACHE001"]).status.code(), Some(0));
    assert_eq!(ctxc(&["check", dir, "--deny-warnings", "--select", "SKILL,TOOL"]).status.code(), Some(0));
    let selected = stdout_json(&ctxc(&["check", dir, "--format", "json", "--select", "CACHE"]));
    assert_eq!(codes(&selected), ["CACHE001"]);
    let typo = ctxc(&["check", zeus, "--select", "CAHCE001"]);
    assert_eq!(typo.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&typo.stderr);
    assert!(stderr.contains("MAN012") && stderr.contains("did you mean `CACHE001`?"), "{stderr}");
}

const MANIFEST: &str = "[agent]\nname = \"t\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [\n  { id = \"core\", kind = \"module\" },\n  { id = \"skills\", kind = \"skills\" },\n]\n\n[modules]\ncore = { source = \"core.md\" }\n\n[skills]\ndirs = [\"skills\"]\n";
const SKILL: &str = "---\nname: notes\ndescription: Take meeting notes.\nversion: 1.2\n---\n# Notes\n";

#[test]
fn lint_table_sets_level_severity_and_ignores() {
    let run = |lint: &str| {
        let dir = project(&[("ctxc.toml", &format!("{MANIFEST}{lint}")), ("core.md", "Be helpful.\n"), ("skills/notes/SKILL.md", SKILL)]);
        let out = ctxc_in(dir.path(), &["check", "--format", "json", "."]);
        (out.status.code(), stdout_json(&out))
    };
    let (code, json) = run("");
    assert_eq!((code, codes(&json)), (Some(0), vec!["SKILL011".to_string()]), "lenient by default: `version` is a warning");
    assert_eq!(json["diagnostics"][0]["severity"], "warning");
    let (code, json) = run("\n[lint]\nskills = \"strict\"\n");
    assert_eq!((code, codes(&json)), (Some(1), vec!["SKILL011".to_string()]));
    let (code, json) = run("\n[lint]\nskills = \"strict\"\nseverity = { SKILL011 = \"warning\" }\n");
    assert_eq!((code, json["diagnostics"][0]["severity"].as_str()), (Some(0), Some("warning")));
    let (code, json) = run("\n[lint]\nskills = \"strict\"\nignore = [\"SKILL\"]\n");
    assert_eq!((code, codes(&json)), (Some(0), vec![]));
    let (code, json) = run("\n[lint]\nskills = \"strict\"\nselect = [\"TOOL\"]\n");
    assert_eq!((code, codes(&json)), (Some(0), vec![]));
    let (code, json) = run("\n[lint]\nignore = [\"SKIL011\"]\n");
    assert_eq!((code, codes(&json)), (Some(2), vec!["MAN012".to_string(), "SKILL011".to_string()]), "the misspelt code ignores nothing");
}

#[test]
fn suppression_comments_silence_named_codes_only() {
    let body = "---\nname: notes\ndescription: Take meeting notes.\nmetadata:\n  version: 1.2\n---\n# Notes\n";
    let files = |comment: &str| vec![("skills/notes/SKILL.md".to_string(), format!("{body}{comment}"))];
    let run = |comment: &str| {
        let owned = files(comment);
        let borrowed: Vec<(&str, &str)> = owned.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let dir = project(&borrowed);
        stdout_json(&ctxc_in(dir.path(), &["check", "--format", "json", "."]))
    };
    assert_eq!(codes(&run("")), ["SKILL009"]);
    let suppressed = run("<!-- ctxc-ignore-file SKILL009 -- metadata comes from our generator -->\n");
    assert_eq!((codes(&suppressed), suppressed["summary"]["suppressed"].as_u64()), (vec![], Some(1)));
    assert_eq!(codes(&run("<!-- ctxc-ignore-file SKILL004 -->\n")), ["SKILL009"], "other codes stay");
    assert_eq!(codes(&run("<!-- ctxc-ignore-file -->\n")), ["SKILL009", "MAN013"], "a suppression must name codes");
    // Next-line suppression: the finding is on the line after the comment.
    let dir = project(&[("CLAUDE.md", "<!-- ctxc-ignore MEM003 -->\n@missing.md\n@also-missing.md\n")]);
    let json = stdout_json(&ctxc_in(dir.path(), &["check", "--format", "json", "."]));
    assert_eq!(codes(&json), ["MEM003"]);
    assert_eq!(json["diagnostics"][0]["line"], 3);
}

#[test]
fn zero_config_lints_skills_and_memory_files() {
    let dir = project(&[
        ("skills/Notes/SKILL.md", "---\nname: Notes\ndescription: Take meeting notes.\n---\n"),
        ("docs/AGENTS.md", "Read @../README.md and @guide.md first.\n"),
        ("docs/guide.md", "Be kind.\n"),
        ("README.md", "# Project\n"),
        ("node_modules/pkg/SKILL.md", "not a skill\n"),
    ]);
    let out = ctxc_in(dir.path(), &["check", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json = stdout_json(&out);
    assert_eq!(json["zero_config"], true);
    assert_eq!(json["files"], serde_json::json!(["docs/AGENTS.md", "skills/Notes/SKILL.md"]));
    assert_eq!(codes(&json), ["SKILL004"]);
    // One file at a time.
    let out = ctxc_in(dir.path(), &["check", "--format", "json", "skills/Notes/SKILL.md"]);
    assert_eq!(codes(&stdout_json(&out)), ["SKILL004"]);
    // A file of no known kind is named as such, never read as a manifest.
    let out = ctxc_in(dir.path(), &["check", "README.md"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "ctxc check: nothing to lint: `README.md` is not a manifest or an agent file ctxc knows\n"
    );
    // Nothing to lint is not an error: a CI job over a repository without agent files passes.
    let empty = tempfile::tempdir().expect("tempdir");
    std::fs::write(empty.path().join("notes.md"), "# Notes\n").expect("write");
    let out = ctxc_in(empty.path(), &["check"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "ctxc check: nothing to lint: no manifest and no agent file in `.`\n");
    // Nor is `--fix` there: nothing fixed is not reported as "0 fixed (0 remaining)".
    let out = ctxc_in(empty.path(), &["check", "--fix"]);
    assert_eq!(
        (out.status.code(), String::from_utf8_lossy(&out.stderr).as_ref()),
        (Some(0), "ctxc check: nothing to lint: no manifest and no agent file in `.`\n")
    );
}

#[test]
fn every_kind_of_agent_file_is_found_by_its_path() {
    let dir = project(&[
        (".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews diffs.\n---\nReview.\n"),
        (".claude/commands/ship.md", "Ship $ARGUMENTS.\n"),
        (".claude/settings.json", "{}\n"),
        (".cursor/rules/style.mdc", "---\ndescription: Style\n---\nUse tabs.\n"),
        (".github/copilot-instructions.md", "Be brief.\n"),
        (".openhands/microagents/repo.md", "Notes.\n"),
        ("GEMINI.md", "Notes.\n"),
        ("docs/notes.md", "not an agent file\n"),
    ]);
    let out = ctxc_in(dir.path(), &["check", "--format", "json"]);
    let json = stdout_json(&out);
    let files: Vec<&str> = json["files"].as_array().expect("files").iter().filter_map(|f| f.as_str()).collect();
    assert_eq!(
        files,
        [
            ".claude/agents/reviewer.md",
            ".claude/commands/ship.md",
            ".claude/settings.json",
            ".cursor/rules/style.mdc",
            ".github/copilot-instructions.md",
            ".openhands/microagents/repo.md",
            "GEMINI.md"
        ]
    );
}

#[cfg(unix)]
#[test]
fn zero_config_follows_links_only_inside_the_directory() {
    let outside = project(&[("AGENTS.md", "secret rules\n")]);
    let dir = project(&[("AGENTS.md", "# Rules\n")]);
    std::os::unix::fs::symlink(dir.path().join("AGENTS.md"), dir.path().join("CLAUDE.md")).expect("symlink");
    std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
    std::os::unix::fs::symlink(outside.path().join("AGENTS.md"), dir.path().join("sub/AGENTS.md")).expect("symlink");
    let json = stdout_json(&ctxc_in(dir.path(), &["check", "--format", "json"]));
    assert_eq!(json["files"], serde_json::json!(["AGENTS.md"]), "the link to AGENTS.md is the same file; the link out is not read");
    assert_eq!(codes(&json), ["MAN003"]);
    assert_eq!(json["diagnostics"][0]["severity"], "warning");
}

/// The secrets of the SEC fixtures never appear in full in any output format.
#[test]
fn secrets_are_never_printed_in_full() {
    use ctxc::rules::secrets::{find, Kind};
    for (code, kind) in [
        ("SEC001", Kind::OpenAi),
        ("SEC002", Kind::Anthropic),
        ("SEC003", Kind::GitHub),
        ("SEC004", Kind::Aws),
        ("SEC005", Kind::PrivateKey),
        ("SEC006", Kind::Generic),
    ] {
        let dir = format!("tests/fixtures/rules/{code}/fail");
        let text = std::fs::read_to_string(repo().join(&dir).join("core.md")).expect("fixture");
        let ranges = find(kind, &text);
        assert_eq!(ranges.len(), 1, "{code}");
        // For a private key, the key material after the header must not leak either.
        let secret =
            if kind == Kind::PrivateKey { text.lines().nth(3).expect("key line").to_string() } else { text[ranges[0].clone()].to_string() };
        for format in ["human", "json", "sarif", "github"] {
            let out = ctxc(&["check", "--format", format, &dir]);
            assert_eq!(out.status.code(), Some(1), "{code} {format}");
            let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert!(all.contains(code), "{code} {format}: reported");
            assert!(!all.contains(&secret), "{code} {format}: the secret is printed:\n{all}");
            // No ten characters of the secret after its first four are printed anywhere.
            let tail: Vec<char> = secret.chars().skip(4).collect();
            for window in tail.windows(10) {
                let piece: String = window.iter().collect();
                assert!(!all.contains(&piece), "{code} {format}: `{piece}` is printed:\n{all}");
            }
        }
    }
}

/// A secret on a line that another finding quotes (as snippet context, or in a message) is
/// masked there too.
#[test]
fn secrets_are_masked_in_other_findings() {
    let secret = "sk-proj-Rt5Yw2Qk8Zm4Xv7Bn1Lc9Hd3Fg6Js0Pa2Ue";
    let paragraph = format!("Always call the billing API with the key {secret} and never with another key.");
    let skill = format!("---\nname: Billing\ndescription: Bills customers. Key {secret}\n---\n{paragraph}\n");
    let dir = project(&[("skills/Billing/SKILL.md", &skill)]);
    for format in ["human", "json", "sarif", "github"] {
        let out = ctxc_in(dir.path(), &["check", "--format", format, "."]);
        let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(all.contains("SKILL004") && all.contains("SEC001"), "{format}: {all}");
        assert!(!all.contains(&secret[4..14]), "{format}: the secret is printed:\n{all}");
    }
}

#[test]
fn rules_and_explain() {
    let out = ctxc(&["rules"]);
    let table = String::from_utf8(out.stdout).expect("utf-8");
    assert!(table.starts_with("CODE "));
    for rule in ctxc::rules::ALL {
        assert!(table.contains(rule.code.as_str()) && table.contains(rule.name), "{}", rule.code);
    }
    let skills = String::from_utf8(ctxc(&["rules", "skills"]).stdout).expect("utf-8");
    assert_eq!(skills.lines().count(), 1 + ctxc::rules::ALL.iter().filter(|r| r.code.as_str().starts_with("SKILL")).count());
    let unknown = ctxc(&["explain", "SKILL04"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(unknown.stdout.is_empty());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("did you mean `SKILL004`?"));
    let explained = String::from_utf8(ctxc(&["explain", "cache001"]).stdout).expect("utf-8");
    assert!(explained.starts_with("## CACHE001 `dynamic-before-static`"), "{explained}");
}

/// Runs `git` in `dir` with a fixed identity, failing the test when it fails.
fn git(dir: &Path, args: &[&str]) {
    let status = Command::new(common::require_tool("git"))
        .args(["-c", "user.email=ci@example.com", "-c", "user.name=ci", "-c", "commit.gpgsign=false"])
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

#[test]
fn changed_since_checks_only_what_changed() {
    let skill = |name: &str| format!("---\nname: {name}\ndescription: Summarize release notes into a changelog entry.\n---\nBody.\n");
    let dir = project(&[("a/SKILL.md", &skill("A")), ("b/SKILL.md", &skill("b")), ("c/SKILL.md", &skill("c"))]);
    git(dir.path(), &["init", "-q", "."]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "first"]);
    // Committed, uncommitted and new files count as changed; `a` (a finding, unchanged) does not.
    std::fs::write(dir.path().join("b/SKILL.md"), skill("B")).expect("write");
    git(dir.path(), &["commit", "-q", "-am", "second"]);
    std::fs::write(dir.path().join("c/SKILL.md"), skill("C")).expect("write");
    std::fs::create_dir(dir.path().join("d")).expect("mkdir");
    std::fs::write(dir.path().join("d/SKILL.md"), skill("D")).expect("write");
    let out = ctxc_in(dir.path(), &["check", "--changed-since", "HEAD~1", "--format", "concise", "--select", "SKILL004"]);
    let listed: Vec<&str> = std::str::from_utf8(&out.stdout).expect("UTF-8").lines().map(|l| l.split(':').next().unwrap_or("")).collect();
    assert_eq!(listed, ["b/SKILL.md", "c/SKILL.md", "d/SKILL.md"]);
    assert_eq!(out.status.code(), Some(1));
    // Nothing changed: nothing to lint, exit 0.
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "third"]);
    let out = ctxc_in(dir.path(), &["check", "--changed-since", "HEAD"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "ctxc check: nothing to lint: no agent and no agent file in `.` changed\n");
    // A revision that is not one is a usage error.
    let out = ctxc_in(dir.path(), &["check", "--changed-since", "--upload-pack=x"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A pull request can commit a folder that looks like a bare git repository, whose `config`
/// names a command as `core.fsmonitor`: git must not use it, and the command must not run.
#[test]
fn changed_since_never_uses_a_bare_repository_committed_in_the_project() {
    let skill = "---\nname: agents\ndescription: Summarize release notes into a changelog entry.\n---\nBody.\n";
    let dir = project(&[("agents/SKILL.md", skill)]);
    git(dir.path(), &["init", "-q", "."]);
    let fake = dir.path().join("agents");
    git(&fake, &["init", "-q", "--bare", "."]);
    let config = std::fs::read_to_string(fake.join("config")).expect("config").replace("bare = true", "bare = false\n\tworktree = .");
    std::fs::write(fake.join("config"), &config).expect("write");
    git(&fake, &["--git-dir=.", "commit", "-q", "--allow-empty", "-m", "fake"]);
    let marker = dir.path().join("ran");
    let command = format!("touch '{}'; false", marker.display());
    std::fs::write(fake.join("config"), format!("{config}\tfsmonitor = \"{command}\"\n")).expect("write");
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "first"]);
    let out = ctxc_in(dir.path(), &["check", "--changed-since", "HEAD", "agents"]);
    assert!(!marker.exists(), "the committed repository's fsmonitor ran: {out:?}");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("bare repository"), "{out:?}");
}

#[test]
fn changed_since_checks_the_agents_that_load_a_changed_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_tree(&repo().join("examples/agents"), dir.path());
    git(dir.path(), &["init", "-q", "."]);
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "first"]);
    let core = dir.path().join("zeus/prompts/core.md");
    let text = std::fs::read_to_string(&core).expect("read");
    std::fs::write(&core, format!("{text}\nOne more line.\n")).expect("write");
    let out = ctxc_in(dir.path(), &["check", "--changed-since", "HEAD", "--format", "json"]);
    let json = stdout_json(&out);
    let agents: Vec<&str> = json["agents"].as_array().expect("agents").iter().filter_map(|a| a["name"].as_str()).collect();
    assert_eq!(agents, ["zeus"]);
}

/// `--files` (the pre-commit hook): the agents that load one of the files, and the agent files
/// named that no agent loads; nothing else.
#[test]
fn files_checks_only_the_files_named_and_the_agents_that_load_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_tree(&repo().join("examples/agents"), dir.path());
    let out = ctxc_in(dir.path(), &["check", "--format", "json", "--files", "zeus/prompts/core.md"]);
    let json = stdout_json(&out);
    let agents: Vec<&str> = json["agents"].as_array().expect("agents").iter().filter_map(|a| a["name"].as_str()).collect();
    assert_eq!(agents, ["zeus"]);
    let skill = "---\nname: Loose\ndescription: Summarize release notes into a changelog entry.\n---\nBody.\n";
    for name in ["loose", "other"] {
        std::fs::create_dir_all(dir.path().join(name)).expect("mkdir");
        std::fs::write(dir.path().join(name).join("SKILL.md"), skill).expect("write");
    }
    std::fs::write(dir.path().join("notes.txt"), "Not an agent file.\n").expect("write");
    let out = ctxc_in(dir.path(), &["check", "--format", "concise", "--select", "SKILL004", "--files", "loose/SKILL.md", "notes.txt"]);
    let listed: Vec<&str> = std::str::from_utf8(&out.stdout).expect("UTF-8").lines().map(|l| l.split(':').next().unwrap_or("")).collect();
    assert_eq!(listed, ["loose/SKILL.md"], "{out:?}");
    let out = ctxc_in(dir.path(), &["check", "--files", "missing.md"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--files missing.md"), "{out:?}");
}

/// The pre-commit hook passes the committed file names after its entry: a file named
/// `--chat-template=t.md` (with `t.md` a link out of the repository) is a file name, never an
/// option that would read the file outside and print its lines.
#[cfg(unix)]
#[test]
fn pre_commit_file_names_are_never_options() {
    let hooks: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).expect("hooks")).expect("YAML");
    let entry = hooks[0]["entry"].as_str().expect("entry");
    let outside = project(&[("template.md", "OUTSIDE-SECRET-LINE {{ nope(\n")]);
    let manifest = "[agent]\nname = \"a\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"module\" }]\n\n[modules]\ncore = { source = \"core.md\" }\n";
    let dir = project(&[("ctxc.toml", manifest), ("core.md", "Answer briefly.\n"), ("--chat-template=t.md", "Notes.\n")]);
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    std::os::unix::fs::symlink(outside.path().join("template.md"), dir.path().join("t.md")).expect("symlink");
    let mut words: Vec<&str> = entry.split_whitespace().skip(1).collect();
    words.extend(["core.md", "--chat-template=t.md"]);
    let out = ctxc_in(dir.path(), &words);
    let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!all.contains("OUTSIDE-SECRET-LINE"), "{words:?}: the file outside was read:\n{all}");
    assert_eq!(out.status.code(), Some(0), "{words:?}: {all}");
    // Both names are files: a missing one is reported as such.
    let out = ctxc_in(dir.path(), &["check", "--files", "--", "--format=json"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--files --format=json"), "{out:?}");
}

/// `--baseline`: the findings `--update-baseline` recorded are not reported again, after the
/// lines above them moved and from another folder too; a new finding is, and so is the same
/// finding in another file.
#[test]
fn baseline_reports_only_findings_it_does_not_record() {
    let skill = |name: &str, extra: &str| {
        format!("---\n{extra}name: {name}\ndescription: Summarize release notes into a changelog entry.\n---\nBody.\n")
    };
    let dir = project(&[("a/SKILL.md", &skill("A", ""))]);
    let listed = |out: &std::process::Output| -> Vec<String> {
        std::str::from_utf8(&out.stdout).expect("UTF-8").lines().map(|l| l.split(':').next().unwrap_or("").to_string()).collect()
    };
    let check = ["check", "--format", "concise", "--select", "SKILL004", "--baseline", "ctxc-baseline.json"];
    let out = ctxc_in(dir.path(), &[&check[..], &["--update-baseline"]].concat());
    assert_eq!((out.status.code(), listed(&out)), (Some(0), vec![]), "{out:?}");
    let recorded = std::fs::read_to_string(dir.path().join("ctxc-baseline.json")).expect("baseline written");
    assert!(recorded.contains("\"code\": \"SKILL004\"") && recorded.contains("\"file\": \"a/SKILL.md\""), "{recorded}");
    // The finding moves down a line: still recorded.
    std::fs::write(dir.path().join("a/SKILL.md"), skill("A", "license: MIT\n")).expect("write");
    let out = ctxc_in(dir.path(), &check);
    assert_eq!((out.status.code(), listed(&out)), (Some(0), vec![]), "{out:?}");
    // A new finding, and the recorded one in another file, are reported.
    for folder in ["b", "c"] {
        std::fs::create_dir(dir.path().join(folder)).expect("mkdir");
    }
    std::fs::write(dir.path().join("b/SKILL.md"), skill("B", "")).expect("write");
    std::fs::write(dir.path().join("c/SKILL.md"), skill("A", "")).expect("write");
    let out = ctxc_in(dir.path(), &check);
    assert_eq!((out.status.code(), listed(&out)), (Some(1), vec!["b/SKILL.md".to_string(), "c/SKILL.md".to_string()]), "{out:?}");
    // Run from the parent folder: paths are taken relative to the baseline's folder.
    let name = dir.path().file_name().expect("name").to_string_lossy().into_owned();
    let baseline = format!("{name}/ctxc-baseline.json");
    let parent = dir.path().parent().expect("parent");
    let out = ctxc_in(parent, &["check", "--format", "concise", "--select", "SKILL004", "--baseline", &baseline, &name]);
    assert_eq!(listed(&out).len(), 2, "{out:?}");
    // A file that is no baseline is a usage error that says where.
    std::fs::write(dir.path().join("ctxc-baseline.json"), "{\"ctxc_baseline\": 1,\n \"findings\": 3}").expect("write");
    let out = ctxc_in(dir.path(), &check);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("ctxc-baseline.json:2:"), "{out:?}");
}

/// A baseline comes with the pull request that may add findings: an entry hides only a finding
/// of its own code and file, a finding on a secret is never recorded nor hidden (even by an
/// entry that names it), and a budget overrun that grows is a new finding.
#[test]
fn baseline_entries_hide_only_their_own_finding_and_never_a_secret() {
    use sha2::{Digest, Sha256};
    let listed = |out: &Output| -> Vec<String> { std::str::from_utf8(&out.stdout).expect("UTF-8").lines().map(String::from).collect() };
    let check = ["check", "--format", "concise", "--baseline", "ctxc-baseline.json"];
    let recorded = |dir: &Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("ctxc-baseline.json")).expect("baseline written")).expect("JSON")
    };

    // A committed AWS key: --update-baseline leaves it out, and it is still reported.
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_tree(&repo().join("tests/fixtures/rules/SEC004/fail"), dir.path());
    let out = ctxc_in(dir.path(), &[&check[..], &["--update-baseline"]].concat());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("a secret is never baselined"), "{out:?}");
    assert_eq!(recorded(dir.path())["findings"], serde_json::json!([]));
    // Entries forged for it (under its own code, and relabelled as another rule's) hide nothing.
    let json = stdout_json(&ctxc_in(dir.path(), &["check", "--format", "json"]));
    let message = json["diagnostics"][0]["message"].as_str().expect("message");
    let mut hash = Sha256::new();
    for part in ["SEC004", "\0", "core.md", "\0", message] {
        hash.update(part);
    }
    let fingerprint: String = hash.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect();
    let entries: Vec<Value> = ["SEC004", "INSTR004"]
        .iter()
        .map(|code| serde_json::json!({ "code": code, "file": "core.md", "message": "a heading", "fingerprint": fingerprint }))
        .collect();
    let forged = serde_json::json!({ "ctxc_baseline": 1, "findings": entries });
    std::fs::write(dir.path().join("ctxc-baseline.json"), forged.to_string()).expect("write");
    let out = ctxc_in(dir.path(), &check);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(listed(&out).iter().any(|l| l.contains("SEC004")), "{out:?}");

    // A recorded finding relabelled with another code or file is not hidden either.
    let skill = "---\nname: A\ndescription: Summarize release notes into a changelog entry.\n---\nBody.\n";
    let dir = project(&[("a/SKILL.md", skill)]);
    let skill004 = [&check[..], &["--select", "SKILL004"]].concat();
    let out = ctxc_in(dir.path(), &[&skill004[..], &["--update-baseline"]].concat());
    assert_eq!((out.status.code(), listed(&out)), (Some(0), vec![]), "{out:?}");
    let honest = recorded(dir.path());
    for (key, value) in [("code", "INSTR004"), ("file", "b/SKILL.md")] {
        let mut relabelled = honest.clone();
        relabelled["findings"][0][key] = value.into();
        std::fs::write(dir.path().join("ctxc-baseline.json"), relabelled.to_string()).expect("write");
        let out = ctxc_in(dir.path(), &skill004);
        assert_eq!(out.status.code(), Some(1), "{key}: {out:?}");
    }

    // A step over its budget, recorded; the same overrun stays hidden, a larger one is reported.
    let manifest = "[agent]\nname = \"a\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"module\", budget = 20 }]\n\n[modules]\ncore = { source = \"core.md\" }\n";
    let core = "Answer the question in one short paragraph, and name the file you read first.\n";
    let dir = project(&[("ctxc.toml", manifest), ("core.md", &core.repeat(3))]);
    let out = ctxc_in(dir.path(), &[&check[..], &["--update-baseline"]].concat());
    assert_eq!((out.status.code(), listed(&out)), (Some(0), vec![]), "{out:?}");
    assert_eq!(recorded(dir.path())["findings"][0]["code"], "BUDGET001");
    let out = ctxc_in(dir.path(), &check);
    assert_eq!((out.status.code(), listed(&out)), (Some(0), vec![]), "{out:?}");
    std::fs::write(dir.path().join("core.md"), core.repeat(3) + "Then stop.\n").expect("write");
    let out = ctxc_in(dir.path(), &check);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(listed(&out).iter().any(|l| l.contains("BUDGET001")), "{out:?}");
}

#[test]
fn stdin_is_checked_as_the_file_it_names() {
    let run = |args: &[&str], text: &str| common::ctxc_with_stdin(repo(), args, text);
    let text = "---\nname: Notes\ndescription: Take meeting notes and file them in the wiki.\n---\nBody.\n";
    let out = run(&["check", "-", "--stdin-filename", "skills/notes/SKILL.md", "--format", "concise", "--select", "SKILL004"], text);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "skills/notes/SKILL.md:2:7: SKILL004 skill name `Notes` contains `N` (only lowercase letters, digits and hyphens are allowed)\n"
    );
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["check", "-"], text);
    assert_eq!(out.status.code(), Some(2), "stdin needs a name");
    let out = run(&["check", "-", "--stdin-filename", "notes.txt"], text);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`notes.txt` is not an agent file ctxc knows"));
}

#[test]
fn an_unknown_key_in_many_files_is_one_finding() {
    let skill = |name: &str| {
        format!("---\nname: {name}\ndescription: Summarize release notes into a changelog entry. Use for releases.\nversion: \"1.0\"\n---\nBody.\n")
    };
    let (a, b, c, d) = (skill("a"), skill("b"), skill("c"), skill("d"));
    let dir = project(&[("skills/a/SKILL.md", &a), ("skills/b/SKILL.md", &b), ("skills/c/SKILL.md", &c), ("other/skills/d/SKILL.md", &d)]);
    let unknown = |json: &Value| -> Vec<Value> {
        json["diagnostics"].as_array().expect("diagnostics").iter().filter(|d| d["code"] == "SKILL011").cloned().collect()
    };
    let json = stdout_json(&ctxc_in(dir.path(), &["check", "--format", "json"]));
    let found = unknown(&json);
    assert_eq!(found.len(), 1, "one per key: {found:?}");
    let grouped = &found[0];
    assert_eq!(grouped["file"], "other/skills/d/SKILL.md", "the first in path order");
    assert!(grouped["message"].as_str().expect("message").ends_with("(and 3 more files)"), "{grouped}");
    let places: Vec<(&str, u64)> = grouped["related"]
        .as_array()
        .expect("related")
        .iter()
        .map(|r| (r["file"].as_str().expect("file"), r["line"].as_u64().expect("line")))
        .collect();
    assert_eq!(places, [("skills/a/SKILL.md", 4), ("skills/b/SKILL.md", 4), ("skills/c/SKILL.md", 4)]);
    // The fix still edits every file, and `--fix --unsafe-fixes` removes the key from each.
    let edited: Vec<&str> = grouped["fix"]["edits"].as_array().expect("edits").iter().map(|e| e["file"].as_str().expect("file")).collect();
    assert_eq!(edited, ["other/skills/d/SKILL.md", "skills/a/SKILL.md", "skills/b/SKILL.md", "skills/c/SKILL.md"]);
    // SARIF carries the other places as related locations; `--no-group` reports each file.
    let sarif = stdout_json(&ctxc_in(dir.path(), &["check", "--format", "sarif", "--select", "SKILL011"]));
    let related = sarif["runs"][0]["results"][0]["relatedLocations"].as_array().expect("relatedLocations");
    assert_eq!(related.len(), 3, "{sarif}");
    let json = stdout_json(&ctxc_in(dir.path(), &["check", "--format", "json", "--no-group"]));
    assert_eq!(unknown(&json).len(), 4);
    let out = ctxc_in(dir.path(), &["check", "--fix", "--unsafe-fixes", "--select", "SKILL011"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    for file in ["skills/a/SKILL.md", "skills/b/SKILL.md", "skills/c/SKILL.md", "other/skills/d/SKILL.md"] {
        assert!(!std::fs::read_to_string(dir.path().join(file)).expect("read").contains("version"), "{file}");
    }
}

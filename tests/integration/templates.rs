//! Jinja2 templates written for a Python runtime (examples/agents/openhands-style, in the style of
//! OpenHands' prompts/ folder): the agent renders, and each way such a project used to fail gets
//! a located error: an include resolved from the wrong folder, an undefined variable inside an
//! included file (at that file's line, once, with the include chain), every undefined variable
//! at once, and a Python method minijinja lacks (with the Jinja2 way to write it).

use crate::common;

use std::path::Path;
use std::process::Command;

/// A copy of the example agent with `edit` applied to its files, and ctxc's exit code, stdout
/// and stderr for `args` run on it.
fn run(edit: &[(&str, &str, &str)], args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents/openhands-style");
    common::copy_tree(&example, dir.path());
    for (file, from, to) in edit {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.contains(from), "{file} has no {from:?}");
        std::fs::write(&path, text.replace(from, to)).expect("write");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(args)
        .arg(".")
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("ctxc runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_openhands_style_agent_renders_with_each_scenario_s_values() {
    let (code, cli, stderr) = run(&[], &["render", "-s", "cli"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(cli.contains("repository acme/api has been cloned to /workspace/api"), "{cli}");
    assert!(cli.contains("* work-1.example.dev (port 12000)"), "{cli}");
    assert!(cli.contains("System-level or untrusted operations"), "{cli}");
    assert!(cli.contains("Examples of api tasks:") && cli.contains("2. Add an endpoint"), "a key of prompts.yaml, templated: {cli}");
    let (code, web, stderr) = run(&[], &["render", "-s", "web"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(web.contains("* $GITHUB_TOKEN: a token for the GitHub API") && web.contains("Prefer small commits."), "{web}");
    assert!(web.contains("Data exfiltration"), "{web}");
}

#[test]
fn an_include_resolved_from_the_project_folder_says_where_names_resolve() {
    let (code, stdout, stderr) = run(&[("ctxc.toml", "root = \"prompts\"", "")], &["render", "-s", "cli"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("TPL001") && stderr.contains("non-existing template") && stderr.contains("\"security_risk_assessment.j2\""),
        "{stderr}"
    );
    assert!(stderr.contains("[prompts/system_prompt.j2:7:4]"), "at the include: {stderr}");
    assert!(stderr.contains("`[templates] root`"), "{stderr}");
}

#[test]
fn an_undefined_variable_in_an_included_file_is_reported_there_once_with_the_include_chain() {
    let (code, _, stderr) =
        run(&[("ctxc.toml", "cli_mode = true, ", ""), ("ctxc.toml", "cli_mode = false, ", "")], &["render", "-s", "cli"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("TPL002") && stderr.contains("template variable `cli_mode` is undefined: no scenario gives it a value"),
        "{stderr}"
    );
    assert!(stderr.contains("[prompts/security_risk_assessment.j2:4:7]"), "at the real line: {stderr}");
    assert!(stderr.contains("included from: prompts/system_prompt.j2:7:12"), "the include chain: {stderr}");
    assert_eq!(stderr.matches("`cli_mode` is undefined").count(), 1, "once: {stderr}");
}

#[test]
fn every_undefined_variable_is_listed_at_once_each_at_its_line() {
    let (code, _, stderr) = run(&[("ctxc.toml", "\nvars = ", "\n# vars = ")], &["render"]);
    assert_eq!(code, Some(2), "{stderr}");
    for (name, at) in [
        ("cli_mode", "[prompts/security_risk_assessment.j2:4:7]"),
        ("repository_info", "[prompts/system_prompt.j2:9:7]"),
        ("runtime_info", "[prompts/runtime_info.j2:3:37]"),
    ] {
        assert!(stderr.contains(&format!("template variable `{name}` is undefined")), "{name}: {stderr}");
        assert!(stderr.contains(at), "{name} at {at}: {stderr}");
    }
}

#[test]
fn a_variable_one_scenario_lacks_names_that_scenario() {
    let (code, _, stderr) = run(&[("ctxc.toml", "cli_mode = false, ", "")], &["render", "-s", "cli"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("template variable `cli_mode` is undefined: scenario `web` gives it no value"), "{stderr}");
}

#[test]
fn an_attribute_missing_at_render_time_points_into_the_included_file_once() {
    let (code, _, stderr) = run(&[("ctxc.toml", "working_dir = \"/workspace\", available_hosts = {}", "available_hosts = {}")], &["check"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("TPL002") && stderr.contains("`runtime_info.working_dir` is undefined"), "{stderr}");
    assert!(stderr.contains("[prompts/runtime_info.j2:3:37]"), "{stderr}");
    assert!(stderr.contains("included from: prompts/system_prompt.j2:15:4"), "{stderr}");
    assert_eq!(stderr.matches("`runtime_info.working_dir` is undefined").count(), 1, "once: {stderr}");
}

#[test]
fn a_python_method_minijinja_lacks_names_the_jinja2_way_to_write_it() {
    let (code, _, stderr) = run(
        &[("prompts/runtime_info.j2", "{{ runtime_info.working_dir }}", "{{ runtime_info.working_dir.zfill(3) }}")],
        &["render", "-s", "cli"],
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("a string has no method `.zfill()`") && stderr.contains("`|format`"), "{stderr}");
    assert!(stderr.contains("[prompts/runtime_info.j2:3:"), "{stderr}");
}

#[test]
fn a_missing_key_of_a_prompt_file_is_located_in_the_manifest() {
    let (code, _, stderr) = run(&[("ctxc.toml", "key = \"user.examples\"", "key = \"user.nope\"")], &["render", "-s", "cli"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("key `user.nope` of prompts/prompts.yaml does not exist"), "{stderr}");
    assert!(stderr.contains("[ctxc.toml:"), "{stderr}");
}

#[test]
fn a_template_root_outside_the_project_is_refused() {
    let (code, _, stderr) = run(&[("ctxc.toml", "root = \"prompts\"", "root = \"..\"")], &["render", "-s", "cli"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("[ctxc.toml:"), "{stderr}");
}

#[test]
fn an_include_climbing_out_of_the_template_root_stays_in_the_project() {
    let (code, _, stderr) = run(
        &[("prompts/system_prompt.j2", "{% include \"runtime_info.j2\" %}", "{% include \"../../../etc/passwd\" %}")],
        &["render", "-s", "cli"],
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("outside") || stderr.contains("leaves"), "refused as leaving the project: {stderr}");
    assert!(!stderr.contains("root:x:0"), "{stderr}");
}

#[test]
fn json_output_lists_the_include_chain_as_related_places() {
    let (code, stdout, stderr) = run(&[("ctxc.toml", "cli_mode = true, ", "")], &["check", "--format", "json"]);
    assert_eq!(code, Some(2), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let finding = &report["diagnostics"][0];
    assert_eq!(finding["file"], "prompts/security_risk_assessment.j2", "{finding}");
    assert_eq!((finding["line"].as_u64(), finding["column"].as_u64()), (Some(4), Some(7)));
    assert_eq!(
        finding["related"],
        serde_json::json!([{ "file": "prompts/system_prompt.j2", "line": 7, "column": 12, "message": "included from" }])
    );
}

/// The static pass raises no false alarm on the Jinja2 fixtures (loops, macros, imports,
/// includes inside loops, `caller`, `super()`, `is defined`, `|default`…): given each case's
/// variables, only the case written to use an undefined variable has one.
#[test]
fn the_static_pass_finds_only_the_undefined_variables_of_the_jinja2_fixtures() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jinja");
    let mut found = Vec::new();
    let mut cases = 0;
    for entry in std::fs::read_dir(&fixtures).expect("fixtures") {
        let case = entry.expect("entry").path();
        cases += 1;
        let vars: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(case.join("vars.json")).expect("vars")).expect("JSON");
        let text = std::fs::read_to_string(case.join("template.j2")).expect("template");
        let root = ctxc::project::ProjectRoot::new(&case).expect("root");
        let provided = |name: &str| vars.get(name).is_some();
        let scan = ctxc::templates::scan(&root, &ctxc::templates::TemplateRoot::default(), "template.j2", &text, &provided);
        let name = case.file_name().expect("name").to_string_lossy().into_owned();
        found.extend(scan.unprovided.into_iter().map(|u| format!("{name}: {}", u.name)));
    }
    assert!(cases >= 40, "{cases} fixtures");
    found.sort();
    assert_eq!(found, ["undefined_strict_error: missing_variable"]);
}

#[test]
fn a_file_two_templates_include_is_reported_once_with_both_includes() {
    let edits = [
        ("ctxc.toml", "cli_mode = true, ", ""),
        ("ctxc.toml", "examples = { source", "runtime = { source = \"prompts/runtime_info.j2\" }\nexamples = { source"),
        ("prompts/runtime_info.j2", "<RUNTIME_INFORMATION>", "{% include \"security_risk_assessment.j2\" %}\n<RUNTIME_INFORMATION>"),
    ];
    let (code, _, stderr) = run(&edits, &["render", "-s", "cli"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.matches("`cli_mode` is undefined").count(), 1, "once: {stderr}");
    assert!(stderr.contains("included from: prompts/system_prompt.j2:7:12"), "{stderr}");
    assert!(stderr.contains("included from: prompts/runtime_info.j2:2:12"), "{stderr}");
}

//! Tool files in every format `ctxc cost` and `[tools.X] files` read, recognised by content:
//! a directory of them is costed file by file (what cannot be read is reported with its code and
//! the rest still costed), each row names its file and server, and the third-party captures of
//! the shared corpus all cost without error.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::common;

use crate::common::ctxc;

const FORMATS: &str = "tests/fixtures/tools/formats";

/// The JSON on stdout, with the exit code.
fn json(args: &[&str]) -> (Option<i32>, Value) {
    let out = ctxc(&[args, &["--format", "json"]].concat());
    let value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code(), value)
}

fn strings<'a>(value: &'a Value, key: &str) -> Vec<&'a str> {
    value.as_array().expect("array").iter().map(|v| v[key].as_str().unwrap_or("-")).collect()
}

#[test]
fn a_directory_of_every_format_is_costed_file_by_file() {
    let out = ctxc(&["cost", FORMATS]);
    assert_eq!(out.status.code(), Some(0), "files that are no tool files are skipped with a warning");
    assert_snapshot!("formats-text", String::from_utf8_lossy(&out.stdout));
    assert_snapshot!("formats-warnings", String::from_utf8_lossy(&out.stderr));

    let (code, cost) = json(&["cost", FORMATS]);
    assert_eq!(code, Some(0));
    let files: Vec<String> = cost["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| format!("{} {} {}", f["file"].as_str().expect("file"), f["format"], f["tools"]))
        .collect();
    assert_eq!(
        files,
        [
            "anthropic/tools.json \"anthropic\" 2",
            "gemini/declarations.json \"gemini\" 1",
            "gemini/request.json \"gemini\" 2",
            "jsonl/bfcl.jsonl \"bfcl\" 4",
            "jsonl/openai.jsonl \"open_ai\" 2",
            "mcp/calendar.json \"mcp\" 1",
            "mcp/capture.json \"mcp\" 2",
            "openai-chat/tools.json \"open_ai\" 2",
            "openai-responses/tools.json \"open_ai_responses\" 1",
            "swe-agent/tools/notes/config.yaml \"swe_agent\" 3",
        ]
    );
    let tools = &cost["tools"];
    assert_eq!(tools.as_array().expect("tools").len(), 20);
    // Every row names its file; the server where the file says (a capture's serverInfo, else
    // the name of a tools/list result's file).
    assert!(tools.as_array().expect("tools").iter().all(|t| t["file"].is_string()));
    let mut servers: Vec<(&str, &str)> =
        strings(tools, "name").into_iter().zip(strings(tools, "server")).filter(|(_, s)| *s != "-").collect();
    servers.sort();
    assert_eq!(servers, [("append_note", "notes-server"), ("find_free_slot", "calendar"), ("list_notes", "notes-server")]);
    let problems: Vec<String> = cost["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| format!("{} {} {}", p["severity"].as_str().expect("s"), p["code"].as_str().expect("c"), p["file"].as_str().expect("f")))
        .collect();
    assert_eq!(
        problems,
        [
            "warning TOOL010 tests/fixtures/tools/formats/not-tools/.mcp.json",
            "warning TOOL010 tests/fixtures/tools/formats/not-tools/README.md",
            "warning TOOL010 tests/fixtures/tools/formats/not-tools/settings.toml",
        ]
    );
    assert_eq!(cost["duplicates"], serde_json::json!([]));
}

#[test]
fn an_agent_reads_every_format_in_its_tool_files() {
    let (code, cost) = json(&["cost", "tests/fixtures/tools"]);
    assert_eq!(code, Some(0));
    let report = &cost["reports"][0]["tool_schemas"];
    assert_eq!(report["tools"].as_array().expect("tools").len(), 20);
    // The same tools cost the same in the agent as in the directory of files.
    let (_, files) = json(&["cost", FORMATS]);
    assert_eq!(report["total"]["tokens"], files["total"]["tokens"]);
}

#[test]
fn a_broken_file_in_a_directory_fails_but_the_rest_is_reported() {
    let out = ctxc(&["cost", "tests/fixtures/tools/broken"]);
    assert_eq!(out.status.code(), Some(2), "a broken tool file is an error");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("1 tools · gpt-4o") && stdout.contains("ping"), "{stdout}");
    assert_snapshot!("broken-errors", String::from_utf8_lossy(&out.stderr));

    let (code, cost) = json(&["cost", "tests/fixtures/tools/broken"]);
    assert_eq!(code, Some(2));
    assert_eq!(strings(&cost["tools"], "name"), ["ping"]);
    let problem = &cost["problems"][0];
    assert_eq!((problem["code"].as_str(), problem["severity"].as_str()), (Some("TOOL001"), Some("error")));
    assert_eq!(problem["message"], "line 2: invalid JSON: EOF while parsing an object");
}

#[test]
fn one_file_that_is_no_tool_file_is_named_and_fails() {
    for (file, found) in [
        ("not-tools/.mcp.json", "found an MCP server configuration (JSON) listing server `notes`"),
        ("not-tools/README.md", "found Markdown"),
    ] {
        let path = format!("{FORMATS}/{file}");
        let out = ctxc(&["cost", &path]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {stderr}");
        assert!(out.stdout.is_empty(), "{file}: no report");
        assert!(stderr.contains("TOOL010"), "{file}: {stderr}");
        assert!(!stderr.contains("MAN001"), "{file} is not parsed as a manifest: {stderr}");
        // JSON always prints JSON.
        let (code, cost) = json(&["cost", &path]);
        assert_eq!((code, cost["tools"].as_array().map(Vec::len)), (Some(2), Some(0)));
        assert_eq!(cost["problems"][0]["code"], "TOOL010");
        let message = cost["problems"][0]["message"].as_str().expect("message");
        assert!(message.starts_with(&format!("not a tool file: {found};")), "{file}: {message}");
    }
    let out = ctxc(&["cost", &format!("{FORMATS}/not-tools/.mcp.json")]);
    assert_snapshot!("mcp-server-config", String::from_utf8_lossy(&out.stderr));
    // A TOML or YAML file that holds no tools is taken as a manifest, for the loader to judge.
    let out = ctxc(&["cost", &format!("{FORMATS}/not-tools/settings.toml")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("MAN001"));
}

#[test]
fn rows_carry_file_and_server_in_markdown_and_html() {
    let markdown = String::from_utf8_lossy(&ctxc(&["cost", &format!("{FORMATS}/mcp"), "--format", "markdown"]).stdout).into_owned();
    assert!(markdown.contains("| tool | server | file | tokens |"), "{markdown}");
    assert!(markdown.contains("| list_notes | notes-server | capture.json |"), "{markdown}");
    let html = String::from_utf8_lossy(&ctxc(&["cost", &format!("{FORMATS}/mcp"), "--format", "html"]).stdout).into_owned();
    assert!(html.contains("list_notes · notes-server · capture.json"), "{html}");
}

#[test]
fn duplicate_names_across_files_are_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["a.json", "b.json"] {
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(FORMATS).join("mcp/calendar.json"), dir.path().join(name)).expect("copy");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc")).args(["cost", "--format", "json"]).arg(dir.path()).output().expect("ctxc runs");
    assert_eq!(out.status.code(), Some(0), "a duplicate is a warning");
    let cost: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(cost["duplicates"], serde_json::json!([{ "name": "find_free_slot", "files": ["a.json", "b.json"] }]));
    assert_eq!(cost["problems"][0]["code"], "TOOL003");
    assert!(String::from_utf8_lossy(&out.stderr).contains("tool `find_free_slot` is defined 2 times: in a.json, b.json"));
}

#[test]
fn every_third_party_capture_in_the_corpus_costs_without_error() {
    let dir = common::corpus().join("tools");
    let files = common::walk(&dir).into_iter().filter(|p| p.is_file()).count();
    let out = ctxc(&["cost", dir.to_str().expect("UTF-8 path"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let cost: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(cost["files"].as_array().expect("files").len(), files, "every file of the corpus is a tool file ctxc reads");
    let errors: Vec<&Value> = cost["problems"].as_array().expect("problems").iter().filter(|p| p["severity"] != "warning").collect();
    assert!(errors.is_empty(), "{errors:?}");
    // Only duplicate names are warned about (the MCP spec's examples reuse two names).
    assert!(cost["problems"].as_array().expect("problems").iter().all(|p| p["code"] == "TOOL003"));
    assert!(cost["tools"].as_array().expect("tools").len() >= files);
}

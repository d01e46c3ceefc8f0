//! `ctxc check` over a small repository holding Claude Code and MCP files of several kinds: each
//! defect is reported once, by its CLAUDE or MCP rule, in the concise format, and the exit code
//! says there are errors.

use crate::common;

use std::process::Command;

#[test]
fn a_repository_of_claude_code_and_mcp_files_is_checked_zero_config() {
    let project = common::project(&[
        (
            ".claude/agents/reviewer.md",
            "---\nname: Code Reviewer\ndescription: Reviews changed code for bugs and missing tests. Use after every change.\ntools: read, Grep\n---\nYou review code.\n",
        ),
        (".claude/commands/fix.md", "---\nallowed-tools: Read\n---\nFailing tests: !`npm test`\n\nFix them.\n"),
        (
            ".claude/settings.json",
            "{\n  \"permissions\": {\"defaultMode\": \"bypassPermissions\"},\n  \"hooks\": {\n    \"preToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./guard.sh\", \"timeout\": 5000}]}]\n  }\n}\n",
        ),
        (
            ".mcp.json",
            "{\n  \"mcpServers\": {\n    \"files\": {\"command\": \"npx -y @modelcontextprotocol/server-filesystem .\"},\n    \"api\": {\"type\": \"http\", \"url\": \"https://api.example.com/mcp\", \"headers\": {\"Authorization\": \"Bearer $API_TOKEN\"}}\n  }\n}\n",
        ),
        (".claude-plugin/plugin.json", "{\n  \"name\": \"review-helpers\",\n  \"version\": \"v1\"\n}\n"),
        ("CLAUDE.md", "# Project\n\nRun the tests before committing.\n"),
    ]);
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["check", "--format", "concise", "."])
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("ctxc runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout,
        "\
.claude-plugin/plugin.json:3:14: CLAUDE049 plugin version `v1` is not a semantic version
.claude/agents/reviewer.md:2:7: CLAUDE004 subagent name `Code Reviewer` is not lowercase letters, digits and hyphens
.claude/agents/reviewer.md:4:8: CLAUDE010 `read` in `tools` is not a tool; tool names are case-sensitive
.claude/commands/fix.md:4:18: CLAUDE021 shell line `npm test` will not run: `allowed-tools` grants no `Bash`
.claude/settings.json:4:5: CLAUDE030 `preToolUse` is not a hook event; its hooks never run
.mcp.json:3:26: MCP014 server `files`: command `npx -y @modelcontextprotocol/server-filesystem .` includes arguments; it is started as one program name
.mcp.json:4:104: MCP011 `$API_TOKEN` in server `api` is not expanded; write `${API_TOKEN}`
.claude/settings.json:2:34: CLAUDE043 [warning] the shared settings start every session in `bypassPermissions`: no tool call asks for approval
.claude/settings.json:4:106: CLAUDE036 [warning] hook timeout is 5,000 seconds (83 minutes); timeouts are in seconds, not milliseconds
"
    );
    assert_eq!(out.status.code(), Some(1), "errors found: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("7 errors, 2 warnings in 6 files"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_tool_definitions_file_named_on_the_command_line_gets_the_mcp_tool_rules() {
    let project = common::project(&[(
        "tools.json",
        "{\"tools\": [\n  {\"name\": \"search issues\", \"inputSchema\": {\"type\": \"object\"}, \"annotations\": {\"readOnlyHint\": true, \"destructiveHint\": true}}\n]}\n",
    )]);
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["check", "--format", "concise", "tools.json"])
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("ctxc runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let codes: Vec<&str> = stdout.lines().filter_map(|l| l.split_whitespace().nth(1)).collect();
    assert_eq!(codes, ["MCP016", "MCP019", "MCP020"], "{stdout}");
}

/// Applies every edit of every fix to the files (display paths) and returns the new texts.
fn apply_fixes(report: &ctxc::lint::CheckReport) -> std::collections::BTreeMap<String, String> {
    let mut edits: std::collections::BTreeMap<String, Vec<(std::ops::Range<usize>, String)>> = Default::default();
    for fix in report.diagnostics.iter().filter_map(|d| d.fix.as_ref()) {
        for edit in &fix.edits {
            edits.entry(edit.file.clone()).or_default().push((edit.span.clone(), edit.replacement.clone()));
        }
    }
    let mut out = std::collections::BTreeMap::new();
    for (file, mut list) in edits {
        let mut text = std::fs::read_to_string(&file).expect("read");
        // From the end, so earlier offsets stay valid.
        list.sort_by_key(|edit| std::cmp::Reverse(edit.0.start));
        for (span, replacement) in list {
            text.replace_range(span, &replacement);
        }
        out.insert(file, text);
    }
    out
}

#[test]
fn every_attached_fix_makes_its_finding_go_away_and_changes_nothing_else() {
    let files: &[(&str, &str, &str)] = &[
        (
            ".claude/agents/reviewer.md",
            "---\nname: Code Reviewer\ndescription: Reviews changed code for bugs. Use after every change.\nmodel: Sonnet\ntools: read, Grep\n---\nYou review code.\n",
            "---\nname: code-reviewer\ndescription: Reviews changed code for bugs. Use after every change.\nmodel: sonnet\ntools: Read, Grep\n---\nYou review code.\n",
        ),
        (
            ".claude/commands/status.md",
            "---\nallowed-tools: bash(git status:*), Read\nmodel: Haiku\n---\nSummarize the working tree.\n",
            "---\nallowed-tools: Bash(git status:*), Read\nmodel: haiku\n---\nSummarize the working tree.\n",
        ),
        (
            ".claude/settings.json",
            "{\n  \"model\": \"Opus\",\n  \"permissions\": {\"allow\": [\"Read\", \"bash(npm test)\", \"Read\"]},\n  \"hooks\": {\n    \"stop\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"bash $CLAUDE_PROJECT_DIR/x.sh\", \"timeout\": 5000}]}]\n  }\n}\n",
            "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Read\", \"Bash(npm test)\"]},\n  \"hooks\": {\n    \"Stop\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"bash \\\"$CLAUDE_PROJECT_DIR/x.sh\\\"\", \"timeout\": 5}]}]\n  }\n}\n",
        ),
        (
            ".mcp.json",
            "{\n  \"mcpServers\": {\n    \"files\": {\"command\": \"npx -y server-fs .\"},\n    \"api\": {\"type\": \"http\", \"url\": \"https://a.example.com/mcp\", \"headers\": {\"X-Key\": \"$KEY\"}}\n  }\n}\n",
            "{\n  \"mcpServers\": {\n    \"files\": {\"command\": \"npx\", \"args\": [\"-y\", \"server-fs\", \".\"]},\n    \"api\": {\"type\": \"http\", \"url\": \"https://a.example.com/mcp\", \"headers\": {\"X-Key\": \"${KEY}\"}}\n  }\n}\n",
        ),
        (".claude-plugin/plugin.json", "{\n  \"name\": \"Review Helpers\"\n}\n", "{\n  \"name\": \"review-helpers\"\n}\n"),
    ];
    let project = common::project(&files.iter().map(|(path, before, _)| (*path, *before)).collect::<Vec<_>>());
    let session = ctxc::Session::default();
    let report = ctxc::lint::check(project.path(), &ctxc::lint::Options::default(), &session);
    let fixed = apply_fixes(&report);
    for (path, _, after) in files {
        let file = project.path().join(path).display().to_string();
        assert_eq!(fixed.get(&file).map(String::as_str), Some(*after), "{path}");
        std::fs::write(&file, after).expect("write");
    }
    // The second stage, the matcher on `Stop` (an event that ignores it), now that the event's
    // name is right: its fix removes the matcher.
    let report = ctxc::lint::check(project.path(), &ctxc::lint::Options::default(), &session);
    let codes: Vec<String> = report.diagnostics.iter().filter_map(|d| d.code.map(|c| c.to_string())).collect();
    assert_eq!(codes, ["CLAUDE031"], "{:?}", report.diagnostics);
    let fixed = apply_fixes(&report);
    let settings = project.path().join(".claude/settings.json").display().to_string();
    std::fs::write(&settings, &fixed[&settings]).expect("write");
    assert!(fixed[&settings].contains("\"Stop\": [{\"hooks\": ["), "{}", fixed[&settings]);
    let report = ctxc::lint::check(project.path(), &ctxc::lint::Options::default(), &session);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

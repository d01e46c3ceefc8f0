//! Claude Code plugins: a plugin's agents, commands, hooks, skills and MCP servers are read as
//! Claude Code reads them (data/hosts/claude-code.toml), with the plugin's root and namespace.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use ctxc::lint::{CheckReport, Options};

use crate::common;

/// Where a `.claude/` file of a fixture goes in a plugin twin, when it has one: agents and
/// commands keep their place under the plugin's root; a settings file holding only hooks becomes
/// the plugin's `hooks/hooks.json`.
fn twin_path(rel: &str, text: &str) -> Option<String> {
    if let Some(rest) = rel.strip_prefix(".claude/agents/") {
        return Some(format!("plug/agents/{rest}"));
    }
    if let Some(rest) = rel.strip_prefix(".claude/commands/") {
        return Some(format!("plug/commands/{rest}"));
    }
    let json: serde_json::Value = serde_json::from_str(text).ok()?;
    let only_hooks = json.as_object().is_some_and(|m| m.keys().all(|k| k == "hooks" || k == "$schema") && m.contains_key("hooks"));
    (rel == ".claude/settings.json" && only_hooks).then(|| "plug/hooks/hooks.json".to_string())
}

fn files(dir: &Path) -> Vec<(String, String)> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(dir).ok()?.to_string_lossy().replace('\\', "/");
            Some((rel, std::fs::read_to_string(e.path()).ok()?))
        })
        .collect()
}

/// The findings as (code, file as the twin names it, byte range, severity).
fn findings(report: &CheckReport, root: &Path, rename: &dyn Fn(&str) -> String) -> BTreeSet<String> {
    report
        .diagnostics
        .iter()
        .filter(|d| !d.file.as_deref().unwrap_or("").ends_with("plugin.json"))
        .map(|d| {
            let file = d.file.as_deref().unwrap_or("");
            let rel = Path::new(file).strip_prefix(root).map_or(file.to_string(), |p| p.to_string_lossy().replace('\\', "/"));
            format!("{:?} {} {:?} {:?}", d.code, rename(&rel), d.span, d.severity)
        })
        .collect()
}

/// Every fixture of a `.claude/` subagent, command or hooks rule, moved into a plugin, gets the
/// same findings at the same places: the plugin's files are read, and read alike.
#[test]
fn every_claude_fixture_has_a_plugin_twin_with_the_same_findings() {
    let session = ctxc::Session::default();
    let base = Path::new("tests/fixtures/rules");
    let mut twins = 0;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(base).expect("fixtures").flatten().map(|e| e.path()).collect();
    dirs.sort();
    for dir in dirs.iter().flat_map(|d| [d.join("fail"), d.join("pass")]) {
        let all = files(&dir);
        let twin: Option<Vec<(String, &str)>> = all.iter().map(|(rel, text)| Some((twin_path(rel, text)?, text.as_str()))).collect();
        let Some(mut twin) = twin.filter(|t| !t.is_empty() && !dir.join("args").exists()) else { continue };
        twin.push(("plug/.claude-plugin/plugin.json".into(), "{\"name\": \"plug\"}\n"));
        let original = ctxc::lint::check(&dir, &Options::default(), &session);
        let project = common::project(&twin.iter().map(|(p, t)| (p.as_str(), *t)).collect::<Vec<_>>());
        let plugin = ctxc::lint::check(project.path(), &Options::default(), &session);
        let to_twin = |rel: &str| all.iter().find(|(r, _)| r == rel).and_then(|(r, t)| twin_path(r, t)).unwrap_or_else(|| rel.to_string());
        let expected = findings(&original, &dir, &to_twin);
        let got = findings(&plugin, project.path(), &|rel: &str| rel.to_string());
        assert_eq!(got, expected, "{}: the plugin twin's findings differ", dir.display());
        twins += 1;
    }
    assert!(twins >= 60, "only {twins} fixtures have a plugin twin");
}

fn check(project: &Path, options: &Options) -> CheckReport {
    ctxc::lint::check(project, options, &ctxc::Session::default())
}

fn codes(report: &CheckReport) -> Vec<String> {
    report.diagnostics.iter().map(|d| format!("{} {}", d.code.map_or("-".into(), |c| c.to_string()), d.message)).collect()
}

/// The findings of `code` in `file` (relative to the project).
fn of(report: &CheckReport, project: &Path, code: &str, file: &str) -> Vec<String> {
    let file = project.join(file).to_string_lossy().into_owned();
    report
        .diagnostics
        .iter()
        .filter(|d| d.code.is_some_and(|c| c.as_str() == code) && d.file.as_deref() == Some(&file))
        .map(|d| d.message.clone())
        .collect()
}

const PLUGIN: &str = "{\"name\": \"reviewer\"}\n";

/// The false alarms of issue 44 on real plugins, each in the shape it was met in: a plugin at
/// the repository's root (beside the repository's own `.agents/skills`) and one in a folder.
#[test]
fn a_plugin_is_read_with_its_root_namespace_and_variables() {
    let skill =
        |name: &str, body: &str| format!("---\nname: {name}\ndescription: Reviews code. Use when asked for a review.\n---\n{body}\n");
    let agent = "---\nname: linter\ndescription: Lints. Use after edits.\n---\nRead references/rules.md first.\n";
    let project = common::project(&[
        // Plugin skills are `reviewer:review`: no clash with the repository's `review` (SKILL016).
        (".claude-plugin/plugin.json", PLUGIN),
        (".agents/skills/review/SKILL.md", &skill("review", "Review the diff.")),
        ("skills/review/SKILL.md", &skill("review", "Review the diff.")),
        ("agents/linter.md", agent),
        // A script at the plugin's root (SKILL017), a reference its agent reads (SKILL018), `effort` (SKILL011).
        ("plugins/other/.claude-plugin/plugin.json", "{\"name\": \"other\"}\n"),
        (
            "plugins/other/skills/lint/SKILL.md",
            "---\nname: lint\ndescription: Lints code. Use when asked to lint.\neffort: high\n---\nRun `python ${CLAUDE_PLUGIN_ROOT}/scripts/lint.py`: `scripts/lint.py` checks all.\n",
        ),
        ("plugins/other/scripts/lint.py", "print('ok')\n"),
        ("plugins/other/skills/lint/references/rules.md", "# Rules\n"),
        // Same agent name in another plugin: `other:linter` (CLAUDE019).
        ("plugins/other/agents/linter.md", agent),
        // The flat server map (MCP002) and `${CLAUDE_PLUGIN_ROOT}` (MCP010); the rules still read its servers (MCP014).
        (
            "plugins/other/.mcp.json",
            "{\n  \"local\": {\"command\": \"node ${CLAUDE_PLUGIN_ROOT}/server.js\"},\n  \"api\": {\"type\": \"http\", \"url\": \"https://api.example.com/mcp\"}\n}\n",
        ),
        // Outside a plugin, nothing sets it (MCP010 stays).
        ("app/.mcp.json", "{\n  \"mcpServers\": {\"local\": {\"command\": \"node\", \"args\": [\"${CLAUDE_PLUGIN_ROOT}/server.js\"]}}\n}\n"),
    ]);
    let p = project.path();
    let report = check(p, &Options::default());
    let none = Vec::<String>::new();
    assert_eq!(of(&report, p, "SKILL016", "skills/review/SKILL.md"), none);
    assert_eq!(of(&report, p, "SKILL016", ".agents/skills/review/SKILL.md"), none);
    assert_eq!(of(&report, p, "SKILL017", "plugins/other/skills/lint/SKILL.md"), none);
    assert_eq!(of(&report, p, "SKILL018", "plugins/other/skills/lint/SKILL.md"), none);
    assert_eq!(of(&report, p, "SKILL011", "plugins/other/skills/lint/SKILL.md"), none);
    assert_eq!(of(&report, p, "MCP002", "plugins/other/.mcp.json"), none);
    assert_eq!(of(&report, p, "MCP010", "plugins/other/.mcp.json"), none);
    assert_eq!(of(&report, p, "MCP014", "plugins/other/.mcp.json").len(), 1, "{:?}", codes(&report));
    assert_eq!(of(&report, p, "MCP010", "app/.mcp.json").len(), 1, "{:?}", codes(&report));
    assert_eq!(of(&report, p, "CLAUDE019", "plugins/other/agents/linter.md"), none);
    assert_eq!(of(&report, p, "CLAUDE019", "agents/linter.md"), none);
}

/// A marketplace entry's `source` makes a folder a plugin even without plugin.json, and
/// plugin.json's component paths point the host at other files.
#[test]
fn plugin_roots_come_from_marketplaces_and_components_from_the_manifest() {
    let bad_agent = "---\nname: Bad Name\ndescription: Reviews. Use after edits.\n---\nReview.\n";
    let bad_hooks = "{\"hooks\": {\"preToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./x.sh\"}]}]}}\n";
    let project = common::project(&[
        (
            ".claude-plugin/marketplace.json",
            "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": [{\"name\": \"listed\", \"source\": \"./plugins/listed\", \"agents\": [\"./roles/a.md\"]}]}\n",
        ),
        ("plugins/listed/agents/x.md", bad_agent),
        ("plugins/listed/roles/a.md", bad_agent),
        (
            "custom/.claude-plugin/plugin.json",
            "{\"name\": \"custom\", \"agents\": \"./team\", \"hooks\": \"./config/hooks.json\", \"commands\": [\"./cmd/go.md\"]}\n",
        ),
        ("custom/team/a.md", bad_agent),
        ("custom/config/hooks.json", bad_hooks),
        ("custom/cmd/go.md", "---\nargs: [x]\n---\nGo $1.\n"),
        // Hooks written inline in plugin.json are hooks too; a path is not a malformed hooks object.
        ("inline/.claude-plugin/plugin.json", &format!("{{\"name\": \"inline\", {}", &bad_hooks[1..])),
        ("paths/.claude-plugin/plugin.json", "{\"name\": \"paths\", \"hooks\": \"./hooks/extra.json\"}\n"),
        // Not a plugin: `agents/` of an ordinary folder is not read.
        ("docs/agents/x.md", bad_agent),
    ]);
    let p = project.path();
    let report = check(p, &Options::default());
    for file in ["plugins/listed/agents/x.md", "plugins/listed/roles/a.md", "custom/team/a.md"] {
        assert_eq!(of(&report, p, "CLAUDE004", file).len(), 1, "{file}: {:?}", codes(&report));
    }
    assert_eq!(of(&report, p, "CLAUDE030", "custom/config/hooks.json").len(), 1, "{:?}", codes(&report));
    assert_eq!(of(&report, p, "CLAUDE026", "custom/cmd/go.md").len(), 1, "{:?}", codes(&report));
    assert_eq!(of(&report, p, "CLAUDE030", "inline/.claude-plugin/plugin.json").len(), 1, "{:?}", codes(&report));
    assert_eq!(of(&report, p, "CLAUDE032", "paths/.claude-plugin/plugin.json"), Vec::<String>::new());
    assert_eq!(of(&report, p, "CLAUDE004", "docs/agents/x.md"), Vec::<String>::new());
}

/// `--fix --unsafe-fixes` at the strict level removes a field no host reads, never one Claude
/// Code reads (`effort`), though both are outside the Agent Skills specification (SKILL011).
#[test]
fn unsafe_fixes_never_delete_a_field_the_host_reads() {
    let text = "---\nname: lint\ndescription: Lints code. Use when asked to lint.\neffort: high\nversion: \"1.2\"\n---\nLint.\n";
    let project = common::project(&[("skills/lint/SKILL.md", text)]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["check", "--strict", "--fix", "--unsafe-fixes", "."])
        .current_dir(project.path())
        .output()
        .expect("ctxc runs");
    let after = std::fs::read_to_string(project.path().join("skills/lint/SKILL.md")).expect("read");
    assert_eq!(after, "---\nname: lint\ndescription: Lints code. Use when asked to lint.\neffort: high\n---\nLint.\n", "{out:?}");
    // Still reported at the strict level: outside the specification.
    let report = check(project.path(), &Options { strict: true, ..Options::default() });
    assert_eq!(of(&report, project.path(), "SKILL011", "skills/lint/SKILL.md").len(), 1, "{:?}", codes(&report));
}

/// Events Claude Code added after the hand-kept list (`UserPromptExpansion` in the official
/// marketplace's hooks, `PreSkillShellCommand`) are events, wherever hooks are written (CLAUDE030).
#[test]
fn the_hook_events_are_claude_codes_current_ones() {
    let hooks = "{\"hooks\": {\"UserPromptExpansion\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./banner.sh\"}]}], \"PreSkillShellCommand\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./guard.sh\"}]}]}}\n";
    let project =
        common::project(&[(".claude/settings.json", hooks), ("plug/.claude-plugin/plugin.json", PLUGIN), ("plug/hooks/hooks.json", hooks)]);
    let report = check(project.path(), &Options::default());
    for file in [".claude/settings.json", "plug/hooks/hooks.json"] {
        assert_eq!(of(&report, project.path(), "CLAUDE030", file), Vec::<String>::new(), "{file}");
    }
}

/// A marketplace entry's `skills` names skill folders (anthropics/skills lists `./skills/xlsx`…):
/// only their `SKILL.md` is a skill, not the README or references beside it.
#[test]
fn a_skills_component_path_names_skill_folders_not_every_markdown_file() {
    let marketplace = r#"{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "docs", "source": "./", "strict": false, "skills": ["./skills/xlsx"]}]}"#;
    let skill = "---\nname: xlsx\ndescription: Reads and writes spreadsheets; use it when a task names an .xlsx file.\n---\nSee [the API](reference/api.md).\n";
    let project = common::project(&[
        (".claude-plugin/marketplace.json", marketplace),
        ("skills/xlsx/SKILL.md", skill),
        ("skills/xlsx/README.md", "# xlsx\n\nNotes for people.\n"),
        ("skills/xlsx/reference/api.md", "# API\n\nCalls.\n"),
    ]);
    let report = check(project.path(), &Options::default());
    assert_eq!(codes(&report), Vec::<String>::new(), "{report:?}");
}

/// `ctxc` run in `dir` (`stdin`: the text it reads), its concise findings in `file`.
fn concise_in(dir: &Path, args: &[&str], stdin: Option<&str>, file: &str) -> Vec<String> {
    let args: Vec<&str> = args.iter().copied().chain(["--format", "concise"]).collect();
    let out = common::ctxc_with_stdin(dir, &args, stdin.unwrap_or(""));
    let prefix = format!("{file}:");
    String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with(&prefix)).map(str::to_string).collect()
}

/// A plugin's hooks, agents and commands checked alone (named on the command line, or given on
/// stdin under their name) get the findings a check of the whole tree gives them: their plugin is
/// found from the file's folders, whether its manifest or a marketplace makes it one.
#[test]
fn a_plugin_file_checked_alone_gets_the_findings_of_the_tree() {
    // Names and descriptions that differ, so that no finding compares files (CLAUDE019,
    // INSTR005, CLAUDE026's grouping).
    let bad_agent = |name: &str| format!("---\nname: Bad {name}\ndescription: Reviews {name}. Use after edits.\n---\nReview.\n");
    let (x, a, y) = (bad_agent("X"), bad_agent("A"), bad_agent("Y"));
    let bad_hooks = "{\"hooks\": {\"preToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./x.sh\"}]}]}}\n";
    let bad_command = |key: &str| format!("---\n{key}: [x]\n---\nGo $1.\n");
    let (go, run) = (bad_command("args"), bad_command("params"));
    let files = [
        // `./team` is there, `./cmd/gone.md` is not (CLAUDE059), from the plugin's folder.
        ("plug/.claude-plugin/plugin.json", "{\"name\": \"plug\", \"agents\": \"./team\", \"commands\": [\"./cmd/gone.md\"]}\n"),
        ("plug/hooks/hooks.json", bad_hooks),
        ("plug/agents/x.md", &x),
        ("plug/team/a.md", &a),
        ("plug/commands/go.md", &go),
        (
            ".claude-plugin/marketplace.json",
            "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": [{\"name\": \"listed\", \"source\": \"./plugins/listed\"}]}\n",
        ),
        ("plugins/listed/agents/y.md", &y),
        ("plugins/listed/hooks/hooks.json", bad_hooks),
        ("plugins/listed/commands/go.md", &run),
    ];
    let project = common::project(&files);
    let p = project.path();
    for (file, text) in files {
        let tree = concise_in(p, &["check", "."], None, file);
        assert!(!tree.is_empty() || file.ends_with("marketplace.json"), "{file}: the tree check finds nothing");
        assert_eq!(concise_in(p, &["check", file], None, file), tree, "{file} named alone");
        assert_eq!(concise_in(p, &["check", "-", "--stdin-filename", file], Some(text), file), tree, "{file} on stdin");
    }
}

/// ctxc's own Claude Code plugin (`plugins/ctxc`) and the marketplace listing it pass ctxc's
/// checks with no finding, the rules in preview and the strict Agent Skills level included, in
/// the repository and copied alone into a project of their own.
#[test]
fn ctxcs_own_plugin_and_marketplace_have_no_finding() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let alone = tempfile::tempdir().expect("tempdir");
    for folder in ["plugins/ctxc", ".claude-plugin"] {
        common::copy_tree(&repo.join(folder), &alone.path().join(folder));
    }
    for (dir, args) in [
        (repo, vec!["check", "plugins/ctxc", "--preview", "--strict"]),
        (repo, vec!["check", ".claude-plugin/marketplace.json", "--preview", "--strict"]),
        (alone.path(), vec!["check", ".", "--preview", "--strict"]),
    ] {
        let out = common::ctxc_with_stdin(dir, &args, "");
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {said}");
        assert!(said.starts_with("ctxc check: no problems in"), "{args:?}: {said}");
    }
    let out = common::ctxc_with_stdin(alone.path(), &["check", ".", "--format", "json"], "");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let files: Vec<&str> = report["files"].as_array().expect("files").iter().map(|f| f.as_str().expect("a path")).collect();
    assert_eq!(
        files,
        [
            ".claude-plugin/marketplace.json",
            "plugins/ctxc/.claude-plugin/plugin.json",
            "plugins/ctxc/.mcp.json",
            "plugins/ctxc/commands/ctxc.md",
            "plugins/ctxc/hooks/hooks.json",
            "plugins/ctxc/skills/ctxc/SKILL.md"
        ],
        "every file of the plugin is read as the host reads it"
    );
}

/// The plugin's PostToolUse hook checks the file Claude Code wrote: findings go back to Claude
/// on stderr with exit 2; a file of no kind ctxc knows, or a payload without a path, passes.
#[test]
fn the_plugins_hook_reports_findings_in_an_edited_agent_file() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let hook = repo.join("plugins/ctxc/hooks/check-edited.sh");
    let bin = Path::new(env!("CARGO_BIN_EXE_ctxc")).parent().expect("the binary's folder");
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("PATH");
    let project = common::project(&[
        ("skills/a/SKILL.md", "---\nname: b\ndescription: Drafts release notes from merged pull requests.\n---\nBody.\n"),
        ("notes.txt", "x"),
    ]);
    let run = |payload: String| {
        let mut child = std::process::Command::new(&hook)
            .current_dir(project.path())
            .env("PATH", &path)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the hook runs");
        std::io::Write::write_all(child.stdin.as_mut().expect("stdin"), payload.as_bytes()).expect("payload");
        let out = child.wait_with_output().expect("the hook ends");
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let payload = |file: &str| {
        format!(r#"{{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{{"file_path":"{file}","content":"…"}}}}"#)
    };
    let (code, said) = run(payload("skills/a/SKILL.md"));
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("skills/a/SKILL.md:2:7: SKILL005"), "{said}");
    assert_eq!(run(payload("notes.txt")), (Some(0), String::new()));
    assert_eq!(run(r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#.into()), (Some(0), String::new()));
}

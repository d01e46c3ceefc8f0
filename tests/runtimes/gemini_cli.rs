//! The Gemini CLI host view (`ctxc cost --host gemini-cli`) against Gemini CLI's own memory
//! loader and skills listing: `@google/gemini-cli-core` at the version data/hosts/gemini-cli.toml
//! names, installed by scripts/runtimes and run with Node on scratch repositories
//! (tests/runtimes/gemini_cli/memory.mjs, skills.mjs). The memory and skills sections ctxc
//! assembles must be the texts the package builds, byte for byte, for every working directory of
//! every case (the skills of one folder in path order: Gemini CLI lists them in the order the
//! file system gives).

use crate::common;

use std::path::Path;

/// The installed core package of the version the host file's `memory-discovery` source names.
fn core_package() -> std::path::PathBuf {
    let host = ctxc::hosts::all().iter().find(|h| h.id == "gemini-cli").expect("the gemini-cli host");
    let version = host.sources["memory-discovery"].version.clone().expect("a version");
    let dir = common::runtime_path(&format!("gemini-cli-core-{version}/node_modules/@google/gemini-cli-core"));
    let package: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).expect("package.json")).expect("JSON");
    assert_eq!(package["version"].as_str(), Some(version.as_str()), "the installed package is the version the host file names");
    dir
}

/// Gemini CLI's project memory for each working directory (absolute paths).
fn gemini_memory(dirs: &[String]) -> serde_json::Map<String, serde_json::Value> {
    run_script("memory.mjs", dirs)
}

/// What a script of tests/runtimes/gemini_cli writes for each working directory.
fn run_script(name: &str, dirs: &[String]) -> serde_json::Map<String, serde_json::Value> {
    let scratch = tempfile::tempdir().expect("tempdir");
    let out = scratch.path().join("out.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/gemini_cli").join(name);
    let run = std::process::Command::new("node")
        .arg(script)
        .arg(core_package())
        .arg(&out)
        .args(dirs)
        // No user memory: the home folder is empty.
        .env("HOME", scratch.path())
        .env("GEMINI_CLI_HOME", scratch.path())
        .output()
        .expect("node runs");
    assert!(run.status.success(), "{name} failed: {}", String::from_utf8_lossy(&run.stderr));
    serde_json::from_slice(&std::fs::read(&out).expect("the script's output")).expect("JSON")
}

/// ctxc's memory section for the working directory `from` (relative to the root).
fn ctxc_memory(root: &Path, from: &str) -> String {
    ctxc_section(root, from, "memory")
}

/// ctxc's section `title` for the working directory `from`, as the host sends it ("" if none).
fn ctxc_section(root: &Path, from: &str, title: &str) -> String {
    let root = ctxc::project::ProjectRoot::new(root).expect("root");
    let host = ctxc::hostview::hosts().find(|h| h.id == "gemini-cli").expect("a startup model");
    let views = ctxc::hostview::views(&root, from, &[host], None, &ctxc::tokens::TokenCounter::new());
    let view = &views.views[0];
    view.sections.iter().find(|s| s.title == title).map(|s| s.joined.clone().expect("joined")).unwrap_or_default()
}

/// Writes `files` (path, text) under `root`; a path ending in `/` is a folder.
fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        if path.to_string_lossy().ends_with('/') {
            std::fs::create_dir_all(&path).expect("mkdir");
            continue;
        }
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
    }
}

/// A case: its name, its files and the working directories to compare.
type Case = (&'static str, Vec<(&'static str, &'static str)>, Vec<&'static str>);

fn cases() -> Vec<Case> {
    vec![
        (
            "chain and order",
            vec![
                (".git/", ""),
                ("GEMINI.md", "# Root\n\nUse tabs.\n"),
                ("sub/GEMINI.md", "  sub rules  \n"),
                ("sub/deeper/x.txt", ""),
                // Sorted by absolute path: `Docs/…` comes before the root's `GEMINI.md`.
                ("Docs/GEMINI.md", "docs rules"),
                ("empty/GEMINI.md", " \n\t\n"),
                ("bom/GEMINI.md", "\u{feff}with a byte order mark\u{85}"),
                ("nested/.git", "gitdir: elsewhere"),
                ("nested/GEMINI.md", "nested repository"),
                ("nested/in/GEMINI.md", "inside nested"),
            ],
            vec!["", "sub", "sub/deeper", "Docs", "empty", "bom", "nested/in"],
        ),
        (
            "imports",
            vec![
                (".git/", ""),
                (
                    "GEMINI.md",
                    "Read @./rules.md and @docs/a.md\nMail a@b.com, ask @someone, see `@code.md` and\n```\n@fenced.md\n```\n@/etc/passwd @../outside.md @docs @loop1.md\n@rules.md again\n",
                ),
                ("rules.md", "Rules text.\n"),
                ("docs/a.md", "A imports @b.md\n"),
                ("docs/b.md", "B imports @c.md\n"),
                ("docs/c.md", "C imports @d.md\n"),
                ("docs/d.md", "D imports @e.md\n"),
                ("docs/e.md", "E imports @f.md\n"),
                ("docs/f.md", "F imports @g.md\n"),
                ("docs/g.md", "G\n"),
                ("loop1.md", "one @loop2.md"),
                ("loop2.md", "two @loop1.md"),
                ("fenced.md", "never"),
                ("code.md", "never"),
                ("sub/GEMINI.md", "@../rules.md from a subfolder"),
            ],
            vec!["", "sub"],
        ),
        (
            "settings",
            vec![
                (".git/", ""),
                ("GEMINI.md", "gemini"),
                ("AGENTS.md", "agents"),
                ("CONTEXT.md", "context"),
                ("a/GEMINI.md", "a"),
                ("a/AGENTS.md", "a agents"),
                ("a/.gemini/settings.json", r#"{"context": {"fileName": ["AGENTS.md", "CONTEXT.md"]}}"#),
                ("b/GEMINI.md", "b"),
                ("b/.gemini/settings.json", r#"{"context": {"memoryBoundaryMarkers": []}}"#),
                ("c/GEMINI.md", "c"),
                ("c/.gemini/settings.json", r#"{"context": {"fileName": "AGENTS.md", "memoryBoundaryMarkers": ["c"]}}"#),
            ],
            vec!["a", "b", "c"],
        ),
    ]
}

#[test]
#[ignore = "needs @google/gemini-cli-core: scripts/runtimes installs it"]
fn memory_equals_gemini_clis_loader() {
    let mut compared = 0;
    for (name, files, froms) in cases() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        write(&root, &files);
        let absolute: Vec<String> = froms.iter().map(|f| root.join(f).to_string_lossy().trim_end_matches('/').to_string()).collect();
        let theirs = gemini_memory(&absolute);
        for (from, abs) in froms.iter().zip(&absolute) {
            let expected = theirs[abs].as_str().expect("a text");
            assert!(!expected.is_empty(), "{name}, {from}: the loader found nothing");
            assert_eq!(ctxc_memory(&root, from), expected, "{name}, working directory `{from}`");
            compared += 1;
        }
    }
    assert_eq!(compared, 12);
}

/// A skills listing with the skills of each folder in path order (`.gemini/skills` ones before
/// `.agents/skills` ones, as Gemini CLI reads the folders): Gemini CLI takes each folder's files
/// in the order the file system gives them.
fn in_path_order(listing: &str) -> String {
    let (Some(start), Some(end)) = (listing.find("<available_skills>\n"), listing.rfind("\n</available_skills>")) else {
        return listing.to_string();
    };
    let body = &listing[start + "<available_skills>\n".len()..end];
    let mut skills: Vec<&str> = body.split_inclusive("</skill>").map(|s| s.trim_start_matches('\n')).collect();
    let place = |s: &str| (!s.contains("/.gemini/skills/"), s[s.find("<location>").unwrap_or(0)..].to_string());
    skills.sort_by_key(|s| place(s));
    format!("{}{}{}", &listing[..start + "<available_skills>\n".len()], skills.join("\n"), &listing[end..])
}

#[test]
#[ignore = "needs @google/gemini-cli-core: scripts/runtimes installs it"]
fn skills_listing_equals_gemini_clis() {
    let skill = |name: &str, description: &str| format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n");
    let files: Vec<(String, String)> = vec![
        (".git/".into(), String::new()),
        (".gemini/skills/review/SKILL.md".into(), skill("review", "Reviews a change.")),
        (".gemini/skills/SKILL.md".into(), skill("top", "A skill at the folder's top.")),
        // The name's `:` and `/` become `-`.
        (".gemini/skills/odd/SKILL.md".into(), skill("\"a:b/c\"", "Odd name.")),
        // A description with `: ` is not YAML: the frontmatter is read line by line.
        (".gemini/skills/colon/SKILL.md".into(), skill("colon", "Use it: always")),
        (".gemini/skills/folded/SKILL.md".into(), "---\nname: folded\ndescription: >\n  two\n  lines\n---\n".into()),
        (".gemini/skills/deep/er/SKILL.md".into(), skill("deeper", "Too deep: not found.")),
        (".gemini/skills/nameless/SKILL.md".into(), "---\ndescription: no name\n---\n".into()),
        (".gemini/skills/silent/SKILL.md".into(), "---\nname: silent\n---\n".into()),
        (".gemini/skills/plain/SKILL.md".into(), "No frontmatter.\n".into()),
        (".agents/skills/alpha/SKILL.md".into(), skill("alpha", "From the agents folder.")),
        // Same name as a .gemini one: replaces it, in its place.
        (".agents/skills/review2/SKILL.md".into(), skill("review", "The agents folder's review.")),
        ("sub/.agents/skills/only/SKILL.md".into(), skill("only", "Seen from sub.")),
        ("empty/x.txt".into(), String::new()),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    write(&root, &files);
    let froms = ["", "sub", "empty"];
    let absolute: Vec<String> = froms.iter().map(|f| root.join(f).to_string_lossy().trim_end_matches('/').to_string()).collect();
    let theirs = run_script("skills.mjs", &absolute);
    for (from, abs) in froms.iter().zip(&absolute) {
        let expected = in_path_order(theirs[abs].as_str().expect("a text"));
        assert_eq!(in_path_order(&ctxc_section(&root, from, "skills")), expected, "working directory `{from}`");
    }
    assert!(theirs[&absolute[0]].as_str().is_some_and(|t| t.matches("<skill>").count() == 6), "{}", theirs[&absolute[0]]);
    assert!(theirs[&absolute[1]].as_str().is_some_and(|t| t.matches("<skill>").count() == 1), "{}", theirs[&absolute[1]]);
}

/// The MCP tools of a project's `.gemini/settings.json` servers (from a record written here), as
/// the Gemini CLI view counts them, against the package's `isEnabled` and `generateValidName`:
/// the same tools sent, under the same names (odd characters, the `mcp_` prefix already there,
/// names past 63 characters, `includeTools` with `name(…)` and `excludeTools` winning).
#[test]
#[ignore = "needs @google/gemini-cli-core: scripts/runtimes installs it"]
fn mcp_tool_names_equal_gemini_clis() {
    use serde_json::json;
    let long = "a_server_with_a_rather_long_name_indeed";
    let settings = json!({ "mcpServers": {
        "notes": { "command": "x", "includeTools": ["add(one)", "search", "gone"], "excludeTools": ["search"] },
        "we ird/ü": { "command": "x" },
        "mcp_pre": { "command": "x" },
        long: { "command": "x" },
    }});
    let tools = json!({
        "notes": ["add", "search", "zap"],
        "we ird/ü": ["do it", "ok.v2:x-y"],
        "mcp_pre": ["tool"],
        long: ["and_a_tool_whose_name_is_long_too"],
    });
    let record = json!({ "version": 1, "servers": tools.as_object().expect("tools").iter().map(|(server, names)| json!({
        "file": ".gemini/settings.json",
        "server": server,
        "config": "sha256:0",
        "protocol_version": "2025-06-18",
        "server_info": {},
        "tools": names.as_array().expect("names").iter().map(|n| json!({ "name": n, "inputSchema": { "type": "object" } })).collect::<Vec<_>>(),
    })).collect::<Vec<_>>() });
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let (settings_text, record_text) = (settings.to_string(), record.to_string());
    write(&root, &[("GEMINI.md", "memory"), (".gemini/settings.json", &settings_text), ("ctxc.mcp-tools", &record_text)]);
    let input = root.join("input.json");
    std::fs::write(&input, json!({ "settings": settings, "tools": tools }).to_string()).expect("write");
    let out = root.join("out.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/gemini_cli/mcp_names.mjs");
    let run = std::process::Command::new("node").arg(script).arg(core_package()).arg(&input).arg(&out).output().expect("node runs");
    assert!(run.status.success(), "mcp_names.mjs failed: {}", String::from_utf8_lossy(&run.stderr));
    let theirs: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).expect("output")).expect("JSON");

    let project = ctxc::project::ProjectRoot::new(&root).expect("root");
    let host = ctxc::hostview::hosts().find(|h| h.id == "gemini-cli").expect("a startup model");
    let views = ctxc::hostview::views(&project, "", &[host], None, &ctxc::tokens::TokenCounter::new());
    for (server, names) in theirs.as_object().expect("servers") {
        let title = format!("MCP tools: {server}");
        let section = views.views[0].sections.iter().find(|s| s.title == title);
        let ours: Vec<&str> = section.map(|s| s.parts.iter().map(|p| p.label.as_str()).collect()).unwrap_or_default();
        let theirs: Vec<&str> = names.as_array().expect("names").iter().map(|n| n.as_str().expect("a name")).collect();
        assert_eq!(ours, theirs, "server `{server}`");
    }
    assert_eq!(theirs["notes"], json!(["mcp_notes_add"]));
}

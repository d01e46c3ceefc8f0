//! The Gemini CLI host view (`ctxc cost --host gemini-cli`) against Gemini CLI's own memory
//! loader: `@google/gemini-cli-core` at the version data/hosts/gemini-cli.toml names, installed
//! by scripts/runtimes and run with Node on scratch repositories (tests/runtimes/gemini_cli/
//! memory.mjs). The memory section ctxc assembles must be the text the package builds, byte for
//! byte, for every working directory of every case.

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
    let scratch = tempfile::tempdir().expect("tempdir");
    let out = scratch.path().join("memory.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/gemini_cli/memory.mjs");
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
    assert!(run.status.success(), "memory.mjs failed: {}", String::from_utf8_lossy(&run.stderr));
    serde_json::from_slice(&std::fs::read(&out).expect("the script's output")).expect("JSON")
}

/// ctxc's memory section for the working directory `from` (relative to the root).
fn ctxc_memory(root: &Path, from: &str) -> String {
    let root = ctxc::project::ProjectRoot::new(root).expect("root");
    let host = ctxc::hostview::hosts().find(|h| h.id == "gemini-cli").expect("a startup model");
    let views = ctxc::hostview::views(&root, from, &[host], None, &ctxc::tokens::TokenCounter::new());
    let view = &views.views[0];
    view.sections.iter().find(|s| s.title == "memory").map(|s| s.joined.clone().expect("joined")).unwrap_or_default()
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

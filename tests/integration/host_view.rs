//! `ctxc cost --host`: what Claude Code and Codex load at session start from a repository
//! without a manifest (fixtures in tests/fixtures/hostview, scratch projects for Codex's own
//! cases of `project_doc.rs`, and real repositories of the shared corpus read in place).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// `ctxc cost ARGS --format json`: the exit code and the `hosts` array.
fn hosts(args: &[&str]) -> (i32, Vec<Value>, String) {
    let out = common::ctxc(&[&["cost"], args, &["--format", "json"]].concat());
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    (out.status.code().unwrap_or(-1), json["hosts"].as_array().cloned().unwrap_or_default(), stderr)
}

fn section<'a>(view: &'a Value, title: &str) -> &'a Value {
    view["sections"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["title"] == title))
        .unwrap_or_else(|| panic!("no section {title}: {view:#}"))
}

/// (file relative to `base`, label) of each part of a section.
fn parts(section: &Value, base: &str) -> Vec<(String, String)> {
    let base = format!("{}/", base.trim_end_matches('/'));
    section["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .map(|p| {
            (
                p["file"].as_str().unwrap_or_default().trim_start_matches(&base).to_string(),
                p["label"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn tokens(v: &Value) -> i64 {
    v["tokens"].as_i64().expect("tokens")
}

/// The parts and joins add up to each section, the sections to the total.
fn adds_up(view: &Value) {
    let mut total = 0;
    for s in view["sections"].as_array().expect("sections") {
        let parts: i64 = s["parts"].as_array().expect("parts").iter().map(|p| tokens(&p["tokens"])).sum();
        assert_eq!(parts + tokens(&s["joins"]), tokens(&s["tokens"]), "{s:#}");
        total += tokens(&s["tokens"]);
    }
    assert_eq!(total, tokens(&view["total"]));
}

const CLAUDE: &str = "tests/fixtures/hostview/claude";
const CODEX: &str = "tests/fixtures/hostview/codex";

#[test]
fn claude_code_loads_memory_with_imports_unconditional_rules_and_the_listings() {
    let (code, views, stderr) = hosts(&[CLAUDE, "--host", "claude-code"]);
    assert_eq!(code, 0, "{stderr}");
    let view = &views[0];
    assert_eq!(view["host"], "claude-code");
    // Root first; each import after the file importing it, two hops; an `@path` in a code span
    // is no import.
    let memory =
        [("CLAUDE.md", "CLAUDE.md"), ("docs/style.md", "imported by CLAUDE.md"), ("docs/checklist.md", "imported by docs/style.md")];
    let mut expected: Vec<(String, String)> = memory.iter().map(|(f, l)| (f.to_string(), l.to_string())).collect();
    expected.push(("CLAUDE.local.md".into(), "CLAUDE.local.md".into()));
    assert_eq!(parts(section(view, "memory"), CLAUDE), expected);
    // `paths` makes a rule conditional: not loaded at start.
    assert_eq!(parts(section(view, "rules"), CLAUDE), [(".claude/rules/testing.md".to_string(), "testing.md".to_string())]);
    // `disable-model-invocation: true` keeps `release` out of the listing.
    let listed: Vec<String> = parts(section(view, "skills and commands"), CLAUDE).into_iter().map(|(_, l)| l).collect();
    assert_eq!(listed, ["deploy", "pdf"]);
    assert_eq!(parts(section(view, "subagents"), CLAUDE)[0].1, "reviewer");
    assert_eq!(section(view, "skills and commands")["budget"]["budget_chars"], 8000);
    // Claude's tokenizer is not public: every count is an estimate with its band.
    assert_eq!(view["total"]["exact"], false);
    assert_eq!(view["total"]["tokenizer"], "estimate");
    assert!(view["band"]["percent"].as_u64().is_some(), "{view:#}");
    // A plugin's skills are listed once it is installed: said, not counted.
    let notes = view["notes"].to_string();
    assert!(notes.contains("plugin `house-style` (") && notes.contains("adds 1 entry"), "{notes}");
    adds_up(view);
    // Below the root, the working directory's CLAUDE.md joins the chain.
    let (_, views, _) = hosts(&[CLAUDE, "--host", "claude-code", "--from", &format!("{CLAUDE}/sub")]);
    assert_eq!(parts(section(&views[0], "memory"), CLAUDE).last().map(|p| p.0.as_str()), Some("sub/CLAUDE.md"));
}

#[test]
fn claude_code_text_marks_estimates() {
    let out = common::ctxc(&["cost", CLAUDE, "--host", "claude-code"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("total ~") && text.contains("±10 %"), "{text}");
    assert!(text.contains("estimate: o200k_base count"), "{text}");
}

#[test]
fn the_skills_listing_over_its_budget_and_a_description_over_its_cap() {
    let long = "Handles one more kind of request for the team. ".repeat(50);
    let mut files: Vec<(String, String)> =
        vec![(".claude/skills/long/SKILL.md".into(), format!("---\nname: long\ndescription: {long}\n---\nBody\n"))];
    for i in 0..60 {
        let description =
            format!("Skill number {i}: drafts, checks and files the weekly report of one service, with its charts and tables.");
        files.push((format!(".claude/skills/s{i:02}/SKILL.md"), format!("---\nname: s{i:02}\ndescription: {description}\n---\nBody\n")));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = common::project(&refs);
    let path = dir.path().to_str().expect("utf-8");
    let (_, views, stderr) = hosts(&[path, "--host", "claude-code"]);
    let listing = section(&views[0], "skills and commands");
    let long = listing["parts"].as_array().and_then(|p| p.iter().find(|p| p["label"] == "long")).expect("long");
    assert_eq!(long["cut"]["dropped_bytes"].as_u64(), Some((50 * 47 - 1 - 1536) as u64), "{stderr}");
    let chars = listing["budget"]["chars"].as_u64().expect("chars");
    assert!(chars > 8000, "{listing:#}");
    let out = common::ctxc(&["cost", path, "--host", "claude-code"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("over by") && text.contains("the host shortens descriptions"), "{text}");
    assert!(text.contains("descriptions are cut at 1536 characters"), "{text}");
}

#[test]
fn imports_stop_after_five_hops() {
    let mut files: Vec<(String, String)> = vec![("CLAUDE.md".into(), "@d1.md\n".into())];
    for i in 1..=7 {
        files.push((format!("d{i}.md"), format!("hop {i}\n@d{}.md\n", i + 1)));
    }
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = common::project(&refs);
    let path = dir.path().to_str().expect("utf-8");
    let (_, views, stderr) = hosts(&[path, "--host", "claude-code"]);
    let loaded: Vec<String> = parts(section(&views[0], "memory"), path).into_iter().map(|p| p.0).collect();
    assert_eq!(loaded, ["CLAUDE.md", "d1.md", "d2.md", "d3.md", "d4.md", "d5.md"], "{stderr}");
}

#[test]
fn codex_joins_the_chain_to_the_working_directory_and_cuts_it_at_32_kib() {
    let from = format!("{CODEX}/services/api");
    let (code, views, stderr) = hosts(&[CODEX, "--host", "codex", "--from", &from]);
    assert_eq!(code, 0, "{stderr}");
    let view = &views[0];
    let memory = section(view, "memory");
    // AGENTS.override.md shadows AGENTS.md in its folder.
    let files: Vec<String> = parts(memory, CODEX).into_iter().map(|p| p.0).collect();
    assert_eq!(files, ["AGENTS.md", "services/AGENTS.md", "services/api/AGENTS.override.md"]);
    let list = memory["parts"].as_array().expect("parts");
    let read = |rel: &str| std::fs::read(format!("{}/{CODEX}/{rel}", env!("CARGO_MANIFEST_DIR"))).expect("fixture");
    let sizes: Vec<usize> = files.iter().map(|f| read(f).len()).collect();
    let kept: Vec<u64> = list.iter().map(|p| p["bytes"].as_u64().expect("bytes")).collect();
    assert_eq!(kept.iter().sum::<u64>(), 32 * 1024, "Codex reads 32 KiB in all");
    let last = &list[2];
    assert_eq!(last["cut"]["dropped_bytes"].as_u64(), Some((sizes[0] + sizes[1] + sizes[2] - 32 * 1024) as u64));
    assert!(tokens(&last["cut"]["dropped_tokens"]) > 0);
    assert!(last["cut"]["line"].as_u64().is_some());
    assert!(list[..2].iter().all(|p| p["cut"].is_null()));
    // Exact: the section is the joined text as Codex builds and sends it, counted with o200k_base.
    let texts: Vec<Vec<u8>> = files.iter().map(|f| read(f)).collect();
    let mut joined: Vec<u8> = Vec::new();
    let mut remaining = 32 * 1024;
    for (i, t) in texts.iter().enumerate() {
        if i > 0 {
            joined.extend_from_slice(b"\n\n");
        }
        let take = t.len().min(remaining);
        joined.extend_from_slice(&t[..take]);
        remaining -= take;
    }
    // In the message Codex sends them in, under a heading naming the working directory.
    let dir = std::fs::canonicalize(format!("{}/{CODEX}", env!("CARGO_MANIFEST_DIR"))).expect("canonical").join("services/api");
    let message =
        format!("# AGENTS.md instructions for {}\n\n<INSTRUCTIONS>\n{}\n</INSTRUCTIONS>", dir.display(), String::from_utf8_lossy(&joined));
    let counter = ctxc::tokens::TokenCounter::new();
    let expected = counter.count(ctxc::models::Tokenizer::O200kBase, &message);
    assert_eq!(tokens(&memory["tokens"]), expected as i64);
    assert_eq!(view["total"]["exact"], true);
    assert!(view["band"].is_null());
    adds_up(view);
    let out = common::ctxc(&["cost", CODEX, "--host", "codex", "--from", &from]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("cut at line") && text.contains("(project_doc_max_bytes = 32768 reached)"), "{text}");
}

/// The host view's cut and `check`'s CODEX001 finding name the same place: one file, line and
/// column, and the same bytes dropped.
#[test]
fn the_cut_is_where_check_says_codex_stops_reading() {
    let from = format!("{CODEX}/services/api");
    let (_, views, _) = hosts(&[CODEX, "--host", "codex", "--from", &from]);
    let cut =
        section(&views[0], "memory")["parts"].as_array().and_then(|p| p.iter().find(|p| !p["cut"].is_null())).cloned().expect("a cut");
    let out = common::ctxc(&["check", CODEX, "--format", "json"]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    let mut finding = None;
    let mut stack = vec![&json];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) if o.get("code").is_some_and(|c| c == "CODEX001") => finding = Some(v.clone()),
            Value::Object(o) => stack.extend(o.values()),
            Value::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    let finding = finding.expect("CODEX001");
    assert_eq!(finding["file"], cut["file"]);
    assert_eq!((finding["line"].clone(), finding["column"].clone()), (cut["cut"]["line"].clone(), cut["cut"]["column"].clone()));
    let dropped = cut["cut"]["dropped_bytes"].as_u64().expect("bytes");
    let grouped = format!("{},{:03}", dropped / 1000, dropped % 1000);
    assert!(finding["help"].as_str().is_some_and(|h| h.contains(&format!("drops the last {grouped} bytes"))), "{finding:#}");
}

/// Codex's own cases (codex-rs/core/src/project_doc.rs at 0bd53e45, its tests), one scratch
/// project each; the byte limit set in `.codex/config.toml` as the tests set it in the config.
#[test]
fn codex_project_doc_cases() {
    let memory_files = |files: &[(&str, &str)], from: &str| {
        let dir = common::project(files);
        let path = dir.path().to_str().expect("utf-8").to_string();
        let from = format!("{path}/{from}");
        std::fs::create_dir_all(&from).expect("mkdir");
        let (code, views, stderr) = hosts(&[&path, "--host", "codex", "--from", &from]);
        let sections = views[0]["sections"].as_array().cloned().unwrap_or_default();
        let memory = sections.iter().find(|s| s["title"] == "memory").map(|m| (parts(m, &path), m["parts"].clone()));
        (code, memory, stderr)
    };
    // Small file within the limit: whole.
    let (_, memory, _) = memory_files(&[("AGENTS.md", "hello world")], "");
    let (files, list) = memory.expect("memory");
    assert_eq!(files[0].0, "AGENTS.md");
    assert_eq!(list[0]["bytes"], 11);
    // Larger than the limit: its first `limit` bytes.
    let huge = "A".repeat(2048);
    let (_, memory, _) = memory_files(&[("AGENTS.md", &huge), (".codex/config.toml", "project_doc_max_bytes = 1024\n")], "");
    let list = memory.expect("memory").1;
    assert_eq!((list[0]["bytes"].as_u64(), list[0]["cut"]["dropped_bytes"].as_u64()), (Some(1024), Some(1024)));
    // From a nested folder, the doc of the Git root (`.git` may be a file) and nothing above it.
    let (_, memory, _) = memory_files(
        &[("AGENTS.md", "above the repository"), ("repo/.git", "gitdir: /elsewhere\n"), ("repo/AGENTS.md", "root level doc")],
        "repo/workspace/crate_a",
    );
    assert_eq!(memory.expect("memory").0, [("repo/AGENTS.md".to_string(), "AGENTS.md".to_string())]);
    // A limit of zero turns project docs off: nothing is loaded, and the view says why.
    let (code, memory, stderr) = memory_files(&[("AGENTS.md", "something"), (".codex/config.toml", "project_doc_max_bytes = 0\n")], "");
    assert!(memory.is_none());
    assert_eq!(code, 0, "{stderr}");
    // AGENTS.override.md wins over AGENTS.md; fallback names are read where neither is.
    let (_, memory, _) = memory_files(
        &[
            ("AGENTS.md", "main"),
            ("AGENTS.override.md", "override"),
            ("sub/EXAMPLE.md", "fallback"),
            (".codex/config.toml", "project_doc_fallback_filenames = [\"EXAMPLE.md\"]\n"),
        ],
        "sub",
    );
    let files: Vec<String> = memory.expect("memory").0.into_iter().map(|p| p.0).collect();
    assert_eq!(files, ["AGENTS.override.md", "sub/EXAMPLE.md"]);
    // A character cut in two: the bytes read, the rest dropped (Codex decodes the cut byte as U+FFFD).
    let (_, memory, _) = memory_files(&[("AGENTS.md", "aéb"), (".codex/config.toml", "project_doc_max_bytes = 2\n")], "");
    let list = memory.expect("memory").1;
    assert_eq!((list[0]["bytes"].as_u64(), list[0]["cut"]["dropped_bytes"].as_u64()), (Some(2), Some(2)));
    let counter = ctxc::tokens::TokenCounter::new();
    assert_eq!(tokens(&list[0]["tokens"]), counter.count(ctxc::models::Tokenizer::O200kBase, "a\u{FFFD}") as i64);
    // A file of white space only is left out.
    let (_, memory, _) = memory_files(&[("AGENTS.md", "root"), ("sub/AGENTS.md", "  \n\n")], "sub");
    assert_eq!(memory.expect("memory").0.len(), 1);
}

#[test]
fn a_repository_without_agent_files_says_so() {
    let dir = common::project(&[("README.md", "# Hello\n")]);
    let path = dir.path().to_str().expect("utf-8");
    let out = common::ctxc(&["cost", path, "--host", "codex"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("no Codex files in") && stderr.contains("loads nothing from it at session start"), "{stderr}");
    assert!(out.stdout.is_empty());
    let out = common::ctxc(&["cost", path, "--host", "windsurf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use one of: claude-code, codex, copilot, cursor, gemini-cli"));
    let out = common::ctxc(&["cost", CODEX, "--host", "codex", "--mode", "plan"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the host view has neither"));
}

/// Gemini CLI's memory as its loader builds it (compared byte for byte with the loader in
/// tests/runtimes/gemini_cli.rs): here, what the view reports of it.
#[test]
fn gemini_cli_reads_up_to_the_git_root_and_expands_imports_in_place() {
    let dir = common::project(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("GEMINI.md", "Follow @./style.md\nAsk @someone first.\n"),
        ("style.md", "Use tabs.\n"),
        ("sub/GEMINI.md", "\n  Sub rules.  \n"),
        ("sub/.gemini/settings.json", r#"{"context": {"fileName": "AGENTS.md"}}"#),
        ("sub/AGENTS.md", "Agents rules.\n"),
        ("other/GEMINI.md", "Not on the chain.\n"),
    ]);
    let root = dir.path().to_str().expect("utf-8");
    let from = format!("{root}/sub");
    let (code, views, stderr) = hosts(&[root, "--host", "gemini-cli", "--from", &from]);
    assert_eq!(code, 0, "{stderr}");
    let view = &views[0];
    assert_eq!(view["model"], "gemini-2.5-pro");
    let memory = section(view, "memory");
    let files: Vec<String> = parts(memory, root).into_iter().map(|p| p.0).collect();
    assert_eq!(files, ["GEMINI.md", "sub/AGENTS.md", "sub/GEMINI.md"], "sorted by path, the configured name first");
    // The import is in the file's text; `@someone` became the host's failure comment.
    let canonical = std::fs::canonicalize(dir.path()).expect("canonical");
    let expanded = format!(
        "Follow <!-- Imported from: ./style.md -->\nUse tabs.\n\n<!-- End of import from: ./style.md -->\nAsk <!-- Import failed: someone - ENOENT: no such file or directory, access '{}/someone' --> first.",
        canonical.display()
    );
    let bytes: Vec<i64> = memory["parts"].as_array().expect("parts").iter().map(|p| p["bytes"].as_i64().expect("bytes")).collect();
    assert_eq!(bytes, [expanded.len() as i64, "Agents rules.".len() as i64, "Sub rules.".len() as i64], "expanded and trimmed");
    assert!(tokens(&memory["joins"]) > 0, "the wrappers with absolute paths are counted");
    assert!(view["notes"].to_string().contains("context.fileName: AGENTS.md"), "{view:#}");
    adds_up(view);
}

#[test]
fn without_a_manifest_every_host_whose_files_the_repository_has() {
    let dir = common::project(&[("AGENTS.md", "Run the tests.\n"), ("CLAUDE.md", "@AGENTS.md\n"), ("notes/todo.md", "# Todo\n")]);
    let path = dir.path().to_str().expect("utf-8");
    let out = common::ctxc(&["cost", path]);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("Claude Code: what it loads") && stdout.contains("Codex: what it loads"), "{stdout}");
    assert!(!stderr.contains("TOOL010"), "{stderr}");
    // Copilot reads AGENTS.md too, but is shown by default only with a Copilot file of its own.
    assert!(!stdout.contains("GitHub Copilot"), "{stdout}");
    std::fs::create_dir_all(dir.path().join(".github")).expect("mkdir");
    std::fs::write(dir.path().join(".github/copilot-instructions.md"), "Use tabs.\n").expect("write");
    let out = common::ctxc(&["cost", path]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("GitHub Copilot: what it loads"));
}

/// VS Code's Copilot Chat (computeAutomaticInstructions.ts): copilot-instructions.md and the root
/// AGENTS.md attached, `.instructions.md` files attached only when `applyTo` matches with no file
/// in the context, and every instruction file in the `<instructions>` list.
#[test]
fn copilot_attaches_instructions_and_lists_every_instruction_file() {
    let dir = common::project(&[
        (".github/copilot-instructions.md", "# Rules\n\nUse tabs.\n\n"),
        ("AGENTS.md", "Run the tests.\n"),
        ("sub/AGENTS.md", "Nested: not attached by default.\n"),
        (".github/instructions/all.instructions.md", "---\napplyTo: \"src/**, **\"\ndescription: Everywhere\n---\nAlways X.\n"),
        (".github/instructions/rust/rust.instructions.md", "---\napplyTo: \"**/*.rs\"\n---\nRust Y.\n"),
        (".github/instructions/manual.instructions.md", "---\ndescription: By hand\n---\nManual Z.\n"),
        (".github/instructions/blank.instructions.md", "---\napplyTo: '*'\n---\n  \n"),
    ]);
    let root = dir.path().to_str().expect("utf-8");
    let (code, views, stderr) = hosts(&[root, "--host", "copilot"]);
    assert_eq!(code, 0, "{stderr}");
    let view = &views[0];
    assert_eq!(view["model"], "gpt-4.1");
    let memory = section(view, "memory");
    let files: Vec<String> = parts(memory, root).into_iter().map(|p| p.0).collect();
    assert_eq!(files, [".github/copilot-instructions.md", "AGENTS.md"]);
    // Each text trimmed; the attachment wrappers, with absolute paths, in the joins.
    assert_eq!(memory["parts"][0]["bytes"], "# Rules\n\nUse tabs.".len());
    assert!(tokens(&memory["joins"]) > 0);
    // `**` in a comma-separated applyTo, or `*`, attaches the file: all of it, frontmatter
    // included, trimmed (the extension reads the file's whole text).
    let rules = section(view, "rules");
    let files: Vec<String> = parts(rules, root).into_iter().map(|p| p.0).collect();
    assert_eq!(files, [".github/instructions/all.instructions.md", ".github/instructions/blank.instructions.md"]);
    assert_eq!(rules["parts"][1]["bytes"], "---\napplyTo: '*'\n---".len());
    let notes = view["notes"].to_string();
    assert!(notes.contains("rust.instructions.md (`applyTo: **/*.rs`) is attached only when a matching file is in the context"), "{notes}");
    assert!(notes.contains("manual.instructions.md has no `applyTo`"), "{notes}");
    // The list names every instruction file, the frame's text in the joins.
    let listed: Vec<String> = parts(section(view, "instructions list"), root).into_iter().map(|p| p.0).collect();
    assert_eq!(listed.len(), 4, "{listed:?}");
    // An entry's line whose value is missing is left out: no `<applyTo>` for the manual file.
    let canonical = std::fs::canonicalize(dir.path()).expect("canonical");
    let manual = format!(
        "<instruction>\n<description>By hand</description>\n<file>{}/.github/instructions/manual.instructions.md</file>\n</instruction>",
        canonical.display()
    );
    let list = section(view, "instructions list")["parts"].as_array().expect("parts").clone();
    let part = list.iter().find(|p| p["label"] == "manual.instructions").expect("listed");
    assert_eq!(part["bytes"], manual.len(), "{part:#}");
    assert!(tokens(&section(view, "instructions list")["joins"]) > 50);
    assert_eq!(view["total"]["exact"], true);
    adds_up(view);
    // The text report has the JSON's figures.
    let out = common::ctxc(&["cost", root, "--host", "copilot"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let total = tokens(&view["total"]);
    assert!(text.contains(&format!("total {total} tokens")), "{text}");
    for s in view["sections"].as_array().expect("sections") {
        assert!(text.contains(&format!("{} (", s["title"].as_str().expect("title"))), "{text}");
    }
}

/// Real repositories of the shared corpus, read in place: astral-sh/uv's CLAUDE.md is only
/// `@AGENTS.md`; langchain-ai/deepagents has AGENTS.md in nested folders.
#[test]
fn corpus_repositories() {
    let uv = common::corpus().join("memory/astral-sh__uv");
    let uv = uv.to_str().expect("utf-8");
    let (code, views, stderr) = hosts(&[uv]);
    assert_eq!(code, 0, "{stderr}");
    let claude = views.iter().find(|v| v["host"] == "claude-code").expect("claude-code");
    let memory = parts(section(claude, "memory"), uv);
    assert_eq!(
        memory,
        [("CLAUDE.md".to_string(), "CLAUDE.md".to_string()), ("AGENTS.md".to_string(), "imported by CLAUDE.md".to_string())]
    );
    let codex = views.iter().find(|v| v["host"] == "codex").expect("codex");
    assert_eq!(parts(section(codex, "memory"), uv), [("AGENTS.md".to_string(), "AGENTS.md".to_string())]);
    let deep = common::corpus().join("memory/langchain-ai__deepagents");
    let deep = deep.to_str().expect("utf-8");
    let from = format!("{deep}/examples/deploy-coding-agent");
    let (_, views, _) = hosts(&[deep, "--host", "codex", "--from", &from]);
    let files: Vec<String> = parts(section(&views[0], "memory"), deep).into_iter().map(|p| p.0).collect();
    assert_eq!(files, ["AGENTS.md", "examples/deploy-coding-agent/AGENTS.md"]);
    adds_up(&views[0]);
}

/// `ctxc diff --base REV` in a repository without a manifest: each host's startup context at
/// the revision against the work tree. Gemini CLI names each file by its absolute path: the base,
/// read from a temporary folder, names them where the work tree is, so its wrappers do not change.
#[test]
fn diff_without_a_manifest_compares_what_each_host_loads() {
    let dir = common::project(&[
        ("AGENTS.md", "# Rules\n\nRun the tests.\n"),
        ("CLAUDE.md", "@AGENTS.md\n"),
        ("GEMINI.md", "Gemini: @./AGENTS.md\n"),
    ]);
    let root = dir.path();
    crate::review::git(&["init", "-q"], root);
    crate::review::git(&["add", "."], root);
    crate::review::git(&["commit", "-qm", "base"], root);
    std::fs::write(root.join("AGENTS.md"), "# Rules\n\nRun the tests, then the formatter, before every commit.\n").expect("write");
    std::fs::create_dir_all(root.join(".claude/skills/x")).expect("mkdir");
    std::fs::write(root.join(".claude/skills/x/SKILL.md"), "---\nname: x\ndescription: Does x when asked\n---\nBody.\n").expect("write");
    let path = root.to_str().expect("utf-8");
    let out = common::ctxc(&["diff", "--base", "HEAD", path, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let hosts = json["hosts"].as_array().expect("hosts");
    let ids: Vec<&str> = hosts.iter().filter_map(|h| h["host"].as_str()).collect();
    assert_eq!(ids, ["claude-code", "codex", "gemini-cli"]);
    let part = |host: &str, file: &str, label: &str| {
        let h = hosts.iter().find(|h| h["host"] == host).expect("host");
        h["parts"]
            .as_array()
            .expect("parts")
            .iter()
            .find(|p| p["file"] == file && p["label"] == label)
            .cloned()
            .unwrap_or_else(|| panic!("{host} {file} {label}: {h:#}"))
    };
    let codex = part("codex", "AGENTS.md", "AGENTS.md");
    assert!(codex["tokens"]["before"].as_i64() < codex["tokens"]["after"].as_i64(), "{codex}");
    let skill = part("claude-code", ".claude/skills/x/SKILL.md", "x");
    assert!(skill["tokens"]["before"].is_null() && skill["tokens"]["after"].as_i64() > Some(0), "{skill}");
    // Gemini's figures are estimates, rounded per text: the wrappers around the longer file may
    // move the remainder by one. That they are the same wrappers is checked exactly below.
    let joins = part("gemini-cli", "", "(joins)");
    assert!(joins["tokens"]["delta"].as_i64().is_some_and(|d| d.abs() <= 1), "{joins}");
    let codex_total = &hosts.iter().find(|h| h["host"] == "codex").expect("codex")["total"];
    assert_eq!(codex_total["delta"].as_i64(), codex["tokens"]["delta"].as_i64());

    let out = common::ctxc(&["diff", "--base", "HEAD", path, "--format", "markdown", "--fail-on-increase", "5"]);
    assert_eq!(out.status.code(), Some(1));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("| Claude Code | **total** (±10 %: "), "an estimate's total shows its band: {stdout}");
    assert!(
        stdout.contains("| Codex | **total** |")
            && stdout.contains("| Claude Code | skills and commands | `.claude/skills/x/SKILL.md` | x | - |"),
        "{stdout}"
    );
    assert!(stderr.contains("grew by more than 5 tokens (--fail-on-increase): Claude Code: +"), "{stderr}");

    let out = common::ctxc(&["diff", "--base", "HEAD", path, "--host", "codex"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The total holds the heading naming the scratch folder: only the file's 8 tokens change.
    assert!(stdout.starts_with("Codex (gpt-5.3-codex): ") && stdout.contains(" tokens (+8, ") && !stdout.contains("Claude"), "{stdout}");

    // Each host counts for its own model: a tokenizer option is refused, not passed over.
    for flag in ["--tokenizer", "--chat-template", "--python"] {
        let out = common::ctxc(&["diff", "--base", "HEAD", path, flag, "AGENTS.md"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {stderr}");
        assert!(stderr.contains(&format!("{flag} is for a manifest's agents")), "{flag}: {stderr}");
    }
}

/// A copy of a project read as if it were at the original's place (how `diff` reads the base
/// revision) names the original's absolute paths: Gemini CLI's wrappers are the same texts.
#[test]
fn a_copy_seen_at_the_original_place_names_the_original_paths() {
    let files = [("AGENTS.md", "Run the tests.\n"), ("GEMINI.md", "Gemini: @./AGENTS.md\n")];
    let (original, copy) = (common::project(&files), common::project(&files));
    let gemini = ctxc::hosts::host("gemini-cli").expect("gemini-cli");
    let counter = ctxc::tokens::TokenCounter::new();
    let root = |dir: &tempfile::TempDir| ctxc::project::ProjectRoot::new(dir.path()).expect("root");
    let (original_root, copy_root) = (root(&original), root(&copy));
    let joined = |views: ctxc::hostview::Views| views.views[0].sections[0].joined.clone().expect("one joined text");
    let here = joined(ctxc::hostview::views(&original_root, "", &[gemini], None, &counter));
    let seen = joined(ctxc::hostview::views_seen_at(&copy_root, original_root.canonical(), "", &[gemini], None, &counter));
    let name = original_root.canonical().display().to_string();
    assert!(here.contains(&format!("--- Context from: {name}/GEMINI.md ---")), "{here}");
    assert_eq!(seen, here);
}

#[test]
fn diff_of_a_folder_without_a_manifest_or_host_files_says_so() {
    let dir = common::project(&[("README.md", "# Hello\n")]);
    crate::review::git(&["init", "-q"], dir.path());
    crate::review::git(&["add", "."], dir.path());
    crate::review::git(&["commit", "-qm", "base"], dir.path());
    let out = common::ctxc(&["diff", "--base", "HEAD", dir.path().to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("and no file an agent host loads"));
}

/// `ctxc check` and the budgets per host of `.ctxc/hosts.toml` and `--host-budget` (BUDGET008).
#[test]
fn check_fails_when_a_host_loads_more_than_its_budget() {
    let dir = common::project(&[("CLAUDE.md", "Run the tests before every commit, and keep the changelog current.\n")]);
    let path = dir.path().to_str().expect("utf-8");
    let check = |extra: &[&str]| {
        let out = common::ctxc(&[&["check", path, "--format", "concise"], extra].concat());
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
    };
    // No budget: nothing changes.
    let (code, out) = check(&[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("BUDGET008"), "{out}");
    std::fs::create_dir_all(dir.path().join(".ctxc")).expect("mkdir");
    std::fs::write(dir.path().join(".ctxc/hosts.toml"), "# startup budgets\n[hosts.claude-code]\n  budget = 5\n").expect("write");
    let (code, out) = check(&[]);
    assert_eq!(code, Some(1), "{out}");
    // At the key, with the estimate and its band.
    assert!(out.contains(".ctxc/hosts.toml:3:3: BUDGET008 Claude Code loads ~"), "{out}");
    assert!(out.contains("over its budget of 5 by"), "{out}");
    // The command line replaces the file's budget for the host.
    let (code, out) = check(&["--host-budget", "claude-code=100000"]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = check(&["--host-budget", "codex=1"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("BUDGET008 Claude Code") && !out.contains("BUDGET008 Codex"), "Codex loads nothing here: {out}");
    std::fs::write(dir.path().join(".ctxc/hosts.toml"), "[hosts.claude-code]\nbudget = \"big\"\n").expect("write");
    let (code, out) = check(&[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains(".ctxc/hosts.toml:2:10:") && out.contains("is not valid"), "{out}");
    std::fs::write(dir.path().join(".ctxc/hosts.toml"), "[hosts.claude]\nbudget = 1\n").expect("write");
    let (code, out) = check(&[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains(".ctxc/hosts.toml:1:8:") && out.contains("unknown host `claude`"), "{out}");
}

/// Cursor (closed source, from its rules page): the legacy `.cursorrules` and AGENTS.md, the rules
/// with `alwaysApply: true`, the descriptions of the others; each part counted alone, the joins
/// not modelled, no count exact.
#[test]
fn cursor_counts_always_applied_rules_and_descriptions_without_joins() {
    let dir = common::project(&[
        (".cursorrules", "Legacy rules.\n"),
        ("AGENTS.md", "Run the tests.\n"),
        (".cursor/rules/always.mdc", "---\nalwaysApply: true\n---\nAlways A.\n"),
        (".cursor/rules/db.mdc", "---\ndescription: Database migrations\nalwaysApply: false\n---\nMigrations B.\n"),
        (".cursor/rules/ts/ts.mdc", "---\nglobs: \"*.ts\"\n---\nTS C.\n"),
    ]);
    let root = dir.path().to_str().expect("utf-8");
    let (code, views, stderr) = hosts(&[root, "--host", "cursor", "--model", "gpt-4.1"]);
    assert_eq!(code, 0, "{stderr}");
    let view = &views[0];
    let files = |title| parts(section(view, title), root).into_iter().map(|p| p.0).collect::<Vec<_>>();
    assert_eq!(files("memory"), [".cursorrules", "AGENTS.md"]);
    assert_eq!(files("rules"), [".cursor/rules/always.mdc"]);
    assert_eq!(files("rule descriptions"), [".cursor/rules/db.mdc"]);
    // Counted with an exact tokenizer, yet never exact: the joins are not known.
    for s in view["sections"].as_array().expect("sections") {
        assert_eq!(s["joins_modelled"], false);
        assert_eq!(tokens(&s["joins"]), 0);
        assert_eq!(s["tokens"]["exact"], false);
    }
    assert_eq!(view["total"]["exact"], false);
    let notes = view["notes"].to_string();
    assert!(notes.contains("ts.mdc has no `alwaysApply`") && notes.contains("does not publish how it joins"), "{notes}");
    adds_up(view);
    let out = common::ctxc(&["cost", root, "--host", "cursor", "--model", "gpt-4.1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("not modelled") && text.contains(&format!("total ~{} tokens", tokens(&view["total"]))), "{text}");
    // Without --host: shown, for its rules.
    let out = common::ctxc(&["cost", root]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Cursor: what it loads"));
}

/// Gemini CLI strips comments from `.gemini/settings.json` before parsing it: the host view reads
/// the settings of a file with comments too.
#[test]
fn gemini_settings_with_comments_apply() {
    let dir = common::project(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("GEMINI.md", "Gemini rules.\n"),
        ("AGENTS.md", "Agents rules.\n"),
        (
            ".gemini/settings.json",
            "{\n  // the shared file first\n  \"context\": { \"fileName\": [\"AGENTS.md\", \"GEMINI.md\"] } /* done */\n}\n",
        ),
    ]);
    let root = dir.path().to_str().expect("utf-8");
    let (code, views, stderr) = hosts(&[root, "--host", "gemini-cli"]);
    assert_eq!(code, 0, "{stderr}");
    let files: Vec<String> = parts(section(&views[0], "memory"), root).into_iter().map(|p| p.0).collect();
    assert_eq!(files, ["AGENTS.md", "GEMINI.md"], "{:#}", views[0]["notes"]);
    assert!(!views[0]["notes"].to_string().contains("is not valid"), "{:#}", views[0]["notes"]);
}

/// `--format html`: one self-contained page per run with each host's figures as the JSON has
/// them, names from the repository escaped, and the same bytes twice.
#[test]
fn the_html_page_shows_what_the_json_counts() {
    let dir = common::project(&[
        ("AGENTS.md", "# Rules\n\nRun the tests.\n"),
        ("CLAUDE.md", "@AGENTS.md\n"),
        (".claude/skills/x/SKILL.md", "---\nname: x\ndescription: Does <script>x</script> when asked\n---\nBody.\n"),
    ]);
    let path = dir.path().to_str().expect("utf-8");
    let (code, views, stderr) = hosts(&[path, "--host", "claude-code", "--host", "codex"]);
    assert_eq!(code, 0, "{stderr}");
    let page = |_: ()| {
        let out = common::ctxc(&["cost", path, "--host", "claude-code", "--host", "codex", "--format", "html"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let html = page(());
    assert_eq!(html, page(()), "deterministic");
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("Content-Security-Policy") && !html.contains("<script"), "{html}");
    for view in &views {
        assert!(html.contains(&format!("<h2>{} ", view["name"].as_str().expect("name"))), "{html}");
        let total = view["total"]["tokens"].as_i64().expect("total");
        let shown = if view["total"]["exact"] == true { format!("<b>{total}</b>") } else { format!("<b>~{total}</b>") };
        assert!(html.contains(&shown), "{} total {shown}: {html}", view["name"]);
        for section in view["sections"].as_array().expect("sections") {
            for part in section["parts"].as_array().expect("parts") {
                let file = part["file"].as_str().expect("file");
                assert!(html.contains(&format!("<code>{file}</code>")), "{file}: {html}");
            }
        }
    }
    assert!(html.contains("x"), "{html}");
}

/// Codex's skills listing, as `codex-rs/core-skills` builds it and Codex 0.171.0 sends it
/// (data/hosts/codex.toml cites them; tests/runtimes/codex.rs compares with the binary): the
/// repository's skills under `.agents/skills` and `.codex/skills` from the Git root down to the
/// working directory, sorted by name, written `- NAME: DESCRIPTION (file: rN/PATH)`, white space
/// collapsed; a skill without a description or with one over 1,024 characters is not listed.
/// Past 2 % of the window (bytes / 4 per entry with its line break) the descriptions are
/// shortened alike; when the entries without them do not fit either, all are removed and
/// entries are taken while they fit.
#[test]
fn codex_skills_listing_cases() {
    let skill = |name: &str, description: &str| format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n");
    let long = "d".repeat(1025);
    let dir = common::project(&[
        (".git/HEAD", ""),
        ("AGENTS.md", "root"),
        (".agents/skills/b/SKILL.md", &skill("beta", "two\n  lines")),
        (".agents/skills/a/SKILL.md", "---\ndescription: named after its folder\n---\n"),
        (".agents/skills/nodesc/SKILL.md", "---\nname: nodesc\n---\n"),
        (".agents/skills/long/SKILL.md", &skill("long", &long)),
        (".codex/skills/x/SKILL.md", &skill("x", "from the configuration folder")),
        ("sub/.agents/skills/c/SKILL.md", &skill("c", "below")),
        (".claude/skills/claude/SKILL.md", &skill("claude", "Claude Code's")),
    ]);
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let path = root.to_str().expect("utf-8");
    let listing = |from: &str| {
        let (code, views, stderr) = hosts(&[path, "--host", "codex", "--from", &format!("{path}/{from}")]);
        assert_eq!(code, 0, "{stderr}");
        adds_up(&views[0]);
        (section(&views[0], "skills").clone(), views[0]["notes"].clone())
    };
    let (skills, notes) = listing("");
    let names: Vec<String> = parts(&skills, path).into_iter().map(|p| p.1).collect();
    assert_eq!(names, ["a", "beta", "x"]);
    // `.codex/skills` is `r0`, `.agents/skills` `r1`.
    let entry = "- beta: two lines (file: r1/b/SKILL.md)".to_string();
    let beta = &skills["parts"][1];
    assert_eq!(beta["bytes"].as_u64(), Some(entry.len() as u64));
    let counter = ctxc::tokens::TokenCounter::new();
    assert_eq!(tokens(&beta["tokens"]), counter.count(ctxc::models::Tokenizer::O200kBase, &entry) as i64);
    let notes = notes.to_string();
    assert!(notes.contains(".agents/skills/nodesc/SKILL.md has no `description`"), "{notes}");
    assert!(notes.contains(".agents/skills/long/SKILL.md: its description is longer than 1024 characters"), "{notes}");
    assert_eq!(skills["entry_budget"]["limit"], 5440, "2 % of the 272,000 tokens Codex takes for a model it does not name");
    let (skills, _) = listing("sub");
    let names: Vec<String> = parts(&skills, path).into_iter().map(|p| p.1).collect();
    assert_eq!(names, ["a", "beta", "c", "x"]);

    // Past the budget: 40 entries of about 1,030 bytes (258 tokens) pass 5,440 tokens: each
    // description is shortened alike; the short `zz` keeps all of its own.
    let mut files: Vec<(String, String)> =
        (0..40).map(|i| (format!(".agents/skills/s{i:02}/SKILL.md"), skill(&format!("s{i:02}"), &"d".repeat(1000)))).collect();
    files.push((".agents/skills/zz/SKILL.md".into(), skill("zz", "short")));
    let (root, views, _dir) = codex_view_of(files);
    let skills = section(&views[0], "skills");
    let list = skills["parts"].as_array().expect("parts");
    let cost = |p: &Value| (p["bytes"].as_u64().expect("bytes") + 1).div_ceil(4);
    let used: u64 = list.iter().map(cost).sum();
    assert_eq!(skills["entry_budget"]["used"].as_u64(), Some(used));
    assert!(used <= 5440 && used > 5440 - 41, "used {used}");
    assert_eq!((skills["entry_budget"]["omitted"].as_u64(), skills["entry_budget"]["shortened"].as_u64()), (Some(0), Some(40)));
    let zz = list.last().expect("zz");
    assert_eq!((zz["label"].as_str(), zz["cut"].is_null(), zz["bytes"].as_u64()), (Some("zz"), true, Some(34)));
    let dropped: Vec<u64> = list[..40].iter().map(|p| p["cut"]["dropped_bytes"].as_u64().expect("shortened")).collect();
    let (least, most) = (dropped.iter().min().expect("some"), dropped.iter().max().expect("some"));
    assert!(most - least <= 4 && *least > 400, "{dropped:?}");
    let text = common::ctxc(&["cost", root.to_str().expect("utf-8"), "--host", "codex"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("description shortened to") && text.contains("(bytes / 4), 40 descriptions shortened"), "{text}");

    // 700 entries of 9 tokens without their descriptions pass 5,440: every description is
    // removed, 604 entries fit and the 96 after them are left out.
    let files = (0..700).map(|i| (format!(".agents/skills/s{i:03}/SKILL.md"), skill(&format!("s{i:03}"), "some words"))).collect();
    let (_, views, _dir) = codex_view_of(files);
    let skills = section(&views[0], "skills");
    let list = skills["parts"].as_array().expect("parts");
    let budget = &skills["entry_budget"];
    assert_eq!((budget["used"].as_u64(), budget["omitted"].as_u64(), budget["shortened"].as_u64()), (Some(5436), Some(96), Some(604)));
    assert!(list[..604]
        .iter()
        .all(|p| p["bytes"] == 32 && p["cut"]["why"].as_str().is_some_and(|w| w.starts_with("every description removed"))));
    assert!(list[604..].iter().all(|p| p["bytes"] == 0 && p["tokens"]["tokens"] == 0), "{:#}", list[604]);
    assert_eq!(list[604]["label"], "s604");
}

/// Codex's host view (JSON) of a Git repository of `files`, with its root and its folder.
fn codex_view_of(mut files: Vec<(String, String)>) -> (PathBuf, Vec<Value>, tempfile::TempDir) {
    files.push((".git/HEAD".into(), String::new()));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = common::project(&files);
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let (code, views, stderr) = hosts(&[root.to_str().expect("utf-8"), "--host", "codex"]);
    assert_eq!(code, 0, "{stderr}");
    adds_up(&views[0]);
    (root, views, dir)
}

/// `check --preview` says when Codex's listing is past its budget (BUDGET009, from the same view
/// `cost --host codex` shows): here every description is shortened, the finding at the entry
/// that loses most; without preview the rule does not run.
#[test]
fn check_says_which_skills_codex_leaves_out_of_its_listing() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/BUDGET009/fail");
    let check = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ctxc")).args(args).arg(&fixture).args(["--format", "json"]).output().expect("ctxc runs");
        let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let found: Vec<String> = json["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .filter(|d| d["code"] == "BUDGET009")
            .map(|d| {
                format!(
                    "{}:{}:{} {}",
                    d["file"].as_str().expect("file").rsplit("fail/").next().expect("file"),
                    d["line"],
                    d["column"],
                    d["message"].as_str().expect("message")
                )
            })
            .collect();
        (out.status.code(), found)
    };
    let (code, found) = check(&["check", "--preview"]);
    assert_eq!(code, Some(0), "a warning");
    assert_eq!(
        found,
        [".agents/skills/report1/SKILL.md:1:1 Codex's skills listing is over its budget of 5,440 tokens (2 % of gpt-5.3-codex's window of 272,000 tokens as Codex knows it, counted as bytes / 4): it shortens the descriptions of 10 of its 10 entries"]
    );
    assert_eq!(check(&["check"]).1, Vec::<String>::new(), "in preview: off by default");
}

/// SKILL027 (per skills folder, a 272,000-token window) and BUDGET009 (the whole listing of the
/// host view) agree on each other's fixtures, whose skills are in one folder: both count each
/// entry as Codex does, with its aliased path, against the budget Codex takes for gpt-5.3-codex.
#[test]
fn skill027_and_budget009_agree_on_a_listing_of_one_folder() {
    for (rule, side) in [("SKILL027", "fail"), ("SKILL027", "pass"), ("BUDGET009", "fail"), ("BUDGET009", "pass")] {
        // The skills, without the comments that keep each fixture to its own rule.
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/rules/{rule}/{side}/.agents/skills"));
        let copy = tempfile::tempdir().expect("tempdir");
        for skill in std::fs::read_dir(&fixture).expect("skills") {
            let skill = skill.expect("entry").path();
            let text = std::fs::read_to_string(skill.join("SKILL.md")).expect("SKILL.md");
            let text: Vec<&str> = text.lines().filter(|l| !l.starts_with("<!-- ctxc-ignore")).collect();
            let to = copy.path().join(".agents/skills").join(skill.file_name().expect("name"));
            std::fs::create_dir_all(&to).expect("mkdir");
            std::fs::write(to.join("SKILL.md"), text.join("\n")).expect("write");
        }
        let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
            .args(["check", "--preview"])
            .arg(copy.path())
            .args(["--format", "json"])
            .output()
            .expect("ctxc runs");
        let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let has = |code: &str| json["diagnostics"].as_array().expect("diagnostics").iter().any(|d| d["code"] == code);
        assert_eq!((has("SKILL027"), has("BUDGET009")), (side == "fail", side == "fail"), "{rule}/{side}");
    }
}

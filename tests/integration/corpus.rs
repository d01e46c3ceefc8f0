//! The shared corpus (`../shared/corpus`, read in place, never copied into the repository;
//! its absence fails every test here): each SKILL.md is flagged exactly as the
//! spec-check notes of `INDEX.tsv` say, and no corpus file makes ctxc panic or hang.

use crate::common;

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use ctxc::diagnostic::Severity;
use ctxc::lint::{CheckReport, Options};

/// (path, notes) of every INDEX.tsv row of this kind.
fn index_rows(corpus: &Path, kind: &str) -> Vec<(String, String)> {
    let index = std::fs::read_to_string(corpus.join("INDEX.tsv")).expect("INDEX.tsv");
    index
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols.len() >= 7 && cols[4] == kind).then(|| (cols[0].to_string(), cols[6].to_string()))
        })
        .collect()
}

/// The codes a `spec-check:` note implies (`OK` implies none).
fn expected_codes(notes: &str) -> BTreeSet<&'static str> {
    let check = notes.split("spec-check:").nth(1).expect("every skill row has a spec-check note");
    let check = check.split(" ; desc_len").next().unwrap_or(check);
    let mut codes = BTreeSet::new();
    for item in check.split(';').map(str::trim).filter(|i| !i.is_empty()) {
        let code = match item {
            "OK" => continue,
            i if i.starts_with("description-too-long") => "SKILL007",
            i if i.starts_with("body>500lines") => "SKILL013",
            i if i.starts_with("name!=folder") => "SKILL005",
            i if i.starts_with("bad-yaml") => "SKILL002",
            other => panic!("unmapped spec-check note `{other}`: map it to a rule code"),
        };
        codes.insert(code);
    }
    codes
}

/// Codes of the rules that check the specification itself. Not compared: SKILL014 (body
/// tokens), SKILL015 (catalogue entry tokens), SKILL016 (duplicate names across skills) and the
/// bundle rules SKILL017–SKILL029 (the corpus holds SKILL.md files, not every file of their
/// bundles), which the index does not assess.
fn assessed(code: &str) -> bool {
    code.starts_with("SKILL") && !matches!(code, "SKILL014" | "SKILL015" | "SKILL016") && !bundle_rule(code)
}

fn bundle_rule(code: &str) -> bool {
    code.strip_prefix("SKILL").and_then(|n| n.parse::<u32>().ok()).is_some_and(|n| (17..=29).contains(&n))
}

fn spec_codes(report: &CheckReport) -> BTreeSet<String> {
    report.diagnostics.iter().filter_map(|d| d.code).map(|c| c.as_str().to_string()).filter(|c| assessed(c)).collect()
}

#[test]
fn skills_are_flagged_as_the_index_says() {
    let corpus = common::corpus();
    let session = ctxc::Session::default();
    let rows = index_rows(&corpus, "skill");
    assert!(rows.len() >= 40, "{} skill rows", rows.len());
    let mut flagged = 0;
    for (path, notes) in rows {
        let expected: BTreeSet<String> = expected_codes(&notes).into_iter().map(String::from).collect();
        let file = corpus.join(&path);
        for strict in [false, true] {
            let report = ctxc::lint::check(&file, &Options { strict, ..Options::default() }, &session);
            assert!(!report.unloadable, "{path}: {:?}", report.diagnostics);
            assert_eq!(spec_codes(&report), expected, "{path} (strict: {strict}): {notes}\n{:#?}", report.diagnostics);
            if expected.is_empty() {
                let bundle = |d: &&ctxc::Diagnostic| d.code.is_some_and(|c| bundle_rule(c.as_str()));
                let errors: Vec<_> = report.diagnostics.iter().filter(|d| d.severity == Severity::Error && !bundle(d)).collect();
                assert!(errors.is_empty(), "{path} meets the specification but gets errors: {errors:#?}");
            }
        }
        flagged += usize::from(!expected.is_empty());
    }
    assert_eq!(flagged, 6, "claude-api, template, writing-skills, visual-plan and the two bad-YAML skills");
}

/// Runs ctxc with a time limit, draining its output as it goes.
fn run_bounded(args: &[&str], cwd: &Path, limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ctxc starts");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("ctxc {} did not finish within {limit:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output { status, stdout: stdout.join().expect("stdout"), stderr: stderr.join().expect("stderr") }
}

fn assert_no_panic(out: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what} panicked:\n{stderr}");
    assert!(matches!(out.status.code(), Some(0..=2)), "{what}: exit {:?}\n{stderr}", out.status.code());
}

fn copy_tree(from: &Path, to: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<String> {
    let mut copied = Vec::new();
    for entry in common::walk(from) {
        if !keep(&entry) {
            continue;
        }
        let rel = entry.strip_prefix(from).expect("inside");
        let target = to.join(rel);
        std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        std::fs::copy(&entry, &target).expect("copy");
        copied.push(rel.to_string_lossy().replace('\\', "/"));
    }
    copied.sort();
    copied
}

/// Every corpus file ctxc accepts goes through it: SKILL.md, AGENTS.md and CLAUDE.md by
/// zero-config linting (lenient and strict), every JSON file as a tool file (`cost`), and the
/// tools, prompts, memory files and skills together as one agent in a temporary project.
#[test]
fn no_corpus_file_makes_ctxc_panic_or_hang() {
    let corpus = common::corpus();
    let limit = Duration::from_secs(300);
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus_arg = "../shared/corpus";
    for args in [
        vec!["check", corpus_arg],
        vec!["check", "--strict", "--format", "sarif", corpus_arg],
        vec!["check", "--format", "github", &format!("{corpus_arg}/memory")],
        vec!["cost", corpus_arg, "--format", "json"],
    ] {
        let out = run_bounded(&args, here, limit);
        assert_no_panic(&out, &args.join(" "));
    }

    // One agent made of the corpus, in a temporary directory outside the repository.
    let project = tempfile::tempdir().expect("tempdir");
    let root = project.path();
    let tools = copy_tree(&corpus.join("tools"), &root.join("tools"), &|_| true);
    let openai_arrays =
        copy_tree(&corpus.join("prompts"), &root.join("prompts"), &|p| p.extension().is_some_and(|e| e == "json" || e == "md"));
    let memory = copy_tree(&corpus.join("memory"), &root.join("memory"), &|_| true);
    // Skills that parse (the two bad-YAML ones would stop loading, which the skills test covers).
    copy_tree(&corpus.join("skills"), &root.join("skills"), &|p| {
        p.file_name().is_some_and(|n| n == "SKILL.md")
            && std::fs::read_to_string(p).is_ok_and(|t| ctxc::skills::parse_skill("x/SKILL.md", &t).is_ok())
    });
    let list = |prefix: &str, files: &[String], ext: &str| {
        files.iter().filter(|f| f.ends_with(ext)).map(|f| format!("\"{prefix}/{f}\"")).collect::<Vec<_>>().join(", ")
    };
    let prompt_modules: Vec<String> = openai_arrays
        .iter()
        .filter(|f| f.ends_with(".md") && !f.ends_with("README.md"))
        .enumerate()
        .map(|(i, f)| format!("p{i} = {{ source = \"prompts/{f}\" }}"))
        .collect();
    let prompt_steps: Vec<String> = (0..prompt_modules.len()).map(|i| format!("{{ id = \"p{i}\", kind = \"module\" }}")).collect();
    let manifest = format!(
        "[agent]\nname = \"corpus\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [\n  {},\n  {{ id = \"tools\", kind = \"tool_list\" }},\n  {{ id = \"time\", kind = \"time\" }},\n  {{ id = \"memory\", kind = \"memory_files\" }},\n  {{ id = \"skills\", kind = \"skills\" }},\n]\n\n[modules]\n{}\n\n[tools.mcp]\nfiles = [{}]\n\n[tools.openai]\nfiles = [{}]\n\n[memory]\nfiles = [{}]\n\n[skills]\ndirs = [\"skills\"]\n",
        prompt_steps.join(",\n  "),
        prompt_modules.join("\n"),
        list("tools", &tools, ""),
        list("prompts", &openai_arrays, ".json"),
        list("memory", &memory, ".md"),
    );
    std::fs::write(root.join("ctxc.toml"), manifest).expect("manifest");
    for format in ["human", "sarif"] {
        let out = run_bounded(&["check", "--format", format, "."], root, limit);
        assert_no_panic(&out, &format!("check --format {format} (corpus agent)"));
        assert_eq!(out.status.code(), Some(1), "the corpus agent loads and has findings:\n{}", String::from_utf8_lossy(&out.stderr));
    }
}

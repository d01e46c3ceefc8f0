//! The Codex host view (`ctxc cost --host codex`) against the released Codex: the npm package
//! `@openai/codex` at the version data/hosts/codex.toml's `codex-release` source names, installed
//! by scripts/runtimes. `codex debug prompt-input` renders the prompt Codex would send, offline
//! and without a login; each case is a scratch Git repository, run with an empty Codex home and
//! an empty home folder (so no user or system skills: `skills.bundled.enabled=false`). For each
//! working directory of each case, ctxc's memory section must be Codex's project docs message (its
//! heading naming the working directory and the `<INSTRUCTIONS>` block), and ctxc's skills section (the roots table and the entries, as the
//! listing's frame writes them) the text from `### Skill roots` to the last entry, byte for byte.

use crate::common;

use std::path::{Path, PathBuf};

/// The Codex binary of the version the host file names, checked against its package.json.
fn codex_binary() -> PathBuf {
    let host = ctxc::hosts::all().iter().find(|h| h.id == "codex").expect("the codex host");
    let source = &host.sources["codex-release"];
    let version = source.version.clone().expect("a version");
    let dir = common::runtime_path(&format!("codex-{version}/package"));
    let package: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).expect("package.json")).expect("JSON");
    assert_eq!(package["version"].as_str(), Some(version.as_str()), "the installed package is the version the host file names");
    let binary = dir.join(source.path.as_deref().expect("the binary's path"));
    assert!(binary.exists(), "{} is missing: run scripts/runtimes", binary.display());
    binary
}

/// What Codex renders for the working directory `cwd`: the project docs' message (its heading
/// and `<INSTRUCTIONS>` block; "" when it sends none) and the skills block from its roots table to its last entry ("" when
/// it lists none).
fn codex_prompt(binary: &Path, scratch: &Path, cwd: &Path, model: &str) -> (String, String) {
    let (codex_home, home) = (scratch.join("codex-home"), scratch.join("home"));
    std::fs::create_dir_all(&codex_home).expect("mkdir");
    std::fs::create_dir_all(&home).expect("mkdir");
    let run = std::process::Command::new(binary)
        .args(["debug", "prompt-input", "-c", "skills.bundled.enabled=false", "-c"])
        .arg(format!("model=\"{model}\""))
        .arg("hi")
        .current_dir(cwd)
        .env("CODEX_HOME", &codex_home)
        .env("HOME", &home)
        .output()
        .expect("codex runs");
    assert!(run.status.success(), "codex debug prompt-input failed: {}", String::from_utf8_lossy(&run.stderr));
    let items: serde_json::Value = serde_json::from_slice(&run.stdout).expect("a JSON list");
    let texts: Vec<&str> = items
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|item| item["content"].as_array())
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect();
    let docs = texts.iter().find(|t| t.starts_with("# AGENTS.md instructions for ")).map(|t| t.to_string());
    let skills = texts.iter().find(|t| t.starts_with("<skills_instructions>")).map(|t| {
        let start = t.find("### Skill roots\n").unwrap_or_else(|| panic!("a roots table: {t}"));
        let rest = &t[start..];
        let end = rest.find("\n### How to use skills").or_else(|| rest.find("\n</skills_instructions>")).expect("the block's end");
        rest[..end].to_string()
    });
    (docs.unwrap_or_default(), skills.unwrap_or_default())
}

/// ctxc's Codex view of `root` for the working directory `from`: the memory and skills
/// sections as Codex is sent them, and the skills section's parts (name, description kept in
/// bytes, whether left out).
fn ctxc_view(root: &Path, from: &str, model: &str) -> (String, String, ctxc::hostview::HostView) {
    let root = ctxc::project::ProjectRoot::new(root).expect("root");
    let host = ctxc::hostview::hosts().find(|h| h.id == "codex").expect("a startup model");
    let views = ctxc::hostview::views(&root, from, &[host], Some(&ctxc::models::profile(model)), &ctxc::tokens::TokenCounter::new());
    assert!(views.problems.is_empty(), "{:?}", views.problems);
    let view = views.views.into_iter().next().expect("a view");
    let section =
        |title: &str| view.sections.iter().find(|s| s.title == title).map(|s| s.joined.clone().expect("joined")).unwrap_or_default();
    (section("memory"), section("skills"), view)
}

/// Fails, with the lines around the first difference, when ctxc's text is not Codex's.
fn same(ours: &str, theirs: &str, what: &str) {
    if ours == theirs {
        return;
    }
    let at = ours.bytes().zip(theirs.bytes()).position(|(a, b)| a != b).unwrap_or(ours.len().min(theirs.len()));
    // Up to 200 bytes either side of the difference, widened to whole characters.
    let around = |text: &str| {
        let mut start = at.saturating_sub(200).min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (at + 200).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        format!("{:?}", &text[start..end])
    };
    panic!(
        "{what}: ctxc's text ({} bytes) differs from Codex's ({} bytes) at byte {at}\n  ctxc:  {}\n  codex: {}",
        ours.len(),
        theirs.len(),
        around(ours),
        around(theirs)
    );
}

fn skill(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n")
}

/// A case: its name, its files, the working directories to compare and the model.
struct Case {
    name: &'static str,
    files: Vec<(String, String)>,
    froms: Vec<&'static str>,
    model: &'static str,
}

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
}

fn cases() -> Vec<Case> {
    let long_names: Vec<(String, String)> = (0..300)
        .map(|i| {
            let name = format!("skill-with-a-rather-long-name-{i:03}");
            (format!(".agents/skills/{name}/SKILL.md"), skill(&name, "Some words here. Some words here. Some words here."))
        })
        .collect();
    let many = |n: usize, description: &str| -> Vec<(String, String)> {
        (0..n).map(|i| (format!(".agents/skills/s{i:03}/SKILL.md"), skill(&format!("s{i:03}"), description))).collect()
    };
    // Two files that pass 32 KiB together, a two-byte character across the limit.
    let first = format!("{}\n", "a".repeat(20_000));
    let second = format!("{}é tail\n", "b".repeat(32_768 - first.len() - 1));
    let mut shortened = many(120, &"x".repeat(200));
    shortened.extend(files(&[
        (".agents/skills/uni/SKILL.md", "---\nname: uni\ndescription: \"Ünïcødé  text\\twith   spaces é€𝄞\"\n---\n"),
        (".agents/skills/zz-multi/SKILL.md", &skill("zz-multi", &"é€𝄞".repeat(60))),
    ]));
    vec![
        Case {
            name: "chain",
            files: files(&[
                ("AGENTS.md", "# Root\n\nUse tabs.\n"),
                ("sub/AGENTS.override.md", "override wins\n"),
                ("sub/AGENTS.md", "never read\n"),
                ("sub/deeper/AGENTS.md", "  \n\t\n"),
                ("sub/deeper/more/AGENTS.md", "deepest\n"),
                ("other/x.txt", ""),
                (".agents/skills/pdf/SKILL.md", &skill("pdf", "Extract text from PDF files.")),
                (".agents/skills/group/review/SKILL.md", &skill("review", "Reviews a change.")),
                (".agents/skills/nameless/SKILL.md", "---\ndescription: The folder names it.\n---\n"),
                (".agents/skills/folded/SKILL.md", "---\nname: folded\ndescription: >\n  first line\n  second line\n---\n"),
                (".agents/skills/silent/SKILL.md", "---\nname: silent\n---\n"),
                (".codex/skills/cfg/SKILL.md", &skill("cfg", "From the configuration folder.")),
                ("sub/.agents/skills/local/SKILL.md", &skill("local", "Seen from sub.")),
                ("sub/.codex/skills/sub-cfg/SKILL.md", &skill("sub-cfg", "From sub's configuration folder.")),
            ]),
            froms: vec!["", "sub", "sub/deeper/more", "other"],
            model: "gpt-5.3-codex",
        },
        Case {
            name: "project docs over 32 KiB",
            files: files(&[("AGENTS.md", &first), ("sub/AGENTS.md", &second), ("sub/deeper/AGENTS.md", "dropped\n")]),
            froms: vec!["", "sub", "sub/deeper"],
            model: "gpt-5.3-codex",
        },
        Case { name: "descriptions shortened", files: shortened.clone(), froms: vec![""], model: "gpt-5.3-codex" },
        // A window of 500,000 tokens in Codex's catalogue: a budget of 10,000, all fit.
        Case { name: "a larger window", files: shortened, froms: vec![""], model: "gpt-6.1-sol" },
        Case { name: "descriptions removed, skills left out", files: long_names, froms: vec![""], model: "gpt-5.3-codex" },
    ]
}

#[test]
#[ignore = "needs @openai/codex: scripts/runtimes installs it"]
fn host_view_equals_codexs_prompt() {
    let binary = codex_binary();
    let (mut compared, mut bytes, mut states) = (0, 0, [0usize; 3]);
    for case in cases() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical").join("repo");
        let git = std::process::Command::new("git").args(["init", "-q"]).arg(&root).status().expect("git runs");
        assert!(git.success(), "git init");
        for (path, text) in &case.files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, text).expect("write");
        }
        for from in &case.froms {
            let cwd = if from.is_empty() { root.clone() } else { root.join(from) };
            let (docs, skills) = codex_prompt(&binary, dir.path(), &cwd, case.model);
            let (memory, listing, view) = ctxc_view(&root, from, case.model);
            let at = format!("{}, working directory `{from}`, {}", case.name, case.model);
            same(&memory, &docs, &format!("project docs: {at}"));
            same(&listing, &skills, &format!("skills: {at}"));
            assert!(!docs.is_empty() || !skills.is_empty(), "{at}: Codex loaded nothing");
            bytes += docs.len() + skills.len();
            compared += 1;
            for part in view.sections.iter().filter(|s| s.title == "skills").flat_map(|s| &s.parts) {
                let state = match &part.cut {
                    None => 0,
                    Some(_) if part.bytes > 0 => 1,
                    Some(_) => 2,
                };
                states[state] += 1;
            }
        }
    }
    eprintln!(
        "codex: {compared} working directories, {bytes} bytes compared; skills entries whole {}, shortened {}, left out {}",
        states[0], states[1], states[2]
    );
    assert_eq!(compared, 10);
    assert!(states.iter().all(|n| *n > 0), "every budget state is exercised: {states:?}");
}

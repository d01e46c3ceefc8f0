//! `ctxc import agentscope` against AgentScope itself: each project under
//! tests/runtimes/agentscope/imports is an `agent.py` as users write one. ctxc imports it (reading
//! the file, never running it) and `ctxc upstream` writes AgentScope's texts; the real runtime runs
//! the same file (tests/runtimes/agentscope/run_import.py, a recording model, no network). The
//! system prompt, the tools and the window numbers must be equal, as in tests/runtimes/agentscope.rs.
//! The projects under tests/runtimes/agentscope/imports-1x are AgentScope 1.x files (a `Toolkit`
//! filled by `register_*` statements, a `ReActAgent`), run by agentscope 1.0.21
//! (run_import_react.py): the same comparison, and the `CompressionConfig` imported as written.

use crate::agentscope::{compare, run_json};
use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The release the projects are run with (the compression tool, used by one, is 2.0.8 and later).
const RELEASE: &str = "2.0.11";

fn imports() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/agentscope/imports")
}

/// `ctxc import agentscope DIR/agent.py --python PY`, which must succeed: the manifest written, and
/// what it warned.
fn import(python: &Path, dir: &Path, name: &str) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["import", "agentscope"])
        .arg(dir.join("agent.py"))
        .arg("--python")
        .arg(python)
        .env("NO_COLOR", "1")
        .output()
        .expect("ctxc import");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "ctxc import agentscope {name} failed:\n{stderr}");
    (std::fs::read_to_string(dir.join("ctxc.toml")).expect("manifest"), stderr)
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn ctxc_imports_what_agentscope_builds_from_an_agent_file() {
    let python = common::runtime_path(&format!("agentscope-{RELEASE}/bin/python"));
    let mut names: Vec<String> =
        std::fs::read_dir(imports()).expect("imports").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["file-prompt", "own-tools", "string-prompt"]);
    let temp = tempfile::tempdir().expect("tempdir");
    let mut dirs = Vec::new();
    for name in &names {
        let dir = temp.path().canonicalize().expect("canonical").join(name);
        common::copy_tree(&imports().join(name), &dir);
        let (manifest, stderr) = import(&python, &dir, name);
        assert!(manifest.contains("preset = \"agentscope\""), "{manifest}");
        if name == "own-tools" {
            assert!(stderr.contains("a tool in Python"), "the Python tools are named:\n{stderr}");
        }
        dirs.push(dir);
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/agentscope/run_import.py");
    let runs = run_json(Command::new(&python).arg(script).args(&dirs), "agentscope run_import.py");
    let runs = runs.as_array().expect("a list of runs");
    assert_eq!(runs.len(), dirs.len());
    let mut problems = Vec::new();
    for ((name, dir), runtime) in names.iter().zip(&dirs).zip(runs) {
        assert_eq!(runtime["release"], RELEASE);
        problems.extend(compare(name, dir, RELEASE, runtime));
    }
    assert!(problems.is_empty(), "ctxc's import differs from AgentScope in {} place(s):\n\n{}", problems.len(), problems.join("\n\n"));
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn ctxc_imports_what_agentscope_1x_builds_from_an_agent_file() {
    const RELEASE_1X: &str = "1.0.21";
    let python = common::runtime_path(&format!("agentscope-{RELEASE_1X}/bin/python"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/agentscope/imports-1x");
    let temp = tempfile::tempdir().expect("tempdir");
    let mut problems = Vec::new();
    for name in ["react-agent", "react-skills"] {
        let dir = temp.path().canonicalize().expect("canonical").join(name);
        common::copy_tree(&root.join(name), &dir);
        let (manifest, _) = import(&python, &dir, name);
        assert!(manifest.contains("version = \"1.0.21\""), "{manifest}");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/agentscope/run_import_react.py");
        let runs = run_json(Command::new(&python).arg(script).arg(&dir), "agentscope run_import_react.py");
        let runtime = &runs[0];
        assert_eq!(runtime["release"], RELEASE_1X);
        problems.extend(compare(name, &dir, RELEASE_1X, runtime));
        let compression = &runtime["compression"];
        if compression.is_null() {
            if manifest.contains("[agentscope.compression]") {
                problems.push(format!("{name}: no CompressionConfig in AgentScope; the manifest has one:\n{manifest}"));
            }
            continue;
        }
        let written = format!(
            "[agentscope.compression]\nenable = {}\ntoken_counter = \"openai\"\ntrigger_threshold = {}\nkeep_recent = {}\n",
            compression["enable"], compression["trigger_threshold"], compression["keep_recent"]
        );
        if !manifest.contains(&written) {
            problems.push(format!("{name}: the CompressionConfig AgentScope built is {compression}; the manifest has:\n{manifest}"));
        }
    }
    assert!(problems.is_empty(), "ctxc's import differs from AgentScope in {} place(s):\n\n{}", problems.len(), problems.join("\n\n"));
}

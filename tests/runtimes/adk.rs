//! Differential test against Google's Agent Development Kit: each fixture under
//! tests/runtimes/adk/fixtures is built as a real `LlmAgent` (in its agent tree) by the installed
//! google-adk (tests/runtimes/adk/run_agent.py, a scripted model, no network), ADK's own texts
//! written into the project by `ctxc upstream --python` as a user does. ctxc renders the agent from its
//! ctxc.toml: the system instruction must be byte-identical to the one the model was sent, and
//! the function declarations the same, in the same order, each field's JSON byte for byte.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The release compared (tests/runtimes/python/google-adk-2.13.0.txt).
const RELEASE: &str = "2.13.0";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/adk/fixtures")
}

fn fixture_names() -> Vec<String> {
    names_in(&fixtures())
}

/// The folders in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).expect("fixtures").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// Each fixture of `root` named in `names`, copied into `temp` and made ready by `prepare`.
fn copies(temp: &Path, root: &Path, names: &[String], prepare: impl Fn(&str, &Path)) -> Vec<PathBuf> {
    names
        .iter()
        .map(|name| {
            let dir = temp.canonicalize().expect("canonical").join(name);
            common::copy_tree(&root.join(name), &dir);
            prepare(name, &dir);
            dir
        })
        .collect()
}

/// What ADK sent for each project in `dirs`, in one interpreter running `script` (a file of
/// tests/runtimes/adk/).
fn adk(script: &str, dirs: &[PathBuf]) -> Vec<Value> {
    let python = common::runtime_path(&format!("google-adk-{RELEASE}/bin/python"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/adk").join(script);
    let out = Command::new(python).arg(script).args(dirs).output().expect("python");
    assert!(out.status.success(), "google-adk {RELEASE} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let runs: Vec<Value> = serde_json::from_slice(&out.stdout).expect("JSON from the script");
    assert_eq!(runs.len(), dirs.len(), "one run per fixture");
    runs
}

/// A declaration's fields in name order, each value as compact JSON (ADK and ctxc write the
/// fields in different orders; the values' own order is kept).
fn fields(declaration: &Value) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> =
        declaration.as_object().expect("an object").iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
    fields.sort();
    fields
}

/// ADK's texts under each of `dirs`' `upstream/`, from the installed release, as a user writes
/// them: one `ctxc upstream ROOT` on the folder `root` holding them (one interpreter for all).
fn write_upstream(root: &Path, dirs: &[PathBuf]) {
    let python = common::runtime_path(&format!("google-adk-{RELEASE}/bin/python"));
    let out =
        Command::new(env!("CARGO_BIN_EXE_ctxc")).arg("upstream").arg(root).arg("--python").arg(python).output().expect("ctxc upstream");
    assert!(out.status.success(), "ctxc upstream with google-adk {RELEASE} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    for dir in dirs {
        for file in ["agent-transfer.md", "transfer-to-parent.md", "transfer-tool.json", "SOURCES.toml"] {
            assert!(dir.join("upstream").join(file).is_file(), "ctxc upstream wrote no {}/upstream/{file}", dir.display());
        }
    }
}

/// One fixture against what ADK sent: the mismatches, each readable on its own.
fn compare(name: &str, dir: &Path, runtime: &Value) -> Vec<String> {
    let session = ctxc::Session::new(Vec::new());
    let loaded = session.load(&dir.join("ctxc.toml")).unwrap_or_else(|e| panic!("{name}: ctxc cannot load it: {e:?}"));
    let rendered = session.render(&loaded, "default", None).unwrap_or_else(|e| panic!("{name}: ctxc cannot render it: {e:?}"));
    let mut problems = Vec::new();
    let (want, got) = (runtime["system_instruction"].as_str().unwrap_or_default(), &rendered.prompt());
    if want != got {
        problems.push(format!(
            "{name}: system instruction differs ({} bytes from ADK, {} from ctxc)\n{}",
            want.len(),
            got.len(),
            ctxc::review::compare::unified_diff(Some(want), Some(got), "adk", "ctxc")
        ));
    }
    let sent: Vec<Vec<(String, String)>> = runtime["declarations"].as_array().expect("declarations").iter().map(fields).collect();
    let ours: Vec<Vec<(String, String)>> =
        loaded.agent.categories.iter().flat_map(|c| &c.tools).map(|t| fields(&t.tool.gemini_declaration())).collect();
    if sent != ours {
        problems.push(format!("{name}: function declarations differ:\nADK:  {sent:?}\nctxc: {ours:?}"));
    }
    problems
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn ctxc_renders_what_adk_sends() {
    let names = fixture_names();
    assert!(names.len() >= 5, "expected at least 5 fixtures, found {names:?}");
    let temp = tempfile::tempdir().expect("tempdir");
    let dirs = copies(temp.path(), &fixtures(), &names, |_, _| {});
    write_upstream(temp.path(), &dirs);
    let mut problems = Vec::new();
    for ((name, dir), runtime) in names.iter().zip(&dirs).zip(adk("run_agent.py", &dirs)) {
        problems.extend(compare(name, dir, &runtime));
    }
    assert!(problems.is_empty(), "ctxc differs from google-adk {RELEASE} in {} place(s):\n\n{}", problems.len(), problems.join("\n\n"));
}

/// The Agent Config fixtures (`root_agent.yaml` and the files it names).
fn configs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/adk/configs")
}

/// `ctxc import adk` of each Agent Config fixture (ADK's texts written by its `--python`, as a
/// user runs it) against what the installed ADK sends after loading the same YAML with
/// `config_agent_utils.from_config` (tests/runtimes/adk/run_config.py, which also writes the tool
/// declarations as docs/runtimes/adk.md tells users to): the system instruction byte for byte,
/// the function declarations field by field, and the model ADK resolved. The session state ADK
/// is given (state.json) is the scenario's `vars`, added to the imported manifest.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn ctxc_imports_what_adk_loads_from_an_agent_config() {
    let python = common::runtime_path(&format!("google-adk-{RELEASE}/bin/python"));
    let names = names_in(&configs());
    assert!(names.len() >= 3, "expected at least 3 Agent Config fixtures, found {names:?}");
    let temp = tempfile::tempdir().expect("tempdir");
    let dirs = copies(temp.path(), &configs(), &names, |name, dir| {
        let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
            .args(["import", "adk"])
            .arg(dir)
            .arg("--python")
            .arg(&python)
            .output()
            .expect("ctxc import");
        assert!(out.status.success(), "{name}: ctxc import adk failed:\n{}", String::from_utf8_lossy(&out.stderr));
    });
    let runs = adk("run_config.py", &dirs);
    let mut problems = Vec::new();
    for ((name, dir), runtime) in names.iter().zip(&dirs).zip(&runs) {
        let manifest = dir.join("ctxc.toml");
        let mut text = std::fs::read_to_string(&manifest).expect("the imported manifest");
        let model = text.parse::<toml::Table>().expect("TOML")["agent"].get("model").and_then(|m| m.as_str().map(str::to_string));
        if model.as_deref() != runtime["model"].as_str() {
            problems.push(format!("{name}: model {model:?} in the manifest, ADK used {}", runtime["model"]));
        }
        if let Ok(state) = std::fs::read_to_string(dir.join("state.json")) {
            let vars: toml::Table = serde_json::from_str(&state).expect("state.json: an object");
            text.push_str(&format!("\n[scenarios.session.vars]\n{}", toml::to_string(&vars).expect("TOML")));
            std::fs::write(&manifest, text).expect("write the scenario");
        }
        problems.extend(compare(name, dir, runtime));
    }
    assert!(
        problems.is_empty(),
        "ctxc's import differs from google-adk {RELEASE} in {} place(s):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

/// The README's per-release table names the release compared here and its fixture count.
#[test]
fn readme_names_the_adk_release_compared() {
    common::assert_readme_release_row(&format!("google-adk {RELEASE}"), fixture_names().len());
}

//! data/models.tsv against the model tables it is derived from: LiteLLM's packaged table and
//! LangChain's model profiles, installed by scripts/runtimes from
//! tests/runtimes/python/model-tables.txt. scripts/derive-models.py derives the table from them;
//! a release of either that changes a window or an output limit fails here with the rows that
//! differ.

use crate::common;

use std::path::Path;

/// The committed table is what scripts/derive-models.py derives from the installed packages.
#[test]
#[ignore = "needs the model tables (scripts/runtimes)"]
fn model_table_is_what_the_installed_model_tables_give() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(root.join("data/models.tsv")).expect("the table");
    let out = std::process::Command::new(common::runtime_path("model-tables/bin/python"))
        .arg("-I")
        .arg(root.join("scripts/derive-models.py"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run the script");
    assert!(out.status.success(), "scripts/derive-models.py: {}", String::from_utf8_lossy(&out.stderr));
    let derived = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        derived == committed,
        "data/models.tsv differs from the installed tables (- derived from them, + committed); regenerate it with \
         `target/runtimes/model-tables/bin/python -I scripts/derive-models.py > data/models.tsv`:\n{}",
        common::runtime_diff(&derived, &committed)
    );
}

/// The LangChain releases the table is derived from are those Deep Agents is compared with, so
/// ctxc's window for a model and the Deep Agents block's agree.
#[test]
fn model_tables_pin_the_langchain_releases_of_deep_agents() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/python");
    let pins = |file: &str| -> Vec<String> {
        let text = std::fs::read_to_string(dir.join(file)).expect("the spec");
        text.lines().filter(|l| l.starts_with("langchain-")).map(|l| l.split_whitespace().next().unwrap_or(l).to_string()).collect()
    };
    let deepagents = pins("deepagents-0.7.32.txt");
    let tables = pins("model-tables.txt");
    assert!(!tables.is_empty(), "model-tables.txt pins LangChain's provider packages");
    for pin in &tables {
        assert!(deepagents.contains(pin), "{pin} is not the release deepagents-0.7.32.txt pins");
    }
}

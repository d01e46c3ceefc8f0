//! The models' own tokenizer files as users name them: `[agent] tokenizer = "PATH"` read through
//! the project's reader (errors at the manifest line), `--tokenizer PATH` checked as a regular
//! file, and a file whose vocabulary ctxc does not know refused. Counting with real files is
//! proven against the reference implementations in tests/runtimes/tokenizer_files.rs.

use crate::common::{self, ctxc};

const MANIFEST: &str = "[agent]\nname = \"a\"\nmodel = \"qwen/qwen3-32b\"\n{TOKENIZER}\n[pipeline]\nsteps = [{ id = \"role\", kind = \"module\" }]\n[modules]\nrole = { source = \"role.md\" }\n";

fn project(tokenizer_line: &str) -> tempfile::TempDir {
    common::project(&[("ctxc.toml", &MANIFEST.replace("{TOKENIZER}", tokenizer_line)), ("role.md", "You are careful.\n")])
}

fn cost(dir: &std::path::Path, extra: &[&str]) -> (Option<i32>, String) {
    let path = dir.display().to_string();
    let mut args = vec!["cost", path.as_str()];
    args.extend_from_slice(extra);
    let out = ctxc(&args);
    // The diagnostic as one line: miette wraps it and draws a margin.
    let stderr = String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(|l| l.trim_start_matches([' ', '│', '×']).trim_end())
        .collect::<Vec<_>>()
        .join(" ");
    (out.status.code(), stderr)
}

#[test]
fn a_manifest_names_a_file_inside_the_project_and_errors_point_at_its_line() {
    let dir = project("tokenizer = \"tok/missing.json\"");
    let (code, stderr) = cost(dir.path(), &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("tokenizer file (`tokenizer`): file `tok/missing.json` does not exist"), "{stderr}");
    assert!(stderr.contains("ctxc.toml:4:"), "located at the manifest line: {stderr}");

    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("tokenizer.json"), "{}").expect("write");
    let dir = project("tokenizer = \"link.json\"");
    std::os::unix::fs::symlink(outside.path().join("tokenizer.json"), dir.path().join("link.json")).expect("symlink");
    let (code, stderr) = cost(dir.path(), &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("points outside the project root"), "a link out is refused: {stderr}");

    // A name without a dot or a slash is an encoding's name, mistyped.
    let dir = project("tokenizer = \"o200k\"");
    let (code, stderr) = cost(dir.path(), &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("o200k_base"), "suggests the encoding: {stderr}");
}

#[test]
fn a_file_ctxc_cannot_use_is_refused_with_the_reason() {
    let dir = project("");
    // A tokenizer.json of a vocabulary ctxc does not know (a word-level model).
    let unknown = r#"{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],"normalizer":null,"pre_tokenizer":{"type":"Whitespace"},"post_processor":null,"decoder":null,"model":{"type":"WordLevel","vocab":{"[UNK]":0,"You":1},"unk_token":"[UNK]"}}"#;
    std::fs::write(dir.path().join("tokenizer.json"), unknown).expect("write");
    let file = dir.path().join("tokenizer.json").display().to_string();
    let (code, stderr) = cost(dir.path(), &["--tokenizer", &file]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("is a tokenizer.json whose vocabulary (fingerprint"), "{stderr}");
    assert!(stderr.contains("none ctxc knows; known: llama-3, llama-4, qwen-2.5"), "{stderr}");

    std::fs::write(dir.path().join("ranks.tiktoken"), "not base64 0\n").expect("write");
    let file = dir.path().join("ranks.tiktoken").display().to_string();
    let (code, stderr) = cost(dir.path(), &["--tokenizer", &file]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("neither JSON nor a tiktoken rank file (line 1"), "{stderr}");

    let (code, stderr) = cost(dir.path(), &["--tokenizer", "/dev/null"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("`/dev/null` is not a regular file"), "a device is refused: {stderr}");

    let fifo = dir.path().join("fifo.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let (code, stderr) = cost(dir.path(), &["--tokenizer", &fifo.display().to_string()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("is not a regular file"), "a FIFO is refused without blocking: {stderr}");
}

//! The models' own tokenizer files as users name them: `[agent] tokenizer = "PATH"` read through
//! the project's reader (errors at the manifest line), `--tokenizer PATH` checked as a regular
//! file, and a file whose vocabulary ctxc does not know counted as itself, never labelled as the
//! model's, and refused for a model counted exactly already. Counting with real files is proven against the reference
//! implementations in tests/runtimes/tokenizer_files.rs.

use crate::common::{self, ctxc};

const MANIFEST: &str = "[agent]\nname = \"a\"\nmodel = \"qwen/qwen3-32b\"\n{TOKENIZER}\n[pipeline]\nsteps = [{ id = \"role\", kind = \"module\" }]\n[modules]\nrole = { source = \"role.md\" }\n";

/// A tokenizer.json of a vocabulary ctxc does not know: a word-level model that gives each word
/// of the whitespace pre-tokenizer one id ("You" its own, any other the unknown token's).
const WORD_LEVEL: &str = r#"{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],"normalizer":null,"pre_tokenizer":{"type":"Whitespace"},"post_processor":null,"decoder":null,"model":{"type":"WordLevel","vocab":{"[UNK]":0,"You":1},"unk_token":"[UNK]"}}"#;

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
    // A tokenizer.json of a vocabulary ctxc does not know (a word-level model) counts as itself,
    // with its own rules, for a model ctxc does not know and for one of a known family alike:
    // "You are careful." is four words of the whitespace pre-tokenizer, one id each ("You" its
    // own, the others the unknown token's), labelled exact for this file only, with a warning.
    std::fs::write(dir.path().join("tokenizer.json"), WORD_LEVEL).expect("write");
    let file = dir.path().join("tokenizer.json").display().to_string();
    for model in ["acme/own-model", "qwen/qwen3-32b"] {
        let out = ctxc(&["cost", &dir.path().display().to_string(), "--tokenizer", &file, "--model", model, "--format", "json"]);
        let stderr: Vec<String> =
            String::from_utf8_lossy(&out.stderr).lines().map(|l| l.trim_start_matches([' ', '│', '⚠']).trim_end().to_string()).collect();
        let stderr = stderr.join(" ");
        assert!(out.status.success(), "{model}: {stderr}");
        let warned = "holds a vocabulary ctxc does not know (content fingerprint";
        assert!(stderr.contains(warned) && stderr.contains(&format!("not necessarily {model}'s")), "{model}: {stderr}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let report = &json["reports"][0];
        assert_eq!(report["system_prompt"]["tokens"], 4, "{model}: {report}");
        assert_eq!(report["system_prompt"]["exact"], true, "{model}: {report}");
        let method = report["method"].as_str().expect("method");
        assert!(method.starts_with(&format!("exact for this file only, not necessarily {model}'s tokenizer")), "{method}");
        assert!(method.contains("tokenizer.json holding a vocabulary ctxc does not know: content fingerprint"), "{method}");
    }
    // A model counted exactly already takes no file, nor one of a family without a loadable file.
    for (model, reason) in
        [("gpt-4o", "is counted exactly with o200k_base already"), ("claude-sonnet-4-5", "ctxc loads no file of the claude")]
    {
        let (code, stderr) = cost(dir.path(), &["--tokenizer", &file, "--model", model]);
        assert_eq!(code, Some(2), "{model}: {stderr}");
        assert!(stderr.contains("holds a vocabulary ctxc does not know (content fingerprint"), "{model}: {stderr}");
        assert!(stderr.contains(reason), "{model}: {stderr}");
    }

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

/// google-genai caches the Gemma 3 model in the temporary folder, which other users of the
/// machine can write to: a file there that is not the model google-genai downloads is refused,
/// by name, and the counts stay estimates.
#[test]
fn a_doctored_model_in_google_genais_cache_is_refused() {
    let temp = tempfile::tempdir().expect("tempdir");
    let cached = temp.path().join("vertexai_tokenizer_model/df5c78e8def68e67515aeca297169a4f6c7f5920");
    std::fs::create_dir_all(cached.parent().expect("folder")).expect("mkdir");
    std::fs::write(&cached, b"\x0a\x05doctored").expect("write");
    let dir = common::project(&[
        ("ctxc.toml", &MANIFEST.replace("qwen/qwen3-32b", "gemini-2.5-flash").replace("{TOKENIZER}", "")),
        ("role.md", "You are careful.\n"),
    ]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["cost", "--format", "json"])
        .arg(dir.path())
        .env("NO_COLOR", "1")
        .env("TMPDIR", temp.path())
        .env("HF_HOME", temp.path().join("hf"))
        .env_remove("VIRTUAL_ENV")
        .output()
        .expect("ctxc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // miette wraps the warning, the path too: compared without the margin and spaces.
    let joined: String = stderr.chars().filter(|c| !c.is_whitespace() && *c != '│').collect();
    assert!(joined.contains(&cached.display().to_string()) && joined.contains("SHA-256"), "names the file and why: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("vertexai_tokenizer_model"), "not counted with it: {stdout}");
    // `ctxc models` does not list it as the model's file either.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["models", "gemini-2.5-flash", "--format", "json"])
        .env("TMPDIR", temp.path())
        .env("HF_HOME", temp.path().join("hf"))
        .env_remove("VIRTUAL_ENV")
        .output()
        .expect("ctxc runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let file = &json.as_array().expect("profiles")[0]["tokenizer_file"];
    assert_eq!(file["status"], "not_found", "{file}");
    assert!(file["looked"][0].as_str().is_some_and(|l| l.contains("SHA-256")), "{file}");
}

/// `ctxc models --format json` lists each profile as JSON shows it elsewhere, then its `source`,
/// the tokenizer file found in the Hugging Face cache and the chat template beside it, in that
/// order (the file is not read: a placeholder is enough).
#[test]
fn models_json_names_the_source_the_file_found_and_the_template_beside_it() {
    let hf = tempfile::tempdir().expect("tempdir");
    let snapshot = hf.path().join("hub/models--Qwen--Qwen3-32B/snapshots/abc123");
    std::fs::create_dir_all(&snapshot).expect("mkdir");
    std::fs::create_dir_all(hf.path().join("hub/models--Qwen--Qwen3-32B/refs")).expect("mkdir");
    std::fs::write(hf.path().join("hub/models--Qwen--Qwen3-32B/refs/main"), "abc123\n").expect("write");
    for name in ["tokenizer.json", "chat_template.jinja"] {
        std::fs::write(snapshot.join(name), "{}").expect("write");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["models", "qwen/qwen3-32b", "--format", "json"])
        .env("HF_HOME", hf.path())
        .env_remove("VIRTUAL_ENV")
        .output()
        .expect("ctxc runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let row = json.as_array().and_then(|rows| rows.iter().find(|r| r["model"] == "qwen/qwen3-32b")).expect("the profile");
    let keys: Vec<&str> = row.as_object().expect("an object").keys().map(String::as_str).collect();
    assert_eq!(keys[keys.len() - 3..], ["source", "tokenizer_file", "chat_template"], "{row}");
    assert!(row["source"].as_str().is_some_and(|s| !s.is_empty()), "{row}");
    assert_eq!(row["tokenizer_file"]["status"], "found", "{row}");
    assert_eq!(row["chat_template"], snapshot.join("chat_template.jinja").display().to_string(), "{row}");
}

/// The host view (a repository without a manifest) counts with `--tokenizer` for the model
/// `--model` names, labelled as that file's counts; without `--model` (each host counts for its
/// own model) the file is refused, and so are `--chat-template` and `--python`, which it has no
/// use for: none of them is passed over in silence.
#[test]
fn the_host_view_counts_with_a_tokenizer_file_for_the_model_named() {
    let dir = common::project(&[("AGENTS.md", "You are careful and kind.\n"), ("tokenizer.json", WORD_LEVEL)]);
    let file = dir.path().join("tokenizer.json").display().to_string();
    let path = dir.path().display().to_string();
    let out = ctxc(&["cost", &path, "--host", "codex", "--tokenizer", &file, "--model", "acme/own-model", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Warned, as for a manifest's agent: the counts are the file's.
    let stderr = String::from_utf8_lossy(&out.stderr).split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ");
    assert!(stderr.contains("holds a vocabulary ctxc does not know (content fingerprint"), "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let view = &json["hosts"][0];
    let method = view["method"].as_str().expect("method");
    assert!(method.starts_with("exact for this file only, not necessarily acme/own-model's tokenizer"), "{method}");
    let memory = view["sections"].as_array().expect("sections").iter().find(|s| s["title"] == "memory").expect("the memory section");
    // "You", "are", "careful", "and", "kind", ".": six words, one id each.
    let agents_md = &memory["parts"][0]["tokens"];
    assert_eq!((agents_md["tokens"].as_i64(), agents_md["exact"].as_bool()), (Some(6), Some(true)), "{memory}");
    assert!(agents_md["tokenizer"].as_str().is_some_and(|t| t.starts_with("file-")), "{memory}");
    for (extra, refused) in [
        (vec!["--tokenizer", file.as_str()], "--tokenizer needs --model in the host view"),
        (vec!["--chat-template", file.as_str()], "--chat-template is for a manifest's agents"),
        (vec!["--python", "/usr"], "--python is for a manifest's agents"),
    ] {
        let (code, stderr) = cost(dir.path(), &[&["--host", "codex"], extra.as_slice()].concat());
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(refused), "{stderr}");
    }
}

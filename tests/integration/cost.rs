//! Token accounting: counts equal an independent count of the same text, parts add up to the
//! whole, budgets fail `check` at the right lines, and bare tool files are costed per tool.

use std::process::Command;

use serde_json::{json, Value};

use crate::common;

use crate::common::ctxc;

fn json(args: &[&str]) -> Value {
    let out = ctxc(args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// An independent count: tiktoken-rs called directly, outside ctxc's cache and plumbing.
fn reference_count(encoding: &str, text: &str) -> i64 {
    let bpe = match encoding {
        "o200k_base" => tiktoken_rs::o200k_base(),
        "cl100k_base" => tiktoken_rs::cl100k_base(),
        other => panic!("no reference for {other}"),
    }
    .expect("encoder");
    bpe.encode_ordinary(text).len() as i64
}

/// Every text of the shared corpus (prompts, skills, tool schemas, agent files) counts as
/// tiktoken-rs encodes it, with both encodings: ctxc's own BPE and pre-tokenizer against
/// OpenAI's patterns and merges, on what users bring.
#[test]
fn corpus_texts_count_as_tiktoken_encodes() {
    let mut files = Vec::new();
    let mut dirs = vec![common::corpus()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("corpus folder").map(|e| e.expect("entry").path()) {
            if entry.is_dir() {
                dirs.push(entry);
            } else if let Ok(text) = std::fs::read_to_string(&entry) {
                files.push((entry, text));
            }
        }
    }
    assert!(files.len() > 300, "{} corpus texts", files.len());
    let counter = ctxc::tokens::TokenCounter::new();
    for (encoding, tokenizer, reference) in [
        ("o200k_base", ctxc::models::Tokenizer::O200kBase, tiktoken_rs::o200k_base()),
        ("cl100k_base", ctxc::models::Tokenizer::Cl100kBase, tiktoken_rs::cl100k_base()),
    ] {
        let reference = reference.expect("encoder");
        for (path, text) in &files {
            assert_eq!(counter.count(tokenizer, text), reference.encode_ordinary(text).len(), "{encoding}: {}", path.display());
        }
    }
}

#[test]
fn section_counts_equal_an_independent_count_and_add_up() {
    for (agent, mode, scenario) in [("zeus", "agent", "connected"), ("zeus", "plan", "default")] {
        let path = format!("examples/agents/{agent}");
        let rendered = json(&["render", &path, "--mode", mode, "--scenario", scenario, "--format", "json"]);
        let cost = json(&["cost", &path, "--mode", mode, "--scenario", scenario, "--format", "json"]);
        let report = &cost["reports"][0];
        assert_eq!(report["tokenizer"], "o200k_base");
        assert_eq!(report["exact"], true);
        let sections = report["sections"].as_array().expect("sections");
        assert_eq!(sections.len(), rendered["sections"].as_array().expect("sections").len());
        let mut sum = 0;
        for (measured, text) in sections.iter().zip(rendered["sections"].as_array().expect("sections")) {
            let tokens = measured["tokens"]["tokens"].as_i64().expect("tokens");
            assert_eq!(measured["tokens"]["tokenizer"], "o200k_base");
            assert_eq!(measured["tokens"]["exact"], true);
            let expected = reference_count("o200k_base", text["text"].as_str().expect("text"));
            assert_eq!(tokens, expected, "{agent}/{mode}/{scenario} section {}", measured["id"]);
            sum += tokens;
        }
        let total = report["system_prompt"]["tokens"].as_i64().expect("total");
        assert_eq!(total, reference_count("o200k_base", rendered["prompt"].as_str().expect("prompt")));
        assert_eq!(sum + report["joins"]["tokens"].as_i64().expect("joins"), total, "parts add up to the whole");
        let tools = &report["tool_schemas"];
        let per_tool: i64 = tools["tools"].as_array().expect("tools").iter().map(|t| t["tokens"]["tokens"].as_i64().expect("n")).sum();
        let n = |v: &serde_json::Value| v["tokens"].as_i64().expect("tokens");
        assert_eq!(per_tool + n(&tools["framing"]) + n(&tools["preamble"]) + n(&tools["joins"]), n(&tools["total"]), "tool parts add up");
        assert!(n(&tools["framing"]) >= 0 && n(&tools["preamble"]) >= 0, "framing and preamble are positive");
        // gpt-4o: harmony's rendering, an estimate for OpenAI's API models, and labelled so.
        assert_eq!((&tools["rendering"], &tools["exact"]), (&json!("harmony"), &json!(false)));
        assert!(tools["method"].as_str().expect("method").starts_with("estimate: the harmony rendering"));
        let request = &report["request"];
        assert_eq!(n(&request["framing"]) + n(&report["system_prompt"]) + n(&tools["total"]) + n(&request["joins"]), n(&request["total"]));
        assert_eq!(report["window"]["fixed"].as_i64(), Some(n(&request["total"])), "the window's fixed part is the whole request");
    }
}

#[test]
fn claude_counts_are_labelled_estimates_everywhere() {
    let cost = json(&["cost", "examples/agents/support-triage", "--format", "json"]);
    let report = &cost["reports"][0];
    assert_eq!(report["exact"], false);
    assert!(report["method"].as_str().expect("method").starts_with("estimate"));
    for section in report["sections"].as_array().expect("sections") {
        assert_eq!(section["tokens"]["exact"], false, "{}", section["id"]);
    }
    let text = String::from_utf8(ctxc(&["cost", "examples/agents/support-triage", "--mode", "reply", "--scenario", "default"]).stdout)
        .expect("utf-8");
    assert!(text.contains("estimate: o200k_base count × 1.20 for the Claude 3 to Claude 4.6 tokenizer, ±10 %"), "{text}");
    assert!(text.contains(" ~"), "estimates carry a ~ in front: {text}");
    // Configured numbers are never marked; counts always are; the preamble is its own line.
    let line = |label: &str| text.lines().find(|l| l.starts_with(label)).unwrap_or_else(|| panic!("no `{label}` line: {text}"));
    for configured in ["window  ", "response reserve", "summarization at"] {
        assert!(!line(configured).contains('~'), "{}", line(configured));
    }
    for counted in ["fixed context", "room for history", "preamble (once)"] {
        assert!(line(counted).contains('~'), "{}", line(counted));
    }
    assert!(line("preamble (once)").contains("~346"), "{}", line("preamble (once)"));
    let tools = &report["tool_schemas"];
    assert_eq!((&tools["rendering"], &tools["exact"], &tools["preamble"]["tokens"]), (&json!("anthropic"), &json!(false), &json!(346)));
    assert_eq!(report["model"]["tool_preamble"]["auto"], 346, "the profile names the preamble and its source");
    // gpt-oss: harmony's rendering, exact.
    let oss = json(&["cost", "examples/agents/support-triage", "--format", "json", "--set", "agent.model=openai/gpt-oss-120b"]);
    let oss = &oss["reports"][0];
    assert_eq!((&oss["tool_schemas"]["exact"], &oss["request"]["exact"]), (&json!(true), &json!(true)));
    assert_eq!(oss["request"]["per_message"], 4);
    assert!(oss["tool_schemas"]["method"].as_str().expect("method").starts_with("exact: harmony rendering"));
}

#[test]
fn set_overrides_a_key_for_one_run() {
    assert_eq!(ctxc(&["check", "examples/agents/zeus"]).status.code(), Some(0));
    let tight = ctxc(&["check", "examples/agents/zeus", "--set", "budgets.system_prompt=1000", "--format", "concise"]);
    assert_eq!(tight.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&tight.stdout).contains("over its budget of 1,000"));
    let small_window = json(&[
        "cost",
        "examples/agents/zeus",
        "--mode",
        "plan",
        "--scenario",
        "default",
        "--format",
        "json",
        "--set",
        "agent.context_window=32000",
    ]);
    assert_eq!(small_window["overrides"][0], "agent.context_window=32000");
    assert_eq!(small_window["reports"][0]["window"]["max_input_tokens"], 32000);
    let typo = ctxc(&["check", "examples/agents/zeus", "--set", "budgets.system_promt=10", "--format", "concise"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&typo.stdout).contains("did you mean `system_prompt`?"));
}

/// `--set` reaches into a named scenario like any other table: an existing scenario's key is
/// replaced for the run, a new scenario name adds one, and a misspelt scenario key is refused.
#[test]
fn set_overrides_a_scenario_key() {
    let render =
        |scenario: &str, set: &str| ctxc(&["render", "examples/agents/zeus", "--mode", "plan", "--scenario", scenario, "--set", set]);
    let tokyo = render("default", "scenarios.default.timezone=Asia/Tokyo");
    assert_eq!(tokyo.status.code(), Some(0), "{}", String::from_utf8_lossy(&tokyo.stderr));
    let text = String::from_utf8_lossy(&tokyo.stdout);
    assert!(text.contains("in the Asia/Tokyo timezone") && !text.contains("Europe/Berlin"), "{text}");
    let added = render("travel", "scenarios.travel.timezone=Asia/Tokyo");
    assert_eq!(added.status.code(), Some(0), "{}", String::from_utf8_lossy(&added.stderr));
    assert!(String::from_utf8_lossy(&added.stdout).contains("in the Asia/Tokyo timezone"));
    let typo = render("default", "scenarios.default.timezon=Asia/Tokyo");
    assert_eq!(typo.status.code(), Some(2));
    let said = String::from_utf8_lossy(&typo.stderr);
    assert!(said.contains("MAN001") && said.contains("did you mean `timezone`?"), "{said}");
}

#[test]
fn bare_tool_files_are_costed_per_tool() {
    let cost = json(&["cost", "examples/agents/zeus/tools/mcp/github.json", "--format", "json"]);
    let tools = cost["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 7);
    let counts: Vec<i64> = tools.iter().map(|t| t["tokens"]["tokens"].as_i64().expect("n")).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "sorted by cost: {counts:?}");
    assert!(counts.iter().all(|&n| n > 0));
    let n = |key: &str| cost[key]["tokens"].as_i64().expect(key);
    assert_eq!(counts.iter().sum::<i64>() + n("framing") + n("preamble") + n("joins"), n("total"), "parts add up");
    let claude = json(&["cost", "examples/agents/zeus/tools/mcp/github.json", "--model", "claude-sonnet-4-5", "--format", "json"]);
    assert_eq!(claude["preamble"]["tokens"], 346, "Anthropic's tool-use system prompt, counted once");
    assert_eq!(claude["exact"], false);
}

#[test]
fn corpus_mcp_tools_are_costed() {
    common::corpus();
    let github = json(&["cost", "../shared/corpus/tools/github-mcp-server", "--format", "json"]);
    assert_eq!(github["tools"].as_array().expect("tools").len(), 117);
    assert!(github["total"]["tokens"].as_i64().expect("total") > 10_000);
    let spec = json(&["cost", "../shared/corpus/tools/mcp-spec-examples", "--format", "json"]);
    let names: Vec<&str> = spec["tools"].as_array().expect("tools").iter().map(|t| t["name"].as_str().expect("name")).collect();
    assert!(names.contains(&"get_weather") && names.contains(&"list_users"), "{names:?}");
}

/// Cross-check with OpenAI's own tokenizer (Python tiktoken, loaded offline from the rank files
/// tiktoken-rs ships), from the test environment `scripts/test` builds.
#[test]
#[ignore = "needs Python tiktoken in target/python/tiktoken: run by scripts/test, which installs it"]
fn counts_match_python_tiktoken() {
    let python = common::python();
    for (agent, mode, scenario, encoding) in [
        ("examples/agents/zeus", "agent", "connected", "o200k_base"),
        ("tests/fixtures/budgets/over-budget", "agent", "default", "cl100k_base"),
    ] {
        let rendered = json(&["render", agent, "--mode", mode, "--scenario", scenario, "--format", "json"]);
        let cost = json(&["cost", agent, "--mode", mode, "--scenario", scenario, "--format", "json"]);
        let report = &cost["reports"][0];
        assert_eq!(report["tokenizer"], encoding);
        let mut texts: Vec<String> =
            rendered["sections"].as_array().expect("sections").iter().map(|s| s["text"].as_str().expect("text").to_string()).collect();
        texts.push(rendered["prompt"].as_str().expect("prompt").to_string());
        let mut ours: Vec<i64> =
            report["sections"].as_array().expect("sections").iter().map(|s| s["tokens"]["tokens"].as_i64().expect("n")).collect();
        ours.push(report["system_prompt"]["tokens"].as_i64().expect("total"));
        let mut child = Command::new(&python)
            .args(["scripts/reference_counts.py", encoding])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python3 runs");
        std::io::Write::write_all(child.stdin.as_mut().expect("stdin"), serde_json::to_string(&texts).expect("json").as_bytes())
            .expect("write");
        let out = child.wait_with_output().expect("python3 finishes");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let reference: Vec<i64> = serde_json::from_slice(&out.stdout).expect("counts");
        assert_eq!(ours, reference, "{agent} {mode} {scenario}");
    }
}

/// The lines of an HTML report between two markers, one table row or bar a line, for review.
fn html_part(page: &str, from: &str, to: &str) -> String {
    let start = page.find(from).unwrap_or_else(|| panic!("no `{from}` in the page"));
    let end = start + page[start..].find(to).unwrap_or_else(|| panic!("no `{to}` after `{from}`"));
    page[start..end].replace("</tr>", "</tr>\n").replace("</svg>", "</svg>\n")
}

#[test]
fn every_budget_is_shown_with_its_status_in_every_format() {
    let fixture = "tests/fixtures/budgets/over-budget";
    for format in ["text", "markdown"] {
        let out = ctxc(&["cost", fixture, "--format", format]);
        assert_eq!(out.status.code(), Some(0), "cost reports an overrun; check is the gate");
        assert_snapshot!(format!("over_budget_{format}"), String::from_utf8_lossy(&out.stdout));
    }
    let report = json(&["cost", fixture, "--format", "json"]);
    // One line per budget, every key in the documented order (whatever order the JSON map keeps).
    let keys = ["kind", "id", "name", "measured", "tokens", "worst_case", "limit", "share", "status"];
    let lines: Vec<String> = report["reports"][0]["budgets"]
        .as_array()
        .expect("budgets")
        .iter()
        .map(|b| {
            assert_eq!(b.as_object().expect("object").len(), keys.len(), "{b}");
            let value = |k: &str| match k {
                "tokens" => format!("{}/{}/exact={}", b[k]["tokens"], b[k]["tokenizer"], b[k]["exact"]),
                _ => b[k].to_string(),
            };
            keys.iter().map(|k| format!("{k}={}", value(k))).collect::<Vec<_>>().join(" ")
        })
        .collect();
    assert_snapshot!("over_budget_json", lines.join("\n"));
    let out = ctxc(&["cost", fixture, "--format", "html"]);
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8(out.stdout).expect("UTF-8");
    let overview = html_part(&page, "<h3>Fixed context", "<div class=\"card\"><h3>agent mode");
    let budgets = html_part(&page, "<h4>Budgets</h4>", "<h4>Window</h4>");
    assert_snapshot!("over_budget_html", format!("{overview}\n{budgets}"));
}

#[test]
fn cost_and_check_agree_on_every_budget() {
    let set = ["--set", "budgets.system_prompt=3000"];
    let cost = json(&[&["cost", "examples/agents/zeus", "--format", "json"][..], &set].concat());
    let prompts: Vec<(i64, String)> = cost["reports"]
        .as_array()
        .expect("reports")
        .iter()
        .map(|r| {
            let b = r["budgets"].as_array().expect("budgets").iter().find(|b| b["kind"] == "system_prompt").expect("the budget");
            assert_eq!(b["tokens"]["tokens"], r["system_prompt"]["tokens"]);
            (b["tokens"]["tokens"].as_i64().expect("tokens"), b["status"].as_str().expect("status").to_string())
        })
        .collect();
    for (tokens, status) in &prompts {
        let expected = if *tokens > 3000 {
            "over"
        } else if *tokens >= 2700 {
            "near"
        } else {
            "ok"
        };
        assert_eq!(status, expected, "{tokens} tokens against 3000");
    }
    assert!(prompts.iter().any(|(_, s)| s == "over"));
    let worst = prompts.iter().map(|(t, _)| *t).max().expect("reports");
    let check = ctxc(&[&["check", "examples/agents/zeus", "--format", "concise"][..], &set].concat());
    assert_eq!(check.status.code(), Some(1));
    let findings = String::from_utf8_lossy(&check.stdout);
    let expected = format!("the system prompt: {} tokens, over its budget of 3,000", ctxc::diagnostic::grouped(worst));
    assert!(findings.contains(&expected), "{findings}");
    let text = String::from_utf8(ctxc(&[&["cost", "examples/agents/zeus"][..], &set].concat()).stdout).expect("UTF-8");
    assert!(text.contains("`ctxc check` fails on an over budget; `cost` only reports it and exits 0"), "{text}");
    let summary = &text[text.find("zeus · summary across 6 mode × scenario reports").expect("a summary across modes")..];
    assert_eq!(summary.lines().filter(|l| l.ends_with("over: system prompt")).count(), prompts.iter().filter(|(_, s)| s == "over").count());
}

#[test]
fn model_costs_the_agent_for_another_model() {
    let args = ["cost", "examples/agents/zeus", "--mode", "ask", "--scenario", "default"];
    let out = ctxc(&[&args[..], &["--model", "claude-sonnet-4-5"]].concat());
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_snapshot!(String::from_utf8_lossy(&out.stdout));
    let by_flag = json(&[&args[..], &["--format", "json", "--model", "claude-sonnet-4-5"]].concat());
    assert_eq!(by_flag["model"], "claude-sonnet-4-5");
    assert_eq!(by_flag["reports"][0]["model"]["model"], "claude-sonnet-4-5");
    assert_eq!(by_flag["reports"][0]["exact"], false);
    let by_set = json(&[&args[..], &["--format", "json", "--set", "agent.model=claude-sonnet-4-5"]].concat());
    assert_eq!(by_flag["reports"], by_set["reports"], "--model is `--set agent.model=…`");
    assert_ne!(by_flag["reports"], json(&[&args[..], &["--format", "json"]].concat())["reports"]);

    // An unknown model: the warning and suggestion an unknown model in a manifest gets.
    for command in [&["cost", "--mode", "ask"][..], &["check"], &["render", "--mode", "ask"]] {
        let out = ctxc(&[command, &["examples/agents/zeus", "--model", "gpt-4oo"]].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("unknown model `gpt-4oo`") && stderr.contains("did you mean `gpt-4o`?"), "{command:?}: {stderr}");
    }
    let rendered = json(&["render", "examples/agents/zeus", "--mode", "ask", "--format", "json", "--model", "gpt-4.1"]);
    assert_eq!(rendered["model"], "gpt-4.1");
}

/// Open-weight models as Ollama, Hugging Face and hosts name them resolve to the release's
/// profile, without MAN011, and keep the name as written; a size no row names stays unknown.
#[test]
fn open_weight_names_cost_as_their_release() {
    let args = ["cost", "examples/agents/zeus", "--mode", "ask", "--scenario", "default", "--format", "json"];
    for (written, model, window) in [
        ("ollama/qwen3:8b", "qwen3-8b", 40_960),
        ("ollama/llama3.1:8b", "llama-3.1-8b-instruct", 131_072),
        ("meta-llama/Llama-3.3-70B-Instruct", "llama-3.3-70b-instruct", 131_072),
        ("together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo", "llama-3.3-70b-instruct", 131_072),
        ("Qwen/Qwen3-32B", "qwen3-32b", 40_960),
    ] {
        let out = ctxc(&[&args[..], &["--model", written]].concat());
        assert!(!String::from_utf8_lossy(&out.stderr).contains("MAN011"), "{written}: {}", String::from_utf8_lossy(&out.stderr));
        let report: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        let profile = &report["reports"][0]["model"];
        assert_eq!((profile["model"].as_str(), profile["written_as"].as_str()), (Some(model), Some(written)));
        assert_eq!(profile["max_input_tokens"], window, "{written}");
        assert!(profile["calibration"]["generation"].is_string(), "{written}: calibrated by its family's tokenizer");
    }
    let out = ctxc(&[&args[..], &["--model", "ollama/qwen3:0.6b"]].concat());
    assert!(String::from_utf8_lossy(&out.stderr).contains("MAN011"), "{}", String::from_utf8_lossy(&out.stderr));
}

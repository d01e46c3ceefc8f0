//! `ctxc import zeph config.toml`: a ctxc manifest from a Zeph configuration file (zeph-config
//! 0.22.4 `Config`), beside it. The window settings Zeph reads from `[memory]` become `[zeph]`
//! settings, graph memory and the memory-first strategy become scenario flags, the first
//! provider's model the agent's model. Keys the config leaves out keep Zeph's defaults, which
//! the `zeph` preset holds. What ctxc does not model is said in notes.

use std::ops::Range;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::{Diagnostic, Failure, Sources};
use crate::import::{toml_string, Imported};
use crate::project::ProjectRoot;
use crate::runtimes::zeph::window::RELEASES;

/// The parts of Zeph's config ctxc reads; every other key is left to Zeph.
#[derive(Debug, Default, Deserialize)]
struct Config {
    #[serde(default)]
    agent: Option<Agent>,
    #[serde(default)]
    llm: Option<Llm>,
    #[serde(default)]
    memory: Option<Memory>,
    #[serde(default)]
    index: Option<Index>,
    #[serde(default)]
    tools: Option<Tools>,
    #[serde(default)]
    cost: Option<Cost>,
}

#[derive(Debug, Deserialize)]
struct Agent {
    name: Option<String>,
    max_tool_iterations: Option<u64>,
    budget_hint_enabled: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct Cost {
    enabled: Option<bool>,
    max_daily_cents: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct Llm {
    #[serde(default)]
    providers: Vec<Provider>,
}

#[derive(Debug, Deserialize)]
struct Provider {
    model: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Memory {
    context_budget_tokens: Option<u64>,
    auto_budget: Option<bool>,
    soft_compaction_threshold: Option<f64>,
    // Zeph's field; `compaction_threshold` is its alias.
    #[serde(alias = "compaction_threshold")]
    hard_compaction_threshold: Option<f64>,
    compaction_preserve_tail: Option<u64>,
    prune_protect_tokens: Option<u64>,
    context_strategy: Option<Spanned<String>>,
    cross_session_score_threshold: Option<Spanned<f64>>,
    #[serde(default)]
    graph: Option<Enabled>,
    #[serde(default)]
    semantic: Option<Semantic>,
}

#[derive(Debug, Deserialize)]
struct Enabled {
    enabled: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct Semantic {
    recall_limit: Option<Spanned<u64>>,
}

#[derive(Debug, Deserialize)]
struct Index {
    enabled: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct Tools {
    summarize_output: Option<Spanned<bool>>,
}

/// Reads the Zeph config at `config` (through the guarded reader of its folder) and makes the
/// manifest `ctxc.toml` beside it.
pub fn import(config: &Path) -> Result<Imported, Failure> {
    let dir = config.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = config.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let fail = |d: Diagnostic, sources: Sources| Failure { diagnostics: vec![d], sources };
    let root = ProjectRoot::new(dir).map_err(|e| fail(e.into_diagnostic(), Sources::default()))?;
    let file = root.read(&name).map_err(|e| fail(e.into_diagnostic().in_file(root.display_path(&name)), Sources::default()))?;
    let mut sources = Sources::default();
    sources.insert_shared(&file.display, file.text.clone());
    let parsed: Config = toml::from_str(&file.text).map_err(|e| {
        let d = Diagnostic::error(format!("not a Zeph config: {}", e.message())).in_file(&file.display).at(e.span()).label("here");
        fail(d, sources.clone())
    })?;
    let note = |message: String, span: Range<usize>| Diagnostic::warning(message).in_file(&file.display).at(Some(span));
    let mut notes = Vec::new();

    let mut text = format!(
        "# Imported from {name} by `ctxc import zeph`: Zeph's window settings (release {}), the rest left to\n\
         # the zeph preset, whose defaults are Zeph's. Declare modules `base_prompt`, `environment` and\n\
         # `repo_map` with your release's texts to count the whole prompt.\n\n[agent]\n",
        RELEASES[0].0
    );
    let agent_name = parsed.agent.as_ref().and_then(|a| a.name.clone()).unwrap_or_else(|| "zeph".to_string());
    text.push_str(&format!("name = {}\n", toml_string(&agent_name)));
    if let Some(model) = parsed.llm.as_ref().and_then(|l| l.providers.first()).and_then(|p| p.model.clone()) {
        text.push_str(&format!("model = {}\n", toml_string(&model)));
    }
    text.push_str("\n[pipeline]\npreset = \"zeph\"\n");

    let flags = flags(&parsed, &note, &mut notes);
    if !flags.is_empty() {
        text.push_str(&format!("\n[flags]\n{}\n", flags.join("\n")));
    }
    text.push_str(&format!("\n[zeph]\nversion = \"{}\"\n", RELEASES[0].0));
    text.push_str(&settings(&parsed));
    notes.extend(unmodelled(&parsed, &note));
    Ok(Imported { manifest: dir.join("ctxc.toml"), text, notes, sources, upstream: None, files: Vec::new() })
}

/// The scenario flags the config implies; a note for a strategy the flags model only in part.
fn flags(parsed: &Config, note: &dyn Fn(String, Range<usize>) -> Diagnostic, notes: &mut Vec<Diagnostic>) -> Vec<&'static str> {
    let memory = parsed.memory.as_ref();
    let mut flags = Vec::new();
    if parsed.index.as_ref().and_then(|i| i.enabled) == Some(true) {
        flags.push("code_index = true");
    }
    if memory.and_then(|m| m.graph.as_ref()).and_then(|g| g.enabled) == Some(true) {
        flags.push("graph_memory = true");
    }
    if let Some(strategy) = memory.and_then(|m| m.context_strategy.as_ref()) {
        match strategy.get_ref().as_str() {
            "memory_first" => flags.push("memory_first = true"),
            "adaptive" => notes.push(note(
                "context_strategy \"adaptive\" starts with the full-history layout, which the manifest models; Zeph switches to memory first after `crossover_turn_threshold` turns (scenario flag `memory_first`)".into(),
                strategy.span(),
            )),
            _ => {}
        }
    }
    flags
}

/// The `[zeph]` settings the config sets, one `key = value` line each.
fn settings(parsed: &Config) -> String {
    let (memory, agent, cost) = (parsed.memory.as_ref(), parsed.agent.as_ref(), parsed.cost.as_ref());
    let settings: [(&str, Option<String>); 10] = [
        ("context_budget_tokens", memory.and_then(|m| m.context_budget_tokens).map(|v| v.to_string())),
        ("auto_budget", memory.and_then(|m| m.auto_budget).map(|v| v.to_string())),
        ("soft_compaction_threshold", memory.and_then(|m| m.soft_compaction_threshold).map(toml_float)),
        ("compaction_threshold", memory.and_then(|m| m.hard_compaction_threshold).map(toml_float)),
        ("compaction_preserve_tail", memory.and_then(|m| m.compaction_preserve_tail).map(|v| v.to_string())),
        ("prune_protect_tokens", memory.and_then(|m| m.prune_protect_tokens).map(|v| v.to_string())),
        ("budget_hint_enabled", agent.and_then(|a| a.budget_hint_enabled).map(|v| v.to_string())),
        ("max_tool_iterations", agent.and_then(|a| a.max_tool_iterations).map(|v| v.to_string())),
        ("cost_enabled", cost.and_then(|c| c.enabled).map(|v| v.to_string())),
        ("max_daily_cents", cost.and_then(|c| c.max_daily_cents).map(|v| v.to_string())),
    ];
    settings.into_iter().filter_map(|(key, value)| value.map(|v| format!("{key} = {v}\n"))).collect()
}

/// Notes for the settings that stay with Zeph: ctxc models no window number they change.
fn unmodelled(parsed: &Config, note: &dyn Fn(String, Range<usize>) -> Diagnostic) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    if let Some(m) = &parsed.memory {
        let unmodelled = "ctxc does not model it: it filters recalled memories at run time and changes no window number";
        if let Some(t) = &m.cross_session_score_threshold {
            notes.push(note(format!("cross_session_score_threshold {} stays with Zeph: {unmodelled}", t.get_ref()), t.span()));
        }
        if let Some(l) = m.semantic.as_ref().and_then(|s| s.recall_limit.as_ref()) {
            notes.push(note(format!("recall_limit {} stays with Zeph: {unmodelled}", l.get_ref()), l.span()));
        }
    }
    if let Some(s) = parsed.tools.as_ref().and_then(|t| t.summarize_output.as_ref()) {
        notes.push(note(
            format!(
                "summarize_output {} stays with Zeph: ctxc does not model tool-output summaries (an LLM call at run time)",
                s.get_ref()
            ),
            s.span(),
        ));
    }
    notes
}

/// A float as TOML writes it (`0.9`, and `1.0` rather than `1`).
fn toml_float(v: f64) -> String {
    toml::Value::Float(v).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imported(text: &str) -> Result<Imported, Failure> {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("config.toml"), text).expect("write");
        import(&dir.path().join("config.toml"))
    }

    #[test]
    fn window_settings_flags_and_model_are_carried_over() {
        let got = imported(
            "[agent]\nname = \"Zeph \\\"dev\\\"\"\n[[llm.providers]]\ntype = \"openai\"\nmodel = \"gpt-4o\"\n\
             [memory]\nhistory_limit = 50\ncontext_budget_tokens = 50000\ncompaction_threshold = 0.8\ncontext_strategy = \"memory_first\"\n\
             cross_session_score_threshold = 0.5\n[memory.graph]\nenabled = true\n",
        )
        .expect("imports");
        assert!(got.text.contains("name = 'Zeph \"dev\"'\nmodel = \"gpt-4o\"\n"), "{}", got.text);
        assert!(got.text.contains("[flags]\ngraph_memory = true\nmemory_first = true\n"), "{}", got.text);
        assert!(got.text.contains("context_budget_tokens = 50000\ncompaction_threshold = 0.8\n"), "{}", got.text);
        assert_eq!(got.notes.len(), 1, "{:?}", got.notes);
        assert!(got.notes[0].message.contains("cross_session_score_threshold"));
        crate::manifest::parse(&got.text, crate::manifest::Format::Toml).expect("the manifest parses");
    }

    #[test]
    fn bad_toml_and_wrong_types_point_at_the_line() {
        for bad in ["[memory\n", "[memory]\ncontext_budget_tokens = \"lots\"\n", "[memory]\nauto_budget = 3\n", "memory = 1\n"] {
            let failure = imported(bad).expect_err(bad);
            let d = &failure.diagnostics[0];
            assert!(d.message.starts_with("not a Zeph config"), "{bad}: {}", d.message);
            assert!(d.span.is_some(), "{bad}: no position");
        }
    }
}

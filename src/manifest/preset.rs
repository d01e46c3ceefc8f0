//! Built-in presets are manifest fragments (TOML, under `presets/`), parsed with the same raw
//! types as a user's manifest. The user's manifest is laid over the preset: tables merge key by
//! key, single values from the user win, and pipeline steps merge by id.

use indexmap::IndexMap;

use super::lint::RawLint;
use super::raw::*;

/// Names and texts of the built-in presets.
pub const PRESETS: &[(&str, &str)] = &[
    ("zeus", include_str!("../../presets/zeus.toml")),
    ("deepagents", include_str!("../../presets/deepagents.toml")),
    ("zeph", include_str!("../../presets/zeph.toml")),
    ("agentscope", include_str!("../../presets/agentscope.toml")),
];

/// Step layouts of later releases of a reference system: (preset, layout, fragment). The
/// fragment's `pipeline.steps` replace the preset's steps as a whole (a later release can drop
/// and reorder steps, which an overlay cannot).
pub const LAYOUTS: &[(&str, &str, &str)] = &[("deepagents", "0.7", include_str!("../../presets/deepagents-0.7.toml"))];

/// The fragment holding a preset's steps for one layout, if that layout has its own.
pub fn layout_text(preset: &str, layout: &str) -> Option<&'static str> {
    LAYOUTS.iter().find(|(p, l, _)| *p == preset && *l == layout).map(|(_, _, text)| *text)
}

pub fn preset_text(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// Lays `over` on top of `self`; values present in `over` win.
pub trait Overlay {
    fn overlay(&mut self, over: Self);
}

fn take<T>(base: &mut Option<T>, over: Option<T>) {
    if over.is_some() {
        *base = over;
    }
}

fn overlay_opt<T: Overlay>(base: &mut Option<T>, over: Option<T>) {
    match (base.as_mut(), over) {
        (Some(b), Some(o)) => b.overlay(o),
        (None, Some(o)) => *base = Some(o),
        (_, None) => {}
    }
}

impl<T: Overlay> Overlay for IndexMap<String, T> {
    fn overlay(&mut self, over: Self) {
        for (key, value) in over {
            match self.get_mut(&key) {
                Some(existing) => existing.overlay(value),
                None => {
                    self.insert(key, value);
                }
            }
        }
    }
}

/// Leaf values: the overlay replaces.
macro_rules! replace_overlay {
    ($($t:ty),*) => {$(
        impl Overlay for $t {
            fn overlay(&mut self, over: Self) { *self = over; }
        }
    )*};
}
replace_overlay!(bool, RawAccess, RawConnector, RawScenario, RawInterrupt, super::span::Spanned<String>);

impl Overlay for RawBudgets {
    fn overlay(&mut self, over: Self) {
        take(&mut self.system_prompt, over.system_prompt);
        take(&mut self.tool_schemas, over.tool_schemas);
        take(&mut self.response_reserve, over.response_reserve);
        take(&mut self.warn_ratio, over.warn_ratio);
    }
}

impl Overlay for RawLint {
    fn overlay(&mut self, over: Self) {
        if over.select.is_some() {
            self.select = over.select;
        }
        self.ignore.extend(over.ignore);
        self.severity.extend(over.severity);
        if over.skills.is_some() {
            self.skills = over.skills;
        }
        if over.memory_max_tokens.is_some() {
            self.memory_max_tokens = over.memory_max_tokens;
        }
        take(&mut self.preview, over.preview);
    }
}

impl Overlay for RawSnapshot {
    fn overlay(&mut self, over: Self) {
        take(&mut self.dir, over.dir);
    }
}

impl Overlay for RawManifest {
    fn overlay(&mut self, over: Self) {
        take(&mut self.schema, over.schema);
        overlay_opt(&mut self.agent, over.agent);
        overlay_opt(&mut self.pipeline, over.pipeline);
        self.modules.overlay(over.modules);
        self.modes.overlay(over.modes);
        self.flags.overlay(over.flags);
        self.connectors.overlay(over.connectors);
        self.tools.overlay(over.tools);
        take(&mut self.skills, over.skills);
        overlay_opt(&mut self.memory, over.memory);
        overlay_opt(&mut self.history, over.history);
        overlay_opt(&mut self.summarization, over.summarization);
        self.scenarios.overlay(over.scenarios);
        overlay_opt(&mut self.budgets, over.budgets);
        self.vars.extend(over.vars);
        take(&mut self.templates, over.templates);
        overlay_opt(&mut self.project, over.project);
        overlay_opt(&mut self.snapshot, over.snapshot);
        overlay_opt(&mut self.deepagents, over.deepagents);
        overlay_opt(&mut self.zeph, over.zeph);
        overlay_opt(&mut self.agentscope, over.agentscope);
        overlay_opt(&mut self.lint, over.lint);
    }
}

impl Overlay for RawAgent {
    fn overlay(&mut self, over: Self) {
        if !over.name.value.is_empty() {
            self.name = over.name;
        }
        take(&mut self.description, over.description);
        take(&mut self.model, over.model);
        take(&mut self.context_window, over.context_window);
        take(&mut self.max_output_tokens, over.max_output_tokens);
        take(&mut self.tokenizer, over.tokenizer);
    }
}

impl Overlay for RawPipeline {
    fn overlay(&mut self, over: Self) {
        take(&mut self.preset, over.preset);
        take(&mut self.separator, over.separator);
        for step in over.steps {
            match self.steps.iter_mut().find(|s| s.id.value == step.id.value) {
                Some(existing) => existing.overlay(step),
                None => self.steps.push(step),
            }
        }
    }
}

impl Overlay for RawStep {
    fn overlay(&mut self, over: Self) {
        self.id = over.id;
        take(&mut self.kind, over.kind);
        take(&mut self.title, over.title);
        take(&mut self.module, over.module);
        take(&mut self.text, over.text);
        take(&mut self.when, over.when);
        take(&mut self.budget, over.budget);
        take(&mut self.after, over.after);
        take(&mut self.before, over.before);
        take(&mut self.separator, over.separator);
    }
}

impl Overlay for RawModule {
    fn overlay(&mut self, over: Self) {
        take(&mut self.source, over.source);
        self.variants.overlay(over.variants);
        take(&mut self.template, over.template);
        take(&mut self.key, over.key);
        take(&mut self.root, over.root);
    }
}

impl Overlay for RawMode {
    fn overlay(&mut self, over: Self) {
        take(&mut self.description, over.description);
        take(&mut self.prompt, over.prompt);
        self.variants.overlay(over.variants);
        self.tools.overlay(over.tools);
        take(&mut self.disabled_tools, over.disabled_tools);
        take(&mut self.budget, over.budget);
    }
}

impl Overlay for RawCategory {
    fn overlay(&mut self, over: Self) {
        take(&mut self.title, over.title);
        take(&mut self.when, over.when);
        self.files.extend(over.files);
        self.tool.extend(over.tool);
        self.read_only.extend(over.read_only);
    }
}

impl Overlay for RawMemory {
    fn overlay(&mut self, over: Self) {
        self.files.extend(over.files);
        overlay_opt(&mut self.retrieval, over.retrieval);
        take(&mut self.walk_up, over.walk_up);
    }
}

impl Overlay for RawRetrieval {
    fn overlay(&mut self, over: Self) {
        take(&mut self.top_k, over.top_k);
        take(&mut self.max_chars, over.max_chars);
        take(&mut self.scopes, over.scopes);
        take(&mut self.weights, over.weights);
    }
}

impl Overlay for RawHistory {
    fn overlay(&mut self, over: Self) {
        take(&mut self.max_messages, over.max_messages);
    }
}

impl Overlay for RawSummarization {
    fn overlay(&mut self, over: Self) {
        take(&mut self.trigger_ratio, over.trigger_ratio);
        take(&mut self.keep_messages, over.keep_messages);
    }
}

impl Overlay for RawProject {
    fn overlay(&mut self, over: Self) {
        take(&mut self.root, over.root);
    }
}

impl Overlay for RawDeepAgents {
    fn overlay(&mut self, over: Self) {
        take(&mut self.version, over.version);
        take(&mut self.tool_token_limit_before_evict, over.tool_token_limit_before_evict);
        take(&mut self.human_message_token_limit_before_evict, over.human_message_token_limit_before_evict);
        take(&mut self.mount, over.mount);
        self.interrupt_on.overlay(over.interrupt_on);
        overlay_opt(&mut self.summarization, over.summarization);
    }
}

impl Overlay for RawDeepAgentsSummarization {
    fn overlay(&mut self, over: Self) {
        take(&mut self.trigger, over.trigger);
        take(&mut self.keep, over.keep);
    }
}

impl Overlay for RawZeph {
    fn overlay(&mut self, over: Self) {
        take(&mut self.version, over.version);
        take(&mut self.context_budget_tokens, over.context_budget_tokens);
        take(&mut self.auto_budget, over.auto_budget);
        take(&mut self.response_reserve_ratio, over.response_reserve_ratio);
        take(&mut self.soft_compaction_threshold, over.soft_compaction_threshold);
        take(&mut self.compaction_threshold, over.compaction_threshold);
        take(&mut self.compaction_preserve_tail, over.compaction_preserve_tail);
        take(&mut self.prune_protect_tokens, over.prune_protect_tokens);
        take(&mut self.tool_output_max_chars, over.tool_output_max_chars);
        overlay_opt(&mut self.shares, over.shares);
        overlay_opt(&mut self.shares_with_graph, over.shares_with_graph);
        overlay_opt(&mut self.shares_memory_first, over.shares_memory_first);
        overlay_opt(&mut self.shares_memory_first_with_graph, over.shares_memory_first_with_graph);
    }
}

impl Overlay for RawZephShares {
    fn overlay(&mut self, over: Self) {
        take(&mut self.summaries, over.summaries);
        take(&mut self.semantic_recall, over.semantic_recall);
        take(&mut self.cross_session, over.cross_session);
        take(&mut self.code_context, over.code_context);
        take(&mut self.graph_facts, over.graph_facts);
        take(&mut self.recent_history, over.recent_history);
    }
}

impl Overlay for RawAgentScope {
    fn overlay(&mut self, over: Self) {
        take(&mut self.trigger_ratio, over.trigger_ratio);
        take(&mut self.reserve_ratio, over.reserve_ratio);
        take(&mut self.tool_result_limit, over.tool_result_limit);
        take(&mut self.version, over.version);
        take(&mut self.context_buffer_ratio, over.context_buffer_ratio);
        take(&mut self.inject_runtime_state, over.inject_runtime_state);
        take(&mut self.compression_tool_enabled, over.compression_tool_enabled);
        take(&mut self.model_class, over.model_class);
        take(&mut self.context_size, over.context_size);
        take(&mut self.project_dir, over.project_dir);
        take(&mut self.workspace, over.workspace);
    }
}

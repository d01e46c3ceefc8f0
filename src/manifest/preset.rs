//! Built-in presets are manifest fragments (TOML, under `presets/`), parsed with the same raw
//! types as a user's manifest. The user's manifest is laid over the preset: tables merge key by
//! key, single values from the user win, and pipeline steps merge by id.

use indexmap::IndexMap;

use super::lint::RawLint;
use super::raw::*;

/// Names and texts of the built-in presets, one per runtime.
pub use crate::runtimes::PRESETS;

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

/// Lays `over` on top of `self`; values present in `over` win. The implementations for tables
/// destructure `over` naming every field, so a field added to a table without its overlay does
/// not compile (a `--set` of it would otherwise be dropped whenever the table already exists).
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
        let Self { system_prompt, tool_schemas, response_reserve, warn_ratio, require_exact } = over;
        take(&mut self.system_prompt, system_prompt);
        take(&mut self.tool_schemas, tool_schemas);
        take(&mut self.response_reserve, response_reserve);
        take(&mut self.warn_ratio, warn_ratio);
        take(&mut self.require_exact, require_exact);
    }
}

impl Overlay for RawLint {
    fn overlay(&mut self, over: Self) {
        let Self { select, ignore, severity, skills, memory_max_tokens, preview } = over;
        take(&mut self.select, select);
        self.ignore.extend(ignore);
        self.severity.extend(severity);
        take(&mut self.skills, skills);
        take(&mut self.memory_max_tokens, memory_max_tokens);
        take(&mut self.preview, preview);
    }
}

impl Overlay for RawSnapshot {
    fn overlay(&mut self, over: Self) {
        let Self { dir } = over;
        take(&mut self.dir, dir);
    }
}

impl Overlay for RawManifest {
    fn overlay(&mut self, over: Self) {
        let Self {
            schema,
            agent,
            pipeline,
            modules,
            modes,
            flags,
            connectors,
            tools,
            skills,
            memory,
            history,
            summarization,
            scenarios,
            budgets,
            vars,
            templates,
            project,
            snapshot,
            deepagents,
            zeph,
            agentscope,
            adk,
            lint,
        } = over;
        take(&mut self.schema, schema);
        overlay_opt(&mut self.agent, agent);
        overlay_opt(&mut self.pipeline, pipeline);
        self.modules.overlay(modules);
        self.modes.overlay(modes);
        self.flags.overlay(flags);
        self.connectors.overlay(connectors);
        self.tools.overlay(tools);
        take(&mut self.skills, skills);
        overlay_opt(&mut self.memory, memory);
        overlay_opt(&mut self.history, history);
        overlay_opt(&mut self.summarization, summarization);
        self.scenarios.overlay(scenarios);
        overlay_opt(&mut self.budgets, budgets);
        self.vars.extend(vars);
        take(&mut self.templates, templates);
        overlay_opt(&mut self.project, project);
        overlay_opt(&mut self.snapshot, snapshot);
        overlay_opt(&mut self.deepagents, deepagents);
        overlay_opt(&mut self.zeph, zeph);
        overlay_opt(&mut self.agentscope, agentscope);
        take(&mut self.adk, adk);
        overlay_opt(&mut self.lint, lint);
    }
}

impl Overlay for RawAgent {
    fn overlay(&mut self, over: Self) {
        let Self { name, description, model, context_window, max_output_tokens, tokenizer, chat_template, empty_tool_list } = over;
        if !name.value.is_empty() {
            self.name = name;
        }
        take(&mut self.description, description);
        take(&mut self.model, model);
        take(&mut self.context_window, context_window);
        take(&mut self.max_output_tokens, max_output_tokens);
        take(&mut self.tokenizer, tokenizer);
        take(&mut self.chat_template, chat_template);
        take(&mut self.empty_tool_list, empty_tool_list);
    }
}

impl Overlay for RawPipeline {
    fn overlay(&mut self, over: Self) {
        let Self { preset, separator, steps } = over;
        take(&mut self.preset, preset);
        take(&mut self.separator, separator);
        for step in steps {
            match self.steps.iter_mut().find(|s| s.id.value == step.id.value) {
                Some(existing) => existing.overlay(step),
                None => self.steps.push(step),
            }
        }
    }
}

impl Overlay for RawStep {
    fn overlay(&mut self, over: Self) {
        let Self { id, kind, title, module, text, when, budget, after, before, separator, new_message } = over;
        self.id = id;
        take(&mut self.kind, kind);
        take(&mut self.title, title);
        take(&mut self.module, module);
        take(&mut self.text, text);
        take(&mut self.when, when);
        take(&mut self.budget, budget);
        take(&mut self.after, after);
        take(&mut self.before, before);
        take(&mut self.separator, separator);
        take(&mut self.new_message, new_message);
    }
}

impl Overlay for RawModule {
    fn overlay(&mut self, over: Self) {
        let Self { source, variants, template, key, root } = over;
        take(&mut self.source, source);
        self.variants.overlay(variants);
        take(&mut self.template, template);
        take(&mut self.key, key);
        take(&mut self.root, root);
    }
}

impl Overlay for RawMode {
    fn overlay(&mut self, over: Self) {
        let Self { description, prompt, variants, tools, disabled_tools, budget } = over;
        take(&mut self.description, description);
        take(&mut self.prompt, prompt);
        self.variants.overlay(variants);
        self.tools.overlay(tools);
        take(&mut self.disabled_tools, disabled_tools);
        take(&mut self.budget, budget);
    }
}

impl Overlay for RawCategory {
    fn overlay(&mut self, over: Self) {
        let Self { title, when, files, tool, read_only } = over;
        take(&mut self.title, title);
        take(&mut self.when, when);
        self.files.extend(files);
        self.tool.extend(tool);
        self.read_only.extend(read_only);
    }
}

impl Overlay for RawMemory {
    fn overlay(&mut self, over: Self) {
        let Self { files, retrieval, walk_up } = over;
        self.files.extend(files);
        overlay_opt(&mut self.retrieval, retrieval);
        take(&mut self.walk_up, walk_up);
    }
}

impl Overlay for RawRetrieval {
    fn overlay(&mut self, over: Self) {
        let Self { top_k, max_chars, scopes, weights } = over;
        take(&mut self.top_k, top_k);
        take(&mut self.max_chars, max_chars);
        take(&mut self.scopes, scopes);
        take(&mut self.weights, weights);
    }
}

impl Overlay for RawHistory {
    fn overlay(&mut self, over: Self) {
        let Self { max_messages } = over;
        take(&mut self.max_messages, max_messages);
    }
}

impl Overlay for RawSummarization {
    fn overlay(&mut self, over: Self) {
        let Self { trigger_ratio, keep_messages } = over;
        take(&mut self.trigger_ratio, trigger_ratio);
        take(&mut self.keep_messages, keep_messages);
    }
}

impl Overlay for RawProject {
    fn overlay(&mut self, over: Self) {
        let Self { root, requires } = over;
        take(&mut self.root, root);
        take(&mut self.requires, requires);
    }
}

impl Overlay for RawDeepAgents {
    fn overlay(&mut self, over: Self) {
        let Self { version, tool_token_limit_before_evict, human_message_token_limit_before_evict, mount, interrupt_on, summarization } =
            over;
        take(&mut self.version, version);
        take(&mut self.tool_token_limit_before_evict, tool_token_limit_before_evict);
        take(&mut self.human_message_token_limit_before_evict, human_message_token_limit_before_evict);
        take(&mut self.mount, mount);
        self.interrupt_on.overlay(interrupt_on);
        overlay_opt(&mut self.summarization, summarization);
    }
}

impl Overlay for RawDeepAgentsSummarization {
    fn overlay(&mut self, over: Self) {
        let Self { trigger, keep } = over;
        take(&mut self.trigger, trigger);
        take(&mut self.keep, keep);
    }
}

impl Overlay for RawZeph {
    fn overlay(&mut self, over: Self) {
        let Self {
            version,
            context_budget_tokens,
            auto_budget,
            response_reserve_ratio,
            soft_compaction_threshold,
            compaction_threshold,
            compaction_preserve_tail,
            prune_protect_tokens,
            tool_output_max_chars,
            shares,
            shares_with_graph,
            shares_memory_first,
            shares_memory_first_with_graph,
            budget_hint_enabled,
            max_tool_iterations,
            cost_enabled,
            max_daily_cents,
        } = over;
        take(&mut self.version, version);
        take(&mut self.context_budget_tokens, context_budget_tokens);
        take(&mut self.auto_budget, auto_budget);
        take(&mut self.response_reserve_ratio, response_reserve_ratio);
        take(&mut self.soft_compaction_threshold, soft_compaction_threshold);
        take(&mut self.compaction_threshold, compaction_threshold);
        take(&mut self.compaction_preserve_tail, compaction_preserve_tail);
        take(&mut self.prune_protect_tokens, prune_protect_tokens);
        take(&mut self.tool_output_max_chars, tool_output_max_chars);
        take(&mut self.budget_hint_enabled, budget_hint_enabled);
        take(&mut self.max_tool_iterations, max_tool_iterations);
        take(&mut self.cost_enabled, cost_enabled);
        take(&mut self.max_daily_cents, max_daily_cents);
        overlay_opt(&mut self.shares, shares);
        overlay_opt(&mut self.shares_with_graph, shares_with_graph);
        overlay_opt(&mut self.shares_memory_first, shares_memory_first);
        overlay_opt(&mut self.shares_memory_first_with_graph, shares_memory_first_with_graph);
    }
}

impl Overlay for RawZephShares {
    fn overlay(&mut self, over: Self) {
        let Self { summaries, semantic_recall, cross_session, code_context, graph_facts, recent_history } = over;
        take(&mut self.summaries, summaries);
        take(&mut self.semantic_recall, semantic_recall);
        take(&mut self.cross_session, cross_session);
        take(&mut self.code_context, code_context);
        take(&mut self.graph_facts, graph_facts);
        take(&mut self.recent_history, recent_history);
    }
}

impl Overlay for RawAgentScope {
    fn overlay(&mut self, over: Self) {
        let Self {
            trigger_ratio,
            reserve_ratio,
            tool_result_limit,
            version,
            context_buffer_ratio,
            inject_runtime_state,
            compression_tool_enabled,
            model_class,
            context_size,
            project_dir,
            workspace,
        } = over;
        take(&mut self.trigger_ratio, trigger_ratio);
        take(&mut self.reserve_ratio, reserve_ratio);
        take(&mut self.tool_result_limit, tool_result_limit);
        take(&mut self.version, version);
        take(&mut self.context_buffer_ratio, context_buffer_ratio);
        take(&mut self.inject_runtime_state, inject_runtime_state);
        take(&mut self.compression_tool_enabled, compression_tool_enabled);
        take(&mut self.model_class, model_class);
        take(&mut self.context_size, context_size);
        take(&mut self.project_dir, project_dir);
        take(&mut self.workspace, workspace);
    }
}

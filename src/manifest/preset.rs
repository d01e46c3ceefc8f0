//! Built-in presets are manifest fragments (TOML, under `presets/`), parsed with the same raw
//! types as a user's manifest. The user's manifest is laid over the preset: tables merge key by
//! key, single values from the user win, and pipeline steps merge by id.

use super::lint::RawLint;
use super::raw::*;
pub use crate::provenance::Overlay;
use crate::provenance::{overlay_opt, take};

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

/// Leaf values: the overlay replaces.
macro_rules! replace_overlay {
    ($($t:ty),*) => {$(
        impl Overlay for $t {
            fn overlay(&mut self, over: Self) { *self = over; }
        }
    )*};
}
replace_overlay!(bool, RawAccess, RawConnector, RawScenario, super::span::Spanned<String>);

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

//! Validation of the reference systems' settings (`[deepagents]`, `[zeph]`, `[agentscope]`),
//! the Deep Agents release layout, and the walk up to the project root for project-context files.
//! Each setting keeps where its value came from: the manifest line, an override, or the preset's
//! default (then diagnostics point at the `preset` line and say so).

use std::ops::Range;

use super::model::{Origin, TextFile};
use super::raw::*;
use super::span::Spanned;
use super::{preset, Validator};
use crate::project::ReadError;
use crate::runtimes::agentscope::window as agentscope;
use crate::runtimes::deepagents::window as deepagents;
use crate::runtimes::zeph::window as zeph;
use crate::systems::{Setting, Systems};

/// The preset a default came from, and where the manifest names it.
struct PresetRef {
    name: String,
    origin: Origin,
}

/// The system tables and the preset each belongs to.
const SYSTEM_TABLES: [&str; 4] = ["deepagents", "zeph", "agentscope", "adk"];

impl Validator {
    /// For `deepagents`: picks the step layout of the configured release and, for a later
    /// release, replaces the preset's steps with that layout's.
    pub(super) fn apply_layout(&mut self, name: &str, preset_raw: &mut RawManifest, user: &RawManifest) {
        if name != "deepagents" {
            return;
        }
        let version = user
            .deepagents
            .as_ref()
            .and_then(|d| d.version.clone())
            .or_else(|| preset_raw.deepagents.as_ref().and_then(|d| d.version.clone()));
        let Some(version) = version else { return };
        let text = version.value.text();
        match deepagents::layout(&text) {
            Ok(layout) => {
                if let Some(fragment) = preset::layout_text(name, layout) {
                    match super::span::from_toml_without_spans::<RawManifest>(fragment) {
                        Ok(steps) => {
                            if let Some(pipeline) = preset_raw.pipeline.as_mut() {
                                pipeline.steps = steps.pipeline.map(|p| p.steps).unwrap_or_default();
                            }
                        }
                        Err(e) => {
                            self.error(format!("built-in layout `{name}` {layout} is invalid: {}", e.message()), None);
                        }
                    }
                }
            }
            Err(message) => {
                let span = self.span(&version, "version");
                self.error(message, span).help = Some("set `[deepagents] version` to \"0.4\" or \"0.7\" (or a later release)".into());
            }
        }
    }

    /// Files named in `[memory] walk_up`, looked for in each directory from the project root down
    /// to the manifest's directory (root first). Missing files are skipped; files that escape the
    /// root (symlinks out) are refused.
    pub(super) fn walk_up(&mut self, names: &[Spanned<String>]) -> Vec<TextFile> {
        let mut found = Vec::new();
        let mut valid = Vec::new();
        for name in names {
            let bad = name.value.is_empty() || name.value.starts_with('/') || name.value.split(['/', '\\']).any(|part| part == "..");
            if bad {
                let span = self.span(name, &name.value);
                self.error(format!("walk_up name `{}` must be a relative path inside a directory, without `..`", name.value), span);
            } else {
                valid.push(name);
            }
        }
        // An invalid name is reported once, above, and never looked for.
        for dir in self.root.dirs_from_root() {
            for name in &valid {
                let reference = if dir == "." { name.value.clone() } else { format!("{dir}/{}", name.value) };
                match self.root.read(&reference) {
                    Ok(file) => {
                        self.sources.insert_shared(&file.display, file.text.clone());
                        found.push(TextFile { path: file.rel, text: file.text, template: false, template_root: Default::default() });
                    }
                    Err(ReadError::Missing(_) | ReadError::NotAFile(_)) => {}
                    Err(e) => {
                        let span = self.span(name, &name.value);
                        self.read_error(e, span);
                    }
                }
            }
        }
        found
    }

    /// A setting from the user's manifest (or an override), else from the preset.
    fn pick<T: Clone>(&self, key: &str, user: Option<&Spanned<T>>, preset: Option<&Spanned<T>>, from: &PresetRef) -> Option<Setting<T>> {
        let leaf = key.rsplit('.').next().unwrap_or(key);
        if let Some(value) = user {
            if self.overridden(key) {
                return Some(Setting {
                    value: value.value.clone(),
                    source: "override".into(),
                    key: key.into(),
                    origin: Origin { file: self.file.clone(), span: None },
                    note: Some(format!(
                        "set by an override of `{key}`: --set or an environment variable (CTXC_, or ZEPH_ under the zeph preset)"
                    )),
                });
            }
            return Some(Setting {
                value: value.value.clone(),
                source: "manifest".into(),
                key: key.into(),
                origin: self.origin(value, leaf),
                note: None,
            });
        }
        preset.map(|value| Setting {
            value: value.value.clone(),
            source: format!("preset {}", from.name),
            key: key.into(),
            origin: from.origin.clone(),
            note: Some(format!("the `{}` preset's default; set `{key}` to change it", from.name)),
        })
    }

    /// A setting every preset of the system defines: its absence is a broken preset (the
    /// defaults live in the preset files only, never here).
    fn required<T: Clone + Default>(
        &mut self,
        key: &str,
        user: Option<&Spanned<T>>,
        preset: Option<&Spanned<T>>,
        from: &PresetRef,
    ) -> Setting<T> {
        self.pick(key, user, preset, from).unwrap_or_else(|| {
            self.error(format!("built-in preset `{}` has no `{key}`", from.name), None);
            Setting {
                value: T::default(),
                source: format!("preset {}", from.name),
                key: key.into(),
                origin: from.origin.clone(),
                note: None,
            }
        })
    }

    /// The reference system settings of the agent's preset. `merged` is the manifest over the
    /// preset, `user` the manifest with its overrides, `preset` the preset alone.
    pub(super) fn systems(
        &mut self,
        merged: &RawManifest,
        user: &RawManifest,
        preset: &RawManifest,
        preset_name: Option<&Spanned<String>>,
        model: &deepagents::ModelWindow,
    ) -> Systems {
        let name = preset_name.map(|p| p.value.clone()).unwrap_or_default();
        for table in SYSTEM_TABLES {
            let written = match table {
                "deepagents" => user.deepagents.is_some(),
                "zeph" => user.zeph.is_some(),
                "adk" => user.adk.is_some(),
                _ => user.agentscope.is_some(),
            };
            if written && name != table {
                let span = self.locate(&format!("[{table}")).or_else(|| self.locate(table));
                self.error(format!("`[{table}]` settings apply only to agents on the `{table}` preset"), span).help =
                    Some(format!("add `preset = \"{table}\"` under [pipeline], or remove `[{table}]`"));
            }
        }
        let origin = match preset_name {
            Some(p) => self.origin(p, &p.value),
            None => Origin { file: self.file.clone(), span: None },
        };
        let from = PresetRef { name: name.clone(), origin };
        let mut systems = Systems::default();
        match name.as_str() {
            "deepagents" => systems.deepagents = Some(self.deepagents(merged, user, preset, &from, model)),
            "zeph" => systems.zeph = Some(self.zeph(merged, user, preset, &from)),
            "agentscope" => systems.agentscope = Some(self.agentscope(merged, user, preset, &from)),
            "adk" => {
                let name = merged.agent.as_ref().map(|a| a.name.value.as_str()).unwrap_or_default();
                let (settings, problems) = crate::runtimes::adk::settings::validate(merged.adk.as_ref(), name);
                for (key, problem) in problems {
                    let span = self.locate_key(key).or_else(|| self.locate_key(&key[..1]));
                    self.error(problem, span);
                }
                systems.adk = Some(settings);
            }
            _ => {}
        }
        systems
    }

    fn deepagents(
        &mut self,
        merged: &RawManifest,
        user: &RawManifest,
        preset: &RawManifest,
        from: &PresetRef,
        model: &deepagents::ModelWindow,
    ) -> deepagents::Settings {
        let (u, p) = (user.deepagents.clone().unwrap_or_default(), preset.deepagents.clone().unwrap_or_default());
        let version = match self.pick("deepagents.version", u.version.as_ref(), p.version.as_ref(), from) {
            Some(v) => v.map(v.value.text()),
            None => self.required("deepagents.version", None, None, from),
        };
        // An unknown release was reported while the preset was laid out.
        let layout = deepagents::layout(&version.value).unwrap_or(deepagents::LAYOUT_0_4);
        let limit = self.required(
            "deepagents.tool_token_limit_before_evict",
            u.tool_token_limit_before_evict.as_ref(),
            p.tool_token_limit_before_evict.as_ref(),
            from,
        );
        let (trigger, keep) = self.summarization(u.summarization.unwrap_or_default(), p.summarization.unwrap_or_default(), from, model);
        let interrupt_on = self.interrupt_on(merged);
        let human_limit = (layout != deepagents::LAYOUT_0_4).then(|| {
            self.pick(
                "deepagents.human_message_token_limit_before_evict",
                u.human_message_token_limit_before_evict.as_ref(),
                p.human_message_token_limit_before_evict.as_ref(),
                from,
            )
            .unwrap_or_else(|| Setting {
                value: deepagents::HUMAN_MESSAGE_TOKEN_LIMIT,
                source: "Deep Agents 0.7 default".into(),
                key: "deepagents.human_message_token_limit_before_evict".into(),
                origin: from.origin.clone(),
                note: Some("Deep Agents' 0.7 default; set `deepagents.human_message_token_limit_before_evict` to change it".into()),
            })
        });
        let mount = self
            .pick("deepagents.mount", u.mount.as_ref(), p.mount.as_ref(), from)
            .map_or_else(|| deepagents::DEFAULT_MOUNT.to_string(), |m| m.value);
        deepagents::Settings {
            version,
            layout,
            tool_token_limit_before_evict: limit,
            human_message_token_limit_before_evict: human_limit,
            trigger,
            keep,
            model: model.clone(),
            interrupt_on,
            mount,
            memory: merged.memory.as_ref().is_some_and(|m| !m.files.is_empty()),
        }
    }

    /// When Deep Agents summarizes and what it keeps: as set, else its default with a model
    /// profile (fractions of the window) or its fallback without one.
    fn summarization(
        &mut self,
        us: RawDeepAgentsSummarization,
        ps: RawDeepAgentsSummarization,
        from: &PresetRef,
        model: &deepagents::ModelWindow,
    ) -> (Setting<deepagents::ContextSize>, Setting<deepagents::ContextSize>) {
        let (default_trigger, default_keep, why) = if model.max_input_tokens.is_some() {
            (
                deepagents::ContextSize::Fraction(deepagents::TRIGGER_FRACTION),
                deepagents::ContextSize::Fraction(deepagents::KEEP_FRACTION),
                "Deep Agents' default with a model profile",
            )
        } else {
            (
                deepagents::ContextSize::Tokens(deepagents::FALLBACK_TRIGGER_TOKENS),
                deepagents::ContextSize::Messages(deepagents::FALLBACK_KEEP_MESSAGES),
                "Deep Agents' fallback without a model profile",
            )
        };
        let mut size = |key: &str,
                        user: Option<&Spanned<RawContextSize>>,
                        preset: Option<&Spanned<RawContextSize>>,
                        default: deepagents::ContextSize| {
            match self.pick(key, user, preset, from) {
                Some(setting) => {
                    let value = self.context_size(key, &setting.value, setting.origin.span.clone()).unwrap_or(default);
                    setting.map(value)
                }
                None => Setting {
                    value: default,
                    source: why.to_string(),
                    key: key.into(),
                    origin: from.origin.clone(),
                    note: Some(format!("{why}; set `{key}` to change it")),
                },
            }
        };
        let trigger = size("deepagents.summarization.trigger", us.trigger.as_ref(), ps.trigger.as_ref(), default_trigger);
        let keep = size("deepagents.summarization.keep", us.keep.as_ref(), ps.keep.as_ref(), default_keep);
        (trigger, keep)
    }

    /// The tools Deep Agents interrupts before. HumanInTheLoopMiddleware interrupts for `True`
    /// and for a configuration with allowed decisions; it raises ValueError for a configuration
    /// without any (langchain 1.4.7 agents/middleware/human_in_the_loop.py `__init__`).
    fn interrupt_on(&mut self, merged: &RawManifest) -> Vec<String> {
        let mut interrupt_on = Vec::new();
        for (tool, on) in merged.deepagents.iter().flat_map(|d| &d.interrupt_on) {
            match on {
                RawInterrupt::On(on) => {
                    if *on {
                        interrupt_on.push(tool.clone());
                    }
                }
                RawInterrupt::Config(config) if config.allowed_decisions.is_empty() => {
                    let span = self.locate_path(&["deepagents", "interrupt_on", tool]);
                    self.error(
                        format!("`deepagents.interrupt_on.{tool}` has no `allowed_decisions`: Deep Agents refuses to start"),
                        span,
                    )
                    .help =
                        Some("list the decisions, e.g. `allowed_decisions = [\"approve\", \"reject\"]`, or write `true` or `false`".into());
                }
                RawInterrupt::Config(_) => interrupt_on.push(tool.clone()),
            }
        }
        interrupt_on
    }

    /// A context size must name exactly one of fraction, tokens and messages.
    fn context_size(&mut self, key: &str, raw: &RawContextSize, span: Option<Range<usize>>) -> Option<deepagents::ContextSize> {
        match (raw.fraction, raw.tokens, raw.messages) {
            (Some(f), None, None) => Some(deepagents::ContextSize::Fraction(f)),
            (None, Some(n), None) => Some(deepagents::ContextSize::Tokens(n)),
            (None, None, Some(n)) => Some(deepagents::ContextSize::Messages(n)),
            _ => {
                self.error(format!("`{key}` needs exactly one of `fraction`, `tokens` and `messages`"), span).help =
                    Some("e.g. `{ fraction = 0.85 }`, `{ tokens = 170000 }` or `{ messages = 6 }`".into());
                None
            }
        }
    }

    fn zeph(&mut self, merged: &RawManifest, user: &RawManifest, preset: &RawManifest, from: &PresetRef) -> zeph::Settings {
        let (u, p) = (user.zeph.clone().unwrap_or_default(), preset.zeph.clone().unwrap_or_default());
        // A setting Zeph requires: the user's, else the preset's.
        macro_rules! required {
            ($field:ident) => {
                self.required(concat!("zeph.", stringify!($field)), u.$field.as_ref(), p.$field.as_ref(), from)
            };
        }
        let version = match self.pick("zeph.version", u.version.as_ref(), p.version.as_ref(), from) {
            Some(v) => v.map(v.value.text()),
            None => self.required("zeph.version", None, None, from),
        };
        if let Err(message) = zeph::release(&version.value) {
            let span = u.version.as_ref().and_then(|v| self.span(v, &version.value));
            let known: Vec<String> = zeph::RELEASES.iter().map(|(v, _)| format!("\"{v}\"")).collect();
            self.error(message, span).help = Some(format!("set `[zeph] version` to {}", known.join(" or ")));
        }
        let context_budget_tokens = self
            .pick("zeph.context_budget_tokens", u.context_budget_tokens.as_ref(), p.context_budget_tokens.as_ref(), from)
            .unwrap_or_else(|| Setting {
                value: 0,
                source: "Zeph default (0: the model's window)".into(),
                key: "zeph.context_budget_tokens".into(),
                origin: from.origin.clone(),
                note: Some("not set: the model's window; set `zeph.context_budget_tokens` to change it".into()),
            });
        let auto_budget = required!(auto_budget);
        let response_reserve_ratio = required!(response_reserve_ratio);
        let soft_compaction_threshold = required!(soft_compaction_threshold);
        let compaction_threshold = required!(compaction_threshold);
        let compaction_preserve_tail = required!(compaction_preserve_tail);
        let prune_protect_tokens = required!(prune_protect_tokens);
        let tool_output_max_chars = required!(tool_output_max_chars);
        let budget_hint_enabled = required!(budget_hint_enabled);
        let max_tool_iterations = required!(max_tool_iterations);
        if max_tool_iterations.value > zeph::MAX_TOOL_ITERATIONS {
            let span = u.max_tool_iterations.as_ref().and_then(|v| v.span.clone());
            self.error(
                format!(
                    "`zeph.max_tool_iterations` is {}; Zeph refuses more than {}",
                    max_tool_iterations.value,
                    zeph::MAX_TOOL_ITERATIONS
                ),
                span,
            );
        }
        let cost_enabled = required!(cost_enabled);
        let max_daily_cents = required!(max_daily_cents);
        let shares = zeph::Layouts {
            full_history: self.shares("zeph.shares", u.shares.as_ref(), p.shares.as_ref(), from),
            full_history_graph: self.shares("zeph.shares_with_graph", u.shares_with_graph.as_ref(), p.shares_with_graph.as_ref(), from),
            memory_first: self.shares("zeph.shares_memory_first", u.shares_memory_first.as_ref(), p.shares_memory_first.as_ref(), from),
            memory_first_graph: self.shares(
                "zeph.shares_memory_first_with_graph",
                u.shares_memory_first_with_graph.as_ref(),
                p.shares_memory_first_with_graph.as_ref(),
                from,
            ),
        };
        zeph::Settings {
            version,
            context_budget_tokens,
            auto_budget,
            response_reserve_ratio,
            soft_compaction_threshold,
            compaction_threshold,
            compaction_preserve_tail,
            prune_protect_tokens,
            tool_output_max_chars,
            budget_hint_enabled,
            max_tool_iterations,
            cost_enabled,
            max_daily_cents,
            shares,
            history_max_messages: merged.history.as_ref().and_then(|h| h.max_messages),
        }
    }

    fn shares(&self, key: &str, user: Option<&RawZephShares>, preset: Option<&RawZephShares>, from: &PresetRef) -> Vec<zeph::Share> {
        let field = |s: Option<&RawZephShares>, name: &str| -> Option<Spanned<f64>> {
            let s = s?;
            match name {
                "summaries" => s.summaries.clone(),
                "semantic_recall" => s.semantic_recall.clone(),
                "cross_session" => s.cross_session.clone(),
                "code_context" => s.code_context.clone(),
                "graph_facts" => s.graph_facts.clone(),
                _ => s.recent_history.clone(),
            }
        };
        ["summaries", "semantic_recall", "cross_session", "code_context", "graph_facts", "recent_history"]
            .into_iter()
            .filter_map(|name| {
                let ratio = self.pick(&format!("{key}.{name}"), field(user, name).as_ref(), field(preset, name).as_ref(), from)?;
                Some(zeph::Share { name, ratio })
            })
            .collect()
    }

    fn agentscope(&mut self, merged: &RawManifest, user: &RawManifest, preset: &RawManifest, from: &PresetRef) -> agentscope::Settings {
        let (u, p) = (user.agentscope.clone().unwrap_or_default(), preset.agentscope.clone().unwrap_or_default());
        let version = self.required("agentscope.version", u.version.as_ref(), p.version.as_ref(), from);
        let release = agentscope::release(&version.value).unwrap_or_else(|| {
            let span = u.version.as_ref().and_then(|v| self.span(v, &v.value));
            let known: Vec<&str> = agentscope::RELEASES.iter().map(|r| r.version).collect();
            self.error(format!("AgentScope release `{}` is not modelled", version.value), span).help =
                Some(format!("set `[agentscope] version` to one of {}", known.join(", ")));
            agentscope::RELEASES[agentscope::RELEASES.len() - 1]
        });
        let context_size = self.agentscope_context_size(&u, &p, merged, release, from);
        let workspace = u.workspace.as_ref().map(|w| agentscope::Workspace {
            workdir: w.workdir.as_ref().map(|d| d.value.clone()).unwrap_or_default(),
            backend: w.backend.as_ref().map_or_else(|| "local".to_string(), |b| b.value.clone()),
        });
        if u.workspace.as_ref().is_some_and(|w| w.workdir.is_none()) {
            let span = self.locate_key(&["agentscope", "workspace"]);
            self.error("`[agentscope.workspace]` needs `workdir`, the workspace's absolute path".to_string(), span);
        }
        let compression_tool_enabled = self.required(
            "agentscope.compression_tool_enabled",
            u.compression_tool_enabled.as_ref(),
            p.compression_tool_enabled.as_ref(),
            from,
        );
        if compression_tool_enabled.value && !release.compression_tool {
            let span = u.compression_tool_enabled.as_ref().and_then(|c| self.span(c, &c.value.to_string()));
            self.error(
                format!("`compression_tool_enabled` is not in agentscope {} (ContextConfig has it from 2.0.8)", release.version),
                span,
            )
            .help = Some("set `[agentscope] version` to 2.0.8 or later, or remove `compression_tool_enabled`".into());
        }
        agentscope::Settings {
            compression_tool_enabled,
            version,
            release,
            trigger_ratio: self.required("agentscope.trigger_ratio", u.trigger_ratio.as_ref(), p.trigger_ratio.as_ref(), from),
            reserve_ratio: self.required("agentscope.reserve_ratio", u.reserve_ratio.as_ref(), p.reserve_ratio.as_ref(), from),
            tool_result_limit: self.required(
                "agentscope.tool_result_limit",
                u.tool_result_limit.as_ref(),
                p.tool_result_limit.as_ref(),
                from,
            ),
            context_buffer_ratio: self.required(
                "agentscope.context_buffer_ratio",
                u.context_buffer_ratio.as_ref(),
                p.context_buffer_ratio.as_ref(),
                from,
            ),
            inject_runtime_state: self.required(
                "agentscope.inject_runtime_state",
                u.inject_runtime_state.as_ref(),
                p.inject_runtime_state.as_ref(),
                from,
            ),
            context_size,
            project_dir: u.project_dir.as_ref().map(|d| d.value.clone()),
            workspace,
        }
    }

    /// The model's context size: set, else the default of the model class set (or, with
    /// `--model`, of that model's provider's class).
    fn agentscope_context_size(
        &mut self,
        u: &RawAgentScope,
        p: &RawAgentScope,
        merged: &RawManifest,
        release: agentscope::Release,
        from: &PresetRef,
    ) -> Option<Setting<u64>> {
        let mut model_class = self.pick("agentscope.model_class", u.model_class.as_ref(), p.model_class.as_ref(), from);
        let mut explicit = self.pick("agentscope.context_size", u.context_size.as_ref(), p.context_size.as_ref(), from);
        // `--model` (an override of `agent.model`) costs the agent on another model: its provider's
        // model class, with that class's default, unless the class or size is overridden too.
        if self.overridden("agent.model") && !self.overridden("agentscope.model_class") && !self.overridden("agentscope.context_size") {
            let model = merged.agent.as_ref().and_then(|a| a.model.as_ref()).map_or("", |m| m.value.as_str());
            let class = agentscope::model_class_for(&crate::models::profile(model).provider);
            explicit = None;
            model_class = class.map(|class| Setting {
                value: class.to_string(),
                source: format!("the model class of `{model}` (--model)"),
                key: "agentscope.model_class".into(),
                origin: from.origin.clone(),
                note: None,
            });
        }
        match (explicit, model_class) {
            (Some(size), _) => Some(size),
            (None, Some(class)) => match release.model_classes().find(|c| c.0 == class.value) {
                Some((name, size)) => {
                    Some(Setting { source: format!("{name}'s context_size default (agentscope {})", release.version), ..class.map(size) })
                }
                None => {
                    let span = u.model_class.as_ref().and_then(|c| self.span(c, &c.value));
                    let known: Vec<&str> = release.model_classes().map(|c| c.0).collect();
                    self.unknown_in("AgentScope model class", &format!(" in agentscope {}", release.version), &class.value, span, &known);
                    None
                }
            },
            (None, None) => None,
        }
    }
}

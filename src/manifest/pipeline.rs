//! Validation of the pipeline: the steps (their order, modules and enable conditions), the
//! modes (prompts, module variants, tool access) and the tool categories.

use std::collections::HashSet;
use std::sync::Arc;

use indexmap::IndexMap;

use super::model::*;
use super::raw::*;
use super::span::Spanned;
use super::{Validator, CONDITION_VARIABLES};
use crate::codes::Code;
use crate::diagnostic::did_you_mean;
use crate::tools::parse_tool_file_shared;

impl Validator {
    pub(super) fn condition(&mut self, when: &Spanned<String>, flags: &IndexMap<String, bool>) -> Option<Condition> {
        let span = self.prov.span(when, &when.value);
        let env = crate::templates::environment();
        let (compiled, _) = crate::templates::within_limits(|| env.compile_expression(&when.value));
        let expr = match compiled {
            Ok(expr) => expr,
            Err(e) => {
                self.prov.coded(
                    Code::MAN006,
                    format!("invalid condition `{}`: {}", when.value, e.detail().unwrap_or("syntax error")),
                    span,
                );
                return None;
            }
        };
        let mut names: Vec<String> = expr.undeclared_variables(true).into_iter().collect();
        names.sort();
        for name in names {
            let (top, rest) = name.split_once('.').map_or((name.as_str(), None), |(a, b)| (a, Some(b)));
            if !CONDITION_VARIABLES.contains(&top) {
                self.prov.unknown("condition variable", top, span.clone(), &CONDITION_VARIABLES);
            } else if let (Some(flag), "flags") = (rest, top) {
                if !flags.contains_key(flag) {
                    let known: Vec<&str> = flags.keys().map(String::as_str).collect();
                    self.prov.unknown("flag", flag, span.clone(), &known);
                }
            }
        }
        Some(Condition { expr: when.value.clone(), origin: Origin { file: self.prov.file.clone(), span } })
    }

    pub(super) fn steps(
        &mut self,
        raw_steps: Vec<RawStep>,
        modules: &IndexMap<String, RawModule>,
        flags: &IndexMap<String, bool>,
    ) -> Vec<Step> {
        // Place steps that ask for a position; the rest keep their order.
        let mut ordered: Vec<RawStep> = Vec::new();
        let mut placed_later = Vec::new();
        for step in raw_steps {
            if step.after.is_some() || step.before.is_some() {
                placed_later.push(step);
            } else {
                ordered.push(step);
            }
        }
        for step in placed_later {
            let (anchor, offset) = match (&step.after, &step.before) {
                (Some(a), _) => (a.clone(), 1),
                (None, Some(b)) => (b.clone(), 0),
                (None, None) => unreachable!("filtered above"),
            };
            match ordered.iter().position(|s| s.id.value == anchor.value) {
                Some(i) => ordered.insert(i + offset, step),
                None => {
                    let known: Vec<String> = ordered.iter().map(|s| s.id.value.clone()).collect();
                    let known: Vec<&str> = known.iter().map(String::as_str).collect();
                    self.prov.unknown("step", &anchor.value, self.prov.span(&anchor, &anchor.value), &known);
                }
            }
        }
        let mut steps = Vec::new();
        for raw in ordered {
            let id = raw.id.value.clone();
            let Some(kind) = raw.kind.as_ref().map(|k| k.value) else {
                let span = self.prov.span(&raw.id, &id);
                self.prov.error(format!("step `{id}` has no `kind`"), span).help =
                    Some("new steps need a kind, e.g. `kind = \"module\"`".into());
                continue;
            };
            // Module steps need their module; the other kinds that take one add it when declared.
            let takes_module = matches!(
                kind,
                StepKind::Module
                    | StepKind::Middleware
                    | StepKind::HumanInTheLoop
                    | StepKind::AgentMemory
                    | StepKind::SkillLocations
                    | StepKind::AgentSkills
                    | StepKind::Workspace
                    | StepKind::AdkInstruction
                    | StepKind::AdkTransfer
            );
            let module = takes_module.then(|| raw.module.as_ref().map_or(id.clone(), |m| m.value.clone()));
            if let Some(module_id) = module.as_ref().filter(|_| kind == StepKind::Module) {
                if !modules.contains_key(module_id) {
                    let span = raw.module.as_ref().map_or_else(|| self.prov.span(&raw.id, &id), |m| self.prov.span(m, &m.value));
                    let known: Vec<&str> = modules.keys().map(String::as_str).collect();
                    let mut d =
                        self.prov.coded(Code::MAN009, format!("step `{id}` uses module `{module_id}`, which is not declared"), span);
                    d.help = Some(match did_you_mean(module_id, known.iter().copied()) {
                        Some(s) => format!("did you mean `{s}`? Or add `[modules.{module_id}]` with a `source`"),
                        None => format!("add `[modules.{module_id}]` with a `source`"),
                    });
                }
            }
            if kind == StepKind::Text && raw.text.is_none() {
                let span = self.prov.span(&raw.id, &id);
                self.prov.error(format!("text step `{id}` has no `text`"), span);
            }
            let when = raw.when.as_ref().and_then(|w| self.condition(w, flags));
            steps.push(Step {
                number: steps.len() + 1,
                title: raw.title.clone().unwrap_or_else(|| id.clone()),
                id,
                kind,
                module,
                text: raw.text.clone(),
                separator: raw.separator.clone(),
                new_message: raw.new_message.as_ref().is_some_and(|v| v.value),
                when,
                budget: super::sections::budget(&self.prov, &raw.budget),
            });
        }
        steps
    }

    pub(super) fn modes(
        &mut self,
        raw: &IndexMap<String, RawMode>,
        modules: &IndexMap<String, ModuleFiles>,
        steps: &[Step],
        categories: &[Category],
        template_root: &crate::templates::TemplateRoot,
    ) -> IndexMap<String, Mode> {
        let default_mode = [("default".to_string(), RawMode::default())];
        let raw_modes: Vec<(String, RawMode)> =
            if raw.is_empty() { default_mode.to_vec() } else { raw.iter().map(|(k, v)| (k.clone(), v.clone())).collect() };
        let mut modes = IndexMap::new();
        for (name, mode) in raw_modes {
            let prompt = mode
                .prompt
                .as_ref()
                .and_then(|p| self.files.read(&mut self.prov, p, None))
                .map(|p| TextFile { template_root: template_root.clone(), ..p });
            let variants = self.mode_variants(&name, &mode, modules, steps);
            let access = self.mode_access(&name, &mode, categories);
            modes.insert(
                name.clone(),
                Mode {
                    budget: super::sections::budget(&self.prov, &mode.budget),
                    name,
                    description: mode.description,
                    prompt,
                    variants,
                    access,
                    disabled_tools: mode.disabled_tools.unwrap_or_default(),
                },
            );
        }
        modes
    }

    /// The variant a mode picks of each module that has variants; every module step with variants
    /// needs a choice in every mode.
    pub(super) fn mode_variants(
        &mut self,
        name: &str,
        mode: &RawMode,
        modules: &IndexMap<String, ModuleFiles>,
        steps: &[Step],
    ) -> IndexMap<String, String> {
        let mut variants = IndexMap::new();
        for (module_id, variant) in &mode.variants {
            match modules.get(module_id) {
                Some(ModuleFiles::Variants(files)) => {
                    if files.contains_key(&variant.value) {
                        variants.insert(module_id.clone(), variant.value.clone());
                    } else {
                        let known: Vec<&str> = files.keys().map(String::as_str).collect();
                        let context = format!(" of module `{module_id}`");
                        self.prov.unknown_in("variant", &context, &variant.value, self.prov.span(variant, &variant.value), &known);
                    }
                }
                Some(ModuleFiles::Single(_)) => {
                    let span = self.prov.span(variant, &variant.value);
                    self.prov.coded(
                        Code::MAN007,
                        format!("mode `{name}` picks a variant of module `{module_id}`, which has no variants"),
                        span,
                    );
                }
                // A preset may pick variants for modules this agent does not have.
                None => {}
            }
        }
        // Every module step with variants needs a choice in every mode.
        for step in steps {
            let Some(module_id) = &step.module else { continue };
            if let Some(ModuleFiles::Variants(files)) = modules.get(module_id) {
                if !mode.variants.contains_key(module_id) {
                    let span = self.prov.locate_path(&["modes", name]);
                    let choices: Vec<&str> = files.keys().map(String::as_str).collect();
                    self.prov.coded(Code::MAN007, format!("mode `{name}` does not choose a variant of module `{module_id}`"), span).help =
                        Some(format!("add `variants = {{ {module_id} = \"...\" }}` to the mode; variants: {}", choices.join(", ")));
                }
            }
        }
        variants
    }

    /// What a mode grants of each tool category: a level, or only some of its tools.
    pub(super) fn mode_access(&mut self, name: &str, mode: &RawMode, categories: &[Category]) -> IndexMap<String, Access> {
        let category_names: Vec<&str> = categories.iter().map(|c| c.name.as_str()).collect();
        let mut access = IndexMap::new();
        for (category, level) in &mode.tools {
            let Some(cat) = categories.iter().find(|c| &c.name == category) else {
                let span = self.prov.locate_key(&["modes", name, "tools", category]);
                self.prov.unknown("tool category", category, span, &category_names);
                continue;
            };
            let level = match level {
                RawAccess::Level(l) => Access::Level(*l),
                RawAccess::Only(names) => {
                    for tool in names {
                        if !cat.tools.iter().any(|t| &t.tool.name == tool) && !cat.tools.is_empty() {
                            let known: Vec<&str> = cat.tools.iter().map(|t| t.tool.name.as_str()).collect();
                            let context = format!(" in category `{category}`");
                            self.prov.unknown_in("tool", &context, tool, self.prov.locate(tool), &known);
                        }
                    }
                    Access::Only(names.clone())
                }
            };
            access.insert(category.clone(), level);
        }
        access
    }

    pub(super) fn categories(&mut self, raw: &IndexMap<String, RawCategory>, flags: &IndexMap<String, bool>) -> Vec<Category> {
        let mut categories = Vec::new();
        for (name, category) in raw {
            let mut tools = Vec::new();
            let errors_before = self.prov.diagnostics.len();
            // Looked up by every tool of the category (hundreds, in every agent an editor checks again).
            let listed_read_only: HashSet<&str> = category.read_only.iter().map(String::as_str).collect();
            let writes = |tool: &crate::tools::Tool| !(tool.read_only.unwrap_or(false) || listed_read_only.contains(tool.name.as_str()));
            for file in &category.files {
                let (path, server, app, config) = match file {
                    RawToolFile::Path(p) => (p.clone(), None, None, None),
                    RawToolFile::Detailed(d) => (d.path.clone(), d.server.clone(), d.app.clone(), d.config.clone()),
                };
                if crate::mcp_record::is_record(&path) {
                    if let Some((source, recorded)) = self.files.recorded_tools(&mut self.prov, &path, server.as_deref(), config.as_deref())
                    {
                        tools.extend(recorded.into_iter().map(|tool| CategoryTool {
                            writes: writes(&tool),
                            tool: Arc::new(tool),
                            source: source.clone(),
                            server: server.clone(),
                            app: app.clone(),
                        }));
                    }
                    continue;
                }
                if let Some(config) = &config {
                    let span = self.prov.locate(config);
                    self.prov
                        .coded(
                            Code::MAN010,
                            "`config` names where a server of the MCP tool record is configured, and this path is no record",
                            span,
                        )
                        .help = Some(format!("use it with `path = \"{}\"`, or remove it", crate::mcp_record::RECORD_FILE));
                }
                let reference = Spanned::new(path.clone());
                let Some(text) = self.files.read(&mut self.prov, &reference, Some(false)) else { continue };
                match parse_tool_file_shared(&text.text, self.files.root.cache()) {
                    Ok(parsed) => tools.extend(parsed.iter().map(|tool| CategoryTool {
                        writes: writes(tool),
                        tool: tool.clone(),
                        source: text.path.clone(),
                        server: server.clone(),
                        app: app.clone(),
                    })),
                    Err(e) => {
                        let display = self.files.root.display_path(&text.path);
                        self.prov.diagnostics.push(e.into_diagnostic(&display));
                    }
                }
            }
            for inline in &category.tool {
                let tool = Arc::new(crate::tools::Tool::new(
                    inline.name.value.clone(),
                    inline.description.clone(),
                    inline.parameters.clone().unwrap_or_else(crate::tools::empty_parameters),
                    inline.read_only,
                ));
                tools.push(CategoryTool { writes: writes(&tool), tool, source: self.rel.clone(), server: None, app: None });
            }
            // A tool file that failed to load would make every name look unknown.
            let files_loaded = self.prov.diagnostics.len() == errors_before;
            let names: HashSet<&str> = match files_loaded && !category.read_only.is_empty() {
                true => tools.iter().map(|t| t.tool.name.as_str()).collect(),
                false => HashSet::new(),
            };
            for listed in category.read_only.iter().filter(|_| files_loaded) {
                if !names.contains(listed.as_str()) {
                    let known: Vec<&str> = tools.iter().map(|t| t.tool.name.as_str()).collect();
                    let context = format!(" in category `{name}`");
                    self.prov.unknown_in("tool", &context, listed, self.prov.locate(listed), &known);
                }
            }
            let when = category.when.as_ref().and_then(|w| self.condition(w, flags));
            categories.push(Category { name: name.clone(), title: category.title.clone().unwrap_or_else(|| name.clone()), when, tools });
        }
        categories
    }
}

//! Stages 3 and 4: assemble the enabled steps and render each into the text it contributes.
//! Only files marked as templates are evaluated; memory, skills, tool descriptions, scenario
//! values and resources are inserted as data.

use std::sync::Arc;

use serde::Serialize;
use xxhash_rust::xxh3::Xxh3;

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::manifest::model::*;
use crate::memo::{Cache, Kind, SharedText};
use crate::project::ProjectRoot;
use crate::providers::chat_template::{ChatTemplate, RequestTexts};
use crate::resolve::{Resolved, StepDecision, ToolDecision};
use crate::templates::{Found, Loads, TemplateRoot};

/// The mode a render shows: `wanted`, or the agent's one mode when it has one (several need naming).
pub fn mode_to_render(agent: &Agent, wanted: Option<&str>) -> Result<String, Diagnostic> {
    match (wanted, agent.modes.len()) {
        (Some(mode), _) => Ok(mode.to_string()),
        (None, 1) => Ok(agent.modes.keys().next().cloned().unwrap_or_default()),
        (None, _) => {
            let modes: Vec<&str> = agent.modes.keys().map(String::as_str).collect();
            Err(Diagnostic::error(format!("agent `{}` has several modes: pass --mode", agent.name))
                .help(format!("modes: {}", modes.join(", "))))
        }
    }
}

/// What one step contributes to the prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Section {
    pub step: usize,
    pub id: String,
    pub title: String,
    pub kind: StepKind,
    /// Files the text came from, relative to the project root; empty for generated text.
    pub sources: Vec<String>,
    pub text: SharedText,
    /// The step's own text before this section, when it has one (else the pipeline separator).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separator: Option<String>,
    /// The section starts a new system message (the step's `new_message`; never the first).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub new_message: bool,
}

/// The rendered system prompt of one agent, mode and scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    pub agent: String,
    pub mode: String,
    pub scenario: String,
    pub model: Option<String>,
    /// The runtime release (or, for Zeus, the documentation) the agent's preset models.
    pub modelled: Option<String>,
    pub sections: Vec<Section>,
    pub steps: Vec<StepDecision>,
    pub tools: Vec<ToolDecision>,
    /// The text between two sections.
    pub separator: String,
    /// The request rendered through the model's chat template (`[agent] chat_template`), as
    /// measure counts it; `None` without a template.
    pub request: Option<Arc<RequestTexts>>,
}

impl Rendered {
    /// The sections joined with their separators: exactly what the model receives.
    pub fn prompt(&self) -> String {
        let mut prompt = String::new();
        for (i, section) in self.sections.iter().enumerate() {
            if i > 0 {
                prompt.push_str(self.separator_before(i));
            }
            prompt.push_str(&section.text);
        }
        prompt
    }

    /// The text between section `i - 1` and section `i`: the step's own separator, or the
    /// pipeline's; none where a new system message starts.
    pub fn separator_before(&self, i: usize) -> &str {
        match self.sections[i].new_message {
            true => "",
            false => self.sections[i].separator.as_deref().unwrap_or(&self.separator),
        }
    }

    /// The system messages as the runtime sends them: the prompt cut where a section starts a
    /// new message (one message without `new_message`; none for an empty prompt).
    pub fn system_messages(&self) -> Vec<String> {
        let mut messages: Vec<String> = Vec::new();
        for (i, section) in self.sections.iter().enumerate() {
            match messages.last_mut() {
                Some(message) if !section.new_message => {
                    message.push_str(self.separator_before(i));
                    message.push_str(&section.text);
                }
                _ => messages.push(section.text.to_string()),
            }
        }
        messages
    }
}

pub fn render(resolved: Resolved, root: &ProjectRoot) -> Result<Rendered, Diagnostics> {
    let Resolved { agent, mode, scenario, steps: mut decisions, tools } = resolved;
    let tools_description = tools_description(agent, mode, &tools, root.cache());
    // One environment per template root, made when a render is not memoized: each caches the
    // files it has loaded.
    let envs = std::cell::RefCell::new(Vec::<(TemplateRoot, Arc<Environment>)>::new());
    let env_for = |template_root: &TemplateRoot| {
        let mut envs = envs.borrow_mut();
        if let Some((_, env)) = envs.iter().find(|(r, _)| r == template_root) {
            return Arc::clone(env);
        }
        let env = Arc::new(crate::templates::project_environment(root, template_root));
        envs.push((template_root.clone(), Arc::clone(&env)));
        env
    };
    // The key made when the first template needs it (most prompt files are plain text), the
    // variables only when a render is not memoized.
    let variables = Variables {
        key: std::cell::OnceCell::new(),
        value: std::cell::OnceCell::new(),
        make_key: &|| variables_key(agent, mode, scenario, &tools, &tools_description),
        make_value: &|| template_context(agent, mode, scenario, &tools, &tools_description, root.cache()),
    };
    let file_text = |file: &TextFile| -> Result<SharedText, Diagnostic> {
        match file.template {
            true => render_template(&|| env_for(&file.template_root), root, file, &variables),
            false => Ok(file.text.clone()),
        }
    };
    let mut diagnostics = Vec::new();
    let mut sections = Vec::new();
    for (step, decision) in agent.steps.iter().zip(decisions.iter_mut()) {
        if !decision.enabled {
            continue;
        }
        let (sources, text) = match step_text(step, agent, mode, scenario, &tools_description) {
            StepText::Data(sources, text) => (sources, SharedText::new(trim_line_breaks(&text))),
            StepText::Shared(text) => (Vec::new(), text),
            StepText::File(file) => match file_text(file) {
                Ok(text) => (vec![file.path.clone()], trim_shared_line_breaks(text)),
                Err(d) => {
                    crate::diagnostic::push_once(&mut diagnostics, d);
                    continue;
                }
            },
            StepText::Parts(sources, parts) => match parts_text(parts, &file_text, &mut diagnostics) {
                Some(text) => (sources, SharedText::new(&text)),
                None => continue,
            },
        };
        if text.is_empty() {
            decision.enabled = false;
            decision.reason = "renders to empty text".to_string();
            continue;
        }
        let separator = step.separator.clone();
        let new_message = step.new_message && !sections.is_empty();
        sections.push(Section {
            step: step.number,
            id: step.id.clone(),
            title: step.title.clone(),
            kind: step.kind,
            sources,
            text,
            separator,
            new_message,
        });
    }
    if !diagnostics.is_empty() {
        return Err(diagnostics);
    }
    let mut rendered = Rendered {
        agent: agent.name.clone(),
        mode: mode.name.clone(),
        scenario: scenario.name.clone(),
        model: agent.model.clone(),
        modelled: agent.systems.modelled(agent.preset.as_deref()),
        sections,
        steps: decisions,
        tools,
        separator: agent.separator.clone(),
        request: None,
    };
    if let Some(template) = &agent.chat_template {
        rendered.request = Some(Arc::new(request_texts(template, agent, &rendered)?));
    }
    Ok(rendered)
}

/// A render's template variables ([`template_context`]) and their [`variables_key`], each made
/// once on first use.
struct Variables<'a> {
    key: std::cell::OnceCell<Option<u128>>,
    value: std::cell::OnceCell<minijinja::Value>,
    make_key: &'a dyn Fn() -> Option<u128>,
    make_value: &'a dyn Fn() -> minijinja::Value,
}

impl Variables<'_> {
    fn key(&self) -> Option<u128> {
        *self.key.get_or_init(self.make_key)
    }

    fn value(&self) -> &minijinja::Value {
        self.value.get_or_init(self.make_value)
    }
}

/// A hash of everything [`template_context`] makes the variables of: renders of one template
/// with the same key see the same variables. `None` (never seen: the values are JSON's) when they
/// cannot be written out.
fn variables_key(
    agent: &Agent,
    mode: &Mode,
    scenario: &Scenario,
    tools: &[ToolDecision],
    tools_description: &ToolsDescription,
) -> Option<u128> {
    let named = (&agent.name, &agent.description, &agent.model, &mode.name, &scenario.name, &scenario.flags, &agent.vars, &scenario.vars);
    let mut key = Xxh3::new();
    key.update(&serde_json::to_vec(&named).ok()?);
    key.update(&enabled_tools_key(tools).to_le_bytes());
    key.update(&tools_description.section.hash().to_le_bytes());
    Some(key.digest128())
}

/// The variables a prompt template sees.
fn template_context(
    agent: &Agent,
    mode: &Mode,
    scenario: &Scenario,
    tools: &[ToolDecision],
    tools_description: &ToolsDescription,
    cache: &Cache,
) -> minijinja::Value {
    minijinja::context! {
        agent => minijinja::context! { name => agent.name, description => agent.description, model => agent.model },
        mode => mode.name,
        scenario => scenario.name,
        flags => scenario.flags,
        tools => enabled_tools_value(tools, cache),
        tools_description => minijinja::Value::from(tools_description.text.clone()),
        vars => agent.vars,
        ..minijinja::Value::from_serialize(&scenario.vars)
    }
}

/// A section made of generated text around files; `None` when a file failed (its diagnostic pushed).
fn parts_text(
    parts: Vec<Part<'_>>,
    file_text: &dyn Fn(&TextFile) -> Result<SharedText, Diagnostic>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    let mut text = String::new();
    let mut failed = false;
    for part in parts {
        match part {
            Part::Text(t) => text.push_str(&t),
            Part::File(file) => match file_text(file) {
                Ok(t) => text.push_str(trim_line_breaks(&t)),
                Err(d) => {
                    crate::diagnostic::push_once(diagnostics, d);
                    failed = true;
                }
            },
        }
    }
    (!failed).then_some(text)
}

/// The request as the model's chat template writes it: the system messages and the callable
/// tools (`tools: []` when none is and the agent says its runtime sends an empty list).
fn request_texts(template: &ChatTemplate, agent: &Agent, rendered: &Rendered) -> Result<RequestTexts, Diagnostics> {
    let callable: Vec<&crate::tools::Tool> = callable(agent, &rendered.tools).map(|(t, _)| t.tool.as_ref()).collect();
    let tools = Some(callable.as_slice()).filter(|t| !t.is_empty() || agent.empty_tool_list);
    template.request_texts(&rendered.system_messages(), tools).map_err(|d| vec![d])
}

/// The tools a render makes callable, in order, each with its decision.
pub fn callable<'a>(agent: &'a Agent, tools: &'a [ToolDecision]) -> impl Iterator<Item = (&'a CategoryTool, &'a ToolDecision)> {
    agent.categories.iter().flat_map(|category| category.tools.iter()).zip(tools).filter(|(_, d)| d.enabled)
}

/// The `tools` template variable: the enabled tools' decisions. Shared between renders with the
/// same decisions (the agents of a project mostly have the same tools).
fn enabled_tools_value(tools: &[ToolDecision], cache: &Cache) -> minijinja::Value {
    cache.get_or_insert(Kind::ToolsValue, enabled_tools_key(tools), || {
        minijinja::Value::from_serialize(tools.iter().filter(|t| t.enabled).collect::<Vec<_>>())
    })
}

/// A hash of the enabled tools' decisions, which decide the `tools` template variable. The fields
/// are written out and hashed at once: a streaming hash's step per short field costs more than
/// the field (every render of every agent makes this key).
fn enabled_tools_key(tools: &[ToolDecision]) -> u128 {
    let mut fields = Vec::with_capacity(64 * tools.len());
    for tool in tools.iter().filter(|t| t.enabled) {
        for field in [tool.name.as_str(), &tool.category, tool.access, tool.server.as_deref().unwrap_or("\0")] {
            fields.extend_from_slice(&(field.len() as u64).to_le_bytes());
            fields.extend_from_slice(field.as_bytes());
        }
    }
    xxhash_rust::xxh3::xxh3_128(&fields)
}

/// Trailing line breaks are dropped so the separator alone decides the gap between sections.
fn trim_line_breaks(text: &str) -> &str {
    text.trim_end_matches(['\n', '\r'])
}

fn trim_shared_line_breaks(text: SharedText) -> SharedText {
    match trim_line_breaks(&text).len() == text.len() {
        true => text,
        false => SharedText::new(trim_line_breaks(&text)),
    }
}

enum StepText<'a> {
    File(&'a TextFile),
    Data(Vec<String>, String),
    /// Generated text already held as a shared text.
    Shared(SharedText),
    /// Generated text around files (module files among them may be templates), with the sources.
    /// The generated text keeps its leading and trailing line breaks: it is a runtime's own
    /// template (Deep Agents' skills and memory sections, AgentScope's skills block), which has
    /// them.
    Parts(Vec<String>, Vec<Part<'a>>),
}

/// A piece of [`StepText::Parts`], as a runtime's own step kind gives it too.
type Part<'a> = crate::runtimes::Part<&'a TextFile>;

/// The file of the step's module in this mode (its variant, for modules with variants).
pub fn module_file<'a>(step: &Step, agent: &'a Agent, mode: &Mode) -> Option<&'a TextFile> {
    let id = step.module.as_ref()?;
    match agent.modules.get(id)? {
        ModuleFiles::Single(file) => Some(file),
        ModuleFiles::Variants(files) => mode.variants.get(id).and_then(|v| files.get(v)),
    }
}

fn step_text<'a>(step: &'a Step, agent: &'a Agent, mode: &'a Mode, scenario: &'a Scenario, tools: &ToolsDescription) -> StepText<'a> {
    let paths = |files: &[&TextFile]| files.iter().map(|f| f.path.clone()).collect::<Vec<_>>();
    let join = |parts: Vec<String>| parts.join("\n\n");
    match step.kind {
        StepKind::Module | StepKind::Middleware => match module_file(step, agent, mode) {
            Some(file) => StepText::File(file),
            None => StepText::Data(Vec::new(), String::new()),
        },
        StepKind::ModePrompt => match &mode.prompt {
            Some(file) => StepText::File(file),
            None => StepText::Data(Vec::new(), String::new()),
        },
        StepKind::Text => StepText::Data(vec![agent.manifest.clone()], step.text.clone().unwrap_or_default()),
        StepKind::ToolList => StepText::Shared(tools.section.clone()),
        StepKind::Skills => {
            let mut text = String::from("## Skills\n\nLoad a skill's full instructions when a task matches its description.\n\n");
            for (i, skill) in agent.skills.iter().enumerate() {
                if i > 0 {
                    text.push('\n');
                }
                crate::skills::push_catalogue_line(&mut text, &skill.name, &skill.description);
            }
            StepText::Data(agent.skills.iter().map(|s| s.path.clone()).collect(), text)
        }
        StepKind::MemoryFiles => {
            let files: Vec<&TextFile> = agent.memory_files.iter().collect();
            StepText::Data(paths(&files), join(files.iter().map(|f| trim_line_breaks(&f.text).to_string()).collect()))
        }
        StepKind::Time => {
            StepText::Data(Vec::new(), format!("## Current time\n\nIt is {} in the {} timezone.", scenario.now.human(), scenario.timezone))
        }
        StepKind::ConnectorPrompts => {
            let files: Vec<&TextFile> = scenario.connectors.iter().filter_map(|c| agent.connectors.get(c)).collect();
            StepText::Data(paths(&files), join(files.iter().map(|f| trim_line_breaks(&f.text).to_string()).collect()))
        }
        StepKind::McpPrompts => mcp_prompts_text(scenario),
        StepKind::Profile => match &scenario.profile {
            Some(file) => StepText::Data(vec![file.path.clone()], format!("## User profile\n\n{}", trim_line_breaks(&file.text))),
            None => StepText::Data(Vec::new(), String::new()),
        },
        StepKind::Memories => memories_text(agent, scenario),
        StepKind::Resources => named_files("Resources", &scenario.resources),
        StepKind::Attachments => named_files("Attachments", &scenario.attachments),
        StepKind::SandboxFiles => {
            let lines: Vec<String> = scenario.sandbox_files.iter().map(|f| format!("- {f}")).collect();
            StepText::Data(Vec::new(), format!("## Sandbox files\n\nFiles in the sandbox workspace:\n{}", lines.join("\n")))
        }
        kind => match runtime_step_text(kind, agent, scenario, module_file(step, agent, mode)) {
            crate::runtimes::StepText::File(file) => StepText::File(file),
            crate::runtimes::StepText::Text(sources, text) => StepText::Data(sources, text),
            crate::runtimes::StepText::Parts(sources, parts) => StepText::Parts(sources, parts),
        },
    }
}

/// Expands the `steps` row of the runtime table (`src/runtimes/mod.rs`).
macro_rules! runtime_steps {
    ($($runtime:ident { $($kind:ident: $missing:ident, $text:ident $(, $present:ident)?;)* })*) => {
        /// A runtime's own step kind: the files its text comes from and the text. (The generic
        /// kinds are [`step_text`]'s; none reaches here.)
        fn runtime_step_text<'a>(
            kind: StepKind,
            agent: &'a Agent,
            scenario: &'a Scenario,
            module: Option<&'a TextFile>,
        ) -> crate::runtimes::StepText<&'a TextFile> {
            match kind {
                $($(StepKind::$kind => crate::runtimes::$runtime::steps::$text(agent, scenario, module),)*)*
                _ => crate::runtimes::StepText::Text(Vec::new(), String::new()),
            }
        }
    };
}
crate::runtimes::runtime_table!(steps runtime_steps);

/// Each MCP server's prompt file under its own heading.
fn mcp_prompts_text(scenario: &Scenario) -> StepText<'_> {
    let servers: Vec<(&String, &TextFile)> =
        scenario.mcp_servers.iter().filter_map(|(name, file)| file.as_ref().map(|f| (name, f))).collect();
    StepText::Data(
        servers.iter().map(|(_, f)| f.path.clone()).collect(),
        servers.iter().map(|(name, f)| format!("## MCP server: {name}\n\n{}", trim_line_breaks(&f.text))).collect::<Vec<_>>().join("\n\n"),
    )
}

/// The memories retrieval keeps, and a line saying how many its limits cut.
fn memories_text<'a>(agent: &'a Agent, scenario: &'a Scenario) -> StepText<'a> {
    let selection = agent.settings.retrieval.select(&scenario.memories);
    if selection.kept.is_empty() {
        return StepText::Data(Vec::new(), String::new());
    }
    let mut text = String::from("## Relevant memories\n");
    for item in &selection.kept {
        text.push('\n');
        text.push_str(&item.line());
    }
    let cut = selection.over_top_k + selection.over_max_chars;
    if cut > 0 {
        let r = &agent.settings.retrieval;
        text.push_str(&format!("\n\n[{cut} more memories not shown: limits are {} memories and {} characters]", r.top_k, r.max_chars));
    }
    StepText::Data(scenario.memories_source.iter().cloned().collect(), text)
}

fn named_files<'a>(heading: &str, items: &[NamedText]) -> StepText<'a> {
    let parts: Vec<String> = items.iter().map(|r| format!("### {}\n\n{}", r.name, trim_line_breaks(&r.file.text))).collect();
    StepText::Data(items.iter().map(|r| r.file.path.clone()).collect(), format!("## {heading}\n\n{}", parts.join("\n\n")))
}

/// The tool descriptions of one mode: the text of `{{ tools_description }}` and of the tool list
/// step (the same text under a heading).
#[derive(Clone)]
struct ToolsDescription {
    text: Arc<str>,
    section: SharedText,
}

/// The text that fills `{{ tools_description }}`: each callable tool's name, description and
/// parameter schema (compact JSON), plus placeholders for tools the mode lists as unavailable.
/// Made once per distinct tool list and mode in a run.
fn tools_description(agent: &Agent, mode: &Mode, decisions: &[ToolDecision], cache: &Cache) -> ToolsDescription {
    let listed = || agent.categories.iter().flat_map(|c| &c.tools).zip(decisions).filter(|(_, d)| d.enabled || d.placeholder);
    let mut key = Xxh3::new();
    key.update(mode.name.as_bytes());
    for (tool, decision) in listed() {
        key.update(&[u8::from(decision.enabled)]);
        key.update(&tool.tool.function_json_hash().to_le_bytes());
    }
    cache.get_or_insert(Kind::ToolsDescription, key.digest128(), || {
        // Written in place, no block formatted apart: a server's thousands of tools are each listed.
        let mut text = String::new();
        for (i, (tool, decision)) in listed().enumerate() {
            if i > 0 {
                text.push_str("\n\n");
            }
            text.push_str("### ");
            text.push_str(&tool.tool.name);
            if decision.enabled {
                text.push('\n');
                text.push_str(tool.tool.description_text().trim_end());
                text.push_str("\nParameters: ");
                text.push_str(tool.tool.parameters_json());
            } else {
                text.push_str("\nUnavailable in ");
                text.push_str(&mode.name);
                text.push_str(" mode.");
            }
        }
        ToolsDescription { section: SharedText::new(&format!("## Tools\n\n{text}")), text: Arc::from(text) }
    })
}

/// A template environment and the names its loader was asked for.
type Environment = (minijinja::Environment<'static>, Loads);

/// A template's output, and what its environment's loader had found when it was made: every name
/// it included, and possibly others (one environment serves all the templates of a render).
struct TemplateOutput {
    text: SharedText,
    loads: Vec<(String, Found)>,
}

/// Renders a template file, or takes the output of an earlier render of the same text with the
/// same variables while every file its environment loaded is unchanged: an edit of a module
/// every agent reads renders none of their other templates again.
fn render_template(
    env: &dyn Fn() -> Arc<Environment>,
    root: &ProjectRoot,
    file: &TextFile,
    variables: &Variables,
) -> Result<SharedText, Diagnostic> {
    let name = file.template_root.name_of(&file.path);
    let key = variables.key().map(|variables| {
        let mut key = Xxh3::new();
        key.update(&variables.to_le_bytes());
        key.update(&file.text.hash().to_le_bytes());
        key.update(name.as_bytes());
        key.digest128()
    });
    let cache = root.cache();
    if let Some(done) = key.and_then(|key| cache.get::<Arc<TemplateOutput>>(Kind::TemplateRender, key)) {
        if done.loads.iter().all(|(name, found)| Found::now(root, &file.template_root, name) == *found) {
            return Ok(done.text.clone());
        }
    }
    let env = env();
    let (env, loads) = env.as_ref();
    let text = crate::templates::render_bounded(env, &name, &file.text, variables.value().clone(), &|name| {
        file.template_root.display(root, name)
    })?;
    let text = SharedText::new(&text);
    if let Some(key) = key {
        let loads =
            loads.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter().map(|(name, found)| (name.clone(), *found)).collect();
        cache.set(Kind::TemplateRender, key, Arc::new(TemplateOutput { text: text.clone(), loads }));
    }
    Ok(text)
}

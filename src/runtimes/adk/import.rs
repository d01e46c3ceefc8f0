//! `ctxc import adk DIR`: a ctxc manifest from a Google ADK Agent Config, the `root_agent.yaml`
//! that `adk create --type=config` writes and google-adk 2.13.0 loads with
//! `config_agent_utils.from_config` (`LlmAgentConfig`, `extra='forbid'`: ADK refuses a key it
//! does not know). The root LlmAgent's name, description, model, instruction (read from the YAML
//! file itself, so the manifest follows its edits), sub-agents (their names and descriptions, for
//! the transfer text) and function tools (a tool file the user writes: ctxc cannot see a Python
//! function) are carried over; what changes the request in ways ctxc does not model is a note.

use std::ops::Range;
use std::path::{Component, Path};

use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Failure, Sources};
use crate::import::{toml_string, Imported};
use crate::project::{ProjectRoot, ReadError};
use crate::runtimes::adk::settings::{self as adk, is_identifier, RawAdk, RawAgentRef};
use crate::yaml::{self, Written};

/// The file ADK loads from an agent folder (`adk web`, `adk run`).
pub const ROOT_CONFIG: &str = "root_agent.yaml";
/// Where the manifest expects the function tools' declarations (Gemini's form).
pub const TOOLS_FILE: &str = "tools/functions.json";
/// The model an LlmAgent without one (and without an ancestor's) uses: `LlmAgent.DEFAULT_MODEL`,
/// google-adk 2.13.0 (tests/runtimes/adk.rs reads it from the request ADK sends).
pub const DEFAULT_MODEL: &str = "gemini-3.5-flash";
/// Sub-agent configs read in one tree, repeats included (a file named by many agents is read
/// each time, as ADK builds it each time).
pub const MAX_AGENTS: usize = 256;
/// How deep sub-agent configs may nest below the root.
pub const MAX_DEPTH: usize = 32;

/// The keys of `LlmAgentConfig` (with `BaseAgentConfig`'s), google-adk 2.13.0.
const LLM_AGENT_KEYS: [&str; 22] = [
    "agent_class",
    "name",
    "description",
    "sub_agents",
    "before_agent_callbacks",
    "after_agent_callbacks",
    "model",
    "model_code",
    "instruction",
    "static_instruction",
    "disallow_transfer_to_parent",
    "disallow_transfer_to_peers",
    "input_schema",
    "output_schema",
    "output_key",
    "include_contents",
    "tools",
    "before_model_callbacks",
    "after_model_callbacks",
    "before_tool_callbacks",
    "after_tool_callbacks",
    "generate_content_config",
];

/// The names `agent_class` may give an LlmAgent (`_BUILTIN_LLM_AGENT_NAMES`).
const LLM_AGENT_CLASSES: [&str; 6] = [
    "LlmAgent",
    "Agent",
    "google.adk.agents.LlmAgent",
    "google.adk.agents.Agent",
    "google.adk.agents.llm_agent.LlmAgent",
    "google.adk.agents.llm_agent.Agent",
];

/// ADK's workflow agents, which send no model request of their own.
const WORKFLOW_CLASSES: [&str; 3] = ["SequentialAgent", "LoopAgent", "ParallelAgent"];

/// One agent config file as read: where it is, its top-level mapping and where things are written.
struct Config {
    rel: String,
    display: String,
    map: Map<String, Value>,
    places: Vec<Written>,
}

impl Config {
    /// Where a top-level key is written.
    fn key(&self, key: &str) -> Option<Range<usize>> {
        self.places.iter().find(|w| w.is_key && w.depth == 1 && w.value == key).map(|w| w.span.clone())
    }

    /// Where a nested `key: value` is written (the value), else the top-level `outer` key.
    fn nested(&self, key: &str, value: &str, outer: &str) -> Option<Range<usize>> {
        let found = self.places.iter().find(|w| !w.is_key && w.depth > 1 && w.key.as_deref() == Some(key) && w.value == value);
        found.map(|w| w.span.clone()).or_else(|| self.key(outer))
    }

    fn error(&self, message: impl Into<String>, at: Option<Range<usize>>) -> Diagnostic {
        Diagnostic::error(message).in_file(&self.display).at(at.or(Some(0..0))).label("here")
    }

    fn note(&self, message: impl Into<String>, at: Option<Range<usize>>) -> Diagnostic {
        Diagnostic::warning(message).in_file(&self.display).at(at)
    }

    /// A string value, if the key is there; an error if it holds something else.
    fn string(&self, key: &str) -> Result<Option<&str>, Diagnostic> {
        match self.map.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.error(format!("`{key}` must be a string"), self.key(key))),
        }
    }

    /// A string value of a key whose null is its default (`model`, `agent_class`).
    fn optional_string(&self, key: &str) -> Result<Option<&str>, Diagnostic> {
        match self.map.get(key) {
            Some(Value::Null) => Ok(None),
            _ => self.string(key),
        }
    }

    /// A list value (each item a mapping), if the key is there and not null.
    fn mappings(&self, key: &str) -> Result<Vec<&Map<String, Value>>, Diagnostic> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| item.as_object().ok_or_else(|| self.error(format!("each entry of `{key}` must be a mapping"), self.key(key))))
                .collect(),
            Some(_) => Err(self.error(format!("`{key}` must be a list"), self.key(key))),
        }
    }

    /// The folder the file is in, relative to the agent folder (`""` at the top).
    fn dir(&self) -> &str {
        self.rel.rsplit_once('/').map_or("", |(dir, _)| dir)
    }
}

/// What `agent_class` names.
enum Class<'a> {
    Llm,
    Workflow(&'a str),
    Custom(&'a str),
}

fn class(config: &Config) -> Result<Class<'_>, Diagnostic> {
    let name = config.optional_string("agent_class")?.filter(|s| !s.is_empty()).unwrap_or("LlmAgent");
    let short = name.strip_prefix("google.adk.agents.").unwrap_or(name);
    Ok(match () {
        _ if LLM_AGENT_CLASSES.contains(&name) => Class::Llm,
        _ if WORKFLOW_CLASSES.contains(&short) => Class::Workflow(short),
        _ => Class::Custom(name),
    })
}

/// Reads `DIR/root_agent.yaml` and the sub-agent configs it names (through the guarded reader of
/// DIR) and makes `ctxc.toml` in DIR.
pub fn import(dir: &Path) -> Result<Imported, Failure> {
    let mut sources = Sources::default();
    let fail = |d: Diagnostic, sources: &Sources| Failure { diagnostics: vec![d], sources: sources.clone() };
    let root = ProjectRoot::new(dir).map_err(|e| fail(e.into_diagnostic(), &sources))?;
    let config = read_config(&root, ROOT_CONFIG, &mut sources).map_err(|d| {
        let d = match d.message.contains("not found") {
            true => d.help("an ADK Agent Config folder holds root_agent.yaml (`adk create --type=config NAME` writes one)"),
            false => d,
        };
        fail(d, &sources)
    })?;
    let mut notes = Vec::new();
    let agent = root_agent(&root, &config, &mut notes, &mut sources).map_err(|d| fail(d, &sources))?;
    // In the order of the file, whatever order they were found in.
    notes.sort_by_key(|d| d.span.as_ref().map_or(0, |s| s.start));
    let text = manifest_text(&config, &agent);
    Ok(Imported {
        manifest: dir.join("ctxc.toml"),
        text,
        notes,
        sources,
        upstream: (!agent.adk.sub_agents.is_empty()).then_some("ADK"),
        files: Vec::new(),
    })
}

/// The root LlmAgent, as far as its request goes.
struct Agent {
    name: String,
    description: String,
    model: Option<String>,
    /// The tools' names, in the order of `tools`.
    tools: Vec<String>,
    adk: RawAdk,
}

fn root_agent(root: &ProjectRoot, config: &Config, notes: &mut Vec<Diagnostic>, sources: &mut Sources) -> Result<Agent, Diagnostic> {
    match class(config)? {
        Class::Llm => {}
        Class::Workflow(class) => {
            return Err(config
                .error(format!("the root agent is a {class}, which sends no model request of its own: its sub-agents do"), config.key("agent_class"))
                .help("ctxc import adk reads an LlmAgent's config: make one of its LlmAgent sub-agents the root of a folder of its own and import that"))
        }
        Class::Custom(class) => {
            return Err(config
                .error(format!("`{class}` is a custom agent class: ctxc cannot see what it sends"), config.key("agent_class"))
                .help("write the manifest by hand with the `adk` preset (docs/runtimes/adk.md)"))
        }
    }
    let (name, description) = llm_agent(config)?;
    // An empty model is no model: ADK then inherits or takes its default.
    let mut model = config.optional_string("model")?.filter(|m| !m.is_empty()).map(str::to_string);
    let mut tools = Vec::new();
    let mut adk = RawAdk::default();
    for (key, value) in &config.map {
        let at = config.key(key);
        // A key set to null is a key left out: ADK's optional fields default to None.
        if value.is_null() {
            continue;
        }
        match key.as_str() {
            "agent_class" | "name" | "description" | "instruction" | "model" | "sub_agents" => {}
            "model_code" => {
                model = None;
                notes.push(config.note("`model_code` builds the model in Python, which ctxc cannot see: the manifest names no model; set [agent] model to count with its tokenizer and window", at));
            }
            "tools" => tools = self::tools(config, notes)?,
            "disallow_transfer_to_parent" | "disallow_transfer_to_peers" => {
                let flag = match value {
                    Value::Bool(b) => *b,
                    _ => return Err(config.error(format!("`{key}` must be true or false"), at)),
                };
                match key.as_str() {
                    "disallow_transfer_to_parent" => adk.disallow_transfer_to_parent = flag,
                    _ => adk.disallow_transfer_to_peers = flag,
                }
            }
            "include_contents" => match value.as_str() {
                Some("default") => {}
                Some("none") => notes.push(config.note("`include_contents: none` sends no earlier turns: the system instruction and tools are unchanged, and `ctxc simulate` does not model it", at)),
                _ => return Err(config.error("`include_contents` must be `default` or `none`", at)),
            },
            "static_instruction" => notes.push(config.note("`static_instruction` is not modelled: ADK then sends it as the system instruction and moves `instruction` into the conversation, while the manifest renders `instruction` as the system instruction", at)),
            "generate_content_config" => notes.push(config.note("`generate_content_config` is not carried over: its sampling and output settings add no text to the request", at)),
            "output_schema" => notes.push(config.note("`output_schema` is not modelled: ADK sets the response schema from a Python class ctxc cannot see (and, with tools, adds a `set_model_response` tool and its instruction)", at)),
            "input_schema" => notes.push(config.note("`input_schema` is not carried over: it applies when another agent calls this one as a tool, not to this agent's request", at)),
            "output_key" => notes.push(config.note("`output_key` is not carried over: it stores the reply in session state after the request", at)),
            callbacks => notes.push(config.note(format!("`{callbacks}` are Python functions that run at run time and may change the request: ctxc does not run them"), at)),
        }
    }
    if model.is_none() && config.map.get("model_code").is_none_or(Value::is_null) {
        model = Some(DEFAULT_MODEL.to_string());
    }
    adk.sub_agents = sub_agents(root, config, notes, sources)?;
    let (_, problems) = adk::check(Some(&adk), &name);
    if let Some((_, problem)) = problems.into_iter().next() {
        return Err(config.error(problem, config.key("sub_agents").or(config.key("name"))));
    }
    Ok(Agent { name, description, model, tools, adk })
}

/// An LlmAgent config's keys checked as ADK checks them: its name and description.
fn llm_agent(config: &Config) -> Result<(String, String), Diagnostic> {
    for key in config.map.keys() {
        if !LLM_AGENT_KEYS.contains(&key.as_str()) {
            let d = config.error(
                format!("`{key}` is not a key of ADK's LlmAgent config: ADK refuses the file (extra inputs are not permitted)"),
                config.key(key),
            );
            return Err(match key.as_str() {
                "global_instruction" => d.help("google-adk 2.13.0's Agent Config has no global instruction: give it with GlobalInstructionPlugin in Python, and to ctxc as module `global_instruction`"),
                _ => d.help(format!("the keys are {}", LLM_AGENT_KEYS.join(", "))),
            });
        }
    }
    if config.string("instruction")?.is_none() {
        return Err(config.error("ADK requires `instruction` (a string) in an LlmAgent config", None));
    }
    identity(config)
}

/// Any agent's name (required, a Python identifier other than `user`) and description.
fn identity(config: &Config) -> Result<(String, String), Diagnostic> {
    let Some(name) = config.string("name")? else {
        return Err(config.error("ADK requires `name` (a string) in an agent config", None));
    };
    if !is_identifier(name) || name == "user" {
        return Err(config.error(format!("`{name}` is not a valid ADK agent name (a Python identifier, not `user`)"), config.key("name")));
    }
    Ok((name.to_string(), config.string("description")?.unwrap_or_default().to_string()))
}

/// The tools' names, in order; a note for each, saying where its declaration goes and what is
/// not modelled.
fn tools(config: &Config, notes: &mut Vec<Diagnostic>) -> Result<Vec<String>, Diagnostic> {
    let mut names = Vec::new();
    for tool in config.mappings("tools")? {
        let Some(Value::String(name)) = tool.get("name") else {
            return Err(config.error("each tool needs a `name` (a string)", config.key("tools")));
        };
        let at = config.nested("name", name, "tools");
        if let Some(other) = tool.keys().find(|k| !matches!(k.as_str(), "name" | "args")) {
            return Err(config.error(format!("`{other}` is not a key of a tool: ADK reads `name` and `args`"), at));
        }
        let args = tool.get("args").is_some_and(|a| !a.is_null());
        let made = if args { ", made at run time from its `args`," } else { "" };
        let note = match name.contains('.') {
            false => format!("`{name}` is one of ADK's built-in tools: its declaration, if it has one, goes into {TOOLS_FILE} with the others; what else it adds to the request (a Gemini built-in tool such as Google Search, or instruction text such as load_memory's) is not modelled"),
            true => format!("`{name}` is Python: ctxc cannot see its declaration{made} (ADK writes it from the function's signature and docstring); write it into {TOOLS_FILE}, in the order of `tools` (docs/runtimes/adk.md shows how)"),
        };
        notes.push(config.note(note, at));
        names.push(name.clone());
    }
    Ok(names)
}

/// The agent's sub-agents, each one's name and description (their own configs read, to the
/// bounds, as ADK reads the whole tree); a note for one defined in Python.
fn sub_agents(
    root: &ProjectRoot,
    config: &Config,
    notes: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) -> Result<Vec<RawAgentRef>, Diagnostic> {
    let mut read = 0;
    let mut chain = vec![config.rel.clone()];
    let mut out = Vec::new();
    for reference in references(config)? {
        match reference {
            Reference::Code(code) => notes.push(config.note(
                format!("sub-agent `{code}` is defined in Python: ctxc cannot see its name and description; add `{{ name, description }}` to [adk] sub_agents at its place in the list, as the transfer text lists it"),
                config.nested("code", &code, "sub_agents"),
            )),
            Reference::Path(rel, at) => out.push(sub_agent(root, (&config.display, at), &rel, &mut chain, &mut read, sources)?),
        }
    }
    Ok(out)
}

enum Reference {
    /// The config's path in the agent folder, and where the referencing file names it.
    Path(String, Option<Range<usize>>),
    Code(String),
}

/// An agent config's `sub_agents` entries, each config path resolved against the file's folder.
fn references(config: &Config) -> Result<Vec<Reference>, Diagnostic> {
    let mut out = Vec::new();
    for entry in config.mappings("sub_agents")? {
        let string = |key: &str| entry.get(key).and_then(Value::as_str);
        let reference = match (string("config_path"), string("code")) {
            (Some(path), None) => {
                let at = config.nested("config_path", path, "sub_agents");
                Reference::Path(join(config.dir(), path).map_err(|why| config.error(why, at.clone()))?, at)
            }
            (None, Some(code)) => Reference::Code(code.to_string()),
            _ => {
                return Err(config.error("each sub-agent needs exactly one of `config_path` and `code` (strings)", config.key("sub_agents")))
            }
        };
        if let Some(other) = entry.keys().find(|k| !matches!(k.as_str(), "config_path" | "code")) {
            return Err(config.error(
                format!("`{other}` is not a key of a sub-agent reference: ADK reads `config_path` or `code`"),
                config.key("sub_agents"),
            ));
        }
        out.push(reference);
    }
    Ok(out)
}

/// `path` relative to the folder `dir`, as ADK resolves a `config_path`: never absolute, and
/// (after `..` steps) inside the referencing file's folder.
fn join(dir: &str, path: &str) -> Result<String, String> {
    let leaves = || format!("`{path}` leaves the folder of the file that names it: ADK refuses it (path traversal)");
    let floor: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    let mut parts = floor.clone();
    for component in Path::new(path).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str().unwrap_or_default()),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop().ok_or_else(leaves)?;
            }
            Component::RootDir | Component::Prefix(_) => return Err(format!("`{path}` is absolute: ADK refuses absolute config paths")),
        }
    }
    match parts.starts_with(&floor) && parts.len() > floor.len() {
        true => Ok(parts.join("/")),
        false => Err(leaves()),
    }
}

/// A sub-agent's name and description from its config at `rel` (named at `from`: the
/// referencing file and where), after reading its own sub-agents' configs (cycles, depth and
/// the number of configs bounded).
fn sub_agent(
    root: &ProjectRoot,
    from: (&str, Option<Range<usize>>),
    rel: &str,
    chain: &mut Vec<String>,
    read: &mut usize,
    sources: &mut Sources,
) -> Result<RawAgentRef, Diagnostic> {
    let error = |message: String| Diagnostic::error(message).in_file(from.0).at(from.1.clone().or(Some(0..0))).label("here");
    if let Some(start) = chain.iter().position(|c| c == rel) {
        let cycle: Vec<&str> = chain[start..].iter().map(String::as_str).chain([rel]).collect();
        return Err(error(format!("sub-agent configs form a cycle: {} (ADK recurses without end)", cycle.join(" → "))));
    }
    if chain.len() > MAX_DEPTH {
        return Err(error(format!("sub-agent configs nest more than {MAX_DEPTH} levels deep: ctxc reads no deeper")));
    }
    *read += 1;
    if *read > MAX_AGENTS {
        return Err(error(format!("the agent tree names more than {MAX_AGENTS} sub-agent configs: ctxc reads no more")));
    }
    let config = read_config(root, rel, sources).map_err(|d| match d.file {
        // The file could not be read: say so where it is named.
        None => error(d.message),
        Some(_) if d.span.is_none() => Diagnostic { span: from.1.clone().or(Some(0..0)), file: Some(from.0.to_string()), ..d },
        Some(_) => d,
    })?;
    if let Class::Llm = class(&config)? {
        llm_agent(&config)?;
    }
    let (name, description) = identity(&config)?;
    chain.push(rel.to_string());
    for reference in references(&config)? {
        if let Reference::Path(below, at) = reference {
            sub_agent(root, (&config.display, at), &below, chain, read, sources)?;
        }
    }
    chain.pop();
    Ok(RawAgentRef { name, description })
}

/// Reads an agent config: a YAML mapping, with bad YAML pointed at.
fn read_config(root: &ProjectRoot, rel: &str, sources: &mut Sources) -> Result<Config, Diagnostic> {
    let shown = root.display_path(rel);
    let file = match root.read(rel) {
        Ok(file) => file,
        Err(ReadError::Missing(_)) => return Err(Diagnostic::error(format!("`{shown}` not found"))),
        Err(e) => return Err(e.into_diagnostic().in_file(&shown)),
    };
    sources.insert_shared(&file.display, file.text.clone());
    let error = |message: String, at: usize| Diagnostic::error(message).in_file(&file.display).at(Some(at..at)).label("here");
    let map = match yaml::from_str::<Value>(&file.text) {
        Ok(Value::Object(map)) => map,
        Ok(Value::Null) => return Err(error("the agent config is empty: ADK refuses it".into(), 0)),
        Ok(_) => return Err(error("not an ADK agent config: it must hold a mapping".into(), 0)),
        Err(e) => return Err(error(format!("not valid YAML: {}", e.message), e.offset.unwrap_or(0))),
    };
    let places = yaml::written_values(&file.text);
    Ok(Config { rel: rel.to_string(), display: file.display, map, places })
}

/// The manifest: a header saying where it comes from, then the agent's tables.
fn manifest_text(config: &Config, agent: &Agent) -> String {
    let mut out = format!(
        "# Imported from {} by `ctxc import adk`: the root LlmAgent google-adk 2.13.0 builds from it\n\
         # (config_agent_utils.from_config). The instruction is read from that file, so edits there\n\
         # show here; session state (`{{key}}`) comes from a scenario's `vars`.\n",
        config.rel
    );
    if !agent.adk.sub_agents.is_empty() {
        out.push_str("# ctxc ships none of ADK's texts: `ctxc upstream --python PY` writes the transfer instruction and\n# the `transfer_to_agent` declaration of the ADK installed in PY's environment into upstream/.\n");
    }
    out.push_str(&format!("\n[agent]\nname = {}\n", toml_string(&agent.name)));
    if !agent.description.is_empty() {
        out.push_str(&format!("description = {}\n", toml_string(&agent.description)));
    }
    match agent.model.as_deref() {
        Some(DEFAULT_MODEL) if config.optional_string("model").ok().flatten().is_none_or(str::is_empty) => {
            out.push_str(&format!("# The config names no model: ADK's default (LlmAgent.DEFAULT_MODEL).\nmodel = \"{DEFAULT_MODEL}\"\n"))
        }
        Some(model) => out.push_str(&format!("model = {}\n", toml_string(model))),
        None => {}
    }
    out.push_str("\n[pipeline]\npreset = \"adk\"\n\n[modules]\n");
    out.push_str(&format!("instruction = {{ source = {}, key = \"instruction\" }}\n", toml_string(&config.rel)));
    if !agent.adk.sub_agents.is_empty() {
        out.push_str("agent_transfer = { source = \"upstream/agent-transfer.md\" }\n");
    }
    if !agent.tools.is_empty() {
        out.push_str(&format!(
            "\n# The declarations of the agent's tools, which ctxc cannot read from Python, in the order of\n# `tools` ({} listed), as ADK sends them: docs/runtimes/adk.md shows how to write them.\n[tools.functions]\ntitle = \"Function tools\"\nfiles = [\"{TOOLS_FILE}\"]\n",
            agent.tools.len()
        ));
    }
    let adk = &agent.adk;
    if !adk.sub_agents.is_empty() || adk.disallow_transfer_to_parent || adk.disallow_transfer_to_peers {
        out.push_str("\n[adk]\n");
        if !adk.sub_agents.is_empty() {
            out.push_str("sub_agents = [\n");
            for sub in &adk.sub_agents {
                out.push_str(&format!("  {{ name = {}, description = {} }},\n", toml_string(&sub.name), toml_string(&sub.description)));
            }
            out.push_str("]\n");
        }
        for (key, set) in [
            ("disallow_transfer_to_parent", adk.disallow_transfer_to_parent),
            ("disallow_transfer_to_peers", adk.disallow_transfer_to_peers),
        ] {
            if set {
                out.push_str(&format!("{key} = true\n"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::project;

    /// The first diagnostic's message and its 1-based line in its file.
    fn located(failure: &Failure) -> (String, Option<usize>) {
        let d = &failure.diagnostics[0];
        let line = d.span.as_ref().and_then(|s| failure.sources.line_col(d.file.as_deref()?, s.start)).map(|p| p.0);
        (d.message.clone(), line)
    }

    #[test]
    fn agent_tools_and_sub_agents_are_carried_over_with_located_notes() {
        let dir = project(&[
            (
                "root_agent.yaml",
                "name: desk\ndescription: \"Routes \\\"all\\\" requests\\n[agent]\"\ninstruction: |\n  Hi {user}.\ntools:\n  - name: pkg.tools.find\n  - name: google_search\n  - name: pkg.tools.make\n    args: {n: 1}\nsub_agents:\n  - config_path: a/one.yaml\n  - code: pkg.agents.two\nbefore_model_callbacks:\n  - name: pkg.cb.f\nstatic_instruction: Fixed.\ninclude_contents: none\ndisallow_transfer_to_peers: true\n",
            ),
            ("a/one.yaml", "agent_class: LoopAgent\nname: one\ndescription: Loops.\nsub_agents:\n  - config_path: ../a/two.yaml\n"),
            ("a/two.yaml", "name: two\ninstruction: Two.\n"),
        ]);
        let got = import(dir.path()).expect("imports");
        let table: toml::Table = got.text.parse().expect("TOML");
        assert_eq!(table["agent"]["description"].as_str(), Some("Routes \"all\" requests\n[agent]"), "{}", got.text);
        assert!(got.text.contains(&format!("model = \"{DEFAULT_MODEL}\"\n")), "{}", got.text);
        assert!(
            got.text.contains("instruction = { source = \"root_agent.yaml\", key = \"instruction\" }\nagent_transfer = "),
            "{}",
            got.text
        );
        assert!(got.text.contains("`tools` (3 listed)"), "{}", got.text);
        assert!(
            got.text.contains("sub_agents = [\n  { name = \"one\", description = \"Loops.\" },\n]\ndisallow_transfer_to_peers = true\n"),
            "{}",
            got.text
        );
        assert_eq!(got.upstream, Some("ADK"));
        crate::manifest::parse(&got.text, crate::manifest::Format::Toml).expect("the manifest parses");
        let lines: Vec<(usize, &str)> = got
            .notes
            .iter()
            .map(|d| {
                (
                    got.sources.line_col(d.file.as_deref().expect("file"), d.span.clone().expect("span").start).expect("position").0,
                    d.message.as_str(),
                )
            })
            .collect();
        let at = |line: usize, words: &str| {
            assert!(lines.iter().any(|(l, m)| *l == line && m.contains(words)), "no note at line {line} with {words:?}: {lines:#?}")
        };
        at(6, "`pkg.tools.find` is Python");
        at(7, "`google_search` is one of ADK's built-in tools: its declaration, if it has one, goes into");
        at(8, "made at run time from its `args`");
        at(12, "`pkg.agents.two` is defined in Python");
        at(13, "`before_model_callbacks` are Python functions");
        at(15, "`static_instruction` is not modelled");
        at(16, "`include_contents: none`");
        assert_eq!(lines.len(), 7, "{lines:#?}");
    }

    #[test]
    fn a_plain_agent_names_no_upstream_texts_or_tool_file() {
        let dir =
            project(&[("root_agent.yaml", "agent_class: null\nname: a\nmodel: ''\ninstruction: ''\noutput_key: null\ntools: null\n")]);
        let got = import(dir.path()).expect("imports");
        assert!(got.text.contains(&format!("LlmAgent.DEFAULT_MODEL).\nmodel = \"{DEFAULT_MODEL}\"\n")), "{}", got.text);
        let dir = project(&[("root_agent.yaml", "name: a\nmodel: gemini-2.5-pro\ninstruction: ''\n")]);
        let got = import(dir.path()).expect("imports");
        assert_eq!(got.upstream, None);
        assert!(got.notes.is_empty(), "{:?}", got.notes);
        assert!(!got.text.contains("upstream/") && !got.text.contains("[tools") && !got.text.contains("[adk]"), "{}", got.text);
        assert!(got.text.contains("model = \"gemini-2.5-pro\"\n"), "{}", got.text);
    }

    #[test]
    fn what_adk_refuses_is_an_error_at_its_line() {
        // Aliases that would expand to 10^8 values: refused by the YAML reader's count.
        let mut bomb = "name: a\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n".to_string();
        for i in 1..8 {
            bomb.push_str(&format!("l{i}: &l{i} [{}]\n", vec![format!("*l{}", i - 1); 10].join(", ")));
        }
        for (yaml, words, line) in [
            ("name: a\ninstruction: x\nglobal_instruction: Be kind.\n", "`global_instruction` is not a key", Some(3)),
            ("name: a\ninstrucion: x\n", "`instrucion` is not a key", Some(2)),
            ("name: a\n", "requires `instruction`", Some(1)),
            ("instruction: x\n", "requires `name`", Some(1)),
            ("name: my-agent\ninstruction: x\n", "not a valid ADK agent name", Some(1)),
            ("name: a\ninstruction: [x]\n", "`instruction` must be a string", Some(2)),
            ("agent_class: SequentialAgent\nname: a\n", "sends no model request", Some(1)),
            ("agent_class: google.adk.agents.LoopAgent\nname: a\n", "sends no model request", Some(1)),
            ("agent_class: my.pkg.Agent\nname: a\n", "custom agent class", Some(1)),
            ("name: a\ninstruction: x\ninclude_contents: all\n", "`default` or `none`", Some(3)),
            ("name: a\ninstruction: x\ntools:\n  - google_search\n", "must be a mapping", Some(3)),
            ("name: a\ninstruction: x\ntools:\n  - name: t\n    kwargs: {}\n", "not a key of a tool", Some(4)),
            ("name: a\ninstruction: x\nsub_agents:\n  - {config_path: b.yaml, code: m.b}\n", "exactly one of", Some(3)),
            ("name: a\ninstruction: x\nsub_agents:\n  - config_path: /etc/b.yaml\n", "is absolute", Some(4)),
            ("name: a\ninstruction: x\nsub_agents:\n  - config_path: missing.yaml\n", "not found", Some(4)),
            ("name: a\ninstruction: x\nsub_agents:\n  - config_path: same.yaml\n", "used twice", Some(3)),
            ("name: a\n  instruction: x\n", "not valid YAML", Some(2)),
            ("# nothing\n", "empty", Some(1)),
            ("- a\n- b\n", "must hold a mapping", Some(1)),
            (&"[".repeat(10_000), "not valid YAML", Some(1)),
            (&bomb, "not valid YAML", Some(2)),
        ] {
            let dir = project(&[("root_agent.yaml", yaml), ("same.yaml", "name: a\ninstruction: x\n")]);
            let failure = import(dir.path()).expect_err(yaml);
            let (message, at) = located(&failure);
            assert!(message.contains(words), "{yaml:?}: {message}");
            assert_eq!(at, line, "{yaml:?}: {message}");
        }
        let failure = import(project(&[]).path()).expect_err("no root_agent.yaml");
        assert!(failure.diagnostics[0].help.as_deref().is_some_and(|h| h.contains("adk create")), "{:?}", failure.diagnostics);
    }

    #[test]
    fn a_sub_agent_path_leaving_its_folder_is_refused_as_adk_refuses_it() {
        // ADK resolves a config_path against the referencing file's folder and refuses `..` out of it.
        let dir = project(&[
            ("root_agent.yaml", "name: a\ninstruction: x\nsub_agents:\n  - config_path: team/b.yaml\n"),
            ("team/b.yaml", "name: b\ninstruction: x\nsub_agents:\n  - config_path: ../c.yaml\n"),
            ("c.yaml", "name: c\ninstruction: x\n"),
        ]);
        let failure = import(dir.path()).expect_err("traversal");
        let (message, line) = located(&failure);
        assert!(message.contains("leaves the folder"), "{message}");
        assert!(failure.diagnostics[0].file.as_deref().is_some_and(|f| f.ends_with("team/b.yaml")), "{:?}", failure.diagnostics);
        assert_eq!(line, Some(4));
    }

    #[test]
    fn hostile_trees_are_bounded_by_counts() {
        // A cycle: ADK recurses until Python gives up; ctxc names it.
        let dir = project(&[
            ("root_agent.yaml", "name: a\ninstruction: x\nsub_agents:\n  - config_path: b.yaml\n"),
            ("b.yaml", "name: b\ninstruction: x\nsub_agents:\n  - config_path: c.yaml\n"),
            ("c.yaml", "name: c\ninstruction: x\nsub_agents:\n  - config_path: b.yaml\n"),
        ]);
        let (message, line) = located(&import(dir.path()).expect_err("cycle"));
        assert!(message.contains("cycle: b.yaml → c.yaml → b.yaml"), "{message}");
        assert_eq!(line, Some(4));

        // A chain deeper than MAX_DEPTH: the configs past the bound are never read (they are not YAML).
        let mut files: Vec<(String, String)> = (0..MAX_DEPTH + 8)
            .map(|i| (format!("s{i}.yaml"), format!("name: s{i}\ninstruction: x\nsub_agents:\n  - config_path: s{}.yaml\n", i + 1)))
            .collect();
        for (_, text) in files.iter_mut().skip(MAX_DEPTH + 1) {
            *text = "name: [unclosed\n".into();
        }
        files.push(("root_agent.yaml".into(), "name: r\ninstruction: x\nsub_agents:\n  - config_path: s0.yaml\n".into()));
        let borrowed: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let (message, _) = located(&import(project(&borrowed).path()).expect_err("too deep"));
        assert!(message.contains(&format!("more than {MAX_DEPTH} levels")), "{message}");

        // A fan-out: 20 references to a file naming 20 more: 420 configs to build, read up to MAX_AGENTS.
        let twenty =
            |target: &str| format!("name: {{}}\ninstruction: x\nsub_agents:\n{}", format!("  - config_path: {target}\n").repeat(20));
        let dir = project(&[
            ("root_agent.yaml", &twenty("b.yaml").replace("{}", "r")),
            ("b.yaml", &twenty("c.yaml").replace("{}", "b")),
            ("c.yaml", "name: c\ninstruction: x\n"),
        ]);
        let (message, _) = import(dir.path()).map(|_| (String::new(), None)).unwrap_or_else(|f| located(&f));
        assert!(message.contains(&format!("more than {MAX_AGENTS} sub-agent configs")), "{message}");
    }

    #[test]
    fn huge_files_and_links_out_of_the_folder_are_refused() {
        let huge = format!("name: a\ninstruction: '{}'\n", "x".repeat(crate::project::MAX_FILE_BYTES as usize));
        let (message, _) = located(&import(project(&[("root_agent.yaml", &huge)]).path()).expect_err("huge"));
        assert!(message.contains("over the"), "{message}");
        let dir = project(&[("root_agent.yaml", "name: a\ninstruction: x\nsub_agents:\n  - config_path: big.yaml\n"), ("big.yaml", &huge)]);
        let (message, line) = located(&import(dir.path()).expect_err("huge sub-agent"));
        assert!(message.contains("over the"), "{message}");
        assert_eq!(line, Some(4));
        #[cfg(unix)]
        {
            let outside = project(&[("secret.yaml", "name: s\ninstruction: secret\n")]);
            let dir = project(&[("root_agent.yaml", "name: a\ninstruction: x\nsub_agents:\n  - config_path: link.yaml\n")]);
            std::os::unix::fs::symlink(outside.path().join("secret.yaml"), dir.path().join("link.yaml")).expect("symlink");
            let (message, line) = located(&import(dir.path()).expect_err("link out"));
            assert!(message.contains("outside the project"), "{message}");
            assert_eq!(line, Some(4));
        }
    }
}

//! The server's tools. Each calls the library entry point its command uses and returns what the
//! command prints with `--format json` (or, for `explain` and `render`, its text), so that an
//! agent and a person see the same findings and numbers. Arguments are checked by hand, bounded,
//! and a wrong one is a tool error (`isError`) the model can read and correct.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{json, Value};

use super::{confine, Server};
use crate::diagnostic::{Diagnostic, Failure, Sources};
use crate::lint::Options;
use crate::measure::ToolFiles;
use crate::report::cost::{tool_rows, CostJson, Costed, ToolFilesJson};
use crate::report::escape::{json_text, Untrusted};
use crate::session::Only;

/// The most codes `select` takes.
const MAX_CODES: usize = 256;
/// The longest path, code or name argument, in bytes.
const MAX_NAME: usize = 4096;

/// The tool list `tools/list` returns: names, short descriptions and input schemas. Every tool
/// but `fix` only reads.
pub(super) fn list() -> Value {
    let path = json!({ "type": "string", "description": "Relative to the project root (default .)" });
    let read_only = json!({ "readOnlyHint": true, "openWorldHint": false });
    json!([
        {
            "name": "check",
            "description": "Lint agent files and agents as `ctxc check --format json`: findings with codes, positions and fixes.",
            "inputSchema": { "type": "object", "properties": {
                "path": path,
                "text": { "type": "string", "description": "Unsaved text of the file at path" },
                "select": { "type": "array", "items": { "type": "string" }, "description": "Only these codes or prefixes" }
            }, "additionalProperties": false },
            "annotations": read_only,
        },
        {
            "name": "explain",
            "description": "A rule's documentation, as `ctxc explain`.",
            "inputSchema": { "type": "object", "properties": {
                "code": { "type": "string", "description": "Rule code or name, e.g. SKILL004" }
            }, "required": ["code"], "additionalProperties": false },
            "annotations": read_only,
        },
        {
            "name": "cost",
            "description": "Token cost as `ctxc cost --format json`: an agent's modes, tool files, or a host's startup context.",
            "inputSchema": { "type": "object", "properties": {
                "path": path,
                "mode": { "type": "string" },
                "scenario": { "type": "string" },
                "host": { "type": "string", "enum": crate::hostview::hosts().map(|h| h.id.as_str()).collect::<Vec<_>>() },
                "model": { "type": "string", "description": "Instead of each agent's own" }
            }, "additionalProperties": false },
            "annotations": read_only,
        },
        {
            "name": "render",
            "description": "One mode's exact system prompt, as `ctxc render` (secrets masked).",
            "inputSchema": { "type": "object", "properties": {
                "path": path,
                "mode": { "type": "string" },
                "scenario": { "type": "string" },
                "agent": { "type": "string", "description": "When path holds several" }
            }, "additionalProperties": false },
            "annotations": read_only,
        },
        {
            "name": "simulate",
            "description": "Replay a workload or transcript through the runtime's context policy, as `ctxc simulate --format json`.",
            "inputSchema": { "type": "object", "properties": {
                "path": path,
                "workload": { "type": "string", "description": "Workload spec (TOML)" },
                "transcript": { "type": "string", "description": "Or a transcript" },
                "mode": { "type": "string" },
                "scenario": { "type": "string" },
                "model": { "type": "string" }
            }, "additionalProperties": false },
            "annotations": read_only,
        },
        {
            "name": "diff",
            "description": "Token changes since a git revision, as `ctxc diff --base REV --format json`: per agent and mode, or per host and file.",
            "inputSchema": { "type": "object", "properties": {
                "path": path,
                "base": { "type": "string", "description": "Revision, e.g. HEAD or origin/main" },
                "host": { "type": "string", "enum": crate::hostview::hosts().map(|h| h.id.as_str()).collect::<Vec<_>>() }
            }, "required": ["base"], "additionalProperties": false },
            "annotations": read_only,
        },
        {
            "name": "fix",
            "description": "Apply the findings' fixes under path, as `ctxc check --fix`; writes only with apply: true.",
            "inputSchema": { "type": "object", "properties": {
                "path": path,
                "apply": { "type": "boolean", "description": "Must be true" },
                "unsafe": { "type": "boolean", "description": "Also renames and removals" }
            }, "required": ["apply"], "additionalProperties": false },
            "annotations": { "readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false },
        },
    ])
}

/// The result of the tool `name` called with `arguments` (their JSON text); `None` when there is
/// no such tool.
pub(super) fn call(server: &Server, name: &str, arguments: &str) -> Option<Value> {
    let outcome = match name {
        "check" => parse(arguments).and_then(|args| check(server, args)),
        "explain" => parse(arguments).and_then(explain),
        "cost" => parse(arguments).and_then(|args| cost(server, args)),
        "render" => parse(arguments).and_then(|args| render(server, args)),
        "simulate" => parse(arguments).and_then(|args| simulate(server, args)),
        "diff" => parse(arguments).and_then(|args| diff(server, args)),
        "fix" => parse(arguments).and_then(|args| fix(server, args)),
        _ => return None,
    };
    Some(match outcome {
        Ok(texts) => json!({ "content": content(texts), "isError": false }),
        Err(why) => json!({ "content": content(vec![why]), "isError": true }),
    })
}

fn content(texts: Vec<String>) -> Vec<Value> {
    texts.into_iter().map(|text| json!({ "type": "text", "text": text })).collect()
}

/// A tool's arguments read into its own type: a wrong type, a misspelt name (which would
/// otherwise be ignored) or a value over its bound is an error the model reads.
fn parse<'a, T: Deserialize<'a>>(arguments: &'a str) -> Result<T, String> {
    serde_json::from_str(arguments).map_err(|e| format!("arguments: {}", super::clip(&e.to_string())))
}

/// A path, code or name argument: at most [`MAX_NAME`] bytes.
#[derive(Deserialize)]
#[serde(try_from = "String")]
struct Name(String);

impl TryFrom<String> for Name {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.len() <= MAX_NAME {
            true => Ok(Name(s)),
            false => Err(format!("a path or name is at most {MAX_NAME} bytes")),
        }
    }
}

/// A list of codes: read one at a time, refused at the first past [`MAX_CODES`], so that a
/// list of a million costs no more than the bound.
struct Codes(Vec<String>);

impl<'de> Deserialize<'de> for Codes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Codes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a list of at most {MAX_CODES} codes")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Codes, A::Error> {
                let mut codes = Vec::new();
                while let Some(Name(code)) = seq.next_element()? {
                    if codes.len() == MAX_CODES {
                        return Err(serde::de::Error::custom(format!("more than {MAX_CODES} codes")));
                    }
                    codes.push(code);
                }
                Ok(Codes(codes))
            }
        }
        deserializer.deserialize_seq(Visit)
    }
}

/// The `path` argument, confined to the server's root (default: the root).
fn confined(server: &Server, path: &Option<Name>, may_be_new: bool) -> Result<PathBuf, String> {
    confine(&server.root, path.as_ref().map_or(".", |p| p.0.as_str()), may_be_new)
}

fn name(name: &Option<Name>) -> Option<&str> {
    name.as_ref().map(|n| n.0.as_str())
}

/// Diagnostics as the text `ctxc` prints on stderr, without colour.
fn diagnostics_text(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    crate::report::diagnostics::render(diagnostics, sources, false)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckArgs {
    path: Option<Name>,
    text: Option<String>,
    select: Option<Codes>,
}

/// `ctxc check [PATH] --format json [--select …]`, or with `text`, `ctxc check - --stdin-filename PATH`.
fn check(server: &Server, args: CheckArgs) -> Result<Vec<String>, String> {
    let text = args.text.as_deref();
    let path = confined(server, &args.path, text.is_some())?;
    let options = Options { select: args.select.map(|c| c.0).unwrap_or_default(), ..Options::default() };
    let session = server.session(&[]);
    let mut report = match text {
        Some(text) => crate::lint::check_text(&path, text, &options, &session),
        None => crate::lint::check(&crate::discover::agent_folder(&path), &options, &session),
    };
    crate::lint::group::group(&mut report.diagnostics);
    Ok(vec![crate::report::formats::json::render(&report, report.outcome().exit_code())])
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainArgs {
    code: Name,
}

/// `ctxc explain CODE`.
fn explain(args: ExplainArgs) -> Result<Vec<String>, String> {
    let code = args.code.0.trim();
    match crate::rules::by_code_or_name(code) {
        Some(rule) => Ok(vec![crate::rules::docs::rule_markdown(rule, 2)]),
        None => Err(diagnostics_text(&[crate::report::diagnostics::not_a_rule(code)], &Sources::default())),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CostArgs {
    path: Option<Name>,
    mode: Option<Name>,
    scenario: Option<Name>,
    host: Option<Name>,
    model: Option<Name>,
}

/// `ctxc cost PATH --format json`: with `host`, that host's startup context (`--host`); else the
/// tool files PATH names, or its agents (`--mode`, `--scenario`, `--model`).
fn cost(server: &Server, args: CostArgs) -> Result<Vec<String>, String> {
    let path = confined(server, &args.path, false)?;
    let model = name(&args.model);
    if let Some(id) = name(&args.host) {
        let host = crate::hostview::hosts().find(|h| h.id == id).ok_or(format!("ctxc does not show the host `{}`", super::clip(id)))?;
        let root = crate::project::ProjectRoot::new(&path).map_err(|e| e.message())?;
        let model = model.map(crate::models::profile);
        let found = crate::hostview::views(&root, "", &[host], model.as_ref(), &crate::tokens::TokenCounter::new());
        return with_problems(json_text(&json!({ "hosts": found.views })), &found.problems, &Sources::default(), false);
    }
    if let Some(files) = ToolFiles::named_by(&path) {
        let model_name = model.unwrap_or("gpt-4o");
        let cost = server.session(&[]).cost_tool_files(&files, crate::models::profile(model_name));
        let json = json_text(&ToolFilesJson::new(model_name, &cost, &tool_rows(&cost)));
        return with_problems(json, &cost.problems, &cost.sources, cost.failed());
    }
    let manifests =
        crate::discover::find_manifests(&crate::discover::agent_folder(&path)).map_err(|d| diagnostics_text(&[d], &Sources::default()))?;
    let overrides: Vec<String> = model.map(|m| format!("agent.model={}", toml::Value::String(m.into()))).into_iter().collect();
    let session = server.session(&overrides);
    let only = Only { mode: name(&args.mode), scenario: name(&args.scenario) };
    let mut reports = Vec::new();
    for manifest in &manifests {
        let runs = session.run(manifest, only).map_err(|failure| diagnostics_text(&failure.diagnostics, &failure.sources))?;
        if !runs.problems.is_empty() {
            return Err(diagnostics_text(&runs.problems, &runs.loaded.sources));
        }
        reports.extend(runs.runs.into_iter().map(|run| Costed::new(&runs.loaded.agent, run.measured)));
    }
    let reports: Vec<&Costed> = reports.iter().collect();
    let json = CostJson { env_overrides: &server.setup.env_overrides, model, overrides: &[], reports: &reports };
    Ok(vec![json_text(&json)])
}

/// `json`, and after it the problems the command prints on stderr, when there are any.
fn with_problems(json: String, problems: &[Diagnostic], sources: &Sources, failed: bool) -> Result<Vec<String>, String> {
    match (problems.is_empty(), failed) {
        (true, _) => Ok(vec![json]),
        (false, false) => Ok(vec![json, diagnostics_text(problems, sources)]),
        (false, true) => Err(format!("{json}\n{}", diagnostics_text(problems, sources))),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RenderArgs {
    path: Option<Name>,
    mode: Option<Name>,
    scenario: Option<Name>,
    agent: Option<Name>,
}

/// `ctxc render PATH [--mode M] [--scenario S] [--agent A]`, with secrets masked: the prompt goes
/// into a model's context, where `render`'s warning on stderr would not follow it.
fn render(server: &Server, args: RenderArgs) -> Result<Vec<String>, String> {
    let path = confined(server, &args.path, false)?;
    let manifests = crate::discover::find_manifests(&path).map_err(|d| diagnostics_text(&[d], &Sources::default()))?;
    let session = server.session(&[]);
    let agent_name = |manifest: &Path| session.load(manifest).ok().map(|loaded| loaded.agent.name.clone());
    let manifest =
        crate::discover::pick_agent(&manifests, name(&args.agent), agent_name).map_err(|d| diagnostics_text(&[d], &Sources::default()))?;
    let loaded = session.load(&manifest).map_err(|failure| diagnostics_text(&failure.diagnostics, &failure.sources))?;
    let mode = crate::render::mode_to_render(&loaded.agent, name(&args.mode)).map_err(|d| diagnostics_text(&[d], &loaded.sources))?;
    let rendered = session.render(&loaded, &mode, name(&args.scenario)).map_err(|d| diagnostics_text(&d, &loaded.sources))?;
    Ok(vec![crate::rules::secrets::mask(&rendered.prompt()).into_owned()])
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiffArgs {
    path: Option<Name>,
    base: Name,
    host: Option<Name>,
}

/// `ctxc diff --base REV PATH [--host HOST] --format json`: git reads the revision (never the
/// work tree's index nor a hook); the checkout is a temporary folder, removed after the call.
fn diff(server: &Server, args: DiffArgs) -> Result<Vec<String>, String> {
    use crate::review::diff::{self, Base};
    let path = crate::discover::agent_folder(&confined(server, &args.path, false)?);
    let base = Base::read(&path, &Untrusted(&path.display().to_string()).to_string(), &args.base.0, &server.setup.env_overrides)?;
    let manifests = diff::manifests(&path, &base);
    if args.host.is_some() || (manifests.0.is_empty() && manifests.1.is_empty()) {
        let hosts: Vec<&crate::hosts::Host> = match name(&args.host) {
            Some(id) => {
                vec![crate::hostview::hosts().find(|h| h.id == id).ok_or(format!("ctxc does not show the host `{}`", super::clip(id)))?]
            }
            None => crate::hostview::hosts().collect(),
        };
        if !path.is_dir() {
            return Err(format!("`{}`: the host view reads a directory", path.display()));
        }
        let root = crate::project::ProjectRoot::new(&path).map_err(|e| e.message())?;
        let found = diff::hosts(&root, &base, "", &hosts, args.host.is_some()).map_err(|d| diagnostics_text(&[d], &Sources::default()))?;
        return with_problems(json_text(&diff::hosts_json(&base, &found, None)), &found.problems, &Sources::default(), false);
    }
    let found = diff::agents(&manifests, &base, &server.session(&[])).map_err(|unrendered| {
        let shown = |failures: &[Failure]| failures.iter().map(|f| diagnostics_text(&f.diagnostics, &f.sources)).collect::<String>();
        format!("{}{}", base.shown(&shown(&unrendered.before)), shown(&unrendered.after))
    })?;
    Ok(vec![json_text(&diff::agents_json(&base, &found, None))])
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FixArgs {
    path: Option<Name>,
    apply: bool,
    #[serde(rename = "unsafe", default)]
    unsafe_fixes: bool,
}

/// `ctxc check PATH --fix [--unsafe-fixes] --format json`: the findings left after fixing, and
/// what was fixed and what could not be. Files are written only when the call says `apply: true`,
/// and only inside PATH's folder, itself inside the server's root.
fn fix(server: &Server, args: FixArgs) -> Result<Vec<String>, String> {
    if !args.apply {
        return Err("`fix` writes files: call it with `apply: true` (the `check` tool lists each finding's fix without writing)".into());
    }
    let path = crate::discover::agent_folder(&confined(server, &args.path, false)?);
    let session = server.session(&[]);
    let options = Options::default();
    let mut fixing = crate::review::fixes::fix_in(&path, args.unsafe_fixes, || crate::lint::check(&path, &options, &session));
    crate::lint::group::group(&mut fixing.report.diagnostics);
    let report = crate::report::formats::json::render(&fixing.report, fixing.report.outcome().exit_code());
    let mut notes = vec![format!("{} fixed ({} remaining)", fixing.fixed.len(), fixing.report.diagnostics.len())];
    notes.extend(fixing.failed.iter().map(|(file, why)| format!("cannot fix `{file}`: {why}")));
    notes.extend(fixing.skipped.iter().map(|s| format!("fix not applied in `{}` (it overlaps another fix): {}", s.file, s.title)));
    Ok(vec![report, notes.join("\n")])
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SimulateArgs {
    path: Option<Name>,
    workload: Option<Name>,
    transcript: Option<Name>,
    mode: Option<Name>,
    scenario: Option<Name>,
    model: Option<Name>,
}

/// `ctxc simulate PATH --workload W|--transcript T [--mode M] [--scenario S] [--model MODEL]
/// --format json`; both files confined to the server's root.
fn simulate(server: &Server, args: SimulateArgs) -> Result<Vec<String>, String> {
    use crate::simulate::replay::{self, Input, SimulateJson};
    let path = confined(server, &args.path, false)?;
    let file = match (&args.workload, &args.transcript) {
        (Some(_), Some(_)) | (None, None) => return Err("give one of `workload` and `transcript`".into()),
        (workload, transcript) => confined(server, if workload.is_some() { workload } else { transcript }, false)?,
    };
    let shown = file.display().to_string();
    let input = match args.workload {
        Some(_) => Input::Workload(&file),
        None => Input::Transcript(&file, crate::conversation::DEFAULT_SUMMARY_CHARS),
    };
    let failed = |failure: Failure| diagnostics_text(&failure.diagnostics, &failure.sources);
    let (conversation, sources) = replay::read(input, &shown).map_err(failed)?;
    let manifests = crate::discover::find_manifests(&path).map_err(|d| diagnostics_text(&[d], &Sources::default()))?;
    let model = name(&args.model);
    let overrides: Vec<String> = model.map(|m| format!("agent.model={}", toml::Value::String(m.into()))).into_iter().collect();
    let session = server.session(&overrides);
    let only = Only { mode: name(&args.mode), scenario: name(&args.scenario) };
    let replays = replay::replay(&session, &manifests, only, &conversation, &shown, &sources);
    if let Some(failure) = replays.failure {
        return Err(failed(failure));
    }
    let json = json_text(&SimulateJson { overrides: &[], model, simulations: &replays.simulations });
    let mut texts = vec![json];
    let conversation_warnings = Failure { diagnostics: conversation.warnings, sources };
    let warnings = std::iter::once(conversation_warnings).chain(replays.warnings).filter(|w| !w.diagnostics.is_empty());
    texts.extend(warnings.map(|w| diagnostics_text(&w.diagnostics, &w.sources)));
    Ok(texts)
}

//! TPL002: a template variable that is not defined.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::manifest::model::{ModuleFiles, TextFile};
use crate::memo::{Cache, Kind};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A template (or a file it includes) uses a variable that is not defined: not one of `agent`, `mode`, `scenario`, `flags`, `tools`, `tools_description`, `vars` nor a scenario's sample `vars`, or an undeclared `vars.NAME`, `flags.NAME` or `agent.FIELD`.",
    why: "Templates run with strict undefined variables, so rendering stops at the first one. A variable inside a branch \
          that no mode renders today (`{% if mode == \"review\" %}`) is a failure waiting for the first mode or \
          scenario that takes the branch; the static check finds it in every branch, before any render takes it.",
    fails: Example { file: "prompts/intro.md.j2", text: "You are {{ agent.name }}, working for {{ vars.company }}.\n" },
    passes: Example { file: "prompts/intro.md.j2", text: "You are {{ agent.name }}, working for {{ vars.company }}.\n\n# with, in ctxc.toml:\n# [vars]\n# company = \"Acme\"\n" },
    notes: "When the manifest loads, a static pass over every template and the files it includes lists every top-level \
            variable that some scenario does not provide, each at its first use in the file that reads it, with the \
            include chain, and stops loading (exit 2). A render that meets an undefined attribute stops with this code \
            too, at the line of the file (included or not) that reads it, reported once. The lint check finds \
            undeclared `vars.NAME`, `flags.NAME` and `agent.FIELD`.",
    stage: Stage::LoadOrLint(check),
};

use crate::templates::CONTEXT as TOP_LEVEL;
/// Functions minijinja provides.
const GLOBALS: [&str; 3] = ["range", "dict", "namespace"];
const AGENT_FIELDS: [&str; 3] = ["name", "description", "model"];

/// The variables a template reads without setting them, sorted (`None` when it does not
/// compile). Kept per content: the agents of a project share their templates.
fn undeclared_variables(cache: &Cache, file: &TextFile) -> Option<Arc<[String]>> {
    cache.get_or_insert(Kind::TemplateVariables, file.text.hash(), || {
        let env = crate::templates::environment();
        let (names, _) = crate::templates::within_limits(|| {
            env.template_from_named_str(&file.path, &file.text).map(|template| template.undeclared_variables(true))
        });
        let mut names: Vec<String> = names.ok()?.into_iter().collect();
        names.sort();
        Some(names.into())
    })
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let Some(agent) = cx.agent() else { return Vec::new() };
    let mut templates: Vec<&TextFile> = Vec::new();
    for module in agent.modules.values() {
        match module {
            ModuleFiles::Single(f) => templates.push(f),
            ModuleFiles::Variants(files) => templates.extend(files.values()),
        }
    }
    templates.extend(agent.modes.values().filter_map(|m| m.prompt.as_ref()));
    templates.retain(|f| f.template);
    templates.sort_by(|a, b| a.path.cmp(&b.path));
    templates.dedup_by(|a, b| a.path == b.path);
    let flags: BTreeSet<&str> = agent.scenarios.values().flat_map(|s| s.flags.keys().map(String::as_str)).collect();
    let mut findings = Vec::new();
    for file in templates {
        let Some(names) = undeclared_variables(cx.root.cache(), file) else { continue };
        for name in names.iter() {
            let (top, field) = match name.split_once('.') {
                Some((top, rest)) => (top, Some(rest.split('.').next().unwrap_or(rest))),
                None => (name.as_str(), None),
            };
            let problem = if GLOBALS.contains(&top) {
                continue;
            } else if agent.scenarios.values().any(|s| s.vars.contains_key(top)) {
                // A runtime variable with sample values: the load checks every scenario has one.
                continue;
            } else if !TOP_LEVEL.contains(&top) {
                let mut p = format!("`{top}` is not a template variable (templates can use {})", TOP_LEVEL.join(", "));
                if let Some(s) = crate::diagnostic::did_you_mean(top, TOP_LEVEL) {
                    p = format!("`{top}` is not a template variable: did you mean `{s}`?");
                }
                p
            } else if let Some(field) = field {
                match top {
                    "vars" if !agent.vars.contains_key(field) => format!("`vars.{field}` is not set under [vars]"),
                    "flags" if !flags.contains(field) => format!("`flags.{field}` is not declared under [flags]"),
                    "agent" if !AGENT_FIELDS.contains(&field) => {
                        format!("`agent.{field}` does not exist (agent has name, description and model)")
                    }
                    _ => continue,
                }
            } else {
                continue;
            };
            let display = cx.display(&file.path);
            let span = crate::templates::first_read(&file.text, top, field);
            findings.push(
                Diagnostic::finding(format!("template {} uses an undefined variable: {problem}", file.path))
                    .in_file(display)
                    .at(span)
                    .label("undefined")
                    .help("templates can use agent.name, agent.description, agent.model, mode, scenario, flags, tools, tools_description and vars.NAME"),
            );
        }
    }
    findings
}

//! GEMINI015: a `contextFileName` of `gemini-extension.json` that names no file of the extension.

use serde_json::Value;

use crate::agent_files::FileKind;
use crate::rules::json_span::{at_value, json_docs, Step};
use crate::rules::prelude::*;
use crate::rules::refs::{resolve, Resolved};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A `contextFileName` of a Gemini CLI extension names a file that is not in the extension's folder.",
    why: "Gemini CLI adds an extension's context files (`contextFileName`, a name or a list, `GEMINI.md` when absent) \
          from the extension's folder, and leaves out without a word those that do not exist: the instructions the \
          extension was written to give the model are not given. Source: \
          google-gemini/gemini-cli:packages/cli/src/config/extension-manager.ts@bc7b3739 (`getContextFileNames`, \
          `loadExtension`).",
    fails: Example {
        file: "gemini-extension.json",
        text: "{\n  \"name\": \"release-notes\",\n  \"version\": \"1.0.0\",\n  \"contextFileName\": \"CONTEXT.md\"\n}\n",
    },
    passes: Example { file: "gemini-extension.json", text: "{\n  \"name\": \"release-notes\",\n  \"version\": \"1.0.0\"\n}\n" },
    notes: "A missing `GEMINI.md` when `contextFileName` is absent is not reported: an extension need not have context.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::GeminiExtension]) {
        let Ok(Value::Object(manifest)) = &*json else { continue };
        let names: Vec<(Option<usize>, &str)> = match manifest.get("contextFileName") {
            Some(Value::String(name)) => vec![(None, name.as_str())],
            Some(Value::Array(items)) => items.iter().enumerate().filter_map(|(i, v)| Some((Some(i), v.as_str()?))).collect(),
            _ => continue,
        };
        let dir = doc.rel.rsplit_once('/').map_or("", |(d, _)| d);
        for (index, name) in names {
            let Resolved::Missing(rel) = resolve(cx, dir, name) else { continue };
            let path: Vec<Step> = std::iter::once(Step::Key("contextFileName")).chain(index.map(Step::Index)).collect();
            findings.push(at_value(
                Diagnostic::finding(format!("context file `{rel}` does not exist: Gemini CLI loads no context from it"))
                    .label("no such file")
                    .help(format!("add `{name}` beside {}, or fix the name", doc.rel)),
                doc,
                &path,
            ));
        }
    }
    findings
}

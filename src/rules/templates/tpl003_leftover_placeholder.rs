//! TPL003: a single-brace placeholder left in the rendered prompt.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use regex::Regex;

use crate::manifest::model::StepKind;
use crate::memo::{Cache, Kind, SharedText};
use crate::rules::markdown::prose;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A prompt section still contains a single-brace placeholder such as `{tools_description}` after rendering.",
    why: "Prompts ported from Python (`str.format`) use `{name}` placeholders; ctxc's templates use `{{ name }}`, and only \
          in files marked as templates. A `{tools_description}` that nothing fills reaches the model literally, and \
          the tool list it stood for is missing.",
    fails: Example { file: "prompts/tools.md", text: "## Tools\n\nYou can call these tools:\n\n{tools_description}\n" },
    passes: Example { file: "prompts/tools.md.j2", text: "## Tools\n\nYou can call these tools:\n\n{{ tools_description }}\n" },
    notes: "Module, mode-prompt and text sections are checked; code blocks and inline code are skipped, and so are data \
            sections (memory, skills, tool descriptions, scenario files), which may legitimately hold braces.",
    stage: Stage::Lint(check),
};

static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\{([A-Za-z_][A-Za-z0-9_]*)\}").expect("constant pattern")); // ok: literal

/// Where single-brace placeholders are in a text, outside code. Kept per content: sections
/// repeat across modes and agents.
fn placeholders(cache: &Cache, text: &SharedText) -> Arc<[Range<usize>]> {
    cache.get_or_insert(Kind::Placeholders, text.hash(), || {
        let masked = prose(cache, text);
        let bytes = masked.as_bytes();
        PLACEHOLDER
            .find_iter(&masked)
            .filter(|m| !((m.start() > 0 && bytes[m.start() - 1] == b'{') || bytes.get(m.end()) == Some(&b'}')))
            .map(|m| m.range())
            .collect()
    })
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut seen = BTreeSet::new();
    let mut findings = Vec::new();
    for run in cx.runs() {
        for section in &run.rendered.sections {
            if !matches!(section.kind, StepKind::Module | StepKind::ModePrompt | StepKind::Text) {
                continue;
            }
            for range in placeholders(cx.root.cache(), &section.text).iter() {
                let placeholder = &section.text[range.clone()];
                let preferred: Vec<String> = section.sources.iter().map(|s| cx.display(s)).collect();
                let place = locate::in_sources(cx.sources, &preferred, placeholder);
                let key = (place.as_ref().map(|(f, _)| f.clone()).unwrap_or_default(), placeholder.to_string());
                if !seen.insert(key) {
                    continue;
                }
                let name = &placeholder[1..placeholder.len() - 1];
                let d = Diagnostic::finding(format!(
                    "`{placeholder}` is left in the prompt of step `{}` ({} mode): nothing fills single-brace placeholders",
                    section.id, run.rendered.mode
                ))
                .label("unfilled placeholder")
                .help(format!("in a template (`.j2` or `template = true`) write `{{{{ {name} }}}}`; otherwise remove it"));
                findings.push(match place {
                    Some((file, span)) => d.in_file(file).at(Some(span)),
                    None => d,
                });
            }
        }
    }
    findings
}

//! SKILL019: a bundled document reached only through another bundled document.

use std::collections::HashMap;

use crate::memo::SharedText;
use crate::rules::markdown::written_for_people;
use crate::rules::prelude::*;
use crate::rules::refs::{Bundle, Mentioners};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A bundled Markdown document is mentioned only by another bundled document, not by SKILL.md (a reference chain more than one level deep).",
    why: "The specification asks: \"Keep file references one level deep from `SKILL.md`. Avoid deeply nested \
          reference chains\" (Agent Skills specification, https://agentskills.io/specification#file-references; \
          /work/shared/corpus/spec/agentskills-specification.mdx). Agents read referenced files on demand and often \
          only partly; a document found only through another one is easily never read.",
    fails: Example {
        file: "skills/api-client/SKILL.md",
        text: "---\nname: api-client\ndescription: Call the billing API. Use when the user asks about invoices.\n---\nSee [the API guide](references/api.md).\n\n# references/api.md links to references/errors.md\n",
    },
    passes: Example {
        file: "skills/api-client/SKILL.md",
        text: "---\nname: api-client\ndescription: Call the billing API. Use when the user asks about invoices.\n---\nSee [the API guide](references/api.md) and [the error codes](references/errors.md).\n",
    },
    notes: "Only Markdown documents (`.md`, `.mdx`) are checked, not READMEs, changelogs or licences: scripts importing helper modules are \
            normal. A document mentioned by no file at all is SKILL018's. What counts as mentioning a file is SKILL018's \
            list: SKILL.md listing a rule document by id (`` `route-templates` ``) reaches it in one level. When the \
            document that mentions it is not mentioned by SKILL.md either, the message says so rather than \
            counting two levels. A SKILL.md whose folder is a project (a Git work tree, a folder holding `.github/` or \
            `.claude-plugin/`, or one holding other skills) bundles only its `scripts/`, `references/` and `assets/`: \
            the project's documentation is not the skill's.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let bundle = Bundle::of(cx, &skill.rel);
        let files: Vec<&str> = bundle.files.iter().map(|f| f.rel.as_str()).filter(|rel| is_document(rel)).collect();
        if files.is_empty() {
            continue;
        }
        // Text 0 is SKILL.md, then the bundle's documents in order.
        let documents: Vec<&(String, SharedText)> = bundle.texts.iter().filter(|(rel, _)| is_document(rel)).collect();
        let texts: Vec<&str> = std::iter::once(&*skill.text).chain(documents.iter().map(|(_, text)| &**text)).collect();
        let own: HashMap<&str, usize> = documents.iter().enumerate().map(|(i, (rel, _))| (rel.as_str(), i + 1)).collect();
        let mentioners = Mentioners::new(cx.root.cache(), &texts, &files);
        for rel in files {
            let me = own.get(rel).copied();
            // The earliest text mentioning it: SKILL.md when it does (then all is well), otherwise
            // the first document naming it, or only its folder when none names it.
            let Some(first) = mentioners.first(rel, |t| Some(t) != me).filter(|t| *t > 0) else { continue };
            let named = mentioners.first_naming(rel, |t| Some(t) != me).unwrap_or(first);
            let Some(via) = named.checked_sub(1).and_then(|i| documents.get(i)) else { continue };
            let via = &via.0;
            // The document leading to it may be out of SKILL.md's reach itself (its own SKILL018
            // or SKILL019): then the chain is longer than two, if it reaches SKILL.md at all.
            let via_from_skill = mentioners.first(via, |t| t != named) == Some(0);
            let message = match via_from_skill {
                true => format!("`{rel}` is reached only through `{via}`, two levels from SKILL.md"),
                false => format!("`{rel}` is mentioned only by `{via}`, which SKILL.md does not mention either"),
            };
            let body = skill.body_start();
            findings.push(
                Diagnostic::finding(message)
                    .in_file(&skill.file)
                    .at(Some(body..body))
                    .label("nested reference")
                    .help(format!("mention `{rel}` in SKILL.md, saying when to read it")),
            );
        }
    }
    findings
}

/// Markdown documents for the agent (not the README, changelog or licence written for people).
fn is_document(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    [".md", ".mdx"].iter().any(|e| lower.ends_with(e)) && !written_for_people(rel)
}

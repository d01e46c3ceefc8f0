//! CLAUDE055: a CLAUDE.md import chain longer than Claude Code follows.

use std::collections::BTreeMap;

use crate::rules::prelude::*;
use crate::rules::refs::import_paths as imports;

/// Claude Code follows imports at most this many hops from the memory file.
const MAX_HOPS: usize = 5;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A CLAUDE.md (or CLAUDE.local.md) reaches a file through a chain of more than 5 `@path` imports.",
    why: "Imported files can import others, but Claude Code stops at a depth of 5 hops: the file at the sixth hop \
          and everything it imports is not loaded, without a warning. Flatten the chain (import the deep file from \
          nearer the top). Source: https://code.claude.com/docs/en/memory (\"imported files can recursively import \
          additional files, with a max-depth of 5 hops\").",
    fails: Example {
        file: "CLAUDE.md",
        text: "@docs/a.md\n\n(docs/a.md imports b.md, which imports c.md … down to f.md, six hops away)\n",
    },
    passes: Example { file: "CLAUDE.md", text: "@docs/a.md\n@docs/f.md\n\n(docs/a.md imports b.md … e.md; f.md is imported directly)\n" },
    notes: "Imports are found as MEM003 finds them (outside code, paths that look like files) and followed only through \
            files that exist inside the project; a cycle is not followed twice.",
    stage: Stage::Lint(check),
};

/// The imports of a project file, relative to the root (read once per file).
fn imported(cx: &Context, rel: &str, cache: &mut BTreeMap<String, Vec<String>>) -> Vec<String> {
    if let Some(found) = cache.get(rel) {
        return found.clone();
    }
    let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
    let found: Vec<String> = match cx.root.read(rel) {
        Ok(file) => imports(cx.root.cache(), &file.text)
            .into_iter()
            .filter_map(|(_, path)| cx.root.normalize(&if dir.is_empty() { path.clone() } else { format!("{dir}/{path}") }).ok())
            .filter(|p| cx.root.resolve(p).is_ok_and(|r| r.is_file()))
            .collect(),
        Err(_) => Vec::new(),
    };
    cache.insert(rel.to_string(), found.clone());
    found
}

/// The longest chain below `rel` that goes past `MAX_HOPS` (files after `rel`), if any.
fn too_deep(cx: &Context, chain: &mut Vec<String>, cache: &mut BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    if chain.len() > MAX_HOPS + 1 {
        return Some(chain.clone());
    }
    let last = chain.last().cloned().unwrap_or_default();
    for next in imported(cx, &last, cache) {
        if chain.contains(&next) {
            continue;
        }
        chain.push(next);
        let found = too_deep(cx, chain, cache);
        chain.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let mut cache = BTreeMap::new();
    for doc in cx.memory.iter().filter(|m| m.name().starts_with("CLAUDE")) {
        let dir = doc.rel.rsplit_once('/').map_or("", |(d, _)| d);
        for (range, path) in imports(cx.root.cache(), &doc.text) {
            let Ok(first) = cx.root.normalize(&if dir.is_empty() { path.clone() } else { format!("{dir}/{path}") }) else { continue };
            if !cx.root.resolve(&first).is_ok_and(|r| r.is_file()) {
                continue;
            }
            let mut chain = vec![doc.rel.clone(), first];
            let Some(deep) = too_deep(cx, &mut chain, &mut cache) else { continue };
            findings.push(
                Diagnostic::finding(format!(
                    "import chain {} is {} hops deep; Claude Code stops after {MAX_HOPS}, so `{}` is not loaded",
                    deep.join(" → "),
                    deep.len() - 1,
                    deep[deep.len() - 1]
                ))
                .in_file(&doc.file)
                .at(Some(range))
                .help("import the deep file from a file nearer the top, or merge files to shorten the chain"),
            );
        }
    }
    findings
}

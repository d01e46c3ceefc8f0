//! MEM003: an `@path` import in a memory file that does not resolve.

use crate::project::ReadError;
use crate::rules::prelude::*;
use std::collections::HashSet;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A memory file imports `@path` (Claude Code's import syntax) and the path does not exist or leaves the project.",
    why: "Claude Code replaces `@path/to/file` with that file's content; a path that does not resolve is dropped without \
          a word, so the agent runs without the rules it was meant to read (a CLAUDE.md holding only `@AGENTS.md` is \
          empty if AGENTS.md moves). Imports are resolved relative to the importing file and must stay inside the \
          project.",
    fails: Example { file: "CLAUDE.md", text: "@AGENT.md\n" },
    passes: Example { file: "CLAUDE.md", text: "@AGENTS.md\n" },
    notes: "An import is an `@` at the start of a line or after whitespace, outside code spans and blocks, followed by \
            a path that contains `/` or ends in a document extension (`.md`, `.mdx`, `.txt`, `.json`, `.yaml`, `.yml`, \
            `.toml`, `.rst`) — so `@user` mentions and `@decorator.calls` are not imports. Home-directory imports \
            (`@~/…`) are not checked. Without a manifest, an AGENTS.md is checked only when a product expands its \
            imports: a CLAUDE.md or GEMINI.md imports it, or `.gemini/settings.json` sets `context.fileName` to it \
            (Codex and Copilot read AGENTS.md as plain text, and Claude Code reads only CLAUDE.md and what it \
            imports, https://code.claude.com/docs/en/memory).",
    stage: Stage::Lint(check),
};

/// Whether `rel` is an AGENTS.md (Codex's, Copilot's: read without expanding imports).
fn is_agents_md(rel: &str) -> bool {
    rel.rsplit('/').next().is_some_and(|name| name.eq_ignore_ascii_case("AGENTS.md"))
}

/// Whether Gemini CLI's project settings make it read AGENTS.md (`context.fileName`), and so
/// expand its imports.
fn gemini_reads_agents_md(cx: &Context) -> bool {
    let Ok(file) = cx.root.read(".gemini/settings.json") else { return false };
    let Ok(settings) = crate::rules::gemini::parse_settings(&file.text) else { return false };
    let names = &settings.value["context"]["fileName"];
    let named = |v: &serde_json::Value| v.as_str().is_some_and(is_agents_md);
    named(names) || names.as_array().is_some_and(|list| list.iter().any(named))
}

/// The AGENTS.md files whose imports some product expands: with a manifest, every memory file is
/// the agent's and imported as Claude Code does; without one, an AGENTS.md that a CLAUDE.md or
/// GEMINI.md imports (directly or through other files), or every one when Gemini CLI is set to
/// read AGENTS.md.
fn expanded_agents_md(cx: &Context) -> Option<HashSet<String>> {
    if cx.agent.is_some() || !cx.memory.iter().any(|m| is_agents_md(&m.rel)) || gemini_reads_agents_md(cx) {
        return None;
    }
    let graph = crate::rules::refs::imports(cx);
    let mut reached: HashSet<String> = HashSet::new();
    let mut queue: Vec<&str> = cx.memory.iter().map(|m| m.rel.as_str()).filter(|rel| !is_agents_md(rel)).collect();
    while let Some(rel) = queue.pop() {
        for (_, _, target) in graph.edges.get(rel).into_iter().flatten() {
            if reached.insert(target.clone()) {
                queue.push(target);
            }
        }
    }
    Some(reached)
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    // `None`: every memory file's imports are expanded.
    let expanded = expanded_agents_md(cx);
    for doc in cx.memory.iter().filter(|m| !is_agents_md(&m.rel) || expanded.as_ref().is_none_or(|set| set.contains(&m.rel))) {
        let dir = doc.rel.rsplit_once('/').map_or("", |(d, _)| d);
        for (range, path) in crate::rules::refs::import_paths(cx.root.cache(), &doc.text) {
            let joined = if dir.is_empty() { path.clone() } else { format!("{dir}/{path}") };
            let problem = match cx.root.normalize(&joined).and_then(|rel| cx.root.resolve(&rel).map(|p| (rel, p))) {
                Ok((_, resolved)) if resolved.is_file() => continue,
                Ok((rel, _)) => format!("`{rel}` is not a file"),
                Err(ReadError::Escapes(_)) => "it points outside the project".to_string(),
                Err(ReadError::Missing(rel)) => format!("`{rel}` does not exist"),
                Err(e) => e.message(),
            };
            findings.push(
                Diagnostic::finding(format!("import `@{path}` in {} does not resolve: {problem}", doc.rel))
                    .in_file(&doc.file)
                    .at(Some(range))
                    .label("unresolved import")
                    .help("imports are relative to the file that holds them; fix the path or remove the import"),
            );
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_imports_but_not_mentions_or_code() {
        let text = "@AGENTS.md\nSee @docs/style.md, and ask @octocat.\nmail me@example.com\n```\n@pytest.fixture\n@x/y.md\n```\n`@a/b.md`\n@~/notes.md\n";
        let paths: Vec<String> =
            crate::rules::refs::import_paths(&crate::memo::Cache::default(), text).into_iter().map(|(_, p)| p).collect();
        assert_eq!(paths, ["AGENTS.md", "docs/style.md"]);
        let (range, _) = &crate::rules::refs::import_paths(&crate::memo::Cache::default(), text)[0];
        assert_eq!(&text[range.clone()], "@AGENTS.md");
    }
}

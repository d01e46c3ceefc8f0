//! The memory files one agent loads together, and the directives in them. Claude Code loads
//! every CLAUDE.md and CLAUDE.local.md from the project root down to the folder it works in,
//! Codex one AGENTS.override.md or AGENTS.md per folder from the repository root down, Gemini CLI
//! every GEMINI.md on the way; `@path` imports add the files they name. A chain is the files of
//! one product on the way to one folder, with their imports.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::context::Context;
use super::refs::{self, Imports};
use crate::memo::SharedText;

/// A file of a chain.
#[derive(Debug, Clone)]
pub struct Member {
    pub rel: String,
    /// Display path.
    pub file: String,
    pub text: SharedText,
}

/// The product that loads a memory file, by its name.
fn product(name: &str) -> Option<&'static str> {
    match name {
        "CLAUDE.md" | "CLAUDE.local.md" => Some("claude"),
        "AGENTS.md" | "AGENTS.override.md" => Some("codex"),
        "GEMINI.md" => Some("gemini"),
        _ => None,
    }
}

/// The folder a memory file applies to (`.claude/CLAUDE.md` applies to the folder above `.claude`).
fn folder(rel: &str) -> &str {
    let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
    match dir.rsplit_once('/') {
        Some((parent, ".claude")) => parent,
        None if dir == ".claude" => "",
        _ => dir,
    }
}

fn is_ancestor(ancestor: &str, dir: &str) -> bool {
    ancestor.is_empty() || dir == ancestor || dir.starts_with(&format!("{ancestor}/"))
}

/// Every chain of memory files, each root first with imports after the file importing them.
pub fn chains(cx: &Context) -> Vec<Vec<Member>> {
    let graph = refs::imports(cx);
    let mut by_product: BTreeMap<&str, Vec<&crate::agent_files::MemoryDoc>> = BTreeMap::new();
    for doc in cx.memory {
        if let Some(p) = product(doc.name()) {
            by_product.entry(p).or_default().push(doc);
        }
    }
    let mut chains = Vec::new();
    for (product, docs) in by_product {
        // Codex reads one file per folder: AGENTS.override.md shadows AGENTS.md.
        let docs: Vec<_> = docs
            .iter()
            .filter(|d| {
                product != "codex"
                    || d.name() == "AGENTS.override.md"
                    || !docs.iter().any(|o| o.name() == "AGENTS.override.md" && folder(&o.rel) == folder(&d.rel))
            })
            .collect();
        let folders: BTreeSet<&str> = docs.iter().map(|d| folder(&d.rel)).collect();
        for leaf in &folders {
            let mut on_the_way: Vec<_> = docs.iter().filter(|d| is_ancestor(folder(&d.rel), leaf)).collect();
            on_the_way.sort_by_key(|d| (folder(&d.rel).len(), d.rel.clone()));
            let mut members = Vec::new();
            let mut seen = BTreeSet::new();
            for doc in on_the_way {
                add_with_imports(&graph, &doc.rel, &mut members, &mut seen);
            }
            chains.push(members);
        }
    }
    chains
}

fn add_with_imports(graph: &Imports, rel: &str, members: &mut Vec<Member>, seen: &mut BTreeSet<String>) {
    if !seen.insert(rel.to_string()) {
        return;
    }
    let Some((file, text)) = graph.files.get(rel) else { return };
    members.push(Member { rel: rel.to_string(), file: file.clone(), text: text.clone() });
    for (_, _, target) in graph.edges.get(rel).into_iter().flatten() {
        add_with_imports(graph, target, members, seen);
    }
}

/// Every pair of different files that some chain loads together, each pair once, in chain order.
pub fn pairs(chains: &[Vec<Member>]) -> Vec<(&Member, &Member)> {
    let mut seen = BTreeSet::new();
    let mut found = Vec::new();
    for chain in chains {
        for (i, a) in chain.iter().enumerate() {
            for b in &chain[i + 1..] {
                if a.rel != b.rel && seen.insert((a.rel.clone(), b.rel.clone())) {
                    found.push((a, b));
                }
            }
        }
    }
    found
}

/// A sentence of prose (outside code blocks), lowercased with emphasis and quotes removed, and
/// where it is in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    pub text: String,
    pub span: Range<usize>,
}

static SENTENCE_END: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[.!?;](?:\s|$)").expect("constant pattern")); // ok: literal

/// The sentences of a Markdown text outside code blocks and HTML comments: each line split at `.`, `!`, `?` and `;`,
/// list markers, headings and emphasis removed. Memoized by content: the agents of a project
/// share their skills and memory files, and several rules read the same sentences.
pub fn sentences(cache: &crate::memo::Cache, text: &str) -> std::sync::Arc<Vec<Sentence>> {
    cache.get_or_insert(crate::memo::Kind::Sentences, crate::memo::content_hash(text), || std::sync::Arc::new(split_sentences(cache, text)))
}

fn split_sentences(cache: &crate::memo::Cache, text: &str) -> Vec<Sentence> {
    let mut found = Vec::new();
    for (start, line) in crate::rules::markdown::prose_lines(cache, text) {
        let mut from = 0;
        let content = line.trim_end();
        let ends: Vec<usize> = SENTENCE_END.find_iter(content).map(|m| m.start() + 1).chain([content.len()]).collect();
        for end in ends {
            if end <= from {
                continue;
            }
            let piece = &content[from..end];
            let lead = piece.len() - strip_markers(piece).len();
            let clean = clean(piece);
            // `1.` of a numbered list is no sentence.
            if !clean.is_empty() && !clean.chars().all(|c| c.is_ascii_digit()) {
                found.push(Sentence { text: clean, span: start + from + lead..start + end });
            }
            from = end;
        }
    }
    found
}

/// The text after leading whitespace, heading marks, list and quote markers (`- `, `1. `, `> `).
fn strip_markers(piece: &str) -> &str {
    let mut t = piece.trim_start().trim_start_matches('#').trim_start();
    for marker in ["- [ ] ", "- [x] ", "- ", "* ", "+ ", "> "] {
        if let Some(rest) = t.strip_prefix(marker) {
            t = rest.trim_start();
        }
    }
    match t.split_once(". ") {
        Some((number, rest)) if !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) => rest.trim_start(),
        _ => t,
    }
}

/// Lowercase, without list markers, heading marks, emphasis, backticks or quotes, whitespace
/// collapsed, trailing punctuation dropped.
fn clean(piece: &str) -> String {
    let t = strip_markers(piece).trim_end();
    let text: String = t.chars().filter(|c| !matches!(c, '*' | '`' | '"' | '“' | '”' | '_')).collect();
    let text = text.to_lowercase();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    text.trim_end_matches(['.', '!', '?', ';', ':', ',']).to_string()
}

static NEGATIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:please |important: |note: )?(?:you )?(?:must not|mustn't|must never|should never|never|do not|don't|shall not)\s+(.+)$",
    )
    .expect("constant pattern") // ok: literal
});
static POSITIVE: LazyLock<Regex> = LazyLock::new(|| {
    // ok: a constant pattern, compiled whenever the tests run
    Regex::new(r"^(?:please |important: |note: )?(?:you )?(?:must always|should always|always|must)\s+(.+)$").expect("constant pattern")
    // ok: literal
}); // ok: literal

/// A directive: `true` for always/must, `false` for never/do not, and the action it is about.
pub fn directive(sentence: &str) -> Option<(bool, String)> {
    let (positive, action) = match NEGATIVE.captures(sentence) {
        Some(c) => (false, c.get(1)?.as_str()),
        None => (true, POSITIVE.captures(sentence)?.get(1)?.as_str()),
    };
    let action = action.trim().trim_start_matches("to ").trim();
    (action.split_whitespace().count() >= 2).then(|| (positive, action.to_string()))
}

/// A line as compared for duplicates: list markers, emphasis and case removed, whitespace collapsed.
pub fn normalize_line(line: &str) -> String {
    clean(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_sentences_outside_code() {
        let text = "# Rules\n\n- **Always** use `tabs`. Never commit secrets!\n```\nnever do this.\n```\n1. Do not use yarn\n";
        let found: Vec<String> = sentences(&crate::memo::Cache::default(), text).iter().map(|s| s.text.clone()).collect();
        assert_eq!(found, ["rules", "always use tabs", "never commit secrets", "do not use yarn"]);
        let s = &sentences(&crate::memo::Cache::default(), text)[2];
        assert_eq!(&text[s.span.clone()], "Never commit secrets!");
        assert_eq!(&text[sentences(&crate::memo::Cache::default(), text)[1].span.clone()], "**Always** use `tabs`.");
    }

    #[test]
    fn reads_directives() {
        assert_eq!(directive("always use tabs"), Some((true, "use tabs".into())));
        assert_eq!(directive("you must not use tabs"), Some((false, "use tabs".into())));
        assert_eq!(directive("never commit"), None);
        assert_eq!(directive("use tabs"), None);
    }
}

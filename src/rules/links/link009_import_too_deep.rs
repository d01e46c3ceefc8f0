//! LINK009: `@path` imports nested deeper than Claude Code and Gemini CLI follow.

use std::collections::{BTreeMap, VecDeque};

use crate::rules::prelude::*;
use crate::rules::refs;

/// Hops of `@path` imports Claude Code and Gemini CLI follow from a memory file.
pub const MAX_IMPORT_DEPTH: usize = 5;

pub const RULE: Rule = Rule {
    code: Code::LINK009,
    name: "import-too-deep",
    family: Family::Links,
    severity: Severity::Warning,
    summary: "An `@path` import sits more than five imports away from every memory file, deeper than Claude Code and Gemini CLI follow.",
    why: "Imported files may import others, but only five hops deep: Claude Code documents a maximum depth of 5 \
          (https://docs.anthropic.com/ja/docs/claude-code/memory), and Gemini CLI stops with \"Maximum import depth \
          (5) reached\" (`maxDepth: 5`, google-gemini/gemini-cli:packages/core/src/utils/memoryImportProcessor.ts@5411f113). \
          The file behind the sixth hop is never loaded.",
    fails: Example { file: "CLAUDE.md", text: "@docs/a.md\n\n# docs/a.md imports @b.md, b.md @c.md … f.md imports @g.md\n" },
    passes: Example { file: "CLAUDE.md", text: "@docs/a.md\n@docs/b.md\n" },
    notes: "Depth is counted from the nearest memory file (the shortest chain), so an import is reported only when no \
            memory file reaches it in five hops.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let graph = refs::imports(cx);
    let mut depth: BTreeMap<&str, usize> = cx.memory.iter().map(|m| (m.rel.as_str(), 0)).collect();
    let mut queue: VecDeque<&str> = depth.keys().copied().collect();
    while let Some(node) = queue.pop_front() {
        let next = depth[node] + 1;
        for (_, _, target) in graph.edges.get(node).into_iter().flatten() {
            if !depth.contains_key(target.as_str()) {
                depth.insert(target, next);
                queue.push_back(target);
            }
        }
    }
    let mut findings = Vec::new();
    for (node, hops) in &depth {
        // The imports of the last file loaded; files below it are never read.
        if *hops != MAX_IMPORT_DEPTH {
            continue;
        }
        let (file, _) = &graph.files[*node];
        for (range, written, _) in graph.edges.get(*node).into_iter().flatten() {
            findings.push(
                Diagnostic::warning(format!("import `@{written}` is {} hops from the nearest memory file; only {MAX_IMPORT_DEPTH} are followed", hops + 1))
                    .in_file(file)
                    .at(Some(range.clone()))
                    .label("never loaded")
                    .help("import the file from a memory file directly, or from a file fewer hops away"),
            );
        }
    }
    findings
}

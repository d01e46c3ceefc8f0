//! LINK005: `@path` imports that lead back to a file already importing them.

use std::collections::BTreeMap;

use crate::diagnostic::Related;
use crate::rules::prelude::*;
use crate::rules::refs::{self, Imports};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "Memory files import each other in a cycle (`CLAUDE.md` imports `@docs/rules.md`, which imports `@../CLAUDE.md`).",
    why: "Claude Code and Gemini CLI expand `@path` imports recursively and stop at a file already on the way: Gemini \
          CLI detects circular imports and skips them (google-gemini/gemini-cli:docs/reference/memport.md@5411f113), \
          Claude Code stops after five hops (https://docs.anthropic.com/ja/docs/claude-code/memory). Either way the \
          cycle adds nothing but a second copy or a cut-off chain, and usually means one import points the wrong way.",
    fails: Example { file: "CLAUDE.md", text: "# Project\n\n@docs/rules.md\n\n# and docs/rules.md imports @../CLAUDE.md\n" },
    passes: Example { file: "CLAUDE.md", text: "# Project\n\n@docs/rules.md\n" },
    notes: "Each cycle is reported once, at the import that closes it. Imports are found as MEM003 finds them \
            (outside code; `@` followed by a path).",
    stage: Stage::Lint(check),
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Open,
    Done,
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let graph = refs::imports(cx);
    let mut marks: BTreeMap<&str, Mark> = BTreeMap::new();
    let mut findings = Vec::new();
    for start in graph.edges.keys() {
        let mut path = Vec::new();
        visit(&graph, start, &mut marks, &mut path, &mut findings);
    }
    findings
}

fn visit<'g>(graph: &'g Imports, node: &'g str, marks: &mut BTreeMap<&'g str, Mark>, path: &mut Vec<&'g str>, out: &mut Vec<Diagnostic>) {
    if marks.contains_key(node) {
        return;
    }
    marks.insert(node, Mark::Open);
    path.push(node);
    for (range, written, target) in graph.edges.get(node).into_iter().flatten() {
        match marks.get(target.as_str()) {
            Some(Mark::Open) => {
                let from = path.iter().position(|p| *p == target).unwrap_or(0);
                let cycle: Vec<&str> = path[from..].iter().copied().chain([target.as_str()]).collect();
                let (file, _) = &graph.files[node];
                let (target_file, _) = &graph.files[target];
                out.push(
                    Diagnostic::finding(format!("import `@{written}` closes a cycle: {}", cycle.join(" → ")))
                        .in_file(file)
                        .at(Some(range.clone()))
                        .label("leads back to a file already importing this one")
                        .help("remove the import that points back up the chain")
                        .related(vec![Related { file: target_file.clone(), span: None, message: "the cycle starts here".into() }]),
                );
            }
            Some(Mark::Done) => {}
            None => visit(graph, target, marks, path, out),
        }
    }
    path.pop();
    marks.insert(node, Mark::Done);
}

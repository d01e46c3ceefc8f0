//! INSTR010: a TODO or placeholder left in an agent's instructions.

use std::ops::Range;
use std::sync::{Arc, LazyLock};

use regex::Regex;

use crate::memo::{content_hash, Cache, Kind};
use crate::rules::markdown::prose;
use crate::rules::prelude::*;
use crate::rules::refs::markdown_files;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An agent file's instructions still hold a `TODO:`/`FIXME:`/`TBD` marker or template text (`[Insert … here]`, `Lorem ipsum`).",
    why: "Everything in a memory file, rule or skill reaches the model as an instruction: a `TODO: describe the \
          deploy process` tells it nothing about deploying and invites it to do the TODO, and bracketed template \
          text is read literally. Claude Code's memory guidance asks for specific instructions (\"Use 2-space \
          indentation\" rather than \"Format code properly\", https://docs.anthropic.com/ja/docs/claude-code/memory).",
    fails: Example { file: "AGENTS.md", text: "# Deploying\n\nTODO: describe the deploy process.\n" },
    passes: Example { file: "AGENTS.md", text: "# Deploying\n\nRun `make deploy` from a clean main branch.\n" },
    notes: "Markers count at the start of a line (after a list marker): `TODO:`, `TODO(…)`, `FIXME:`, `TBD`, `XXX:`; and \
            anywhere outside code: `[Insert … here]`, `[Add … here]`, `[Your … here]`, and filler text (`Lorem ipsum dolor …`: \
            a checklist that names `Lorem ipsum` as something to remove is fine). Code blocks and spans are skipped \
            (instructions about TODO comments are fine), and so are HTML comments, which a renderer hides (a template \
            kept in a comment, fenced or not).",
    stage: Stage::Lint(check),
};

static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^[ \t]*(?:[-*+][ \t]+|\d+\.[ \t]+)?(?:\[ \][ \t]+)?((?:TODO|FIXME|XXX)(?::|\([^)]*\):?)|TBD(?-u:\b)(?::|[ \t]*$))|(?i)(\[(?:insert|add|your|describe)[^\]\n]{0,60}(?-u:\b)here\]|(?-u:\b)lorem ipsum dolor(?-u:\b))")
        .expect("constant pattern") // ok: literal
});

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for file in markdown_files(cx) {
        for m in markers(cx.root.cache(), file.text).iter() {
            let line_end = file.text[m.start..].find('\n').map_or(file.text.len(), |i| m.start + i);
            let line = file.text[m.start..line_end].trim_end();
            findings.push(
                Diagnostic::finding(format!("unfinished instruction left in the file: `{line}`"))
                    .in_file(file.file)
                    .at(Some(m.clone()))
                    .label("placeholder")
                    .help("write the instruction, or remove the line"),
            );
        }
    }
    findings
}

/// Where the markers are in a text, outside code. Kept per content: the agents of a project
/// share their skills and memory files, often as copies.
fn markers(cache: &Cache, text: &str) -> Arc<[Range<usize>]> {
    cache.get_or_insert(Kind::LeftoverMarkers, content_hash(text), || {
        let masked = prose(cache, text);
        MARKER.captures_iter(&masked).filter_map(|caps| caps.get(1).or_else(|| caps.get(2))).map(|m| m.range()).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::{markers, Cache, MARKER};

    #[test]
    fn skips_templates_in_html_comments() {
        let text =
            "# Notes\n\n<!--\n```markdown\nTODO: describe it.\n[Insert name here]\n```\n-->\nText <!-- TODO: x --> here.\n\nTODO: real.\n";
        let found = markers(&Cache::default(), text);
        assert_eq!(found.len(), 1, "only the marker outside the comments: {found:?}");
        assert!(text[found[0].start..].starts_with("TODO: real"));
    }

    #[test]
    fn finds_markers_but_not_mentions() {
        let found = |t: &str| MARKER.is_match(t);
        assert!(found("TODO: write this\n") && found("- FIXME(ana): x\n") && found("TBD\n") && found("See [Insert link here].\n"));
        assert!(
            !found("Leave TODO comments for later.\n") && !found("Use the TodoWrite tool.\n") && !found("TBD items go to the backlog.\n")
        );
        assert!(found("Lorem ipsum dolor sit amet.\n") && !found("- [ ] No placeholder text remaining (Lorem ipsum, TODO, etc.)\n"));
    }
}

//! OPENCODE005: an OpenCode agent's or command's frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::frontmatter_error;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An OpenCode agent's or command's frontmatter is not valid YAML, or is never closed.",
    why: "OpenCode parses the frontmatter of each agent and command file before it reads the body; when the YAML \
          does not parse, it tries once more with every top-level value that holds a `:` read as a block scalar \
          (`ConfigMarkdown.sanitize`, so `description: Plans: never edits` loads), and when that fails too it skips \
          the agent (logging the error) or fails to load the commands, so the file does nothing. Source: \
          `packages/opencode/src/config/agent.ts` and `command.ts`, and `packages/core/src/config/markdown.ts` in \
          anomalyco/opencode (the commits in `data/hosts/opencode.toml`; markdown.ts at 05988800).",
    fails: Example {
        file: ".opencode/agents/plan.md",
        text: "---\ndescription: Plans the change\nmode: [primary\n---\nPlan the change step by step.\n",
    },
    passes: Example {
        file: ".opencode/agents/plan.md",
        text: "---\ndescription: Plans: never edits\nmode: primary\n---\nPlan the change step by step.\n",
    },
    notes: "Other OPENCODE rules skip a file whose frontmatter does not parse as YAML, also when OpenCode's second try \
            reads it.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    [FileKind::OpencodeAgent, FileKind::OpencodeCommand]
        .into_iter()
        .flat_map(|kind| cx.files_of(kind))
        .filter(|d| !loads_after_sanitizing(&d.text))
        .filter_map(|d| {
            frontmatter_error(d, "fix the YAML where it points (or close the frontmatter with `---`); OpenCode cannot read this file")
        })
        .collect()
}

/// Whether OpenCode's second parse (`ConfigMarkdown.sanitize`) reads the frontmatter: each
/// top-level `key: value` line whose value holds a `:` and is not quoted or a block scalar
/// already is rewritten as `key: |-` with the value on the next line.
fn loads_after_sanitizing(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) else { return false };
    let Some(end) = rest.find("\n---") else { return false };
    let mut lines = Vec::new();
    for line in rest[..end].trim_end_matches('\r').split('\n').map(|l| l.trim_end_matches('\r')) {
        let key_len = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(line.len());
        let starts_key = line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        let value = line[key_len..].trim_start().strip_prefix(':').map(str::trim);
        match value {
            Some(v) if starts_key && !v.is_empty() && !matches!(v, ">" | "|") && !v.starts_with(['"', '\'']) && v.contains(':') => {
                lines.push(format!("{}: |-", &line[..key_len]));
                lines.push(format!("  {v}"));
            }
            _ => lines.push(line.to_string()),
        }
    }
    crate::yaml::frontmatter(&format!("---\n{}\n---\n", lines.join("\n"))).is_ok()
}

#[cfg(test)]
mod tests {
    use super::loads_after_sanitizing;

    #[test]
    fn values_with_colons_load_as_opencode_retries_them() {
        assert!(loads_after_sanitizing("---\ndescription: Writes the Refs: footer\nmode: subagent\n---\nbody\n"));
        assert!(loads_after_sanitizing("---\r\ndescription: a: b\r\n---\r\n"));
        assert!(!loads_after_sanitizing("---\ndescription: fine\nmode: [primary\n---\n"), "not a colon: still broken");
        assert!(!loads_after_sanitizing("---\ndescription: \"a: b\nmode: x\n---\n"), "a quoted value is left as it is");
        assert!(!loads_after_sanitizing("---\ndescription: never closed\n"));
    }
}

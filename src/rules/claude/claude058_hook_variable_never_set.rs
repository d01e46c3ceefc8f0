//! CLAUDE058: a hook command reading an environment variable Claude Code never sets.

use crate::rules::claude::hook_commands;
use crate::rules::prelude::*;

/// Variables hook commands in the wild read but Claude Code does not set, with where the value
/// really is.
const NEVER_SET: [(&str, &str); 1] = [("CLAUDE_FILE_PATHS", "`jq -r '.tool_input.file_path'` on the JSON the hook reads from stdin")];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A hook command reads `$CLAUDE_FILE_PATHS`, a variable Claude Code never sets.",
    why: "Claude Code passes a hook what it is about as JSON on stdin (`tool_name`, `tool_input.file_path`, …); the \
          only variables it sets for hooks are `CLAUDE_PROJECT_DIR`, `CLAUDE_PLUGIN_ROOT`, `CLAUDE_ENV_FILE` (some \
          events) and `CLAUDE_CODE_REMOTE`. `$CLAUDE_FILE_PATHS`, copied from early blog posts, expands to nothing: \
          `prettier --write $CLAUDE_FILE_PATHS` formats nothing (or, with some tools, the whole tree), and a guard \
          checking it never sees a file. Source: https://code.claude.com/docs/en/hooks (hook input; environment \
          variables).",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Edit|Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"npx prettier --write $CLAUDE_FILE_PATHS\"}]}\n    ]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Edit|Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"jq -r '.tool_input.file_path' | xargs npx prettier --write\"}]}\n    ]\n  }\n}\n",
    },
    notes: "Hook commands in settings files and in skill, subagent and command frontmatter are checked.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for hook in hook_commands(cx) {
        for (name, instead) in NEVER_SET {
            for form in [format!("${{{name}}}"), format!("${name}")] {
                for (i, _) in hook.command.match_indices(&form) {
                    // `$CLAUDE_FILE_PATHS_X` is another variable.
                    let next = hook.command[i + form.len()..].chars().next();
                    if next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                        continue;
                    }
                    let span = hook.exact_start.map(|s| s + i..s + i + form.len()).or_else(|| hook.span.clone());
                    findings.push(
                        Diagnostic::finding(format!("`{form}` is never set by Claude Code: the hook gets an empty value"))
                            .in_file(&hook.doc.file)
                            .at(span)
                            .help(format!("read the path with {instead}")),
                    );
                }
            }
        }
    }
    findings
}

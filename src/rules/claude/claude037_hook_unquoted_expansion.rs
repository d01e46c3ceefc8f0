//! CLAUDE037: a hook command that expands a path variable without quotes.

use std::ops::Range;

use crate::diagnostic::{Edit, Fix};
use crate::rules::claude::hook_commands;
use crate::rules::prelude::*;

/// Variables that hold a directory, whatever is appended to them.
const PATH_VARIABLES: [&str; 4] = ["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "HOME", "PWD"];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A hook command (in settings, or in a skill's, subagent's or command's frontmatter `hooks`) uses a path from a variable (`$CLAUDE_PROJECT_DIR/…`, `${CLAUDE_PLUGIN_ROOT}/…`) outside double quotes.",
    why: "The shell splits an unquoted expansion at spaces. In a checkout under `/Users/Ana Lima/code`, \
          `$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh` runs `/Users/Ana` with an argument — the hook fails on that \
          machine only, and a `PreToolUse` guard that fails does not block anything. The docs quote it: \
          `\"\\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/check-style.sh\"`. Source: https://code.claude.com/docs/en/hooks \
          (\"Project-specific hook scripts\").",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"$CLAUDE_PROJECT_DIR/.claude/hooks/lint.sh\"}]}\n    ]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/lint.sh\"}]}\n    ]\n  }\n}\n",
    },
    notes: "Reported: `$VAR` or `${VAR}` outside quotes when the word goes on with a path (`/…`) or the variable is \
            `CLAUDE_PROJECT_DIR`, `CLAUDE_PLUGIN_ROOT`, `HOME` or `PWD`. Hooks in frontmatter (a plugin skill's \
            `hooks:` running `${CLAUDE_PLUGIN_ROOT}/scripts/…`) are checked the same way. In a settings file the attached \
            safe fix wraps the whole word in double quotes (escaped inside the JSON string); in YAML there is no fix, \
            since the value may need requoting too.",
    stage: Stage::Lint(check),
};

/// Unquoted path expansions in a shell command: (range of the whole word, variable name).
pub fn unquoted_paths(command: &str) -> Vec<(Range<usize>, &str)> {
    let b = command.as_bytes();
    let (mut out, mut i, mut quote, mut word_start) = (Vec::new(), 0, None::<u8>, 0);
    while i < b.len() {
        let c = b[i];
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(b'"'), b'\\') | (None, b'\\') => i += 1,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>') => word_start = i + 1,
            (None, b'$')
                if i == word_start
                    || b[word_start..i].iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'/' || *c == b'.') =>
            {
                let braced = b.get(i + 1) == Some(&b'{');
                let name_start = i + 1 + braced as usize;
                let name_len = b[name_start..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
                let name = &command[name_start..name_start + name_len];
                let after = name_start + name_len + braced as usize;
                if name_len > 0 && !name.as_bytes()[0].is_ascii_digit() && !command[word_start..i].contains('=') {
                    let word_end = after + b[after..].iter().take_while(|c| !b" \t\n;&|()<>".contains(c)).count();
                    let word = &command[word_start..word_end];
                    let path = command[after..word_end].starts_with('/');
                    if (path || PATH_VARIABLES.contains(&name)) && !word.contains(['"', '\'', '`', '\\']) {
                        out.push((word_start..word_end, name));
                    }
                    i = word_end;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for hook in hook_commands(cx) {
        for (word, name) in unquoted_paths(&hook.command) {
            let text = &hook.command[word.clone()];
            let help = match hook.in_json {
                true => format!("quote it: `\"{text}\"` (written `\\\"{text}\\\"` inside the JSON string)"),
                false => format!("quote it: `\"{text}\"` (and the whole YAML value in single quotes)"),
            };
            let d = Diagnostic::finding(format!("`{text}` expands `${name}` without quotes: a path with spaces breaks the hook"))
                .in_file(&hook.doc.file)
                .help(help);
            findings.push(match hook.exact_start {
                Some(start) => {
                    let span = start + word.start..start + word.end;
                    let d = d.at(Some(span.clone()));
                    // In YAML the quotes may need the value requoted too: no automatic edit there.
                    match hook.in_json {
                        true => d.fix(Fix::safe("quote the path", vec![Edit::replace(&hook.doc.file, span, format!("\\\"{text}\\\""))])),
                        false => d,
                    }
                }
                None => d.at(hook.span.clone()),
            });
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::claude::hook_path;

    #[test]
    fn finds_unquoted_path_expansions() {
        let words = |c: &'static str| unquoted_paths(c).into_iter().map(|(r, _)| &c[r]).collect::<Vec<_>>();
        assert_eq!(words("$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh arg"), ["$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh"]);
        assert_eq!(words("python3 ${CLAUDE_PLUGIN_ROOT}/a.py && cd $HOME"), ["${CLAUDE_PLUGIN_ROOT}/a.py", "$HOME"]);
        assert!(words("python3 \"$CLAUDE_PROJECT_DIR/.claude/x.py\"").is_empty());
        assert!(words("\"$CLAUDE_PROJECT_DIR\"/.claude/x.py").is_empty());
        assert!(words("H=$CLAUDE_PROJECT_DIR/x; echo $FOO; echo $1/x").is_empty(), "assignments, non-path variables, positionals");
    }

    #[test]
    fn the_fix_quotes_the_word_inside_the_json_string() {
        let text = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"bash $CLAUDE_PROJECT_DIR/x.sh\"}]}]}}";
        let value: serde_json::Value = serde_json::from_str(text).expect("json");
        let at = place_in(text);
        let command = value.pointer("/hooks/Stop/0/hooks/0/command").and_then(|c| c.as_str()).expect("command");
        let (word, _) = unquoted_paths(command)[0].clone();
        let mut fixed = text.to_string();
        fixed.replace_range(at + word.start..at + word.end, &format!("\\\"{}\\\"", &command[word]));
        let after: serde_json::Value = serde_json::from_str(&fixed).expect("still JSON");
        assert_eq!(after.pointer("/hooks/Stop/0/hooks/0/command").and_then(|c| c.as_str()), Some("bash \"$CLAUDE_PROJECT_DIR/x.sh\""));
        assert!(unquoted_paths("bash \"$CLAUDE_PROJECT_DIR/x.sh\"").is_empty());
    }

    fn place_in(text: &str) -> usize {
        let path = hook_path("Stop", 0, 0, "command");
        crate::rules::json_span::locate(&crate::memo::Cache::default(), text, &path).expect("found").value.start + 1
    }
}

//! SKILL024: a bundled script run with an interpreter of another language.

use std::sync::LazyLock;

use regex::Regex;

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "SKILL.md runs a bundled script with an interpreter for another language (`python scripts/build.sh`, `node scripts/x.py`).",
    why: "The agent copies the command SKILL.md gives: `python scripts/setup.sh` fails with a syntax error on the \
          first line, and the skill's step never runs. Scripts are the executable part of a skill and agents run \
          them as written (Agent Skills specification, `scripts/`, https://agentskills.io/specification#scripts).",
    fails: Example {
        file: "skills/setup/SKILL.md",
        text: "---\nname: setup\ndescription: Set up the dev environment. Use when the user clones the repo.\n---\nRun `python scripts/setup.sh`.\n",
    },
    passes: Example {
        file: "skills/setup/SKILL.md",
        text: "---\nname: setup\ndescription: Set up the dev environment. Use when the user clones the repo.\n---\nRun `bash scripts/setup.sh`.\n",
    },
    notes: "Interpreters: `python`, `python3`, `uv run`, `bash`, `sh`, `zsh`, `node`, `deno run`, `bun`, `tsx`, `ruby`. \
            Extensions: `.py`, `.sh`, `.bash`, `.js`, `.mjs`, `.cjs`, `.ts`, `.rb`.",
    stage: Stage::Lint(check),
};

static RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)(?:^|[\s`(])(python3?|uv run|bash|sh|zsh|node|deno run|bun|tsx|ruby)[ \t]+((?:\./)?(?:[A-Za-z0-9_.-]+/)*scripts/[A-Za-z0-9_./-]+\.(py|sh|bash|js|mjs|cjs|ts|rb))(?-u:\b)")
        .expect("constant pattern") // ok: literal
});

/// The language an interpreter runs and the one an extension holds.
fn language_of_interpreter(interpreter: &str) -> &'static str {
    match interpreter {
        "python" | "python3" | "uv run" => "python",
        "bash" | "sh" | "zsh" => "shell",
        "node" | "deno run" | "bun" | "tsx" => "javascript",
        _ => "ruby",
    }
}

fn language_of_extension(extension: &str) -> &'static str {
    match extension {
        "py" => "python",
        "sh" | "bash" => "shell",
        "js" | "mjs" | "cjs" | "ts" => "javascript",
        _ => "ruby",
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    // Every match names a file under `scripts/`: a skill without one is skipped cheaply.
    for skill in cx.skills.iter().filter(|s| s.text.contains("scripts/")) {
        for caps in RUN.captures_iter(&skill.text) {
            let (Some(interpreter), Some(script), Some(extension)) = (caps.get(1), caps.get(2), caps.get(3)) else { continue };
            if language_of_interpreter(interpreter.as_str()) == language_of_extension(extension.as_str()) {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!(
                    "`{}` runs `{}`, a {} script",
                    interpreter.as_str(),
                    script.as_str(),
                    language_of_extension(extension.as_str())
                ))
                .in_file(&skill.file)
                .at(Some(interpreter.start()..script.end()))
                .label("wrong interpreter")
                .help("run the script with the interpreter of its language"),
            );
        }
    }
    findings
}

//! MCP014: a server `command` holding its arguments.

use crate::diagnostic::{Edit, Fix};
use crate::rules::json_span::place;
use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server's `command` is a whole command line (`npx -y @scope/server`) instead of a program with its arguments in `args`.",
    why: "The client starts `command` as a program, without a shell: `\"command\": \"npx -y @scope/server\"` looks for a \
          program literally named `npx -y @scope/server`, which does not exist, and the server fails to start. The \
          program goes in `command` and each argument in `args`. Source: https://code.claude.com/docs/en/mcp \
          (`.mcp.json` format: `command`, `args`).",
    fails: Example { file: ".mcp.json", text: "{\n  \"mcpServers\": {\n    \"files\": {\"command\": \"npx -y @modelcontextprotocol/server-filesystem .\"}\n  }\n}\n" },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"files\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \".\"]}\n  }\n}\n",
    },
    notes: "A command whose first word is a path (`C:\\\\Program Files\\\\nodejs\\\\node.exe`) is taken as a path with \
            spaces and not reported unless the next word starts with `-`. When the server has no `args`, the attached \
            fix (unsafe: it assumes plain space-separated words) splits the command line into `command` and `args`.",
    stage: Stage::Lint(check),
};

/// The words of a command line that holds arguments; `None` for a single program (path).
fn split(command: &str) -> Option<Vec<&str>> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let (first, second) = (words.first()?, words.get(1)?);
    let path = first.contains(['/', '\\']);
    (!path || second.starts_with('-')).then_some(words)
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        let Some(command) = server.get("command").and_then(|c| c.as_str()) else { return };
        let Some(words) = split(command) else { return };
        let Some(at) = place(doc, &server_path(doc, name, &[Step::Key("command")])) else { return };
        let mut d =
            Diagnostic::finding(format!("server `{name}`: command `{command}` includes arguments; it is started as one program name"))
                .in_file(&doc.file)
                .at(Some(at.value.clone()))
                .help(format!("write `\"command\": \"{}\"` and put the rest in `\"args\"`", words[0]));
        let quoted = !command.contains(['"', '\'', '\\', '$']);
        if server.get("args").is_none() && quoted {
            let args: Vec<String> = words[1..].iter().map(|w| format!("\"{w}\"")).collect();
            let replacement = format!("\"{}\", \"args\": [{}]", words[0], args.join(", "));
            d = d.fix(Fix::unsafe_("move the arguments to `args`", vec![Edit::replace(&doc.file, at.value, replacement)]));
        }
        findings.push(d);
    });
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines() {
        assert_eq!(split("npx -y server"), Some(vec!["npx", "-y", "server"]));
        assert_eq!(split("uv"), None);
        assert_eq!(split("C:\\Program Files\\nodejs\\node.exe"), None);
        assert_eq!(split("/usr/bin/python3 -m server"), Some(vec!["/usr/bin/python3", "-m", "server"]));
    }
}

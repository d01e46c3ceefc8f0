//! GEMINI009: a tool both included and excluded.

use crate::rules::gemini::gemini_mcp_servers;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An MCP server in `.gemini/settings.json` lists the same tool in `includeTools` and `excludeTools`.",
    why: "`includeTools` keeps only the listed tools and `excludeTools` removes tools; when a tool is in both, \
          exclusion wins and the tool is unavailable, although it was explicitly included. Source: \
          google-gemini/gemini-cli:docs/reference/configuration.md@5411f113 (`mcpServers`).",
    fails: Example {
        file: ".gemini/settings.json",
        text: "{\n  \"mcpServers\": {\n    \"gh\": { \"command\": \"gh-mcp\", \"includeTools\": [\"list_issues\"], \"excludeTools\": [\"list_issues\"] }\n  }\n}\n",
    },
    passes: Example {
        file: ".gemini/settings.json",
        text: "{\n  \"mcpServers\": {\n    \"gh\": { \"command\": \"gh-mcp\", \"includeTools\": [\"list_issues\"], \"excludeTools\": [\"delete_repo\"] }\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for s in gemini_mcp_servers(cx) {
        let list = |k: &str| -> Vec<String> {
            let items = s.value.get(k).and_then(|v| v.as_array());
            items.map(|a| a.iter().filter_map(|t| t.as_str().map(str::to_string)).collect()).unwrap_or_default()
        };
        let excluded = list("excludeTools");
        for tool in list("includeTools").into_iter().filter(|t| excluded.contains(t)) {
            let finding = Diagnostic::finding(format!("MCP server `{}` both includes and excludes tool `{tool}`; it is excluded", s.name))
                .label("excluded here")
                .help("remove the tool from one of the two lists");
            findings.push(s.report(finding, Some("excludeTools")));
        }
    }
    findings
}

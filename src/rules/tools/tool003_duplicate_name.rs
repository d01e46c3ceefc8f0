//! TOOL003: two tools with one name.

use crate::memo::KeyMap;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Two tools have the same name, in one category or across categories.",
    why: "The model calls tools by name. Providers reject a request with two tools of one name, and where they do not, \
          the call goes to whichever definition the framework registers last. Two categories that both define \
          `search` (say, web search and an MCP server) collide as soon as a mode enables both.",
    fails: Example {
        file: "ctxc.toml",
        text: "[[tools.web.tool]]\nname = \"search\"\ndescription = \"Search the web.\"\n\n[[tools.docs.tool]]\nname = \"search\"\ndescription = \"Search the docs.\"\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[[tools.web.tool]]\nname = \"web_search\"\ndescription = \"Search the web.\"\n\n[[tools.docs.tool]]\nname = \"docs_search\"\ndescription = \"Search the docs.\"\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let all = cx.tools();
    // Per run, how many enabled tools have each name: built only when a name repeats.
    let mut callable: Option<Vec<KeyMap<&str, usize>>> = None;
    let mut findings = Vec::new();
    for (j, i) in crate::tools::repeated_names(all.iter().map(|(_, tool)| tool.tool.name.as_str())) {
        let (category, tool) = all[i];
        let name = tool.tool.name.as_str();
        let (first_category, first_tool) = all[j];
        let callable = callable.get_or_insert_with(|| {
            cx.runs()
                .iter()
                .map(|run| {
                    let mut counts: KeyMap<&str, usize> = KeyMap::default();
                    for d in run.rendered.tools.iter().filter(|d| d.enabled) {
                        *counts.entry(d.name.as_str()).or_default() += 1;
                    }
                    counts
                })
                .collect()
        });
        let together = cx.runs().iter().zip(callable.iter()).find(|(_, counts)| counts.get(name).is_some_and(|&n| n > 1));
        let when = match together {
            Some((run, _)) => format!("; both are callable in {} mode (scenario `{}`)", run.rendered.mode, run.rendered.scenario),
            None => String::new(),
        };
        let d = Diagnostic::finding(format!(
            "tool `{}` in category `{}` has the same name as a tool in category `{}` (from {}){when}",
            tool.tool.name, category.name, first_category.name, first_tool.source
        ))
        .label("second definition")
        .help("give each tool a unique name (e.g. prefix it with its category or server)");
        findings.push(locate::at(d, locate::tool(cx, tool)));
    }
    findings
}

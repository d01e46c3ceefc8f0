//! TOOL003: two tools with one name.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::TOOL003,
    name: "duplicate-name",
    family: Family::Tools,
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
    let mut findings = Vec::new();
    for (i, (category, tool)) in all.iter().enumerate() {
        let Some((first_category, first)) = all[..i].iter().find(|(_, t)| t.tool.name == tool.tool.name) else { continue };
        let together = cx.runs().iter().find(|run| {
            run.rendered.tools.iter().filter(|d| d.enabled && d.name == tool.tool.name).count() > 1
        });
        let when = match together {
            Some(run) => format!("; both are callable in {} mode (scenario `{}`)", run.rendered.mode, run.rendered.scenario),
            None => String::new(),
        };
        let d = Diagnostic::error(format!(
            "tool `{}` in category `{}` has the same name as a tool in category `{}` (from {}){when}",
            tool.tool.name, category.name, first_category.name, first.source
        ))
        .label("second definition")
        .help("give each tool a unique name (e.g. prefix it with its category or server)");
        findings.push(locate::at(d, locate::tool(cx, tool)));
    }
    findings
}

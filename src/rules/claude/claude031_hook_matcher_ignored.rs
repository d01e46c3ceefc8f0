//! CLAUDE031: a hook `matcher` on an event that has no matcher.

use crate::diagnostic::{Edit, Fix};
use crate::rules::claude::hook_docs;
use crate::rules::json_span::Step;
use crate::rules::json_span::{place, remove_member};
use crate::rules::prelude::*;

/// Events that run on every occurrence: a matcher is not consulted.
const NO_MATCHER: [&str; 3] = ["UserPromptSubmit", "Stop", "SubagentStop"];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A hook group on `UserPromptSubmit`, `Stop` or `SubagentStop` has a `matcher`, which those events ignore.",
    why: "Matchers select tools (`PreToolUse`, `PostToolUse`, …) or a trigger (`SessionStart`: `startup`, `resume`…). \
          `UserPromptSubmit`, `Stop` and `SubagentStop` have nothing to match: their hooks run every time, whatever the \
          matcher says. A hook written as `\"matcher\": \"Bash\"` on `Stop` therefore runs after every answer, not only \
          after shell commands. Source: https://code.claude.com/docs/en/hooks (\"For events like UserPromptSubmit, \
          Stop, and SubagentStop that don't use matchers, you can omit the matcher field\").",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"npm test\"}]}\n    ]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"npm test\"}]}\n    ]\n  }\n}\n",
    },
    notes: "An empty matcher (`\"\"`), `*` or `.*` (match everything) is not reported. The attached fix (unsafe: the hook then \
            visibly runs for everything) removes the matcher.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in hook_docs(cx) {
        let Some(events) = json.as_ref().as_ref().ok().and_then(|v| v.get("hooks")).and_then(|h| h.as_object()) else { continue };
        for event in NO_MATCHER {
            for (g, group) in events.get(event).and_then(|v| v.as_array()).into_iter().flatten().enumerate() {
                let Some(matcher) = group.get("matcher").and_then(|m| m.as_str()).filter(|m| !matches!(*m, "" | "*" | ".*")) else {
                    continue;
                };
                let Some(at) = place(doc, &[Step::Key("hooks"), Step::Key(event), Step::Index(g), Step::Key("matcher")]) else { continue };
                let mut d =
                    Diagnostic::finding(format!("`{event}` hooks ignore `matcher`; `{matcher}` does not limit when this hook runs"))
                        .in_file(&doc.file)
                        .at(at.key.clone())
                        .help("remove the matcher, or filter inside the hook script");
                if let Some(span) = remove_member(&doc.text, &at) {
                    d = d.fix(Fix::unsafe_("remove the matcher", vec![Edit::replace(&doc.file, span, "")]));
                }
                findings.push(d);
            }
        }
    }
    findings
}

//! COPILOT020: a `.chatmode.md` file.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A custom chat mode is defined in `.github/chatmodes/*.chatmode.md`, the format custom agents replaced.",
    why: "VS Code 1.106 renamed chat modes to custom agents: `.github/agents/NAME.agent.md`. Chat mode files are still \
          read for compatibility, but new fields and GitHub.com's coding agent use the agent format. Sources: \
          https://code.visualstudio.com/docs/copilot/chat/chat-modes; \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example { file: ".github/chatmodes/planner.chatmode.md", text: "---\ndescription: Plans changes\n---\nPlan first.\n" },
    passes: Example { file: ".github/agents/planner.agent.md", text: "---\ndescription: Plans changes\n---\nPlan first.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CopilotAgent).filter(|d| d.name().ends_with(".chatmode.md")) {
        let stem = doc.name().trim_end_matches(".chatmode.md");
        findings.push(
            Diagnostic::finding(format!("{} is a chat mode, the old format of custom agents", doc.rel))
                .in_file(&doc.file)
                .at(Some(0..0))
                .help(format!("move it to `.github/agents/{stem}.agent.md`")),
        );
    }
    findings
}

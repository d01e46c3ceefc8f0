//! Host files read as their host reads them (issue 44): the shapes a host rejects, folders
//! reached through symbolic links, and the files of the newer host kinds.

use crate::common::project;
use ctxc::diagnostic::Severity;
use ctxc::lint::Options;

/// `(code, severity, file, line)` of every finding of `report`, sorted.
fn findings(report: &ctxc::lint::CheckReport) -> Vec<(String, Severity, String, usize)> {
    let mut out: Vec<_> = report
        .diagnostics
        .iter()
        .filter_map(|d| {
            let (file, span) = (d.file.clone()?, d.span.clone()?);
            let line = report.sources.line_col(&file, span.start).map_or(0, |(l, _)| l);
            Some((d.code?.to_string(), d.severity, file, line))
        })
        .collect();
    out.sort();
    out
}

fn check(dir: &std::path::Path) -> ctxc::lint::CheckReport {
    ctxc::lint::check(dir, &Options::default(), &ctxc::Session::default())
}

#[test]
fn a_claude_style_tools_string_in_an_opencode_agent_is_an_error_not_a_deprecation() {
    // The shape of PoorDevSkills' 40 agents (docs/lint-precision.md, fifth sample).
    let dir = project(&[(
        ".opencode/agents/porter.md",
        "---\ndescription: Ports modules\nmode: subagent\ntools: Read, Write, Edit, Grep, Glob, Bash\n---\nPort the module.\n",
    )]);
    let got = findings(&check(dir.path()));
    let file = dir.path().join(".opencode/agents/porter.md").display().to_string();
    let opencode: Vec<_> = got.iter().filter(|f| f.0.starts_with("OPENCODE")).collect();
    assert_eq!(opencode, [&("OPENCODE001".to_string(), Severity::Error, file, 4)], "{got:?}");
}

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

/// A symbolic link at `path` (relative to `dir`) to `target` (as written in the link).
fn link(dir: &std::path::Path, path: &str, target: &str) {
    let at = dir.join(path);
    std::fs::create_dir_all(at.parent().expect("a parent")).expect("mkdir");
    std::os::unix::fs::symlink(target, at).expect("symlink");
}

#[test]
fn host_folders_reached_through_links_are_read_and_broken_or_outside_links_reported() {
    // enkinex-aiops and PoorDevSkills keep their OpenCode agents and commands in a shared folder
    // and link `.opencode/agent` and `.opencode/command` to it; OpenCode scans with `symlink: true`.
    let outside = project(&[("commands/leak.md", "---\ndescription: x\nsecret-field: 1\n---\nOutside.\n")]);
    let dir = project(&[
        ("shared/agents/plan.md", "---\ndescription: Plans\nmode: Primary\n---\nPlan first.\n"),
        ("skills/review/SKILL.md", "---\nname: review\ndescription: Reviews code. Use when asked to review.\n---\nReview.\n"),
    ]);
    link(dir.path(), ".opencode/agent", "../shared/agents");
    // PoorDevSkills: `.opencode/agents -> ../agents/opencode`, which does not exist.
    link(dir.path(), ".opencode/agents", "../agents/opencode");
    link(dir.path(), ".opencode/commands", &outside.path().join("commands").display().to_string());
    // Fisherk2: a Windsurf rule that is a link to a SKILL.md is read by Windsurf as a rule.
    link(dir.path(), ".windsurf/rules/review.md", "../../skills/review/SKILL.md");
    let report = check(dir.path());
    let got = findings(&report);
    let at = |rel: &str| dir.path().join(rel).display().to_string();
    assert!(got.contains(&("OPENCODE001".into(), Severity::Error, at(".opencode/agent/plan.md"), 3)), "{got:?}");
    assert!(got.contains(&("WINDSURF003".into(), Severity::Warning, at(".windsurf/rules/review.md"), 2)), "{got:?}");
    let warned = |code: &str, rel: &str| {
        report.diagnostics.iter().any(|d| d.code.is_some_and(|c| c.as_str() == code) && d.file.as_deref() == Some(&at(rel)))
    };
    assert!(warned("MAN002", ".opencode/agents"), "{:?}", report.diagnostics);
    assert!(warned("MAN003", ".opencode/commands"), "{:?}", report.diagnostics);
    // Nothing outside the root is read.
    assert!(report.diagnostics.iter().all(|d| !d.message.contains("secret-field")), "{:?}", report.diagnostics);
    assert!(report.sources.iter_shared().all(|(path, _)| !path.contains("leak")));
}

#[test]
fn a_windsurf_workflow_is_measured_in_characters_and_an_opencode_jsonc_read_as_opencode_reads_it() {
    // 12,000 characters of two bytes each: at the limit, not over it (24,000 bytes).
    let at_limit = "é".repeat(12_000);
    let over = format!("{at_limit}x");
    let dir = project(&[
        (".windsurf/workflows/at-limit.md", &at_limit),
        (".windsurf/workflows/over.md", &over),
        // Comments and a trailing comma: OpenCode reads this file.
        ("opencode.jsonc", "{\n  // model\n  \"model\": \"x/y\",\n}\n"),
        // A single-quoted string (JSON5): OpenCode's reader refuses it.
        ("web/.opencode/opencode.json", "{ 'model': \"x/y\" }\n"),
    ]);
    let got = findings(&check(dir.path()));
    let at = |rel: &str| dir.path().join(rel).display().to_string();
    let ours: Vec<_> = got.iter().filter(|f| f.0.starts_with("WINDSURF") || f.0.starts_with("OPENCODE")).collect();
    assert_eq!(
        ours,
        [
            &("OPENCODE006".to_string(), Severity::Error, at("web/.opencode/opencode.json"), 1),
            &("WINDSURF005".to_string(), Severity::Warning, at(".windsurf/workflows/over.md"), 1),
        ],
        "{got:?}"
    );
}

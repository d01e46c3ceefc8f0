//! The library API for a team's own snapshot tests: `ctxc::snapshot_text` renders one agent,
//! mode and scenario to the prompt with its token table, ready for `insta::assert_snapshot!` (here
//! through this test binary's `assert_snapshot!`, which keeps the snapshots in `tests/snapshots/`).
//! This file is the example the README points to.

use std::path::Path;

#[test]
fn zeus_plan_mode_prompt_and_tokens() {
    let text = ctxc::snapshot_text(Path::new("examples/agents/zeus/ctxc.toml"), "plan", None)
        .unwrap_or_else(|failure| panic!("{:?}", failure.diagnostics));
    assert_snapshot!(text);
}

#[test]
fn a_named_scenario_and_an_estimating_model() {
    let text = ctxc::snapshot_text(Path::new("examples/agents/support-triage/ctxc.toml"), "reply", Some("default"))
        .unwrap_or_else(|failure| panic!("{:?}", failure.diagnostics));
    assert!(text.starts_with("support-triage · reply mode · scenario default · claude"), "{text}");
    assert!(text.contains(" ~"), "estimates carry a ~");
    // And the system prompt its band, as `ctxc cost` shows it.
    let prompt_line = text.lines().find(|l| l.contains("system prompt")).expect("the system prompt's line");
    assert!(prompt_line.contains(" ~") && prompt_line.contains("(±10 %: "), "{prompt_line}");
}

#[test]
fn bad_input_is_a_failure_with_diagnostics_not_a_panic() {
    let failure = ctxc::snapshot_text(Path::new("examples/agents/zeus/ctxc.toml"), "plam", None).expect_err("unknown mode");
    assert!(failure.diagnostics[0].message.contains("plam"), "{:?}", failure.diagnostics);
    let failure = ctxc::snapshot_text(Path::new("tests/fixtures/errors/unknown-key/ctxc.toml"), "default", None).expect_err("bad manifest");
    assert!(failure.diagnostics[0].span.is_some());
}

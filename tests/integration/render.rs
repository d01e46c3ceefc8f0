//! Render snapshots: every example agent and render fixture, in every mode and scenario, plus
//! the behaviour the Zeus preset promises.

use std::path::Path;

use ctxc::render::Rendered;

/// The prompt, then the step and tool decisions, as one reviewable text.
fn snapshot_text(rendered: &Rendered) -> String {
    let mut out = String::new();
    out.push_str("---- steps\n");
    for s in &rendered.steps {
        let on = if s.enabled { "on " } else { "off" };
        out.push_str(&format!("{:>2} {:<14} {on} {}\n", s.step, s.id, s.reason));
    }
    out.push_str("---- tools\n");
    for t in &rendered.tools {
        let status = match (&t.reason, t.placeholder) {
            (None, _) => "callable".to_string(),
            (Some(r), true) => format!("placeholder: {r}"),
            (Some(r), false) => format!("off: {r}"),
        };
        out.push_str(&format!("{}/{} ({}) {status}\n", t.category, t.name, t.access));
    }
    out.push_str("---- sections\n");
    for s in &rendered.sections {
        out.push_str(&format!("{:>2} {} [{}]\n", s.step, s.id, s.sources.join(", ")));
    }
    out.push_str("---- prompt\n");
    out.push_str(&rendered.prompt());
    out
}

fn snapshot_every_mode(manifest: &Path) {
    let loaded = ctxc::manifest::load(manifest).unwrap_or_else(|f| panic!("{}: {:?}", manifest.display(), f.diagnostics));
    for mode in loaded.agent.modes.keys() {
        for scenario in loaded.agent.scenarios.keys() {
            let rendered =
                ctxc::render_mode(manifest, mode, Some(scenario)).unwrap_or_else(|f| panic!("{mode}/{scenario}: {:?}", f.diagnostics));
            assert_snapshot!(format!("{}-{mode}-{scenario}", loaded.agent.name), snapshot_text(&rendered));
        }
    }
}

#[test]
fn example_agents() {
    // `**`: the Zeph example's agent sits two levels below its project root.
    insta::glob!("../../examples/agents", "**/ctxc.{toml,yaml}", snapshot_every_mode);
}

#[test]
fn render_fixtures() {
    insta::glob!("../fixtures/render", "*/ctxc.{toml,yaml}", snapshot_every_mode);
}

const ZEUS: &str = "examples/agents/zeus/ctxc.toml";

fn zeus(mode: &str, scenario: &str) -> Rendered {
    ctxc::render_mode(Path::new(ZEUS), mode, Some(scenario)).unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
}

fn ids(rendered: &Rendered) -> Vec<&str> {
    rendered.sections.iter().map(|s| s.id.as_str()).collect()
}

#[test]
fn zeus_plan_follows_the_zeus_order() {
    let plan = zeus("plan", "default");
    assert_eq!(ids(&plan), ["core", "soul", "tools", "workflow", "memory", "mode", "time", "skills"]);
    let numbers: Vec<usize> = plan.sections.iter().map(|s| s.step).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert!(plan.sections[3].sources == ["prompts/workflow/planning.md"], "plan uses the planning workflow");
    assert!(plan.sections[5].sources == ["prompts/modes/plan_mode.md"]);
}

#[test]
fn zeus_connected_adds_steps_9_to_15() {
    let connected = zeus("agent", "connected");
    let numbers: Vec<usize> = connected.sections.iter().map(|s| s.step).collect();
    assert_eq!(numbers, (1..=15).collect::<Vec<_>>());
    assert!(connected.prompt().contains("## MCP server: github"));
    assert!(connected.prompt().contains("more memories not shown"), "9 memories are cut to the top 5 / 2000 characters");
}

#[test]
fn zeus_ask_mode_calls_no_writing_tool() {
    for scenario in ["default", "connected"] {
        let ask = zeus("ask", scenario);
        let writers: Vec<&str> = ask.tools.iter().filter(|t| t.enabled && t.access == "write").map(|t| t.name.as_str()).collect();
        assert!(writers.is_empty(), "{scenario}: {writers:?}");
        // Zeus lists write tools as placeholders in ask mode: named, never described.
        for tool in ["write_file", "create_issue", "memory_save", "execute_code"] {
            let listed = format!("### {tool}\n");
            if let Some(at) = ask.prompt().find(&listed) {
                assert!(
                    ask.prompt()[at + listed.len()..].starts_with("Unavailable in ask mode."),
                    "{scenario}: {tool} described in ask mode"
                );
            }
        }
    }
}

#[test]
fn zeus_agent_mode_enables_every_category_when_connected() {
    let agent = zeus("agent", "connected");
    let categories: std::collections::BTreeSet<&str> = agent.tools.iter().filter(|t| t.enabled).map(|t| t.category.as_str()).collect();
    let expected = ["browser", "builtin", "filesystem", "mcp", "memory", "oauth", "rag", "sandbox", "skills", "todo", "web_search"];
    // desktop is declared but not connected in this scenario.
    assert_eq!(categories.into_iter().collect::<Vec<_>>(), expected);
    let desktop = agent.tools.iter().find(|t| t.category == "desktop").expect("desktop tools");
    assert!(desktop.reason.as_deref().is_some_and(|r| r.contains("'desktop' in connectors")));
}

#[test]
fn data_is_never_evaluated_as_a_template() {
    let rendered = ctxc::render_mode(Path::new("tests/fixtures/render/custom-yaml/ctxc.yaml"), "edit", None)
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    // Memory file, skill description and tool description all carry `{{ 7*7 }}`.
    assert_eq!(rendered.prompt().matches("{{ 7*7 }}").count(), 3);
    assert!(!rendered.prompt().contains("49"));
    let zeus = zeus("agent", "default");
    assert!(zeus.prompt().contains("{{first_name}}"), "skill description stays literal");
}

#[test]
fn crlf_and_unicode_are_kept_verbatim() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("ctxc.toml"),
        "[agent]\nname = \"crlf\"\n[pipeline]\nsteps = [{ id = \"core\", kind = \"module\" }]\n[modules.core]\nsource = \"core.md\"\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("core.md"), "Line one\r\nZweite Zeile: straße ✓\r\n").expect("write");
    let rendered = ctxc::render_mode(&dir.path().join("ctxc.toml"), "default", None).expect("renders");
    assert_eq!(rendered.prompt(), "Line one\r\nZweite Zeile: straße ✓");
}

//! The Zeus preset against its documentation. Zeus has no public runtime, so the reference is
//! the seed page (`../shared/seeds/000_*`) and the Zeus documentation pages it links (System
//! prompt, Tools, Skills); each test names the passage it checks.

use crate::common;

use std::path::Path;

use ctxc::render::Rendered;
use ctxc::resolve::ToolDecision;

const ZEUS: &str = "examples/agents/zeus";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn render(manifest: &Path, mode: &str, scenario: &str) -> Rendered {
    let session = ctxc::Session::default();
    let loaded = session.load(manifest).unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    session.render(&loaded, mode, Some(scenario)).unwrap_or_else(|d| panic!("{d:?}"))
}

fn tool<'a>(rendered: &'a Rendered, name: &str) -> &'a ToolDecision {
    rendered.tools.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no tool {name}"))
}

fn skills_section(rendered: &Rendered) -> &str {
    &rendered.sections.iter().find(|s| s.id == "skills").expect("a skills section").text
}

/// A Zeus agent with the given skills (`(folder, SKILL.md)`) and scenario lines.
fn zeus_project(skills: &[(&str, &str)], scenario: &str) -> tempfile::TempDir {
    let variants = "{ variants = { full = \"core.md\", simplified = \"core.md\", planning = \"core.md\" } }";
    let modules = format!(
        "core = {{ source = \"core.md\" }}\nsoul = {{ source = \"core.md\" }}\ntools = {{ source = \"core.md\" }}\nworkflow = {variants}\nmemory = {variants}\n"
    );
    let skill_dirs = if skills.is_empty() { "" } else { "[skills]\ndirs = [\"skills\"]\n" };
    let manifest = format!(
        "[agent]\nname = \"z\"\nmodel = \"gpt-4o\"\n[pipeline]\npreset = \"zeus\"\n[modules]\n{modules}{skill_dirs}\
         [scenarios.default]\nnow = \"2026-03-02T09:30:00Z\"\n{scenario}\n"
    );
    let mut files: Vec<(String, String)> = vec![("ctxc.toml".into(), manifest), ("core.md".into(), "You are Zeus.\n".into())];
    files.extend(skills.iter().map(|(folder, text)| (format!("skills/{folder}/SKILL.md"), text.to_string())));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    common::project(&files)
}

// Seed, "Model Profiles": gpt-4-turbo 128,000 / 4,096; gpt-4o 128,000 / 16,384;
// claude-3-5-sonnet 200,000 / 8,192; 64,000 for a model not in the list.
#[test]
fn the_seeds_model_profiles() {
    for (model, input, output) in [("gpt-4-turbo", 128_000, 4_096), ("gpt-4o", 128_000, 16_384), ("claude-3-5-sonnet", 200_000, 8_192)] {
        let profile = ctxc::models::profile(model);
        assert!(profile.known, "{model} is in the model table");
        assert_eq!((profile.max_input_tokens, profile.max_output_tokens), (input, output), "{model}");
    }
    assert_eq!(ctxc::models::profile("zeus-unknown-model").max_input_tokens, 64_000);
}

// Tools page, "Tool Injection & Mode Filtering": "In Ask mode, write tools are replaced with
// placeholders — the Agent knows the tools exist but cannot call them". Plan mode is read-only
// without placeholders.
#[test]
fn ask_mode_lists_write_tools_as_placeholders_and_plan_mode_omits_them() {
    let manifest = repo().join(ZEUS).join("ctxc.toml");
    let ask = render(&manifest, "ask", "connected");
    let write_file = tool(&ask, "write_file");
    assert!(!write_file.enabled && write_file.placeholder, "{write_file:?}");
    assert!(ask.prompt().contains("### write_file\nUnavailable in ask mode."));
    let plan = render(&manifest, "plan", "connected");
    let write_file = tool(&plan, "write_file");
    assert!(!write_file.enabled && !write_file.placeholder, "{write_file:?}");
    assert!(!plan.prompt().contains("### write_file"));
}

// Tools page: RAG is "Read-only (search/list)" in Ask mode; the seed's RAG tool is
// search_knowledge_base. The preset takes the category's read_only list, so the tool's real name
// works.
#[test]
fn ask_mode_keeps_the_knowledge_base_search_under_its_zeus_name() {
    let ask = render(&repo().join(ZEUS).join("ctxc.toml"), "ask", "connected");
    assert!(tool(&ask, "search_knowledge_base").enabled);
    assert!(tool(&ask, "rag_list_collections").enabled);
    assert!(!tool(&ask, "rag_ingest").enabled);
}

// Seed, "Tool Description Injection": skill tools (load_skill) are always enabled; built-in
// middleware includes SubAgent and the to-do list (write_todos / read_todos, tools page).
#[test]
fn load_skill_subagent_and_todo_tools_are_on_in_every_mode() {
    let manifest = repo().join(ZEUS).join("ctxc.toml");
    for mode in ["agent", "ask", "plan"] {
        let rendered = render(&manifest, mode, "default");
        for name in ["load_skill", "task", "write_todos", "read_todos"] {
            assert!(tool(&rendered, name).enabled, "{name} in {mode} mode");
        }
    }
}

// Skills page, "Representation in System Prompt": discovery summaries as
// `<available_skills>` with one `<skill name="…">description</skill>` per skill; explicitly
// activated skills injected whole as `<activated_skill name="…">`.
#[test]
fn skills_are_listed_as_available_skills_and_activated_ones_in_full() {
    let skills = [
        ("report", "---\nname: report\ndescription: Writes reports.\n---\n\n# Report\n\nWrite it well.\n"),
        ("chart", "---\nname: chart\ndescription: Draws charts.\n---\nDraw.\n"),
    ];
    let discovery = zeus_project(&skills, "");
    let rendered = render(&discovery.path().join("ctxc.toml"), "agent", "default");
    assert_eq!(
        skills_section(&rendered),
        "<available_skills>\n<skill name=\"chart\">Draws charts.</skill>\n<skill name=\"report\">Writes reports.</skill>\n</available_skills>"
    );
    let activated = zeus_project(&skills, "active_skills = [\"report\"]");
    let rendered = render(&activated.path().join("ctxc.toml"), "agent", "default");
    assert_eq!(
        skills_section(&rendered),
        "<activated_skill name=\"report\">\n# Report\n\nWrite it well.\n</activated_skill>\n\n\
         <available_skills>\n<skill name=\"chart\">Draws charts.</skill>\n</available_skills>"
    );
}

// Skills page, "Metadata Fields": `priority` (higher values take precedence, default 0) and
// `enabled` (default true).
#[test]
fn disabled_skills_are_left_out_and_priority_orders_the_rest() {
    let skills = [
        ("a-low", "---\nname: a-low\ndescription: Low.\npriority: -1\n---\n"),
        ("b-plain", "---\nname: b-plain\ndescription: Plain.\n---\n"),
        ("c-high", "---\nname: c-high\ndescription: High.\npriority: 5\n---\n"),
        ("d-off", "---\nname: d-off\ndescription: Off.\nenabled: false\npriority: 9\n---\n"),
    ];
    let project = zeus_project(&skills, "");
    let rendered = render(&project.path().join("ctxc.toml"), "agent", "default");
    let section = rendered.sections.iter().find(|s| s.id == "skills").expect("skills");
    let names: Vec<&str> = section.text.lines().filter_map(|l| l.strip_prefix("<skill name=\"")?.split('"').next()).collect();
    assert_eq!(names, ["c-high", "b-plain", "a-low"]);
    assert!(!section.sources.iter().any(|s| s.contains("d-off")), "{:?}", section.sources);

    let only_disabled = zeus_project(&skills[3..], "");
    let rendered = render(&only_disabled.path().join("ctxc.toml"), "agent", "default");
    let step = rendered.steps.iter().find(|s| s.id == "skills").expect("skills step");
    assert!(!step.enabled && step.reason.contains("no enabled skills"), "{step:?}");
}

// Seed, "Profile & Memory Injection": at most 2000 characters of *formatted* memories: the
// `- (scope) ` prefixes and line breaks count.
#[test]
fn the_memory_limit_counts_the_formatted_lines() {
    // Two user memories whose texts are 990 characters each: 1,980 characters of text, but
    // 2 × (9 + 990) + 1 = 1,999 formatted; a third would not fit either way.
    let text = |c: char| c.to_string().repeat(990);
    let memories = serde_json::json!([
        { "text": text('a'), "similarity": 0.9, "confidence": 0.9, "scope": "user" },
        { "text": text('b'), "similarity": 0.8, "confidence": 0.8, "scope": "user" },
        { "text": "c", "similarity": 0.1, "confidence": 0.1, "scope": "user" },
    ]);
    let project = zeus_project(&[], "memories = \"memories.json\"");
    std::fs::write(project.path().join("memories.json"), memories.to_string()).expect("write");
    let rendered = render(&project.path().join("ctxc.toml"), "agent", "default");
    let section = &rendered.sections.iter().find(|s| s.id == "memories").expect("memories").text;
    let listed: Vec<&str> = section.lines().filter(|l| l.starts_with("- (")).collect();
    assert_eq!(listed.len(), 2);
    assert_eq!(listed.iter().map(|l| l.chars().count()).sum::<usize>() + 1, 1_999);
    assert!(section.contains("[1 more memories not shown"), "{}", &**section);
}

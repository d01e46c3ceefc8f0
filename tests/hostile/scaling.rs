//! Linear time by construction (issues 26 and 27): for each rule family, a hostile input of size n
//! and 2n, checked with only that family selected; the work, counted as heap allocations and bytes
//! allocated by the whole check (not clocks), may grow at most as n log n. A rule that compares
//! every file with every other one, or rescans a text per finding, allocates per pair and fails here.
//! The same for a chat template's renders of a request (issue 43), against the special tokens of
//! its tokenizer configuration and the request's tools. And memory (issue 46): the bytes an editor
//! holds after n and 2n edits.
//!
//! Allocation is a proxy for work: a loop that only compares borrowed text does not show in it.
//! The inputs are shaped so that the quadratic code paths found so far (bundle lookups, mentions,
//! link extraction, cross-file comparisons) build strings per step.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use ctxc::lint::{check, Options};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
/// Bytes allocated and not yet freed.
static HELD: AtomicI64 = AtomicI64::new(0);

// The test binary's allocator: the system's, counting what it is asked for.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        HELD.fetch_add(layout.size() as i64, Ordering::Relaxed);
        // SAFETY: the layout is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as i64, Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        HELD.fetch_add(new_size as i64 - layout.size() as i64, Ordering::Relaxed);
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Writes the files of a project (path, text) under `dir`.
fn write(dir: &Path, files: &[(String, String)]) {
    for (path, text) in files {
        let full = dir.join(path);
        std::fs::create_dir_all(full.parent().expect("a parent")).expect("mkdir");
        std::fs::write(full, text).expect("write");
    }
}

/// Allocations and bytes of one check of `files` with `family` selected.
fn work(family: &str, files: &[(String, String)]) -> (u64, u64) {
    let project = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(project.path().join(".git")).expect("mkdir");
    write(project.path(), files);
    let options = Options { select: vec![family.to_string()], ..Options::default() };
    let session = ctxc::Session::default();
    let (allocations, bytes) = (ALLOCATIONS.load(Ordering::Relaxed), BYTES.load(Ordering::Relaxed));
    let report = check(project.path(), &options, &session);
    let spent = (ALLOCATIONS.load(Ordering::Relaxed) - allocations, BYTES.load(Ordering::Relaxed) - bytes);
    assert!(!report.unloadable, "{family}: {:?}", report.diagnostics.first());
    spent
}

/// Hostile inputs of size `n`, per family.
fn input(family: &str, n: usize) -> Vec<(String, String)> {
    let front = |name: &str, description: &str| format!("---\nname: {name}\ndescription: {description}\n---\n");
    match family {
        // Many skills, each bundling scripts and references that mention each other, with bold
        // text that once read as a wildcard.
        "SKILL" => (0..n)
            .flat_map(|i| {
                let skill = format!(
                    "{}**Use the bundle** with `scripts/run{i}.py` and `references/*.md`.\n",
                    front(&format!("skill{i}"), &format!("Does task {i}. Use when the user asks for task {i}."))
                );
                [
                    (format!("skills/skill{i}/SKILL.md"), skill),
                    (format!("skills/skill{i}/scripts/run{i}.py"), format!("print({i})\n")),
                    (format!("skills/skill{i}/scripts/unused{i}.py"), "pass\n".to_string()),
                    (format!("skills/skill{i}/references/guide{i}.md"), format!("# Guide {i}\n\nSee details{i}.md.\n")),
                    (format!("skills/skill{i}/references/details{i}.md"), "# Details\n".to_string()),
                ]
            })
            .collect(),
        // Many skills, each mentioning a script it does not bundle on one of many lines: each
        // missing file was looked for in every other skill's folder.
        "SKILL017" => (0..n)
            .map(|i| {
                let lines: String = (0..8).map(|l| format!("Step {l} of task {i}.\n")).collect();
                (
                    format!("skills/k{i}/SKILL.md"),
                    format!("{}{lines}Run `python scripts/gone{i}.py`.\n", front(&format!("k{i}"), "Does a task. Use when asked.")),
                )
            })
            .collect(),
        // One skill bundling many files: a chain of references, each mentioned only by the one
        // before it, and scripts nothing mentions. Which text mentions which file was a search of
        // every text per file.
        "SKILL018" | "SKILL019" => {
            let mut files = vec![(
                "skills/big/SKILL.md".to_string(),
                format!("{}Start with `references/r0.md`.\n", front("big", "Has a big bundle. Use when asked.")),
            )];
            for i in 0..n {
                files.push((format!("skills/big/references/r{i}.md"), format!("# Part {i}\n\nThen read `references/r{}.md`.\n", i + 1)));
                files.push((format!("skills/big/scripts/s{i}.py"), format!("print({i})\n")));
            }
            files
        }
        // One skill with many fields nobody reads, each located by its key.
        "SKILL011" => {
            let fields: String = (0..n * 4).map(|i| format!("field{i}: value {i}\n")).collect();
            vec![("skills/wide/SKILL.md".to_string(), format!("---\nname: wide\ndescription: Has many fields.\n{fields}---\nBody.\n"))]
        }
        // Memory files with links to missing files, broken anchors, empty links and a run of
        // unclosed links each (small files: a large one warms the tokenizer on another thread,
        // whose allocations would count).
        "LINK" => (0..n)
            .map(|i| {
                let links =
                    format!("# Notes {i}\n\n[doc](docs/d{i}.md) [anchor](#missing-{i}) [x]() [y](../../out.md)\n{}\n", "[a](".repeat(64));
                (format!("d{i}/AGENTS.md"), links)
            })
            .collect(),
        // Imports: a chain and a fan of `@path` imports.
        "MEM" => {
            let mut files: Vec<(String, String)> = (0..n).map(|i| (format!("docs/m{i}.md"), format!("@docs/m{}.md\n", i + 1))).collect();
            files.push(("CLAUDE.md".to_string(), (0..n).map(|i| format!("@docs/m{i}.md\n")).collect()));
            files
        }
        // Cursor rules with many globs each, and legacy files beside them.
        "CURSOR" => {
            let mut files: Vec<(String, String)> = (0..n)
                .map(|i| {
                    let globs: Vec<String> = (0..8).map(|g| format!("src/{i}/**/*.{g}ts")).collect();
                    (
                        format!(".cursor/rules/r{i}.mdc"),
                        format!("---\ndescription: Rule {i}\nglobs: {}\nalwaysApply: false\n---\nUse strict mode.\n", globs.join(", ")),
                    )
                })
                .collect();
            // One hooks file with n unknown events and n hooks under a known one, half without a command.
            let unknown: Vec<String> = (0..n).map(|i| format!("\"event{i}\": [{{\"command\": \"./e{i}.sh\"}}]")).collect();
            let hooks: Vec<String> = (0..n)
                .map(|i| {
                    if i % 2 == 0 {
                        format!("{{\"command\": \".cursor/hooks/h{i}.sh\"}}")
                    } else {
                        format!("{{\"type\": \"prompt\", \"timeout\": {i}}}")
                    }
                })
                .collect();
            files.push((
                ".cursor/hooks.json".to_string(),
                format!("{{\"version\": 1, \"hooks\": {{{}, \"stop\": [{}]}}}}", unknown.join(", "), hooks.join(", ")),
            ));
            files
        }
        // Claude Code subagents and commands with tools and duplicate names.
        "CLAUDE" => (0..n)
            .flat_map(|i| {
                [
                    (
                        format!(".claude/agents/a{i}.md"),
                        format!("---\nname: agent-{}\ndescription: Reviews part {i}.\ntools: Read, Grep, LS\n---\nReview.\n", i % 7),
                    ),
                    (format!(".claude/commands/c{i}.md"), format!("---\ndescription: Command {i}\n---\nRun $ARGUMENTS for {i}.\n")),
                ]
            })
            .collect(),
        // Claude Code plugins: a marketplace listing them all, each with a manifest naming its
        // component paths, agents in both places, a hooks file and a flat server map. Which
        // plugin holds a file was a search of every plugin per file.
        "PLUGINS" => {
            let entries: Vec<String> = (0..n)
                .map(|i| format!("{{\"name\": \"p{i}\", \"source\": \"./plugins/p{i}\", \"commands\": [\"./extra/c{i}.md\"]}}"))
                .collect();
            let mut files = vec![(
                ".claude-plugin/marketplace.json".to_string(),
                format!("{{\"name\": \"m\", \"owner\": {{\"name\": \"o\"}}, \"plugins\": [{}]}}", entries.join(", ")),
            )];
            for i in 0..n {
                let dir = format!("plugins/p{i}");
                let agent = format!("---\nname: agent-{}\ndescription: Reviews part {i}.\ntools: Read, LS\n---\nReview.\n", i % 7);
                files.extend([
                    (format!("{dir}/.claude-plugin/plugin.json"), format!("{{\"name\": \"p{i}\", \"agents\": [\"./team\"]}}")),
                    (format!("{dir}/agents/a{i}.md"), agent.clone()),
                    (format!("{dir}/team/t{i}.md"), agent),
                    (format!("{dir}/extra/c{i}.md"), format!("---\ndescription: Command {i}\n---\nRun $ARGUMENTS.\n")),
                    (
                        format!("{dir}/hooks/hooks.json"),
                        "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./x.sh\"}]}]}}".into(),
                    ),
                    (
                        format!("{dir}/.mcp.json"),
                        format!("{{\"s{i}\": {{\"command\": \"node\", \"args\": [\"${{CLAUDE_PLUGIN_ROOT}}/s.js\"]}}}}"),
                    ),
                ]);
            }
            files
        }
        // Copilot prompts, instructions and agents that name each other.
        "COPILOT" => (0..n)
            .flat_map(|i| {
                [
                    (
                        format!(".github/prompts/p{i}.prompt.md"),
                        format!("---\nagent: review{}\ndescription: Prompt {i}\n---\nUse ${{input:x{i}}}.\n", i + 1),
                    ),
                    (format!(".github/instructions/i{i}.instructions.md"), format!("---\napplyTo: \"src/{i}/**\"\n---\nRule {i}.\n")),
                    (format!(".github/agents/review{i}.agent.md"), format!("---\ndescription: Agent {i}\n---\nReview.\n")),
                ]
            })
            .collect(),
        // Instructions: descriptions repeated across many files, leftover markers.
        "INSTR" => (0..n)
            .map(|i| {
                (
                    format!("skills/s{i}/SKILL.md"),
                    format!("{}TODO: finish step {i}.\nAlways use tabs. Never use tabs.\n", front(&format!("s{i}"), "Helps with things.")),
                )
            })
            .collect(),
        // Repeated paragraphs and secret-looking strings across memory files.
        "SEC" => (0..n)
            .map(|i| {
                let paragraph =
                    "This paragraph is long enough to be compared with every other paragraph of every other file in the project.";
                (format!("d{i}/AGENTS.md"), format!("{paragraph}\n\nKey {i}: AKIA{:016}\n", i))
            })
            .collect(),
        // Codex's chain: AGENTS.md in nested folders; and one config.toml with many profiles and
        // MCP servers, each with a misspelt key and a value Codex refuses.
        "CODEX" => {
            let mut files: Vec<(String, String)> = (0..n)
                .map(|i| (format!("{}/AGENTS.md", vec!["d"; i % 20 + 1].join("/") + &i.to_string()), format!("Rule {i}.\n")))
                .collect();
            let tables: String = (0..n)
                .map(|i| {
                    format!("[profiles.p{i}]\nsandbox_mode = \"workspace_write\"\nmodle = \"m{i}\"\n\n[mcp_servers.s{i}]\nargs = [\"{i}\"]\ntype = \"stdio\"\n\n")
                })
                .collect();
            files.push((".codex/config.toml".to_string(), format!("profile = \"missing\"\napproval_policy = \"sometimes\"\n\n{tables}")));
            // Custom agent files, each skipped by Codex: no instructions, a repeated nickname.
            files.extend((0..n).map(|i| {
                let nicknames: String = (0..8).map(|k| format!("\"N{}\", ", k % 7)).collect();
                (
                    format!(".codex/agents/a{i}.toml"),
                    format!("name = \"a{i}\"\ndescription = \"Agent {i}.\"\nnickname_candidates = [{nicknames}]\n"),
                )
            }));
            files
        }
        // Cline rules, each with a list of paths, some broken, and a foreign field.
        "CLINE" => (0..n)
            .map(|i| {
                let globs: String =
                    (0..8).map(|g| format!("  - \"src/{i}/**/*.{{ts,tsx{}\"\n", if g % 2 == 0 { "}" } else { "" })).collect();
                (format!(".clinerules/r{i}.md"), format!("---\npaths:\n{globs}alwaysApply: true\n---\nRule {i}.\n"))
            })
            .collect(),
        // OpenCode agents and commands, each with bad values, foreign, deprecated and overwritten
        // fields.
        "OPENCODE" => (0..n)
            .flat_map(|i| {
                let fields: String = (0..8).map(|f| format!("opt{f}: {i}\n")).collect();
                let keys: String = (0..8).map(|f| format!("  \"opt{f}\": {i},\n")).collect();
                [
                    (
                        format!(".opencode/agents/a{i}.md"),
                        format!("---\ndescription: Agent {i}\nmode: sub\ncolor: \"#{i:06}\"\nmaxSteps: 3\n{fields}---\nReview.\n"),
                    ),
                    (
                        format!(".opencode/commands/c{i}.md"),
                        format!("---\ndescription: Command {i}\ntemplate: x\n{fields}---\nRun $ARGUMENTS.\n"),
                    ),
                    // A project configuration per folder, its last member missing a comma.
                    (format!("p{i}/opencode.jsonc"), format!("{{\n  // {i}\n  \"model\": \"x/y{i}\"\n  \"share\": \"manual\",\n}}\n")),
                    // One that parses, with eight keys OpenCode does not have.
                    (format!("q{i}/opencode.json"), format!("{{\n{keys}  \"model\": \"x/y{i}\"\n}}\n")),
                ]
            })
            .collect(),
        // Windsurf rules (a bad trigger, a missing field, foreign fields), workflows and hooks.
        "WINDSURF" => (0..n)
            .flat_map(|i| {
                let fields: String = (0..8).map(|f| format!("opt{f}: {i}\n")).collect();
                let trigger = ["glob", "model_decision", "always", "manual"][i % 4];
                let events: String = (0..8).map(|e| format!("\"pre_step_{e}\": [], ")).collect();
                [
                    (format!(".windsurf/rules/r{i}.md"), format!("---\ntrigger: {trigger}\n{fields}---\nRule {i}.\n")),
                    // A workflow past the character limit, and hooks under unknown events.
                    (format!(".windsurf/workflows/w{i}.md"), "é".repeat(12_001)),
                    (format!("h{i}/.windsurf/hooks.json"), format!("{{\"hooks\": {{{events}\"pre_run_command\": []}}}}\n")),
                ]
            })
            .collect(),
        // Kiro steering files, each with a list of patterns, some broken, and foreign fields.
        "KIRO" => (0..n)
            .flat_map(|i| {
                let globs: Vec<String> = (0..8).map(|g| format!("'src/{i}/**/*.{{ts,tsx{}'", if g % 2 == 0 { "}" } else { "" })).collect();
                // A hooks file per steering file: renamed, unknown and valid triggers, actions
                // that cannot run.
                let hooks: Vec<String> = (0..8)
                    .map(|h| {
                        let trigger = ["fileEdited", "Stop", "onSave", "PreToolUse"][h % 4];
                        format!(
                            "{{\"name\": \"h{h}\", \"trigger\": \"{trigger}\", \"action\": {{\"type\": \"command\", \"run\": \"x{i}\"}}}}"
                        )
                    })
                    .collect();
                [
                    (
                        format!(".kiro/steering/s{i}.md"),
                        format!("---\ninclusion: fileMatch\nfileMatchPattern: [{}]\nglobs: x\n---\nRule {i}.\n", globs.join(", ")),
                    ),
                    (format!("k{i}/.kiro/hooks/h.json"), format!("{{\"version\": \"v1\", \"hooks\": [{}]}}\n", hooks.join(", "))),
                ]
            })
            .collect(),
        // OpenHands microagents with triggers and inputs.
        "OPENHANDS" => (0..n)
            .map(|i| {
                (
                    format!(".openhands/microagents/m{i}.md"),
                    format!("---\nname: m{i}\ntype: knowledge\ntriggers:\n- t{}\n---\nUse {{{{ X{i} }}}}.\n", i % 5),
                )
            })
            .collect(),
        // Gemini CLI and MCP: many servers in one settings file.
        "GEMINI" | "MCP" => {
            let servers: Vec<String> =
                (0..n).map(|i| format!("\"s{i}\": {{\"command\": \"npx s{i} --flag\", \"env\": {{\"K\": \"$K{i}\"}}}}")).collect();
            let json = format!("{{\"mcpServers\": {{{}}}}}", servers.join(", "));
            // An extension naming many context files it does not have.
            let names: Vec<String> = (0..n).map(|i| format!("\"docs/c{i}.md\"")).collect();
            let extension = format!("{{\"name\": \"x y\", \"version\": \"1\", \"contextFileName\": [{}]}}", names.join(", "));
            // A plugin's flat server map (no `mcpServers`), where every server's place is found.
            let flat = format!("{{{}}}", servers.join(", "));
            vec![
                (".gemini/settings.json".to_string(), json.clone()),
                (".mcp.json".to_string(), json),
                ("gemini-extension.json".to_string(), extension),
                ("plug/.claude-plugin/plugin.json".to_string(), "{\"name\": \"plug\"}".to_string()),
                ("plug/.mcp.json".to_string(), flat),
            ]
        }
        other => panic!("no input for {other}"),
    }
}

/// Set in the process that `every_rule_family_scales_at_most_n_log_n` starts for its measurement.
const MEASURING_ALONE: &str = "CTXC_SCALING_ALONE";

#[test]
fn every_rule_family_scales_at_most_n_log_n() {
    if std::env::var_os(MEASURING_ALONE).is_none() {
        measure_in_a_process_of_its_own("every_rule_family_scales_at_most_n_log_n");
        return;
    }
    const N: usize = 150;
    // n log n from n to 2n: 2 · log(2n) / log(n), about 2.3 here; a margin for fixed costs that
    // happen to fall on one side; quadratic work gives 4.
    let bound = 2.0 * ((2 * N) as f64).ln() / (N as f64).ln() * 1.2;
    let mut failures = Vec::new();
    let only = std::env::var("SCALING_SELECT").ok();
    for family in [
        "SKILL",
        "SKILL011",
        "SKILL017",
        "SKILL018",
        "SKILL019",
        "LINK",
        "MEM",
        "CURSOR",
        "CLAUDE",
        "PLUGINS",
        "COPILOT",
        "INSTR",
        "SEC",
        "CODEX",
        "KIRO",
        "CLINE",
        "OPENCODE",
        "WINDSURF",
        "OPENHANDS",
        "GEMINI",
        "MCP",
    ] {
        // Plugins are Claude Code's files: its rules and the MCP rules read them.
        let select = only.clone().unwrap_or(if family == "PLUGINS" { "CLAUDE".to_string() } else { family.to_string() });
        if only.as_ref().is_some_and(|code| !code.starts_with(family)) {
            continue;
        }
        // Once before counting: lazily built tables (patterns, statics) are not the input's work.
        work(&select, &input(family, N));
        let small = work(&select, &input(family, N));
        let large = work(&select, &input(family, 2 * N));
        let ratios = (large.0 as f64 / small.0 as f64, large.1 as f64 / small.1 as f64);
        eprintln!(
            "{family:10} allocations {:>9} → {:>9} (×{:.2}), bytes {:>11} → {:>11} (×{:.2})",
            small.0, large.0, ratios.0, small.1, large.1, ratios.1
        );
        if ratios.0 > bound || ratios.1 > bound {
            failures
                .push(format!("{family}: ×{:.2} allocations, ×{:.2} bytes for twice the input (at most ×{bound:.2})", ratios.0, ratios.1));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Allocations and bytes of a chat template's renders for a request (the system prompt, each
/// tool once and twice: two renders per tool) from a `tokenizer_config.json` holding `n`
/// special tokens, with `n / 50` tools (issue 43: 60,000 tokens and 1,200 tools took 19 s).
fn chat_template_work(n: usize) -> (u64, u64) {
    use ctxc::providers::chat_template::ChatTemplate;
    let tokens: Vec<String> = (0..n).map(|i| format!("\"t{i}\": \"<|t{i}|>\"")).collect();
    let config = format!(
        "{{\"bos_token\": \"<s>\", \"extra_special_tokens\": {{{}}}, \"chat_template\": {}}}",
        tokens.join(", "),
        serde_json::json!("{{ bos_token }}{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}{% for t in tools or [] %}{{ t.function.name }}{% endfor %}")
    );
    let tools: Vec<ctxc::tools::Tool> = (0..n / 50)
        .map(|i| ctxc::tools::Tool::new(format!("tool{i}"), format!("Does task {i}."), serde_json::json!({"type": "object"}), None))
        .collect();
    let tools: Vec<&ctxc::tools::Tool> = tools.iter().collect();
    let (allocations, bytes) = (ALLOCATIONS.load(Ordering::Relaxed), BYTES.load(Ordering::Relaxed));
    let template = ChatTemplate::from_tokenizer_config("tokenizer_config.json", &config).expect("valid").expect("a template");
    let texts = template.request_texts(&["You are terse.".to_string()], Some(&tools)).expect("renders");
    let spent = (ALLOCATIONS.load(Ordering::Relaxed) - allocations, BYTES.load(Ordering::Relaxed) - bytes);
    assert_eq!(texts.each_tool.len(), n / 50);
    spent
}

/// Rendering a request through a chat template costs the tokenizer configuration once, not
/// once per render: twice the special tokens and twice the tools, twice the work (it was four
/// times: every render copied every token).
#[test]
fn chat_template_renders_scale_linearly_with_special_tokens_and_tools() {
    if std::env::var_os(MEASURING_ALONE).is_none() {
        measure_in_a_process_of_its_own("chat_template_renders_scale_linearly_with_special_tokens_and_tools");
        return;
    }
    const N: usize = 3_000;
    chat_template_work(N);
    let (small, large) = (chat_template_work(N), chat_template_work(2 * N));
    let ratios = (large.0 as f64 / small.0 as f64, large.1 as f64 / small.1 as f64);
    eprintln!("allocations {} → {} (×{:.2}), bytes {} → {} (×{:.2})", small.0, large.0, ratios.0, small.1, large.1, ratios.1);
    assert!(ratios.0 < 2.4 && ratios.1 < 2.4, "×{:.2} allocations, ×{:.2} bytes for twice the tokens and tools", ratios.0, ratios.1);
}

/// Runs the test `test` again in a process of its own with one test thread: the allocator counts
/// the whole process, and this binary's other tests allocate on their own threads.
fn measure_in_a_process_of_its_own(test: &str) {
    let module = module_path!().split_once("::").map_or(module_path!(), |(_, inside)| inside);
    let name = format!("{module}::{test}");
    let output = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([name.as_str(), "--exact", "--include-ignored", "--test-threads=1", "--nocapture"])
        .env(MEASURING_ALONE, "1")
        .output()
        .expect("the test binary runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    eprint!("{stderr}");
    assert!(output.status.success(), "the measurement failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("test result: ok. 1 passed"), "the measurement did not run exactly {name}:\n{stdout}");
}

/// Issue 43: a simulation counted every message of every request at every call, so a history no
/// policy trims cost the square of its length (a 60-byte workload: 86 s). Each message is now
/// counted once, as it is stored: twice the turns ask the counter for twice the bytes (a
/// counted text is found again by its hash, which reads all of it). The agent has no
/// `[history]` or `[summarization]`, so every request holds the whole history.
#[test]
fn a_simulation_counts_each_message_once() {
    let project = tempfile::tempdir().expect("tempdir");
    let files = [
        ("ctxc.toml".to_string(), "[agent]\nname = \"demo\"\n\n[modules.core]\nsource = \"core.md\"\n".to_string()),
        ("core.md".to_string(), "You answer questions.\n".to_string()),
    ];
    write(project.path(), &files);
    let session = ctxc::Session::default();
    let runs = session.run(&project.path().join("ctxc.toml"), ctxc::session::Only::default()).expect("the agent loads");
    let run = runs.runs.first().expect("a mode");
    let asked = |turns: usize| {
        let spec = format!("turns = {turns}\nuser_chars = 300\nassistant_chars = 600\ntool_calls = 1\ntool_result_chars = 900\n");
        let conversation = ctxc::conversation::workload("w.toml", &spec).expect("a valid workload");
        let before = session.counter().bytes_asked();
        let mut budget = ctxc::simulate::Budget::default();
        let simulation =
            ctxc::simulate::simulate(&runs.loaded.agent, &run.rendered, &run.measured, session.counter(), &conversation, &mut budget)
                .expect("within the budget");
        assert_eq!(simulation.calls.len(), 2 * turns);
        session.counter().bytes_asked() - before
    };
    let (small, large) = (asked(200), asked(400));
    eprintln!("simulate: bytes asked of the counter {small} → {large} (×{:.2})", large as f64 / small as f64);
    assert!(large as f64 <= 2.2 * small as f64, "twice the turns asked for {large} bytes, after {small}: counted per call, not once");
}

/// Issue 46: a JSON report masked each string it wrote with six regex passes, each allocating
/// its captures, and copied the string twice (collected, then quoted): about a tenth of `ctxc
/// cost --format json` on a large project went there. A string that holds no secret (names,
/// numbers, methods: almost all of them) now costs no allocation: the formatter reuses its
/// buffers and one pass of all the patterns at once rules the string out.
#[test]
fn writing_a_json_report_allocates_nothing_per_plain_string() {
    if std::env::var_os(MEASURING_ALONE).is_none() {
        measure_in_a_process_of_its_own("writing_a_json_report_allocates_nothing_per_plain_string");
        return;
    }
    const N: usize = 20_000;
    let strings: Vec<String> =
        (0..N).map(|i| format!("tool_{i:05}_deploy reads the warehouse table of region {} and writes nothing", i % 7)).collect();
    let mut out = Vec::with_capacity(8 << 20);
    // Once first, so that the patterns are compiled and the buffers grown before counting.
    ctxc::report::escape::write_json(&mut out, &strings[..10]).expect("written");
    out.clear();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    ctxc::report::escape::write_json(&mut out, &strings).expect("written");
    let spent = ALLOCATIONS.load(Ordering::Relaxed) - before;
    eprintln!("write_json of {N} plain strings: {spent} allocations");
    assert!(spent < (N / 100) as u64, "{spent} allocations for {N} strings: allocated per string");
    // The output is the strings' JSON, unchanged.
    let text = String::from_utf8(out).expect("UTF-8");
    assert_eq!(serde_json::from_str::<Vec<String>>(&text).expect("JSON"), strings);
}

/// Bytes read from the sources ([`ctxc::diagnostic::Sources::work`]) and bytes allocated by
/// each output format reporting `n` findings of one rule on the one line of a minified
/// Markdown file (a line that grows with `n`).
fn one_line_report_work(n: usize) -> Vec<(&'static str, u64, u64)> {
    use ctxc::report::formats::{self, Paths};
    type Format = fn(&ctxc::lint::CheckReport) -> String;
    let formats: [(&str, Format); 6] = [
        ("text", |r| ctxc::report::diagnostics::render(&r.diagnostics, &r.sources, false)),
        ("concise", formats::concise::render),
        ("json", |r| ctxc::report::escape::json(&formats::json::render(r, 1)).into_owned()),
        ("sarif", |r| ctxc::report::escape::json(&formats::sarif::render(r, &Paths::default())).into_owned()),
        ("github", |r| formats::github::annotations(r, &Paths::default())),
        ("step summary", |r| formats::github::summary(r, &Paths::default())),
    ];
    let link = "[é00000](missing.md) ";
    let line: String = (0..n).map(|i| format!("[é{i:05}](missing.md) ")).collect();
    let mut report = ctxc::lint::CheckReport::default();
    report.sources.insert("AGENTS.md", &line);
    for i in 0..n {
        let at = i * link.len();
        let d = ctxc::diagnostic::Diagnostic::finding("broken link").in_file("AGENTS.md").at(Some(at + 1..at + 8));
        report.diagnostics.push(d.code(ctxc::codes::Code::LINK001));
    }
    formats
        .into_iter()
        .map(|(name, render)| {
            let (read, bytes) = (report.sources.work(), BYTES.load(Ordering::Relaxed));
            render(&report);
            (name, (report.sources.work() - read) as u64, BYTES.load(Ordering::Relaxed) - bytes)
        })
        .collect()
}

/// Twice the findings on one line, about twice the work in every format, counted in bytes read
/// from the sources and bytes allocated. SARIF's fingerprint read (and copied) the whole line
/// for each finding: four times the work.
#[test]
fn many_findings_on_one_long_line_are_reported_in_linear_work() {
    if std::env::var_os(MEASURING_ALONE).is_none() {
        measure_in_a_process_of_its_own("many_findings_on_one_long_line_are_reported_in_linear_work");
        return;
    }
    const N: usize = 2_000;
    one_line_report_work(N / 10);
    let (small, large) = (one_line_report_work(N), one_line_report_work(2 * N));
    let mut failures = Vec::new();
    for ((format, read, bytes), (_, read2, bytes2)) in small.iter().zip(&large) {
        let ratios = (*read2 as f64 / (*read).max(1) as f64, *bytes2 as f64 / (*bytes).max(1) as f64);
        eprintln!("{format:12} read {read:>11} → {read2:>11} (×{:.2}), allocated {bytes:>11} → {bytes2:>11} (×{:.2})", ratios.0, ratios.1);
        if ratios.0 > 2.3 || ratios.1 > 2.3 {
            failures.push(format!("{format}: ×{:.2} bytes read, ×{:.2} bytes allocated for twice the findings", ratios.0, ratios.1));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Bytes allocated while `ctxc mcp` answers `line`, and the answer's length.
fn mcp_work(server: &ctxc::mcp::Server, line: &str) -> (u64, usize) {
    let before = BYTES.load(Ordering::Relaxed);
    let answer = server.handle(line).expect("every hostile line is answered");
    (BYTES.load(Ordering::Relaxed) - before, answer.len())
}

/// Issue 48: a message a client sends `ctxc mcp` (nesting, long names, long lists, long paths)
/// is refused with an error whose size does not depend on it, in work linear in its length:
/// bytes allocated at most a few times the line's, and twice the line about twice the bytes.
#[test]
fn hostile_mcp_messages_are_refused_in_linear_work() {
    if std::env::var_os(MEASURING_ALONE).is_none() {
        measure_in_a_process_of_its_own("hostile_mcp_messages_are_refused_in_linear_work");
        return;
    }
    let server = ctxc::mcp::Server::new(ctxc::mcp::Setup::default()).expect("the current folder");
    let call = |arguments: serde_json::Value| {
        serde_json::json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "name": "check", "arguments": arguments } })
            .to_string()
    };
    let lines = |n: usize| -> Vec<(&str, String)> {
        vec![
            ("nesting", "[".repeat(n)),
            ("method name", format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{}"}}"#, "m".repeat(n))),
            ("tool name", format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{}"}}}}"#, "t".repeat(n))),
            ("select list", call(serde_json::json!({ "select": vec!["SKILL"; n] }))),
            ("path", call(serde_json::json!({ "path": "a/".repeat(n) }))),
            ("unknown argument", call(serde_json::json!({ "x".repeat(n): 1 }))),
        ]
    };
    // Once first: lazily built tables are not the input's work.
    for (_, line) in lines(10) {
        mcp_work(&server, &line);
    }
    let n = 100_000;
    for ((what, small), (_, large)) in lines(n).into_iter().zip(lines(2 * n)) {
        let ((bytes_n, answer_n), (bytes_2n, answer_2n)) = (mcp_work(&server, &small), mcp_work(&server, &large));
        eprintln!("mcp {what}: {} → {} bytes of line, {bytes_n} → {bytes_2n} bytes allocated", small.len(), large.len());
        assert!(answer_n < 1024 && answer_2n < 1024, "{what}: answers of {answer_n} and {answer_2n} bytes echo the input");
        assert!(bytes_2n <= 8 * large.len() as u64 + 65_536, "{what}: {bytes_2n} bytes allocated for a line of {}", large.len());
        assert!(bytes_2n as f64 <= 2.3 * bytes_n as f64 + 65_536.0, "{what}: {bytes_n} → {bytes_2n} bytes for twice the line");
    }
}

/// Issue 46: what an editor holds follows the project's texts, not the number of edits. Each edit
/// of a large module makes new large texts (the document, the agent's rendered prompt), shared
/// through weak entries (`memo::SharedText`); a weak entry kept the whole text until it was swept,
/// and a sweep came only after 8 MiB of new texts per shard: `ctxc lsp` held about 60 MiB of texts
/// no one used on the bench's project. Counted in bytes the heap holds after n and 2n edits.
#[test]
fn an_editor_holds_no_more_after_twice_the_edits() {
    if std::env::var_os(MEASURING_ALONE).is_none() {
        measure_in_a_process_of_its_own("an_editor_holds_no_more_after_twice_the_edits");
        return;
    }
    let project = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(project.path().join(".git")).expect("mkdir");
    let line = "You answer questions about the notes.\n";
    let module = line.repeat((512 << 10) / line.len());
    let files = [
        ("ctxc.toml".to_string(), "[agent]\nname = \"demo\"\n\n[modules.core]\nsource = \"core.md\"\n".to_string()),
        ("core.md".to_string(), module.clone()),
    ];
    write(project.path(), &files);
    let mut workspace = ctxc::editor::Workspace::new(project.path(), Options::default(), Vec::new());
    workspace.refresh_all();
    let mut edit = |i: usize| {
        let path = workspace.set_text(&project.path().join("core.md"), Some(format!("{module}Edit {i:03}.\n")));
        workspace.refresh(&[path]);
    };
    // A multiple of the refreshes between two sweeps of the editor's cache (`editor::SWEEP_EVERY`).
    const N: usize = 16;
    (0..N).for_each(&mut edit);
    let held_n = HELD.load(Ordering::Relaxed);
    (N..2 * N).for_each(&mut edit);
    let held_2n = HELD.load(Ordering::Relaxed);
    eprintln!("editor: {held_n} → {held_2n} bytes held after {N} → {} edits of a {} KiB module", 2 * N, module.len() >> 10);
    assert!(held_2n <= held_n + (256 << 10), "{held_n} → {held_2n} bytes held: the edits' texts are kept");
}

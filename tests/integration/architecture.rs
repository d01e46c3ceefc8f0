//! The library's modules depend on each other one way, stage by stage, as `src/lib.rs`
//! describes: a module may use a module of its own layer or a lower one, never a higher one, and
//! no two modules (nor two files or folders of one folder, at any depth) depend on each other.
//! Read from the source, comments and literals left out: every path that starts with `crate::`,
//! `super::` or `self::`, each leaf of a group `a::{b, c}` included, is a dependency on the module
//! it names.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first. Every top-level module of `src/` (but `lib`) is in exactly one.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "shared",
        &[
            "codes",
            "memo",
            "folders",
            "diagnostic",
            "project",
            "yaml",
            "places",
            "provenance",
            "models",
            "tokens",
            "tokenizer_files",
            "parallel",
            "systems",
            "runtimes",
            "tools",
            "providers",
            "counts",
            "skills",
            "hosts",
            "mcp_record",
            "agent_files",
            "templates",
        ],
    ),
    ("manifest", &["manifest", "discover", "schema"]),
    ("resolve", &["resolve"]),
    ("render", &["render"]),
    ("measure", &["measure"]),
    ("driver", &["session"]),
    ("simulate", &["conversation", "simulate"]),
    ("checks", &["rules", "checks", "lint", "hostview"]),
    ("report", &["report", "review", "import", "upstream", "scaffold", "editor", "mcp"]),
];

/// The layer of each role file of a runtime (`src/runtimes/<name>/<role>.rs`): the layer of the
/// stage that uses it. A role file is a module of its own here, in its role's layer, whatever
/// the layer of `runtimes` (the table, shared).
const RUNTIME_ROLES: &[(&str, &str)] = &[
    ("release", "shared"),
    ("window", "shared"),
    ("settings", "shared"),
    ("steps", "resolve"),
    ("measure", "measure"),
    ("checks", "checks"),
    ("policy", "simulate"),
    ("report", "report"),
    ("starter", "report"),
    ("import", "report"),
    ("upstream", "report"),
];

/// The module a path is in, for the edges between top-level modules: a runtime's role file
/// (`runtimes/zeus/steps`), or else the top-level module.
fn unit(path: &[String]) -> String {
    match path {
        [runtimes, _, _, ..] if runtimes == "runtimes" => path[..3].join("/"),
        _ => path[0].clone(),
    }
}

fn layer_of(module: &str) -> usize {
    let layer = match module.split('/').collect::<Vec<_>>()[..] {
        ["runtimes", runtime, role] => {
            RUNTIME_ROLES
                .iter()
                .find(|(r, _)| *r == role)
                .unwrap_or_else(|| panic!("src/runtimes/{runtime}/{role}.rs has no layer in RUNTIME_ROLES"))
                .1
        }
        _ => {
            LAYERS
                .iter()
                .find(|(_, modules)| modules.contains(&module))
                .unwrap_or_else(|| panic!("src/{module} belongs to no layer in LAYERS"))
                .0
        }
    };
    LAYERS.iter().position(|(name, _)| *name == layer).expect("a layer of LAYERS")
}

/// `text` with comments and string and character literals blanked, so that only code is read:
/// a `crate::x` in a comment or a message is no dependency. (Rust's delimiters are ASCII, so the
/// bytes kept are whole characters.)
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let is_ident = |at: usize| bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_';
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let (c, next) = (bytes[i], bytes.get(i + 1).copied());
        // `r"…"`, `r#"…"#` and `br"…"`, not the end of a name such as `for`.
        let raw_start = c == b'r' && (i == 0 || !is_ident(i - 1) || (bytes[i - 1] == b'b' && (i == 1 || !is_ident(i - 2))));
        let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
        let end = if c == b'/' && next == Some(b'/') {
            bytes[i..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| i + n)
        } else if c == b'/' && next == Some(b'*') {
            let (mut depth, mut j) = (0, i);
            loop {
                match (bytes.get(j), bytes.get(j + 1)) {
                    (None, _) => break j,
                    (Some(b'/'), Some(b'*')) => (depth, j) = (depth + 1, j + 2),
                    (Some(b'*'), Some(b'/')) => (depth, j) = (depth - 1, j + 2),
                    _ => j += 1,
                }
                if depth == 0 {
                    break j;
                }
            }
        } else if raw_start && bytes.get(i + 1 + hashes) == Some(&b'"') {
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let body = i + 2 + hashes;
            bytes[body..].windows(close.len()).position(|w| w == close.as_slice()).map_or(bytes.len(), |n| body + n + close.len())
        } else if c == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            j + 1
        } else if c == b'\'' && next == Some(b'\\') {
            bytes[i + 2..].iter().position(|&b| b == b'\'').map_or(bytes.len(), |n| i + 3 + n)
        } else if c == b'\'' && bytes.get(i + 2) == Some(&b'\'') {
            i + 3
        } else {
            out.push(c);
            i += 1;
            continue;
        };
        let end = end.min(bytes.len());
        out.extend(bytes[i..end].iter().map(|&b| if b == b'\n' { b'\n' } else { b' ' }));
        i = end;
    }
    String::from_utf8(out).expect("whole characters kept, the rest ASCII spaces")
}

/// A token of code: a name, `::`, or one punctuation character.
fn tokens(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut name = c.to_string();
            while let Some(&c) = chars.peek().filter(|c| c.is_alphanumeric() || **c == '_') {
                name.push(c);
                chars.next();
            }
            out.push(name);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push("::".to_string());
        } else if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    out
}

/// The module paths a path starting at `tokens[at]` names, below `prefix`: `a::b` names
/// `prefix::a::b`; a group `a::{b, c::{d, self}}` names each of its leaves; `super` steps up and
/// `crate` starts from the root.
/// Returns them and the index after the path.
fn path_tree(tokens: &[String], mut at: usize, mut prefix: Vec<String>, found: &mut Vec<Vec<String>>) -> usize {
    loop {
        match tokens.get(at).map(String::as_str) {
            Some("{") => {
                at += 1;
                while tokens.get(at).is_some_and(|t| t != "}") {
                    at = path_tree(tokens, at, prefix.clone(), found);
                    // Past a rename (`a as b`) to the next item.
                    while tokens.get(at).is_some_and(|t| t != "," && t != "}") {
                        at += 1;
                    }
                    if tokens.get(at).is_some_and(|t| t == ",") {
                        at += 1;
                    }
                }
                return at + 1;
            }
            Some("super") => {
                prefix.pop();
            }
            Some("crate") => prefix.clear(),
            Some("self") => {}
            Some(name) if name.chars().all(|c| c.is_alphanumeric() || c == '_') => prefix.push(name.to_string()),
            _ => {
                found.push(prefix);
                return at;
            }
        }
        at += 1;
        if tokens.get(at).is_some_and(|t| t == "::") {
            at += 1;
        } else {
            found.push(prefix);
            return at;
        }
    }
}

/// Every module path a source file names with `crate::`, `super::` or `self::` (groups
/// included), resolved against `module`, the file's own module path. Inside an inline
/// `mod x { … }` (a file's unit tests), `super` and `self` count from that inline module.
fn paths_used(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let tokens = tokens(&code_only(text));
    let mut found = Vec::new();
    // For each open brace, the inline module it opens (if it does).
    let mut braces: Vec<Option<String>> = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let token = tokens[at].as_str();
        let starts_path = tokens.get(at + 1).is_some_and(|t| t == "::") && (at == 0 || tokens[at - 1] != "::");
        match token {
            "{" => braces.push((at >= 2 && tokens[at - 2] == "mod").then(|| tokens[at - 1].clone())),
            "}" => {
                braces.pop();
            }
            "crate" | "super" | "self" if starts_path => {
                let here: Vec<String> = module.iter().cloned().chain(braces.iter().flatten().cloned()).collect();
                let start = if token == "crate" { Vec::new() } else { here };
                at = path_tree(&tokens, at, start, &mut found);
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    found
}

/// Module → modules it uses, at every depth: `a` uses `b` when code in `a` (or a file below it)
/// names something in `b`, for top-level modules and runtime role files (`runtimes/zeus/steps`,
/// see [`unit`]); and among the files and folders of one folder (`a/x` uses `a/y`) at any depth.
/// A module's use of its own children or parents is no edge.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let is_module = |path: &[String]| {
        let joined = path.join("/");
        src.join(format!("{joined}.rs")).is_file() || src.join(&joined).is_dir()
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in common::walk(src).into_iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
        let rel = file.strip_prefix(src).expect("inside src").with_extension("");
        let mut module: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        if module.last().is_some_and(|last| last == "mod") {
            module.pop();
        }
        if module == ["lib"] || module == ["main"] {
            continue; // the crate roots
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        edges.entry(module.join("/")).or_default();
        for used in paths_used(&text, &module) {
            // Where the two paths part: below their common parent, `from` uses its sibling `to`.
            let common = module.iter().zip(&used).take_while(|(a, b)| a == b).count();
            if common < module.len() && common < used.len() && is_module(&used[..=common]) {
                let (from, to) = if common == 0 {
                    // Between top-level modules, a runtime's role file is a module of its own.
                    (unit(&module), if is_module(&used[..used.len().min(3)]) { unit(&used) } else { used[0].clone() })
                } else {
                    (module[..=common].join("/"), used[..=common].join("/"))
                };
                edges.entry(from).or_default().insert(to);
            }
        }
    }
    edges
}

fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, bool>,
        stack: &mut Vec<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        state.insert(node.to_string(), false);
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next) {
                Some(false) => {
                    let start = stack.iter().position(|n| n == next).unwrap_or(0);
                    found.push(stack[start..].iter().cloned().chain([next.clone()]).collect());
                }
                Some(true) => {}
                None => visit(next, edges, state, stack, found),
            }
        }
        stack.pop();
        state.insert(node.to_string(), true);
    }
    let (mut state, mut found) = (BTreeMap::new(), Vec::new());
    for node in edges.keys() {
        if !state.contains_key(node) {
            visit(node, edges, &mut state, &mut Vec::new(), &mut found);
        }
    }
    found
}

#[test]
fn modules_depend_on_lower_layers_only_and_never_in_a_cycle() {
    let edges = graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let found = cycles(&edges);
    assert!(found.is_empty(), "import cycles: {found:#?}");
    let upward = upward(&edges);
    assert!(upward.is_empty(), "dependencies against the stage order: {upward:#?}");
}

/// The edges between top-level modules and runtime role files that go up a layer.
fn upward(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let is_unit = |m: &str| !m.contains('/') || (m.starts_with("runtimes/") && m.matches('/').count() == 2);
    let mut upward = Vec::new();
    for (module, uses) in edges.iter().filter(|(m, _)| is_unit(m)) {
        for used in uses.iter().filter(|u| is_unit(u)) {
            if layer_of(used) > layer_of(module) {
                upward.push(format!("{module} ({}) uses {used} ({})", LAYERS[layer_of(module)].0, LAYERS[layer_of(used)].0));
            }
        }
    }
    upward
}

#[test]
fn the_check_sees_a_cycle_and_an_upward_dependency() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path();
    std::fs::write(src.join("manifest.rs"), "use crate::render::Rendered;\n// crate::measure in a comment is no use\n").expect("write");
    std::fs::write(src.join("render.rs"), "use crate::manifest::Agent;\n").expect("write");
    let edges = graph(src);
    assert_eq!(edges["manifest"], BTreeSet::from(["render".to_string()]));
    assert_eq!(cycles(&edges).len(), 1);
    assert!(layer_of("render") > layer_of("manifest"));
}

#[test]
fn the_check_places_each_runtime_role_file_in_its_stage_layer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path();
    std::fs::create_dir_all(src.join("runtimes/zeus")).expect("mkdir");
    std::fs::write(src.join("runtimes/mod.rs"), "pub mod zeus;\n").expect("write");
    std::fs::write(src.join("runtimes/zeus/mod.rs"), "pub mod release;\npub mod steps;\n").expect("write");
    // The steps role (resolve) may use the manifest; the release role (shared) may not, nor a
    // role file of a higher layer.
    std::fs::write(src.join("runtimes/zeus/steps.rs"), "use crate::manifest::model::Agent;\n").expect("write");
    std::fs::write(src.join("runtimes/zeus/release.rs"), "use crate::manifest::Agent;\nuse super::steps::text;\n").expect("write");
    std::fs::create_dir_all(src.join("manifest")).expect("mkdir");
    std::fs::write(src.join("manifest/mod.rs"), "use crate::runtimes::PRESETS;\n").expect("write");
    std::fs::write(src.join("resolve.rs"), "use crate::runtimes::zeus::steps::missing;\n").expect("write");
    let edges = graph(src);
    assert!(cycles(&edges).is_empty(), "{:?}", cycles(&edges));
    assert_eq!(edges["resolve"], BTreeSet::from(["runtimes/zeus/steps".to_string()]));
    assert_eq!(
        upward(&edges),
        ["runtimes/zeus/release (shared) uses manifest (manifest)", "runtimes/zeus/release (shared) uses runtimes/zeus/steps (resolve)",]
    );
}

#[test]
fn the_check_reads_grouped_imports_and_ignores_comments_and_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path();
    for module in ["measure", "render", "lint", "report", "tokens"] {
        std::fs::write(src.join(format!("{module}.rs")), "").expect("write");
    }
    let text = "use crate::{render::Rendered, tokens::{self, Count as C}};\n\
                fn f() { let _ = \"crate::report\"; } /* crate::lint::x */ let _ = x; // crate::report\n";
    std::fs::write(src.join("measure.rs"), text).expect("write");
    let edges = graph(src);
    assert_eq!(edges["measure"], BTreeSet::from(["render".to_string(), "tokens".to_string()]));
}

#[test]
fn the_check_sees_a_cycle_between_siblings_at_any_depth() {
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().join("rules/claude");
    std::fs::create_dir_all(&folder).expect("mkdir");
    std::fs::write(dir.path().join("rules/mod.rs"), "pub mod claude;\n").expect("write");
    std::fs::write(folder.join("mod.rs"), "mod hooks;\nmod agents;\n").expect("write");
    std::fs::write(folder.join("hooks.rs"), "use super::{agents::Agent};\n").expect("write");
    std::fs::write(
        folder.join("agents.rs"),
        "use crate::rules::claude::hooks::Hook;\n#[cfg(test)]\nmod tests {\n    use super::Agent;\n}\n",
    )
    .expect("write");
    let edges = graph(dir.path());
    assert_eq!(edges["rules/claude/agents"], BTreeSet::from(["rules/claude/hooks".to_string()]));
    assert_eq!(cycles(&edges), [["rules/claude/agents", "rules/claude/hooks", "rules/claude/agents"]]);
}

/// The test binaries, each `tests/<name>/main.rs` (docs/architecture.md, "Tests", says what goes
/// in which). Every link target costs CI a link on two cores, so a new subject is a module of one
/// of these, not a new file `tests/<name>.rs`.
const TEST_BINARIES: [&str; 4] = ["cmd", "hostile", "integration", "runtimes"];

#[test]
fn the_tests_are_four_binaries_and_every_test_file_is_compiled() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let entries: Vec<std::path::PathBuf> = std::fs::read_dir(&tests).expect("tests/").map(|e| e.expect("entry").path()).collect();
    let loose: Vec<_> = entries.iter().filter(|p| p.extension().is_some_and(|e| e == "rs")).collect();
    assert!(loose.is_empty(), "test files outside the four binaries (make each a module of one): {loose:?}");
    let mut binaries: Vec<String> = entries
        .iter()
        .filter(|p| p.join("main.rs").is_file())
        .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
        .collect();
    binaries.sort();
    assert_eq!(binaries, TEST_BINARIES);
    // A module file its `main.rs` does not declare would never be compiled, its tests never run.
    let mut orphans = Vec::new();
    for binary in TEST_BINARIES {
        let folder = tests.join(binary);
        let main = std::fs::read_to_string(folder.join("main.rs")).expect("main.rs");
        for file in std::fs::read_dir(&folder).expect("folder").map(|e| e.expect("entry").path()) {
            let Some(module) = file.file_stem().map(|s| s.to_string_lossy().into_owned()) else { continue };
            if file.extension().is_some_and(|e| e == "rs") && module != "main" && !main.contains(&format!("mod {module};")) {
                orphans.push(file);
            }
        }
    }
    assert!(orphans.is_empty(), "module files no `main.rs` declares: {orphans:?}");
}

/// `step_text` ends with a catch-all that hands a kind to the runtime table, so the compiler no
/// longer sees a step kind without text: every kind of `StepKind` is an arm of `step_text`
/// (a generic kind) or a kind of the table's `steps` row, never both.
#[test]
fn every_step_kind_has_its_text_in_render_or_in_its_runtime() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let read = |path: &str| code_only(&std::fs::read_to_string(src.join(path)).expect("source"));
    let raw = read("manifest/raw.rs");
    let body = raw.split("pub enum StepKind {").nth(1).and_then(|rest| rest.split('}').next()).expect("StepKind in raw.rs");
    let kinds: Vec<&str> = body.split(',').map(str::trim).filter(|k| !k.is_empty()).collect();
    assert!(kinds.len() > 20, "{kinds:?}");
    let render = read("render.rs");
    let step_text = render.split("fn step_text").nth(1).and_then(|rest| rest.split("\n}\n").next()).expect("fn step_text");
    let table = read("runtimes/mod.rs");
    let steps_row = table.split("(steps $callback:ident)").nth(1).and_then(|rest| rest.split("};").next()).expect("the steps row");
    let arm = |kind: &str| tokens(step_text).windows(3).any(|w| w[0] == "StepKind" && w[1] == "::" && w[2] == kind);
    let row = |kind: &str| tokens(steps_row).windows(2).any(|w| w[0] == kind && w[1] == ":");
    let wrong: Vec<String> =
        kinds.iter().filter(|k| arm(k) == row(k)).map(|k| format!("{k}: {}", if arm(k) { "in both" } else { "in neither" })).collect();
    assert!(wrong.is_empty(), "step kinds with no text or two: {wrong:?}");
}

/// A role the table dispatches reaches a runtime only through its row: a runtime folder holds
/// `release.rs`, `steps.rs`, `settings.rs`, `checks.rs`, `policy.rs`, `report.rs` or `upstream.rs`
/// exactly when the table's row of that role names it (a row naming a missing file does not compile; a file no row names would never
/// be called).
#[test]
fn the_table_rows_are_the_runtime_role_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/runtimes");
    let table = code_only(&std::fs::read_to_string(src.join("mod.rs")).expect("runtimes/mod.rs"));
    for role in ["release", "steps", "settings", "checks", "policy", "report", "upstream"] {
        let row = table.split(&format!("({role} $callback:ident)")).nth(1).and_then(|rest| rest.split("};").next()).expect("the row");
        let named: BTreeSet<String> = tokens(row).into_iter().filter(|t| src.join(t).is_dir()).collect();
        let files: BTreeSet<String> = std::fs::read_dir(&src)
            .expect("src/runtimes")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.join(format!("{role}.rs")).is_file())
            .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
            .collect();
        assert_eq!(named, files, "the `{role}` row and the runtimes with a {role}.rs");
    }
}

/// The environment overrides read a runtime's own variables only through the table's `env`
/// row: a runtime whose `settings.rs` declares `ENV_VARS` is named by the row (a row naming a
/// runtime without them does not compile; variables no row names would never be read).
#[test]
fn every_runtime_with_variables_of_its_own_is_in_the_env_row() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let table = code_only(&std::fs::read_to_string(src.join("runtimes/mod.rs")).expect("runtimes/mod.rs"));
    let row = table.split("(env $callback:ident)").nth(1).and_then(|rest| rest.split("};").next()).expect("the env row");
    let named: BTreeSet<String> = tokens(row).into_iter().collect();
    let missing: Vec<String> = runtime_folders(&src)
        .into_iter()
        .filter(|runtime| {
            let settings = src.join("runtimes").join(runtime).join("settings.rs");
            let code = std::fs::read_to_string(settings).map(|text| code_only(&text)).unwrap_or_default();
            tokens(&code).windows(2).any(|w| w[0] == "const" && w[1] == "ENV_VARS") && !named.contains(runtime)
        })
        .map(|runtime| format!("src/runtimes/{runtime}/settings.rs declares ENV_VARS, and the `env` row does not name `{runtime}`"))
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert!(named.contains("zeph"), "Zeph's ZEPH_MEMORY_… variables: {named:?}");
}

/// The runtimes: the folders of `src/runtimes/`.
fn runtime_folders(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src.join("runtimes"))
        .expect("src/runtimes")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
        .collect()
}

/// `decide_step` (resolve) and `step_text` (render) hold only the generic step kinds: neither
/// names a runtime (a folder of `src/runtimes/`), the runtimes' settings (`agent.systems`), nor a
/// kind of the table's `steps` row; a runtime's kinds are decided and written in its folder.
#[test]
fn decide_step_and_step_text_hold_only_generic_kinds() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let body = |file: &str, function: &str| -> Vec<String> {
        let code = code_only(&std::fs::read_to_string(src.join(file)).expect("source"));
        let body = code.split(&format!("fn {function}")).nth(1).and_then(|rest| rest.split("\n}\n").next()).expect("the function");
        tokens(body)
    };
    let runtimes = runtime_folders(&src);
    assert!(runtimes.len() >= 5, "{runtimes:?}");
    let table = code_only(&std::fs::read_to_string(src.join("runtimes/mod.rs")).expect("runtimes/mod.rs"));
    let steps_row = tokens(table.split("(steps $callback:ident)").nth(1).and_then(|rest| rest.split("};").next()).expect("the steps row"));
    let runtime_kinds: BTreeSet<&String> = steps_row.windows(2).filter(|w| w[1] == ":").map(|w| &w[0]).collect();
    assert!(runtime_kinds.len() >= 10, "{runtime_kinds:?}");
    for (file, function) in [("resolve.rs", "decide_step"), ("render.rs", "step_text")] {
        let tokens = body(file, function);
        let named: Vec<&String> = tokens.iter().filter(|t| runtimes.contains(*t) || *t == "systems").collect();
        assert!(named.is_empty(), "{function} names a runtime or its settings: {named:?}");
        let kinds: Vec<&String> =
            tokens.windows(3).filter(|w| w[0] == "StepKind" && w[1] == "::" && runtime_kinds.contains(&w[2])).map(|w| &w[2]).collect();
        assert!(kinds.is_empty(), "{function} has an arm for a runtime's kind: {kinds:?}");
    }
}

/// The manifest stage and the settings stage reach a runtime's manifest section, its
/// validation and its checks only through the table's `settings` and `checks` rows, and the
/// simulate stage its context policy only through the `policy` row, `ctxc cost`'s window
/// table its rows only through the `report` row, `ctxc upstream` a runtime's reader only
/// through the `upstream` row, and the environment overrides a runtime's own variables only
/// through the `env` row: neither `fn systems` (`manifest/systems.rs`), the settings stage
/// (`checks/settings/`), a file of `simulate/`, `report/systems.rs`, `upstream.rs` nor
/// `manifest/env.rs` names a runtime (a folder of `src/runtimes/`), so a runtime's settings,
/// variables, policy, rows and reader change in its folder.
#[test]
fn runtime_settings_checks_and_policies_are_reached_only_through_the_table() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let runtimes = runtime_folders(&src);
    let code = |file: &str| code_only(&std::fs::read_to_string(src.join(file)).expect("source"));
    let systems = code("manifest/systems.rs");
    let systems = systems.split("fn systems").nth(1).and_then(|rest| rest.split("\n    }\n").next()).expect("fn systems");
    let simulate = common::walk(&src.join("simulate")).into_iter().filter(|p| p.extension().is_some_and(|e| e == "rs")).map(|p| {
        let file = p.strip_prefix(&src).expect("inside src").to_string_lossy().into_owned();
        (file.clone(), code(&file))
    });
    let stages = [
        ("manifest/systems.rs `fn systems`".to_string(), systems.to_string()),
        ("checks/settings/".to_string(), code("checks/settings/mod.rs")),
        ("report/systems.rs".to_string(), code("report/systems.rs")),
        ("upstream.rs".to_string(), code("upstream.rs")),
        ("manifest/env.rs".to_string(), code("manifest/env.rs")),
    ];
    for (what, text) in stages.into_iter().chain(simulate) {
        let named: Vec<String> = tokens(&text).into_iter().filter(|t| runtimes.contains(t)).collect();
        assert!(named.is_empty(), "{what} names a runtime instead of going through the table: {named:?}");
    }
}

/// The manifest stage's `Validator` stays a dispatcher: its `impl` blocks, in every file of
/// `src/manifest/`, hold under 800 lines together (issue 49; 1,644 before the runtimes' sections,
/// the files read and the plain sections left it). What one runtime validates is in its folder.
#[test]
fn the_manifest_validator_stays_under_800_lines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/manifest");
    let mut lines = 0;
    for file in common::walk(&dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
        let text = std::fs::read_to_string(&file).expect("source");
        let mut inside = false;
        for line in text.lines() {
            if line.starts_with("impl Validator") {
                inside = true;
            }
            if inside {
                lines += 1;
                if line == "}" {
                    inside = false;
                }
            }
        }
    }
    assert!(lines > 100, "no impl Validator found ({lines} lines)");
    assert!(lines < 800, "impl Validator spans {lines} lines: move what one runtime validates into its folder, or a focused type");
}

//! The library's modules depend on each other one way, stage by stage, as `src/lib.rs`
//! describes: a module may use a module of its own layer or a lower one, never a higher one, and
//! no two modules (nor two files of one folder) depend on each other. Read from the source: a
//! `crate::NAME` path outside comments is a dependency on NAME.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first. Every top-level module of `src/` (but `lib`) is in exactly one.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "shared",
        &[
            "codes",
            "memo",
            "diagnostic",
            "project",
            "yaml",
            "models",
            "tokens",
            "parallel",
            "systems",
            "tools",
            "providers",
            "counts",
            "skills",
            "agent_files",
            "templates",
        ],
    ),
    ("manifest", &["manifest", "discover", "schema"]),
    ("resolve", &["resolve"]),
    ("render", &["render"]),
    ("measure", &["measure"]),
    ("driver", &["session"]),
    ("checks", &["rules", "checks", "lint"]),
    ("report", &["report", "review", "import", "scaffold", "editor"]),
];

fn layer_of(module: &str) -> usize {
    LAYERS.iter().position(|(_, modules)| modules.contains(&module)).unwrap_or_else(|| panic!("src/{module} belongs to no layer in LAYERS"))
}

/// `crate::NAME` and (for files in a folder) `super::NAME` paths of a source file, comments
/// left out.
fn paths_used(text: &str, prefix: &str) -> BTreeSet<String> {
    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    code.match_indices(prefix)
        .map(|(i, _)| code[i + prefix.len()..].chars().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_').collect())
        .filter(|name: &String| !name.is_empty())
        .collect()
}

/// Module → modules it uses: the top-level modules, and the files of each folder among themselves.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in common::walk(src).into_iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
        let rel = file.strip_prefix(src).expect("inside src").with_extension("");
        let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        let top = parts[0].clone();
        if top == "lib" || top == "main" || top == "cli" {
            continue; // the crate root and the binary's own module
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        let entry = edges.entry(top.clone()).or_default();
        entry.extend(paths_used(&text, "crate::").into_iter().filter(|m| *m != top));
        // Files of one folder: `super::x` from a child file, or `crate::folder::x`.
        if parts.len() == 2 && parts[1] != "mod" {
            let me = format!("{top}/{}", parts[1]);
            let siblings = paths_used(&text, "super::").into_iter().chain(paths_used(&text, &format!("crate::{top}::")));
            let folder = src.join(&top);
            let found: BTreeSet<String> = siblings
                .filter(|s| *s != parts[1] && (folder.join(format!("{s}.rs")).is_file() || folder.join(s).is_dir()))
                .map(|s| format!("{top}/{s}"))
                .collect();
            edges.entry(me).or_default().extend(found);
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
    let mut upward = Vec::new();
    for (module, uses) in edges.iter().filter(|(m, _)| !m.contains('/')) {
        for used in uses {
            if layer_of(used) > layer_of(module) {
                upward.push(format!("{module} ({}) uses {used} ({})", LAYERS[layer_of(module)].0, LAYERS[layer_of(used)].0));
            }
        }
    }
    assert!(upward.is_empty(), "dependencies against the stage order: {upward:#?}");
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

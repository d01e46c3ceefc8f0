//! `ctxc init` and `ctxc add`: every starter, as written, passes `check` with no finding at all,
//! and so does a starter after each kind of `add`.

use crate::common;

use ctxc::lint::{check, Options};
use ctxc::scaffold::add::{add, Part};
use ctxc::scaffold::Starter;
use ctxc::Session;

fn write_starter(starter: Starter) -> tempfile::TempDir {
    let files = starter.files("demo");
    let files: Vec<(&str, &str)> = files.iter().map(|(path, text)| (*path, text.as_str())).collect();
    common::project(&files)
}

fn assert_clean(dir: &std::path::Path, what: &str) -> usize {
    let report = check(dir, &Options::default(), &Session::new(Vec::new()));
    let rendered = ctxc::report::diagnostics::render(&report.diagnostics, &report.sources, false);
    assert!(report.diagnostics.is_empty() && report.suppressed == 0, "{what}: {}\n{rendered}", report.summary());
    assert_eq!(report.agents.len(), 1, "{what}");
    report.agents[0].renders
}

#[test]
fn every_starter_passes_check_with_no_finding() {
    for starter in Starter::ALL {
        let dir = write_starter(starter);
        let renders = assert_clean(dir.path(), &format!("{starter:?}"));
        assert!(renders >= 2, "{starter:?}: a starter shows at least two modes, got {renders} renders");
        let manifest = std::fs::read_to_string(dir.path().join("ctxc.toml")).expect("manifest");
        assert!(manifest.starts_with("#:schema .ctxc/ctxc.schema.json\n"), "{starter:?}: the schema modeline comes first");
        assert!(manifest.contains("name = \"demo\"") && !manifest.contains("{{"), "{starter:?}: placeholders are filled");
    }
}

#[test]
fn each_addition_keeps_the_agent_clean() {
    for part in [Part::Mode, Part::Module, Part::Tool, Part::Skill] {
        let dir = write_starter(Starter::None);
        let manifest_path = dir.path().join("ctxc.toml");
        let loaded = ctxc::manifest::load(&manifest_path).expect("the starter loads");
        let before = std::fs::read_to_string(&manifest_path).expect("manifest");
        let addition = add(part, "extra", &before, &loaded.agent).expect("add");
        for (rel, text) in &addition.files {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        std::fs::write(&manifest_path, &addition.manifest).expect("write manifest");
        assert_clean(dir.path(), &format!("after adding a {part:?}"));
        let after = ctxc::manifest::load(&manifest_path).expect("loads after the addition").agent;
        let added = match part {
            Part::Mode => after.modes.contains_key("extra"),
            Part::Module => after.steps.iter().any(|s| s.id == "extra") && after.modules.contains_key("extra"),
            Part::Tool => after.categories.iter().any(|c| c.name == "extra" && c.tools.len() == 1),
            Part::Skill => after.skills.iter().any(|s| s.name == "extra"),
        };
        assert!(added, "{part:?} was not added:\n{}", addition.manifest);
        // Everything that was there stays, comments included.
        for line in before.lines().filter(|l| l.starts_with('#')) {
            assert!(addition.manifest.contains(line), "{part:?} lost the line {line:?}");
        }
        // Adding the same name again is refused.
        assert!(add(part, "extra", &addition.manifest, &after).is_err(), "{part:?} added twice");
    }
}

#[test]
fn a_module_goes_before_the_first_dynamic_step() {
    let dir = write_starter(Starter::None);
    let manifest_path = dir.path().join("ctxc.toml");
    let loaded = ctxc::manifest::load(&manifest_path).expect("the starter loads");
    let text = std::fs::read_to_string(&manifest_path).expect("manifest");
    let addition = add(Part::Module, "style", &text, &loaded.agent).expect("add");
    assert!(
        addition.manifest.contains("{ id = \"style\", kind = \"module\", title = \"Style\", before = \"time\" },\n]"),
        "{}",
        addition.manifest
    );
}

#[cfg(unix)]
#[test]
fn new_files_never_go_through_a_link() {
    let outside = tempfile::tempdir().expect("tempdir");
    let project = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink(outside.path(), project.path().join("prompts")).expect("link");
    let files = vec![("ctxc.toml".to_string(), "x".to_string()), ("prompts/modes/plan.md".to_string(), "y".to_string())];
    let err = ctxc::scaffold::write_new_files(project.path(), &files).expect_err("a link on the way is refused");
    assert!(err.to_string().contains("is a link or a file"), "{err}");
    // Checked before anything was written: neither the manifest nor a folder outside.
    assert!(!project.path().join("ctxc.toml").exists());
    assert_eq!(std::fs::read_dir(outside.path()).expect("read").count(), 0);
    for bad in ["../x.md", "/etc/x.md"] {
        assert!(ctxc::scaffold::write_new_files(project.path(), &[(bad.to_string(), String::new())]).is_err(), "{bad}");
    }
}

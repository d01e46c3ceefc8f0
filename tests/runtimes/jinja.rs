//! Differential test against Python's Jinja2 (tests/runtimes/python/jinja2-3.1.6.txt): every
//! template fixture under tests/fixtures/jinja/<case>/ (`template.j2`, the files it includes or
//! imports, `vars.json`) is rendered by Jinja2 (tests/runtimes/jinja/render.py, all cases in one
//! process) and by ctxc's template layer with the case's folder as the template root, as a
//! module with `[templates] root` renders. The bytes must be equal; a template Jinja2 refuses
//! (an undefined variable) must fail in ctxc too.

use crate::common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use ctxc::project::ProjectRoot;
use ctxc::templates::{project_environment, render_bounded, TemplateRoot};

const RELEASE: &str = "3.1.6";

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jinja")
}

fn jinja2() -> Value {
    let python = common::runtime_path(&format!("jinja2-{RELEASE}/bin/python"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/jinja/render.py");
    let out = Command::new(python).arg(script).arg(fixtures()).output().expect("run Jinja2");
    assert!(out.status.success(), "Jinja2 failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let value: Value = serde_json::from_slice(&out.stdout).expect("render.py prints JSON");
    assert_eq!(value["jinja2"], RELEASE, "the environment holds another Jinja2");
    value["cases"].clone()
}

/// ctxc's rendering of one case: the output, or the diagnostic's message.
fn ctxc(case: &Path) -> Result<String, String> {
    let root = ProjectRoot::new(case).expect("case folder");
    let (env, _loads) = project_environment(&root, &TemplateRoot::default());
    let source = std::fs::read_to_string(case.join("template.j2")).expect("template.j2");
    let vars: Value = serde_json::from_str(&std::fs::read_to_string(case.join("vars.json")).expect("vars.json")).expect("vars.json");
    let context = minijinja::Value::from_serialize(&vars);
    render_bounded(&env, "template.j2", &source, context, &|name| name.to_string()).map_err(|d| format!("{:?} {}", d.code, d.message))
}

/// The lines of `expected` and `actual`, marked `-` and `+` where they differ.
fn line_diff(expected: &str, actual: &str) -> String {
    similar::TextDiff::from_lines(expected, actual)
        .iter_all_changes()
        .map(|c| {
            let sign = match c.tag() {
                similar::ChangeTag::Delete => "-",
                similar::ChangeTag::Insert => "+",
                similar::ChangeTag::Equal => " ",
            };
            format!("{sign}{:?}\n", c.value())
        })
        .collect()
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn every_fixture_renders_as_jinja2_renders_it() {
    let expected = jinja2();
    let cases = expected.as_object().expect("cases");
    assert!(cases.len() >= 40, "only {} fixtures", cases.len());
    let mut failures = Vec::new();
    for (name, jinja) in cases {
        let ours = ctxc(&fixtures().join(name));
        match (jinja.get("text").and_then(Value::as_str), &ours) {
            (Some(text), Ok(ours)) if text == ours => {}
            (Some(text), Ok(ours)) => failures.push(format!("{name}: the outputs differ (- Jinja2, + ctxc):\n{}", line_diff(text, ours))),
            (Some(_), Err(e)) => failures.push(format!("{name}: Jinja2 renders it, ctxc fails: {e}")),
            (None, Ok(ours)) => failures.push(format!("{name}: Jinja2 fails ({}), ctxc renders {ours:?}", jinja["error"])),
            (None, Err(_)) => {}
        }
    }
    assert!(failures.is_empty(), "{} of {} fixtures differ from Jinja2 {RELEASE}:\n\n{}", failures.len(), cases.len(), failures.join("\n"));
}

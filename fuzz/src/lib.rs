//! What the fuzz targets share: scratch folders, the checks every diagnostic must pass, and one
//! function per target so that targets stay one line each. Run them with `scripts/fuzz.sh`.

pub mod check_tree;
pub mod git_tree;
pub mod tokenizer_files;

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ctxc::manifest::{self, Format};
use ctxc::{Diagnostic, Sources};

/// The repository this crate sits in (seed projects are copied from it).
fn repo_root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A new folder for this process, never removed: libFuzzer exits without unwinding, so
/// scripts/fuzz.sh points TMPDIR at a run folder of its own and removes that.
pub fn scratch(name: &str) -> PathBuf {
    tempfile::Builder::new().prefix(&format!("ctxc-fuzz-{name}-")).tempdir().expect("create a scratch folder").keep()
}

/// Copies the project folder `from` (relative to the repository) into `to`.
fn copy_project(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read a seed project") {
        let entry = entry.expect("read a seed project");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            std::fs::create_dir_all(&target).expect("copy a seed project");
            copy_project(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a seed project");
        }
    }
}

/// A scratch copy of a project from the repository, made once per process and target.
fn project_copy(cell: &'static OnceLock<PathBuf>, project: &str) -> &'static Path {
    cell.get_or_init(|| {
        let dir = scratch("project");
        copy_project(&repo_root().join(project), &dir);
        dir
    })
}

/// Every located diagnostic points into a file whose text the run kept (so the report can show
/// the line), at an offset inside it, and the report renders. Reporters clamp a span's end to the
/// text, so an end past it (minijinja's "unexpected end" points one past) is not a fault.
pub fn check_report(diagnostics: &[Diagnostic], sources: &Sources) {
    for d in diagnostics {
        let (Some(span), Some(file)) = (&d.span, &d.file) else { continue };
        let text = sources.get(file).unwrap_or_else(|| panic!("a span into `{file}`, whose text was not kept: {d:?}"));
        assert!(span.start <= span.end && span.start <= text.len(), "span {span:?} outside a text of {} bytes: {d:?}", text.len());
    }
    let _ = ctxc::report::diagnostics::render(diagnostics, sources, false);
}

/// A parser's error location lies inside the text it parsed. (Not reported through a
/// [`Sources`]: that keeps every text for the whole process, and these checks run millions of times.)
fn check_location(text: &str, offset: Option<usize>, error: &dyn Debug) {
    if let Some(offset) = offset {
        assert!(offset <= text.len(), "error at {offset}, outside a text of {} bytes: {error:?}", text.len());
    }
}

/// Manifest text through ctxc's parser and, when it parses, through loading (validation and
/// every file it names, in a copy of the zeus example) and rendering every mode.
pub fn manifest(data: &[u8], format: Format) {
    static PROJECT: OnceLock<PathBuf> = OnceLock::new();
    let name = match format {
        Format::Toml => "ctxc.toml",
        Format::Yaml => "ctxc.yaml",
    };
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(e) = manifest::parse(text, format) {
            // The TOML parser always knows where it stopped. serde_yaml sometimes does not (e.g.
            // "more than one document"), so YAML errors are only checked when located.
            assert!(format == Format::Yaml || e.span.is_some(), "a TOML parse error without a location: {e:?}");
            check_location(text, e.span.as_ref().map(|s| s.start), &e);
            return;
        }
    }
    let path = project_copy(&PROJECT, "examples/agents/zeus").join(name);
    std::fs::write(&path, data).expect("write the manifest");
    match manifest::load(&path) {
        Err(failure) => check_report(&failure.diagnostics, &failure.sources),
        Ok(loaded) => {
            check_report(&loaded.warnings, &loaded.sources);
            for mode in loaded.agent.modes.keys() {
                if let Err(diagnostics) = ctxc::Session::default().render(&loaded, mode, None) {
                    check_report(&diagnostics, &loaded.sources);
                }
            }
        }
    }
}

/// A SKILL.md file: frontmatter, name and description, and its catalogue line.
pub fn skill(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match ctxc::skills::parse_skill("skills/fuzz/SKILL.md", text) {
        Ok(skill) => {
            assert!(skill.body_offset <= text.len() && text.is_char_boundary(skill.body_offset), "body offset {}", skill.body_offset);
            let _ = ctxc::skills::catalogue_entry(&skill);
        }
        Err(e) => {
            // ctxc's own checks always point somewhere; malformed YAML (SKILL002) only when serde_yaml knows where.
            assert!(e.code == ctxc::codes::Code::SKILL002 || e.offset.is_some(), "a SKILL.md error without a location: {e:?}");
            check_location(text, e.offset, &e);
        }
    }
}

/// A tool file in any format ctxc reads (JSON, JSON Lines, YAML); every tool's JSON texts are
/// valid JSON.
pub fn tools(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match ctxc::tools::parse_tool_file(text) {
        Ok(file) => {
            for tool in &file.tools {
                for json in [tool.function_json(), tool.parameters_json()] {
                    if let Err(e) = serde_json::from_str::<serde_json::Value>(json) {
                        panic!("tool `{}` serialises to invalid JSON ({e}): {json}", tool.name);
                    }
                }
            }
        }
        Err(e) => check_location(text, e.offset, &e),
    }
}

/// A template through ctxc's template layer (`templates::render_template_str`: its environment,
/// fuel, memory budget and output cap), with a context shaped like the one the render stage gives
/// prompt files. Includes need a project and are not part of this target.
pub fn template(data: &[u8]) {
    use ctxc::templates::{render_template_str, MAX_TEMPLATE_OUTPUT};
    static CONTEXT: OnceLock<serde_json::Value> = OnceLock::new();
    let Ok(text) = std::str::from_utf8(data) else { return };
    let context = CONTEXT.get_or_init(|| {
        serde_json::json!({
            "agent": { "name": "fuzz", "description": "An agent for fuzzing.", "model": "gpt-4o" },
            "mode": "edit",
            "scenario": "default",
            "flags": { "sandbox": true, "web_search": false },
            "tools": [
                { "name": "read_file", "category": "files", "access": "read", "enabled": true, "reason": null, "placeholder": false },
                { "name": "github_search", "category": "mcp", "access": "read", "enabled": true, "reason": null, "placeholder": false, "server": "github" },
            ],
            "tools_description": "## Tools\n\n### read_file\nRead a file.\nParameters: {\"type\":\"object\"}",
            "vars": { "team": "Platform", "empty": "" },
        })
    });
    match render_template_str("prompts/intro.md.j2", text, context) {
        Ok(rendered) => assert!(rendered.len() <= MAX_TEMPLATE_OUTPUT, "a render of {} bytes", rendered.len()),
        Err(d) => {
            assert!(d.code.is_some_and(|c| c.as_str().starts_with("TPL")), "not a template diagnostic: {d:?}");
            if let Some(span) = &d.span {
                assert!(span.start <= span.end && span.start <= text.len(), "span {span:?} outside a template of {} bytes: {d:?}", text.len());
            }
        }
    }
}

/// A ctxc.lock: errors are located; a lock that parses is written back by ctxc to the same lock.
pub fn lock(data: &[u8]) {
    use ctxc::review::lock;
    let Ok(text) = std::str::from_utf8(data) else { return };
    match lock::parse(text, "ctxc.lock") {
        Err(failure) => {
            for d in &failure.diagnostics {
                assert!(d.span.is_some(), "a lock error without a location: {d:?}");
            }
            check_report(&failure.diagnostics, &failure.sources);
        }
        Ok(parsed) => {
            let written = lock::render(&parsed.pin, &parsed.snapshots);
            match lock::parse(&written, "ctxc.lock") {
                Ok(again) => assert_eq!(again, parsed, "the lock written back differs:\n{written}"),
                Err(failure) => panic!("ctxc cannot read the lock it wrote ({:?}):\n{written}", failure.diagnostics),
            }
        }
    }
}

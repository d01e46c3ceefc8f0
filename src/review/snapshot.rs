//! Snapshot files: one readable file per agent × mode × scenario, `<mode>.<scenario>.md` in the
//! agent's snapshot folder (`[snapshot] dir`, default `.ctxc/snapshots` next to the manifest),
//! holding a small header and the exact prompt. [`write()`] writes them and `ctxc.lock`
//! atomically, and removes the snapshots of modes and scenarios that no longer exist: only files
//! ctxc owns (named `*.md`, starting with [`MARKER`]), never anything else.
//!
//! Also the library API for a team's own snapshot tests: [`snapshot_text`].

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::lock::{self, LOCK_NAME};
use super::{atomic, file_name, sha256_hex, AgentPin, PromptPin};
use crate::diagnostic::{Diagnostic, Failure};
use crate::manifest::Loaded;
use crate::measure::Measured;
use crate::models::Tokenizer;
use crate::project::ReadError;
use crate::render::Rendered;
use crate::session::Session;

/// How every snapshot file starts: the mark of a file ctxc owns.
pub const MARKER: &str = "<!-- ctxc snapshot";
const HEADER_END: &str = "\n-->\n";

/// A header value on one line, quoted when it holds anything that would break the header.
fn header_value(value: &str) -> String {
    if value.chars().any(char::is_control) || value.contains("-->") || value.trim() != value {
        format!("{value:?}").replace("-->", "--\\u{3e}")
    } else {
        value.to_string()
    }
}

/// How counts were made, for people: `o200k_base (exact)` or the estimate's method (for
/// `model`'s tokenizer generation when it is calibrated).
fn counted_with(tokenizer: &str, exact: bool, model: &str) -> String {
    match Tokenizer::parse(tokenizer) {
        Some(Tokenizer::Estimate) if !exact => crate::models::profile(model).method().to_string(),
        Some(t) if !exact => t.method().to_string(),
        _ => format!("{tokenizer} ({})", if exact { "exact" } else { "estimate" }),
    }
}

/// The snapshot file of one prompt: the header, then the prompt exactly, then one line break.
pub fn render_file(pin: &AgentPin, prompt: &PromptPin) -> String {
    let text = prompt.text.as_deref().unwrap_or_default();
    let t = &prompt.tool_schemas;
    format!(
        "{MARKER}: written by `ctxc snapshot`; do not edit\nagent: {}\nmode: {}\nscenario: {}\nmodel: {}\ntokenizer: {}\ntokens: {} system prompt, {} tool schemas ({} tools)\nsha256: {}{HEADER_END}{text}\n",
        header_value(&pin.agent),
        header_value(&prompt.mode),
        header_value(&prompt.scenario),
        header_value(pin.model.as_deref().unwrap_or("(none)")),
        counted_with(&pin.tokenizer, pin.exact, pin.model.as_deref().unwrap_or_default()),
        prompt.tokens,
        t.tokens,
        t.tools,
        prompt.sha256,
    )
}

/// A snapshot file read back: the prompt, checked against the sha256 in its header.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotFile {
    pub prompt: String,
    pub sha256: String,
}

/// Parses a snapshot file; fails with the reason when it is not one, or not a complete one.
pub fn parse_file(text: &str) -> Result<SnapshotFile, String> {
    if !text.starts_with(MARKER) {
        return Err("it does not start with the ctxc snapshot header".into());
    }
    let end = text.find(HEADER_END).ok_or("its header is not closed")?;
    let header = &text[..end];
    let sha256 = header.lines().find_map(|l| l.strip_prefix("sha256: ")).ok_or("its header has no sha256")?.to_string();
    let prompt = text[end + HEADER_END.len()..].strip_suffix('\n').ok_or("it does not end with a line break")?.to_string();
    if sha256_hex(&prompt) != sha256 {
        return Err("its text no longer matches the sha256 in its header (edited by hand, or incomplete)".into());
    }
    Ok(SnapshotFile { prompt, sha256 })
}

/// Whether a file holds a ctxc snapshot (reads only its first bytes).
pub fn is_owned(path: &Path) -> bool {
    use std::io::Read;
    let mut start = [0u8; MARKER.len()];
    let is_file = |f: &fs::File| f.metadata().is_ok_and(|m| m.is_file());
    crate::project::open_no_follow(path).is_ok_and(|mut f| is_file(&f) && f.read_exact(&mut start).is_ok()) && start == MARKER.as_bytes()
}

/// What [`write()`] did for one agent. Paths are shown as the user named the agent's directory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Written {
    /// The snapshot folder.
    pub dir: String,
    /// Snapshot files written (new or changed).
    pub written: Vec<String>,
    /// Snapshot files already up to date.
    pub unchanged: usize,
    /// Snapshot files removed: modes or scenarios that no longer exist.
    pub removed: Vec<String>,
    /// The lock file, and whether it was (re)written.
    pub lock: String,
    pub lock_written: bool,
    /// Temporary files of an earlier, interrupted run that were cleaned up.
    pub stale_temps: usize,
}

/// Writes an agent's snapshots and `ctxc.lock`: each file atomically and only when its content
/// changed; the lock last; then removes owned snapshot files of modes or scenarios that no longer
/// exist (in the current folder and in the one the previous lock names). `dir` is the snapshot
/// folder relative to the manifest's directory (already checked to stay inside the project
/// root). `pause` is the testing aid of [`atomic::write`].
pub fn write(loaded: &Loaded, pin: &AgentPin, dir: &str, pause: Option<Duration>) -> Result<Written, Box<Diagnostic>> {
    let base = loaded.root.display().to_path_buf();
    let shown = |rel: &str| loaded.root.display_path(rel);
    let io_error = |what: &str, e: io::Error| Box::new(Diagnostic::error(format!("cannot write `{}`: {e}", shown(what))));
    let names: Vec<String> = pin.prompts.iter().map(|p| file_name(&p.mode, &p.scenario)).collect();
    let mut seen = std::collections::BTreeMap::new();
    for (name, p) in names.iter().zip(&pin.prompts) {
        if let Some((mode, scenario)) = seen.insert(name.to_lowercase(), (&p.mode, &p.scenario)) {
            return Err(Box::new(
                Diagnostic::error(format!(
                    "mode `{mode}` scenario `{scenario}` and mode `{}` scenario `{}` would share the snapshot file `{name}` on a case-insensitive file system",
                    p.mode, p.scenario
                ))
                .in_file(&loaded.agent.manifest_display)
                .help("rename one of them"),
            ));
        }
    }
    let folder = create_dir(loaded, dir)?;
    let lock_path = base.join(LOCK_NAME);
    let mut report = Written { dir: shown(dir), lock: shown(LOCK_NAME), ..Written::default() };
    for (d, rel) in [(&folder, dir), (&base, ".")] {
        report.stale_temps += atomic::remove_stale_temps(d).map_err(|e| io_error(rel, e))?;
    }
    let previous = lock::read(&loaded.root)?.map(|file| file.text);
    let previous_dir = previous.as_deref().and_then(|text| lock::parse(text, LOCK_NAME).ok()).map(|l| l.snapshots);
    for (name, prompt) in names.iter().zip(&pin.prompts) {
        let path = folder.join(name);
        let rel = format!("{dir}/{name}");
        let content = render_file(pin, prompt);
        match loaded.root.read(&rel) {
            Ok(old) if *old.text == *content => {
                report.unchanged += 1;
                continue;
            }
            Ok(_) | Err(ReadError::Missing(_)) => {}
            Err(e) => return Err(Box::new(Diagnostic::error(e.message()).in_file(shown(&rel)).help(lock::REWRITE))),
        }
        atomic::write(&path, content.as_bytes(), pause).map_err(|e| io_error(&rel, e))?;
        report.written.push(shown(&rel));
    }
    let lock_text = lock::render(pin, dir);
    if previous.as_deref() != Some(lock_text.as_str()) {
        atomic::write(&lock_path, lock_text.as_bytes(), pause).map_err(|e| io_error(LOCK_NAME, e))?;
        report.lock_written = true;
    }
    let mut folders = vec![(dir.to_string(), names.as_slice())];
    // The folder the previous lock names, if it moved (every snapshot there is stale), as long
    // as it is still inside the project.
    if let Some(old) = previous_dir.filter(|old| old != dir) {
        if let Ok(rel) = loaded.root.normalize(&old) {
            if loaded.root.resolve(&rel).is_ok() {
                folders.push((rel, &[]));
            }
        }
    }
    for (rel, keep) in folders {
        let removed = remove_stale_snapshots(&base.join(&rel), keep).map_err(|e| io_error(&rel, e))?;
        report.removed.extend(removed.iter().map(|name| shown(&format!("{rel}/{name}"))));
    }
    Ok(report)
}

/// Creates the snapshot folder one level at a time, checking that every existing level
/// (symlinks followed) is a folder inside the project root.
fn create_dir(loaded: &Loaded, dir: &str) -> Result<PathBuf, Box<Diagnostic>> {
    let mut path = loaded.root.display().to_path_buf();
    let mut rel = String::new();
    for part in dir.split('/') {
        path.push(part);
        rel = if rel.is_empty() { part.to_string() } else { format!("{rel}/{part}") };
        let problem = match fs::symlink_metadata(&path) {
            Ok(_) => match loaded.root.resolve(&rel) {
                Ok(resolved) if resolved.is_dir() => continue,
                Ok(_) => format!("`{}` is not a folder", path.display()),
                Err(e) => e.message(),
            },
            Err(_) => match fs::create_dir(&path) {
                Ok(()) => continue,
                Err(e) => format!("cannot create `{}`: {e}", path.display()),
            },
        };
        let d = Diagnostic::error(format!("snapshot folder `{dir}`: {problem}"));
        // At `[snapshot] dir` when the manifest sets the folder.
        let d = match &loaded.agent.snapshot_dir_origin {
            Some(origin) => d.in_file(&origin.file).at(origin.span.clone()).label("this folder"),
            None => d.in_file(&loaded.agent.manifest_display),
        };
        return Err(Box::new(d));
    }
    Ok(path)
}

/// Removes the snapshot files in `dir` that ctxc owns and that are not in `keep`; their names.
fn remove_stale_snapshots(dir: &Path, keep: &[String]) -> io::Result<Vec<String>> {
    let mut removed = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(removed),
        Err(e) => return Err(e),
    };
    let mut candidates: Vec<String> = Vec::new();
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().is_ok_and(|t| t.is_file()) && name.ends_with(".md") && !keep.contains(&name) {
            candidates.push(name);
        }
    }
    candidates.sort();
    for name in candidates {
        let path = dir.join(&name);
        if is_owned(&path) {
            fs::remove_file(&path)?;
            removed.push(name);
        }
    }
    Ok(removed)
}

/// The prompt of one agent, mode and scenario with its token table, as one text for snapshot
/// tests: a heading (agent, mode, scenario, model, how tokens were counted), one row per section
/// (step, id, tokens), the joins, the whole system prompt and the tool schemas, then the exact
/// prompt after a `---- prompt` line. Deterministic: the same inputs give the same bytes.
///
/// `scenario` `None` is the default scenario. Bad input returns the diagnostics (with the
/// sources they point into), never panics.
///
/// ```
/// let text = ctxc::snapshot_text(std::path::Path::new("examples/agents/zeus/ctxc.toml"), "plan", None)?;
/// assert!(text.starts_with("zeus · plan mode · scenario default"));
/// // In a test of your own: insta::assert_snapshot!(text);
/// # Ok::<(), ctxc::Failure>(())
/// ```
pub fn snapshot_text(manifest_path: &Path, mode: &str, scenario: Option<&str>) -> Result<String, Failure> {
    let session = Session::default();
    let loaded = session.load(manifest_path)?;
    let rendered =
        session.render(&loaded, mode, scenario).map_err(|diagnostics| Failure { diagnostics, sources: loaded.sources.clone() })?;
    let measured = session.measure_render(&loaded, &rendered);
    if let Some(failed) = session.file_failure(&loaded) {
        return Err(Failure { diagnostics: vec![failed], sources: loaded.sources.clone() });
    }
    Ok(token_table_and_prompt(&rendered, &measured))
}

fn token_table_and_prompt(rendered: &Rendered, m: &Measured) -> String {
    let approx = if m.exact { "" } else { "~" };
    let mut out = format!(
        "{} · {} mode · scenario {} · {} · {}\n\n",
        m.agent,
        m.mode,
        m.scenario,
        m.model.model,
        counted_with(m.tokenizer, m.exact, &m.model.model)
    );
    let width = m.sections.iter().map(|s| s.id.len()).max().unwrap_or(0).max("system prompt".len());
    out.push_str(&format!("{:>2}  {:<width$}  {:>8}\n", "#", "section", "tokens"));
    // Each section as its count labels it: one still recorded is exact beside estimated ones.
    for s in &m.sections {
        let approx = if s.tokens.exact { "" } else { "~" };
        out.push_str(&format!("{:>2}  {:<width$}  {:>8}\n", s.step, s.id, format!("{approx}{}", s.tokens.tokens)));
    }
    let t = &m.tool_schemas;
    // Tools are counted as the provider renders them: exact only when that rendering is.
    let tools_approx = if t.exact { "" } else { "~" };
    let tools_note = format!("  ({} tools, {})", t.tools.len(), t.method.split(':').next().unwrap_or_default());
    // An estimate's band, as `ctxc cost` shows it.
    let band =
        crate::checks::budgets::Band::of(m.model.estimate_calibration(), m.system_prompt).map_or(String::new(), |b| format!("  ({b})"));
    for (label, tokens, approx, note) in [
        ("joins", m.joins.tokens, approx, String::new()),
        ("system prompt", m.system_prompt.tokens, approx, band),
        ("tool schemas", t.total.tokens, tools_approx, tools_note),
    ] {
        out.push_str(&format!("{:>2}  {label:<width$}  {:>8}{note}\n", "", format!("{approx}{tokens}")));
    }
    out.push_str("\n---- prompt\n");
    out.push_str(&rendered.prompt());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_and_distinct() {
        assert_eq!(file_name("plan", "default"), "plan.default.md");
        assert_eq!(file_name("a.b", "c"), "a%2Eb.c.md");
        assert_eq!(file_name("a", "b.c"), "a.b%2Ec.md");
        assert_eq!(file_name("../x", "y z"), "%2E%2E%2Fx.y%20z.md");
        assert_eq!(file_name("größe", "_"), "gr%C3%B6%C3%9Fe._.md");
    }

    #[test]
    fn files_round_trip_and_refuse_incomplete_text() {
        let prompt = "line one\r\n-->\nlast line without a break".to_string();
        let pin = AgentPin {
            agent: "odd\nname".into(),
            model: None,
            tokenizer: "estimate".into(),
            exact: false,
            prompts: vec![PromptPin {
                mode: "m".into(),
                scenario: "s".into(),
                tokens: 9,
                sha256: sha256_hex(&prompt),
                tool_schemas: super::super::ToolsPin { tools: 0, tokens: 0, sha256: String::new() },
                sections: Vec::new(),
                text: Some(prompt.clone()),
            }],
        };
        let file = render_file(&pin, &pin.prompts[0]);
        assert!(file.contains("agent: \"odd\\nname\"\n"), "{file}");
        assert!(file.contains("tokenizer: estimate: o200k_base count, uncalibrated"), "{file}");
        assert_eq!(parse_file(&file).map(|f| f.prompt), Ok(prompt));
        for cut in [10, file.len() / 2, file.len() - 1] {
            assert!(parse_file(&file[..cut]).is_err(), "cut at {cut}");
        }
        assert!(parse_file("# notes\n").is_err());
    }
}

//! `ctxc upstream`: a runtime's own texts (base prompt, middleware texts, skill and transfer
//! instructions, …) and built-in tool schemas, read from the release installed
//! in the user's Python environment and written under the manifest's `upstream/` folder. ctxc
//! ships none of that prose; every user of the runtime has it installed.
//!
//! The values are read by a script of ours per runtime (`src/runtimes/<name>/upstream.py`, named
//! with the files it gives by the runtime's `upstream.rs`, the table's `upstream` row) run in the
//! user's interpreter:
//! isolated mode (no current folder or user site on the path), no bytecode written, a stand-in
//! chat model that answers at once, a time limit, and its output validated before any file is
//! written. Render stays offline: it reads the files this writes.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::diagnostic::Diagnostic;
use crate::import::toml_string;
use crate::project::ProjectRoot;
use crate::review::atomic;
use crate::runtimes::{runtime_table, Runtime, Upstream, UpstreamAgent, UpstreamReader, UpstreamTexts};

/// Importing LangChain and building the agents takes seconds; a hung interpreter is stopped.
const TIME_LIMIT: Duration = Duration::from_secs(120);
/// The time each further agent of one run adds to its limit (one agent's texts take well under a
/// second once the runtime is imported).
const TIME_PER_AGENT: Duration = Duration::from_secs(30);
/// The most the script may print per agent (the texts and tool schemas are tens of KiB).
const MAX_OUTPUT: u64 = 8 * 1024 * 1024;
/// The most one run for many agents may take, and print, whatever their number: a run over these
/// is stopped and each agent read alone, within [`TIME_LIMIT`] and [`MAX_OUTPUT`] each.
const BATCH_TIME_LIMIT: Duration = Duration::from_secs(600);
const BATCH_MAX_OUTPUT: u64 = 64 * 1024 * 1024;

/// The time and output one run for `agents` agents is allowed: one agent's, and more for each
/// further agent, up to the batch caps (a hung or flooding interpreter costs no more than that).
fn run_limits(agents: usize) -> (Duration, u64) {
    let further = u32::try_from(agents.saturating_sub(1)).unwrap_or(u32::MAX);
    let time = TIME_LIMIT.saturating_add(TIME_PER_AGENT.saturating_mul(further)).min(BATCH_TIME_LIMIT.max(TIME_LIMIT));
    let output = MAX_OUTPUT.saturating_mul(agents.max(1) as u64).min(BATCH_MAX_OUTPUT.max(MAX_OUTPUT));
    (time, output)
}

/// The interpreter to run, and who named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interpreter {
    pub path: PathBuf,
    /// `--python` or `VIRTUAL_ENV`, for the line that says what runs.
    pub named_by: &'static str,
}

/// The interpreter to read the runtime from: the one given (a bare name looked up in
/// `search_path`, the caller's `PATH`), else the active virtual environment (`VIRTUAL_ENV`,
/// passed in by the caller); never one ctxc finds by itself. One inside the tree that holds the
/// manifest (the git work tree, see [`crate::project::highest_root`]) is refused: a pull request
/// can commit `.venv/bin/python`, or the `.pth` files an interpreter runs at start.
pub fn interpreter(
    given: Option<&Path>,
    virtual_env: Option<&Path>,
    search_path: Option<&std::ffi::OsStr>,
    manifest_dir: &Path,
) -> Result<Interpreter, Diagnostic> {
    let (path, named_by, env) = match (given, virtual_env) {
        (Some(given), _) => {
            let found = find_program(given, search_path);
            (found.ok_or_else(|| Diagnostic::error(format!("--python `{}`: no such interpreter", given.display())))?, "--python", None)
        }
        (None, Some(env)) => {
            let found = [env.join("bin/python"), env.join("Scripts/python.exe")].into_iter().find(|p| p.is_file());
            let found = found.ok_or_else(|| Diagnostic::error(format!("VIRTUAL_ENV `{}` holds no bin/python", env.display())))?;
            (found, "VIRTUAL_ENV", Some(env))
        }
        (None, None) => {
            return Err(Diagnostic::error("no Python interpreter named: ctxc runs only the one you name").help(
                "pass --python PATH (an interpreter whose environment has the runtime), or activate that environment (VIRTUAL_ENV); \
                 an environment inside the repository (its .venv) is never used",
            ))
        }
    };
    let dir = if manifest_dir.as_os_str().is_empty() { Path::new(".") } else { manifest_dir };
    let dir = dir.canonicalize().map_err(|e| Diagnostic::error(format!("`{}`: {e}", manifest_dir.display())))?;
    let (tree, what) = crate::project::highest_root(&dir);
    // The interpreter's folder (its environment's `bin/`, beside the `lib/` whose `.pth` files
    // run at start), the file it leads to, and the environment named.
    let places = [path.parent(), Some(path.as_path()), env];
    if places.into_iter().flatten().filter_map(|p| p.canonicalize().ok()).any(|p| p.starts_with(&tree)) {
        return Err(Diagnostic::error(format!(
            "{named_by} `{}` is inside `{}` ({what}): ctxc never runs an interpreter from the files it checks",
            path.display(),
            tree.display()
        ))
        .help("a checked-out pull request can change them; name one outside with --python (an environment made elsewhere, e.g. `python3 -m venv ~/.venvs/deepagents`)"));
    }
    Ok(Interpreter { path, named_by })
}

/// `given` when it is a file; a bare name (`python3`), the first file of that name in the
/// absolute folders of `search_path`.
fn find_program(given: &Path, search_path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    let bare = given.components().count() == 1 && given.parent().is_some_and(|p| p.as_os_str().is_empty());
    if !bare {
        return given.is_file().then(|| std::path::absolute(given).unwrap_or_else(|_| given.to_path_buf()));
    }
    let mut exe = given.as_os_str().to_os_string();
    exe.push(std::env::consts::EXE_SUFFIX);
    let names = [given.to_path_buf(), PathBuf::from(exe)];
    let folders = std::env::split_paths(search_path?).filter(|dir| dir.is_absolute()).collect::<Vec<_>>();
    folders.iter().flat_map(|dir| names.iter().map(move |name| dir.join(name))).find(|p| p.is_file())
}

/// Runs `runtime`'s script once in `python` for all of `agents` (the script is given their list
/// and prints one set of texts per agent, in order) and checks what it printed.
fn read(runtime: &UpstreamReader, python: &Path, agents: &[&UpstreamAgent]) -> Result<Vec<UpstreamTexts>, Diagnostic> {
    let input = serde_json::to_vec(agents).map_err(|e| Diagnostic::error(e.to_string()))?;
    let output = run_script(python, runtime, &input, agents.len())?;
    let all: Vec<UpstreamTexts> = serde_json::from_slice(&output)
        .map_err(|e| Diagnostic::error(format!("`{}` printed something that is not the runtime's texts: {e}", python.display())))?;
    if all.len() != agents.len() {
        return Err(Diagnostic::error(format!("`{}` printed {} sets of texts for {} agents", python.display(), all.len(), agents.len())));
    }
    for texts in &all {
        if texts.package != runtime.package || texts.texts.keys().any(|k| !runtime.texts.contains(&k.as_str())) {
            return Err(Diagnostic::error(format!("`{}` printed texts ctxc did not ask for", python.display())));
        }
        if let Some(bad) = texts.builtin_tools.iter().find(|t| !t["function"]["name"].is_string()) {
            return Err(Diagnostic::error(format!("a built-in tool without a name: {bad}")));
        }
    }
    Ok(all)
}

/// Runs `runtime`'s script in `python` with `input` (the list of `agents` agents) on its stdin;
/// its stdout, or why it failed.
fn run_script(python: &Path, runtime: &UpstreamReader, input: &[u8], agents: usize) -> Result<Vec<u8>, Diagnostic> {
    let (time_limit, max_output) = run_limits(agents);
    let shown = python.display();
    let mut child = Command::new(python)
        .args(["-I", "-c", runtime.script])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        // LangChain's tracing would send runs to LangSmith when the user's shell enables it.
        .env("LANGCHAIN_TRACING_V2", "false")
        .env("LANGSMITH_TRACING", "false")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Diagnostic::error(format!("cannot run `{shown}`: {e}")))?;
    let mut stdin = child.stdin.take().ok_or_else(|| Diagnostic::error("no stdin"))?;
    stdin.write_all(input).map_err(|e| Diagnostic::error(format!("`{shown}`: {e}")))?;
    drop(stdin);
    let mut stdout = child.stdout.take().ok_or_else(|| Diagnostic::error("no stdout"))?;
    let mut stderr = child.stderr.take().ok_or_else(|| Diagnostic::error("no stderr"))?;
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = (&mut stdout).take(max_output + 1).read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = (&mut stderr).take(64 * 1024).read_to_end(&mut bytes);
        bytes
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > time_limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Diagnostic::error(format!("`{shown}` did not finish within {} s: stopped", time_limit.as_secs())));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(Diagnostic::error(format!("`{shown}`: {e}"))),
        }
    };
    let (stdout, stderr) = (out.join().unwrap_or_default(), err.join().unwrap_or_default());
    if !status.success() {
        let stderr = String::from_utf8_lossy(&stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message").trim().to_string();
        let missing = last.starts_with("ModuleNotFoundError");
        let d = Diagnostic::error(format!("reading the runtime with `{shown}` failed: {last}"));
        return Err(match missing {
            true => d.help(format!(
                "install the runtime's release into that environment (e.g. `{}`), or pass --python of one that has it",
                runtime.install
            )),
            false => d,
        });
    }
    if stdout.len() as u64 > max_output {
        return Err(Diagnostic::error(format!("`{shown}` printed more than {max_output} bytes")));
    }
    Ok(stdout)
}

/// The files to write under `upstream/`: each text (empty where the release adds none), the
/// built-in tools, and `SOURCES.toml` saying where each came from.
fn files(runtime: &UpstreamReader, texts: &UpstreamTexts) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> =
        runtime.texts.iter().map(|name| ((runtime.text_file)(name), texts.texts.get(*name).cloned().unwrap_or_default())).collect();
    if let Some(tools_file) = runtime.tools_file {
        let tools = serde_json::to_string_pretty(&texts.builtin_tools).unwrap_or_default();
        files.push((tools_file.to_string(), format!("{tools}\n")));
    }
    let mut sources = format!(
        "# Written by `ctxc upstream` from the installed release; run it again after an upgrade.\n\
         package = {}\nversion = {}\n\n[sources]\n",
        toml_string(&texts.package),
        toml_string(&texts.version)
    );
    for name in runtime.texts {
        let source = texts.sources.get(*name).map_or("not in this release: an empty file turns the step off", String::as_str);
        sources.push_str(&format!("{name} = {}\n", toml_string(source)));
    }
    if runtime.tools_file.is_some() {
        sources.push_str("builtin_tools = \"the tools the runtime binds to the model\"\n");
    }
    files.push(("SOURCES.toml".to_string(), sources));
    files
}

/// Writes `files` into `dir` (made when missing), each replaced whole.
/// The folder must be a real folder (a link is refused, never followed, so nothing is written
/// outside the project); each file is replaced whole, a link in its place replaced, not followed.
pub fn write(dir: &Path, files: &[(String, String)]) -> Result<(), Diagnostic> {
    let shown = dir.display();
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Err(Diagnostic::error(format!("`{shown}` is not a folder (a link is not followed): nothing written"))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir(dir).map_err(|e| Diagnostic::error(format!("cannot make `{shown}`: {e}")))?
        }
        Err(e) => return Err(Diagnostic::error(format!("`{shown}`: {e}"))),
    }
    for (name, text) in files {
        let path = dir.join(name);
        atomic::write(&path, text.as_bytes(), None).map_err(|e| Diagnostic::error(format!("cannot write `{}`: {e}", path.display())))?;
    }
    Ok(())
}

/// What `ctxc upstream` wrote.
#[derive(Debug, Clone)]
pub struct Written {
    pub dir: PathBuf,
    pub release: String,
    pub files: Vec<String>,
    /// The setting written into the manifest (`[deepagents] version = "0.4"`), when it selected
    /// another release than the installed one.
    pub recorded: Option<String>,
}

/// Reads the texts of the runtime the manifest's preset names, from `python`, and writes them
/// under `upstream/` beside the manifest. The manifest then selects the installed release (its
/// prompt layout for Deep Agents, its version for AgentScope), which the texts belong to.
pub fn update(manifest: &Path, python: &Path) -> Result<Written, Diagnostic> {
    update_all(&[manifest], python).pop().unwrap_or_else(|| Err(Diagnostic::error("no manifest")))
}

/// [`update`] for each of `manifests` (one result each, in order), starting `python` once per
/// runtime for all of its agents instead of once per agent: importing a runtime takes seconds.
/// When that one run fails, each agent is read alone, so that a failure names only the manifests
/// it concerns.
pub fn update_all(manifests: &[&Path], python: &Path) -> Vec<Result<Written, Diagnostic>> {
    // What each manifest's runtime script is to be given (its reader's `read` stops at the script).
    let prepared: Vec<Result<Prepared, Diagnostic>> = manifests.iter().map(|manifest| prepare(manifest)).collect();
    let mut texts: Vec<Option<Result<UpstreamTexts, Diagnostic>>> = manifests.iter().map(|_| None).collect();
    let mut runtimes: Vec<&'static str> = prepared.iter().flatten().map(|p| p.reader.package).collect();
    runtimes.sort_unstable();
    runtimes.dedup();
    for package in runtimes {
        let batch: Vec<(usize, &Prepared)> = prepared
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().ok().filter(|p| p.reader.package == package).map(|p| (i, p)))
            .collect();
        let reader = batch[0].1.reader;
        let agents: Vec<&UpstreamAgent> = batch.iter().map(|(_, p)| &p.agent).collect();
        match read(reader, python, &agents) {
            Ok(all) => {
                for ((i, _), read) in batch.iter().zip(all) {
                    texts[*i] = Some(Ok(read));
                }
            }
            Err(e) if batch.len() == 1 => texts[batch[0].0] = Some(Err(e)),
            Err(_) => {
                for (i, p) in &batch {
                    texts[*i] = Some(read(reader, python, &[&p.agent]).map(|mut one| one.remove(0)));
                }
            }
        }
    }
    prepared
        .into_iter()
        .zip(texts)
        .zip(manifests)
        .map(|((prepared, texts), manifest)| {
            let prepared = prepared?;
            let texts = texts.unwrap_or_else(|| Err(Diagnostic::error("the runtime was not read")))?;
            finish(manifest, &prepared, texts)
        })
        .collect()
}

/// A manifest read up to its runtime's script: the manifest's text, its parsed form, its reader
/// and the agent the script is given.
struct Prepared {
    text: String,
    raw: crate::manifest::raw::RawManifest,
    root: ProjectRoot,
    shown: String,
    model: String,
    reader: &'static UpstreamReader,
    agent: UpstreamAgent,
}

/// Reads `manifest` up to the agent its runtime's script is given.
fn prepare(manifest: &Path) -> Result<Prepared, Diagnostic> {
    let dir = manifest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let shown = manifest.display().to_string();
    let root = ProjectRoot::new(dir).map_err(|e| e.into_diagnostic())?;
    let name = manifest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let file = root.read(&name).map_err(|e| e.into_diagnostic().in_file(&shown))?;
    let raw = crate::manifest::parse(&file.text, crate::manifest::Format::of(manifest))
        .map_err(|e| Diagnostic::error(e.message).in_file(&shown).at(e.span))?;
    let model = raw.agent.as_ref().and_then(|a| a.model.as_ref()).map(|m| m.value.clone()).unwrap_or_default();
    let model = model.split_once(':').map_or(model.as_str(), |(_, m)| m).to_string();
    // The reader's `read` up to its script: the agent it would be given is kept, the script not run.
    let mut given = None;
    let stop = || Diagnostic::error("the runtime's script is run once for all the manifests");
    let outcome = read_runtime(runtime_of(&raw), &raw, &root, &shown, model.clone(), &mut |reader, agent| {
        given = Some((reader, agent.clone()));
        Err(stop())
    });
    match (outcome, given) {
        (None, _) => Err(not_read(&raw, &shown)),
        (Some(_), Some((reader, agent))) => Ok(Prepared { text: file.text.to_string(), raw, root, shown, model, reader, agent }),
        (Some(Err(e)), None) => Err(e),
        (Some(Ok(_)), None) => Err(Diagnostic::error("the runtime's texts were read without its script").in_file(&shown)),
    }
}

/// The runtime the manifest's preset names, if any.
fn runtime_of(raw: &crate::manifest::raw::RawManifest) -> Option<Runtime> {
    raw.pipeline.as_ref().and_then(|p| p.preset.as_ref()).and_then(|p| Runtime::of_preset(&p.value))
}

/// Why a manifest's texts are not read: its preset is none of the runtimes ctxc reads.
fn not_read(raw: &crate::manifest::raw::RawManifest, shown: &str) -> Diagnostic {
    let preset = raw.pipeline.as_ref().and_then(|p| p.preset.as_ref()).map(|p| p.value.as_str());
    Diagnostic::error(format!(
        "`ctxc upstream` reads the texts of the {} presets; this manifest's preset is {}",
        presets(),
        preset.map_or("not set".to_string(), |p| format!("`{p}`"))
    ))
    .in_file(shown)
}

/// The reader's `read` again with the `texts` the script printed for the manifest, then the files
/// written and the release recorded.
fn finish(manifest: &Path, prepared: &Prepared, texts: UpstreamTexts) -> Result<Written, Diagnostic> {
    let Prepared { text, raw, root, shown, model, .. } = prepared;
    let mut texts = Some(texts);
    let read = read_runtime(runtime_of(raw), raw, root, shown, model.clone(), &mut |_, _| {
        texts.take().ok_or_else(|| Diagnostic::error("the runtime's texts were asked for twice"))
    });
    let (runtime, Upstream { texts, selected, installed }) = read.ok_or_else(|| not_read(raw, shown))??;
    let dir = manifest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let files = files(runtime, &texts);
    let upstream = dir.join("upstream");
    write(&upstream, &files)?;
    // The texts go with the release they come from: the manifest records it.
    let recorded = (selected.as_deref() != Some(installed.as_str()))
        .then(|| record_version(manifest, text, runtime.package, &installed))
        .transpose()?;
    Ok(Written {
        dir: upstream,
        release: format!("{} {}", runtime.package, texts.version),
        files: files.into_iter().map(|(name, _)| name).collect(),
        recorded,
    })
}

macro_rules! upstream {
    ($($id:ident $runtime:ident),* $(,)?) => {
        /// The reader of `runtime`'s texts and what it read with `script` (the texts its script
        /// prints for an agent) for the manifest (`raw`, in `root`, shown as `shown`); `None` for a
        /// runtime whose texts ctxc does not read.
        fn read_runtime(
            runtime: Option<Runtime>,
            raw: &crate::manifest::raw::RawManifest,
            root: &ProjectRoot,
            shown: &str,
            model: String,
            script: &mut dyn FnMut(&'static UpstreamReader, &UpstreamAgent) -> Result<UpstreamTexts, Diagnostic>,
        ) -> Option<Result<(&'static UpstreamReader, Upstream), Diagnostic>> {
            match runtime? {
                $(Runtime::$id => {
                    let reader = &crate::runtimes::$runtime::upstream::READER;
                    let read = crate::runtimes::$runtime::upstream::read(raw, root, shown, model, |agent| script(reader, agent));
                    Some(read.map(|read| (reader, read)))
                })*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }

        /// The presets whose texts ctxc reads, as its message lists them (`` `a`, `b` and `c` ``).
        fn presets() -> String {
            let names = [$(format!("`{}`", Runtime::$id.preset())),*];
            match names.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            }
        }
    };
}
runtime_table!(upstream upstream);

/// Sets `[table] version` of a TOML manifest to `version`, keeping the rest of the file; says
/// what it set.
fn record_version(manifest: &Path, text: &str, table_name: &str, version: &str) -> Result<String, Diagnostic> {
    let shown = manifest.display().to_string();
    let setting = format!("[{table_name}] version = \"{version}\"");
    let refuse = |why: &str| {
        Diagnostic::error(format!("the texts are those of the installed release and the manifest selects another; {why}"))
            .in_file(&shown)
            .help(format!("set `{setting}` by hand, or install the release the manifest selects"))
    };
    if crate::manifest::Format::of(manifest) != crate::manifest::Format::Toml {
        return Err(refuse("ctxc records it only in a TOML manifest"));
    }
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|_| refuse("the manifest is not TOML ctxc can edit"))?;
    let Some(table) = doc.entry(table_name).or_insert(toml_edit::table()).as_table_like_mut() else {
        return Err(refuse(&format!("`{table_name}` is not a table")));
    };
    match table.get_mut("version").and_then(|item| item.as_value_mut()) {
        // In place: the comments around the value stay.
        Some(value) => {
            let decor = value.decor().clone();
            *value = version.into();
            *value.decor_mut() = decor;
        }
        None => {
            table.insert("version", toml_edit::value(version));
        }
    }
    let dir = manifest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    atomic::replace_inside(dir, manifest, doc.to_string().as_bytes())
        .map_err(|e| Diagnostic::error(format!("cannot write `{shown}`: {e}")))?;
    Ok(setting)
}

// The fake interpreters are shell scripts with the executable bit.
#[cfg(unix)]
#[cfg(test)]
mod tests {
    use super::*;

    /// One agent's run has one agent's limits; a run for many grows with them but stops at the
    /// batch caps, however many agents a folder holds.
    #[test]
    fn a_run_for_many_agents_is_bounded_in_time_and_output() {
        assert_eq!(run_limits(1), (TIME_LIMIT, MAX_OUTPUT));
        assert_eq!(run_limits(2), (TIME_LIMIT + TIME_PER_AGENT, 2 * MAX_OUTPUT));
        for agents in [1_000, 1_000_000, usize::MAX] {
            assert_eq!(run_limits(agents), (BATCH_TIME_LIMIT, BATCH_MAX_OUTPUT), "{agents}");
        }
    }

    /// An interpreter that ignores the script and prints `output` as the one agent's texts (or
    /// fails with `stderr`).
    fn fake_python(dir: &Path, output: &str, fail: Option<&str>) -> PathBuf {
        let path = dir.join("python");
        let body = match fail {
            Some(stderr) => format!("cat >/dev/null\nprintf '%s\\n' '{stderr}' >&2\nexit 1\n"),
            None => format!("cat >/dev/null\ncat <<'JSON'\n[{output}]\nJSON\n"),
        };
        std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("write");
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
        path
    }

    const MANIFEST: &str = "# mine\n[agent]\nname = \"a\"\nmodel = \"claude-sonnet-4-6\"\n\n[pipeline]\npreset = \"deepagents\"\n\n[deepagents]\nversion = \"0.7\" # kept\n";
    const OUTPUT_0_4: &str = r#"{"package": "deepagents", "version": "0.4.12", "texts": {"base_prompt": "Base.", "todo": "Todo."}, "sources": {"base_prompt": "deepagents.graph.BASE_AGENT_PROMPT"}, "builtin_tools": [{"type": "function", "function": {"name": "ls", "parameters": {}}}]}"#;

    #[test]
    fn texts_are_written_and_the_installed_layout_recorded() {
        let dir = tempfile::tempdir().expect("tempdir");
        let manifest = dir.path().join("ctxc.toml");
        std::fs::write(&manifest, MANIFEST).expect("write");
        let written = update(&manifest, &fake_python(dir.path(), OUTPUT_0_4, None)).expect("written");
        assert_eq!(written.release, "deepagents 0.4.12");
        assert_eq!(written.recorded.as_deref(), Some("[deepagents] version = \"0.4\""));
        let read = |rel: &str| std::fs::read_to_string(dir.path().join(rel)).expect(rel);
        assert_eq!(read("upstream/base_prompt.md"), "Base.");
        assert_eq!(read("upstream/profile_suffix.md"), "", "a text the release lacks turns its step off");
        assert!(read("upstream/builtin_tools.json").contains("\"name\": \"ls\""));
        assert!(read("upstream/SOURCES.toml").contains("version = \"0.4.12\"\n"));
        assert!(read("upstream/SOURCES.toml").contains("base_prompt = \"deepagents.graph.BASE_AGENT_PROMPT\"\n"));
        assert_eq!(read("ctxc.toml"), MANIFEST.replace("version = \"0.7\" # kept", "version = \"0.4\" # kept"));
        // Again: same bytes, nothing recorded.
        let again = update(&manifest, &fake_python(dir.path(), OUTPUT_0_4, None)).expect("written");
        assert_eq!(again.recorded, None);
    }

    #[test]
    fn what_the_interpreter_prints_is_checked_before_anything_is_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let manifest = dir.path().join("ctxc.toml");
        std::fs::write(&manifest, MANIFEST).expect("write");
        for (output, fail, why) in [
            ("not json", None, "not the runtime's texts"),
            (&OUTPUT_0_4.replace("\"todo\"", "\"../../escape\""), None, "did not ask for"),
            (&OUTPUT_0_4.replace("\"name\": \"ls\"", "\"nom\": \"ls\""), None, "without a name"),
            ("", Some("ModuleNotFoundError: No module named deepagents"), "No module named deepagents"),
        ] {
            let e = update(&manifest, &fake_python(dir.path(), output, fail)).expect_err(why);
            assert!(e.message.contains(why), "{why}: {}", e.message);
            assert!(!dir.path().join("upstream").exists(), "{why}: nothing written");
            assert_eq!(std::fs::read_to_string(&manifest).expect("read"), MANIFEST);
        }
        std::fs::write(&manifest, MANIFEST.replace("deepagents\"", "agentscope\"")).expect("write");
        let e = update(&manifest, &fake_python(dir.path(), OUTPUT_0_4, None)).expect_err("agentscope");
        assert!(e.message.contains("ctxc did not ask for"), "the Deep Agents texts are not AgentScope's: {}", e.message);
        std::fs::write(&manifest, MANIFEST.replace("deepagents\"", "zeph\"")).expect("write");
        let e = update(&manifest, &fake_python(dir.path(), OUTPUT_0_4, None)).expect_err("zeph");
        let listed = "reads the texts of the `deepagents`, `agentscope` and `adk` presets; this manifest's preset is `zeph`";
        assert!(e.message.contains(listed), "the presets of the table's `upstream` row: {}", e.message);
    }

    #[test]
    fn agentscope_texts_are_written_and_the_installed_release_recorded() {
        let dir = tempfile::tempdir().expect("tempdir");
        let manifest = dir.path().join("ctxc.toml");
        let text = "[agent]\nname = \"a\"\n\n[pipeline]\npreset = \"agentscope\"\n";
        std::fs::write(&manifest, text).expect("write");
        let output = |version: &str| {
            format!(
                r#"{{"package": "agentscope", "version": "{version}", "texts": {{"skill_instruction": "Use Skill.", "workspace": "At {{workdir}}."}}, "sources": {{}}, "builtin_tools": [{{"type": "function", "function": {{"name": "Skill", "parameters": {{}}}}}}]}}"#
            )
        };
        let e = update(&manifest, &fake_python(dir.path(), &output("2.0.4"), None)).expect_err("not modelled");
        assert!(e.message.contains("agentscope 2.0.4 is not a release ctxc models"), "{}", e.message);
        assert!(!dir.path().join("upstream").exists());
        let written = update(&manifest, &fake_python(dir.path(), &output("2.0.7.post1"), None)).expect("written");
        assert_eq!(written.release, "agentscope 2.0.7.post1");
        let read = |rel: &str| std::fs::read_to_string(dir.path().join(rel)).expect(rel);
        assert_eq!(read("upstream/skill-instruction.md"), "Use Skill.");
        assert_eq!(read("upstream/workspace.md"), "At {workdir}.");
        assert!(read("upstream/skill-viewer.json").contains("\"name\": \"Skill\""));
        assert_eq!(read("ctxc.toml"), format!("{text}\n[agentscope]\nversion = \"2.0.7.post1\"\n"));
        assert_eq!(update(&manifest, &fake_python(dir.path(), &output("2.0.7.post1"), None)).expect("again").recorded, None);
    }

    /// Several manifests are read by one run of the interpreter, given their agents as a list; when
    /// that run fails, each is read alone and only the one whose run fails gets the error.
    #[test]
    fn a_folder_of_agents_is_read_in_one_run_and_a_failure_names_its_agent_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let manifests: Vec<PathBuf> = ["a", "b", "c"]
            .iter()
            .map(|name| {
                std::fs::create_dir(dir.path().join(name)).expect("mkdir");
                let manifest = dir.path().join(name).join("ctxc.toml");
                std::fs::write(&manifest, MANIFEST.replace("claude-sonnet-4-6", &format!("model-{name}"))).expect("write");
                manifest
            })
            .collect();
        let manifests: Vec<&Path> = manifests.iter().map(PathBuf::as_path).collect();
        // Logs each run's input; prints one set of texts per agent, and fails on a list holding `model-b`.
        let python = dir.path().join("python");
        let script = format!(
            "#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' \"$input\" >>{log}\ncase $input in *model-b*) echo 'ValueError: no model-b' >&2; exit 1;; esac\n\
             n=$(printf '%s' \"$input\" | grep -o '\"model\"' | wc -l)\nprintf '['\nfor i in $(seq $n); do [ $i = 1 ] || printf ','; printf '%s' '{OUTPUT_0_4}'; done\nprintf ']'\n",
            log = dir.path().join("runs.log").display()
        );
        std::fs::write(&python, script).expect("write");
        std::fs::set_permissions(&python, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
        let runs =
            || std::fs::read_to_string(dir.path().join("runs.log")).unwrap_or_default().lines().map(String::from).collect::<Vec<_>>();

        let written = update_all(&[manifests[0], manifests[2]], &python);
        assert!(written.iter().all(Result::is_ok), "{written:?}");
        assert_eq!(runs().len(), 1, "one run for both: {:?}", runs());
        assert!(runs()[0].starts_with('[') && runs()[0].contains("model-a") && runs()[0].contains("model-c"), "{:?}", runs());
        assert!(dir.path().join("c/upstream/base_prompt.md").is_file());

        std::fs::remove_file(dir.path().join("runs.log")).expect("rm");
        let written = update_all(&manifests, &python);
        assert_eq!(runs().len(), 4, "the failed run for all three, then each alone: {:?}", runs());
        assert!(written[0].is_ok() && written[2].is_ok(), "{written:?}");
        let e = written[1].as_ref().expect_err("model-b fails");
        assert!(e.message.contains("ValueError: no model-b"), "{}", e.message);
        assert!(!dir.path().join("b/upstream").exists(), "nothing written for the agent whose run failed");
    }

    #[test]
    fn an_upstream_link_out_of_the_project_is_refused() {
        let (dir, outside) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
        let manifest = dir.path().join("ctxc.toml");
        std::fs::write(&manifest, MANIFEST).expect("write");
        std::os::unix::fs::symlink(outside.path(), dir.path().join("upstream")).expect("symlink");
        let e = update(&manifest, &fake_python(dir.path(), OUTPUT_0_4, None)).expect_err("a link");
        assert!(e.message.contains("is not a folder"), "{}", e.message);
        assert_eq!(std::fs::read_dir(outside.path()).expect("list").count(), 0, "nothing written outside");
        assert_eq!(std::fs::read_to_string(&manifest).expect("read"), MANIFEST);
    }

    #[test]
    fn the_interpreter_is_only_one_named_and_never_one_inside_the_tree() {
        let (tree, outside) = (tempfile::tempdir().expect("tempdir"), tempfile::tempdir().expect("tempdir"));
        std::fs::create_dir(tree.path().join(".git")).expect("mkdir");
        let agent = tree.path().join("agent");
        let (active, committed) = (outside.path().join("active"), agent.join(".venv"));
        for env in [&active, &committed] {
            std::fs::create_dir_all(env.join("bin")).expect("mkdir");
            std::fs::write(env.join("bin/python"), "").expect("write");
        }
        let named = |path: &Path, by| Interpreter { path: path.to_path_buf(), named_by: by };
        let given = active.join("bin/python");
        assert_eq!(interpreter(Some(&given), None, None, &agent).expect("given"), named(&given, "--python"));
        assert!(interpreter(Some(&outside.path().join("nope")), None, None, &agent).is_err());
        // A relative folder of PATH that leads to a python (from the folder the test runs in) is skipped.
        let cwd = std::env::current_dir().expect("cwd");
        let up = PathBuf::from("../".repeat(cwd.components().count() - 1));
        let relative = up.join(active.join("bin").strip_prefix("/").expect("absolute"));
        assert!(relative.is_relative() && relative.join("python").is_file(), "{}", relative.display());
        let search = std::env::join_paths([&relative]).expect("PATH");
        assert!(interpreter(Some(Path::new("python")), None, Some(&search), &agent).is_err(), "a relative folder is skipped");
        let search = std::env::join_paths([&relative, &active.join("bin")]).expect("PATH");
        let on_path = interpreter(Some(Path::new("python")), None, Some(&search), &agent).expect("on PATH");
        assert_eq!(on_path, named(&given, "--python"), "found in an absolute folder of PATH only");
        assert_eq!(interpreter(None, Some(&active), None, &agent).expect("active"), named(&given, "VIRTUAL_ENV"));
        // The .venv beside the manifest is never found, nor run when named.
        let none = interpreter(None, None, None, &agent).expect_err("none named");
        assert!(none.help.as_deref().is_some_and(|h| h.contains("--python")), "{none:?}");
        for (given, env) in [(Some(committed.join("bin/python")), None), (None, Some(committed.as_path()))] {
            let e = interpreter(given.as_deref(), env, None, &agent).expect_err("inside the tree");
            assert!(e.message.contains("is inside") && e.message.contains(".venv"), "{}", e.message);
        }
        // Nor through a link from outside.
        let link = outside.path().join("python-link");
        std::os::unix::fs::symlink(committed.join("bin/python"), &link).expect("symlink");
        assert!(interpreter(Some(&link), None, None, &agent).is_err());
    }
}

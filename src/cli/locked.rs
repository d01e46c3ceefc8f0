//! `ctxc check --locked`: compare the current render of every agent with its `ctxc.lock` and
//! snapshot files. Drift (a changed, added or removed prompt or section, a different model or
//! tokenizer, a snapshot file missing or edited) is printed on stderr as the token delta per
//! section and a unified diff of the prompt text, and exits 1. A missing or unreadable lock
//! exits 2 and says to run `ctxc snapshot`.

use std::collections::BTreeSet;
use std::path::Path;

use super::report::Reporter;
use super::{EXIT_FINDINGS, EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::{Diagnostic, Sources};
use ctxc::project::ReadError;
use ctxc::report::escape::Untrusted;
use ctxc::review::compare::{compare, Comparison, Labels};
use ctxc::review::lock::{self, LOCK_NAME};
use ctxc::review::snapshot::parse_file;
use ctxc::review::{self, file_name};
use ctxc::rules::secrets;
use ctxc::{Failure, Session};

/// What one agent's lock check found.
struct Drift {
    /// The agent's folder as the user named it, for the hint.
    folder: String,
    comparison: Comparison,
    /// Problems with the snapshot files or folder themselves.
    problems: Vec<String>,
}

/// Runs after `check` (only when every agent loaded), which has already refused a PATH leading
/// out of its repository.
/// The secrets `check`'s findings redacted are masked in the diffs, as the SEC patterns' are.
pub fn run(path: &Path, session: &Session, redacted: &BTreeSet<String>, reporter: &Reporter) -> u8 {
    let manifests = match ctxc::discover::find_manifests(path) {
        Ok(m) => m,
        Err(d) => {
            let d = Diagnostic::error(format!("--locked: {}", d.message))
                .help("`check --locked` compares agents (a ctxc.toml or ctxc.yaml) with their ctxc.lock: pass an agent directory, a manifest or a directory of agents");
            reporter.diagnostics(&[d], &Sources::default());
            return EXIT_INPUT;
        }
    };
    let results = session.each(&manifests, |manifest| against_lock(session, manifest));
    let mut code = EXIT_OK;
    for result in results {
        match result {
            Err(failure) => {
                reporter.diagnostics(&failure.diagnostics, &failure.sources);
                code = code.max(EXIT_INPUT);
            }
            Ok(mut drift) if drift.comparison.changed() || !drift.problems.is_empty() => {
                for prompt in drift.comparison.agents.iter_mut().flat_map(|a| &mut a.prompts) {
                    prompt.diff = secrets::mask_with(&prompt.diff, redacted).into_owned();
                }
                let mut out = ctxc::report::changes::text(&drift.comparison, false);
                for problem in &drift.problems {
                    out.push_str(&format!("{}\n", Untrusted(problem)));
                }
                let folder = if drift.folder.is_empty() { ".".to_string() } else { Untrusted(&drift.folder).to_string() };
                out.push_str(&format!(
                    "error: the render of {folder} drifted from its {LOCK_NAME}: review the changes above, then run `ctxc snapshot {folder}` and commit the result\n\n"
                ));
                super::output::eprint(&out);
                code = code.max(EXIT_FINDINGS);
            }
            Ok(_) => {}
        }
    }
    code
}

fn against_lock(session: &Session, manifest: &Path) -> Result<Drift, Failure> {
    let (loaded, current) = review::pin_agent(session, manifest)?;
    let shown = loaded.root.display_path(LOCK_NAME);
    let folder_shown = loaded.root.display_path("");
    let folder_shown = folder_shown.trim_end_matches('/').to_string();
    let fail = |d: Diagnostic| Failure { diagnostics: vec![d], sources: Sources::default() };
    let text = match lock::read(&loaded.root) {
        Ok(Some(file)) => file.text,
        Ok(None) => {
            let hint = if folder_shown.is_empty() { ".".to_string() } else { folder_shown.clone() };
            return Err(fail(
                Diagnostic::error(format!("agent `{}` has no {LOCK_NAME} (looked for `{shown}`)", current.agent))
                    .help(format!("run `ctxc snapshot {hint}` to write the snapshots and the lock file, and commit them")),
            ));
        }
        Err(d) => return Err(fail(*d)),
    };
    let mut locked = lock::parse(&text, &shown)?;
    let snapshots = match loaded.root.normalize(&locked.snapshots) {
        Ok(rel) => rel,
        Err(e) => {
            let mut sources = Sources::default();
            sources.insert(&shown, &text);
            let span = text.find("\nsnapshots").map(|i| i + 1..i + 10);
            let d = Diagnostic::error(format!("{LOCK_NAME}: snapshots: {}", e.message())).in_file(&shown).at(span).label("here");
            return Err(Failure { diagnostics: vec![d], sources });
        }
    };
    // The snapshots are read from the folder the lock names (where `ctxc snapshot` put them,
    // `--dir` included): the folder itself is bookkeeping, not drift.
    let mut problems = Vec::new();
    for prompt in &mut locked.pin.prompts {
        let rel = format!("{snapshots}/{}", file_name(&prompt.mode, &prompt.scenario));
        let problem = match loaded.root.read(&rel) {
            Err(ReadError::Missing(_)) => Some("is missing".to_string()),
            // Not drift: a snapshot that is no regular file in the project cannot be read at all.
            Err(e) => return Err(fail(Diagnostic::error(e.message()).in_file(loaded.root.display_path(&rel)).help(lock::REWRITE))),
            Ok(file) => match parse_file(&file.text) {
                Ok(file) if file.sha256 == prompt.sha256 => {
                    prompt.text = Some(file.prompt);
                    None
                }
                Ok(_) => Some(format!("does not hold the prompt {LOCK_NAME} pins")),
                Err(reason) => Some(format!("is not a valid snapshot: {reason}")),
            },
        };
        if let Some(problem) = problem {
            problems.push(format!("snapshot `{}` {problem}", loaded.root.display_path(&rel)));
        }
    }
    let key = manifest.display().to_string();
    let labels = Labels { before: "snapshot".into(), after: "render".into() };
    let comparison = compare(&[(key.clone(), locked.pin)], &[(key, current)], &labels);
    Ok(Drift { folder: folder_shown, comparison, problems })
}

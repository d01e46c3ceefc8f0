//! `ctxc snapshot`: write the rendered prompt of every agent × mode × scenario into the agent's
//! snapshot folder, and `ctxc.lock` next to its manifest. Nothing is written unless every agent
//! renders; each file is written atomically.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::report::Reporter;
use super::{find_manifests, output, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK};
use ctxc::checks::leaks::{Leak, Leaks};
use ctxc::diagnostic::Diagnostic;
use ctxc::manifest::Loaded;
use ctxc::report::escape::Untrusted;
use ctxc::review::{self, AgentPin};

#[derive(Debug, Args)]
pub struct SnapshotArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// Agent directory, manifest file, or a directory of agents (default: the current directory).
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Snapshot folder, relative to each agent's manifest directory (overrides `[snapshot] dir`;
    /// default `.ctxc/snapshots`).
    #[arg(long, value_name = "DIR")]
    dir: Option<String>,
    #[command(flatten)]
    set: super::SetArgs,
    #[command(flatten)]
    pub tokenizers: super::TokenizerOptions,
    /// Write snapshots that hold a secret (SEC001–SEC006) anyway; by default nothing is written
    /// and the secret is reported, masked (exit 1).
    #[arg(long)]
    allow_secrets: bool,
}

/// Testing aid (see docs/review.md): with `_CTXC_TEST_PAUSE_MS=N` in the environment, every file
/// write pauses N milliseconds half-way through and again after it, so that a test can kill the
/// run at any point. (Not `CTXC_…`: those variables override manifest keys.)
pub const TEST_PAUSE_VAR: &str = "_CTXC_TEST_PAUSE_MS";

/// `snapshot.dir=DIR` as a manifest override, the value quoted as a TOML string.
pub(super) fn dir_override(dir: &str) -> String {
    format!("snapshot.dir={}", toml::Value::String(dir.to_string()))
}

/// The secrets in the snapshot files of every agent, as they would be written.
fn leaks(agents: &[(Loaded, AgentPin)]) -> Leaks {
    let mut leaks = Leaks::default();
    for (loaded, pin) in agents {
        for prompt in &pin.prompts {
            let rel = format!("{}/{}", loaded.agent.snapshot_dir, review::file_name(&prompt.mode, &prompt.scenario));
            leaks.scan(&loaded.root.display_path(&rel), &review::snapshot::render_file(pin, prompt), loaded);
        }
    }
    leaks
}

/// A secret as `snapshot` reports it: an error that stops the run, or with `--allow-secrets` a
/// warning.
fn leak_diagnostic(leak: Leak, allowed: bool) -> Diagnostic {
    let (first, others) = leak.outputs.split_first().map_or(("", 0), |(first, rest)| (first.as_str(), rest.len()));
    let files = match others {
        0 => first.to_string(),
        n => format!("{first} and {n} other snapshot file{}", if n == 1 { "" } else { "s" }),
    };
    super::secret_leak(
        leak.finding,
        allowed,
        &format!("written to {files}"),
        "snapshot files are meant to be committed: remove the secret from the prompt sources and rotate it",
        "no snapshot was written: snapshot files are meant to be committed. Remove the secret from the prompt sources and rotate it, or pass --allow-secrets to write it anyway",
    )
}

pub fn run(args: SnapshotArgs, reporter: &Reporter) -> u8 {
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let mut overrides = match args.set.with_env(reporter) {
        Ok(o) => o,
        Err(code) => return code,
    };
    overrides.extend(args.dir.as_deref().map(dir_override));
    let session = args.tokenizers.session(overrides);
    let results = session.each(&manifests, |manifest| review::pin_agent(&session, manifest));
    // Nothing is written unless every agent renders.
    let mut agents = Vec::new();
    let mut failed = false;
    for result in results {
        match result {
            Ok((mut loaded, pin)) => {
                reporter.diagnostics(&std::mem::take(&mut loaded.warnings), &loaded.sources);
                agents.push((loaded, pin));
            }
            Err(failure) => {
                reporter.diagnostics(&failure.diagnostics, &failure.sources);
                failed = true;
            }
        }
    }
    if failed {
        return EXIT_INPUT;
    }
    // Snapshot files are committed: none is written while one would hold a secret.
    let leaks = leaks(&agents);
    if !leaks.is_empty() {
        let diagnostics: Vec<Diagnostic> = leaks.leaks.into_iter().map(|leak| leak_diagnostic(leak, args.allow_secrets)).collect();
        reporter.diagnostics(&diagnostics, &leaks.sources);
        if !args.allow_secrets {
            return EXIT_FINDINGS;
        }
    }
    let pause = std::env::var(TEST_PAUSE_VAR).ok().and_then(|ms| ms.parse().ok()).map(Duration::from_millis);
    let mut code = EXIT_OK;
    for (loaded, pin) in &agents {
        match review::snapshot::write(loaded, pin, &loaded.agent.snapshot_dir, pause) {
            Ok(w) => {
                let mut parts = vec![format!("{} written", w.written.len()), format!("{} unchanged", w.unchanged)];
                if !w.removed.is_empty() {
                    parts.push(format!("{} removed", w.removed.len()));
                }
                if w.stale_temps > 0 {
                    parts.push(format!("{} temporary file(s) of an interrupted run cleaned up", w.stale_temps));
                }
                let lock = if w.lock_written { "written" } else { "unchanged" };
                let n = pin.prompts.len();
                let mut out = format!(
                    "{}: {n} snapshot{} in {} ({}); {} {lock}\n",
                    Untrusted(&pin.agent),
                    if n == 1 { "" } else { "s" },
                    Untrusted(&w.dir),
                    parts.join(", "),
                    Untrusted(&w.lock)
                );
                for path in &w.removed {
                    out.push_str(&format!("  removed {}\n", Untrusted(path)));
                }
                output::print(&out);
            }
            Err(d) => {
                reporter.diagnostics(&[*d], &loaded.sources);
                code = EXIT_INPUT;
            }
        }
    }
    code
}

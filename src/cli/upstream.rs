//! `ctxc upstream [PATH] [--python PY]`: writes the runtime's own texts (Deep Agents, AgentScope) under each agent's
//! `upstream/`, read from the release installed in a Python environment (started once per
//! runtime for all the agents found).

use std::path::{Path, PathBuf};

use clap::Args;

use super::report::Reporter;
use super::{find_manifests, EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct UpstreamArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// The agent (its folder or manifest), or a folder of agents.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// The Python interpreter whose environment has the runtime (default: the active virtual
    /// environment, VIRTUAL_ENV). Never one inside the repository being read.
    #[arg(long, value_name = "PY")]
    python: Option<PathBuf>,
}

pub fn run(args: UpstreamArgs, reporter: &Reporter) -> u8 {
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let mut code = EXIT_OK;
    // The interpreter each manifest may be read with (one inside its tree is refused for it).
    let mut ready: Vec<(PathBuf, ctxc::upstream::Interpreter)> = Vec::new();
    for manifest in manifests {
        match interpreter(&manifest, args.python.as_deref()) {
            Ok(python) => ready.push((manifest, python)),
            Err(d) => {
                reporter.diagnostics(&[d], &Default::default());
                code = EXIT_INPUT;
            }
        }
    }
    // Each interpreter started once per runtime for all the manifests it reads.
    let mut interpreters: Vec<&ctxc::upstream::Interpreter> = Vec::new();
    for (_, python) in &ready {
        if !interpreters.iter().any(|p| p.path == python.path) {
            interpreters.push(python);
        }
    }
    for python in interpreters {
        let these: Vec<&Path> = ready.iter().filter(|(_, p)| p.path == python.path).map(|(m, _)| m.as_path()).collect();
        super::output::println(&format!("running {} (named by {}) to read the installed runtime", python.path.display(), python.named_by));
        for (manifest, written) in these.iter().zip(ctxc::upstream::update_all(&these, &python.path)) {
            match written {
                Ok(written) => said(manifest, written),
                Err(d) => {
                    reporter.diagnostics(&[d], &Default::default());
                    code = EXIT_INPUT;
                }
            }
        }
    }
    code
}

/// The interpreter `manifest` is read with: `python` (`--python`), else the active virtual
/// environment's.
fn interpreter(manifest: &Path, python: Option<&Path>) -> Result<ctxc::upstream::Interpreter, ctxc::diagnostic::Diagnostic> {
    let dir = manifest.parent().unwrap_or(Path::new("."));
    let virtual_env = std::env::var_os("VIRTUAL_ENV").filter(|v| !v.is_empty()).map(PathBuf::from);
    let search_path = std::env::var_os("PATH");
    ctxc::upstream::interpreter(python, virtual_env.as_deref(), search_path.as_deref(), dir)
}

/// What was written for `manifest`.
fn said(manifest: &Path, written: ctxc::upstream::Written) {
    super::output::println(&format!("wrote {} from {} ({})", written.dir.display(), written.release, written.files.join(", ")));
    if let Some(setting) = written.recorded {
        super::output::println(&format!("{}: {setting}, the installed release", manifest.display()));
    }
}

/// Fills `upstream/` beside one manifest and says what it wrote.
pub fn update(manifest: &Path, python: Option<&Path>) -> Result<(), ctxc::diagnostic::Diagnostic> {
    let python = interpreter(manifest, python)?;
    super::output::println(&format!("running {} (named by {}) to read the installed runtime", python.path.display(), python.named_by));
    said(manifest, ctxc::upstream::update(manifest, &python.path)?);
    Ok(())
}

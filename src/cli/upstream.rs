//! `ctxc upstream [PATH] [--python PY]`: writes the runtime's own texts (Deep Agents, AgentScope) under each agent's
//! `upstream/`, read from the release installed in a Python environment.

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
    /// environment, else `.venv` beside the manifest).
    #[arg(long, value_name = "PY")]
    python: Option<PathBuf>,
}

pub fn run(args: UpstreamArgs, reporter: &Reporter) -> u8 {
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let mut code = EXIT_OK;
    for manifest in manifests {
        if let Err(d) = update(&manifest, args.python.as_deref()) {
            reporter.diagnostics(&[d], &Default::default());
            code = EXIT_INPUT;
        }
    }
    code
}

/// Fills `upstream/` beside one manifest and says what it wrote.
pub fn update(manifest: &Path, python: Option<&Path>) -> Result<(), ctxc::diagnostic::Diagnostic> {
    let dir = manifest.parent().unwrap_or(Path::new("."));
    let virtual_env = std::env::var_os("VIRTUAL_ENV").map(PathBuf::from);
    let python = ctxc::import::upstream::interpreter(python, virtual_env.as_deref(), dir)?;
    let written = ctxc::import::upstream::update(manifest, &python)?;
    super::output::println(&format!("wrote {} from {} ({})", written.dir.display(), written.release, written.files.join(", ")));
    if let Some(setting) = written.recorded {
        super::output::println(&format!("{}: {setting}, the installed release", manifest.display()));
    }
    Ok(())
}

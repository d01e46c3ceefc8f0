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
    let virtual_env = std::env::var_os("VIRTUAL_ENV").filter(|v| !v.is_empty()).map(PathBuf::from);
    let search_path = std::env::var_os("PATH");
    let python = ctxc::upstream::interpreter(python, virtual_env.as_deref(), search_path.as_deref(), dir)?;
    super::output::println(&format!("running {} (named by {}) to read the installed runtime", python.path.display(), python.named_by));
    let written = ctxc::upstream::update(manifest, &python.path)?;
    super::output::println(&format!("wrote {} from {} ({})", written.dir.display(), written.release, written.files.join(", ")));
    if let Some(setting) = written.recorded {
        super::output::println(&format!("{}: {setting}, the installed release", manifest.display()));
    }
    Ok(())
}

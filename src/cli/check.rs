//! `ctxc check`: load every agent and render every mode in every scenario.

use std::path::PathBuf;

use clap::Args;

use super::report::Reporter;
use super::{find_manifests, load, EXIT_INPUT, EXIT_OK};
use crate::resolve::resolve;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Agent directory, manifest file, or a directory of agents (default: the current directory).
    #[arg(default_value = ".")]
    path: PathBuf,
}

pub fn run(args: CheckArgs, reporter: &Reporter) -> u8 {
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let mut code = EXIT_OK;
    for manifest in manifests {
        let Ok(loaded) = load(&manifest, reporter) else {
            code = EXIT_INPUT;
            continue;
        };
        let agent = &loaded.agent;
        for mode in agent.modes.keys() {
            for scenario in agent.scenarios.keys() {
                let result = resolve(agent, mode, Some(scenario)).and_then(|r| crate::render::render(&r, &loaded.root));
                if let Err(diagnostics) = result {
                    reporter.diagnostics(&diagnostics, &loaded.sources);
                    code = EXIT_INPUT;
                }
            }
        }
    }
    code
}

//! `ctxc check`: load every agent, render and measure every mode in every scenario, and report
//! budget overruns and findings on the reference systems' settings. Exit 0 clean, 1 findings, 2
//! input that cannot be loaded.

use std::path::PathBuf;

use clap::Args;

use super::report::Reporter;
use super::{find_manifests, load_with, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK};
use crate::diagnostic::has_errors;
use crate::tokens::TokenCounter;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Agent directory, manifest file, or a directory of agents (default: the current directory).
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Override a manifest key for this run, e.g. `--set budgets.system_prompt=3000` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
}

pub fn run(args: CheckArgs, reporter: &Reporter) -> u8 {
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let counter = TokenCounter::new();
    let mut code = EXIT_OK;
    for manifest in manifests {
        let Ok(loaded) = load_with(&manifest, &args.set, reporter) else {
            code = EXIT_INPUT;
            continue;
        };
        let (measured, problems) = crate::measure_all(&loaded, None, None, &counter);
        if !problems.is_empty() {
            reporter.diagnostics(&problems, &loaded.sources);
            code = EXIT_INPUT;
        }
        let mut findings = crate::budgets::check(&loaded.agent, &measured);
        findings.extend(crate::systems::check(&loaded.agent, &measured));
        reporter.diagnostics(&findings, &loaded.sources);
        if has_errors(&findings) && code == EXIT_OK {
            code = EXIT_FINDINGS;
        }
    }
    code
}

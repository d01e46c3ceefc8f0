//! `ctxc check`: load every agent, render and measure every mode in every scenario, and report
//! budget overruns and findings on the reference systems' settings. Exit 0 clean, 1 findings, 2
//! input that cannot be loaded.

use std::path::PathBuf;

use clap::Args;

use super::report::Reporter;
use super::{find_manifests, on_each_agent, with_env_overrides, AgentRun, EXIT_FINDINGS, EXIT_OK};
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
    /// Also fail (exit 1) when a render drifted from its ctxc.lock (written by `ctxc snapshot`):
    /// prints the token delta per section and a unified diff of the prompt text.
    #[arg(long)]
    locked: bool,
}

pub fn run(args: CheckArgs, reporter: &Reporter) -> u8 {
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let overrides = match with_env_overrides(&args.set, reporter) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let counter = TokenCounter::new();
    let runs = on_each_agent(&manifests, |manifest| {
        let mut run = AgentRun::new(manifest, &overrides, None, None, &counter);
        let findings = run
            .loaded
            .as_ref()
            .map(|l| [crate::budgets::check(&l.agent, &run.measured), crate::systems::check(&l.agent, &run.measured)].concat())
            .unwrap_or_default();
        // Only findings are reported: the measurements need not wait for the other agents.
        run.measured = Vec::new();
        (run, findings)
    });
    let mut code = EXIT_OK;
    for (run, findings) in runs {
        code = code.max(run.report_problems(reporter));
        reporter.diagnostics(&findings, &run.sources);
        if has_errors(&findings) {
            code = code.max(EXIT_FINDINGS);
        }
    }
    // `--locked`: the render against ctxc.lock (only when every agent loaded).
    if args.locked && code < super::EXIT_INPUT {
        code = code.max(super::locked::run(&args.path, &args.set, reporter));
    }
    code
}

//! `ctxc explain CODE|NAME`: one rule's documentation (the same text as docs/rules.md).

use clap::Args;

use super::report::Reporter;
use super::{EXIT_INPUT, EXIT_OK};
use ctxc::rules::{self, docs};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// A rule code or name, e.g. `SKILL004` or `unknown-model` (case-insensitive).
    code: String,
}

pub fn run(args: ExplainArgs, reporter: &Reporter) -> u8 {
    match rules::by_code_or_name(args.code.trim()) {
        Some(rule) => {
            super::output::print(&docs::rule_markdown(rule, 2));
            EXIT_OK
        }
        None => {
            let d = ctxc::report::diagnostics::not_a_rule(&args.code);
            reporter.diagnostics(&[d], &Default::default());
            EXIT_INPUT
        }
    }
}

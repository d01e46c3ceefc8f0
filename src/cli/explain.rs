//! `ctxc explain CODE`: one rule's documentation (the same text as docs/rules.md).

use clap::Args;

use super::report::Reporter;
use super::{EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::Diagnostic;
use ctxc::rules::{self, docs};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A rule code, e.g. SKILL004 (case-insensitive).
    code: String,
}

pub fn run(args: ExplainArgs, reporter: &Reporter) -> u8 {
    match rules::get(args.code.trim()) {
        Some(rule) => {
            super::output::print(&docs::rule_markdown(rule, 2));
            EXIT_OK
        }
        None => {
            let mut d = Diagnostic::error(format!("`{}` is not a rule code", args.code));
            d = match rules::suggest(args.code.trim()) {
                Some(s) => d.help(format!("did you mean `{s}`? (`ctxc rules` lists every code)")),
                None => d.help("`ctxc rules` lists every code"),
            };
            reporter.diagnostics(&[d], &Default::default());
            EXIT_INPUT
        }
    }
}

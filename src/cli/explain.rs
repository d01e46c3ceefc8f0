//! `ctxc explain CODE|NAME`: one rule's documentation (the same text as docs/rules.md).

use clap::Args;

use super::report::Reporter;
use super::{EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::Diagnostic;
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
            let mut d = Diagnostic::error(format!("`{}` is not a rule code or name", args.code));
            let wrong = args.code.trim();
            let name = ctxc::diagnostic::did_you_mean(wrong, rules::ALL.iter().map(|r| r.name));
            d = match name.or_else(|| rules::suggest(wrong)) {
                Some(s) => d.help(format!("did you mean `{s}`? (`ctxc rules` lists every code)")),
                None => d.help("`ctxc rules` lists every code"),
            };
            reporter.diagnostics(&[d], &Default::default());
            EXIT_INPUT
        }
    }
}

//! `ctxc completions SHELL`: the shell completion script on stdout.

use std::io::Write;

use clap::{Args, CommandFactory};

use super::{Cli, EXIT_OK};

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

pub fn run(args: CompletionsArgs) -> u8 {
    let mut command = Cli::command();
    // Generated into memory: clap_complete panics when its writer fails.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "ctxc", &mut script);
    super::output::print_with(|out| out.write_all(&script));
    EXIT_OK
}

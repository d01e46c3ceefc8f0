//! `ctxc mcp`: the Model Context Protocol server over stdio (see [`ctxc::mcp`]). This file only
//! moves lines: stdin to [`Server::handle`], its answers to stdout, one a line. `ctxc mcp
//! record` is in `mcp_record.rs`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use ctxc::mcp::framing::{read_line, Line};
use ctxc::mcp::{Server, Setup};

use super::report::Reporter;
use super::{output, EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct McpArgs {
    /// The project root: the folder every path a client names is resolved in and confined to (default: the current folder).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<McpCommand>,
}

#[derive(Debug, Subcommand)]
enum McpCommand {
    /// Start the MCP servers the repository configures (it runs their commands: asks first) and record their tool lists in ctxc.mcp-tools.
    Record(super::mcp_record::RecordArgs),
}

pub fn run(args: McpArgs, reporter: &Reporter) -> u8 {
    if let Some(McpCommand::Record(record)) = args.command {
        return super::mcp_record::run(record, reporter);
    }
    // The commands resolve paths against the working folder: the server's root becomes it.
    if let Some(root) = &args.root {
        if let Err(e) = std::env::set_current_dir(root) {
            return reporter.usage(format!("--root {}: {e}", root.display()));
        }
    }
    let env_overrides = match super::env_overrides(reporter) {
        Ok(env) => env,
        Err(code) => return code,
    };
    let setup = Setup { env_overrides, places: super::TokenizerOptions::default().places() };
    let server = match Server::new(setup) {
        Ok(server) => server,
        Err(e) => return reporter.usage(format!("ctxc mcp: the current folder: {e}")),
    };
    let mut stdin = std::io::stdin().lock();
    let mut buf = Vec::new();
    loop {
        let answer = match read_line(&mut stdin, &mut buf) {
            Ok(Line::End) => return EXIT_OK,
            Ok(Line::Text(line)) => server.handle(&line),
            Ok(Line::Refused(why)) => Some(ctxc::mcp::parse_error(&why)),
            Err(e) => {
                output::eprint(&format!("ctxc mcp: cannot read stdin: {e}\n"));
                return EXIT_INPUT;
            }
        };
        if let Some(answer) = answer {
            output::print_exact(&format!("{answer}\n"));
        }
    }
}

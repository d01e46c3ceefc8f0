//! `ctxc import SYSTEM PATH [--force]`: writes a ctxc manifest from a runtime's own project format.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::report::Reporter;
use super::{check_path, EXIT_INPUT, EXIT_OK};
use ctxc::import;

#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(subcommand)]
    system: System,
}

#[derive(Debug, Subcommand)]
enum System {
    /// A Zeph configuration file (config.toml); writes ctxc.toml beside it.
    Zeph {
        /// The Zeph config file.
        config: PathBuf,
        /// Replace an existing ctxc.toml.
        #[arg(long)]
        force: bool,
    },
}

pub fn run(args: ImportArgs, reporter: &Reporter) -> u8 {
    let System::Zeph { config, force } = args.system;
    if let Err(code) = check_path(&config, reporter) {
        return code;
    }
    let imported = match import::zeph::import(&config) {
        Ok(imported) => imported,
        Err(failure) => {
            reporter.diagnostics(&failure.diagnostics, &failure.sources);
            return EXIT_INPUT;
        }
    };
    let mut sources = ctxc::diagnostic::Sources::default();
    if let Ok(text) = std::fs::read_to_string(&config) {
        sources.insert(imported.notes.first().and_then(|d| d.file.clone()).unwrap_or_default(), &text);
    }
    reporter.diagnostics(&imported.notes, &sources);
    match import::write(&imported, force) {
        Ok(()) => {
            super::output::println(&format!("wrote {}", imported.manifest.display()));
            EXIT_OK
        }
        Err(d) => {
            reporter.diagnostics(&[d], &Default::default());
            EXIT_INPUT
        }
    }
}

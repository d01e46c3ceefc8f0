//! `ctxc import SYSTEM PATH [--force]`: writes a ctxc manifest from a runtime's own project format.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::report::Reporter;
use super::{check_path, EXIT_INPUT, EXIT_OK};
use ctxc::import::{self, deepagents::Layout};

#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
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
    /// A Deep Agents deploy project (agent.json, AGENTS.md, skills/, subagents/); writes ctxc.toml in it.
    Deepagents {
        /// The project folder.
        dir: PathBuf,
        /// How the project is mounted: under /memories/ as the deploy template does, or as a local filesystem backend.
        #[arg(long, value_enum, default_value_t = LayoutArg::Deploy)]
        layout: LayoutArg,
        /// Replace an existing ctxc.toml.
        #[arg(long)]
        force: bool,
        /// Also write the runtime's texts into upstream/, read from this interpreter's environment
        /// (as `ctxc upstream --python PY` does).
        #[arg(long, value_name = "PY")]
        python: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LayoutArg {
    Deploy,
    Local,
}

pub fn run(args: ImportArgs, reporter: &Reporter) -> u8 {
    let (path, force) = match &args.system {
        System::Zeph { config, force } => (config, *force),
        System::Deepagents { dir, force, .. } => (dir, *force),
    };
    if let Err(code) = check_path(path, reporter) {
        return code;
    }
    let imported = match args.system {
        System::Zeph { ref config, .. } => import::zeph::import(config),
        System::Deepagents { ref dir, layout, .. } => import::deepagents::import(
            dir,
            match layout {
                LayoutArg::Deploy => Layout::Deploy,
                LayoutArg::Local => Layout::Local,
            },
        ),
    };
    let imported = match imported {
        Ok(imported) => imported,
        Err(failure) => {
            reporter.diagnostics(&failure.diagnostics, &failure.sources);
            return EXIT_INPUT;
        }
    };
    reporter.diagnostics(&imported.notes, &imported.sources);
    match import::write(&imported, force) {
        Ok(()) => {
            super::output::println(&format!("wrote {}", imported.manifest.display()));
            match args.system {
                System::Deepagents { python: Some(python), .. } => match super::upstream::update(&imported.manifest, Some(&python)) {
                    Ok(()) => EXIT_OK,
                    Err(d) => {
                        reporter.diagnostics(&[d], &Default::default());
                        EXIT_INPUT
                    }
                },
                System::Deepagents { python: None, .. } => {
                    super::output::eprint(&format!(
                        "next: `ctxc upstream {} --python PY` writes the texts of the Deep Agents release installed in PY's environment into upstream/ (ctxc ships none); until then render, cost and check stop at the missing files\n",
                        imported.manifest.parent().map_or(".".into(), |d| d.display().to_string())
                    ));
                    EXIT_OK
                }
                _ => EXIT_OK,
            }
        }
        Err(d) => {
            reporter.diagnostics(&[d], &Default::default());
            EXIT_INPUT
        }
    }
}

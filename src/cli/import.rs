//! `ctxc import SYSTEM PATH [--force]`: writes a ctxc manifest from a runtime's own project format.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::report::Reporter;
use super::{check_path, EXIT_INPUT, EXIT_OK};
use ctxc::import;
use ctxc::runtimes::deepagents::import::Layout;

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
    /// The Python file that builds an AgentScope 2.x `Agent(...)` (read, never run); writes
    /// ctxc.toml beside it (and prompts/system.md when the prompt is a string in the code).
    Agentscope {
        /// The Python file.
        file: PathBuf,
        /// Replace existing files.
        #[arg(long)]
        force: bool,
        /// Also write AgentScope's texts into upstream/ (skills, workspace), read from this
        /// interpreter's environment (as `ctxc upstream --python PY` does).
        #[arg(long, value_name = "PY")]
        python: Option<PathBuf>,
    },
    /// A Google ADK agent folder with its Agent Config (root_agent.yaml, as `adk create
    /// --type=config` writes it); writes ctxc.toml in it.
    Adk {
        /// The agent folder.
        dir: PathBuf,
        /// Replace an existing ctxc.toml.
        #[arg(long)]
        force: bool,
        /// Also write ADK's texts into upstream/ (for an agent with sub-agents), read from this
        /// interpreter's environment (as `ctxc upstream --python PY` does).
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
        System::Zeph { config, force } | System::Agentscope { file: config, force, .. } => (config, *force),
        System::Deepagents { dir, force, .. } | System::Adk { dir, force, .. } => (dir, *force),
    };
    if let Err(code) = check_path(path, reporter) {
        return code;
    }
    let imported = match args.system {
        System::Zeph { ref config, .. } => ctxc::runtimes::zeph::import::import(config),
        System::Deepagents { ref dir, layout, .. } => ctxc::runtimes::deepagents::import::import(
            dir,
            match layout {
                LayoutArg::Deploy => Layout::Deploy,
                LayoutArg::Local => Layout::Local,
            },
        ),
        System::Adk { ref dir, .. } => ctxc::runtimes::adk::import::import(dir),
        System::Agentscope { ref file, .. } => ctxc::runtimes::agentscope::import::import(file),
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
            let python = match args.system {
                System::Deepagents { python, .. } | System::Adk { python, .. } | System::Agentscope { python, .. } => python,
                System::Zeph { .. } => None,
            };
            match (imported.upstream, python) {
                (Some(_), Some(python)) => match super::upstream::update(&imported.manifest, Some(&python)) {
                    Ok(()) => EXIT_OK,
                    Err(d) => {
                        reporter.diagnostics(&[d], &Default::default());
                        EXIT_INPUT
                    }
                },
                (Some(runtime), None) => {
                    super::output::eprint(&format!(
                        "next: `ctxc upstream {} --python PY` writes the texts of the {runtime} release installed in PY's environment into upstream/ (ctxc ships none); until then render, cost and check stop at the missing files\n",
                        imported.manifest.parent().map_or(".".into(), |d| d.display().to_string())
                    ));
                    EXIT_OK
                }
                (None, _) => EXIT_OK,
            }
        }
        Err(d) => {
            reporter.diagnostics(&[d], &Default::default());
            EXIT_INPUT
        }
    }
}

//! `ctxc init [DIR] [--preset …]`: writes a small working agent (two or three modes, a tool file,
//! one skill, a budget and the schema modeline) that passes `ctxc check` as written. It never
//! overwrites: when any file it would write exists, it writes nothing.

use std::fs;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{check_path, output, EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::Diagnostic;
use ctxc::scaffold::{agent_name, write_new_files, Starter};

/// Where the starter's manifest points its `#:schema` modeline.
const SCHEMA_FILE: &str = ".ctxc/ctxc.schema.json";

#[derive(Debug, Args)]
pub struct InitArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// Folder to write the agent in; created when missing.
    #[arg(default_value = ".")]
    dir: PathBuf,
    /// The pipeline to start from: ctxc's own (`none`) or a reference system's preset.
    #[arg(long, value_enum, default_value_t = PresetArg::None)]
    preset: PresetArg,
    /// The agent's name (default: the folder's name).
    #[arg(long)]
    name: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PresetArg {
    /// ctxc's own pipeline: role, mode prompt, tools, skills, time.
    None,
    /// Zeus's 15-step pipeline and its modes agent, ask and plan.
    Zeus,
    /// Deep Agents (deepagents 0.4.12; 0.7.32 with one line).
    Deepagents,
    /// Zeph (zeph-context 0.22.4).
    Zeph,
    /// AgentScope (agentscope 2.0.11).
    Agentscope,
    /// Google ADK (google-adk 2.13.0): one LlmAgent.
    Adk,
}

impl PresetArg {
    fn starter(self) -> Starter {
        match self {
            PresetArg::None => Starter::None,
            PresetArg::Zeus => Starter::Zeus,
            PresetArg::Deepagents => Starter::Deepagents,
            PresetArg::Zeph => Starter::Zeph,
            PresetArg::Agentscope => Starter::Agentscope,
            PresetArg::Adk => Starter::Adk,
        }
    }
}

pub fn run(args: InitArgs, reporter: &Reporter) -> u8 {
    if let Err(code) = check_path(&args.dir, reporter) {
        return code;
    }
    let fail = |d: Diagnostic| {
        reporter.diagnostics(&[d], &Default::default());
        EXIT_INPUT
    };
    let folder_name = fs::canonicalize(&args.dir).ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    let name = args.name.clone().unwrap_or_else(|| agent_name(folder_name.as_deref().unwrap_or(&args.dir.to_string_lossy())));
    let mut files = args.preset.starter().files(&name);
    files.push((SCHEMA_FILE, ctxc::schema::manifest_schema()));
    files.sort_by_key(|(rel, _)| *rel);
    if let Some(existing) = ctxc::discover::manifest_in(&args.dir) {
        return fail(
            Diagnostic::error(format!("`{}` is an agent already", existing.display()))
                .help("ctxc init writes a new agent; pass an empty or new folder, e.g. `ctxc init my-agent`"),
        );
    }
    let taken: Vec<String> =
        files.iter().filter(|(rel, _)| args.dir.join(rel).symlink_metadata().is_ok()).map(|(rel, _)| rel.to_string()).collect();
    if !taken.is_empty() {
        return fail(
            Diagnostic::error(format!("`{}` already holds {}: nothing was written", args.dir.display(), taken.join(", ")))
                .help("ctxc init never overwrites a file; pass a new folder, e.g. `ctxc init my-agent`"),
        );
    }
    let files: Vec<(String, String)> = files.into_iter().map(|(rel, text)| (rel.to_string(), text)).collect();
    if let Err(e) = std::fs::create_dir_all(&args.dir).and_then(|()| write_new_files(&args.dir, &files)) {
        return fail(Diagnostic::error(format!("cannot write the agent in `{}`: {e}", args.dir.display())));
    }
    let shown = display_dir(&args.dir);
    let mut report = format!("Created agent `{name}` in {shown} ({} files):\n", files.len());
    for (rel, _) in &files {
        report.push_str(&format!("  {rel}\n"));
    }
    // A second mode (ADK's starter has one mode and two scenarios).
    let second = match args.preset {
        PresetArg::Zeph => "--mode review",
        PresetArg::Agentscope => "--mode explain",
        PresetArg::Adk => "--scenario guest",
        _ => "--mode plan",
    };
    let on = if shown == "." { String::new() } else { format!(" {shown}") };
    report.push_str(&format!(
        "\nNext: `ctxc check{on}` (rules and budgets), `ctxc cost{on}` (tokens per mode), `ctxc render{on} {second}`\n"
    ));
    output::eprint(&report);
    EXIT_OK
}

fn display_dir(dir: &Path) -> String {
    let shown = dir.display().to_string();
    if shown.is_empty() {
        ".".into()
    } else {
        shown
    }
}

//! `ctxc add mode|module|tool|skill NAME [PATH]`: adds one part to an agent, writing its new
//! files (never over a file) and then the manifest (atomically). TOML manifests only: a YAML
//! manifest gets the snippet to paste instead.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{find_manifests, load, output, session, EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::Diagnostic;
use ctxc::scaffold::add::{add, Part};

#[derive(Debug, Args)]
pub struct AddArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// What to add.
    #[arg(value_enum)]
    part: PartArg,
    /// Its name: lower-case letters, digits, `-` and `_`.
    name: String,
    /// The agent: its folder or manifest (default: the agent of the current folder).
    #[arg(default_value = ".")]
    path: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PartArg {
    /// A mode (`[modes.NAME]`), with a mode prompt file when the pipeline shows one.
    Mode,
    /// A prompt module (`prompts/NAME.md`) and its step, before the first dynamic step.
    Module,
    /// A tool category (`[tools.NAME]`) with a tool file holding one tool to fill in.
    Tool,
    /// A skill (`SKILL.md` in the first `[skills] dirs` folder).
    Skill,
}

pub fn run(args: AddArgs, reporter: &Reporter) -> u8 {
    let fail = |d: Diagnostic| {
        reporter.diagnostics(&[d], &Default::default());
        EXIT_INPUT
    };
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let [manifest] = manifests.as_slice() else {
        return fail(
            Diagnostic::error(format!("`{}` holds {} agents", args.path.display(), manifests.len()))
                .help("pass the folder of the one agent to add to"),
        );
    };
    let session = match session(&[], &Default::default(), reporter) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let loaded = match load(&session, manifest, reporter) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let display = loaded.agent.manifest_display.clone();
    if ctxc::manifest::Format::of(manifest) == ctxc::manifest::Format::Yaml {
        return fail(Diagnostic::error(format!("`{display}` is YAML: ctxc add edits TOML manifests")).help(
            "add it by hand: docs/manifest.md shows each table (`modes`, `modules` with a `module` step, `tools`, `skills`); `ctxc check` then checks it",
        ));
    }
    let text = loaded.sources.get(&display).unwrap_or_default().to_string();
    let part = match args.part {
        PartArg::Mode => Part::Mode,
        PartArg::Module => Part::Module,
        PartArg::Tool => Part::Tool,
        PartArg::Skill => Part::Skill,
    };
    let addition = match add(part, &args.name, &text, &loaded.agent) {
        Ok(a) => a,
        Err(message) => return fail(Diagnostic::error(message).in_file(&display)),
    };
    let dir = manifest.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if let Err(e) = ctxc::scaffold::write_new_files(dir, &addition.files) {
        let why =
            if e.kind() == std::io::ErrorKind::AlreadyExists { "a file it would write exists already".to_string() } else { e.to_string() };
        return fail(Diagnostic::error(format!("cannot add `{}`: {why}; nothing was changed", args.name)));
    }
    if let Err(e) = ctxc::review::atomic::write(manifest, addition.manifest.as_bytes(), None) {
        return fail(Diagnostic::error(format!("cannot write `{display}`: {e}")));
    }
    let mut report = format!(
        "Added {} `{}` to agent `{}`:\n",
        args.part.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default(),
        args.name,
        loaded.agent.name
    );
    for change in &addition.changes {
        report.push_str(&format!("  {display}: {change}\n"));
    }
    for (rel, _) in &addition.files {
        let shown = if dir == Path::new(".") { PathBuf::from(rel) } else { dir.join(rel) };
        report.push_str(&format!("  {}\n", shown.display()));
    }
    report.push_str("Next: fill in the new text, then `ctxc check`\n");
    output::eprint(&report);
    EXIT_OK
}

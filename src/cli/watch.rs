//! `ctxc watch [PATH]`: check and cost again on every change to the project's files, and print
//! what changed since the previous run. Changes are polled (modification time and size) and
//! taken together until the files are quiet; only the agents that read a changed file are
//! checked again (`ctxc::editor`). Ctrl-C stops it with exit 0.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;

use ctxc::diagnostic::grouped;
use ctxc::editor::watch::{Poller, Run, Seen};
use ctxc::editor::Workspace;

use super::output::{eprint, println};
use super::{EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// The project to watch (an agent, a folder of agents, or agent files).
    #[arg(default_value = ".")]
    path: PathBuf,
    /// A shell command to run after each run that finds no error.
    #[arg(long, value_name = "CMD")]
    exec: Option<String>,
    #[command(flatten)]
    set: super::SetArgs,
    /// How often files are looked at, in milliseconds.
    #[arg(long, default_value_t = 200, value_name = "MS")]
    poll: u64,
}

/// Changes are taken together until the files have been quiet this long (at most `MOST_WAIT`).
const QUIET: Duration = Duration::from_millis(150);
const MOST_WAIT: Duration = Duration::from_secs(2);

pub fn run(args: WatchArgs) -> u8 {
    if let Err(d) = ctxc::project::check_path_argument(&args.path) {
        eprint(&format!("error: {}\n", d.message));
        return EXIT_INPUT;
    }
    let root = ctxc::discover::agent_folder(&args.path);
    if !root.is_dir() {
        eprint(&format!("error: `{}` is not a folder\n", root.display()));
        return EXIT_INPUT;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst)) {
        eprint(&format!("error: cannot handle Ctrl-C: {e}\n"));
        return EXIT_INPUT;
    }
    let poll = Duration::from_millis(args.poll.max(10));
    let mut workspace = Workspace::new(&root, ctxc::lint::Options::default(), args.set.set.clone());
    let mut poller = Poller::new(workspace.root());
    workspace.refresh_all();
    let mut last = workspace.run_summary();
    print_first(&last, &root);
    after_run(&last, args.exec.as_deref());
    eprint(&format!("watching `{}` (Ctrl-C to stop)\n", root.display()));
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(poll);
        let mut changed = poller.changes();
        if changed.is_empty() {
            continue;
        }
        // Debounce: an editor's save or a checkout touches several files in a row.
        let started = Instant::now();
        while started.elapsed() < MOST_WAIT && !stop.load(Ordering::SeqCst) {
            std::thread::sleep(QUIET);
            let more = poller.changes();
            if more.is_empty() {
                break;
            }
            changed.extend(more);
        }
        changed.sort();
        changed.dedup();
        workspace.refresh(&changed);
        let now = workspace.run_summary();
        print_changes(&changed, &now, &last, workspace.root());
        after_run(&now, args.exec.as_deref());
        last = now;
    }
    eprint("ctxc watch: stopped\n");
    EXIT_OK
}

fn finding(sign: &str, f: &Seen) -> String {
    let severity = if f.error { "error" } else { "warning" };
    let code = f.code.map_or(String::new(), |c| format!("{c} "));
    format!("  {sign} {code}{severity} {}:{}:{} {}", f.file, f.line, f.column, f.message)
}

fn print_first(run: &Run, root: &std::path::Path) {
    println(&format!("ctxc watch: {} in `{}`", summary(run), root.display()));
    for f in &run.findings {
        println(&finding("·", f));
    }
    if !run.tokens.is_empty() {
        println("  tokens per mode are each request's fixed part: system prompt, tool schemas, message framing");
    }
    for ((agent, mode, scenario), tokens) in &run.tokens {
        println(&format!("  tokens {agent} {mode}/{scenario}: {}", grouped(tokens)));
    }
}

fn summary(run: &Run) -> String {
    let errors = run.errors();
    let warnings = run.findings.len() - errors;
    format!("{}, {}", ctxc::lint::check::plural(errors, "error"), ctxc::lint::check::plural(warnings, "warning"))
}

fn print_changes(changed: &[PathBuf], now: &Run, last: &Run, root: &std::path::Path) {
    let names: Vec<String> = changed.iter().map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string()).collect();
    println(&format!("changed: {}", names.join(", ")));
    let changes = now.changes_since(last);
    for f in &changes.added {
        println(&finding("+", f));
    }
    for f in &changes.fixed {
        println(&finding("- fixed:", f));
    }
    for ((agent, mode, scenario), before, after) in &changes.tokens {
        let figure = match (before, after) {
            (Some(b), Some(a)) => format!("{} → {} ({:+})", grouped(b), grouped(a), a - b),
            (None, Some(a)) => format!("new: {}", grouped(a)),
            (Some(b), None) => format!("gone (was {})", grouped(b)),
            (None, None) => continue,
        };
        println(&format!("  tokens {agent} {mode}/{scenario}: {figure}"));
    }
    if changes.added.is_empty() && changes.fixed.is_empty() && changes.tokens.is_empty() {
        println("  no change in findings or tokens");
    }
    println(&format!("  now: {}", summary(now)));
}

/// Runs `--exec` after a run without errors.
fn after_run(run: &Run, exec: Option<&str>) {
    let Some(command) = exec.filter(|_| run.errors() == 0) else { return };
    let shell = if cfg!(windows) { ("cmd", "/C") } else { ("sh", "-c") };
    match std::process::Command::new(shell.0).args([shell.1, command]).status() {
        Ok(status) if status.success() => {}
        Ok(status) => eprint(&format!("ctxc watch: `{command}` failed ({status})\n")),
        Err(e) => eprint(&format!("ctxc watch: cannot run `{command}`: {e}\n")),
    }
}

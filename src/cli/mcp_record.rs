//! `ctxc mcp record [PATH]`: asks the MCP servers the repository configures for their tool lists
//! and writes them into the record (`ctxc.mcp-tools`, see [`ctxc::mcp_record`]). It runs
//! the commands a configuration names, so each one is shown and confirmed in a terminal first,
//! unless `--yes`; the exchange itself is [`ctxc::mcp::record`], bounded.

use std::collections::BTreeMap;
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use ctxc::hostview::mcp_tools::{configured, configured_in};
use ctxc::mcp::record::{self, launch, Limits};
use ctxc::mcp_record::{read_record, Record, RECORD_FILE, RECORD_VERSION};

use super::report::Reporter;
use super::{output, EXIT_INPUT, EXIT_OK};

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The repository's folder: its `.mcp.json` and its plugins', and the other hosts' MCP
    /// configuration files (`.codex/config.toml`, `.gemini/settings.json`, `.cursor/mcp.json`,
    /// `.vscode/mcp.json`), are read, the record written there.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Run every configured command without asking (for scripts: read the configuration first).
    #[arg(long)]
    yes: bool,
    /// Record only this server (repeatable); the others' records are kept.
    #[arg(long = "server", value_name = "NAME")]
    servers: Vec<String>,
    /// Seconds one server has for the whole exchange, from its start; then it is stopped.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    timeout: f64,
    /// Bytes one server may send in all.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_bytes)]
    max_bytes: u64,
    /// Items one list (tools, prompts, resources) may hold, all pages together.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_items)]
    max_items: usize,
}

pub fn run(args: RecordArgs, reporter: &Reporter) -> u8 {
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 3600.0) {
        return reporter.usage("--timeout: a number of seconds above 0, at most 3600");
    }
    let limits = Limits { time: Duration::from_secs_f64(args.timeout), max_bytes: args.max_bytes, max_items: args.max_items };
    let root = match ctxc::project::ProjectRoot::new(&args.path) {
        Ok(root) => root,
        Err(e) => {
            reporter.diagnostics(&[e.into_diagnostic()], &ctxc::Sources::default());
            return EXIT_INPUT;
        }
    };
    let found = ctxc::agent_files::discover(&root, None, Default::default());
    reporter.diagnostics(&found.problems, &ctxc::Sources::default());
    let mut all = configured(&root, &found);
    // The other hosts' configuration files (.codex/config.toml, .gemini/settings.json…); what the
    // host view notes about them (a server turned off, a file that does not parse) is said here.
    let mut notes = Vec::new();
    let files: Vec<&str> = ctxc::hostview::hosts().filter_map(|h| h.startup.as_ref()?.mcp.as_ref()).map(|m| m.file.as_str()).collect();
    for spec in ctxc::hostview::hosts().filter_map(|h| h.startup.as_ref()?.mcp.as_ref()) {
        all.extend(configured_in(&root, spec, &mut notes));
    }
    for note in notes {
        output::eprint(&format!(
            "note: {note}
"
        ));
    }
    let places = format!(".mcp.json, plugins' .mcp.json and manifests, {}", files.join(", "));
    let unknown: Vec<&String> = args.servers.iter().filter(|name| !all.iter().any(|s| &s.server == *name)).collect();
    if let Some(name) = unknown.first() {
        return reporter.usage(format!("--server {name}: no MCP server of that name in {} ({places})", root.display_path(".")));
    }
    if all.is_empty() {
        return reporter.usage(format!("no MCP server configured in {} ({places})", args.path.display()));
    }
    let mut record = match read_record(&root) {
        Ok(record) => record.unwrap_or(Record { version: RECORD_VERSION, servers: Vec::new() }),
        Err(e) => return reporter.usage(format!("{e}: fix or delete it, then record again")),
    };
    let before = record.clone();
    let project = root.canonical().to_path_buf();
    let lookup = |name: &str| std::env::var(name).ok();
    let asking = !args.yes;
    if asking && !std::io::stdin().is_terminal() {
        return reporter.usage(
            "ctxc mcp record runs the commands the MCP configuration names: confirm each in a terminal, or pass --yes to run them all",
        );
    }
    let mut answers: BTreeMap<String, bool> = BTreeMap::new();
    let mut failed = 0;
    for server in all.iter().filter(|s| args.servers.is_empty() || args.servers.contains(&s.server)) {
        let name = format!("`{}` ({})", server.server, server.display);
        let how = match launch(server, &project, &lookup) {
            Ok(how) => how,
            Err(e) => {
                output::eprint(&format!("error: MCP server {name}: {e}\n"));
                failed += 1;
                continue;
            }
        };
        let shown = record::shown(server);
        if asking {
            let yes = match answers.get(&shown) {
                Some(yes) => *yes,
                None => {
                    output::eprint(&format!("MCP server {name} runs: {shown}\nRun it? [y/N] "));
                    let mut line = String::new();
                    let yes = std::io::stdin().lock().read_line(&mut line).is_ok() && matches!(line.trim(), "y" | "Y" | "yes");
                    answers.insert(shown.clone(), yes);
                    yes
                }
            };
            if !yes {
                output::eprint(&format!("skipped MCP server {name}: its record is kept as it was\n"));
                continue;
            }
        } else {
            output::eprint(&format!("MCP server {name}: {shown}\n"));
        }
        match record::record(server, &how, &limits) {
            Ok(entry) => {
                let lists = [("prompts", &entry.prompts), ("resources", &entry.resources)]
                    .iter()
                    .filter_map(|(what, items)| items.as_ref().map(|i| format!(", {} {what}", i.len())))
                    .collect::<String>();
                output::eprint(&format!("recorded MCP server {name}: {} tools{lists}\n", entry.tools.len()));
                record.insert(entry);
            }
            Err(e) => {
                output::eprint(&format!("error: MCP server {name}: {e}\n"));
                failed += 1;
            }
        }
    }
    // Servers no longer configured leave the record.
    record.servers.retain(|r| all.iter().any(|s| s.file == r.file && s.server == r.server));
    let path = args.path.join(RECORD_FILE);
    // A record with the same entries is left as it is (its bytes too).
    if record != before {
        let text = record.to_text();
        // Every other command reads files of MAX_FILE_BYTES at most: a larger record is no use.
        if text.len() as u64 > ctxc::project::MAX_FILE_BYTES {
            return reporter.usage(format!(
                "the record would be {} bytes, more than the {} ctxc reads: record fewer servers (--server) or lower --max-items",
                text.len(),
                ctxc::project::MAX_FILE_BYTES
            ));
        }
        if let Err(e) = ctxc::review::atomic::write(&path, text.as_bytes(), None) {
            return reporter.usage(format!("{}: cannot write: {e}", path.display()));
        }
        output::eprint(&format!("wrote {}\n", root.display_path(RECORD_FILE)));
    }
    match failed {
        0 => EXIT_OK,
        _ => EXIT_INPUT,
    }
}

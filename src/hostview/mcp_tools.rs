//! What the MCP servers' tools recorded by `ctxc mcp record` ([`crate::mcp_record`]) cost
//! in a host's startup context: Claude Code's `.mcp.json` and plugins, and the configuration file
//! another host names (`[startup.mcp]` of its host file). No server is started here (the record is written by
//! `src/mcp/record.rs`, run by a person on purpose). The servers configured in the repository
//! are matched to the record by file, name and a hash of the configuration, so that a changed
//! configuration shows as a stale record. See docs/mcp.md.

use serde_json::Value;

use super::{Part, Section};
use crate::agent_files::Found;
use crate::hosts::McpServers;
use crate::mcp_record::{config_hash, host_servers, read_record, Recorded, RECORD_FILE};
use crate::measure::{cost_tool_list, Count};
use crate::models::ModelProfile;
use crate::project::ProjectRoot;
use crate::rules::mcp::claude_code_reads;
use crate::tokens::TokenCounter;
use crate::tools::Tool;

/// How Claude Code names an MCP tool for its model: `mcp__<server>__<tool>`
/// (https://code.claude.com/docs/en/mcp, "MCP tool names", and the permission rules in
/// https://code.claude.com/docs/en/iam: `mcp__server__tool`).
const CLAUDE_CODE_TOOL_NAME: &str = "mcp__{server}__{tool}";
const CLAUDE_CODE_MCP: &str = "https://code.claude.com/docs/en/mcp";

/// Past a tenth of the window, Claude Code's tool search defers MCP tools instead of loading
/// them at session start (https://code.claude.com/docs/en/mcp, "Scale with MCP Tool Search":
/// `ENABLE_TOOL_SEARCH=auto`, the default, at 10 %).
const TOOL_SEARCH_PERCENT: u64 = 10;

/// An MCP server the repository configures.
#[derive(Debug, Clone)]
pub struct Configured {
    /// The configuration file, relative to the project root, and as displayed.
    pub file: String,
    pub display: String,
    pub server: String,
    /// Its configuration object, as written.
    pub config: Value,
    /// [`config_hash`] of it.
    pub hash: String,
    /// The plugin whose `.mcp.json` (or manifest) it is in: its name and folder (relative).
    pub plugin: Option<(String, String)>,
    /// The tools the host sends of those the server lists, when its configuration says.
    pub only: Option<Vec<String>>,
    pub except: Vec<String>,
}

/// How a host names MCP tools for the model ([`McpServers::tool_name`]), where that is
/// documented, and whether it has Claude Code's tool search.
pub struct Naming {
    pub tool_name: String,
    pub prefix: Option<String>,
    pub invalid: Option<regex::Regex>,
    pub max: Option<usize>,
    pub source: String,
    pub tool_search: bool,
}

impl Naming {
    pub fn claude_code() -> Naming {
        let (prefix, invalid, max) = (None, None, None);
        Naming {
            tool_name: CLAUDE_CODE_TOOL_NAME.to_string(),
            prefix,
            invalid,
            max,
            source: CLAUDE_CODE_MCP.to_string(),
            tool_search: true,
        }
    }

    /// Another host's naming, from its host file (`source`: its source, as shown).
    pub fn of(spec: &McpServers, source: String) -> Naming {
        Naming {
            tool_name: spec.tool_name.clone(),
            prefix: spec.tool_name_prefix.clone(),
            // Embedded data: a pattern that does not compile is caught by the host files' test.
            invalid: spec.tool_name_invalid.as_deref().and_then(|p| regex::Regex::new(p).ok()),
            max: spec.tool_name_max,
            source,
            tool_search: false,
        }
    }

    /// The name the model sees the tool `tool` of the server `server` by.
    pub fn name(&self, server: &str, tool: &str) -> String {
        let mut name = super::inline_imports::fill(&self.tool_name, &[("{server}", server), ("{tool}", tool)]);
        if let Some(prefix) = self.prefix.as_deref().filter(|p| !name.starts_with(p)) {
            name.insert_str(0, prefix);
        }
        if let Some(invalid) = &self.invalid {
            name = invalid.replace_all(&name, "_").into_owned();
        }
        match self.max {
            Some(max) if name.chars().count() > max => {
                let keep = max.saturating_sub(3) / 2;
                let start: String = name.chars().take(keep).collect();
                let end: String = name.chars().skip(name.chars().count() - keep).collect();
                format!("{start}...{end}")
            }
            _ => name,
        }
    }
}

/// The servers of the repository's Claude Code MCP configurations: the project's `.mcp.json`
/// and every plugin's (its `.mcp.json`, either form, and its manifest's inline `mcpServers`),
/// in path order then name order. Files that do not parse are the MCP rules' business.
pub fn configured(root: &ProjectRoot, found: &Found) -> Vec<Configured> {
    let mut out = Vec::new();
    for doc in found.files.iter().filter(|d| claude_code_reads(d)) {
        let json = doc.json();
        let Ok(value) = &*json else { continue };
        for (name, server) in crate::rules::mcp::mcp_servers(doc, value) {
            out.push(Configured {
                file: doc.rel.clone(),
                display: doc.file.clone(),
                server: name.to_string(),
                config: server.clone(),
                hash: config_hash(server),
                plugin: doc.plugin.as_ref().map(|p| (p.name.clone(), root.display_path(&p.rel))),
                only: None,
                except: Vec::new(),
            });
        }
    }
    out.sort_by(|a, b| (&a.file, &a.server).cmp(&(&b.file, &b.server)));
    out
}

/// The servers of another host's configuration file (`spec`), in name order, each in the shape
/// the launcher and the record's hash read (its members renamed as `spec.rename` says). A
/// server the configuration turns off is noted and left out; a file that cannot be read or
/// parsed is noted.
pub fn configured_in(root: &ProjectRoot, spec: &McpServers, notes: &mut Vec<String>) -> Vec<Configured> {
    let text = match root.read(&spec.file) {
        Ok(file) => file.text.to_string(),
        Err(crate::project::ReadError::Missing(_)) => return Vec::new(),
        Err(e) => {
            notes.push(format!("{}: {}: its MCP servers are not counted", root.display_path(&spec.file), e.into_diagnostic().message));
            return Vec::new();
        }
    };
    let value = match crate::mcp_record::parse_config(&spec.file, &text) {
        Ok(value) => value,
        Err(e) => {
            notes.push(format!("{} is not valid, so its MCP servers are not counted: {e}", root.display_path(&spec.file)));
            return Vec::new();
        }
    };
    let names = |server: &Value, key: &Option<String>| -> Option<Vec<String>> {
        let list = server.get(key.as_deref()?)?.as_array()?;
        Some(list.iter().filter_map(Value::as_str).map(str::to_string).collect())
    };
    let mut out = Vec::new();
    for server in host_servers(spec, &value) {
        if server.off {
            notes.push(format!(
                "MCP server `{}` ({}) is turned off in its configuration: not counted",
                server.name,
                root.display_path(&spec.file)
            ));
            continue;
        }
        out.push(Configured {
            file: spec.file.clone(),
            display: root.display_path(&spec.file),
            server: server.name.to_string(),
            hash: config_hash(&server.config),
            only: names(server.written, &spec.include_key),
            except: names(server.written, &spec.exclude_key).unwrap_or_default(),
            config: server.config,
            plugin: None,
        });
    }
    out
}

/// The sections of the MCP tools of `servers`, one per project server recorded, each tool a part
/// counted as the model receives it among its other tools (its definition, named as `naming`
/// says, with the provider's framing between definitions; not the tool-use preamble, which
/// built-in tools bring anyway). Servers of plugins are noted, not counted (as plugins'
/// listings); servers without a record or whose configuration changed are noted.
pub fn sections(
    root: &ProjectRoot,
    servers: Vec<Configured>,
    naming: &Naming,
    profile: &ModelProfile,
    counter: &TokenCounter,
    notes: &mut Vec<String>,
) -> Vec<Section> {
    if servers.is_empty() {
        return Vec::new();
    }
    let record = match read_record(root) {
        Ok(record) => record.unwrap_or_default(),
        Err(e) => {
            notes.push(format!("the MCP tool record cannot be read, so MCP tools are not counted: {e}"));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for server in servers {
        let recorded = match record.lookup(&server.file, &server.server, &server.hash) {
            Recorded::Missing => {
                notes.push(format!(
                    "MCP server `{}` ({}) has no record in {RECORD_FILE}: its tools are not counted (run `ctxc mcp record`)",
                    server.server, server.display
                ));
                continue;
            }
            Recorded::Stale(recorded) => {
                notes.push(format!(
                    "the record of MCP server `{}` ({}) is older than its configuration (the hash differs): counted as recorded; run `ctxc mcp record` again",
                    server.server, server.display
                ));
                recorded
            }
            Recorded::Current(recorded) => recorded,
        };
        let (name, title) = match &server.plugin {
            Some((plugin, _)) => (format!("plugin_{plugin}_{}", server.server), format!("MCP tools: plugin {plugin}, {}", server.server)),
            None => (server.server.clone(), format!("MCP tools: {}", server.server)),
        };
        let sent = |t: &&Value| {
            let tool = t.get("name").and_then(Value::as_str).unwrap_or_default();
            // A name in the list, or `name(…)` as Gemini CLI also accepts.
            let named = |n: &String| n == tool || n.strip_prefix(tool).is_some_and(|rest| rest.starts_with('('));
            !server.except.iter().any(named) && server.only.as_ref().is_none_or(|only| only.iter().any(named))
        };
        let tools: Vec<Tool> = recorded.tools.iter().filter(sent).map(|t| tool(naming, &name, t)).collect();
        if tools.len() < recorded.tools.len() {
            notes.push(format!(
                "MCP server `{}` ({}): {} of its {} recorded tools are sent, as its configuration lists them",
                server.server,
                server.display,
                tools.len(),
                recorded.tools.len()
            ));
        }
        let refs: Vec<&Tool> = tools.iter().collect();
        let costs = cost_tool_list(&refs, profile, counter, root.cache());
        // Each tool's bytes: its definition as JSON, the form the record holds it in.
        let parts: Vec<Part> = costs
            .tools
            .iter()
            .zip(&tools)
            .map(|(cost, tool)| Part {
                file: root.display_path(RECORD_FILE),
                label: cost.name.clone(),
                bytes: tool.function_json().len(),
                tokens: cost.tokens,
                cut: None,
            })
            .collect();
        let tokens = Count { tokens: costs.total.tokens - costs.preamble.tokens, ..costs.total };
        let sum: i64 = parts.iter().map(|p| p.tokens.tokens).sum();
        let section = Section {
            title,
            source: naming.source.clone(),
            joins: Count { tokens: tokens.tokens - sum, ..tokens },
            parts,
            tokens,
            budget: None,
            entry_budget: None,
            joins_modelled: true,
            joined: None,
        };
        match &server.plugin {
            Some((plugin, folder)) => notes.push(format!(
                "plugin `{plugin}` ({folder}) adds MCP server `{}`: {} tools ({}{} tokens) once installed: not counted",
                server.server,
                tools.len(),
                if tokens.exact { "" } else { "~" },
                tokens.tokens
            )),
            None => out.push(section),
        }
    }
    let total: i64 = out.iter().map(|s| s.tokens.tokens).sum();
    if !naming.tool_search {
        return out;
    }
    let threshold = profile.max_input_tokens * TOOL_SEARCH_PERCENT / 100;
    if u64::try_from(total).is_ok_and(|t| t > threshold) {
        notes.push(format!(
            "the MCP tools take more than {TOOL_SEARCH_PERCENT} % of the window ({threshold} tokens): Claude Code's tool search (on by default, \
             `ENABLE_TOOL_SEARCH=auto`) then defers them and loads each on demand, so they are not all in the startup \
             context; counted here as if loaded (https://code.claude.com/docs/en/mcp, \"Scale with MCP Tool Search\")"
        ));
    }
    out
}

/// A recorded tool as the host sends it: named as the host names it.
fn tool(naming: &Naming, server: &str, recorded: &Value) -> Tool {
    let name = recorded.get("name").and_then(Value::as_str).unwrap_or_default();
    let named = naming.name(server, name);
    let description = recorded.get("description").and_then(Value::as_str).map(str::to_string);
    let schema = recorded.get("inputSchema").cloned().unwrap_or_else(crate::tools::empty_parameters);
    let read_only = recorded.pointer("/annotations/readOnlyHint").and_then(Value::as_bool);
    Tool::new(named, description, schema, read_only)
}

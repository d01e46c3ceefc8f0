//! Bare tool files costed on their own (`ctxc cost tools.json`): each file read and parsed, the
//! tools of all of them costed as one list the way a model's provider renders it, and what is
//! wrong with them as diagnostics.

use std::path::{Path, PathBuf};

use super::{cost_tool_list, ToolCosts};
use crate::codes::Code;
use crate::diagnostic::{has_errors, Diagnostic, Sources};
use crate::memo::Cache;
use crate::models::ModelProfile;
use crate::project::{ProjectRoot, ReadError};
use crate::tokens::TokenCounter;
use crate::tools::{parse_tool_file, repeated_names, Tool, ToolFileError, ToolFormat};

/// Tool files to cost: one file, or the files found in a directory (shown relative to it).
#[derive(Debug, Clone)]
pub struct ToolFiles {
    pub files: Vec<PathBuf>,
    /// The directory given, whose files are shown relative to it; `None` for one file.
    pub dir: Option<PathBuf>,
}

impl ToolFiles {
    /// Tool files named by PATH: a file that is not a manifest, or every file (outside hidden
    /// folders) of a directory without manifests.
    pub fn named_by(path: &Path) -> Option<ToolFiles> {
        if path.is_file() {
            return (!is_manifest_file(path)).then(|| ToolFiles { files: vec![path.to_path_buf()], dir: None });
        }
        if !path.is_dir() || crate::discover::find_manifests(path).is_ok() {
            return None;
        }
        let hidden_dir =
            |e: &walkdir::DirEntry| e.depth() > 0 && e.file_type().is_dir() && e.file_name().to_string_lossy().starts_with('.');
        let mut files: Vec<PathBuf> = walkdir::WalkDir::new(path)
            .follow_links(false)
            .into_iter()
            .filter_entry(|e| !hidden_dir(e))
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| e.into_path())
            .collect();
        files.sort();
        (!files.is_empty()).then(|| ToolFiles { files, dir: Some(path.to_path_buf()) })
    }
}

/// A manifest file: named as one, or a TOML or YAML file holding no tool format (a SWE-agent
/// bundle is YAML). The manifest loader reports what is wrong with it.
fn is_manifest_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if crate::manifest::MANIFEST_NAMES.contains(&name) {
        return true;
    }
    let toml_or_yaml = matches!(path.extension().and_then(|e| e.to_str()), Some("toml" | "yaml" | "yml"));
    toml_or_yaml && ProjectRoot::read_path(path).map_or(true, |f| parse_tool_file(&f.text).is_err_and(|e| e.code == Code::TOOL010))
}

/// One tool file that gave tools, and where they came from.
#[derive(Debug, Clone)]
pub struct CostedFile {
    /// As shown: relative to the directory given.
    pub file: String,
    pub format: ToolFormat,
    pub json_lines: bool,
    /// The MCP server of the file's tools: the capture's own `serverInfo.name`, else the file's
    /// name for an MCP `tools/list` result (a file of single tools names no server).
    pub server: Option<String>,
    pub tools: Vec<Tool>,
}

/// A tool name defined more than once, with the file of each definition.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Duplicate {
    pub name: String,
    pub files: Vec<String>,
}

/// Every tool of the files costed as one list.
#[derive(Debug)]
pub struct ToolFilesCost {
    pub model: ModelProfile,
    /// The files that gave tools, in the order given.
    pub files: Vec<CostedFile>,
    /// The list's costs; `costs.tools` is in the order of the files' tools, file by file.
    pub costs: ToolCosts,
    /// By name.
    pub duplicates: Vec<Duplicate>,
    /// Files skipped (warnings), broken or unreadable (errors), duplicate names (TOOL003).
    pub problems: Vec<Diagnostic>,
    /// The texts read, for the problems' snippets.
    pub sources: Sources,
}

impl ToolFilesCost {
    /// An error was found: the exit code is 2.
    pub fn failed(&self) -> bool {
        has_errors(&self.problems)
    }

    /// Each tool with the file it came from, in the order of `costs.tools`.
    pub fn tools(&self) -> impl Iterator<Item = (&Tool, &CostedFile)> {
        self.files.iter().flat_map(|f| f.tools.iter().map(move |t| (t, f)))
    }
}

/// Costs bare tool files for `model`. One file that cannot be read is an error. In a directory
/// each file is read on its own: a file that is no tool file is a warning and skipped, a broken
/// tool file an error, and the rest is still costed; a directory with nothing to cost is an error.
pub fn cost_tool_files(input: &ToolFiles, model: ModelProfile, counter: &TokenCounter, cache: &Cache) -> ToolFilesCost {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    let mut sources = Sources::default();
    let in_dir = input.dir.is_some();
    for path in &input.files {
        let display = path.display().to_string();
        let shown = match &input.dir {
            Some(dir) => path.strip_prefix(dir).unwrap_or(path).display().to_string(),
            None => display.clone(),
        };
        let text = match ProjectRoot::read_path(path) {
            Ok(f) => f.text,
            // A binary file in a directory is no tool file.
            Err(ReadError::NotUtf8 { .. }) if in_dir => {
                let d = Diagnostic::warning("skipped: not a tool file (found a binary file, not UTF-8)").code(Code::TOOL010);
                problems.push(d.in_file(display));
                continue;
            }
            Err(e) => {
                problems.push(e.into_diagnostic().in_file(display));
                continue;
            }
        };
        match parse_tool_file(&text) {
            Ok(parsed) => {
                let listed = parsed.format == ToolFormat::Mcp && parsed.listing;
                let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).filter(|_| listed);
                files.push(CostedFile {
                    file: shown,
                    format: parsed.format,
                    json_lines: parsed.json_lines,
                    server: parsed.server.or(stem),
                    tools: parsed.tools,
                });
            }
            // In a directory, a file that is no tool file is skipped with a short warning.
            Err(ToolFileError { code: Code::TOOL010, found: Some(found), help, .. }) if in_dir => {
                let d =
                    Diagnostic::warning(format!("skipped: not a tool file (found {found})")).code(Code::TOOL010).in_file(display.as_str());
                problems.push(match help {
                    Some(help) => d.help(help),
                    None => d,
                });
            }
            Err(e) => problems.push(e.into_diagnostic(&display)),
        }
        sources.insert_shared(display, text);
    }
    let duplicates = duplicates(&files);
    for Duplicate { name, files } in &duplicates {
        let d = Diagnostic::warning(format!("tool `{name}` is defined {} times: in {}", files.len(), files.join(", ")))
            .code(Code::TOOL003)
            .help("a provider rejects a request with two tools of one name: keep one, or give each a unique name");
        problems.push(d);
    }
    if files.is_empty() && !has_errors(&problems) {
        let dir = input.dir.as_deref().unwrap_or(Path::new(".")).display();
        problems.push(
            Diagnostic::error(format!("no tool file found in `{dir}`")).help(format!("a tool file holds {}", crate::tools::EXPECTED)),
        );
    }
    let tools: Vec<&Tool> = files.iter().flat_map(|f| &f.tools).collect();
    let costs = cost_tool_list(&tools, &model, counter, cache);
    ToolFilesCost { model, files, costs, duplicates, problems, sources }
}

/// Tool names defined more than once (TOOL003's test), with the file of each definition, by name.
fn duplicates(files: &[CostedFile]) -> Vec<Duplicate> {
    let defined: Vec<(&str, &str)> = files.iter().flat_map(|f| f.tools.iter().map(move |t| (t.name.as_str(), f.file.as_str()))).collect();
    let mut by_name: std::collections::BTreeMap<&str, Vec<String>> = std::collections::BTreeMap::new();
    for (first, later) in repeated_names(defined.iter().map(|(name, _)| *name)) {
        let files = by_name.entry(defined[first].0).or_insert_with(|| vec![defined[first].1.to_string()]);
        files.push(defined[later].1.to_string());
    }
    by_name.into_iter().map(|(name, files)| Duplicate { name: name.to_string(), files }).collect()
}

//! The agent hosts as data: for each host (Claude Code, …) the files it reads, from which roots
//! (the project, a plugin), the fields it reads in each and with which status, the variables it
//! sets, and where each fact comes from. One TOML file per host in `data/hosts/`, embedded and
//! parsed once; rules ask this model instead of keeping their own lists. Format: docs/hosts.md.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;

/// The host files, embedded: (host id, text). A test checks every file of `data/hosts/` is here.
pub const FILES: &[(&str, &str)] = &[
    ("claude-code", include_str!("../data/hosts/claude-code.toml")),
    ("cline", include_str!("../data/hosts/cline.toml")),
    ("codex", include_str!("../data/hosts/codex.toml")),
    ("copilot", include_str!("../data/hosts/copilot.toml")),
    ("cursor", include_str!("../data/hosts/cursor.toml")),
    ("gemini-cli", include_str!("../data/hosts/gemini-cli.toml")),
    ("kiro", include_str!("../data/hosts/kiro.toml")),
    ("opencode", include_str!("../data/hosts/opencode.toml")),
    ("windsurf", include_str!("../data/hosts/windsurf.toml")),
];

/// The format version the files are written in.
pub const FORMAT: u32 = 1;

/// One host: what it reads and sets, with the sources of the facts.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Host {
    pub format: u32,
    pub id: String,
    pub name: String,
    /// Where facts come from, by id.
    pub sources: BTreeMap<String, Source>,
    /// The folders the host reads files from, by name (`project`, `user`, `plugin`).
    pub roots: BTreeMap<String, Root>,
    #[serde(default)]
    pub variables: Vec<Variable>,
    #[serde(default)]
    pub files: Vec<FileSpec>,
    /// Closed sets of values the host accepts (hook events…), by name.
    #[serde(default)]
    pub values: Vec<Values>,
    /// What the host loads at session start (`ctxc cost --host`), for the hosts ctxc shows so.
    pub startup: Option<Startup>,
    /// Each file spec's globs, compiled, in the order of `files` (filled after parsing).
    #[serde(skip)]
    globs: Vec<GlobSet>,
}

/// Where a fact comes from: a documentation page read on a day, or a file of a repository at a
/// commit or of a package at a version.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub url: Option<String>,
    /// The day the page was read (`YYYY-MM-DD`).
    pub checked: Option<String>,
    /// `owner/name` of a repository.
    pub repo: Option<String>,
    /// A package, as its registry names it (`npm:@anthropic-ai/claude-code`).
    pub package: Option<String>,
    /// The file within the repository or package.
    pub path: Option<String>,
    pub commit: Option<String>,
    pub version: Option<String>,
}

/// A folder the host reads files from.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Root {
    pub about: String,
    pub source: String,
    /// The file (relative to the folder) that makes a folder this root.
    pub marker: Option<String>,
}

/// A variable the host sets.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variable {
    pub name: String,
    pub about: String,
    /// The roots it is set for (every root when empty).
    #[serde(default)]
    pub roots: Vec<String>,
    /// The file kinds whose values the host expands it in.
    #[serde(rename = "in")]
    pub kinds: Vec<String>,
    pub source: String,
}

/// A closed set of values the host accepts (`hook-events`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Values {
    pub name: String,
    pub about: String,
    pub values: Vec<String>,
    pub source: String,
}

/// What a host puts in the context at session start, part by part.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Startup {
    /// The model counted for when none is given: ctxc's choice, not a fact of the host.
    pub model: String,
    /// Why that model.
    pub model_about: String,
    /// The kinds of file that show the host when no host is asked for (empty: any file the
    /// view loads), for a host whose other files are shared with other hosts (AGENTS.md).
    #[serde(default)]
    pub signature_kinds: Vec<String>,
    /// Whether the host does not publish how it joins what it loads: each part is counted
    /// alone, the joins are not, and no count is exact.
    #[serde(default)]
    pub joins_unknown: bool,
    /// Whether the host sends the tools of the project's `.mcp.json` servers, as `ctxc mcp
    /// record` recorded them, named `mcp__SERVER__TOOL` (a section per server).
    #[serde(default)]
    pub mcp_tools: bool,
    /// For another host: the project configuration file naming its MCP servers, whose tools
    /// (as `ctxc mcp record` recorded them) it sends.
    pub mcp: Option<McpServers>,
    pub memory: Option<MemoryChain>,
    pub rules: Option<RulesFolder>,
    #[serde(default)]
    pub listings: Vec<Listing>,
}

/// The MCP servers a host starts from a project configuration file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpServers {
    /// The file, relative to the project root (TOML, or JSON with comments, by its extension),
    /// and the dotted key of its table of servers by name.
    pub file: String,
    pub key: String,
    /// The host's names of a server's members that ctxc's launcher and record hash call
    /// otherwise (`httpUrl = "url"`): `command`, `args`, `env`, `cwd`, `url`, `headers`, `type`.
    #[serde(default)]
    pub rename: BTreeMap<String, String>,
    /// A member that, when `false`, keeps the server from starting; one that, when `true`, does.
    pub enabled_key: Option<String>,
    pub disabled_key: Option<String>,
    /// Members listing the only tools sent, and tools not sent (which wins).
    pub include_key: Option<String>,
    pub exclude_key: Option<String>,
    /// The name the model sees a tool by (`{server}`, `{tool}`); then, where the host does so,
    /// `tool_name_prefix` put before it unless it starts with it, the characters
    /// `tool_name_invalid` (a regular expression) matches written `_`, and a name longer than
    /// `tool_name_max` characters shortened to its start and end around `...`.
    pub tool_name: String,
    pub tool_name_prefix: Option<String>,
    pub tool_name_invalid: Option<String>,
    pub tool_name_max: Option<usize>,
    pub source: String,
}

/// How many of a folder's memory files the host reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PerFolder {
    /// Every name present.
    All,
    /// The first name present.
    First,
}

/// The memory files read in each folder from the project root down to the working directory.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryChain {
    /// Paths relative to each folder, in the order the host reads them.
    pub names: Vec<String>,
    pub per_folder: PerFolder,
    /// How many hops of `@path` imports the host follows (none when absent).
    pub import_depth: Option<usize>,
    /// The file whose folder is the chain's top (the Git root), when the host looks for one.
    pub root_marker: Option<String>,
    /// What the texts are joined with, when the host joins them into one text.
    pub joiner: Option<String>,
    /// The joined text as the host sends it, `{text}` in it, `{dir}` the working directory's
    /// absolute path; its source, when not `source`.
    pub frame: Option<String>,
    pub frame_source: Option<String>,
    /// The most bytes read in all, when the host cuts the chain; its source.
    pub max_bytes: Option<u64>,
    pub max_bytes_source: Option<String>,
    /// The order the files are loaded in: the chain's (top folder first), or by path.
    #[serde(default)]
    pub order: MemoryOrder,
    /// Each text trimmed and written into this template (`{path}`: its absolute path, `{text}`),
    /// an empty one left out, when the host wraps the files it joins.
    pub wrap: Option<String>,
    /// `@path` imports expanded inside the text, when the host does so (instead of `import_depth`).
    pub inline_imports: Option<InlineImports>,
    /// The project configuration file (TOML or JSON) that may change `max_bytes`, the names and
    /// the root markers, and its keys (dotted for nested tables): the byte limit, names added
    /// after `names`, names put before them, the list of root markers.
    pub config: Option<String>,
    /// Whether `config` is relative to the working directory (else to the project root).
    #[serde(default)]
    pub config_in_working_directory: bool,
    /// Whether the names are read in the chain's top folder alone (the folder an editor opens),
    /// not in the folders below it down to the working directory.
    #[serde(default)]
    pub top_only: bool,
    pub max_bytes_key: Option<String>,
    pub fallback_names_key: Option<String>,
    pub names_key: Option<String>,
    pub markers_key: Option<String>,
    pub source: String,
}

/// The order memory files are loaded in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemoryOrder {
    /// Folder by folder from the top down, in the order of `names` within a folder.
    #[default]
    Chain,
    /// Sorted by absolute path, as JavaScript sorts strings (by UTF-16 code unit).
    Path,
}

/// `@path` imports replaced by the imported text, as Gemini CLI expands them. The templates take
/// `{import}` (the path as written), `{text}` and `{reason}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InlineImports {
    /// Files this many imports deep are kept as written.
    pub max_depth: usize,
    pub wrap: String,
    /// An import that cannot be read, or leaves the folder imports must stay in.
    pub failed: String,
    /// An import of a file that is already being expanded (a cycle).
    pub repeated: String,
    pub source: String,
}

/// A folder of rule files loaded at start, but those holding `conditional_field`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFolder {
    pub glob: String,
    pub conditional_field: String,
    /// When not empty: a file loads at start only when `conditional_field` (patterns separated
    /// by commas) holds one of these; one without the field does not load at all.
    #[serde(default)]
    pub always: Vec<String>,
    /// With `always`: what happens to a file whose field holds none of them, and to one
    /// without the field, for the notes.
    pub conditional_note: Option<String>,
    pub missing_note: Option<String>,
    /// Each file trimmed and written into this template (`{path}`: its absolute path, `{text}`),
    /// an empty one left out, and the files joined with `joiner`, when the host joins them.
    pub wrap: Option<String>,
    pub joiner: Option<String>,
    pub source: String,
}

/// A listing of files of some kinds by name and description (skills, subagents).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listing {
    pub title: String,
    /// ctxc's kinds listed (`FileKind` in kebab-case).
    pub kinds: Vec<String>,
    /// One entry, with `{name}`, `{description}`, `{path}` (the file's absolute path) and
    /// `{front:KEY}` (a frontmatter field).
    pub entry: String,
    /// Whether a line of an entry whose placeholder is empty is left out.
    #[serde(default)]
    pub omit_empty_lines: bool,
    /// The listing as sent, around the entries (`{entries}`), when the host frames it.
    pub frame: Option<String>,
    /// A frontmatter field that, when `true`, keeps a file out of the listing.
    pub hidden_field: Option<String>,
    /// The most characters of one entry's description.
    pub entry_max_chars: Option<usize>,
    /// The most characters of the whole listing.
    pub budget_chars: Option<usize>,
    /// The listing's budget as a share of the model's window, in tokens counted as the entry's
    /// bytes (with its line break) divided by `budget_bytes_per_token`, rounded up: entries are
    /// taken in order while they fit, the others are left out.
    pub budget_window_percent: Option<u64>,
    pub budget_bytes_per_token: Option<usize>,
    /// The window the budget is a share of, by model, as the host's own model catalogue gives
    /// it (not ctxc's model table), and for a model it does not name (`budget_window`); neither:
    /// the window ctxc knows for the model.
    #[serde(default)]
    pub budget_windows: BTreeMap<String, u64>,
    pub budget_window: Option<u64>,
    /// The source of `budget_windows`, `budget_window` and `budget_over`, when not `source`.
    pub budget_source: Option<String>,
    /// What the host does when the entries pass the budget.
    #[serde(default)]
    pub budget_over: BudgetOver,
    /// With `budget_over = "shorten-descriptions"`: an entry written without its description.
    pub entry_without_description: Option<String>,
    /// Paths written short: `{path}` is a root's alias and the path under it, and the roots
    /// table (`{roots}` in `frame`) names each alias's folder.
    pub aliases: Option<PathAliases>,
    /// Where the listed files are, relative to each folder of `folders`, in the host's order of
    /// those places (empty: the host's project files of `kinds`, plugins' included).
    #[serde(default)]
    pub paths: Vec<String>,
    #[serde(default)]
    pub folders: ListingFolders,
    /// With `folders = "chain"`: the file whose nearest folder above the working directory is
    /// the chain's top (else the project root).
    pub root_marker: Option<String>,
    /// Whether runs of white space in names and descriptions are made one space.
    #[serde(default)]
    pub collapse_whitespace: bool,
    /// Frontmatter fields without which the host does not list a file (the name then does not
    /// come from the folder).
    #[serde(default)]
    pub required: Vec<String>,
    /// The most characters of `name` or `description`: a file over it is not listed.
    #[serde(default)]
    pub refuse_over: BTreeMap<String, usize>,
    /// Characters of a name the host writes as `-`.
    pub name_replaced: Option<String>,
    /// Whether a later file with a listed name replaces the earlier entry, in its place.
    #[serde(default)]
    pub later_name_wins: bool,
    /// Whether entries are ordered by name (then path) rather than by place then path.
    #[serde(default)]
    pub order_by_name: bool,
    pub source: String,
}

/// What a host does with a listing whose entries pass its budget.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BudgetOver {
    /// Entries are taken in order while they fit; the others are left out.
    #[default]
    LeaveOut,
    /// First the room left after every entry written without its description is shared among
    /// the descriptions, one character at a time to each entry in turn while the next one
    /// fits; when even the entries without descriptions do not fit, every description is
    /// removed and those entries are taken in order while they fit.
    ShortenDescriptions,
}

/// How a listing writes its paths short.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathAliases {
    /// An alias, `{n}` its number from 0 in the table's order.
    pub alias: String,
    /// One line of the roots table, `{alias}` and `{path}` (the folder's absolute path).
    pub table_line: String,
    /// The folders that are roots (each under a folder of the listing's `folders`), in the
    /// table's order; only roots holding a listed file get an alias.
    pub roots: Vec<AliasRoot>,
}

/// A kind of root of [`PathAliases`], and the order of the folders holding one.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AliasRoot {
    pub folder: String,
    pub order: RootOrder,
}

/// The order of the roots of one kind along the chain of folders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RootOrder {
    /// From the chain's top down to the working directory.
    TopFirst,
    /// From the working directory up to the chain's top.
    WorkingDirectoryFirst,
}

/// The folders a listing's `paths` are read in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ListingFolders {
    /// The project root.
    #[default]
    Root,
    /// The working directory.
    WorkingDirectory,
    /// Each folder from the chain's top (`root_marker`) down to the working directory.
    Chain,
}

/// Whether a file is Markdown (with YAML frontmatter) or JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    Markdown,
    Json,
    Toml,
    Text,
}

/// One kind of file the host reads.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSpec {
    /// ctxc's name of the kind (`FileKind` in kebab-case).
    pub kind: String,
    pub format: Format,
    pub about: String,
    pub source: String,
    pub paths: Vec<PathSpec>,
    #[serde(default)]
    pub fields: Vec<FieldGroup>,
    /// Other shapes the host accepts for the file, by root.
    #[serde(default)]
    pub forms: Vec<Form>,
    /// The most characters (Unicode scalar values) the host takes in one file of the kind, from
    /// the kind's `source`.
    pub max_chars: Option<usize>,
}

/// Where files of a kind are: a glob relative to a root.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathSpec {
    pub root: String,
    pub glob: String,
    /// The field of the root's manifest that may name other paths for the kind (plugin.json's
    /// `agents`, `commands`, `hooks`, `mcpServers`…).
    pub component: Option<String>,
}

/// Field names sharing one status and source.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldGroup {
    pub status: Status,
    pub names: Vec<String>,
    pub source: String,
    /// For deprecated or removed fields: what to write instead.
    pub replaced_by: Option<String>,
    /// The nested table the names are keys of (`profiles.*`: of every table under `profiles`);
    /// absent for top-level keys.
    pub under: Option<String>,
}

/// What the host does with a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Read, and the file is not used without it.
    Required,
    /// Read.
    Known,
    /// Still read, but on its way out.
    Deprecated,
    /// No longer read.
    Removed,
}

/// Another shape the host accepts for a file under a root.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Form {
    pub root: String,
    /// `flat-server-map`: an MCP configuration that is the server map itself, without `mcpServers`.
    pub form: String,
    pub source: String,
}

impl Host {
    /// The spec of a file kind, when the host reads it.
    pub fn file(&self, kind: &str) -> Option<&FileSpec> {
        self.files.iter().find(|f| f.kind == kind)
    }

    /// The values of the set `name` (empty when the host model has none of that name).
    pub fn values(&self, name: &str) -> Vec<&str> {
        self.values.iter().filter(|v| v.name == name).flat_map(|v| v.values.iter().map(String::as_str)).collect()
    }

    /// The kind of a file at `rel` (relative to a folder that is `root`), by the globs.
    pub fn kind_at(&self, root: &str, rel: &str) -> Option<&FileSpec> {
        self.files.iter().zip(&self.globs).find_map(|(spec, globs)| {
            let matched = globs.matches(rel);
            matched.iter().any(|&i| spec.paths[i].root == root).then_some(spec)
        })
    }

    /// The fields of a root's manifest that name paths of a kind of file (plugin.json's
    /// `agents`, `commands`…), in file order.
    pub fn components<'a>(&'a self, root: &'a str) -> Vec<&'a str> {
        let mut out: Vec<&str> = Vec::new();
        for path in self.files.iter().flat_map(|f| f.globs_in(root)) {
            if let Some(c) = path.component.as_deref().filter(|c| !out.contains(c)) {
                out.push(c);
            }
        }
        out
    }

    /// The variables the host sets in files of `kind` under `root`.
    pub fn variables_in<'a>(&'a self, kind: &'a str, root: &'a str) -> impl Iterator<Item = &'a Variable> + 'a {
        self.variables
            .iter()
            .filter(move |v| v.kinds.iter().any(|k| k == kind) && (v.roots.is_empty() || v.roots.iter().any(|r| r == root)))
    }
}

impl FileSpec {
    /// What the host does with a field of this file, if it knows it.
    pub fn status(&self, field: &str) -> Option<Status> {
        self.top_level().find(|g| g.names.iter().any(|n| n == field)).map(|g| g.status)
    }

    /// The groups of top-level fields.
    fn top_level(&self) -> impl Iterator<Item = &FieldGroup> {
        self.fields.iter().filter(|g| g.under.is_none())
    }

    /// The keys the host reads in the nested tables `under` names (`profiles.*`).
    pub fn read_fields_under<'a>(&'a self, under: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.fields
            .iter()
            .filter(move |g| g.under.as_deref() == Some(under) && g.status != Status::Removed)
            .flat_map(|g| g.names.iter().map(String::as_str))
    }

    /// Whether the host reads the field (required, known or deprecated).
    pub fn reads(&self, field: &str) -> bool {
        matches!(self.status(field), Some(Status::Required | Status::Known | Status::Deprecated))
    }

    /// The fields the host reads, in the file's order.
    pub fn read_fields(&self) -> impl Iterator<Item = &str> {
        self.top_level().filter(|g| g.status != Status::Removed).flat_map(|g| g.names.iter().map(String::as_str))
    }

    /// The fields without which the host does not use the file.
    pub fn required_fields(&self) -> impl Iterator<Item = &str> {
        self.top_level().filter(|g| g.status == Status::Required).flat_map(|g| g.names.iter().map(String::as_str))
    }

    /// Whether the host accepts the file in another shape (`form`) under `root`.
    pub fn accepts_form(&self, root: &str, form: &str) -> bool {
        self.forms.iter().any(|f| f.root == root && f.form == form)
    }

    /// The globs of the kind under `root`.
    pub fn globs_in<'a>(&'a self, root: &'a str) -> impl Iterator<Item = &'a PathSpec> + 'a {
        self.paths.iter().filter(move |p| p.root == root)
    }
}

/// Parses one host file (a bug in the embedded data is a test failure, see the tests).
pub fn parse(text: &str) -> Result<Host, String> {
    // Read through a table: the host types are compiled for `toml::Value`'s small reader, not for the
    // manifest's position-keeping one (which made them twice the code). A wrong type in the embedded
    // data is then named without its line; the tests parse every host file.
    let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut host: Host = table.try_into().map_err(|e: toml::de::Error| e.to_string())?;
    host.globs = host
        .files
        .iter()
        .map(|spec| {
            let mut set = GlobSetBuilder::new();
            for path in &spec.paths {
                set.add(Glob::new(&path.glob).map_err(|e| format!("{}: {e}", spec.kind))?);
            }
            set.build().map_err(|e| e.to_string())
        })
        .collect::<Result<_, String>>()?;
    Ok(host)
}

static HOSTS: LazyLock<Vec<Host>> = LazyLock::new(|| {
    FILES.iter().map(|(id, text)| parse(text).unwrap_or_else(|e| panic!("data/hosts/{id}.toml: {e}"))).collect()
    // ok: embedded data, checked by a test
});

/// Every host, in `FILES` order.
pub fn all() -> &'static [Host] {
    &HOSTS
}

/// The host with this id.
pub fn host(id: &str) -> Option<&'static Host> {
    all().iter().find(|h| h.id == id)
}

/// The host model a rule names by id: embedded, so a missing one is a defect of ctxc, which every
/// rule's fixture run would show.
pub fn embedded(id: &str) -> &'static Host {
    host(id).unwrap_or_else(|| panic!("data/hosts/{id}.toml is not embedded")) // ok: see above
}

/// Claude Code.
pub fn claude_code() -> &'static Host {
    embedded("claude-code")
}

/// Whether any host reads `field` in files of `kind` (a field no host reads is safe to drop).
pub fn any_reads(kind: &str, field: &str) -> bool {
    all().iter().filter_map(|h| h.file(kind)).any(|f| f.reads(field))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every reference inside a host file resolves, and each fact has a source that says where.
    fn check(host: &Host) -> Vec<String> {
        let mut problems = Vec::new();
        let mut source = |what: &str, id: &str| {
            if !host.sources.contains_key(id) {
                problems.push(format!("{what}: source `{id}` is not in [sources]"));
            }
        };
        for (name, root) in &host.roots {
            source(&format!("root {name}"), &root.source);
        }
        for v in &host.variables {
            source(&format!("variable {}", v.name), &v.source);
        }
        for v in &host.values {
            source(&format!("values {}", v.name), &v.source);
        }
        for f in &host.files {
            source(&format!("file {}", f.kind), &f.source);
            for g in &f.fields {
                source(&format!("fields of {}", f.kind), &g.source);
            }
            for form in &f.forms {
                source(&format!("form of {}", f.kind), &form.source);
            }
        }
        if let Some(startup) = &host.startup {
            let memory = startup.memory.iter().flat_map(|m| {
                [Some(&m.source), m.max_bytes_source.as_ref(), m.frame_source.as_ref(), m.inline_imports.as_ref().map(|i| &i.source)]
                    .into_iter()
                    .flatten()
            });
            let rules = startup.rules.iter().map(|r| &r.source);
            let mcp = startup.mcp.iter().map(|m| &m.source);
            let listings = startup.listings.iter().flat_map(|l| [Some(&l.source), l.budget_source.as_ref()].into_iter().flatten());
            for id in memory.chain(rules).chain(listings).chain(mcp) {
                source("startup", id);
            }
            for pattern in startup.mcp.iter().filter_map(|m| m.tool_name_invalid.as_deref()) {
                if let Err(e) = regex::Regex::new(pattern) {
                    problems.push(format!("tool_name_invalid `{pattern}`: {e}"));
                }
            }
        }
        if host.format != FORMAT {
            problems.push(format!("format {} (expected {FORMAT})", host.format));
        }
        for (id, s) in &host.sources {
            let page = s.url.is_some() && s.checked.is_some();
            let file = (s.repo.is_some() && s.commit.is_some() || s.package.is_some() && s.version.is_some()) && s.path.is_some();
            if !page && !file {
                problems.push(format!("source {id}: needs url + checked, or repo + path + commit, or package + path + version"));
            }
        }
        let kinds: Vec<&str> = host.files.iter().map(|f| f.kind.as_str()).collect();
        for f in &host.files {
            if kinds.iter().filter(|k| **k == f.kind).count() > 1 {
                problems.push(format!("file kind {} listed twice", f.kind));
            }
            for p in &f.paths {
                if !host.roots.contains_key(&p.root) {
                    problems.push(format!("{}: root `{}` is not in [roots]", f.kind, p.root));
                }
            }
            let mut names: Vec<(Option<&str>, &str)> =
                f.fields.iter().flat_map(|g| g.names.iter().map(|n| (g.under.as_deref(), n.as_str()))).collect();
            names.sort_unstable();
            if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
                problems.push(format!("{}: field `{}` listed twice", f.kind, w[0].1));
            }
        }
        for v in &host.variables {
            problems.extend(v.roots.iter().filter(|r| !host.roots.contains_key(*r)).map(|r| format!("variable {}: root `{r}`", v.name)));
        }
        problems
    }

    #[test]
    fn every_host_file_parses_and_its_references_resolve() {
        for (id, text) in FILES {
            let host = parse(text).unwrap_or_else(|e| panic!("data/hosts/{id}.toml: {e}"));
            assert_eq!(&host.id, id, "a host file's id is its file name");
            let problems = check(&host);
            assert!(problems.is_empty(), "data/hosts/{id}.toml:\n{}", problems.join("\n"));
        }
    }

    #[test]
    fn every_file_of_data_hosts_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/hosts");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .expect("data/hosts")
            .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".toml").map(str::to_string))
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = FILES.iter().map(|(id, _)| id.to_string()).collect();
        embedded.sort();
        assert_eq!(on_disk, embedded, "add each data/hosts/*.toml to hosts::FILES");
    }

    #[test]
    fn claude_code_facts_are_asked_by_kind_root_and_field() {
        let claude = claude_code();
        assert_eq!(claude.kind_at("plugin", "agents/reviewer.md").map(|f| f.kind.as_str()), Some("claude-agent"));
        assert_eq!(claude.kind_at("plugin", "hooks/hooks.json").map(|f| f.kind.as_str()), Some("claude-hooks"));
        assert_eq!(claude.kind_at("project", "agents/reviewer.md").map(|f| f.kind.as_str()), None);
        assert!(claude.file("skill").is_some_and(|f| f.reads("effort")));
        let vars: Vec<&str> = claude.variables_in("mcp-config", "plugin").map(|v| v.name.as_str()).collect();
        assert!(vars.contains(&"CLAUDE_PLUGIN_ROOT"), "{vars:?}");
        assert!(!claude.variables_in("mcp-config", "project").any(|v| v.name == "CLAUDE_PLUGIN_ROOT"));
        assert!(claude.file("mcp-config").is_some_and(|f| f.accepts_form("plugin", "flat-server-map")));
    }
}

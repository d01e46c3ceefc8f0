//! The host view: what an agent host (Claude Code, Codex, …) loads from a repository at session
//! start, section by section and file by file, as the host assembles it, each part counted with
//! the model's tokenizer (`ctxc cost --host`, for repositories without a manifest). How each
//! host assembles its context is data (`[startup]` of `data/hosts/<id>.toml`); this module
//! follows it and returns figures, the report prints them. See docs/host-view.md.

pub mod budgets;
mod inline_imports;
pub mod mcp_tools;

use std::collections::BTreeSet;
use std::path::Path;

use globset::{Glob, GlobBuilder};
use serde::Serialize;

use crate::agent_files::{self, Doc, FileKind, Found};
use crate::checks::budgets::Band;
use crate::diagnostic::Diagnostic;
use crate::hosts::{BudgetOver, Host, Listing, ListingFolders, MemoryChain, MemoryOrder, PerFolder, RootOrder, RulesFolder};
use crate::mcp_record::{parse_config, setting};
use crate::measure::{count_text, Count};
use crate::models::ModelProfile;
use crate::project::{ProjectRoot, ReadError};
use crate::rules::context::{Context, Settings};
use crate::rules::refs::{self, Imports};
use crate::tokens::TokenCounter;
use inline_imports::fill;

/// What one host loads at session start.
#[derive(Debug, Clone, Serialize)]
pub struct HostView {
    /// The host's id (`claude-code`) and name.
    pub host: String,
    pub name: String,
    /// The model counted for, how its counts are made, and its window.
    pub model: String,
    pub method: String,
    pub window: u64,
    /// The working directory the chain is read for, relative to the project root (`.`: the root).
    pub from: String,
    pub sections: Vec<Section>,
    /// The sections' tokens added up.
    pub total: Count,
    /// For an estimate: the range the total lies in.
    pub band: Option<Band>,
    /// What the view leaves out or assumes, for people.
    pub notes: Vec<String>,
    /// Whether the repository has a file of the host's own kinds (`signature_kinds`), or the
    /// host names none.
    #[serde(skip)]
    pub signature: bool,
}

impl HostView {
    /// Whether the repository has none of the host's files (a view of a host whose
    /// configuration turns a part off has a note saying so).
    pub fn found_nothing(&self) -> bool {
        self.sections.is_empty() && self.notes.is_empty()
    }

    /// Whether the view is shown when no host is asked for: the repository has the host's files.
    pub fn shown_by_default(&self) -> bool {
        self.signature && !self.found_nothing()
    }
}

/// One part of the startup context: the memory chain, a rules folder, a listing.
#[derive(Debug, Clone, Serialize)]
pub struct Section {
    pub title: String,
    /// Where the host's behaviour for it is documented (a page, or a file of its source).
    pub source: String,
    pub parts: Vec<Part>,
    /// The section counted as the host joins its parts, minus the parts: joiners and tokens that
    /// merge across the boundaries (zero when the host loads the parts separately).
    pub joins: Count,
    pub tokens: Count,
    /// For a listing with a character budget: the budget and the listing's length.
    pub budget: Option<CharBudget>,
    /// For a listing whose entries are taken while they fit a budget: the budget, what the
    /// entries taken use, and how many are left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry_budget: Option<EntryBudget>,
    /// Whether `joins` is counted: false when the host does not publish how it joins the parts
    /// (then `tokens` is the parts' sum, not exact).
    pub joins_modelled: bool,
    /// The section as the host sends it, when the host joins its parts into one text.
    #[serde(skip)]
    pub joined: Option<String>,
}

/// A file (or a listing entry) as loaded.
#[derive(Debug, Clone, Serialize)]
pub struct Part {
    /// Display path of the file.
    pub file: String,
    /// What it is: the memory file's name, `imported by …`, a listed name.
    pub label: String,
    /// Bytes loaded.
    pub bytes: usize,
    pub tokens: Count,
    /// What the host leaves out of it.
    pub cut: Option<Cut>,
}

/// Text a host drops: how much, and where the cut is.
#[derive(Debug, Clone, Serialize)]
pub struct Cut {
    pub why: String,
    pub dropped_bytes: usize,
    pub dropped_tokens: Count,
    /// Where the dropped text starts in the file (1-based line and column in characters, as
    /// diagnostics give them), when it is the file's own text.
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// A listing's character budget and its length.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct CharBudget {
    pub budget_chars: usize,
    pub chars: usize,
}

/// A listing's budget in the host's approximate tokens (bytes / `bytes_per_token`, rounded up,
/// per entry with its line break): the budget, what the entries listed use, how many are left out.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct EntryBudget {
    pub limit: usize,
    pub used: usize,
    pub omitted: usize,
    /// Entries whose description the host shortened or removed to fit.
    pub shortened: usize,
    /// The window the budget is a share of, as the host knows the model's.
    pub window: u64,
    pub bytes_per_token: usize,
}

/// The views asked for, and the files that could not be read.
#[derive(Debug, Default)]
pub struct Views {
    pub views: Vec<HostView>,
    pub problems: Vec<Diagnostic>,
}

/// The hosts whose startup context ctxc shows, by id.
pub fn hosts() -> impl Iterator<Item = &'static Host> {
    crate::hosts::all().iter().filter(|h| h.startup.is_some())
}

/// The startup context of each host in `hosts` (each one with a `[startup]` model) for the
/// working directory `from` (relative to the root), counted for `model` (else each host's).
/// A host none of whose files the repository has gives a view with no sections.
pub fn views(root: &ProjectRoot, from: &str, hosts: &[&Host], model: Option<&ModelProfile>, counter: &TokenCounter) -> Views {
    views_seen_at(root, root.canonical(), from, hosts, model, counter)
}

/// [`views`] of a copy of a project (a revision checked out elsewhere) as the host sees the
/// project at `seen_at`: hosts that name files by their absolute path name them there.
pub fn views_seen_at(
    root: &ProjectRoot,
    seen_at: &Path,
    from: &str,
    hosts: &[&Host],
    model: Option<&ModelProfile>,
    counter: &TokenCounter,
) -> Views {
    let found = agent_files::discover(root, None, Default::default());
    let mut out = Views { problems: found.problems.clone(), ..Views::default() };
    for host in hosts {
        let Some(startup) = &host.startup else { continue };
        let profile = model.cloned().unwrap_or_else(|| crate::models::profile(&startup.model));
        let view = Viewer { root, seen_at, found: &found, counter, profile: &profile, host, from, problems: &mut out.problems }.view();
        out.views.push(view);
    }
    out
}

struct Viewer<'a> {
    root: &'a ProjectRoot,
    /// The root's absolute path as the host sees it.
    seen_at: &'a Path,
    found: &'a Found,
    counter: &'a TokenCounter,
    profile: &'a ModelProfile,
    host: &'a Host,
    from: &'a str,
    problems: &'a mut Vec<Diagnostic>,
}

impl Viewer<'_> {
    fn view(mut self) -> HostView {
        let mut notes = Vec::new();
        let mut sections = Vec::new();
        let startup = self.host.startup.as_ref().expect("views() passes hosts with a startup model"); // ok: checked by the caller
        if let Some(memory) = &startup.memory {
            sections.extend(self.memory(memory, &mut notes));
        }
        if let Some(rules) = &startup.rules {
            sections.extend(self.rules(rules, &mut notes));
        }
        for listing in &startup.listings {
            sections.extend(self.listing(listing, &mut notes));
        }
        if startup.mcp_tools {
            let servers = mcp_tools::configured(self.root, self.found);
            sections.extend(mcp_tools::sections(
                self.root,
                servers,
                &mcp_tools::Naming::claude_code(),
                self.profile,
                self.counter,
                &mut notes,
            ));
        }
        if let Some(spec) = &startup.mcp {
            let servers = mcp_tools::configured_in(self.root, spec, &mut notes);
            let naming = mcp_tools::Naming::of(spec, self.source(&spec.source));
            sections.extend(mcp_tools::sections(self.root, servers, &naming, self.profile, self.counter, &mut notes));
        }
        if startup.joins_unknown {
            for s in &mut sections {
                s.joins_modelled = false;
                s.tokens = self.sum(s.parts.iter().map(|p| p.tokens));
                s.tokens.exact = false;
                s.joins = Count { tokens: 0, ..s.tokens };
            }
            if !sections.is_empty() {
                notes.push(format!(
                    "{} does not publish how it joins these parts: each is counted alone, the joins are not",
                    self.host.name
                ));
            }
        }
        let mut total = self.sum(sections.iter().map(|s| s.tokens));
        total.exact &= !startup.joins_unknown;
        let kinds = &startup.signature_kinds;
        let mut docs = self.found.files.iter().chain(self.found.skills.iter().map(|s| &s.doc));
        let signature = kinds.is_empty() || docs.any(|d| kinds.iter().any(|k| k == d.kind.id()));
        HostView {
            host: self.host.id.clone(),
            name: self.host.name.clone(),
            model: self.profile.model.clone(),
            method: self.profile.method_label(),
            window: self.profile.max_input_tokens,
            from: if self.from.is_empty() { ".".to_string() } else { self.from.to_string() },
            sections,
            total,
            band: Band::of(self.profile.estimate_calibration(), total),
            notes,
            signature,
        }
    }

    fn count(&self, text: &str) -> Count {
        count_text(text, self.profile, self.counter)
    }

    fn sum(&self, counts: impl Iterator<Item = Count>) -> Count {
        let zero = self.count("");
        // A sum holding an estimate (an MCP tool's schema for an exact tokenizer) is one too.
        counts.fold(zero, |acc, c| Count { tokens: acc.tokens + c.tokens, exact: acc.exact && c.exact, ..acc })
    }

    fn source(&self, id: &str) -> String {
        self.host.sources.get(id).map_or_else(
            || id.to_string(),
            |s| match (&s.url, &s.repo, &s.path, &s.commit, &s.package, &s.version) {
                (Some(url), ..) => url.clone(),
                (None, Some(repo), Some(path), Some(commit), ..) => format!("{repo}@{} {path}", &commit[..commit.len().min(8)]),
                (None, None, Some(path), _, Some(package), Some(version)) => format!("{package}@{version} {path}"),
                _ => id.to_string(),
            },
        )
    }

    /// A section of `parts` (each with its text), joined with `joiner` when the host joins them.
    fn section(&self, title: &str, source: &str, parts: Vec<(Part, String)>, joiner: Option<&str>) -> Option<Section> {
        if parts.is_empty() {
            return None;
        }
        let sum = self.sum(parts.iter().map(|(p, _)| p.tokens));
        // A part cut to nothing (a file after the byte limit) is shown, but not sent.
        let sent = parts.iter().filter(|(p, _)| p.bytes > 0 || p.cut.is_none());
        let joined = joiner.map(|joiner| sent.map(|(_, t)| t.as_str()).collect::<Vec<_>>().join(joiner));
        let tokens = joined.as_deref().map_or(sum, |text| self.count(text));
        let joins = Count { tokens: tokens.tokens - sum.tokens, ..tokens };
        let parts = parts.into_iter().map(|(p, _)| p).collect();
        Some(Section {
            title: title.to_string(),
            source: self.source(source),
            parts,
            joins,
            tokens,
            budget: None,
            entry_budget: None,
            joins_modelled: true,
            joined,
        })
    }

    /// The folders from the top of the chain down to the working directory, the top first.
    fn folders(&self, top: &str) -> Vec<String> {
        let mut folders = vec![top.to_string()];
        let rest = if top.is_empty() { self.from } else { self.from.strip_prefix(top).unwrap_or("").trim_start_matches('/') };
        for part in rest.split('/').filter(|p| !p.is_empty()) {
            let last = folders.last().cloned().unwrap_or_default();
            folders.push(join(&last, part));
        }
        folders
    }

    /// The nearest folder from `dir` up to the project root holding one of `markers`.
    fn marked(&self, dir: &str, markers: &[String]) -> Option<String> {
        let mut folder = Some(dir);
        while let Some(f) = folder {
            if markers.iter().any(|m| self.root.resolve(&join(f, m)).is_ok_and(|p| p.exists())) {
                return Some(f.to_string());
            }
            folder = (!f.is_empty()).then(|| f.rsplit_once('/').map_or("", |(parent, _)| parent));
        }
        None
    }

    /// A project configuration file's settings (TOML, or JSON with comments, by its extension), or `None` when
    /// it is not there or not valid (a note says so).
    fn settings(&mut self, file: &str, notes: &mut Vec<String>) -> Option<serde_json::Value> {
        let text = self.read(file)?;
        parse_config(file, &text).map_err(|e| notes.push(format!("{file} is not valid, so its settings were not applied: {e}"))).ok()
    }

    /// A file's text, or `None` when it is not there; a file that cannot be read is a problem.
    fn read(&mut self, rel: &str) -> Option<String> {
        match self.root.read(rel) {
            Ok(file) => Some(file.text.to_string()),
            Err(ReadError::Missing(_)) => None,
            Err(e) => {
                let display = self.root.display_path(rel);
                self.problems.push(e.into_diagnostic().in_file(display));
                None
            }
        }
    }

    fn memory(&mut self, spec: &MemoryChain, notes: &mut Vec<String>) -> Option<Section> {
        let mut names = spec.names.clone();
        let mut max_bytes = spec.max_bytes;
        // The files whose folder is the chain's top; none: the chain starts at the project root.
        let mut markers: Option<Vec<String>> = spec.root_marker.clone().map(|m| vec![m]);
        let config = spec.config.as_deref().map(|c| if spec.config_in_working_directory { join(self.from, c) } else { c.to_string() });
        if let Some((file, settings)) = config.and_then(|config| self.settings(&config, notes).map(|s| (config, s))) {
            fn keyed<'a>(settings: &'a serde_json::Value, key: &'a Option<String>) -> Option<(&'a str, &'a serde_json::Value)> {
                key.as_deref().and_then(|k| setting(settings, k).map(|v| (k, v)))
            }
            let key = |k| keyed(&settings, k);
            if let Some((k, n)) = key(&spec.max_bytes_key).and_then(|(k, v)| v.as_i64().map(|n| (k, n))) {
                max_bytes = Some(u64::try_from(n).unwrap_or(0));
                notes.push(format!("{file} sets {k} = {n}"));
            }
            for name in key(&spec.fallback_names_key).map(|(_, v)| strings(v)).unwrap_or_default() {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            if let Some((k, first)) = key(&spec.names_key).map(|(k, v)| (k, strings(v))).filter(|(_, f)| !f.is_empty()) {
                notes.push(format!("{file} sets {k}: {}", first.join(", ")));
                names.retain(|n| !first.contains(n));
                names.splice(0..0, first);
            }
            if let Some((k, list)) = key(&spec.markers_key).and_then(|(k, v)| v.as_array().map(|_| (k, strings(v)))) {
                notes.push(format!("{file} sets {k}: [{}]", list.join(", ")));
                markers = Some(list);
            }
        }
        let mut no_marker = None;
        let top = match &markers {
            None => String::new(),
            // No marker: the working directory alone.
            Some(list) if list.is_empty() => self.from.to_string(),
            Some(list) => self.marked(self.from, list).unwrap_or_else(|| {
                no_marker = Some(format!(
                    "no `{}` between the project root and the working directory: the chain starts at the project root (the host looks further up)",
                    list.join("` or `")
                ));
                String::new()
            }),
        };
        let mut files: Vec<(String, String)> = Vec::new();
        let folders = if spec.top_only { vec![top.clone()] } else { self.folders(&top) };
        for folder in folders {
            for name in &names {
                let rel = join(&folder, name);
                if let Some(text) = self.read(&rel) {
                    files.push((rel, text));
                    if spec.per_folder == PerFolder::First {
                        break;
                    }
                }
            }
        }
        if !files.is_empty() {
            notes.extend(no_marker);
        }
        if spec.order == MemoryOrder::Path {
            files.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
        }
        let mut parts = Vec::new();
        if let Some(wrap) = &spec.wrap {
            for (rel, text) in files {
                let text = match &spec.inline_imports {
                    Some(imports) => {
                        // Imports stay inside the nearest folder holding a marker, else the file's own.
                        let dir = rel.rsplit_once('/').map_or("", |(dir, _)| dir);
                        let confined_to = self.marked(dir, markers.as_deref().unwrap_or_default()).unwrap_or_else(|| dir.to_string());
                        let display = self.root.display_path(&rel);
                        let mut expander = inline_imports::Expander {
                            root: self.root,
                            seen_at: self.seen_at,
                            spec: imports,
                            confined_to,
                            read: 0,
                            exhausted: false,
                            problems: self.problems,
                        };
                        expander.expand(&display, &text, dir, &mut Vec::new())
                    }
                    None => text,
                };
                parts.extend(self.wrapped(&rel, &text, wrap));
            }
        } else {
            match max_bytes {
                Some(0) => {
                    if !files.is_empty() {
                        notes.push("the byte limit is 0: the host loads no project docs".to_string());
                    }
                    return None;
                }
                Some(limit) => self.cut_to(limit, files, &mut parts, spec),
                None => {
                    let graph = spec.import_depth.map(|_| self.imports());
                    let mut seen: BTreeSet<String> = files.iter().map(|(rel, _)| rel.clone()).collect();
                    for (rel, text) in files {
                        let name = rel.rsplit('/').next().unwrap_or(&rel).to_string();
                        parts.push(self.whole(&rel, name, text));
                        if let (Some(graph), Some(depth)) = (&graph, spec.import_depth) {
                            self.imported(graph, &rel, depth, &mut seen, &mut parts);
                        }
                    }
                }
            }
        }
        let mut section = self.section("memory", &spec.source, parts, spec.joiner.as_deref())?;
        if let Some(frame) = &spec.frame {
            let dir = inline_imports::absolute(self.seen_at, self.from);
            self.frame(&mut section, |joined| fill(frame, &[("{dir}", dir.trim_end_matches('/')), ("{text}", joined)]));
        }
        Some(section)
    }

    /// The section's joined text written into its frame by `framed`: the frame's text is
    /// counted in the joins.
    fn frame(&self, section: &mut Section, framed: impl Fn(&str) -> String) {
        if let Some(joined) = &section.joined {
            let framed = framed(joined);
            let tokens = self.count(&framed);
            section.joins.tokens += tokens.tokens - section.tokens.tokens;
            section.tokens = tokens;
            section.joined = Some(framed);
        }
    }

    /// Texts read in order until `limit` bytes in all, as Codex reads its project docs: a file
    /// past the limit keeps its first bytes (a character cut in two becomes U+FFFD), the files
    /// after it are dropped, and a text of only white space is left out without using the budget.
    fn cut_to(&self, limit: u64, files: Vec<(String, String)>, parts: &mut Vec<(Part, String)>, spec: &MemoryChain) {
        let mut remaining = usize::try_from(limit).unwrap_or(usize::MAX);
        let key = spec.max_bytes_key.as_deref().unwrap_or("the byte limit");
        for (rel, text) in files {
            let bytes = text.as_bytes();
            let taken = bytes.len().min(remaining);
            let kept = String::from_utf8_lossy(&bytes[..taken]).into_owned();
            if taken > 0 && kept.trim().is_empty() {
                continue;
            }
            let name = rel.rsplit('/').next().unwrap_or(&rel).to_string();
            // The bytes read from the file (a character cut in two is one U+FFFD of three bytes in the text).
            let mut part = Part { bytes: taken, ..self.part(&rel, name, &kept) };
            if taken < bytes.len() {
                let (line, column) = crate::diagnostic::line_col(&text, taken);
                part.cut = Some(Cut {
                    why: format!("{key} = {limit} reached"),
                    dropped_bytes: bytes.len() - taken,
                    dropped_tokens: self.count(&String::from_utf8_lossy(&bytes[taken..])),
                    line: Some(line),
                    column: Some(column),
                });
            }
            remaining -= taken;
            parts.push((part, kept));
        }
    }

    /// A file's text trimmed and written into the host's `wrap` template with its absolute path
    /// (the part counts the text, the section the block); `None` for a text of white space only.
    fn wrapped(&self, rel: &str, text: &str, wrap: &str) -> Option<(Part, String)> {
        let trimmed = js_trim(text);
        if trimmed.is_empty() {
            return None;
        }
        let path = inline_imports::absolute(self.seen_at, rel);
        let block = fill(wrap, &[("{path}", &path), ("{text}", trimmed)]);
        let name = rel.rsplit('/').next().unwrap_or(rel).to_string();
        Some((self.part(rel, name, trimmed), block))
    }

    fn part(&self, rel: &str, label: String, text: &str) -> Part {
        Part { file: self.root.display_path(rel), label, bytes: text.len(), tokens: self.count(text), cut: None }
    }

    fn whole(&self, rel: &str, label: String, text: String) -> (Part, String) {
        (self.part(rel, label, &text), text)
    }

    /// The import graph of the memory files, as the lint rules resolve it.
    fn imports(&self) -> Imports {
        let sources = &self.found.sources;
        let cx = Context {
            agent: None,
            skills: &self.found.skills,
            memory: &self.found.memory,
            files: &self.found.files,
            sources,
            root: self.root,
            counter: self.counter,
            tokenizer: self.profile.tokenizer,
            settings: Settings::default(),
        };
        refs::imports(&cx)
    }

    /// The files `rel` imports, each after the file importing it, `depth` hops at most.
    fn imported(&self, graph: &Imports, rel: &str, depth: usize, seen: &mut BTreeSet<String>, parts: &mut Vec<(Part, String)>) {
        if depth == 0 {
            return;
        }
        for (_, _, target) in graph.edges.get(rel).into_iter().flatten() {
            let Some((_, text)) = graph.files.get(target) else { continue };
            if seen.insert(target.clone()) {
                parts.push(self.whole(target, format!("imported by {rel}"), text.to_string()));
                self.imported(graph, target, depth - 1, seen, parts);
            }
        }
    }

    fn rules(&mut self, spec: &RulesFolder, notes: &mut Vec<String>) -> Option<Section> {
        let Ok(glob) = Glob::new(&spec.glob).map(|g| g.compile_matcher()) else { return None };
        let dir = spec.glob.split(['*', '{']).next().unwrap_or_default().trim_end_matches('/');
        let listed = self.root.list_files(dir, 16, 10_000).unwrap_or_default();
        let mut parts = Vec::new();
        let mut conditional = 0;
        let key = &spec.conditional_field;
        for file in listed.iter().filter(|f| glob.is_match(&f.rel)) {
            let Some(text) = self.read(&file.rel) else { continue };
            let front = crate::yaml::frontmatter(&text).ok();
            let value = front.as_ref().and_then(|f| f.fields.iter().find(|(k, _)| k == key)).map(|(_, v)| v);
            let display = self.root.display_path(&file.rel);
            if spec.always.is_empty() {
                if value.is_some() {
                    conditional += 1;
                    continue;
                }
            } else {
                // The host's patterns: a string, split at commas.
                let patterns = match value {
                    Some(serde_json::Value::String(s)) => s.clone(),
                    Some(serde_json::Value::Bool(b)) => b.to_string(),
                    _ => String::new(),
                };
                let always = patterns.split(',').any(|p| spec.always.iter().any(|a| a == p.trim()));
                if !always {
                    let about = |note: &Option<String>| note.as_deref().unwrap_or("not loaded at start").to_string();
                    notes.push(match patterns.trim().is_empty() {
                        true => format!("{display} has no `{key}`: {}; its text is not counted", about(&spec.missing_note)),
                        false => {
                            format!("{display} (`{key}: {}`) {}; its text is not counted", patterns.trim(), about(&spec.conditional_note))
                        }
                    });
                    continue;
                }
            }
            match &spec.wrap {
                Some(wrap) => parts.extend(self.wrapped(&file.rel, &text, wrap)),
                None => {
                    let name = file.rel.rsplit('/').next().unwrap_or(&file.rel).to_string();
                    parts.push(self.whole(&file.rel, name, text));
                }
            }
        }
        if conditional > 0 {
            notes.push(format!("{conditional} rule file(s) with `{key}` load only when a matching file is read: not counted"));
        }
        self.section("rules", &spec.source, parts, spec.joiner.as_deref())
    }

    /// The files a listing lists, each with the index of the place it was found in (its path's
    /// in `spec.paths`, 0 for the host's project files) and the folder that place is (the folder
    /// of the chain joined with the path's part before its first pattern; "" for project files).
    fn listed<'d>(&self, spec: &Listing, docs: impl Iterator<Item = &'d Doc>) -> Vec<(usize, String, &'d Doc)> {
        if spec.paths.is_empty() {
            // The project's files of the kind, and those of the plugins in it (listed only once
            // a plugin is installed: noted, not counted).
            return docs
                .filter(|d| d.plugin.is_some() || self.host.kind_at("project", &d.rel).is_some_and(|f| f.kind == d.kind.id()))
                .map(|d| (0, String::new(), d))
                .collect();
        }
        // `*` stays within a folder, as the hosts' globs do; `**` crosses folders.
        let glob = |p: &str| GlobBuilder::new(p).literal_separator(true).build().ok().map(|g| g.compile_matcher());
        let globs: Vec<_> = spec.paths.iter().filter_map(|p| glob(p)).collect();
        let folders = match spec.folders {
            ListingFolders::Root => vec![String::new()],
            ListingFolders::WorkingDirectory => vec![self.from.to_string()],
            ListingFolders::Chain => {
                let marker = spec.root_marker.iter().cloned().collect::<Vec<_>>();
                self.folders(&self.marked(self.from, &marker).unwrap_or_default())
            }
        };
        let place = |rel: &str| {
            folders.iter().find_map(|f| {
                let inner = if f.is_empty() { Some(rel) } else { rel.strip_prefix(f.as_str()).and_then(|r| r.strip_prefix('/')) };
                inner.and_then(|inner| globs.iter().position(|g| g.is_match(inner))).map(|i| {
                    let fixed = spec.paths[i].split(['*', '{', '?', '[']).next().unwrap_or_default();
                    let fixed = fixed.rsplit_once('/').map_or("", |(dir, _)| dir);
                    (i, join(f, fixed))
                })
            })
        };
        docs.filter(|d| d.plugin.is_none()).filter_map(|d| place(&d.rel).map(|(i, root)| (i, root, d))).collect()
    }

    fn listing(&self, spec: &Listing, notes: &mut Vec<String>) -> Option<Section> {
        let kinds: Vec<FileKind> = FileKind::ALL.into_iter().filter(|k| spec.kinds.iter().any(|id| id == k.id())).collect();
        let docs = self.found.skills.iter().map(|s| &s.doc).chain(self.found.files.iter()).filter(|d| kinds.contains(&d.kind));
        let mut plugins: std::collections::BTreeMap<(String, String), Vec<Count>> = Default::default();
        let mut hidden = 0;
        let mut entries: Vec<Entry> = Vec::new();
        let host = &self.host.name;
        for (place, root, doc) in self.listed(spec, docs) {
            if spec.hidden_field.as_deref().is_some_and(|f| field(doc, f).as_deref() == Some("true")) {
                hidden += 1;
                continue;
            }
            let value = |key: &str| {
                field(doc, key).map(|v| if spec.collapse_whitespace { v.split_whitespace().collect::<Vec<_>>().join(" ") } else { v })
            };
            if let Some(missing) = spec.required.iter().find(|f| value(f).is_none_or(|v| v.is_empty())) {
                notes.push(format!("{} has no `{missing}` in its frontmatter: {host} does not list it", doc.file));
                continue;
            }
            let stem = doc.rel.rsplit('/').next().unwrap_or(&doc.rel).trim_end_matches(".md");
            let folder = doc.rel.rsplit('/').nth(1).unwrap_or_default();
            let mut own = value("name")
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| if doc.kind == FileKind::Skill { folder } else { stem }.to_string());
            if let Some(chars) = &spec.name_replaced {
                own = own.chars().map(|c| if chars.contains(c) { '-' } else { c }).collect();
            }
            let name = match &doc.plugin {
                Some(plugin) => format!("{}:{own}", plugin.name),
                None => own,
            };
            let description = value("description").unwrap_or_default();
            let over = spec.refuse_over.iter().find(|(f, max)| match f.as_str() {
                "name" => name.chars().count() > **max,
                "description" => description.chars().count() > **max,
                _ => false,
            });
            if let Some((f, max)) = over {
                notes.push(format!("{}: its {f} is longer than {max} characters, so {host} does not list it", doc.file));
                continue;
            }
            entries.push(Entry { place, root, doc, name, description });
        }
        match spec.order_by_name {
            true => entries.sort_by(|a, b| (&a.name, &a.doc.rel).cmp(&(&b.name, &b.doc.rel))),
            false => entries.sort_by(|a, b| (a.place, &a.doc.rel).cmp(&(b.place, &b.doc.rel))),
        }
        if spec.later_name_wins {
            let mut kept: Vec<Entry> = Vec::new();
            let mut at: std::collections::HashMap<String, usize> = Default::default();
            for e in entries {
                match at.get(&e.name) {
                    Some(&i) => {
                        let replaced = &kept[i].doc.file;
                        notes.push(format!("{} replaces {replaced} in the {} listing (same name `{}`)", e.doc.file, spec.title, e.name));
                        kept[i] = e;
                    }
                    None => {
                        at.insert(e.name.clone(), kept.len());
                        kept.push(e);
                    }
                }
            }
            entries = kept;
        }
        let per_token = spec.budget_bytes_per_token.unwrap_or(1).max(1);
        let window = spec.budget_windows.get(&self.profile.model).copied().or(spec.budget_window).unwrap_or(self.profile.max_input_tokens);
        let limit = spec.budget_window_percent.map(|p| usize::try_from(window * p / 100).unwrap_or(usize::MAX).max(1));
        let roots = self.alias_roots(spec, &entries);
        // Each entry's path as the host writes it, and its description as the budget leaves it.
        let paths: Vec<String> = entries
            .iter()
            .map(|e| match roots.iter().find(|(root, _, _)| *root == e.root) {
                Some((root, alias, _)) => {
                    format!("{alias}/{}", e.doc.rel.strip_prefix(root.as_str()).unwrap_or(&e.doc.rel).trim_start_matches('/'))
                }
                None => inline_imports::absolute(self.seen_at, &e.doc.rel),
            })
            .collect();
        let written = |doc: &Doc, name: &str, path: &str, description: &str| match (&spec.entry_without_description, description.is_empty())
        {
            (Some(bare), true) => fill(bare, &[("{name}", name), ("{path}", path)]),
            _ => entry(spec, doc, &[("{name}", name), ("{description}", description), ("{path}", path)]),
        };
        let cost = |text: &str| (text.len() + 1).div_ceil(per_token);
        let kept: Vec<Option<usize>> = match (limit, spec.budget_over) {
            (Some(limit), BudgetOver::ShortenDescriptions) => {
                let lines: Vec<(usize, &str)> =
                    entries.iter().zip(&paths).map(|(e, p)| (written(e.doc, &e.name, p, "").len(), e.description.as_str())).collect();
                shortened(&lines, limit, per_token)
            }
            _ => entries.iter().map(|e| Some(e.description.chars().count())).collect(),
        };
        let shorten = spec.budget_over == BudgetOver::ShortenDescriptions;
        // Entries are left out only when even those without descriptions pass the budget: then
        // every description was removed; otherwise one shortened to nothing was shared no room.
        let all_removed = kept.iter().any(Option::is_none);
        let (mut used, mut omitted, mut shortened_count) = (0, Vec::new(), 0);
        let mut parts = Vec::new();
        for ((Entry { doc, name, description, .. }, path), kept) in entries.iter().zip(&paths).zip(kept) {
            let (name, description) = (name.clone(), description.as_str());
            let chars = kept.unwrap_or(0);
            let (shown, cut) = match spec.entry_max_chars {
                Some(max) if description.chars().count() > max => {
                    let at = description.char_indices().nth(max).map_or(description.len(), |(i, _)| i);
                    let dropped = &description[at..];
                    let why = format!("descriptions are cut at {max} characters");
                    let cut = Cut { why, dropped_bytes: dropped.len(), dropped_tokens: self.count(dropped), line: None, column: None };
                    (&description[..at], Some(cut))
                }
                _ if shorten && kept.is_some() && chars < description.chars().count() => {
                    let at = description.char_indices().nth(chars).map_or(description.len(), |(i, _)| i);
                    let dropped = &description[at..];
                    let why = match chars {
                        0 if all_removed => format!(
                            "every description removed: the entries without them pass the listing's budget of {} tokens",
                            limit.unwrap_or_default()
                        ),
                        0 => format!("description removed to fit the listing's budget of {} tokens", limit.unwrap_or_default()),
                        _ => format!(
                            "description shortened to {chars} characters to fit the listing's budget of {} tokens",
                            limit.unwrap_or_default()
                        ),
                    };
                    shortened_count += 1;
                    let cut = Cut { why, dropped_bytes: dropped.len(), dropped_tokens: self.count(dropped), line: None, column: None };
                    (&description[..at], Some(cut))
                }
                _ => (description, None),
            };
            let text = written(doc, &name, path, shown);
            if text.is_empty() {
                // Every line of the entry left out (`omit_empty_lines`): not listed.
                continue;
            }
            let mut part = self.part(&doc.rel, name, &text);
            part.file = doc.file.clone();
            part.cut = cut;
            if let Some(limit) = limit {
                // The entry with its line break, in the host's approximate tokens.
                let cost = cost(&text);
                if kept.is_none() || !shorten && used + cost > limit {
                    let why = format!("past the listing's budget of {limit} tokens, counted as bytes / {per_token}");
                    part.cut = Some(Cut { why, dropped_bytes: text.len(), dropped_tokens: part.tokens, line: None, column: None });
                    part.tokens.tokens = 0;
                    part.bytes = 0;
                    omitted.push(part);
                    continue;
                }
                used += cost;
            }
            match &doc.plugin {
                Some(plugin) => plugins.entry((plugin.name.clone(), self.root.display_path(&plugin.rel))).or_default().push(part.tokens),
                None => parts.push((part, text)),
            }
        }
        for ((plugin, folder), counts) in plugins {
            let sum = self.sum(counts.iter().copied());
            let tokens = format!("{}{}", if sum.exact { "" } else { "~" }, sum.tokens);
            let entries = if counts.len() == 1 { "1 entry".to_string() } else { format!("{} entries", counts.len()) };
            notes.push(format!(
                "plugin `{plugin}` ({folder}) adds {entries} ({tokens} tokens) to the {} listing once installed: not counted",
                spec.title
            ));
        }
        if hidden > 0 {
            notes.push(format!(
                "{hidden} file(s) with `{}: true` are left out of the {} listing",
                spec.hidden_field.as_deref().unwrap_or_default(),
                spec.title
            ));
        }
        let chars = parts.iter().map(|(_, t)| t.chars().count()).sum::<usize>() + parts.len().saturating_sub(1);
        let omitted_count = omitted.len();
        let mut section = match self.section(&spec.title, &spec.source, parts, Some("\n")) {
            Some(section) => section,
            None if omitted.is_empty() => return None,
            // No entry fits: the host lists none.
            None => {
                let zero = self.count("");
                let source = self.source(&spec.source);
                let joined = Some(String::new());
                let (budget, entry_budget) = (None, None);
                Section {
                    title: spec.title.clone(),
                    source,
                    parts: Vec::new(),
                    joins: zero,
                    tokens: zero,
                    budget,
                    entry_budget,
                    joins_modelled: true,
                    joined,
                }
            }
        };
        section.parts.extend(omitted);
        section.budget = spec.budget_chars.map(|budget_chars| CharBudget { budget_chars, chars });
        section.entry_budget = limit.map(|limit| EntryBudget {
            limit,
            used,
            omitted: omitted_count,
            shortened: shortened_count,
            window,
            bytes_per_token: per_token,
        });
        if let Some(frame) = &spec.frame {
            // The roots table is in the joins too.
            let table = match &spec.aliases {
                Some(aliases) => roots
                    .iter()
                    .map(|(root, alias, _)| {
                        fill(&aliases.table_line, &[("{alias}", alias), ("{path}", &inline_imports::absolute(self.seen_at, root))])
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
                None => String::new(),
            };
            self.frame(&mut section, |joined| fill(frame, &[("{roots}", &table), ("{entries}", joined)]));
        }
        Some(section)
    }
}

impl Viewer<'_> {
    /// The roots of `spec.aliases` holding an entry, in the table's order: each root's folder
    /// (relative to the project root), its alias and its depth.
    fn alias_roots(&self, spec: &Listing, entries: &[Entry]) -> Vec<(String, String, usize)> {
        let Some(aliases) = &spec.aliases else { return Vec::new() };
        let mut out: Vec<(String, String, usize)> = Vec::new();
        for kind in &aliases.roots {
            let mut found: Vec<&str> = entries
                .iter()
                .map(|e| e.root.as_str())
                .filter(|r| *r == kind.folder || r.ends_with(&format!("/{}", kind.folder)))
                .collect();
            found.sort_by_key(|r| (r.matches('/').count(), *r));
            found.dedup();
            if kind.order == RootOrder::WorkingDirectoryFirst {
                found.reverse();
            }
            for root in found {
                if !out.iter().any(|(r, _, _)| r == root) {
                    let alias = aliases.alias.replace("{n}", &out.len().to_string());
                    out.push((root.to_string(), alias, root.matches('/').count()));
                }
            }
        }
        out
    }
}

/// How many characters of each description a listing keeps when the host shortens
/// descriptions to fit `limit` (`BudgetOver::ShortenDescriptions`), `None` for an entry left
/// out. `lines` gives each entry's length without its description, in bytes, and its
/// description. Every cost is the text with its line break in bytes / `per_token`, rounded up.
fn shortened(lines: &[(usize, &str)], limit: usize, per_token: usize) -> Vec<Option<usize>> {
    let cost = |bytes: usize| (bytes + 1).div_ceil(per_token);
    // A description adds itself and a space before it.
    let full: usize = lines.iter().map(|(bare, d)| cost(bare + if d.is_empty() { 0 } else { d.len() + 1 })).sum();
    if full <= limit {
        return lines.iter().map(|(_, d)| Some(d.chars().count())).collect();
    }
    let minimum: usize = lines.iter().map(|(bare, _)| cost(*bare)).sum();
    if minimum > limit {
        // No description at all, and the entries taken in order while they fit.
        let mut used = 0;
        return lines
            .iter()
            .map(|(bare, _)| {
                let c = cost(*bare);
                (used + c <= limit).then(|| {
                    used += c;
                    0
                })
            })
            .collect();
    }
    // The extra cost of each description's first k characters, for every k.
    let extra: Vec<Vec<usize>> = lines
        .iter()
        .map(|(bare, d)| {
            let mut costs = vec![0];
            let mut bytes = 0;
            for ch in d.chars() {
                bytes += ch.len_utf8();
                costs.push(cost(bare + bytes + 1) - cost(*bare));
            }
            costs
        })
        .collect();
    let mut kept = vec![0usize; lines.len()];
    let mut remaining = limit - minimum;
    // One more character to each description in turn, while the next one fits.
    loop {
        let mut changed = false;
        for (i, costs) in extra.iter().enumerate() {
            if kept[i] + 1 >= costs.len() {
                continue;
            }
            let delta = costs[kept[i] + 1] - costs[kept[i]];
            if delta <= remaining {
                kept[i] += 1;
                remaining -= delta;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    kept.into_iter().map(Some).collect()
}

/// A file a listing lists: where it was found, its name and description as the host reads them.
struct Entry<'d> {
    place: usize,
    /// The folder of the place it was found in, relative to the project root.
    root: String,
    doc: &'d Doc,
    name: String,
    description: String,
}

/// A frontmatter value as text: parsed as YAML, or read line by line where the host does so
/// (subagents and commands whose frontmatter is not YAML).
fn field(doc: &Doc, key: &str) -> Option<String> {
    match doc.field(key) {
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(serde_json::Value::Bool(b)) => Some(b.to_string()),
        Some(_) => None,
        None => crate::rules::frontmatter::raw_front(&doc.text)
            .ok()
            .and_then(|f| f.get(key).map(|f| f.value.trim_matches(['"', '\'']).to_string()))
            .filter(|v| !v.is_empty()),
    }
}

/// A listing's entry: the placeholders filled (`{front:KEY}` from the frontmatter), and with
/// `omit_empty_lines` a line left out when a placeholder in it is empty.
fn entry(spec: &Listing, doc: &Doc, values: &[(&str, &str)]) -> String {
    // One pass over the template, so that a value holding a placeholder stays as written.
    let fill_line = |line: &str| -> Option<String> {
        let (mut out, mut rest, mut empty) = (String::new(), line, false);
        while let Some(start) = rest.find('{') {
            let Some(len) = rest[start..].find('}') else { break };
            let key = &rest[start..=start + len];
            let value = match key.strip_prefix("{front:") {
                // A field the file does not have is empty.
                Some(name) => Some(field(doc, &name[..name.len() - 1]).unwrap_or_default()),
                None => values.iter().find(|(k, _)| *k == key).map(|(_, v)| v.to_string()),
            };
            out.push_str(&rest[..start]);
            match value {
                Some(value) => {
                    empty |= value.is_empty();
                    out.push_str(&value);
                }
                None => out.push_str(key),
            }
            rest = &rest[start + len + 1..];
        }
        out.push_str(rest);
        (!(empty && spec.omit_empty_lines)).then_some(out)
    };
    spec.entry.split('\n').filter_map(fill_line).collect::<Vec<_>>().join("\n")
}

/// A setting that is a string or a list of strings, as its non-empty trimmed strings.
fn strings(value: &serde_json::Value) -> Vec<String> {
    let one = |v: &serde_json::Value| v.as_str().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    match value.as_array() {
        Some(list) => list.iter().filter_map(one).collect(),
        None => one(value).into_iter().collect(),
    }
}

/// `text` without the white space JavaScript's `String.prototype.trim` removes (which differs
/// from Rust's: U+FEFF is white space there, U+0085 is not).
fn js_trim(text: &str) -> &str {
    let space = |c: char| {
        matches!(
            c,
            '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
                ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
        )
    };
    text.trim_matches(space)
}

fn join(folder: &str, name: &str) -> String {
    match folder.is_empty() {
        true => name.to_string(),
        false => format!("{folder}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_kind_is_a_ctxc_file_kind() {
        for host in hosts() {
            for listing in host.startup.iter().flat_map(|s| &s.listings) {
                for kind in &listing.kinds {
                    assert!(FileKind::ALL.iter().any(|k| k.id() == kind), "{}: kind `{kind}`", host.id);
                }
            }
        }
    }
}

//! References between agent files: the Markdown files rules read (every Markdown kind), the
//! links in them (`[x](path)`, `![x](path)`, `[x]: path`), what a link's target is (a URL, an
//! anchor, a path on one machine, a path in the project), headings and their anchors, and the
//! files bundled with a skill.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use regex::Regex;

use super::context::Context;
use super::markdown;
use crate::agent_files::FileKind;
use crate::memo::{content_hash, Cache, Kind, SharedText};
use crate::project::{Listed, ReadError};

/// One Markdown file of any kind: a SKILL.md, a memory file or another Markdown agent file.
#[derive(Debug, Clone, Copy)]
pub struct MdFile<'a> {
    pub kind: FileKind,
    /// Display path.
    pub file: &'a str,
    /// Path relative to the project root.
    pub rel: &'a str,
    pub text: &'a SharedText,
}

impl MdFile<'_> {
    /// The folder holding the file, relative to the root (`""` at the root).
    pub fn dir(&self) -> &str {
        self.rel.rsplit_once('/').map_or("", |(d, _)| d)
    }
}

/// Every Markdown file the rules read, in path order within each group (skills, memory, others).
pub fn markdown_files<'a>(cx: &Context<'a>) -> Vec<MdFile<'a>> {
    let skills = cx.skills.iter().map(|s| MdFile { kind: FileKind::Skill, file: &s.file, rel: &s.rel, text: &s.text });
    let memory = cx.memory.iter().map(|m| MdFile { kind: FileKind::Memory, file: &m.file, rel: &m.rel, text: &m.text });
    let others =
        cx.files.iter().filter(|f| f.kind.is_markdown()).map(|f| MdFile { kind: f.kind, file: &f.file, rel: &f.rel, text: &f.text });
    skills.chain(memory).chain(others).collect()
}

pub use super::markdown::Link;

/// The links of a Markdown text outside code blocks and spans: inline links and images, and
/// link reference definitions.
pub fn links(cache: &Cache, text: &SharedText) -> Vec<Link> {
    markdown::parse_hashed(cache, text, text.hash()).links.clone()
}

/// What a link's destination is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target<'a> {
    /// Nothing between the parentheses.
    Empty,
    /// A URL with a scheme (`https:`, `mailto:`…) or protocol-relative (`//host`).
    Url,
    /// A path that only exists on one machine: a home or user folder, a drive letter, `file:`.
    MachinePath,
    /// A path with Windows separators (`docs\guide.md`).
    Backslashes,
    /// `#anchor` in the same file.
    Anchor(&'a str),
    /// A root-absolute path (`/docs/x.md`): GitHub resolves it against the repository, a model
    /// against the file system; not checked.
    RootAbsolute,
    /// A template or placeholder (`<name>.md`, `{file}`, `$DIR/x`, `*.md`): not a real path.
    Placeholder,
    /// A relative path (percent-decoded) and the anchor after `#`, if any.
    Relative { path: String, anchor: Option<&'a str> },
}

static SCHEME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Za-z][A-Za-z0-9+.-]+:").expect("constant pattern")); // ok: literal
static DRIVE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Za-z]:[\\/]").expect("constant pattern")); // ok: literal

/// File names that stand for any file (`references/filename.md`, `path/to/your_file.py`).
const PLACEHOLDER_STEMS: [&str; 8] = ["filename", "file", "name", "example", "foo", "bar", "xxx", "script"];

/// Whether a path is an example rather than a file: `path/to/…`, or a placeholder name
/// (`filename.ext`, `my_script.py`, `your-file.md`).
pub fn is_placeholder_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or_default().trim_end_matches(|c: char| c.is_ascii_digit()).to_ascii_lowercase();
    path.contains("path/to/")
        || PLACEHOLDER_STEMS.contains(&stem.as_str())
        // `script_name.py`, `example-file.md`: made only of placeholder words.
        || stem.split(['_', '-']).all(|word| PLACEHOLDER_STEMS.contains(&word))
        || ["my_", "my-", "your", "some_", "some-"].iter().any(|p| stem.starts_with(p))
}

/// Destinations that stand for a link still to be written (`[text](url)`).
const PLACEHOLDER_WORDS: [&str; 10] = ["url", "link", "path", "href", "file", "filename", "target", "todo", "tbd", "xxx"];

/// Folders that hold one person's or one machine's files.
const MACHINE_PREFIXES: [&str; 7] = ["/Users/", "/home/", "/root/", "/mnt/", "/private/", "/tmp/", "/var/folders/"];

/// Classifies a link destination.
pub fn target(dest: &str) -> Target<'_> {
    let dest = dest.trim();
    if dest.is_empty() {
        return Target::Empty;
    }
    if dest.starts_with("file:") || dest.starts_with('~') || DRIVE.is_match(dest) || MACHINE_PREFIXES.iter().any(|p| dest.starts_with(p)) {
        return Target::MachinePath;
    }
    if SCHEME.is_match(dest) || dest.starts_with("//") {
        return Target::Url;
    }
    if let Some(anchor) = dest.strip_prefix('#') {
        return Target::Anchor(anchor);
    }
    let word = dest.to_ascii_lowercase();
    let placeholder_word = PLACEHOLDER_WORDS.contains(&word.as_str());
    if placeholder_word || dest.contains(['<', '>', '{', '}', '$', '*', '[', ']', '|']) || dest.contains("...") || dest.contains('…') {
        return Target::Placeholder;
    }
    if dest.contains('\\') {
        return Target::Backslashes;
    }
    if dest.starts_with('/') {
        return Target::RootAbsolute;
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (dest, None),
    };
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    if is_placeholder_path(path) {
        return Target::Placeholder;
    }
    Target::Relative { path: percent_decode(path), anchor }
}

/// `%20` and friends decoded (invalid escapes kept as written).
fn percent_decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| path.to_string())
}

/// Where a relative path from a file's folder leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// An existing file or folder, as a path relative to the root.
    Exists(String),
    /// Nothing there: the root-relative path that is missing.
    Missing(String),
    /// The path leaves the project.
    Outside,
}

/// Resolves `path` written in a file of folder `dir` (root-relative), only through the project root.
pub fn resolve(cx: &Context, dir: &str, path: &str) -> Resolved {
    let joined = if dir.is_empty() { path.to_string() } else { format!("{dir}/{path}") };
    let rel = match cx.root.normalize(&joined) {
        Ok(rel) => rel,
        Err(_) => return Resolved::Outside,
    };
    if rel.is_empty() {
        return Resolved::Exists(rel);
    }
    match cx.root.resolve(&rel) {
        Ok(found) if found.exists() => Resolved::Exists(rel),
        Ok(_) | Err(ReadError::Missing(_)) => Resolved::Missing(rel),
        Err(ReadError::Escapes(_)) => Resolved::Outside,
        // Unreadable on the way (permissions): not reported as missing.
        Err(_) => Resolved::Exists(rel),
    }
}

/// The entry of a folder whose name matches `name` but for letter case, when exactly one does.
pub fn case_variant(cx: &Context, rel: &str) -> Option<String> {
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let listed = cx.root.list_files(if dir.is_empty() { "." } else { dir }, 1, MAX_LISTED).ok()?;
    let mut matches = listed.iter().filter_map(|f| {
        let entry = f.rel.rsplit('/').next()?;
        (entry != name && entry.eq_ignore_ascii_case(name)).then(|| f.rel.clone())
    });
    let first = matches.next()?;
    matches.next().is_none().then_some(first)
}

/// How many entries a folder listing reads at most.
pub const MAX_LISTED: usize = 2000;

static EXPLICIT_ID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<a\s[^>]*(?:name|id)\s*=\s*["']([^"']+)["']|\sid\s*=\s*["']([^"']+)["']|\{#([^\s{}]+)[^{}]*\}"#)
        .expect("constant pattern") // ok: literal
}); // ok: literal

/// The anchors a Markdown text defines: GitHub's slug of every heading (duplicates numbered
/// `-1`, `-2`…) and explicit ids (`<a name="x">`, `id="x"`, `{#x}`). An id in a heading's
/// attributes (`{#x .class}`, Pandoc's and kramdown's form) is everything up to white space or
/// the brace: HTML allows any character but white space in an id (`{#ref-ext:humor}`).
pub fn anchors(cache: &Cache, text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for heading in &markdown::parse(cache, text).headings {
        let slug = slug(heading);
        let mut candidate = slug.clone();
        let mut n = 0;
        while !found.insert(candidate.clone()) {
            n += 1;
            candidate = format!("{slug}-{n}");
        }
    }
    for caps in EXPLICIT_ID.captures_iter(text) {
        if let Some(id) = caps.get(1).or_else(|| caps.get(2)).or_else(|| caps.get(3)) {
            found.insert(id.as_str().to_string());
        }
    }
    found
}

/// GitHub's anchor for a heading: Markdown emphasis, code ticks and link syntax dropped,
/// lowercased, every character but letters, digits, `-`, `_` and spaces removed, spaces made `-`.
pub fn slug(heading: &str) -> String {
    let text = strip_inline_links(heading);
    text.chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// `[text](url)` reduced to `text`, and `<tags>` dropped.
fn strip_inline_links(heading: &str) -> String {
    static LINK: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[([^\]]*)\]\([^)]*\)|<[^>]+>").expect("constant pattern")); // ok: literal
    LINK.replace_all(heading, "$1").into_owned()
}

/// Whether a text defines `anchor` (compared as GitHub does: case-insensitively, percent-decoded).
pub fn has_anchor(anchors: &BTreeSet<String>, anchor: &str) -> bool {
    let wanted = percent_decode(anchor).to_lowercase();
    anchors.contains(&wanted) || anchors.iter().any(|a| a.to_lowercase() == wanted)
}

/// The files bundled with a skill: everything in its folder but SKILL.md and the folders of
/// other skills nested in it (bounded listing), as paths relative to the skill's folder.
pub fn bundle(cx: &Context, skill_rel: &str) -> Vec<Listed> {
    let dir = skill_rel.rsplit_once('/').map_or(".", |(d, _)| d);
    let Ok(listed) = cx.root.list_files(dir, BUNDLE_DEPTH, MAX_LISTED) else { return Vec::new() };
    let prefix = if dir == "." { String::new() } else { format!("{dir}/") };
    let mut files: Vec<Listed> = listed
        .into_iter()
        .filter_map(|mut f| {
            f.rel = f.rel.strip_prefix(&prefix)?.to_string();
            Some(f)
        })
        .collect();
    let nested: Vec<String> =
        files.iter().filter_map(|f| f.rel.strip_suffix("SKILL.md").filter(|d| !d.is_empty()).map(str::to_string)).collect();
    files.retain(|f| f.rel != "SKILL.md" && !nested.iter().any(|d| f.rel.starts_with(d.as_str())));
    files
}

/// How deep below a skill's folder its bundled files are listed.
pub const BUNDLE_DEPTH: usize = 4;

/// Every link of every Markdown file with what its destination is.
pub fn all_links<'a>(cx: &Context<'a>) -> Vec<(MdFile<'a>, Link)> {
    markdown_files(cx).into_iter().flat_map(|f| links(cx.root.cache(), f.text).into_iter().map(move |l| (f, l))).collect()
}

/// The `@path` imports between files: every memory file and each file it imports (read through
/// the project root), with the imports that resolve to a file.
#[derive(Debug, Default)]
pub struct Imports {
    /// Root-relative path → (display path, text).
    pub files: BTreeMap<String, (String, SharedText)>,
    /// Root-relative path → its imports that resolve: (the `@path` range, as written, target).
    pub edges: BTreeMap<String, Vec<(Range<usize>, String, String)>>,
}

/// Document extensions an `@path` import may end in (a path without `/` needs one).
const EXTENSIONS: [&str; 9] = [".md", ".mdx", ".markdown", ".txt", ".json", ".yaml", ".yml", ".toml", ".rst"];

static IMPORT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?m)(?:^|[ \t])@([A-Za-z0-9_./~-]+)").expect("constant pattern")); // ok: literal

/// The `@path` imports of a Markdown text, with their byte ranges (the `@` included).
pub fn import_paths(cache: &Cache, text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let masked = markdown::prose(cache, text);
    let mut found = Vec::new();
    for caps in IMPORT.captures_iter(&masked) {
        let Some(m) = caps.get(1) else { continue };
        let path = m.as_str().trim_end_matches(['.', ',', ':', ';']);
        let looks_like_path = path.contains('/') || EXTENSIONS.iter().any(|e| path.to_ascii_lowercase().ends_with(e));
        if path.is_empty() || !looks_like_path || path.starts_with('~') {
            continue;
        }
        found.push((m.start() - 1..m.start() + path.len(), path.to_string()));
    }
    found
}

/// How many files an import graph reads at most.
const MAX_IMPORTED: usize = 500;

/// The import graph of the memory files.
pub fn imports(cx: &Context) -> Imports {
    let mut graph = Imports::default();
    let mut queue: Vec<String> = Vec::new();
    for doc in cx.memory {
        graph.files.insert(doc.rel.clone(), (doc.file.clone(), doc.text.clone()));
        queue.push(doc.rel.clone());
    }
    while let Some(rel) = queue.pop() {
        if graph.edges.contains_key(&rel) {
            continue;
        }
        let text = graph.files[&rel].1.clone();
        let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
        let mut edges = Vec::new();
        for (range, path) in import_paths(cx.root.cache(), &text) {
            let Resolved::Exists(target) = resolve(cx, dir, &path) else { continue };
            if !graph.files.contains_key(&target) && graph.files.len() < MAX_IMPORTED {
                let Ok(file) = cx.root.read(&target) else { continue };
                graph.files.insert(target.clone(), (file.display, file.text));
            }
            if graph.files.contains_key(&target) {
                queue.push(target.clone());
                edges.push((range, path, target));
            }
        }
        graph.edges.insert(rel, edges);
    }
    graph
}

/// Folders the Agent Skills specification names for bundled files.
pub const BUNDLE_FOLDERS: [&str; 3] = ["scripts/", "references/", "assets/"];

static MENTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[\s`'\x22(=:])((?:\./)?(?:scripts|references|assets)/[A-Za-z0-9_][A-Za-z0-9_./-]*\.[A-Za-z0-9]{1,8})(?-u:\b)")
        .expect("constant pattern") // ok: literal
});

/// Paths of bundled files mentioned in a text outside Markdown link destinations (in prose, code
/// spans or code blocks): `scripts/x.py`, `./references/y.md`, each with its byte range.
pub fn bundle_mentions(cache: &Cache, text: &str) -> Vec<(Range<usize>, String)> {
    // Every mention holds one of the folder names: most texts have none, and are not scanned.
    if !BUNDLE_FOLDERS.iter().any(|folder| text.contains(folder)) {
        return Vec::new();
    }
    let markdown = markdown::parse(cache, text);
    // Emphasis delimiters read as spaces: `**scripts/run.py**` mentions `scripts/run.py`.
    let prose = markdown::mask_emphasis(cache, text);
    let mut links = markdown.links.iter().map(|l| &l.span).peekable();
    MENTION
        .captures_iter(&prose)
        .filter_map(|c| c.get(1))
        .filter(|m| {
            // Mentions and links both come in order: one pass over the links.
            while links.peek().is_some_and(|l| l.end < m.end()) {
                links.next();
            }
            !links.peek().is_some_and(|l| l.start <= m.start() && m.end() <= l.end)
        })
        .map(|m| (m.range(), m.as_str().trim_start_matches("./").to_string()))
        .collect()
}

/// Extensions of bundled files read as text when looking for mentions.
const TEXT_EXTENSIONS: [&str; 22] = [
    ".md", ".mdx", ".txt", ".py", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts", ".json", ".yaml", ".yml", ".toml", ".html", ".xml", ".rb",
    ".go", ".rs", ".ps1", ".sql", ".csv",
];

/// Whether a bundled file is read as text (by its extension).
pub fn is_text(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    TEXT_EXTENSIONS.iter().any(|e| lower.ends_with(e))
}

/// A skill with its bundled files and the text of each one read as text.
pub struct Bundle {
    /// The skill folder, relative to the root (`""` at the root).
    pub dir: String,
    pub files: Vec<Listed>,
    /// Bundled text files (path relative to the skill folder) with their texts.
    pub texts: Vec<(String, SharedText)>,
}

impl Bundle {
    /// The bundle of a skill, listed and read once per run for all the rules that look at it.
    pub fn of(cx: &Context, skill_rel: &str) -> Arc<Bundle> {
        // Skills come in path order: found by bisection, not a search of every skill per skill.
        let skill = match cx.skills.binary_search_by(|s| s.rel.as_str().cmp(skill_rel)) {
            Ok(i) => cx.skills.get(i),
            Err(_) => cx.skills.iter().find(|s| s.rel == skill_rel),
        };
        let text = skill.map_or(0, |s| s.text.hash());
        // Where every change of the disk is reported (an editor's watcher), listed and read again
        // after each report.
        let disk = cx.root.reported_generation();
        // The parts hashed as they are (no text made of them: this runs for every rule and skill);
        // neither a path nor a name holds a NUL byte.
        let mut key = xxhash_rust::xxh3::Xxh3::new();
        key.update(cx.root.canonical().as_os_str().as_encoded_bytes());
        key.update(b"\0");
        key.update(skill_rel.as_bytes());
        key.update(b"\0");
        key.update(&text.to_le_bytes());
        key.update(&[u8::from(disk.is_some())]);
        key.update(&disk.unwrap_or(0).to_le_bytes());
        key.update(&(cx.root.depth() as u64).to_le_bytes());
        let key = key.digest128();
        cx.root.cache().get_or_insert(Kind::Bundle, key, || Arc::new(Bundle::read(cx, skill_rel)))
    }

    fn read(cx: &Context, skill_rel: &str) -> Bundle {
        let dir = skill_rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        let mut files = bundle(cx, skill_rel);
        if is_project(cx, &dir, &files) {
            // A SKILL.md at the root of a repository: its folder is a whole project; only the
            // specification's folders are the bundle. Decided by the folder, not by where the
            // check started, so a skill's findings are the same whatever PATH is given.
            files.retain(|f| BUNDLE_FOLDERS.iter().any(|b| f.rel.starts_with(b)));
        }
        let texts = files
            .iter()
            .filter(|f| !f.symlink && is_text(&f.rel))
            .filter_map(|f| cx.root.read(&self_path(&dir, &f.rel)).ok().map(|s| (f.rel.clone(), s.text)))
            .collect();
        Bundle { dir, files, texts }
    }

    /// A path relative to the skill folder, made relative to the root.
    pub fn path(&self, rel: &str) -> String {
        self_path(&self.dir, rel)
    }

    pub fn has(&self, rel: &str) -> bool {
        self.files.iter().any(|f| f.rel == rel)
    }
}

/// Whether a skill's folder is a project rather than a skill's own folder: a Git work tree, one
/// holding a project's `.github/` or a plugin's `.claude-plugin/`, or one holding other skills (a
/// collection). An export without `.git` (a release archive, a Docker build context) is still
/// told apart from a skill's folder. `files` is the folder's listing, nested skills left out.
fn is_project(cx: &Context, dir: &str, files: &[Listed]) -> bool {
    const MARKERS: [&str; 2] = [".github/", ".claude-plugin/"];
    if matches!(resolve(cx, dir, ".git"), Resolved::Exists(_)) || files.iter().any(|f| MARKERS.iter().any(|m| f.rel.starts_with(m))) {
        return true;
    }
    // Skills come in path order: those below `dir` are one run of them.
    let own = self_path(dir, "SKILL.md");
    let below = if dir.is_empty() { String::new() } else { format!("{dir}/") };
    let first = cx.skills.partition_point(|s| s.rel.as_str() < below.as_str());
    cx.skills[first..].iter().take_while(|s| s.rel.starts_with(&below)).any(|s| s.rel != own)
}

fn self_path(dir: &str, rel: &str) -> String {
    if dir.is_empty() {
        rel.to_string()
    } else {
        format!("{dir}/{rel}")
    }
}

/// Which texts of a skill mention which of its bundled files. A text mentions a file when it holds
/// its name, a wildcard pattern matching it (`references/api-*.md`), a folder holding it on its
/// own (`assets/` or `` `assets` ``, not `assets/logo.png`), for a Markdown document its stem as
/// a whole code span (`` `route-templates` ``), or for a module (`.py`, `.js`, `.ts`)
/// its stem or its package (the folder holding it, below `scripts/`) as a word (`from helpers
/// import`). Built without testing every text against every file: one pass over each text finds every key a
/// mention needs (file names, module stems and packages, `folder/` and `` `folder` ``), and each
/// distinct wildcard pattern is matched once per file. Work is linear in the texts and files plus
/// the mentions found.
pub struct Mentioners {
    /// Per key (`n:` a file name, `w:` a word, `f:` a folder), the texts holding it, in order.
    by_key: HashMap<String, Vec<usize>>,
    /// Distinct wildcard patterns with `/` and without, each with the texts writing it.
    paths: Option<(globset::GlobSet, Vec<Vec<usize>>)>,
    names: Option<(globset::GlobSet, Vec<Vec<usize>>)>,
}

/// What a key found in a text stands for.
#[derive(Clone, Copy)]
enum Key<'a> {
    Name(&'a str),
    Word(&'a str),
    FolderSlash(&'a str),
    FolderTick(&'a str),
    /// A Markdown document's stem as a whole code span (`` `route-templates` `` for
    /// `rules/route-templates.md`): how catalogue skills list their rule files by id.
    StemTick(&'a str),
}

impl Mentioners {
    pub fn new(cache: &Cache, texts: &[&str], files: &[&str]) -> Mentioners {
        let mut keys: Vec<(String, Key)> = Vec::new();
        let mut folders = HashSet::new();
        for rel in files {
            let name = rel.rsplit('/').next().unwrap_or(rel);
            keys.push((name.to_string(), Key::Name(name)));
            if let Some(stem) = document_stem(name) {
                keys.push((format!("`{stem}`"), Key::StemTick(name)));
            }
            let (stem, package) = module_words(rel);
            for word in stem.into_iter().chain(package) {
                keys.push((word.to_string(), Key::Word(word)));
            }
            let mut folder = *rel;
            while let Some((parent, _)) = folder.rsplit_once('/') {
                if folders.insert(parent) {
                    keys.push((format!("{parent}/"), Key::FolderSlash(parent)));
                    keys.push((format!("`{parent}`"), Key::FolderTick(parent)));
                }
                folder = parent;
            }
        }
        let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
        let mut add = |key: String, text: usize| {
            let list = by_key.entry(key).or_default();
            if list.last() != Some(&text) {
                list.push(text);
            }
        };
        let is_ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let is_path = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'));
        // After a name, a character of a longer name (`x.md.bak`, `x.md-old`), not a sentence's `.`.
        let continues_name = |rest: &str| {
            let mut next = rest.chars();
            match next.next() {
                Some('.') => next.next().is_some_and(|c| c.is_alphanumeric()),
                c => c.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-')),
            }
        };
        if let Ok(automaton) = aho_corasick::AhoCorasick::new(keys.iter().map(|(k, _)| k)) {
            for (i, text) in texts.iter().enumerate() {
                for m in automaton.find_overlapping_iter(*text) {
                    let (before, after) = (text[..m.start()].chars().next_back(), text[m.end()..].chars().next());
                    match keys[m.pattern().as_usize()].1 {
                        // The whole name: `poc-generation.md` is not named by `phase-4-poc-generation.md`.
                        Key::Name(name) if !is_path(before) && !continues_name(&text[m.end()..]) => add(format!("n:{name}"), i),
                        Key::Word(word) if !is_ident(before) && !is_ident(after) => add(format!("w:{word}"), i),
                        Key::FolderSlash(folder) if !is_path(after) => add(format!("f:{folder}"), i),
                        Key::FolderTick(folder) => add(format!("f:{folder}"), i),
                        Key::StemTick(name) => add(format!("n:{name}"), i),
                        Key::Name(_) | Key::Word(_) | Key::FolderSlash(_) => {}
                    }
                }
            }
        }
        // Each distinct pattern once, with the texts that write it.
        let mut patterns: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        let globs: Vec<Arc<MentionGlobs>> = texts.iter().map(|t| MentionGlobs::of(cache, t)).collect();
        for (i, g) in globs.iter().enumerate() {
            for pattern in g.patterns.iter() {
                let owners = patterns.entry(pattern.as_str()).or_default();
                owners.push(i);
            }
        }
        let set = |with_slash: bool| {
            let mut set = globset::GlobSetBuilder::new();
            let mut owners = Vec::new();
            for (pattern, texts) in patterns.iter().filter(|(p, _)| p.contains('/') == with_slash) {
                if let Some(glob) = MentionGlobs::glob(pattern) {
                    set.add(glob);
                    owners.push(texts.clone());
                }
            }
            set.build().ok().filter(|s| !s.is_empty()).map(|s| (s, owners))
        };
        Mentioners { paths: set(true), names: set(false), by_key }
    }

    /// The first text (in the order given) that mentions `rel` and that `keep` accepts.
    pub fn first(&self, rel: &str, keep: impl Fn(usize) -> bool) -> Option<usize> {
        self.earliest(rel, keep, true)
    }

    /// The first text that names `rel` itself (its name, a pattern or a module word), not only its
    /// folder: a tree drawing's `references/` says nothing about which file it leads to.
    pub fn first_naming(&self, rel: &str, keep: impl Fn(usize) -> bool) -> Option<usize> {
        self.earliest(rel, keep, false)
    }

    fn earliest(&self, rel: &str, keep: impl Fn(usize) -> bool, folders: bool) -> Option<usize> {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let (stem, package) = module_words(rel);
        let mut lists: Vec<&[usize]> = Vec::new();
        let mut key = |k: String| {
            if let Some(list) = self.by_key.get(&k) {
                lists.push(list);
            }
        };
        key(format!("n:{name}"));
        for word in stem.into_iter().chain(package) {
            key(format!("w:{word}"));
        }
        let mut folder = rel;
        while let Some((parent, _)) = folder.rsplit_once('/').filter(|_| folders) {
            key(format!("f:{parent}"));
            folder = parent;
        }
        for (globs, path) in [(&self.paths, rel), (&self.names, name)] {
            if let Some((set, owners)) = globs {
                lists.extend(set.matches(path).into_iter().filter_map(|i| owners.get(i)).map(Vec::as_slice));
            }
        }
        // Each list is in text order: its first accepted text is its earliest.
        lists.iter().filter_map(|list| list.iter().copied().find(|t| keep(*t))).min()
    }
}

/// A module's stem (`helpers` of `scripts/helpers.py`, three characters or more) and its package
/// (the folder holding it, below `scripts/`), the words that name it in code.
/// A Markdown document's name without its extension (`route-templates` of `route-templates.md`).
fn document_stem(name: &str) -> Option<&str> {
    [".md", ".mdx"].iter().find_map(|e| name.strip_suffix(e)).filter(|stem| !stem.is_empty())
}

fn module_words(rel: &str) -> (Option<&str>, Option<&str>) {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let module = [".py", ".js", ".mjs", ".cjs", ".ts"].iter().find_map(|e| name.strip_suffix(e));
    let package = module.and(rel.rsplit('/').nth(1)).filter(|p| !BUNDLE_FOLDERS.iter().any(|f| f.trim_end_matches('/') == *p));
    (module.filter(|stem| stem.len() >= 3), package)
}

static GLOB: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[A-Za-z0-9_./-]*\*[A-Za-z0-9_./*-]*").expect("constant pattern")); // ok: literal

/// The paths a text writes with wildcards (`shared/*.md`, `**/*.py`), outside emphasis, read
/// once per text: `*` matches within one folder, `**` across folders; a pattern without `/` is
/// matched against a file's name. Matching is linear in the path (globset's regexes).
#[derive(Default)]
struct MentionGlobs {
    /// The distinct patterns, sorted.
    patterns: Vec<String>,
}

impl MentionGlobs {
    fn of(cache: &Cache, text: &str) -> Arc<MentionGlobs> {
        // Most texts write no `*` at all.
        if !text.contains('*') {
            return Arc::default();
        }
        cache.get_or_insert(Kind::MentionGlobs, content_hash(text), || Arc::new(MentionGlobs::read(cache, text)))
    }

    fn read(cache: &Cache, text: &str) -> MentionGlobs {
        let prose = markdown::mask_emphasis(cache, text);
        let mut patterns: Vec<&str> = GLOB
            .find_iter(&prose)
            .map(|g| g.as_str().trim_start_matches("./"))
            // A pattern of wildcards, dots and slashes only would match anything; one without `/`
            // is a file name only with an extension's dot (`*.md`, `api-*.md`): `*Run the poc*`
            // or `**Note**` is emphasis, which a code block leaves unparsed.
            .filter(|p| !p.trim_matches(['*', '/', '.']).is_empty() && (p.contains('/') || p.trim_matches('*').contains('.')))
            .collect();
        patterns.sort_unstable();
        patterns.dedup();
        MentionGlobs { patterns: patterns.into_iter().map(str::to_string).collect() }
    }

    /// A pattern as a glob: `*` within one folder, `**` across folders.
    fn glob(pattern: &str) -> Option<globset::Glob> {
        globset::GlobBuilder::new(pattern).literal_separator(true).build().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether one text mentions one file.
    fn mentions(text: &str, rel: &str) -> bool {
        Mentioners::new(&Cache::default(), &[text], &[rel]).first(rel, |_| true).is_some()
    }

    #[test]
    fn globs_match_like_paths() {
        let matches = |pattern: &str, rel: &str| mentions(&format!("`{pattern}`"), rel);
        assert!(matches("shared/managed-agents-*.md", "shared/managed-agents-core.md"));
        assert!(!matches("shared/a*.md", "shared/deep/ax.md"), "`*` stays within one folder");
        assert!(matches("shared/**/*.md", "shared/deep/x.md"));
        assert!(matches("*.py", "scripts/run.py"), "a pattern without `/` matches the name");
        assert!(!matches("**", "anything"), "a pattern of wildcards only matches nothing");
    }

    #[test]
    fn bold_is_not_a_wildcard() {
        // The shape of the false alarms: bold text ending in a word the bundled files start with.
        let text = "**Pick the right bundle** before you start.\n";
        assert!(!mentions(text, "rules/bundle-core.md"));
        assert!(mentions("Read `rules/bundle-*.md`.", "rules/bundle-core.md"));
        assert_eq!(bundle_mentions(&Cache::default(), "Run **scripts/run.py** now.")[0].1, "scripts/run.py");
        // In a code block emphasis is not parsed: bold and italic words there are no file names.
        let template = "```markdown\n*Run the poc* and **Report**\n```\n";
        assert!(!mentions(template, "references/poc-generation.md") && !mentions(template, "references/report-notes.md"));
        assert!(mentions("```sh\ncat *.md\n```\n", "references/poc-generation.md"));
    }

    #[test]
    fn classifies_targets() {
        assert_eq!(target("https://x.org"), Target::Url);
        assert_eq!(target("#setup"), Target::Anchor("setup"));
        assert_eq!(target("/Users/ana/x.md"), Target::MachinePath);
        assert_eq!(target("C:\\x.md"), Target::MachinePath);
        assert_eq!(target("docs\\x.md"), Target::Backslashes);
        assert_eq!(target("url"), Target::Placeholder);
        assert_eq!(target("<name>.md"), Target::Placeholder);
        assert_eq!(target("/docs/x.md"), Target::RootAbsolute);
        assert_eq!(target("my%20file.md#top"), Target::Relative { path: "my file.md".into(), anchor: Some("top") });
    }

    #[test]
    fn mentions_by_name_folder_glob_or_module() {
        assert!(mentions("see `references/api.md`", "references/api.md"));
        assert!(mentions("fonts live in `assets/fonts/`.", "assets/fonts/a.ttf"));
        assert!(!mentions("use assets/logo.png", "assets/fonts/a.ttf"));
        assert!(mentions("read `shared/agents-*.md`", "shared/agents-core.md"));
        assert!(mentions("from validators import X", "scripts/office/validators/base.py"));
        assert!(mentions("from helpers import clean", "scripts/helpers.py"));
        assert!(!mentions("the helper module", "scripts/helpers.py"));
        // Whole names only: a longer hyphenated name does not name the shorter one.
        assert!(!mentions("Read `references/phase-4-poc-generation.md`.", "references/poc-generation.md"));
        assert!(!mentions("Keep poc-generation.md.bak out.", "references/poc-generation.md"));
        assert!(mentions("Then read poc-generation.md.", "references/poc-generation.md"));
        assert!(mentions("(see references/poc-generation.md)", "references/poc-generation.md"));
        // A catalogue lists its rule documents by id: the stem as a whole code span, nothing less.
        assert!(mentions("- `route-templates` - Co-located route templates", "rules/route-templates.md"));
        assert!(!mentions("- `route-templates-v2` - and route templates", "rules/route-templates.md"));
        assert!(!mentions("- `scripts/route-templates` - a script", "rules/route-templates.md"));
        // A folder drawn in a tree mentions every file in it, but a text naming the file is the one
        // that leads to it.
        let texts = ["```\nmy-skill/\n└── references/\n```\n", "Read `references/x.md` first."];
        let found = Mentioners::new(&Cache::default(), &texts, &["references/x.md"]);
        assert_eq!((found.first("references/x.md", |_| true), found.first_naming("references/x.md", |_| true)), (Some(0), Some(1)));
    }
}

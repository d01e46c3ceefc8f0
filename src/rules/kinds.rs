//! Helpers shared by the rules of the Cursor, Copilot, Gemini, OpenHands and Codex families:
//! a lenient `key: value` line reading of frontmatter (Cursor's `.mdc` frontmatter is usually
//! not valid YAML: `globs: **/*.ts` is the documented style), comma-separated glob lists, glob
//! syntax, and the findings several kinds share (unknown fields, empty bodies).

use std::ops::Range;

use crate::agent_files::{Doc, FileKind};
use crate::diagnostic::{did_you_mean, Diagnostic, Edit, Fix};
use crate::rules::context::Context;

/// One top-level `key: value` line of frontmatter, with the `- item` lines below it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawField {
    pub key: String,
    pub key_span: Range<usize>,
    /// The value as written on the key's line, trimmed (quotes kept).
    pub value: String,
    /// Where the value is (the key's span when the value is empty).
    pub value_span: Range<usize>,
    /// `- item` lines of a block list under the key, trimmed, with their spans.
    pub items: Vec<(String, Range<usize>)>,
    /// The whole field, from the key to the end of its last line (line break included).
    pub line_span: Range<usize>,
}

/// Frontmatter read as lines.
#[derive(Debug, Clone, PartialEq)]
pub struct RawFront {
    pub fields: Vec<RawField>,
    /// Byte offset where the body (after the closing `---`) starts.
    pub body_start: usize,
}

impl RawFront {
    pub fn get(&self, key: &str) -> Option<&RawField> {
        self.fields.iter().find(|f| f.key == key)
    }
}

/// Why frontmatter could not be read.
#[derive(Debug, Clone, PartialEq)]
pub enum RawError {
    /// The file does not start with `---`.
    Missing,
    /// An opening `---` with no closing one (the byte range of the opening line).
    Unterminated(Range<usize>),
}

/// Reads frontmatter as `key: raw value` lines; nothing in a value is interpreted.
pub fn raw_front(text: &str) -> Result<RawFront, RawError> {
    let first_end = text.find('\n').map_or(text.len(), |i| i + 1);
    if text[..first_end].trim_end() != "---" {
        return Err(RawError::Missing);
    }
    let mut fields: Vec<RawField> = Vec::new();
    let mut offset = first_end;
    for line in text[first_end..].split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim_end() == "---" {
            return Ok(RawFront { fields, body_start: offset });
        }
        let indented = content.starts_with([' ', '\t']);
        let trimmed = content.trim();
        if indented || trimmed.starts_with('-') {
            if let (Some(field), Some(item)) = (fields.last_mut(), trimmed.strip_prefix('-')) {
                let item = item.trim();
                let item_start = start + content.find(item).unwrap_or(0);
                field.items.push((item.to_string(), item_start..item_start + item.len()));
            }
            if let Some(field) = fields.last_mut() {
                field.line_span.end = offset;
            }
            continue;
        }
        let Some(colon) = content.find(':') else { continue };
        let key = &content[..colon];
        if key.is_empty() || trimmed.starts_with('#') || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            continue;
        }
        let after = &content[colon + 1..];
        let value = after.trim();
        let key_span = start..start + key.len();
        let value_span = match value.is_empty() {
            true => key_span.clone(),
            false => {
                let v = start + colon + 1 + (after.len() - after.trim_start().len());
                v..v + value.len()
            }
        };
        fields.push(RawField {
            key: key.to_string(),
            key_span,
            value: value.to_string(),
            value_span,
            items: Vec::new(),
            line_span: start..offset,
        });
    }
    Err(RawError::Unterminated(0..first_end.saturating_sub(1)))
}

/// A value without one pair of matching surrounding quotes.
pub fn unquote(value: &str) -> &str {
    for q in ['"', '\''] {
        if value.len() >= 2 && value.starts_with(q) && value.ends_with(q) {
            return &value[1..value.len() - 1];
        }
    }
    value
}

/// The globs of a comma-separated list (commas inside `{…}` belong to the glob), trimmed, with
/// their byte ranges (`start` is where `list` begins in the file). Empty entries are kept.
pub fn split_globs(list: &str, start: usize) -> Vec<(&str, Range<usize>)> {
    let mut bounds = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth <= 0 => {
                bounds.push(from..i);
                from = i + 1;
            }
            _ => {}
        }
    }
    bounds.push(from..list.len());
    bounds
        .into_iter()
        .map(|r| {
            let part = &list[r.clone()];
            let lead = part.len() - part.trim_start().len();
            let glob = part.trim();
            (glob, start + r.start + lead..start + r.start + lead + glob.len())
        })
        .collect()
}

/// What is wrong with a glob's syntax, if anything: unbalanced `[…]` or `{…}`, or an empty
/// `{}` / `[]`.
pub fn glob_problem(glob: &str) -> Option<&'static str> {
    let (mut braces, mut bracket) = (0i32, false);
    let mut chars = glob.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !bracket => {
                if chars.peek() == Some(&']') {
                    return Some("an empty `[]` matches nothing");
                }
                bracket = true;
            }
            ']' if bracket => bracket = false,
            '{' if !bracket => {
                if chars.peek() == Some(&'}') {
                    return Some("an empty `{}` matches nothing");
                }
                braces += 1;
            }
            '}' if !bracket => {
                braces -= 1;
                if braces < 0 {
                    return Some("a `}` closes no `{`");
                }
            }
            _ => {}
        }
    }
    match (bracket, braces) {
        (true, _) => Some("a `[` is never closed"),
        (_, n) if n > 0 => Some("a `{` is never closed"),
        _ => None,
    }
}

/// A finding for a frontmatter key the product does not read, with a safe fix when the key only
/// differs from a known one in case.
/// `taken` says whether a key is already written: a rename onto one would write it twice.
pub fn unknown_key(
    file: &str,
    key: &str,
    key_span: Range<usize>,
    known: &[&str],
    product: &str,
    taken: impl Fn(&str) -> bool,
) -> Diagnostic {
    let case = known.iter().find(|k| k.eq_ignore_ascii_case(key)).copied();
    // Fields of other products' agent formats (opencode's `mode`/`hidden`, Claude Code's `color`)
    // are not typos of a near name such as `model`.
    let foreign = ["mode", "hidden", "color", "temperature"].contains(&key);
    let suggestion = case.or_else(|| did_you_mean(key, known.iter().copied()).filter(|_| !foreign));
    let mut d = Diagnostic::warning(format!("unknown frontmatter field `{key}`: {product} ignores it"))
        .in_file(file)
        .at(Some(key_span.clone()))
        .label("unknown field");
    d = match suggestion {
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => {
            d.help(format!("remove it; {product} reads only {}", known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")))
        }
    };
    match case.filter(|k| !taken(k)) {
        Some(k) => d.fix(Fix::safe(format!("rename `{key}` to `{k}`"), vec![Edit::replace(file, key_span, k)])),
        None => d,
    }
}

/// The unknown-field findings of a parsed frontmatter (a [`Doc`] whose YAML parsed).
pub fn unknown_fields(doc: &Doc, known: &[&str], product: &str) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (key, _) in doc.fields() {
        if !known.contains(&key.as_str()) {
            if let Some(span) = doc.key_span(key) {
                findings.push(unknown_key(&doc.file, key, span, known, product, |k| doc.field(k).is_some()));
            }
        }
    }
    findings
}

/// A finding for a file whose Markdown body is empty or only whitespace.
pub fn empty_body(doc: &Doc, body_start: usize, what: &str) -> Option<Diagnostic> {
    let body = &doc.text[body_start.min(doc.text.len())..];
    body.trim().is_empty().then(|| {
        Diagnostic::warning(format!("{} has no instructions: its body is empty", doc.rel))
            .in_file(&doc.file)
            .at(Some(body_start.saturating_sub(1).min(doc.text.len())..body_start.min(doc.text.len())))
            .label("nothing after the frontmatter")
            .help(format!("write the {what} below the frontmatter, or delete the file"))
    })
}

/// Whether a Markdown doc's frontmatter is there but does not parse (its parse rule reports it;
/// the others skip the file).
pub fn has_yaml_error(doc: &Doc) -> bool {
    matches!(&*doc.front, Err(crate::yaml::FrontmatterError::Invalid(_)) | Err(crate::yaml::FrontmatterError::Unterminated))
}

/// A JSON string's key range in a JSON text: the first `"key"` followed by `:` after `from`.
pub fn json_key(text: &str, key: &str, from: usize) -> Option<Range<usize>> {
    let needle = format!("\"{key}\"");
    let mut at = from;
    while let Some(i) = text.get(at..).and_then(|t| t.find(&needle)) {
        let start = at + i;
        let end = start + needle.len();
        if text[end..].trim_start().starts_with(':') {
            return Some(start..end);
        }
        at = end;
    }
    None
}

/// The Cursor rules (`.mdc`) whose frontmatter could be read, with it (CURSOR001 and CURSOR002
/// report the others).
pub fn cursor_rules<'a>(cx: &Context<'a>) -> impl Iterator<Item = (&'a Doc, RawFront)> {
    cx.files_of(FileKind::CursorRule).filter_map(|doc| raw_front(&doc.text).ok().map(|front| (doc, front)))
}

/// The globs of a `globs` field written as a comma-separated string, each without its quotes,
/// with its span; empty for a field written as a list (`[…]` or `- item` lines).
pub fn string_globs(field: &RawField) -> Vec<(&str, Range<usize>)> {
    if field.value.starts_with('[') || field.value.is_empty() {
        return Vec::new();
    }
    let whole = unquote(&field.value);
    let start = field.value_span.start + usize::from(whole.len() != field.value.len());
    split_globs(whole, start).into_iter().map(|(g, r)| unquoted(g, r)).collect()
}

/// Every glob of a `globs` field, in any of the forms Cursor accepts: a comma-separated string,
/// a flow list (`["a", "b"]`) or `- item` lines; each without quotes, with its span.
pub fn all_globs(field: &RawField) -> Vec<(&str, Range<usize>)> {
    if let Some(inner) = field.value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        let globs = split_globs(inner, field.value_span.start + 1).into_iter().map(|(g, r)| unquoted(g, r));
        return globs.filter(|(g, _)| !g.is_empty()).collect();
    }
    if field.value.is_empty() {
        return field.items.iter().map(|(g, r)| unquoted(g, r.clone())).collect();
    }
    string_globs(field)
}

/// A glob without one pair of surrounding quotes, and its span moved to match.
fn unquoted(glob: &str, span: Range<usize>) -> (&str, Range<usize>) {
    let inner = unquote(glob);
    let shift = usize::from(inner.len() != glob.len());
    (inner, span.start + shift..span.start + shift + inner.len())
}

/// The files of a kind whose YAML frontmatter parsed (the kind's parse rule reports the others).
pub fn parsed<'a>(cx: &Context<'a>, kind: FileKind) -> impl Iterator<Item = &'a Doc> {
    cx.files_of(kind).filter(|d| d.front.is_ok())
}

/// The display names of Copilot custom agents (`name`, else the file name without its suffix).
pub fn copilot_agent_names<'a>(cx: &Context<'a>) -> Vec<&'a str> {
    let stem = |d: &'a Doc| d.name().trim_end_matches(".agent.md").trim_end_matches(".chatmode.md");
    cx.files_of(FileKind::CopilotAgent).flat_map(|d| [d.string("name"), Some(stem(d))]).flatten().collect()
}

/// The Gemini CLI settings files that parse, with their value (GEMINI001 reports the others).
pub fn gemini_settings<'a>(cx: &Context<'a>) -> Vec<(&'a Doc, serde_json::Value)> {
    cx.files_of(FileKind::GeminiSettings).filter_map(|d| super::gemini_settings::parse(&d.text).ok().map(|s| (d, s.value))).collect()
}

/// One entry of `mcpServers` in a Gemini CLI settings file that parses.
pub struct McpServer<'a> {
    pub doc: &'a Doc,
    pub name: String,
    pub value: serde_json::Value,
    /// Where the server's name is written.
    pub span: Option<Range<usize>>,
}

impl McpServer<'_> {
    /// A finding about the server, at its `key` when given and written, else at its name.
    pub fn report(&self, finding: Diagnostic, key: Option<&str>) -> Diagnostic {
        let at = key.and_then(|k| self.span.as_ref().and_then(|s| json_key(&self.doc.text, k, s.end))).or_else(|| self.span.clone());
        finding.in_file(&self.doc.file).at(at)
    }
}

/// Every MCP server of the Gemini CLI settings files that parse.
pub fn gemini_mcp_servers<'a>(cx: &Context<'a>) -> Vec<McpServer<'a>> {
    let mut servers = Vec::new();
    for (doc, value) in gemini_settings(cx) {
        let Some(map) = value.get("mcpServers").and_then(|s| s.as_object()) else { continue };
        let from = json_key(&doc.text, "mcpServers", 0).map_or(0, |r| r.end);
        for (name, server) in map {
            servers.push(McpServer { doc, name: name.clone(), value: server.clone(), span: json_key(&doc.text, name, from) });
        }
    }
    servers
}

/// Gemini CLI stops expanding `@file` imports in a file imported this many levels deep
/// (`maxDepth: 5`, memoryImportProcessor.ts).
pub const GEMINI_IMPORT_DEPTH: usize = 5;

/// What following a GEMINI.md's imports found: chains (root-relative paths, the GEMINI.md
/// first) that go deeper than Gemini CLI expands, and chains that import a file already on them.
/// Each starts at an import in the GEMINI.md itself (its range there).
#[derive(Debug, Default)]
pub struct ImportWalk {
    pub too_deep: Vec<(Range<usize>, Vec<String>)>,
    pub cycles: Vec<(Range<usize>, Vec<String>)>,
}

/// Follows the `@path` imports of a memory file through the project (files that do not resolve
/// are MEM003's).
pub fn import_walk(cx: &Context, rel: &str, text: &str) -> ImportWalk {
    use crate::rules::refs::import_paths as imports;
    fn targets(cx: &Context, rel: &str, text: &str) -> Vec<(Range<usize>, String)> {
        let dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
        imports(cx.root.cache(), text)
            .into_iter()
            .filter_map(|(range, path)| {
                let joined = if dir.is_empty() { path } else { format!("{dir}/{path}") };
                cx.root.normalize(&joined).ok().map(|target| (range, target))
            })
            .collect()
    }
    fn visit(cx: &Context, chain: &[String], start: &Range<usize>, walk: &mut ImportWalk, seen: &mut std::collections::BTreeSet<String>) {
        let Some(last) = chain.last().cloned() else { return };
        let Ok(file) = cx.root.read(&last) else { return };
        for (_, target) in targets(cx, &last, &file.text) {
            let mut next = chain.to_vec();
            next.push(target.clone());
            if chain.contains(&target) {
                walk.cycles.push((start.clone(), next));
            } else if chain.len() > GEMINI_IMPORT_DEPTH {
                walk.too_deep.push((start.clone(), next));
            } else if seen.insert(target) {
                visit(cx, &next, start, walk, seen);
            }
        }
    }
    let mut walk = ImportWalk::default();
    let mut seen = std::collections::BTreeSet::new();
    for (range, target) in targets(cx, rel, text) {
        let chain = vec![rel.to_string(), target.clone()];
        if target == rel {
            walk.cycles.push((range, chain));
        } else if seen.insert(target) {
            visit(cx, &chain, &range, &mut walk, &mut seen);
        }
    }
    walk
}

/// The microagent type OpenHands infers from the fields, whatever `type` says: `inputs` make a
/// task, else `triggers` a knowledge microagent, else it is a repository microagent
/// (All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686).
pub fn openhands_inferred_type(doc: &Doc) -> &'static str {
    let non_empty = |k: &str| doc.field(k).and_then(|v| v.as_array()).is_some_and(|a| !a.is_empty());
    match (non_empty("inputs"), non_empty("triggers")) {
        (true, _) => "task",
        (false, true) => "knowledge",
        _ => "repo",
    }
}

/// OpenHands microagents whose frontmatter parsed or is absent (OPENHANDS001 reports the
/// others); `README.md` files, which OpenHands skips, are left out.
pub fn microagents<'a>(cx: &Context<'a>) -> impl Iterator<Item = &'a Doc> {
    cx.files_of(FileKind::OpenHandsMicroagent).filter(|d| !has_yaml_error(d) && d.name() != "README.md")
}

/// The input names a microagent declares.
pub fn microagent_inputs(doc: &Doc) -> Vec<&str> {
    let inputs = doc.field("inputs").and_then(|i| i.as_array());
    inputs.map(|list| list.iter().filter_map(|i| i.get("name").and_then(|n| n.as_str())).collect()).unwrap_or_default()
}

/// The `{{ NAME }}` and `${NAME}` variables of a microagent's body, outside code, with spans.
pub fn template_variables(doc: &Doc) -> Vec<(String, Range<usize>)> {
    static VARIABLE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}|\$\{([A-Za-z_][A-Za-z0-9_]*)\}").expect("constant pattern")
        // ok: literal
        // ok: literal
    });
    let start = doc.body_start();
    let masked = crate::rules::markdown::mask_code(&doc.cache, doc.body());
    VARIABLE
        .captures_iter(&masked)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let name = c.get(1).or_else(|| c.get(2))?;
            Some((name.as_str().to_string(), start + whole.start()..start + whole.end()))
        })
        .collect()
}

/// Codex's default `project_doc_max_bytes`: the budget of the whole AGENTS.md chain.
pub const CODEX_BUDGET: usize = 32 * 1024;

/// The file Codex reads in each folder of the project, by folder (`""` for the root): the
/// first that exists of `AGENTS.override.md` and `AGENTS.md`
/// (openai/codex:codex-rs/core/src/project_doc.rs@0bd53e45). A whitespace-only one is chosen
/// too, and then contributes nothing.
pub fn codex_docs<'a>(cx: &Context<'a>) -> std::collections::BTreeMap<&'a str, &'a crate::agent_files::MemoryDoc> {
    let mut docs = std::collections::BTreeMap::new();
    // An agent's manifest loads its memory files itself: Codex's chain does not apply.
    if cx.agent.is_some() {
        return docs;
    }
    for name in ["AGENTS.md", "AGENTS.override.md"] {
        for doc in cx.memory.iter().filter(|m| m.name() == name) {
            docs.insert(doc.rel.rsplit_once('/').map_or("", |(d, _)| d), doc);
        }
    }
    docs
}

/// The folders from the root down to `dir`, root first (`""` is the root).
pub fn folders_down_to(dir: &str) -> Vec<&str> {
    let mut folders = vec![""];
    folders.extend(dir.match_indices('/').map(|(i, _)| &dir[..i]).chain((!dir.is_empty()).then_some(dir)));
    folders
}

/// A Cursor project rule in the folder that holds a `.cursorrules` (its `.cursor/rules/`), if any.
pub fn cursor_rule_beside<'a>(cx: &Context<'a>, legacy: &Doc) -> Option<&'a Doc> {
    let dir = legacy.rel.strip_suffix(".cursorrules").unwrap_or("");
    cx.files_of(FileKind::CursorRule).find(|r| r.rel.strip_prefix(dir).is_some_and(|rest| rest.starts_with(".cursor/rules/")))
}

/// The finding for frontmatter that does not parse or is never closed (none when it parsed or
/// is absent).
pub fn frontmatter_error(doc: &Doc, help: &str) -> Option<Diagnostic> {
    use crate::yaml::FrontmatterError;
    let (message, at) = match &*doc.front {
        Err(FrontmatterError::Invalid(e)) => (format!("frontmatter is not valid YAML: {}", e.message), e.offset.unwrap_or(0)),
        Err(FrontmatterError::Unterminated) => ("frontmatter is never closed with `---`".to_string(), 0),
        _ => return None,
    };
    let at = at.min(doc.text.len());
    let end = doc.text[at..].find('\n').map_or(doc.text.len(), |i| at + i);
    Some(Diagnostic::error(message).in_file(&doc.file).at(Some(at..end)).label("here").help(help))
}

/// The finding for a file that is empty or only whitespace (display path, root-relative path).
pub fn empty_file(file: &str, rel: &str, consequence: &str, help: &str) -> Diagnostic {
    Diagnostic::warning(format!("{rel} is empty{consequence}")).in_file(file).at(Some(0..0)).help(help)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mdc_frontmatter_that_is_not_yaml() {
        let text = "---\ndescription: TS rules\nglobs: **/*.ts, **/*.{tsx,jsx}\nalwaysApply: false\ntags:\n  - a\n  - \"b\"\n---\nBody\n";
        let front = raw_front(text).expect("frontmatter");
        let globs = front.get("globs").expect("globs");
        assert_eq!(&text[globs.value_span.clone()], "**/*.ts, **/*.{tsx,jsx}");
        let parts: Vec<&str> = split_globs(&globs.value, globs.value_span.start)
            .into_iter()
            .map(|(g, r)| {
                assert_eq!(&text[r], g);
                g
            })
            .collect();
        assert_eq!(parts, ["**/*.ts", "**/*.{tsx,jsx}"]);
        let items: Vec<&str> = front.get("tags").expect("tags").items.iter().map(|(i, _)| i.as_str()).collect();
        assert_eq!(items, ["a", "\"b\""]);
        assert_eq!(&text[front.body_start..], "Body\n");
        assert_eq!(raw_front("---\nglobs: x\n"), Err(RawError::Unterminated(0..3)));
        assert_eq!(raw_front("# title"), Err(RawError::Missing));
    }

    #[test]
    fn glob_syntax() {
        assert_eq!(glob_problem("src/**/*.{ts,tsx}"), None);
        assert_eq!(glob_problem("[abc].md"), None);
        assert!(glob_problem("src/**/*.{ts,tsx").is_some());
        assert!(glob_problem("src/[ab.md").is_some());
        assert!(glob_problem("a}.md").is_some());
        assert!(glob_problem("*.{}").is_some());
    }
}

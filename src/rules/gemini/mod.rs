//! The Gemini family: GEMINI.md context files and `.gemini/settings.json`.
//!
//! `.gemini/settings.json` is read as Gemini CLI reads it: the CLI strips `//` and `/* */` comments
//! before `JSON.parse` (google-gemini/gemini-cli:packages/cli/src/config/settings.ts,
//! `stripJsonComments`), so comments are allowed; trailing commas and the other JSON5 forms are
//! not. Parsed by `jsonc-parser`, which keeps the position of every key.

use std::collections::BTreeMap;
use std::ops::Range;

use jsonc_parser::common::Ranged;
use jsonc_parser::CollectOptions;
use serde_json::Value;

use crate::agent_files::{Doc, FileKind};
use crate::diagnostic::Diagnostic;
use crate::rules::context::Context;
use crate::rules::json_span::json_with_comments;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod gemini001_settings_invalid_json;
pub mod gemini002_settings_unknown_key;
pub mod gemini003_context_filename_invalid;
pub mod gemini004_import_format_invalid;
pub mod gemini005_mcp_server_no_transport;
pub mod gemini006_mcp_server_several_transports;
pub mod gemini007_mcp_alias_underscore;
pub mod gemini008_mcp_timeout_not_milliseconds;
pub mod gemini009_mcp_tool_included_and_excluded;
pub mod gemini010_mcp_args_not_strings;
pub mod gemini011_gemini_md_empty;
pub mod gemini012_import_too_deep;
pub mod gemini013_extension_json_invalid;
pub mod gemini014_extension_name_invalid;
pub mod gemini015_extension_context_file_missing;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Gemini CLI: GEMINI.md context files, `.gemini/settings.json` and extension manifests (`gemini-extension.json`).";

/// A settings file that parses: its value and where its keys are written.
#[derive(Debug, Clone)]
pub struct Settings {
    pub value: Value,
    /// Top-level keys with the range of the key (quotes included), in file order.
    pub top_level: Vec<(String, Range<usize>)>,
    /// The range of every key up to [`KEY_DEPTH`] objects deep, by its path of keys (the first
    /// one written when a key is written twice).
    keys: BTreeMap<Vec<String>, Range<usize>>,
}

/// How deep [`Settings`] keeps the places of keys: as deep as the rules point
/// (`mcpServers.NAME.timeout`), and no deeper, so a deeply nested file costs no more than its size.
const KEY_DEPTH: usize = 3;

impl Settings {
    /// Where the key at `path` is written, e.g. `["context", "fileName"]`.
    pub fn key_span(&self, path: &[&str]) -> Option<Range<usize>> {
        self.keys.get(&path.iter().map(|k| k.to_string()).collect::<Vec<_>>()).cloned()
    }
}

/// Records the place of each key of `object` (at `path`) and, below [`KEY_DEPTH`], of the keys of
/// the objects it holds.
fn collect_keys(object: &jsonc_parser::ast::Object, path: &mut Vec<String>, keys: &mut BTreeMap<Vec<String>, Range<usize>>) {
    for property in &object.properties {
        path.push(property.name.as_str().to_string());
        keys.entry(path.clone()).or_insert(property.name.range().start..property.name.range().end);
        if let (true, Some(inner)) = (path.len() < KEY_DEPTH, property.value.as_object()) {
            collect_keys(inner, path, keys);
        }
        path.pop();
    }
}

/// The settings, or the byte offset and message of the first error.
pub fn parse_settings(text: &str) -> Result<Settings, (usize, String)> {
    let parsed = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &json_with_comments())
        .map_err(|e| (e.range().start.min(text.len()), e.kind().to_string()))?;
    let Some(ast) = parsed.value else { return Err((text.len(), "the file holds no JSON value".to_string())) };
    let top_level = ast.as_object().map_or_else(Vec::new, |object| {
        object.properties.iter().map(|p| (p.name.as_str().to_string(), p.name.range().start..p.name.range().end)).collect()
    });
    let mut keys = BTreeMap::new();
    if let Some(object) = ast.as_object() {
        collect_keys(object, &mut Vec::new(), &mut keys);
    }
    Ok(Settings { value: ast.into(), top_level, keys })
}

/// The Gemini CLI settings files that parse, with their settings (GEMINI001 reports the others).
pub fn gemini_settings<'a>(cx: &Context<'a>) -> Vec<(&'a Doc, Settings)> {
    cx.files_of(FileKind::GeminiSettings).filter_map(|d| parse_settings(&d.text).ok().map(|s| (d, s))).collect()
}

/// One entry of `mcpServers` in a Gemini CLI settings file that parses.
pub struct McpServer<'a> {
    pub doc: &'a Doc,
    pub name: String,
    pub value: serde_json::Value,
    /// Where the server's name is written.
    pub span: Option<Range<usize>>,
    /// Where each key of the server's object is written.
    keys: BTreeMap<String, Range<usize>>,
}

impl McpServer<'_> {
    /// A finding about the server, at its `key` when given and written, else at its name.
    pub fn report(&self, finding: Diagnostic, key: Option<&str>) -> Diagnostic {
        let at = key.and_then(|k| self.keys.get(k).cloned()).or_else(|| self.span.clone());
        finding.in_file(&self.doc.file).at(at)
    }
}

/// Every MCP server of the Gemini CLI settings files that parse.
pub fn gemini_mcp_servers<'a>(cx: &Context<'a>) -> Vec<McpServer<'a>> {
    let mut servers = Vec::new();
    for (doc, settings) in gemini_settings(cx) {
        let Some(map) = settings.value.get("mcpServers").and_then(|s| s.as_object()) else { continue };
        let mut keys: BTreeMap<&str, BTreeMap<String, Range<usize>>> = BTreeMap::new();
        for (path, span) in settings.keys.range(vec!["mcpServers".to_string()]..) {
            match path.as_slice() {
                [top, name, key] if top == "mcpServers" => {
                    keys.entry(name.as_str()).or_default().insert(key.clone(), span.clone());
                }
                [top, ..] if top != "mcpServers" => break,
                _ => {}
            }
        }
        for (name, server) in map {
            let span = settings.key_span(&["mcpServers", name]);
            let keys = keys.remove(name.as_str()).unwrap_or_default();
            servers.push(McpServer { doc, name: name.clone(), value: server.clone(), span, keys });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_settings_trailing_commas_are_not() {
        let text = "{\n  // where context comes from\n  \"context\": { \"fileName\": \"AGENTS.md\" /* shared */ },\n  \"ui\": {}\n}\n";
        let settings = parse_settings(text).expect("comments are allowed");
        assert_eq!(settings.value["context"]["fileName"], "AGENTS.md");
        let keys: Vec<(&str, &str)> = settings.top_level.iter().map(|(k, r)| (k.as_str(), &text[r.clone()])).collect();
        assert_eq!(keys, [("context", "\"context\""), ("ui", "\"ui\"")]);
        let (at, message) = parse_settings("{\n  \"ui\": {},\n}\n").expect_err("a trailing comma is an error");
        // A key's place comes from the parser: not a mention in a comment, not a nested key of
        // the same name written first (where the text search that came before pointed).
        let text = "{\n  // set \"importFormat\": \"flat\" to flatten\n  \"mcpServers\": { \"a\": { \"env\": { \"timeout\": \"1\" }, \"timeout\": 5 } },\n  \"context\": { \"importFormat\": \"list\" }\n}\n";
        let settings = parse_settings(text).expect("parses");
        let key = |path: &[&str]| settings.key_span(path).map(|r| (r.start, &text[r]));
        assert_eq!(key(&["context", "importFormat"]), Some((text.rfind("\"importFormat\"").expect("key"), "\"importFormat\"")));
        assert_eq!(key(&["mcpServers", "a", "timeout"]), Some((text.rfind("\"timeout\"").expect("key"), "\"timeout\"")));
        assert_eq!(key(&["mcpServers", "a", "env", "timeout"]), None, "deeper than the rules point");
        assert!(at > 0 && !message.is_empty(), "{at} {message}");
        assert!(parse_settings("").is_err() && parse_settings("// only a comment\n").is_err());
    }
}

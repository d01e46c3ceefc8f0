//! The Gemini family: GEMINI.md context files and `.gemini/settings.json`.
//!
//! `.gemini/settings.json` is read as Gemini CLI reads it: the CLI strips `//` and `/* */` comments
//! before `JSON.parse` (google-gemini/gemini-cli:packages/cli/src/config/settings.ts,
//! `stripJsonComments`), so comments are allowed; trailing commas and the other JSON5 forms are
//! not. Parsed by `jsonc-parser`, which keeps the position of every key.

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Gemini CLI: GEMINI.md context files and `.gemini/settings.json`.";

use std::ops::Range;

use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};
use serde_json::Value;

use crate::agent_files::{Doc, FileKind};
use crate::diagnostic::Diagnostic;
use crate::rules::context::Context;

/// A settings file that parses: its value and where each top-level key is written.
#[derive(Debug, Clone)]
pub struct Settings {
    pub value: Value,
    /// Top-level keys with the range of the key (quotes included), in file order.
    pub top_level: Vec<(String, Range<usize>)>,
}

impl Settings {
    /// Where the top-level `key` is written.
    pub fn key_span(&self, key: &str) -> Option<Range<usize>> {
        self.top_level.iter().find(|(k, _)| k == key).map(|(_, r)| r.clone())
    }
}

/// Only comments beyond strict JSON.
fn options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// The settings, or the byte offset and message of the first error.
pub fn parse_settings(text: &str) -> Result<Settings, (usize, String)> {
    let parsed = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options())
        .map_err(|e| (e.range().start.min(text.len()), e.kind().to_string()))?;
    let Some(ast) = parsed.value else { return Err((text.len(), "the file holds no JSON value".to_string())) };
    let top_level = ast.as_object().map_or_else(Vec::new, |object| {
        object.properties.iter().map(|p| (p.name.as_str().to_string(), p.name.range().start..p.name.range().end)).collect()
    });
    Ok(Settings { value: ast.into(), top_level })
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

/// The Gemini CLI settings files that parse, with their value (GEMINI001 reports the others).
pub fn gemini_settings<'a>(cx: &Context<'a>) -> Vec<(&'a Doc, serde_json::Value)> {
    cx.files_of(FileKind::GeminiSettings).filter_map(|d| crate::rules::gemini::parse_settings(&d.text).ok().map(|s| (d, s.value))).collect()
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
        imports(text)
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
        assert!(at > 0 && !message.is_empty(), "{at} {message}");
        assert!(parse_settings("").is_err() && parse_settings("// only a comment\n").is_err());
    }
}

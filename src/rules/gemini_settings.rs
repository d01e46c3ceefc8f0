//! `.gemini/settings.json` read as Gemini CLI reads it: the CLI strips `//` and `/* */` comments
//! before `JSON.parse` (google-gemini/gemini-cli:packages/cli/src/config/settings.ts,
//! `stripJsonComments`), so comments are allowed; trailing commas and the other JSON5 forms are
//! not. Parsed by `jsonc-parser`, which keeps the position of every key.

use std::ops::Range;

use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};
use serde_json::Value;

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
pub fn parse(text: &str) -> Result<Settings, (usize, String)> {
    let parsed = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options())
        .map_err(|e| (e.range().start.min(text.len()), e.kind().to_string()))?;
    let Some(ast) = parsed.value else { return Err((text.len(), "the file holds no JSON value".to_string())) };
    let top_level = ast.as_object().map_or_else(Vec::new, |object| {
        object.properties.iter().map(|p| (p.name.as_str().to_string(), p.name.range().start..p.name.range().end)).collect()
    });
    Ok(Settings { value: ast.into(), top_level })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_settings_trailing_commas_are_not() {
        let text = "{\n  // where context comes from\n  \"context\": { \"fileName\": \"AGENTS.md\" /* shared */ },\n  \"ui\": {}\n}\n";
        let settings = parse(text).expect("comments are allowed");
        assert_eq!(settings.value["context"]["fileName"], "AGENTS.md");
        let keys: Vec<(&str, &str)> = settings.top_level.iter().map(|(k, r)| (k.as_str(), &text[r.clone()])).collect();
        assert_eq!(keys, [("context", "\"context\""), ("ui", "\"ui\"")]);
        let (at, message) = parse("{\n  \"ui\": {},\n}\n").expect_err("a trailing comma is an error");
        assert!(at > 0 && !message.is_empty(), "{at} {message}");
        assert!(parse("").is_err() && parse("// only a comment\n").is_err());
    }
}

//! The OpenCode family: agents (`.opencode/agent(s)/**/*.md`) and commands
//! (`.opencode/command(s)/**/*.md`), Markdown whose body is the prompt and whose YAML frontmatter
//! configures it, checked against OpenCode's host model (`data/hosts/opencode.toml`).

use crate::agent_files::{Doc, FileKind};
use crate::diagnostic::Diagnostic;
use crate::hosts::{self, FileSpec, Host};
use crate::rules::context::Context;
use crate::rules::frontmatter::{has_yaml_error, unknown_key};
use crate::rules::json_span::json_with_comments;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod opencode001_agent_value_invalid;
pub mod opencode002_agent_unknown_field;
pub mod opencode003_field_replaced;
pub mod opencode004_command_unknown_field;
pub mod opencode005_frontmatter_invalid;
pub mod opencode006_config_invalid_jsonc;
pub mod opencode007_config_unknown_key;

/// JSON with comments and trailing commas, as OpenCode's reader (`jsonc-parser` with
/// `allowTrailingComma`) takes `opencode.json` and `opencode.jsonc`.
pub fn opencode_jsonc() -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions { allow_trailing_commas: true, ..json_with_comments() }
}

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str =
    "OpenCode: agents and commands in `.opencode/` and their frontmatter, and `opencode.json(c)` (its syntax and top-level keys).";

/// OpenCode's host model.
pub fn host() -> &'static Host {
    hosts::embedded("opencode")
}

/// What OpenCode reads in files of `kind`.
pub fn spec(kind: FileKind) -> &'static FileSpec {
    kind.spec_of("opencode")
}

/// The OpenCode files of `kind` whose frontmatter parsed or is absent (OPENCODE005 reports the
/// others).
pub fn parsed<'a>(cx: &Context<'a>, kind: FileKind) -> impl Iterator<Item = &'a Doc> {
    cx.files_of(kind).filter(|d| !has_yaml_error(d))
}

/// The findings for frontmatter keys OpenCode's model does not name for `kind` (a key it
/// overwrites is OPENCODE003's; the help lists only the keys it reads).
pub fn unknown(doc: &Doc, kind: FileKind) -> Vec<Diagnostic> {
    let spec = spec(kind);
    let read: Vec<&str> = spec.read_fields().collect();
    let keys = doc.fields().iter().map(|(k, _)| k.as_str()).filter(|k| spec.status(k).is_none());
    let spans = keys.filter_map(|k| Some((k, doc.key_span(k)?)));
    spans.map(|(k, span)| unknown_key(&doc.file, k, span, &read, "OpenCode", |f| doc.field(f).is_some())).collect()
}

/// Whether an agent's `tools` has the shape OpenCode's agent schema accepts: a map of tool names
/// to booleans (OPENCODE001 reports any other shape, OPENCODE003 the accepted, deprecated one).
pub fn tools_is_a_map(value: &serde_json::Value) -> bool {
    value.as_object().is_some_and(|m| m.values().all(serde_json::Value::is_boolean))
}

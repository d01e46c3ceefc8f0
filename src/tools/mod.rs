//! Tool definitions and the file formats they come in, recognised by content: MCP `tools/list`
//! results and captures, OpenAI Chat and Responses function tools, Anthropic tool arrays, Gemini
//! `functionDeclarations`, BFCL records, JSON Lines of any of these, SWE-agent YAML tool bundles
//! and plain ctxc tool lists. Each format has its own file; this one recognises which applies.

mod anthropic;
mod gemini;
mod jsonl;
mod mcp;
mod openai;
mod other;
mod swe_agent;

use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::Value;

use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::memo::{content_hash, Cache, Kind, SharedText};

/// One tool as the model sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tool {
    pub name: String,
    /// `None` when the source gives none: a request then carries none (not an empty one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the parameters (an empty object schema when none is given).
    pub parameters: Value,
    /// Whether the tool only reads; `None` when its source does not say.
    pub read_only: Option<bool>,
    /// A Gemini declaration's `response` schema (what the function returns), as given. Boxed,
    /// as the next field is: few tools have one, and a file of 60,000 tools is held twice over
    /// while it is read (its JSON, then its tools).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<Box<Value>>,
    /// A Gemini declaration's `responseJsonSchema` (the same as a full JSON Schema), as given:
    /// sent to Gemini's count endpoint, but not counted offline (`LocalTokenizer` reads none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_json_schema: Option<Box<Value>>,
    /// Whether `parameters` is a Gemini declaration's `parametersJsonSchema` (a full JSON Schema
    /// in place of the OpenAPI subset of `parameters`).
    #[serde(skip)]
    pub parameters_json_schema: bool,
    /// Whether a Gemini declaration gives no schema at all (ADK's for a function without
    /// parameters): its declaration then sends none, not the empty one `parameters` holds.
    #[serde(skip)]
    pub no_parameters: bool,
    /// The tool's JSON texts, made on first use: a tool shared by many agents and modes is
    /// serialized once.
    #[serde(skip)]
    texts: OnceLock<ToolTexts>,
}

#[derive(Debug, Clone, PartialEq)]
struct ToolTexts {
    parameters: String,
    /// [`content_hash`] of `parameters`: what depends on the schema alone (the schema rules)
    /// is remembered under it, shared by the tools of one schema.
    parameters_hash: u128,
    function: String,
    /// [`content_hash`] of `function` (and of a Gemini declaration's `response` and schema key
    /// when it has them), so counting it again and again does not hash it again.
    function_hash: u128,
}

impl Tool {
    pub fn new(name: String, description: impl Into<Option<String>>, parameters: Value, read_only: Option<bool>) -> Self {
        let description = description.into();
        Tool {
            name,
            description,
            parameters,
            read_only,
            response: None,
            response_json_schema: None,
            parameters_json_schema: false,
            no_parameters: false,
            texts: OnceLock::new(),
        }
    }

    /// The description, empty when the source gives none.
    pub fn description_text(&self) -> &str {
        self.description.as_deref().unwrap_or_default()
    }

    /// The function object of a request, `{name, description, parameters}`, without a
    /// description when the tool has none (as a request built from the source sends it).
    pub fn function_value(&self) -> Value {
        self.definition("parameters")
    }

    /// `{name, description, <schema_key>: parameters}`, the description only when given.
    pub fn definition(&self, schema_key: &str) -> Value {
        let mut definition = serde_json::Map::new();
        definition.insert("name".into(), Value::String(self.name.clone()));
        if let Some(description) = &self.description {
            definition.insert("description".into(), Value::String(description.clone()));
        }
        definition.insert(schema_key.into(), self.parameters.clone());
        Value::Object(definition)
    }

    /// This tool as a Gemini function declaration: its schema under the key it was given with,
    /// and its `response` and `responseJsonSchema` when it has them.
    pub fn gemini_declaration(&self) -> Value {
        let mut declaration = self.definition(if self.parameters_json_schema { "parametersJsonSchema" } else { "parameters" });
        if let (true, Some(fields)) = (self.no_parameters, declaration.as_object_mut()) {
            fields.remove("parameters");
        }
        for (key, schema) in [("response", &self.response), ("responseJsonSchema", &self.response_json_schema)] {
            if let Some(schema) = schema {
                declaration[key] = Value::clone(schema);
            }
        }
        declaration
    }

    fn texts(&self) -> &ToolTexts {
        self.texts.get_or_init(|| {
            // `{"type":"function","function":{name, description, parameters}}` as serde_json
            // writes it compactly, the schema serialized once for both texts and never cloned.
            let parameters = self.parameters.to_string();
            let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
            let mut function = String::with_capacity(64 + self.name.len() + self.description_text().len() + parameters.len());
            function.push_str(r#"{"type":"function","function":{"name":"#);
            function.push_str(&quoted(&self.name));
            if let Some(description) = &self.description {
                function.push_str(r#","description":"#);
                function.push_str(&quoted(description));
            }
            function.push_str(r#","parameters":"#);
            function.push_str(&parameters);
            function.push_str("}}");
            // Two tools of one function JSON are counted alike unless a declaration tells them apart.
            let gemini_only =
                self.response.is_some() || self.response_json_schema.is_some() || self.parameters_json_schema || self.no_parameters;
            let function_hash = match gemini_only {
                true => content_hash(&format!("{function}\0{}", self.gemini_declaration())),
                false => content_hash(&function),
            };
            ToolTexts { parameters_hash: content_hash(&parameters), parameters, function_hash, function }
        })
    }

    /// The parameter schema as compact JSON.
    pub fn parameters_json(&self) -> &str {
        &self.texts().parameters
    }

    /// [`content_hash`] of [`Tool::parameters_json`].
    pub fn parameters_json_hash(&self) -> u128 {
        self.texts().parameters_hash
    }

    /// This tool as compact OpenAI function JSON, keys in the file's order.
    pub fn function_json(&self) -> &str {
        &self.texts().function
    }

    /// [`content_hash`] of [`Tool::function_json`], and of what a Gemini declaration adds to it:
    /// the key of whatever the tool sends.
    pub fn function_json_hash(&self) -> u128 {
        self.texts().function_hash
    }
}

/// The tools of a file, shared between the agents that use the same file content.
pub type SharedTools = Arc<Vec<Arc<Tool>>>;

/// [`parse_tool_file`], done once per distinct file content in a run (its `cache`).
pub fn parse_tool_file_shared(text: &SharedText, cache: &Cache) -> Result<SharedTools, ToolFileError> {
    cache.get_or_insert(Kind::ToolFile, text.hash(), || {
        parse_tool_file(text).map(|file| {
            let tools: Vec<Arc<Tool>> = file.tools.into_iter().map(Arc::new).collect();
            // Every render keys its tool lists by these texts: made now, on all cores, rather
            // than one by one by the first render (a file of 60,000 tools).
            crate::parallel::map_in_order(&tools, |tool| tool.function_json_hash());
            Arc::new(tools)
        })
    })
}

/// Each later use of a name with the index of its first use, as `(first, later)`, in the order of
/// the later uses: two tools of one name collide in a request (TOOL003, and `ctxc cost` of tool
/// files).
pub fn repeated_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<(usize, usize)> {
    let names = names.into_iter();
    // Sized once: a 60,000-tool MCP file otherwise grows the map through a dozen rehashes.
    let mut first: crate::memo::KeyMap<&str, usize> =
        crate::memo::KeyMap::with_capacity_and_hasher(names.size_hint().0, Default::default());
    let mut repeats = Vec::new();
    for (i, name) in names.enumerate() {
        match first.entry(name) {
            std::collections::hash_map::Entry::Occupied(seen) => repeats.push((*seen.get(), i)),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
    }
    repeats
}

/// The format a tool file was recognised as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolFormat {
    /// OpenAI Chat Completions: `{"type": "function", "function": {name, description, parameters}}`.
    OpenAi,
    /// OpenAI Responses API: `{"type": "function", name, description, parameters}`.
    OpenAiResponses,
    Mcp,
    Anthropic,
    Gemini,
    /// Berkeley Function Calling Leaderboard records: `{"id", "question", "function": [...]}`.
    Bfcl,
    SweAgent,
    Ctxc,
}

/// What a tool file holds.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolFile {
    /// The format of its first tool (files that mix formats are read tool by tool).
    pub format: ToolFormat,
    /// One JSON value per line.
    pub json_lines: bool,
    /// A list under `tools` (a `tools/list` result or capture, a request body), not bare tools.
    pub listing: bool,
    /// The MCP server that listed the tools, when the file says (`serverInfo.name` of a capture).
    pub server: Option<String>,
    pub tools: Vec<Tool>,
}

/// Why a file gave no tools: a tool file that is broken ([`Code::TOOL001`]), or a file that is no
/// tool file at all ([`Code::TOOL010`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolFileError {
    pub code: Code,
    pub message: String,
    /// Byte offset of the problem, when known.
    pub offset: Option<usize>,
    pub help: Option<String>,
    /// For TOOL010, what the file holds instead ("Markdown", "an MCP server configuration …").
    pub found: Option<String>,
}

impl ToolFileError {
    fn invalid(message: impl Into<String>, offset: Option<usize>) -> Self {
        ToolFileError { code: Code::TOOL001, message: message.into(), offset, help: None, found: None }
    }

    /// A diagnostic for the file shown as `display`.
    pub fn into_diagnostic(self, display: &str) -> Diagnostic {
        let d = Diagnostic::error(self.message).code(self.code).in_file(display).at(self.offset.map(|o| o..o));
        match self.help {
            Some(help) => d.help(help),
            None => d,
        }
    }
}

/// What a tool file may hold, for messages.
pub const EXPECTED: &str = "an MCP tools/list result, OpenAI (Chat or Responses), Anthropic or Gemini tool definitions, \
                            BFCL records, JSON Lines of these, or a SWE-agent tool bundle (YAML)";

/// A JSON value's kind with its article, for messages.
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub fn empty_parameters() -> Value {
    serde_json::json!({ "type": "object", "properties": {} })
}

/// Reads a tool file, recognising its format by content: JSON, JSON Lines (one tool, tool list or
/// record per line) or YAML (a SWE-agent bundle, or any of the JSON shapes).
pub fn parse_tool_file(text: &str) -> Result<ToolFile, ToolFileError> {
    if text.trim_start().starts_with(['{', '[']) {
        return match serde_json::from_str::<Value>(text) {
            Ok(value) => parse_tool_value(&value).map_err(|e| e.error(text)),
            // TOML that starts with a table header (`[agent]`) starts like JSON too.
            Err(_) if toml::from_str::<toml::Table>(text).is_ok_and(|t| holds_values(&t)) => Err(Shape::NotTools.error(text)),
            Err(e) => jsonl::parse(text).unwrap_or_else(|| {
                let offset = crate::diagnostic::offset_of(text, e.line(), e.column());
                Err(ToolFileError::invalid(format!("invalid JSON: {e}"), Some(offset)))
            }),
        };
    }
    // Not JSON: a YAML document (SWE-agent bundles are YAML), or no tool file at all.
    match crate::yaml::from_str::<Value>(text) {
        Ok(value @ (Value::Object(_) | Value::Array(_))) => parse_tool_value(&value).map_err(|e| e.error(text)),
        _ => Err(Shape::NotTools.error(text)),
    }
}

/// Whether a TOML table holds a key with a value, not only (empty) table headers: `[ x ]` is
/// broken JSON as much as a TOML header.
fn holds_values(table: &toml::Table) -> bool {
    table.values().any(|v| v.as_table().is_none_or(holds_values))
}

/// Why a value is not a tool list: a broken tool definition, or no tool shape at all.
enum Shape {
    Invalid(String),
    NotTools,
}

impl From<String> for Shape {
    fn from(message: String) -> Self {
        Shape::Invalid(message)
    }
}

impl Shape {
    fn error(self, text: &str) -> ToolFileError {
        match self {
            Shape::Invalid(message) => ToolFileError::invalid(message, None),
            Shape::NotTools => other::not_a_tool_file(text),
        }
    }
}

fn parse_tool_value(value: &Value) -> Result<ToolFile, Shape> {
    let file = |format, tools| ToolFile { format, json_lines: false, listing: false, server: None, tools };
    let Value::Object(object) = value else {
        let Value::Array(items) = value else { return Err(Shape::NotTools) };
        let (format, tools) = tool_list(items)?;
        return Ok(file(format.unwrap_or(ToolFormat::Ctxc), tools));
    };
    // A JSON-RPC response to tools/list, or its result.
    if let Some(result) = object.get("result") {
        return parse_tool_value(result);
    }
    if let Some(tools) = object.get("tools") {
        if swe_agent::is_bundle(value) {
            return Ok(file(ToolFormat::SweAgent, swe_agent::tools(value)?));
        }
        let Value::Array(items) = tools else { return Err(Shape::Invalid("`tools` must be an array".into())) };
        // An MCP result (or a request body of any provider): its items say which format.
        let (format, tools) = tool_list(items)?;
        let server = mcp::server_name(value);
        return Ok(ToolFile { server, listing: true, ..file(format.unwrap_or(ToolFormat::Mcp), tools) });
    }
    // One tool definition (an MCP `Tool`, an OpenAI or Anthropic entry, a Gemini tool object).
    let mut tools = Vec::new();
    match item_tools(0, value, &mut tools)? {
        Some(format) => Ok(file(format, tools)),
        None => Err(Shape::NotTools),
    }
}

/// The tools of an array whose items may each be a tool or hold several (Gemini, BFCL), and the
/// format of the first. An item that is no tool shape at all is reported as a broken tool.
fn tool_list(items: &[Value]) -> Result<(Option<ToolFormat>, Vec<Tool>), Shape> {
    let mut format = None;
    // Most items define one tool: room for them at once, not grown a doubling at a time.
    let mut tools = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Some(f) = item_tools(i, item, &mut tools)? else {
            return Err(Shape::Invalid(format!(
                "tool #{}: not a tool definition (no `name`, `function` or `functionDeclarations`)",
                i + 1
            )));
        };
        format.get_or_insert(f);
    }
    Ok((format, tools))
}

/// Adds the tools one value defines, by its keys, to `tools` (in place: most values define one,
/// and a list of thousands is not worth a vector each); their format, `None` when it has none of
/// a tool's keys.
fn item_tools(index: usize, item: &Value, tools: &mut Vec<Tool>) -> Result<Option<ToolFormat>, String> {
    if !item.is_object() {
        return Err(format!("tool #{}: expected an object, found {}", index + 1, json_kind(item)));
    }
    if let Some(declarations) = gemini::declarations(item) {
        tools.extend(gemini::tools(index, declarations)?);
        return Ok(Some(ToolFormat::Gemini));
    }
    let (format, tool) = match field(item, "function") {
        Some(Value::Array(functions)) => {
            tools.extend(bfcl_tools(functions)?);
            return Ok(Some(ToolFormat::Bfcl));
        }
        Some(function) => (ToolFormat::OpenAi, openai::function(index, function)),
        None if field(item, "inputSchema").is_some() => (ToolFormat::Mcp, mcp::tool(index, item)),
        None if field(item, "input_schema").is_some() => (ToolFormat::Anthropic, anthropic::tool(index, item)),
        None if field(item, "type").and_then(Value::as_str) == Some("function") => {
            (ToolFormat::OpenAiResponses, openai::function(index, item))
        }
        None if field(item, "name").is_none() => return Ok(None),
        // `{name, description, parameters}`: a ctxc tool, or a bare Gemini declaration (upper-case types).
        None if gemini::is_declaration(item) => (ToolFormat::Gemini, ctxc_tool(index, item)),
        None => (ToolFormat::Ctxc, ctxc_tool(index, item)),
    };
    tools.push(tool?);
    Ok(Some(format))
}

/// A BFCL record's functions: `{name, description, parameters}` each, schema as given (BFCL
/// writes `"type": "dict"`).
fn bfcl_tools(functions: &[Value]) -> Result<Vec<Tool>, String> {
    functions.iter().enumerate().map(|(i, f)| openai::function(i, f)).collect()
}

/// `item[key]` of an object, found by comparing its keys when it has few: a tool's object holds a
/// handful, and a lookup in serde_json's ordered map hashes the key first, which costs more (a
/// file of 60,000 tools looks up about eight keys of each tool).
fn field<'a>(item: &'a Value, key: &str) -> Option<&'a Value> {
    let object = item.as_object()?;
    if object.len() > 8 {
        return object.get(key);
    }
    object.iter().find_map(|(k, value)| (k == key).then_some(value))
}

/// A string field; `None` when absent.
fn str_field(item: &Value, key: &str, index: usize) -> Result<Option<String>, String> {
    match field(item, key) {
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("tool #{}: `{key}` must be a string", index + 1)),
        None => Ok(None),
    }
}

/// A tool from `name`, `description` and the schema under `schema_key` (the empty object schema
/// when absent).
fn named_tool(index: usize, item: &Value, schema_key: &str, read_only: Option<bool>) -> Result<Tool, String> {
    Ok(Tool::new(
        str_field(item, "name", index)?.ok_or_else(|| format!("tool #{}: missing `name`", index + 1))?,
        str_field(item, "description", index)?,
        field(item, schema_key).cloned().unwrap_or_else(empty_parameters),
        read_only,
    ))
}

fn ctxc_tool(index: usize, item: &Value) -> Result<Tool, String> {
    named_tool(index, item, "parameters", item.get("read_only").and_then(Value::as_bool))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The function text written field by field is serde_json's compact form of the value.
    #[test]
    fn function_json_is_the_function_value_as_serde_json_writes_it() {
        let schema = serde_json::json!({ "type": "object", "properties": { "q\"uote": { "type": "string", "description": "é\n\u{1}" } } });
        for (name, description) in [("plain", Some("Reads.")), ("we\"ird\\name", Some("line\nbreak \u{7f} ✅")), ("none", None)] {
            let tool = Tool::new(name.into(), description.map(str::to_string), schema.clone(), None);
            let expected = serde_json::json!({ "type": "function", "function": tool.function_value() }).to_string();
            assert_eq!(tool.function_json(), expected);
            assert_eq!(tool.parameters_json(), schema.to_string());
        }
    }

    /// The schema rules remember a clean schema under its own hash: the tools of one schema
    /// (an MCP server's thousands of `{}`) share it, whatever their names and descriptions.
    #[test]
    fn tools_of_one_schema_share_its_hash() {
        let schema = serde_json::json!({ "type": "object", "properties": { "q": { "type": "string" } } });
        let a = Tool::new("a".into(), Some("Reads.".into()), schema.clone(), None);
        let b = Tool::new("b".into(), None, schema.clone(), Some(true));
        let other = Tool::new("a".into(), Some("Reads.".into()), serde_json::json!({ "type": "object" }), None);
        assert_eq!(a.parameters_json_hash(), b.parameters_json_hash());
        assert_eq!(a.parameters_json_hash(), content_hash(&schema.to_string()));
        assert_ne!(a.function_json_hash(), b.function_json_hash());
        assert_ne!(a.parameters_json_hash(), other.parameters_json_hash());
    }

    /// The file's format and its tools' names, or the error's code and message.
    pub(crate) fn read(text: &str) -> Result<(ToolFormat, Vec<String>), (Code, String)> {
        parse_tool_file(text).map(|f| (f.format, f.tools.into_iter().map(|t| t.name).collect())).map_err(|e| (e.code, e.message))
    }

    pub(crate) fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn ctxc_lists_and_single_tools() {
        let plain = r#"[{"name":"c","description":"x","read_only":false}]"#;
        let file = parse_tool_file(plain).expect("ctxc");
        assert_eq!((file.format, file.tools[0].read_only, file.listing), (ToolFormat::Ctxc, Some(false), false));
        assert_eq!(file.tools[0].parameters, empty_parameters());
        assert_eq!(read("[]"), Ok((ToolFormat::Ctxc, vec![])));
        // A mixed array is read item by item; the file's format is its first item's.
        let mixed = r#"[{"name":"a","inputSchema":{}},{"type":"function","function":{"name":"b"}},{"name":"c","input_schema":{}}]"#;
        assert_eq!(read(mixed), Ok((ToolFormat::Mcp, names(&["a", "b", "c"]))));
    }

    #[test]
    fn reports_broken_tool_files_as_tool001() {
        let error = parse_tool_file("[\n  {\"name\": }\n]").expect_err("bad json");
        assert!(error.message.starts_with("invalid JSON"), "{}", error.message);
        assert_eq!((error.code, error.offset), (Code::TOOL001, Some(13)));
        for broken in [r#"{"tools": 3}"#, r#"[{"description": "no name"}]"#, r#"[{"name": 3}]"#, r#"["read_file"]"#] {
            assert_eq!(read(broken).map_err(|e| e.0), Err(Code::TOOL001), "{broken}");
        }
        assert_eq!(
            read(r#"[{"name": "a"}, {"description": "b"}]"#),
            Err((Code::TOOL001, "tool #2: not a tool definition (no `name`, `function` or `functionDeclarations`)".into()))
        );
    }

    #[test]
    fn repeated_names_pair_each_later_use_with_the_first() {
        assert_eq!(super::repeated_names(["a", "b", "a", "c", "b", "a"]), [(0, 2), (1, 4), (0, 5)]);
        assert!(super::repeated_names(["a", "b"]).is_empty());
    }

    #[test]
    fn files_that_hold_no_tools_are_tool010() {
        for (text, found) in [
            ("# Notes\n\nSome text.\n", "found Markdown;"),
            ("---\nname: skill\n---\nBody\n", "found Markdown with YAML front matter;"),
            ("[agent]\nname = \"x\"\n", "found a ctxc manifest;"),
            ("[editor]\ntab_width = 4\n", "found a TOML document with keys `editor`;"),
            ("{\"name_x\": 1, \"version\": 2}", "found a JSON object with keys `name_x`, `version`;"),
            ("\"just a string\"", "found a JSON string;"),
            ("plain words\n", "found plain text;"),
            ("#!/bin/sh\n# Run it\nexec x\n", "found a script;"),
            ("# only a comment\n", "found Markdown;"),
            ("  \n", "found an empty file;"),
            ("{\"id\": 1}\n{\"id\": 2}\n", "found JSON Lines (line 1: a JSON object with keys `id`);"),
        ] {
            let (code, message) = read(text).expect_err(text);
            assert_eq!(code, Code::TOOL010, "{text}");
            assert!(message.contains(found), "{text}: {message}");
            assert!(message.ends_with(EXPECTED), "{message}");
        }
    }
}

//! Tool definitions and the file formats they come in: OpenAI function arrays, MCP `tools/list`
//! results (bare, or inside a JSON-RPC response), and plain ctxc tool lists.

use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde_json::Value;

use crate::memo::{content_hash, Cache, Kind, SharedText};

/// One tool as the model sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tool {
    pub name: String,
    pub description: String,
    /// JSON Schema of the parameters (an empty object schema when none is given).
    pub parameters: Value,
    /// Whether the tool only reads; `None` when its source does not say.
    pub read_only: Option<bool>,
    /// The tool's JSON texts, made on first use: a tool shared by many agents and modes is
    /// serialized once.
    #[serde(skip)]
    texts: OnceLock<ToolTexts>,
}

#[derive(Debug, Clone, PartialEq)]
struct ToolTexts {
    parameters: String,
    function: String,
    /// [`content_hash`] of `function`, so counting it again and again does not hash it again.
    function_hash: u128,
}

impl Tool {
    pub fn new(name: String, description: String, parameters: Value, read_only: Option<bool>) -> Self {
        Tool { name, description, parameters, read_only, texts: OnceLock::new() }
    }

    fn texts(&self) -> &ToolTexts {
        self.texts.get_or_init(|| {
            let function = serde_json::json!({
                "type": "function",
                "function": { "name": self.name, "description": self.description, "parameters": self.parameters },
            })
            .to_string();
            ToolTexts { parameters: self.parameters.to_string(), function_hash: content_hash(&function), function }
        })
    }

    /// The parameter schema as compact JSON.
    pub fn parameters_json(&self) -> &str {
        &self.texts().parameters
    }

    /// This tool as compact OpenAI function JSON, keys in the file's order.
    pub fn function_json(&self) -> &str {
        &self.texts().function
    }

    /// [`content_hash`] of [`Tool::function_json`].
    pub fn function_json_hash(&self) -> u128 {
        self.texts().function_hash
    }
}

/// The tools of a file, shared between the agents that use the same file content.
pub type SharedTools = Arc<Vec<Arc<Tool>>>;

/// [`parse_tool_file`], done once per distinct file content in a run.
pub fn parse_tool_file_shared(text: &SharedText) -> Result<SharedTools, (String, Option<usize>)> {
    Cache::get_or_insert(Kind::ToolFile, text.hash(), || {
        parse_tool_file(text).map(|(_, tools)| Arc::new(tools.into_iter().map(Arc::new).collect()))
    })
}

/// The format a tool file was recognised as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolFormat {
    OpenAi,
    Mcp,
    Ctxc,
}

pub fn empty_parameters() -> Value {
    serde_json::json!({ "type": "object", "properties": {} })
}

/// Parses a tool file's JSON. Errors carry a byte offset when the JSON itself is malformed.
pub fn parse_tool_file(text: &str) -> Result<(ToolFormat, Vec<Tool>), (String, Option<usize>)> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let offset = crate::diagnostic::offset_of(text, e.line(), e.column());
        (format!("invalid JSON: {e}"), Some(offset))
    })?;
    parse_tool_value(&value).map_err(|message| (message, None))
}

fn parse_tool_value(value: &Value) -> Result<(ToolFormat, Vec<Tool>), String> {
    // A JSON-RPC response to tools/list, or its result.
    if let Some(result) = value.get("result") {
        return parse_tool_value(result);
    }
    if let Some(tools) = value.get("tools") {
        let Value::Array(items) = tools else { return Err("`tools` must be an array".into()) };
        return items.iter().enumerate().map(|(i, item)| mcp_tool(i, item)).collect::<Result<_, _>>().map(|t| (ToolFormat::Mcp, t));
    }
    // A single tool definition (e.g. one MCP `Tool`, or one OpenAI function entry).
    if value.get("name").is_some() || value.get("function").is_some() {
        return parse_tool_value(&Value::Array(vec![value.clone()]));
    }
    let Value::Array(items) = value else {
        return Err("expected an OpenAI tools array, an MCP tools/list result (`{\"tools\": [...]}`), a list of tools or one tool".into());
    };
    let is_openai = items.iter().any(|item| item.get("function").is_some());
    let is_mcp = items.iter().any(|item| item.get("inputSchema").is_some());
    let parse = |i: usize, item: &Value| {
        if is_openai {
            openai_tool(i, item)
        } else if is_mcp {
            mcp_tool(i, item)
        } else {
            ctxc_tool(i, item)
        }
    };
    let format = if is_openai {
        ToolFormat::OpenAi
    } else if is_mcp {
        ToolFormat::Mcp
    } else {
        ToolFormat::Ctxc
    };
    items.iter().enumerate().map(|(i, item)| parse(i, item)).collect::<Result<_, _>>().map(|t| (format, t))
}

fn str_field(item: &Value, key: &str, index: usize) -> Result<String, String> {
    match item.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("tool #{}: `{key}` must be a string", index + 1)),
        None if key == "description" => Ok(String::new()),
        None => Err(format!("tool #{}: missing `{key}`", index + 1)),
    }
}

fn openai_tool(index: usize, item: &Value) -> Result<Tool, String> {
    let function = item.get("function").ok_or_else(|| format!("tool #{}: missing `function`", index + 1))?;
    Ok(Tool::new(
        str_field(function, "name", index)?,
        str_field(function, "description", index)?,
        function.get("parameters").cloned().unwrap_or_else(empty_parameters),
        None,
    ))
}

fn mcp_tool(index: usize, item: &Value) -> Result<Tool, String> {
    let read_only = item.pointer("/annotations/readOnlyHint").and_then(Value::as_bool);
    Ok(Tool::new(
        str_field(item, "name", index)?,
        str_field(item, "description", index)?,
        item.get("inputSchema").cloned().unwrap_or_else(empty_parameters),
        read_only,
    ))
}

fn ctxc_tool(index: usize, item: &Value) -> Result<Tool, String> {
    Ok(Tool::new(
        str_field(item, "name", index)?,
        str_field(item, "description", index)?,
        item.get("parameters").cloned().unwrap_or_else(empty_parameters),
        item.get("read_only").and_then(Value::as_bool),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_the_three_formats() {
        let openai = r#"[{"type":"function","function":{"name":"a","description":"d","parameters":{"type":"object"}}}]"#;
        let (format, tools) = parse_tool_file(openai).expect("openai");
        assert_eq!((format, tools[0].name.as_str(), tools[0].read_only), (ToolFormat::OpenAi, "a", None));

        let mcp = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"b","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}}"#;
        let (format, tools) = parse_tool_file(mcp).expect("mcp");
        assert_eq!((format, tools[0].name.as_str(), tools[0].read_only), (ToolFormat::Mcp, "b", Some(true)));

        let single = r#"{"name":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false}}"#;
        let (format, tools) = parse_tool_file(single).expect("one MCP tool");
        assert_eq!((format, tools.len(), tools[0].read_only), (ToolFormat::Mcp, 1, Some(false)));

        let plain = r#"[{"name":"c","description":"x","read_only":false}]"#;
        let (format, tools) = parse_tool_file(plain).expect("ctxc");
        assert_eq!((format, tools[0].read_only), (ToolFormat::Ctxc, Some(false)));
        assert_eq!(tools[0].parameters, empty_parameters());
    }

    #[test]
    fn reports_malformed_files() {
        let (message, offset) = parse_tool_file("[\n  {\"name\": }\n]").expect_err("bad json");
        assert!(message.starts_with("invalid JSON"), "{message}");
        assert_eq!(offset, Some(13));
        assert!(parse_tool_file(r#"{"tools": 3}"#).is_err());
        assert!(parse_tool_file(r#"[{"description": "no name"}]"#).is_err());
    }
}

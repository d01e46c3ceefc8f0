//! LangChain's approximate token counter (`count_tokens_approximately`, langchain-core 1.7.2), the
//! count Deep Agents' summarization decides with: per message, the characters of its content,
//! role, name, tool call id and (for an AI message with tool calls) Python's `repr` of the calls,
//! divided by `chars_per_token` and rounded up, plus 3; the tools as `json.dumps` of their name,
//! description and parameters, divided and rounded up once.

use serde_json::{Map, Value};

use super::{Message, Role};
use crate::runtimes::{py_repr, py_str};

/// Tokens LangChain adds per message (`extra_tokens_per_message`).
const EXTRA_TOKENS_PER_MESSAGE: u64 = 3;

/// Tokens LangChain adds for each image part, whatever its size (`tokens_per_image`).
const TOKENS_PER_IMAGE: u64 = 85;

/// Tokens LangChain counts for one message: its characters divided and rounded up, its images'
/// fixed tokens, and the per-message tokens. The characters: the content's (a list of parts
/// part by part: a text part's text, a string, anything else but an image as Python's `repr`),
/// an AI message's tool calls as `repr` when its content is a string (a list holds them
/// already), the tool call id, the role and the name.
pub fn message_tokens(m: &Message, chars_per_token: f64) -> u64 {
    let mut chars = 0;
    let mut images = 0;
    match m.parts() {
        Some(parts) => {
            for part in parts {
                match part {
                    Value::String(s) => chars += s.chars().count(),
                    Value::Object(o) => match o.get("type").and_then(Value::as_str).unwrap_or_default() {
                        "image" | "image_url" => images += TOKENS_PER_IMAGE,
                        "text" => chars += o.get("text").and_then(Value::as_str).map_or(0, |t| t.chars().count()),
                        _ => chars += py_repr(part).chars().count(),
                    },
                    other => chars += py_repr(other).chars().count(),
                }
            }
        }
        None => {
            chars += m.content.chars().count();
            if m.role == Role::Assistant && !m.tool_calls.is_empty() {
                chars += tool_calls_repr(m).chars().count();
            }
        }
    }
    if let Some(id) = &m.tool_call_id {
        chars += id.chars().count();
    }
    chars += role(m.role).len();
    chars += m.name.as_deref().map_or(0, |n| n.chars().count());
    chars_tokens(chars as u64, chars_per_token) + images
}

/// The OpenAI role LangChain counts (`_get_message_openai_role`).
pub fn role(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    }
}

/// Tokens of `chars` characters counted as one message.
fn chars_tokens(chars: u64, chars_per_token: f64) -> u64 {
    (chars as f64 / chars_per_token).ceil() as u64 + EXTRA_TOKENS_PER_MESSAGE
}

/// Tokens of the system prompt counted as a system message.
pub fn system_tokens(prompt: &str, chars_per_token: f64) -> u64 {
    chars_tokens((prompt.chars().count() + "system".len()) as u64, chars_per_token)
}

/// Tokens of the tools: `json.dumps({"name", "description", "parameters"})` of each, summed,
/// divided once. The parameters are the tool's schema as pydantic writes it, each property with
/// its title.
pub fn tools_tokens<'a>(tools: impl Iterator<Item = (&'a str, &'a str, &'a Value)>, chars_per_token: f64) -> u64 {
    let chars: u64 = tools
        .map(|(name, description, parameters)| {
            let mut tool = Map::new();
            tool.insert("name".into(), Value::String(name.into()));
            tool.insert("description".into(), Value::String(description.into()));
            tool.insert("parameters".into(), with_titles(parameters));
            json_dumps_len(&Value::Object(tool), true)
        })
        .sum();
    if chars == 0 {
        0
    } else {
        (chars as f64 / chars_per_token).ceil() as u64
    }
}

/// The schema as pydantic writes it, which LangChain counts (a provider gets it without titles
/// and with nested models inlined): a title on each property that has none, derived from the
/// field name (`file_path` → `File Path`), and a list of objects (`todos: list[Todo]`) as a
/// reference to a model in `$defs`, named after the field in the singular (pydantic names it
/// after its class, which the provider's schema no longer says).
fn with_titles(parameters: &Value) -> Value {
    let mut schema = parameters.clone();
    let mut defs = Map::new();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            let Value::Object(p) = property else { continue };
            p.entry("title").or_insert_with(|| Value::String(pydantic_title(name)));
            if let Some(items) = p.get_mut("items").filter(|i| i.get("properties").is_some()) {
                let model = pydantic_title(name).trim_end_matches('s').to_string();
                let mut def = with_titles(items);
                def.as_object_mut().map(|d| d.insert("title".into(), Value::String(model.clone())));
                defs.insert(model.clone(), def);
                *items = serde_json::json!({ "$ref": format!("#/$defs/{model}") });
            }
        }
    }
    if let (false, Value::Object(s)) = (defs.is_empty(), &mut schema) {
        s.insert("$defs".into(), Value::Object(defs));
    }
    schema
}

/// Python's `name.replace("_", " ").title()`.
fn pydantic_title(name: &str) -> String {
    crate::runtimes::title_case(&name.replace('_', " "))
}

/// Length in bytes of Python's `json.dumps(value, ensure_ascii=...)`: `", "` and `": "`
/// separators, non-ASCII escaped or written as UTF-8.
pub fn json_dumps_len(value: &Value, ensure_ascii: bool) -> u64 {
    match value {
        Value::Null => 4,
        Value::Bool(b) => {
            if *b {
                4
            } else {
                5
            }
        }
        Value::Number(n) => n.to_string().len() as u64,
        Value::String(s) => json_string_len(s, ensure_ascii),
        Value::Array(items) => {
            2 + items.iter().map(|v| json_dumps_len(v, ensure_ascii)).sum::<u64>() + 2 * items.len().saturating_sub(1) as u64
        }
        Value::Object(o) => {
            2 + o.iter().map(|(k, v)| json_string_len(k, ensure_ascii) + 2 + json_dumps_len(v, ensure_ascii)).sum::<u64>()
                + 2 * o.len().saturating_sub(1) as u64
        }
    }
}

fn json_string_len(s: &str, ensure_ascii: bool) -> u64 {
    2 + s
        .chars()
        .map(|c| match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
            c if (c as u32) < 0x20 => 6,
            c if c.is_ascii() => 1,
            c if !ensure_ascii => c.len_utf8() as u64,
            c if (c as u32) > 0xFFFF => 12,
            _ => 6,
        })
        .sum::<u64>()
}

/// Python's `repr` of the message's `tool_calls` (a list of `ToolCall` dicts: name, args, id,
/// type).
fn tool_calls_repr(m: &Message) -> String {
    let calls: Vec<String> = m
        .tool_calls
        .iter()
        .map(|c| {
            format!(
                "{{'name': {}, 'args': {}, 'id': {}, 'type': 'tool_call'}}",
                py_str(&c.name),
                py_repr(&Value::Object(c.args.clone())),
                if c.id.is_empty() { "None".to_string() } else { py_str(&c.id) }
            )
        })
        .collect();
    format!("[{}]", calls.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversation::ToolCall;

    /// Figures from Python 3.11 with langchain-core 1.7.2.
    #[test]
    fn counts_as_langchain_does() {
        let mut args = Map::new();
        args.insert("query".into(), Value::String("it's".into()));
        args.insert("n".into(), serde_json::json!(2.0));
        args.insert("ok".into(), Value::Bool(true));
        let m = Message {
            id: "a".into(),
            role: Role::Assistant,
            content: String::new(),
            tool_calls: vec![ToolCall { id: "c1".into(), name: "search".into(), args, written: None }],
            tool_call_id: None,
            name: None,
            blocks: None,
        };
        // repr: [{'name': 'search', 'args': {'query': "it's", 'n': 2.0, 'ok': True}, 'id': 'c1', 'type': 'tool_call'}]
        assert_eq!(
            tool_calls_repr(&m),
            "[{'name': 'search', 'args': {'query': \"it's\", 'n': 2.0, 'ok': True}, 'id': 'c1', 'type': 'tool_call'}]"
        );
        assert_eq!(message_tokens(&m, 1.0), 102 + "assistant".len() as u64 + 3);
        assert_eq!(chars_tokens(10, 4.0), 6);
        assert_eq!(chars_tokens(10, 3.3), 7);
        assert_eq!(json_dumps_len(&serde_json::json!({"a": [1, "é"], "b": null}), true), r#"{"a": [1, "\u00e9"], "b": null}"#.len() as u64);
        assert_eq!(json_dumps_len(&serde_json::json!({"a": ["é\n"]}), false), "{\"a\": [\"é\\n\"]}".len() as u64);
        assert_eq!(pydantic_title("file_path"), "File Path");
    }

    /// A message of content parts: text parts by their length, images 85 tokens each, any other
    /// part by its `repr`, and no `repr` of the tool calls a list of parts holds. The figure is
    /// `count_tokens_approximately([AIMessage(content=parts, tool_calls=…)], chars_per_token=1)`.
    #[test]
    fn content_parts_count_one_by_one() {
        let parts = serde_json::json!([
            {"type": "text", "text": "ab"},
            "cd",
            {"type": "image_url", "image_url": {"url": "data:,"}},
            {"type": "file", "file_id": "f"},
        ]);
        let parts = parts.as_array().expect("parts").clone();
        let call = ToolCall { id: "c".into(), name: "t".into(), args: Map::new(), written: None };
        let text = "ab\ncd".to_string();
        let m = Message {
            id: "a".into(),
            role: Role::Assistant,
            content: text.clone(),
            tool_calls: vec![call],
            tool_call_id: None,
            name: None,
            blocks: Some(crate::conversation::Blocks { parts, text }),
        };
        // 'ab', 'cd', repr {'type': 'file', 'file_id': 'f'} (32), 'assistant'; the image; 3.
        assert_eq!(message_tokens(&m, 1.0), (2 + 2 + 32 + 9) + 85 + 3);
        // A runtime that replaces the text replaces the parts: the text is counted, with the calls.
        let replaced = Message { content: "x".into(), ..m };
        assert_eq!(message_tokens(&replaced, 1.0), 1 + tool_calls_repr(&replaced).len() as u64 + 9 + 3);
    }
}

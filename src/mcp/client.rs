//! What `ctxc mcp record`'s transports share: the limits a server runs within, the exchange of
//! one request ([`Transport`]), and the reading of an answer.

use std::time::Duration;

use serde_json::{json, Value};

use super::clip;

/// How long, how much and how many a server may answer.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// For the whole exchange with one server, from its start.
    pub time: Duration,
    /// Bytes read from the server (its stdout, or its HTTP bodies), in all.
    pub max_bytes: u64,
    /// Items in one list (tools, prompts or resources), all pages together.
    pub max_items: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { time: Duration::from_secs(30), max_bytes: 16 * 1024 * 1024, max_items: 1000 }
    }
}

/// One way of exchanging JSON-RPC messages with a server.
pub(super) trait Transport {
    /// Sends a request and returns its result (an error response is an error).
    fn request(&mut self, method: &str, params: Value) -> Result<Value, String>;
    /// Sends a notification.
    fn notify(&mut self, method: &str) -> Result<(), String>;
}

/// The result in `line` when it is the response to request `id`; `None` for any other message
/// (a notification, a request of the server's own); an error for an error response or a line
/// that is no JSON-RPC message.
pub(super) fn answer(line: &str, id: i64, method: &str) -> Result<Option<Value>, String> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    let message: Value =
        serde_json::from_str(line).map_err(|e| format!("answered `{method}` with a line that is not JSON ({e}): {}", clip(line)))?;
    if !message.is_object() {
        return Err(format!("answered `{method}` with JSON that is not a message: {}", clip(line)));
    }
    if message.get("method").is_some() || message.get("id") != Some(&json!(id)) {
        return Ok(None);
    }
    if let Some(error) = message.get("error") {
        return Err(format!("`{method}` failed: {}", clip(&error.to_string())));
    }
    message.get("result").cloned().map(Some).ok_or_else(|| format!("the answer to `{method}` has no `result`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_answer_to_the_request_is_taken() {
        assert_eq!(answer(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#, 1, "m"), Ok(None));
        assert_eq!(answer(r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#, 1, "m"), Ok(None), "the server's own request");
        assert_eq!(answer(r#"{"jsonrpc":"2.0","id":2,"result":{}}"#, 1, "m"), Ok(None));
        assert_eq!(answer(r#"{"jsonrpc":"2.0","id":1,"result":{"a":1}}"#, 1, "m"), Ok(Some(json!({ "a": 1 }))));
        assert!(answer("[1]", 1, "m").is_err());
        assert!(answer("Starting server…", 1, "m").expect_err("not JSON").contains("not JSON"));
        assert!(answer(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#, 1, "m").is_err());
    }
}

//! `ctxc mcp record` over MCP's streamable HTTP transport: each message a POST to the server's
//! URL, answered with a JSON body or an event stream read until the answer. Bounded as a stdio
//! server is: the time left for the server, the bytes read in all; no redirect is followed (the
//! configured headers may carry credentials).

use std::io::BufReader;
use std::time::Instant;

use serde_json::{json, Value};

use super::client::{answer, Limits, Transport};
use super::framing::{read_line, Line};

pub(super) struct HttpServer<'a> {
    url: &'a str,
    headers: &'a [(String, String)],
    deadline: Instant,
    limits: Limits,
    /// Bytes read so far, against `limits.max_bytes`.
    read: u64,
    session: Option<String>,
    protocol_version: Option<String>,
    next_id: i64,
}

impl<'a> HttpServer<'a> {
    pub(super) fn new(url: &'a str, headers: &'a [(String, String)], limits: &Limits, started: Instant) -> Self {
        HttpServer {
            url,
            headers,
            deadline: started + limits.time,
            limits: *limits,
            read: 0,
            session: None,
            protocol_version: None,
            next_id: 0,
        }
    }

    /// POSTs `message`; the response, or why there is none.
    fn post(&mut self, message: &Value, method: &str) -> Result<ureq::http::Response<ureq::Body>, String> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(self.late(method));
        }
        let agent: ureq::Agent =
            ureq::Agent::config_builder().timeout_global(Some(left)).http_status_as_error(false).max_redirects(0).build().into();
        let mut call =
            agent.post(self.url).header("content-type", "application/json").header("accept", "application/json, text/event-stream");
        for (name, value) in self.headers {
            call = call.header(name, value);
        }
        if let Some(session) = &self.session {
            call = call.header("mcp-session-id", session);
        }
        if let Some(version) = &self.protocol_version {
            call = call.header("mcp-protocol-version", version);
        }
        let response = call.send(message.to_string()).map_err(|e| match e {
            ureq::Error::Timeout(_) => self.late(method),
            e => format!("`{method}`: {e}"),
        })?;
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(format!("`{method}`: HTTP {status}"));
        }
        if let Some(session) = response.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()) {
            self.session = Some(session.to_string());
        }
        Ok(response)
    }

    fn late(&self, method: &str) -> String {
        format!("no answer to `{method}` within {} s (--timeout): stopped", self.limits.time.as_secs_f64())
    }

    fn too_much(&self) -> String {
        format!("the server sent more than {} bytes (--max-bytes): stopped", self.limits.max_bytes)
    }
}

impl Transport for HttpServer<'_> {
    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut response = self.post(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }), method)?;
        let stream =
            response.headers().get("content-type").and_then(|v| v.to_str().ok()).is_some_and(|t| t.starts_with("text/event-stream"));
        let left = self.limits.max_bytes.saturating_sub(self.read);
        let mut reader = BufReader::new(response.body_mut().with_config().limit(left + 1).reader());
        let mut buf = Vec::new();
        let mut data = String::new();
        let mut body = String::new();
        let result = loop {
            let line = read_line(&mut reader, &mut buf);
            let Ok(line) = line else {
                let timed_out = Instant::now() >= self.deadline;
                break Err(if timed_out { self.late(method) } else { self.too_much() });
            };
            match line {
                Line::End => break Err(format!("the answer to `{method}` ended without a response")),
                Line::Refused(why) => break Err(format!("answered `{method}` with a line ctxc cannot read: {why}")),
                Line::Text(text) => {
                    self.read += text.len() as u64 + 1;
                    if self.read > self.limits.max_bytes {
                        break Err(self.too_much());
                    }
                    if !stream {
                        body.push_str(&text);
                        body.push('\n');
                        continue;
                    }
                    // An event ends with a blank line; its `data:` lines are its message.
                    if let Some(d) = text.strip_prefix("data:") {
                        data.push_str(d.strip_prefix(' ').unwrap_or(d));
                        data.push('\n');
                    } else if text.is_empty() && !data.is_empty() {
                        if let Some(result) = answer(&std::mem::take(&mut data), id, method).transpose() {
                            break result;
                        }
                    }
                }
            }
        };
        let result = match (stream, result) {
            // A JSON body is read to its end, then answered.
            (false, Err(e)) if e.contains("ended without") => {
                answer(&body, id, method)?.ok_or_else(|| format!("the answer to `{method}` is not its response"))
            }
            (_, result) => result,
        }?;
        if method == "initialize" {
            self.protocol_version = result.get("protocolVersion").and_then(Value::as_str).map(str::to_string);
        }
        Ok(result)
    }

    fn notify(&mut self, method: &str) -> Result<(), String> {
        self.post(&json!({ "jsonrpc": "2.0", "method": method }), method).map(drop)
    }
}

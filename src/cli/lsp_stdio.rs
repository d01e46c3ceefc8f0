//! The Language Server's stdio framing (`Content-Length` headers, then a JSON body), read with
//! bounds: a client cannot make ctxc allocate more than [`MAX_BODY_BYTES`] for a message, and a
//! body that is not a JSON-RPC message is answered with a parse error instead of ending the
//! server. Framing that cannot be followed (a header too long, no length, a body over the limit,
//! a stream cut short) stops the server with the reason on stderr.

use std::io::{BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message};
use serde_json::json;

/// The largest message body read. The largest is a `didOpen`/`didChange` carrying a whole
/// file: ctxc reads files of at most `MAX_FILE_BYTES`, and JSON can write each byte as a
/// six-byte `\u` escape.
pub const MAX_BODY_BYTES: usize = 6 * ctxc::project::MAX_FILE_BYTES as usize + 64 * 1024;
/// The longest header line, and the most header lines of one message.
const MAX_HEADER_LINE: u64 = 1024;
const MAX_HEADERS: usize = 16;

/// Why reading stopped short of a message.
#[derive(Debug)]
pub enum ReadError {
    /// The stream cannot be followed any further.
    Framing(String),
    /// One body was read whole but is not a message; the next one can still be read.
    Body(String),
}

/// Reads one message; `Ok(None)` at the end of the stream between messages.
pub fn read_message(input: &mut impl BufRead) -> Result<Option<Message>, ReadError> {
    let mut length = None;
    let mut line = Vec::new();
    for count in 0.. {
        if count == MAX_HEADERS {
            return Err(ReadError::Framing(format!("more than {MAX_HEADERS} header lines in one message")));
        }
        line.clear();
        input.take(MAX_HEADER_LINE).read_until(b'\n', &mut line).map_err(|e| ReadError::Framing(e.to_string()))?;
        if line.is_empty() && count == 0 {
            return Ok(None);
        }
        if line.last() != Some(&b'\n') {
            return Err(ReadError::Framing(if line.len() as u64 == MAX_HEADER_LINE {
                format!("a header line is longer than {MAX_HEADER_LINE} bytes")
            } else {
                "the stream ended inside a message's headers".to_string()
            }));
        }
        let header = String::from_utf8_lossy(&line);
        let header = header.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(ReadError::Framing(format!("`{}` is not a header", header.escape_debug())));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            let parsed = value.parse::<usize>().map_err(|_| ReadError::Framing(format!("`{}` is not a length", value.escape_debug())))?;
            if parsed > MAX_BODY_BYTES {
                return Err(ReadError::Framing(format!("a message of {parsed} bytes is over the {MAX_BODY_BYTES}-byte limit")));
            }
            length = Some(parsed);
        }
    }
    let length = length.ok_or_else(|| ReadError::Framing("a message has no Content-Length header".to_string()))?;
    // Grown as bytes arrive: a length the client does not send costs nothing.
    let mut body = Vec::new();
    input.take(length as u64).read_to_end(&mut body).map_err(|e| ReadError::Framing(e.to_string()))?;
    if body.len() != length {
        return Err(ReadError::Framing(format!("the stream ended {} bytes into a {length}-byte message", body.len())));
    }
    serde_json::from_slice::<Message>(&body).map(Some).map_err(|e| ReadError::Body(e.to_string()))
}

/// The server's end of a connection over stdin and stdout, and the threads that carry it. The
/// reader's thread ends with stdin; its reason for stopping early is kept for the caller.
pub struct Stdio {
    pub connection: Connection,
    writer: JoinHandle<()>,
    stopped: Arc<Mutex<Option<String>>>,
}

impl Stdio {
    pub fn start() -> Stdio {
        let (connection, client) = Connection::memory();
        let stdout = Arc::new(Mutex::new(std::io::stdout()));
        let stopped = Arc::new(Mutex::new(None));
        let (to_server, from_server) = (client.sender, client.receiver);
        let out = Arc::clone(&stdout);
        let writer = std::thread::spawn(move || {
            for message in from_server {
                let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
                if message.write(&mut *out).and_then(|()| out.flush()).is_err() {
                    break;
                }
            }
        });
        let why = Arc::clone(&stopped);
        std::thread::spawn(move || {
            let mut input = std::io::stdin().lock();
            loop {
                match read_message(&mut input) {
                    Ok(Some(message)) => {
                        if to_server.send(message).is_err() {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(ReadError::Body(e)) => {
                        // JSON-RPC's answer to a body it cannot read: a parse error with no id.
                        let error = json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("not a JSON-RPC message: {e}")}});
                        let text = error.to_string();
                        let mut out = stdout.lock().unwrap_or_else(|e| e.into_inner());
                        let _ = write!(out, "Content-Length: {}\r\n\r\n{text}", text.len()).and_then(|()| out.flush());
                    }
                    Err(ReadError::Framing(e)) => {
                        *why.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        break;
                    }
                }
            }
        });
        Stdio { connection, writer, stopped }
    }

    /// Closes the server's end, waits for what it sent to be written, and says why the client's
    /// stream stopped early, if it did.
    pub fn finish(self) -> Option<String> {
        drop(self.connection);
        let _ = self.writer.join();
        self.stopped.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Option<Message>, ReadError> {
        read_message(&mut std::io::BufReader::new(bytes))
    }

    #[test]
    fn a_length_over_the_limit_is_refused_before_anything_is_read() {
        let huge = format!("Content-Length: {}\r\n\r\n", usize::MAX);
        assert!(matches!(read(huge.as_bytes()), Err(ReadError::Framing(e)) if e.contains("limit") || e.contains("not a length")));
        let over = format!("Content-Length: {}\r\n\r\n{{}}", MAX_BODY_BYTES + 1);
        assert!(matches!(read(over.as_bytes()), Err(ReadError::Framing(e)) if e.contains("limit")));
    }

    #[test]
    fn bodies_that_are_not_messages_leave_the_stream_readable() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        for body in [b"\xff\xfe".to_vec(), deep.into_bytes(), b"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\"\xc3\x28\"}".to_vec()] {
            let mut stream = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
            stream.extend(&body);
            stream.extend(b"Content-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}       ");
            let mut input = std::io::BufReader::new(stream.as_slice());
            assert!(matches!(read_message(&mut input), Err(ReadError::Body(_))));
            assert!(matches!(read_message(&mut input), Ok(Some(Message::Notification(n))) if n.method == "exit"));
            assert!(matches!(read_message(&mut input), Ok(None)));
        }
    }

    #[test]
    fn broken_framing_is_named() {
        for (stream, why) in [
            (b"Content-Length: 10\r\n\r\n{}".as_slice(), "ended 2 bytes into"),
            (b"Content-Type: x\r\n\r\n{}", "no Content-Length"),
            (b"Content-Length: 2\r\n", "inside a message's headers"),
            (b"garbage\r\n\r\n", "is not a header"),
        ] {
            assert!(matches!(read(stream), Err(ReadError::Framing(e)) if e.contains(why)), "{why}");
        }
        let long = format!("X-{}: 1\r\n\r\n", "a".repeat(5000));
        assert!(matches!(read(long.as_bytes()), Err(ReadError::Framing(e)) if e.contains("longer than")));
    }
}

//! MCP's stdio framing: one JSON-RPC message a line. A line is read up to [`MAX_LINE`] bytes; a
//! longer one is skipped through its end without being held, and answered with a parse error.

use std::io::{self, BufRead, Read};

/// The longest line read: a tool call carrying a file's unsaved text (ctxc reads files of 4 MiB
/// at most; JSON escapes can make one several times longer), as `ctxc check -` reads 16 MiB.
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line's text, without its line end.
    Text(String),
    /// A line that cannot be a message (too long, not UTF-8): the parse error's message.
    Refused(String),
    /// The client closed stdin.
    End,
}

/// Reads the next line into `buf` (reused between calls).
pub fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Line> {
    buf.clear();
    let read = reader.by_ref().take(MAX_LINE as u64 + 1).read_until(b'\n', buf)?;
    if read == 0 {
        return Ok(Line::End);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > MAX_LINE {
        skip_line(reader)?;
        buf.clear();
        return Ok(Line::Refused(format!("the line is longer than {MAX_LINE} bytes")));
    }
    match String::from_utf8(std::mem::take(buf)) {
        Ok(text) => Ok(Line::Text(text)),
        Err(_) => Ok(Line::Refused("the line is not UTF-8".into())),
    }
}

/// Reads through the end of the current line, holding no more than the reader's buffer.
fn skip_line(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(());
        }
        if let Some(at) = available.iter().position(|&b| b == b'\n') {
            reader.consume(at + 1);
            return Ok(());
        }
        let all = available.len();
        reader.consume(all);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_bounded_and_checked() {
        let long = "x".repeat(MAX_LINE + 10);
        let input = format!("{{\"a\":1}}\r\n{long}\nnext\n\u{e9}");
        let mut bytes = input.into_bytes();
        bytes.extend_from_slice(b"\n\xff\n");
        let mut reader = io::BufReader::new(bytes.as_slice());
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        loop {
            match read_line(&mut reader, &mut buf).expect("read") {
                Line::End => break,
                line => lines.push(line),
            }
        }
        assert_eq!(
            lines,
            [
                Line::Text("{\"a\":1}".into()),
                Line::Refused(format!("the line is longer than {MAX_LINE} bytes")),
                Line::Text("next".into()),
                Line::Text("\u{e9}".into()),
                Line::Refused("the line is not UTF-8".into()),
            ]
        );
    }
}

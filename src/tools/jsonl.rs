//! JSON Lines: one JSON value per line (a tool, a tool list or a BFCL record), as benchmarks such
//! as BFCL ship their functions.

use serde_json::Value;

use super::{parse_tool_value, Shape, ToolFile, ToolFileError};

/// The tools of a JSON Lines text; `None` when it is not JSON Lines (one value, or a first line
/// that is not JSON), so the caller reports the JSON error of the whole text.
pub(super) fn parse(text: &str) -> Option<Result<ToolFile, ToolFileError>> {
    // (line number, byte offset, line) of each line that is not blank.
    let mut lines = Vec::new();
    let mut at = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if !line.trim().is_empty() {
            lines.push((i + 1, at, line));
        }
        at += line.len();
    }
    let first_is_json = lines.first().is_some_and(|(_, _, line)| serde_json::from_str::<Value>(line).is_ok());
    (lines.len() > 1 && first_is_json).then(|| parse_lines(text, &lines))
}

fn parse_lines(text: &str, lines: &[(usize, usize, &str)]) -> Result<ToolFile, ToolFileError> {
    let mut file: Option<ToolFile> = None;
    for &(line_no, at, line) in lines {
        let line = line.trim_end();
        let value: Value = serde_json::from_str(line).map_err(|e| {
            let offset = at + crate::diagnostic::offset_of(line, e.line(), e.column());
            // The position is the diagnostic's; serde's own is within the line.
            let message = e.to_string();
            let message = message.rfind(" at line ").map_or(message.as_str(), |cut| &message[..cut]);
            ToolFileError::invalid(format!("line {line_no}: invalid JSON: {message}"), Some(offset))
        })?;
        let parsed = match parse_tool_value(&value) {
            Ok(parsed) => parsed,
            // A first line with no tool shape: JSON Lines of something else.
            Err(Shape::NotTools) if file.is_none() => return Err(Shape::NotTools.error(text)),
            Err(Shape::NotTools) => return Err(ToolFileError::invalid(format!("line {line_no}: not a tool definition"), Some(at))),
            Err(Shape::Invalid(message)) => return Err(ToolFileError::invalid(format!("line {line_no}: {message}"), Some(at))),
        };
        match &mut file {
            None => file = Some(ToolFile { json_lines: true, ..parsed }),
            Some(file) => {
                file.server = file.server.take().or(parsed.server);
                file.tools.extend(parsed.tools);
            }
        }
    }
    file.ok_or_else(|| Shape::NotTools.error(text))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{names, read};
    use super::super::{parse_tool_file, ToolFormat};
    use crate::codes::Code;

    #[test]
    fn one_record_or_tool_per_line() {
        let bfcl = concat!(
            r#"{"id": "simple_0", "question": [[]], "function": [{"name": "a.b", "description": "d", "parameters": {"type": "dict", "properties": {}}}]}"#,
            "\n\n",
            r#"{"id": "multiple_0", "question": [[]], "function": [{"name": "c"}, {"name": "d"}]}"#,
            "\n",
        );
        let file = parse_tool_file(bfcl).expect("bfcl");
        assert_eq!((file.format, file.json_lines), (ToolFormat::Bfcl, true));
        assert_eq!(file.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["a.b", "c", "d"]);
        assert_eq!(file.tools[0].parameters["type"], "dict", "the schema is kept as given");

        let mcp = "{\"name\": \"x\", \"inputSchema\": {}}\n{\"name\": \"y\", \"inputSchema\": {}}";
        assert_eq!(read(mcp), Ok((ToolFormat::Mcp, names(&["x", "y"]))));
    }

    #[test]
    fn errors_point_at_their_line() {
        let text = "{\"name\": \"a\"}\n{\"name\": \"b\"\n";
        let error = parse_tool_file(text).expect_err("broken line");
        assert_eq!((error.code, error.message.as_str()), (Code::TOOL001, "line 2: invalid JSON: EOF while parsing an object"));
        assert_eq!(error.offset, Some(text.len() - 2), "at the last character of line 2");

        let error = parse_tool_file("{\"name\": \"a\"}\n\n{\"id\": 3}\n").expect_err("no tool on line 3");
        assert_eq!((error.message.as_str(), error.offset), ("line 3: not a tool definition", Some(15)));
        let error = parse_tool_file("{\"name\": \"a\"}\n{\"name\": 4}\n").expect_err("bad name");
        assert_eq!(error.message, "line 2: tool #1: `name` must be a string");
    }
}

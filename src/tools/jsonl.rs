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
        let value: Value = serde_json::from_str(line).map_err(|e| {
            let offset = at + crate::diagnostic::offset_of(line, e.line(), e.column());
            ToolFileError::invalid(format!("line {line_no}: invalid JSON: {e}"), Some(offset))
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

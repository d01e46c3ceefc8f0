//! All YAML parsing lives here: YAML manifests and SKILL.md frontmatter. Errors come back with a
//! byte offset into the text that was given, so callers can point at the right line.

use serde::de::DeserializeOwned;

#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    pub message: String,
    /// Byte offset into the parsed text, when the parser knows where it failed.
    pub offset: Option<usize>,
}

fn convert_error(err: serde_yaml::Error, text: &str) -> YamlError {
    let offset = err.location().map(|loc| loc.index().min(text.len()));
    let mut message = err.to_string();
    // serde_yaml appends "at line L column C"; we report the position ourselves.
    if let Some(cut) = message.rfind(" at line ") {
        message.truncate(cut);
    }
    YamlError { message, offset }
}

/// Parses a whole YAML document into a typed value.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_yaml::from_str(text).map_err(|e| convert_error(e, text))
}

/// The parts of a Markdown file with `---` YAML frontmatter.
#[derive(Debug, Clone, PartialEq)]
pub struct Frontmatter {
    /// Top-level keys in document order, with values converted to JSON values.
    pub fields: Vec<(String, serde_json::Value)>,
    /// Byte offset where the YAML text starts in the file.
    pub yaml_offset: usize,
    /// Byte offset where the body (after the closing `---` line) starts.
    pub body_offset: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FrontmatterError {
    /// The file does not start with a `---` line.
    Missing,
    /// An opening `---` without a closing one.
    Unterminated,
    /// The YAML between the fences is malformed or not a mapping of string keys.
    Invalid(YamlError),
}

/// Splits and parses frontmatter. Offsets in errors are relative to the whole file.
pub fn frontmatter(text: &str) -> Result<Frontmatter, FrontmatterError> {
    let first_line_end = text.find('\n').map_or(text.len(), |i| i + 1);
    if text[..first_line_end].trim_end() != "---" {
        return Err(FrontmatterError::Missing);
    }
    let yaml_offset = first_line_end;
    let mut line_start = yaml_offset;
    let (yaml_end, body_offset) = loop {
        if line_start >= text.len() {
            return Err(FrontmatterError::Unterminated);
        }
        let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i + 1);
        if text[line_start..line_end].trim_end() == "---" {
            break (line_start, line_end);
        }
        line_start = line_end;
    };
    let yaml = &text[yaml_offset..yaml_end];
    let shift = |mut e: YamlError| {
        e.offset = e.offset.map(|o| o + yaml_offset);
        FrontmatterError::Invalid(e)
    };
    let value: serde_yaml::Value = if yaml.trim().is_empty() {
        serde_yaml::Value::Mapping(Default::default())
    } else {
        serde_yaml::from_str(yaml).map_err(|e| shift(convert_error(e, yaml)))?
    };
    let serde_yaml::Value::Mapping(mapping) = value else {
        return Err(shift(YamlError { message: "frontmatter must be a mapping of keys to values".into(), offset: Some(0) }));
    };
    let mut fields = Vec::new();
    for (key, value) in mapping {
        let serde_yaml::Value::String(key) = key else {
            return Err(shift(YamlError { message: "frontmatter keys must be strings".into(), offset: Some(0) }));
        };
        let value = serde_json::to_value(&value)
            .map_err(|e| shift(YamlError { message: format!("value of `{key}`: {e}"), offset: Some(0) }))?;
        fields.push((key, value));
    }
    Ok(Frontmatter { fields, yaml_offset, body_offset })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_frontmatter_and_finds_body() {
        let text = "---\nname: a\ndescription: b {{ 7*7 }}\n---\nBody\n";
        let fm = frontmatter(text).expect("valid");
        assert_eq!(fm.fields[0], ("name".to_string(), serde_json::json!("a")));
        assert_eq!(fm.fields[1].1, serde_json::json!("b {{ 7*7 }}"));
        assert_eq!(&text[fm.body_offset..], "Body\n");
    }

    #[test]
    fn reports_errors_with_file_offsets() {
        assert_eq!(frontmatter("# no frontmatter"), Err(FrontmatterError::Missing));
        assert_eq!(frontmatter("---\nname: a\n"), Err(FrontmatterError::Unterminated));
        let text = "---\nname: a\ndescription: [unclosed\n---\n";
        let Err(FrontmatterError::Invalid(e)) = frontmatter(text) else { panic!("expected invalid") };
        assert!(e.offset.expect("offset") >= 4, "{e:?}");
    }
}

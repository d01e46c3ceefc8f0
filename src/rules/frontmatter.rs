//! Findings shared by the families whose files are Markdown with frontmatter (Cursor, Copilot,
//! Gemini, OpenHands, Codex): unknown fields, empty bodies and files, frontmatter that does not parse;
//! and [`raw_front`], the one lenient frontmatter reader, for the products that read frontmatter
//! line by line rather than as YAML: Cursor (`globs: **/*.ts` is its documented style), and Claude
//! Code, which loads subagents whose multi-line unquoted descriptions are not YAML.

use std::ops::Range;

use crate::agent_files::Doc;
use crate::diagnostic::{did_you_mean, Diagnostic, Edit, Fix};

/// A finding for a frontmatter key the product does not read, with a safe fix when the key only
/// differs from a known one in case.
/// `taken` says whether a key is already written: a rename onto one would write it twice.
pub fn unknown_key(
    file: &str,
    key: &str,
    key_span: Range<usize>,
    known: &[&str],
    product: &str,
    taken: impl Fn(&str) -> bool,
) -> Diagnostic {
    let case = known.iter().find(|k| k.eq_ignore_ascii_case(key)).copied();
    // Fields of other products' agent formats (opencode's `mode`/`hidden`, Claude Code's `color`)
    // are not typos of a near name such as `model`.
    let foreign = ["mode", "hidden", "color", "temperature"].contains(&key);
    let suggestion = case.or_else(|| did_you_mean(key, known.iter().copied()).filter(|_| !foreign));
    let mut d = Diagnostic::finding(format!("unknown frontmatter field `{key}`: {product} ignores it"))
        .in_file(file)
        .at(Some(key_span.clone()))
        .label("unknown field")
        .groupable();
    d = match suggestion {
        Some(s) => d.help(format!("did you mean `{s}`?")),
        None => {
            d.help(format!("remove it; {product} reads only {}", known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")))
        }
    };
    match case.filter(|k| !taken(k)) {
        Some(k) => d.fix(Fix::safe(format!("rename `{key}` to `{k}`"), vec![Edit::replace(file, key_span, k)])),
        None => d,
    }
}

/// The unknown-field findings of a parsed frontmatter (a [`Doc`] whose YAML parsed).
pub fn unknown_fields(doc: &Doc, known: &[&str], product: &str) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (key, _) in doc.fields() {
        if !known.contains(&key.as_str()) {
            if let Some(span) = doc.key_span(key) {
                findings.push(unknown_key(&doc.file, key, span, known, product, |k| doc.field(k).is_some()));
            }
        }
    }
    findings
}

/// A finding for a file whose Markdown body is empty or only whitespace.
pub fn empty_body(doc: &Doc, body_start: usize, what: &str) -> Option<Diagnostic> {
    let body = &doc.text[body_start.min(doc.text.len())..];
    body.trim().is_empty().then(|| {
        Diagnostic::finding(format!("{} has no instructions: its body is empty", doc.rel))
            .in_file(&doc.file)
            .at(Some(body_start.saturating_sub(1).min(doc.text.len())..body_start.min(doc.text.len())))
            .label("nothing after the frontmatter")
            .help(format!("write the {what} below the frontmatter, or delete the file"))
    })
}

/// A finding for a frontmatter field whose value is neither one of `accepted` (case-sensitive) nor
/// one `also` takes; none when the field is absent. `what` names the value in the message
/// (`` `mode: Primary` is not {what} ``); the help suggests a near value, else says `otherwise`.
pub fn value_not_in(
    doc: &Doc,
    key: &str,
    accepted: &[&str],
    also: impl Fn(&str) -> bool,
    what: &str,
    label: &str,
    otherwise: &str,
) -> Option<Diagnostic> {
    let value = doc.field(key)?;
    let written = value.as_str();
    if written.is_some_and(|v| accepted.contains(&v) || also(v)) {
        return None;
    }
    let shown = written.map_or_else(|| value.to_string(), str::to_string);
    let help = match written.and_then(|v| did_you_mean(v, accepted.iter().copied())) {
        Some(s) => format!("did you mean `{s}`?"),
        None => otherwise.to_string(),
    };
    Some(Diagnostic::finding(format!("`{key}: {shown}` is not {what}")).in_file(&doc.file).at(doc.value_span(key)).label(label).help(help))
}

/// Whether a Markdown doc's frontmatter is there but does not parse (its parse rule reports it;
/// the others skip the file).
pub fn has_yaml_error(doc: &Doc) -> bool {
    matches!(&*doc.front, Err(crate::yaml::FrontmatterError::Invalid(_)) | Err(crate::yaml::FrontmatterError::Unterminated))
}

/// The finding for frontmatter that does not parse or is never closed (none when it parsed or
/// is absent).
pub fn frontmatter_error(doc: &Doc, help: &str) -> Option<Diagnostic> {
    use crate::yaml::FrontmatterError;
    let (message, at) = match &*doc.front {
        Err(FrontmatterError::Invalid(e)) => (format!("frontmatter is not valid YAML: {}", e.message), e.offset.unwrap_or(0)),
        Err(FrontmatterError::Unterminated) => ("frontmatter is never closed with `---`".to_string(), 0),
        _ => return None,
    };
    let at = at.min(doc.text.len());
    let end = doc.text[at..].find('\n').map_or(doc.text.len(), |i| at + i);
    Some(Diagnostic::finding(message).in_file(&doc.file).at(Some(at..end)).label("here").help(help))
}

/// The finding for a file that is empty or only whitespace (display path, root-relative path).
pub fn empty_file(file: &str, rel: &str, consequence: &str, help: &str) -> Diagnostic {
    Diagnostic::finding(format!("{rel} is empty{consequence}")).in_file(file).at(Some(0..0)).help(help)
}

/// One top-level `key: value` line of frontmatter, with the `- item` lines below it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawField {
    pub key: String,
    pub key_span: Range<usize>,
    /// The value as written on the key's line, trimmed (quotes kept).
    pub value: String,
    /// Where the value is (the key's span when the value is empty).
    pub value_span: Range<usize>,
    /// `- item` lines of a block list under the key, trimmed, with their spans.
    pub items: Vec<(String, Range<usize>)>,
    /// The whole field, from the key to the end of its last line (line break included).
    pub line_span: Range<usize>,
}

/// Frontmatter read as lines.
#[derive(Debug, Clone, PartialEq)]
pub struct RawFront {
    pub fields: Vec<RawField>,
    /// Byte offset where the body (after the closing `---`) starts.
    pub body_start: usize,
}

impl RawFront {
    pub fn get(&self, key: &str) -> Option<&RawField> {
        self.fields.iter().find(|f| f.key == key)
    }
}

/// Why frontmatter could not be read.
#[derive(Debug, Clone, PartialEq)]
pub enum RawError {
    /// The file does not start with `---`.
    Missing,
    /// An opening `---` with no closing one (the byte range of the opening line).
    Unterminated(Range<usize>),
}

/// Reads frontmatter as `key: raw value` lines; nothing in a value is interpreted.
pub fn raw_front(text: &str) -> Result<RawFront, RawError> {
    let bom = crate::yaml::bom_len(text);
    let first_end = text[bom..].find('\n').map_or(text.len(), |i| bom + i + 1);
    if text[bom..first_end].trim_end() != "---" {
        return Err(RawError::Missing);
    }
    let mut fields: Vec<RawField> = Vec::new();
    let mut offset = first_end;
    for line in text[first_end..].split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim_end() == "---" {
            return Ok(RawFront { fields, body_start: offset });
        }
        let indented = content.starts_with([' ', '\t']);
        let trimmed = content.trim();
        if indented || trimmed.starts_with('-') {
            if let (Some(field), Some(item)) = (fields.last_mut(), trimmed.strip_prefix('-')) {
                let item = item.trim();
                let item_start = start + content.find(item).unwrap_or(0);
                field.items.push((item.to_string(), item_start..item_start + item.len()));
            }
            if let Some(field) = fields.last_mut() {
                field.line_span.end = offset;
            }
            continue;
        }
        let Some(colon) = content.find(':') else { continue };
        let key = &content[..colon];
        if key.is_empty() || trimmed.starts_with('#') || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            continue;
        }
        let after = &content[colon + 1..];
        let value = after.trim();
        let key_span = start..start + key.len();
        let value_span = match value.is_empty() {
            true => key_span.clone(),
            false => {
                let v = start + colon + 1 + (after.len() - after.trim_start().len());
                v..v + value.len()
            }
        };
        fields.push(RawField {
            key: key.to_string(),
            key_span,
            value: value.to_string(),
            value_span,
            items: Vec::new(),
            line_span: start..offset,
        });
    }
    Err(RawError::Unterminated(0..first_end.saturating_sub(1)))
}

/// A value without one pair of matching surrounding quotes.
pub fn unquote(value: &str) -> &str {
    for q in ['"', '\''] {
        if value.len() >= 2 && value.starts_with(q) && value.ends_with(q) {
            return &value[1..value.len() - 1];
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::raw_front;

    #[test]
    fn reads_frontmatter_after_a_byte_order_mark() {
        let text = "\u{feff}---\nname: a\n---\nBody\n";
        let front = raw_front(text).expect("frontmatter after a BOM");
        assert_eq!(&text[front.body_start..], "Body\n");
    }
}

//! Findings shared by the families whose files are Markdown with frontmatter (Cursor, Copilot,
//! Gemini, OpenHands, Codex): unknown fields, empty bodies and files, frontmatter that does not parse.

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
        .label("unknown field");
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

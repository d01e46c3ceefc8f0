//! Markdown helpers: rules that look for syntax in prose (placeholders, `@path` imports) skip
//! fenced code blocks and inline code spans.

/// The text with fenced code blocks and inline code spans replaced by spaces (line breaks
/// kept), so byte offsets into the result are offsets into the original.
pub fn mask_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (line, fence) in fenced_lines(text) {
        match fence {
            Some(_) => out.push_str(&blank(line)),
            None => out.push_str(&mask_inline(line)),
        }
    }
    out
}

/// Each line of a text (with its line break) and, when it belongs to a fenced code block (the
/// fences included), the block's info string (`powershell` in ```` ```powershell ````, may be empty).
pub fn fenced_lines(text: &str) -> Vec<(&str, Option<&str>)> {
    let mut lines = Vec::new();
    let mut fence: Option<(String, &str)> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker: String = trimmed.chars().take_while(|c| *c == '`' || *c == '~').collect();
        let is_fence = marker.len() >= 3 && (marker.chars().all(|c| c == '`') || marker.chars().all(|c| c == '~'));
        match &fence {
            Some((open, info)) => {
                lines.push((line, Some(*info)));
                if is_fence && marker.starts_with(open.as_str()) && trimmed[marker.len()..].trim().is_empty() {
                    fence = None;
                }
            }
            None if is_fence => {
                let info = trimmed[marker.len()..].split_whitespace().next().unwrap_or("");
                lines.push((line, Some(info)));
                fence = Some((marker, info));
            }
            None => lines.push((line, None)),
        }
    }
    lines
}

/// Spaces for every character but line breaks, keeping byte length.
fn blank(text: &str) -> String {
    text.chars().map(|c| if c == '\n' || c == '\r' { c.to_string() } else { " ".repeat(c.len_utf8()) }).collect()
}

/// Masks `inline code` spans (matching runs of backticks) on one line.
fn mask_inline(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let run = rest[start..].chars().take_while(|c| *c == '`').count();
        let ticks = &rest[start..start + run];
        match rest[start + run..].find(ticks) {
            Some(end) => {
                let span_end = start + run + end + run;
                out.push_str(&blank(&rest[start..span_end]));
                rest = &rest[span_end..];
            }
            None => {
                out.push_str(ticks);
                rest = &rest[start + run..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Paragraphs (blocks separated by blank lines), each with its byte offset.
pub fn paragraphs(text: &str) -> Vec<(usize, &str)> {
    let mut found = Vec::new();
    let mut start: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim().is_empty() {
            if let Some(s) = start.take() {
                found.push((s, text[s..offset].trim_end()));
            }
        } else if start.is_none() {
            start = Some(offset);
        }
        offset += line.len();
    }
    if let Some(s) = start {
        found.push((s, text[s..].trim_end()));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_code_keeping_offsets() {
        let text = "use {x} here `{y}` and\n```python\nprint(f\"{z}\")\n```\n{w}\n";
        let masked = mask_code(text);
        assert_eq!(masked.len(), text.len());
        assert!(masked.contains("{x}") && masked.contains("{w}"));
        assert!(!masked.contains("{y}") && !masked.contains("{z}"));
    }

    #[test]
    fn splits_paragraphs() {
        let text = "one\ntwo\n\n\nthree\n";
        assert_eq!(paragraphs(text), vec![(0, "one\ntwo"), (10, "three")]);
    }
}

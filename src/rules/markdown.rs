//! Markdown read with a CommonMark parser (pulldown-cmark, with source offsets), once per text:
//! links, code, headings and emphasis are told apart as a renderer tells them, so a rule looking
//! for syntax in prose (placeholders, `@path` imports, paths) never mistakes one for another.

use std::ops::Range;
use std::sync::Arc;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

use crate::memo::{content_hash, Cache, Kind};

/// A link in Markdown: its destination as written and the destination's byte range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub dest: String,
    pub span: Range<usize>,
}

/// What the parser found in a text, as byte ranges into it.
#[derive(Debug, Default)]
pub struct Markdown {
    /// Inline links and images and link reference definitions, by position (reference-style
    /// uses are left out: their destination is the definition's).
    pub links: Vec<Link>,
    /// Inline code spans (backticks included) and code blocks (fences included), by position;
    /// `true` for a block.
    pub code: Vec<(Range<usize>, bool)>,
    /// The delimiter runs (`*`, `**`, `_`, `__`) of emphasis and strong emphasis.
    pub emphasis: Vec<Range<usize>>,
    /// The text of every heading (inline code included, markup dropped), in order.
    pub headings: Vec<String>,
    /// HTML comments (`<!-- … -->`), block or inline, by position: a renderer shows none of
    /// them, so whatever they hold (a fenced example, a template) is not the file's prose.
    pub comments: Vec<Range<usize>>,
}

/// Whether a file is written for people, not for an agent: a README, changelog, licence or
/// contributing guide, by its name (`README.md`, `CHANGELOG`, `LICENSE-MIT`).
pub fn written_for_people(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel).to_ascii_lowercase();
    ["readme", "changelog", "license", "contributing"].iter().any(|p| name.starts_with(p))
}

/// The text parsed (memoized by content: the agents of a project share their files).
pub fn parse(cache: &Cache, text: &str) -> Arc<Markdown> {
    parse_hashed(cache, text, content_hash(text))
}

/// [`parse`] for a text whose content hash is known: every link rule looks up every file's
/// links, and hashing each file again for each rule and agent cost more than the rules.
pub fn parse_hashed(cache: &Cache, text: &str, hash: u128) -> Arc<Markdown> {
    cache.get_or_insert(Kind::Markdown, hash, || Arc::new(read(text)))
}

fn read(text: &str) -> Markdown {
    let mut found = Markdown::default();
    let parser = Parser::new_ext(text, Options::ENABLE_YAML_STYLE_METADATA_BLOCKS | Options::ENABLE_TABLES).into_offset_iter();
    let definitions: Vec<Range<usize>> = parser.reference_definitions().iter().map(|(_, def)| def.span.clone()).collect();
    // Open links: their range and where their text (so far) ends; the destination follows it.
    let mut open_links: Vec<(Range<usize>, usize)> = Vec::new();
    let mut heading: Option<String> = None;
    for (event, range) in parser {
        if let Some((_, text_end)) = open_links.last_mut() {
            if !matches!(event, Event::End(TagEnd::Link | TagEnd::Image)) {
                *text_end = (*text_end).max(range.end);
            }
        }
        match event {
            Event::Start(Tag::Link { link_type: LinkType::Inline, .. } | Tag::Image { link_type: LinkType::Inline, .. }) => {
                let opening = if text[range.start..].starts_with('!') { 2 } else { 1 };
                open_links.push((range.clone(), range.start + opening));
            }
            Event::Start(Tag::Link { .. } | Tag::Image { .. }) => open_links.push((0..0, 0)),
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if let Some((link, text_end)) = open_links.pop().filter(|(link, _)| !link.is_empty()) {
                    found.links.extend(inline_destination(text, text_end, link.end));
                }
                // An image inside a link's text is part of that text.
                if let Some((_, text_end)) = open_links.last_mut() {
                    *text_end = (*text_end).max(range.end);
                }
            }
            Event::Code(code) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&code);
                }
                found.code.push((range, false));
            }
            Event::Start(Tag::CodeBlock(_)) => found.code.push((range, true)),
            Event::Start(Tag::Emphasis | Tag::Strong) => {
                let run = if matches!(event, Event::Start(Tag::Strong)) { 2 } else { 1 };
                let is_mark = |r: &Range<usize>| text.get(r.clone()).is_some_and(|m| m.bytes().all(|b| matches!(b, b'*' | b'_')));
                for mark in [range.start..range.start + run, range.end.saturating_sub(run)..range.end] {
                    if is_mark(&mark) {
                        found.emphasis.push(mark);
                    }
                }
            }
            Event::Start(Tag::HtmlBlock) if text[range.clone()].trim_start().starts_with("<!--") => found.comments.push(range),
            Event::InlineHtml(html) if html.starts_with("<!--") => found.comments.push(range),
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => found.headings.extend(heading.take()),
            Event::Text(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            _ => {}
        }
    }
    found.links.extend(definitions.into_iter().filter_map(|span| definition_destination(text, span)));
    found.links.sort_by_key(|l| l.span.start);
    found.code.sort_by_key(|(r, _)| r.start);
    found.emphasis.sort_by_key(|r| r.start);
    found.comments.sort_by_key(|r| r.start);
    found
}

/// The destination of an inline link whose text ends at `text_end` (at its `]`) and whose whole
/// source ends at `end`: `](dest` or `](<dest>`, up to a space or the last `)`. Only the link's
/// own source is read, so the work over a text stays linear.
fn inline_destination(text: &str, text_end: usize, end: usize) -> Option<Link> {
    let source = text.get(text_end..end)?;
    let open = source.find("](")? + 2;
    let after = &source[open..];
    let start = text_end + open + (after.len() - after.trim_start().len());
    let rest = &text[start..end];
    if let Some(inner) = rest.strip_prefix('<') {
        let close = inner.find('>')?;
        return Some(Link { dest: inner[..close].to_string(), span: start + 1..start + 1 + close });
    }
    let (mut depth, mut escaped) = (0usize, false);
    let mut len = rest.len().saturating_sub(1);
    for (i, c) in rest.char_indices() {
        if std::mem::take(&mut escaped) {
            continue;
        }
        match c {
            '\\' => escaped = true,
            '(' => depth += 1,
            ')' if depth == 0 => {
                len = i;
                break;
            }
            ')' => depth -= 1,
            c if c.is_whitespace() => {
                len = i;
                break;
            }
            _ => {}
        }
    }
    Some(Link { dest: rest[..len].to_string(), span: start..start + len })
}

/// The destination of a link reference definition (`[label]: dest "title"`) whose source is `span`.
fn definition_destination(text: &str, span: Range<usize>) -> Option<Link> {
    let source = text.get(span.clone())?;
    let bytes = source.as_bytes();
    let colon = (1..bytes.len()).find(|&i| bytes[i] == b':' && bytes[i - 1] == b']' && bytes.get(i.wrapping_sub(2)) != Some(&b'\\'))?;
    let after = &source[colon + 1..];
    let start = span.start + colon + 1 + (after.len() - after.trim_start().len());
    let rest = &text[start..span.end];
    if let Some(inner) = rest.strip_prefix('<') {
        let close = inner.find('>')?;
        return Some(Link { dest: inner[..close].to_string(), span: start + 1..start + 1 + close });
    }
    let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
    Some(Link { dest: rest[..len].to_string(), span: start..start + len })
}

/// The text with the given byte ranges replaced by spaces (line breaks kept), so byte offsets
/// into the result are offsets into the original.
fn blank_ranges<'a>(text: &str, ranges: impl Iterator<Item = &'a Range<usize>>) -> String {
    let mut out = text.as_bytes().to_vec();
    for range in ranges {
        for byte in &mut out[range.start.min(text.len())..range.end.min(text.len())] {
            if *byte != b'\n' && *byte != b'\r' {
                *byte = b' ';
            }
        }
    }
    // Whole characters are blanked (ranges from the parser fall on character boundaries).
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// The text's prose: code blocks, inline code spans and HTML comments blanked (what a rule
/// looking for instructions in prose skips, every rule alike).
pub fn prose(cache: &Cache, text: &str) -> String {
    let markdown = parse(cache, text);
    blank_ranges(text, markdown.code.iter().map(|(r, _)| r).chain(&markdown.comments))
}

/// The text with emphasis delimiters blanked: `**bold**` is read as `  bold  `, so prose
/// scanned for paths and wildcards never takes a delimiter for a `*`.
pub fn mask_emphasis(cache: &Cache, text: &str) -> String {
    blank_ranges(text, parse(cache, text).emphasis.iter())
}

/// Each line of a text (with its line break) and, when it belongs to a code block (the fences
/// included), the block's info string's first word (`powershell` in ```` ```powershell ````;
/// empty for an indented block or a fence without one).
pub fn fenced_lines<'t>(cache: &Cache, text: &'t str) -> Vec<(&'t str, Option<&'t str>)> {
    let markdown = parse(cache, text);
    // The info string read from the text itself (the parser's copy lives in the memo).
    let info_of = |block: &Range<usize>| {
        let line = text[block.start..].lines().next().unwrap_or("").trim_start();
        let after = line.trim_start_matches(['`', '~']);
        match after.len() == line.len() {
            true => "",
            false => after.split_whitespace().next().unwrap_or(""),
        }
    };
    let mut blocks = markdown.code.iter().filter(|(_, block)| *block).map(|(r, _)| (r, info_of(r))).peekable();
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let end = start + line.len();
        while blocks.peek().is_some_and(|(r, _)| r.end <= start) {
            blocks.next();
        }
        let info = blocks.peek().filter(|(r, _)| r.start < end.max(start + 1) && start < r.end).map(|(_, i)| *i);
        lines.push((line, info));
        start = end;
    }
    lines
}

/// The lines of a text (with their line breaks) that are prose, each with its byte offset: the
/// lines of code blocks (fences included) and of HTML comment blocks are left out, as a renderer
/// shows them, for every rule alike.
pub fn prose_lines<'t>(cache: &Cache, text: &'t str) -> Vec<(usize, &'t str)> {
    let markdown = parse(cache, text);
    let mut skipped: Vec<&Range<usize>> =
        markdown.code.iter().filter(|(_, block)| *block).map(|(r, _)| r).chain(&markdown.comments).collect();
    skipped.sort_by_key(|r| r.start);
    let mut skipped = skipped.into_iter().peekable();
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        // Where the line's text begins: a fence indented in a list item starts after its indent.
        let first = start + (line.len() - line.trim_start().len());
        while skipped.peek().is_some_and(|r| r.end <= first) {
            skipped.next();
        }
        if skipped.peek().is_none_or(|r| r.start > first) {
            lines.push((start, line));
        }
        start += line.len();
    }
    lines
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
        let masked = prose(&Cache::default(), text);
        assert_eq!(masked.len(), text.len());
        assert!(masked.contains("{x}") && masked.contains("{w}"));
        assert!(!masked.contains("{y}") && !masked.contains("{z}"));
    }

    #[test]
    fn prose_skips_code_and_comments() {
        let text = "a\n<!--\n```md\nTODO\n```\n-->\n- x\n  ```sh\n  run\n  ```\nb <!-- c -->\n";
        let kept: Vec<&str> = prose_lines(&Cache::default(), text).into_iter().map(|(at, line)| &text[at..at + line.len()]).collect();
        assert_eq!(kept, ["a\n", "- x\n", "b <!-- c -->\n"]);
        assert_eq!(prose(&Cache::default(), "b <!-- c --> `d`\n"), format!("b{}\n", " ".repeat(15)));
    }

    #[test]
    fn tells_emphasis_from_wildcards() {
        let text = "**Use the bundle** and `rules/bundle-*.md`, or *one* of shared/*.md\n";
        let masked = mask_emphasis(&Cache::default(), text);
        assert_eq!(masked, "  Use the bundle   and `rules/bundle-*.md`, or  one  of shared/*.md\n");
    }

    #[test]
    fn finds_links_definitions_and_fenced_lines() {
        let text = "---\ndescription: see [x](front.md)\n---\n[a](docs/a.md) ![b](<img b.png> \"t\") `[c](c.md)`\n```sh\n[d](d.md)\n```\n\n[e]: e.md\n[f](x.md (y)) [g][e] [h]()\n";
        let found: Vec<(String, &str)> =
            parse(&Cache::default(), text).links.iter().map(|l| (l.dest.clone(), &text[l.span.clone()])).collect();
        let dests: Vec<&str> = found
            .iter()
            .map(|(d, s)| {
                assert_eq!(d, s);
                d.as_str()
            })
            .collect();
        assert_eq!(dests, ["docs/a.md", "img b.png", "e.md", "x.md", ""]);
        let fenced: Vec<Option<&str>> = fenced_lines(&Cache::default(), text).into_iter().map(|(_, info)| info).collect();
        assert_eq!(fenced[3..8], [None, Some("sh"), Some("sh"), Some("sh"), None]);
        assert_eq!(parse(&Cache::default(), "# Run `cargo test` *fast*\nTitle\n===\n").headings, ["Run cargo test fast", "Title"]);
    }

    #[test]
    fn splits_paragraphs() {
        let text = "one\ntwo\n\n\nthree\n";
        assert_eq!(paragraphs(text), vec![(0, "one\ntwo"), (10, "three")]);
    }
}

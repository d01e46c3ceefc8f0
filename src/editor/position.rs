//! Places in a text as editors count them: zero-based lines and columns in UTF-16 code units
//! (the Language Server Protocol's default), to and from byte offsets.

/// A zero-based line and UTF-16 column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

impl Range {
    pub fn overlaps(&self, other: &Range) -> bool {
        self.start <= other.end && other.start <= self.end
    }
}

/// Where each line of a text starts, for placing many offsets in one text.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Lines { text, starts }
    }

    /// The position of a byte offset (clamped to the text, moved back to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let character = self.text[self.starts[line]..offset].encode_utf16().count();
        Position { line: line as u32, character: character as u32 }
    }

    /// The range of a byte span, in order whatever the span's (an editor refuses a range that
    /// ends before it starts, such as a template engine's `7..6` at the end of a block).
    pub fn range(&self, span: &std::ops::Range<usize>) -> Range {
        Range { start: self.position(span.start.min(span.end)), end: self.position(span.start.max(span.end)) }
    }

    /// The byte offset of a position; a column past the line's end is its end, a line past the
    /// text's end is the text's end.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else { return self.text.len() };
        let end = self.starts.get(position.line as usize + 1).map_or(self.text.len(), |next| next - 1);
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

/// The token under a byte offset: the quoted string it is in (without the quotes), else the run
/// of name and path characters around it; with its byte range.
pub fn word_at(text: &str, offset: usize) -> Option<(&str, std::ops::Range<usize>)> {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[line_start..line_end];
    let at = offset - line_start;
    // Quoted strings of the line, as pairs of quote positions.
    let quotes: Vec<usize> = line.match_indices(['"', '\'']).map(|(i, _)| i).collect();
    for pair in quotes.chunks(2) {
        if let [open, close] = pair {
            if *open < at && at <= *close {
                return Some((&line[open + 1..*close], line_start + open + 1..line_start + close));
            }
        }
    }
    let is_word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let start = line[..at].rfind(|c: char| !is_word(c)).map_or(0, |i| i + 1);
    let end = line[at..].find(|c: char| !is_word(c)).map_or(line.len(), |i| at + i);
    (start < end).then(|| (&line[start..end], line_start + start..line_start + end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_given_backwards_becomes_a_range_in_order() {
        let lines = Lines::new("{% if x %}\nbody é\n");
        // Spans as a template engine may give them, end before start.
        for (start, end) in [(7, 6), (6, 7), (14, 11), (100, 0), (17, 16)] {
            let span = start..end;
            let range = lines.range(&span);
            assert!(range.start <= range.end, "{span:?} -> {range:?}");
        }
        let backwards = std::ops::Range { start: 7, end: 6 };
        assert_eq!(lines.range(&backwards), lines.range(&(6..7)));
    }

    #[test]
    fn columns_are_utf16_units() {
        let text = "a = \"é😀x\"\nsecond\n";
        let lines = Lines::new(text);
        let x = text.find('x').expect("x");
        assert_eq!(lines.position(x), Position { line: 0, character: 8 }, "é is one unit, 😀 two");
        assert_eq!(lines.offset(Position { line: 0, character: 8 }), x);
        assert_eq!(lines.position(text.find("second").expect("line 2")), Position { line: 1, character: 0 });
        assert_eq!(lines.offset(Position { line: 9, character: 0 }), text.len());
        assert_eq!(lines.offset(Position { line: 1, character: 99 }), text.len() - 1, "end of the line");
    }

    #[test]
    fn words_are_quoted_strings_or_names() {
        let text = "source = \"prompts/core.md\"\n[modules.core]\n";
        let inside = text.find("core.md").expect("path");
        assert_eq!(word_at(text, inside).map(|w| w.0), Some("prompts/core.md"));
        let table = text.find("core]").expect("table");
        assert_eq!(word_at(text, table).map(|w| w.0), Some("modules.core"));
        assert_eq!(word_at(text, 6).map(|w| w.0), Some("source"));
        assert_eq!(word_at(text, 7), None, "at `=`");
    }
}

//! All YAML parsing lives here: YAML manifests and SKILL.md frontmatter. Errors come back with a
//! byte offset into the text that was given, so callers can point at the right line.

use std::cell::Cell;
use std::ops::Range;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};

/// Deepest nesting of flow collections (`[` and `{`) a document may have. The YAML parser's work
/// grows with the square of this depth (100k levels took over 20 s); serde's recursion limit
/// (128 levels) rejects deeper documents anyway, but only after parsing them.
pub const MAX_FLOW_DEPTH: usize = 128;
/// Values a document may expand to through aliases: one per two bytes of text, and at least this
/// many. A few anchors can otherwise describe billions of values ("billion laughs").
pub const MIN_VALUE_LIMIT: usize = 10_000;

#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    pub message: String,
    /// Byte offset into the parsed text, when the parser knows where it failed.
    pub offset: Option<usize>,
}

fn convert_error(err: serde_yaml::Error, text: &str) -> YamlError {
    let mut message = err.to_string();
    // serde_yaml's own alias guard ("repetition limit exceeded") has no position: the first alias is
    // where the expansion starts.
    let offset = err
        .location()
        .map(|loc| loc.index().min(text.len()))
        .or_else(|| message.contains("repetition").then(|| first_alias(text)).flatten());
    // serde_yaml appends "at line L column C"; we report the position ourselves.
    if let Some(cut) = message.rfind(" at line ") {
        message.truncate(cut);
    }
    YamlError { message, offset }
}

/// Parses a whole YAML document into a typed value.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    check_limits(text)?;
    serde_yaml::from_str(text).map_err(|e| convert_error(e, text))
}

/// Refuses a document nested too deeply or expanding through aliases to too many values, with the
/// place, before anything is built from it.
fn check_limits(text: &str) -> Result<(), YamlError> {
    if let Some(offset) = too_deep(text) {
        return Err(YamlError { message: format!("collections nested more than {MAX_FLOW_DEPTH} levels deep"), offset: Some(offset) });
    }
    let remaining = Cell::new((text.len() / 2).max(MIN_VALUE_LIMIT));
    Counter(&remaining).deserialize(serde_yaml::Deserializer::from_str(text)).map_err(|e| convert_error(e, text))
}

/// Where flow collections first nest more than [`MAX_FLOW_DEPTH`] deep. The count may be too high
/// (a `[` inside plain or block-scalar text counts) but never too low: only comments and quoted
/// strings that start where a value can start are skipped, and a skipped quote ends at its line.
fn too_deep(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    // The last byte that was not a space on this line, and whether a space followed it.
    let (mut last, mut spaced) = (b'\n', true);
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        match byte {
            b' ' | b'\t' | b'\r' => {
                spaced = true;
                i += 1;
                continue;
            }
            b'\n' => {
                (last, spaced) = (b'\n', true);
                i += 1;
                continue;
            }
            b'#' if spaced => {
                i = bytes[i..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'"' | b'\'' if matches!(last, b'\n' | b'[' | b'{' | b',') || (spaced && matches!(last, b':' | b'-' | b'?')) => {
                i = quote_end(bytes, i);
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        (last, spaced) = (byte, false);
        i += 1;
    }
    None
}

/// The index of the quote closing the one at `open`, or of the end of its line.
fn quote_end(bytes: &[u8], open: usize) -> usize {
    let quote = bytes[open];
    let mut i = open + 1;
    while i < bytes.len() && bytes[i] != b'\n' {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            b if b == quote => return i,
            _ => i += 1,
        }
    }
    i.min(bytes.len()).saturating_sub(1).max(open)
}

/// The first alias (`*name` where a value starts).
fn first_alias(text: &str) -> Option<usize> {
    text.match_indices('*').map(|(i, _)| i).find(|&i| {
        let before = text[..i].trim_end_matches([' ', '\t']);
        let follows = text[i + 1..].chars().next().is_some_and(|c| !c.is_whitespace());
        follows && (before.is_empty() || before.ends_with(['\n', ':', '-', '[', '{', ',', '?']))
    })
}

/// Visits a whole document, aliases expanded, counting values down from the budget it holds; fails
/// at the value that exhausts it.
struct Counter<'a>(&'a Cell<usize>);

impl Counter<'_> {
    fn take<E: de::Error>(&self) -> Result<(), E> {
        match self.0.get().checked_sub(1) {
            Some(left) => {
                self.0.set(left);
                Ok(())
            }
            None => Err(E::custom("aliases (`*name`) expand the document to too many values")),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Counter<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Counter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.take()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.take()
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.take()
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.take()
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.take()
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.take()
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.take()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.take()?;
        while seq.next_element_seed(Counter(self.0))?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.take()?;
        while map.next_key_seed(Counter(self.0))?.is_some() {
            map.next_value_seed(Counter(self.0))?;
        }
        Ok(())
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        // A tagged value (`!tag value`): the tag, then the value.
        let ((), value) = data.variant_seed(Counter(self.0))?;
        value.newtype_variant_seed(Counter(self.0))
    }
}

/// Where a top-level frontmatter key and its value are written (byte ranges into the file).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSpan {
    pub key: String,
    pub key_span: Range<usize>,
    /// The value as written on the key's line (a quoted value with its quotes, a flow collection
    /// whole); the key's span when the value starts below it (block scalars and collections) or
    /// is empty.
    pub value_span: Range<usize>,
    /// Where the last thing written in the value ends (the key's end when the value is empty):
    /// the entry runs from `key_span.start` to here, whatever lines its value takes.
    pub end: usize,
    /// When the value is a block mapping: each of its keys whose value is a plain scalar on the
    /// key's line (no anchor, no tag), with that value's range (`version: 1.0` under `metadata:`).
    pub plain_members: Vec<(String, Range<usize>)>,
    /// When the value is a sequence: where each item is written, in order (a scalar whole, a
    /// quoted one with its quotes, an anchored one with its anchor; a collection or an alias where
    /// it starts).
    pub items: Vec<Range<usize>>,
}

/// The parts of a Markdown file with `---` YAML frontmatter.
#[derive(Debug, Clone, PartialEq)]
pub struct Frontmatter {
    /// Top-level keys in document order, with values converted to JSON values.
    pub fields: Vec<(String, serde_json::Value)>,
    /// Where each top-level key and value is written, in document order.
    pub spans: Vec<FieldSpan>,
    /// Each key's first entry in `spans`, so that locating every key costs a lookup each.
    span_of: std::collections::HashMap<String, usize>,
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

/// The length of a UTF-8 byte-order mark at the start of a text (0 without one). Editors on
/// Windows write one before `---`; YAML 1.2 allows it at the start of a stream (§5.2), and the
/// frontmatter after it is read, not reported missing.
pub fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

/// Splits and parses frontmatter. Offsets in errors are relative to the whole file.
pub fn frontmatter(text: &str) -> Result<Frontmatter, FrontmatterError> {
    let bom = bom_len(text);
    let first_line_end = text[bom..].find('\n').map_or(text.len(), |i| bom + i + 1);
    if text[bom..first_line_end].trim_end() != "---" {
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
    let value: serde_yaml::Value =
        if yaml.trim().is_empty() { serde_yaml::Value::Mapping(Default::default()) } else { from_str(yaml).map_err(shift)? };
    let serde_yaml::Value::Mapping(mapping) = value else {
        return Err(shift(YamlError { message: "frontmatter must be a mapping of keys to values".into(), offset: Some(0) }));
    };
    let mut fields = Vec::new();
    for (key, value) in mapping {
        let serde_yaml::Value::String(key) = key else {
            return Err(shift(YamlError { message: "frontmatter keys must be strings".into(), offset: Some(0) }));
        };
        let value =
            serde_json::to_value(&value).map_err(|e| shift(YamlError { message: format!("value of `{key}`: {e}"), offset: Some(0) }))?;
        fields.push((key, value));
    }
    let spans = field_spans(yaml, yaml_offset);
    let mut span_of = std::collections::HashMap::new();
    for (i, span) in spans.iter().enumerate() {
        span_of.entry(span.key.clone()).or_insert(i);
    }
    Ok(Frontmatter { fields, spans, span_of, yaml_offset, body_offset })
}

impl Frontmatter {
    /// Where a top-level key is written.
    pub fn field_span(&self, key: &str) -> Option<&FieldSpan> {
        self.spans.get(*self.span_of.get(key)?)
    }
}

/// Character offsets (what the event parser's markers count) turned into byte offsets.
struct CharOffsets(Option<Vec<usize>>);

impl CharOffsets {
    fn of(text: &str) -> CharOffsets {
        CharOffsets((!text.is_ascii()).then(|| text.char_indices().map(|(i, _)| i).chain([text.len()]).collect()))
    }

    fn byte(&self, char_index: usize) -> usize {
        match &self.0 {
            None => char_index,
            Some(bytes) => bytes.get(char_index).or(bytes.last()).copied().unwrap_or(0),
        }
    }

    fn range(&self, span: Span, shift: usize) -> Range<usize> {
        shift + self.byte(span.start.index())..shift + self.byte(span.end.index()).max(self.byte(span.start.index()))
    }
}

/// The key and value spans of a YAML mapping's top-level entries, from the event parser's markers
/// (`shift`: where `yaml` starts in the file). Empty when the text is not a mapping the parser
/// accepts (serde_yaml decides validity; a disagreement only costs the positions).
fn field_spans(yaml: &str, shift: usize) -> Vec<FieldSpan> {
    let mut reader = FieldReader {
        yaml,
        shift,
        offsets: CharOffsets::of(yaml),
        spans: Vec::new(),
        flow: Vec::new(),
        block_mapping: false,
        member: None,
        sequence: false,
        open: None,
    };
    for event in Parser::new_from_str(yaml) {
        let Ok((event, span)) = event else { return Vec::new() };
        let read = match event {
            Event::MappingStart(..) => reader.collection_start(true, span),
            Event::SequenceStart(..) => reader.collection_start(false, span),
            Event::MappingEnd | Event::SequenceEnd => {
                reader.collection_end(span);
                Some(())
            }
            Event::Scalar(value, style, anchor, tag) => {
                reader.scalar(value.into_owned(), style, anchor != 0 || tag.is_some(), span);
                Some(())
            }
            Event::Alias(..) => reader.alias(span),
            _ => Some(()),
        };
        if read.is_none() {
            return Vec::new();
        }
    }
    reader.spans
}

/// The state of [`field_spans`] between two events. Depth counts the open collections before the
/// event: 1 inside the top-level mapping, 2 inside an entry's value.
struct FieldReader<'y> {
    yaml: &'y str,
    shift: usize,
    offsets: CharOffsets,
    spans: Vec<FieldSpan>,
    /// Whether each open collection is a flow one (`[`, `{`); the first is the top-level mapping.
    flow: Vec<bool>,
    /// Whether the entry's value is a block mapping, and the key of its member being read (with
    /// its line).
    block_mapping: bool,
    member: Option<(String, usize)>,
    /// Whether the entry's value is a sequence (its items are then recorded).
    sequence: bool,
    /// The entry being read: its key, the key's line, and where a collection value started.
    open: Option<(FieldSpan, usize, Option<Span>)>,
}

impl FieldReader<'_> {
    /// `None` when the document is not a mapping.
    fn collection_start(&mut self, mapping: bool, span: Span) -> Option<()> {
        let depth = self.flow.len();
        if depth == 0 && !mapping {
            return None;
        }
        let at = self.offsets.range(span, 0).start;
        let is_flow = matches!(self.yaml.as_bytes().get(at), Some(b'[' | b'{'));
        if let (1, Some((_, _, start))) = (depth, self.open.as_mut()) {
            *start = Some(span);
            (self.block_mapping, self.member, self.sequence) = (!is_flow && mapping, None, !mapping);
        }
        if let (2, true, Some((field, ..))) = (depth, self.sequence, self.open.as_mut()) {
            field.items.push(at + self.shift..at + self.shift + 1);
        }
        if depth == 2 {
            self.member = None;
        }
        self.flow.push(is_flow);
        Some(())
    }

    fn collection_end(&mut self, span: Span) {
        let depth = self.flow.len();
        // A block collection's end is marked where the next token starts; a flow one's event
        // starts at its closing bracket (and runs on over the spaces and comment after it).
        let closing = self.flow.pop().unwrap_or(false).then(|| self.offsets.range(span, self.shift).start + 1);
        if let (Some(end), Some((field, ..))) = (closing, self.open.as_mut()) {
            field.end = field.end.max(end);
        }
        if depth != 2 {
            return;
        }
        if let Some((mut field, line, Some(start))) = self.open.take() {
            // A flow collection (`[a, b]`) on the key's line is the value; a block one starts below.
            if let (true, Some(end)) = (start.start.line() == line, closing) {
                field.value_span = self.offsets.range(start, self.shift).start..end;
            }
            self.spans.push(field);
        }
    }

    /// `decorated`: the scalar has an anchor or a tag.
    fn scalar(&mut self, value: String, style: ScalarStyle, decorated: bool, span: Span) {
        let depth = self.flow.len();
        let (yaml, shift) = (self.yaml, self.shift);
        let mut range = self.offsets.range(span, shift);
        // A quoted scalar's span runs on over the spaces and comment after its closing quote
        // (an anchor or a tag may come before the opening one).
        let quote = yaml[range.start - shift..range.end - shift].find(['"', '\'']);
        if let (true, Some(quote)) = (matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted), quote) {
            range.end = quote_end(yaml.as_bytes(), range.start - shift + quote) + 1 + shift;
        }
        if let (2, true, Some((field, ..))) = (depth, self.sequence, self.open.as_mut()) {
            field.items.push(range.clone());
        }
        if depth != 1 {
            let plain = style == ScalarStyle::Plain && !decorated;
            self.nested_scalar(value, plain, range, span.start.line());
            return;
        }
        match self.open.take() {
            None => {
                let key_span = self.offsets.range(span, shift);
                let field = FieldSpan {
                    key: value,
                    value_span: key_span.clone(),
                    end: key_span.end,
                    key_span,
                    plain_members: Vec::new(),
                    items: Vec::new(),
                };
                self.open = Some((field, span.start.line(), None));
            }
            Some((mut field, line, _)) => {
                let block = matches!(style, ScalarStyle::Literal | ScalarStyle::Folded);
                if span.start.line() == line && !block && !range.is_empty() {
                    field.value_span = range.clone();
                }
                if !range.is_empty() {
                    field.end = field.end.max(range.end);
                }
                self.spans.push(field);
            }
        }
    }

    /// A scalar inside an entry's value: the entry runs on to it, and a block mapping's plain
    /// members on their key's line are recorded.
    fn nested_scalar(&mut self, value: String, plain: bool, range: Range<usize>, line: usize) {
        let in_block_mapping = self.flow.len() == 2 && self.block_mapping;
        let Some((field, ..)) = self.open.as_mut() else { return };
        if range.is_empty() {
            // An empty key or value.
            if in_block_mapping {
                self.member = match self.member.take() {
                    None => Some((value, line)),
                    Some(_) => None,
                };
            }
            return;
        }
        field.end = field.end.max(range.end);
        if in_block_mapping {
            match self.member.take() {
                None => self.member = Some((value, line)),
                Some((key, key_line)) => {
                    if plain && !key.is_empty() && line == key_line {
                        field.plain_members.push((key, range));
                    }
                }
            }
        }
    }

    /// `None` for an alias as a top-level key (no name to give it).
    fn alias(&mut self, span: Span) -> Option<()> {
        let depth = self.flow.len();
        let range = self.offsets.range(span, self.shift);
        if let (2, true, Some((field, ..))) = (depth, self.sequence, self.open.as_mut()) {
            field.items.push(range.clone());
        }
        if depth != 1 {
            if let Some((field, ..)) = self.open.as_mut() {
                field.end = field.end.max(range.end);
            }
            if depth == 2 && self.block_mapping {
                // An alias as a member's key (unnamed here) or as its value.
                self.member = match self.member.take() {
                    None => Some((String::new(), span.start.line())),
                    Some(_) => None,
                };
            }
            return Some(());
        }
        let (mut field, line, _) = self.open.take()?;
        if span.start.line() == line {
            field.value_span = range.clone();
        }
        field.end = field.end.max(range.end);
        self.spans.push(field);
        Some(())
    }
}

/// A key or a value written in a document: for a value, the key it is the value of (none in a
/// sequence) and its text (empty for a collection or an alias); for a key, its name. With where it
/// is written, and whether it is quoted.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    pub key: Option<String>,
    pub value: String,
    /// A quoted scalar with its quotes; a flow collection whole; a block collection or an alias
    /// at its key.
    pub span: Range<usize>,
    pub quoted: bool,
    pub is_key: bool,
    /// How many collections hold it: 1 for the keys and values of a top-level mapping.
    pub depth: usize,
}

/// Every key and value of a YAML text with its place, in document order, from the event parser's marks.
/// Empty when the text nests too deeply or is not YAML the parser reads to the end (validity is
/// serde_yaml's to decide; a disagreement only costs the places).
pub fn written_values(text: &str) -> Vec<Written> {
    if too_deep(text).is_some() {
        return Vec::new();
    }
    let offsets = CharOffsets::of(text);
    let mut reader = ValueReader { text, values: Vec::new(), stack: Vec::new() };
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else { return Vec::new() };
        let range = offsets.range(span, 0);
        match event {
            Event::Scalar(value, style, ..) => reader.scalar(value.into_owned(), style, range),
            Event::Alias(..) => reader.alias(range),
            Event::MappingStart(..) => reader.collection_start(true, range),
            Event::SequenceStart(..) => reader.collection_start(false, range),
            Event::MappingEnd | Event::SequenceEnd => {
                // A flow collection's end event starts at its closing bracket.
                if let Some(OpenCollection { value: Some(i), .. }) = reader.stack.pop() {
                    reader.values[i].span.end = (range.start + 1).max(reader.values[i].span.start);
                }
            }
            _ => {}
        }
    }
    let mut values = reader.values;
    values.sort_by_key(|w| w.span.start);
    values
}

/// The state of [`written_values`] between two events.
struct ValueReader<'t> {
    text: &'t str,
    values: Vec<Written>,
    stack: Vec<OpenCollection>,
}

/// A collection being read: whether it is a mapping, the key read and waiting for its value,
/// and the entry of a flow collection that is a value (finished at its closing bracket).
struct OpenCollection {
    mapping: bool,
    key: Option<(String, Range<usize>)>,
    value: Option<usize>,
}

impl ValueReader<'_> {
    fn scalar(&mut self, value: String, style: ScalarStyle, mut range: Range<usize>) {
        let depth = self.stack.len();
        let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
        if let (true, Some(quote)) = (quoted, self.text[range.clone()].find(['"', '\''])) {
            range.end = quote_end(self.text.as_bytes(), range.start + quote) + 1;
        }
        match self.stack.last_mut() {
            Some(open @ OpenCollection { mapping: true, key: None, .. }) => {
                self.values.push(Written { key: None, value: value.clone(), span: range.clone(), quoted, is_key: true, depth });
                open.key = Some((value, range));
            }
            Some(open) => {
                let key = open.key.take().map(|(k, _)| k);
                self.values.push(Written { key, value, span: range, quoted, is_key: false, depth });
            }
            None => self.values.push(Written { key: None, value, span: range, quoted, is_key: false, depth: 0 }),
        }
    }

    fn alias(&mut self, range: Range<usize>) {
        let depth = self.stack.len();
        match self.stack.last_mut() {
            Some(open @ OpenCollection { mapping: true, key: None, .. }) => open.key = Some((String::new(), range)),
            Some(open) => {
                let key = open.key.take();
                let span = key.as_ref().map_or(range, |(_, at)| at.clone());
                self.values.push(Written { key: key.map(|(k, _)| k), value: String::new(), span, quoted: false, is_key: false, depth });
            }
            None => {}
        }
    }

    fn collection_start(&mut self, mapping: bool, range: Range<usize>) {
        let depth = self.stack.len();
        let flow = matches!(self.text.as_bytes().get(range.start), Some(b'[' | b'{'));
        let mut value = None;
        if let Some(open) = self.stack.last_mut() {
            match open.key.take() {
                // A collection as a key: no name to give it.
                None if open.mapping => open.key = Some((String::new(), range.clone())),
                key => {
                    let span = match (&key, flow) {
                        (Some((_, at)), false) => at.clone(),
                        _ => range.start..range.start,
                    };
                    value = flow.then_some(self.values.len());
                    self.values.push(Written { key: key.map(|(k, _)| k), value: String::new(), span, quoted: false, is_key: false, depth });
                }
            }
        }
        self.stack.push(OpenCollection { mapping, key: None, value });
    }
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
    fn spans_of_keys_and_values_come_from_the_parser() {
        let text = "---\nglobs: \ndescription: \"Héllo\" # note\ntags: [a, b]\nlist:\n  - x\nbody: >-\n  Folded.\nname: 'ü x'\n---\n";
        let fm = frontmatter(text).expect("valid");
        let span = |key: &str| fm.field_span(key).map(|f| (&text[f.key_span.clone()], &text[f.value_span.clone()]));
        // An empty value followed by a space (older Cursor files write `globs: `): the key.
        assert_eq!(span("globs"), Some(("globs", "globs")));
        assert_eq!(span("description"), Some(("description", "\"Héllo\"")));
        assert_eq!(span("tags"), Some(("tags", "[a, b]")));
        assert_eq!(span("list"), Some(("list", "list")), "a block list starts below its key");
        assert_eq!(span("body"), Some(("body", "body")), "so does a block scalar");
        assert_eq!(span("name"), Some(("name", "'ü x'")));
        assert_eq!(fm.spans.len(), fm.fields.len());
        let text = "---\nhandoffs:\n  - label: a\n    agent: b\n  - {label: c}\nafter: [x]  # c\n---\n";
        let keys: Vec<&str> = frontmatter(text).expect("valid").spans.iter().map(|f| &text[f.value_span.clone()]).collect();
        assert_eq!(keys, ["handoffs", "[x]"], "nested collections end where they end");
    }

    #[test]
    fn sequence_items_are_where_they_are_written_in_order() {
        let text = "---\ntools: ['search', fetch, \"search\" , {a: 1}, [b], ~, &x y, *x]\nlist:\n  - a # c\n  - - nested\n  -\n  - 'z'\nname: x\n---\n";
        let fm = frontmatter(text).expect("valid");
        let items = |key: &str| fm.field_span(key).expect("a field").items.iter().map(|r| &text[r.clone()]).collect::<Vec<_>>();
        assert_eq!(items("tools"), ["'search'", "fetch", "\"search\"", "{", "[", "~", "&x y", "*x"]);
        // A null item written as nothing is an empty range where it would be.
        assert_eq!(items("list"), ["a", "-", "", "'z'"]);
        assert!(items("name").is_empty());
        let json = fm.fields.iter().find(|(k, _)| k == "tools").map(|(_, v)| v.as_array().map(Vec::len));
        assert_eq!(json, Some(Some(8)), "one item span per item of the value");
    }

    #[test]
    fn entries_end_where_their_values_end() {
        let text = "---\nlist:\n  - x\n  - \"y\" # c\n\n# a comment\nblock: |\n  a\n\nflow: {a: [1]}  # c\nempty:\nmeta:\n  v: 1.0\n  q: \"2\"\n  n: &a 3\n  t: !x 4\n  *a : 5\n  e:\n  w: 6 # c\n  deep: {x: 1}\n  z: 7\n---\n";
        let fm = frontmatter(text).expect("valid");
        let entry = |key: &str| fm.field_span(key).map(|f| &text[f.key_span.start..f.end]);
        assert_eq!(entry("list"), Some("list:\n  - x\n  - \"y\""), "the comments after the value are not in it");
        assert_eq!(entry("block").map(str::trim_end), Some("block: |\n  a"));
        assert_eq!(entry("flow"), Some("flow: {a: [1]}"));
        assert_eq!(entry("empty"), Some("empty"));
        let members: Vec<(&str, &str)> =
            fm.field_span("meta").expect("meta").plain_members.iter().map(|(k, r)| (k.as_str(), &text[r.clone()])).collect();
        assert_eq!(members, [("v", "1.0"), ("w", "6"), ("z", "7")], "plain one-line values only, paired with their keys");
        assert!(fm.field_span("list").expect("list").plain_members.is_empty());
    }

    #[test]
    fn reports_errors_with_file_offsets() {
        assert_eq!(frontmatter("# no frontmatter"), Err(FrontmatterError::Missing));
        // A byte-order mark before `---` (a file saved by a Windows editor) is no missing frontmatter.
        let text = "\u{feff}---\nname: a\n---\nBody\n";
        let fm = frontmatter(text).expect("frontmatter after a BOM");
        assert_eq!((&fm.fields[0].0[..], &text[fm.body_offset..]), ("name", "Body\n"));
        assert_eq!(&text[fm.field_span("name").expect("span").key_span.clone()], "name");
        assert_eq!(frontmatter("---\nname: a\n"), Err(FrontmatterError::Unterminated));
        let text = "---\nname: a\ndescription: [unclosed\n---\n";
        let Err(FrontmatterError::Invalid(e)) = frontmatter(text) else { panic!("expected invalid") };
        assert!(e.offset.expect("offset") >= 4, "{e:?}");
    }

    #[test]
    fn refuses_deep_flow_nesting_where_it_passes_the_limit() {
        let text = format!("a: {}\n", "[".repeat(100_000));
        let e = from_str::<serde_yaml::Value>(&text).expect_err("too deep");
        assert_eq!(e.offset, Some(3 + MAX_FLOW_DEPTH), "{e:?}");
        assert!(e.message.contains("nested more than 128"), "{e:?}");
        // At the limit, and brackets inside quotes and comments, are fine.
        let ok =
            format!("a: {}{}\nb: \"{}\" # {}\n", "[".repeat(MAX_FLOW_DEPTH), "]".repeat(MAX_FLOW_DEPTH), "[".repeat(200), "{".repeat(200));
        assert_eq!(too_deep(&ok), None, "counted too deep");
    }

    #[test]
    fn a_quote_inside_a_plain_value_hides_no_bracket() {
        // `-"` in flow context is a plain value: the brackets after it nest.
        let text = format!("a: [-\"{}\n", "[".repeat(200));
        assert!(too_deep(&text).is_some());
        let text = format!("a: it's {}\n", "[".repeat(200));
        assert!(too_deep(&text).is_some());
    }

    #[test]
    fn refuses_alias_expansion_past_the_budget_with_a_place() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..8 {
            text.push_str(&format!("a{i}: &a{i} [{}]\n", vec![format!("*a{}", i - 1); 10].join(", ")));
        }
        let e = frontmatter(&format!("---\nname: x\n{text}---\n")).expect_err("expands too much");
        let FrontmatterError::Invalid(e) = e else { panic!("{e:?}") };
        assert!(e.offset.is_some(), "{e:?}");
        // A few aliases are fine.
        let fm = frontmatter("---\nname: &n x\ndescription: *n\n---\n").expect("valid");
        assert_eq!(fm.fields[1].1, serde_json::json!("x"));
    }
}

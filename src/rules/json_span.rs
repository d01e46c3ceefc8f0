//! Where a value of a JSON file is written: the byte ranges of a member's key and value, found by
//! a path of object keys and array indices. serde_json keeps no positions, and findings in
//! settings, `.mcp.json` and tool files point at the key or value they are about.

use std::ops::Range;

/// One step of a path into a JSON document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Where a value is: its key (`None` for an array item or the root) and the value itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub key: Option<Range<usize>>,
    pub value: Range<usize>,
}

impl Place {
    /// The key when there is one, else the value.
    pub fn key_or_value(&self) -> Range<usize> {
        self.key.clone().unwrap_or_else(|| self.value.clone())
    }

    /// From the key (or the value) to the end of the value: a whole member.
    pub fn member(&self) -> Range<usize> {
        self.key.as_ref().map_or(self.value.start, |k| k.start)..self.value.end
    }
}

/// The place of the value at `path` in `text` (the first member when a key is repeated).
pub fn locate(text: &str, path: &[Step]) -> Option<Place> {
    let b = text.as_bytes();
    let mut at = skip_ws(b, 0);
    let mut key = None;
    for step in path {
        match (step, b.get(at)?) {
            (Step::Key(wanted), b'{') => {
                let mut i = skip_ws(b, at + 1);
                loop {
                    if b.get(i)? != &b'"' {
                        return None;
                    }
                    let key_end = string_end(b, i);
                    let value_start = skip_ws(b, skip_ws(b, key_end) + 1);
                    if serde_json::from_str::<String>(&text[i..key_end]).ok().as_deref() == Some(*wanted) {
                        key = Some(i..key_end);
                        at = value_start;
                        break;
                    }
                    i = skip_ws(b, value_end(b, value_start));
                    if b.get(i)? != &b',' {
                        return None;
                    }
                    i = skip_ws(b, i + 1);
                }
            }
            (Step::Index(wanted), b'[') => {
                let mut i = skip_ws(b, at + 1);
                for _ in 0..*wanted {
                    i = skip_ws(b, value_end(b, i));
                    if b.get(i)? != &b',' {
                        return None;
                    }
                    i = skip_ws(b, i + 1);
                }
                if matches!(b.get(i), None | Some(b']')) {
                    return None;
                }
                key = None;
                at = i;
            }
            _ => return None,
        }
    }
    Some(Place { key, value: at..value_end(b, at) })
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The end (exclusive) of the string starting with the quote at `i`.
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The end (exclusive) of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(b'"') => string_end(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            b.len()
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']') && !b[j].is_ascii_whitespace() {
                j += 1;
            }
            j
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_values_and_items() {
        let text = r#"{ "a": {"b\"": 1, "c": [true, {"d": "x,y"}, 3]}, "e": null }"#;
        let place = locate(text, &[Step::Key("a"), Step::Key("c"), Step::Index(1), Step::Key("d")]).expect("found");
        assert_eq!((&text[place.key.clone().expect("key")], &text[place.value]), ("\"d\"", "\"x,y\""));
        assert_eq!(locate(text, &[Step::Key("a"), Step::Key("b\"")]).map(|p| &text[p.value]), Some("1"));
        assert_eq!(locate(text, &[Step::Key("a"), Step::Key("c"), Step::Index(2)]).map(|p| &text[p.value]), Some("3"));
        assert_eq!(locate(text, &[Step::Key("e")]).map(|p| &text[p.member()]), Some("\"e\": null"));
        assert_eq!(locate(text, &[Step::Key("a"), Step::Key("c"), Step::Index(3)]), None);
        assert_eq!(locate(text, &[Step::Key("zz")]), None);
        assert_eq!(locate("[1,", &[Step::Index(1)]), None, "broken JSON gives no place, never a panic");
    }
}

//! A tokenizer file's content fingerprint: the SHA-256 of what decides its counts, read while the
//! file loads (no second parse), so that a file written otherwise (reformatted JSON, keys in
//! another order, a rank file with Windows line ends) is the same tokenizer and a file that
//! counts otherwise (one added token, one normalizer step, one merge more) is not.
//!
//! What is hashed, by format: a tokenizer.json's vocabulary (token → id, by id), merges in order,
//! model options, normalizer, pre-tokenizer and added tokens (not its decoder, post-processor,
//! truncation or padding, which do not change a count of text); a rank file's tokens by rank;
//! Tekken's ranks, split pattern and special-token count; a SentencePiece model's pieces (text,
//! score, type) and the trainer and normalizer options its encoding reads. Each value is written
//! with its length, so that two different contents cannot write the same bytes.
//!
//! A file's *vocabulary* fingerprint ([`vocabulary`]) is narrower: its ordinary tokens alone, each
//! with its id, so that one vocabulary is one fingerprint in every format that writes it (a rank
//! file and a byte-level tokenizer.json of Llama 3; a SentencePiece model and a tokenizer.json of
//! Gemma 3) and files that differ only in their added tokens, rules or scores share it.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// How many hex digits of the SHA-256 name a content (128 bits).
pub const DIGITS: usize = 32;

/// A content fingerprint being read: the bytes gathered in a buffer and hashed a buffer at a
/// time (a vocabulary is millions of short values, each a call of the hasher otherwise), or one
/// known already ([`Content::known`]), which hashes nothing.
pub struct Content(Hashing);

enum Hashing {
    Gathering(Sha256, Vec<u8>),
    Known(String),
}

/// The bytes gathered before they are hashed.
const BUFFER: usize = 1 << 16;

impl Content {
    /// A fingerprint of a file of `format` (so that two formats never share one).
    pub fn new(format: &str) -> Content {
        let mut content = Content(Hashing::Gathering(Sha256::new(), Vec::with_capacity(BUFFER)));
        content.text(format);
        content
    }

    /// A fingerprint known before the content is read (that of a file with a known release's
    /// bytes): what it is given is not hashed, and [`Content::finish`] gives `fingerprint`.
    pub fn known(fingerprint: &str) -> Content {
        Content(Hashing::Known(fingerprint.to_string()))
    }

    /// Whether what it is given is hashed (not for a [`Content::known`]).
    pub fn is_hashing(&self) -> bool {
        matches!(self.0, Hashing::Gathering(..))
    }

    pub fn bytes(&mut self, bytes: &[u8]) {
        self.number(bytes.len() as u64);
        self.put(bytes);
    }

    pub fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    pub fn number(&mut self, n: u64) {
        self.put(&n.to_le_bytes());
    }

    fn put(&mut self, bytes: &[u8]) {
        let Hashing::Gathering(hasher, buffer) = &mut self.0 else { return };
        if buffer.len() + bytes.len() > BUFFER {
            hasher.update(&buffer);
            buffer.clear();
        }
        match bytes.len() > BUFFER {
            true => hasher.update(bytes),
            false => buffer.extend_from_slice(bytes),
        }
    }

    /// A JSON value with its object keys sorted (the file's key order and spacing do not count).
    pub fn json(&mut self, value: &Value) {
        if !self.is_hashing() {
            return;
        }
        let mut out = String::new();
        canonical(value, &mut out);
        self.text(&out);
    }

    /// The fingerprint: [`DIGITS`] hex digits.
    pub fn finish(self) -> String {
        match self.0 {
            Hashing::Gathering(mut hasher, buffer) => {
                hasher.update(&buffer);
                hasher.finalize().iter().take(DIGITS / 2).map(|b| format!("{b:02x}")).collect()
            }
            Hashing::Known(fingerprint) => fingerprint,
        }
    }
}

/// How a vocabulary's ordinary tokens are written: as the bytes they stand for (rank files,
/// Tekken, byte-level tokenizer.json files) or as SentencePiece pieces (`▁` for a space, `<0x0A>`
/// for a byte fallen back to), which no bytes-written vocabulary can equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokens {
    Bytes,
    Pieces,
}

/// The vocabulary fingerprint of the ordinary tokens `entries` (id, token), in any order: not the
/// added, special, control or unknown ones, which a file may declare otherwise for one vocabulary.
pub fn vocabulary<T: AsRef<[u8]> + Ord>(tokens: Tokens, mut entries: Vec<(u64, T)>) -> String {
    entries.sort_unstable();
    let mut content = Content::new(match tokens {
        Tokens::Bytes => "vocabulary of bytes",
        Tokens::Pieces => "vocabulary of pieces",
    });
    content.number(entries.len() as u64);
    for (id, token) in &entries {
        content.number(*id);
        content.bytes(token.as_ref());
    }
    content.finish()
}

/// `value` as compact JSON with every object's keys sorted.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_order_and_spacing_do_not_count_and_values_do() {
        let of = |json: &str| {
            let mut content = Content::new("t");
            content.json(&serde_json::from_str(json).expect("JSON"));
            content.finish()
        };
        let a = of(r#"{"type": "NFC", "x": [1, {"b": 2, "a": "é"}]}"#);
        assert_eq!(a.len(), DIGITS);
        assert_eq!(a, of("{\"x\":[1,{\"a\":\"\\u00e9\",\"b\":2}],\n  \"type\":\"NFC\"}"));
        assert_ne!(a, of(r#"{"type": "NFC", "x": [1, {"b": 3, "a": "é"}]}"#));
        assert_ne!(a, of(r#"{"type": "NFC", "x": [{"b": 2, "a": "é"}, 1]}"#));
        // Lengths keep two values from running into one.
        let (mut ab, mut a_b) = (Content::new("t"), Content::new("t"));
        ab.text("ab");
        a_b.text("a");
        a_b.text("b");
        assert_ne!(ab.finish(), a_b.finish());
    }

    /// Gathered in a buffer or not, the same bytes hash the same: short values, values across
    /// the buffer's end and one longer than the buffer.
    #[test]
    fn the_buffer_hashes_what_it_is_given() {
        let values: Vec<Vec<u8>> = (0..20_000).map(|i| vec![i as u8; i % 13]).chain([vec![7; 3 * BUFFER], vec![1; 5]]).collect();
        let (mut content, mut plain) = (Content::new("t"), Sha256::new());
        plain.update(1u64.to_le_bytes());
        plain.update(b"t");
        for (i, value) in values.iter().enumerate() {
            content.number(i as u64);
            content.bytes(value);
            plain.update((i as u64).to_le_bytes());
            plain.update((value.len() as u64).to_le_bytes());
            plain.update(value);
        }
        let plain: String = plain.finalize().iter().take(DIGITS / 2).map(|b| format!("{b:02x}")).collect();
        assert_eq!(content.finish(), plain);
    }
}

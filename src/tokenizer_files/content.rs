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

use serde_json::Value;
use sha2::{Digest, Sha256};

/// How many hex digits of the SHA-256 name a content (128 bits).
pub const DIGITS: usize = 32;

/// A content fingerprint being read.
pub struct Content(Sha256);

impl Content {
    /// A fingerprint of a file of `format` (so that two formats never share one).
    pub fn new(format: &str) -> Content {
        let mut content = Content(Sha256::new());
        content.text(format);
        content
    }

    pub fn bytes(&mut self, bytes: &[u8]) {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    pub fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    pub fn number(&mut self, n: u64) {
        self.0.update(n.to_le_bytes());
    }

    /// A JSON value with its object keys sorted (the file's key order and spacing do not count).
    pub fn json(&mut self, value: &Value) {
        let mut out = String::new();
        canonical(value, &mut out);
        self.text(&out);
    }

    /// The fingerprint: [`DIGITS`] hex digits.
    pub fn finish(self) -> String {
        self.0.finalize().iter().take(DIGITS / 2).map(|b| format!("{b:02x}")).collect()
    }
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
}

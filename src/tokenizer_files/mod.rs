//! Open models' own tokenizer files, loaded so that their counts are exact: Hugging Face
//! `tokenizer.json` (the `tokenizers` crate, its pure-Rust regex engine), tiktoken-style rank
//! files (Llama 3 and 4 `tokenizer.model`, Qwen `*.tiktoken`: ranks read here, counted by
//! tiktoken-rs with the family's own split pattern) and Mistral's Tekken JSON (base64 ranks and
//! the split pattern of the file, ids offset by its special tokens, as mistral-common does) and
//! SentencePiece `.model` files (Mistral v1–v3, Gemma 3: [`sentencepiece`], ctxc's own encoder).
//!
//! A file is identified by what it does, not by its name: the ids it gives a fixed probe text,
//! hashed, are its vocabulary's fingerprint. `data/tokenizer-vocabularies.tsv` lists the
//! vocabularies ctxc knows with their fingerprints and the tokenizer generation
//! (`data/tokenizer-models.tsv`) each belongs to, so a file of another family (a Llama 2
//! tokenizer given for Llama 3) is refused, naming what was expected.
//!
//! Nothing here is global: a loaded file is a value the session holds for its run.

pub mod discover;
pub mod sentencepiece;

use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tiktoken_rs::CoreBPE;

use crate::models::{ModelProfile, Tokenizer};
use crate::tokens::CountTokens;

/// The largest tokenizer file ctxc reads (Gemma 3's `tokenizer.json` is 33 MB).
pub const MAX_TOKENIZER_BYTES: u64 = 64 * 1024 * 1024;

/// The text whose token ids fingerprint a vocabulary: prose, code, digits, whitespace runs,
/// accents, CJK and an emoji, so that two vocabularies that differ anywhere common differ here.
const PROBE: &str = "Fingerprint of a vocabulary: The quick brown fox jumps over 1234567 lazy dogs.\n\n\
    fn main() {\n    println!(\"{}\", x == 0x1F);\n}\n\tnaïve café — straße, Ελληνικά, русский, 日本語のテキスト, 한국어 🙂\n\
    <tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>   end.";

/// How a tokenizer file is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Hugging Face `tokenizer.json`.
    TokenizerJson,
    /// tiktoken-style ranks: one `base64 rank` line per token.
    RankFile,
    /// Mistral's Tekken JSON.
    Tekken,
    /// A SentencePiece `.model` (protobuf `ModelProto`).
    SentencePiece,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::TokenizerJson => "tokenizer.json",
            Format::RankFile => "tiktoken rank file",
            Format::Tekken => "Tekken JSON",
            Format::SentencePiece => "SentencePiece model",
        }
    }
}

/// A vocabulary ctxc knows, a row of `data/tokenizer-vocabularies.tsv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    /// Its name, which labels exact counts (`llama-3`, `qwen-2.5`, `mistral-tekken-240911`…).
    pub name: &'static str,
    /// The tokenizer generation of `data/tokenizer-models.tsv` whose models it tokenizes.
    pub generation: &'static str,
    /// For a rank file, how many ranks it holds: they do not say how to split text, so the
    /// family's split pattern goes with the count.
    pub ranks: Option<usize>,
    /// The family's split pattern, for rank files.
    pub pattern: Option<&'static str>,
    /// Whether the family's tokenizer normalizes text to NFC first (for rank files: Qwen's does).
    pub nfc: bool,
    /// The hash of the probe text's ids (see [`fingerprint`]).
    pub fingerprint: &'static str,
    /// Where installed Python packages ship a file of it, relative to `site-packages`.
    pub packaged: Vec<&'static str>,
    /// What it is, for people.
    pub description: &'static str,
}

/// Every vocabulary ctxc knows.
pub fn vocabularies() -> &'static [Vocabulary] {
    static TABLE: OnceLock<Vec<Vocabulary>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let text = include_str!("../../data/tokenizer-vocabularies.tsv");
        let mut lines = text.lines().filter(|line| !line.starts_with('#') && !line.is_empty());
        lines.next(); // the header
        lines
            .filter_map(|line| {
                let cols: Vec<&'static str> = line.split('\t').collect();
                let [name, generation, ranks, pattern, normalize, fingerprint, packaged, description] = cols[..] else { return None };
                let dash = |s: &'static str| (s != "-").then_some(s);
                Some(Vocabulary {
                    name,
                    generation,
                    ranks: dash(ranks).and_then(|r| r.parse().ok()),
                    pattern: dash(pattern),
                    nfc: normalize == "NFC",
                    fingerprint,
                    packaged: dash(packaged).map_or_else(Vec::new, |p| p.split(',').collect()),
                    description,
                })
            })
            .collect()
    })
}

/// The vocabularies of a tokenizer generation.
pub fn of_generation(generation: &str) -> Vec<&'static Vocabulary> {
    vocabularies().iter().filter(|v| v.generation == generation).collect()
}

/// A tokenizer file loaded: what counts with it, and what it was.
pub struct TokenizerFile {
    pub format: Format,
    pub vocabulary: &'static Vocabulary,
    pub fingerprint: String,
    engine: Engine,
}

impl std::fmt::Debug for TokenizerFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenizerFile").field("format", &self.format).field("vocabulary", &self.vocabulary.name).finish()
    }
}

enum Engine {
    /// Ranks counted by tiktoken-rs; `offset` is added to each rank to make the model's id
    /// (Tekken numbers its special tokens first); `nfc`: text normalized to NFC first.
    Ranks {
        bpe: CoreBPE,
        offset: u32,
        nfc: bool,
    },
    HuggingFace(Box<tokenizers::Tokenizer>),
    SentencePiece(Box<sentencepiece::Model>),
}

impl Engine {
    fn ids(&self, text: &str) -> Result<Vec<u32>, String> {
        match self {
            Engine::Ranks { bpe, offset, nfc } => Ok(bpe.encode_ordinary(&nfc_if(*nfc, text)).into_iter().map(|id| id + offset).collect()),
            Engine::HuggingFace(t) => t.encode_fast(text, false).map(|e| e.get_ids().to_vec()).map_err(|e| e.to_string()),
            Engine::SentencePiece(m) => Ok(m.encode(text)),
        }
    }
}

impl CountTokens for TokenizerFile {
    /// The model's tokens for `text`: ordinary text, no special tokens added (no BOS), as
    /// tiktoken's `encode_ordinary`, mistral-common's `encode(s, bos=False, eos=False)` and
    /// `tokenizers`' `encode(s, add_special_tokens=False)` count it.
    fn count(&self, text: &str) -> usize {
        match &self.engine {
            Engine::Ranks { bpe, nfc, .. } => bpe.encode_ordinary(&nfc_if(*nfc, text)).len(),
            // A loaded tokenizer.json encoded the probe text, so encoding cannot fail on its
            // configuration; an input it still refuses counts as one token per byte, an upper bound.
            Engine::HuggingFace(t) => t.encode_fast(text, false).map_or(text.len(), |e| e.len()),
            Engine::SentencePiece(m) => m.encode(text).len(),
        }
    }
}

impl TokenizerFile {
    /// Whether a text may be cut between an ASCII letter and an ASCII non-letter other than an
    /// apostrophe without changing its count (see `tokens::is_cut`): true for rank files and
    /// Tekken, whose split patterns end every letter run there and never look back; not known for
    /// a tokenizer.json, whose normalizer and pre-tokenizer may be anything.
    pub fn cuts_safely(&self) -> bool {
        matches!(self.engine, Engine::Ranks { .. })
    }

    /// The token ids of `text` (for tests and the fingerprint).
    pub fn ids(&self, text: &str) -> Result<Vec<u32>, String> {
        self.engine.ids(text)
    }

    /// Loads a tokenizer file from its bytes: its format decided by its content, its
    /// vocabulary by its fingerprint. `Err` says why, for people.
    pub fn load(bytes: &[u8]) -> Result<TokenizerFile, String> {
        let (format, engines) = engines(bytes)?;
        let mut seen = Vec::new();
        for (engine, candidate) in engines {
            let ids = engine.ids(PROBE).map_err(|e| format!("the tokenizer cannot encode text: {e}"))?;
            let fingerprint = fingerprint(&ids);
            let known = vocabularies().iter().find(|v| v.fingerprint == fingerprint && candidate.is_none_or(|c| c.name == v.name));
            match known {
                Some(vocabulary) => return Ok(TokenizerFile { format, vocabulary, fingerprint, engine }),
                None => seen.push(fingerprint),
            }
        }
        let names: Vec<&str> = vocabularies().iter().map(|v| v.name).collect();
        Err(format!(
            "a {} whose vocabulary (fingerprint {}) is none ctxc knows; known: {}",
            format.name(),
            seen.join(" or "),
            names.join(", ")
        ))
    }
}

/// Whether `file` is the tokenizer of `profile`'s model: its vocabulary belongs to the model's
/// tokenizer generation. A model ctxc does not know takes any vocabulary it knows; a model counted
/// exactly already, or of a family without a tokenizer file ctxc can load, takes none. `Err`
/// names what was expected.
pub fn check_fits(file: &TokenizerFile, shown: &str, profile: &ModelProfile) -> Result<(), String> {
    let vocabulary = file.vocabulary;
    let holds =
        format!("`{shown}` holds the {} vocabulary ({}, fingerprint {})", vocabulary.name, vocabulary.description, file.fingerprint);
    if matches!(profile.tokenizer, Tokenizer::O200kBase | Tokenizer::Cl100kBase) {
        return Err(format!("{holds}, but {} is counted exactly with {} already", profile.model, profile.tokenizer.name()));
    }
    let Some(generation) = crate::models::generation(&profile.model) else {
        return match profile.known {
            false => Ok(()),
            true => Err(format!("{holds}, but no tokenizer family is known for {}, so no file can be checked against it", profile.model)),
        };
    };
    if generation == vocabulary.generation {
        return Ok(());
    }
    let expected = of_generation(generation);
    let expected = match expected.is_empty() {
        true => format!("ctxc loads no file of the {generation} tokenizer yet"),
        false => {
            let names: Vec<String> = expected.iter().map(|v| format!("{} ({})", v.name, v.description)).collect();
            format!("expected the {generation} tokenizer: {}", names.join(" or "))
        }
    };
    Err(format!("{holds}, but {} uses another tokenizer; {expected}", profile.model))
}

/// `text` in NFC when `nfc`; NFC text as it is, without a copy.
fn nfc_if(nfc: bool, text: &str) -> std::borrow::Cow<'_, str> {
    use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};
    match nfc && is_nfc_quick(text.chars()) != IsNormalized::Yes {
        true => std::borrow::Cow::Owned(text.nfc().collect()),
        false => std::borrow::Cow::Borrowed(text),
    }
}

/// The probe's ids hashed: the first 16 hex digits of the sha256 of the ids, comma-separated.
pub fn fingerprint(ids: &[u32]) -> String {
    let text = ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    Sha256::digest(text.as_bytes()).iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// An engine, and the vocabulary it must turn out to be (any, for `None`).
type Candidate = (Engine, Option<&'static Vocabulary>);

/// The engines a file may stand for, each with the vocabulary it must then be: one for JSON
/// files; for a rank file, one per known vocabulary with that many ranks (their split patterns).
fn engines(bytes: &[u8]) -> Result<(Format, Vec<Candidate>), String> {
    // A ModelProto opens with its first piece (field 1, length-delimited: byte 0x0A) and is binary.
    if bytes.first() == Some(&0x0A) && std::str::from_utf8(bytes).is_err() {
        let model = sentencepiece::Model::parse(bytes)?;
        return Ok((Format::SentencePiece, vec![(Engine::SentencePiece(Box::new(model)), None)]));
    }
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    if start.is_some_and(|i| bytes[i] == b'{') {
        let value: Value = serde_json::from_slice(bytes).map_err(|e| format!("not valid JSON: {e}"))?;
        if value.get("config").is_some_and(|c| c.get("pattern").is_some()) && value.get("vocab").is_some() {
            return Ok((Format::Tekken, vec![(tekken(&value)?, None)]));
        }
        if value.get("model").is_some() {
            let mut t =
                tokenizers::Tokenizer::from_bytes(bytes).map_err(|e| format!("not a tokenizer.json the tokenizers crate reads: {e}"))?;
            // Counting is of whole texts: a file's truncation and padding settings are for training.
            t.with_truncation(None).map_err(|e| e.to_string())?;
            t.with_padding(None);
            return Ok((Format::TokenizerJson, vec![(Engine::HuggingFace(Box::new(t)), None)]));
        }
        return Err("a JSON file that is neither a tokenizer.json (no `model`) nor Tekken (no `config.pattern` and `vocab`)".into());
    }
    let ranks = rank_lines(bytes)?;
    let candidates: Vec<&'static Vocabulary> = vocabularies().iter().filter(|v| v.ranks == Some(ranks.len())).collect();
    if candidates.is_empty() {
        let known: Vec<String> = vocabularies().iter().filter_map(|v| v.ranks.map(|n| format!("{} ({n})", v.name))).collect();
        return Err(format!(
            "a tiktoken rank file of {} ranks, a count no vocabulary ctxc knows has; known: {}",
            ranks.len(),
            known.join(", ")
        ));
    }
    let mut out = Vec::new();
    for vocabulary in candidates {
        let pattern = vocabulary.pattern.unwrap_or_default();
        let bpe = core_bpe(ranks.clone(), pattern)?;
        out.push((Engine::Ranks { bpe, offset: 0, nfc: vocabulary.nfc }, Some(vocabulary)));
    }
    Ok((Format::RankFile, out))
}

/// tiktoken-rs's encoder for `ranks`, checked first: it requires ranks distinct.
fn core_bpe(ranks: Vec<(Vec<u8>, u32)>, pattern: &str) -> Result<CoreBPE, String> {
    let count = ranks.len();
    let encoder: rustc_hash::FxHashMap<Vec<u8>, u32> = ranks.into_iter().collect();
    let distinct: std::collections::HashSet<u32> = encoder.values().copied().collect();
    if encoder.len() != count || distinct.len() != count {
        return Err("a token or a rank appears twice".into());
    }
    CoreBPE::new(encoder, Default::default(), pattern).map_err(|e| format!("its split pattern does not compile: {e}"))
}

/// The lines of a tiktoken rank file: `base64 rank`, ranks from 0 in order.
fn rank_lines(bytes: &[u8]) -> Result<Vec<(Vec<u8>, u32)>, String> {
    use base64::Engine as _;
    let text = std::str::from_utf8(bytes).map_err(|_| "neither JSON nor a tiktoken rank file (not text)".to_string())?;
    let mut ranks = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
        let bad = || format!("neither JSON nor a tiktoken rank file (line {} is not `base64 rank`)", i + 1);
        let (token, rank) = line.split_once(' ').ok_or_else(bad)?;
        let token = base64::engine::general_purpose::STANDARD.decode(token).map_err(|_| bad())?;
        ranks.push((token, rank.parse().map_err(|_| bad())?));
    }
    if ranks.is_empty() {
        return Err("an empty file".into());
    }
    Ok(ranks)
}

/// Mistral's Tekken: the first `default_vocab_size - default_num_special_tokens` ranks of
/// `vocab`, split by `config.pattern`, ids offset by the special tokens (mistral-common's
/// `Tekkenizer`).
fn tekken(value: &Value) -> Result<Engine, String> {
    use base64::Engine as _;
    let config = &value["config"];
    let number = |key: &str| config.get(key).and_then(Value::as_u64).ok_or_else(|| format!("Tekken's `config.{key}` is not a number"));
    let specials = number("default_num_special_tokens")?;
    let size = number("default_vocab_size")?;
    let pattern = config["pattern"].as_str().ok_or("Tekken's `config.pattern` is not a string")?;
    let vocab = value["vocab"].as_array().ok_or("Tekken's `vocab` is not a list")?;
    let inner = size.checked_sub(specials).filter(|n| *n as usize <= vocab.len()).ok_or_else(|| {
        format!("Tekken's vocabulary size {size} less its {specials} special tokens is more than its {} tokens", vocab.len())
    })?;
    let mut ranks = Vec::with_capacity(inner as usize);
    for (i, token) in vocab.iter().take(inner as usize).enumerate() {
        let bytes = token["token_bytes"].as_str().and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok());
        match (bytes, token["rank"].as_u64()) {
            (Some(bytes), Some(rank)) if rank == i as u64 => ranks.push((bytes, rank as u32)),
            _ => return Err(format!("Tekken's vocab[{i}] is not a token with rank {i} and base64 `token_bytes`")),
        }
    }
    let offset = u32::try_from(specials).map_err(|_| "Tekken's special-token count is too large")?;
    Ok(Engine::Ranks { bpe: core_bpe(ranks, pattern)?, offset, nfc: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_names_known_generations() {
        let table = vocabularies();
        assert!(table.len() >= 6, "{} vocabularies", table.len());
        for v in table {
            assert_eq!(v.fingerprint.len(), 16, "{}", v.name);
            assert_eq!(v.ranks.is_some(), v.pattern.is_some(), "{}: a rank file needs its pattern", v.name);
        }
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert!(TokenizerFile::load(b"").unwrap_err().contains("empty"));
        assert!(TokenizerFile::load(b"{\"a\": 1}").unwrap_err().contains("neither a tokenizer.json"));
        assert!(TokenizerFile::load(b"{ not json").unwrap_err().contains("not valid JSON"));
        assert!(TokenizerFile::load(b"\xff\xfe").unwrap_err().contains("not text"));
        assert!(TokenizerFile::load(b"QQ== 0\nQg== x\n").unwrap_err().contains("line 2"));
        assert!(TokenizerFile::load(b"QQ== 0\nQg== 1\n").unwrap_err().contains("2 ranks"));
        let tekken = br#"{"config": {"pattern": "\\w+", "default_vocab_size": 5, "default_num_special_tokens": 1}, "vocab": []}"#;
        assert!(TokenizerFile::load(tekken).unwrap_err().contains("more than its 0 tokens"));
    }

    /// A rank file whose token appears twice would panic in tiktoken-rs; it is refused instead.
    #[test]
    fn duplicate_ranks_are_refused() {
        assert_eq!(
            core_bpe(vec![(b"a".to_vec(), 0), (b"b".to_vec(), 0)], "\\w+").err().as_deref(),
            Some("a token or a rank appears twice")
        );
    }
}

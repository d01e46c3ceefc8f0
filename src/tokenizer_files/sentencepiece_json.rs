//! A Hugging Face tokenizer.json that is a SentencePiece BPE written for the `tokenizers` crate
//! (Gemma 2's and 3's, Llama 2's): a BPE model with byte fallback, a normalizer that writes each
//! space as one character (`Replace(" ", "▁")`) and may write one before each stretch of text
//! between added tokens (`Prepend("▁")`, Llama 2's dummy prefix), no pre-tokenizer that splits
//! (none, or a split on spaces, which the normalizer has left none of) and added tokens matched in
//! the raw text. Counted here
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

use std::borrow::Cow;

use rustc_hash::FxHashSet;
use serde_json::Value;

use super::merges::{AddedTokens, Found, Merges, NONE};
use super::{AddedToken, BpeParts};
use crate::tokens::Cuts;

/// The last character of a byte-fallback token's text (`<0xXX>`).
const BYTE_TOKEN_END: char = '>';

/// A SentencePiece BPE tokenizer.json, ready to count.
pub struct Model {
    merges: Merges,
    /// The ASCII characters' tokens, [`NONE`] for those without one.
    ascii: [u32; 128],
    /// The `<0xXX>` token of each byte.
    bytes: [u32; 256],
    /// What the normalizer writes for a space (`▁`).
    space: char,
    /// Whether it writes one before each stretch of text between added tokens too (`Prepend`).
    prepend: bool,
    /// The ASCII characters an added token ends with: a text cut after one, when a space is
    /// prepended, is read after the cut as a stretch the space is written before.
    ends_added: [bool; 128],
    /// The last characters of merges' left parts whose right part starts with [`Model::space`]:
    /// a space after a symbol ending in one of them may be merged into it, so no cut there.
    joined: FxHashSet<char>,
    /// The added tokens, found in the raw text (leftmost, then longest).
    added: AddedTokens,
}

/// A stretch of a text as the model reads it (see [`Model::pieces`]): an added token, or the
/// text between two, with the space the normalizer writes before it when it prepends one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'t> {
    Added(u32),
    Text(Cow<'t, str>),
}

impl Model {
    /// The model of a tokenizer.json of that shape (its BPE model's `parts`, its `normalizer`,
    /// `pre_tokenizer` and `added_tokens`), or `None` for any other: each rule the crate would
    /// apply otherwise, or a file it would refuse, leaves the file to the crate.
    pub(super) fn of(
        parts: &mut BpeParts<'_>,
        normalizer: &Value,
        pre_tokenizer: &Value,
        added_tokens: Option<&[AddedToken<'_>]>,
    ) -> Option<Model> {
        let (space, prepend) = normalized_space(normalizer)?;
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
        let (merges, joined) = Merges::of(parts, Some(space))?;
        merges.id(space.encode_utf8(&mut [0; 4]))?;
        let mut ascii = [NONE; 128];
        for (c, id) in ascii.iter_mut().enumerate() {
            *id = merges.id(char::from(c as u8).encode_utf8(&mut [0; 4])).unwrap_or(NONE);
        }
        // A byte's token is read only for a character of no token of its own, so an ASCII
        // byte whose character has one may have none (Gemma 2's tab).
        let mut bytes = [NONE; 256];
        for (b, id) in bytes.iter_mut().enumerate() {
            *id = match merges.id(&format!("<0x{b:02X}>")) {
                Some(token) => token,
                None if ascii.get(b).is_some_and(|&token| token != NONE) => NONE,
                None => return None,
            };
        }
        let added = AddedTokens::of(added_tokens, &merges, None)?;
        let mut ends_added = [false; 128];
        for token in added_tokens.unwrap_or_default() {
            if let Some(&last) = token.content.as_ref().as_bytes().last().filter(|b| b.is_ascii()) {
                ends_added[usize::from(last)] = true;
            }
        }
        Some(Model { merges, ascii, bytes, space, prepend, ends_added, joined, added })
    }

    /// Whether the normalizer writes a space before each stretch of text between added tokens,
    /// so that a text's start counts apart from the same characters after a cut.
    pub fn prepends(&self) -> bool {
        self.prepend
    }

    /// The added tokens of `text` as the crate finds them (leftmost, then longest) and the
    /// stretches of text between them, in order, each with the space the normalizer prepends to
    /// a stretch that is not empty: not to the first when `after_cut` (the text goes on from one
    /// cut before it, whose stretch had it).
    pub fn pieces<'t>(&'t self, text: &'t str, after_cut: bool) -> impl Iterator<Item = Piece<'t>> + 't {
        let mut opens = !after_cut;
        self.added.raw(text).map(move |found| {
            let prepend = self.prepend && std::mem::replace(&mut opens, true);
            match found {
                Found::Text(stretch) if prepend && !stretch.is_empty() => Piece::Text(Cow::Owned(format!(" {stretch}"))),
                Found::Text(stretch) => Piece::Text(Cow::Borrowed(stretch)),
                Found::Added(id) => Piece::Added(id),
            }
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
            _ => self.merges.id(c.encode_utf8(&mut [0; 4])).unwrap_or(NONE),
        }
    }

    /// Where a text may be cut for [`crate::tokens::TokenCounter`]: before a space after an ASCII
    /// character [`Model::words`] cuts after. An added token never spans such a cut when none
    /// holds a space, so the added tokens found on each side are those of the whole. When a
    /// space is prepended to each stretch, not after a character an added token ends with: the
    /// stretch after the cut may open there.
    pub fn cuts(&self) -> Cuts {
        let opens_after = |b: u8| self.prepend && self.ends_added[usize::from(b)];
        match self.added.space {
            true => Cuts::NONE,
            false => Cuts::before_space_after((0..128u8).filter(|&b| self.cuts_after(char::from(b)) && !opens_after(b))),
        }
    }

    /// The number of tokens of a word.
    pub fn count_word(&self, word: &str) -> usize {
        self.merge(word).len()
    }

    /// The ids of `text`, as the crate's `encode(text, add_special_tokens=False)` gives them.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        for piece in self.pieces(text, false) {
            match piece {
                Piece::Added(id) => ids.push(id),
                Piece::Text(stretch) => self.words(&stretch).for_each(|word| ids.extend(self.merge(word))),
            }
        }
        ids
    }

    /// The token ids BPE leaves of `word` (raw text: its spaces written as [`Model::space`] here):
    /// each character its token, or its bytes' `<0xXX>` tokens when it has none.
    fn merge(&self, word: &str) -> Vec<u32> {
        let mut symbols = Vec::with_capacity(word.len());
        for c in word.chars() {
            match self.token_of(c) {
                NONE => symbols.extend(c.encode_utf8(&mut [0; 4]).bytes().map(|b| self.bytes[usize::from(b)])),
                id => symbols.push(id),
            }
        }
        self.merges.merge(symbols)
    }
}

fn kind(step: &Value) -> &str {
    step.get("type").and_then(Value::as_str).unwrap_or_default()
}

/// The one character the normalizer writes for each space, and whether it writes it before each
/// stretch of text too: `Replace(" ", c)`, alone or in a sequence with `Prepend(c)` (either order
/// writes the same, since `Replace` leaves `c` as it is).
fn normalized_space(normalizer: &Value) -> Option<(char, bool)> {
    if kind(normalizer) != "Sequence" {
        return replaced_space(normalizer).map(|space| (space, false));
    }
    let [first, second] = normalizer["normalizers"].as_array()?.as_slice() else { return None };
    let (prepend, replace) = if kind(first) == "Prepend" { (first, second) } else { (second, first) };
    let space = replaced_space(replace)?;
    let mut written = prepend["prepend"].as_str()?.chars();
    (kind(prepend) == "Prepend" && written.next() == Some(space) && written.next().is_none()).then_some((space, true))
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

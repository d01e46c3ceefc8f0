//! A Hugging Face tokenizer.json that is a byte-level BPE (Llama 3's, Qwen's, DeepSeek's):
//! added tokens found in the text, the text between them normalized (NFC, or not at all), split
//! by one or more `Split` steps whose patterns ctxc knows (the families', see
//! `look_ahead_free`, and DeepSeek's), each piece's bytes written as GPT-2's byte
//! characters (`ByteLevel` without its own pattern or a prefix space) and merged by the BPE
//! model. Counted here as the `tokenizers` crate encodes, without building the crate's
//! tokenizer: the patterns run on a `regex-automata` automaton instead of the crate's
//! backtracking engine, and the merges are the file's own, merged as the crate merges them
//! (`Merges::merge`), not ranks made from them: a file whose merge order disagrees with its
//! tokens' ids counts as the crate counts it.
//!
//! A file of any other shape (another normalizer or pre-tokenizer step, a pattern ctxc does not
//! know, added tokens that strip spaces or match whole words only, a byte without its token,
//! continuing-subword prefixes, dropout) is not read here: the crate counts it, as before.

use std::borrow::Cow;

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};
use serde_json::Value;

use super::merges::{AddedTokens, Found, Merges};
use super::{look_ahead_free, AddedToken, BpeParts, DEEPSEEK_SPLITS};

/// A byte-level BPE tokenizer.json, ready to count.
pub struct Model {
    merges: Merges,
    /// The token of each byte (of its GPT-2 byte character).
    bytes: [u32; 256],
    /// `ignore_merges`: a piece that is a token is that token.
    whole: bool,
    /// Whether the normalizer is NFC (else there is none).
    nfc: bool,
    /// The `Split` steps, in order.
    splits: Vec<Split>,
    added: AddedTokens,
}

/// A `Split` step (`Isolated`, not inverted): each match of its pattern a piece, and each
/// stretch between two matches.
struct Split {
    regex: Regex,
    /// The pattern's `\s+(?!\S)|\s+` is written `\s+`: a match that is a run of whitespace
    /// without a line break gives back its last character when more text follows, where
    /// `(?!\S)` would stop (see [`super::look_ahead_free`]).
    gives_back: bool,
}

/// A stretch of a text as the model reads it: an added token, or a piece the model merges.
pub enum Piece<'t> {
    Added(u32),
    Merged(&'t str),
}

impl Model {
    /// The model of a tokenizer.json of that shape, or `None` for any other.
    pub(super) fn of(
        parts: &mut BpeParts<'_>,
        normalizer: &Value,
        pre_tokenizer: &Value,
        added_tokens: Option<&[AddedToken<'_>]>,
    ) -> Option<Model> {
        let nfc = match normalizer {
            Value::Null => false,
            n if kind(n) == "NFC" => true,
            n if kind(n) == "Sequence" => match n["normalizers"].as_array()?.as_slice() {
                [] => false,
                [one] if kind(one) == "NFC" => true,
                _ => return None,
            },
            _ => return None,
        };
        let steps = match kind(pre_tokenizer) {
            "Sequence" => pre_tokenizer["pretokenizers"].as_array()?.as_slice(),
            _ => std::slice::from_ref(pre_tokenizer),
        };
        let (last, splits) = steps.split_last()?;
        let byte_level =
            kind(last) == "ByteLevel" && last["add_prefix_space"] == Value::Bool(false) && last["use_regex"] == Value::Bool(false);
        let splits: Vec<Split> = splits.iter().map(split_of).collect::<Option<_>>()?;
        let options = byte_level
            && !parts.byte_fallback
            && parts.dropout.is_none_or(|d| d == 0.0)
            && parts.prefix.as_deref().unwrap_or_default().is_empty()
            && parts.suffix.as_deref().unwrap_or_default().is_empty();
        if !options {
            return None;
        }
        let (merges, _) = Merges::of(parts, None)?;
        let mut bytes = [0; 256];
        for (b, id) in bytes.iter_mut().enumerate() {
            *id = merges.id(byte_char(b as u8).encode_utf8(&mut [0; 4]))?;
        }
        let normalize = |text: &str| normalized(nfc, text).into_owned();
        let added = AddedTokens::of(added_tokens, &merges, Some(&normalize))?;
        Some(Model { merges, bytes, whole: parts.ignore_merges, nfc, splits, added })
    }

    /// The added tokens and pieces of `text`, in order, as the crate finds them: the added tokens
    /// not `normalized` in the raw text, the text between normalized, then the `normalized` ones
    /// in it, and the text left split by each step in turn. `store` holds the normalized text
    /// the pieces are read from when normalizing changed it.
    pub fn pieces<'t>(&'t self, text: &'t str, store: &'t mut Vec<String>, out: &mut Vec<Piece<'t>>) {
        let found: Vec<Found<'t>> = self.added.raw(text).collect();
        // Each stretch's place in `store` when normalizing changed it.
        let mut changed = Vec::with_capacity(found.len());
        for found in &found {
            let copy = match found {
                Found::Text(stretch) => normalized(self.nfc, stretch),
                Found::Added(_) => Cow::Borrowed(""),
            };
            changed.push(match copy {
                Cow::Owned(copy) => {
                    store.push(copy);
                    Some(store.len() - 1)
                }
                Cow::Borrowed(_) => None,
            });
        }
        let store: &'t Vec<String> = store;
        for (found, changed) in found.into_iter().zip(changed) {
            let stretch = match (found, changed) {
                (Found::Added(id), _) => {
                    out.push(Piece::Added(id));
                    continue;
                }
                (Found::Text(_), Some(at)) => store[at].as_str(),
                (Found::Text(stretch), None) => stretch,
            };
            if !self.added.any_normalized() {
                split(&self.splits, stretch, &mut |piece| out.push(Piece::Merged(piece)));
                continue;
            }
            for found in self.added.normalized(stretch) {
                match found {
                    Found::Added(id) => out.push(Piece::Added(id)),
                    Found::Text(rest) => split(&self.splits, rest, &mut |piece| out.push(Piece::Merged(piece))),
                }
            }
        }
    }

    /// The number of tokens the model merges a piece into.
    pub fn count_piece(&self, piece: &str) -> usize {
        match self.whole_token(piece) {
            Some(_) => 1,
            None => self.merges.merge(piece.bytes().map(|b| self.bytes[usize::from(b)])).len(),
        }
    }

    /// With `ignore_merges`, the token a piece is, when it is one.
    fn whole_token(&self, piece: &str) -> Option<u32> {
        match self.whole && piece.len() > 1 {
            true => self.merges.id(&piece.bytes().map(byte_char).collect::<String>()),
            false => None,
        }
    }

    /// The ids of `text`, as the crate's `encode(text, add_special_tokens=False)` gives them.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let (mut store, mut pieces) = (Vec::new(), Vec::new());
        self.pieces(text, &mut store, &mut pieces);
        let mut ids = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Added(id) => ids.push(id),
                Piece::Merged(piece) => match self.whole_token(piece) {
                    Some(id) => ids.push(id),
                    None => ids.extend(self.merges.merge(piece.bytes().map(|b| self.bytes[usize::from(b)]))),
                },
            }
        }
        ids
    }
}

/// `piece` split by each of `splits` in turn, each resulting piece given to `emit`.
fn split<'t>(splits: &[Split], piece: &'t str, emit: &mut dyn FnMut(&'t str)) {
    let Some((first, rest)) = splits.split_first() else {
        emit(piece);
        return;
    };
    let mut at = 0;
    while at < piece.len() {
        let anchored = Input::new(piece).range(at..).anchored(Anchored::Yes);
        let end = match first.regex.search_half(&anchored) {
            Some(end) if end.offset() > at => end.offset(),
            // No match starts here: the stretch up to the next one is a piece.
            _ => {
                let next = first.regex.search(&Input::new(piece).range(at..)).filter(|m| !m.is_empty());
                let until = next.map_or(piece.len(), |m| m.start());
                split(rest, &piece[at..until], emit);
                at = until;
                continue;
            }
        };
        let mut matched = &piece[at..end];
        if first.gives_back && end < piece.len() && matched.chars().all(|c| c.is_whitespace() && c != '\r' && c != '\n') {
            if let Some((last, _)) = matched.char_indices().next_back().filter(|&(last, _)| last > 0) {
                matched = &matched[..last];
            }
        }
        split(rest, matched, emit);
        at += matched.len();
    }
}

fn kind(step: &Value) -> &str {
    step.get("type").and_then(Value::as_str).unwrap_or_default()
}

/// A `Split` step ctxc runs: isolating the matches of a pattern it knows, not inverted.
fn split_of(step: &Value) -> Option<Split> {
    let pattern = step["pattern"]["Regex"].as_str()?;
    if kind(step) != "Split" || step["behavior"] != "Isolated" || step["invert"] != Value::Bool(false) {
        return None;
    }
    let (translated, gives_back) = match look_ahead_free(pattern) {
        Some(translated) => (translated, true),
        None if DEEPSEEK_SPLITS.contains(&pattern) => (pattern.to_string(), false),
        None => return None,
    };
    Some(Split { regex: Regex::new(&translated).ok()?, gives_back })
}

/// The character GPT-2's byte-level alphabet writes a byte as: the printable ones of Latin-1
/// as themselves, the others (controls, space, U+007F–U+00A0, the soft hyphen) as U+0100 on, in order.
fn byte_char(b: u8) -> char {
    let printable = |b: u8| matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
    match printable(b) {
        true => char::from(b),
        false => char::from_u32(256 + (0..b).filter(|&x| !printable(x)).count() as u32).unwrap_or('\0'),
    }
}

/// The byte GPT-2's byte-level alphabet writes as `c` (see [`byte_char`]), if any.
pub(super) fn byte_of_char(c: char) -> Option<u8> {
    let printable = |b: u8| matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
    match u32::from(c) {
        n @ 0..=255 => Some(n as u8).filter(|&b| printable(b)),
        n @ 256..=511 => (0..=255u8).filter(|&b| !printable(b)).nth((n - 256) as usize),
        _ => None,
    }
}

/// Whether a tokenizer.json's pre-tokenizer writes text's bytes as GPT-2's characters: it is, or
/// its sequence holds, a `ByteLevel` step (its vocabulary is then written so).
pub(super) fn writes_bytes(pre_tokenizer: &Value) -> bool {
    match kind(pre_tokenizer) {
        "ByteLevel" => true,
        "Sequence" => pre_tokenizer["pretokenizers"].as_array().is_some_and(|steps| steps.iter().any(writes_bytes)),
        _ => false,
    }
}

/// `text` in NFC as the crate writes it, when `nfc`; text already in NFC as it is, without a copy.
fn normalized(nfc: bool, text: &str) -> Cow<'_, str> {
    use tokenizers::{NormalizedString, Normalizer};
    use unicode_normalization::{is_nfc_quick, IsNormalized};
    if !nfc || is_nfc_quick(text.chars()) == IsNormalized::Yes {
        return Cow::Borrowed(text);
    }
    // The crate's own normalizer (its Unicode tables), for the texts the quick check cannot pass.
    let mut normalized = NormalizedString::from(text);
    match tokenizers::normalizers::unicode::NFC.normalize(&mut normalized) {
        Ok(()) => Cow::Owned(normalized.get().to_string()),
        Err(_) => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tokenizers::{OffsetReferential, OffsetType, PreTokenizedString, PreTokenizer};

    /// Every byte's character is read back as that byte, and no other character is read.
    #[test]
    fn bytes_are_read_back_from_their_characters() {
        for b in 0..=255u8 {
            assert_eq!(byte_of_char(byte_char(b)), Some(b), "{b}");
        }
        // Characters the alphabet does not write.
        for c in ['\u{AD}', ' ', '\u{7F}', '\u{144}', '｜'] {
            assert_eq!(byte_of_char(c), None, "{c:?}");
        }
    }

    /// The split patterns ctxc runs (each family's, Tekken's, DeepSeek's three in turn) split
    /// random texts into the pieces the crate's `Split` steps make of them with its own engine:
    /// whitespace runs with and without line breaks before letters, marks, digits, CJK, and
    /// characters no alternative of DeepSeek's last pattern matches (controls, a joiner, private use).
    #[test]
    fn known_splits_split_as_the_crate_splits() {
        let mut sequences: Vec<Vec<&str>> = super::super::vocabularies().iter().filter_map(|v| v.pattern).map(|p| vec![p]).collect();
        sequences.push(vec![super::super::TEKKEN_PATTERN]);
        sequences.push(DEEPSEEK_SPLITS.to_vec());
        const ATOMS: &[&str] = &[
            " ", "  ", "\t", "\n", "\r", "\u{b}", "\u{a0}", "\u{85}", "\u{3000}", "a", "Z", "é", "\u{301}", "'s", "'LL", "1", "\u{663}",
            "日", "の", "テ", "한", "Ω", "!", ".", "/", "_", "🙂", "\u{1}", "\u{200d}", "\u{e000}", "x",
        ];
        let texts = crate::tokens::random_texts(ATOMS, 16, 99, 5_000);
        for patterns in sequences {
            let steps: Vec<Value> = patterns
                .iter()
                .map(|p| json!({"type": "Split", "pattern": {"Regex": p}, "behavior": "Isolated", "invert": false}))
                .collect();
            let splits: Vec<Split> = steps.iter().map(split_of).collect::<Option<_>>().expect("known patterns");
            let theirs: tokenizers::PreTokenizerWrapper =
                serde_json::from_value(json!({"type": "Sequence", "pretokenizers": steps})).expect("a pre-tokenizer");
            for text in &texts {
                let mut pieces = PreTokenizedString::from(text.as_str());
                theirs.pre_tokenize(&mut pieces).expect("splits");
                let expected: Vec<&str> =
                    pieces.get_splits(OffsetReferential::Original, OffsetType::Byte).iter().map(|(_, (a, b), _)| &text[*a..*b]).collect();
                let mut ours = Vec::new();
                split(&splits, text, &mut |piece| ours.push(piece));
                assert_eq!(ours, expected, "{patterns:?}: {text:?}");
            }
        }
    }
}

//! SentencePiece `.model` files (Mistral v1–v3 and v7, Gemma 3: BPE with byte fallback), read
//! and counted as the sentencepiece library counts them (`SentencePieceProcessor.encode`).
//!
//! The file is a protobuf `ModelProto`; only the fields counting needs are read, with the wire
//! format's few rules written out here rather than a protobuf crate and its code generation.
//! Encoding follows sentencepiece's `bpe::Model::SampleEncode` (without dropout): the
//! normalized text split into characters (a user-defined symbol, the longest that starts there,
//! is one frozen symbol), then the adjacent pair whose joined piece has the highest score merged
//! first (the leftmost among equals), until no joined pair is a piece; a piece that is unused is
//! split back into what formed it; an unknown piece becomes one byte token per UTF-8 byte (byte
//! fallback) or joins the unknown piece before it.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use aho_corasick::{AhoCorasick, Anchored, Input, MatchKind, StartKind};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::tokens::Cuts;

/// U+2581, the character sentencepiece writes for a space.
const SPACE: &str = "\u{2581}";

/// The most pieces a model may have (Gemma 3 has 262,144): what loading keeps per piece stays
/// within some hundred MB whatever the file holds.
const MAX_PIECES: usize = 1 << 20;

/// The longest piece, in bytes (Gemma 3's longest is 93). Encoding looks up joined pairs and
/// matches user-defined symbols, each step reading at most a piece: this bounds what a byte of
/// text costs, whatever the model (a 1 MB symbol cost a step per byte of it at every position).
pub(super) const MAX_PIECE_BYTES: usize = 256;

/// The most bytes of user-defined symbols (Gemma 3's 6,410 hold 77 KB): their automaton takes
/// tens of bytes per byte of them (500,000 symbols in a 60 MB file took 3 GB to load).
const MAX_USER_DEFINED_BYTES: usize = 1 << 20;

/// A piece's type in `ModelProto.SentencePiece.Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Normal,
    Unknown,
    Control,
    UserDefined,
    Unused,
    Byte,
}

/// A BPE SentencePiece model, ready to encode.
pub struct Model {
    /// Normal, user-defined and unused pieces: those merges may form.
    pieces: FxHashMap<Box<str>, u32>,
    /// Control, unknown and byte pieces.
    reserved: FxHashMap<Box<str>, u32>,
    scores: Vec<f32>,
    kinds: Vec<Kind>,
    unknown: u32,
    /// The id of each byte's `<0xXX>` piece, when the model falls back to bytes.
    bytes: Option<Box<[u32; 256]>>,
    /// The user-defined symbols, each matched whole (the longest at a position).
    user_defined: Option<AhoCorasick>,
    add_dummy_prefix: bool,
    escape_whitespaces: bool,
    /// The characters some piece joins to a following space: a space after one of them may be
    /// inside a piece, so the text is not cut there (see [`Model::words`]).
    joined_to_space: FxHashSet<char>,
    /// Whether a stretch that starts with a space can never begin with an unknown piece (the
    /// space is a piece, or unknown pieces fall back to bytes): without it, a cut could split a
    /// run of unknown pieces that counts as one.
    cuttable: bool,
    /// Its content fingerprint (see [`super::content`]).
    content: String,
    /// Its vocabulary fingerprint: its normal, unused and byte pieces (see [`super::content::vocabulary`]).
    vocabulary: String,
}

impl Model {
    /// Reads a `ModelProto`. `Err` says what is wrong or what ctxc cannot count exactly.
    pub fn parse(bytes: &[u8]) -> Result<Model, String> {
        Model::read(bytes, true)
    }

    /// [`Model::parse`], its content and vocabulary fingerprints left empty unless `fingerprinted`
    /// (a known release's file: its row has them).
    pub fn read(bytes: &[u8], fingerprinted: bool) -> Result<Model, String> {
        let mut pieces = Vec::new();
        let (mut model_type, mut byte_fallback, mut suffix) = (1u64, false, false);
        let (mut charsmap, mut add_dummy_prefix, mut remove_extra, mut escape) = (0usize, true, true, true);
        for field in Fields::new(bytes) {
            match field? {
                (1, Wire::Bytes(_)) if pieces.len() == MAX_PIECES => {
                    return Err(format!("a SentencePiece model of more than {MAX_PIECES} pieces, more than ctxc reads"))
                }
                (1, Wire::Bytes(piece)) => pieces.push(piece_of(piece)?),
                (2, Wire::Bytes(trainer)) => {
                    for field in Fields::new(trainer) {
                        match field? {
                            (3, Wire::Varint(v)) => model_type = v,
                            (24, Wire::Varint(v)) => suffix = v != 0,
                            (35, Wire::Varint(v)) => byte_fallback = v != 0,
                            _ => {}
                        }
                    }
                }
                (3, Wire::Bytes(normalizer)) => {
                    for field in Fields::new(normalizer) {
                        match field? {
                            (2, Wire::Bytes(map)) => charsmap = map.len(),
                            (3, Wire::Varint(v)) => add_dummy_prefix = v != 0,
                            (4, Wire::Varint(v)) => remove_extra = v != 0,
                            (5, Wire::Varint(v)) => escape = v != 0,
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        if pieces.is_empty() {
            return Err("not a SentencePiece model (no pieces)".into());
        }
        let unsupported = |what: &str| Err(format!("a SentencePiece model {what}, which ctxc cannot count exactly yet"));
        if model_type != 2 {
            return unsupported(&format!("of type {} (ctxc counts BPE models, type 2)", model_type));
        }
        if charsmap > 0 {
            return unsupported("with a normalization rule (a precompiled character map)");
        }
        if remove_extra || suffix {
            return unsupported("that removes extra whitespace or writes it as a suffix");
        }
        if !fingerprinted {
            return Model::build(pieces, byte_fallback, add_dummy_prefix, escape);
        }
        // What the encoding reads: the pieces in id order, and the options checked above.
        let mut content = super::content::Content::new("SentencePiece model");
        for (piece, score, kind) in &pieces {
            content.text(piece);
            content.number(u64::from(score.to_bits()));
            content.number(*kind as u64);
        }
        for option in [model_type, u64::from(byte_fallback), u64::from(add_dummy_prefix), u64::from(escape)] {
            content.number(option);
        }
        // Not its control, unknown and user-defined pieces: a tokenizer.json declares them added.
        let ordinary = pieces.iter().enumerate().filter(|(_, (_, _, kind))| matches!(kind, Kind::Normal | Kind::Byte | Kind::Unused));
        let ordinary = ordinary.map(|(id, (piece, _, _))| (id as u64, piece.as_bytes())).collect();
        let vocabulary = super::content::vocabulary(super::content::Tokens::Pieces, ordinary);
        let mut model = Model::build(pieces, byte_fallback, add_dummy_prefix, escape)?;
        model.content = content.finish();
        model.vocabulary = vocabulary;
        Ok(model)
    }

    /// Its content fingerprint (see [`super::content`]).
    pub fn content(&self) -> &str {
        &self.content
    }

    /// Its vocabulary fingerprint (see [`super::content::vocabulary`]).
    pub fn vocabulary(&self) -> &str {
        &self.vocabulary
    }

    fn build(pieces: Vec<(String, f32, Kind)>, byte_fallback: bool, add_dummy_prefix: bool, escape: bool) -> Result<Model, String> {
        let mut model = Model {
            pieces: FxHashMap::default(),
            reserved: FxHashMap::default(),
            scores: Vec::with_capacity(pieces.len()),
            kinds: Vec::with_capacity(pieces.len()),
            unknown: u32::MAX,
            bytes: None,
            user_defined: None,
            add_dummy_prefix,
            escape_whitespaces: escape,
            joined_to_space: FxHashSet::default(),
            cuttable: false,
            content: String::new(),
            vocabulary: String::new(),
        };
        let space = if escape { '\u{2581}' } else { ' ' };
        let mut bytes = [u32::MAX; 256];
        let (mut user_defined, mut user_defined_bytes) = (Vec::new(), 0);
        for (id, (piece, score, kind)) in pieces.into_iter().enumerate() {
            let id = id as u32;
            if piece.is_empty() {
                return Err(format!("a SentencePiece model whose piece {id} is empty"));
            }
            if piece.len() > MAX_PIECE_BYTES {
                return Err(format!(
                    "a SentencePiece model whose piece {id} is {} bytes long, more than the {MAX_PIECE_BYTES} ctxc reads",
                    piece.len()
                ));
            }
            match kind {
                Kind::Unknown if model.unknown != u32::MAX => return Err("a SentencePiece model with two unknown pieces".into()),
                Kind::Unknown => model.unknown = id,
                Kind::UserDefined => {
                    user_defined_bytes += piece.len();
                    if user_defined_bytes > MAX_USER_DEFINED_BYTES {
                        return Err(format!(
                            "a SentencePiece model with more than {MAX_USER_DEFINED_BYTES} bytes of user-defined symbols, more than ctxc reads"
                        ));
                    }
                    user_defined.push(piece.clone());
                }
                Kind::Byte => match byte_of(&piece) {
                    Some(b) if byte_fallback => bytes[b as usize] = id,
                    _ => return Err(format!("a SentencePiece model with the byte piece `{piece}` it cannot use")),
                },
                Kind::Normal | Kind::Control | Kind::Unused => {}
            }
            if matches!(kind, Kind::Normal | Kind::UserDefined | Kind::Unused) {
                let chars: Vec<char> = piece.chars().collect();
                model.joined_to_space.extend(chars.windows(2).filter(|w| w[1] == space && w[0] != space).map(|w| w[0]));
            }
            let map = match kind {
                Kind::Normal | Kind::UserDefined | Kind::Unused => &mut model.pieces,
                Kind::Unknown | Kind::Control | Kind::Byte => &mut model.reserved,
            };
            if map.insert(piece.clone().into_boxed_str(), id).is_some() {
                return Err(format!("a SentencePiece model whose piece `{piece}` appears twice"));
            }
            model.scores.push(score);
            model.kinds.push(kind);
        }
        if model.unknown == u32::MAX {
            return Err("a SentencePiece model without an unknown piece".into());
        }
        if byte_fallback {
            if bytes.contains(&u32::MAX) {
                return Err("a SentencePiece model that falls back to bytes without all 256 byte pieces".into());
            }
            model.bytes = Some(Box::new(bytes));
        }
        model.cuttable = model.bytes.is_some() || model.pieces.contains_key(space.encode_utf8(&mut [0; 4]) as &str);
        if !user_defined.is_empty() {
            let matcher = AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .start_kind(StartKind::Anchored)
                .build(&user_defined)
                .map_err(|e| format!("its user-defined symbols: {e}"))?;
            model.user_defined = Some(matcher);
        }
        Ok(model)
    }

    /// The ids of `text`, as `SentencePieceProcessor.encode(text)` gives them (no BOS or EOS).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        self.encode_word(text, true)
    }

    /// The ids of `word`, one of a text's [`Model::words`] (or a whole text); `first`: it opens
    /// the text, and so gets the dummy prefix.
    pub fn encode_word(&self, word: &str, first: bool) -> Vec<u32> {
        let mut normalized = String::with_capacity(word.len() + 8);
        if word.is_empty() {
            return Vec::new();
        }
        if first && self.add_dummy_prefix {
            normalized.push_str(if self.escape_whitespaces { SPACE } else { " " });
        }
        match self.escape_whitespaces {
            true => normalized.push_str(&word.replace(' ', SPACE)),
            false => normalized.push_str(word),
        }
        self.encode_normalized(&normalized)
    }

    /// The stretches of `text` that encode apart: it is cut before a space that follows a
    /// character no piece joins to a space (nor a space, nor a `▁` written in the text). No
    /// piece, and so no merge, spans such a cut, and BPE merges the pairs inside one stretch
    /// whatever the others hold, so the ids of the whole are the ids of its stretches in order
    /// (the word split sentencepiece trains with; each model's pieces are checked for it when
    /// loaded, see `joined_to_space`).
    pub fn words<'t>(&'t self, text: &'t str) -> impl Iterator<Item = &'t str> + 't {
        stretches(text, move |rest| self.first_cut(rest))
    }

    /// [`Model::words`]' cuts where the characters around them are ASCII, as [`Cuts`]: a text
    /// cut there encodes as its two sides, the second without the dummy prefix.
    pub fn cuts(&self) -> Cuts {
        match self.cuttable {
            true => Cuts::before_space_after((0..128u8).filter(|&b| b != b' ' && !self.joined_to_space.contains(&char::from(b)))),
            false => Cuts::NONE,
        }
    }

    /// Whether a text's first word is encoded with a space before it (`▁`).
    pub fn adds_dummy_prefix(&self) -> bool {
        self.add_dummy_prefix
    }

    /// The first place after `text`'s first character where [`Model::words`] cuts it.
    fn first_cut(&self, text: &str) -> Option<usize> {
        if !self.cuttable {
            return None;
        }
        let mut from = text.chars().next()?.len_utf8();
        // Words are short: a plain byte loop finds the next space sooner than a searcher set up per word.
        while let Some(at) = text.as_bytes()[from..].iter().position(|&b| b == b' ').map(|i| from + i) {
            let previous = text[..at].chars().next_back()?;
            let space_before = previous == ' ' || (self.escape_whitespaces && previous == '\u{2581}');
            if !space_before && !self.joined_to_space.contains(&previous) {
                return Some(at);
            }
            from = at + 1;
        }
        None
    }

    /// The ids of a normalized text.
    fn encode_normalized(&self, normalized: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        let mut previous_unknown = false;
        for (piece, id) in self.merge(normalized) {
            let unknown = id == self.unknown;
            match (&self.bytes, unknown) {
                (Some(bytes), true) => ids.extend(piece.bytes().map(|b| bytes[b as usize])),
                // A run of unknown pieces is one unknown token.
                (None, true) if previous_unknown => {}
                _ => ids.push(id),
            }
            previous_unknown = unknown;
        }
        ids
    }

    fn id(&self, piece: &str) -> u32 {
        self.pieces.get(piece).or_else(|| self.reserved.get(piece)).copied().unwrap_or(self.unknown)
    }

    /// The pieces BPE leaves of `normalized`, with their ids, unused pieces split back into what
    /// formed them. Each symbol carries its piece's id, so that splitting a piece back looks up
    /// no text: a chain of unused pieces, each formed from the one before, costs a step per
    /// piece, not a lookup of each piece's text.
    fn merge<'t>(&self, normalized: &'t str) -> Vec<(&'t str, u32)> {
        let mut symbols = Vec::with_capacity(normalized.len());
        let mut at = 0;
        while at < normalized.len() {
            let frozen = self
                .user_defined
                .as_ref()
                .and_then(|m| m.find(Input::new(normalized).range(at..).anchored(Anchored::Yes)).map(|found| found.end()));
            let end = frozen.unwrap_or_else(|| at + normalized[at..].chars().next().map_or(1, char::len_utf8));
            symbols.push(Symbol { start: at, end, frozen: frozen.is_some(), id: self.id(&normalized[at..end]) });
            at = end;
        }
        let count = symbols.len();
        let mut prev: Vec<usize> = (0..count).map(|i| i.wrapping_sub(1)).collect();
        let mut next: Vec<usize> = (1..=count).map(|i| if i == count { usize::MAX } else { i }).collect();
        let mut agenda = BinaryHeap::new();
        // The unused pieces merges formed, by id: the two symbols each came from, to split it back
        // (the last pair considered for a piece, as sentencepiece keeps it).
        let mut formed: FxHashMap<u32, (Symbol, Symbol)> = FxHashMap::default();
        let mut consider = |left: usize, right: usize, symbols: &[Symbol], agenda: &mut BinaryHeap<Pair>| {
            if left == usize::MAX || right == usize::MAX || symbols[left].frozen || symbols[right].frozen {
                return;
            }
            let joined = &normalized[symbols[left].start..symbols[right].end];
            let Some(&id) = self.pieces.get(joined) else { return };
            agenda.push(Pair { score: self.scores[id as usize], left, right, size: joined.len(), id });
            if self.kinds[id as usize] == Kind::Unused {
                formed.insert(id, (symbols[left], symbols[right]));
            }
        };
        for i in 1..count {
            consider(i - 1, i, &symbols, &mut agenda);
        }
        while let Some(top) = agenda.pop() {
            let (left, right) = (&symbols[top.left], &symbols[top.right]);
            if left.is_empty() || right.is_empty() || left.len() + right.len() != top.size {
                continue; // a pair whose symbols have changed since
            }
            symbols[top.left].end = symbols[top.right].end;
            symbols[top.left].id = top.id;
            symbols[top.right].start = symbols[top.right].end;
            next[top.left] = next[top.right];
            if next[top.right] != usize::MAX {
                prev[next[top.right]] = top.left;
            }
            consider(prev[top.left], top.left, &symbols, &mut agenda);
            consider(top.left, next[top.left], &symbols, &mut agenda);
        }
        let mut out = Vec::with_capacity(count);
        let mut index = if count == 0 { usize::MAX } else { 0 };
        let mut stack = Vec::new();
        while index != usize::MAX {
            stack.push(symbols[index]);
            while let Some(symbol) = stack.pop() {
                match formed.get(&symbol.id).filter(|_| self.kinds[symbol.id as usize] == Kind::Unused) {
                    // The right side after the left one.
                    Some(&(left, right)) => stack.extend([right, left]),
                    None => out.push((symbol.text(normalized), symbol.id)),
                }
            }
            index = next[index];
        }
        out
    }
}

/// `text` cut into stretches, each ending where `first_cut` finds the next one's start in what
/// is left (the whole rest when it finds none).
pub(super) fn stretches<'t>(text: &'t str, first_cut: impl Fn(&'t str) -> Option<usize> + 't) -> impl Iterator<Item = &'t str> + 't {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (stretch, after) = rest.split_at(first_cut(rest).unwrap_or(rest.len()));
        rest = after;
        Some(stretch)
    })
}

/// A run of the normalized text, `start..end` (empty once merged into the symbol before it),
/// and the id of its piece (see [`Model::id`]).
#[derive(Clone, Copy)]
struct Symbol {
    start: usize,
    end: usize,
    frozen: bool,
    id: u32,
}

impl Symbol {
    fn text<'t>(&self, normalized: &'t str) -> &'t str {
        &normalized[self.start..self.end]
    }
    fn len(&self) -> usize {
        self.end - self.start
    }
    fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// Two adjacent symbols whose joined text is a piece: the highest score first, then the leftmost.
struct Pair {
    score: f32,
    left: usize,
    right: usize,
    size: usize,
    /// The joined piece's id.
    id: u32,
}

impl Ord for Pair {
    fn cmp(&self, other: &Pair) -> Ordering {
        // Scores compare as sentencepiece's `<` compares them (0.0 and -0.0 alike).
        self.score.partial_cmp(&other.score).unwrap_or(Ordering::Equal).then_with(|| other.left.cmp(&self.left))
    }
}

impl PartialOrd for Pair {
    fn partial_cmp(&self, other: &Pair) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Pair {
    fn eq(&self, other: &Pair) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Pair {}

/// `<0xXX>`'s byte.
fn byte_of(piece: &str) -> Option<u8> {
    let hex = piece.strip_prefix("<0x")?.strip_suffix('>')?;
    (hex.len() == 2).then(|| u8::from_str_radix(hex, 16).ok())?
}

/// A `ModelProto.SentencePiece`: its text, score and type.
fn piece_of(bytes: &[u8]) -> Result<(String, f32, Kind), String> {
    let (mut piece, mut score, mut kind) = (String::new(), 0.0, Kind::Normal);
    for field in Fields::new(bytes) {
        match field? {
            (1, Wire::Bytes(text)) => {
                piece = String::from_utf8(text.to_vec()).map_err(|_| "a SentencePiece model with a piece that is not UTF-8")?
            }
            (2, Wire::Fixed32(bits)) => score = f32::from_bits(bits),
            (3, Wire::Varint(v)) => {
                kind = match v {
                    1 => Kind::Normal,
                    2 => Kind::Unknown,
                    3 => Kind::Control,
                    4 => Kind::UserDefined,
                    5 => Kind::Unused,
                    6 => Kind::Byte,
                    _ => return Err(format!("a SentencePiece model with a piece of unknown type {v}")),
                }
            }
            _ => {}
        }
    }
    Ok((piece, score, kind))
}

/// A protobuf field's value, by wire type.
enum Wire<'a> {
    Varint(u64),
    Fixed64,
    Bytes(&'a [u8]),
    Fixed32(u32),
}

/// The fields of a protobuf message, in order: (number, value), or why the bytes are not one.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
    failed: bool,
}

impl<'a> Fields<'a> {
    fn new(bytes: &'a [u8]) -> Fields<'a> {
        Fields { bytes, at: 0, failed: false }
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.at).ok_or_else(|| self.error("ends inside a number"))?;
            self.at += 1;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.error("has a number longer than 10 bytes"))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|end| *end <= self.bytes.len()).ok_or_else(|| self.error("ends inside a field"))?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    fn error(&self, what: &str) -> String {
        format!("not a SentencePiece model (a protobuf message that {what} at byte {})", self.at)
    }

    fn field(&mut self) -> Result<(u64, Wire<'a>), String> {
        let key = self.varint()?;
        let value = match key & 7 {
            0 => Wire::Varint(self.varint()?),
            1 => self.take(8).map(|_| Wire::Fixed64)?,
            2 => {
                let n = usize::try_from(self.varint()?).map_err(|_| self.error("has a field too long"))?;
                Wire::Bytes(self.take(n)?)
            }
            5 => {
                let bytes = self.take(4)?.try_into().map_err(|_| self.error("has a fixed32 field cut short"))?;
                Wire::Fixed32(u32::from_le_bytes(bytes))
            }
            other => return Err(self.error(&format!("has a field of wire type {other}"))),
        };
        Ok((key >> 3, value))
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u64, Wire<'a>), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.at >= self.bytes.len() {
            return None;
        }
        let field = self.field();
        self.failed = field.is_err();
        Some(field)
    }
}

/// A model of these pieces, for tests: `<unk>`, the 256 bytes, `user_defined`, then `normal`
/// with descending scores.
#[cfg(test)]
pub(super) fn test_model(normal: &[&str], user_defined: &[&str], add_dummy_prefix: bool) -> Model {
    let mut pieces = vec![("<unk>".to_string(), 0.0, Kind::Unknown)];
    pieces.extend((0..=255u8).map(|b| (format!("<0x{b:02X}>"), 0.0, Kind::Byte)));
    pieces.extend(user_defined.iter().map(|p| (p.to_string(), 0.0, Kind::UserDefined)));
    pieces.extend(normal.iter().enumerate().map(|(i, p)| (p.to_string(), -(i as f32), Kind::Normal)));
    // ok: the tests' pieces always build: one unknown piece, all 256 byte pieces, none repeated or empty.
    Model::build(pieces, true, add_dummy_prefix, true).expect("a model")
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::test_model as model;

    fn pieces<'t>(m: &Model, normalized: &'t str) -> Vec<&'t str> {
        m.merge(normalized).into_iter().map(|(piece, _)| piece).collect()
    }

    #[test]
    fn merges_the_best_scored_pair_first_and_the_leftmost_of_equals() {
        let m = model(&["▁", "a", "b", "c", "ab", "bc", "abc", "▁a"], &[], true);
        // `ab` scores above `bc`: a b c → ab c → abc.
        assert_eq!(pieces(&m, "abc"), vec!["abc"]);
        // Equal pieces from equal pairs: the leftmost merges first.
        assert_eq!(pieces(&m, "abab"), vec!["ab", "ab"]);
    }

    #[test]
    fn unknown_characters_fall_back_to_their_bytes_and_user_defined_symbols_stay_whole() {
        let m = model(&["▁", "a", "<", ">", "x"], &["<x>", "<x>>"], false);
        // é is unknown: its two UTF-8 bytes, as <0xC3> <0xA9>.
        assert_eq!(m.encode("é"), vec![1 + 0xC3, 1 + 0xA9]);
        // The longest user-defined symbol at a position is one frozen symbol.
        assert_eq!(pieces(&m, "a<x>>a"), vec!["a", "<x>>", "a"]);
        assert_eq!(m.encode(""), Vec::<u32>::new());
    }

    #[test]
    fn the_dummy_prefix_and_spaces_are_written_as_u2581() {
        let m = model(&["▁", "a", "▁a"], &[], true);
        assert_eq!(m.encode("a a"), vec![m.id("▁a"), m.id("▁a")]);
        let plain = model(&["▁", "a", "▁a"], &[], false);
        assert_eq!(plain.encode("a a"), vec![plain.id("a"), plain.id("▁a")]);
    }

    /// The ids of a text are the ids of its words in order: where a piece joins a character to
    /// a following space (`>▁<`), where spaces repeat, where unknown characters follow a space,
    /// and, in a model that has no `▁` and no byte fallback, where a cut would split a run of
    /// unknown pieces (it is then never cut).
    #[test]
    fn encoding_word_by_word_equals_encoding_whole() {
        const ATOMS: &[&str] = &[" ", "  ", "a", "b", "ab", ">", "<", "> <", "é", "x", "\n", "<x>", "▁"];
        let joined = model(&["▁", "a", "b", "ab", "▁a", "▁▁", "▁ab", ">", "<", ">▁", ">▁<", "▁<", "x"], &["<x>"], true);
        let mut pieces = vec![("<unk>".to_string(), 0.0, Kind::Unknown)];
        pieces.extend(["a", "b", "ab", "a▁b"].iter().enumerate().map(|(i, p)| (p.to_string(), -(i as f32), Kind::Normal)));
        let unknown_runs = Model::build(pieces, false, false, true).expect("a model");
        assert!(joined.cuttable && !unknown_runs.cuttable);
        let words = |m: &Model, text: &str| m.words(text).enumerate().flat_map(|(i, w)| m.encode_word(w, i == 0)).collect::<Vec<_>>();
        assert_eq!(joined.words("a > <b  ab").collect::<Vec<_>>(), ["a", " > <b", "  ab"]);
        assert_eq!(joined.words("a▁ b").collect::<Vec<_>>(), ["a▁ b"], "a `▁` in the text is a space to the model");
        for text in crate::tokens::random_texts(ATOMS, 12, 11, 2_000) {
            for m in [&joined, &unknown_runs] {
                assert_eq!(words(m, &text), m.encode(&text), "{text:?}");
            }
        }
    }

    /// The cuts as [`Cuts`] gives them are [`Model::words`]' where the characters around them
    /// are ASCII: before a space, not after a space nor after a character a piece joins to one.
    #[test]
    fn cuts_are_the_word_boundaries_between_ascii_characters() {
        let m = model(&["▁", "a", "b", ">", "<", ">▁", ">▁<", "▁<"], &[], true);
        let cuts = m.cuts();
        assert!(cuts.allows(b'a', b' ') && cuts.allows(b'<', b' ') && cuts.allows(b'\n', b' '));
        assert!(!cuts.allows(b'>', b' ') && !cuts.allows(b' ', b' ') && !cuts.allows(b'a', b'b') && !cuts.allows(b'a', b'\n'));
        for text in ["a b", "a > <b", "<x>  y z\n q"] {
            let at = |i: usize| i > 0 && text.as_bytes().get(i - 1).zip(text.as_bytes().get(i)).is_some_and(|(&p, &n)| cuts.allows(p, n));
            let mut word_starts: Vec<usize> = m
                .words(text)
                .scan(0, |end, w| {
                    *end += w.len();
                    Some(*end)
                })
                .collect();
            word_starts.pop();
            assert_eq!((0..text.len()).filter(|&i| at(i)).collect::<Vec<_>>(), word_starts, "{text:?}");
        }
        let unknown_runs =
            Model::build(vec![("<unk>".to_string(), 0.0, Kind::Unknown), ("a".to_string(), 0.0, Kind::Normal)], false, true, true);
        assert_eq!(unknown_runs.expect("a model").cuts(), Cuts::NONE);
    }

    /// A text's first word is counted with the dummy prefix and the same word elsewhere without
    /// it, each from its own remembered count, whichever comes first.
    #[test]
    fn first_words_are_remembered_apart_from_the_others() {
        let counter = super::super::SentencePiece { model: model(&["▁", "a", "b", "ab", "▁ab"], &[], true), words: Default::default() };
        for text in ["ab ab", " ab ab", "b ab", " ab", "ab", " ab b"] {
            assert_eq!(counter.count(text, false), counter.model.encode(text).len(), "{text:?}");
        }
    }

    /// Unused pieces that merges form are split back into what formed them, a chain of them
    /// down to its first normal piece, as sentencepiece 0.2 encodes (its ids for these texts).
    #[test]
    fn chains_of_unused_pieces_split_back_as_sentencepiece_splits_them() {
        let mut pieces = vec![("<unk>".to_string(), 0.0, Kind::Unknown)];
        pieces.extend((0..=255u8).map(|b| (format!("<0x{b:02X}>"), 0.0, Kind::Byte)));
        pieces.extend([("▁", -1.0), ("a", -2.0), ("b", -3.0), ("ab", -4.0)].map(|(p, score)| (p.to_string(), score, Kind::Normal)));
        pieces.extend(["aba", "abab", "ababa", "ababab"].iter().zip(10..).map(|(p, score)| (p.to_string(), score as f32, Kind::Unused)));
        let m = Model::build(pieces, true, true, true).expect("a model");
        assert_eq!(m.encode("ababab"), [257, 260, 258, 259, 258, 259]);
        assert_eq!(m.encode("abababab"), [257, 260, 258, 259, 258, 259, 260]);
        assert_eq!(m.encode("aba ababa"), [257, 260, 258, 257, 260, 258, 259, 258]);
        assert_eq!(m.encode("bababa"), [257, 259, 260, 258, 259, 258]);
    }

    /// What a model may hold is bounded (issue 43): pieces longer than [`MAX_PIECE_BYTES`],
    /// user-defined symbols of more than [`MAX_USER_DEFINED_BYTES`] in all, more than
    /// [`MAX_PIECES`] pieces are refused, each saying which limit.
    #[test]
    fn models_over_the_limits_are_refused() {
        let long = "a".repeat(MAX_PIECE_BYTES + 1);
        let refused = |normal: &[&str], user_defined: &[&str]| {
            let mut pieces = vec![("<unk>".to_string(), 0.0, Kind::Unknown)];
            pieces.extend(user_defined.iter().map(|p| (p.to_string(), 0.0, Kind::UserDefined)));
            pieces.extend(normal.iter().map(|p| (p.to_string(), 0.0, Kind::Normal)));
            Model::build(pieces, false, true, true).err().unwrap_or_default()
        };
        assert!(refused(&[&long], &[]).contains("piece 1 is 257 bytes long, more than the 256"), "{}", refused(&[&long], &[]));
        assert!(refused(&[&long[1..]], &[]).is_empty());
        let symbols: Vec<String> = (0..MAX_USER_DEFINED_BYTES / 200 + 1).map(|i| format!("{i:0200}")).collect();
        let symbols: Vec<&str> = symbols.iter().map(String::as_str).collect();
        assert!(refused(&[], &symbols).contains("more than 1048576 bytes of user-defined symbols"));
        assert!(refused(&[], &symbols[1..]).is_empty());
        // `0a 03 0a 01 61`: a piece `a`, repeated.
        let many = b"\x0a\x03\x0a\x01\x61".repeat(MAX_PIECES + 1);
        assert!(Model::parse(&many).err().unwrap_or_default().contains("more than 1048576 pieces"));
    }

    #[test]
    fn malformed_files_are_refused_with_a_reason() {
        assert!(Model::parse(b"\x0a\x05ab").err().unwrap_or_default().contains("ends inside a field"));
        assert!(Model::parse(b"\x0b").err().unwrap_or_default().contains("wire type 3"));
        assert!(Model::parse(b"").err().unwrap_or_default().contains("no pieces"));
        // One piece, `a`, and the default model type (unigram).
        assert!(Model::parse(b"\x0a\x03\x0a\x01a").err().unwrap_or_default().contains("of type 1"));
    }
}

//! Counting the tokens of OpenAI's byte-level BPE encodings (o200k_base, cl100k_base) the way
//! tiktoken encodes: the text is split into pre-tokens by the encoding's pattern, and each
//! pre-token that is not a token itself is merged from its bytes, lowest-ranked adjacent pair
//! first (the leftmost of equal ones), until no adjacent pair is a token.
//!
//! It only counts, so it keeps one table (token bytes to rank), built at start from the compact
//! rank file `build.rs` writes from tiktoken-rs: no base64 to decode, no key to allocate, no
//! decoder or sorted token list to build, which is most of what building a tiktoken-rs encoder
//! costs. The table holds each token's rank and where the rank file holds its bytes (8 bytes a
//! slot, 2.3 MB for o200k_base, where a map from byte slices took 13 MB), so the start of every
//! run that counts writes less memory.
//!
//! The same engine counts the rank files of other families loaded at run time
//! ([`Bpe::from_ranks`]: Llama 3 and 4, Qwen, Tekken), with their patterns written without
//! look-ahead as o200k_base's is here.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use std::hash::{BuildHasher, Hasher};

use hashbrown::HashTable;
use std::sync::Mutex;

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson;
use regex_automata::{Anchored, Input};
use rustc_hash::FxBuildHasher;

use super::runs::{merge_counting, periodic, RUNS_FROM};

type Rank = u32;

/// The rank of a pair that is not a token.
const NONE: Rank = Rank::MAX;

/// Pre-tokens this long or longer are merged with a heap (n log n); shorter ones by scanning
/// their pairs after each merge, which is quicker for the few bytes most of them hold.
const HEAP_FROM: usize = 64;

/// o200k_base's pre-token pattern as tiktoken defines it, except its last two alternatives,
/// `\s+(?!\S)|\s+`, written `\s+`: regex-automata has no look-ahead, and [`Pretokens`]
/// gives back the run's last character where the look-ahead would. Leftmost-first matching
/// tries the alternatives in order, as tiktoken's backtracking engine does.
const O200K_PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+",
);

/// cl100k_base's pre-token pattern as tiktoken defines it (`'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|
/// \p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s`), its possessive
/// quantifiers made greedy (nothing after them could take back what they hold) and its last two
/// alternatives written `\s+`, as in [`O200K_PATTERN`].
const CL100K_PATTERN: &str = r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+";

/// The bytes of the token whose entry starts at `start` in a rank table.
fn token_at(table: &[u8], start: u32) -> &[u8] {
    let at = start as usize;
    &table[at + 1..at + 1 + usize::from(table[at])]
}

fn hash(bytes: &[u8]) -> u64 {
    let mut hasher = FxBuildHasher.build_hasher();
    hasher.write(bytes);
    hasher.finish()
}

/// A token as a piece merged in runs holds it: its rank and where its entry starts in the table.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Part {
    rank: Rank,
    start: u32,
}

/// What merging a piece in runs did: the runs it visited, and the tokens it looked up.
#[derive(Default)]
struct RunsWork {
    steps: usize,
    lookups: usize,
}

/// One encoding: its tokens' ranks and its pre-token pattern.
pub struct Bpe {
    /// The rank file: each token's length in one byte, then its bytes (in rank order for the
    /// bundled encodings).
    table: Cow<'static, [u8]>,
    /// Every token's rank and where its entry starts in `table`, found by the hash of its bytes.
    ranks: HashTable<(Rank, u32)>,
    /// The pre-token pattern as a lazy DFA, forward only: searches are anchored and find only
    /// where a pre-token ends, so neither a reverse automaton nor capture groups are built.
    pretokens: DFA,
    /// The DFA's caches (the states it has built), one per counting thread, kept between texts.
    caches: Mutex<Vec<Cache>>,
}

impl Bpe {
    pub fn o200k_base() -> Bpe {
        Bpe::new(include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.ranks")), O200K_PATTERN)
    }

    pub fn cl100k_base() -> Bpe {
        Bpe::new(include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.ranks")), CL100K_PATTERN)
    }

    /// From a rank table as `build.rs` writes it (each token's length in one byte, then its
    /// bytes, in rank order) and a pre-token pattern.
    fn new(table: &'static [u8], pattern: &str) -> Bpe {
        let entries = || {
            let mut at = 0;
            std::iter::from_fn(move || {
                let start = at;
                at += 1 + usize::from(*table.get(start)?);
                Some(start as u32)
            })
        };
        let ranks = entries().enumerate().map(|(rank, start)| (rank as Rank, start));
        // ok: the patterns are the constants above, compiled by the tests
        Bpe::build(Cow::Borrowed(table), entries().count(), ranks, pattern).expect("constant pattern")
    }

    /// From a tokenizer file's ranks (each token's bytes and rank: distinct, every byte a token,
    /// as the caller checked) and its pre-token pattern written as [`Pretokens`] reads it: the
    /// pattern's last alternative `\s+` stands for `\s+(?!\S)|\s+`, and no alternative before
    /// it matches whitespace alone unless it holds a line break. `Err` when a token is longer
    /// than 255 bytes, a rank is [`NONE`], or the pattern does not compile.
    pub fn from_ranks(ranks: &[(Vec<u8>, Rank)], pattern: &str) -> Result<Bpe, String> {
        let mut table = Vec::with_capacity(ranks.iter().map(|(token, _)| 1 + token.len()).sum());
        let mut entries = Vec::with_capacity(ranks.len());
        for (token, rank) in ranks {
            let len = u8::try_from(token.len()).map_err(|_| format!("a token of {} bytes", token.len()))?;
            let start = u32::try_from(table.len()).map_err(|_| "over 4 GiB of tokens".to_string())?;
            if *rank == NONE {
                return Err(format!("the rank {NONE}"));
            }
            entries.push((*rank, start));
            table.push(len);
            table.extend_from_slice(token);
        }
        Bpe::build(Cow::Owned(table), entries.len(), entries.into_iter(), pattern)
    }

    fn build(table: Cow<'static, [u8]>, len: usize, entries: impl Iterator<Item = (Rank, u32)>, pattern: &str) -> Result<Bpe, String> {
        let mut ranks = HashTable::with_capacity(len);
        for (rank, start) in entries {
            ranks.insert_unique(hash(token_at(&table, start)), (rank, start), |&(_, start)| hash(token_at(&table, start)));
        }
        let built = DFA::builder().thompson(thompson::Config::new().which_captures(thompson::WhichCaptures::None)).build(pattern);
        let pretokens = built.map_err(|e| format!("its split pattern does not compile: {e}"))?;
        Ok(Bpe { table, ranks, pretokens, caches: Mutex::new(Vec::new()) })
    }

    /// Every token's bytes and rank.
    pub fn tokens(&self) -> impl Iterator<Item = (&[u8], Rank)> + '_ {
        self.ranks.iter().map(|&(rank, start)| (token_at(&self.table, start), rank))
    }

    fn rank(&self, bytes: &[u8]) -> Rank {
        self.part(bytes).map_or(NONE, |part| part.rank)
    }

    fn part(&self, bytes: &[u8]) -> Option<Part> {
        let found = self.ranks.find(hash(bytes), |&(_, start)| token_at(&self.table, start) == bytes);
        found.map(|&(rank, start)| Part { rank, start })
    }

    pub fn count(&self, text: &str) -> usize {
        let taken = self.caches.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).pop();
        let mut cache = taken.unwrap_or_else(|| self.pretokens.create_cache());
        let tokens =
            Pretokens { dfa: &self.pretokens, cache: &mut cache, text, at: 0 }.map(|piece| self.piece_tokens(piece.as_bytes())).sum();
        self.caches.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(cache);
        tokens
    }

    /// Asserts that random texts over `alphabet` (20,000 of 1 to 24 characters) split into the
    /// pre-tokens `pattern`, written with its look-ahead, splits them into in fancy-regex, the
    /// engine tiktoken-rs runs it with.
    #[cfg(test)]
    pub(crate) fn assert_splits_as(&self, pattern: &str, alphabet: &str) {
        let alphabet: Vec<char> = alphabet.chars().collect();
        let original = fancy_regex::Regex::new(pattern).expect("the original pattern");
        let mut next = crate::tokens::below_from(0x9E37_79B9_7F4A_7C15);
        let mut cache = self.pretokens.create_cache();
        for _ in 0..20_000 {
            let len = 1 + next(24);
            let text: String = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
            let theirs: Vec<&str> = original.find_iter(&text).map(|m| m.expect("short text").as_str()).collect();
            let ours: Vec<&str> = Pretokens { dfa: &self.pretokens, cache: &mut cache, text: &text, at: 0 }.collect();
            assert_eq!(ours, theirs, "{pattern}: {text:?}");
        }
    }

    fn piece_tokens(&self, piece: &[u8]) -> usize {
        match (piece.len(), self.rank(piece) != NONE) {
            (0, _) => 0,
            // Every single byte is a token of these encodings.
            (1, _) | (_, true) => 1,
            (len, false) if len < HEAP_FROM => self.merge_by_scanning(piece),
            (len, false) if len >= RUNS_FROM && periodic(piece) => {
                self.merge_in_runs(piece, &mut RunsWork::default()).unwrap_or_else(|| self.merge_with_heap(piece))
            }
            _ => self.merge_with_heap(piece),
        }
    }

    /// The tokens `piece` (two bytes or more) merges into: after each merge, the pairs are
    /// scanned again for the lowest rank.
    fn merge_by_scanning(&self, piece: &[u8]) -> usize {
        // `starts[i]` is where part i begins; the last entry is the piece's end.
        let mut starts: Vec<usize> = (0..=piece.len()).collect();
        // `pairs[i]`: the rank of parts i and i + 1 joined.
        let pair = |starts: &[usize], i: usize| match starts.get(i + 2) {
            Some(&end) => self.rank(&piece[starts[i]..end]),
            None => NONE,
        };
        let mut pairs: Vec<Rank> = (0..piece.len() - 1).map(|i| pair(&starts, i)).collect();
        loop {
            let mut lowest = (NONE, 0);
            for (i, &rank) in pairs.iter().enumerate() {
                if rank < lowest.0 {
                    lowest = (rank, i);
                }
            }
            let (rank, i) = lowest;
            if rank == NONE {
                return starts.len() - 1;
            }
            starts.remove(i + 1);
            pairs.remove(i);
            if i < pairs.len() {
                pairs[i] = pair(&starts, i);
            }
            if i > 0 {
                pairs[i - 1] = pair(&starts, i - 1);
            }
        }
    }

    fn merge_with_heap(&self, piece: &[u8]) -> usize {
        merge_with_heap(piece, |bytes| self.rank(bytes))
    }

    /// The tokens `piece` merges into, merged in runs (see [`super::runs`]); `None` when that
    /// gives up. A pair's rank is the rank of the token its two parts join to.
    fn merge_in_runs(&self, piece: &[u8], work: &mut RunsWork) -> Option<usize> {
        let mut of_byte: [Option<Option<Part>>; 256] = [None; 256];
        let parts: Option<Vec<Part>> =
            piece.iter().map(|&byte| *of_byte[usize::from(byte)].get_or_insert_with(|| self.part(&[byte]))).collect();
        let mut joined = Vec::new();
        let join = |left: Part, right: Part| {
            work.lookups += 1;
            joined.clear();
            joined.extend_from_slice(token_at(&self.table, left.start));
            joined.extend_from_slice(token_at(&self.table, right.start));
            self.part(&joined).map(|part| (part.rank, part))
        };
        let runs = merge_counting(&parts?, join, &mut work.steps)?;
        Some(runs.iter().map(|&(_, count)| count).sum())
    }
}

/// The tokens a long `piece` (two bytes or more) merges into, `rank_of` giving each byte string's
/// rank ([`NONE`] when it is not a token): the same merges in the same order as
/// [`Bpe::merge_by_scanning`] and tiktoken, with the candidate pairs in a heap: a pair whose parts
/// changed since it was pushed is skipped when it comes out.
fn merge_with_heap(piece: &[u8], rank_of: impl Fn(&[u8]) -> Rank) -> usize {
    let n = piece.len();
    // For a byte where a part starts: where that part ends, where the part before it starts,
    // and the rank of that part joined with the next (NONE when not a token, or when the
    // byte no longer starts a part).
    let mut end: Vec<usize> = (1..=n).collect();
    let mut before: Vec<Option<usize>> = (0..n).map(|i| i.checked_sub(1)).collect();
    let mut pair_rank = vec![NONE; n];
    let mut heap = BinaryHeap::new();
    for start in 0..n - 1 {
        let rank = rank_of(&piece[start..start + 2]);
        if rank != NONE {
            pair_rank[start] = rank;
            heap.push(Reverse((rank, start)));
        }
    }
    let mut parts = n;
    while let Some(Reverse((rank, start))) = heap.pop() {
        // A part only grows, so the pair at `start` never returns to a rank it had.
        if pair_rank[start] != rank {
            continue;
        }
        let right = end[start];
        end[start] = end[right];
        pair_rank[right] = NONE;
        if end[start] < n {
            before[end[start]] = Some(start);
        }
        parts -= 1;
        for at in std::iter::once(start).chain(before[start]) {
            let next = end[at];
            pair_rank[at] = if next < n { rank_of(&piece[at..end[next]]) } else { NONE };
            if pair_rank[at] != NONE {
                heap.push(Reverse((pair_rank[at], at)));
            }
        }
    }
    parts
}

/// The pre-tokens of a text. A match of the patterns' last alternative, `\s+` (a run of
/// whitespace without a line break: the alternative before it takes any run that has one), is
/// the whole run, so a character that is not whitespace follows it unless the text ends; there
/// tiktoken's `\s+(?!\S)` stops one character short, leaving that whitespace to start the next
/// pre-token (` word`), and its `\s+` takes a single character. Every other alternative holds a
/// character that is not whitespace, or a line break.
struct Pretokens<'d, 't> {
    dfa: &'d DFA,
    cache: &'d mut Cache,
    text: &'t str,
    at: usize,
}

impl<'t> Iterator for Pretokens<'_, 't> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        // Some alternative matches at every character, so each pre-token starts where the last
        // one ended, and an anchored search finds its end. (Were none to match, or the lazy DFA
        // to give up, the rest would be merged as one piece.)
        if self.at == self.text.len() {
            return None;
        }
        let start = self.at;
        let input = Input::new(self.text).range(start..).anchored(Anchored::Yes);
        let Ok(Some(end)) = self.dfa.try_search_fwd(self.cache, &input) else {
            self.at = self.text.len();
            return Some(&self.text[start..]);
        };
        let mut piece = &self.text[start..end.offset()];
        if end.offset() < self.text.len() && piece.chars().all(|c| c.is_whitespace() && c != '\r' && c != '\n') {
            if let Some((last, _)) = piece.char_indices().next_back().filter(|&(last, _)| last > 0) {
                piece = &piece[..last];
            }
        }
        self.at = start + piece.len();
        Some(piece)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiktoken(name: &str) -> tiktoken_rs::CoreBPE {
        match name {
            "o200k_base" => tiktoken_rs::o200k_base(),
            _ => tiktoken_rs::cl100k_base(),
        }
        .expect("bundled ranks")
    }

    /// Texts whose pre-tokens are long and not tokens (the heap path), short and not tokens
    /// (the scanning path), and tokens; in several scripts.
    fn texts() -> Vec<String> {
        let mut texts: Vec<String> = [
            "hello world",
            "Line one\r\nLine two\r\n\r\n   \t  x",
            "Grüße aus Köln – straße ✓ 日本語のテキスト 🙂🙂🙂",
            "supercalifragilisticexpialidocious antidisestablishmentarianism",
            "it's don't WE'LL They'Re 12345678 3.14159 x=y+z;",
            "\"type\":\"function\",\"parameters\":{\"properties\":{}}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Long runs of one kind: letters, digits, punctuation, spaces, mixed scripts.
        for alphabet in ["abcdefghijklmnopqrstuvwxyz", "aeiou", "0123456789", "-=_+*#/.,;:!?", " \t", "éàüßœ", "日本語テキスト", "qzxjkv"]
        {
            let chars: Vec<char> = alphabet.chars().collect();
            for len in [2, 7, 63, 64, 65, 300, 2000] {
                texts.push((0..len).map(|_| chars[(next() % chars.len() as u64) as usize]).collect());
            }
        }
        for len in [100, 1000, 5000] {
            texts.push("a".repeat(len));
            texts.push(" ".repeat(len) + "x");
            texts.push("ab".repeat(len / 2));
        }
        texts
    }

    #[test]
    fn counts_as_tiktoken_encodes() {
        for name in ["o200k_base", "cl100k_base"] {
            let ours = if name == "o200k_base" { Bpe::o200k_base() } else { Bpe::cl100k_base() };
            let theirs = tiktoken(name);
            assert_eq!(ours.ranks.len(), theirs.encode_ordinary("").len() + if name == "o200k_base" { 199_998 } else { 100_256 });
            for text in texts() {
                assert_eq!(ours.count(&text), theirs.encode_ordinary(&text).len(), "{name}: {text:?}");
            }
        }
    }

    /// Random texts over characters of every kind the patterns tell apart (whitespace with and
    /// without line breaks, ASCII and not; letters of each case, modifiers, marks, digits,
    /// apostrophes, punctuation, a slash) split as tiktoken's own patterns split them (by
    /// fancy-regex, the engine tiktoken-rs runs them with).
    #[test]
    fn pretokens_as_tiktokens_patterns_split() {
        let original_cl100k =
            r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s";
        let alphabet =
            " \t\r\n\u{b}\u{a0}\u{85}\u{3000}aZz\u{e9}\u{c9}'sSdLlVe\u{1c5}\u{2b0}\u{301}1\u{663}\u{2167}/.-_!?\u{65e5}\u{1f642}";
        for (ours, pattern) in [(Bpe::o200k_base(), tiktoken_rs::O200K_BASE_PAT_STR), (Bpe::cl100k_base(), original_cl100k)] {
            ours.assert_splits_as(pattern, alphabet);
        }
    }

    /// The two ways of merging agree on every piece, including the long ones each would take.
    #[test]
    fn scanning_and_heap_merge_alike() {
        let bpe = Bpe::o200k_base();
        for text in texts() {
            let bytes = text.as_bytes();
            for len in [2, 5, 17, 63, 64, 200].into_iter().filter(|&len| len <= bytes.len()) {
                let piece = &bytes[..len];
                assert_eq!(bpe.merge_by_scanning(piece), bpe.merge_with_heap(piece), "{piece:?}");
            }
        }
    }

    /// Asserts that merging in runs gives what merging one pair at a time gives under o200k_base
    /// and cl100k_base, on runs of one character (of one, two and three bytes) of each length in
    /// `lengths`, and gives an answer on each; on the runs after another byte and before it too
    /// when `neighbours` says so of the length.
    fn assert_runs_merge_as_the_heap(lengths: impl Iterator<Item = usize> + Clone, neighbours: impl Fn(usize) -> bool) {
        for bpe in [Bpe::o200k_base(), Bpe::cl100k_base()] {
            for unit in [" ", "\t", "\n", "a", "=", "\u{e9}", "\u{3000}"] {
                for n in lengths.clone() {
                    let run = unit.repeat(n);
                    let ours = bpe.merge_in_runs(run.as_bytes(), &mut RunsWork::default());
                    assert_eq!(ours, Some(bpe.merge_with_heap(run.as_bytes())), "{unit:?} \u{d7} {n}");
                    if !neighbours(n) {
                        continue;
                    }
                    for piece in [format!("{run}x"), format!("x{run}")] {
                        let piece = piece.as_bytes();
                        if let Some(ours) = bpe.merge_in_runs(piece, &mut RunsWork::default()) {
                            assert_eq!(ours, bpe.merge_with_heap(piece), "{:?}", String::from_utf8_lossy(piece));
                        }
                    }
                }
            }
        }
    }

    /// Runs of each length from 2 to 300, with a byte before or after them too, and of lengths up
    /// to 4,096 (a stride, and the powers of two and their neighbours, with a byte around them).
    /// Every length from 2 to 4,096 agreed too when the merging in runs was written, but takes
    /// minutes unoptimised: CI runs ignored tests, so that sweep is not kept as one.
    #[test]
    fn runs_merge_as_one_pair_at_a_time() {
        let powers = [511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096];
        assert_runs_merge_as_the_heap((2..=300).chain((301..=4096).step_by(251)).chain(powers), |n| n <= 300 || powers.contains(&n));
    }

    /// Merging in runs gives what merging one pair at a time gives with ranks in any order: random
    /// vocabularies over a few bytes, on random pieces that repeat a short unit with a few bytes
    /// around it (where a merge often makes a pair of a lower rank, and the runs give up).
    #[test]
    fn runs_merge_as_one_pair_at_a_time_with_any_ranks() {
        let mut next = crate::tokens::below_from(0x9E37_79B9_7F4A_7C15);
        let (mut answered, mut gave_up) = (0, 0);
        for _ in 0..60 {
            let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
            for _ in 0..40 {
                let len = 2 + next(10);
                let token: Vec<u8> = (0..len).map(|_| b"ab "[next(3)]).collect();
                if !tokens.contains(&token) {
                    tokens.push(token);
                }
            }
            // The bytes first, then the others in a random order.
            for at in (257..tokens.len()).rev() {
                tokens.swap(at, 256 + next(at - 255));
            }
            let ranks: Vec<(Vec<u8>, Rank)> = tokens.into_iter().zip(0..).collect();
            let bpe = Bpe::from_ranks(&ranks, r"\s+").expect("ranks");
            for _ in 0..40 {
                let unit: Vec<u8> = (0..1 + next(3)).map(|_| b"ab "[next(3)]).collect();
                let around = |next: &mut dyn FnMut(usize) -> usize| -> Vec<u8> { (0..next(3)).map(|_| b"ab "[next(3)]).collect() };
                let mut piece = around(&mut next);
                piece.extend(unit.repeat(2 + next(300)));
                piece.extend(around(&mut next));
                match bpe.merge_in_runs(&piece, &mut RunsWork::default()) {
                    Some(ours) => {
                        answered += 1;
                        assert_eq!(ours, bpe.merge_with_heap(&piece), "{:?} with {ranks:?}", String::from_utf8_lossy(&piece));
                    }
                    None => gave_up += 1,
                }
            }
        }
        assert!(answered > 1000 && gave_up > 50, "answered {answered}, gave up {gave_up}");
    }

    /// A run of spaces twice as long is merged in runs with about the same work: counts, not
    /// clocks (a million spaces took 1 \u{b5}s a byte merged with the heap, 6 \u{b5}s unoptimised).
    #[test]
    fn twice_the_spaces_take_about_the_same_work() {
        for bpe in [Bpe::o200k_base(), Bpe::cl100k_base()] {
            let work = |n: usize| {
                let mut work = RunsWork::default();
                let count = bpe.merge_in_runs(&vec![b' '; n], &mut work).expect("merged in runs");
                (count, work)
            };
            let (million, once) = work(1_000_000);
            let (two_million, twice) = work(2_000_000);
            assert!(two_million > million && two_million <= 2 * million + 1, "{million}, {two_million}");
            assert!(twice.lookups <= once.lookups + 8, "lookups: {} then {}", once.lookups, twice.lookups);
            assert!(twice.steps <= once.steps + 64, "steps: {} then {}", once.steps, twice.steps);
            assert!(once.lookups < 1_000 && once.steps < 10_000, "{} lookups, {} steps", once.lookups, once.steps);
        }
    }
}

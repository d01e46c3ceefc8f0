//! Token counting behind a small trait, so the engine can be swapped. Encoders are built only
//! when a model needs them, once per process; counts are cached by text, since most sections
//! repeat across modes, scenarios and agents.
//!
//! One engine counts o200k_base and cl100k_base: `bpe::Bpe`, which counts as OpenAI's tiktoken
//! encodes, from rank tables `build.rs` takes from tiktoken-rs (a port of tiktoken, tested against
//! the Python original); it also counts the rank files `tokenizer_files` loads. Building a tiktoken-rs encoder cost about 100 ms at every start; this one
//! keeps only the table counting needs (README, Benchmark). A second engine (bpe-openai) once
//! counted about twice as fast, but each engine embeds its own tables and bpe-openai's were 47 MB
//! of the binary's 69 (docs/packaging.md).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, RwLock};

use tiktoken_rs::CoreBPE;

use crate::memo::{content_hash, shard_of, KeyMap, Uses, SHARDS};
use crate::models::Tokenizer;

mod bpe;
mod runs;

pub(crate) use bpe::Bpe;
pub(crate) use runs::{merge_in_runs, periodic, RUNS_FROM};

/// Counts the tokens of a text.
pub trait CountTokens: Send + Sync {
    fn count(&self, text: &str) -> usize;

    /// Whether a text's start counts apart from the same characters after a cut (see [`Cuts`]):
    /// SentencePiece writes a space before a text's first word (the dummy prefix).
    fn marks_start(&self) -> bool {
        false
    }

    /// The count of `text` read after a cut, as the second side of a text cut there: the same
    /// as [`CountTokens::count`] unless the encoder [marks a text's start](CountTokens::marks_start).
    fn count_after_cut(&self, text: &str) -> usize {
        self.count(text)
    }

    /// Where the encoder cuts the concatenation of `parts` into stretches it encodes apart, when
    /// it splits texts by their length (llama-models does): the byte offset in the concatenation
    /// at which each stretch ends, the last one its length; `None` when it encodes the whole as
    /// one text.
    fn segment_ends(&self, _parts: &[&str]) -> Option<Vec<usize>> {
        None
    }

    /// Whether a special token written in a text (a rendered chat template's `<|im_start|>`)
    /// counts as the one token the model reads, as transformers tokenizes a rendered request;
    /// otherwise it is counted as its characters, and a request's count is not the model's.
    fn finds_special_tokens(&self) -> bool {
        false
    }

    /// Why the encoder could not count a text it was given (its engine failed), when that
    /// happened: such a text counted one token per byte, and the run must say so.
    fn failure(&self) -> Option<String> {
        None
    }
}

/// tiktoken-rs encoders (for encodings ctxc does not bundle a table of). `CoreBPE` keeps a regex
/// per thread (up to 128), so threads never share pre-tokenizer state or wait on a lock.
impl CountTokens for CoreBPE {
    fn count(&self, text: &str) -> usize {
        self.encode_ordinary(text).len()
    }
}

impl CountTokens for bpe::Bpe {
    fn count(&self, text: &str) -> usize {
        bpe::Bpe::count(self, text)
    }
}

/// The encoder for a tokenizer (estimates use the o200k_base proxy), built on first use.
pub fn encoder(tokenizer: Tokenizer) -> &'static dyn CountTokens {
    static O200K: OnceLock<bpe::Bpe> = OnceLock::new();
    static CL100K: OnceLock<bpe::Bpe> = OnceLock::new();
    match tokenizer {
        Tokenizer::Cl100kBase => CL100K.get_or_init(bpe::Bpe::cl100k_base),
        // A model's own file is held by the run's `TokenCounter`, which counts with it; here it
        // stands for nothing better than the proxy.
        Tokenizer::O200kBase | Tokenizer::Estimate | Tokenizer::Own(_) => O200K.get_or_init(bpe::Bpe::o200k_base),
    }
}

/// Starts building an encoder on a thread of its own, so that loading and rendering go on
/// meanwhile; the first count waits for it. Does nothing once started.
pub fn warm_up(tokenizer: Tokenizer) {
    static STARTED: [AtomicBool; 2] = [const { AtomicBool::new(false) }; 2];
    if !STARTED[usize::from(tokenizer == Tokenizer::Cl100kBase)].swap(true, Ordering::Relaxed) {
        std::thread::spawn(move || encoder(tokenizer));
    }
}

/// Counts texts with a cache per encoder, keyed by a hash of the text (see [`crate::memo`]).
/// Shared by all threads: a lookup holds the lock briefly and encoding runs outside it.
#[derive(Default)]
pub struct TokenCounter {
    o200k: Counts,
    cl100k: Counts,
    /// The models' own tokenizer files the run loaded ([`TokenCounter::add_file`]).
    files: RwLock<Vec<Arc<FileCounts>>>,
    /// Bytes of text asked for (see [`TokenCounter::bytes_asked`]).
    asked: AtomicU64,
}

/// A tokenizer file's encoder, where its texts may be cut, and its counts.
struct FileCounts {
    name: &'static str,
    encoder: Arc<dyn CountTokens>,
    cuts: Cuts,
    counts: Counts,
}

/// Where an encoder's texts may be cut without changing their counts: between an ASCII byte of
/// one set and an ASCII byte of another. A text cut there counts as its two sides, the second
/// counted as read after a cut (see [`CountTokens::count_after_cut`]). [`Cuts::NONE`] has no
/// cut: long texts and concatenations are then counted whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cuts {
    /// Bit `b` set: a cut may follow byte `b`.
    after: u128,
    /// Bit `b` set: a cut may precede byte `b`.
    before: u128,
}

/// The ASCII letters, as [`Cuts`] holds its sets.
const ASCII_LETTERS: u128 = ((1 << 26) - 1) << b'A' | ((1 << 26) - 1) << b'a';

impl Cuts {
    /// Between an ASCII letter and an ASCII character that is not a letter or an apostrophe:
    /// o200k_base's and cl100k_base's cuts, and those of rank files, Tekken and byte-level
    /// tokenizer.json files with such patterns. No pre-token of these patterns holds a letter
    /// followed by such a character (letter runs end there; only contractions such as `'s`
    /// continue past a letter with a non-letter), the patterns look ahead at most one character
    /// past a letter run and never behind, so the pre-tokens on each side are the same alone as
    /// together, and BPE merges never cross pre-tokens.
    pub const ANY: Cuts = Cuts { after: ASCII_LETTERS, before: !ASCII_LETTERS & !(1 << b'\'') };
    /// No cut at all.
    pub const NONE: Cuts = Cuts { after: 0, before: 0 };

    /// [`Cuts::ANY`] less the cuts before `bytes` (non-ASCII bytes are never cut before anyway).
    pub fn except_before(bytes: impl IntoIterator<Item = u8>) -> Cuts {
        let never_before = bytes.into_iter().filter(u8::is_ascii).fold(0, |set, b| set | 1u128 << b);
        Cuts { before: Cuts::ANY.before & !never_before, ..Cuts::ANY }
    }

    /// Before a space that follows one of `bytes` (ASCII ones; others are never cut after):
    /// SentencePiece's word boundaries.
    pub fn before_space_after(bytes: impl IntoIterator<Item = u8>) -> Cuts {
        let after = bytes.into_iter().filter(u8::is_ascii).fold(0, |set, b| set | 1u128 << b);
        Cuts { after, before: 1 << b' ' }
    }

    /// Whether any cut is allowed.
    pub fn any(self) -> bool {
        self.after != 0 && self.before != 0
    }

    /// The one byte a cut may precede, when there is one only (as a character: it is ASCII).
    fn only_before(self) -> Option<char> {
        (self.before.count_ones() == 1).then(|| char::from(self.before.trailing_zeros() as u8))
    }

    /// Whether a text may be cut between bytes `prev` and `next`.
    pub(crate) fn allows(self, prev: u8, next: u8) -> bool {
        prev < 128 && next < 128 && self.after & (1 << prev) != 0 && self.before & (1 << next) != 0
    }
}

/// Token counts of one encoding by content hash. A text being counted is marked as claimed, so
/// a thread that needs it meanwhile does not count it again: it counts its other chunks first
/// (see [`TokenCounter::count_hashed`]) and then waits for the claimed ones.
#[derive(Default)]
struct Counts {
    shards: [CountShard; SHARDS],
    /// The generation that marks the counts used from now on (see [`TokenCounter::begin`]).
    generation: AtomicU32,
}

#[derive(Default)]
struct CountShard {
    map: Mutex<KeyMap<u128, Counted>>,
    counted: Condvar,
    /// Threads waiting on `counted`, changed only under `map`'s lock: a count set while none
    /// waits wakes no one (a wake-up is a system call, once per text counted otherwise).
    waiting: AtomicUsize,
}

struct Counted {
    /// `None` while the thread that claimed the text is counting it.
    count: Option<usize>,
    uses: Uses,
}

enum Lookup {
    Counted(usize),
    /// Now claimed by the caller, who must count it and [`Claim::finish`].
    Claimed,
    /// Being counted by another thread.
    Busy,
}

impl Counts {
    fn lock(&self, key: u128) -> MutexGuard<'_, KeyMap<u128, Counted>> {
        // Counting cannot leave the map inconsistent, so a poisoned lock is still usable.
        self.shards[shard_of(key)].map.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Wakes the threads waiting for a text of `key`'s shard, if any; `map` is that shard's
    /// lock, held until the waiters are known.
    fn notify(&self, key: u128, map: MutexGuard<'_, KeyMap<u128, Counted>>) {
        let shard = &self.shards[shard_of(key)];
        let waiting = shard.waiting.load(Ordering::Relaxed);
        drop(map);
        if waiting > 0 {
            shard.counted.notify_all();
        }
    }

    fn generation(&self) -> u32 {
        self.generation.load(Ordering::Relaxed)
    }

    fn get(&self, key: u128) -> Option<usize> {
        let mut map = self.lock(key);
        let counted = map.get_mut(&key)?;
        counted.uses.used_by(self.generation());
        counted.count
    }

    fn lookup_or_claim(&self, key: u128) -> Lookup {
        let generation = self.generation();
        let mut map = self.lock(key);
        match map.get_mut(&key) {
            Some(counted) => {
                counted.uses.used_by(generation);
                counted.count.map_or(Lookup::Busy, Lookup::Counted)
            }
            None => {
                map.insert(key, Counted { count: None, uses: Uses::new(generation) });
                Lookup::Claimed
            }
        }
    }

    /// Waits for a text another thread claimed; counts it here if that thread gave it up.
    fn wait(&self, key: u128, count: impl FnOnce() -> usize) -> usize {
        let mut map = self.lock(key);
        loop {
            match map.get(&key).map(|counted| counted.count) {
                Some(Some(count)) => return count,
                Some(None) => {
                    let shard = &self.shards[shard_of(key)];
                    shard.waiting.fetch_add(1, Ordering::Relaxed);
                    map = shard.counted.wait(map).unwrap_or_else(|poisoned| poisoned.into_inner());
                    shard.waiting.fetch_sub(1, Ordering::Relaxed);
                }
                None => break,
            }
        }
        drop(map);
        let count = count();
        self.set(key, count);
        count
    }

    fn set(&self, key: u128, count: usize) {
        let mut map = self.lock(key);
        map.insert(key, Counted { count: Some(count), uses: Uses::new(self.generation()) });
        self.notify(key, map);
    }

    /// Drops the counts no `live` generation used (a text being counted stays); returns how
    /// many are left.
    fn keep(&self, live: &dyn Fn(u32) -> bool) -> usize {
        self.shards
            .iter()
            .map(|shard| {
                let mut map = shard.map.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                map.retain(|_, counted| counted.count.is_none() || counted.uses.keep(&live));
                map.len()
            })
            .sum()
    }
}

/// A claimed text. Dropped without [`Claim::finish`] (a panic while counting), it releases the
/// claim so waiting threads count the text themselves.
struct Claim<'a> {
    counts: &'a Counts,
    key: u128,
    finished: bool,
}

impl Claim<'_> {
    fn finish(mut self, count: usize) -> usize {
        self.counts.set(self.key, count);
        self.finished = true;
        count
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if !self.finished {
            let mut map = self.counts.lock(self.key);
            map.remove(&self.key);
            self.counts.notify(self.key, map);
        }
    }
}

impl TokenCounter {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn count(&self, tokenizer: Tokenizer, text: &str) -> usize {
        self.asked.fetch_add(text.len() as u64, Ordering::Relaxed);
        self.count_hashed(tokenizer, text, content_hash(text))
    }

    /// Bytes of text given to [`TokenCounter::count`] so far, found among the counts or not
    /// (each is read to be hashed): the work callers ask for, which tests of scaling count.
    pub fn bytes_asked(&self) -> u64 {
        self.asked.load(Ordering::Relaxed)
    }

    /// Whether `tokenizer` counts a special token written in a text as one token (see
    /// [`CountTokens::finds_special_tokens`]).
    pub fn finds_special_tokens(&self, tokenizer: Tokenizer) -> bool {
        match tokenizer {
            Tokenizer::Own(name) => {
                let files = self.files.read().unwrap_or_else(|poisoned| poisoned.into_inner());
                files.iter().find(|f| f.name == name).is_some_and(|f| f.encoder.finds_special_tokens())
            }
            other => encoder(other).finds_special_tokens(),
        }
    }

    /// [`CountTokens::failure`] of `tokenizer`'s file.
    pub fn failure(&self, tokenizer: Tokenizer) -> Option<String> {
        self.file(tokenizer).and_then(|f| f.encoder.failure())
    }

    /// Counts [`Tokenizer::Own`]`(name)` with `encoder`, its texts cut only where `cuts` allows,
    /// from now on (the first file added under a name stays: a name is a known file's vocabulary,
    /// whose files count alike, or a file's own hash).
    pub fn add_file(&self, name: &'static str, encoder: Arc<dyn CountTokens>, cuts: Cuts) {
        let mut files = self.files.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        if files.iter().all(|f| f.name != name) {
            let counts = Counts { generation: AtomicU32::new(self.o200k.generation()), ..Counts::default() };
            files.push(Arc::new(FileCounts { name, encoder, cuts, counts }));
        }
    }

    /// Counts used from now on are `generation`'s (see [`crate::memo::Cache::begin`]).
    pub fn begin(&self, generation: u32) {
        self.each_counts(|counts| {
            counts.generation.store(generation, Ordering::Relaxed);
            0
        });
    }

    /// Drops the counts no `live` generation used; returns how many are left.
    pub fn keep(&self, live: impl Fn(u32) -> bool) -> usize {
        self.each_counts(|counts| counts.keep(&live))
    }

    /// `work` on the counts of every encoding, summed.
    fn each_counts(&self, work: impl Fn(&Counts) -> usize) -> usize {
        let files = self.files.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        work(&self.o200k) + work(&self.cl100k) + files.iter().map(|f| work(&f.counts)).sum::<usize>()
    }

    fn file(&self, tokenizer: Tokenizer) -> Option<Arc<FileCounts>> {
        let Tokenizer::Own(name) = tokenizer else { return None };
        self.files.read().unwrap_or_else(|poisoned| poisoned.into_inner()).iter().find(|f| f.name == name).cloned()
    }

    /// [`TokenCounter::count`] of a text whose [`content_hash`] the caller already has.
    ///
    /// A long text is counted as the sum of its chunks, cut where its [`Cuts`] allow and chosen
    /// by content (see `chunks`), each chunk counted once for the process. Texts that share
    /// long stretches (a mode's tool list and another mode's) share those chunks' counts, and
    /// threads that need the same new text count different chunks of it.
    pub fn count_hashed(&self, tokenizer: Tokenizer, text: &str, hash: u128) -> usize {
        self.count_read(tokenizer, text, hash, false)
    }

    /// The count of `text` read after a cut (see [`CountTokens::count_after_cut`]).
    fn count_after_cut(&self, tokenizer: Tokenizer, text: &str) -> usize {
        self.count_read(tokenizer, text, content_hash(text), true)
    }

    /// [`TokenCounter::count_hashed`], or the count after a cut when `after_cut`.
    fn count_read(&self, tokenizer: Tokenizer, text: &str, hash: u128, after_cut: bool) -> usize {
        if text.is_empty() {
            return 0;
        }
        let file = self.file(tokenizer);
        let (counts, cuts) = match (&file, tokenizer) {
            (Some(file), _) => (&file.counts, file.cuts),
            (None, Tokenizer::Cl100kBase) => (&self.cl100k, Cuts::ANY),
            (None, _) => (&self.o200k, Cuts::ANY),
        };
        // Where a text's start counts apart, texts read after a cut are kept under other keys.
        let marks_start = file.as_ref().is_some_and(|f| f.encoder.marks_start());
        let key = |hash: u128, after_cut: bool| if after_cut && marks_start { hash ^ AFTER_CUT } else { hash };
        let encode = |text: &str, after_cut: bool| match &file {
            Some(f) if after_cut => f.encoder.count_after_cut(text),
            Some(f) => f.encoder.count(text),
            None => encoder(tokenizer).count(text),
        };
        // A long text counted before is not looked at again (finding its segments or chunks
        // reads all of it).
        let long = text.len() > CHUNKED_ABOVE;
        if long {
            if let Some(count) = counts.get(key(hash, after_cut)) {
                return count;
            }
        }
        // A text its encoder splits by length is the sum of its segments, each counted (and
        // cut) alone; no such encoder marks a text's start.
        if let Some(ends) = file.as_ref().and_then(|f| f.encoder.segment_ends(&[text])) {
            let total = split_at(text, &ends).map(|segment| self.count(tokenizer, segment)).sum();
            counts.set(hash, total);
            return total;
        }
        if !long || !cuts.any() {
            let key = key(hash, after_cut);
            return match counts.lookup_or_claim(key) {
                Lookup::Counted(count) => count,
                Lookup::Busy => counts.wait(key, || encode(text, after_cut)),
                Lookup::Claimed => Claim { counts, key, finished: false }.finish(encode(text, after_cut)),
            };
        }
        let mut total = 0;
        let mut claimed = Vec::new();
        let mut busy = Vec::new();
        for (i, chunk) in chunks(text, cuts).enumerate() {
            // Every chunk but the first is read after a cut.
            let after_cut = after_cut || i > 0;
            let chunk_key = key(content_hash(chunk), after_cut);
            match counts.lookup_or_claim(chunk_key) {
                Lookup::Counted(count) => total += count,
                Lookup::Busy => busy.push((chunk_key, chunk, after_cut)),
                Lookup::Claimed => claimed.push((Claim { counts, key: chunk_key, finished: false }, chunk, after_cut)),
            }
        }
        // The chunks claimed here encoded on all cores when they add up to much new text (the
        // tool list of an MCP server's thousands of tools is otherwise one thread's work); less
        // is encoded here, so the agents' own threads do not each start one per core for it. The
        // claims are finished here after encoding, before any wait (so no two threads wait for
        // each other), and a panic while encoding drops them, which releases them.
        let new_bytes: usize = claimed.iter().map(|(_, chunk, _)| chunk.len()).sum();
        let encode_claimed = |(_, chunk, after_cut): &(Claim, &str, bool)| encode(chunk, *after_cut);
        let encoded = if new_bytes >= SPREAD_ABOVE {
            crate::parallel::map_in_order(&claimed, encode_claimed)
        } else {
            claimed.iter().map(encode_claimed).collect()
        };
        for ((claim, _, _), count) in claimed.into_iter().zip(encoded) {
            total += claim.finish(count);
        }
        for (chunk_key, chunk, after_cut) in busy {
            total += counts.wait(chunk_key, || encode(chunk, after_cut));
        }
        counts.set(key(hash, after_cut), total);
        total
    }

    /// The exact count of the concatenation of `parts`, each given with its own count, without
    /// encoding the whole: the parts' counts, corrected by counting only the short stretches of
    /// text around the joins (from the last cut in one part to the first cut in the next; see
    /// [`Cuts`]). An encoder that splits the whole by length (see [`CountTokens::segment_ends`])
    /// counts each of its segments so, a part cut by a segment's end counted as two texts.
    pub fn count_concat(&self, tokenizer: Tokenizer, parts: &[(&str, usize)]) -> usize {
        let file = self.file(tokenizer);
        let cuts = file.as_ref().map_or(Cuts::ANY, |f| f.cuts);
        if !cuts.any() {
            return self.count(tokenizer, &parts.iter().map(|(part, _)| *part).collect::<String>());
        }
        // Only a tokenizer file's encoder may split by length: o200k_base's counts skip the list.
        let ends = file.and_then(|f| f.encoder.segment_ends(&parts.iter().map(|(part, _)| *part).collect::<Vec<_>>()));
        let Some(ends) = ends else {
            return self.count_joined(tokenizer, cuts, parts);
        };
        let mut total = 0;
        let mut segment = Vec::new();
        let mut ends = ends.into_iter().peekable();
        let mut offset = 0;
        for &(part, tokens) in parts {
            let mut start = 0;
            // The segments that end in this part, or at its end.
            while let Some(end) = ends.next_if(|&end| end <= offset + part.len()) {
                let piece = &part[start..end - offset];
                let count = if piece.len() == part.len() { tokens } else { self.count(tokenizer, piece) };
                segment.push((piece, count));
                total += self.count_joined(tokenizer, cuts, &segment);
                segment.clear();
                start = end - offset;
            }
            if start < part.len() {
                let piece = &part[start..];
                segment.push((piece, if start == 0 { tokens } else { self.count(tokenizer, piece) }));
            }
            offset += part.len();
        }
        total
    }

    /// [`TokenCounter::count_concat`] of `parts`, where what follows the first part at or after
    /// `from` that the encoder may cut inside is counted by `rest` (given the work to do it): that
    /// count depends on `parts[from..]` alone, so a caller whose parts from `from` on repeat (a
    /// tool list after an edited prompt) can keep it. The same count as [`TokenCounter::count_concat`].
    pub fn count_concat_from(
        &self,
        tokenizer: Tokenizer,
        parts: &[(&str, usize)],
        from: usize,
        rest: impl FnOnce(&dyn Fn() -> i64) -> i64,
    ) -> usize {
        let file = self.file(tokenizer);
        let cuts = file.as_ref().map_or(Cuts::ANY, |f| f.cuts);
        // Encoders that split by length, or never cut: counted whole.
        let splits = file.and_then(|f| f.encoder.segment_ends(&parts.iter().map(|(part, _)| *part).collect::<Vec<_>>())).is_some();
        let first = (from..parts.len()).find_map(|i| Some((i, first_cut(parts[i].0, cuts)?, last_cut(parts[i].0, cuts)?)));
        let Some((at, _, tail)) = first.filter(|_| cuts.any() && !splits) else {
            return self.count_concat(tokenizer, parts);
        };
        let (before, _) = self.fold_joined(tokenizer, cuts, &parts[..=at], String::new(), false);
        let after = rest(&|| {
            let (total, join) = self.fold_joined(tokenizer, cuts, &parts[at + 1..], parts[at].0[tail..].to_string(), true);
            total + self.count_join(tokenizer, &join.0, join.1)
        });
        (before + after).max(0) as usize
    }

    /// A text gathered across parts, counted as read from the whole's start or after a cut.
    fn count_join(&self, tokenizer: Tokenizer, text: &str, after_cut: bool) -> i64 {
        match after_cut {
            true => self.count_after_cut(tokenizer, text) as i64,
            false => self.count(tokenizer, text) as i64,
        }
    }

    /// [`TokenCounter::count_concat`] of parts the encoder reads as one text.
    fn count_joined(&self, tokenizer: Tokenizer, cuts: Cuts, parts: &[(&str, usize)]) -> usize {
        let (total, (join, after_cut)) = self.fold_joined(tokenizer, cuts, parts, String::new(), false);
        (total + self.count_join(tokenizer, &join, after_cut)).max(0) as usize
    }

    /// The tokens of `parts` read after the text `join` (following a cut when `after_cut`), up to
    /// the text after their last cut, which is returned uncounted (with whether it follows a cut).
    fn fold_joined(
        &self,
        tokenizer: Tokenizer,
        cuts: Cuts,
        parts: &[(&str, usize)],
        mut join: String,
        mut after_cut: bool,
    ) -> (i64, (String, bool)) {
        let count = |text: &str, after_cut: bool| self.count_join(tokenizer, text, after_cut);
        let mut total = 0;
        for &(part, tokens) in parts {
            match first_cut(part, cuts).zip(last_cut(part, cuts)) {
                Some((head, tail)) => {
                    join.push_str(&part[..head]);
                    total += count(&join, after_cut);
                    join.clear();
                    after_cut = true;
                    // The part between its first and last cut counts the same in any context:
                    // the part's count less its head (read as a text's start) and its tail.
                    total += tokens as i64 - count(&part[..head], false) - count(&part[tail..], true);
                    join.push_str(&part[tail..]);
                }
                None => join.push_str(part),
            }
        }
        (total, (join, after_cut))
    }
}

/// The stretches of `text` that end at `ends` (see [`CountTokens::segment_ends`]).
pub fn split_at<'a>(text: &'a str, ends: &'a [usize]) -> impl Iterator<Item = &'a str> {
    ends.iter().scan(0, move |start, &end| {
        let stretch = &text[*start..end];
        *start = end;
        Some(stretch)
    })
}

/// Texts longer than this are counted in chunks.
const CHUNKED_ABOVE: usize = 16 * 1024;

/// New chunks of one text adding up to this many bytes are encoded on all cores; fewer, on the
/// thread that reads the text (a thread costs more than encoding a few chunks).
const SPREAD_ABOVE: usize = 64 * 1024;
/// Set in the key of a text counted as read after a cut, by an encoder that marks a text's start.
const AFTER_CUT: u128 = 1;
/// Chunks are at least this long (except a text's last) and at most about `MAX_CHUNK`, unless a
/// stretch has no cut at all.
const MIN_CHUNK: usize = 1024;
const MAX_CHUNK: usize = 32 * 1024;
/// A cut ends a chunk when the rolling hash's low 9 bits are zero: about one cut in 512, which
/// in prose and JSON (a cut every 5 to 8 bytes) makes chunks of a few KB.
const CHUNK_MASK: u64 = (1 << 9) - 1;

/// A table of random 64-bit values for the rolling hash (splitmix64 from a fixed seed).
const GEAR: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut i = 0;
    while i < 256 {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        table[i] = z ^ (z >> 31);
        i += 1;
    }
    table
};

/// Splits a text at cuts (see [`Cuts`]) chosen by its content: a gear rolling hash of the last
/// 64 bytes decides, so two texts with a long stretch in common cut it at the same places and
/// share those chunks. The chunks' counts add up to the text's count.
fn chunks(text: &str, cuts: Cuts) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut hash: u64 = 0;
    let mut i = 0;
    std::iter::from_fn(move || {
        if start == bytes.len() {
            return None;
        }
        while i < bytes.len() {
            hash = (hash << 1).wrapping_add(GEAR[bytes[i] as usize]);
            i += 1;
            let len = i - start;
            // The hash's test first: it fails at most bytes, where looking for a cut would not.
            if (hash & CHUNK_MASK == 0 || len >= MAX_CHUNK) && len >= MIN_CHUNK && i < bytes.len() && cuts.allows(bytes[i - 1], bytes[i]) {
                let chunk = &text[start..i];
                start = i;
                return Some(chunk);
            }
        }
        let chunk = &text[start..];
        start = bytes.len();
        Some(chunk)
    })
}

/// The first place `text` may be cut (see [`Cuts`]). Cuts before one byte only (SentencePiece's,
/// before a space) are found among that byte's places, which `str::find` finds in a word at a
/// time, where testing each pair of bytes took a sixth of the time of counting Gemma 3's texts.
fn first_cut(text: &str, cuts: Cuts) -> Option<usize> {
    match cuts.only_before() {
        Some(next) => text.match_indices(next).map(|(at, _)| at).find(|&at| at > 0 && cuts.allows(text.as_bytes()[at - 1], next as u8)),
        None => text.as_bytes().windows(2).position(|w| cuts.allows(w[0], w[1])).map(|i| i + 1),
    }
}

/// The last place `text` may be cut (see [`first_cut`]).
fn last_cut(text: &str, cuts: Cuts) -> Option<usize> {
    match cuts.only_before() {
        Some(next) => text.rmatch_indices(next).map(|(at, _)| at).find(|&at| at > 0 && cuts.allows(text.as_bytes()[at - 1], next as u8)),
        None => text.as_bytes().windows(2).rposition(|w| cuts.allows(w[0], w[1])).map(|i| i + 1),
    }
}

/// A xorshift generator from `seed` (the same numbers on every run), each number drawn below
/// the bound it is given: the tests' random choices.
#[cfg(test)]
pub(crate) fn below_from(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    }
}

/// `n` texts of up to `max_parts − 1` pieces of `atoms` each, drawn by a xorshift generator from
/// `seed` (the same texts on every run): the counting tests' stress inputs.
#[cfg(test)]
pub(crate) fn random_texts(atoms: &[&str], max_parts: u64, seed: u64, n: usize) -> Vec<String> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n).map(|_| (0..(next() % max_parts) as usize).map(|_| atoms[(next() % atoms.len() as u64) as usize]).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first and last cuts found among one byte's places (SentencePiece's cuts, before a
    /// space after chosen bytes) are those found by testing every pair of bytes, as are those of
    /// other cuts: on texts of spaces next to letters, `>`, line breaks and non-ASCII letters,
    /// a space first and last.
    #[test]
    fn first_and_last_cuts_are_those_of_every_pair_of_bytes() {
        let every_pair = |text: &str, cuts: Cuts| {
            let at: Vec<usize> = (1..text.len()).filter(|&i| cuts.allows(text.as_bytes()[i - 1], text.as_bytes()[i])).collect();
            (at.first().copied(), at.last().copied())
        };
        let spaces = Cuts::before_space_after((0..128u8).filter(|&b| b != b'>' && b != b' '));
        assert_eq!(spaces.only_before(), Some(' '));
        assert_eq!(Cuts::ANY.only_before(), None);
        const ATOMS: &[&str] = &[" ", "  ", "a", "b>", ">", "\n", "é", "日本", "x y", "> "];
        let mut cut = 0;
        for text in random_texts(ATOMS, 9, 7, 3_000) {
            for cuts in [spaces, Cuts::ANY, Cuts::NONE, Cuts::before_space_after([b'a'])] {
                let found = (first_cut(&text, cuts), last_cut(&text, cuts));
                assert_eq!(found, every_pair(&text, cuts), "{text:?} {cuts:?}");
                cut += usize::from(found.0.is_some());
            }
        }
        assert!(cut > 3_000, "{cut}");
    }

    /// Expected counts are from OpenAI's reference tiktoken (Python, via scripts/offline_tiktoken.py).
    #[test]
    fn counts_match_the_reference_tokenizer() {
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
        let counter = TokenCounter::new();
        for (text, o200k, cl100k) in cases {
            assert_eq!(counter.count(Tokenizer::O200kBase, text), *o200k, "o200k {text:?}");
            assert_eq!(counter.count(Tokenizer::Cl100kBase, text), *cl100k, "cl100k {text:?}");
        }
    }

    /// Texts built to stress the joins: runs of spaces and line breaks across them, contractions,
    /// digits, punctuation runs, case changes, marks and non-Latin letters next to cuts.
    fn tricky_parts(seed: u64, n: usize) -> Vec<String> {
        const ATOMS: &[&str] = &[
            "word",
            "Word",
            "WORD",
            "wOrD",
            " ",
            "  ",
            "\n",
            "\n\n",
            "\r\n",
            "\t",
            "'s",
            "'S",
            "'ll",
            "'",
            "\"",
            "{",
            "}",
            ",",
            ".",
            "...",
            "/",
            "//",
            "-",
            "—",
            "123",
            "4567",
            "é",
            "e\u{301}",
            "日本",
            "Ω",
            "x",
            "_",
            "#",
            "## ",
            "- ",
            "it's",
            "don't",
            "\"type\":\"function\"",
            "[",
            "]",
            "🙂",
            " \n ",
            "a1",
            "1a",
        ];
        random_texts(ATOMS, 12, seed, n)
    }

    /// Long texts are counted by chunks; the sum must be the count of the whole, and a stretch
    /// two texts share must be cut the same way in both.
    #[test]
    fn long_texts_counted_in_chunks_count_exactly() {
        for seed in 1..9u64 {
            let text: String = tricky_parts(seed, 9000).concat();
            assert!(text.len() > 4 * CHUNKED_ABOVE, "{}", text.len());
            let pieces: Vec<&str> = chunks(&text, Cuts::ANY).collect();
            assert!(pieces.len() > 8, "{} chunks", pieces.len());
            assert_eq!(pieces.concat(), text);
            for tokenizer in [Tokenizer::O200kBase, Tokenizer::Cl100kBase] {
                let direct = encoder(tokenizer).count(&text);
                assert_eq!(TokenCounter::new().count(tokenizer, &text), direct, "{tokenizer:?} seed {seed}");
            }
            let half: usize = pieces[..pieces.len() / 2].iter().map(|c| c.len()).sum::<usize>() + 7;
            let half = (half..).find(|&i| text.is_char_boundary(i)).unwrap_or(half);
            let shifted = format!("A different start.\n{}", &text[half..]);
            let later: Vec<&str> = pieces[pieces.len() / 2 + 2..].to_vec();
            let shared = chunks(&shifted, Cuts::ANY).filter(|c| later.contains(c)).count();
            assert!(shared + 3 >= later.len(), "{shared} of {} chunks shared", later.len());
        }
    }

    /// A text that repeats one block has the same chunk many times: the first occurrence claims
    /// it and the others find it busy. The claims are finished before any wait, so the thread
    /// does not wait for itself (it would hang here otherwise), and the count is the whole's.
    #[test]
    fn a_text_repeating_one_block_counts_without_waiting_for_itself() {
        let block: String = tricky_parts(7, 300).concat();
        for repeats in [6, 40] {
            let text = block.repeat(repeats);
            assert!(text.len() > CHUNKED_ABOVE, "{}", text.len());
            for tokenizer in [Tokenizer::O200kBase, Tokenizer::Cl100kBase] {
                let direct = encoder(tokenizer).count(&text);
                assert_eq!(TokenCounter::new().count(tokenizer, &text), direct, "{tokenizer:?} x{repeats} ({} bytes)", text.len());
            }
        }
    }

    /// Threads that count the same new long text at once share its chunks and agree.
    #[test]
    fn threads_counting_one_text_agree() {
        let text: String = tricky_parts(42, 20000).concat();
        let direct = encoder(Tokenizer::O200kBase).count(&text);
        let counter = TokenCounter::new();
        let counts: Vec<usize> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4).map(|_| scope.spawn(|| counter.count(Tokenizer::O200kBase, &text))).collect();
            workers.into_iter().map(|w| w.join().expect("no panic")).collect()
        });
        assert_eq!(counts, vec![direct; 4]);
    }

    /// The concatenation rule on texts made to break it; the reference is the encoder counting
    /// the whole text. Counting the parts from any point on apart (kept by the caller) gives the
    /// same count, and so does the kept count used again without counting those parts again.
    #[test]
    fn counting_a_concatenation_by_its_parts_is_exact() {
        let counter = TokenCounter::new();
        for seed in 1..600u64 {
            let parts = tricky_parts(seed, 1 + (seed % 7) as usize);
            let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
            let whole = parts.concat();
            let counted = |tokenizer| parts.iter().map(|part| (*part, counter.count(tokenizer, part))).collect::<Vec<_>>();
            for tokenizer in [Tokenizer::O200kBase, Tokenizer::Cl100kBase] {
                let direct = encoder(tokenizer).count(&whole);
                assert_eq!(counter.count(tokenizer, &whole), direct, "{tokenizer:?} {whole:?}");
                let counted = counted(tokenizer);
                assert_eq!(counter.count_concat(tokenizer, &counted), direct, "{tokenizer:?} {parts:?}");
                for from in 0..=parts.len() {
                    let kept = std::cell::Cell::new(None);
                    let rest = |work: &dyn Fn() -> i64| {
                        kept.set(Some(work()));
                        kept.get().unwrap_or_default()
                    };
                    assert_eq!(counter.count_concat_from(tokenizer, &counted, from, rest), direct, "{tokenizer:?} {parts:?} from {from}");
                    if let Some(value) = kept.get() {
                        assert_eq!(counter.count_concat_from(tokenizer, &counted, from, |_| value), direct, "{parts:?} from {from}, kept");
                    }
                }
            }
        }
    }
}

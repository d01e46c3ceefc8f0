//! What ctxc's own engines for Hugging Face BPE tokenizer.json files share ([`super::sentencepiece_json`],
//! [`super::byte_level`]): the model's vocabulary and merges, merged as the `tokenizers` crate merges a
//! word (`models/bpe/word.rs`, tokenizers 0.23), and the added tokens found in text as its
//! `AddedVocabulary` finds them.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;

use aho_corasick::{AhoCorasick, MatchKind};
use hashbrown::HashTable;
use rustc_hash::FxHashSet;

use super::{AddedToken, BpeParts, Chunked, Merge, Text, VocabularyEntries};
use crate::memo::content_hash;
use crate::tokens::{merge_in_runs, periodic, RUNS_FROM};

/// No symbol (the end of a word, or before its start).
pub(super) const NONE: u32 = u32::MAX;

/// A BPE model's vocabulary and merges.
pub(super) struct Merges {
    /// Each token's id by the [`content_hash`] of its text (as ctxc's memos know texts: no
    /// string is kept or compared).
    vocab: Ids,
    /// Each merge by its two parts' ids: its rank and the joined token's id.
    merges: ByLeft,
    /// Caches of the merges looked up, one taken by each word merged (see [`Recent`]).
    recent: Mutex<Vec<Recent>>,
}

impl Merges {
    /// The vocabulary and merges of a BPE model, and with `space`, the last characters of the
    /// merges' left parts whose right part starts with it; `None` for a model whose ids are not
    /// 0 to n − 1 each once (the crate keeps one of a token or an id written twice, which this
    /// does not follow), or with a merge the crate would refuse (a part or the joined token
    /// outside the vocabulary, a merge written `"a b"` without exactly one space). The merges
    /// are those resolved while the file was read ([`BpeParts::resolved`], taken), or else
    /// resolved here from their texts.
    pub(super) fn of(parts: &mut BpeParts<'_>, space: Option<char>) -> Option<(Merges, FxHashSet<char>)> {
        let Resolved { vocab, merges, failed, .. } = match parts.resolved.take() {
            Some(resolved) => resolved,
            None => {
                let mut resolver = Resolver::new(parts.vocab.as_ref()?);
                for written in parts.merges.as_ref()?.chunks() {
                    resolver.chunk(written);
                }
                resolver.finish()
            }
        };
        if failed {
            return None;
        }
        let mut joined = FxHashSet::default();
        if let Some(space) = space {
            // Whether each token starts with `space`, then whether each is a left part before
            // one of those, by id: a byte each, where each token's first and last characters
            // took 16 bytes (4 MB for Gemma 3's, each page a fault).
            let entries = &parts.vocab.as_ref()?.0;
            let mut spaced = vec![false; vocab.hashes.len()];
            for (id, token) in entries.iter() {
                spaced[*id as usize] = token.as_ref().starts_with(space);
            }
            let before_spaced: Vec<bool> = (merges.first.windows(2))
                .map(|group| merges.pairs[group[0] as usize..group[1] as usize].iter().any(|pair| spaced[pair.right as usize]))
                .collect();
            for (id, token) in entries.iter() {
                if before_spaced[*id as usize] {
                    joined.extend(token.as_ref().chars().next_back());
                }
            }
        }
        Some((Merges { vocab, merges, recent: Mutex::default() }, joined))
    }

    /// The id of the token `text`, if it is one.
    pub(super) fn id(&self, text: &str) -> Option<u32> {
        self.vocab.get(content_hash(text))
    }

    pub(super) fn len(&self) -> usize {
        self.vocab.len()
    }

    /// The token ids BPE leaves of a word's symbols: the adjacent pair with the lowest merge
    /// rank first (the leftmost among equals), into the token of the two joined, until no
    /// adjacent pair is a merge.
    /// A long word that repeats a few symbols (a run of spaces) is merged in runs
    /// ([`merge_in_runs`]: a pair's rank is its place in the merges); a word of fewer than
    /// [`SCAN_BELOW`] symbols by scanning its pairs after each merge.
    pub(super) fn merge(&self, ids: impl IntoIterator<Item = u32>) -> Vec<u32> {
        let ids: Vec<u32> = ids.into_iter().collect();
        if ids.len() < 2 {
            return ids;
        }
        if ids.len() >= RUNS_FROM && periodic(&ids) {
            if let Some(runs) = merge_in_runs(&ids, |left, right| self.merges.get(left, right)) {
                return runs.into_iter().flat_map(|(id, count)| std::iter::repeat_n(id, count)).collect();
            }
        }
        let taken = self.recent.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).pop();
        let mut recent = taken.unwrap_or_else(|| Recent::new(RECENT_BITS));
        let merged = match ids.len() < SCAN_BELOW {
            true => self.merge_by_scanning(ids, &mut recent),
            false => self.merge_one_at_a_time(ids, &mut recent),
        };
        self.recent.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(recent);
        merged
    }

    /// [`Merges::merge`] of a short word: the pair of the lowest rank (the leftmost of equals)
    /// found by scanning the pairs' ranks, merged, and its neighbours' pairs looked up again,
    /// until no pair is a merge. The order of the crate's queue, without its pushes and pops.
    fn merge_by_scanning(&self, mut ids: Vec<u32>, recent: &mut Recent) -> Vec<u32> {
        let mut merge_of = |left: u32, right: u32| recent.get(&self.merges, left, right).unwrap_or((NONE, NONE));
        // `pairs[i]`: the rank of `ids[i]` and `ids[i + 1]` merged, and the joined id.
        let mut pairs: Vec<(u32, u32)> = ids.windows(2).map(|w| merge_of(w[0], w[1])).collect();
        loop {
            let mut lowest = (NONE, 0);
            for (at, &(rank, _)) in pairs.iter().enumerate() {
                if rank < lowest.0 {
                    lowest = (rank, at);
                }
            }
            let (rank, at) = lowest;
            if rank == NONE {
                return ids;
            }
            ids[at] = pairs[at].1;
            ids.remove(at + 1);
            pairs.remove(at);
            if at < pairs.len() {
                pairs[at] = merge_of(ids[at], ids[at + 1]);
            }
            if at > 0 {
                pairs[at - 1] = merge_of(ids[at - 1], ids[at]);
            }
        }
    }

    /// [`Merges::merge`], one pair at a time, the pairs in a queue.
    fn merge_one_at_a_time(&self, ids: Vec<u32>, recent: &mut Recent) -> Vec<u32> {
        #[derive(Clone, Copy)]
        struct Symbol {
            id: u32,
            prev: u32,
            next: u32,
        }
        let mut symbols: Vec<Symbol> =
            ids.into_iter().enumerate().map(|(at, id)| Symbol { id, prev: (at as u32).wrapping_sub(1), next: at as u32 + 1 }).collect();
        if let Some(last) = symbols.last_mut() {
            last.next = NONE;
        }
        let mut merge_of = |left: u32, right: u32| recent.get(&self.merges, left, right);
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

/// A BPE model's merges resolved into their parts' ids as they are read (see [`Resolver`]).
pub(super) struct Resolved {
    vocab: Ids,
    merges: ByLeft,
    /// How many merges were read.
    pub(super) count: usize,
    /// Whether the vocabulary's ids are not 0 to n − 1 each once, or a merge could not be
    /// resolved (see [`Merges::of`]): the merges after it were read, not resolved.
    failed: bool,
}

/// The merges of a BPE model resolved into ids chunk by chunk, each chunk while its texts are
/// at hand (as the file is read, when its vocabulary comes first: no list of the texts of
/// Gemma 3's 514,906 merges is kept), each step a loop of its own: a loop of lookups alone
/// keeps several of the table's memory reads in flight, where one lookup after another's
/// hashing waited for each (most of the time of loading Gemma 3's merges).
pub(super) struct Resolver {
    vocab: Ids,
    joined: Joined,
    /// Each merge's parts' ids and the joined token's (see [`ByLeft::new`]).
    merges: Chunked<[u32; 3]>,
    /// A chunk's merges' parts' hashes (left, right, left, …) and ids.
    hashes: Vec<u128>,
    ids: Vec<u32>,
    count: usize,
    failed: bool,
}

impl Resolver {
    /// A resolver for the merges of the vocabulary `entries`, failed from the start unless its
    /// ids are 0 to n − 1, each once, and no token is written twice.
    pub(super) fn new(entries: &VocabularyEntries<'_>) -> Resolver {
        let vocab = Self::vocabulary(&entries.0);
        let failed = vocab.is_none();
        let vocab = vocab.unwrap_or_else(|| Ids::with_capacity(0));
        let joined = Joined { next: 0, buffer: String::new() };
        Resolver { vocab, joined, merges: Chunked::new(), hashes: Vec::new(), ids: Vec::new(), count: 0, failed }
    }

    /// The ids by text of the vocabulary `entries`.
    fn vocabulary(entries: &Chunked<(u64, Text<'_>)>) -> Option<Ids> {
        let mut vocab = Ids::with_capacity(entries.len());
        let mut seen = vec![false; entries.len()];
        for (id, token) in entries.iter() {
            let seen = usize::try_from(*id).ok().and_then(|id| seen.get_mut(id)).filter(|seen| !**seen)?;
            *seen = true;
            if !vocab.insert(content_hash(token.as_ref()), *id as u32) {
                return None;
            }
        }
        Some(vocab)
    }

    /// Resolves the next merges, those of `written` (read once one could not be: see [`Resolved::failed`]).
    pub(super) fn chunk(&mut self, written: &[Merge<'_>]) {
        self.failed = self.failed || self.resolve(written).is_none();
        self.count += written.len();
    }

    fn resolve(&mut self, written: &[Merge<'_>]) -> Option<()> {
        let Resolver { vocab, joined, merges, hashes, ids, count, .. } = self;
        let mut pairs = Vec::with_capacity(written.len());
        for merge in written {
            pairs.push(match merge {
                Merge::Pair(left, right) => (left.as_ref(), right.as_ref()),
                Merge::Joined(text) => text.as_ref().split_once(' ').filter(|(_, right)| !right.contains(' '))?,
            });
        }
        hashes.clear();
        hashes.extend(pairs.iter().flat_map(|(left, right)| [content_hash(left), content_hash(right)]));
        vocab.get_each(hashes, ids)?;
        for (at, ((left, right), parts)) in pairs.iter().zip(ids.chunks_exact(2)).enumerate() {
            // Its rank, its place in the merges, within a `u32`.
            u32::try_from(*count + at).ok()?;
            merges.push([parts[0], parts[1], joined.id(vocab, left, right)?]);
        }
        Some(())
    }

    /// The merges resolved, grouped by left id ([`ByLeft`]) unless one failed.
    pub(super) fn finish(self) -> Resolved {
        let merges = match self.failed {
            true => ByLeft::new(0, [].iter()),
            false => ByLeft::new(self.vocab.hashes.len(), self.merges.iter()),
        };
        Resolved { vocab: self.vocab, merges, count: self.count, failed: self.failed }
    }
}

/// Token ids by the [`content_hash`] of their texts: a table of ids, 4 bytes a slot, each id's
/// hash kept once in a list by id. A map from hash to id took 32 bytes a slot and twice as many
/// slots as ids: 17 MB for Gemma 3's 262,144 tokens, each of its pages first touched (a page
/// fault) while the file loads, where these take 7 MB.
struct Ids {
    /// The hash of each id's text, by id (ids not inserted yet: 0).
    hashes: Vec<u128>,
    table: HashTable<u32>,
}

impl Ids {
    /// A table for the ids 0 to `len` − 1.
    fn with_capacity(len: usize) -> Ids {
        Ids { hashes: vec![0; len], table: HashTable::with_capacity(len) }
    }

    /// Adds `id` (below the capacity, each id once) as the token of `hash`; `false` when a
    /// token of that hash is there already.
    fn insert(&mut self, hash: u128, id: u32) -> bool {
        if self.get(hash).is_some() {
            return false;
        }
        self.hashes[id as usize] = hash;
        let hashes = &self.hashes;
        self.table.insert_unique(hash as u64, id, |&id| hashes[id as usize] as u64);
        true
    }

    /// The id of the token whose text has `hash`.
    fn get(&self, hash: u128) -> Option<u32> {
        self.table.find(hash as u64, |&id| self.hashes[id as usize] == hash).copied()
    }

    /// [`Ids::get`] of each of `hashes`, into `ids` (emptied first); `None` when one is not a
    /// token's. In two loops whose reads from memory do not wait on each other (several in
    /// flight at once): the id in each hash's slot (the first whose tag matches), then that id's
    /// hash checked, where a lookup's read of the hash waited on its read of the slot (most of
    /// the time of resolving Gemma 3's merges).
    fn get_each(&self, hashes: &[u128], ids: &mut Vec<u32>) -> Option<()> {
        ids.clear();
        ids.extend(hashes.iter().map(|hash| self.table.find(*hash as u64, |_| true).map_or(NONE, |id| *id)));
        for (hash, id) in hashes.iter().zip(ids.iter_mut()) {
            if self.hashes.get(*id as usize) != Some(hash) {
                *id = self.get(*hash)?;
            }
        }
        Some(())
    }

    fn len(&self) -> usize {
        self.table.len()
    }
}

/// How many slots a [`Recent`] has, as a power of two: 65,536 slots of 16 bytes (1 MB).
const RECENT_BITS: u32 = 16;

/// Words of fewer symbols than this are merged by scanning their pairs (see [`Merges::merge_by_scanning`]).
const SCAN_BELOW: usize = 64;

/// An empty slot of [`Recent`] (no lookup has both parts [`NONE`]).
const EMPTY: u64 = u64::MAX;

/// The merges of pairs looked up recently, in slots chosen by the pair: a word's pairs are
/// found in this small table most of the time, where [`ByLeft::get`] searches a group of up to
/// thousands of merges spread over megabytes (each step a read from memory: most of the time
/// of merging a word in Gemma 3's 514,906 merges). A slot holds the last pair looked up there
/// and its answer (a merge or none), so it answers as [`ByLeft`] answers.
struct Recent {
    /// The pair (left id, right id) in the high and low halves, then the rank and joined id in
    /// the high and low halves ([`EMPTY`] for no merge).
    slots: Box<[(u64, u64)]>,
    bits: u32,
}

impl Recent {
    fn new(bits: u32) -> Recent {
        Recent { slots: vec![(EMPTY, EMPTY); 1 << bits].into_boxed_slice(), bits }
    }

    /// [`ByLeft::get`] of `merges`, remembered.
    fn get(&mut self, merges: &ByLeft, left: u32, right: u32) -> Option<(u32, u32)> {
        let pair = u64::from(left) << 32 | u64::from(right);
        if pair == EMPTY {
            return merges.get(left, right);
        }
        let at = (pair.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        let slot = &mut self.slots[at];
        if slot.0 != pair {
            let found = merges.get(left, right);
            *slot = (pair, found.map_or(EMPTY, |(rank, id)| u64::from(rank) << 32 | u64::from(id)));
        }
        match slot.1 {
            EMPTY => None,
            found => Some(((found >> 32) as u32, found as u32)),
        }
    }
}

/// A merge as [`ByLeft`] holds it: its right part's id, its rank and the joined token's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pair {
    right: u32,
    rank: u32,
    id: u32,
}

/// A model's merges grouped by their left part's id, each group ordered by the right part's id:
/// a lookup reads the group's bounds, then searches the group (most hold a few merges). Built in
/// two passes over the merges (a count per left id, then each merge put in its group's place),
/// where a hash table keyed by both ids took a scattered write per merge.
struct ByLeft {
    /// Where each left id's group starts in `pairs`, and after the last, where the last ends:
    /// the merges of left id `l` are `pairs[first[l]..first[l + 1]]`.
    first: Vec<u32>,
    pairs: Vec<Pair>,
}

impl ByLeft {
    /// The merges in rank order, each its left part's id, its right part's (below `ids`, the
    /// vocabulary's size) and the joined token's. Of a pair written twice the last one is kept,
    /// as the crate's map keeps it.
    fn new<'m>(ids: usize, merges: impl Iterator<Item = &'m [u32; 3]> + Clone) -> ByLeft {
        // Where each left id's group starts, then used as its next place, which leaves there
        // where the next group starts.
        let mut first = vec![0u32; ids + 1];
        for [left, ..] in merges.clone() {
            first[*left as usize + 1] += 1;
        }
        for at in 1..first.len() {
            first[at] += first[at - 1];
        }
        let mut pairs = vec![Pair { right: 0, rank: 0, id: 0 }; first[ids] as usize];
        for (rank, [left, right, id]) in merges.enumerate() {
            let at = &mut first[*left as usize];
            pairs[*at as usize] = Pair { right: *right, rank: rank as u32, id: *id };
            *at += 1;
        }
        first.copy_within(0..ids, 1);
        first[0] = 0;
        // Each group by right id (ranks rising among equals), a pair written twice kept once.
        let (mut kept, mut start) = (0, 0);
        for left in 0..ids {
            let end = first[left + 1] as usize;
            pairs[start..end].sort_unstable_by_key(|p| (p.right, p.rank));
            first[left] = kept as u32;
            for at in start..end {
                if at + 1 == end || pairs[at + 1].right != pairs[at].right {
                    pairs[kept] = pairs[at];
                    kept += 1;
                }
            }
            start = end;
        }
        first[ids] = kept as u32;
        pairs.truncate(kept);
        ByLeft { first, pairs }
    }

    /// The rank of the merge of `left` and `right` and the joined token's id, if they are a merge.
    fn get(&self, left: u32, right: u32) -> Option<(u32, u32)> {
        let bounds = self.first.get(left as usize..left as usize + 2)?;
        let group = &self.pairs[bounds[0] as usize..bounds[1] as usize];
        let at = group.binary_search_by_key(&right, |p| p.right).ok()?;
        Some((group[at].rank, group[at].id))
    }
}

/// The ids of merges' joined tokens, read in the merges' order. Files write merges in the order
/// their joined tokens' ids were given (BPE training, a SentencePiece model's scores), so the
/// token is most often the last merge's or one of the few after it: the hashes of those are
/// compared first, in order (a read from where the last one was), before the table is searched
/// (a read from anywhere in it). Comparing their texts there took a call of `memcmp` or two per
/// merge, 4% of the time of loading Gemma 3's tokenizer.json.
struct Joined {
    /// The last merge's joined token.
    next: usize,
    buffer: String,
}

/// How many tokens from the last merge's joined token on are compared before a lookup.
const JOINED_WINDOW: usize = 4;

impl Joined {
    /// The id of the token `left` and `right` join to, if it is one (`vocab`, the whole
    /// vocabulary, no two of its tokens of one hash).
    fn id(&mut self, vocab: &Ids, left: &str, right: &str) -> Option<u32> {
        self.buffer.clear();
        self.buffer.push_str(left);
        self.buffer.push_str(right);
        let hash = content_hash(&self.buffer);
        let near = vocab.hashes.iter().skip(self.next).take(JOINED_WINDOW).position(|near| *near == hash);
        let id = match near {
            Some(at) => (self.next + at) as u32,
            None => vocab.get(hash)?,
        };
        self.next = id as usize;
        Some(id)
    }
}

/// A tokenizer.json's added tokens, found in text as the crate finds them: those not
/// `normalized` in the raw text, then those `normalized` (as the normalizer writes them) in the
/// normalized text between, each time the leftmost, then longest.
pub(super) struct AddedTokens {
    raw: Option<AhoCorasick>,
    raw_ids: Vec<u32>,
    normalized: Option<AhoCorasick>,
    normalized_ids: Vec<u32>,
    /// Whether one holds a space.
    pub(super) space: bool,
}

/// A stretch of text between added tokens, or an added token's id.
pub(super) enum Found<'t> {
    Text(&'t str),
    Added(u32),
}

impl AddedTokens {
    /// The added tokens and their ids (as the crate's `add_tokens` gives them: a token of the
    /// vocabulary keeps its id, the others take the next ones after it, in order); `normalize`
    /// writes a `normalized` one as the normalizer would. `None` unless each is matched as it is
    /// written, or normalized when `normalize` is given (no stripping, not only as a whole word),
    /// none is empty and none written twice.
    pub(super) fn of(
        tokens: Option<&[AddedToken<'_>]>,
        merges: &Merges,
        normalize: Option<&dyn Fn(&str) -> String>,
    ) -> Option<AddedTokens> {
        let tokens = tokens?;
        let mut next = u32::try_from(merges.len()).ok()?;
        let mut seen = FxHashSet::default();
        let (mut raw, mut normalized) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
        for token in tokens {
            let content = token.content.as_ref();
            let plain = !token.lstrip && !token.rstrip && !token.single_word && (!token.normalized || normalize.is_some());
            if !plain || content.is_empty() || !seen.insert(content) {
                return None;
            }
            let id = merges.id(content).unwrap_or_else(|| {
                next += 1;
                next - 1
            });
            match (token.normalized, normalize) {
                (true, Some(normalize)) => {
                    normalized.0.push(normalize(content));
                    normalized.1.push(id);
                }
                _ => {
                    raw.0.push(content.to_string());
                    raw.1.push(id);
                }
            }
        }
        let matcher = |patterns: &[String]| match patterns.is_empty() {
            true => Some(None),
            false => AhoCorasick::builder().match_kind(MatchKind::LeftmostLongest).build(patterns).ok().map(Some),
        };
        Some(AddedTokens {
            raw: matcher(&raw.0)?,
            raw_ids: raw.1,
            normalized: matcher(&normalized.0)?,
            normalized_ids: normalized.1,
            space: tokens.iter().any(|t| t.content.as_ref().contains(' ')),
        })
    }

    /// Whether any token is `normalized`.
    pub(super) fn any_normalized(&self) -> bool {
        self.normalized.is_some()
    }

    /// The raw text's stretches and the added tokens not `normalized` between them, in order.
    pub(super) fn raw<'t>(&'t self, text: &'t str) -> impl Iterator<Item = Found<'t>> + 't {
        found(self.raw.as_ref(), &self.raw_ids, text)
    }

    /// A normalized stretch's stretches and the `normalized` added tokens between them, in order.
    pub(super) fn normalized<'t>(&'t self, text: &'t str) -> impl Iterator<Item = Found<'t>> + 't {
        found(self.normalized.as_ref(), &self.normalized_ids, text)
    }
}

/// `text` cut at the tokens `matcher` finds: the stretches between (empty ones left out) and the tokens' ids.
fn found<'t>(matcher: Option<&'t AhoCorasick>, ids: &'t [u32], text: &'t str) -> impl Iterator<Item = Found<'t>> + 't {
    let mut at = 0;
    let matches = matcher.map(|m| m.find_iter(text)).into_iter().flatten();
    matches.map(Some).chain([None]).flat_map(move |found| {
        let (gap_end, token) = match found {
            Some(m) => (m.start(), Some(Found::Added(ids[m.pattern().as_usize()]))),
            None => (text.len(), None),
        };
        let gap = (gap_end > at).then(|| Found::Text(&text[at..gap_end]));
        at = found.map_or(text.len(), |m| m.end());
        gap.into_iter().chain(token)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap;

    /// The table by left id gives what a hash table of every merge, each written over by a later
    /// one of the same pair, gives: for every pair of ids (merges or not), on merges in a file's
    /// order and on a doctored list (pairs written twice, out of order, ids without merges, the
    /// last id a left part, and ids beyond the vocabulary).
    #[test]
    fn merges_by_left_id_are_the_hash_tables_merges() {
        const IDS: u32 = 40;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = |below: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(below)) as u32
        };
        let ordered: Vec<(u32, u32)> =
            (0..IDS).flat_map(|l| (0..IDS).map(move |r| (l, r))).filter(|(l, r)| (l * 7 + r * 3) % 5 == 0).collect();
        let mut doctored: Vec<(u32, u32)> = (0..600).map(|_| (random(IDS), random(IDS))).collect();
        doctored.extend([(IDS - 1, 0), (IDS - 1, IDS - 1), (3, 5), (3, 5), (0, 0)]);
        doctored.retain(|(l, _)| *l != 11);
        for written in [ordered, doctored] {
            let mut table = FxHashMap::default();
            let mut merges = Vec::new();
            for (rank, (left, right)) in written.iter().enumerate() {
                let (rank, id) = (rank as u32, (left + right) % IDS);
                table.insert((*left, *right), (rank, id));
                merges.push([*left, *right, id]);
            }
            let by_left = ByLeft::new(IDS as usize, merges.iter());
            assert_eq!(by_left.pairs.len(), table.len());
            for left in 0..IDS + 3 {
                for right in 0..IDS + 3 {
                    assert_eq!(by_left.get(left, right), table.get(&(left, right)).copied(), "({left}, {right})");
                }
            }
            assert_eq!(by_left.get(u32::MAX, 0), None);
            assert_eq!(by_left.get(0, u32::MAX), None);
        }
    }

    /// The table of ids finds each token's id by its text's hash, and no id for a text that is
    /// not a token: 5,000 ids inserted out of order (as a file may write them); a second token
    /// of the same text is refused and the first keeps its id.
    #[test]
    fn ids_are_found_by_their_texts_hash() {
        const N: u32 = 5_000;
        let mut ids = Ids::with_capacity(N as usize);
        for id in (0..N).map(|i| i * 2_017 % N) {
            assert!(ids.insert(content_hash(&format!("t{id}")), id), "t{id}");
        }
        assert_eq!(ids.len(), N as usize);
        for id in 0..N {
            assert_eq!(ids.get(content_hash(&format!("t{id}"))), Some(id), "t{id}");
        }
        for missing in [format!("t{N}"), "t".into(), String::new()] {
            assert_eq!(ids.get(content_hash(&missing)), None, "{missing}");
        }
        // In two loops, as one at a time: at this load many a slot found first holds another
        // id of the same tag, and its hash then differs.
        let hashes: Vec<u128> = (0..N).rev().map(|id| content_hash(&format!("t{id}"))).collect();
        let mut each = vec![7; 3];
        assert_eq!(ids.get_each(&hashes, &mut each), Some(()));
        assert_eq!(each, (0..N).rev().collect::<Vec<_>>());
        let tags_shared =
            hashes.iter().filter(|hash| ids.table.find(**hash as u64, |_| true).is_some_and(|id| ids.hashes[*id as usize] != **hash));
        assert!(tags_shared.count() > 10);
        let with_missing = [hashes[0], content_hash(&format!("t{N}")), hashes[1]];
        assert_eq!(ids.get_each(&with_missing, &mut each), None);
        let mut twice = Ids::with_capacity(2);
        assert!(twice.insert(content_hash("a"), 1));
        assert!(!twice.insert(content_hash("a"), 0));
        assert_eq!((twice.get(content_hash("a")), twice.len()), (Some(1), 1));
    }

    /// A table of recent lookups answers as the table by left id, whatever it held before: eight
    /// slots for some 2,000 pairs (each slot taken by many pairs in turn), the pairs looked up
    /// in rising order, falling order and again, merges and not, ids beyond the vocabulary and
    /// the pair of [`NONE`]s that an empty slot is written as.
    #[test]
    fn recent_lookups_answer_as_the_table() {
        const IDS: u32 = 45;
        let merges: Vec<[u32; 3]> = (0..IDS)
            .flat_map(|l| (0..IDS).map(move |r| (l, r)))
            .filter(|(l, r)| (l * 7 + r * 3) % 4 == 0)
            .map(|(left, right)| [left, right, (left * 3 + right) % IDS])
            .collect();
        let by_left = ByLeft::new(IDS as usize, merges.iter());
        let mut recent = Recent::new(3);
        let pairs: Vec<(u32, u32)> =
            (0..IDS + 2).flat_map(|l| (0..IDS + 2).map(move |r| (l, r))).chain([(NONE, NONE), (NONE, 0)]).collect();
        let mut found = 0;
        for (left, right) in pairs.iter().chain(pairs.iter().rev()).chain(&pairs).copied() {
            let answer = recent.get(&by_left, left, right);
            assert_eq!(answer, by_left.get(left, right), "({left}, {right})");
            found += usize::from(answer.is_some());
        }
        assert!(found > 1_000, "{found}");
    }

    /// A merge's rank is its place in the whole list, across the chunks it was read in (as
    /// written, and resolved as read): the merges `L{i} R` → `L{i}R`, more than two chunks of them.
    #[test]
    fn merges_ranks_run_on_across_chunks() {
        let n = 2 * super::super::CHUNK + 3;
        let mut vocab = serde_json::Map::new();
        vocab.insert("R".into(), 0.into());
        for i in 0..n {
            vocab.insert(format!("L{i}"), (1 + 2 * i).into());
            vocab.insert(format!("L{i}R"), (2 + 2 * i).into());
        }
        let merges: Vec<String> = (0..n).map(|i| format!("L{i} R")).collect();
        let json = serde_json::json!({"type": "BPE", "vocab": vocab, "merges": merges}).to_string();
        let written: BpeParts = serde_json::from_str(&json).unwrap();
        let streamed: super::super::Streamed = serde_json::from_str(&json).unwrap();
        assert!(streamed.0.resolved.as_ref().is_some_and(|r| r.count == n && !r.failed));
        for mut parts in [written, streamed.0] {
            let (model, _) = Merges::of(&mut parts, None).unwrap();
            for i in 0..n as u32 {
                assert_eq!(model.merges.get(1 + 2 * i, 0), Some((i, 2 + 2 * i)), "merge {i}");
                assert_eq!(model.merge([1 + 2 * i, 0]), [2 + 2 * i]);
            }
        }
    }

    /// What a model's merges give (each token's id, each pair's merge, the last characters of
    /// left parts before a right part that starts with `▁`), read as written and as resolved
    /// while read; `None` for a model refused. With whether the second was resolved as read.
    type Given = Option<(Vec<Option<u32>>, Vec<Option<(u32, u32)>>, Vec<char>)>;
    fn read_both_ways(model: &str, tokens: &[&str]) -> (Result<Given, String>, Result<Given, String>, bool) {
        let given = |parts: &mut BpeParts<'_>| -> Given {
            let (merges, joined) = Merges::of(parts, Some('▁'))?;
            let ids: Vec<Option<u32>> = tokens.iter().map(|t| merges.id(t)).collect();
            let n = merges.len() as u32;
            let pairs = (0..n + 1).flat_map(|l| (0..n + 1).map(move |r| (l, r))).map(|(l, r)| merges.merges.get(l, r)).collect();
            let mut joined: Vec<char> = joined.into_iter().collect();
            joined.sort_unstable();
            Some((ids, pairs, joined))
        };
        let written = serde_json::from_str::<BpeParts>(model).map(|mut parts| given(&mut parts)).map_err(|e| e.to_string());
        let streamed = serde_json::from_str::<super::super::Streamed>(model).map_err(|e| e.to_string());
        let resolved = streamed.as_ref().is_ok_and(|s| s.0.resolved.is_some());
        (written, streamed.map(|mut s| given(&mut s.0)), resolved)
    }

    /// Merges resolved into ids while the file is read give what merges read as written give,
    /// for each shape a file may take: pairs and `"a b"` strings, escaped texts (`\u0120`,
    /// a character written as a surrogate pair, `\n`, an escaped field name), fields in any
    /// order, and each refusal: a token or a field written twice, a merge outside the
    /// vocabulary or with two spaces, merges `null`, ids not 0 to n − 1.
    #[test]
    fn merges_resolved_as_read_give_what_written_ones_give() {
        let vocab = r#"{"a": 0, "b": 1, "ab": 2, "\u0120": 3, "\u0120a": 4, "\ud83d\ude00": 5, "\ud83d\ude00\u2581": 6,
            "\u2581": 7, "b\u2581": 8, "\n": 9, "\n\n": 10, "a b": 11, "x\"": 12, "x\"\u2581": 13}"#;
        let pairs = r#"[["a", "b"], ["\u0120", "a"], ["\ud83d\ude00", "\u2581"], ["b", "▁"], ["\n", "\n"], ["x\"", "\u2581"]]"#;
        let joined = r#"["a b", "Ġ a", "\ud83d\ude00 \u2581", "b ▁", "\n \n", "x\" \u2581"]"#;
        let tokens = ["a", "b", "ab", "Ġ", "Ġa", "😀", "😀▁", "▁", "b▁", "\n", "\n\n", "x\"▁", "abab", "c"];
        let model = |fields: &str| format!(r#"{{"type": "BPE", "dropout": null, {fields}, "byte_fallback": true}}"#);
        let streamed_cases = [
            model(&format!(r#""vocab": {vocab}, "merges": {pairs}"#)),
            model(&format!(r#""vocab": {vocab}, "merges": {joined}"#)),
            model(&format!(r#""vocab": {vocab}, "unk_token": "a", "m\u0065rges": {pairs}"#)),
        ];
        let not_streamed = [
            model(&format!(r#""merges": {pairs}, "vocab": {vocab}"#)),
            model(&format!(r#""vocab": {vocab}, "merges": null"#)),
            model(&format!(r#""vocab": {vocab}"#)),
        ];
        let refused = [
            model(&format!(r#""vocab": {{"a": 0, "b": 1, "ab": 2, "a": 3}}, "merges": {pairs}"#)),
            model(&format!(r#""vocab": {{"a": 0, "b": 1, "ab": 3}}, "merges": {pairs}"#)),
            model(&format!(r#""vocab": {vocab}, "merges": [["a", "b"], ["b", "c"]]"#)),
            model(&format!(r#""vocab": {vocab}, "merges": [["a", "b"], ["b", "b"]]"#)),
            model(&format!(r#""vocab": {vocab}, "merges": ["a b", "a  b"]"#)),
            model(&format!(r#""vocab": {vocab}, "merges": ["a b", "ab"]"#)),
        ];
        let errors = [
            model(&format!(r#""vocab": {vocab}, "merges": {pairs}, "merges": {pairs}"#)),
            model(&format!(r#""vocab": {vocab}, "merges": {pairs}, "vocab": {vocab}"#)),
            model(&format!(r#""vocab": {vocab}, "merges": [["a", "b", "c"]]"#)),
            model(&format!(r#""vocab": {vocab}, "merges": [["a", 1]]"#)),
            model(&format!(r#""vocab": {vocab}, "merges": {pairs}, "fuse_unk": "yes""#)),
            model(&format!(r#""vocab": {vocab}, "merges": [["a", "b"]"#)),
        ];
        for (cases, streams) in [(&streamed_cases[..], true), (&not_streamed[..], false), (&refused[..], true), (&errors[..], true)] {
            for case in cases {
                let (written, streamed, resolved) = read_both_ways(case, &tokens);
                assert_eq!(written.is_ok(), streamed.is_ok(), "{case}: {written:?} {streamed:?}");
                if let (Ok(written), Ok(streamed)) = (&written, &streamed) {
                    assert_eq!(written, streamed, "{case}");
                    assert_eq!(resolved, streams, "{case}");
                }
            }
        }
        let given = |case: &str| read_both_ways(case, &tokens).1.expect("read").expect("a model");
        let (ids, _, joined) = given(&streamed_cases[0]);
        assert_eq!(ids, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13].map(Some).into_iter().chain([None, None]).collect::<Vec<_>>());
        assert_eq!(joined, ['"', 'b', '😀']);
        assert!(refused.iter().all(|case| read_both_ways(case, &tokens).1 == Ok(None)));
        assert!(errors.iter().all(|case| read_both_ways(case, &tokens).1.is_err()));
    }

    /// Merging in runs gives what the crate's merging one pair at a time gives, with merges in
    /// any order: random merges over a few symbols (a part joined two ways, ranks out of order),
    /// on random words that repeat a short unit with a few symbols around it.
    #[test]
    fn runs_merge_as_the_crate_merges() {
        let mut next = crate::tokens::below_from(0x2545_f491_4f6c_dd1d);
        let (mut answered, mut gave_up) = (0, 0);
        for _ in 0..60 {
            let model = random_model(&mut next);
            for _ in 0..40 {
                let unit: Vec<u32> = (0..1 + next(3)).map(|_| next(3) as u32).collect();
                let mut word: Vec<u32> = (0..next(3)).map(|_| next(3) as u32).collect();
                word.extend(unit.repeat(32 + next(300)));
                word.extend((0..next(3)).map(|_| next(3) as u32));
                let theirs = model.merge_one_at_a_time(word.clone(), &mut Recent::new(4));
                assert_eq!(model.merge(word.iter().copied()), theirs, "{word:?}");
                match merge_in_runs(&word, |left, right| model.merges.get(left, right)) {
                    Some(runs) => {
                        answered += 1;
                        let ours: Vec<u32> = runs.into_iter().flat_map(|(id, count)| std::iter::repeat_n(id, count)).collect();
                        assert_eq!(ours, theirs, "{word:?}");
                    }
                    None => gave_up += 1,
                }
            }
        }
        assert!(answered > 1000 && gave_up > 50, "answered {answered}, gave up {gave_up}");
    }

    /// Random merges over a few symbols (`a`, `b` and a space: ids 0 to 2; a part joined two
    /// ways, ranks out of order), as [`Merges`].
    fn random_model(next: &mut impl FnMut(usize) -> usize) -> Merges {
        let mut texts: Vec<String> = ["a", "b", " "].map(String::from).to_vec();
        let mut merges = Vec::new();
        for _ in 0..60 {
            let (left, right) = (next(texts.len()), next(texts.len()));
            let text = format!("{}{}", texts[left], texts[right]);
            if text.len() > 8 || merges.iter().any(|&[l, r, _]: &[u32; 3]| l == left as u32 && r == right as u32) {
                continue;
            }
            let id = texts.iter().position(|t| *t == text).unwrap_or_else(|| {
                texts.push(text);
                texts.len() - 1
            });
            merges.push([left as u32, right as u32, id as u32]);
        }
        for at in (1..merges.len()).rev() {
            merges.swap(at, next(at + 1));
        }
        Merges { vocab: Ids::with_capacity(0), merges: ByLeft::new(texts.len(), merges.iter()), recent: Mutex::default() }
    }

    /// Merging a short word by scanning its pairs gives what the crate's queue gives: random
    /// merges, random words of up to [`SCAN_BELOW`] symbols (pairs of equal rank side by side
    /// in words that repeat a symbol), and [`Merges::merge`] on them.
    #[test]
    fn short_words_merge_by_scanning_as_the_crate_merges() {
        let mut next = crate::tokens::below_from(0x9E37_79B9_7F4A_7C15);
        let mut merged = 0;
        for _ in 0..60 {
            let model = random_model(&mut next);
            for _ in 0..60 {
                let word: Vec<u32> = (0..next(SCAN_BELOW)).map(|_| next(3) as u32).collect();
                let theirs = model.merge_one_at_a_time(word.clone(), &mut Recent::new(4));
                assert_eq!(model.merge_by_scanning(word.clone(), &mut Recent::new(4)), theirs, "{word:?}");
                assert_eq!(model.merge(word.iter().copied()), theirs, "{word:?}");
                merged += word.len() - theirs.len();
            }
        }
        assert!(merged > 10_000, "{merged}");
    }
}

//! BPE merging of a piece that is long runs of one part (a million spaces, a line of `=`, a
//! character repeated), in run-length form: the parts are kept as runs (a part and how many
//! times it follows itself), and each round merges every pair of the lowest rank at once.
//!
//! Why a round is what merging one pair at a time does: let `r` be the lowest rank of any
//! adjacent pair. Merging one pair at a time takes the leftmost pair of rank `r`; the merge makes
//! two new pairs (the part before with the joined part, the joined part with the part after),
//! and when neither has a rank below `r` (neither can have `r` itself, see below) the lowest rank
//! is still `r`, no pair of rank `r` is left of the merge, and the next merge is the next pair of
//! rank `r` to the right. So one left-to-right pass, merging each pair of rank `r` it meets
//! (a run of `c` parts `t` whose pair `t t` has rank `r` becomes `c / 2` joined parts, then one
//! `t` when `c` is odd), does what the merges one at a time do, provided every pair a merge
//! makes ranks above `r`; the pass checks that of each pair it makes (the few kinds a run makes,
//! once each), and gives up when one does not, the caller then merging one pair at a time.
//!
//! The ranks are the callers': tiktoken's rank files rank a pair as the token the two parts
//! join to, so the pairs of rank `r` are those that join to the token of rank `r`, and a pair a
//! merge makes joins to a longer token, not that one. Hugging Face merges rank a pair by its
//! place in the merges, one pair a rank; a pair a merge makes holds the joined token, which is
//! neither of the pair of rank `r` unless a part's text is empty, and the check catches that.
//!
//! A pass costs the number of runs; a piece of one repeated byte stays a few runs, so a million
//! spaces merge in a few dozen passes over a few runs, each pair's rank looked up once.

use std::hash::Hash;

use rustc_hash::FxHashMap;

/// Pieces this long or longer are merged in runs when [`periodic`].
pub(crate) const RUNS_FROM: usize = 64;

/// A piece is merged in runs when it repeats with a period up to this many parts (one byte; a
/// character of up to four bytes) ...
const PERIOD: usize = 4;
/// ... but for at most this many parts.
const IRREGULAR: usize = 16;

/// The runs visited (in all the passes) per part of the piece, and at least, before giving up:
/// a piece that does not stay a few runs is left to merging one pair at a time.
const STEPS_PER_PART: usize = 8;
const STEPS_AT_LEAST: usize = 1024;

/// Whether `parts` repeat with a short period, but for a few: a piece worth merging in runs.
pub(crate) fn periodic<T: Eq>(parts: &[T]) -> bool {
    (1..=PERIOD).any(|period| {
        let differ = parts.iter().skip(period).zip(parts).filter(|(part, before)| part != before);
        parts.len() > period && differ.take(IRREGULAR + 1).count() <= IRREGULAR
    })
}

/// The parts `parts` merge into, as runs (a part and its count, neighbours differing), `join`
/// giving the rank of two adjacent parts and the part they join to (`None`: not a pair that
/// merges): lowest rank first, the leftmost of equal ones, as merging one pair at a time does.
/// `None` when a merge makes a pair of a rank below the one merged, or the parts do not stay a
/// few runs (see [`STEPS_PER_PART`]): the caller merges one pair at a time then.
pub(crate) fn merge_in_runs<T: Copy + Eq + Hash>(parts: &[T], join: impl FnMut(T, T) -> Option<(u32, T)>) -> Option<Vec<(T, usize)>> {
    let mut steps = 0;
    merge_counting(parts, join, &mut steps)
}

/// [`merge_in_runs`], adding the runs it visits to `steps`.
pub(crate) fn merge_counting<T: Copy + Eq + Hash>(
    parts: &[T],
    mut join: impl FnMut(T, T) -> Option<(u32, T)>,
    steps: &mut usize,
) -> Option<Vec<(T, usize)>> {
    let budget = STEPS_PER_PART * parts.len() + STEPS_AT_LEAST;
    let mut known: FxHashMap<(T, T), Option<(u32, T)>> = FxHashMap::default();
    let mut pair = move |left: T, right: T| *known.entry((left, right)).or_insert_with(|| join(left, right));
    let rank = |joined: Option<(u32, T)>| joined.map_or(u32::MAX, |(rank, _)| rank);
    let mut runs: Vec<(T, usize)> = Vec::new();
    for &part in parts {
        push(&mut runs, part, 1);
    }
    loop {
        // The lowest rank of a pair, in a run or across two.
        let mut lowest = u32::MAX;
        for (at, &(part, count)) in runs.iter().enumerate() {
            if count >= 2 {
                lowest = lowest.min(rank(pair(part, part)));
            }
            if let Some(&(next, _)) = runs.get(at + 1) {
                lowest = lowest.min(rank(pair(part, next)));
            }
        }
        *steps += runs.len();
        if lowest == u32::MAX {
            return Some(runs);
        }
        if *steps > budget {
            return None;
        }
        let round = lowest;
        // A pair made by a merge of this round must rank above it.
        macro_rules! above {
            ($left:expr, $right:expr) => {
                if rank(pair($left, $right)) <= round {
                    return None;
                }
            };
        }
        let mut merged: Vec<(T, usize)> = Vec::with_capacity(runs.len());
        // The run the pass is in, and how many of its parts it has not passed (at least one).
        let (mut at, mut left) = (0, runs[0].1);
        while at < runs.len() {
            *steps += 1;
            let part = runs[at].0;
            let next = runs.get(at + 1).map(|&(next, _)| next);
            if left >= 2 {
                match pair(part, part) {
                    Some((rank, joined)) if rank == round => {
                        let pairs = left / 2;
                        if let Some(&(before, _)) = merged.last() {
                            above!(before, joined);
                        }
                        if left >= 3 {
                            above!(joined, part);
                        }
                        if pairs >= 2 {
                            above!(joined, joined);
                        }
                        push(&mut merged, joined, pairs);
                        left -= 2 * pairs;
                        if left == 0 {
                            if let Some(next) = next {
                                above!(joined, next);
                            }
                            at += 1;
                            left = runs.get(at).map_or(0, |&(_, count)| count);
                        }
                        continue;
                    }
                    // All but the last part pass; the last is the one below.
                    _ => push(&mut merged, part, left - 1),
                }
            }
            // The run's last part, before the next run's first.
            let joined = next.and_then(|next| pair(part, next)).filter(|&(rank, _)| rank == round);
            if let Some((_, joined)) = joined {
                if let Some(&(before, _)) = merged.last() {
                    above!(before, joined);
                }
                let (next, count) = runs[at + 1];
                let after = if count >= 2 { Some(next) } else { runs.get(at + 2).map(|&(after, _)| after) };
                if let Some(after) = after {
                    above!(joined, after);
                }
                push(&mut merged, joined, 1);
                at += 1;
                left = count - 1;
            } else {
                push(&mut merged, part, 1);
                left = 0;
            }
            if left == 0 {
                at += 1;
                left = runs.get(at).map_or(0, |&(_, count)| count);
            }
        }
        runs = merged;
    }
}

/// Appends `count` parts `part` to `runs`.
fn push<T: Eq>(runs: &mut Vec<(T, usize)>, part: T, count: usize) {
    match runs.last_mut() {
        Some((last, last_count)) if *last == part => *last_count += count,
        _ if count > 0 => runs.push((part, count)),
        _ => {}
    }
}

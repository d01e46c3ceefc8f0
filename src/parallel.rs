//! Work spread over the machine's cores: a project's agents (independent until they are reported),
//! the new chunks of one long text, a tool list's items. Each thread takes the next item when it is
//! free and the results come back in order. A job must never wait for another job's item (the
//! token counts' claims rely on it: see `tokens.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The cores this process may use, asked once: the standard library reads the cgroup's CPU quota
/// from files each time it is asked (33 µs a call on a two-core machine, and each spread of work
/// asks). The answer only sets how many threads share the work, never a result.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `job` applied to every item, on all cores, with the results in the items' order. The calling
/// thread works too, beside one thread per other core; a thread the system refuses (a container's
/// process limit) is one helper fewer, not an error. A panic in a job is carried to the caller.
pub fn map_in_order<I: Sync, T: Send>(items: &[I], job: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let threads = cores().min(items.len());
    if threads <= 1 {
        return items.iter().map(job).collect();
    }
    let next = AtomicUsize::new(0);
    on_all_cores(items.len(), || {
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else { return done };
            done.push((index, job(item)));
        }
    })
}

/// What `worker` returns on the calling thread and on one helper per other core (no more threads
/// than `items`), each result put in its place by the item's index it carries. A thread the
/// system refuses (a container's process limit) is one helper fewer, not an error; a panic in a
/// worker is carried to the caller.
fn on_all_cores<T: Send>(items: usize, worker: impl Fn() -> Vec<(usize, T)> + Sync) -> Vec<T> {
    let threads = cores().min(items);
    let mut results = match threads {
        0 | 1 => worker(),
        _ => std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads).map_while(|_| std::thread::Builder::new().spawn_scoped(scope, &worker).ok()).collect();
            let mut done = worker();
            for helper in helpers {
                done.extend(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
            }
            done
        }),
    };
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

/// How many items a thread of [`map_in_two_steps`] keeps aside at most: what it keeps (a loaded
/// agent) is held until it comes back to it.
const ASIDE: usize = 64;

/// [`map_in_order`] of jobs in two steps, where an item's second step may have to wait for work
/// outside the jobs (a tokenizer file loading on a thread of its own): a thread whose item is not
/// `ready` after its first step keeps it aside and takes the next item, comes back to those kept
/// aside as soon as the oldest is ready, and waits for them (in their second step) when no item
/// is left or it keeps `ASIDE` (64) of them. No thread waits for another thread's item.
pub fn map_in_two_steps<I: Sync, U, T: Send>(
    items: &[I],
    first: impl Fn(&I) -> U + Sync,
    ready: impl Fn(&U) -> bool + Sync,
    second: impl Fn(U) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    on_all_cores(items.len(), || {
        let (mut done, mut aside) = (Vec::new(), std::collections::VecDeque::new());
        loop {
            while let Some((index, kept)) = aside.front().is_some_and(|(_, kept)| ready(kept)).then(|| aside.pop_front()).flatten() {
                done.push((index, second(kept)));
            }
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else { break };
            let kept = first(item);
            match aside.is_empty() && ready(&kept) {
                true => done.push((index, second(kept))),
                false => aside.push_back((index, kept)),
            }
            if let Some((index, kept)) = (aside.len() >= ASIDE).then(|| aside.pop_front()).flatten() {
                done.push((index, second(kept)));
            }
        }
        done.extend(aside.into_iter().map(|(index, kept)| (index, second(kept))));
        done
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_the_order_of_the_items() {
        let items: Vec<u64> = (0..200).collect();
        let squares = super::map_in_order(&items, |n| n * n);
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
    }

    /// Items not ready after their first step are finished later, in the items' order, and
    /// every item is finished once: when the work outside becomes ready (here, once a second
    /// step ran), and when it never does (each thread then finishes what it kept at the end).
    #[test]
    fn items_kept_aside_are_finished_once_in_order() {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        for becomes_ready in [true, false] {
            let items: Vec<u64> = (0..300).collect();
            let (loaded, firsts, seconds) = (AtomicBool::new(false), AtomicUsize::new(0), AtomicUsize::new(0));
            let out = super::map_in_two_steps(
                &items,
                |n| {
                    firsts.fetch_add(1, Ordering::Relaxed);
                    *n
                },
                |_| loaded.load(Ordering::Relaxed),
                |n| {
                    loaded.store(becomes_ready, Ordering::Relaxed);
                    seconds.fetch_add(1, Ordering::Relaxed);
                    n * 2
                },
            );
            assert_eq!(out, items.iter().map(|n| n * 2).collect::<Vec<_>>());
            assert_eq!((firsts.into_inner(), seconds.into_inner()), (300, 300));
        }
    }
}

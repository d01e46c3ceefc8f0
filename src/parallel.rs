//! Work spread over the machine's cores: a project's agents (independent until they are reported),
//! the new chunks of one long text, a tool list's items. Each thread takes the next item when it is
//! free and the results come back in order. A job must never wait for another job's item (the
//! token counts' claims rely on it: see `tokens.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};

/// `job` applied to every item, on all cores, with the results in the items' order. The calling
/// thread works too, beside one thread per other core; a thread the system refuses (a container's
/// process limit) is one helper fewer, not an error. A panic in a job is carried to the caller.
pub fn map_in_order<I: Sync, T: Send>(items: &[I], job: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len());
    if threads <= 1 {
        return items.iter().map(job).collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, T)> = std::thread::scope(|scope| {
        let worker = || {
            let mut done = Vec::new();
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else { return done };
                done.push((index, job(item)));
            }
        };
        let helpers: Vec<_> = (1..threads).map_while(|_| std::thread::Builder::new().spawn_scoped(scope, worker).ok()).collect();
        let mut done = worker();
        for helper in helpers {
            done.extend(helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        done
    });
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_the_order_of_the_items() {
        let items: Vec<u64> = (0..200).collect();
        let squares = super::map_in_order(&items, |n| n * n);
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
    }
}

//! Work keyed by content. The agents of one project share most of their files (the same tool
//! files, skills and modules), and most sections repeat across modes and agents, so parsing and
//! counting are done once per distinct content and shared, across threads, for the process.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};

/// A 128-bit hash of a text. Collisions are not a practical concern at this width (the odds for
/// a billion distinct texts are about 1 in 10^20), so the text itself is never stored or compared.
pub fn content_hash(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
}

/// A text held once per distinct content for the whole process, with its [`content_hash`]:
/// the agents of a project that read the same file share one copy, and work memoized by
/// content never hashes it again.
#[derive(Debug, Clone)]
pub struct SharedText {
    text: Arc<str>,
    hash: u128,
}

static TEXTS: Memo<Arc<str>> = Memo::new();

impl SharedText {
    pub fn new(text: &str) -> Self {
        let hash = content_hash(text);
        SharedText { text: TEXTS.get_or_insert_with(hash, || Arc::from(text)), hash }
    }

    /// The shared text with these bytes: the copy already held when the content is known (its
    /// bytes are then valid UTF-8), otherwise a new one if they are valid UTF-8.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, std::str::Utf8Error> {
        let hash = xxhash_rust::xxh3::xxh3_128(bytes);
        if let Some(text) = TEXTS.get(hash) {
            return Ok(SharedText { text, hash });
        }
        let text = std::str::from_utf8(bytes)?;
        Ok(SharedText { text: TEXTS.get_or_insert_with(hash, || Arc::from(text)), hash })
    }

    pub fn hash(&self) -> u128 {
        self.hash
    }
}

impl std::ops::Deref for SharedText {
    type Target = str;

    fn deref(&self) -> &str {
        &self.text
    }
}

impl serde::Serialize for SharedText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl PartialEq for SharedText {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash
    }
}

impl Eq for SharedText {}

/// Hashes content-hash keys by their low bits (they are already uniformly distributed), and
/// other keys, such as short byte strings, with the FxHash step.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 ^= n as u64;
    }
}

pub type KeyMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// Memos are split by key into this many maps, each with its own lock, so threads looking up
/// different keys rarely wait for each other.
pub const SHARDS: usize = 16;

/// The shard of a key: its top bits (the maps hash by the low ones).
pub fn shard_of(key: u128) -> usize {
    (key >> 124) as usize % SHARDS
}

/// A process-wide memo from content hash to a shared result.
pub struct Memo<T> {
    shards: [Mutex<Option<KeyMap<u128, T>>>; SHARDS],
}

impl<T: Clone> Default for Memo<T> {
    fn default() -> Self {
        Memo::new()
    }
}

impl<T: Clone> Memo<T> {
    pub const fn new() -> Self {
        Memo { shards: [const { Mutex::new(None) }; SHARDS] }
    }

    fn map(&self, key: u128) -> MutexGuard<'_, Option<KeyMap<u128, T>>> {
        // Inserting cannot leave a map inconsistent, so a poisoned lock is still usable.
        self.shards[shard_of(key)].lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The memoized result for `key`, if there is one.
    pub fn get(&self, key: u128) -> Option<T> {
        self.map(key).as_ref().and_then(|m| m.get(&key).cloned())
    }

    /// The memoized result for `key`, computing it with `make` on a miss. The lock is not held
    /// while `make` runs, so two threads may both compute a new key; the first result is kept.
    pub fn get_or_insert_with(&self, key: u128, make: impl FnOnce() -> T) -> T {
        if let Some(hit) = self.get(key) {
            return hit;
        }
        let value = make();
        self.map(key).get_or_insert_with(KeyMap::default).entry(key).or_insert(value).clone()
    }

    /// Records `value` for `key`, replacing what was there.
    pub fn set(&self, key: u128, value: T) {
        self.map(key).get_or_insert_with(KeyMap::default).insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_once_per_content() {
        let memo: Memo<usize> = Memo::new();
        let mut calls = 0;
        for text in ["a", "b", "a", "a"] {
            memo.get_or_insert_with(content_hash(text), || {
                calls += 1;
                text.len()
            });
        }
        assert_eq!(calls, 2);
        assert_ne!(content_hash("a"), content_hash("a "));
    }
}

//! Work keyed by content. The agents of one project share most of their files (the same tool
//! files, skills and modules), and most sections repeat across modes and agents, so parsing and
//! counting are done once per distinct content and shared across threads — for one run: the
//! memos live in a [`Cache`] that a [`crate::Session`] owns and drops when the run ends. Texts
//! are held once per distinct content while anything uses them ([`SharedText`]).

use std::any::Any;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

/// A 128-bit hash of a text. Collisions are not a practical concern at this width (the odds for
/// a billion distinct texts are about 1 in 10^20), so the text itself is never stored or compared.
pub fn content_hash(text: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(text.as_bytes())
}

/// A text held once per distinct content while anything holds it, with its [`content_hash`]:
/// the agents of a project that read the same file share one copy, and work memoized by
/// content never hashes it again.
#[derive(Debug, Clone)]
pub struct SharedText {
    /// The bytes boxed apart from the `Arc`'s counts: a weak entry of [`TEXTS`] keeps the `Arc`'s
    /// allocation until it is swept, and would keep the bytes with it (a long-lived session such
    /// as `ctxc lsp` makes new large texts on every edit: documents, rendered prompts).
    text: Arc<Box<str>>,
    hash: u128,
}

/// Every text alive, by content hash. Entries are weak: a text no one holds any more is freed,
/// and its entry is swept once dead entries could make up half of a shard.
static TEXTS: [Mutex<Texts>; SHARDS] = [const { Mutex::new(Texts { map: None, live_after_sweep: 0 }) }; SHARDS];

struct Texts {
    map: Option<KeyMap<u128, Weak<Box<str>>>>,
    live_after_sweep: usize,
}

/// The text held for `hash`, or `make()` held from now on.
fn intern(hash: u128, make: impl FnOnce() -> Option<Box<str>>) -> Option<Arc<Box<str>>> {
    let mut shard = TEXTS[shard_of(hash)].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let Texts { map, live_after_sweep } = &mut *shard;
    let map = map.get_or_insert_with(KeyMap::default);
    if let Some(text) = map.get(&hash).and_then(Weak::upgrade) {
        return Some(text);
    }
    let text = Arc::new(make()?);
    map.insert(hash, Arc::downgrade(&text));
    if map.len() > 2 * *live_after_sweep + 1024 {
        map.retain(|_, text| text.strong_count() > 0);
        *live_after_sweep = map.len();
    }
    Some(text)
}

impl SharedText {
    pub fn new(text: &str) -> Self {
        let hash = content_hash(text);
        let held = intern(hash, || Some(Box::from(text))).unwrap_or_else(|| Arc::new(Box::from(text)));
        SharedText { text: held, hash }
    }

    /// The shared text with these bytes: the copy already held when the content is known (its
    /// bytes are then valid UTF-8), otherwise a new one if they are valid UTF-8.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, std::str::Utf8Error> {
        let hash = xxhash_rust::xxh3::xxh3_128(bytes);
        let mut invalid = None;
        let held = intern(hash, || match std::str::from_utf8(bytes) {
            Ok(text) => Some(Box::from(text)),
            Err(e) => {
                invalid = Some(e);
                None
            }
        });
        match (held, invalid) {
            (Some(text), _) => Ok(SharedText { text, hash }),
            (None, Some(e)) => Err(e),
            // `intern` only gives nothing when `make` did.
            (None, None) => std::str::from_utf8(bytes).map(|text| SharedText { text: Arc::new(Box::from(text)), hash }),
        }
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

/// The generations whose work used a memoized value (see [`Cache::begin`]): the last one inline,
/// and the others, kept only when a value is used by more than one (a batch run has one
/// generation, so it never allocates here).
#[derive(Debug, Clone, Default)]
pub struct Uses {
    last: u32,
    older: Vec<u32>,
}

impl Uses {
    pub fn new(generation: u32) -> Self {
        Uses { last: generation, older: Vec::new() }
    }

    /// Marks the value used by `generation`.
    pub fn used_by(&mut self, generation: u32) {
        if self.last != generation {
            if !self.older.contains(&self.last) {
                self.older.push(self.last);
            }
            self.last = generation;
            self.older.retain(|g| *g != generation);
        }
    }

    /// Forgets the generations that are not `live`; false when none is left (the value is no
    /// one's any more).
    pub fn keep(&mut self, live: &impl Fn(u32) -> bool) -> bool {
        self.older.retain(|g| live(*g));
        if live(self.last) {
            return true;
        }
        match self.older.pop() {
            Some(g) => {
                self.last = g;
                true
            }
            None => false,
        }
    }
}

struct Entry<T> {
    value: T,
    uses: Uses,
}

/// A shard of a [`Memo`]: made on first use.
type Shard<T> = Mutex<Option<KeyMap<u128, Entry<T>>>>;

/// A memo from content hash to a shared result (each [`Kind`] of a [`Cache`] is one).
pub struct Memo<T> {
    shards: [Shard<T>; SHARDS],
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

    fn map(&self, key: u128) -> MutexGuard<'_, Option<KeyMap<u128, Entry<T>>>> {
        // Inserting cannot leave a map inconsistent, so a poisoned lock is still usable.
        lock(&self.shards[shard_of(key)])
    }

    /// The memoized result for `key`, if there is one, marked used by `generation`.
    pub fn get(&self, key: u128, generation: u32) -> Option<T> {
        self.get_first(key, generation).map(|(value, _)| value)
    }

    /// [`Memo::get`], and whether this is the result's first use by `generation`.
    fn get_first(&self, key: u128, generation: u32) -> Option<(T, bool)> {
        let mut map = self.map(key);
        let entry = map.as_mut()?.get_mut(&key)?;
        let first = entry.uses.last != generation;
        entry.uses.used_by(generation);
        Some((entry.value.clone(), first))
    }

    /// The memoized result for `key`, computing it with `make` on a miss. The lock is not held
    /// while `make` runs, so two threads may both compute a new key; the first result is kept.
    pub fn get_or_insert_with(&self, key: u128, generation: u32, make: impl FnOnce() -> T) -> T {
        if let Some(hit) = self.get(key, generation) {
            return hit;
        }
        self.insert_first(key, generation, make())
    }

    /// `value` for `key` unless a result is there already (another thread made it meanwhile):
    /// the result kept, marked used by `generation`.
    fn insert_first(&self, key: u128, generation: u32, value: T) -> T {
        let mut map = self.map(key);
        let entry = map.get_or_insert_with(KeyMap::default).entry(key).or_insert(Entry { value, uses: Uses::new(generation) });
        entry.uses.used_by(generation);
        entry.value.clone()
    }

    /// Records `value` for `key`, replacing what was there.
    pub fn set(&self, key: u128, generation: u32, value: T) {
        self.map(key).get_or_insert_with(KeyMap::default).insert(key, Entry { value, uses: Uses::new(generation) });
    }

    /// Drops the results no `live` generation used; returns how many are left.
    fn keep(&self, live: &impl Fn(u32) -> bool) -> usize {
        self.shards
            .iter()
            .map(|shard| {
                let mut map = lock(shard);
                let Some(map) = map.as_mut() else { return 0 };
                map.retain(|_, entry| entry.uses.keep(live));
                // A map that shrank a lot gives its table back.
                if map.capacity() > 4 * map.len() + 64 {
                    map.shrink_to_fit();
                }
                map.len()
            })
            .sum()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a run memoizes, by content. Each kind has a map of its own, so the keys of different
/// kinds never meet; the call site builds the key from the content's hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A skill parsed for the manifest (key: its path and text).
    Skill,
    /// A tool file parsed (key: its text).
    ToolFile,
    /// A SKILL.md frontmatter parsed for linting (key: the file's text).
    Frontmatter,
    /// A tool list rendered and counted as a provider renders it (key: engine, tokenizer, rendering, the tools).
    ToolArrayCost,
    /// One tool of such a list (key: tokenizer, rendering, the tool).
    ToolText,
    /// The part of a request's count that such a list alone decides: the list sent as one JSON
    /// array, or (Harmony) the tools section past its first cut, before which the prompt joins
    /// it (key: the list's, whose rendering gives the separators).
    ToolArrayJoined,
    /// The template value of a tool list (key: the tools and their access).
    ToolsValue,
    /// The tool description section of a tool list (key: the tools).
    ToolsDescription,
    /// A section's long paragraphs (SEC007; key: the section's text).
    Paragraphs,
    /// One paragraph's normalized key (SEC007; key: the paragraph).
    ParagraphKey,
    /// Leftover `{placeholders}` (TPL003; key: the text).
    Placeholders,
    /// A template's undeclared variables (TPL002; key: the template's text).
    TemplateVariables,
    /// The secrets of one pattern in a text (SEC001–SEC006; key: the pattern and the text).
    Secrets,
    /// Parameter schemas in which TOOL007 found nothing (key: the schema's JSON, so tools sharing one are walked once).
    CleanRequired,
    /// Parameter schemas in which TOOL008 found nothing (key: the schema's JSON, so tools sharing one are walked once).
    CleanTypes,
    /// Where each tool name stands in a tool file (key: the file's text).
    NameIndex,
    /// The files bundled with a skill, and their texts (SKILL017–SKILL023; key: the project root,
    /// the SKILL.md path and text).
    Bundle,
    /// A Markdown text parsed: links, code, emphasis, headings (key: the text).
    Markdown,
    /// The wildcard paths a text writes (`shared/*.md`), compiled (SKILL018, SKILL019; key: the text).
    MentionGlobs,
    /// The sentences of an instruction text (INSTR rules; key: the text).
    Sentences,
    /// Leftover TODO markers outside code (INSTR010; key: the text).
    LeftoverMarkers,
    /// A JSON agent file parsed for linting (key: the file's text).
    Json,
    /// Where every value of a JSON text is written (key: the text).
    JsonIndex,
    /// A TOML agent file parsed for linting, the places of its keys kept (key: the file's text).
    Toml,
    /// A prompt template rendered, with the files it could have included (key: its name and text
    /// and its variables; see `render::render_template`): an edit of one module renders the
    /// others of every agent that reads it again.
    TemplateRender,
    /// What a template file reads, sets and includes (the static pass; key: its name and text).
    TemplateReads,
    /// The skills an agent's manifest reads, with what reading them adds to its sources and
    /// diagnostics, while every change of the disk is reported (key: the reported generation,
    /// the root, the manifest's path and text; see `manifest::files::Files::skills`).
    SkillsRead,
    /// A manifest's text parsed into raw types (key: the text and its format): an editor loads
    /// every agent again at each edit of a module they all read.
    Manifest,
    /// The findings of a rule that reads only the agent files of a check (key: the rule, the
    /// files' kinds, paths and texts, the tokenizer and the settings; see `lint::FILE_TEXT_RULES`).
    FileFindings,
}

const KINDS: usize = Kind::FileFindings as usize + 1;

/// The memos of one run, one map per [`Kind`]. A [`crate::Session`] owns one and hands it to
/// every [`crate::project::ProjectRoot`] it opens, so the stages reach it through the root (or the
/// rule context) they already take; it is dropped with the session. A root opened outside a
/// session has a cache of its own, which lives as long as the root: memoizing never changes a
/// result, only how often the work is done.
///
/// A long-lived session (`ctxc lsp`) numbers its work in generations ([`Cache::begin`]) and drops
/// what no live generation used ([`Cache::keep`]), so the cache holds what the project's current
/// texts need, however many edits came before.
pub struct Cache {
    memos: [Memo<Arc<dyn Any + Send + Sync>>; KINDS],
    generation: AtomicU32,
    /// Whether work is numbered in generations ([`Cache::begin`] was called), so that what a
    /// generation uses must be marked for [`Cache::keep`].
    generations: AtomicBool,
    /// How many values of each kind were recorded with [`Cache::set`] (by the memos that check a
    /// value before using it again, as a template's output): what they spared is seen in counts,
    /// not in time.
    made: [AtomicUsize; KINDS],
}

impl Default for Cache {
    fn default() -> Self {
        Cache {
            memos: [const { Memo::new() }; KINDS],
            generation: AtomicU32::new(0),
            generations: AtomicBool::new(false),
            made: [const { AtomicUsize::new(0) }; KINDS],
        }
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cache")
    }
}

impl Cache {
    fn generation(&self) -> u32 {
        self.generation.load(Ordering::Relaxed)
    }

    /// The memoized value of `kind` for `key`, if any.
    pub fn get<T: Clone + 'static>(&self, kind: Kind, key: u128) -> Option<T> {
        self.memos[kind as usize].get(key, self.generation()).and_then(|value| value.downcast_ref::<T>().cloned())
    }

    /// [`Cache::get`], and whether this is the value's first use in the current generation (a
    /// value standing for others marks them used once per generation, not on every use).
    pub fn get_first<T: Clone + 'static>(&self, kind: Kind, key: u128) -> Option<(T, bool)> {
        let (value, first) = self.memos[kind as usize].get_first(key, self.generation())?;
        Some((value.downcast_ref::<T>()?.clone(), first))
    }

    /// Records `value` of `kind` for `key`.
    pub fn set<T: Send + Sync + 'static>(&self, kind: Kind, key: u128, value: T) {
        self.made[kind as usize].fetch_add(1, Ordering::Relaxed);
        self.memos[kind as usize].set(key, self.generation(), Arc::new(value));
    }

    /// The memoized value of `kind` for `key`, made with `make` on a miss. The lock is not held
    /// while `make` runs, so two threads may both make a new key; the first value is kept.
    pub fn get_or_insert<T: Clone + Send + Sync + 'static>(&self, kind: Kind, key: u128, make: impl FnOnce() -> T) -> T {
        let memo = &self.memos[kind as usize];
        let generation = self.generation();
        if let Some(hit) = memo.get(key, generation).and_then(|value| value.downcast_ref::<T>().cloned()) {
            return hit;
        }
        let value = make();
        // Looked up once above: a miss is not looked up again before it is inserted.
        let kept = memo.insert_first(key, generation, Arc::new(value.clone()));
        kept.downcast_ref::<T>().cloned().unwrap_or(value)
    }

    /// How many values of `kind` were recorded with [`Cache::set`] since the cache was made.
    pub fn made(&self, kind: Kind) -> usize {
        self.made[kind as usize].load(Ordering::Relaxed)
    }

    /// Work from now on is `generation`'s: every value it uses or makes is marked used by it.
    pub fn begin(&self, generation: u32) {
        self.generation.store(generation, Ordering::Relaxed);
        self.generations.store(true, Ordering::Relaxed);
    }

    /// Whether values are kept by generation ([`Cache::begin`]): a memo whose value stands for
    /// others (a whole list for its items) then marks those used too when it is found, or a
    /// sweep drops them. A batch run has one generation and no sweep: it skips that work.
    pub fn tracks_uses(&self) -> bool {
        self.generations.load(Ordering::Relaxed)
    }

    /// Marks the value of `kind` for `key`, if any, used by the current generation.
    pub fn touch(&self, kind: Kind, key: u128) {
        self.memos[kind as usize].get(key, self.generation());
    }

    /// Drops every value that no `live` generation used; returns how many values are left.
    pub fn keep(&self, live: impl Fn(u32) -> bool) -> usize {
        self.memos.iter().map(|memo| memo.keep(&live)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_memoizes_per_kind_and_per_cache() {
        let cache = Cache::default();
        let mut calls = 0;
        for _ in 0..3 {
            cache.get_or_insert(Kind::Placeholders, 7, || {
                calls += 1;
                calls
            });
        }
        assert_eq!(calls, 1);
        assert_eq!(cache.get::<i32>(Kind::Placeholders, 7), Some(1));
        assert_eq!(Cache::default().get::<i32>(Kind::Placeholders, 7), None, "another run");
        assert_eq!(cache.get::<i32>(Kind::Paragraphs, 7), None, "kinds are apart");
        assert_eq!(cache.get::<String>(Kind::Placeholders, 7), None, "another type is a miss");
    }

    #[test]
    fn keep_drops_what_no_live_generation_used() {
        let cache = Cache::default();
        cache.begin(1);
        cache.set(Kind::Placeholders, 1, 10);
        cache.set(Kind::Placeholders, 2, 20);
        cache.begin(2);
        assert_eq!(cache.get::<i32>(Kind::Placeholders, 2), Some(20), "used by 1 and 2 now");
        cache.get_or_insert(Kind::Paragraphs, 3, || 30);
        assert_eq!(cache.keep(|g| g <= 2), 3, "both generations live: all kept");
        assert_eq!(cache.keep(|g| g == 1), 2, "generation 2 ended: what only it used is gone");
        assert_eq!(cache.get::<i32>(Kind::Paragraphs, 3), None);
        assert_eq!(cache.get::<i32>(Kind::Placeholders, 2), Some(20), "generation 1 used it too");
        assert_eq!(cache.keep(|_| false), 0);
    }

    #[test]
    fn texts_are_shared_while_held_and_freed_after() {
        let a = SharedText::new("a text held twice");
        let b = SharedText::from_bytes(b"a text held twice").expect("UTF-8");
        assert!(Arc::ptr_eq(&a.text, &b.text));
        let weak = Arc::downgrade(&a.text);
        drop((a, b));
        assert!(weak.upgrade().is_none(), "no one holds it: freed");
        assert!(SharedText::from_bytes(b"\xff").is_err());
    }

    #[test]
    fn computes_once_per_content() {
        let memo: Memo<usize> = Memo::new();
        let mut calls = 0;
        for text in ["a", "b", "a", "a"] {
            memo.get_or_insert_with(content_hash(text), 0, || {
                calls += 1;
                text.len()
            });
        }
        assert_eq!(calls, 2);
        assert_ne!(content_hash("a"), content_hash("a "));
    }
}

//! Secret detection shared by the SEC001–SEC006 rules. Every file a run read is scanned (the
//! prompt is made of them); a match is reported at its place, redacted, never printed in full.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};
use std::ops::Range;
use std::sync::{Arc, LazyLock};

use regex::{Regex, RegexSet};

use crate::memo::{self, content_hash, Cache};

use super::context::Context;
use crate::diagnostic::{redact, Diagnostic, Sources};

/// The kinds of secret ctxc recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    OpenAi,
    Anthropic,
    GitHub,
    Aws,
    PrivateKey,
    Generic,
}

impl Kind {
    pub fn describe(self) -> &'static str {
        match self {
            Kind::OpenAi => "an OpenAI API key",
            Kind::Anthropic => "an Anthropic API key",
            Kind::GitHub => "a GitHub token",
            Kind::Aws => "an AWS access key id",
            Kind::PrivateKey => "a private key",
            Kind::Generic => "a high-entropy secret assigned to a key, token or password",
        }
    }

    /// Word boundaries are ASCII ones (`(?-u:\b)`): every pattern is ASCII, and a Unicode
    /// boundary would push the regex engine off its fast path on any non-ASCII text.
    fn pattern(self) -> &'static Regex {
        static COMPILED: LazyLock<[Regex; 6]> = LazyLock::new(|| PATTERNS.map(|p| Regex::new(p).expect("constant pattern"))); // ok: literals below, exercised by tests
        &COMPILED[self as usize]
    }
}

/// Each [`Kind`]'s pattern, in the order of [`Kind::ALL`].
const PATTERNS: [&str; 6] = [
    r"(?-u:\b)sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
    r"(?-u:\b)sk-ant-[a-z]+[0-9]{2}-[A-Za-z0-9_-]{20,}",
    r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
    r"(?-u:\b)(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?-u:\b)",
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----",
    r#"(?i)(?-u:\b)(?:api[_-]?key|secret(?:[_-]?key)?|access[_-]?key|auth[_-]?token|access[_-]?token|token|password|passwd|client[_-]?secret)["']?[ \t]*[:=][ \t]*["']?([A-Za-z0-9+/_\-.=]{16,})"#,
];

/// The fewest bytes any pattern matches (an AWS key id: 4 + 16).
const SHORTEST_MATCH: usize = 20;

/// Whether any pattern matches somewhere in `text`: one pass over it, where finding each kind's
/// matches takes six (most texts a report writes, names and numbers, hold none).
fn may_hold_secret(text: &str) -> bool {
    static ANY: LazyLock<RegexSet> = LazyLock::new(|| RegexSet::new(PATTERNS).expect("constant patterns")); // ok: the literals above
    text.len() >= SHORTEST_MATCH && ANY.is_match(text)
}

/// Shannon entropy in bits per character.
pub fn entropy(text: &str) -> f64 {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return 0.0;
    }
    let mut counts = std::collections::BTreeMap::new();
    for c in &chars {
        *counts.entry(*c).or_insert(0usize) += 1;
    }
    let n = chars.len() as f64;
    counts.values().map(|&k| k as f64 / n).map(|p| -p * p.log2()).sum()
}

/// Documentation placeholders (`sk-your-key-here`, `AKIA…EXAMPLE`, `xxxx`) are not secrets.
fn looks_like_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    ["example", "xxxx", "your", "placeholder", "redacted", "dummy", "sample", "<", "${", "..."].iter().any(|w| lower.contains(w))
}

/// Random-looking: letters and digits, no placeholder words, entropy of at least 3.5 bits per
/// character (English words and repeated characters stay below it).
fn random_looking(value: &str) -> bool {
    let letters = value.chars().any(|c| c.is_ascii_alphabetic());
    let digits = value.chars().any(|c| c.is_ascii_digit());
    letters && digits && !looks_like_placeholder(value) && entropy(value) >= 3.5
}

/// Whether a value given to a variable or header named like a credential (`…_TOKEN`, `…_API_KEY`,
/// `Authorization`) is a literal secret: random-looking, not a placeholder or a `${VAR}`
/// reference. Values another pattern recognises are left to it.
pub fn credential_value(name: &str, value: &str) -> bool {
    static NAME: LazyLock<Regex> = LazyLock::new(|| {
        // ok: a constant pattern, compiled whenever the tests run
        Regex::new(r"(?i)(?:key|token|secret|password|passwd|credentials?|authorization|auth|pat)$").expect("constant pattern")
        // ok: literal
        // ok: literal
    });
    let value = value.trim();
    let value = value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer ")).unwrap_or(value);
    NAME.is_match(name.trim()) && value.len() >= 16 && !value.contains(char::is_whitespace) && random_looking(value)
}

/// Whether any SEC pattern finds a secret overlapping `range` of `text` (so another rule that
/// looks at the same value leaves it to the SEC rule).
pub fn found_in(cache: &Cache, text: &str, range: &Range<usize>) -> bool {
    let found = |kind| match text.len() < MEMOIZED_FROM {
        true => scan(kind, text),
        false => find_hashed(kind, text, content_hash(text), cache),
    };
    Kind::ALL.iter().any(|kind| found(*kind).iter().any(|r| r.start < range.end && range.start < r.end))
}

/// Texts at least this long are scanned once per content and run (a smaller one costs less to
/// scan than to hash and look up).
const MEMOIZED_FROM: usize = 4096;

/// Ranges of secrets of one kind in a text (scanned each time: for one text, such as a line of
/// output; the files of a run are scanned once per content through its cache).
pub fn find(kind: Kind, text: &str) -> Vec<Range<usize>> {
    scan(kind, text)
}

/// [`find`] for a text whose content hash is known, once per content in the run of `cache`: the
/// agents of a project share most files.
fn find_hashed(kind: Kind, text: &str, hash: u128, cache: &Cache) -> Vec<Range<usize>> {
    let index = Kind::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u128;
    // One key per pattern and text: the hash with the pattern's index in its top bits.
    let key = hash ^ (index << 120);
    let found: Arc<[Range<usize>]> = cache.get_or_insert(memo::Kind::Secrets, key, || scan(kind, text).into());
    found.to_vec()
}

fn scan(kind: Kind, text: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    for caps in kind.pattern().captures_iter(text) {
        let Some(m) = caps.get(1).or_else(|| caps.get(0)) else { continue };
        let value = m.as_str();
        let keep = match kind {
            Kind::OpenAi => !value.starts_with("sk-ant-") && random_looking(value.trim_start_matches("sk-")),
            Kind::Anthropic => random_looking(value.trim_start_matches("sk-ant-")),
            Kind::GitHub => random_looking(value.rsplit('_').next().unwrap_or(value)),
            Kind::Aws => !looks_like_placeholder(value),
            Kind::PrivateKey => true,
            Kind::Generic => random_looking(value) && Kind::ALL_SPECIFIC.iter().all(|k| find(*k, value).is_empty()),
        };
        if keep {
            found.push(m.range());
        }
    }
    found
}

impl Kind {
    const ALL_SPECIFIC: [Kind; 5] = [Kind::OpenAi, Kind::Anthropic, Kind::GitHub, Kind::Aws, Kind::PrivateKey];
    pub const ALL: [Kind; 6] = [Kind::OpenAi, Kind::Anthropic, Kind::GitHub, Kind::Aws, Kind::PrivateKey, Kind::Generic];
}

/// The text with every secret masked: its first four characters kept, the rest replaced by `*`
/// (line breaks kept), so byte offsets and line numbers do not change. A private key is masked
/// from its `BEGIN` line to its `END` line (or the end of the text).
pub fn mask(text: &str) -> Cow<'_, str> {
    // Most texts a report writes (keys, names, numbers) are too short to hold one: returned
    // before any list is made for them (a report of 60,000 tools writes 660,000 strings).
    if text.len() < SHORTEST_MATCH {
        return Cow::Borrowed(text);
    }
    mask_ranges(text, &ranges(text, |kind| find(kind, text)))
}

/// [`mask`], and every occurrence of the secrets findings redacted (see
/// [`Sources::register_secret`]): for text made from the sources, such as a diff or a
/// rendered prompt.
pub fn mask_with<'a>(text: &'a str, redacted: &BTreeSet<String>) -> Cow<'a, str> {
    let mut found = ranges(text, |kind| find(kind, text));
    found.extend(occurrences(text, redacted));
    mask_ranges(text, &found)
}

/// Where the SEC patterns find a secret in `text` (a private key from its `BEGIN` line to its
/// `END` line), `find` giving each kind's matches.
fn ranges(text: &str, find: impl Fn(Kind) -> Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = Vec::new();
    if !may_hold_secret(text) {
        return ranges;
    }
    for kind in Kind::ALL {
        for range in find(kind) {
            let range = if kind == Kind::PrivateKey {
                let end = text[range.end..].find("PRIVATE KEY-----").map_or(text.len(), |i| range.end + i + "PRIVATE KEY-----".len());
                range.start..end
            } else {
                range
            };
            ranges.push(range);
        }
    }
    ranges
}

/// Every place a redacted secret appears in `text`.
fn occurrences(text: &str, redacted: &BTreeSet<String>) -> Vec<Range<usize>> {
    redacted.iter().flat_map(|value| text.match_indices(value.as_str()).map(|(i, v)| i..i + v.len())).collect()
}

/// The secrets of a known file, for masking parts of it: what the SEC patterns find in the whole
/// text (so that a private key's body is masked in a window that does not show its `BEGIN`
/// line). The redacted secrets are not among them: they hold no line break, so a window made of
/// whole lines finds them itself ([`mask_window`]).
pub fn file_ranges(text: &str) -> Vec<Range<usize>> {
    ranges(text, |kind| scan(kind, text))
}

/// `window` (the bytes of a file from `offset`) with the file's secrets masked: `file_ranges`
/// from [`file_ranges`], and the redacted secrets found in the window.
pub fn mask_window<'a>(window: &'a str, offset: usize, file_ranges: &[Range<usize>], redacted: &BTreeSet<String>) -> Cow<'a, str> {
    let end = offset + window.len();
    // A secret cut by the window's start shows none of its characters.
    let mut found: Vec<(Range<usize>, usize)> = file_ranges
        .iter()
        .filter(|r| r.start < end && offset < r.end)
        .map(|r| (r.start.max(offset) - offset..r.end.min(end) - offset, if r.start < offset { 0 } else { SHOWN }))
        .collect();
    found.extend(occurrences(window, redacted).into_iter().map(|r| (r, SHOWN)));
    mask_ranges_keeping(window, &found)
}

/// Masks the secrets in each file of `sources` named in `shown` (see [`mask`]), scanning each content once per
/// run of `cache`.
fn mask_sources(sources: &mut Sources, cache: &Cache, shown: &HashSet<String>) {
    let redacted = sources.secrets().clone();
    sources.rewrite(shown, |text, hash| {
        let mut found = ranges(text, |kind| find_hashed(kind, text, hash, cache));
        found.extend(occurrences(text, &redacted));
        match mask_ranges(text, &found) {
            Cow::Owned(masked) => Some(masked),
            Cow::Borrowed(_) => None,
        }
    });
}

/// Masks every secret of a report: the values its findings redacted are registered in `sources`
/// (by their span), then every source text a finding points into, and every message, label,
/// help, related place and fix title is masked, so that no output format can print one (a line quoted by another finding on the
/// same line, a preview in a message, a name).
pub fn mask_report(sources: &mut Sources, diagnostics: &mut [Diagnostic], cache: &Cache) {
    for d in diagnostics.iter().filter(|d| d.redact) {
        let value = d.file.as_deref().zip(d.span.clone()).and_then(|(file, span)| sources.get_shared(file)?.get(span).map(str::to_string));
        // A span may hold the value's quotes (a JSON string): the value is what is masked.
        let value = value.as_deref().map(|v| v.trim_matches(['"', '\''])).map(str::to_string);
        // Short values would mask ordinary words elsewhere; every credential rule asks for more.
        if let Some(value) = value.filter(|v| v.len() >= MIN_REDACTED && !v.contains('\n')) {
            sources.register_secret(&value);
        }
    }
    // Only a file a finding points into is ever quoted: the others are not scanned (on a
    // 122 MiB project of 100 agents, scanning every file was a quarter of `check`).
    let shown = diagnostics.iter().flat_map(|d| d.file.iter().chain(d.related.iter().map(|r| &r.file))).cloned().collect();
    mask_sources(sources, cache, &shown);
    let redacted = sources.secrets().clone();
    for d in diagnostics.iter_mut() {
        let texts = [Some(&mut d.message), d.label.as_mut(), d.help.as_mut()].into_iter().flatten();
        let related = d.related.iter_mut().flat_map(|r| [&mut r.message, &mut r.file]);
        let fix = d.fix.iter_mut().map(|f| &mut f.title);
        for text in texts.chain(related).chain(fix) {
            if let Cow::Owned(m) = mask_with(text, &redacted) {
                *text = m;
            }
        }
    }
}

/// The shortest value a finding's redaction registers for masking elsewhere.
const MIN_REDACTED: usize = 8;

fn mask_ranges<'a>(text: &'a str, ranges: &[Range<usize>]) -> Cow<'a, str> {
    let ranges: Vec<(Range<usize>, usize)> = ranges.iter().map(|r| (r.clone(), SHOWN)).collect();
    mask_ranges_keeping(text, &ranges)
}

/// The characters of a secret a mask keeps.
const SHOWN: usize = 4;

/// Masks each range of `text`, keeping its first characters (as many as paired with it).
fn mask_ranges_keeping<'a>(text: &'a str, ranges: &[(Range<usize>, usize)]) -> Cow<'a, str> {
    if ranges.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for (range, shown) in ranges {
        let Some(secret) = text.get(range.clone()) else { continue };
        let keep = secret.char_indices().nth(*shown).map_or(range.end, |(i, _)| range.start + i);
        for b in &mut bytes[keep..range.end] {
            // Only ASCII bytes are replaced (one for one), so the text stays valid UTF-8.
            if b.is_ascii() && *b != b'\n' && *b != b'\r' {
                *b = b'*';
            }
        }
    }
    Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Findings for one kind across every file the run read, redacted.
pub fn check(cx: &Context, kind: Kind) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (file, text, hash) in cx.sources.iter_hashed() {
        for range in find_hashed(kind, text, hash, cx.root.cache()) {
            let secret = &text[range.clone()];
            let shown = if kind == Kind::PrivateKey { "-----BEGIN …".to_string() } else { redact(secret) };
            findings.push(
                Diagnostic::error(format!("what looks like {} (`{shown}`)", kind.describe()))
                    .in_file(file)
                    .at(Some(range))
                    .label("secret (not shown)")
                    .help("remove it from the prompt sources and rotate it; the model (and anyone who can read the prompt or its logs) sees it")
                    .redacted(),
            );
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENAI: &str = "sk-proj-4fT9xQ2mLp8RzW1vKc7NbY3hJd6GsA0e";

    #[test]
    fn finds_keys_and_skips_placeholders() {
        assert_eq!(find(Kind::OpenAi, &format!("key: {OPENAI}\n")).len(), 1);
        assert!(find(Kind::OpenAi, "sk-your-secret-here-please-now").is_empty());
        assert!(find(Kind::OpenAi, "task-budgets-2026-03-13-and-more-text").is_empty(), "needs a word boundary");
        assert!(find(Kind::OpenAi, "sk-ant-api03-Zx8Kq2Lm9Np4Rt7Vw1Yb5Cd3Fg6Hj0Ks2Mn4Pq8").is_empty());
        assert_eq!(find(Kind::Anthropic, "sk-ant-api03-Zx8Kq2Lm9Np4Rt7Vw1Yb5Cd3Fg6Hj0Ks2Mn4Pq8").len(), 1);
        assert!(find(Kind::Anthropic, "sk-ant-oat01-...").is_empty());
        assert_eq!(find(Kind::GitHub, "ghp_Zx8Kq2Lm9Np4Rt7Vw1Yb5Cd3Fg6Hj0Ks2Mn4P").len(), 1);
        assert!(find(Kind::GitHub, "GITHUB_TOKEN=ghp_xxx").is_empty());
        assert_eq!(find(Kind::Aws, "AKIAZ7Q3M5N2P4R6T8V0").len(), 1);
        assert!(find(Kind::Aws, "AKIAIOSFODNN7EXAMPLE").is_empty());
        assert_eq!(find(Kind::PrivateKey, "-----BEGIN RSA PRIVATE KEY-----\nabc").len(), 1);
        assert_eq!(find(Kind::Generic, "api_key = \"9f8Kq2Lm4Np7Rt1VwYb5\"").len(), 1);
        assert!(find(Kind::Generic, "max_output_tokens: 16384").is_empty());
        assert!(find(Kind::Generic, "password: correct-horse-battery-staple").is_empty());
        assert!(find(Kind::Generic, &format!("api_key = {OPENAI}")).is_empty(), "reported as OpenAI, not twice");
    }

    /// The one-pass gate rules out only texts no pattern matches in, and a text shorter than
    /// [`SHORTEST_MATCH`] holds no match: the shortest secret (an AWS key id) is that long.
    #[test]
    fn the_gate_passes_every_text_a_pattern_matches_in() {
        let texts = [
            format!("key: {OPENAI}\n"),
            "sk-your-secret-here-please-now".to_string(),
            "sk-ant-api03-Zx8Kq2Lm9Np4Rt7Vw1Yb5Cd3Fg6Hj0Ks2Mn4Pq8".to_string(),
            "ghp_Zx8Kq2Lm9Np4Rt7Vw1Yb5Cd3Fg6Hj0Ks2Mn4P".to_string(),
            "github_pat_Zx8Kq2Lm9Np4Rt7Vw1Yb5Cd3".to_string(),
            "AKIAZ7Q3M5N2P4R6T8V0".to_string(),
            "-----BEGIN RSA PRIVATE KEY-----\nabc".to_string(),
            "PASSWORD='9f8Kq2Lm4Np7Rt1VwYb5'".to_string(),
            "max_output_tokens: 16384".to_string(),
            "tool_101_deploy".to_string(),
            "o200k_base".to_string(),
        ];
        for text in &texts {
            let any = Kind::ALL.iter().any(|k| k.pattern().is_match(text));
            assert_eq!(may_hold_secret(text), any, "{text:?}");
        }
        assert_eq!(find(Kind::Aws, "AKIAZ7Q3M5N2P4R6T8V0").len(), 1);
        assert_eq!("AKIAZ7Q3M5N2P4R6T8V0".len(), SHORTEST_MATCH);
        assert!(!Kind::ALL.iter().any(|k| k.pattern().is_match("AKIAZ7Q3M5N2P4R6T8V")), "one byte shorter matches nothing");
    }

    #[test]
    fn masks_every_secret_keeping_offsets() {
        let text = format!("a {OPENAI} b\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\nafter\n");
        let masked = mask(&text);
        assert_eq!(masked.len(), text.len());
        assert!(masked.starts_with("a sk-p****"), "{masked}");
        assert!(!masked.contains("MIIEow") && masked.ends_with("*\nafter\n"), "{masked}");
        assert!(matches!(mask("nothing here"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn a_report_masks_the_files_its_findings_point_into_and_reads_no_other() {
        let key = "AKIAZ7Q3M5N2P4R6T8V0";
        let mut sources = Sources::default();
        sources.insert("quoted.md", &format!("key {key}\n"));
        sources.insert("never-quoted.md", &format!("key {key}\n"));
        let mut findings = vec![Diagnostic::warning("a finding").in_file("quoted.md").at(Some(0..3))];
        mask_report(&mut sources, &mut findings, &Cache::default());
        assert!(!sources.get("quoted.md").unwrap().contains(key), "masked where a finding may quote it");
        // A file no finding points into is never printed, so it is not scanned (a quarter of
        // `check`'s time on a 122 MiB project).
        assert!(sources.get("never-quoted.md").unwrap().contains(key));
    }

    #[test]
    fn entropy_of_simple_strings() {
        assert_eq!(entropy("aaaa"), 0.0);
        assert!((entropy("abcd") - 2.0).abs() < 1e-9);
    }
}

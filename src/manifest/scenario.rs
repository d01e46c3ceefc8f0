//! Runtime values of a scenario that need computing: the fixed current time and the ranking and
//! bounding of retrieved memories. Both are deterministic.

use serde::Serialize;

pub use super::raw::MemoryItem;

/// A fixed point in time from RFC 3339 text, kept as its local fields and UTC offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Timestamp {
    pub year: i32,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    /// Offset from UTC in minutes.
    pub offset_minutes: i32,
}

const MONTHS: [&str; 12] =
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

impl Timestamp {
    /// Parses `YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]`.
    pub fn parse(text: &str) -> Result<Timestamp, String> {
        let bad = || format!("`{text}` is not an RFC 3339 time such as 2026-03-02T09:30:00+01:00");
        let num = |s: Option<&str>| s.and_then(|s| s.parse::<u32>().ok()).ok_or_else(bad);
        let (date, time) = text.split_once(['T', ' ']).ok_or_else(bad)?;
        let mut d = date.splitn(3, '-');
        let year = num(d.next())? as i32;
        let (month, day) = (num(d.next())?, num(d.next())?);
        let (clock, offset_minutes) = if let Some(clock) = time.strip_suffix(['Z', 'z']) {
            (clock, 0)
        } else if let Some(i) = time.rfind(['+', '-']) {
            let (h, m) = time[i + 1..].split_once(':').ok_or_else(bad)?;
            let minutes = (num(Some(h))? * 60 + num(Some(m))?) as i32;
            (&time[..i], if &time[i..i + 1] == "-" { -minutes } else { minutes })
        } else {
            return Err(format!("`{text}` has no UTC offset: add `Z` or one such as `+01:00`"));
        };
        let mut c = clock.splitn(3, ':');
        let (hour, minute) = (num(c.next())?, num(c.next())?);
        let second = match c.next() {
            Some(s) => num(Some(s.split('.').next().unwrap_or(s)))?,
            None => 0,
        };
        let valid = (1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(year, month)
            && hour < 24
            && minute < 60
            && second < 61
            && offset_minutes.abs() < 24 * 60;
        if valid {
            Ok(Timestamp { year, month, day, hour, minute, second, offset_minutes })
        } else {
            Err(bad())
        }
    }

    pub fn weekday(&self) -> &'static str {
        // Days since 1970-01-01 (a Thursday), by the civil-from-days inverse.
        let (y, m) = if self.month <= 2 { (self.year - 1, self.month + 9) } else { (self.year, self.month - 3) };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * m as i32 + 2) / 5 + self.day as i32 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        let days = era * 146_097 + doe - 719_468;
        WEEKDAYS[(days + 3).rem_euclid(7) as usize]
    }

    /// "Monday, 2 March 2026, 09:30 (UTC+01:00)".
    pub fn human(&self) -> String {
        let sign = if self.offset_minutes < 0 { '-' } else { '+' };
        let off = self.offset_minutes.abs();
        format!(
            "{}, {} {} {}, {:02}:{:02} (UTC{sign}{:02}:{:02})",
            self.weekday(),
            self.day,
            MONTHS[self.month as usize - 1],
            self.year,
            self.hour,
            self.minute,
            off / 60,
            off % 60
        )
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// How retrieved memories are ranked and bounded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Retrieval {
    pub top_k: usize,
    pub max_chars: usize,
    /// Scopes retrieved, highest priority first.
    pub scopes: Vec<String>,
    pub weight_similarity: f64,
    pub weight_confidence: f64,
    pub weight_scope: f64,
}

impl Default for Retrieval {
    /// The Zeus defaults: top 5, 2000 characters, user + project + session, 0.5 / 0.3 / 0.2.
    fn default() -> Self {
        Retrieval {
            top_k: 5,
            max_chars: 2000,
            scopes: vec!["user".into(), "project".into(), "session".into()],
            weight_similarity: 0.5,
            weight_confidence: 0.3,
            weight_scope: 0.2,
        }
    }
}

/// The memories that make it into the prompt, and what was cut.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Selection {
    pub kept: Vec<MemoryItem>,
    /// Dropped because only `top_k` are kept.
    pub over_top_k: usize,
    /// Dropped because the character limit was reached.
    pub over_max_chars: usize,
    /// Dropped because their scope is not retrieved.
    pub out_of_scope: usize,
}

impl Retrieval {
    /// Scope priority in [0, 1]: the first scope is 1, the last 1/n.
    fn scope_priority(&self, scope: &str) -> Option<f64> {
        let n = self.scopes.len() as f64;
        self.scopes.iter().position(|s| s == scope).map(|i| (n - i as f64) / n)
    }

    pub fn score(&self, item: &MemoryItem) -> Option<f64> {
        self.scope_priority(&item.scope).map(|priority| {
            item.similarity * self.weight_similarity + item.confidence * self.weight_confidence + priority * self.weight_scope
        })
    }

    /// Ranks by score (ties keep input order), keeps the top K, then keeps memories whole while
    /// their formatted lines ([`MemoryItem::line`], one per line) fit in `max_chars` characters:
    /// Zeus bounds the formatted length, prefixes and line breaks included.
    pub fn select(&self, items: &[MemoryItem]) -> Selection {
        let mut scored: Vec<(f64, usize, &MemoryItem)> =
            items.iter().enumerate().filter_map(|(i, item)| self.score(item).map(|s| (s, i, item))).collect();
        let out_of_scope = items.len() - scored.len();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let over_top_k = scored.len().saturating_sub(self.top_k);
        scored.truncate(self.top_k);
        let mut used = 0;
        let mut kept = Vec::new();
        for (_, _, item) in &scored {
            let chars = item.line().chars().count() + usize::from(!kept.is_empty());
            if used + chars > self.max_chars {
                break;
            }
            used += chars;
            kept.push((*item).clone());
        }
        let over_max_chars = scored.len() - kept.len();
        Selection { kept, over_top_k, over_max_chars, out_of_scope }
    }
}

impl MemoryItem {
    /// The memory as the prompt lists it: `- (scope) text`.
    pub fn line(&self) -> String {
        format!("- ({}) {}", self.scope, self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats_times() {
        let t = Timestamp::parse("2026-03-02T09:30:00+01:00").expect("valid");
        assert_eq!(t.human(), "Monday, 2 March 2026, 09:30 (UTC+01:00)");
        assert_eq!(Timestamp::parse("2024-02-29T23:59Z").expect("leap").weekday(), "Thursday");
        assert_eq!(Timestamp::parse("2000-01-01T00:00:00-05:30").expect("neg").human(), "Saturday, 1 January 2000, 00:00 (UTC-05:30)");
        assert!(Timestamp::parse("2026-02-30T10:00:00Z").is_err());
        assert!(Timestamp::parse("2026-03-02T09:30:00").is_err());
        assert!(Timestamp::parse("yesterday").is_err());
    }

    fn memory(text: &str, similarity: f64, confidence: f64, scope: &str) -> MemoryItem {
        MemoryItem { text: text.into(), similarity, confidence, scope: scope.into() }
    }

    #[test]
    fn ranks_with_weights_and_cuts_at_bounds() {
        // "- (user) bbbb" is 13 characters: the limit counts the formatted line.
        let retrieval = Retrieval { top_k: 2, max_chars: 20, ..Retrieval::default() };
        let items = vec![
            memory("aaaa", 0.5, 0.5, "session"),  // 0.25 + 0.15 + 0.2/3
            memory("bbbb", 0.9, 0.9, "user"),     // 0.45 + 0.27 + 0.2
            memory("cccccccc", 0.8, 0.8, "user"), // 0.40 + 0.24 + 0.2
            memory("dd", 1.0, 1.0, "org"),        // scope not retrieved
        ];
        let selection = retrieval.select(&items);
        assert_eq!(selection.kept, vec![items[1].clone()]);
        assert_eq!((selection.over_top_k, selection.over_max_chars, selection.out_of_scope), (1, 1, 1));
        // Two lines of 13 characters and the line break between them: 27.
        let two = Retrieval { top_k: 2, max_chars: 27, ..Retrieval::default() };
        let items = vec![memory("aaaa", 0.9, 0.9, "user"), memory("bbbb", 0.9, 0.9, "user")];
        assert_eq!(two.select(&items).kept.len(), 2);
        assert_eq!(Retrieval { max_chars: 26, ..two }.select(&items).kept.len(), 1);
    }
}

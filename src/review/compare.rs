//! Two sets of pinned agents compared: per agent, mode × scenario and section, the tokens before
//! and after and the delta, what was added and removed, and a unified diff of each changed
//! prompt's text. `ctxc diff` compares a git revision with the work tree; `ctxc check --locked`
//! compares `ctxc.lock` (and the snapshot files) with the current render.

use serde::Serialize;

use super::{AgentPin, PromptPin};
use crate::checks::budgets::Band;
use crate::measure::Count;
use crate::models::Calibration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Added,
    Removed,
    Changed,
    Unchanged,
}

/// Tokens before and after; a side that does not exist is `None` (and counts as 0 in `delta`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Delta {
    pub before: Option<i64>,
    pub after: Option<i64>,
    pub delta: i64,
}

impl Delta {
    pub fn new(before: Option<i64>, after: Option<i64>) -> Self {
        Delta { before, after, delta: after.unwrap_or(0) - before.unwrap_or(0) }
    }

    /// The change as a share of `before`, when there is a `before` to compare with.
    pub fn percent(&self) -> Option<f64> {
        match (self.before, self.after) {
            (Some(b), Some(_)) if b != 0 => Some(self.delta as f64 * 100.0 / b as f64),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SectionChange {
    pub id: String,
    pub status: Status,
    pub tokens: Delta,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PromptChange {
    pub mode: String,
    pub scenario: String,
    pub status: Status,
    /// The whole system prompt.
    pub system_prompt: Delta,
    pub tool_schemas: Delta,
    /// System prompt plus tool schemas: the fixed context (what `--fail-on-increase` checks).
    pub total: Delta,
    /// For estimates: the ranges the work tree's system prompt and total (else the base's) lie in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bands: Option<Bands>,
    /// Every section of either side, in pipeline order (removed ones where they were).
    pub sections: Vec<SectionChange>,
    /// Whether the callable tools changed (their schemas' sha256).
    pub tools_changed: bool,
    /// Unified diff of the prompt text, secrets masked (empty when the text did not change or is
    /// not known).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub diff: String,
}

/// The ranges an estimated prompt's figures lie in (see [`Band`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Bands {
    pub system_prompt: Band,
    pub total: Band,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentChange {
    /// The manifest's path, relative to the folder compared.
    pub path: String,
    pub agent: String,
    pub status: Status,
    /// Changes of the agent itself: name, model, tokenizer.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Whether the counts are exact (false: estimates, shown with `~`).
    pub exact: bool,
    pub prompts: Vec<PromptChange>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub agents: Vec<AgentChange>,
}

impl Comparison {
    /// Whether anything differs.
    pub fn changed(&self) -> bool {
        self.agents.iter().any(|a| a.status != Status::Unchanged)
    }
}

/// Labels of the two sides in diff headers, e.g. `HEAD` and `work tree`.
#[derive(Debug, Clone)]
pub struct Labels {
    pub before: String,
    pub after: String,
}

/// Compares agents keyed by their manifest path. `labels` name the sides in the text diffs.
pub fn compare(before: &[(String, AgentPin)], after: &[(String, AgentPin)], labels: &Labels) -> Comparison {
    let mut paths: Vec<&String> = before.iter().chain(after).map(|(p, _)| p).collect();
    paths.sort();
    paths.dedup();
    fn find<'a>(side: &'a [(String, AgentPin)], path: &str) -> Option<&'a AgentPin> {
        side.iter().find(|(p, _)| p == path).map(|(_, a)| a)
    }
    let agents = paths.into_iter().map(|path| compare_agent(path, find(before, path), find(after, path), labels)).collect();
    Comparison { agents }
}

fn compare_agent(path: &str, before: Option<&AgentPin>, after: Option<&AgentPin>, labels: &Labels) -> AgentChange {
    let any = after.or(before).expect("one side exists"); // ok: paths come from either side
    let mut notes = Vec::new();
    if let (Some(b), Some(a)) = (before, after) {
        let mut note = |what: &str, x: String, y: String| {
            if x != y {
                notes.push(format!("{what}: {x} → {y}"));
            }
        };
        note("agent", b.agent.clone(), a.agent.clone());
        note("model", b.model.clone().unwrap_or_else(|| "(none)".into()), a.model.clone().unwrap_or_else(|| "(none)".into()));
        note("tokenizer", b.tokenizer.clone(), a.tokenizer.clone());
    }
    let mut keys: Vec<(&str, &str)> =
        before.into_iter().chain(after).flat_map(|a| a.prompts.iter().map(|p| (p.mode.as_str(), p.scenario.as_str()))).collect();
    keys.sort();
    keys.dedup();
    fn find<'a>(side: Option<&'a AgentPin>, key: (&str, &str)) -> Option<&'a PromptPin> {
        side.and_then(|a| a.prompts.iter().find(|p| (p.mode.as_str(), p.scenario.as_str()) == key))
    }
    // The model counted for on the side shown: its calibration bounds an estimate.
    let calibration =
        (!any.exact).then(|| crate::models::profile(any.model.as_deref().unwrap_or_default()).estimate_calibration()).flatten();
    let prompts: Vec<PromptChange> =
        keys.into_iter().map(|key| compare_prompt(&any.agent, find(before, key), find(after, key), labels, calibration)).collect();
    let status = match (before, after) {
        (None, _) => Status::Added,
        (_, None) => Status::Removed,
        _ if notes.is_empty() && prompts.iter().all(|p| p.status == Status::Unchanged) => Status::Unchanged,
        _ => Status::Changed,
    };
    AgentChange { path: path.to_string(), agent: any.agent.clone(), status, notes, exact: any.exact, prompts }
}

fn compare_prompt(
    agent: &str,
    before: Option<&PromptPin>,
    after: Option<&PromptPin>,
    labels: &Labels,
    calibration: Option<Calibration>,
) -> PromptChange {
    let any = after.or(before).expect("one side exists"); // ok: keys come from either side
    let sections = compare_sections(before, after);
    let tools_changed = before.map(|p| &p.tool_schemas) != after.map(|p| &p.tool_schemas);
    let status = match (before, after) {
        (None, _) => Status::Added,
        (_, None) => Status::Removed,
        (Some(b), Some(a))
            if b.sha256 == a.sha256 && b.tokens == a.tokens && !tools_changed && sections.iter().all(|s| s.status == Status::Unchanged) =>
        {
            Status::Unchanged
        }
        _ => Status::Changed,
    };
    let diff = match (status, before.map(|p| p.text.as_deref()), after.map(|p| p.text.as_deref())) {
        (Status::Unchanged, _, _) => String::new(),
        (_, Some(None), _) | (_, _, Some(None)) => String::new(),
        (_, b, a) => {
            // Secrets are masked as everywhere ctxc reports (first four characters kept).
            let masked = |text: Option<&str>| text.map(|t| crate::rules::secrets::mask(t).into_owned());
            let (b, a) = (masked(b.flatten()), masked(a.flatten()));
            let name = format!("{agent} · {} · {}", any.mode, any.scenario);
            unified_diff(b.as_deref(), a.as_deref(), &format!("{}: {name}", labels.before), &format!("{}: {name}", labels.after))
        }
    };
    let system_prompt = Delta::new(before.map(|p| p.tokens), after.map(|p| p.tokens));
    let tool_schemas = Delta::new(before.map(|p| p.tool_schemas.tokens), after.map(|p| p.tool_schemas.tokens));
    let band = |tokens: i64| Band::of(calibration, Count { tokens, tokenizer: "", exact: false });
    let bands = band(any.tokens).zip(band(any.total())).map(|(system_prompt, total)| Bands { system_prompt, total });
    PromptChange {
        mode: any.mode.clone(),
        scenario: any.scenario.clone(),
        status,
        total: Delta::new(before.map(PromptPin::total), after.map(PromptPin::total)),
        bands,
        system_prompt,
        tool_schemas,
        sections,
        tools_changed,
        diff,
    }
}

/// Sections of both sides in pipeline order: the after side's order, with each removed section
/// placed after the section that preceded it before.
fn compare_sections(before: Option<&PromptPin>, after: Option<&PromptPin>) -> Vec<SectionChange> {
    let empty = Vec::new();
    let b = before.map_or(&empty, |p| &p.sections);
    let a = after.map_or(&empty, |p| &p.sections);
    let mut out: Vec<SectionChange> = a
        .iter()
        .map(|s| {
            let old = b.iter().find(|o| o.id == s.id);
            let status = match old {
                None => Status::Added,
                Some(o) if o.sha256 == s.sha256 && o.tokens == s.tokens => Status::Unchanged,
                Some(_) => Status::Changed,
            };
            SectionChange { id: s.id.clone(), status, tokens: Delta::new(old.map(|o| o.tokens), Some(s.tokens)) }
        })
        .collect();
    for (i, old) in b.iter().enumerate().filter(|(_, o)| !a.iter().any(|s| s.id == o.id)) {
        let removed = SectionChange { id: old.id.clone(), status: Status::Removed, tokens: Delta::new(Some(old.tokens), None) };
        let at = b[..i].iter().rev().find_map(|prev| out.iter().position(|s| s.id == prev.id)).map_or(0, |p| p + 1);
        out.insert(at, removed);
    }
    out
}

/// A unified diff (three lines of context) of two texts, each given a final line break so a
/// prompt's last line compares like the others; `None` is a side that does not exist.
pub fn unified_diff(before: Option<&str>, after: Option<&str>, before_label: &str, after_label: &str) -> String {
    let lines = |text: Option<&str>| text.map(|t| format!("{t}\n")).unwrap_or_default();
    let (before, after) = (lines(before), lines(after));
    let diff = similar::TextDiff::from_lines(&before, &after);
    diff.unified_diff().context_radius(3).header(before_label, after_label).to_string()
}

/// A limit on growth for `ctxc diff --fail-on-increase`: tokens, or percent of the base.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Threshold {
    Tokens(i64),
    Percent(f64),
}

impl std::str::FromStr for Threshold {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let bad = || format!("`{s}` is not a token count (`500`) or a percentage (`5%`)");
        match s.strip_suffix('%') {
            Some(p) => p.trim().parse::<f64>().ok().filter(|p| p.is_finite() && *p >= 0.0).map(Threshold::Percent).ok_or_else(bad),
            None => s.parse::<i64>().ok().filter(|n| *n >= 0).map(Threshold::Tokens).ok_or_else(bad),
        }
    }
}

impl std::fmt::Display for Threshold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Threshold::Tokens(n) => write!(f, "{n} tokens"),
            Threshold::Percent(p) => write!(f, "{p} %"),
        }
    }
}

impl Threshold {
    /// Whether a prompt's total grew by more than the limit. A token limit applies to added
    /// prompts too (growth from nothing); a percentage only to prompts on both sides.
    pub fn exceeded_by(&self, total: &Delta) -> bool {
        match self {
            Threshold::Tokens(n) => total.after.is_some() && total.delta > *n,
            Threshold::Percent(p) => total.percent().is_some_and(|growth| growth > *p),
        }
    }
}

/// Every prompt whose total grew past the limit: (agent path, prompt).
pub fn over_threshold<'a>(comparison: &'a Comparison, threshold: &Threshold) -> Vec<(&'a AgentChange, &'a PromptChange)> {
    comparison.agents.iter().flat_map(|a| a.prompts.iter().map(move |p| (a, p))).filter(|(_, p)| threshold.exceeded_by(&p.total)).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{SectionPin, ToolsPin};
    use super::*;

    fn prompt(sections: &[(&str, i64)]) -> PromptPin {
        let text: String = sections.iter().map(|(id, n)| format!("{id} {n}\n")).collect();
        PromptPin {
            mode: "m".into(),
            scenario: "s".into(),
            tokens: sections.iter().map(|(_, n)| n).sum(),
            sha256: super::super::sha256_hex(&text),
            tool_schemas: ToolsPin { tools: 0, tokens: 0, sha256: String::new() },
            sections: sections
                .iter()
                .enumerate()
                .map(|(i, (id, n))| SectionPin {
                    id: id.to_string(),
                    step: i + 1,
                    tokens: *n,
                    tokenizer: "o200k_base".into(),
                    exact: true,
                    sha256: super::super::sha256_hex(&format!("{id}{n}")),
                })
                .collect(),
            text: Some(text),
        }
    }

    #[test]
    fn sections_keep_pipeline_order_with_removed_ones_in_place() {
        let before = prompt(&[("a", 1), ("b", 2), ("c", 3)]);
        let after = prompt(&[("a", 1), ("c", 4), ("d", 5)]);
        let changes = compare_sections(Some(&before), Some(&after));
        let got: Vec<(&str, Status, i64)> = changes.iter().map(|s| (s.id.as_str(), s.status, s.tokens.delta)).collect();
        assert_eq!(got, [("a", Status::Unchanged, 0), ("b", Status::Removed, -2), ("c", Status::Changed, 1), ("d", Status::Added, 5)]);
    }

    #[test]
    fn secrets_in_text_diffs_are_masked() {
        let key = "sk-proj-4fT9xQ2mZr8LkP1vB7nW3yHc6JdE0aGs5uKqXw";
        let before = prompt(&[("a", 1)]);
        let mut after = prompt(&[("a", 2)]);
        after.text = Some(format!("Use the key {key} for billing.\n"));
        let labels = Labels { before: "HEAD".into(), after: "work tree".into() };
        let change = compare_prompt("x", Some(&before), Some(&after), &labels, None);
        assert!(change.diff.contains("+Use the key sk-p"), "{}", change.diff);
        assert!(!change.diff.contains(key), "{}", change.diff);
    }

    #[test]
    fn thresholds() {
        assert_eq!("500".parse::<Threshold>(), Ok(Threshold::Tokens(500)));
        assert_eq!("2.5%".parse::<Threshold>(), Ok(Threshold::Percent(2.5)));
        assert!("-1".parse::<Threshold>().is_err() && "x%".parse::<Threshold>().is_err());
        let grew = Delta::new(Some(1000), Some(1100));
        assert!(Threshold::Tokens(99).exceeded_by(&grew) && !Threshold::Tokens(100).exceeded_by(&grew));
        assert!(Threshold::Percent(9.9).exceeded_by(&grew) && !Threshold::Percent(10.0).exceeded_by(&grew));
        let added = Delta::new(None, Some(50));
        assert!(Threshold::Tokens(10).exceeded_by(&added) && !Threshold::Percent(0.0).exceeded_by(&added));
        assert!(!Threshold::Tokens(0).exceeded_by(&Delta::new(Some(5), None)), "removed prompts never fail");
    }

    #[test]
    fn added_and_removed_agents_and_prompts() {
        let labels = Labels { before: "HEAD".into(), after: "work tree".into() };
        let agent =
            |prompts: Vec<PromptPin>| AgentPin { agent: "x".into(), model: None, tokenizer: "o200k_base".into(), exact: true, prompts };
        let mut other = prompt(&[("a", 1)]);
        other.mode = "n".into();
        let before = vec![("x/ctxc.toml".to_string(), agent(vec![prompt(&[("a", 1)])])), ("gone/ctxc.toml".to_string(), agent(vec![]))];
        let after = vec![("x/ctxc.toml".to_string(), agent(vec![prompt(&[("a", 1)]), other]))];
        let c = compare(&before, &after, &labels);
        let statuses: Vec<(&str, Status)> = c.agents.iter().map(|a| (a.path.as_str(), a.status)).collect();
        assert_eq!(statuses, [("gone/ctxc.toml", Status::Removed), ("x/ctxc.toml", Status::Changed)]);
        let x = &c.agents[1];
        assert_eq!(x.prompts.iter().map(|p| p.status).collect::<Vec<_>>(), [Status::Unchanged, Status::Added]);
        assert!(x.prompts[1].diff.starts_with("--- HEAD: x · n · s\n+++ work tree: x · n · s\n"), "{}", x.prompts[1].diff);
        assert!(c.changed());
    }
}

//! Stage 6 (budgets): every budget of an agent evaluated against one measured mode × scenario
//! ([`evaluate`]: what `ctxc cost` shows), and each overrun reported once per budget, at its
//! worst across modes and scenarios, pointing at the budget line ([`check`]: what `ctxc check`
//! reports). Both read the same evaluation, so `cost` and `check` never disagree.

use serde::Serialize;

use crate::codes::Code;
use crate::diagnostic::{grouped, Diagnostic, Severity};
use crate::manifest::model::{Agent, Origin};
use crate::measure::{Count, Measured};
use crate::models::Calibration;

/// What a budget limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BudgetKind {
    /// `[budgets] system_prompt`: the whole system prompt.
    SystemPrompt,
    /// `[budgets] tool_schemas`: the tool schemas sent beside the prompt.
    ToolSchemas,
    /// `[modes.M] budget`: that mode's system prompt plus tool schemas.
    Mode,
    /// A step's `budget`: its section (bounded dynamic sections at their worst case).
    Step,
    /// The fixed context must leave room for the response reserve in the window.
    ResponseReserve,
    /// The fixed context must stay below the summarization trigger.
    Summarization,
}

impl BudgetKind {
    /// The two limits the window sets, as opposed to budgets the manifest writes out.
    fn is_window(self) -> bool {
        matches!(self, BudgetKind::ResponseReserve | BudgetKind::Summarization)
    }
}

/// How full a budget is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    /// At least `budgets.warn_ratio` full: `ctxc check` warns.
    Near,
    /// Within the limit as estimated, but the estimate's band reaches past it (a model without a
    /// public tokenizer): `ctxc check` warns.
    AtRisk,
    /// Over the limit (the window limits: reaching it): `ctxc check` fails.
    Over,
}

/// The range an estimated count may be in: the estimate ± its calibration's band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Band {
    pub percent: u32,
    pub low: i64,
    pub high: i64,
}

/// As every report shows it: `±10 %: 5,310 to 6,490`.
impl std::fmt::Display for Band {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "±{} %: {} to {}", self.percent, grouped(self.low), grouped(self.high))
    }
}

impl Band {
    /// The range `count` lies in when it is an estimate `calibration` scales (none for an exact
    /// count, or an estimate no measurement bounds).
    pub fn of(calibration: Option<Calibration>, count: Count) -> Option<Band> {
        calibration.filter(|_| !count.exact).map(|c| {
            let (low, high) = c.band(count.tokens);
            Band { percent: c.band_percent, low, high }
        })
    }
}

impl Status {
    /// The status as reports name it.
    pub fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Near => "near",
            Status::AtRisk => "at risk",
            Status::Over => "over",
        }
    }
}

/// One budget against one measured mode × scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BudgetStatus {
    pub kind: BudgetKind,
    /// The step id (kind `step`) or mode (kind `mode`); `null` for the others.
    pub id: Option<String>,
    /// A short name: `system prompt`, `step core`, `agent mode`, `response reserve`…
    pub name: String,
    /// What is counted against the limit.
    pub measured: String,
    pub tokens: Count,
    /// Whether `tokens` is a bounded dynamic section at its worst case, not as rendered.
    pub worst_case: bool,
    pub limit: u64,
    /// `tokens / limit`, rounded to four decimals.
    pub share: f64,
    /// For an estimate with a band: the lowest and highest counts it allows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<Band>,
    pub status: Status,
    /// Where the limit is set, for the diagnostic.
    #[serde(skip)]
    pub origin: Option<Origin>,
}

impl BudgetStatus {
    fn new(kind: BudgetKind, id: Option<&str>, name: String, measured: String, tokens: Count, limit: u64, status: Status) -> Self {
        let share = (tokens.tokens as f64 / limit.max(1) as f64 * 10_000.0).round() / 10_000.0;
        BudgetStatus {
            kind,
            id: id.map(str::to_string),
            name,
            measured,
            tokens,
            worst_case: false,
            limit,
            share,
            band: None,
            status,
            origin: None,
        }
    }

    /// Tokens over the limit (0 when within it).
    pub fn excess(&self) -> i64 {
        (self.tokens.tokens - self.limit as i64).max(0)
    }
}

/// How a count stands against a limit, with the estimate's calibration band.
struct Judge {
    warn_ratio: f64,
    calibration: Option<Calibration>,
}

impl Judge {
    /// The range an estimate's true count lies in (none for an exact count).
    fn band(&self, tokens: Count) -> Option<Band> {
        Band::of(self.calibration, tokens)
    }

    /// A manifest's budget: over when the count exceeds it, at risk when only the band does.
    fn status(&self, tokens: Count, limit: u64) -> Status {
        if tokens.tokens > limit as i64 {
            Status::Over
        } else if self.band(tokens).is_some_and(|b| b.high > limit as i64) {
            Status::AtRisk
        } else if tokens.tokens as f64 >= limit as f64 * self.warn_ratio {
            Status::Near
        } else {
            Status::Ok
        }
    }

    /// The window's limits are reached, not exceeded, to fail; they give no warning but the band's.
    fn reached(&self, tokens: Count, limit: u64) -> Status {
        if tokens.tokens >= limit as i64 {
            Status::Over
        } else if self.band(tokens).is_some_and(|b| b.high >= limit as i64) {
            Status::AtRisk
        } else {
            Status::Ok
        }
    }
}

/// Every budget that applies to one measured mode × scenario, in a fixed order: system prompt,
/// tool schemas, the mode, each budgeted step in pipeline order, then the window's two limits.
pub fn evaluate(agent: &Agent, m: &Measured) -> Vec<BudgetStatus> {
    let judge = Judge { warn_ratio: agent.budgets.warn_ratio, calibration: m.model.estimate_calibration() };
    // The fixed context is the request total: as exact as its least exact part.
    let fixed = m.request.total;
    let mut out = Vec::new();
    let mut push = |mut s: BudgetStatus, origin: Option<Origin>| {
        s.band = judge.band(s.tokens);
        s.origin = origin;
        out.push(s);
    };
    let mode_budget = agent.modes.get(&m.mode).and_then(|mode| mode.budget.as_ref());
    let manifest_budgets = [
        (BudgetKind::SystemPrompt, agent.budgets.system_prompt.as_ref(), None, "system prompt", "the system prompt", m.system_prompt),
        (BudgetKind::ToolSchemas, agent.budgets.tool_schemas.as_ref(), None, "tool schemas", "the tool schemas", m.tool_schemas.total),
        (BudgetKind::Mode, mode_budget, Some(m.mode.as_str()), "", "the request: system prompt, tool schemas, message framing", fixed),
    ];
    for (kind, budget, id, name, measured, tokens) in manifest_budgets {
        let Some(budget) = budget else { continue };
        let name = id.map_or(name.to_string(), |mode| format!("{mode} mode"));
        let s = BudgetStatus::new(kind, id, name, measured.into(), tokens, budget.tokens, judge.status(tokens, budget.tokens));
        push(s, Some(budget.origin.clone()));
    }
    for section in &m.sections {
        let Some(budget) = agent.steps.iter().find(|s| s.number == section.step).and_then(|s| s.budget.as_ref()) else { continue };
        let (tokens, measured) = match section.worst_case {
            Some(w) => (w, "the section at its worst case (top K and max characters)"),
            None => (section.tokens, "the section"),
        };
        let name = format!("step {}", section.id);
        let mut s = BudgetStatus::new(
            BudgetKind::Step,
            Some(&section.id),
            name,
            measured.into(),
            tokens,
            budget.tokens,
            judge.status(tokens, budget.tokens),
        );
        s.worst_case = section.worst_case.is_some();
        push(s, Some(budget.origin.clone()));
    }
    let w = &m.window;
    let room = w.max_input_tokens.saturating_sub(w.response_reserve);
    let measured = "the request (system prompt, tool schemas, framing), within the window minus the response reserve".to_string();
    let s =
        BudgetStatus::new(BudgetKind::ResponseReserve, None, "response reserve".into(), measured, fixed, room, judge.reached(fixed, room));
    push(s, agent.budgets.response_reserve_origin.clone());
    if let (Some(at), Some(ratio)) = (w.summarization_at, w.summarization_ratio) {
        let measured =
            format!("the request (system prompt, tool schemas, framing), below the trigger ({:.0} % of the window)", ratio * 100.0);
        let s = BudgetStatus::new(BudgetKind::Summarization, None, "summarization".into(), measured, fixed, at, judge.reached(fixed, at));
        push(s, agent.settings.summarization_trigger_origin.clone());
    }
    out
}

/// Each budget's worst use across the measured modes and scenarios, reported when it is near or
/// over: the manifest's budgets in manifest order, then the window's limits.
pub fn check(agent: &Agent, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut worst: Vec<(BudgetStatus, &Measured)> = Vec::new();
    for m in measured {
        for s in evaluate(agent, m) {
            match worst.iter_mut().find(|(w, _)| w.kind == s.kind && w.id == s.id) {
                Some(w) if s.tokens.tokens > w.0.tokens.tokens => *w = (s, m),
                Some(_) => {}
                None => worst.push((s, m)),
            }
        }
    }
    worst.sort_by_key(|(s, _)| (s.kind.is_window(), s.origin.as_ref().and_then(|o| o.span.as_ref()).map_or(usize::MAX, |span| span.start)));
    worst.iter().filter_map(|(s, m)| diagnostic(agent, s, m)).collect()
}

/// `ctxc check --require-exact` or `[budgets] require_exact`: one finding for an agent whose model
/// has a counting endpoint (Claude, Gemini) when some mode × scenario is not counted from
/// `ctxc.counts`, naming them, at the manifest's `require_exact` (else at its `model`).
pub fn not_recorded(agent: &Agent, measured: &[Measured]) -> Option<Diagnostic> {
    use crate::measure::Recording;
    let provider = crate::counts::Provider::of(&agent.profile)?;
    let mut missing = 0;
    let mut requests = 0;
    let mut implausible = 0;
    let mut renders = Vec::new();
    for m in measured {
        match &m.recorded {
            Some(Recording::Exact { .. }) => continue,
            Some(Recording::Missing { missing: n, requests: of, .. }) => {
                missing += n;
                requests += of;
            }
            Some(Recording::Implausible { .. }) => implausible += 1,
            None => {}
        }
        renders.push(format!("{} mode, scenario `{}`", m.mode, m.scenario));
    }
    if renders.is_empty() {
        return None;
    }
    let file = crate::counts::FILE_NAME;
    let what = match (requests, implausible) {
        (0, 0) => format!("there is no {file} beside the manifest"),
        (0, n) => format!("{n} render(s) are recorded in {file} with counts no tokenizer gives (BUDGET007)"),
        (_, 0) => format!("{missing} of {requests} requests are not recorded in {file}"),
        (_, n) => format!(
            "{missing} of {requests} requests are not recorded in {file}, and {n} render(s) with counts no tokenizer gives (BUDGET007)"
        ),
    };
    let shown: Vec<&str> = renders.iter().take(5).map(String::as_str).collect();
    let more = if renders.len() > shown.len() { format!(" and {} more", renders.len() - shown.len()) } else { String::new() };
    Some(
        Diagnostic::error(format!(
            "`{}` is counted by an estimate, not by {}: {what} ({}{more})",
            agent.profile.model,
            provider.endpoint(),
            shown.join("; ")
        ))
        .code(Code::BUDGET005)
        .in_file(&agent.manifest_display)
        .at(agent.budgets.require_exact.as_ref().or(agent.model_origin.as_ref()).and_then(|o| o.span.clone()))
        .help("record the counts with `ctxc counts sync` (it needs the provider's API key) and commit ctxc.counts"),
    )
}

/// One finding for an agent with renders whose recorded counts no tokenizer gives for their text
/// ([`crate::counts::plausible`]), naming each render's first such figure with both numbers, at
/// the manifest's `model`. Those renders are costed by the estimate, whatever `ctxc.counts` says.
pub fn implausible_counts(agent: &Agent, measured: &[Measured]) -> Option<Diagnostic> {
    use crate::measure::Recording;
    let mut renders = Vec::new();
    let mut endpoint = "";
    for m in measured {
        if let Some(Recording::Implausible { endpoint: e, figures, .. }) = &m.recorded {
            endpoint = e;
            let f = &figures[0];
            let more = match figures.len() {
                1 => String::new(),
                n => format!(" and {} other figure{}", n - 1, if n == 2 { "" } else { "s" }),
            };
            renders.push(format!(
                "{} mode, scenario `{}`: {} recorded as {}, estimated at ~{}{more}",
                m.mode,
                m.scenario,
                f.part,
                grouped(f.recorded),
                grouped(f.estimate)
            ));
        }
    }
    let shown: Vec<&str> = renders.iter().take(5).map(String::as_str).collect();
    let more = if renders.len() > shown.len() { format!("; and {} more", renders.len() - shown.len()) } else { String::new() };
    let first = shown.first()?;
    let rest = if shown.len() > 1 { format!("; {}", shown[1..].join("; ")) } else { String::new() };
    Some(
        Diagnostic::error(format!(
            "{} holds counts for `{}` that no tokenizer gives for the text: {first}{rest}{more}",
            crate::counts::FILE_NAME,
            agent.profile.model
        ))
        .code(Code::BUDGET007)
        .in_file(&agent.manifest_display)
        .at(agent.model_origin.as_ref().and_then(|o| o.span.clone()))
        .help(format!(
            "a recorded count must lie between half and {} times ctxc's calibrated estimate (± {} tokens); these renders are costed by the estimate. Record the counts again with `ctxc counts sync` against {endpoint}, and review ctxc.counts changes like code",
            crate::counts::PLAUSIBLE_ABOVE,
            crate::counts::PLAUSIBLE_SLACK
        )),
    )
}

/// The finding for a budget's worst use, if it is near or over.
fn diagnostic(agent: &Agent, s: &BudgetStatus, m: &Measured) -> Option<Diagnostic> {
    let where_ = format!("{} mode, scenario `{}`", m.mode, m.scenario);
    let w = &m.window;
    let d = match (s.kind, s.status) {
        (_, Status::Ok) => return None,
        (_, Status::AtRisk) => {
            let band = s.band.unwrap_or(Band { percent: 0, low: s.tokens.tokens, high: s.tokens.tokens });
            let what = match s.kind {
                BudgetKind::Step => format!("step `{}`", s.id.as_deref().unwrap_or_default()),
                BudgetKind::Mode => format!("{} mode's fixed context", m.mode),
                _ => s.measured.clone(),
            };
            let limit = grouped(s.limit);
            Diagnostic::warning(format!(
                "{what}: ~{} tokens (±{} %: up to {}), at risk of its limit of {limit} ({where_})",
                grouped(s.tokens.tokens),
                band.percent,
                grouped(band.high)
            ))
            .code(Code::BUDGET002)
            .label(format!("limit: {limit} tokens"))
            .help("the model's tokenizer is not public, and the estimate's band (docs/counting.md) reaches past the limit")
        }
        (BudgetKind::Summarization, _) => Diagnostic::error(format!(
            "the fixed context ({} tokens: system prompt, tool schemas and message framing, {where_}) reaches the summarization trigger ({} tokens = {:.0} % of {}): compaction would fire on the first turn",
            grouped(s.tokens.tokens),
            grouped(s.limit),
            w.summarization_ratio.unwrap_or_default() * 100.0,
            grouped(w.max_input_tokens)
        ))
        .code(Code::BUDGET003),
        (BudgetKind::ResponseReserve, _) => Diagnostic::error(format!(
            "the fixed context ({} tokens, {where_}) leaves no room for the response reserve ({} tokens, {}) in a {}-token window",
            grouped(s.tokens.tokens),
            grouped(w.response_reserve),
            w.response_reserve_source,
            grouped(w.max_input_tokens)
        ))
        .code(Code::BUDGET004),
        (kind, status) => {
            let what = match kind {
                BudgetKind::Step => {
                    let sources = m.sections.iter().find(|sec| Some(&sec.id) == s.id.as_ref()).map_or(&[][..], |sec| &sec.sources[..]);
                    let sources = if sources.is_empty() { String::new() } else { format!(" (from {})", sources.join(", ")) };
                    format!("step `{}`{sources}", s.id.as_deref().unwrap_or_default())
                }
                BudgetKind::Mode => format!("{} mode's fixed context (system prompt, tool schemas, message framing)", m.mode),
                _ => s.measured.clone(),
            };
            let note = if s.worst_case { " at its worst case (top K and max characters)" } else { "" };
            let approx = if s.tokens.exact { "" } else { "~" };
            let (verb, code, severity) = match status {
                Status::Over => ("over", Code::BUDGET001, Severity::Error),
                _ => ("near", Code::BUDGET002, Severity::Warning),
            };
            let limit = grouped(s.limit);
            let message = format!("{what}: {approx}{} tokens{note}, {verb} its budget of {limit} ({where_})", grouped(s.tokens.tokens));
            let mut d = Diagnostic::error(message).code(code).label(format!("budget: {limit} tokens"));
            d.severity = severity;
            if severity == Severity::Warning {
                d = d.help(format!("warnings start at {:.0} % of a budget (budgets.warn_ratio)", agent.budgets.warn_ratio * 100.0));
            }
            d
        }
    };
    Some(match &s.origin {
        Some(origin) => d.in_file(&origin.file).at(origin.span.clone()),
        None => d.in_file(&agent.manifest_display),
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::session::{Only, Session};

    /// The over-budget fixture (one mode, one scenario), with overrides.
    fn fixture(overrides: &[&str]) -> (Agent, Measured) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/budgets/over-budget/ctxc.toml");
        let session = Session::new(overrides.iter().map(|o| o.to_string()).collect());
        let mut runs = session.run(&path, Only::default()).expect("the fixture loads");
        assert_eq!(runs.runs.len(), 1);
        (runs.loaded.agent, runs.runs.remove(0).measured)
    }

    fn status_of(overrides: &[&str], kind: BudgetKind) -> Status {
        let (agent, m) = fixture(overrides);
        evaluate(&agent, &m).into_iter().find(|b| b.kind == kind).expect("the budget is evaluated").status
    }

    #[test]
    fn an_estimate_whose_band_crosses_the_limit_is_at_risk() {
        let claude = "agent.model=\"claude-sonnet-4-5\"";
        let (_, m) = fixture(&[claude, "budgets.system_prompt=100000"]);
        let prompt = m.system_prompt.tokens;
        assert!(!m.system_prompt.exact);
        // Within the estimate, inside the band (±10 %): at risk, a warning naming the band.
        let limit = prompt + prompt / 20;
        let (agent, m) = fixture(&[claude, &format!("budgets.system_prompt={limit}"), "budgets.warn_ratio=0.99"]);
        let s = evaluate(&agent, &m).into_iter().find(|b| b.kind == BudgetKind::SystemPrompt).expect("evaluated");
        assert_eq!(s.status, Status::AtRisk);
        let band = s.band.expect("a calibrated estimate has a band");
        assert_eq!((band.percent, band.low < prompt, band.high > limit), (10, true, true));
        let found = check(&agent, std::slice::from_ref(&m));
        let d = found.iter().find(|d| d.message.starts_with("the system prompt: ~")).expect("a finding");
        assert_eq!((d.code, d.severity), (Some(Code::BUDGET002), Severity::Warning));
        assert!(d.message.contains("±10 %") && d.message.contains("at risk"), "{}", d.message);
        // Beyond the band: ok; an exact count has no band.
        let far = prompt + prompt / 5;
        assert_eq!(
            status_of(&[claude, &format!("budgets.system_prompt={far}"), "budgets.warn_ratio=0.99"], BudgetKind::SystemPrompt),
            Status::Ok
        );
        let (agent, exact) = fixture(&["budgets.system_prompt=100000"]);
        assert!(evaluate(&agent, &exact).iter().all(|b| b.band.is_none()));
    }

    #[test]
    fn every_budget_is_evaluated_with_its_tokens_limit_and_status() {
        let (agent, m) = fixture(&[]);
        let statuses = evaluate(&agent, &m);
        let got: Vec<_> = statuses.iter().map(|b| (b.kind, b.id.as_deref(), b.tokens.tokens, b.limit, b.status, b.worst_case)).collect();
        use BudgetKind::*;
        assert_eq!(
            got,
            [
                (SystemPrompt, None, 100, 90, Status::Over, false),
                (ToolSchemas, None, 91, 50, Status::Over, false),
                (Mode, Some("agent"), 191, 200, Status::Near, false),
                (Step, Some("core"), 67, 40, Status::Over, false),
                (Step, Some("style"), 19, 30, Status::Ok, false),
                (Step, Some("memories"), 2047, 300, Status::Over, true),
                (ResponseReserve, None, 191, 8192 - 2048, Status::Ok, false),
                (Summarization, None, 191, 163, Status::Over, false),
            ]
        );
    }

    #[test]
    fn check_reports_exactly_the_budgets_near_or_over() {
        let (agent, m) = fixture(&[]);
        let expected: Vec<Code> = evaluate(&agent, &m)
            .iter()
            .filter_map(|b| match (b.kind, b.status) {
                (_, Status::Ok) => None,
                (_, Status::AtRisk) => Some(Code::BUDGET002),
                (BudgetKind::Summarization, _) => Some(Code::BUDGET003),
                (BudgetKind::ResponseReserve, _) => Some(Code::BUDGET004),
                (_, Status::Near) => Some(Code::BUDGET002),
                (_, Status::Over) => Some(Code::BUDGET001),
            })
            .collect();
        let mut found: Vec<Code> = check(&agent, std::slice::from_ref(&m)).iter().map(|d| d.code.expect("a code")).collect();
        let mut expected_sorted = expected.clone();
        found.sort();
        expected_sorted.sort();
        assert_eq!(found, expected_sorted);
        assert_eq!(expected.len(), 6, "every budget near or over, and no other");
    }

    #[test]
    fn a_budget_is_over_above_its_limit_and_a_window_limit_once_reached() {
        // The system prompt takes 100 tokens; warnings start at 90 %.
        assert_eq!(status_of(&["budgets.system_prompt=99"], BudgetKind::SystemPrompt), Status::Over);
        assert_eq!(status_of(&["budgets.system_prompt=100"], BudgetKind::SystemPrompt), Status::Near);
        assert_eq!(status_of(&["budgets.system_prompt=112"], BudgetKind::SystemPrompt), Status::Ok);
        assert_eq!(status_of(&["budgets.system_prompt=112", "budgets.warn_ratio=0.8"], BudgetKind::SystemPrompt), Status::Near);
        // The fixed context (the request: prompt, tools and framing) takes 191 tokens of an 8,192-token window.
        assert_eq!(status_of(&["budgets.response_reserve=8001"], BudgetKind::ResponseReserve), Status::Over);
        assert_eq!(status_of(&["budgets.response_reserve=8000"], BudgetKind::ResponseReserve), Status::Ok);
    }

    #[test]
    fn the_worst_use_across_modes_is_reported_once() {
        let (agent, m) = fixture(&["budgets.system_prompt=95"]);
        let mut smaller = m.clone();
        smaller.scenario = "smaller".into();
        smaller.system_prompt.tokens = 96;
        let found = check(&agent, &[smaller, m]);
        let prompt: Vec<&str> = found.iter().map(|d| d.message.as_str()).filter(|msg| msg.starts_with("the system prompt")).collect();
        assert_eq!(prompt, ["the system prompt: 100 tokens, over its budget of 95 (agent mode, scenario `default`)"]);
    }
}

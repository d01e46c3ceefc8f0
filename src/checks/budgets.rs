//! Stage 6 (budgets): compare measured token counts with the manifest's budgets. Each overrun is
//! reported once per budget, at its worst across modes and scenarios, pointing at the budget line.

use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::model::{Agent, Budget, Origin};
use crate::measure::Measured;

/// One budget's worst use across the measured modes and scenarios.
struct Use<'a> {
    what: String,
    budget: &'a Budget,
    tokens: i64,
    exact: bool,
    where_: String,
    note: Option<String>,
}

pub fn check(agent: &Agent, measured: &[Measured]) -> Vec<Diagnostic> {
    let warn_ratio = agent.budgets.warn_ratio;
    let mut uses: Vec<Use> = Vec::new();
    for m in measured {
        let where_ = format!("{} mode, scenario `{}`", m.mode, m.scenario);
        for section in &m.sections {
            let Some(budget) = agent.steps.iter().find(|s| s.number == section.step).and_then(|s| s.budget.as_ref()) else { continue };
            let (tokens, note) = match section.worst_case {
                Some(w) => (w.tokens, Some("at its worst case (top K and max characters)".to_string())),
                None => (section.tokens.tokens, None),
            };
            let sources = if section.sources.is_empty() { String::new() } else { format!(" (from {})", section.sources.join(", ")) };
            uses.push(Use {
                what: format!("step `{}`{sources}", section.id),
                budget,
                tokens,
                exact: section.tokens.exact,
                where_: where_.clone(),
                note,
            });
        }
        let fixed = [
            (agent.budgets.system_prompt.as_ref(), "the system prompt", m.system_prompt.tokens),
            (agent.budgets.tool_schemas.as_ref(), "the tool schemas", m.tool_schemas.total.tokens),
        ];
        for (budget, what, tokens) in fixed {
            if let Some(budget) = budget {
                uses.push(Use { what: what.to_string(), budget, tokens, exact: m.exact, where_: where_.clone(), note: None });
            }
        }
        if let Some(budget) = agent.modes.get(&m.mode).and_then(|mode| mode.budget.as_ref()) {
            let what = format!("{} mode's fixed context (system prompt + tool schemas)", m.mode);
            uses.push(Use { what, budget, tokens: m.window.fixed, exact: m.exact, where_: where_.clone(), note: None });
        }
    }
    let mut diagnostics = Vec::new();
    // Worst use per budget, in manifest order.
    uses.sort_by(|a, b| {
        let key = |u: &Use| u.budget.origin.span.as_ref().map_or(usize::MAX, |s| s.start);
        key(a).cmp(&key(b)).then(b.tokens.cmp(&a.tokens))
    });
    uses.dedup_by(|later, first| later.budget.origin == first.budget.origin && later.what == first.what);
    for u in uses {
        let limit = u.budget.tokens as i64;
        let approx = if u.exact { "" } else { "~" };
        let severity = if u.tokens > limit {
            Severity::Error
        } else if u.tokens as f64 >= limit as f64 * warn_ratio {
            Severity::Warning
        } else {
            continue;
        };
        let verb = if severity == Severity::Error { "over" } else { "near" };
        let note = u.note.map(|n| format!(" {n}")).unwrap_or_default();
        let message = format!("{}: {approx}{} tokens{note}, {verb} its budget of {limit} ({})", u.what, u.tokens, u.where_);
        let code = if severity == Severity::Error { Code::BUDGET001 } else { Code::BUDGET002 };
        let mut d = located(Diagnostic::error(message).code(code), &u.budget.origin).label(format!("budget: {limit} tokens"));
        d.severity = severity;
        if severity == Severity::Warning {
            d = d.help(format!("warnings start at {:.0} % of a budget (budgets.warn_ratio)", warn_ratio * 100.0));
        }
        diagnostics.push(d);
    }
    diagnostics.extend(window_checks(agent, measured));
    diagnostics
}

fn located(d: Diagnostic, origin: &Origin) -> Diagnostic {
    d.in_file(&origin.file).at(origin.span.clone())
}

/// The fixed context must leave room for the response and must not trigger summarization by itself.
fn window_checks(agent: &Agent, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let Some(worst) = measured.iter().max_by_key(|m| m.window.fixed) else { return diagnostics };
    let w = &worst.window;
    let where_ = format!("{} mode, scenario `{}`", worst.mode, worst.scenario);
    if let (Some(at), Some(ratio)) = (w.summarization_at, w.summarization_ratio) {
        if w.fixed >= at as i64 {
            let d = Diagnostic::error(format!(
                "the fixed context ({} tokens: system prompt + tool schemas, {where_}) reaches the summarization trigger ({at} tokens = {:.0} % of {}): compaction would fire on the first turn",
                w.fixed, ratio * 100.0, w.max_input_tokens
            ))
            .code(Code::BUDGET003);
            diagnostics.push(match &agent.settings.summarization_trigger_origin {
                Some(origin) => located(d, origin),
                None => d.in_file(&agent.manifest_display),
            });
        }
    }
    if w.fixed + w.response_reserve as i64 >= w.max_input_tokens as i64 {
        let d = Diagnostic::error(format!(
            "the fixed context ({} tokens, {where_}) leaves no room for the response reserve ({} tokens, {}) in a {}-token window",
            w.fixed, w.response_reserve, w.response_reserve_source, w.max_input_tokens
        ))
        .code(Code::BUDGET004);
        diagnostics.push(match &agent.budgets.response_reserve_origin {
            Some(origin) => located(d, origin),
            None => d.in_file(&agent.manifest_display),
        });
    }
    diagnostics
}

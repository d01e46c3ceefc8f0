//! Zeph's settings checked against the measured window (SET003, SET005–SET012).

use super::{finding, fixed_reaches_trigger, largest_fixed};
use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::systems::zeph::*;
use crate::systems::{pct, share_of, Setting};

pub fn check(agent: &Agent, s: &Settings, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let max_input = agent.profile.max_input_tokens;
    if s.context_budget_tokens.value > max_input {
        out.push(finding(
            Code::SET011,
            &s.context_budget_tokens,
            format!("Zeph's context_budget_tokens ({}) is larger than the model's window ({max_input} tokens): the layout would plan room the model does not have", s.context_budget_tokens.value),
        ));
    }
    let reserve = s.response_reserve_ratio.value;
    if !(0.0..1.0).contains(&reserve) {
        out.push(finding(
            Code::SET012,
            &s.response_reserve_ratio,
            format!("Zeph's response reserve ratio {reserve} must be at least 0 and below 1 (a share of the budget)"),
        ));
    }
    for (label, shares) in [("without a code index", &s.shares), ("with a code index", &s.shares_with_code_index)] {
        let sum: f64 = shares.iter().map(|sh| sh.ratio.value).sum();
        let negative = shares.iter().any(|sh| sh.ratio.value < 0.0);
        if negative || (sum - 1.0).abs() > 1e-6 {
            // Point at a share the user wrote, if any: that is the one to fix.
            let Some(at) = shares.iter().find(|sh| sh.ratio.note.is_none()).or(shares.first()) else { continue };
            let parts: Vec<String> = shares.iter().map(|sh| format!("{} {}", sh.name, pct(sh.ratio.value))).collect();
            out.push(finding(
                Code::SET005,
                &at.ratio,
                format!("Zeph's shares {label} add up to {} ({}), not 100 %; each share must be at least 0", pct(sum), parts.join(" + ")),
            ));
        }
    }
    let threshold = s.compaction_threshold.value;
    if !(threshold > 0.0 && threshold < 1.0) {
        out.push(finding(
            Code::SET007,
            &s.compaction_threshold,
            format!("Zeph's compaction_threshold {threshold} must be above 0 and below 1 (a share of the budget)"),
        ));
    } else if threshold > 1.0 - reserve {
        out.push(finding(
            Code::SET007,
            &s.compaction_threshold,
            format!("Zeph's compaction_threshold {threshold} lets messages grow into the response reserve ({} of the budget) before compaction fires", pct(reserve)),
        ));
    }
    let tail = s.compaction_preserve_tail.value;
    if tail == 0 {
        out.push(finding(
            Code::SET008,
            &s.compaction_preserve_tail,
            "Zeph's compaction_preserve_tail is 0: compaction would keep no recent message".to_string(),
        ));
    } else if let Some(max) = s.history_max_messages.filter(|&max| tail >= max as u64) {
        out.push(finding(
            Code::SET008,
            &s.compaction_preserve_tail,
            format!("Zeph's compaction_preserve_tail keeps the last {tail} messages, but the history holds at most {max} (history.max_messages): compaction could never shorten it"),
        ));
    }
    let max_chars = s.tool_output_max_chars.value;
    if max_chars == 0 {
        out.push(finding(
            Code::SET010,
            &s.tool_output_max_chars,
            "Zeph's tool_output_max_chars is 0: every tool output would be cut to nothing".to_string(),
        ));
    }
    let windows: Vec<(&Measured, &Window)> = measured.iter().filter_map(|m| m.window.zeph.as_ref().map(|z| (m, z))).collect();
    let where_ = |m: &Measured| format!("{} mode, scenario `{}`", m.mode, m.scenario);
    if let Some((m, z)) = windows.iter().min_by_key(|(_, z)| z.history_after_fixed) {
        let history_setting = history_share_setting(s, z.code_index);
        let severity = if z.fixed > z.recent_history as i64 {
            Some(Severity::Error)
        } else if z.fixed as f64 >= z.recent_history as f64 * agent.budgets.warn_ratio {
            Some(Severity::Warning)
        } else {
            None
        };
        if let (Some(severity), Some(setting)) = (severity, history_setting) {
            let verb = if severity == Severity::Error { "outgrows" } else { "nearly fills" };
            let mut d = finding(
                Code::SET006,
                setting,
                format!(
                    "the fixed context ({} tokens: system prompt + tool schemas, {}) {verb} Zeph's recent-history share ({} tokens = {} of {} available), which carries it",
                    z.fixed, where_(m), z.recent_history, pct(setting.value), z.available
                ),
            );
            d.severity = severity;
            out.push(d);
        }
        let estimate = max_chars.div_ceil(CHARS_PER_TOKEN);
        if max_chars > 0 && estimate as i64 > z.history_after_fixed {
            out.push(finding(
                Code::SET010,
                &s.tool_output_max_chars,
                format!(
                    "one tool output cut at {max_chars} characters (~{estimate} tokens at {CHARS_PER_TOKEN} characters per token) does not fit in what the recent-history share leaves after the fixed context ({} tokens, {})",
                    z.history_after_fixed, where_(m)
                ),
            ));
        }
    }
    if let Some(worst) = largest_fixed(measured) {
        let compaction_at = share_of(threshold, budget(s, max_input));
        let messages_at_compaction = compaction_at as i64 - worst.window.fixed;
        let protect = s.prune_protect_tokens.value;
        if protect as i64 >= messages_at_compaction {
            out.push(finding(
                Code::SET009,
                &s.prune_protect_tokens,
                format!(
                    "Zeph protects the last {protect} tokens from tool-output pruning, but compaction fires when messages reach {messages_at_compaction} tokens ({compaction_at} at compaction_threshold {threshold} − fixed context {}, {}): pruning could never free anything first",
                    worst.window.fixed, where_(worst)
                ),
            ));
        }
        out.extend(fixed_reaches_trigger("Zeph", "compaction threshold", &s.compaction_threshold, compaction_at, worst));
    }
    out
}

fn history_share_setting(s: &Settings, code_index: bool) -> Option<&Setting<f64>> {
    let shares = if code_index { &s.shares_with_code_index } else { &s.shares };
    shares.iter().find(|sh| sh.name == HISTORY_SHARE).map(|sh| &sh.ratio)
}

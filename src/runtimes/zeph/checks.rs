//! Zeph's settings checked against the measured window (SET003, SET005–SET012).

use super::window::*;
use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::systems::pct;

pub fn check(agent: &Agent, s: &Settings, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut out = values(s, agent.profile.max_input_tokens);
    out.extend(window(agent, s, measured));
    out.extend(compaction(s, agent.profile.max_input_tokens, measured));
    out
}

/// Each setting against the range Zeph accepts and against the others (SET005, SET007, SET008,
/// SET010–SET012).
fn values(s: &Settings, max_input: u64) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if s.context_budget_tokens.value > max_input {
        out.push(s.context_budget_tokens.finding(Code::SET011, format!("Zeph's context_budget_tokens ({}) is larger than the model's window ({max_input} tokens): the layout would plan room the model does not have", s.context_budget_tokens.value)));
    }
    let reserve = s.response_reserve_ratio.value;
    if !(0.0..1.0).contains(&reserve) {
        out.push(s.response_reserve_ratio.finding(
            Code::SET012,
            format!("Zeph's response reserve ratio {reserve} must be at least 0 and below 1 (a share of the budget)"),
        ));
    }
    for (key, shares) in s.shares.all() {
        let sum: f64 = shares.iter().map(|sh| sh.ratio.value).sum();
        let negative = shares.iter().any(|sh| sh.ratio.value < 0.0);
        if negative || (sum - 1.0).abs() > 1e-6 {
            // Point at a share the user wrote, if any: that is the one to fix.
            let Some(at) = shares.iter().find(|sh| sh.ratio.note.is_none()).or(shares.first()) else { continue };
            let parts: Vec<String> = shares.iter().map(|sh| format!("{} {}", sh.name, pct(sh.ratio.value))).collect();
            out.push(at.ratio.finding(
                Code::SET005,
                format!("Zeph's `[zeph.{key}]` add up to {} ({}), not 100 %; each share must be at least 0", pct(sum), parts.join(" + ")),
            ));
        }
    }
    let (soft, hard) = (s.soft_compaction_threshold.value, s.compaction_threshold.value);
    for setting in [&s.soft_compaction_threshold, &s.compaction_threshold] {
        let t = setting.value;
        if !(t > 0.0 && t < 1.0) {
            out.push(setting.finding(
                Code::SET007,
                format!("Zeph's {} {t} must be above 0 and below 1 (a share of the budget)", setting.key.trim_start_matches("zeph.")),
            ));
        }
    }
    if soft > hard && soft < 1.0 && hard > 0.0 {
        out.push(s.soft_compaction_threshold.finding(Code::SET007, format!("Zeph's soft_compaction_threshold {soft} is above compaction_threshold {hard} (the hard one): hard compaction (an LLM summary) would always fire before the cheap soft pruning")));
    }
    let tail = s.compaction_preserve_tail.value;
    if tail == 0 {
        out.push(
            s.compaction_preserve_tail
                .finding(Code::SET008, "Zeph's compaction_preserve_tail is 0: compaction would keep no recent message".to_string()),
        );
    } else if let Some(max) = s.history_max_messages.filter(|&max| tail >= max as u64) {
        out.push(s.compaction_preserve_tail.finding(Code::SET008, format!("Zeph's compaction_preserve_tail keeps the last {tail} messages, but the history holds at most {max} (history.max_messages): compaction could never shorten it")));
    }
    let max_chars = s.tool_output_max_chars.value;
    if max_chars == 0 {
        out.push(
            s.tool_output_max_chars
                .finding(Code::SET010, "Zeph's tool_output_max_chars is 0: every tool output would be cut to nothing".to_string()),
        );
    }
    out
}

/// The fixed context against the shares Zeph divides, and one tool output against the history share (SET006, SET010).
fn window(agent: &Agent, s: &Settings, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let max_chars = s.tool_output_max_chars.value;
    let windows: Vec<(&Measured, &Window)> = measured.iter().filter_map(|m| m.window.zeph.as_ref().map(|z| (m, z))).collect();
    if let Some((m, z)) = windows.iter().max_by_key(|(_, z)| z.system_prompt_tokens + z.skills_tokens) {
        let fixed = z.system_prompt_tokens + z.skills_tokens;
        let divisible = z.budget.saturating_sub(z.response_reserve);
        let severity = if fixed >= divisible {
            Some(Severity::Error)
        } else if fixed as f64 >= divisible as f64 * agent.budgets.warn_ratio {
            Some(Severity::Warning)
        } else {
            None
        };
        if let Some(severity) = severity {
            let verb = if severity == Severity::Error { "leave nothing" } else { "leave little" };
            let mut d = s.context_budget_tokens.finding(Code::SET006, format!(
                    "the system prompt ({} tokens) and the skills prompt ({} tokens, counted again: Zeph subtracts both) {verb} of the {divisible} tokens Zeph's shares divide ({}); the shares get {} tokens",
                    z.system_prompt_tokens, z.skills_tokens, m.place(), z.available
                ));
            d.severity = severity;
            out.push(d);
        }
    }
    if let Some((m, z)) = windows.iter().filter(|(_, z)| !z.memory_first).min_by_key(|(_, z)| z.recent_history) {
        let estimate = max_chars.div_ceil(CHARS_PER_TOKEN);
        if max_chars > 0 && estimate > z.recent_history {
            out.push(s.tool_output_max_chars.finding(Code::SET010, format!(
                    "one tool output cut at {max_chars} characters (~{estimate} tokens at {CHARS_PER_TOKEN} characters per token) does not fit in Zeph's recent-history share ({} tokens, {})",
                    z.recent_history, m.place()
                )));
        }
    }
    out
}

/// Where soft and hard compaction fire against the largest fixed context (SET009, the hard trigger).
fn compaction(s: &Settings, max_input: u64, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let (soft, hard) = (s.soft_compaction_threshold.value, s.compaction_threshold.value);
    if let Some(worst) = Measured::largest_fixed(measured) {
        let budget = budget(s, max_input).0;
        // Tool-output pruning is the soft tier; the LLM summary is the hard one.
        let soft_at = f32_share(soft, budget);
        let messages_at_soft = soft_at as i64 - worst.window.fixed;
        let protect = s.prune_protect_tokens.value;
        if protect as i64 >= messages_at_soft {
            out.push(s.prune_protect_tokens.finding(Code::SET009, format!(
                    "Zeph protects the last {protect} tokens from tool-output pruning, but soft compaction (pruning) fires when messages reach {messages_at_soft} tokens ({soft_at} at soft_compaction_threshold {soft} − fixed context {}, {}): pruning could never free anything first",
                    worst.window.fixed, worst.place()
                )));
        }
        out.extend(s.compaction_threshold.fixed_reaches(
            "Zeph",
            "hard compaction threshold",
            f32_share(hard, budget),
            worst.window.fixed,
            &worst.place(),
        ));
    }
    out
}

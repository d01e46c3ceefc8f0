//! The manifest's plain sections validated (`[budgets]` and the steps' and modes' budgets, the
//! memory and history settings, the settings only a chat template renders): nothing to read,
//! each value kept with where it is written.

use super::model::*;
use super::raw::*;
use super::scenario::Retrieval;
use super::span::Spanned;
use crate::provenance::Provenance;

pub(super) fn budget(prov: &Provenance, budget: &Option<Spanned<u64>>) -> Option<Budget> {
    budget.as_ref().map(|b| Budget { tokens: b.value, origin: prov.origin(b, &b.value.to_string()) })
}

pub(super) fn budgets(prov: &mut Provenance, raw: Option<&RawBudgets>) -> Budgets {
    let raw = raw.cloned().unwrap_or_default();
    let warn_ratio = raw.warn_ratio.unwrap_or(0.9);
    if let Some(r) = &raw.response_reserve {
        if let Reserve::Ratio(ratio) = r.value {
            if !(0.0..1.0).contains(&ratio) {
                let span = prov.span(r, &ratio.to_string());
                prov.error(format!("response_reserve {ratio} must be a share of the window below 1, or a token count"), span);
            }
        }
    }
    Budgets {
        system_prompt: budget(prov, &raw.system_prompt),
        tool_schemas: budget(prov, &raw.tool_schemas),
        response_reserve: raw.response_reserve.as_ref().map(|r| r.value),
        response_reserve_origin: raw.response_reserve.as_ref().map(|r| prov.origin(r, "response_reserve")),
        warn_ratio,
        require_exact: raw.require_exact.as_ref().filter(|r| r.value).map(|r| prov.origin(r, "require_exact")),
    }
}

pub(super) fn settings(prov: &Provenance, raw: &RawManifest) -> Settings {
    let mut retrieval = Retrieval::default();
    if let Some(r) = raw.memory.as_ref().and_then(|m| m.retrieval.as_ref()) {
        retrieval.top_k = r.top_k.unwrap_or(retrieval.top_k);
        retrieval.max_chars = r.max_chars.unwrap_or(retrieval.max_chars);
        if let Some(scopes) = &r.scopes {
            retrieval.scopes = scopes.clone();
        }
        if let Some(w) = &r.weights {
            (retrieval.weight_similarity, retrieval.weight_confidence, retrieval.weight_scope) = (w.similarity, w.confidence, w.scope);
        }
    }
    Settings {
        retrieval,
        history_messages: raw.history.as_ref().and_then(|h| h.max_messages),
        summarization_trigger: raw.summarization.as_ref().and_then(|s| s.trigger_ratio.as_ref().map(|t| t.value)),
        summarization_trigger_origin: raw
            .summarization
            .as_ref()
            .and_then(|s| s.trigger_ratio.as_ref().map(|t| prov.origin(t, "trigger_ratio"))),
        summarization_keep: raw.summarization.as_ref().and_then(|s| s.keep_messages),
    }
}

/// Where the settings only a chat template renders are set `true`: `[agent] empty_tool_list`
/// (no place when an override sets it) and each step's `new_message` (else the step's id).
pub(super) fn template_settings(prov: &Provenance, agent: &RawAgent, steps: &[RawStep]) -> Vec<(&'static str, Origin)> {
    let origin = |span| Origin { file: prov.file.clone(), span };
    let mut settings = Vec::new();
    if let Some(set) = agent.empty_tool_list.as_ref().filter(|v| v.value) {
        let span = match prov.overridden("agent.empty_tool_list") {
            true => None,
            false => set.span.clone().or_else(|| prov.locate_path(&["agent", "empty_tool_list"])),
        };
        settings.push(("empty_tool_list", origin(span)));
    }
    for step in steps {
        if let Some(set) = step.new_message.as_ref().filter(|v| v.value) {
            settings.push(("new_message", origin(set.span.clone().or_else(|| prov.span(&step.id, &step.id.value)))));
        }
    }
    settings
}

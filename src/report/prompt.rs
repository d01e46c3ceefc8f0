//! One rendered mode as `ctxc render` shows it beyond the prompt itself: the JSON of every
//! section, step and tool, and the table of steps with what decided each.

use super::escape::Untrusted;
use crate::render::Rendered;

/// The documented, stable JSON shape (docs/json-output.md); the prompt exactly, as `render`
/// prints it, secrets included.
pub fn to_json(rendered: &Rendered) -> String {
    let value = serde_json::json!({
        "agent": rendered.agent,
        "mode": rendered.mode,
        "scenario": rendered.scenario,
        "model": rendered.model,
        "modelled": rendered.modelled,
        "sections": rendered.sections,
        "steps": rendered.steps,
        "tools": rendered.tools,
        "prompt": rendered.prompt(),
    });
    super::escape::exact_json_text(&value)
}

/// Each step on or off, and the condition or scenario fact that decided it.
pub fn steps_table(rendered: &Rendered) -> String {
    let width = rendered.steps.iter().map(|s| s.id.len()).max().unwrap_or(2).max(2);
    let mut out =
        format!("agent {} · mode {} · scenario {}", Untrusted(&rendered.agent), Untrusted(&rendered.mode), Untrusted(&rendered.scenario));
    if let Some(modelled) = &rendered.modelled {
        out.push_str(&format!(" · models {modelled}"));
    }
    out.push_str("\n\n");
    out.push_str(&format!("{:>3}  {:<width$}  {:<3}  decided by\n", "#", "id", "on"));
    for step in &rendered.steps {
        let on = if step.enabled { "on" } else { "off" };
        out.push_str(&format!("{:>3}  {:<width$}  {:<3}  {}\n", step.step, Untrusted(&step.id), on, Untrusted(&step.reason)));
    }
    out
}

//! Prompt changes under review. An agent's renders are *pinned* ([`AgentPin`]): for every mode
//! and scenario, the sha256 and token count of the whole prompt, of its tool schemas and of each
//! section. `ctxc snapshot` writes the pins to `ctxc.lock` ([`lock`]) and the prompt texts to
//! snapshot files ([`snapshot`]), atomically ([`atomic`]); `ctxc check --locked` and `ctxc diff`
//! compare two sets of pins ([`compare`]), the latter reading the project as it was at a git
//! revision ([`git`]).

pub mod atomic;
pub mod compare;
pub mod diff;
pub mod fixes;
pub mod git;
pub mod host_changes;
pub mod lock;
pub mod snapshot;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use std::path::Path;

use crate::diagnostic::Failure;
use crate::manifest::Loaded;
use crate::measure::Measured;
use crate::render::Rendered;
use crate::session::{AgentRuns, Only, Session};

/// A snapshot's file name: `<mode>.<scenario>.md`, with any character other than ASCII letters,
/// digits, `-` and `_` written as `%XX` (its UTF-8 bytes), so every name is a safe, distinct file name.
pub fn file_name(mode: &str, scenario: &str) -> String {
    fn encode(name: &str) -> String {
        let mut out = String::new();
        for c in name.chars() {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                out.push(c);
            } else {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        }
        out
    }
    format!("{}.{}.md", encode(mode), encode(scenario))
}

/// The sha256 of a text's UTF-8 bytes, in lowercase hex.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// One agent's renders, pinned: what `ctxc.lock` records, and what diffs compare.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentPin {
    pub agent: String,
    pub model: Option<String>,
    /// The tokenizer every count was made with (`o200k_base`, `cl100k_base`, `estimate`).
    pub tokenizer: String,
    /// Whether the counts are exact (false for estimates).
    pub exact: bool,
    /// Every mode × scenario, sorted by mode, then scenario.
    pub prompts: Vec<PromptPin>,
}

/// One mode in one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptPin {
    pub mode: String,
    pub scenario: String,
    /// Tokens of the whole system prompt, counted as a whole.
    pub tokens: i64,
    pub sha256: String,
    pub tool_schemas: ToolsPin,
    /// In pipeline order.
    pub sections: Vec<SectionPin>,
    /// The prompt itself, when known (always for renders; for a lock, from its snapshot file).
    pub text: Option<String>,
}

/// The callable tools' schemas, as costed by `ctxc cost` (the compact OpenAI function array).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolsPin {
    pub tools: usize,
    pub tokens: i64,
    pub sha256: String,
}

/// One section: what one step contributed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectionPin {
    pub id: String,
    pub step: usize,
    pub tokens: i64,
    pub tokenizer: String,
    pub exact: bool,
    pub sha256: String,
}

impl PromptPin {
    /// The fixed context this prompt brings: system prompt plus tool schemas.
    pub fn total(&self) -> i64 {
        self.tokens + self.tool_schemas.tokens
    }
}

/// Loads one agent, renders and measures every mode in every scenario, and pins the results.
/// Fails with the diagnostics of whatever could not be loaded or rendered.
pub fn pin_agent(session: &Session, manifest: &Path) -> Result<(Loaded, AgentPin), Failure> {
    pin_measured(session, manifest).map(|(loaded, pin, _)| (loaded, pin))
}

/// [`pin_agent`], with the measurement of every render.
pub fn pin_measured(session: &Session, manifest: &Path) -> Result<(Loaded, AgentPin, Vec<Measured>), Failure> {
    let AgentRuns { mut loaded, runs, mut problems } = session.run(manifest, Only::default())?;
    if !problems.is_empty() {
        problems.splice(0..0, std::mem::take(&mut loaded.warnings));
        return Err(Failure { diagnostics: problems, sources: loaded.sources });
    }
    let agent = &loaded.agent;
    let mut prompts: Vec<PromptPin> = runs.iter().map(|run| pin_prompt(&loaded, &run.rendered, &run.measured)).collect();
    prompts.sort_by(|a, b| (&a.mode, &a.scenario).cmp(&(&b.mode, &b.scenario)));
    let profile = &agent.profile;
    // Counted alike in every render (all recorded from an endpoint, or all by the tokenizer):
    // that; otherwise the profile's tokenizer, an estimate.
    let first = runs.first().map(|r| (r.measured.tokenizer, r.measured.exact));
    let alike = first.filter(|first| runs.iter().all(|r| (r.measured.tokenizer, r.measured.exact) == *first));
    let (tokenizer, exact) = alike.unwrap_or((profile.tokenizer.name(), profile.tokenizer.is_exact()));
    let pin = AgentPin { agent: agent.name.clone(), model: agent.model.clone(), tokenizer: tokenizer.to_string(), exact, prompts };
    Ok((loaded, pin, runs.into_iter().map(|run| run.measured).collect()))
}

/// Pins one render with its measurement.
pub fn pin_prompt(loaded: &Loaded, rendered: &Rendered, measured: &Measured) -> PromptPin {
    let sections = rendered
        .sections
        .iter()
        .zip(&measured.sections)
        .map(|(s, m)| SectionPin {
            id: s.id.clone(),
            step: s.step,
            tokens: m.tokens.tokens,
            tokenizer: m.tokens.tokenizer.to_string(),
            exact: m.tokens.exact,
            sha256: sha256_hex(&s.text),
        })
        .collect();
    let callable = crate::measure::callable_tools(&loaded.agent, rendered);
    let array = format!("[{}]", callable.iter().map(|(t, _)| t.tool.function_json()).collect::<Vec<_>>().join(","));
    let prompt = rendered.prompt();
    PromptPin {
        mode: rendered.mode.clone(),
        scenario: rendered.scenario.clone(),
        tokens: measured.system_prompt.tokens,
        sha256: sha256_hex(&prompt),
        tool_schemas: ToolsPin { tools: callable.len(), tokens: measured.tool_schemas.total.tokens, sha256: sha256_hex(&array) },
        sections,
        text: Some(prompt),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_texts() {
        assert_eq!(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}

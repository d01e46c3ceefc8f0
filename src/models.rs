//! Model profiles: context window, max output and tokenizer for 200+ chat models, from
//! `data/models.tsv` (numbers derived from public model tables; see its header).

use std::sync::OnceLock;

use serde::Serialize;

/// Window assumed for a model ctxc does not know (Zeus's fallback).
pub const DEFAULT_MAX_INPUT: u64 = 64_000;
/// Output limit assumed for a model ctxc does not know.
pub const DEFAULT_MAX_OUTPUT: u64 = 8_192;

/// How tokens are counted for a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tokenizer {
    /// OpenAI's o200k_base encoding (exact).
    O200kBase,
    /// OpenAI's cl100k_base encoding (exact).
    Cl100kBase,
    /// No public tokenizer: a labelled estimate (see [`Tokenizer::method`]).
    Estimate,
}

impl Tokenizer {
    pub fn parse(name: &str) -> Option<Tokenizer> {
        match name {
            "o200k_base" => Some(Tokenizer::O200kBase),
            "cl100k_base" => Some(Tokenizer::Cl100kBase),
            "estimate" => Some(Tokenizer::Estimate),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::O200kBase => "o200k_base",
            Tokenizer::Cl100kBase => "cl100k_base",
            Tokenizer::Estimate => "estimate",
        }
    }

    pub fn is_exact(self) -> bool {
        self != Tokenizer::Estimate
    }

    /// How counts are made, as shown to users next to the numbers.
    pub fn method(self) -> &'static str {
        match self {
            Tokenizer::O200kBase => "exact: tiktoken o200k_base",
            Tokenizer::Cl100kBase => "exact: tiktoken cl100k_base",
            Tokenizer::Estimate => "estimate: o200k_base count as a proxy (this model's tokenizer is not public)",
        }
    }
}

/// A model's limits and tokenizer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelProfile {
    pub model: String,
    pub provider: String,
    pub max_input_tokens: u64,
    pub max_output_tokens: u64,
    pub tokenizer: Tokenizer,
    /// False when the model is not in the table and defaults were used.
    pub known: bool,
    /// Anthropic's tool-use system prompt for this model, when it has one (`data/tool-preambles.tsv`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_preamble: Option<ToolPreamble>,
}

/// The system prompt a provider adds once to a request with tools, as the provider publishes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ToolPreamble {
    /// Tokens with `tool_choice` `auto` or `none` (what ctxc assumes: manifests do not set it).
    pub auto: u64,
    /// Tokens with `tool_choice` `any` or a named tool.
    pub any_tool: u64,
    /// Where the figure comes from.
    pub source: &'static str,
}

/// The preamble row of `data/tool-preambles.tsv` whose prefix is the longest to begin `model`.
fn tool_preamble(model: &str) -> Option<ToolPreamble> {
    static TABLE: OnceLock<Vec<(&'static str, ToolPreamble)>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        include_str!("../data/tool-preambles.tsv")
            .lines()
            .filter(|line| !line.starts_with('#') && !line.starts_with("model_prefix\t") && !line.is_empty())
            .filter_map(|line| {
                let [prefix, auto, any_tool, note] = line.split('\t').collect::<Vec<_>>()[..] else { return None };
                Some((prefix, ToolPreamble { auto: auto.parse().ok()?, any_tool: any_tool.parse().ok()?, source: note }))
            })
            .collect()
    });
    let name = model.rsplit('/').next().unwrap_or(model);
    table.iter().filter(|(prefix, _)| name.starts_with(prefix)).max_by_key(|(prefix, _)| prefix.len()).map(|(_, p)| *p)
}

/// Every profile in the table, sorted by model name.
pub fn all() -> &'static [ModelProfile] {
    static TABLE: OnceLock<Vec<ModelProfile>> = OnceLock::new();
    TABLE.get_or_init(|| parse_table(include_str!("../data/models.tsv")))
}

fn parse_table(text: &str) -> Vec<ModelProfile> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("model\t") && !line.is_empty())
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let [model, provider, input, output, tokenizer] = cols[..] else { return None };
            Some(ModelProfile {
                model: model.to_string(),
                provider: provider.to_string(),
                max_input_tokens: input.parse().ok()?,
                max_output_tokens: output.parse().ok()?,
                tokenizer: Tokenizer::parse(tokenizer)?,
                known: true,
                tool_preamble: (provider == "anthropic").then(|| tool_preamble(model)).flatten(),
            })
        })
        .collect()
}

/// The profile of a model; unknown models get the documented defaults with `known: false`.
pub fn profile(model: &str) -> ModelProfile {
    let table = all();
    match table.binary_search_by(|p| p.model.as_str().cmp(model)) {
        Ok(i) => table[i].clone(),
        Err(_) => ModelProfile {
            model: if model.is_empty() { "(no model set)".to_string() } else { model.to_string() },
            provider: "unknown".to_string(),
            max_input_tokens: DEFAULT_MAX_INPUT,
            max_output_tokens: DEFAULT_MAX_OUTPUT,
            tokenizer: Tokenizer::Estimate,
            known: false,
            tool_preamble: None,
        },
    }
}

/// Profiles whose name or provider contains `filter` (case-insensitive).
pub fn matching(filter: &str) -> Vec<&'static ModelProfile> {
    let filter = filter.to_lowercase();
    all().iter().filter(|p| p.model.to_lowercase().contains(&filter) || p.provider.contains(&filter)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_large_sorted_and_parsed_whole() {
        let table = all();
        assert!(table.len() >= 200, "{} profiles", table.len());
        let data_rows = include_str!("../data/models.tsv").lines().filter(|l| !l.starts_with('#')).count() - 1;
        assert_eq!(table.len(), data_rows, "every row parses");
        assert!(table.windows(2).all(|w| w[0].model < w[1].model), "sorted for binary search");
    }

    #[test]
    fn known_and_unknown_models() {
        let gpt4o = profile("gpt-4o");
        assert_eq!((gpt4o.max_input_tokens, gpt4o.tokenizer, gpt4o.known), (128_000, Tokenizer::O200kBase, true));
        assert_eq!(profile("gpt-4").tokenizer, Tokenizer::Cl100kBase);
        assert_eq!(profile("claude-sonnet-4-5").tokenizer, Tokenizer::Estimate);
        let sonnet = profile("claude-sonnet-4-5").tool_preamble.expect("an Anthropic model has a tool-use preamble");
        assert_eq!((sonnet.auto, sonnet.any_tool), (346, 313));
        assert_eq!(profile("claude-3-opus-20240229").tool_preamble.map(|p| (p.auto, p.any_tool)), Some((530, 281)));
        assert_eq!(tool_preamble("claude-3-5-sonnet-20240620").map(|p| p.auto), Some(294), "the longest prefix wins");
        assert_eq!(gpt4o.tool_preamble, None);
        assert!(all().iter().all(|p| p.provider != "anthropic" || p.tool_preamble.is_some()), "every Anthropic model has a row");
        let unknown = profile("my-local-model");
        assert_eq!((unknown.max_input_tokens, unknown.known), (DEFAULT_MAX_INPUT, false));
    }
}

//! Model profiles: context window, max output and tokenizer for 300+ chat models, from
//! `data/models.tsv` (numbers derived from LiteLLM's and LangChain's model tables by
//! scripts/derive-models.py, each row naming its source), and the names users write for them
//! (`data/model-names.tsv`).

use std::sync::OnceLock;

use serde::Serialize;

/// Window assumed for a model ctxc does not know (Zeus's fallback).
pub const DEFAULT_MAX_INPUT: u64 = 64_000;
/// Output limit assumed for a model ctxc does not know.
pub const DEFAULT_MAX_OUTPUT: u64 = 8_192;

/// How tokens are counted for a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tokenizer {
    /// OpenAI's o200k_base encoding (exact).
    O200kBase,
    /// OpenAI's cl100k_base encoding (exact).
    Cl100kBase,
    /// No public tokenizer: a labelled estimate (see [`Tokenizer::method`]).
    Estimate,
    /// The model's own tokenizer file, loaded for the run (exact), by its vocabulary's name
    /// (`data/tokenizer-vocabularies.tsv`); the run's token counter holds the file.
    Own(&'static str),
}

impl Serialize for Tokenizer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
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
            Tokenizer::Own(vocabulary) => vocabulary,
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
            Tokenizer::Own(_) => "exact: the model's own tokenizer file",
            Tokenizer::Estimate => {
                "estimate: o200k_base count, uncalibrated (this model's tokenizer is not public, and no measurement of its family is known)"
            }
        }
    }
}

/// The vocabulary google-genai's `LocalTokenizer` counts Gemini 2.0 to 3 with (`data/gemini-local-tokenizers.tsv`).
pub const GEMINI_LOCAL_VOCABULARY: &str = "gemma-3";

/// The vocabulary name of a tokenizer file that holds none ctxc knows (see
/// `tokenizer_files::UNKNOWN_VOCABULARY`), and how it is said.
pub const UNKNOWN_VOCABULARY_NAME: &str = "unknown";
pub const UNKNOWN_VOCABULARY_HELD: &str = "a vocabulary ctxc does not know";

/// The vocabulary named `name` as a file holds it, for people: "the llama-3 vocabulary", or "a
/// vocabulary ctxc does not know".
pub fn held(name: &str) -> String {
    match name == UNKNOWN_VOCABULARY_NAME {
        true => UNKNOWN_VOCABULARY_HELD.to_string(),
        false => format!("the {name} vocabulary"),
    }
}

/// How google-genai's `LocalTokenizer` counts a Gemini model (`data/gemini-local-tokenizers.tsv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenaiLocal {
    /// With the Gemma 3 SentencePiece model, which ctxc loads ([`GEMINI_LOCAL_VOCABULARY`]).
    Gemma3,
    /// With another tokenizer (its name in google-genai), which ctxc does not load.
    Other(&'static str),
    /// Not at all: google-genai names no tokenizer for the model.
    Unsupported,
}

/// How google-genai's `LocalTokenizer` counts `model`, for a Gemini model (one whose own
/// tokenizer in `data/tokenizer-models.tsv` is [`GEMINI_LOCAL_VOCABULARY`]: a Gemini count is
/// only ever google-genai's); `None` for any other model. The name is matched whole, as
/// google-genai matches it, after its last `/`: a provider's prefix (`gemini/`, `vertex_ai/`,
/// `models/`), which LocalTokenizer itself refuses, names the same model.
pub fn genai_local(model: &str) -> Option<GenaiLocal> {
    static TABLE: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    if own_tokenizer(model) != Some(GEMINI_LOCAL_VOCABULARY) {
        return None;
    }
    let table = TABLE.get_or_init(|| {
        data_rows(include_str!("../data/gemini-local-tokenizers.tsv")).filter_map(|cols| Some((*cols.first()?, *cols.get(1)?))).collect()
    });
    let name = model.rsplit('/').next().unwrap_or(model);
    Some(match table.iter().find(|(model, _)| *model == name) {
        Some((_, "gemma3")) => GenaiLocal::Gemma3,
        Some((_, other)) => GenaiLocal::Other(other),
        None => GenaiLocal::Unsupported,
    })
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
    /// The name as the manifest wrote it, when it is another way of writing `model` (a gateway
    /// prefix, a Bedrock or Vertex id, dots for dashes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written_as: Option<String>,
    /// For an estimated tokenizer: how its count is calibrated from o200k_base, when its
    /// family's tokenizer generation is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Calibration>,
    /// The tokenizer file counts are made with, when the model's own was loaded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokenizer_file: Option<TokenizerFileUsed>,
    /// Where the window and output limit come from (the table and key; `data/models.tsv`), empty
    /// for an unknown model. Listed by `ctxc models`.
    #[serde(skip)]
    pub source: &'static str,
}

/// The model's own tokenizer file a run counts with: which file, what it holds, where it was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TokenizerFileUsed {
    /// The file, as given or found.
    pub path: String,
    /// `tokenizer.json`, `tiktoken rank file`, `Tekken JSON` or `SentencePiece model`.
    pub format: &'static str,
    /// The vocabulary's name (`llama-3`, `qwen-2.5`…) and what it is.
    pub vocabulary: &'static str,
    pub description: &'static str,
    /// The file's content fingerprint (src/tokenizer_files/content.rs).
    pub fingerprint: String,
    /// The SHA-256 of the file's bytes, and whether it is a release ctxc knows
    /// (`data/tokenizer-files.tsv`, by content fingerprint); counts with any other are labelled as the file's.
    pub sha256: String,
    pub known: bool,
    /// The model's own release when the file is a known release of another one (`qwen-3` for
    /// Qwen 2.5's rank file given for Qwen 3): its counts are the file's, not the model's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_tokenizer: Option<&'static str>,
    /// The known release it is and where it ships (`Qwen 3 (tokenizer.json), as npm … ships it`), for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// How the file was chosen: `--tokenizer`, the manifest's `tokenizer`, the Hugging Face
    /// cache or a Python package.
    pub found: String,
    /// Found beside it in the Hugging Face cache: `tokenizer_config.json` (its `chat_template`)
    /// and `chat_template.jinja`, the model's request format (not read by the counting).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokenizer_config: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat_template: Option<String>,
}

impl ModelProfile {
    /// The calibration that turns this model's o200k_base counts into estimates of its own:
    /// only when its tokenizer is an estimate (a manifest's `tokenizer` may say otherwise).
    pub fn estimate_calibration(&self) -> Option<Calibration> {
        self.calibration.filter(|_| self.tokenizer == Tokenizer::Estimate)
    }

    /// How this model's counts are made, as shown next to the numbers.
    pub fn method(&self) -> &'static str {
        self.estimate_calibration().map_or(self.tokenizer.method(), |c| c.method)
    }

    /// Whether nothing tells this model's tokenizer (a name neither the model table nor a family
    /// row knows, `ollama/deepseek-r1:8b`): a known release's file counts as that release, and
    /// not necessarily as the model.
    pub fn of_no_family(&self) -> bool {
        !self.known && family_row(&self.model).is_none()
    }

    /// Whether this is a Gemini model counted with the Gemma 3 file, as google-genai's
    /// `LocalTokenizer` counts it (see [`genai_local`]).
    pub fn counts_as_genai_local_tokenizer(&self) -> bool {
        self.tokenizer == Tokenizer::Own(GEMINI_LOCAL_VOCABULARY) && genai_local(&self.model) == Some(GenaiLocal::Gemma3)
    }

    /// [`ModelProfile::method`], naming the tokenizer file when one was loaded.
    pub fn method_label(&self) -> String {
        match &self.tokenizer_file {
            Some(f) if !f.known => format!(
                "exact for this file only, not necessarily {}'s tokenizer: {} ({} holding {}{}: content fingerprint {}, {})",
                self.model,
                f.path,
                f.format,
                held(f.vocabulary),
                // A vocabulary ctxc does not know has no release to be either.
                if f.vocabulary == UNKNOWN_VOCABULARY_NAME { "" } else { ", not a release ctxc knows" },
                f.fingerprint,
                f.found
            ),
            Some(f @ TokenizerFileUsed { model_tokenizer: Some(own), .. }) => format!(
                "exact for this file only, not {}'s tokenizer: {} (the {} tokenizer, {}; {}'s own is {own}, fingerprint {}, {})",
                self.model,
                f.path,
                f.vocabulary,
                f.release.as_deref().unwrap_or(f.format),
                self.model,
                f.fingerprint,
                f.found
            ),
            Some(f) => {
                let release = f.release.as_deref().unwrap_or(f.format);
                let what =
                    format!("the {} tokenizer from {} ({release}, fingerprint {}, {})", f.vocabulary, f.path, f.fingerprint, f.found);
                match self.counts_as_genai_local_tokenizer() {
                    // Gemini's own tokenizer is not public: the count is the method google-genai offers.
                    true => format!("google-genai LocalTokenizer's count (not Gemini's server count): {what}"),
                    false if self.of_no_family() => format!("exact for this file only, not necessarily {}'s tokenizer: {what}", self.model),
                    false => format!("exact: {what}"),
                }
            }
            None => self.method().to_string(),
        }
    }
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
        data_rows(include_str!("../data/tool-preambles.tsv"))
            .filter_map(|cols| {
                let [prefix, auto, any_tool, note] = cols[..] else { return None };
                Some((prefix, ToolPreamble { auto: auto.parse().ok()?, any_tool: any_tool.parse().ok()?, source: note }))
            })
            .collect()
    });
    longest_prefix(table, model).copied()
}

/// The rows of one of ctxc's TSV tables, split into columns: comments, the header (its first
/// column is a name, never a value) and blank lines left out.
fn data_rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    let mut lines = text.lines().filter(|line| !line.starts_with('#') && !line.is_empty());
    lines.next(); // the header
    lines.map(|line| line.split('\t').collect())
}

/// The value of the row whose prefix is the longest to begin `model` (the name after its last `/`).
fn longest_prefix<'t, T: 't>(table: impl IntoIterator<Item = &'t (&'static str, T)>, model: &str) -> Option<&'t T> {
    let name = family_name(model.rsplit('/').next().unwrap_or(model));
    // A prefix that ends in a digit does not take a longer number (`llama-3` is not `llama-30b`).
    let matches = |prefix: &str| {
        name.starts_with(prefix)
            && !(prefix.ends_with(|c: char| c.is_ascii_digit()) && name[prefix.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    table.into_iter().filter(|(prefix, _)| matches(prefix)).max_by_key(|(prefix, _)| prefix.len()).map(|(_, value)| value)
}

/// A model's name (its last segment) as `data/tokenizer-models.tsv` writes families, whatever
/// form a host gives it: lowercase (Hugging Face's `Qwen3-32B`), a point for Fireworks' `p`
/// between digits (`llama-v3p1`, `qwen2p5`), Meta's `Meta-Llama-3.1` and the forms `llama3.1`
/// and `llama-v3` as `llama-3.1` and `llama-3`.
fn family_name(name: &str) -> String {
    let lower = name.trim().to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut name = String::with_capacity(lower.len());
    for (i, c) in lower.char_indices() {
        let between_digits = i > 0 && bytes[i - 1].is_ascii_digit() && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        name.push(if c == 'p' && between_digits { '.' } else { c });
    }
    let name = name.strip_prefix("meta-").unwrap_or(&name);
    match name.strip_prefix("llama") {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => format!("llama-{rest}"),
        Some(rest) if rest.starts_with("-v") && rest[2..].starts_with(|c: char| c.is_ascii_digit()) => format!("llama-{}", &rest[2..]),
        _ => name.to_string(),
    }
}

/// How a count made with o200k_base stands for a model whose tokenizer ctxc cannot run: the
/// model's tokens per o200k_base token for its tokenizer generation, and the band around the
/// estimate that holds the measurements cited in docs/counting.md (`data/tokenizer-generations.tsv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Calibration {
    /// The tokenizer generation (`claude-3`, `claude-4.7`, `gemma-3`…).
    pub generation: &'static str,
    /// Model tokens per o200k_base token, in thousandths.
    #[serde(rename = "factor", serialize_with = "thousandths")]
    pub factor_per_mille: u32,
    /// The estimate is within ± this percentage of the true count for the measured texts.
    pub band_percent: u32,
    /// How counts are made, as shown next to the numbers.
    pub method: &'static str,
}

fn thousandths<S: serde::Serializer>(value: &u32, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(f64::from(*value) / 1000.0)
}

impl Calibration {
    /// An o200k_base count in the model's tokens, rounded to the nearest.
    pub fn scale(&self, o200k: i64) -> i64 {
        (o200k * i64::from(self.factor_per_mille) + 500).div_euclid(1000)
    }

    /// The lowest and highest counts the band allows around an estimate of `tokens`.
    pub fn band(&self, tokens: i64) -> (i64, i64) {
        let spread = (tokens.abs() * i64::from(self.band_percent) + 50) / 100;
        (tokens - spread, tokens + spread)
    }
}

/// A row of `data/tokenizer-generations.tsv`, with its method line written out.
struct Generation {
    name: &'static str,
    factor_per_mille: u32,
    band_percent: u32,
    method: String,
}

/// The calibration of a model's tokenizer generation, when its family has one.
pub fn calibration(model: &str) -> Option<Calibration> {
    static GENERATIONS: OnceLock<Vec<Generation>> = OnceLock::new();
    let generations = GENERATIONS.get_or_init(|| {
        data_rows(include_str!("../data/tokenizer-generations.tsv"))
            .filter_map(|cols| {
                let [name, factor, band, tokenizer] = cols[..] else { return None };
                let factor_per_mille = (factor.parse::<f64>().ok()? * 1000.0).round() as u32;
                let band_percent = band.parse().ok()?;
                let method = format!(
                    "estimate: o200k_base count × {factor} for the {tokenizer}, ±{band_percent} % (measurements cited in docs/counting.md)"
                );
                Some(Generation { name, factor_per_mille, band_percent, method })
            })
            .collect()
    });
    let wanted = generation(model)?;
    let g = generations.iter().find(|g| g.name == wanted)?;
    Some(Calibration { generation: g.name, factor_per_mille: g.factor_per_mille, band_percent: g.band_percent, method: &g.method })
}

/// A model's tokenizer generation and, when known, its Hugging Face repository and its own
/// release of the generation's tokenizer.
type TokenizerOf = (&'static str, Option<&'static str>, Option<&'static str>);

/// The rows of `data/tokenizer-models.tsv`: model prefix, then (generation, Hugging Face
/// repository, own release).
fn tokenizer_models() -> &'static [(&'static str, TokenizerOf)] {
    static MODELS: OnceLock<Vec<(&'static str, TokenizerOf)>> = OnceLock::new();
    MODELS.get_or_init(|| {
        let optional = |cols: &[&'static str], at: usize| cols.get(at).copied().filter(|value| *value != "-");
        data_rows(include_str!("../data/tokenizer-models.tsv"))
            .filter_map(|cols| Some((*cols.first()?, (*cols.get(1)?, optional(&cols, 2), optional(&cols, 3)))))
            .collect()
    })
}

/// The row of `data/tokenizer-models.tsv` for a model: the longest prefix that begins its name.
/// A name with an Ollama size or `latest` tag takes only its Ollama library's row (`NAME:`): a tag
/// picks a model, and a library can hold other families' (`deepseek-r1:8b` is a distillation of
/// Qwen 3), so its family is the library's only where a row says every tag is of one.
fn family_row(model: &str) -> Option<&'static TokenizerOf> {
    let rows = tokenizer_models().iter();
    match has_ollama_tag(model) {
        true => longest_prefix(rows.filter(|(prefix, _)| prefix.ends_with(':')), model),
        false => longest_prefix(rows, model),
    }
}

/// The tokenizer generation of a model (`data/tokenizer-models.tsv`), when its family's is known.
pub fn generation(model: &str) -> Option<&'static str> {
    // `-`: a family whose tokenizer is none of the table's (DeepSeek's before V3).
    family_row(model).map(|(generation, ..)| *generation).filter(|g| *g != "-")
}

/// Whether a model's family row says its tokenizer is none of the generations ctxc has (`-`:
/// DeepSeek's before V3), so that no file of a known vocabulary is its.
pub fn of_other_tokenizer(model: &str) -> bool {
    family_row(model).is_some_and(|(generation, ..)| *generation == "-")
}

/// The Hugging Face repository of a model's tokenizer, when the table names one.
pub fn repository(model: &str) -> Option<&'static str> {
    family_row(model).and_then(|(_, repository, _)| *repository)
}

/// The model's own release of its generation's tokenizer (a vocabulary's name), when the table
/// names one: the releases of the generation count differently.
pub fn own_tokenizer(model: &str) -> Option<&'static str> {
    family_row(model).and_then(|(.., own)| *own)
}

/// Every profile in the table, sorted by model name.
pub fn all() -> &'static [ModelProfile] {
    static TABLE: OnceLock<Vec<ModelProfile>> = OnceLock::new();
    TABLE.get_or_init(|| parse_table(include_str!("../data/models.tsv")))
}

fn parse_table(text: &'static str) -> Vec<ModelProfile> {
    data_rows(text)
        .filter_map(|cols| {
            let [model, provider, input, output, tokenizer, source] = cols[..] else { return None };
            let tokenizer = Tokenizer::parse(tokenizer)?;
            Some(ModelProfile {
                model: model.to_string(),
                provider: provider.to_string(),
                max_input_tokens: input.parse().ok()?,
                max_output_tokens: output.parse().ok()?,
                tokenizer,
                known: true,
                tool_preamble: (provider == "anthropic").then(|| tool_preamble(model)).flatten(),
                calibration: (!tokenizer.is_exact()).then(|| calibration(model)).flatten(),
                written_as: None,
                tokenizer_file: None,
                source,
            })
        })
        .collect()
}

/// The profile of a model as users write it: a table id, or a provider's or gateway's name for
/// it ([`resolve`]); unknown models get the documented defaults with `known: false`.
pub fn profile(model: &str) -> ModelProfile {
    match resolve(model) {
        Some(found) => {
            let mut p = found.clone();
            if p.model != model {
                p.written_as = Some(model.to_string());
            }
            p
        }
        None => ModelProfile {
            model: if model.is_empty() { "(no model set)".to_string() } else { model.to_string() },
            provider: "unknown".to_string(),
            max_input_tokens: DEFAULT_MAX_INPUT,
            max_output_tokens: DEFAULT_MAX_OUTPUT,
            tokenizer: Tokenizer::Estimate,
            known: false,
            tool_preamble: None,
            written_as: None,
            // Its name may still tell its tokenizer's family (`cerebras/llama-3.1-70b`; an
            // Ollama tag only by its library's row: see `family_row`).
            calibration: calibration(model),
            tokenizer_file: None,
            source: "",
        },
    }
}

/// The table's profile for a model name as users write it. The name is tried as written, then
/// as each way of writing a model id names it:
///
/// - a routing prefix (`anthropic/claude-sonnet-4-5`, `openrouter/openai/gpt-4o`,
///   `models/gemini-2.5-pro`, a Vertex resource path): the last path segment;
/// - a Bedrock id (`anthropic.claude-sonnet-4-5-20250929-v1:0`, with a region such as `us.` or
///   `global.`): without the region, the vendor and the version;
/// - a Vertex id (`claude-sonnet-4-5@20250929`): the date joined with `-`, then without it;
/// - Claude versions with dots (`claude-sonnet-4.5`, `claude-3.5-sonnet`): dashes, as Anthropic
///   writes them; an Ollama tag (`gpt-oss:120b`): a dash;
/// - a dated or `-latest` name the table lacks: the undated name;
/// - a bare name the table keeps under an organisation (`gpt-oss-120b`): that row, when only one
///   row ends so;
/// - a host's id or an Ollama tag for an open-weight release (`llama-v3p3-70b-instruct`,
///   `qwen3:8b`): the row `data/model-names.tsv` names.
///
/// A host's prefix on a name the table keeps for that host (`groq/qwen/qwen3-32b`) names the
/// host's row (`qwen/qwen3-32b`, provider `groq`); other prefixes are dropped.
pub fn resolve(model: &str) -> Option<&'static ModelProfile> {
    let table = all();
    let exact = |name: &str| table.binary_search_by(|p| p.model.as_str().cmp(name)).ok().map(|i| &table[i]);
    if let Some(p) = exact(model) {
        return Some(p);
    }
    let lower = model.trim().to_ascii_lowercase();
    if let Some(p) = lower.split_once('/').and_then(|(host, rest)| exact(rest).filter(|p| p.provider == host)) {
        return Some(p);
    }
    candidates(model).iter().find_map(|name| exact(name).or_else(|| by_last_segment(name))).or_else(|| named(&lower).and_then(exact))
}

/// The row `data/model-names.tsv` gives the last segment of `lower` (a lowercased name), as
/// written or as an Ollama `NAME:SIZE` or `NAME:latest`.
fn named(lower: &str) -> Option<&'static str> {
    static NAMES: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        data_rows(include_str!("../data/model-names.tsv")).filter_map(|cols| Some((*cols.first()?, *cols.get(1)?))).collect()
    });
    let name = lower.rsplit('/').next().unwrap_or(lower);
    let forms = match name.split_once(':') {
        Some((head, "latest")) => vec![name.to_string(), head.to_string()],
        Some((head, tag)) => vec![name.to_string(), format!("{head}:{}", tag.split('-').next().unwrap_or(tag))],
        None => vec![name.to_string(), format!("{name}:latest")],
    };
    forms.iter().find_map(|form| names.iter().find(|(written, _)| written == form).map(|(_, model)| *model))
}

/// Vendors whose Bedrock ids are `VENDOR.MODEL`.
const BEDROCK_VENDORS: &[&str] = &["anthropic", "meta", "mistral", "cohere", "deepseek", "openai", "qwen", "google", "amazon"];

/// The names `model` may stand for, most specific first (see [`resolve`]).
fn candidates(model: &str) -> Vec<String> {
    let lower = model.trim().to_ascii_lowercase();
    let mut name = lower.rsplit('/').next().unwrap_or(&lower).to_string();
    // Bedrock: `[region.]vendor.model[-vN][:N]`.
    let segments: Vec<&str> = name.splitn(3, '.').collect();
    let vendor_at = segments.iter().take(2).position(|s| BEDROCK_VENDORS.contains(s));
    if let Some(i) = vendor_at.filter(|i| segments.len() > i + 1) {
        let rest = segments[i + 1..].join(".");
        let unversioned = match rest.rsplit_once(':') {
            Some((head, tail)) if tail.chars().all(|c| c.is_ascii_digit()) => head,
            _ => &rest,
        };
        name = strip_version(unversioned).to_string();
    }
    let mut out = Vec::new();
    let mut push = |n: String| {
        if !n.is_empty() && !out.contains(&n) {
            out.push(n);
        }
    };
    let forms: Vec<String> = match name.split_once('@') {
        Some((head, date)) => vec![format!("{head}-{date}"), head.to_string()],
        None => match name.split_once(':') {
            // An Ollama size tag (`deepseek-r1:8b`, a distilled 8B) names another release than
            // the bare name: only data/model-names.tsv maps it; `latest` (another size) not at all.
            Some((_, "latest")) => Vec::new(),
            Some((head, tag)) if is_size(tag) => vec![format!("{head}-{tag}")],
            Some((head, tag)) => vec![format!("{head}-{tag}"), head.to_string()],
            None => vec![name.clone()],
        },
    };
    for form in forms {
        let form = if form.starts_with("claude") { form.replace('.', "-") } else { form };
        let undated = strip_date(&form).to_string();
        let unlabelled = form.strip_suffix("-latest").unwrap_or(&form).to_string();
        push(form);
        push(undated);
        push(unlabelled);
    }
    out
}

/// Whether `model` ends in an Ollama size or `latest` tag (`qwen3:0.6b`, `deepseek-r1:latest`),
/// which picks a release; OpenRouter's `:free` and Bedrock's `:0` do not.
fn has_ollama_tag(model: &str) -> bool {
    model.rsplit_once(':').is_some_and(|(_, tag)| is_size(tag) || tag == "latest")
}

/// Whether an Ollama tag begins with a parameter count (`8b`, `0.6b`, `8x7b`, `270m-it-qat`).
fn is_size(tag: &str) -> bool {
    let size = tag.split('-').next().unwrap_or(tag);
    let Some(number) = size.strip_suffix(['b', 'm']) else { return false };
    !number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == '.' || c == 'x')
}

/// `name` without a Bedrock version suffix (`-v1`, `-v2`, or gpt-oss's `-1`).
fn strip_version(name: &str) -> &str {
    let Some((head, version)) = name.rsplit_once('-') else { return name };
    let number = version.strip_prefix('v').unwrap_or(version);
    let is_version = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit());
    if is_version && (version.starts_with('v') || head.starts_with("gpt-oss")) {
        head
    } else {
        name
    }
}

/// `name` without a trailing date, written `-YYYYMMDD` or `-YYYY-MM-DD`.
fn strip_date(name: &str) -> &str {
    let digits = |s: &str, n: usize| s.len() == n && s.chars().all(|c| c.is_ascii_digit());
    if let Some((head, date)) = name.rsplit_once('-') {
        if digits(date, 8) {
            return head;
        }
    }
    let parts: Vec<&str> = name.rsplitn(4, '-').collect();
    if parts.len() == 4 && digits(parts[0], 2) && digits(parts[1], 2) && digits(parts[2], 4) {
        return parts[3];
    }
    name
}

/// The one row kept under an organisation (`openai/gpt-oss-120b`) whose last segment is `name`.
fn by_last_segment(name: &str) -> Option<&'static ModelProfile> {
    let mut rows = all().iter().filter(|p| p.model.rsplit_once('/').is_some_and(|(_, last)| last == name));
    let first = rows.next()?;
    rows.next().is_none().then_some(first)
}

/// Profiles whose name or provider contains `filter` (case-insensitive).
pub fn matching(filter: &str) -> Vec<&'static ModelProfile> {
    let filter = filter.to_lowercase();
    all().iter().filter(|p| p.model.to_lowercase().contains(&filter) || p.provider.contains(&filter)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names hosts give open models (Hugging Face repository ids, Fireworks', Cerebras' and
    /// Ollama's forms, DeepSeek's distillations) take their family's tokenizer, and a name the
    /// model table does not know takes its family's estimate; a fine-tune named for itself, a
    /// name of no family, or an Ollama tag of a library no row names, stays uncalibrated.
    #[test]
    fn hosts_names_of_open_models_take_their_familys_tokenizer() {
        for (name, family) in [
            ("cerebras/llama3.1-8b", "llama-3"),
            ("fireworks_ai/accounts/fireworks/models/llama-v3p1-405b-instruct", "llama-3"),
            ("deepinfra/meta-llama/Meta-Llama-3.1-70B-Instruct", "llama-3"),
            ("fireworks_ai/accounts/fireworks/models/llama4-scout-instruct-basic", "llama-4"),
            ("deepinfra/Qwen/QwQ-32B", "qwen"),
            ("fireworks_ai/accounts/fireworks/models/qwen2p5-coder-32b-instruct", "qwen"),
            ("deepinfra/Qwen/Qwen3.5-27B", "qwen-3.5"),
            ("together_ai/deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "qwen"),
            ("deepinfra/deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "llama-3"),
            ("deepinfra/deepseek-ai/DeepSeek-R1-0528", "deepseek"),
            ("deepinfra/mistralai/Mixtral-8x7B-Instruct-v0.1", "mistral-sentencepiece"),
            ("deepinfra/mistralai/Mistral-Nemo-Instruct-2407", "mistral-tekken"),
        ] {
            assert_eq!(generation(name), Some(family), "{name}");
            let profile = profile(name);
            assert_eq!(profile.calibration.map(|c| c.generation), Some(family), "{name}");
            assert!(profile.method().starts_with("estimate: o200k_base count ×"), "{name}: {}", profile.method());
        }
        for name in ["deepinfra/NousResearch/Hermes-3-Llama-3.1-70B", "acme/own-model", "llama"] {
            assert_eq!((generation(name), profile(name).calibration), (None, None), "{name}");
        }
        // An Ollama tag the table does not know is its library's family only where a row says
        // every tag is of one (the estimate and the files taken alike); a library of other
        // families' models (`deepseek-r1`'s distillations) or of no row is none. OpenRouter's
        // `:free` picks no model.
        for (name, family, own) in [
            ("ollama/deepseek-r1:8b", None, None),
            ("ollama/deepseek-r1:latest", None, None),
            ("ollama/cogito:8b", None, None),
            ("ollama/qwen3:0.6b", Some("qwen"), Some("qwen-3")),
            ("ollama/llama3:8b", Some("llama-3"), None),
            ("ollama/llama3.1:405b", Some("llama-3"), None),
            ("ollama/llama2:13b", Some("mistral-sentencepiece"), Some("llama-2")),
            ("ollama/mistral:7b", Some("mistral-sentencepiece"), None),
            ("ollama/mistral:v0.3", Some("mistral-sentencepiece"), None),
            ("ollama/mistral-nemo:12b", Some("mistral-tekken"), None),
            ("ollama/deepseek-v3.1:671b-cloud", Some("deepseek"), Some("deepseek-v3")),
            ("ollama/devstral:24b", Some("mistral-tekken"), None),
            ("ollama/llama3.2-vision:11b", Some("llama-3"), None),
            ("ollama/mistral-small:22b", None, None),
            // Mistral's own names and Hugging Face ids: their releases, a prefix not taking later ones.
            ("mistralai/Mistral-Large-Instruct-2411", Some("mistral-sentencepiece"), Some("mistral-sp-v3")),
            ("mistral-large-pixtral-2411", Some("mistral-sentencepiece"), Some("mistral-sp-v7m1")),
            ("mistral-tiny-latest", Some("mistral-sentencepiece"), None),
            ("mistral-large-2512", Some("mistral-tekken"), None),
            ("open-codestral-mamba", Some("mistral-sentencepiece"), Some("mistral-sp-v3")),
        ] {
            assert_eq!((generation(name), own_tokenizer(name)), (family, own), "{name}");
            assert_eq!(profile(name).calibration.map(|c| c.generation), family, "{name}");
        }
        // Llama 2 under the names hosts give it: Mistral SentencePiece v1's vocabulary, its own release.
        for name in ["meta-llama/Llama-2-70b-chat-hf", "fireworks_ai/accounts/fireworks/models/llama-v2-13b-chat", "ollama/llama2"] {
            assert_eq!((generation(name), own_tokenizer(name)), (Some("mistral-sentencepiece"), Some("llama-2")), "{name}");
        }
        assert_eq!(profile("openrouter/qwen/qwq-32b:free").calibration.map(|c| c.generation), Some("qwen"));
        // A number is not a longer one; Mistral's SentencePiece releases and DeepSeek's tokenizers
        // before V3 as their Hugging Face ids write them.
        for (name, family) in [
            ("huggyllama/llama-30b", None),
            ("together_ai/mistralai/Mistral-7B-Instruct-v0.3", Some("mistral-sentencepiece")),
            ("mistralai/Mistral-Large-Instruct-2407", Some("mistral-sentencepiece")),
            ("mistralai/Codestral-22B-v0.1", Some("mistral-sentencepiece")),
            ("fireworks_ai/accounts/fireworks/models/deepseek-coder-33b-instruct", None),
            ("fireworks_ai/accounts/fireworks/models/deepseek-v2p5", None),
            ("deepseek-ai/DeepSeek-V3.1", Some("deepseek")),
        ] {
            assert_eq!(generation(name), family, "{name}");
        }
        // A `p` between digits is a point, elsewhere a letter.
        assert_eq!(family_name("Llama-v3p2-3B"), "llama-3.2-3b");
        assert_eq!(family_name("deepseek-v3p1"), "deepseek-v3.1");
        assert_eq!(family_name("mixtral-8x7b-p1"), "mixtral-8x7b-p1");
    }

    /// google-genai's LocalTokenizer counts a Gemini model by its whole name (a provider's prefix
    /// dropped): with the Gemma 3 model, Gemma 4's tokenizer, or not at all; a Gemma model is no
    /// Gemini model. Gemma 1 and 2's names, as users write them, are the gemma-2 generation's;
    /// Gemma 4's are Gemma 3's generation with a release of their own, so no Gemma 3 file is theirs.
    #[test]
    fn gemini_and_gemma_names_take_their_own_tokenizers() {
        use GenaiLocal::{Gemma3, Other, Unsupported};
        for (model, local) in [
            ("gemini-2.5-flash", Some(Gemma3)),
            ("gemini/gemini-2.5-flash", Some(Gemma3)),
            ("vertex_ai/gemini-3-pro-preview", Some(Gemma3)),
            ("gemini-3.5-flash", Some(Other("gemma4"))),
            ("gemini-2.5-flash-preview-09-2025", Some(Unsupported)),
            ("learnlm-1.5-pro-experimental", Some(Unsupported)),
            ("gemini-gemma-2-9b-it", None),
            ("gemma-3-27b-it", None),
        ] {
            assert_eq!(genai_local(model), local, "{model}");
        }
        for (model, generation_and_own) in [
            ("gemma-2-9b-it", ("gemma-2", None)),
            ("ollama/gemma2:9b", ("gemma-2", None)),
            ("ollama/gemma:7b", ("gemma-2", None)),
            ("gemma-7b-it", ("gemma-2", None)),
            ("gemini-gemma-2-27b-it", ("gemma-2", None)),
            ("gemma-3-27b-it", ("gemma-3", None)),
            ("gemma-4-31b-it", ("gemma-3", Some("gemma-4"))),
            ("ollama/gemma4:31b", ("gemma-3", Some("gemma-4"))),
        ] {
            assert_eq!(generation(model).map(|g| (g, own_tokenizer(model))), Some(generation_and_own), "{model}");
        }
    }

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
        assert_eq!(unknown.written_as, None);
        assert_eq!((unknown.max_input_tokens, unknown.known), (DEFAULT_MAX_INPUT, false));
    }

    #[test]
    fn model_names_as_users_write_them_resolve_to_their_profiles() {
        for (written, model) in [
            ("anthropic/claude-sonnet-4-5", "claude-sonnet-4-5"),
            ("claude-sonnet-4.5", "claude-sonnet-4-5"),
            ("Claude-Sonnet-4.5", "claude-sonnet-4-5"),
            ("claude-3.5-sonnet", "claude-3-5-sonnet"),
            ("claude-3-5-sonnet-latest", "claude-3-5-sonnet"),
            ("anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929"),
            ("us.anthropic.claude-opus-4-1-20250805-v1:0", "claude-opus-4-1-20250805"),
            ("global.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5-20251001"),
            ("bedrock/anthropic.claude-opus-4-7-v1", "claude-opus-4-7"),
            ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5-20250929"),
            ("claude-opus-4-6@20990101", "claude-opus-4-6"),
            ("vertex_ai/claude-opus-4-7@20260416", "claude-opus-4-7-20260416"),
            ("projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929", "claude-sonnet-4-5-20250929"),
            ("claude-haiku-4-5-20991231", "claude-haiku-4-5"),
            ("openai/gpt-4o", "gpt-4o"),
            ("openrouter/openai/gpt-4.1", "gpt-4.1"),
            ("gemini/gemini-2.5-pro", "gemini-2.5-pro"),
            ("models/gemini-2.5-flash", "gemini-2.5-flash"),
            ("google/gemini-2.5-pro", "gemini-2.5-pro"),
            ("gpt-oss-120b", "openai/gpt-oss-120b"),
            ("gpt-oss:20b", "openai/gpt-oss-20b"),
            ("openai.gpt-oss-120b-1:0", "openai/gpt-oss-120b"),
            ("gpt-4o-2024-08-06", "gpt-4o-2024-08-06"),
            ("gpt-4o-2099-01-01", "gpt-4o"),
        ] {
            let p = profile(written);
            assert!(p.known, "{written} should resolve");
            assert_eq!(p.model, model, "{written}");
            assert_eq!(p.written_as.as_deref(), (written != model).then_some(written), "{written}");
        }
        let sonnet = profile("anthropic/claude-sonnet-4-5");
        assert_eq!((sonnet.provider.as_str(), sonnet.max_input_tokens), ("anthropic", 200_000));
        assert!(sonnet.tool_preamble.is_some(), "an alias keeps the profile's tool-use preamble");
        // Names that only look like aliases stay unknown rather than resolving to a neighbour.
        for unknown in ["claude-sonnet-9", "anthropic/", "gpt-oss", "x.y.z", "@", "gemini-2.5-pro-ultra", ""] {
            assert!(!profile(unknown).known, "{unknown} should stay unknown");
        }
    }

    #[test]
    fn open_weight_names_resolve_to_their_release_and_tokenizer() {
        // (written, row, tokenizer generation, Hugging Face repository of its tokenizer)
        let llama31 = ("llama-3.1-8b-instruct", "llama-3", Some("meta-llama/Llama-3.1-8B-Instruct"));
        let llama33 = ("llama-3.3-70b-instruct", "llama-3", Some("meta-llama/Llama-3.3-70B-Instruct"));
        let qwen8 = ("qwen3-8b", "qwen", Some("Qwen/Qwen3-8B"));
        let qwen32 = ("qwen3-32b", "qwen", Some("Qwen/Qwen3-32B"));
        let deepseek = ("deepseek-v3", "deepseek", Some("deepseek-ai/DeepSeek-V3"));
        for (written, (row, generation, repo)) in [
            // Ollama tags, with and without the host prefix, a variant or the implied `latest`
            ("ollama/qwen3:8b", qwen8),
            ("qwen3:8b", qwen8),
            ("ollama_chat/qwen3:8b-q4_K_M", qwen8),
            ("qwen3", qwen8),
            ("qwen3:32b", qwen32),
            ("ollama/llama3.1:8b", llama31),
            ("llama3.1:8b-instruct-q4_K_M", llama31),
            ("llama3.1", llama31),
            ("llama3.3:70b", llama33),
            // Hugging Face repository ids
            ("meta-llama/Llama-3.3-70B-Instruct", llama33),
            ("meta-llama/Llama-3.1-8B-Instruct", llama31),
            ("meta-llama/Meta-Llama-3.1-8B-Instruct", llama31),
            ("Qwen/Qwen3-32B", qwen32),
            ("Qwen/Qwen3-8B", qwen8),
            ("deepseek-ai/DeepSeek-V3", deepseek),
            // hosts and gateways
            ("openrouter/meta-llama/llama-3.3-70b-instruct", llama33),
            ("openrouter/meta-llama/llama-3.3-70b-instruct:free", llama33),
            ("openrouter/qwen/qwen3-32b", qwen32),
            ("together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo", llama33),
            ("together_ai/meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo", llama31),
            ("together_ai/deepseek-ai/DeepSeek-V3", deepseek),
            ("fireworks_ai/accounts/fireworks/models/llama-v3p3-70b-instruct", llama33),
            ("fireworks_ai/accounts/fireworks/models/llama-v3p1-8b-instruct", llama31),
            ("fireworks_ai/accounts/fireworks/models/qwen3-8b", qwen8),
            ("qwen2.5:72b-instruct-q4_K_M", ("qwen2.5-72b-instruct", "qwen", Some("Qwen/Qwen2.5-72B-Instruct"))),
            ("gemma3:27b", ("gemma-3-27b-it", "gemma-3", Some("google/gemma-3-27b-it"))),
            ("ollama/llama3.2", ("llama-3.2-3b-instruct", "llama-3", Some("meta-llama/Llama-3.2-3B-Instruct"))),
            ("ollama/deepseek-r1:671b", ("deepseek-r1", "deepseek", Some("deepseek-ai/DeepSeek-R1"))),
            ("ollama/qwen3:latest", qwen8),
            // a host's own row, when the table has one: its window, the release's tokenizer
            ("groq/llama-3.3-70b-versatile", ("llama-3.3-70b-versatile", "llama-3", Some("meta-llama/Llama-3.3-70B-Instruct"))),
            ("groq/qwen/qwen3-32b", ("qwen/qwen3-32b", "qwen", Some("Qwen/Qwen3-32B"))),
        ] {
            let p = profile(written);
            assert!(p.known, "{written} should resolve");
            assert_eq!(p.model, row, "{written}");
            assert_eq!(p.calibration.map(|c| c.generation), Some(generation), "{written}: calibrated by its tokenizer generation");
            assert_eq!(repository(&p.model), repo, "{written}: its tokenizer file is looked for in its repository");
        }
        // A tag, size or release the table does not name stays unknown (MAN011), never a neighbour.
        // `deepseek-r1:8b` is Ollama's distilled 8B, not DeepSeek's R1: unknown until a row names it.
        for unknown in [
            "qwen3:0.6b",
            "llama3.1:405b",
            "ollama/mistral-nemo-custom",
            "llama9:8b",
            "deepseek-r1:8b",
            "ollama/deepseek-r1:14b-qwen-distill-q4_K_M",
            // Ollama's `latest` is one of the sizes (the 8B distillation), not the bare name's model.
            "ollama/deepseek-r1:latest",
        ] {
            assert!(!profile(unknown).known, "{unknown} should stay unknown");
        }
    }

    #[test]
    fn every_row_names_its_source_and_every_alias_a_row() {
        for p in all() {
            assert!(!p.source.is_empty(), "{} has no source", p.model);
        }
        for row in data_rows(include_str!("../data/model-names.tsv")) {
            let [written, model, source] = row[..] else { panic!("three columns: {row:?}") };
            assert!(resolve(model).is_some_and(|p| p.model == model), "{written} names {model}, not a row of data/models.tsv");
            assert!(!source.is_empty() && written == written.to_ascii_lowercase(), "{written}: lowercase, with a source");
        }
        // The windows issue 49 found wrong (1,050,000): LangChain's profile and OpenAI's listing.
        for model in ["gpt-5.4-mini", "gpt-5.4-nano", "gpt-5.4-mini-2026-03-17"] {
            assert_eq!((profile(model).max_input_tokens, profile(model).max_output_tokens), (400_000, 128_000), "{model}");
        }
        assert_eq!(profile("deepseek-v4-pro").max_output_tokens, 393_216, "DeepSeek V4's 384K output");
    }

    #[test]
    fn estimated_families_are_calibrated_by_tokenizer_generation() {
        let generation = |model: &str| profile(model).calibration.map(|c| c.generation);
        assert_eq!(generation("claude-sonnet-4-5"), Some("claude-3"));
        assert_eq!(generation("claude-opus-4-6"), Some("claude-3"));
        assert_eq!(generation("claude-opus-4-7"), Some("claude-4.7"), "Opus 4.7 brought a new tokenizer");
        assert_eq!(generation("us.anthropic.claude-opus-4-7-v1:0"), Some("claude-4.7"), "aliases keep the generation");
        assert_eq!(generation("gemini-2.5-pro"), Some("gemma-3"));
        assert_eq!(generation("gpt-4o"), None, "exact tokenizers need none");
        assert_eq!(generation("grok-4"), None, "no measurement of this family: uncalibrated");
        assert!(profile("grok-4").method().contains("uncalibrated"));
        let sonnet = profile("claude-sonnet-4-5").calibration.expect("calibrated");
        assert_eq!((sonnet.factor_per_mille, sonnet.band_percent), (1200, 10));
        assert_eq!(sonnet.scale(4_917), 5_900);
        assert_eq!(sonnet.band(5_900), (5_310, 6_490));
        assert!(profile("claude-sonnet-4-5").method().contains("× 1.20") && profile("claude-sonnet-4-5").method().contains("±10 %"));
        // Every model the table estimates from a family with a measured tokenizer is calibrated
        // (Mistral's API also serves Z.ai's GLM and the Leanstral lab model, other families).
        let other_family = |p: &&ModelProfile| ["glm", "zai-glm", "labs-leanstral"].iter().any(|f| p.model.starts_with(f));
        for p in all()
            .iter()
            .filter(|p| ["anthropic", "gemini", "deepseek", "mistral"].contains(&p.provider.as_str()))
            .filter(|p| !other_family(p))
        {
            assert!(p.calibration.is_some(), "{} has no tokenizer generation", p.model);
        }
        let defined: Vec<&str> = data_rows(include_str!("../data/tokenizer-generations.tsv")).map(|c| c[0]).collect();
        for row in data_rows(include_str!("../data/tokenizer-models.tsv")) {
            assert!(row[1] == "-" || defined.contains(&row[1]), "{} names an undefined generation {}", row[0], row[1]);
        }
    }
}

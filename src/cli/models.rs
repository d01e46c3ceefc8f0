//! `ctxc models`: list the model profiles.

use clap::{Args, ValueEnum};

use ctxc::tokenizer_files::discover::{self, Discovery, Places};

use super::EXIT_OK;

/// Where discovery looks, for people.
fn looked_in(places: &Places) -> String {
    let mut out = Vec::new();
    if let Some(home) = &places.hf_home {
        out.push(format!("the Hugging Face cache {}", home.join("hub").display()));
    }
    out.extend(places.python.iter().map(|p| format!("the Python packages of {}", p.display())));
    out.push("a file given by --tokenizer or the manifest's `tokenizer`".into());
    out.join(", ")
}

#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// Show only models whose name or provider contains this text.
    filter: Option<String>,
    #[arg(long, value_enum, default_value_t = ModelsFormat::Text)]
    format: ModelsFormat,
    #[command(flatten)]
    tokenizers: super::TokenizerOptions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ModelsFormat {
    /// A table.
    Text,
    /// A JSON array of profiles (see docs/json-output.md).
    Json,
}

pub fn run(args: ModelsArgs) -> u8 {
    let profiles = ctxc::models::matching(args.filter.as_deref().unwrap_or(""));
    let places = args.tokenizers.places();
    // A download cached where others can write is listed only when it is the file (read once).
    let mut verified: std::collections::HashMap<std::path::PathBuf, Result<(), String>> = Default::default();
    let found: Vec<Option<Discovery>> = profiles
        .iter()
        .map(|p| match p.tokenizer {
            ctxc::models::Tokenizer::Estimate => Some(discover::find(&p.model, &places)).filter(|d| *d != Discovery::NoFile),
            _ => None,
        })
        .map(|d| match d {
            Some(Discovery::Found(f)) => match verified.entry(f.path.clone()).or_insert_with(|| discover::verify(&f)) {
                Ok(()) => Some(Discovery::Found(f)),
                Err(refused) => Some(Discovery::NotFound { looked: vec![refused.clone()] }),
            },
            other => other,
        })
        .collect();
    if args.format == ModelsFormat::Json {
        // Each profile as JSON shows it elsewhere, then what only this list says: the table and
        // key its window and output limit come from (`source`, data/models.tsv); for a model
        // whose family's tokenizer file ctxc can load, where it was found or where ctxc looked;
        // and the file its chat template would be read from, found beside that file.
        let rows: Vec<serde_json::Value> = profiles
            .iter()
            .zip(&found)
            .map(|(profile, tokenizer_file)| {
                let mut row = serde_json::json!(profile);
                row["source"] = profile.source.into();
                if let Some(discovery) = tokenizer_file {
                    row["tokenizer_file"] = serde_json::json!(discovery);
                }
                if let Some(template) = tokenizer_file.as_ref().and_then(|d| match d {
                    Discovery::Found(found) => found.template_file(),
                    _ => None,
                }) {
                    row["chat_template"] = serde_json::json!(template);
                }
                row
            })
            .collect();
        super::output::print_json(&ctxc::report::escape::json_text(&rows));
        return EXIT_OK;
    }
    let width = profiles.iter().map(|p| p.model.len()).max().unwrap_or(5).max(5);
    let mut out = format!("{:<width$}  {:<26}  {:>10}  {:>10}  tokenizer\n", "model", "provider", "max input", "max output");
    for (p, found) in profiles.iter().zip(&found) {
        let tokenizer = match (p.tokenizer.is_exact(), p.estimate_calibration()) {
            (true, _) => p.tokenizer.name().to_string(),
            (false, Some(c)) => {
                format!("estimate: o200k_base × {:.2} ±{} % ({})", f64::from(c.factor_per_mille) / 1000.0, c.band_percent, c.generation)
            }
            (false, None) => "estimate: o200k_base, uncalibrated".to_string(),
        };
        // Its own tokenizer file, when this machine has one: not read here, so not called exact
        // (a count names the release the file is, or labels it as the file's own).
        let tokenizer = match found {
            Some(Discovery::Found(f)) => {
                let template = match f.template_file() {
                    Some(file) => format!("chat template {}", file.display()),
                    None => "no chat template beside it".to_string(),
                };
                format!("tokenizer file found: {} ({}; counts name the release it is); {template}", f.path.display(), f.place)
            }
            Some(_) => format!("{tokenizer}; its tokenizer file: not found"),
            None => tokenizer,
        };
        out.push_str(&format!(
            "{:<width$}  {:<26}  {:>10}  {:>10}  {tokenizer}\n",
            p.model, p.provider, p.max_input_tokens, p.max_output_tokens
        ));
    }
    out.push_str(&format!(
        "\n{} profiles. Unknown models get a {}-token window and estimated counts; override with `context_window` and `tokenizer` under [agent].\n",
        profiles.len(),
        ctxc::models::DEFAULT_MAX_INPUT
    ));
    out.push_str(&format!("Tokenizer files are looked for in {}.\n", looked_in(&places)));
    super::output::print(&out);
    EXIT_OK
}

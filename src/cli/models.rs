//! `ctxc models`: list the model profiles.

use clap::{Args, ValueEnum};

use super::EXIT_OK;

#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// Show only models whose name or provider contains this text.
    filter: Option<String>,
    #[arg(long, value_enum, default_value_t = ModelsFormat::Text)]
    format: ModelsFormat,
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
    if args.format == ModelsFormat::Json {
        super::output::print_json(&ctxc::report::escape::json_text(&profiles));
        return EXIT_OK;
    }
    let width = profiles.iter().map(|p| p.model.len()).max().unwrap_or(5).max(5);
    let mut out = format!("{:<width$}  {:<26}  {:>10}  {:>10}  tokenizer\n", "model", "provider", "max input", "max output");
    for p in &profiles {
        let tokenizer = match (p.tokenizer.is_exact(), p.estimate_calibration()) {
            (true, _) => p.tokenizer.name().to_string(),
            (false, Some(c)) => {
                format!("estimate: o200k_base × {:.2} ±{} % ({})", f64::from(c.factor_per_mille) / 1000.0, c.band_percent, c.generation)
            }
            (false, None) => "estimate: o200k_base, uncalibrated".to_string(),
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
    super::output::print(&out);
    EXIT_OK
}

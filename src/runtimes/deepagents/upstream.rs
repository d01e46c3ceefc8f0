//! `ctxc upstream` on the `deepagents` preset: `upstream.py` prints the installed release's
//! texts (base prompt, each middleware's text, the harness-profile suffix) and the tools it
//! binds, for the manifest's model and subagents; the manifest records the installed release's
//! prompt layout (`[deepagents] version`).

use crate::diagnostic::{Diagnostic, Sources};
use crate::manifest::raw::RawManifest;
use crate::project::ProjectRoot;
use crate::runtimes::deepagents::import::{subagents, UPSTREAM_MODULES};
use crate::runtimes::deepagents::window::{langchain_profile, langchain_provider, layout, LAYOUT_0_4};
use crate::runtimes::{Upstream, UpstreamAgent, UpstreamReader, UpstreamSubagent, UpstreamTexts};

pub const READER: UpstreamReader = UpstreamReader {
    package: "deepagents",
    script: include_str!("upstream.py"),
    texts: &UPSTREAM_MODULES,
    text_file: |name| format!("{name}.md"),
    tools_file: Some("builtin_tools.json"),
    install: "pip install deepagents==0.7.32",
};

/// Reads the texts with `read` for the manifest's model (`model`, without a provider prefix)
/// and subagents; the layout the manifest selects (`manifest` names it in messages), and the
/// installed one.
pub fn read(
    raw: &RawManifest,
    root: &ProjectRoot,
    manifest: &str,
    model: String,
    read: impl FnOnce(&UpstreamAgent) -> Result<UpstreamTexts, Diagnostic>,
) -> Result<Upstream, Diagnostic> {
    let selected = match raw.deepagents.as_ref().and_then(|d| d.version.as_ref()) {
        Some(version) => layout(&version.value.text()).map_err(|e| Diagnostic::error(e).in_file(manifest).at(version.span.clone()))?,
        // The preset's default (presets/deepagents.toml).
        None => LAYOUT_0_4,
    };
    // LangChain's provider name, which picks the model class (its profile) and 0.7's harness profile.
    let provider = match langchain_profile(&model) {
        Some(profile) => Some(profile.provider.clone()),
        None => langchain_provider(&crate::models::profile(&model).provider).map(String::from),
    };
    let mut sources = Sources::default();
    let subagents = subagents(root, &mut sources)
        .map_err(|f| f.diagnostics.into_iter().next().unwrap_or_else(|| Diagnostic::error("cannot read subagents/")))?
        .into_iter()
        .map(|(name, description)| UpstreamSubagent { name, description })
        .collect();
    let texts = read(&UpstreamAgent { model, provider, subagents })?;
    let installed = layout(&texts.version).map_err(Diagnostic::error)?;
    Ok(Upstream { installed: installed.to_string(), texts, selected: Some(selected.to_string()) })
}

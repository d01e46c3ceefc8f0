//! `ctxc upstream` on the `adk` preset: `upstream.py` prints the installed ADK's agent-transfer
//! instruction, its transfer-to-parent line and the `transfer_to_agent` declaration (the files
//! the preset's modules refer to, docs/runtimes/adk.md). The preset follows one release and
//! records none: the texts are the installed ones.

use crate::diagnostic::Diagnostic;
use crate::manifest::raw::RawManifest;
use crate::project::ProjectRoot;
use crate::runtimes::{Upstream, UpstreamAgent, UpstreamReader, UpstreamTexts};

pub const READER: UpstreamReader = UpstreamReader {
    package: "google-adk",
    script: include_str!("upstream.py"),
    texts: &["agent_transfer", "transfer_to_parent", "transfer_tool"],
    text_file: |name| match name {
        "transfer_tool" => "transfer-tool.json".to_string(),
        name => format!("{}.md", name.replace('_', "-")),
    },
    tools_file: None,
    install: "pip install google-adk==2.13.0",
};

/// Reads the texts with `read`; the release selected is the installed one.
pub fn read(
    _raw: &RawManifest,
    _root: &ProjectRoot,
    _manifest: &str,
    model: String,
    read: impl FnOnce(&UpstreamAgent) -> Result<UpstreamTexts, Diagnostic>,
) -> Result<Upstream, Diagnostic> {
    let texts = read(&UpstreamAgent { model, provider: None, subagents: Vec::new() })?;
    let installed = texts.version.clone();
    Ok(Upstream { texts, selected: Some(installed.clone()), installed })
}

//! `ctxc upstream` on the `agentscope` preset: `upstream.py` prints the installed release's
//! skill instruction, workspace text and compression tool, and the skill viewer tool (the files
//! the AgentScope fixtures and manifests refer to, docs/runtimes/agentscope.md); the manifest
//! records the installed release (`[agentscope] version`), which must be one ctxc models.

use crate::diagnostic::Diagnostic;
use crate::manifest::raw::RawManifest;
use crate::project::ProjectRoot;
use crate::runtimes::agentscope::window::{release, RELEASES};
use crate::runtimes::{Upstream, UpstreamAgent, UpstreamReader, UpstreamTexts};

pub const READER: UpstreamReader = UpstreamReader {
    package: "agentscope",
    script: include_str!("upstream.py"),
    texts: &["skill_instruction", "workspace", "compression_tool"],
    text_file: |name| match name {
        "compression_tool" => "compression-tool.json".to_string(),
        name => format!("{}.md", name.replace('_', "-")),
    },
    tools_file: Some("skill-viewer.json"),
    install: "pip install agentscope==2.0.11",
};

/// Reads the texts with `read`; the release the manifest selects, and the installed one when
/// ctxc models it.
pub fn read(
    raw: &RawManifest,
    _root: &ProjectRoot,
    _manifest: &str,
    model: String,
    read: impl FnOnce(&UpstreamAgent) -> Result<UpstreamTexts, Diagnostic>,
) -> Result<Upstream, Diagnostic> {
    let selected = raw.agentscope.as_ref().and_then(|a| a.version.as_ref()).map(|v| v.value.clone());
    let texts = read(&UpstreamAgent { model, provider: None, subagents: Vec::new() })?;
    let Some(release) = release(&texts.version) else {
        let known: Vec<&str> = RELEASES.iter().map(|r| r.version).collect();
        return Err(Diagnostic::error(format!("the installed agentscope {} is not a release ctxc models", texts.version)).help(format!(
            "install one of {} (`{}`)",
            known.join(", "),
            READER.install
        )));
    };
    // A post-release ctxc accepts is recorded as itself: the manifest names what is installed.
    let installed = if texts.version == release.version { release.version.to_string() } else { texts.version.clone() };
    Ok(Upstream { texts, selected, installed })
}

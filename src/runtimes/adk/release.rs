//! What the ADK preset models.

/// For reports, `ctxc --version` and `simulate`: the release tests/runtimes/adk.rs runs.
pub const MODELS: &str = "google-adk 2.13.0";

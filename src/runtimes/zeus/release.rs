//! What the Zeus preset models.

/// For reports, `ctxc --version` and `simulate`: Zeus has no public runtime, so its
/// documentation is what the preset follows.
pub const MODELS: &str = "Zeus documentation (docs.zeus.agentspro.cn, November 2026)";

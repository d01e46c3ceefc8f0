//! The `ctxc init --preset adk` starter: its files (under `starters/adk/`), by the path each is
//! written to.

pub const FILES: &[(&str, &str)] = &[
    ("ctxc.toml", include_str!("../../../starters/adk/ctxc.toml")),
    ("prompts/instruction.md", include_str!("../../../starters/adk/prompts/instruction.md")),
];

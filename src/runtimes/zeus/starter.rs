//! The `ctxc init --preset zeus` starter: its files (under `starters/zeus/`), by the path each
//! is written to.

pub const FILES: &[(&str, &str)] = &[
    ("ctxc.toml", include_str!("../../../starters/zeus/ctxc.toml")),
    ("prompts/core.md", include_str!("../../../starters/zeus/prompts/core.md")),
    ("prompts/memory/full.md", include_str!("../../../starters/zeus/prompts/memory/full.md")),
    ("prompts/memory/simplified.md", include_str!("../../../starters/zeus/prompts/memory/simplified.md")),
    ("prompts/modes/agent.md", include_str!("../../../starters/zeus/prompts/modes/agent.md")),
    ("prompts/modes/ask.md", include_str!("../../../starters/zeus/prompts/modes/ask.md")),
    ("prompts/modes/plan.md", include_str!("../../../starters/zeus/prompts/modes/plan.md")),
    ("prompts/soul.md", include_str!("../../../starters/zeus/prompts/soul.md")),
    ("prompts/tools.md", include_str!("../../../starters/zeus/prompts/tools.md")),
    ("prompts/workflow/full.md", include_str!("../../../starters/zeus/prompts/workflow/full.md")),
    ("prompts/workflow/planning.md", include_str!("../../../starters/zeus/prompts/workflow/planning.md")),
    ("prompts/workflow/simplified.md", include_str!("../../../starters/zeus/prompts/workflow/simplified.md")),
];

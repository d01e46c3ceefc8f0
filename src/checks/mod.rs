//! The checks stage: everything `ctxc check` reports about a rendered and measured agent —
//! budgets, the reference systems' settings, and the rule catalogue.

pub mod budgets;
pub mod leaks;
pub mod settings;
pub mod workloads;

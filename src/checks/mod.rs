//! The checks stage: everything `ctxc check` reports about a rendered and measured agent —
//! budgets, the reference systems' settings, and the rule catalogue.

pub mod budgets;
pub mod settings;
pub mod leaks;

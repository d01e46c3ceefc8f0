//! Zeus (the `zeus` preset). Zeus has no public runtime: what ctxc models follows its
//! documentation (docs.zeus.agentspro.cn).

pub mod release;
pub mod starter;
pub mod steps;

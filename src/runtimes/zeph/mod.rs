//! Zeph (the `zeph` preset; the `zeph-*` crates). Its settings checks, context policy and
//! importer are still in `src/checks/settings/zeph.rs`, `src/simulate/zeph.rs` and
//! `src/import/zeph.rs`.

pub mod steps;
pub mod window;

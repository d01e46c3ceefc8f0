//! Zeph (the `zeph` preset; the `zeph-*` crates). Its settings checks and context policy are
//! still in `src/checks/settings/zeph.rs` and `src/simulate/zeph.rs`, its manifest section's
//! validation in `src/manifest/systems.rs`.

pub mod checks;
pub mod import;
pub mod measure;
pub mod settings;
pub mod steps;
pub mod window;

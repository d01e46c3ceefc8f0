//! Zeph (the `zeph` preset; the `zeph-*` crates). Its context policy is still in
//! `src/simulate/zeph.rs`.

pub mod checks;
pub mod import;
pub mod measure;
pub mod settings;
pub mod steps;
pub mod window;

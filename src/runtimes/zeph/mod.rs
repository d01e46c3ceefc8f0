//! Zeph (the `zeph` preset; the `zeph-*` crates).

pub mod checks;
pub mod import;
pub mod measure;
pub mod policy;
pub mod report;
pub mod settings;
pub mod steps;
pub mod window;

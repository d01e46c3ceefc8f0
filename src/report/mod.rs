//! The report stage: what the earlier stages found, as text for people and machines. Every
//! function returns a string; the command line prints it.

pub mod changes;
pub mod cost;
pub mod diagnostics;
pub mod escape;
pub mod formats;
pub mod host_view;
pub mod html;
pub mod prompt;
pub mod simulate;
mod systems;
mod table;
mod template;

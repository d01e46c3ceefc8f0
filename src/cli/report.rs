//! Diagnostics for people on stderr ([`ctxc::report::diagnostics`]), colour only when wanted.

use std::io::IsTerminal;

use super::ColorChoice;
use ctxc::diagnostic::{Diagnostic, Sources};

pub struct Reporter {
    color: bool,
}

impl Reporter {
    pub fn new(choice: ColorChoice) -> Self {
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal(),
        };
        Reporter { color }
    }

    /// Renders diagnostics as text.
    pub fn render(&self, diagnostics: &[Diagnostic], sources: &Sources) -> String {
        ctxc::report::diagnostics::render(diagnostics, sources, self.color)
    }

    pub fn diagnostics(&self, diagnostics: &[Diagnostic], sources: &Sources) {
        if !diagnostics.is_empty() {
            self.eprint(&self.render(diagnostics, sources));
        }
    }

    /// Writes diagnostics rendered by [`Reporter::render`] to stderr, their colour kept.
    pub fn eprint(&self, rendered: &str) {
        match self.color {
            true => super::output::eprint_coloured(rendered),
            false => super::output::eprint(rendered),
        }
    }

    /// Reports a usage error (no file to point at) and gives the exit code for it.
    pub fn usage(&self, message: impl Into<String>) -> u8 {
        self.diagnostics(&[Diagnostic::error(message)], &Sources::default());
        super::EXIT_INPUT
    }
}

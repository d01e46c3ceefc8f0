//! The one way the CLI writes to stdout and stderr (`print!` panics on a closed pipe).
//!
//! A reader that goes away (`ctxc cost | head -1`) is not an error: output stops there, quietly,
//! and the run keeps the exit status it earned, 0 for a command that succeeded and 1 when `check`
//! found something. So, like ripgrep, a closed pipe gives no message and no panic; unlike a C
//! program killed by SIGPIPE (141), it does not fail a `set -o pipefail` pipeline that only wanted
//! the first lines, and it cannot turn a gate's findings into success either. Any other failure to
//! write stdout (a full disk) is said once on stderr and makes the exit status 2.

use std::io::{self, ErrorKind, Write};
use std::sync::atomic::{AtomicU8, Ordering};

use super::EXIT_INPUT;
use ctxc::report::escape;

const OPEN: u8 = 0;
/// The reader went away: later output is dropped.
const CLOSED: u8 = 1;
/// Writing failed for another reason: later output is dropped, and the run fails.
const FAILED: u8 = 2;

static STDOUT: AtomicU8 = AtomicU8::new(OPEN);

/// Writes human text to stdout: the last guard of [`escape::terminal_text`] on it, after every
/// name and quote in it was escaped where it entered the text, so that nothing a pull request
/// wrote can drive a terminal or start a CI workflow command (a wrapped line included).
pub fn print(text: &str) {
    print_exact(&escape::terminal_text(text));
}

/// [`print`] and a line break.
pub fn println(text: &str) {
    print(text);
    print_exact("\n");
}

/// Writes text exactly as it is: a rendered prompt (the user's own preview), workflow commands
/// ctxc made, or text whose format escapes it by itself.
pub fn print_exact(text: &str) {
    print_with(|out| out.write_all(text.as_bytes()));
}

/// Writes JSON (or SARIF), made inert for a CI log by [`escape::json`].
pub fn print_json(json: &str) {
    print_exact(&escape::json(json));
}

/// Writes to stdout through `write` (for output serialized as it is written), then flushes. The
/// writer's type is concrete so that a serializer's many small writes are inlined.
pub fn print_with(write: impl FnOnce(&mut io::BufWriter<io::StdoutLock<'static>>) -> io::Result<()>) {
    if STDOUT.load(Ordering::Relaxed) != OPEN {
        return;
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = write(&mut out).and_then(|()| out.flush());
    if let Err(e) = written {
        let state = state_after(&e);
        STDOUT.store(state, Ordering::Relaxed);
        if state == FAILED {
            eprint_exact(&format!("ctxc: cannot write to standard output: {e}\n"));
        }
    }
}

/// Reads stdin as UTF-8 text, at most `limit` bytes (more is an error, not a truncation).
pub fn read_stdin(limit: u64) -> io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    io::stdin().lock().take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(ErrorKind::InvalidData, format!("more than {limit} bytes")));
    }
    String::from_utf8(bytes).map_err(|_| io::Error::new(ErrorKind::InvalidData, "not valid UTF-8"))
}

/// Writes human text to stderr, guarded as [`print`]. When stderr itself cannot be written
/// there is nobody left to tell, so the error is dropped.
pub fn eprint(text: &str) {
    eprint_exact(&escape::terminal_text(text));
}

/// [`eprint`] for diagnostics in colour: the colour sequences ctxc made are kept.
pub fn eprint_coloured(text: &str) {
    eprint_exact(&escape::terminal_text_keeping_colour(text));
}

fn eprint_exact(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// The exit status of a run that ended with `code`: at least 2 when stdout could not be written.
pub fn exit_code(code: u8) -> u8 {
    if STDOUT.load(Ordering::Relaxed) == FAILED {
        code.max(EXIT_INPUT)
    } else {
        code
    }
}

fn state_after(error: &io::Error) -> u8 {
    if error.kind() == ErrorKind::BrokenPipe {
        CLOSED
    } else {
        FAILED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_broken_pipe_is_quiet() {
        assert_eq!(state_after(&io::Error::from(ErrorKind::BrokenPipe)), CLOSED);
        assert_eq!(state_after(&io::Error::from(ErrorKind::StorageFull)), FAILED);
        // serde_json hands the writer's error back unchanged, so streamed JSON is covered too.
        let json: io::Error = serde_json::Error::io(io::Error::from(ErrorKind::BrokenPipe)).into();
        assert_eq!(state_after(&json), CLOSED);
    }
}

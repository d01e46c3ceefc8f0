//! Hostile input (issues 12, 26 and 27): the cases under tests/hostile/ (`cases`), the inputs
//! that used to hang ctxc or exhaust its memory (`limits`), a tree deeper than PATH_MAX
//! (`walk_errors`), and work that must grow linearly with the input (`scaling`). Each ctxc run
//! here is a child process measured with `wait4`; `scaling` counts this process's allocations,
//! so it runs its measurement in a process of its own.

mod cases;
mod limits;
mod scaling;
mod walk_errors;

use std::time::{Duration, Instant};

/// How a child ended, and what it alone used (from `wait4`: the process-wide count of children
/// would mix in every other test's children).
struct Ended {
    /// The wait status (`libc::WIFEXITED` and friends read it).
    status: libc::c_int,
    usage: libc::rusage,
    /// Whether it ran past the time allowed and was killed, with its process group.
    killed: bool,
}

/// Waits for `child`, which leads its own process group, killing the group once it has run for
/// `kill_after`.
#[allow(unsafe_code)]
fn wait_measured(child: &mut std::process::Child, kill_after: Duration) -> Ended {
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    let mut killed = false;
    loop {
        let mut status = 0;
        // SAFETY: plain data, filled in by wait4.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child, which nothing else reaps.
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if got == pid {
            return Ended { status, usage, killed };
        }
        assert!(
            got == 0 || std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted,
            "wait4: {}",
            std::io::Error::last_os_error()
        );
        if !killed && start.elapsed() > kill_after {
            // SAFETY: the child is not reaped yet, so its process group is still ours.
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

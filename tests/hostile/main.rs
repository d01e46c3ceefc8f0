//! Hostile input (issues 12, 26 and 27): the cases under tests/hostile/ (`cases`), the inputs
//! that used to hang ctxc or exhaust its memory (`limits`), a tree deeper than PATH_MAX
//! (`walk_errors`), and work that must grow linearly with the input (`scaling`). Each ctxc run
//! here is a child process measured with `wait4`; `scaling` counts this process's allocations,
//! so it runs its measurement in a process of its own.

mod cases;
mod limits;
mod scaling;
mod walk_errors;

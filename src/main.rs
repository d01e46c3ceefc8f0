// Output goes through src/cli/output.rs, which ends quietly on a closed pipe; the print macros would panic.
#![deny(clippy::print_stdout, clippy::print_stderr)]

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

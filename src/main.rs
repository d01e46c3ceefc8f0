#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

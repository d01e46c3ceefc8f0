fn main() -> std::process::ExitCode {
    ctxc::cli::main()
}

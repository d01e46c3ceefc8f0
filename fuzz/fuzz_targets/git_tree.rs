#![no_main]
// A hostile commit checked out as `ctxc diff --base` does (see src/git_tree.rs for the input format).
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::git_tree::run(data));

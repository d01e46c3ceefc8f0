#![no_main]
// A tree of agent files of every kind through `ctxc check`, `--diff` and `--fix` (see fuzz/src/check_tree.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::check_tree::run(data));

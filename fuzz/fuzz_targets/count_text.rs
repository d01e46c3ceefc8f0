#![no_main]
// A text counted by every encoder ctxc has, from its parts and whole (see fuzz/src/tokenizer_files.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::tokenizer_files::count_text(data));

#![no_main]
// A tokenizer file of any format, loaded as `--tokenizer` loads it, then counting (see fuzz/src/tokenizer_files.rs).
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::tokenizer_files::tokenizer_file(data));

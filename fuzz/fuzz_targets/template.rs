#![no_main]
// A module template rendered by ctxc's render stage (its minijinja environment, fuel and limits).
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::template(data));

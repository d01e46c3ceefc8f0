#![no_main]
// ctxc.lock: parse, and write back what parses.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::lock(data));

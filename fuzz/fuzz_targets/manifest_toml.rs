#![no_main]
// ctxc.toml: parse, validate, load the files it names, render every mode.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::manifest(data, ctxc::manifest::Format::Toml));

#![no_main]
// ctxc.yaml: parse, validate, load the files it names, render every mode.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::manifest(data, ctxc::manifest::Format::Yaml));

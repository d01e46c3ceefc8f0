#![no_main]
// SKILL.md: YAML frontmatter, name and description.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::skill(data));

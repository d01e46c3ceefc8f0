#![no_main]
// Tool files: OpenAI function arrays, MCP tools/list results, ctxc tool lists.
libfuzzer_sys::fuzz_target!(|data: &[u8]| ctxc_fuzz::tools(data));

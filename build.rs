//! Writes the rank tables of OpenAI's o200k_base and cl100k_base encodings, taken from tiktoken-rs,
//! in a compact form ctxc reads at start without decoding anything (src/tokens/bpe.rs): for each
//! rank from 0, one byte holding the token's length, then its bytes. tiktoken-rs parses a base64
//! text file and builds four tables from it each time it makes an encoder; ctxc only counts, so
//! it needs one table, and that one from bytes already decoded here.

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // (name, encoder, tokens): the ordinary tokens have ranks 0..tokens; special tokens come after a gap.
    let encodings = [("o200k_base", tiktoken_rs::o200k_base(), 199_998), ("cl100k_base", tiktoken_rs::cl100k_base(), 100_256)];
    for (name, encoder, tokens) in encodings {
        let encoder = encoder.expect("tiktoken-rs's bundled ranks");
        let mut table = Vec::new();
        for rank in 0..tokens {
            let bytes = encoder.decode_bytes(&[rank]).expect("every rank below the special tokens is a token");
            let len = u8::try_from(bytes.len()).expect("tokens are shorter than 256 bytes");
            assert!(len > 0, "{name}: empty token at rank {rank}");
            table.push(len);
            table.extend_from_slice(&bytes);
        }
        assert!(encoder.decode_bytes(&[tokens]).is_err(), "{name}: more than {tokens} ordinary tokens");
        std::fs::write(out.join(format!("{name}.ranks")), table).expect("write the rank table");
    }
}

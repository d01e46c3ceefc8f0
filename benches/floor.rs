//! The tokenizer floor of the benchmark (see bench/bench.py): the least work any tool can do to
//! count a project. It builds the encoders the project needs and counts each distinct text once
//! (every section and tool schema, written by bench/reference.py), on all cores. Nothing else:
//! no files are found or parsed, nothing is rendered, nothing is reported.
//!
//!     cargo bench --bench floor -- TEXTS.json

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use ctxc::models::Tokenizer;
use ctxc::tokens::encoder;

// The allocator ctxc uses (src/main.rs), so the floor is measured on equal terms.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let Some(path) = std::env::args().skip(1).find(|a| a.ends_with(".json")) else {
        eprintln!("usage: floor TEXTS.json (as written by bench/reference.py --texts)");
        std::process::exit(2);
    };
    let texts: BTreeMap<String, Vec<String>> = match std::fs::read_to_string(&path).map(|t| serde_json::from_str(&t)) {
        Ok(Ok(texts)) => texts,
        _ => {
            eprintln!("{path}: not a texts file written by bench/reference.py --texts");
            std::process::exit(2);
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for (encoding, texts) in &texts {
        let tokenizer = match encoding.as_str() {
            "o200k_base" => Tokenizer::O200kBase,
            "cl100k_base" => Tokenizer::Cl100kBase,
            other => {
                eprintln!("unknown encoding {other}");
                std::process::exit(2);
            }
        };
        let next = AtomicUsize::new(0);
        let total: usize = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut sum = 0;
                        while let Some(text) = texts.get(next.fetch_add(1, Ordering::Relaxed)) {
                            sum += encoder(tokenizer).count(text);
                        }
                        sum
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
        });
        println!("{encoding}: {} distinct texts, {total} tokens", texts.len());
    }
}

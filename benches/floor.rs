//! The tokenizer floor of the benchmark (see bench/bench.py): the least work any tool can do to
//! count a project. It builds the encoders the project needs and counts each distinct text once
//! (every section and tool schema, written by bench/reference.py), on all cores. Nothing else:
//! no files are found or parsed, nothing is rendered, nothing is reported.
//!
//!     cargo bench --bench floor -- TEXTS.json
//!
//! With `--read DIR` it times the other least work: every file under DIR read once and hashed
//! (xxh3, as ctxc hashes what it reads), on all cores. Any tool that costs the project reads its
//! files at least once, so this is the floor of the input side.
//!
//!     cargo bench --bench floor -- --read PROJECT

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use ctxc::models::Tokenizer;
use ctxc::tokens::encoder;

// The allocator ctxc uses (src/main.rs), so the floor is measured on equal terms.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|a| a == "--read") {
        let Some(dir) = args.get(at + 1) else {
            eprintln!("usage: floor --read DIR");
            std::process::exit(2);
        };
        read_every_file(std::path::Path::new(dir));
        return;
    }
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

/// Reads and hashes every file under `dir` on all cores, printing how many and how many bytes.
fn read_every_file(dir: &std::path::Path) {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            eprintln!("{}: cannot read this folder", folder.display());
            std::process::exit(2);
        };
        for entry in entries.flatten() {
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => folders.push(entry.path()),
                Ok(kind) if kind.is_file() => files.push(entry.path()),
                _ => {}
            }
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let (bytes, digest) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let (mut bytes, mut digest) = (0usize, 0u128);
                    while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let text = std::fs::read(file).unwrap_or_default();
                        bytes += text.len();
                        digest ^= xxhash_rust::xxh3::xxh3_128(&text);
                    }
                    (bytes, digest)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_default()).fold((0, 0), |(b, d), (wb, wd)| (b + wb, d ^ wd))
    });
    println!("{} files, {bytes} bytes read (digest {digest:032x})", files.len());
}

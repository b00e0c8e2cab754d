//! Mutation fuzzing of the tolerant reader without cargo-fuzz (which needs a nightly compiler):
//! a seeded generator mutates the legacy corpus and golden files line by line with the pieces
//! real files are made of, and every input is read in the tolerant, strict and lenient modes.
//! A panic is caught, counted and its input saved; whatever the tolerant mode accepts must also
//! write back and read back as the same model.
//!
//! `cargo run --release -p arbiter-trf --example fuzz_reader -- 10000000 [seed]`

use arbiter_trf::{ParseOptions, parse_bytes_with, parse_with, write};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::Instant;

/// What TRF lines are made of, legacy spellings included.
const PIECES: &[&str] = &[
    "0000 - U",
    "0000 - H",
    "0000 - Z",
    "0000 - =",
    "0000 - +",
    "0000 - -",
    "        ",
    "  12 w 1",
    "   1 b =",
    "   3 - +",
    "   3 - -",
    "10.09.13",
    "11.25.02",
    "01.09.30",
    "2013-09-10",
    "13/09/10",
    "1969.12.06",
    "1993-12-20",
    ".  .",
    "  .  .  ",
    "1969",
    "00/00",
    "132 ",
    "001 ",
    "013 ",
    "XXR 5",
    "XXC white1",
    "162  W 1.0",
    "###",
    "\r",
    "\n",
    "\r\n",
    "\t",
    "é",
    "\u{8A}",
    "\u{FFFF}",
    "9999",
    "0",
    "-9.9",
    ".5",
    "w",
    "b",
    "-",
    "=",
    "+",
];

fn corpus() -> Vec<Vec<u8>> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        here.join("tests/legacy"),
        here.join("../../tests/golden/dutch-2025-cases"),
    ] {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "trf"))
            .take(40)
        {
            out.push(std::fs::read(f).expect("corpus file"));
        }
    }
    assert!(!out.is_empty(), "no corpus files");
    out
}

fn mutate(rng: &mut ChaCha8Rng, mut v: Vec<u8>) -> Vec<u8> {
    for _ in 0..rng.random_range(1..=4) {
        let n = v.len();
        match rng.random_range(0..8) {
            0 if n > 0 => {
                let i = rng.random_range(0..n);
                v[i] = rng.random();
            }
            1 if n > 0 => {
                let i = rng.random_range(0..n);
                v[i] = b" 0123456789./-+=wbWBZHUF"[rng.random_range(0..24)];
            }
            2 | 3 => {
                // A piece over the bytes at a position: keeps the columns, as programs do.
                let p = PIECES[rng.random_range(0..PIECES.len())].as_bytes();
                let i = rng.random_range(0..=n);
                let end = (i + p.len()).min(n);
                v.splice(i..end, p.iter().copied());
            }
            4 => {
                let p = PIECES[rng.random_range(0..PIECES.len())].as_bytes();
                let i = rng.random_range(0..=n);
                v.splice(i..i, p.iter().copied());
            }
            5 if n > 0 => {
                let i = rng.random_range(0..n);
                let j = (i + rng.random_range(1..12)).min(n);
                v.drain(i..j);
            }
            6 => {
                let mut lines: Vec<Vec<u8>> =
                    v.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let k = lines.len();
                let (a, b) = (rng.random_range(0..k), rng.random_range(0..k));
                if rng.random_bool(0.5) {
                    lines.swap(a, b);
                } else {
                    let l = lines[a].clone();
                    lines.insert(b, l);
                }
                v = lines.join(&b'\n');
            }
            _ => {
                let i = rng.random_range(0..=n);
                v.truncate(i.max(n.saturating_sub(200)));
            }
        }
    }
    v
}

/// Reads in every mode; `Err` describes a model the tolerant mode accepted that does not read
/// back the same after writing.
fn read_all(input: &[u8]) -> Result<(), String> {
    let both = ParseOptions {
        lenient: true,
        tolerant: true,
    };
    for opts in [ParseOptions::default(), ParseOptions::lenient(), both] {
        let _ = parse_bytes_with(input, &opts);
    }
    if let Ok(t) = parse_bytes_with(input, &ParseOptions::tolerant()) {
        let text = write(&t.file).map_err(|e| format!("cannot write: {e}"))?;
        let back = parse_with(&text, &ParseOptions::tolerant())
            .map_err(|e| format!("written file refused: {e}"))?;
        if back.file != t.file {
            return Err("written file reads as another model".into());
        }
    }
    Ok(())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let corpus = corpus();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    std::panic::set_hook(Box::new(|_| {}));
    let (mut panics, mut mismatches, mut accepted) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for i in 0..count {
        let base = corpus[rng.random_range(0..corpus.len())].clone();
        let input = mutate(&mut rng, base);
        match catch_unwind(AssertUnwindSafe(|| read_all(&input))) {
            Ok(Ok(())) => accepted += 1,
            Ok(Err(m)) => {
                mismatches += 1;
                if mismatches <= 3 {
                    let path = std::env::temp_dir().join(format!("fuzz-mismatch-{seed}-{i}.trf"));
                    let _ = std::fs::write(&path, &input);
                    eprintln!("input {i}: {m} (saved as {})", path.display());
                }
            }
            Err(_) => {
                panics += 1;
                let path = std::env::temp_dir().join(format!("fuzz-panic-{seed}-{i}.trf"));
                let _ = std::fs::write(&path, &input);
                eprintln!("input {i}: PANIC (saved as {})", path.display());
            }
        }
        if (i + 1) % 1_000_000 == 0 {
            eprintln!(
                "{} inputs, {panics} panics, {:.0} inputs/s",
                i + 1,
                (i + 1) as f64 / start.elapsed().as_secs_f64()
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{count} inputs (seed {seed}, {} corpus files) in {secs:.1} s: {:.0} inputs/s, {panics} panics, {mismatches} write/read mismatches, {accepted} clean",
        corpus.len(),
        count as f64 / secs
    );
    if panics > 0 || mismatches > 0 {
        std::process::exit(1);
    }
}

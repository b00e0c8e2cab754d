//! Imports a generated 1,000,000-player text rating list into a rating registry on disk and
//! prints the time, the rate, the peak memory (VmHWM of /proc/self/status) and the size on
//! disk; then times lookups. Run: `cargo bench -p arbiter-rating-list`.
//! `ARBITER_BENCH_PLAYERS` changes the list size.

use arbiter_rating_list::{ImportOptions, Registry, synthetic};
use std::fs::File;
use std::io::BufWriter;
use std::time::Instant;

const FIRST_ID: u64 = 1_000_000;

fn status(key: &str) -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .map(|l| l[key.len()..].trim().to_string())
        })
        .unwrap_or_else(|| "n/a".into())
}

fn main() {
    // `cargo test --benches` runs bench targets without --bench: keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        println!("registry_import: run with `cargo bench -p arbiter-rating-list` for figures");
        return;
    }
    let players: u64 = std::env::var("ARBITER_BENCH_PLAYERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let dir = std::env::temp_dir().join(format!("arbiter-registry-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let list = dir.join("players_list_foa.txt");

    let t = Instant::now();
    synthetic::write_text_list(
        BufWriter::with_capacity(1 << 16, File::create(&list).expect("create list")),
        FIRST_ID,
        players,
    )
    .expect("write list");
    let size = std::fs::metadata(&list).map(|m| m.len()).unwrap_or(0);
    println!(
        "generated {players} player lines + header ({:.1} MB) in {:.2?}; VmHWM {}",
        size as f64 / 1e6,
        t.elapsed(),
        status("VmHWM:")
    );

    let registry = Registry::open(dir.join("registry")).expect("open registry");
    let t = Instant::now();
    let mut reports = 0;
    let report = registry
        .import_file(&list, &ImportOptions::default(), |p| {
            reports += 1;
            if reports % 5 == 0 {
                println!(
                    "  {} records, {}% read, {:.1?}, VmRSS {}",
                    p.records,
                    p.percent().unwrap_or(0),
                    p.elapsed,
                    status("VmRSS:")
                );
            }
        })
        .expect("import");
    let el = t.elapsed();
    println!(
        "imported {} records ({} players, {} errors) in {el:.2?} ({:.0} records/s); VmHWM {}, VmRSS {}; \
         registry on disk {:.1} MB",
        report.records,
        report.players,
        report.errors,
        report.records as f64 / el.as_secs_f64(),
        status("VmHWM:"),
        status("VmRSS:"),
        registry.size_on_disk().unwrap_or(0) as f64 / 1e6
    );
    assert_eq!(report.records, players);
    assert_eq!(report.players, players);
    assert_eq!(report.errors, 0);

    let lookups = 100_000u64;
    let t = Instant::now();
    let mut found = 0u64;
    for n in 0..lookups {
        let i = (n * 7_919) % players;
        if let Some(e) = registry.get(FIRST_ID + i).expect("lookup") {
            assert_eq!(e.fide_id, FIRST_ID + i);
            found += 1;
        }
    }
    let el = t.elapsed();
    println!(
        "{lookups} lookups in {el:.2?} ({:.0} lookups/s), {found} found; VmHWM {}",
        lookups as f64 / el.as_secs_f64(),
        status("VmHWM:")
    );
    assert_eq!(found, lookups);
    drop(registry);
    let _ = std::fs::remove_dir_all(&dir);
}

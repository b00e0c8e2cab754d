//! Screening bench (`cargo bench -p arbiter-screening`), with the real Stockfish at the
//! shipped quick profile:
//! 1. positions analysed per second per core (one worker, then all cores);
//! 2. the position cache's hit rate on a re-run of the same games;
//! 3. the calibration report (criteria: docs/src/benchmarks.md) of the shipped baseline on real
//!    human games that were left out of its fit, read in place from the directory
//!    SCREENING_HUMAN_GAMES (required; no games ship with the repository): every player's whole performance in each
//!    event of the held-out files (SCREENING_HELD_OUT, comma-separated; default the two classical
//!    open-tournament broadcasts), with the Watch rate per rating band against the policy's bar
//!    for it. SCREENING_CACHE names a position cache file to reuse.

use arbiter_screening::baseline::Baseline;
use arbiter_screening::cache::PositionCache;
use arbiter_screening::filter::positions_needed;
use arbiter_screening::human;
use arbiter_screening::pgn;
use arbiter_screening::policy::Policy;
use arbiter_screening::screen::Analyser;
use arbiter_screening::uci::{EnginePool, find_engine};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let engine = find_engine(None).expect("Stockfish (Debian package stockfish)");
    let baseline = Baseline::shipped();
    let policy = Policy::shipped();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Some(human_dir) = std::env::var_os("SCREENING_HUMAN_GAMES").map(PathBuf::from) else {
        eprintln!(
            "SCREENING_HUMAN_GAMES: name the folder of rated PGN games to read (the held-out \
             files and lichess-broadcast-grandswiss2025.pgn); no games ship with the repository"
        );
        std::process::exit(2);
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        println!("engine profile {} ({}), baseline {}", baseline.engine_profile.label, baseline.engine_profile_id, baseline.version);
        // 1. Throughput on distinct middlegame positions of real games.
        let sample = pgn::read_file(&human_dir.join("lichess-broadcast-grandswiss2025.pgn"), 16 << 20).expect("sample games");
        let mut fens: Vec<String> = sample.iter().take(20).flat_map(|g| positions_needed(g, &baseline.filter)).collect();
        fens.sort();
        fens.dedup();
        fens.truncate(400);
        for workers in [1, cores] {
            let pool = EnginePool::start(&engine, baseline.engine_profile.clone(), workers).await.expect("pool");
            let t = Instant::now();
            let jobs = fens.iter().map(|f| pool.analyse(f));
            for r in futures::future::join_all(jobs).await {
                r.expect("analysis");
            }
            let s = t.elapsed().as_secs_f64();
            println!(
                "throughput: {} positions, {workers} worker(s): {:.1} positions/s, {:.1} positions/s per core",
                fens.len(),
                fens.len() as f64 / s,
                fens.len() as f64 / s / workers as f64
            );
        }

        // 2 and 3. The held-out events, screened twice through one cache.
        let held: Vec<String> = std::env::var("SCREENING_HELD_OUT")
            .unwrap_or_else(|_| "lichess-broadcast-grandswiss2025.pgn,lichess-broadcast-lunahernandez.pgn".into())
            .split(',')
            .map(str::to_string)
            .collect();
        let mut events = Vec::new();
        for f in &held {
            let (games, skipped) = pgn::read_collection(&human_dir.join(f), 16 << 20).expect("a held-out file");
            if !skipped.is_empty() {
                eprintln!("{f}: {} games left out", skipped.len());
            }
            events.extend(human::events_of(f, games));
        }
        let cache_file = std::env::var_os("SCREENING_CACHE").map(PathBuf::from);
        let cache = Arc::new(match &cache_file {
            Some(p) => PositionCache::load(p).expect("the cache file"),
            None => PositionCache::new(),
        });
        let pool = EnginePool::start(&engine, baseline.engine_profile.clone(), cores).await.expect("pool");
        let binary = pool.binary_sha256().to_string();
        let analyser = Analyser { pool, cache: cache.clone(), filter: baseline.filter.clone() };
        let t = Instant::now();
        let mut decisions = Vec::new();
        for (_, games) in &events {
            decisions.push(analyser.games(games, &|| {}).await.expect("analysis"));
        }
        let first_s = t.elapsed().as_secs_f64();
        let games_screened: usize = events.iter().map(|(_, g)| g.len()).sum();
        let (h1, m1) = cache.counters();
        cache.reset_counters();
        let t = Instant::now();
        for (_, games) in &events {
            analyser.games(games, &|| {}).await.expect("analysis");
        }
        let (h2, m2) = cache.counters();
        println!(
            "cache: first run {h1} hits / {} lookups ({:.1} %), {:.0} s for {games_screened} games; re-run {h2} / {} ({:.1} %), {:.2} s",
            h1 + m1,
            100.0 * h1 as f64 / (h1 + m1).max(1) as f64,
            first_s,
            h2 + m2,
            100.0 * h2 as f64 / (h2 + m2).max(1) as f64,
            t.elapsed().as_secs_f64()
        );
        if let Some(p) = &cache_file {
            cache.save(p).expect("the cache file");
        }
        let r = human::report(&baseline, &policy, &binary, &events, &decisions);
        println!("baseline {} on {}", baseline.version, held.join(", "));
        print!("{}", r.table());
    });
}

//! Screening bench (`cargo bench -p arbiter-screening`), with the real Stockfish at the
//! shipped quick profile:
//! 1. positions analysed per second per core (one worker, then all cores);
//! 2. the position cache's hit rate on a re-run of the same games;
//! 3. the flag rate by rating band on real human games, read in place from a directory
//!    (default /work/shared/games/human, or SCREENING_HUMAN_GAMES): 3-game performances of
//!    one player in one event, at most SCREENING_BENCH_PERFS (default 6) per 200-point band.

use arbiter_screening::baseline::Baseline;
use arbiter_screening::cache::PositionCache;
use arbiter_screening::filter::positions_needed;
use arbiter_screening::pgn::{self, Game};
use arbiter_screening::policy::{FlagLevel, Policy};
use arbiter_screening::screen::{Analyser, Ratings, Versions, performances};
use arbiter_screening::uci::{EnginePool, find_engine};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

fn env_usize(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// 3-game performances (player, the player's first three games of one event), in file order.
fn human_performances(
    dir: &PathBuf,
    per_band: usize,
) -> BTreeMap<u16, Vec<(String, u16, Vec<Game>)>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the human games directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    let mut bands: BTreeMap<u16, Vec<(String, u16, Vec<Game>)>> = BTreeMap::new();
    for f in files {
        // As `arbiter screen` reads a collection: a variant game or one without a result is
        // left out (and said), the rest of the file kept.
        let games = match pgn::read_collection(&f, 16 * 1024 * 1024) {
            Ok((g, skipped)) => {
                if !skipped.is_empty() {
                    eprintln!("{}: {} games left out", f.display(), skipped.len());
                }
                g
            }
            Err(e) => {
                eprintln!("skipping {}: {e}", f.display());
                continue;
            }
        };
        // (event, player) -> games, in order of first appearance.
        let mut groups: Vec<((String, String), Vec<Game>)> = Vec::new();
        let mut index: BTreeMap<(String, String), usize> = BTreeMap::new();
        for g in games.iter().filter(|g| g.plies.len() >= 40) {
            for name in [&g.white, &g.black] {
                let key = (g.event.clone(), name.clone());
                let i = *index.entry(key.clone()).or_insert_with(|| {
                    groups.push((key, Vec::new()));
                    groups.len() - 1
                });
                groups[i].1.push(g.clone());
            }
        }
        let file_name = f
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        for ((_, player), gs) in groups.into_iter().filter(|(_, gs)| gs.len() >= 3) {
            let gs: Vec<Game> = gs.into_iter().take(3).collect();
            let own = |g: &Game| {
                if g.white == player {
                    g.white_elo
                } else {
                    g.black_elo
                }
            };
            let Some(rating) = own(&gs[0]) else { continue };
            let band = (rating / 200) * 200;
            let slot = bands.entry(band).or_default();
            // Spread the sample over the files: at most a third of a band from one file.
            let from_file = slot
                .iter()
                .filter(|(k, _, _)| k.starts_with(&file_name))
                .count();
            if slot.len() < per_band && from_file < per_band.div_ceil(3) {
                slot.push((format!("{file_name}: {player}"), rating, gs));
            }
        }
    }
    bands
}

fn main() {
    let engine = find_engine(None).expect("Stockfish (Debian package stockfish)");
    let baseline = Baseline::shipped();
    let policy = Policy::shipped();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let human_dir = std::env::var_os("SCREENING_HUMAN_GAMES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/shared/games/human"));
    let per_band = env_usize("SCREENING_BENCH_PERFS", 6);
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

        // 2 and 3. Human performances, screened twice through one cache.
        let bands = human_performances(&human_dir, per_band);
        let cache = Arc::new(PositionCache::new());
        let pool = EnginePool::start(&engine, baseline.engine_profile.clone(), cores).await.expect("pool");
        let versions = Versions::new(&baseline, &policy, pool.binary_sha256());
        let analyser = Analyser { pool, cache: cache.clone(), filter: baseline.filter.clone() };
        let t = Instant::now();
        let mut rows = Vec::new();
        let mut games_screened = 0;
        for (band, perfs) in &bands {
            let (mut flagged, mut significant, mut zs) = (0, 0, Vec::new());
            for (label, rating, games) in perfs {
                let player = label.split_once(": ").map(|x| x.1).unwrap_or_default();
                let decisions = analyser.games(games, &|| {}).await.expect("analysis");
                games_screened += games.len();
                let mut ratings = Ratings::new();
                ratings.insert(player.to_string(), *rating);
                let p = performances(games, &decisions, &ratings, &baseline, &policy, &versions)
                    .into_iter()
                    .find(|p| p.player == player)
                    .expect("the player's performance");
                flagged += usize::from(p.level >= FlagLevel::Watch);
                significant += usize::from(p.indicators.z_combined >= policy.significance);
                zs.push(p.z);
            }
            let mean = zs.iter().sum::<f64>() / zs.len().max(1) as f64;
            rows.push((*band, perfs.len(), flagged, significant, mean));
        }
        let first_s = t.elapsed().as_secs_f64();
        let (h1, m1) = cache.counters();
        cache.reset_counters();
        let t = Instant::now();
        for perfs in bands.values() {
            for (_, _, games) in perfs {
                analyser.games(games, &|| {}).await.expect("analysis");
            }
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
        println!("flag rate on real human 3-game performances (quick test, policy {}):", policy.version);
        println!("{:>10} {:>6} {:>8} {:>10} {:>8}", "band", "perfs", "watch", "z>=2.00", "mean z");
        let (mut n, mut f) = (0, 0);
        for (band, perfs, flagged, significant, mean) in rows {
            println!("{:>5}-{:<4} {perfs:>6} {flagged:>8} {significant:>10} {mean:>8.2}", band, band + 199);
            n += perfs;
            f += flagged;
        }
        println!("total: {f} Watch flags in {n} clean performances (policy nominal: {} per mille)", policy.nominal_false_watch_per_mille);
    });
}

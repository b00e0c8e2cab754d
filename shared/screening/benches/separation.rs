//! The separation experiment (docs/src/benchmarks.md) at full size (`cargo bench -p
//! arbiter-screening --bench separation`), with the real Stockfish at the shipped quick profile:
//! 3-game performances of engine-assisted players (the engine's own moves at a budget unlike the
//! screening profile's, claiming club ratings) and of "human-like" players (the engine weakened
//! reproducibly for their rating, `Strength::Sampled`), judged against the self-play baseline as
//! their class (honest classes against their own class's baseline).
//!
//! Prints the false flags among the clean performances (Watch, and the combined indicator at
//! Flag's 2.75, which a full test would need) against the policy's bars, whether the two groups'
//! z-scores overlap, the rank separation (AUC), and the cost. Sizes: SEPARATION_HONEST_PAIRS
//! (default 150, two performances each), SEPARATION_ENGINE_PAIRS (default 25),
//! SEPARATION_WORKERS (default: the cores). Every game is seeded: the same run plays the same
//! games.

use arbiter_screening::baseline::Baseline;
use arbiter_screening::cache::PositionCache;
use arbiter_screening::pgn;
use arbiter_screening::policy::{FlagLevel, Policy};
use arbiter_screening::screen::{Analyser, Ratings, Versions, performances};
use arbiter_screening::selfplay::{PlayerSpec, Strength, play_all};
use arbiter_screening::uci::{EnginePool, find_engine};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

/// Games stop (drawn) here, as in the CI-sized test: 50 decisions per side after the book.
const MAX_PLIES: usize = 110;
const HONEST_RATINGS: [u16; 7] = [1400, 1600, 1800, 2000, 2200, 2400, 2600];
const CLAIMED_RATINGS: [u16; 4] = [1600, 1800, 2000, 2200];

fn env_usize(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

fn spec(name: String, rating: u16, strength: Strength) -> PlayerSpec {
    PlayerSpec {
        name,
        rating,
        strength,
        nodes: 30_000,
    }
}

/// Three games between two players, colours alternating.
fn match_of_three(
    a: &PlayerSpec,
    b: &PlayerSpec,
    seed: u64,
    out: &mut Vec<(PlayerSpec, PlayerSpec, u64)>,
) {
    for g in 0..3u64 {
        if g % 2 == 0 {
            out.push((a.clone(), b.clone(), seed + g));
        } else {
            out.push((b.clone(), a.clone(), seed + g));
        }
    }
}

fn main() {
    let engine = find_engine(None).expect("Stockfish (Debian package stockfish)");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = env_usize("SEPARATION_WORKERS", cores);
    let honest_pairs = env_usize("SEPARATION_HONEST_PAIRS", 150);
    let engine_pairs = env_usize("SEPARATION_ENGINE_PAIRS", 25);
    let baseline = Baseline::selfplay();
    let policy = Policy::shipped();
    let mut pairs = Vec::new();
    for k in 0..engine_pairs {
        let r = |i: usize| CLAIMED_RATINGS[i % CLAIMED_RATINGS.len()];
        let a = spec(format!("Engine{}", 2 * k), r(2 * k), Strength::Full);
        let b = spec(format!("Engine{}", 2 * k + 1), r(2 * k + 1), Strength::Full);
        match_of_three(&a, &b, 10_000 + 10 * k as u64, &mut pairs);
    }
    for k in 0..honest_pairs {
        let r = HONEST_RATINGS[k % HONEST_RATINGS.len()];
        let a = spec(
            format!("Human{r}-{}", 2 * k),
            r,
            Strength::Sampled(u32::from(r)),
        );
        let b = spec(
            format!("Human{r}-{}", 2 * k + 1),
            r,
            Strength::Sampled(u32::from(r)),
        );
        match_of_three(&a, &b, 1_000_000 + 10 * k as u64, &mut pairs);
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let started = Instant::now();
        let texts = play_all(&engine, &pairs, "separation", MAX_PLIES, workers).await.expect("games");
        let played_s = started.elapsed().as_secs_f64();
        let games = pgn::parse(texts.concat().as_bytes(), "generated", 64 << 20).expect("generated games parse");
        let pool = EnginePool::start(&engine, baseline.engine_profile.clone(), workers).await.expect("pool");
        let versions = Versions::new(&baseline, &policy, pool.binary_sha256());
        let analyser = Analyser { pool, cache: Arc::new(PositionCache::new()), filter: baseline.filter.clone() };
        let t = Instant::now();
        let decisions = analyser.games(&games, &|| {}).await.expect("analysis");
        let analysed_s = t.elapsed().as_secs_f64();
        let perfs = performances(&games, &decisions, &Ratings::new(), &baseline, &policy, &versions);
        let (engines, honest): (Vec<_>, Vec<_>) = perfs.iter().partition(|p| p.player.starts_with("Engine"));
        let z = |p: &&arbiter_screening::screen::Performance| p.indicators.z_combined;
        let lowest_engine = engines.iter().map(z).min().unwrap_or(i32::MAX);
        let highest_honest = honest.iter().map(z).max().unwrap_or(i32::MIN);
        let overlap = honest.iter().filter(|p| z(p) >= lowest_engine).count();
        // AUC: the share of (engine, honest) pairs ranked the right way, ties counting half.
        let mut right = 0f64;
        for e in &engines {
            for h in &honest {
                right += match z(e).cmp(&z(h)) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
            }
        }
        let auc = right / (engines.len() * honest.len()).max(1) as f64;
        println!(
            "separation, quick profile {} against {}; {} games ({} plies at most) played in {:.0} s, analysed in {:.0} s on {workers} worker(s)",
            baseline.engine_profile.label, baseline.version, games.len(), MAX_PLIES, played_s, analysed_s
        );
        let mut by_rating: BTreeMap<u16, (usize, usize, usize, i32)> = BTreeMap::new();
        for p in &honest {
            let row = by_rating.entry(p.rating.unwrap_or(0)).or_insert((0, 0, 0, i32::MIN));
            row.0 += 1;
            row.1 += usize::from(p.level >= FlagLevel::Watch);
            row.2 += usize::from(p.indicators.z_combined >= policy.flag);
            row.3 = row.3.max(p.indicators.z_combined);
        }
        println!("{:>8} {:>6} {:>6} {:>9} {:>11}", "rating", "clean", "watch", "z>=2.75", "highest z");
        for (r, (n, w, s, hi)) in &by_rating {
            println!("{r:>8} {n:>6} {w:>6} {s:>9} {:>11.2}", f64::from(*hi) / 100.0);
        }
        let watch = honest.iter().filter(|p| p.level >= FlagLevel::Watch).count();
        let past_flag = honest.iter().filter(|p| p.indicators.z_combined >= policy.flag).count();
        println!(
            "clean: {} performances, {watch} Watch (policy: at most {} per mille), {past_flag} with combined z >= 2.75 (Flag under a full test; at most {} per mille)",
            honest.len(),
            policy.watch_bar_per_mille,
            policy.flag_bar_per_mille
        );
        let engine_watch = engines.iter().filter(|p| p.level >= FlagLevel::Watch).count();
        println!(
            "engine: {} performances, {engine_watch} Watch; lowest engine z {:.2}, highest clean z {:.2}, {overlap} clean at or above the lowest engine; AUC {:.4}",
            engines.len(),
            f64::from(lowest_engine) / 100.0,
            f64::from(highest_honest) / 100.0,
            auc
        );
    });
}

//! The full test with the real Stockfish (Debian package `stockfish`; .ci/run installs it):
//! wide analyses at the shipped full profile (20 candidates, 100,000 nodes), judged against the
//! shipped full baseline. A baseline holds only at the profile it was fitted with: at 8,000
//! nodes the analysis is shallow enough that weakened players sit 3-4 z below a law fitted at
//! 100,000, and engine players barely above it.
//! - Engine-assisted players against reproducibly weakened ones over 2-game performances:
//!   the combined indicators do not overlap, and every engine player's IPR lies above every
//!   weakened player's.
//! - The same games judged twice, from the cache, give the same bytes.

use arbiter_screening::cache::PositionCache;
use arbiter_screening::full::FullBaseline;
use arbiter_screening::pgn::{self, Game};
use arbiter_screening::policy::{FlagLevel, Policy, Tier};
use arbiter_screening::screen::{
    Analyser, Performance, Ratings, Scope, Versions, full_performances_of, games_of,
};
use arbiter_screening::selfplay::{PlayerSpec, Strength, play_all};
use arbiter_screening::uci::{EngineProfile, find_engine};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// Test games stop (drawn) here, as in the quick test's file.
const MAX_TEST_PLIES: usize = 100;
/// Nodes per wide analysis in this file: the shipped profile's.
const TEST_NODES: u64 = 100_000;

async fn games(engine: &Path, pairs: &[(PlayerSpec, PlayerSpec, u64)]) -> Vec<Game> {
    let texts = play_all(engine, pairs, "full test", MAX_TEST_PLIES, 2)
        .await
        .expect("games");
    pgn::parse(
        texts.concat().as_bytes(),
        "generated",
        pgn::DEFAULT_MAX_PGN_BYTES,
    )
    .expect("generated games parse")
}

async fn full_test(engine: &Path, games: &[Game], cache: Arc<PositionCache>) -> Vec<Performance> {
    full_test_of(engine, games, cache, Scope::EVERY_PLAYER).await
}

async fn full_test_of(
    engine: &Path,
    games: &[Game],
    cache: Arc<PositionCache>,
    scope: Scope<'_>,
) -> Vec<Performance> {
    let baseline = FullBaseline::shipped();
    let policy = Policy::shipped();
    let profile = EngineProfile {
        nodes: TEST_NODES,
        ..baseline.engine_profile.clone()
    };
    let analyser = Analyser::start(engine, profile, baseline.filter.clone(), 2, cache)
        .await
        .expect("pool");
    let versions = Versions::full(&baseline, &policy, analyser.binary_sha256());
    let decisions = analyser.games(games, &|| {}).await.expect("analysis");
    full_performances_of(
        scope,
        games,
        &decisions,
        &Ratings::new(),
        &baseline,
        &policy,
        &versions,
    )
}

fn player(name: &str, rating: u16, strength: Strength, nodes: u64) -> PlayerSpec {
    PlayerSpec {
        name: name.into(),
        rating,
        strength,
        nodes,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_full_test_separates_engine_players_and_rates_them_above_the_weakened_ones() {
    let engine = find_engine(None).expect("Stockfish is installed (.ci/run installs it)");
    let started = std::time::Instant::now();
    // Engine-assisted players claim club ratings; their moves are the engine's own choice at a
    // budget unlike the analysis profile's. They meet each other, and the weakened players
    // meet players of their own strength, so that games last (a lopsided game counts few
    // decisions).
    let cheats = [
        player("Engine A", 1700, Strength::Full, 40_000),
        player("Engine B", 1900, Strength::Full, 40_000),
    ];
    let honest = [
        player("Human 1600a", 1600, Strength::Sampled(1600), 20_000),
        player("Human 1600b", 1600, Strength::Sampled(1600), 20_000),
        player("Human 2000a", 2000, Strength::Sampled(2000), 20_000),
        player("Human 2000b", 2000, Strength::Sampled(2000), 20_000),
    ];
    // Two games per pair, colours alternating.
    let mut pairs = Vec::new();
    for (k, (a, b)) in [
        (&cheats[0], &cheats[1]),
        (&honest[0], &honest[1]),
        (&honest[2], &honest[3]),
    ]
    .into_iter()
    .enumerate()
    {
        for g in 0..2u64 {
            let seed = 100 * k as u64 + g;
            pairs.push(if g % 2 == 0 {
                (a.clone(), b.clone(), seed)
            } else {
                (b.clone(), a.clone(), seed)
            });
        }
    }
    let games = games(&engine, &pairs).await;
    let cache = Arc::new(PositionCache::new());
    let perfs = full_test(&engine, &games, cache.clone()).await;
    let of = |name: &str| perfs.iter().find(|p| p.player == name).expect(name);
    for p in &perfs {
        let i = p.ipr.expect("a full test carries an IPR");
        eprintln!(
            "{:<12} counted {:>3} zMM {:>5.2} zEV {:>5.2} zASD {:>5.2} z {:>5.2} IPR {} [{}..{}]{} {}",
            p.player,
            p.counted,
            p.z_mm,
            p.z_ev,
            p.z_asd,
            p.z,
            i.rating,
            i.low,
            i.high,
            if i.at_bound { " (bound)" } else { "" },
            p.flag
        );
        assert_eq!(p.tier, Tier::Full);
        assert!(
            p.counted >= 30,
            "{} has {} counted decisions",
            p.player,
            p.counted
        );
        assert!(i.low <= i.rating && i.rating <= i.high, "{i:?}");
        // The shipped full baseline is provisional: Watch at most.
        assert!(p.provisional && p.level <= FlagLevel::Watch);
    }
    let lowest_cheat = cheats
        .iter()
        .map(|c| of(&c.name).z)
        .fold(f64::MAX, f64::min);
    let highest_honest = honest
        .iter()
        .map(|h| of(&h.name).z)
        .fold(f64::MIN, f64::max);
    assert!(
        lowest_cheat > highest_honest,
        "combined indicators overlap: engine players from {lowest_cheat}, weakened ones up to {highest_honest}"
    );
    let ipr = |p: &PlayerSpec| of(&p.name).ipr.expect("ipr").rating;
    let lowest_cheat_ipr = cheats.iter().map(ipr).min().expect("two");
    let highest_honest_ipr = honest.iter().map(ipr).max().expect("four");
    assert!(
        lowest_cheat_ipr > highest_honest_ipr,
        "IPRs overlap: engine players from {lowest_cheat_ipr}, weakened ones up to {highest_honest_ipr}"
    );
    // Judged again from the cache: the same bytes, and no engine call.
    cache.reset_counters();
    let again = full_test(&engine, &games, cache.clone()).await;
    assert_eq!(cache.counters().1, 0, "a re-run is served from the cache");
    let json = |p: &[Performance]| serde_json::to_string(p).expect("json");
    assert_eq!(json(&perfs), json(&again));
    // In the policy's order the full test judges some players only, on their own games: the
    // same performance as among everyone, at the whole field's size, from the same analyses.
    let only: BTreeSet<String> = [cheats[0].name.clone()].into();
    let theirs = games_of(&games, &only);
    assert_eq!(theirs.len(), 2, "Engine A plays two games");
    let scope = Scope {
        players: Some(&only),
        field_size: Some(perfs.len() as u32),
    };
    let scoped = full_test_of(&engine, &theirs, cache.clone(), scope).await;
    assert_eq!(cache.counters().1, 0, "its games were analysed already");
    assert_eq!(json(&scoped), json(&[of(&cheats[0].name).clone()]));
    eprintln!("full test file: {:.1} s", started.elapsed().as_secs_f64());
}

#[test]
fn the_shipped_full_baseline_is_bound_to_the_full_profile_and_says_what_it_is_not() {
    let b = FullBaseline::shipped();
    assert_eq!(b.engine_profile, EngineProfile::full());
    assert_eq!(b.engine_profile.multipv, 20);
    assert_eq!(b.quality, "Provisional");
    assert!(b.what_it_is_not.contains("NOT a human baseline"));
    assert!(
        b.buckets
            .iter()
            .all(|k| k.decisions >= 100 && k.law.s_e6 > 0)
    );
    // Stronger buckets are more sensitive to small differences: the top bucket's law gives the
    // best move a higher share than the bottom one's on a typical spread of candidates.
    let typical = arbiter_screening::full::Wide {
        deltas_e4: vec![0, 300, 800, 1500, 2500, 4000],
        unranked: 20,
        played: Some(0),
        played_delta_e4: 0,
    };
    let share = |k: &arbiter_screening::full::FullBucket| k.law.expectation(&typical).mm_ppm;
    let (low, high) = (&b.buckets[0], &b.buckets[b.buckets.len() - 1]);
    assert!(share(high) > share(low), "{low:?} vs {high:?}");
    // The correlation matrices are symmetric with a unit diagonal.
    for i in 0..3 {
        assert_eq!(b.correlation_milli[i][i], 1000);
        for j in 0..3 {
            assert_eq!(b.correlation_milli[i][j], b.correlation_milli[j][i]);
        }
    }
    let fit = b
        .scores
        .expect("the shipped full baseline calibrates both scores");
    assert!(fit.phi_strength_milli >= 1000 && fit.phi_assistance_milli >= 1000);
    for i in 0..5 {
        assert_eq!(fit.correlation_milli[i][i], 1000);
        for j in 0..5 {
            assert_eq!(fit.correlation_milli[i][j], fit.correlation_milli[j][i]);
            assert!(fit.correlation_milli[i][j].abs() <= 1000);
        }
    }
    // The upper-left block is the three indicators' own matrix.
    for i in 0..3 {
        for j in 0..3 {
            assert_eq!(fit.correlation_milli[i][j], b.correlation_milli[i][j]);
        }
    }
    // Every shipped version is found by its name, the one before the scores too.
    assert_eq!(FullBaseline::by_version(&b.version), Some(b.clone()));
    let previous = FullBaseline::by_version("sf15.1-n100k-mpv20/selfplay-full-2026.11.2")
        .expect("the previous full baseline is still shipped");
    assert!(previous.scores.is_none());
    assert_eq!(FullBaseline::by_version("no such version"), None);
    // The human one: found by name, on the same profile, and its provenance holds the
    // leave-events-out reports with the quick-then-full order within the Flag bar.
    let human = FullBaseline::by_version("sf15.1-n100k-mpv20/human-full-2026.12.1")
        .expect("the human full baseline is shipped");
    assert_eq!(human.engine_profile_id, b.engine_profile_id);
    assert!(human.scores.is_some());
    let order = &human.how_made["leave_events_out"]["quick_then_full"];
    let (perfs, flags, bar) = (
        order["performances"].as_u64().expect("performances"),
        order["flags"].as_u64().expect("flags"),
        order["flag_bar_per_mille"].as_u64().expect("the Flag bar"),
    );
    assert!(perfs >= 100 && flags * 1000 <= bar * perfs, "{order}");
    // The one on today's FIDE scale says so, as the quick baseline fitted the same way does,
    // so that screening under it puts older games on that scale; its order is within the bar.
    let current = FullBaseline::by_version("sf15.1-n100k-mpv20/human-full-2026.12.2")
        .expect("the human full baseline on today's scale is shipped");
    assert!(arbiter_screening::human::fitted_on_current_fide_scale(
        &current.how_made
    ));
    assert!(!arbiter_screening::human::fitted_on_current_fide_scale(
        &human.how_made
    ));
    assert_eq!(current.engine_profile_id, b.engine_profile_id);
    let order = &current.how_made["leave_events_out"]["quick_then_full"];
    let (perfs, flags) = (
        order["performances"].as_u64().expect("performances"),
        order["flags"].as_u64().expect("flags"),
    );
    assert!(perfs >= 100 && flags * 1000 <= bar * perfs, "{order}");
    // With k: format 2, the same scale, every bucket's k fitted below 1 (the second and third
    // candidates are chosen more often than their deficit says), its order within the bar,
    // and the held-out T3 no longer biased: its mean within ±0.10 where 2026.12.2's was +0.70.
    let with_k = FullBaseline::by_version("sf15.1-n100k-mpv20/human-full-2026.12.3")
        .expect("the human full baseline with k is shipped");
    assert_eq!(with_k.format, arbiter_screening::full::FORMAT);
    assert!(arbiter_screening::human::fitted_on_current_fide_scale(
        &with_k.how_made
    ));
    assert!(
        with_k
            .buckets
            .iter()
            .all(|b| b.law.k_e6 < arbiter_screening::full::K_ONE),
        "{:?}",
        with_k.buckets
    );
    let order = &with_k.how_made["leave_events_out"]["quick_then_full"];
    let (perfs, flags) = (
        order["performances"].as_u64().expect("performances"),
        order["flags"].as_u64().expect("flags"),
    );
    assert!(perfs >= 100 && flags * 1000 <= bar * perfs, "{order}");
    let t3_mean = |b: &FullBaseline| {
        b.how_made["leave_events_out"]["three_game_performances"]["all"]["z_t3"]["mean_e2"]
            .as_i64()
            .expect("the three-game report's T3 mean")
    };
    assert!(t3_mean(&current) >= 50, "{}", t3_mean(&current));
    assert!(t3_mean(&with_k).abs() <= 10, "{}", t3_mean(&with_k));
}

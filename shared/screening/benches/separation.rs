//! The separation experiment (docs/src/benchmarks.md) at full size (`cargo bench -p
//! arbiter-screening --bench separation`), with the real Stockfish: 9-game performances of
//! three classes of players at each rating from 1400 to 2400, all seeded so the same run plays
//! the same games:
//! - clean: the engine weakened reproducibly for the rating (`Strength::Sampled`);
//! - 30 % assisted: the same player, who plays the engine's best line on 30 % of his moves
//!   (`Strength::Assisted`);
//! - fully assisted: the engine's own moves, claiming the rating (`Strength::Full`).
//!
//! Players meet in pods of ten of one rating (six clean, two of each assisted class), each a
//! round robin of nine rounds. Every game is analysed by the quick test (shipped quick profile,
//! the sampled players' quick baseline: the clean class is that weakened engine, judged against
//! its own class) and by the full test (shipped full profile and baseline, also fitted on
//! sampled players). Printed per class: performances,
//! Watch from the quick test, and how many reach the policy's Watch and Flag z on the full test
//! (Flag itself needs a calibrated baseline; the shipped ones are Provisional); the ROC points of
//! the full test's combined z; the cost.
//!
//! The clean class's rate at Flag, taken in the policy's order (the quick test raises Watch,
//! and only a Watch is given the full test), is measured more cheaply with
//! SEPARATION_POD_KIND=clean (pods of ten clean players) and SEPARATION_FULL=watched (the full
//! analysis only of the games of players the quick test raised to Watch): then the bench
//! prints that rate with its 95 % upper bound, and each Watch with both tests' z.
//!
//! Sizes: SEPARATION_PODS (pods per rating, default 3: 810 games), SEPARATION_POD_FROM (the
//! first pod's index, default 0: a later start plays only pods not measured before), SEPARATION_RATINGS
//! (comma-separated, default 1400,1600,...,2400), SEPARATION_FULL_NODES (the full analysis's
//! node budget, default the shipped profile's), SEPARATION_WORKERS (default: the cores),
//! SEPARATION_FULL_BASELINE and SEPARATION_QUICK_BASELINE (baseline files instead of the
//! shipped full one and the shipped sampled quick one), SEPARATION_FULL_FROM (the quick
//! combined z, in hundredths, from which the full test is asked; default Watch's).
//! SEPARATION_CACHE=DIR keeps each pod's played games (`games-<kind>-<rating>-<pod>.pgn`) and
//! every analysis (`positions.jsonl`) there, so that a re-run plays and analyses only what is
//! new: more pods add to those kept, and a new way of scoring is measured on the same games.

use arbiter_screening::baseline::Baseline;
use arbiter_screening::cache::PositionCache;
use arbiter_screening::full::{FullBaseline, Score};
use arbiter_screening::pgn::{self, Game};
use arbiter_screening::policy::{FlagLevel, Policy};
use arbiter_screening::screen::{
    Analyser, Performance, Ratings, Versions, full_performances, performances,
};
use arbiter_screening::selfplay::{PlayerSpec, Strength, play_all};
use arbiter_screening::uci::{EngineProfile, find_engine};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Games stop (drawn) here: about 50 decisions per side after the book.
const MAX_PLIES: usize = 110;
const RATINGS: [u16; 6] = [1400, 1600, 1800, 2000, 2200, 2400];
/// A mixed pod: six clean players, two 30 % assisted, two fully assisted.
const MIXED: [Class; 10] = [
    Class::Clean,
    Class::Clean,
    Class::Clean,
    Class::Clean,
    Class::Clean,
    Class::Clean,
    Class::Assisted30,
    Class::Assisted30,
    Class::Full,
    Class::Full,
];
/// A clean pod: ten clean players, for the clean class's false rate.
const CLEAN: [Class; 10] = [Class::Clean; 10];

/// Which players a pod seats (SEPARATION_POD_KIND).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PodKind {
    Mixed,
    Clean,
}

impl PodKind {
    fn name(self) -> &'static str {
        match self {
            PodKind::Mixed => "mixed",
            PodKind::Clean => "clean",
        }
    }

    fn classes(self) -> [Class; 10] {
        match self {
            PodKind::Mixed => MIXED,
            PodKind::Clean => CLEAN,
        }
    }

    /// Added to a pod's seed, so the two kinds of pod play apart.
    fn seed(self) -> u64 {
        match self {
            PodKind::Mixed => 0,
            PodKind::Clean => 500,
        }
    }
}
/// Quick-test combined z from which the full test may be asked (hundredths), compared in the
/// policy's order.
const FULL_FROM: [i32; 5] = [200, 175, 150, 125, 100];
/// Full-test combined z thresholds for the ROC points (hundredths).
const ROC: [i32; 8] = [150, 200, 250, 275, 300, 350, 400, 500];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Clean,
    Assisted30,
    Full,
}

impl Class {
    const ALL: [Class; 3] = [Class::Clean, Class::Assisted30, Class::Full];

    fn name(self) -> &'static str {
        match self {
            Class::Clean => "clean",
            Class::Assisted30 => "assisted30",
            Class::Full => "assisted100",
        }
    }

    fn of(player: &str) -> Class {
        Class::ALL
            .into_iter()
            .find(|c| player.starts_with(c.name()))
            .expect("every generated player is named by class")
    }
}

fn env_usize(k: &str, d: usize) -> usize {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

/// The games of one pod of `kind` at rating `r`: a round robin by the circle method, colours
/// alternating by round. Seeded by rating, pod and kind, so a pod plays the same games
/// whichever other pods are played beside it.
fn pod_pairings(r: u16, pod: usize, kind: PodKind) -> Vec<(PlayerSpec, PlayerSpec, u64)> {
    let players: Vec<PlayerSpec> = kind
        .classes()
        .iter()
        .enumerate()
        .map(|(i, &c)| PlayerSpec {
            // Mixed pods' players keep the names they were first measured under.
            name: match kind {
                PodKind::Mixed => format!("{} {r} pod {pod} #{i}", c.name()),
                PodKind::Clean => format!("{} {r} clean pod {pod} #{i}", c.name()),
            },
            rating: r,
            strength: match c {
                Class::Clean => Strength::Sampled(u32::from(r)),
                Class::Assisted30 => Strength::Assisted {
                    rating: u32::from(r),
                    per_mille: 300,
                },
                Class::Full => Strength::Full,
            },
            nodes: 30_000,
        })
        .collect();
    let n = players.len();
    let seed = 1_000_000 * u64::from(r) + 1_000 * pod as u64 + kind.seed();
    let mut out = Vec::new();
    for round in 0..n - 1 {
        for board in 0..n / 2 {
            let a = if board == 0 {
                n - 1
            } else {
                (round + board) % (n - 1)
            };
            let b = (round + n - 1 - board) % (n - 1);
            let (w, k) = if (round + board) % 2 == 0 {
                (a, b)
            } else {
                (b, a)
            };
            out.push((
                players[w].clone(),
                players[k].clone(),
                seed + (round * n + board) as u64,
            ));
        }
    }
    out
}

async fn analyse(
    engine: &Path,
    profile: EngineProfile,
    filter: arbiter_screening::filter::FilterConfig,
    games: &[Game],
    workers: usize,
    cache: Arc<PositionCache>,
) -> (Vec<Vec<arbiter_screening::filter::Decision>>, String, f64) {
    let analyser = Analyser::start(engine, profile, filter, workers, cache)
        .await
        .expect("engine pool");
    let binary = analyser.binary_sha256().to_string();
    let t = Instant::now();
    let d = analyser.games(games, &|| {}).await.expect("analysis");
    (d, binary, t.elapsed().as_secs_f64())
}

/// The share of (assisted, clean) pairs the score orders rightly, ties counting half.
fn auc(assisted: &[i32], clean: &[i32]) -> f64 {
    let mut right = 0f64;
    for &a in assisted {
        for &h in clean {
            right += match a.cmp(&h) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
    }
    right / (assisted.len() * clean.len()).max(1) as f64
}

fn per_mille(k: usize, n: usize) -> f64 {
    k as f64 * 1000.0 / n.max(1) as f64
}

/// The exact (Clopper-Pearson) one-sided 95 % upper bound of a rate seen k times in n, by
/// bisection on the binomial tail P(X <= k; n, p) = 0.05.
fn upper_bound_95(k: usize, n: usize) -> f64 {
    let tail = |p: f64| -> f64 {
        let mut term = (1.0 - p).powi(n as i32);
        let mut sum = term;
        for i in 0..k {
            term *= (n - i) as f64 / (i + 1) as f64 * p / (1.0 - p);
            sum += term;
        }
        sum
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if tail(mid) > 0.05 { lo = mid } else { hi = mid }
    }
    hi
}

fn main() {
    let engine = find_engine(None).expect("Stockfish (Debian package stockfish)");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = env_usize("SEPARATION_WORKERS", cores);
    let pods = env_usize("SEPARATION_PODS", 3);
    // The first pod index: pods already measured elsewhere need not be played again to add
    // new ones (each pod's games depend only on its rating, index and kind).
    let pod_from = env_usize("SEPARATION_POD_FROM", 0);
    let ratings: Vec<u16> = std::env::var("SEPARATION_RATINGS")
        .ok()
        .map(|v| {
            v.split(',')
                .map(|r| r.trim().parse().expect("SEPARATION_RATINGS: ratings"))
                .collect()
        })
        .unwrap_or_else(|| RATINGS.to_vec());
    let quick = match std::env::var_os("SEPARATION_QUICK_BASELINE") {
        Some(p) => {
            Baseline::parse(&std::fs::read_to_string(&p).expect("SEPARATION_QUICK_BASELINE"))
                .expect("SEPARATION_QUICK_BASELINE: a quick-test baseline")
        }
        None => Baseline::sampled(),
    };
    let full = match std::env::var_os("SEPARATION_FULL_BASELINE") {
        Some(p) => {
            FullBaseline::parse(&std::fs::read_to_string(&p).expect("SEPARATION_FULL_BASELINE"))
                .expect("SEPARATION_FULL_BASELINE: a full-test baseline")
        }
        None => FullBaseline::shipped(),
    };
    let full_profile = EngineProfile {
        nodes: env_usize("SEPARATION_FULL_NODES", full.engine_profile.nodes as usize) as u64,
        ..full.engine_profile.clone()
    };
    let policy = Policy::shipped();
    let kind = match std::env::var("SEPARATION_POD_KIND").as_deref() {
        Ok("clean") => PodKind::Clean,
        Ok("mixed") | Err(_) => PodKind::Mixed,
        Ok(k) => panic!("SEPARATION_POD_KIND: mixed or clean, not {k}"),
    };
    let watched_only = match std::env::var("SEPARATION_FULL").as_deref() {
        Ok("watched") => true,
        Ok("all") | Err(_) => false,
        Ok(k) => panic!("SEPARATION_FULL: all or watched, not {k}"),
    };
    // The quick z (hundredths) from which the full test is asked: SEPARATION_FULL_FROM,
    // default the policy's own trigger.
    let full_from = std::env::var("SEPARATION_FULL_FROM")
        .ok()
        .map(|v| {
            v.parse::<i32>()
                .expect("SEPARATION_FULL_FROM: a z in hundredths")
        })
        .unwrap_or(policy.watch);
    // Whether the quick test's z asks for the full test from trigger `t` (never under the
    // policy's minimum of counted decisions).
    let reaches = |p: &Performance, t: i32| {
        p.counted >= policy.min_counted_decisions && p.indicators.z_combined >= t
    };
    let pods_of: Vec<(u16, usize)> = ratings
        .iter()
        .flat_map(|&r| (pod_from..pod_from + pods).map(move |pod| (r, pod)))
        .collect();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let kept = std::env::var_os("SEPARATION_CACHE").map(std::path::PathBuf::from);
    if let Some(d) = &kept {
        std::fs::create_dir_all(d).expect("SEPARATION_CACHE: a folder");
    }
    let positions_file = kept.as_ref().map(|d| d.join("positions.jsonl"));
    let cache = Arc::new(match &positions_file {
        Some(f) => PositionCache::load(f).expect("SEPARATION_CACHE: positions"),
        None => PositionCache::new(),
    });
    let save = || {
        if let Some(f) = &positions_file {
            cache.save(f).expect("SEPARATION_CACHE: positions");
        }
    };
    rt.block_on(async {
        let started = Instant::now();
        // Pod by pod, each kept as soon as it is played: a run stopped part way keeps its pods.
        let mut text = String::new();
        for &(r, pod) in &pods_of {
            let file = kept
                .as_ref()
                .map(|d| d.join(format!("games-{}-{r}-{pod}.pgn", kind.name())));
            match file.as_ref().filter(|f| f.exists()) {
                Some(f) => text.push_str(&std::fs::read_to_string(f).expect("SEPARATION_CACHE: games")),
                None => {
                    let played = play_all(&engine, &pod_pairings(r, pod, kind), "separation", MAX_PLIES, workers)
                        .await
                        .expect("games")
                        .concat();
                    if let Some(f) = &file {
                        std::fs::write(f, &played).expect("SEPARATION_CACHE: games");
                    }
                    text.push_str(&played);
                }
            }
        }
        let played_s = started.elapsed().as_secs_f64();
        let games = pgn::parse(text.as_bytes(), "generated", 256 << 20)
            .expect("generated games parse");
        assert_eq!(games.len(), pods_of.len() * 45, "the kept games are this run's");
        let (qd, binary, quick_s) = analyse(
            &engine,
            quick.engine_profile.clone(),
            quick.filter.clone(),
            &games,
            workers,
            cache.clone(),
        )
        .await;
        save();
        let qv = Versions::new(&quick, &policy, &binary);
        let quick_perfs = performances(&games, &qd, &Ratings::new(), &quick, &policy, &qv);
        assert!(
            quick_perfs.iter().all(|p| p.games == 9),
            "every player plays nine games"
        );
        // The policy's order: the full test is asked only for the players whose quick z
        // reaches `full_from` (Watch by default), so with SEPARATION_FULL=watched only their
        // games are analysed wide.
        let watched: std::collections::BTreeSet<&str> = quick_perfs
            .iter()
            .filter(|p| p.level >= FlagLevel::Watch || reaches(p, full_from))
            .map(|p| p.player.as_str())
            .collect();
        let wide: Vec<usize> = (0..games.len())
            .filter(|&i| {
                !watched_only
                    || watched.contains(games[i].white.as_str())
                    || watched.contains(games[i].black.as_str())
            })
            .collect();
        let wide_games: Vec<Game> = wide.iter().map(|&i| games[i].clone()).collect();
        let (fd, binary, full_s) = analyse(
            &engine,
            full_profile.clone(),
            full.filter.clone(),
            &wide_games,
            workers,
            cache.clone(),
        )
        .await;
        save();
        let fv = Versions::full(&full, &policy, &binary);
        let full_perfs: Vec<Performance> =
            full_performances(&wide_games, &fd, &Ratings::new(), &full, &policy, &fv)
                .into_iter()
                .filter(|p| !watched_only || watched.contains(p.player.as_str()))
                .collect();
        println!(
            "separation: {} games ({} {} pods of 10 from index {pod_from} at {:?}, {MAX_PLIES} plies at most), 9-game performances; played in {played_s:.0} s, quick analysis ({}) {quick_s:.0} s, full analysis ({}, {} nodes) of {} games {full_s:.0} s, {workers} worker(s)",
            games.len(),
            pods,
            kind.name(),
            ratings,
            quick.engine_profile.label,
            full_profile.label,
            full_profile.nodes,
            wide_games.len(),
        );
        // Flag in the policy's order: a Watch from the quick test, then the full test's
        // combined z at the Flag level. The 95 % upper bound is the exact binomial one.
        println!("policy's order: class, performances, Watch (quick), Flag (quick Watch, then full z >= {:.2}), 95 % upper bound of the Flag rate", f64::from(policy.flag) / 100.0);
        for c in Class::ALL {
            let n = quick_perfs.iter().filter(|p| Class::of(&p.player) == c).count();
            if n == 0 {
                continue;
            }
            let w = quick_perfs
                .iter()
                .filter(|p| Class::of(&p.player) == c && p.level >= FlagLevel::Watch)
                .count();
            let flags = full_perfs
                .iter()
                .filter(|p| {
                    Class::of(&p.player) == c
                        && watched.contains(p.player.as_str())
                        && p.indicators.z_combined >= policy.flag
                })
                .count();
            println!(
                "  {:<12} {n:>6} {w:>6} ({:>5.1}‰) {flags:>6} ({:>5.1}‰), at most {:.1}‰",
                c.name(),
                per_mille(w, n),
                per_mille(flags, n),
                1000.0 * upper_bound_95(flags, n)
            );
        }
        // The quick test's combined z per class: how well its baseline fits the clean class
        // (mean 0, sd 1 when it fits) and how far the assisted ones stand from it.
        println!("quick test's combined z: class, mean, sd, lowest, highest");
        for c in Class::ALL {
            let zs: Vec<f64> = quick_perfs
                .iter()
                .filter(|p| Class::of(&p.player) == c)
                .map(|p| f64::from(p.indicators.z_combined) / 100.0)
                .collect();
            if zs.is_empty() {
                continue;
            }
            let n = zs.len() as f64;
            let mean = zs.iter().sum::<f64>() / n;
            let sd = (zs.iter().map(|z| (z - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
            let (lo, hi) = zs.iter().fold((f64::MAX, f64::MIN), |(a, b), &z| (a.min(z), b.max(z)));
            println!("  {:<12} {mean:>6.2} {sd:>6.2} {lo:>6.2} {hi:>6.2}", c.name());
        }
        // The same order with the full test asked from lower quick z: per class, how many
        // are asked, reach Watch (quick Watch, or full z at Watch's level) and Flag. With
        // SEPARATION_FULL=watched only triggers at or above SEPARATION_FULL_FROM are known.
        println!("the policy's order by the quick z from which the full test is asked: trigger, then per class asked / Watch (either test) / Flag, and the Flag rate's 95 % upper bound");
        for t in FULL_FROM.into_iter().filter(|&t| !watched_only || t >= full_from) {
            let mut line = format!("  quick z >= {:.2}:", f64::from(t) / 100.0);
            for c in Class::ALL {
                let q: Vec<&Performance> = quick_perfs.iter().filter(|p| Class::of(&p.player) == c).collect();
                if q.is_empty() {
                    continue;
                }
                let full_z = |p: &Performance| full_perfs.iter().find(|f| f.player == p.player).map(|f| f.indicators.z_combined);
                let on = |p: &Performance| reaches(p, t);
                let asked_n = q.iter().filter(|p| on(p)).count();
                let watch = q
                    .iter()
                    .filter(|p| p.level >= FlagLevel::Watch || (on(p) && full_z(p).is_some_and(|z| z >= policy.watch)))
                    .count();
                let flags = q.iter().filter(|p| on(p) && full_z(p).is_some_and(|z| z >= policy.flag)).count();
                line.push_str(&format!(
                    "  {} {}/{}/{} of {} (≤ {:.1}‰)",
                    c.name(),
                    asked_n,
                    watch,
                    flags,
                    q.len(),
                    1000.0 * upper_bound_95(flags, q.len())
                ));
            }
            println!("{line}");
        }
        println!("each performance asked for the full test: player, quick z, full z");
        for p in quick_perfs.iter().filter(|p| watched.contains(p.player.as_str()) || Class::of(&p.player) == Class::Full) {
            let f = full_perfs.iter().find(|f| f.player == p.player);
            println!(
                "  {:<32} {:>6.2} {:>6}",
                p.player,
                f64::from(p.indicators.z_combined) / 100.0,
                f.map_or("-".into(), |f| format!("{:.2}", f64::from(f.indicators.z_combined) / 100.0))
            );
        }
        if watched_only {
            return;
        }
        let of = |perfs: &[Performance], c: Class| -> Vec<Performance> {
            perfs.iter().filter(|p| Class::of(&p.player) == c).cloned().collect()
        };
        println!(
            "{:<12} {:>6} {:>12} {:>16} {:>16} {:>16} {:>12}",
            "class", "perfs", "quick Watch", "full z>=watch", "either Watch", "full z>=flag", "median full z"
        );
        for c in Class::ALL {
            let q = of(&quick_perfs, c);
            let f = of(&full_perfs, c);
            let watch = q.iter().filter(|p| p.level >= FlagLevel::Watch).count();
            let fw = f.iter().filter(|p| p.indicators.z_combined >= policy.watch).count();
            // Watch from either test: the quick one's level or the full one's z.
            let either = q
                .iter()
                .filter(|p| {
                    p.level >= FlagLevel::Watch
                        || f.iter().any(|x| x.player == p.player && x.indicators.z_combined >= policy.watch)
                })
                .count();
            let ff = f.iter().filter(|p| p.indicators.z_combined >= policy.flag).count();
            let mut zs: Vec<i32> = f.iter().map(|p| p.indicators.z_combined).collect();
            zs.sort_unstable();
            let median = zs.get(zs.len() / 2).copied().unwrap_or(0);
            println!(
                "{:<12} {:>6} {:>5} ({:>5.1}‰) {:>7} ({:>5.1}‰) {:>7} ({:>5.1}‰) {:>7} ({:>5.1}‰) {:>12.2}",
                c.name(),
                f.len(),
                watch,
                per_mille(watch, q.len()),
                fw,
                per_mille(fw, f.len()),
                either,
                per_mille(either, q.len()),
                ff,
                per_mille(ff, f.len()),
                f64::from(median) / 100.0
            );
        }
        // Each performance's indicators side by side: the policy's combined z and the parts it
        // may be made of, the two scores at the law of the player's rating with the baseline's
        // φ (1 when it has none). How a signal is measured before it enters the policy.
        let fit = full.scores;
        let mut scores: std::collections::BTreeMap<String, (Score, Score)> = Default::default();
        for (g, ds) in wide_games.iter().zip(&fd) {
            for d in ds {
                let (Some(_), Some(w)) = (&d.counted, &d.wide) else { continue };
                let (name, elo) = if d.white { (&g.white, g.white_elo) } else { (&g.black, g.black_elo) };
                let law = full.law_at(elo).0;
                let e = scores.entry(name.clone()).or_default();
                e.0.add(&law.strength_term(w));
                e.1.add(&law.assistance_term(w));
            }
        }
        let names = ["combined", "MM", "ASD", "strength", "assistance"];
        let stats = |p: &Performance| -> [i32; 5] {
            let (st, asz) = &scores[&p.player];
            let (ps, pa) = fit.map_or((1000, 1000), |f| (f.phi_strength_milli, f.phi_assistance_milli));
            let i = &p.indicators;
            // The policy's own path computes the same when the baseline calibrates the scores.
            let (zs, za) = (st.z(ps), asz.z(pa));
            assert!(i.z_strength.is_none_or(|z| z == zs) && i.z_assistance.is_none_or(|z| z == za));
            [i.z_combined, i.z_mm, i.z_asd, zs, za]
        };
        println!(
            "{:<11} {:>16} {:>16} {:>16} {:>9} {:>9} {:>11}",
            "indicator", "clean 2.00/2.75", "30% 2.00/2.75", "full 2.00/2.75", "AUC 30%", "AUC full", "clean mean²"
        );
        for (k, name) in names.iter().enumerate() {
            let zs: Vec<Vec<i32>> = Class::ALL
                .iter()
                .map(|&c| of(&full_perfs, c).iter().map(|p| stats(p)[k]).collect())
                .collect();
            let rate = |v: &Vec<i32>, t: i32| per_mille(v.iter().filter(|&&z| z >= t).count(), v.len());
            let both = |v: &Vec<i32>| format!("{:.0}/{:.0}‰", rate(v, policy.watch), rate(v, policy.flag));
            let ms = zs[0].iter().map(|&z| (f64::from(z) / 100.0).powi(2)).sum::<f64>()
                / zs[0].len().max(1) as f64;
            println!(
                "{:<11} {:>16} {:>16} {:>16} {:>9.4} {:>9.4} {:>11.2}",
                name,
                both(&zs[0]),
                both(&zs[1]),
                both(&zs[2]),
                auc(&zs[1], &zs[0]),
                auc(&zs[2], &zs[0]),
                ms
            );
        }
        // How often each class plays the analysis's first choice, and loses, on the full test.
        for c in Class::ALL {
            let f = of(&full_perfs, c);
            let n = f.len().max(1) as f64;
            println!(
                "  {:<12} MM {:.3} (law expects {:.3}), ASD {:.4}, counted decisions per performance {:.0}",
                c.name(),
                f.iter().map(|p| p.mm_rate).sum::<f64>() / n,
                f.iter().map(|p| p.expected_mm_rate).sum::<f64>() / n,
                f.iter().map(|p| p.asd).sum::<f64>() / n,
                f.iter().map(|p| p.counted as f64).sum::<f64>() / n,
            );
        }
        // By rating: where the classes overlap.
        println!("by rating: class, then the full test's combined z of each performance, ascending");
        for &r in &ratings {
            for c in Class::ALL {
                let mut zs: Vec<i32> = of(&full_perfs, c)
                    .iter()
                    .filter(|p| p.rating == Some(r))
                    .map(|p| p.indicators.z_combined)
                    .collect();
                zs.sort_unstable();
                let zs: Vec<String> = zs.iter().map(|z| format!("{:.2}", f64::from(*z) / 100.0)).collect();
                println!("  {r} {:<12} {}", c.name(), zs.join(" "));
            }
        }
        // ROC of the full test's combined z: at each threshold, the share of each class at or
        // above it (the clean class's is the false rate).
        println!("ROC, full test: threshold, then per mille of clean / 30 % assisted / fully assisted at or above it");
        let classes: Vec<Vec<i32>> = Class::ALL
            .iter()
            .map(|&c| of(&full_perfs, c).iter().map(|p| p.indicators.z_combined).collect())
            .collect();
        for t in ROC {
            let at = |zs: &Vec<i32>| per_mille(zs.iter().filter(|&&z| z >= t).count(), zs.len());
            println!(
                "  z >= {:.2}: {:>6.1} / {:>6.1} / {:>6.1}",
                f64::from(t) / 100.0,
                at(&classes[0]),
                at(&classes[1]),
                at(&classes[2])
            );
        }
        // AUC of each assisted class against the clean one.
        for (k, name) in [(1, "30 % assisted"), (2, "fully assisted")] {
            println!("AUC, full test, {name} against clean: {:.4}", auc(&classes[k], &classes[0]));
        }
    });
}

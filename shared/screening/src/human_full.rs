//! The full test fitted on rated human games, and what it does on clean human play it has not
//! seen (the criteria: docs/src/benchmarks.md).
//!
//! Written by hand for the reason [`crate::human`] is: the folds, the fits and the order in
//! which a performance is judged are the method an auditor re-runs.
//!
//! - Fit: the same selection as the quick test's human baseline ([`human::select`]); each
//!   game-side's counted decisions, with their wide analysis, go to the bucket nearest the
//!   mover's rating; per bucket the move-probability law, then φ and R from performances of
//!   three consecutive game-sides of one bucket ([`crate::calibrate::fit_full`]).
//! - Leave-events-out: the events are dealt into folds by [`human::fold_of`], as the quick
//!   test's are, and each fold is judged by a full baseline fitted without it, twice over:
//!   its real performances (a player's games in one event) and its 3-game performances of one
//!   bucket (what φ is fitted on, so every held-out game counts even when its player's other
//!   games were not selected), each when it reaches the policy's minimum of counted decisions.
//!   Levels are taken as if the baseline were Production, so a Flag is counted where one would
//!   be raised.
//! - The production order: Flag is asked of the full test only for a performance the quick
//!   test raised to Watch. So the quick test's own leave-events-out is run on a (larger)
//!   selection, each performance it raises to Watch is analysed wide and judged by the full
//!   baseline fitted without that performance's fold: the share that ends at Flag is the rate
//!   the policy's Flag bar is about.

use crate::baseline::Baseline;
use crate::cache::PositionCache;
use crate::calibrate::{FullInput, fit_full, placeholder};
use crate::filter::{Counted, Decision, FilterConfig};
use crate::full::{ByPlace, FullBaseline, Wide};
use crate::human::{self, Judged, Report, Taken, fold_of, report_of};
use crate::pgn::Game;
use crate::policy::{Context, FlagLevel, Policy, Tier};
use crate::screen::{Analyser, Ratings, Versions, full_performances};
use crate::uci::{EngineError, EngineProfile};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// One game-side of the fit: its bucket, its event's fold and its counted decisions.
struct Side {
    bucket: usize,
    fold: usize,
    own: Vec<(Counted, Wide)>,
}

/// The game-sides of `taken` (each with its analysis) whose mover's rating is within half a
/// bucket of a centre of `ratings`, in selection order, White before Black.
fn sides(ratings: &[u16], taken: &[Taken], analysed: &[Vec<Decision>], folds: usize) -> Vec<Side> {
    let mut out = Vec::new();
    for (t, ds) in taken.iter().zip(analysed) {
        let fold = fold_of(&t.event, folds);
        for (elo, white) in [(t.game.white_elo, true), (t.game.black_elo, false)] {
            let Some(r) = elo else { continue };
            let Some(bucket) = human::nearest_bucket(ratings, r) else {
                continue;
            };
            let own = ds
                .iter()
                .filter(|d| d.white == white)
                .filter_map(|d| Some((d.counted?, d.wide.clone()?)))
                .collect();
            out.push(Side { bucket, fold, own });
        }
    }
    out
}

/// The full baseline fitted, as `template` says, on the game-sides `keep` accepts; with
/// `near`, a fit on most of the same sides, each law is searched near that one's.
fn fit_on(
    template: &FullBaseline,
    ratings: &[u16],
    sides: &[Side],
    keep: &dyn Fn(&Side) -> bool,
    near: Option<&FullBaseline>,
) -> (FullBaseline, usize) {
    let inputs: Vec<FullInput> = ratings
        .iter()
        .enumerate()
        .map(|(b, &rating)| {
            let mine: Vec<&Side> = sides.iter().filter(|s| s.bucket == b && keep(s)).collect();
            FullInput {
                rating,
                games: mine.len() as u32,
                law: mine
                    .iter()
                    .flat_map(|s| s.own.iter().map(|(_, w)| w.clone()))
                    .collect(),
                groups: vec![mine.iter().map(|s| s.own.clone()).collect()],
            }
        })
        .collect();
    let laws: Vec<crate::full::Law> = near
        .map(|n| n.buckets.iter().map(|b| b.law).collect())
        .unwrap_or_default();
    let parts = fit_full(
        &inputs,
        near.map(|n| (laws.as_slice(), n.unrated.law)),
        &template.engine_profile,
        &template.filter,
    );
    let pseudo = parts.pseudo;
    (parts.into_baseline(template.clone()), pseudo)
}

/// A judgement at the full tier as if the baseline were Production.
fn level(policy: &Policy, z: &crate::stats::Indicators, counted: u64, field: u32) -> FlagLevel {
    policy.flag(
        z,
        &Context {
            tier: Tier::Full,
            counted,
            field_size: field,
            pre_identified: false,
            observational_evidence: false,
            provisional: false,
        },
    )
}

/// A performance the quick test raised to Watch, and what the full test then said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WatchFollowed {
    pub event: String,
    pub player: String,
    pub rating: u16,
    pub games: u32,
    /// The quick test's combined z (hundredths) and counted decisions.
    pub quick_z: i32,
    pub quick_counted: u64,
    /// The full test's, by the baseline fitted without this performance's fold.
    pub full_z: i32,
    pub full_counted: u64,
    pub full_level: FlagLevel,
}

/// The production order measured: quick test on every held-out performance, full test on
/// those it raised to Watch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pipeline {
    /// The quick test's leave-events-out report on its selection.
    pub quick: Report,
    pub performances: u32,
    pub watch: Vec<WatchFollowed>,
    /// Performances that end at Flag (or higher), over `performances`.
    pub flags: u32,
    pub flag_bar_per_mille: u32,
}

impl Pipeline {
    pub fn passes(&self) -> bool {
        u64::from(self.flags) * 1000
            <= u64::from(self.flag_bar_per_mille) * u64::from(self.performances)
    }

    pub fn table(&self) -> String {
        use std::fmt::Write;
        let mut out = format!(
            "quick then full: {} held-out performances, {} raised to Watch by the quick test, {} of them at Flag or above by the full test ({:.1} per mille; allowed {}):\n",
            self.performances,
            self.watch.len(),
            self.flags,
            f64::from(self.flags) * 1000.0 / f64::from(self.performances.max(1)),
            self.flag_bar_per_mille
        );
        for w in &self.watch {
            let _ = writeln!(
                out,
                "  {} ({}), {}: {} games, quick z {:.2} on {} decisions, full z {:.2} on {}: {}",
                w.player,
                w.rating,
                w.event,
                w.games,
                f64::from(w.quick_z) / 100.0,
                w.quick_counted,
                f64::from(w.full_z) / 100.0,
                w.full_counted,
                w.full_level.as_str()
            );
        }
        out
    }
}

/// What a full calibration on human games gives.
pub struct FullFitted {
    pub baseline: FullBaseline,
    /// Real held-out performances judged by the full test fitted without their fold.
    pub performances: Report,
    /// Held-out 3-game performances of one bucket, judged the same way.
    pub pseudo: Report,
    pub pipeline: Option<Pipeline>,
    /// The fitted laws' shape against the decisions they were fitted on.
    pub by_place: ByPlace,
}

/// The full test fitted on all of `taken` and by leave-events-out.
pub struct Cross {
    /// Fitted on every game, and how many 3-game performances its φ and R rest on.
    pub all: FullBaseline,
    pub all_pseudo: usize,
    /// Real held-out performances, and 3-game ones, each judged by the fit without its fold.
    pub performances: Report,
    pub pseudo: Report,
    /// Fold k's baseline, fitted without it.
    pub folds: Vec<FullBaseline>,
    /// Every side's decisions against its bucket's law fitted on all the games.
    pub by_place: ByPlace,
}

/// The full test's leave-events-out over `taken` (analysed wide).
pub fn leave_events_out(
    template: &FullBaseline,
    ratings: &[u16],
    policy: &Policy,
    binary_sha256: &str,
    taken: &[Taken],
    analysed: &[Vec<Decision>],
    folds: usize,
) -> Cross {
    let folds = folds.max(2);
    let all = sides(ratings, taken, analysed, folds);
    let (everything, all_pseudo) = fit_on(template, ratings, &all, &|_| true, None);
    let mut names = Vec::new();
    let (mut real, mut pseudo) = (Vec::new(), Vec::new());
    // The folds' fits are independent: one thread each (the answer does not depend on it).
    let fitted: Vec<FullBaseline> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..folds)
            .map(|k| {
                let (all, everything) = (&all, &everything);
                scope.spawn(move || {
                    fit_on(template, ratings, all, &|s| s.fold != k, Some(everything)).0
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a fold's fit does not panic"))
            .collect()
    });
    for (k, baseline) in fitted.iter().enumerate() {
        // Real performances: the fold's games, event by event.
        let mut held: BTreeMap<&str, (Vec<Game>, Vec<Vec<Decision>>)> = BTreeMap::new();
        for (t, ds) in taken.iter().zip(analysed) {
            if fold_of(&t.event, folds) == k {
                let e = held.entry(&t.event).or_default();
                e.0.push(t.game.clone());
                e.1.push(ds.clone());
            }
        }
        let versions = Versions::full(baseline, policy, binary_sha256);
        for (event, (games, ds)) in &held {
            names.push(event.to_string());
            let perfs = full_performances(games, ds, &Ratings::new(), baseline, policy, &versions);
            let field = perfs.len() as u32;
            for p in perfs {
                let Some(r) = p.rating else { continue };
                if p.counted < policy.min_counted_decisions {
                    continue;
                }
                let l = level(policy, &p.indicators, p.counted, field);
                real.push((r / 200 * 200, (p.counted, p.indicators, l)));
            }
        }
        // 3-game performances: three consecutive held-out game-sides of one bucket.
        for (b, &rating) in ratings.iter().enumerate() {
            let mine: Vec<&Side> = all
                .iter()
                .filter(|s| s.bucket == b && s.fold == k)
                .collect();
            for chunk in mine.chunks(3).filter(|c| c.len() == 3) {
                let own: Vec<(&Counted, &Wide)> = chunk
                    .iter()
                    .flat_map(|s| s.own.iter().map(|(c, w)| (c, w)))
                    .collect();
                let (t, z) = crate::full::judge(baseline, baseline.buckets[b].law, &own);
                if t.n < policy.min_counted_decisions {
                    continue;
                }
                let judged: Judged = (t.n, z, level(policy, &z, t.n, 3));
                pseudo.push((rating / 200 * 200, judged));
            }
        }
    }
    names.sort();
    let judged: Vec<(&Wide, crate::full::Law)> = all
        .iter()
        .flat_map(|s| {
            let law = everything.buckets[s.bucket].law;
            s.own.iter().map(move |(_, w)| (w, law))
        })
        .collect();
    let by_place = ByPlace::of(&judged);
    Cross {
        by_place,
        all: everything,
        all_pseudo,
        performances: report_of(names.clone(), policy, real, true),
        pseudo: report_of(names, policy, pseudo, true),
        folds: fitted,
    }
}

/// Fits the full test on `train` (the human games a [`human::Selection`] took), reports its
/// leave-events-out over `folds` folds and, when `quick_train` is given, measures the
/// production order on it ([`Pipeline`]): its quick leave-events-out against a baseline
/// fitted as `quick_template` was, and the full test on each performance raised to Watch.
/// `sources` is recorded in the artefact's provenance, with the reports.
#[allow(clippy::too_many_arguments)]
pub async fn calibrate(
    engine: &Path,
    profile: EngineProfile,
    filter: FilterConfig,
    ratings: &[u16],
    train: &[Taken],
    folds: usize,
    quick_train: Option<(&Baseline, &[Taken])>,
    workers: usize,
    cache: Arc<PositionCache>,
    version: &str,
    sources: serde_json::Value,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<FullFitted, EngineError> {
    let folds = folds.max(2);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total =
        std::sync::atomic::AtomicUsize::new(train.len() + quick_train.map_or(0, |(_, q)| q.len()));
    let tick = || {
        progress(
            done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
            total.load(std::sync::atomic::Ordering::Relaxed),
        )
    };
    let wide = Analyser::start(
        engine,
        profile.clone(),
        filter.clone(),
        workers,
        cache.clone(),
    )
    .await?;
    let binary = wide.binary_sha256().to_string();
    let games: Vec<Game> = train.iter().map(|t| t.game.clone()).collect();
    let analysed = wide.games(&games, &tick).await?;

    let template = FullBaseline {
        version: version.to_string(),
        what_it_is: "Move-probability laws of rated human players in classical games, per rating bucket, fitted on public game collections: the full test's expectations and IPR".into(),
        what_it_is_not: "Not a Production baseline: its buckets rest on a few hundred game-sides each, from collections that mix events, eras and federations; every result judged against it is Provisional (Watch at most). Its leave-events-out reports are in how_made".into(),
        engine_binary_sha256: binary.clone(),
        ..placeholder(&profile, &filter)
    };
    let policy = Policy::shipped();
    let Cross {
        all: baseline,
        all_pseudo: pseudo_count,
        performances,
        pseudo,
        folds: fitted,
        by_place,
    } = leave_events_out(
        &template, ratings, &policy, &binary, train, &analysed, folds,
    );

    let pipeline = match quick_train {
        None => None,
        Some((quick_template, quick_games)) => {
            let quick = Analyser::start(
                engine,
                quick_template.engine_profile.clone(),
                quick_template.filter.clone(),
                workers,
                cache.clone(),
            )
            .await?;
            let qgames: Vec<Game> = quick_games.iter().map(|t| t.game.clone()).collect();
            let qanalysed = quick.games(&qgames, &tick).await?;
            let quick_binary = quick.binary_sha256().to_string();
            let (names, held) = human::leave_events_out_judged(
                quick_template,
                ratings,
                &policy,
                &quick_binary,
                quick_games,
                &qanalysed,
                folds,
            );
            let quick_report = human::held_report(names, &policy, &held);
            let raised: Vec<&human::HeldOut> = held
                .iter()
                .filter(|h| h.judged.2 >= FlagLevel::Watch)
                .collect();
            total.fetch_add(
                raised
                    .iter()
                    .map(|h| games_of(quick_games, &h.event, &h.player).len())
                    .sum(),
                std::sync::atomic::Ordering::Relaxed,
            );
            let mut watch = Vec::new();
            for h in raised {
                let gs = games_of(quick_games, &h.event, &h.player);
                let ds = wide.games(&gs, &tick).await?;
                let fold = &fitted[fold_of(&h.event, folds)];
                let versions = Versions::full(fold, &policy, &binary);
                let perfs = full_performances(&gs, &ds, &Ratings::new(), fold, &policy, &versions);
                let Some(p) = perfs.into_iter().find(|p| p.player == h.player) else {
                    continue;
                };
                watch.push(WatchFollowed {
                    event: h.event.clone(),
                    player: h.player.clone(),
                    rating: p.rating.unwrap_or(0),
                    games: p.games,
                    quick_z: h.judged.1.z_combined,
                    quick_counted: h.judged.0,
                    full_z: p.indicators.z_combined,
                    full_counted: p.counted,
                    full_level: level(&policy, &p.indicators, p.counted, p.field_size),
                });
            }
            Some(Pipeline {
                performances: quick_report.all.performances,
                flags: watch
                    .iter()
                    .filter(|w| w.full_level >= FlagLevel::Flag)
                    .count() as u32,
                flag_bar_per_mille: policy.flag_bar_per_mille,
                quick: quick_report,
                watch,
            })
        }
    };

    let rating_scale = if human::selected_on_current_fide_scale(&sources) {
        "FIDE ratings on the scale since 1 March 2024: a game's ratings from before that day raised as FIDE raised them then; files of a national scale as tagged"
    } else {
        "FIDE ratings as the sources give them"
    };
    let baseline = FullBaseline {
        how_made: serde_json::json!({
            "method": "human games (selection below) analysed with the wide engine profile below; each side's counted decisions in the bucket nearest the mover's rating (within half a bucket); per bucket the move-probability law exp(-(delta/s)^c) fitted by maximum likelihood over a fixed grid; phi and R from performances of three consecutive game-sides of one bucket",
            "sources": sources,
            "games": train.len(),
            "performances_for_phi_and_r": pseudo_count,
            "rating_scale": rating_scale,
            "fit_by_place": &by_place,
            "leave_events_out": {
                "folds": folds,
                "method": "the events dealt into folds by the SHA-256 of their names (as the quick test's); each fold judged by a full baseline fitted the same way on the other folds' games, levels taken as if it were Production",
                "performances": performances,
                "three_game_performances": pseudo,
                "quick_then_full": pipeline,
            },
        }),
        ..baseline
    };
    Ok(FullFitted {
        baseline,
        performances,
        pseudo,
        pipeline,
        by_place,
    })
}

/// The games of `taken` in `event` that `player` played, in selection order.
fn games_of(taken: &[Taken], event: &str, player: &str) -> Vec<Game> {
    taken
        .iter()
        .filter(|t| t.event == event && (t.game.white == player || t.game.black == player))
        .map(|t| t.game.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::full::Law;

    /// One game's decisions: 20 a side, White's drawn from `law` (or the best move when
    /// `white_engine`), Black's likewise; the quick quantities follow from the wide ones.
    fn decisions(law: Law, seed: u64, white_engine: bool, black_engine: bool) -> Vec<Decision> {
        crate::full::tests::sample(law, 40, seed)
            .into_iter()
            .enumerate()
            .map(|(k, w)| {
                let white = k % 2 == 0;
                let w = if (white && white_engine) || (!white && black_engine) {
                    Wide {
                        played: Some(0),
                        played_delta_e4: 0,
                        ..w
                    }
                } else {
                    w
                };
                let place = w.played.unwrap_or(u16::MAX);
                Decision {
                    ply: 17 + k,
                    white,
                    counted: Some(Counted {
                        mm: place == 0,
                        ev: w.played_delta_e4 == 0,
                        t3: place < 3,
                        cpl: (w.played_delta_e4 / 100) as i32,
                        delta_e4: w.played_delta_e4,
                        gap_cp: (w.deltas_e4[1] / 100) as i32,
                    }),
                    skipped: None,
                    wide: Some(w),
                }
            })
            .collect()
    }

    /// An event of four players rated 2000 who meet each other once (6 games, 3 a player);
    /// `engine` players always play the best move.
    fn event(name: &str, engine: bool, seed: u64) -> Vec<(Taken, Vec<Decision>)> {
        let law = Law {
            s_e6: 120_000,
            c_e6: 800_000,
            k_e6: crate::full::K_ONE,
        };
        let players = ["A", "B", "C", "D"].map(|p| format!("{name} {p}"));
        let mut out = Vec::new();
        let mut game_seed = seed * 1000;
        for (round, w) in players.iter().enumerate() {
            for b in &players[round + 1..] {
                let text = format!(
                    "[Event \"{name}\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2000\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"
                );
                let game = crate::pgn::parse(text.as_bytes(), "t", 1 << 20)
                    .expect("a test game parses")
                    .remove(0);
                game_seed += 1;
                out.push((
                    Taken {
                        event: format!("t.pgn: {name}"),
                        game,
                    },
                    decisions(law, game_seed, engine, engine),
                ));
            }
        }
        out
    }

    /// Every event is judged once, by a full baseline fitted without its fold: the engine
    /// players of one event reach Flag, clean players of five others (almost) never do, and
    /// the engine event's fold is judged by laws that never saw it.
    #[test]
    fn the_full_test_judges_every_event_by_laws_fitted_without_it() {
        let mut data = Vec::new();
        for e in 0..5 {
            data.extend(event(&format!("Open {e}"), false, e));
        }
        data.extend(event("Engines", true, 99));
        let (taken, analysed): (Vec<Taken>, Vec<Vec<Decision>>) = data.into_iter().unzip();
        let ratings = [1800, 2000, 2200];
        let policy = Policy::shipped();
        let template = FullBaseline::shipped();
        let Cross {
            all: everything,
            performances: real,
            pseudo,
            folds: fitted,
            ..
        } = leave_events_out(&template, &ratings, &policy, "x", &taken, &analysed, 4);
        let mut events: Vec<String> = taken.iter().map(|t| t.event.clone()).collect();
        events.dedup();
        events.sort();
        assert_eq!(real.held_out_events, events);
        assert_eq!(real.all.performances, 6 * 4, "{}", real.table());
        assert_eq!(real.flag_bar_per_mille, policy.flag_bar_per_mille);
        // The four engine players, and at most one clean player by chance.
        assert!((4..=5).contains(&real.all.flag), "{}", real.table());
        // 72 game-sides in 3-game performances (of 60 decisions) within each fold; the engine
        // event's 12 sides are consecutive, so at least 3 of its performances are engine play
        // alone.
        assert!(pseudo.all.performances >= 20, "{}", pseudo.table());
        assert!(pseudo.all.flag >= 3, "{}", pseudo.table());
        // The engine event's fold was fitted without it: its law is weaker than the law
        // fitted on everything, which saw the engines.
        let k = fold_of("t.pgn: Engines", 4);
        assert!(
            fitted[k].buckets[1].law.s_e6 > everything.buckets[1].law.s_e6,
            "{:?} against {:?}",
            fitted[k].buckets[1].law,
            everything.buckets[1].law
        );
    }
}

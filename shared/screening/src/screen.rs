//! Screening a set of games: engine analysis through the pool and cache, then per-player
//! performances judged against the baseline and the policy. The analysis is the only part
//! that needs the engine; [`performances`] is pure and deterministic (players sorted by name,
//! games in file order).

use crate::baseline::Baseline;
use crate::cache::PositionCache;
use crate::filter::{Counted, Decision, FilterConfig, SkipReason, decisions, positions_needed};
use crate::full::{self, FullBaseline, Ipr, Wide};
use crate::pgn::Game;
use crate::policy::{Context, FlagLevel, Policy, Tier};
use crate::stats::{Indicators, Tally};
use crate::uci::{Analysis, EngineError, EnginePool, EngineProfile};
use futures::StreamExt;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// Engine analysis of games, through a shared cache.
pub struct Analyser {
    pub pool: EnginePool,
    pub cache: Arc<PositionCache>,
    pub filter: FilterConfig,
}

impl Analyser {
    /// `workers` engine processes at `profile`, reading and filling `cache`.
    pub async fn start(
        engine: &std::path::Path,
        profile: EngineProfile,
        filter: FilterConfig,
        workers: usize,
        cache: Arc<PositionCache>,
    ) -> Result<Analyser, EngineError> {
        let pool = EnginePool::start(engine, profile, workers).await?;
        Ok(Analyser {
            pool,
            cache,
            filter,
        })
    }

    /// The SHA-256 of the engine binary, which results name.
    pub fn binary_sha256(&self) -> &str {
        self.pool.binary_sha256()
    }

    /// The decisions of one game.
    pub async fn game(&self, game: &Game) -> Result<Vec<Decision>, EngineError> {
        let id = self.pool.profile().id();
        let mut fens = positions_needed(game, &self.filter);
        fens.sort();
        fens.dedup();
        let answers = futures::future::join_all(fens.iter().map(|fen| async {
            if let Some(a) = self.cache.get(&id, fen) {
                return Ok::<_, EngineError>((fen.clone(), a));
            }
            let a = self.pool.analyse(fen).await?;
            self.cache.put(&id, fen, a.clone());
            Ok((fen.clone(), a))
        }))
        .await;
        let analyses: HashMap<String, Analysis> = answers.into_iter().collect::<Result<_, _>>()?;
        Ok(decisions(game, &analyses, &self.filter))
    }

    /// The decisions of every game, in order; `progress` is called as each game finishes.
    pub async fn games(
        &self,
        games: &[Game],
        progress: &(dyn Fn() + Sync),
    ) -> Result<Vec<Vec<Decision>>, EngineError> {
        // A few games in flight keep every worker busy across game boundaries.
        let mut stream = futures::stream::iter(games.iter().map(|g| async move {
            let r = self.game(g).await;
            progress();
            r
        }))
        .buffered(4);
        let mut out = Vec::with_capacity(games.len());
        while let Some(r) = stream.next().await {
            out.push(r?);
        }
        Ok(out)
    }
}

/// The versions a result was computed with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Versions {
    pub engine_profile: String,
    pub engine_profile_id: String,
    pub engine_binary_sha256: String,
    pub baseline: String,
    pub baseline_sha256: String,
    pub policy: String,
    pub software: String,
}

impl Versions {
    pub fn new(baseline: &Baseline, policy: &Policy, engine_binary_sha256: &str) -> Versions {
        let artefact = (
            &baseline.engine_profile,
            &baseline.engine_profile_id,
            &baseline.version,
        );
        Versions::of(artefact, baseline.sha256(), policy, engine_binary_sha256)
    }

    /// The versions of a full test.
    pub fn full(baseline: &FullBaseline, policy: &Policy, engine_binary_sha256: &str) -> Versions {
        let artefact = (
            &baseline.engine_profile,
            &baseline.engine_profile_id,
            &baseline.version,
        );
        Versions::of(artefact, baseline.sha256(), policy, engine_binary_sha256)
    }

    fn of(
        (profile, profile_id, version): (&EngineProfile, &String, &String),
        baseline_sha256: String,
        policy: &Policy,
        engine_binary_sha256: &str,
    ) -> Versions {
        Versions {
            engine_profile: profile.label.clone(),
            engine_profile_id: profile_id.clone(),
            engine_binary_sha256: engine_binary_sha256.to_string(),
            baseline: version.clone(),
            baseline_sha256,
            policy: policy.version.clone(),
            software: concat!("arbiter-screening ", env!("CARGO_PKG_VERSION")).to_string(),
        }
    }
}

/// One player's performance in the screened games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Performance {
    /// The name as in the PGN.
    pub player: String,
    pub rating: Option<u16>,
    /// The baseline bucket used.
    pub bucket: Option<u16>,
    pub games: u32,
    /// The player's own moves.
    pub moves: u64,
    pub counted: u64,
    pub skipped: BTreeMap<SkipReason, u64>,
    pub mm_rate: f64,
    pub ev_rate: f64,
    pub t3_rate: f64,
    pub expected_mm_rate: f64,
    pub acpl: f64,
    pub asd: f64,
    pub z_mm: f64,
    pub z_ev: f64,
    pub z_t3: f64,
    pub z_asd: f64,
    /// Full test, when its baseline calibrates them: the strength and assistance scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z_strength: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z_assistance: Option<f64>,
    /// The combined screening indicator (internal estimate, never "the FIDE z-score").
    pub z: f64,
    pub flag: &'static str,
    pub tier: Tier,
    pub provisional: bool,
    pub field_size: u32,
    pub intrusive_threshold: f64,
    /// Full test only: the intrinsic performance rating on the baseline's scale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ipr: Option<Ipr>,
    pub versions: Versions,
    #[serde(skip)]
    pub tally: Tally,
    #[serde(skip)]
    pub indicators: Indicators,
    #[serde(skip)]
    pub level: FlagLevel,
}

/// Where a player's rating comes from: an explicit table (e.g. a TRF) first, else the PGN.
pub type Ratings = HashMap<String, u16>;

/// How one player's counted decisions are judged: the tally with its expectations, the
/// indicators, whether the result is provisional, the bucket used and (full test) the IPR.
pub struct Judged {
    pub tally: Tally,
    pub indicators: Indicators,
    pub provisional: bool,
    pub bucket: Option<u16>,
    pub ipr: Option<Ipr>,
}

/// The games and ratings on the rating scale the baseline was fitted on, when that differs
/// from theirs: a baseline fitted on ratings put on the FIDE scale since 1 March 2024 judges a
/// game of before that day at its players' ratings on that scale, and an explicit rating (a
/// TRF's, a registration's) at the date of the first game. `None` when nothing changes.
pub fn on_baseline_scale(
    how_made: &serde_json::Value,
    games: &[Game],
    ratings: &Ratings,
) -> Option<(Vec<Game>, Ratings)> {
    if !crate::human::fitted_on_current_fide_scale(how_made) {
        return None;
    }
    let games_now: Vec<Game> = games
        .iter()
        .map(crate::human::rated_on_current_fide_scale)
        .collect();
    let ratings_now: Ratings = match games.first() {
        Some(first) => ratings
            .iter()
            .map(|(name, &r)| (name.clone(), crate::human::on_current_fide_scale(r, first)))
            .collect(),
        None => ratings.clone(),
    };
    let changed = games_now
        .iter()
        .zip(games)
        .any(|(n, o)| (n.white_elo, n.black_elo) != (o.white_elo, o.black_elo))
        || ratings_now != *ratings;
    changed.then_some((games_now, ratings_now))
}

/// Per-player performances over the games (quick tier), sorted by player name.
pub fn performances(
    games: &[Game],
    decisions: &[Vec<Decision>],
    ratings: &Ratings,
    baseline: &Baseline,
    policy: &Policy,
    versions: &Versions,
) -> Vec<Performance> {
    let rescaled = on_baseline_scale(&baseline.how_made, games, ratings);
    let (games, ratings) = rescaled.as_ref().map_or((games, ratings), |(g, r)| (g, r));
    assemble(
        games,
        decisions,
        ratings,
        policy,
        versions,
        Tier::Quick,
        Scope::EVERY_PLAYER,
        &|rating, per_game| {
            let (bucket, within) = baseline.bucket(rating);
            let mut tally = Tally::default();
            for c in per_game.iter().flatten().filter_map(|d| d.counted.as_ref()) {
                tally.add(c, &bucket.cells[baseline.class(c.gap_cp)].expect);
            }
            Judged {
                indicators: baseline.indicators(&tally),
                tally,
                provisional: baseline.quality != "Production" || !within,
                bucket: rating.map(|_| bucket.rating),
                ipr: None,
            }
        },
    )
}

/// Per-player performances under the full test: the decisions must come from a
/// wide analysis with the full baseline's profile. Each decision's expectations come from
/// the move-probability law at the player's rating, the combined indicator is weighted by the
/// baseline's correlations, and each performance carries its IPR.
pub fn full_performances(
    games: &[Game],
    decisions: &[Vec<Decision>],
    ratings: &Ratings,
    baseline: &FullBaseline,
    policy: &Policy,
    versions: &Versions,
) -> Vec<Performance> {
    full_performances_of(
        Scope::EVERY_PLAYER,
        games,
        decisions,
        ratings,
        baseline,
        policy,
        versions,
    )
}

/// Which players a screening judges, and the size of the field they were judged in.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    /// `None`: every player of the games.
    pub players: Option<&'a BTreeSet<String>>,
    /// `None`: the players of the games. The policy's threshold for intrusive action rises
    /// with the field, so a full test of a few players' games gives the whole event's.
    pub field_size: Option<u32>,
}

impl Scope<'_> {
    pub const EVERY_PLAYER: Scope<'static> = Scope {
        players: None,
        field_size: None,
    };
}

/// The full test of some players only, in the order the policy asks for it: for the
/// performances the quick test raised to Watch (or players singled out), on their own games
/// (the other games need no wide analysis), with the field size of the whole event. Sorted
/// by player name.
pub fn full_performances_of(
    scope: Scope<'_>,
    games: &[Game],
    decisions: &[Vec<Decision>],
    ratings: &Ratings,
    baseline: &FullBaseline,
    policy: &Policy,
    versions: &Versions,
) -> Vec<Performance> {
    let rescaled = on_baseline_scale(&baseline.how_made, games, ratings);
    let (games, ratings) = rescaled.as_ref().map_or((games, ratings), |(g, r)| (g, r));
    assemble(
        games,
        decisions,
        ratings,
        policy,
        versions,
        Tier::Full,
        scope,
        &|rating, per_game| {
            let (law, calibrated) = baseline.law_at(rating);
            let counted: Vec<(&Counted, &Wide)> =
                per_game.iter().flat_map(|g| full::counted_of(g)).collect();
            let (tally, indicators) = full::judge(baseline, law, &counted);
            let by_game: Vec<Vec<&Wide>> = per_game
                .iter()
                .map(|g| full::counted_of(g).map(|(_, w)| w).collect())
                .collect();
            Judged {
                tally,
                indicators,
                provisional: baseline.quality != "Production" || !calibrated,
                bucket: rating,
                ipr: baseline.ipr(&by_game),
            }
        },
    )
}

/// The players whose performance reached Watch or above: those the policy sends to the full
/// test.
pub fn at_watch_or_above(perfs: &[Performance]) -> BTreeSet<String> {
    perfs
        .iter()
        .filter(|p| p.level >= FlagLevel::Watch)
        .map(|p| p.player.clone())
        .collect()
}

/// The games in which one of `players` had a side, in their order.
pub fn games_of(games: &[Game], players: &BTreeSet<String>) -> Vec<Game> {
    games
        .iter()
        .filter(|g| players.contains(&g.white) || players.contains(&g.black))
        .cloned()
        .collect()
}

/// How a tier judges one player from his rating and his decisions, one list per game.
type Judge<'a> = dyn Fn(Option<u16>, &[Vec<&Decision>]) -> Judged + 'a;

/// The per-player bookkeeping both tiers share: who played which moves, in which games.
#[expect(
    clippy::too_many_arguments,
    reason = "the private core both tiers share: each argument is one input of a screening"
)]
fn assemble(
    games: &[Game],
    decisions: &[Vec<Decision>],
    ratings: &Ratings,
    policy: &Policy,
    versions: &Versions,
    tier: Tier,
    scope: Scope<'_>,
    judge: &Judge<'_>,
) -> Vec<Performance> {
    struct Acc<'a> {
        rating: Option<u16>,
        moves: u64,
        skipped: BTreeMap<SkipReason, u64>,
        /// The player's own decisions, one list per game.
        games: Vec<Vec<&'a Decision>>,
    }
    let mut players: BTreeMap<String, Acc> = BTreeMap::new();
    for (g, ds) in games.iter().zip(decisions) {
        for (name, elo, white) in [
            (&g.white, g.white_elo, true),
            (&g.black, g.black_elo, false),
        ] {
            let acc = players.entry(name.clone()).or_insert(Acc {
                rating: None,
                moves: 0,
                skipped: BTreeMap::new(),
                games: Vec::new(),
            });
            // The first rating seen for a player is used for the whole performance.
            acc.rating = acc.rating.or(elo);
            let own: Vec<&Decision> = ds.iter().filter(|d| d.white == white).collect();
            for d in &own {
                acc.moves += 1;
                if let (None, Some(r)) = (&d.counted, d.skipped) {
                    *acc.skipped.entry(r).or_default() += 1;
                }
            }
            acc.games.push(own);
        }
    }
    let field_size = scope.field_size.unwrap_or(players.len() as u32);
    players
        .into_iter()
        .filter(|(player, _)| scope.players.is_none_or(|only| only.contains(player)))
        .map(|(player, acc)| {
            let rating = ratings.get(&player).copied().or(acc.rating);
            let Judged {
                tally,
                indicators,
                provisional,
                bucket,
                ipr,
            } = judge(rating, &acc.games);
            let level = policy.flag(
                &indicators,
                &Context {
                    tier,
                    counted: tally.n,
                    field_size,
                    pre_identified: false,
                    observational_evidence: false,
                    provisional,
                },
            );
            let rate = |c| f64::from(tally.rate_ppm(c)) / 1e6;
            let h = |z: i32| f64::from(z) / 100.0;
            Performance {
                player,
                rating,
                bucket,
                games: acc.games.len() as u32,
                moves: acc.moves,
                counted: tally.n,
                skipped: acc.skipped,
                mm_rate: rate(tally.mm),
                ev_rate: rate(tally.ev),
                t3_rate: rate(tally.t3),
                expected_mm_rate: (tally.exp_mm_ppm + tally.n / 2)
                    .checked_div(tally.n)
                    .map_or(0.0, |p| p as f64 / 1e6),
                acpl: tally.acpl_tenths() as f64 / 10.0,
                asd: tally.asd_e4() as f64 / 1e4,
                z_mm: h(indicators.z_mm),
                z_ev: h(indicators.z_ev),
                z_t3: h(indicators.z_t3),
                z_asd: h(indicators.z_asd),
                z_strength: indicators.z_strength.map(h),
                z_assistance: indicators.z_assistance.map(h),
                z: h(indicators.z_combined),
                flag: level.as_str(),
                tier,
                provisional,
                field_size,
                intrusive_threshold: h(policy.intrusive_threshold(field_size)),
                ipr,
                versions: versions.clone(),
                tally,
                indicators,
                level,
            }
        })
        .collect()
}

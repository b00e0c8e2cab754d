//! What the service appends for a screening: the games submitted through a round, screened by
//! the library (`arbiter_screening::screen`), as `PlayerScreeningComputed` per player and
//! `ScreeningFlagRaised` per performance above `none`.
//!
//! The answer is a function of the stream up to the trigger (the tournament folded to it and
//! the `GameSubmitted` events before it) and of the engine profile, baseline and policy the
//! events name: the engine runs with one thread, a fixed node budget and a new game per
//! position, so a replay with the same binary and profile re-derives the same bytes.

use arbiter_core::tournament::State;
use arbiter_eventlog::StoredEvent;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_screening::baseline::Baseline;
use arbiter_screening::cache::PositionCache;
use arbiter_screening::full::FullBaseline;
use arbiter_screening::pgn::{self, Game};
use arbiter_screening::policy::{FlagLevel, Policy};
use arbiter_screening::screen::{
    Analyser, Performance, Ratings, Scope, Versions, full_performances_of, games_of, performances,
};
use arbiter_screening::uci::{EngineError, EngineProfile};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// The test the events say they come from (docs/src/rules/fair-play.md, "The quick test and the full test"): `Quick` after every round (MultiPV 3,
/// the per-class baseline; Watch at most); `Full` on demand (RunFullTest: 20 ranked
/// candidates, the full baseline's move-probability laws, the correlation-weighted combined
/// indicator and the IPR; the only tier whose flags may go beyond Watch, and only against a
/// baseline of `Production` quality).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Quick,
    Full,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Quick => "quick",
            Tier::Full => "full",
        }
    }
}

/// What a tier's performances are judged against.
#[derive(Clone)]
enum Judge {
    Quick(Baseline),
    Full(FullBaseline),
}

/// A game as submitted: its board and its PGN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submitted {
    pub round: u32,
    pub board: u32,
    pub pgn: String,
}

/// The games submitted in `events` (a stream's events in order) for rounds up to
/// `through_round`, sorted by round and board.
pub fn submitted_through(events: &[StoredEvent], through_round: u32) -> Vec<Submitted> {
    let mut out: Vec<Submitted> = events
        .iter()
        .filter_map(|e| match e.decode_event().ok()?.kind? {
            Kind::GameSubmitted(g) if g.round <= through_round => Some(Submitted {
                round: g.round,
                board: g.board,
                pgn: g.pgn,
            }),
            _ => None,
        })
        .collect();
    out.sort_by_key(|g| (g.round, g.board));
    out
}

/// The engine side of the screening: a pool of engine processes at one profile, the shared
/// position cache, the shipped baseline and policy.
pub struct Screener {
    analyser: Analyser,
    judge: Judge,
    policy: Policy,
}

impl Screener {
    /// Starts `workers` engine processes for `tier`, analysing at `nodes` per position (the
    /// rest of the profile is the tier's shipped baseline's).
    pub async fn start(
        engine: &Path,
        tier: Tier,
        nodes: u64,
        workers: usize,
        cache: Arc<PositionCache>,
    ) -> Result<Screener, EngineError> {
        let judge = match tier {
            Tier::Quick => Judge::Quick(Baseline::shipped()),
            Tier::Full => Judge::Full(FullBaseline::shipped()),
        };
        let (profile, filter) = match &judge {
            Judge::Quick(b) => (&b.engine_profile, &b.filter),
            Judge::Full(b) => (&b.engine_profile, &b.filter),
        };
        let profile = EngineProfile {
            nodes,
            ..profile.clone()
        };
        let filter = filter.clone();
        Ok(Screener {
            analyser: Analyser::start(engine, profile, filter, workers, cache).await?,
            judge,
            policy: Policy::shipped(),
        })
    }

    pub fn profile(&self) -> &EngineProfile {
        self.analyser.pool.profile()
    }

    /// The events of a screening through `through_round` of `games` on the tournament folded
    /// to the trigger (empty when no game was submitted). `only` (the full test, asked for
    /// some players) judges those players alone, on their own games, at the whole field's
    /// size; `None` judges every player.
    pub async fn answer(
        &self,
        state: &State,
        games: &[Submitted],
        through_round: u32,
        only: Option<&BTreeSet<String>>,
    ) -> Result<Vec<pb::Event>, String> {
        let mut parsed: Vec<Game> = Vec::with_capacity(games.len());
        for g in games {
            let source = format!("round {}, board {}", g.round, g.board);
            // Submission checked the PGN; one that no longer reads (a newer reader) is left out
            // the same way on every replay, and said.
            match pgn::parse(g.pgn.as_bytes(), &source, u64::MAX) {
                Ok(mut v) if v.len() == 1 => parsed.push(v.remove(0)),
                Ok(v) => {
                    tracing::warn!(%source, games = v.len(), "submitted PGN is not one game; left out")
                }
                Err(e) => {
                    tracing::warn!(%source, error = %e, "submitted PGN does not read; left out")
                }
            }
        }
        // The field is every player of the games, whoever is judged.
        let field: BTreeSet<&str> = parsed
            .iter()
            .flat_map(|g| [g.white.as_str(), g.black.as_str()])
            .collect();
        let field_size = u32::try_from(field.len()).unwrap_or(u32::MAX);
        let only = only.cloned();
        if let Some(only) = &only {
            parsed = games_of(&parsed, only);
        }
        if parsed.is_empty() {
            return Ok(Vec::new());
        }
        // Game by game (each game's positions go to the pool at once): `Analyser::games`
        // keeps a few games in flight, but its future is not provably `Send`, which a
        // service's task must be.
        let mut decisions = Vec::with_capacity(parsed.len());
        for g in &parsed {
            decisions.push(
                self.analyser
                    .game(g)
                    .await
                    .map_err(|e| format!("engine analysis of {} failed: {e}", g.label()))?,
            );
        }
        // Ratings as registered (the tournament's rating kind), not the PGN's tags.
        let ratings: Ratings = state
            .players()
            .filter(|p| p.player.rating > 0)
            .map(|p| {
                (
                    p.player.name.clone(),
                    u16::try_from(p.player.rating).unwrap_or(u16::MAX),
                )
            })
            .collect();
        let binary = self.analyser.pool.binary_sha256();
        let (mut versions, tier) = match &self.judge {
            Judge::Quick(b) => (Versions::new(b, &self.policy, binary), Tier::Quick),
            Judge::Full(b) => (Versions::full(b, &self.policy, binary), Tier::Full),
        };
        let fitted_profile = versions.engine_profile_id.clone();
        let profile = self.profile().clone();
        versions.engine_profile = profile.label.clone();
        versions.engine_profile_id = profile.id();
        // The baseline's expectations hold only at the profile it was fitted with.
        let off_profile = versions.engine_profile_id != fitted_profile;
        let (judge, policy) = (self.judge.clone(), self.policy.clone());
        let perfs = arbiter_service_kit::background::run(move || match &judge {
            Judge::Quick(b) => performances(&parsed, &decisions, &ratings, b, &policy, &versions),
            Judge::Full(b) => {
                let scope = Scope {
                    players: only.as_ref(),
                    field_size: only.as_ref().map(|_| field_size),
                };
                full_performances_of(scope, &parsed, &decisions, &ratings, b, &policy, &versions)
            }
        })
        .await
        .map_err(|e| format!("screening statistics stopped: {e}"))?;
        let mut out = Vec::with_capacity(perfs.len());
        let mut flags = Vec::new();
        for p in &perfs {
            let player_id = state
                .players()
                .find(|r| r.player.name == p.player)
                .map_or(0, |r| r.pairing_number());
            let computed = computed_event(p, player_id, through_round, tier, &profile, off_profile);
            if p.level != FlagLevel::None {
                flags.push(pb::ScreeningFlagRaised {
                    player_id,
                    player: p.player.clone(),
                    through_round,
                    tier: tier.as_str().into(),
                    level: p.flag.into(),
                    z_combined: p.indicators.z_combined,
                    counted: p.counted,
                    engine_profile_id: computed.engine_profile_id.clone(),
                    baseline_version: computed.baseline_version.clone(),
                    policy_version: computed.policy_version.clone(),
                });
            }
            out.push(pb::Event {
                origin: None,
                kind: Some(Kind::PlayerScreeningComputed(computed)),
            });
        }
        out.extend(flags.into_iter().map(|f| pb::Event {
            origin: None,
            kind: Some(Kind::ScreeningFlagRaised(f)),
        }));
        Ok(out)
    }
}

fn computed_event(
    p: &Performance,
    player_id: u32,
    through_round: u32,
    tier: Tier,
    profile: &EngineProfile,
    off_profile: bool,
) -> pb::PlayerScreeningComputed {
    let t = &p.tally;
    pb::PlayerScreeningComputed {
        player_id,
        player: p.player.clone(),
        through_round,
        tier: tier.as_str().into(),
        games: p.games,
        moves: p.moves,
        counted: p.counted,
        mm_rate_ppm: t.rate_ppm(t.mm),
        ev_rate_ppm: t.rate_ppm(t.ev),
        t3_rate_ppm: t.rate_ppm(t.t3),
        expected_mm_rate_ppm: t
            .exp_mm_ppm
            .saturating_add(t.n / 2)
            .checked_div(t.n)
            .map_or(0, |v| u32::try_from(v).unwrap_or(u32::MAX)),
        acpl_tenths: u64::try_from(t.acpl_tenths()).unwrap_or(0),
        asd_e4: u64::try_from(t.asd_e4()).unwrap_or(0),
        z_mm: p.indicators.z_mm,
        z_ev: p.indicators.z_ev,
        z_t3: p.indicators.z_t3,
        z_asd: p.indicators.z_asd,
        z_combined: p.indicators.z_combined,
        z_strength: p.indicators.z_strength,
        z_assistance: p.indicators.z_assistance,
        flag: p.flag.into(),
        provisional: p.provisional || off_profile,
        field_size: p.field_size,
        rating: p.rating.map_or(0, u32::from),
        bucket: p.bucket.map_or(0, u32::from),
        engine_profile_id: p.versions.engine_profile_id.clone(),
        engine_binary_sha256: p.versions.engine_binary_sha256.clone(),
        baseline_version: p.versions.baseline.clone(),
        baseline_sha256: p.versions.baseline_sha256.clone(),
        policy_version: p.versions.policy.clone(),
        nodes: profile.nodes,
        ipr: p.ipr.map_or(0, |i| u32::from(i.rating)),
        ipr_low: p.ipr.map_or(0, |i| u32::from(i.low)),
        ipr_high: p.ipr.map_or(0, |i| u32::from(i.high)),
        ipr_at_bound: p.ipr.is_some_and(|i| i.at_bound),
    }
}

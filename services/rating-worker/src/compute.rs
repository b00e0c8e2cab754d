//! The rating worker's arithmetic over a folded tournament: pure functions of a [`State`], no
//! I/O. The worker appends what these compute; the gRPC API answers with the same figures.
//!
//! - The category is the tournament's rating kind; the rating regulations are those in force on
//!   its start date ([`RuleSet::in_force_on`]; before 2022 the earliest modelled text).
//! - Every round of a published pairing counts, with every correction applied (also those that
//!   count for rating only, C.04.2.D.8): [`State::final_entry`]. A game still on is left out.
//! - A player's K is the registered one (the rating list's K), else derived from his rating and
//!   birth year as an established player (B.02 8.3.3: the event does not know how many rated
//!   games he had before, so 30 or more is assumed); either way lowered so that `K × n <= 700`
//!   for the `n` rated games of the event so far.
//! - A knockout's games count for the event's list only when played at its rate: classical
//!   games for a standard event, the rapid or blitz tie-breaks for a rapid or blitz one; an
//!   Armageddon game is never rated (FIDE Arbiters' Manual 2023, FIDE rating
//!   regulations: players with different times cannot be rated).
//! - Norms (B.01) are checked for standard events only, for the titles above those the player
//!   holds (women's titles for women only), over every round played.

use arbiter_core::tournament::{
    PairingSystem, Player, RatingKind, Sex as CoreSex, State, Title as CoreTitle,
};
use arbiter_core::{PlayerId, ResultCode, Score};
use arbiter_proto::convert::rating_kind_to_wire;
use arbiter_proto::events::v1 as pb;
use arbiter_rating::norms::{NormCheck, NormEvent, NormKind, NormOpponent, NormRound, find_norm};
use arbiter_rating::{
    Category, Date, Federation, Hundredths, KFactor, KInputs, RatedGame, RuleSet, Titles,
    performance, rated_score, rating_change, round_half_up,
};
use std::fmt::Write as _;

/// Rated games a player is taken to have completed before the event when the K factor is
/// derived (the event cannot know; B.02 8.3.3's new-player rule then does not apply).
pub const ASSUMED_RATED_GAMES_BEFORE: u32 = 30;

/// The tournament facts the calculation depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    pub rating_kind: RatingKind,
    pub category: Category,
    pub rule_set: RuleSet,
    pub start: Date,
    pub rounds: u32,
    pub pairing_system: PairingSystem,
    /// Federation of players without a valid one (the organiser's, else FIDE).
    pub fallback_federation: Federation,
}

impl Setup {
    /// `None` before the tournament is created.
    pub fn of(state: &State) -> Option<Setup> {
        let t = state.tournament()?;
        let start = Date {
            year: t.start_date.year(),
            month: t.start_date.month() as u8,
            day: t.start_date.day() as u8,
        };
        let category = match t.rating_kind {
            RatingKind::Standard => Category::Standard,
            RatingKind::Rapid => Category::Rapid,
            RatingKind::Blitz => Category::Blitz,
        };
        Some(Setup {
            rating_kind: t.rating_kind,
            category,
            rule_set: RuleSet::in_force_on(start).unwrap_or(RuleSet::B02_2022),
            start,
            rounds: state.total_rounds(),
            pairing_system: t.pairing_system,
            fallback_federation: Federation::new(&t.federation).unwrap_or(Federation::FIDE_FLAG),
        })
    }

    /// The norm rules of the event: pre-determined pairings for round robins.
    pub fn norm_event(&self) -> NormEvent {
        match self.pairing_system {
            // A Scheveningen's pairings are its table's, fixed in advance like a round robin's.
            PairingSystem::RoundRobin
            | PairingSystem::Scheveningen
            | PairingSystem::SemiScheveningen
            | PairingSystem::Skalitzka
            | PairingSystem::Hilton => NormEvent::round_robin(self.rounds),
            PairingSystem::DoubleRoundRobin => NormEvent {
                double_round_robin: true,
                ..NormEvent::round_robin(self.rounds)
            },
            // A knockout's norms have rules of their own (B.01), not modelled here: it is
            // judged as a Swiss event over its rounds.
            _ => NormEvent::swiss(self.rounds),
        }
    }
}

/// One game of a player (a round with an opponent, played or not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameLine {
    pub round: u32,
    pub opponent: PlayerId,
    pub opponent_rating: Option<u16>,
    pub result: ResultCode,
    /// Rating score (1, ½, 0) of a game played over the board; the tournament's points for
    /// any other result.
    pub score: Score,
    /// Counts for the rating change.
    pub rated: bool,
    /// Expected score `PD` of a rated game.
    pub expected: Hundredths,
    /// `K × ΔR` of a rated game, tenths of a rating point (0.5 up).
    pub change_tenths: i32,
}

/// One player's rating figures for the event so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRating {
    pub player_id: PlayerId,
    /// `None`: unrated.
    pub rating: Option<u16>,
    /// The K used (0 for an unrated player).
    pub k: u32,
    /// Rated games (or, for an unrated player, played games against rated opponents).
    pub games: u32,
    /// Points of those games.
    pub score: Score,
    /// `Σ PD`.
    pub expected: Hundredths,
    /// `K × ΣΔR`, unrounded (hundredths of a rating point).
    pub change_exact: Hundredths,
    /// Rating performance over played games against rated opponents; `None` without any.
    pub performance: Option<i32>,
    pub lines: Vec<GameLine>,
}

impl PlayerRating {
    /// `K × ΣΔR` in tenths of a rating point (0.5 up).
    pub fn change_tenths(&self) -> i32 {
        round_half_up(i64::from(self.change_exact.0), 10) as i32
    }

    pub fn to_wire(&self) -> pb::RatingChange {
        pb::RatingChange {
            player_id: self.player_id,
            rating_before: self.rating.map_or(0, u32::from),
            k_factor: self.k,
            games: self.games,
            score: self.score.tenths(),
            expected_milli: self.expected.0 * 10,
            change_tenths: self.change_tenths(),
            performance: self.performance.map_or(0, |p| p.max(0) as u32),
        }
    }

    pub fn games_to_wire(&self) -> Vec<arbiter_proto::rating_worker::v1::GameRating> {
        self.lines
            .iter()
            .map(|g| arbiter_proto::rating_worker::v1::GameRating {
                round: g.round,
                opponent: g.opponent,
                opponent_rating: g.opponent_rating.map_or(0, u32::from),
                score: Some(arbiter_proto::common::v1::Decimal::tenths(g.score.tenths())),
                expected_milli: g.expected.0 * 10,
                change_tenths: g.change_tenths,
                rated: g.rated,
            })
            .collect()
    }
}

/// Every player's rating figures, through `through_round`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRatings {
    pub setup: Setup,
    pub through_round: u32,
    /// In pairing-number order.
    pub players: Vec<PlayerRating>,
}

impl EventRatings {
    pub fn player(&self, pn: PlayerId) -> Option<&PlayerRating> {
        self.players.iter().find(|p| p.player_id == pn)
    }

    /// The `RatingChangesComputed` event of these figures.
    pub fn to_event(&self) -> pb::RatingChangesComputed {
        pb::RatingChangesComputed {
            through_round: self.through_round,
            rating_kind: rating_kind_to_wire(self.setup.rating_kind) as i32,
            changes: self.players.iter().map(PlayerRating::to_wire).collect(),
            regulations: self.setup.rule_set.id().to_string(),
        }
    }
}

/// The registered rating, `None` when unrated.
pub fn rating_of(p: &Player) -> Option<u16> {
    u16::try_from(p.rating).ok().filter(|&r| r > 0)
}

/// The player's K for `games` rated games (see the module documentation).
pub fn k_factor(p: &Player, rating: u16, setup: &Setup, games: u32) -> KFactor {
    if p.k_factor > 0 {
        KFactor::given(p.k_factor, games)
    } else {
        KFactor::derive(
            &KInputs {
                rating,
                birth_year: p.birth_date.map(|d| d.year()),
                period_year: setup.start.year,
                rated_games_before: ASSUMED_RATED_GAMES_BEFORE,
                ever_reached_2400: false,
            },
            games,
        )
    }
}

/// A knockout's games that are not of the event's rating list, by (round, player): the
/// tie-break games of a standard event, the classical games of a rapid one, every Armageddon
/// game. Empty for other systems.
fn off_list_games(state: &State, kind: RatingKind) -> std::collections::BTreeSet<(u32, PlayerId)> {
    use arbiter_core::knockout::GameKind;
    let mut off = std::collections::BTreeSet::new();
    if state
        .tournament()
        .is_none_or(|t| t.pairing_system != PairingSystem::Knockout)
    {
        return off;
    }
    let Ok(bracket) = state.bracket() else {
        return off;
    };
    for m in bracket.rounds.iter().flat_map(|r| &r.matches) {
        for g in &m.games {
            let rated = matches!(
                (g.game.kind, kind),
                (GameKind::Classical, RatingKind::Standard)
                    | (GameKind::Rapid, RatingKind::Rapid)
                    | (GameKind::Blitz, RatingKind::Blitz)
            );
            if !rated {
                off.insert((g.round, g.white));
                off.insert((g.round, g.black));
            }
        }
    }
    off
}

/// The rounds that count so far: those with a published pairing.
pub fn through_round(state: &State) -> u32 {
    state.published_rounds()
}

/// Rating figures of every player (`None` before the tournament is created).
pub fn event_ratings(state: &State) -> Option<EventRatings> {
    let setup = Setup::of(state)?;
    let through = through_round(state);
    let scoring = state.tournament().map(|t| t.scoring).unwrap_or_default();
    let rating_by_pn = |pn: PlayerId| state.player(pn).and_then(|p| rating_of(&p.player));
    let off_list = off_list_games(state, setup.rating_kind);
    let mut players = Vec::new();
    for rec in state.players() {
        let pn = rec.pairing_number();
        let own = rating_of(&rec.player);
        let entries: Vec<(u32, PlayerId, ResultCode)> = (1..=through)
            .filter(|r| !off_list.contains(&(*r, pn)))
            .filter_map(|r| {
                let e = state.final_entry(pn, r)?;
                Some((r, e.opponent?, e.result))
            })
            .collect();
        let games: Vec<RatedGame> = entries
            .iter()
            .map(|&(r, opp, result)| RatedGame::new(r, rating_by_pn(opp), result))
            .collect();
        let perf: Vec<(i32, Score)> = games
            .iter()
            .filter_map(|g| Some((i32::from(g.opponent_rating?), rated_score(g.result)?)))
            .collect();
        let performance = performance(
            perf.iter().map(|g| g.0),
            perf.iter().map(|g| g.1).sum::<Score>(),
        )
        .map(|p| p.rp);
        let line = |g: &RatedGame| GameLine {
            round: g.round,
            opponent: entries.iter().find(|e| e.0 == g.round).map_or(0, |e| e.1),
            opponent_rating: g.opponent_rating,
            result: g.result,
            score: rated_score(g.result).unwrap_or_else(|| scoring.points(g.result)),
            rated: false,
            expected: Hundredths::ZERO,
            change_tenths: 0,
        };
        let mut lines: Vec<GameLine> = games.iter().map(line).collect();
        let figures = match own {
            Some(rating) => {
                let n = games
                    .iter()
                    .filter(|g| g.opponent_rating.is_some() && rated_score(g.result).is_some())
                    .count() as u32;
                let k = k_factor(&rec.player, rating, &setup, n).k;
                let c = rating_change(setup.rule_set, rating, k, &games);
                for g in &c.games {
                    if let Some(l) = lines.iter_mut().find(|l| l.round == g.round) {
                        l.rated = true;
                        l.expected = g.pd;
                        l.change_tenths = round_half_up(i64::from(g.delta_r.times(k).0), 10) as i32;
                    }
                }
                PlayerRating {
                    player_id: pn,
                    rating: own,
                    k,
                    games: c.games.len() as u32,
                    score: c.score,
                    expected: c.expected,
                    change_exact: c.change_exact,
                    performance,
                    lines,
                }
            }
            None => PlayerRating {
                player_id: pn,
                rating: None,
                k: 0,
                games: perf.len() as u32,
                score: perf.iter().map(|g| g.1).sum(),
                expected: Hundredths::ZERO,
                change_exact: Hundredths::ZERO,
                performance,
                lines,
            },
        };
        players.push(figures);
    }
    Some(EventRatings {
        setup,
        through_round: through,
        players,
    })
}

/// The norms worth checking for a player: titles above the one held, women's only for women.
pub fn norms_for(p: &Player) -> Vec<NormKind> {
    let rank = |t: Option<CoreTitle>| match t {
        Some(CoreTitle::GM) => 4,
        Some(CoreTitle::IM) => 3,
        Some(CoreTitle::WGM) => 2,
        Some(CoreTitle::WIM) => 1,
        _ => 0,
    };
    let held = rank(p.title);
    NormKind::ALL
        .into_iter()
        .filter(|n| rank(Some(n.title())) > held)
        .filter(|n| !n.women_only() || p.sex == Some(CoreSex::Female))
        .collect()
}

fn federation(p: &Player, setup: &Setup) -> Federation {
    Federation::new(p.federation.trim()).unwrap_or(setup.fallback_federation)
}

/// Player `pn`'s rounds as the norm check sees them, through `through` (opponents' ratings,
/// titles and federations as registered).
pub fn norm_rounds(state: &State, setup: &Setup, pn: PlayerId, through: u32) -> Vec<NormRound> {
    (1..=through)
        .filter_map(|r| {
            let e = state.final_entry(pn, r)?;
            let opponent = e
                .opponent
                .and_then(|o| state.player(o))
                .map(|o| NormOpponent {
                    id: o.pairing_number(),
                    federation: federation(&o.player, setup),
                    titles: Titles::single(o.player.title),
                    rating: rating_of(&o.player),
                });
            Some(NormRound {
                round: r,
                result: e.result,
                opponent,
                exclusion: None,
            })
        })
        .collect()
}

fn norm_title(n: NormKind) -> pb::NormTitle {
    match n {
        NormKind::GM => pb::NormTitle::Gm,
        NormKind::IM => pb::NormTitle::Im,
        NormKind::WGM => pb::NormTitle::Wgm,
        NormKind::WIM => pb::NormTitle::Wim,
    }
}

/// What a norm check says in words: how the norm was achieved, or every failing condition and
/// by how much it fails.
pub fn explain(check: &NormCheck, achieved: bool) -> String {
    let mut s = String::new();
    if achieved {
        let _ = write!(
            s,
            "achieved: {} games (counts as {}), {} points, Ra {}, Rp {}",
            check.games, check.counts_as, check.score, check.ra, check.rp
        );
        if !check.ignored_rounds.is_empty() {
            let _ = write!(s, "; ignoring rounds {:?}", check.ignored_rounds);
        }
        if check.short_event_rule {
            s.push_str("; 8 games counted as 9 (1.4.1c)");
        }
        if check.last_round_forfeit_as_loss {
            s.push_str("; last-round no-show counted as a loss (1.4.2c)");
        }
        if let Some(f) = check.floor_adjustment {
            let _ = write!(s, "; lowest opponent raised from {} to {}", f.from, f.to);
        }
    } else {
        let failed: Vec<String> = check.failed().map(|c| c.to_string()).collect();
        let _ = write!(
            s,
            "not achieved: {} games, {} points, Ra {}, Rp {}; {}",
            check.games,
            check.score,
            check.ra,
            check.rp,
            failed.join("; ")
        );
    }
    let _ = write!(s, " ({})", arbiter_rating::norms::NORM_RULE_SET);
    s
}

/// The norm results of every player (of `only`, when given), through the rounds played so far.
/// Empty for rapid and blitz events.
pub fn norm_results(state: &State, only: Option<PlayerId>) -> Vec<pb::NormResult> {
    let Some(setup) = Setup::of(state) else {
        return Vec::new();
    };
    if setup.category != Category::Standard {
        return Vec::new();
    }
    let through = state.finished().unwrap_or_else(|| through_round(state));
    let event = setup.norm_event();
    let mut out = Vec::new();
    for rec in state.players() {
        let pn = rec.pairing_number();
        if only.is_some_and(|o| o != pn) {
            continue;
        }
        let wanted = norms_for(&rec.player);
        if wanted.is_empty() {
            continue;
        }
        let rounds = norm_rounds(state, &setup, pn, through);
        let own = federation(&rec.player, &setup);
        for norm in wanted {
            let search = find_norm(norm, own, &rounds, &event);
            let (check, achieved) = match &search.best {
                Some(b) => (b, true),
                None => (&search.full, false),
            };
            out.push(pb::NormResult {
                player_id: pn,
                title: norm_title(norm) as i32,
                achieved,
                games: check.games,
                score: check.score.tenths(),
                average_opponent_rating: check.ra.max(0) as u32,
                performance: check.rp.max(0) as u32,
                titled_opponents: check.title_holders,
                opponent_federations: check.other_federations,
                explanation: explain(check, achieved),
                through_round: through,
            });
        }
    }
    out
}

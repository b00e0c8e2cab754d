//! Team events: the product's own rules for team round robins and team Swisses, written by
//! hand because they are the regulations themselves, and the seeds leave much of them to the
//! event (C.05 Art. 7, FIDE Arbiters' Manual 2023 ch. IX §7 and its commentary; FIDE's
//! Swiss Team Pairing System C.04.6 of 2026).
//!
//! * [`TeamRules`]: boards, reserves, game and match points, the ranking score, the value of a
//!   team pairing-allocated bye (TRF-2026 record 320) and the board colours of the team named
//!   first (record 352). Every field is explicit and checked; errors name the field.
//! * [`Team`] lists and [`Lineup`]s: the list submitted before the event fixes the board
//!   order; a line-up keeps that order (Arbiters' Manual 2023 ch. IX §7.1 and commentary).
//! * [`TeamMatch`]: expanded into board pairs ([`expand`]) and scored from its board results
//!   ([`score_match`]), with wrong-board games corrected to forfeits ([`correct_wrong_boards`]).
//! * [`round_robin`]: the Berger table over teams; [`pair_fide_swiss`]: FIDE's team Swiss
//!   (C.04.6) with its three colour models; [`pair_swiss`]: the Dutch engine applied to the
//!   teams, as team events were paired before C.04.6 (kept so they replay as paired).
//! * [`to_tiebreak`]: the rounds played as an [`arbiter_tiebreak::TeamTournament`], so that
//!   team standings have one code path (`arbiter_tiebreak::team_standings`).
//!
//! Pure and deterministic: no clock, no randomness, ordered collections only; scores are
//! fixed-point [`arbiter_core::Score`]s.

mod board;
mod fide_swiss;
mod log;
mod roundrobin;
mod swiss;
mod tiebreak;

/// The rules, lists, line-ups and board pairs: arbiter-core's, which the tournament aggregate
/// checks publication and line-ups with.
pub use arbiter_core::teams::{
    BoardPair, ByeValue, Lineup, MAX_BOARDS, MatchForfeit, MatchPoints, Team, TeamError, TeamMatch,
    TeamNumber, TeamRules, TeamScore, default_lineup, expand, validate_teams,
};
pub use board::{
    BoardResult, MatchResult, MatchScore, PlayedGame, SideScore, correct_wrong_boards, score_match,
};
pub use fide_swiss::{
    ColourModel, ColouredMatch, FideTeamInput, FideTeamPairing, FideTeamSystem, MAX_TEAMS,
    TeamStanding, pair_fide_swiss, pair_round,
};
pub use log::{from_log, tiebreak_model, tiebreak_model_after};
pub use roundrobin::{RoundRobinRound, round_robin};
pub use swiss::{SwissPairing, match_points_system, pair_swiss};
pub use tiebreak::{PlayedMatch, TeamRound, to_tiebreak};

//! Team events: the product's own rules for team round robins and team Swisses, written by
//! hand because they are the regulations themselves, and the seeds leave much of them to the
//! event (spec/swiss-general.md §7.4, S001 = seeds/001_23f77f2f95d2acc8.txt ch. IX §7 and its
//! commentary; spec/other-swiss.md §5: FIDE's team Swiss C.04.6 is absent from our rules).
//!
//! * [`TeamRules`]: boards, reserves, game and match points, the ranking score, the value of a
//!   team pairing-allocated bye (TRF-2026 record 320) and the board colours of the team named
//!   first (record 352). Every field is explicit and checked; errors name the field.
//! * [`Team`] lists and [`Lineup`]s: the list submitted before the event fixes the board
//!   order; a line-up keeps that order (S001 ch. IX §7.1 and commentary).
//! * [`TeamMatch`]: expanded into board pairs ([`expand`]) and scored from its board results
//!   ([`score_match`]), with wrong-board games corrected to forfeits ([`correct_wrong_boards`]).
//! * [`round_robin`]: the Berger table over teams; [`pair_swiss`]: the Dutch engine applied to
//!   the teams (the closest documented practice, see its documentation for what differs).
//! * [`to_tiebreak`]: the rounds played as an [`arbiter_tiebreak::TeamTournament`], so that
//!   team standings have one code path (`arbiter_tiebreak::team_standings`).
//!
//! Pure and deterministic: no clock, no randomness, ordered collections only; scores are
//! fixed-point [`arbiter_core::Score`]s.

mod board;
mod error;
mod roundrobin;
mod rules;
mod swiss;
mod team;
mod tiebreak;

pub use board::{
    BoardPair, BoardResult, MatchForfeit, MatchResult, MatchScore, PlayedGame, SideScore,
    TeamMatch, correct_wrong_boards, expand, score_match,
};
pub use error::TeamError;
pub use roundrobin::{RoundRobinRound, round_robin};
pub use rules::{MAX_BOARDS, TeamRules};
pub use swiss::{SwissPairing, match_points_system, pair_swiss};
pub use team::{Lineup, Team, default_lineup, validate_teams};
pub use tiebreak::{PlayedMatch, TeamRound, to_tiebreak};

/// A team's number: its place in the seeding order, from 1 (TRF team pairing number).
pub type TeamNumber = u32;

//! The team-event facts the tournament aggregate checks itself: the regulations
//! ([`TeamRules`]), the team lists and line-ups in list order, and a match's board pairs. They
//! live here, below the aggregate, so that publication and line-ups are refused in the log's
//! own terms; `arbiter-teams` builds the rest (match scoring, team pairing, team standings) on
//! them and re-exports them (C.05 Art. 7 = Arbiters' Manual 2023 ch. IX §7).

mod board;
mod error;
mod fide_system;
mod rules;
mod team;

pub use board::{BoardPair, MatchForfeit, TeamMatch, expand, forfeited_whole};
pub use error::TeamError;
pub use fide_system::{ColourModel, FideTeamSystem};
pub use rules::{MAX_BOARDS, TeamRules, colour_in_sequence};
pub use team::{Lineup, Team, check_lists, default_lineup, validate_teams};

use crate::Score;
use serde::{Deserialize, Serialize};

/// A team's number: its place in the seeding order, from 1 (TRF team pairing number).
pub type TeamNumber = u32;

/// Which team score ranks the teams (C.07 Art. 11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum TeamScore {
    /// Match points.
    #[default]
    MatchPoints,
    /// Game (board) points.
    GamePoints,
}

/// Match points for a won, drawn and lost match (default 2 / 1 / 0, TRF-2026 record 362).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchPoints {
    pub win: Score,
    pub draw: Score,
    pub loss: Score,
}

impl Default for MatchPoints {
    fn default() -> Self {
        MatchPoints {
            win: Score::points(2),
            draw: Score::ONE,
            loss: Score::ZERO,
        }
    }
}

/// Match and game points of a team pairing-allocated bye (regulations, TRF-2026 record 320).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ByeValue {
    pub match_points: Score,
    pub game_points: Score,
}

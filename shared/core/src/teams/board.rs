//! One team match and its board pairs.

use super::error::TeamError;
use super::{Lineup, TeamNumber, TeamRules};
use crate::{Color, PlayerId, ResultCode};
use serde::{Deserialize, Serialize};

/// A match of two teams. `first` is the team named first: it has the colours of
/// [`TeamRules::colours`] as written (White on board 1 with "WB..."); `second` the mirror.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TeamMatch {
    pub first: TeamNumber,
    pub second: TeamNumber,
}

/// A whole match not played because a team did not appear (TRF-2026 record 330).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchForfeit {
    /// `+-`: the second team did not appear.
    SecondAbsent,
    /// `-+`: the first team did not appear.
    FirstAbsent,
    /// `--`: neither appeared.
    BothAbsent,
}

impl MatchForfeit {
    /// The TRF-2026 record 330 code, first team first.
    pub fn trf_code(self) -> &'static str {
        match self {
            MatchForfeit::SecondAbsent => "+-",
            MatchForfeit::FirstAbsent => "-+",
            MatchForfeit::BothAbsent => "--",
        }
    }
}

/// The forfeit a match's boards amount to, from each board's codes (the first team's, the
/// second's): none when a board was played over the board, or when each team won a board by
/// forfeit (the match was held, its boards forfeited both ways, as FIDE TEC's checkers read
/// it); else the forfeit of the team or teams that did not appear. The one reading of "the
/// match was played" (C.04.6 Art. 1.6): the rematch rule, the pairing history and the
/// standings all ask it.
pub fn forfeited_whole(
    boards: impl IntoIterator<Item = (ResultCode, ResultCode)>,
) -> Option<MatchForfeit> {
    let (mut first, mut second) = (false, false);
    for (a, b) in boards {
        if a.is_played() || b.is_played() {
            return None;
        }
        first |= a == ResultCode::ForfeitWin;
        second |= b == ResultCode::ForfeitWin;
    }
    match (first, second) {
        (true, false) => Some(MatchForfeit::SecondAbsent),
        (false, true) => Some(MatchForfeit::FirstAbsent),
        (false, false) => Some(MatchForfeit::BothAbsent),
        (true, true) => None,
    }
}

/// One board of a match as scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BoardPair {
    /// From 1.
    pub board: u32,
    pub white: PlayerId,
    pub black: PlayerId,
}

/// The board pairs of `m`: board k pairs the k-th players of the two line-ups, the first
/// team's player with the colour `rules.colours` gives board k.
pub fn expand(
    rules: &TeamRules,
    m: &TeamMatch,
    first: &Lineup,
    second: &Lineup,
) -> Result<Vec<BoardPair>, TeamError> {
    for (l, team) in [(first, m.first), (second, m.second)] {
        if l.team != team {
            return Err(TeamError::Team {
                team,
                why: format!("the line-up given is team {}'s", l.team),
            });
        }
        if l.players.len() != rules.boards as usize {
            return Err(TeamError::Team {
                team,
                why: format!(
                    "the line-up has {} players for {} boards",
                    l.players.len(),
                    rules.boards
                ),
            });
        }
    }
    Ok((1..=rules.boards)
        .zip(first.players.iter().zip(&second.players))
        .map(|(board, (&a, &b))| {
            let (white, black) = match rules.first_colour(board) {
                Some(Color::White) => (a, b),
                _ => (b, a),
            };
            BoardPair {
                board,
                white,
                black,
            }
        })
        .collect())
}

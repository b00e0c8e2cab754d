//! One team match and its board pairs.

use super::error::TeamError;
use super::{Lineup, TeamNumber, TeamRules};
use crate::{Color, PlayerId};
use serde::{Deserialize, Serialize};

/// A match of two teams. `first` is the team named first: it has the colours of
/// [`TeamRules::colours`] as written (White on board 1 with "WB..."); `second` the mirror.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TeamMatch {
    pub first: TeamNumber,
    pub second: TeamNumber,
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

//! The regulations of a team event (C.07 Art. 11-13: match and game points; TRF-2026 records
//! 352, 362 and 320).

use super::error::{TeamError, rules_err};
use super::{ByeValue, MatchPoints, TeamScore};
use crate::{Color, PointSystem, Score};
use serde::{Deserialize, Serialize};

/// At most this many boards per match (the largest team events, e.g. the Olympiad's 4 or
/// league matches of 8-12, stay far below it).
pub const MAX_BOARDS: u32 = 64;

/// A team event's regulations, fixed at creation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRules {
    /// Boards per match (at least 1).
    pub boards: u32,
    /// The most reserves a team may list beyond `boards` players.
    pub reserves: u32,
    /// Points of each board game.
    pub game_points: PointSystem,
    /// Match points for a won, drawn and lost match (TRF-2026 record 362; its defaults
    /// 2 / 1 / 0 are [`MatchPoints::default`]).
    pub match_points: MatchPoints,
    /// The score that ranks the teams; the other one is the first tie-break `MPvGP`
    /// (C.07 13.1).
    pub primary: TeamScore,
    /// Match and game points of the team pairing-allocated bye (TRF-2026 record 320). No
    /// default: the regulations must give it when the number of teams is odd; an even field
    /// may give it for the rounds a team's absence leaves an odd number to pair (without it
    /// such a round is refused naming `pab`).
    pub pab: Option<ByeValue>,
    /// The board colours of the team named first in a match, board 1 first (TRF-2026 record
    /// 352), e.g. "WBWB": White on boards 1 and 3. The team named second has the mirror.
    pub colours: String,
}

impl TeamRules {
    /// Rules with the default match points (2 / 1 / 0, TRF-2026 record 362), FIDE game points
    /// (1 / ½ / 0), ranking by match points, no PAB value and alternating colours starting with
    /// White.
    pub fn new(boards: u32, reserves: u32) -> TeamRules {
        TeamRules {
            boards,
            reserves,
            game_points: PointSystem::default(),
            match_points: MatchPoints::default(),
            primary: TeamScore::MatchPoints,
            pab: None,
            colours: (0..boards)
                .map(|b| if b % 2 == 0 { 'W' } else { 'B' })
                .collect(),
        }
    }

    /// The rules are complete and sane for an event of `teams` teams; the error names the
    /// field (as `teams.<field>`).
    pub fn check(&self, teams: usize) -> Result<(), TeamError> {
        if self.boards == 0 || self.boards > MAX_BOARDS {
            return rules_err(
                "boards",
                format!(
                    "{} is not a number of boards in 1..={MAX_BOARDS}",
                    self.boards
                ),
            );
        }
        if self.reserves > MAX_BOARDS {
            return rules_err(
                "reserves",
                format!("{} reserves: at most {MAX_BOARDS}", self.reserves),
            );
        }
        let gp = &self.game_points;
        if gp.win <= gp.draw || gp.draw < gp.loss || gp.loss < Score::ZERO {
            return rules_err(
                "game_points",
                format!(
                    "a win ({}) must score more than a draw ({}), a draw at least a loss ({}), a loss at least 0",
                    gp.win, gp.draw, gp.loss
                ),
            );
        }
        let mp = &self.match_points;
        if mp.win <= mp.draw || mp.draw < mp.loss || mp.loss < Score::ZERO {
            return rules_err(
                "match_points",
                format!(
                    "a won match ({}) must score more than a drawn one ({}), a drawn one at least a lost one ({}), a lost one at least 0",
                    mp.win, mp.draw, mp.loss
                ),
            );
        }
        match (&self.pab, teams % 2 == 1) {
            (None, true) => {
                return rules_err(
                    "pab",
                    format!(
                        "{teams} teams: one team has the pairing-allocated bye each round; its match and game points are required (TRF-2026 record 320)"
                    ),
                );
            }
            // An even field may give the value too: a team that withdraws or is absent
            // leaves an odd number to pair (pairing refuses the round when none is given).
            (Some(b), _) => {
                let most = gp.win.tenths() * self.boards as i32;
                if b.match_points < Score::ZERO || b.match_points > mp.win {
                    return rules_err(
                        "pab.match_points",
                        format!("{} is not in 0..={} (a won match)", b.match_points, mp.win),
                    );
                }
                if b.game_points < Score::ZERO || b.game_points.tenths() > most {
                    return rules_err(
                        "pab.game_points",
                        format!(
                            "{} is not in 0..={} ({} boards won)",
                            b.game_points,
                            Score(most),
                            self.boards
                        ),
                    );
                }
            }
            (None, false) => {}
        }
        if self.colours.chars().count() != self.boards as usize {
            return rules_err(
                "colours",
                format!(
                    "{:?} has {} letters for {} boards (TRF-2026 record 352: one W or B per board)",
                    self.colours,
                    self.colours.chars().count(),
                    self.boards
                ),
            );
        }
        if let Some((i, c)) = self
            .colours
            .chars()
            .enumerate()
            .find(|(_, c)| !matches!(c, 'W' | 'B'))
        {
            return rules_err("colours", format!("board {}: {c:?} is not W or B", i + 1));
        }
        Ok(())
    }

    /// The colour of the team named first on `board` (from 1); `None` beyond the last board.
    pub fn first_colour(&self, board: u32) -> Option<Color> {
        colour_in_sequence(&self.colours, board)
    }

    /// A board's result codes as White's and Black's lines carry them, given as the first
    /// team's and the second's (board `board`, from 1, by [`first_colour`](Self::first_colour)).
    pub fn codes_by_team(
        &self,
        board: u32,
        (white, black): (crate::ResultCode, crate::ResultCode),
    ) -> (crate::ResultCode, crate::ResultCode) {
        if self.first_colour(board) == Some(Color::Black) {
            (black, white)
        } else {
            (white, black)
        }
    }

    /// The colour of the team named first on board 1: the team's colour for pairing history.
    pub fn first_board_colour(&self) -> Color {
        self.first_colour(1).unwrap_or(Color::White)
    }
}

/// Board `board`'s (from 1) colour in a board-colour sequence such as record 352's `WBWB`: the
/// colour of the team named first; `None` beyond the sequence. The one reading of the sequence,
/// for the domain and for the file formats that carry it.
pub fn colour_in_sequence(colours: &str, board: u32) -> Option<Color> {
    let c = colours.chars().nth(board.checked_sub(1)? as usize)?;
    Some(if c == 'W' { Color::White } else { Color::Black })
}

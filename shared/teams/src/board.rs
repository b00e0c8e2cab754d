//! One team match's board results and its score (the pairs are arbiter-core's).

use crate::TeamError;
use crate::{BoardPair, MatchForfeit, TeamMatch, TeamNumber, TeamRules};
use arbiter_core::{Color, PlayerId, ResultCode, Score};
use serde::{Deserialize, Serialize};

/// One board's result, for the first team and for the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardResult {
    pub first: ResultCode,
    pub second: ResultCode,
}

impl BoardResult {
    /// The result of the first team's player; the second team's is its mirror (a forfeit
    /// loss faces a forfeit win).
    pub fn of_first(code: ResultCode) -> BoardResult {
        BoardResult {
            first: code,
            second: code.mirrored().unwrap_or(ResultCode::ForfeitLoss),
        }
    }

    /// Neither player of the board is entitled to the point (both `-`).
    pub fn double_forfeit() -> BoardResult {
        BoardResult {
            first: ResultCode::ForfeitLoss,
            second: ResultCode::ForfeitLoss,
        }
    }

    fn check(&self, board: u32) -> Result<(), TeamError> {
        let bad = |why: String| Err(TeamError::Board { board, why });
        if !self.first.has_opponent() || !self.second.has_opponent() {
            return bad(format!(
                "'{}' / '{}': a board holds a game or a forfeit, not a bye",
                self.first.trf_char(),
                self.second.trf_char()
            ));
        }
        let double =
            self.first == ResultCode::ForfeitLoss && self.second == ResultCode::ForfeitLoss;
        if !double && self.first.mirrored() != Some(self.second) {
            return bad(format!(
                "'{}' for the first team does not face '{}' for the second",
                self.first.trf_char(),
                self.second.trf_char()
            ));
        }
        Ok(())
    }
}

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchResult {
    /// Played over the boards (forfeited boards included), board 1 first.
    Boards(Vec<BoardResult>),
    /// Not played: a team did not appear.
    Forfeit(MatchForfeit),
}

impl MatchResult {
    /// Board results given as the first team's codes.
    pub fn from_first(codes: &[ResultCode]) -> MatchResult {
        MatchResult::Boards(codes.iter().map(|&c| BoardResult::of_first(c)).collect())
    }
}

/// One team's score in a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SideScore {
    pub team: TeamNumber,
    pub game_points: Score,
    pub match_points: Score,
    /// Boards this team lost by forfeit (all of them when it did not appear).
    pub forfeited_boards: u32,
}

/// Both teams' scores in a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchScore {
    pub first: SideScore,
    pub second: SideScore,
}

/// The match's game points (board points of the rules' [`arbiter_core::PointSystem`]) and match
/// points: the side with more game points wins the match (C.07 Art. 11). A team that did not appear
/// loses every board by forfeit; its opponent wins them.
pub fn score_match(
    rules: &TeamRules,
    m: &TeamMatch,
    result: &MatchResult,
) -> Result<MatchScore, TeamError> {
    let gp = &rules.game_points;
    let mp = &rules.match_points;
    let boards = rules.boards;
    let times = |s: Score| Score(s.tenths() * boards as i32);
    let side = |team, game_points, match_points, forfeited_boards| SideScore {
        team,
        game_points,
        match_points,
        forfeited_boards,
    };
    let (a, b) = match result {
        MatchResult::Boards(v) => {
            if v.len() != boards as usize {
                return Err(TeamError::Team {
                    team: m.first,
                    why: format!(
                        "{} board results for a match of {boards} boards against team {}",
                        v.len(),
                        m.second
                    ),
                });
            }
            let (mut ga, mut gb, mut fa, mut fb) = (Score::ZERO, Score::ZERO, 0, 0);
            for (i, r) in v.iter().enumerate() {
                r.check(i as u32 + 1)?;
                ga += gp.points(r.first);
                gb += gp.points(r.second);
                fa += u32::from(r.first == ResultCode::ForfeitLoss);
                fb += u32::from(r.second == ResultCode::ForfeitLoss);
            }
            let (ma, mb) = match ga.cmp(&gb) {
                std::cmp::Ordering::Greater => (mp.win, mp.loss),
                std::cmp::Ordering::Equal => (mp.draw, mp.draw),
                std::cmp::Ordering::Less => (mp.loss, mp.win),
            };
            (side(m.first, ga, ma, fa), side(m.second, gb, mb, fb))
        }
        MatchResult::Forfeit(f) => {
            let won = side(0, times(gp.forfeit_win), mp.win, 0);
            let lost = side(0, times(gp.forfeit_loss), mp.loss, boards);
            let (a, b) = match f {
                MatchForfeit::SecondAbsent => (won, lost),
                MatchForfeit::FirstAbsent => (lost, won),
                MatchForfeit::BothAbsent => (lost, lost),
            };
            (
                SideScore { team: m.first, ..a },
                SideScore {
                    team: m.second,
                    ..b
                },
            )
        }
    };
    Ok(MatchScore {
        first: a,
        second: b,
    })
}

/// A game as it was actually seated: its board, its players and White's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayedGame {
    pub board: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    pub result: ResultCode,
}

/// The board results that count for the match, standings and later pairings when games were played
/// on the wrong boards: such a game counts for rating only, and the team whose player sat on the
/// wrong board loses that board by forfeit (C.05 Art. 7 = Arbiters' Manual 2023 ch. IX §7, commentary and worked
/// example: 1.5-2.5 over the boards becomes 3-1). When both players are wrong, neither team is
/// entitled to the board: a double forfeit (our reading; the seeds do not cover it).
pub fn correct_wrong_boards(
    rules: &TeamRules,
    scheduled: &[BoardPair],
    played: &[PlayedGame],
) -> Result<Vec<BoardResult>, TeamError> {
    let mut out = Vec::with_capacity(scheduled.len());
    for s in scheduled {
        let bad = |why: String| {
            Err(TeamError::Board {
                board: s.board,
                why,
            })
        };
        let mut games = played.iter().filter(|g| g.board == s.board);
        let (Some(g), None) = (games.next(), games.next()) else {
            return bad("exactly one game must be recorded on each board".into());
        };
        let first_white = rules.first_colour(s.board) == Some(Color::White);
        let (exp_first, exp_second) = if first_white {
            (s.white, s.black)
        } else {
            (s.black, s.white)
        };
        let (act_first, act_second, first_code) = if first_white {
            (g.white, g.black, g.result)
        } else {
            let Some(m) = g.result.mirrored() else {
                return bad(format!("'{}' is not a game's result", g.result.trf_char()));
            };
            (g.black, g.white, m)
        };
        out.push(match (act_first == exp_first, act_second == exp_second) {
            (true, true) => BoardResult::of_first(first_code),
            (false, true) => BoardResult::of_first(ResultCode::ForfeitLoss),
            (true, false) => BoardResult::of_first(ResultCode::ForfeitWin),
            (false, false) => BoardResult::double_forfeit(),
        });
    }
    Ok(out)
}

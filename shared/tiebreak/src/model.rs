//! The tournament model the tie-break engine works on.
//!
//! It is deliberately small: what C.07 needs and nothing else. It can be filled from a TRF file
//! (player lines, rounds, scoring records) or from the event log (registrations and recorded
//! results). Round `r` of a competitor is `rounds[r - 1]`; a missing entry is an absence
//! (zero-point bye, TRF blank).

pub use arbiter_core::teams::{ByeValue, MatchPoints, TeamScore};
use arbiter_core::{Color, PlayerId, PointSystem, ResultCode, RoundEntry, Score};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A calendar date, used only to choose the rule set (C.07 version in force at the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Date {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// A valid date, or `None` (month 1-12, day within the month, leap years included).
    pub fn new(year: u16, month: u8, day: u8) -> Option<Date> {
        let leap =
            (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        (day >= 1 && day <= days).then_some(Date { year, month, day })
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// Error reading a [`Date`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a date (expected YYYY/MM/DD or YYYY-MM-DD): {0:?}")]
pub struct DateParseError(pub String);

impl FromStr for Date {
    type Err = DateParseError;
    /// Accepts `YYYY/MM/DD`, `YYYY-MM-DD` and `YYYY.MM.DD` (TRF record 042 and ISO forms).
    fn from_str(s: &str) -> Result<Date, DateParseError> {
        let err = || DateParseError(s.to_string());
        let t = s.trim();
        let parts: Vec<&str> = t.split(['/', '-', '.']).collect();
        if parts.len() != 3 || parts[0].len() != 4 {
            return Err(err());
        }
        let num = |p: &str| -> Result<u16, DateParseError> {
            if p.is_empty() || !p.chars().all(|c| c.is_ascii_digit()) {
                return Err(err());
            }
            p.parse().map_err(|_| err())
        };
        let y = num(parts[0])?;
        let m = num(parts[1])?;
        let d = num(parts[2])?;
        if m > 12 || d > 31 {
            return Err(err());
        }
        Date::new(y, m as u8, d as u8).ok_or_else(err)
    }
}

/// How the pairings of the event were made; decides between C.07 Art. 15 and Art. 16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum PairingKind {
    /// Pairings made round by round (Swiss systems): unplayed rounds follow Art. 16.
    #[default]
    Swiss,
    /// Pairings fixed in advance (round-robin, Scheveningen, Schiller): Art. 15, forfeits are
    /// results against the scheduled opponent.
    PreDetermined,
}

/// One participant of an individual event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Pairing number (TRF starting rank).
    pub id: PlayerId,
    pub name: String,
    /// Rating used by the rating-based tie-breaks (C.07 Art. 10: the first rating of the
    /// event); `None` for unrated players.
    pub rating: Option<u32>,
    /// FIDE federation code, informative.
    pub federation: Option<String>,
    /// Round `r` is `rounds[r - 1]`; missing rounds are absences (zero-point byes).
    pub rounds: Vec<RoundEntry>,
}

impl Player {
    /// A player with no rounds yet.
    pub fn new(id: PlayerId, name: impl Into<String>, rating: Option<u32>) -> Player {
        Player {
            id,
            name: name.into(),
            rating,
            federation: None,
            rounds: Vec::new(),
        }
    }

    /// The entry of round `r` (1-based); an absence when the round is not recorded.
    pub fn entry(&self, round: u32) -> RoundEntry {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
            .copied()
            .unwrap_or(RoundEntry::bye(ResultCode::ZeroBye))
    }

    /// Points over the first `rounds` rounds under `ps`.
    pub fn score(&self, ps: &PointSystem, rounds: u32) -> Score {
        (1..=rounds).map(|r| ps.points(self.entry(r).result)).sum()
    }
}

/// An individual tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    pub players: Vec<Player>,
    /// Rounds to evaluate: all rounds for final standings, the rounds played so far for live
    /// standings. The last of them is the "final round" of Fore Buchholz; the number is also
    /// the "number of rounds" of the 2026 bye cap (C.07 16.4.2) and the Koya maximum in Swiss
    /// events.
    pub rounds: u32,
    pub point_system: PointSystem,
    /// Start date; selects the rule set (see [`crate::RuleSet::for_start_date`]).
    pub start_date: Option<Date>,
    pub pairing: PairingKind,
}

impl Tournament {
    /// An empty Swiss tournament with standard scoring.
    pub fn new(rounds: u32) -> Tournament {
        Tournament {
            players: Vec::new(),
            rounds,
            point_system: PointSystem::default(),
            start_date: None,
            pairing: PairingKind::Swiss,
        }
    }

    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    /// Records a played game (or a forfeit) in round `round` on both players' lines.
    /// `white_result` is White's result; Black gets the mirrored code. Unknown players are
    /// ignored (use [`Tournament::validate`] to find them).
    pub fn set_game(
        &mut self,
        round: u32,
        white: PlayerId,
        black: PlayerId,
        white_result: ResultCode,
    ) {
        let black_result = white_result.mirrored().unwrap_or(ResultCode::ForfeitLoss);
        self.set_entry(
            round,
            white,
            RoundEntry::game(black, Color::White, white_result),
        );
        self.set_entry(
            round,
            black,
            RoundEntry::game(white, Color::Black, black_result),
        );
    }

    /// Records a bye (or absence) for one player.
    pub fn set_bye(&mut self, round: u32, player: PlayerId, result: ResultCode) {
        self.set_entry(round, player, RoundEntry::bye(result));
    }

    /// Sets one player's entry for a round, padding earlier missing rounds with absences.
    pub fn set_entry(&mut self, round: u32, player: PlayerId, entry: RoundEntry) {
        if round == 0 {
            return;
        }
        if let Some(p) = self.players.iter_mut().find(|p| p.id == player) {
            let idx = (round - 1) as usize;
            while p.rounds.len() <= idx {
                p.rounds.push(RoundEntry::bye(ResultCode::ZeroBye));
            }
            p.rounds[idx] = entry;
        }
    }

    /// Checks the model: unique non-zero pairing numbers, opponents that exist and are not the
    /// player himself, and both lines of every pairing agreeing (opponent, colours).
    pub fn validate(&self) -> Result<(), ModelError> {
        let mut seen = std::collections::BTreeSet::new();
        for p in &self.players {
            if p.id == 0 {
                return Err(ModelError::ZeroId);
            }
            if !seen.insert(p.id) {
                return Err(ModelError::DuplicateId(p.id));
            }
        }
        for p in &self.players {
            for r in 1..=self.rounds {
                let e = p.entry(r);
                let Some(o) = e.opponent else {
                    if e.result.is_played() {
                        return Err(ModelError::GameWithoutOpponent {
                            player: p.id,
                            round: r,
                        });
                    }
                    continue;
                };
                if o == p.id {
                    return Err(ModelError::SelfPairing {
                        player: p.id,
                        round: r,
                    });
                }
                let Some(op) = self.player(o) else {
                    return Err(ModelError::UnknownOpponent {
                        player: p.id,
                        round: r,
                        opponent: o,
                    });
                };
                let oe = op.entry(r);
                if oe.opponent != Some(p.id) {
                    return Err(ModelError::OneSidedPairing {
                        player: p.id,
                        round: r,
                        opponent: o,
                    });
                }
                if let (Some(a), Some(b)) = (e.color, oe.color)
                    && a == b
                {
                    return Err(ModelError::SameColour {
                        player: p.id,
                        round: r,
                        opponent: o,
                    });
                }
            }
        }
        Ok(())
    }
}

/// The outcome class of a team's round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TeamRoundKind {
    /// A match played (at least in part) over the boards; points come from the boards.
    Played,
    /// The opposing team did not appear.
    ForfeitWin,
    /// This team did not appear (also both sides of a double forfeit).
    ForfeitLoss,
    /// Pairing-allocated bye (values from [`TeamTournament::pab`]).
    PairingBye,
    /// Requested full-point bye.
    FullBye,
    /// Requested half-point bye.
    HalfBye,
    /// Zero-point bye or absence (every round after a withdrawal).
    ZeroBye,
}

/// One team's round: opponent, colour of the first board, kind and the board results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRoundEntry {
    pub opponent: Option<PlayerId>,
    pub color: Option<Color>,
    pub kind: TeamRoundKind,
    /// This team's result on board 1, 2, ... (played matches only; `None` = board empty,
    /// scored as a forfeit loss).
    pub boards: Vec<Option<ResultCode>>,
}

impl TeamRoundEntry {
    pub fn bye(kind: TeamRoundKind) -> TeamRoundEntry {
        TeamRoundEntry {
            opponent: None,
            color: None,
            kind,
            boards: Vec::new(),
        }
    }
}

/// One team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    /// Team pairing number.
    pub id: PlayerId,
    pub name: String,
    /// Round `r` is `rounds[r - 1]`; missing rounds are absences.
    pub rounds: Vec<TeamRoundEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamTournament {
    pub teams: Vec<Team>,
    pub rounds: u32,
    /// Boards per match.
    pub boards: u32,
    /// Points of each board game.
    pub game_points: PointSystem,
    pub match_points: MatchPoints,
    /// The score that ranks the teams; the other one is `MPvGP`.
    pub primary: TeamScore,
    /// Value of the pairing-allocated bye; `None` = a won match with half of the board points
    /// (draw value on every board).
    pub pab: Option<ByeValue>,
    pub start_date: Option<Date>,
    pub pairing: PairingKind,
}

impl TeamTournament {
    pub fn new(rounds: u32, boards: u32) -> TeamTournament {
        TeamTournament {
            teams: Vec::new(),
            rounds,
            boards,
            game_points: PointSystem::default(),
            match_points: MatchPoints::default(),
            primary: TeamScore::MatchPoints,
            pab: None,
            start_date: None,
            pairing: PairingKind::Swiss,
        }
    }

    pub fn team(&self, id: PlayerId) -> Option<&Team> {
        self.teams.iter().find(|t| t.id == id)
    }

    /// The entry of round `r` (1-based); an absence when not recorded.
    pub fn entry(&self, team: &Team, round: u32) -> TeamRoundEntry {
        round
            .checked_sub(1)
            .and_then(|i| team.rounds.get(i as usize))
            .cloned()
            .unwrap_or(TeamRoundEntry::bye(TeamRoundKind::ZeroBye))
    }

    /// Records a played match: `white_boards` are the first team's board results; the other
    /// team gets the mirrored codes.
    pub fn set_match(
        &mut self,
        round: u32,
        first: PlayerId,
        second: PlayerId,
        first_boards: &[ResultCode],
    ) {
        let mirror: Vec<Option<ResultCode>> = first_boards
            .iter()
            .map(|r| Some(r.mirrored().unwrap_or(ResultCode::ForfeitLoss)))
            .collect();
        let own: Vec<Option<ResultCode>> = first_boards.iter().map(|r| Some(*r)).collect();
        self.set_entry(
            round,
            first,
            TeamRoundEntry {
                opponent: Some(second),
                color: Some(Color::White),
                kind: TeamRoundKind::Played,
                boards: own,
            },
        );
        self.set_entry(
            round,
            second,
            TeamRoundEntry {
                opponent: Some(first),
                color: Some(Color::Black),
                kind: TeamRoundKind::Played,
                boards: mirror,
            },
        );
    }

    /// Sets one team's entry for a round, padding earlier missing rounds with absences.
    pub fn set_entry(&mut self, round: u32, team: PlayerId, entry: TeamRoundEntry) {
        if round == 0 {
            return;
        }
        if let Some(t) = self.teams.iter_mut().find(|t| t.id == team) {
            let idx = (round - 1) as usize;
            while t.rounds.len() <= idx {
                t.rounds.push(TeamRoundEntry::bye(TeamRoundKind::ZeroBye));
            }
            t.rounds[idx] = entry;
        }
    }

    /// Same checks as [`Tournament::validate`], for teams.
    pub fn validate(&self) -> Result<(), ModelError> {
        let mut seen = std::collections::BTreeSet::new();
        for t in &self.teams {
            if t.id == 0 {
                return Err(ModelError::ZeroId);
            }
            if !seen.insert(t.id) {
                return Err(ModelError::DuplicateId(t.id));
            }
        }
        for t in &self.teams {
            for r in 1..=self.rounds {
                let e = self.entry(t, r);
                let Some(o) = e.opponent else { continue };
                if o == t.id {
                    return Err(ModelError::SelfPairing {
                        player: t.id,
                        round: r,
                    });
                }
                let Some(ot) = self.team(o) else {
                    return Err(ModelError::UnknownOpponent {
                        player: t.id,
                        round: r,
                        opponent: o,
                    });
                };
                if self.entry(ot, r).opponent != Some(t.id) {
                    return Err(ModelError::OneSidedPairing {
                        player: t.id,
                        round: r,
                        opponent: o,
                    });
                }
            }
        }
        Ok(())
    }
}

/// An inconsistency in a tournament model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("pairing number 0 is not a valid participant")]
    ZeroId,
    #[error("pairing number {0} is used twice")]
    DuplicateId(PlayerId),
    #[error("participant {player}, round {round}: paired against himself")]
    SelfPairing { player: PlayerId, round: u32 },
    #[error("participant {player}, round {round}: opponent {opponent} does not exist")]
    UnknownOpponent {
        player: PlayerId,
        round: u32,
        opponent: PlayerId,
    },
    #[error(
        "participant {player}, round {round}: opponent {opponent} does not name him in that round"
    )]
    OneSidedPairing {
        player: PlayerId,
        round: u32,
        opponent: PlayerId,
    },
    #[error("participant {player}, round {round}: a played result without an opponent")]
    GameWithoutOpponent { player: PlayerId, round: u32 },
    #[error("participant {player}, round {round}: same colour as opponent {opponent}")]
    SameColour {
        player: PlayerId,
        round: u32,
        opponent: PlayerId,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_and_order() {
        let a: Date = "2024/08/01".parse().unwrap();
        let b: Date = "2026-03-01".parse().unwrap();
        assert!(a < b);
        assert_eq!(a.to_string(), "2024-08-01");
        assert!("2025/02/29".parse::<Date>().is_err());
        assert!("2024/02/29".parse::<Date>().is_ok());
        assert!("24/02/01".parse::<Date>().is_err());
        assert!("2024/13/01".parse::<Date>().is_err());
    }

    #[test]
    fn validation_finds_inconsistencies() {
        let mut t = Tournament::new(1);
        t.players.push(Player::new(1, "A", None));
        t.players.push(Player::new(2, "B", None));
        t.set_game(1, 1, 2, ResultCode::Win);
        assert_eq!(t.validate(), Ok(()));
        t.players[1].rounds[0] = RoundEntry::bye(ResultCode::HalfBye);
        assert_eq!(
            t.validate(),
            Err(ModelError::OneSidedPairing {
                player: 1,
                round: 1,
                opponent: 2
            })
        );
        t.players[0].rounds[0] = RoundEntry::game(3, Color::White, ResultCode::Win);
        assert_eq!(
            t.validate(),
            Err(ModelError::UnknownOpponent {
                player: 1,
                round: 1,
                opponent: 3
            })
        );
        t.players.push(Player::new(1, "C", None));
        assert_eq!(t.validate(), Err(ModelError::DuplicateId(1)));
    }

    #[test]
    fn missing_rounds_are_absences() {
        let p = Player::new(1, "A", None);
        assert_eq!(p.entry(3).result, ResultCode::ZeroBye);
        assert_eq!(p.entry(0).result, ResultCode::ZeroBye);
    }
}

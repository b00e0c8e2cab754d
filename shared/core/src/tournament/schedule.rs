//! The schedule of a round robin (C.05 §5.1 and Annex 1): the Berger table of the field,
//! single or double, by pairing numbers; or of a Scheveningen match between two teams (Arbiters' Manual 2023
//! ch. IV §3):
//! the manual's table, players 1..k being team A's boards and k+1..2k team B's. In a round robin the pairing number IS the drawing of
//! lots (C.05 §6.2): players are numbered in the order the arbiter registers them, so the
//! arbiter registers them in the order of the numbers drawn (see `decide::register`).

use super::error::DomainError;
use super::state::State;
use super::types::{Pair, PairingSystem};
use crate::PlayerId;

/// One round of a round-robin schedule, by pairing numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledRound {
    pub round: u32,
    /// The Berger table's games in its board order, white first.
    pub boards: Vec<Pair>,
    /// Odd fields: the player scheduled against the table's highest number, who rests (a
    /// zero-point rest, Arbiters' Manual 2023 ch. IV §1; not a pairing-allocated bye).
    pub rest: Option<PlayerId>,
    /// A knockout's players without a game this round (eliminated, their match decided, or a
    /// bye): each has a zero-point bye. Empty for a round robin.
    pub not_playing: Vec<PlayerId>,
}

/// The rounds a round robin of `players` players needs (n − 1 for an even field, n for an odd
/// one, twice that for a double round robin; a Scheveningen of two teams of k, k rounds, a
/// semi-Scheveningen k/2); `None` for a Swiss system or fewer than 2 players.
pub fn round_robin_rounds(system: PairingSystem, players: u32) -> Option<u32> {
    let single = match players {
        0 | 1 => return None,
        n => n - 1 + n % 2,
    };
    match system {
        PairingSystem::RoundRobin => Some(single),
        PairingSystem::DoubleRoundRobin => Some(2 * single),
        PairingSystem::Scheveningen => Some(players / 2),
        PairingSystem::SemiScheveningen => Some(players / 4),
        PairingSystem::Skalitzka => Some(2),
        PairingSystem::Hilton => Some(3),
        _ => None,
    }
}

/// The players of one team in a team-table event (Scheveningen, semi-Scheveningen, Skalitzka,
/// Hilton), whose players are numbered team by team: team `t` (from 0) is pairing numbers
/// `t·size + 1 ..= (t + 1)·size`. `None` for other systems or a field with no table.
pub fn team_size(system: PairingSystem, players: u32) -> Option<u32> {
    match system {
        PairingSystem::Scheveningen | PairingSystem::SemiScheveningen
            if players.is_multiple_of(2) =>
        {
            Some(players / 2)
        }
        PairingSystem::Skalitzka if players.is_multiple_of(3) => Some(players / 3),
        PairingSystem::Hilton => [4u32, 6, 8, 10, 12]
            .into_iter()
            .find(|t| t * (t - 1) == players)
            .map(|t| t - 1),
        _ => None,
    }
    .filter(|&s| s > 0)
}

/// The whole schedule of a round robin of `players` players under `system`.
pub fn round_robin_schedule(
    system: PairingSystem,
    players: u32,
) -> Result<Vec<ScheduledRound>, DomainError> {
    let rounds = match system {
        PairingSystem::RoundRobin => arbiter_roundrobin::berger(players),
        // The manual's chapter IV scheme (Arbiters' Manual 2023 ch. IV "Doble Ronda"): last two rounds of the first
        // cycle swapped, second cycle with colours reversed.
        PairingSystem::DoubleRoundRobin => arbiter_roundrobin::double_berger(players),
        PairingSystem::Scheveningen | PairingSystem::SemiScheveningen => {
            if players % 2 == 1 {
                return Err(DomainError::invalid(
                    "players",
                    format!(
                        "{players} players: a Scheveningen is a match of two teams of equal size (players 1..k team A, k+1..2k team B)"
                    ),
                ));
            }
            if system == PairingSystem::Scheveningen {
                arbiter_roundrobin::scheveningen::scheveningen(players / 2)
            } else {
                arbiter_roundrobin::scheveningen::semi_scheveningen(players / 2)
            }
        }
        PairingSystem::Skalitzka => {
            if !players.is_multiple_of(3) {
                return Err(DomainError::invalid(
                    "players",
                    format!(
                        "{players} players: a Skalitzka is three teams of equal size (players 1..b team 1, b+1..2b team 2, 2b+1..3b team 3)"
                    ),
                ));
            }
            arbiter_roundrobin::skalitzka::skalitzka(players / 3)
        }
        PairingSystem::Hilton => {
            // T teams of T − 1: T(T − 1) players.
            match team_size(PairingSystem::Hilton, players) {
                Some(boards) => arbiter_roundrobin::hilton::hilton(boards + 1),
                None => {
                    return Err(DomainError::invalid(
                        "players",
                        format!(
                            "{players} players: the Hilton tables are for T teams of T - 1 boards, T = 4, 6, 8, 10 or 12 (12, 30, 56, 90 or 132 players)"
                        ),
                    ));
                }
            }
        }
        PairingSystem::Knockout => {
            return Err(DomainError::invalid(
                "pairing_system",
                "a knockout's rounds follow its bracket and results, not a fixed table (State::bracket)",
            ));
        }
        other => {
            return Err(DomainError::invalid(
                "pairing_system",
                format!("{other:?} is a Swiss system: it has no fixed schedule"),
            ));
        }
    }
    .map_err(|e| DomainError::invalid("players", e.to_string()))?;
    Ok(rounds
        .into_iter()
        .enumerate()
        .map(|(i, r)| ScheduledRound {
            round: i as u32 + 1,
            boards: r.games.into_iter().map(|(w, b)| Pair::new(w, b)).collect(),
            rest: r.rest,
            not_playing: Vec::new(),
        })
        .collect())
}

impl State {
    /// The schedule of this round-robin tournament for its registered field (every player
    /// registered, withdrawn ones included: their games stay on the schedule and are forfeited,
    /// C.05 §6.4 and §6.6).
    pub fn schedule(&self) -> Result<Vec<ScheduledRound>, DomainError> {
        let system = self.tournament().map(|t| t.pairing_system).ok_or(
            DomainError::TournamentNotCreated {
                command: "Schedule",
            },
        )?;
        self.not_team_event()?;
        if system == PairingSystem::Knockout {
            // The rounds played so far and the next one: later rounds depend on results.
            let bracket = self.bracket()?;
            let last = bracket.next.map_or(self.published_rounds(), |(r, _, _)| r);
            return (1..=last).map(|r| self.knockout_round(r)).collect();
        }
        round_robin_schedule(system, self.player_count())
    }

    /// A player schedule is not a team event's: its rounds are of teams
    /// ([`State::team_schedule_round`]).
    fn not_team_event(&self) -> Result<(), DomainError> {
        if self.team_rules().is_some() {
            return Err(DomainError::invalid(
                "pairing_system",
                "a team event's schedule is of teams, its boards follow from the line-ups",
            ));
        }
        Ok(())
    }

    /// Round `round` of the schedule; refused when the tournament's number of rounds does not
    /// fit its field.
    pub fn scheduled_round(&self, round: u32) -> Result<ScheduledRound, DomainError> {
        let t = self.tournament().ok_or(DomainError::TournamentNotCreated {
            command: "Schedule",
        })?;
        self.not_team_event()?;
        self.check_round_robin_rounds()?;
        if t.pairing_system == PairingSystem::Knockout {
            if round == 0 || round > t.rounds {
                return Err(DomainError::RoundOutOfRange {
                    round,
                    rounds: t.rounds,
                });
            }
            return self.knockout_round(round);
        }
        let mut all = round_robin_schedule(t.pairing_system, self.player_count())?;
        if round == 0 || round as usize > all.len() {
            return Err(DomainError::RoundOutOfRange {
                round,
                rounds: all.len() as u32,
            });
        }
        Ok(all.swap_remove(round as usize - 1))
    }

    /// C.05 §6.6: the players of a round robin who withdrew (or were
    /// excluded) having completed less than 50 % of their scheduled games. Their results stay
    /// in the crosstable and the rating reports, but the points scored by or against them are
    /// not counted in the standings. Completed = played over the board before the round he
    /// withdrew from; scheduled = every game of his on the schedule (rests are no games). A
    /// player with at least 50 % keeps his results, and his remaining games are forfeits
    /// recorded on their boards ("−" for him, "+" for the opponent). Empty for Swiss events.
    pub fn withdrawn_below_half(&self) -> Vec<PlayerId> {
        let Some(t) = self.tournament() else {
            return Vec::new();
        };
        let n = self.player_count();
        if round_robin_rounds(t.pairing_system, n).is_none() {
            return Vec::new();
        }
        // Each cycle gives every player n − 1 games (an odd field's extra round is a rest); a
        // Scheveningen gives every player a game in every round.
        let scheduled = match t.pairing_system {
            PairingSystem::DoubleRoundRobin => 2 * (n - 1),
            PairingSystem::Scheveningen
            | PairingSystem::SemiScheveningen
            | PairingSystem::Skalitzka
            | PairingSystem::Hilton => t.rounds,
            _ => n - 1,
        };
        self.withdrawals()
            .into_iter()
            .filter(|&(pn, from_round)| {
                let completed = (1..from_round)
                    .filter_map(|r| self.entry(pn, r))
                    .filter(|e| e.is_played_game())
                    .count() as u32;
                2 * completed < scheduled
            })
            .map(|(pn, _)| pn)
            .collect()
    }

    /// A round robin's number of rounds is fixed by its field: refused when they differ, or
    /// when the field has no schedule (a Scheveningen of an odd field, or of teams beyond the
    /// manual's tables).
    pub fn check_round_robin_rounds(&self) -> Result<(), DomainError> {
        let Some(t) = self.tournament() else {
            return Ok(());
        };
        if t.team_rules.is_some() {
            // Checked on the teams at round 1 (`team_event::check_start`).
            return Ok(());
        }
        let players = self.player_count();
        if t.pairing_system == PairingSystem::Knockout {
            let (expected, knockout_rounds, games) = self.knockout_event_rounds()?;
            if players < 2 {
                return Err(DomainError::invalid(
                    "players",
                    format!("{players} players: a knockout needs at least 2"),
                ));
            }
            if expected != t.rounds {
                return Err(DomainError::KnockoutRounds {
                    players,
                    rounds: t.rounds,
                    expected,
                    knockout_rounds,
                    games,
                });
            }
            return Ok(());
        }
        if t.pairing_system.is_team_table() {
            round_robin_schedule(t.pairing_system, players)?;
        }
        match round_robin_rounds(t.pairing_system, players) {
            Some(expected) if expected != t.rounds => Err(DomainError::RoundRobinRounds {
                players,
                rounds: t.rounds,
                expected,
                kind: match t.pairing_system {
                    PairingSystem::DoubleRoundRobin => "double round robin",
                    PairingSystem::Scheveningen => "Scheveningen",
                    PairingSystem::SemiScheveningen => "semi-Scheveningen",
                    PairingSystem::Skalitzka => "Skalitzka",
                    PairingSystem::Hilton => "Hilton",
                    _ => "round robin",
                },
            }),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_fit_the_field() {
        let rr = PairingSystem::RoundRobin;
        let drr = PairingSystem::DoubleRoundRobin;
        assert_eq!(round_robin_rounds(rr, 10), Some(9));
        assert_eq!(round_robin_rounds(rr, 9), Some(9));
        assert_eq!(round_robin_rounds(drr, 4), Some(6));
        assert_eq!(round_robin_rounds(drr, 3), Some(6));
        assert_eq!(round_robin_rounds(rr, 1), None);
        assert_eq!(round_robin_rounds(PairingSystem::Dutch, 10), None);
        // Two teams of k: k rounds; a semi-Scheveningen k / 2.
        assert_eq!(round_robin_rounds(PairingSystem::Scheveningen, 8), Some(4));
        assert_eq!(
            round_robin_rounds(PairingSystem::SemiScheveningen, 16),
            Some(4)
        );
        assert!(round_robin_schedule(PairingSystem::Scheveningen, 7).is_err());
        assert!(round_robin_schedule(PairingSystem::Scheveningen, 22).is_err());
        assert!(round_robin_schedule(PairingSystem::SemiScheveningen, 10).is_err());
        assert_eq!(team_size(PairingSystem::Scheveningen, 8), Some(4));
        assert_eq!(team_size(PairingSystem::Skalitzka, 18), Some(6));
        assert_eq!(team_size(PairingSystem::Hilton, 30), Some(5));
        assert_eq!(team_size(PairingSystem::Hilton, 20), None);
        assert_eq!(team_size(PairingSystem::RoundRobin, 8), None);
        assert_eq!(
            round_robin_schedule(PairingSystem::SemiScheveningen, 8)
                .unwrap()
                .len(),
            2
        );
    }
}

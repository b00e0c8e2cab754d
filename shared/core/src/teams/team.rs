//! Team lists and line-ups (C.05 7.1 = Arbiters' Manual 2023 ch. IX §7.1, and its commentary).
//!
//! The list a team submits before the event fixes its board order for the whole event. A
//! round's line-up is `boards` players of that list in the list's order: a player never plays
//! above one listed before him (Arbiters' Manual 2023: with 4 boards and a reserve, 1-2-3-4, 1-2-3-5, 1-2-4-5,
//! 1-3-4-5 or 2-3-4-5; "the reserve always plays board 4").

use super::error::TeamError;
use super::{TeamNumber, TeamRules};
use crate::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A team as registered: its number (seeding order), name and list in board order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    pub number: TeamNumber,
    pub name: String,
    /// The list submitted before the event, board order first: `boards` players and at most
    /// `reserves` more.
    pub members: Vec<PlayerId>,
}

/// The teams' lists are usable under `rules`: numbers from 1 and unique, `boards` to
/// `boards + reserves` members each, no player listed twice (in one team or in two).
pub fn validate_teams(rules: &TeamRules, teams: &[Team]) -> Result<(), TeamError> {
    rules.check(teams.len())?;
    check_lists(rules, teams)
}

/// The lists alone (as [`validate_teams`], without the rules' own checks): what a team event
/// checks as each team is recorded, before the number of teams is known.
pub fn check_lists(rules: &TeamRules, teams: &[Team]) -> Result<(), TeamError> {
    let mut numbers = BTreeMap::new();
    let mut players: BTreeMap<PlayerId, TeamNumber> = BTreeMap::new();
    for t in teams {
        let bad = |why: String| {
            Err(TeamError::Team {
                team: t.number,
                why,
            })
        };
        if t.number == 0 {
            return bad("team number 0: numbers start at 1".into());
        }
        if numbers.insert(t.number, ()).is_some() {
            return bad("the team number is used twice".into());
        }
        if t.name.trim().is_empty() {
            return bad("the name is empty".into());
        }
        let n = t.members.len() as u32;
        if n < rules.boards || n > rules.boards + rules.reserves {
            return bad(format!(
                "{n} players listed: a team lists {} to {} (boards {} + reserves {})",
                rules.boards,
                rules.boards + rules.reserves,
                rules.boards,
                rules.reserves
            ));
        }
        for &p in &t.members {
            if p == 0 {
                return bad("player 0 is not a player".into());
            }
            if let Some(other) = players.insert(p, t.number) {
                return bad(if other == t.number {
                    format!("player {p} is listed twice")
                } else {
                    format!("player {p} is already listed by team {other}")
                });
            }
        }
    }
    Ok(())
}

/// The players of one team for one round, board 1 first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lineup {
    pub team: TeamNumber,
    pub players: Vec<PlayerId>,
}

impl Lineup {
    /// The line-up is `rules.boards` distinct players of `team`'s list, in the list's order.
    /// The error names the board and the player.
    pub fn check(&self, rules: &TeamRules, team: &Team) -> Result<(), TeamError> {
        let bad = |board: usize, player: PlayerId, why: String| {
            Err(TeamError::Lineup {
                team: team.number,
                board: board as u32 + 1,
                player,
                why,
            })
        };
        if self.team != team.number {
            return Err(TeamError::Team {
                team: team.number,
                why: format!("the line-up is team {}'s", self.team),
            });
        }
        if self.players.len() != rules.boards as usize {
            return Err(TeamError::Team {
                team: team.number,
                why: format!(
                    "the line-up has {} players for {} boards",
                    self.players.len(),
                    rules.boards
                ),
            });
        }
        // Place in the list of the player on the board above.
        let mut above: Option<(usize, PlayerId)> = None;
        for (b, &p) in self.players.iter().enumerate() {
            let Some(place) = team.members.iter().position(|&m| m == p) else {
                return bad(b, p, "not on the team's list".into());
            };
            if let Some((prev, q)) = above {
                if place == prev {
                    return bad(b, p, "already in the line-up".into());
                }
                if place < prev {
                    return bad(
                        b,
                        p,
                        format!(
                            "listed before player {q} on the board above: the list's board order is fixed (Arbiters' Manual 2023 ch. IX §7)"
                        ),
                    );
                }
            }
            above = Some((place, p));
        }
        Ok(())
    }
}

/// The line-up of a team that submitted none: the first `rules.boards` players of its list
/// (Arbiters' Manual 2023 ch. IX §7.1), skipping those `available` says cannot play (absent, suspended). Fails
/// naming the team when fewer players are available than boards.
pub fn default_lineup(
    rules: &TeamRules,
    team: &Team,
    available: impl Fn(PlayerId) -> bool,
) -> Result<Lineup, TeamError> {
    let players: Vec<PlayerId> = team
        .members
        .iter()
        .copied()
        .filter(|&p| available(p))
        .take(rules.boards as usize)
        .collect();
    if players.len() < rules.boards as usize {
        return Err(TeamError::Team {
            team: team.number,
            why: format!(
                "{} players available for {} boards",
                players.len(),
                rules.boards
            ),
        });
    }
    Ok(Lineup {
        team: team.number,
        players,
    })
}

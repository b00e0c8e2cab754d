//! A team event in the event log (C.05 Art. 7 = Arbiters' Manual 2023 ch. IX §7; the rules are
//! [`crate::teams`]').
//!
//! Round model: each round's pairing is first of teams. The pairing worker proposes the
//! round's matches (a team Swiss: the Dutch engine on the teams, in arbiter-teams; a team
//! round robin: the Berger table over the team numbers, checked here). While the round's
//! pairing is pending each team gives its line-up (`LineupSubmitted`: `boards` players of its
//! list in the list's order; a later one replaces it). Publication then expands every match
//! into its board pairs — board k of the m-th match is board (m − 1) · boards + k of the
//! round — from the submitted line-ups, or, for a team that gave none, the first `boards`
//! available players of its list (Arbiters' Manual 2023 ch. IX §7.1). Every player not on a board that round
//! (reserves, the team with the bye) is listed unpaired with a zero-point bye: no game. The
//! team pairing-allocated bye is a fact about teams (TRF-2026 record 320) and scores in the
//! team standings only. Results are recorded board by board as in any event, so the
//! individual crosstable, ratings and the TRF player records need nothing of their own.

use super::command::{ManualPairing, RecordTeam, SubmitLineup};
use super::error::DomainError;
use super::event::{Event, LineupSubmitted, TeamRecorded, TournamentCreated};
use super::schedule::round_robin_schedule;
use super::state::{RoundPhase, State};
use super::types::{Board, PairingSystem, Unpaired};
use crate::teams::{
    self, Lineup, Team, TeamError, TeamMatch, TeamNumber, TeamRules, check_lists, default_lineup,
    forfeited_whole, validate_teams,
};
use crate::{PlayerId, PointSystem, ResultCode};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A round of teams: its matches in board order and the team with the pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TeamPairing {
    pub matches: Vec<TeamMatch>,
    pub bye: Option<TeamNumber>,
}

/// A [`TeamError`] as the aggregate's refusal, naming the field.
pub(crate) fn team_error(e: TeamError) -> DomainError {
    match e {
        TeamError::Rules { field, why } => DomainError::invalid(format!("team_rules.{field}"), why),
        TeamError::Lineup { .. } => DomainError::invalid("players", e.to_string()),
        other => DomainError::invalid("team", other.to_string()),
    }
}

/// The regulations of a team event at creation: only a team Swiss (Dutch) or a single or
/// double round robin of teams; the game points are the event's scoring. Whether a PAB value
/// is needed depends on the number of teams, checked at round 1.
pub(crate) fn creation_rules(
    system: PairingSystem,
    rules: Option<&TeamRules>,
    scoring: &PointSystem,
) -> Result<Option<TeamRules>, DomainError> {
    let Some(r) = rules else {
        return Ok(None);
    };
    if !matches!(
        system,
        PairingSystem::Dutch | PairingSystem::RoundRobin | PairingSystem::DoubleRoundRobin
    ) {
        return Err(DomainError::invalid(
            "team_rules",
            format!(
                "a team event is a team Swiss (the Dutch system on teams) or a single or double round robin of teams, not {system:?}"
            ),
        ));
    }
    let mut r = r.clone();
    r.game_points = *scoring;
    r.check(2).map_err(team_error)?;
    Ok(Some(r))
}

impl State {
    /// A team event's regulations.
    pub fn team_rules(&self) -> Option<&TeamRules> {
        self.tournament()?.team_rules.as_ref()
    }

    /// The teams of a team event in number order, lists by current pairing numbers.
    pub fn team_lists(&self) -> Vec<Team> {
        let mut v: Vec<Team> = self
            .teams
            .iter()
            .map(|(t, members)| Team {
                number: t.number,
                name: t.name.clone(),
                members: members.iter().flatten().map(|e| self.pn(*e)).collect(),
            })
            .collect();
        v.sort_by_key(|t| t.number);
        v
    }

    /// The line-up `team` gave for `round`, by current pairing numbers.
    pub fn lineup(&self, round: u32, team: TeamNumber) -> Option<Vec<PlayerId>> {
        self.team_lineups
            .get(&(round, team))
            .map(|v| v.iter().map(|e| self.pn(*e)).collect())
    }

    /// The published team pairing of `round`.
    pub fn team_pairing(&self, round: u32) -> Option<TeamPairing> {
        self.team_rounds.get(&round).cloned()
    }

    /// The proposed team pairing of `round`, while it is pending.
    pub fn team_proposal(&self, round: u32) -> Option<TeamPairing> {
        let p = self.round(round)?.proposal.as_ref()?;
        Some(TeamPairing {
            matches: p.team_matches.clone(),
            bye: p.team_bye,
        })
    }

    /// Round `round` of a team round robin: the Berger table (single or double) over the team
    /// numbers 1..n, the table's White the team named first; the team the table leaves out in
    /// an odd field rests (no match, no bye).
    pub fn team_schedule_round(&self, round: u32) -> Result<TeamPairing, DomainError> {
        let t = self.tournament().ok_or(DomainError::TournamentNotCreated {
            command: "Schedule",
        })?;
        let n = self.teams.len() as u32;
        let mut all = round_robin_schedule(t.pairing_system, n)?;
        if round == 0 || round as usize > all.len() {
            return Err(DomainError::RoundOutOfRange {
                round,
                rounds: all.len() as u32,
            });
        }
        let r = all.swap_remove(round as usize - 1);
        Ok(TeamPairing {
            matches: r
                .boards
                .iter()
                .map(|p| TeamMatch {
                    first: p.white,
                    second: p.black,
                })
                .collect(),
            bye: None,
        })
    }
}

/// `RecordTeam` in a team event: before round 1, numbered in order (0 = the next number),
/// every member registered, the list as the rules allow and no player on two lists.
pub(crate) fn record_team(
    s: &State,
    rules: &TeamRules,
    c: &RecordTeam,
    name: String,
    nickname: String,
) -> Result<Vec<Event>, DomainError> {
    if s.current_round().is_some() {
        return Err(DomainError::invalid(
            "team",
            "the teams' lists are submitted before round 1 (Arbiters' Manual 2023 ch. IX §7)",
        ));
    }
    let next = s.teams.len() as u32 + 1;
    let number = if c.team.number == 0 {
        next
    } else {
        c.team.number
    };
    if number != next {
        return Err(DomainError::invalid(
            "team.number",
            format!(
                "{number}: the next team is number {next} (teams are numbered in their seeding order)"
            ),
        ));
    }
    let mut members = Vec::with_capacity(c.team.members.len());
    for (i, m) in c.team.members.iter().enumerate() {
        let Some(pn) = m else {
            return Err(DomainError::invalid(
                format!("team.members[{i}]"),
                "an empty place: a team event's list names every player",
            ));
        };
        if s.entry_of(*pn).is_none() {
            return Err(DomainError::invalid(
                format!("team.members[{i}]"),
                format!("player {pn} is not registered"),
            ));
        }
        members.push(*pn);
    }
    let mut lists = s.team_lists();
    lists.push(Team {
        number,
        name: name.clone(),
        members,
    });
    check_lists(rules, &lists).map_err(team_error)?;
    // A team event's points and ranks are its standings', never recorded.
    Ok(vec![Event::TeamRecorded(TeamRecorded {
        number,
        name,
        nickname,
        match_points: None,
        game_points: None,
        rank: None,
        ..c.team.clone()
    })])
}

/// Before round 1 of a team event: at least two teams, the rules complete for their number
/// (an odd team Swiss needs its PAB value), every player on a list, and a round robin's
/// rounds those of its table.
pub(crate) fn check_start(
    s: &State,
    t: &TournamentCreated,
    rules: &TeamRules,
) -> Result<(), DomainError> {
    let lists = s.team_lists();
    if lists.len() < 2 {
        return Err(DomainError::invalid(
            "team",
            format!("{} teams: a team event needs at least 2", lists.len()),
        ));
    }
    validate_teams(rules, &lists).map_err(team_error)?;
    let listed: BTreeSet<PlayerId> = lists.iter().flat_map(|t| t.members.clone()).collect();
    let unlisted: Vec<String> = s
        .players()
        .map(|p| p.pairing_number())
        .filter(|pn| !listed.contains(pn))
        .map(|pn| pn.to_string())
        .collect();
    if !unlisted.is_empty() {
        return Err(DomainError::invalid(
            "team",
            format!(
                "players {} are on no team's list: every player of a team event plays for a team",
                unlisted.join(", ")
            ),
        ));
    }
    if !t.pairing_system.is_swiss() {
        let rounds = round_robin_schedule(t.pairing_system, lists.len() as u32)?.len() as u32;
        if rounds != t.rounds {
            return Err(DomainError::invalid(
                "rounds",
                format!(
                    "{} rounds, but a {:?} of {} teams has {rounds}",
                    t.rounds,
                    t.pairing_system,
                    lists.len()
                ),
            ));
        }
    }
    Ok(())
}

/// Match `index` of round `round` was played: not forfeited whole ([`forfeited_whole`]: some
/// board played over the board, or boards forfeited both ways). A match forfeited whole is no
/// meeting (only played games count, C.04.2.D.6; C.04.6 Art. 1.6 for teams); one without all
/// its results yet counts as played.
fn match_played(s: &State, rules: &TeamRules, round: u32, index: usize) -> bool {
    let per = rules.boards as usize;
    let Some(published) = s.published(round) else {
        return true;
    };
    let Some(boards) = published.boards.get(index * per..(index + 1) * per) else {
        return true;
    };
    let codes: Option<Vec<_>> = boards
        .iter()
        .enumerate()
        .map(|(k, b)| Some(rules.codes_by_team(k as u32 + 1, b.result?.codes())))
        .collect();
    codes.is_none_or(|codes| forfeited_whole(codes).is_none())
}

/// A round's team pairing is usable: a round robin's is its table's round; a team Swiss pairs
/// every team once (matches and the bye), gives the bye only when the rules value it and to a
/// team that has not had it, and pairs no two teams that met before (C.04.1.b and d applied
/// to teams).
pub(crate) fn check_pairing(
    s: &State,
    t: &TournamentCreated,
    rules: &TeamRules,
    round: u32,
    pairing: &TeamPairing,
) -> Result<(), DomainError> {
    if !t.pairing_system.is_swiss() {
        let expected = s.team_schedule_round(round)?;
        let show = |m: Option<&TeamMatch>| {
            m.map_or("no match".to_string(), |m| {
                format!("{}-{}", m.first, m.second)
            })
        };
        if pairing.bye.is_some() {
            return Err(DomainError::invalid(
                "team_bye",
                "a round robin of teams has no pairing-allocated bye",
            ));
        }
        for i in 0..pairing.matches.len().max(expected.matches.len()) {
            let (given, want) = (pairing.matches.get(i), expected.matches.get(i));
            if given != want {
                return Err(DomainError::invalid(
                    format!("team_matches[{i}]"),
                    format!(
                        "round {round}: the table has {}, not {}",
                        show(want),
                        show(given)
                    ),
                ));
            }
        }
        return Ok(());
    }
    let known: BTreeSet<TeamNumber> = s.teams.iter().map(|(t, _)| t.number).collect();
    let mut seen = BTreeSet::new();
    for (i, m) in pairing.matches.iter().enumerate() {
        for team in [m.first, m.second] {
            if !known.contains(&team) {
                return Err(DomainError::invalid(
                    format!("team_matches[{i}]"),
                    format!("team {team} is not registered"),
                ));
            }
            if !seen.insert(team) {
                return Err(DomainError::invalid(
                    format!("team_matches[{i}]"),
                    format!("team {team} is paired twice"),
                ));
            }
        }
        if let Some(earlier) = (1..round).find(|&r| {
            s.team_rounds.get(&r).is_some_and(|p| {
                p.matches.iter().enumerate().any(|(j, x)| {
                    ((x.first, x.second) == (m.first, m.second)
                        || (x.first, x.second) == (m.second, m.first))
                        && match_played(s, rules, r, j)
                })
            })
        }) {
            return Err(DomainError::invalid(
                format!("team_matches[{i}]"),
                format!(
                    "teams {} and {} met in round {earlier}: two teams do not meet twice (C.04.1.b)",
                    m.first, m.second
                ),
            ));
        }
    }
    if let Some(b) = pairing.bye {
        if rules.pab.is_none() {
            return Err(DomainError::invalid(
                "team_bye",
                "the rules give the team pairing-allocated bye no value (team_rules.pab)",
            ));
        }
        if !known.contains(&b) || !seen.insert(b) {
            return Err(DomainError::invalid(
                "team_bye",
                format!("team {b} is not registered or already paired"),
            ));
        }
        if let Some(r) =
            (1..round).find(|&r| s.team_rounds.get(&r).is_some_and(|p| p.bye == Some(b)))
        {
            return Err(DomainError::invalid(
                "team_bye",
                format!("team {b} had the pairing-allocated bye in round {r} (C.04.1.d)"),
            ));
        }
    }
    let missing: Vec<String> = known.difference(&seen).map(|n| n.to_string()).collect();
    if !missing.is_empty() {
        return Err(DomainError::invalid(
            "team_matches",
            format!("round {round}: teams {} are not paired", missing.join(", ")),
        ));
    }
    Ok(())
}

/// `SubmitLineup`: a team's players for a round whose pairing is not yet published, in its
/// list's order, every one available that round.
pub(crate) fn submit_lineup(
    s: &State,
    rules: &TeamRules,
    c: &SubmitLineup,
) -> Result<Vec<Event>, DomainError> {
    match s.round_phase(c.round) {
        Some(p) if p.is_pending() => {}
        None => return Err(DomainError::RoundNotStarted { round: c.round }),
        Some(RoundPhase::Published | RoundPhase::Closed) | Some(_) => {
            return Err(DomainError::RoundAlreadyPaired {
                round: c.round,
                hint: "a line-up is given before the round's boards are published",
            });
        }
    }
    let Some(team) = s.team_lists().into_iter().find(|t| t.number == c.team) else {
        return Err(DomainError::invalid(
            "team",
            format!("team {} is not registered", c.team),
        ));
    };
    let lineup = Lineup {
        team: c.team,
        players: c.players.clone(),
    };
    lineup.check(rules, &team).map_err(team_error)?;
    for (b, &pn) in c.players.iter().enumerate() {
        let availability = s
            .player(pn)
            .map(|p| p.availability(c.round))
            .ok_or_else(|| {
                DomainError::invalid("players", format!("player {pn} is not registered"))
            })?;
        if !availability.is_available() {
            return Err(DomainError::invalid(
                format!("players[{b}]"),
                format!(
                    "player {pn} cannot play round {}: {availability:?}",
                    c.round
                ),
            ));
        }
    }
    Ok(vec![Event::LineupSubmitted(LineupSubmitted {
        round: c.round,
        team: c.team,
        players: c.players.clone(),
    })])
}

/// The boards of a team round: every match expanded from its teams' line-ups (submitted, or
/// the default one), numbered in match order; every other player unpaired with no game.
pub(crate) fn boards(
    s: &State,
    rules: &TeamRules,
    round: u32,
    pairing: &TeamPairing,
) -> Result<(Vec<Board>, Vec<Unpaired>), DomainError> {
    let lists = s.team_lists();
    let lineup = |team: TeamNumber| -> Result<Lineup, DomainError> {
        if let Some(players) = s.lineup(round, team) {
            return Ok(Lineup { team, players });
        }
        let list = lists.iter().find(|t| t.number == team).ok_or_else(|| {
            DomainError::invalid("team", format!("team {team} is not registered"))
        })?;
        default_lineup(rules, list, |pn| {
            s.player(pn).is_some_and(|p| p.availability(round).is_available())
        })
        .map_err(|e| {
            DomainError::invalid(
                "team",
                format!("{e}; it gave no line-up for round {round}, and its list's first available players do not fill the boards"),
            )
        })
    };
    let mut boards = Vec::new();
    let mut on_board = BTreeSet::new();
    for m in &pairing.matches {
        let pairs =
            teams::expand(rules, m, &lineup(m.first)?, &lineup(m.second)?).map_err(team_error)?;
        for p in pairs {
            on_board.insert(p.white);
            on_board.insert(p.black);
            boards.push(Board {
                number: boards.len() as u32 + 1,
                white: p.white,
                black: p.black,
            });
        }
    }
    let unpaired = s
        .players()
        .map(|p| p.pairing_number())
        .filter(|pn| !on_board.contains(pn))
        .map(|pn| Unpaired {
            player_id: pn,
            code: ResultCode::ZeroBye,
        })
        .collect();
    Ok((boards, unpaired))
}

/// What a publication by hand names in a team event: the matches and the bye, not boards.
pub(crate) fn manual(m: &ManualPairing) -> Result<TeamPairing, DomainError> {
    if !m.boards.is_empty() || m.bye.is_some() {
        return Err(DomainError::invalid(
            "changes",
            "a team event's pairing names matches (team_matches, team_bye); its boards follow from the line-ups",
        ));
    }
    Ok(TeamPairing {
        matches: m.team_matches.clone(),
        bye: m.team_bye,
    })
}

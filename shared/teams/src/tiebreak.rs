//! The rounds played, as the tie-break engine's team model: standings come from
//! `arbiter_tiebreak::team_standings`, the one standings code path.

use crate::TeamError;
use crate::{
    MatchForfeit, MatchResult, MatchScore, Team, TeamMatch, TeamNumber, TeamRules, score_match,
    validate_teams,
};
use arbiter_core::{Color, ResultCode};
use arbiter_tiebreak::{
    PairingKind, Team as ModelTeam, TeamRoundEntry, TeamRoundKind, TeamTournament,
};
use std::collections::BTreeSet;

/// A match and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMatch {
    pub teams: TeamMatch,
    pub result: MatchResult,
}

/// One round as played: its matches and the team with the pairing-allocated bye. A team in
/// neither was absent (or idle in a round robin): no points.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TeamRound {
    pub matches: Vec<PlayedMatch>,
    pub pab: Option<TeamNumber>,
}

/// Checks round `round` (from 1) against the teams and scores its matches.
pub(crate) fn score_round(
    rules: &TeamRules,
    known: &BTreeSet<TeamNumber>,
    round: u32,
    r: &TeamRound,
) -> Result<Vec<MatchScore>, TeamError> {
    let bad = |why: String| Err(TeamError::Round { round, why });
    let mut seen = BTreeSet::new();
    let teams = r
        .matches
        .iter()
        .flat_map(|m| [m.teams.first, m.teams.second])
        .chain(r.pab);
    for t in teams {
        if !known.contains(&t) {
            return bad(format!("team {t} is not registered"));
        }
        if !seen.insert(t) {
            return bad(format!("team {t} has two matches or a match and the bye"));
        }
    }
    if r.pab.is_some() && rules.pab.is_none() {
        return bad("a pairing-allocated bye, but the rules give it no value (teams.pab)".into());
    }
    r.matches
        .iter()
        .map(|m| {
            score_match(rules, &m.teams, &m.result).map_err(|e| TeamError::Round {
                round,
                why: format!("{} - {}: {e}", m.teams.first, m.teams.second),
            })
        })
        .collect()
}

/// The event as an [`arbiter_tiebreak::TeamTournament`]: `rounds[r - 1]` is round `r`, of
/// `total_rounds`. A team's colour is that of its board 1; wrong-board games must already be
/// corrected ([`crate::correct_wrong_boards`]).
pub fn to_tiebreak(
    rules: &TeamRules,
    teams: &[Team],
    rounds: &[TeamRound],
    total_rounds: u32,
    pairing: PairingKind,
) -> Result<TeamTournament, TeamError> {
    validate_teams(rules, teams)?;
    if rounds.len() > total_rounds as usize {
        return Err(TeamError::Round {
            round: rounds.len() as u32,
            why: format!("beyond the event's {total_rounds} rounds"),
        });
    }
    let known: BTreeSet<TeamNumber> = teams.iter().map(|t| t.number).collect();
    let mut t = TeamTournament::new(total_rounds, rules.boards);
    t.game_points = rules.game_points;
    t.match_points = rules.match_points;
    t.primary = rules.primary;
    t.pab = rules.pab;
    t.pairing = pairing;
    let mut sorted: Vec<&Team> = teams.iter().collect();
    sorted.sort_by_key(|e| e.number);
    t.teams = sorted
        .iter()
        .map(|e| ModelTeam {
            id: e.number,
            name: e.name.clone(),
            rounds: Vec::new(),
        })
        .collect();
    let c1 = rules.first_board_colour();
    for (i, r) in rounds.iter().enumerate() {
        let round = i as u32 + 1;
        score_round(rules, &known, round, r)?;
        for &n in &known {
            t.set_entry(round, n, TeamRoundEntry::bye(TeamRoundKind::ZeroBye));
        }
        if let Some(p) = r.pab {
            t.set_entry(round, p, TeamRoundEntry::bye(TeamRoundKind::PairingBye));
        }
        for m in &r.matches {
            let (a, b) = (m.teams.first, m.teams.second);
            let entry = |opp, color, kind, boards| TeamRoundEntry {
                opponent: Some(opp),
                color,
                kind,
                boards,
            };
            let (ea, eb) = match &m.result {
                MatchResult::Boards(v) => (
                    entry(
                        b,
                        Some(c1),
                        TeamRoundKind::Played,
                        v.iter().map(|x| Some(x.first)).collect(),
                    ),
                    entry(
                        a,
                        Some(c1.opposite()),
                        TeamRoundKind::Played,
                        v.iter().map(|x| Some(x.second)).collect(),
                    ),
                ),
                MatchResult::Forfeit(f) => {
                    let (ka, kb) = match f {
                        MatchForfeit::SecondAbsent => {
                            (TeamRoundKind::ForfeitWin, TeamRoundKind::ForfeitLoss)
                        }
                        MatchForfeit::FirstAbsent => {
                            (TeamRoundKind::ForfeitLoss, TeamRoundKind::ForfeitWin)
                        }
                        MatchForfeit::BothAbsent => {
                            (TeamRoundKind::ForfeitLoss, TeamRoundKind::ForfeitLoss)
                        }
                    };
                    (entry(b, None, ka, vec![]), entry(a, None, kb, vec![]))
                }
            };
            t.set_entry(round, a, ea);
            t.set_entry(round, b, eb);
        }
    }
    t.validate()
        .map_err(|e| TeamError::Pairing(format!("inconsistent team model: {e}")))?;
    Ok(t)
}

/// A team's round as the pairing engine's player history sees it: the match result as a
/// game result, the colour of board 1.
pub(crate) fn history_code(
    score: &MatchScore,
    m: &TeamMatch,
    result: &MatchResult,
    team: TeamNumber,
    first_colour: Color,
) -> (TeamNumber, Option<Color>, ResultCode) {
    let (own, opp, colour) = if team == m.first {
        (score.first, m.second, first_colour)
    } else {
        (score.second, m.first, first_colour.opposite())
    };
    let other = if team == m.first {
        score.second
    } else {
        score.first
    };
    match result {
        MatchResult::Forfeit(f) => {
            let won = matches!(
                (f, team == m.first),
                (MatchForfeit::SecondAbsent, true) | (MatchForfeit::FirstAbsent, false)
            );
            let code = if won {
                ResultCode::ForfeitWin
            } else {
                ResultCode::ForfeitLoss
            };
            (opp, None, code)
        }
        MatchResult::Boards(_) => {
            let code = match own.game_points.cmp(&other.game_points) {
                std::cmp::Ordering::Greater => ResultCode::Win,
                std::cmp::Ordering::Equal => ResultCode::Draw,
                std::cmp::Ordering::Less => ResultCode::Loss,
            };
            (opp, Some(colour), code)
        }
    }
}

//! Team Swiss pairing by the event's Dutch rule set: how arbiter paired team events before
//! FIDE's Swiss Team Pairing System (C.04.6, [`crate::pair_fide_swiss`]) was published; kept so
//! that those events replay as they were paired. It is not a FIDE team system.
//!
//! So the event's Dutch rule set (dutch-2017 or dutch-2025) pairs the teams as its players:
//!
//! * pairing number = team number (teams are numbered in seeding order);
//! * score = match points ([`match_points_system`]; the PAB scores its regulated match points);
//! * colour history = the colour of the team's board 1; a forfeited match has no colour;
//! * "already met" = a match played over the boards (a forfeited match is not a meeting, as
//!   a forfeited game is not for individuals, C.04.1);
//! * absent and withdrawn teams are not paired; one team of an odd field gets the PAB, at most
//!   once (the engine's C.2 / C.04.1 rule).
//!
//! The engine pairs by match points even when the event ranks by game points
//! ([`TeamRules::primary`]): match points are the score a team Swiss is paired on (our choice:
//! docs/src/auditors/agreement.md).
//!
//! What differs from the Olympiad rules as far as the seeds let us know them: no game points
//! inside a score group (the engine orders a score group by pairing number only, where the
//! Olympiad orders teams of equal match points by game points), no team-specific colour
//! rules beyond board 1 (the engine's colour preferences are those of individual players),
//! and no other "correction for teams".

use crate::TeamError;
use crate::tiebreak::{history_code, score_round};
use crate::{Team, TeamMatch, TeamNumber, TeamRound, TeamRules};
use arbiter_core::{Color, PointSystem, ResultCode, RoundEntry};
use arbiter_pairing::{PairingInput, PlayerInput, RuleSet, pair};
use std::collections::{BTreeMap, BTreeSet};

/// The next round of a team Swiss.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissPairing {
    /// In the engine's publication order; `first` is the team the engine gives White, i.e.
    /// White on board 1 (with colours starting "B", the other team is named first).
    pub matches: Vec<TeamMatch>,
    pub pab: Option<TeamNumber>,
}

/// The point system the engine scores teams by: match points for games, the PAB's
/// regulated match points for the bye, a lost match's for absences.
pub fn match_points_system(rules: &TeamRules) -> PointSystem {
    let mp = rules.match_points;
    PointSystem {
        win: mp.win,
        draw: mp.draw,
        loss: mp.loss,
        forfeit_win: mp.win,
        forfeit_loss: mp.loss,
        zero_bye: mp.loss,
        half_bye: mp.draw,
        full_bye: mp.win,
        pairing_bye: rules.pab.map_or(mp.win, |b| b.match_points),
    }
}

/// Pairs round `played.len() + 1` of `total_rounds` with `rule_set` (a Dutch rule set).
/// `unavailable` teams (absent this round, withdrawn) are not paired; `initial_color` is the
/// colour drawn for team 1 before round 1 (its board 1).
pub fn pair_swiss(
    rules: &TeamRules,
    rule_set: RuleSet,
    teams: &[Team],
    played: &[TeamRound],
    unavailable: &BTreeSet<TeamNumber>,
    total_rounds: u32,
    initial_color: Color,
) -> Result<SwissPairing, TeamError> {
    let known = check_field(rules, teams, unavailable)?;
    if !rule_set.is_dutch() {
        return rules_err(
            "rule_set",
            format!(
                "{rule_set}: a team Swiss is paired by a Dutch rule set (dutch-2017 or dutch-2025)"
            ),
        );
    }
    let c1 = rules.first_board_colour();
    let mut history: BTreeMap<TeamNumber, Vec<RoundEntry>> =
        known.iter().map(|&n| (n, Vec::new())).collect();
    for (i, r) in played.iter().enumerate() {
        let scores = score_round(rules, &known, i as u32 + 1, r)?;
        let mut entries: BTreeMap<TeamNumber, RoundEntry> = BTreeMap::new();
        for (m, s) in r.matches.iter().zip(&scores) {
            for team in [m.teams.first, m.teams.second] {
                let (opp, color, result) = history_code(s, &m.teams, &m.result, team, c1);
                entries.insert(
                    team,
                    RoundEntry {
                        opponent: Some(opp),
                        color,
                        result,
                    },
                );
            }
        }
        if let Some(p) = r.pab {
            entries.insert(p, RoundEntry::bye(ResultCode::PairingBye));
        }
        for (n, h) in history.iter_mut() {
            h.push(
                entries
                    .remove(n)
                    .unwrap_or(RoundEntry::bye(ResultCode::ZeroBye)),
            );
        }
    }
    let input = PairingInput {
        rule_set,
        round: played.len() as u32 + 1,
        total_rounds,
        initial_color,
        points: match_points_system(rules),
        players: history
            .into_iter()
            .map(|(id, history)| PlayerInput {
                id,
                rating: 0,
                history,
                available: !unavailable.contains(&id),
                acceleration: Vec::new(),
            })
            .collect(),
        forbidden_pairs: Vec::new(),
    };
    let p = pair(&input).map_err(|e| TeamError::Pairing(e.to_string()))?;
    Ok(SwissPairing {
        matches: p
            .boards
            .iter()
            .map(|b| {
                if c1 == Color::White {
                    TeamMatch {
                        first: b.white,
                        second: b.black,
                    }
                } else {
                    TeamMatch {
                        first: b.black,
                        second: b.white,
                    }
                }
            })
            .collect(),
        pab: p.bye,
    })
}

/// The teams, checked: the lists valid, the unavailable teams registered, and a value for the
/// pairing-allocated bye when an odd number is to be paired. The registered numbers.
pub(crate) fn check_field(
    rules: &TeamRules,
    teams: &[Team],
    unavailable: &BTreeSet<TeamNumber>,
) -> Result<BTreeSet<TeamNumber>, TeamError> {
    crate::validate_teams(rules, teams)?;
    let known: BTreeSet<TeamNumber> = teams.iter().map(|t| t.number).collect();
    if let Some(u) = unavailable.iter().find(|u| !known.contains(u)) {
        return Err(TeamError::Team {
            team: *u,
            why: "marked unavailable but not registered".into(),
        });
    }
    let available = known.len() - unavailable.len();
    if available % 2 == 1 && rules.pab.is_none() {
        return rules_err(
            "pab",
            format!(
                "{available} teams to pair: one has the pairing-allocated bye, and the rules give it no value (TRF-2026 record 320)"
            ),
        );
    }
    Ok(known)
}

fn rules_err<T>(field: &str, why: impl Into<String>) -> Result<T, TeamError> {
    Err(TeamError::Rules {
        field: field.to_string(),
        why: why.into(),
    })
}

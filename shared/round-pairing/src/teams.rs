//! A team event's round: a team Swiss by arbiter-teams (the Dutch engine on the teams, the
//! closest documented practice while C.04.6 is absent from our rules), or the team round
//! robin's row of the Berger table (arbiter-core). The proposal names matches; the boards
//! follow from the line-ups at publication.

use crate::engine::Answer;
use arbiter_core::Color;
use arbiter_core::tournament::{Engine, ProposePairing, ReportPairingFailure, State};
use arbiter_teams::TeamRound;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

/// The engine that proposes team rounds.
pub fn team_engine(state: &State) -> Engine {
    let swiss = state
        .tournament()
        .is_some_and(|t| t.pairing_system.is_swiss());
    Engine {
        name: if swiss
            && state
                .tournament()
                .is_some_and(|t| arbiter_teams::FideTeamSystem::parse(&t.rule_set).is_some())
        {
            "arbiter-fide-team-swiss"
        } else if swiss {
            "arbiter-team-swiss"
        } else {
            "arbiter-team-berger"
        }
        .to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// SHA-256 of what a team round is derived from: rule set, round, the teams' lists and every
/// earlier round's matches, bye and board codes.
pub fn team_digest(
    rule_set: &str,
    round: u32,
    teams: &[arbiter_teams::Team],
    played: &[TeamRound],
) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"arbiter-team-round/1");
    h.update((rule_set.len() as u32).to_be_bytes());
    h.update(rule_set.as_bytes());
    h.update(round.to_be_bytes());
    h.update((teams.len() as u32).to_be_bytes());
    for t in teams {
        h.update(t.number.to_be_bytes());
        h.update((t.members.len() as u32).to_be_bytes());
        for m in &t.members {
            h.update(m.to_be_bytes());
        }
    }
    for r in played {
        h.update((r.matches.len() as u32).to_be_bytes());
        h.update(r.pab.unwrap_or(0).to_be_bytes());
        for m in &r.matches {
            h.update(m.teams.first.to_be_bytes());
            h.update(m.teams.second.to_be_bytes());
            if let arbiter_teams::MatchResult::Boards(v) = &m.result {
                for b in v {
                    h.update([b.first.trf_char() as u8, b.second.trf_char() as u8]);
                }
            }
        }
    }
    h.finalize().into()
}

/// The proposal (or the failure) for `round` of a team event.
pub fn answer(state: &State, round: u32, attempt: u32, based_on_version: u64) -> Answer {
    let rule_set = state
        .tournament()
        .map(|t| t.rule_set.clone())
        .unwrap_or_default();
    let (Some(t), Some((rules, teams, mut played))) =
        (state.tournament(), arbiter_teams::from_log(state))
    else {
        return failed(
            state,
            round,
            attempt,
            based_on_version,
            &rule_set,
            Vec::new(),
            "not a team event".into(),
        );
    };
    played.truncate(round.saturating_sub(1) as usize);
    let digest = team_digest(&rule_set, round, &teams, &played).to_vec();
    let proposal = if t.pairing_system.is_swiss() {
        if played.len() + 1 != round as usize {
            Err(format!(
                "round {round}: the rounds before it are not all complete"
            ))
        } else {
            let initial = t.initial_color.unwrap_or(Color::White);
            let none = BTreeSet::new();
            let paired = match arbiter_teams::FideTeamSystem::parse(&rule_set) {
                Some(system) => arbiter_teams::pair_fide_swiss(
                    &rules, system, &teams, &played, &none, t.rounds, initial,
                )
                .map_err(|e| e.to_string())
                .map(|p| {
                    let model = match system.colours {
                        arbiter_teams::ColourModel::TypeA => "type A",
                        arbiter_teams::ColourModel::TypeB => "type B",
                        arbiter_teams::ColourModel::None => "none",
                    };
                    let how = format!(
                        "FIDE Swiss Team Pairing System (C.04.6), colour preferences {model}"
                    );
                    (p, how)
                }),
                // Team events paired before C.04.6: the Dutch engine on the teams.
                None => rule_set
                    .parse::<arbiter_pairing::RuleSet>()
                    .map_err(|e| e.to_string())
                    .and_then(|rs| {
                        arbiter_teams::pair_swiss(
                            &rules, rs, &teams, &played, &none, t.rounds, initial,
                        )
                        .map_err(|e| e.to_string())
                    })
                    .map(|p| {
                        (
                            p,
                            format!("team Swiss by the {rule_set} engine on match points"),
                        )
                    }),
            };
            paired.map(|(p, how)| {
                let bye = p
                    .pab
                    .map_or(String::new(), |b| format!(", team {b} has the bye"));
                let explanation = format!("{how}; {} matches{bye}", p.matches.len());
                (p.matches, p.pab, explanation)
            })
        }
    } else {
        state
            .team_schedule_round(round)
            .map(|p| {
                (
                    p.matches,
                    None,
                    format!("round {round} of the Berger table over the team numbers"),
                )
            })
            .map_err(|e| e.to_string())
    };
    match proposal {
        Ok((team_matches, team_bye, explanation)) => Answer::Proposed(ProposePairing {
            round,
            attempt,
            boards: Vec::new(),
            bye: None,
            engine: team_engine(state),
            rule_set,
            based_on_version,
            input_digest: digest,
            explanation,
            team_matches,
            team_bye,
        }),
        Err(reason) => failed(
            state,
            round,
            attempt,
            based_on_version,
            &rule_set,
            digest,
            reason,
        ),
    }
}

fn failed(
    state: &State,
    round: u32,
    attempt: u32,
    based_on_version: u64,
    rule_set: &str,
    input_digest: Vec<u8>,
    reason: String,
) -> Answer {
    Answer::Failed(ReportPairingFailure {
        round,
        attempt,
        engine: team_engine(state),
        rule_set: rule_set.to_string(),
        based_on_version,
        input_digest,
        reason,
    })
}

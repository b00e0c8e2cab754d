//! Team events in the aggregate: lists, line-ups in list order, team pairings checked and
//! expanded into boards.

use super::support::*;
use arbiter_core::teams::{ByeValue, TeamMatch, TeamRules};
use arbiter_core::tournament::*;
use arbiter_core::{Color, ResultCode, Score};

/// 2 boards + 1 reserve per team: players 1-3 team 1, 4-6 team 2, ...
fn team_event(teams: u32, system: PairingSystem, rounds: u32, pab: bool) -> Given {
    let mut c = create(rounds);
    c.pairing_system = system;
    c.rule_set = (system == PairingSystem::Dutch).then(|| "dutch-2025".into());
    let mut rules = TeamRules::new(2, 1);
    if pab {
        rules.pab = Some(ByeValue {
            match_points: Score::ONE,
            game_points: Score::ONE,
        });
    }
    c.team_rules = Some(rules);
    c.initial_color = Some(Color::White);
    let mut g = Given::created_with(c);
    for i in 0..teams * 3 {
        g = g.cmd(register(&format!("Player {:02}", i + 1), 2400 - 10 * i));
    }
    for t in 0..teams {
        g = g.cmd(record_team(0, t * 3 + 1));
    }
    g
}

fn record_team(number: u32, first: u32) -> Command {
    Command::RecordTeam(RecordTeam {
        team: TeamRecorded {
            number,
            name: format!("Team {first}"),
            members: (first..first + 3).map(Some).collect(),
            ..TeamRecorded::default()
        },
    })
}

fn lineup(round: u32, team: u32, players: &[u32]) -> Command {
    Command::SubmitLineup(SubmitLineup {
        round,
        team,
        players: players.to_vec(),
    })
}

fn team_proposal(round: u32, matches: &[(u32, u32)], bye: Option<u32>) -> Command {
    team_proposal_of("dutch-2025", round, matches, bye)
}

fn team_proposal_of(
    rule_set: &str,
    round: u32,
    matches: &[(u32, u32)],
    bye: Option<u32>,
) -> Command {
    let mut p = propose_cmd(round, 1, &[], None);
    p.rule_set = rule_set.into();
    p.team_matches = matches
        .iter()
        .map(|&(first, second)| TeamMatch { first, second })
        .collect();
    p.team_bye = bye;
    Command::ProposePairing(p)
}

fn refused(r: Result<Vec<Event>, DomainError>, field: &str, needle: &str) {
    match r {
        Err(DomainError::Invalid { field: f, reason }) => {
            assert_eq!(f, field, "{reason}");
            assert!(reason.contains(needle), "{reason:?} lacks {needle:?}");
        }
        other => panic!("expected a refusal of {field}, got {other:?}"),
    }
}

#[test]
fn teams_are_recorded_in_order_with_lists_the_rules_allow() {
    let g = team_event(2, PairingSystem::Dutch, 3, false);
    let lists = g.state().team_lists();
    assert_eq!(lists.len(), 2);
    assert_eq!(
        (lists[1].number, lists[1].members.clone()),
        (2, vec![4, 5, 6])
    );
    let g = g
        .cmd(register("Extra, One", 1500))
        .cmd(register("Extra, Two", 1400))
        .cmd(register("Extra, Three", 1300));
    refused(
        g.when(record_team(5, 1)),
        "team.number",
        "the next team is number 3",
    );
    refused(
        g.when(record_team(0, 4)),
        "team",
        "already listed by team 2",
    );
    let mut too_many = record_team(0, 7);
    if let Command::RecordTeam(c) = &mut too_many {
        c.team.members.push(Some(1));
    }
    refused(
        g.when(too_many),
        "team",
        "4 players listed: a team lists 2 to 3",
    );
    // Players 7-9 are on no list: round 1 cannot start.
    refused(
        g.when(start(1)),
        "team",
        "players 7, 8, 9 are on no team's list",
    );
}

#[test]
fn an_odd_team_swiss_needs_its_pab_value_and_other_systems_are_refused() {
    let g = team_event(3, PairingSystem::Dutch, 3, false);
    refused(g.when(start(1)), "team_rules.pab", "3 teams");
    let mut c = create(3);
    c.pairing_system = PairingSystem::Lim;
    c.team_rules = Some(TeamRules::new(2, 0));
    refused(
        Given::nothing().when(Command::CreateTournament(c)),
        "team_rules",
        "not Lim",
    );
}

#[test]
fn line_ups_keep_the_list_order_and_publication_expands_the_matches() {
    let g = team_event(4, PairingSystem::Dutch, 3, false)
        .cmd(start(1))
        .cmd(team_proposal(1, &[(1, 3), (4, 2)], None));
    // The reserve (player 3) may play board 2, never above player 2.
    refused(
        g.when(lineup(1, 1, &[3, 2])),
        "players",
        "board 2, player 2",
    );
    refused(
        g.when(lineup(1, 1, &[1, 4])),
        "players",
        "not on the team's list",
    );
    let g = g.cmd(lineup(1, 1, &[1, 3])).cmd(lineup(1, 2, &[5, 6]));
    let events = g.when(publish(1)).unwrap();
    let Event::PairingPublished(p) = &events[0] else {
        panic!("{events:?}")
    };
    // Match 1: team 1 (1, 3) named first, White on board 1 ("WB"); team 3 the default
    // line-up (7, 8). Match 2: team 4 (10, 11) first, team 2's line-up (5, 6).
    let boards: Vec<(u32, u32, u32)> = p
        .boards
        .iter()
        .map(|b| (b.number, b.white, b.black))
        .collect();
    assert_eq!(boards, vec![(1, 1, 7), (2, 8, 3), (3, 10, 5), (4, 6, 11)]);
    let idle: Vec<u32> = p.unpaired.iter().map(|u| u.player_id).collect();
    assert_eq!(idle, vec![2, 4, 9, 12]);
    assert!(p.unpaired.iter().all(|u| u.code == ResultCode::ZeroBye));
    assert_eq!(p.team_matches.len(), 2);
    // After publication the line-ups are fixed.
    let g = g.cmd(publish(1));
    assert!(matches!(
        g.when(lineup(1, 1, &[1, 2])),
        Err(DomainError::RoundAlreadyPaired { .. })
    ));
    let state = g.state();
    assert_eq!(
        state.team_pairing(1).unwrap().matches[1],
        TeamMatch {
            first: 4,
            second: 2
        }
    );
    // Round 2: teams 1 and 3 do not meet again; every team is paired.
    let g = g
        .results(
            1,
            &[
                BoardResult::WhiteWins,
                BoardResult::Draw,
                BoardResult::BlackWins,
                BoardResult::Draw,
            ],
        )
        .cmd(close(1))
        .cmd(start(2));
    refused(
        g.when(team_proposal(2, &[(3, 1), (2, 4)], None)),
        "team_matches[0]",
        "met in round 1",
    );
    refused(
        g.when(team_proposal(2, &[(1, 2)], None)),
        "team_matches",
        "teams 3, 4 are not paired",
    );
    refused(
        g.when(team_proposal(2, &[(1, 2), (3, 4)], Some(1))),
        "team_bye",
        "no value",
    );
    let boards_proposal = propose(2, 1, &[(1, 4)], None);
    refused(g.when(boards_proposal), "boards", "names matches");
    g.cmd(team_proposal(2, &[(1, 2), (3, 4)], None))
        .cmd(publish(2));
}

#[test]
fn a_team_round_robin_is_its_berger_table_over_the_team_numbers() {
    let g = team_event(4, PairingSystem::RoundRobin, 4, false);
    refused(g.when(start(1)), "rounds", "a RoundRobin of 4 teams has 3");
    let g = team_event(4, PairingSystem::RoundRobin, 3, false).cmd(start(1));
    let table = g.state().team_schedule_round(1).unwrap();
    let expected: Vec<(u32, u32)> = arbiter_roundrobin::berger(4).unwrap()[0].games.clone();
    let given: Vec<(u32, u32)> = table.matches.iter().map(|m| (m.first, m.second)).collect();
    assert_eq!(given, expected);
    let swapped: Vec<(u32, u32)> = expected.iter().map(|&(a, b)| (b, a)).collect();
    refused(
        g.when(team_proposal_of("berger", 1, &swapped, None)),
        "team_matches[0]",
        "the table has",
    );
    let g = g
        .cmd(team_proposal_of("berger", 1, &expected, None))
        .cmd(publish(1));
    assert_eq!(g.state().published(1).unwrap().boards.len(), 4);
    // Player schedules are not a team event's.
    assert!(g.state().schedule().is_err());
}

#[test]
fn a_match_forfeited_whole_is_no_meeting_but_one_forfeited_both_ways_is() {
    let g = team_event(4, PairingSystem::Dutch, 3, false)
        .cmd(start(1))
        .cmd(team_proposal(1, &[(1, 3), (4, 2)], None))
        .cmd(publish(1))
        .results(
            1,
            &[
                // Teams 1 and 3: each wins one board by forfeit ("WB": team 1 is White on
                // board 1, Black on board 2), no board played: the match was held.
                BoardResult::WhiteWinsForfeit,
                BoardResult::WhiteWinsForfeit,
                // Teams 4 and 2: team 4 wins both boards by forfeit: team 2 did not appear.
                BoardResult::WhiteWinsForfeit,
                BoardResult::BlackWinsForfeit,
            ],
        )
        .cmd(close(1))
        .cmd(start(2));
    // Teams 2 and 4 may meet (match 0 passes the check); teams 1 and 3 may not (match 1).
    refused(
        g.when(team_proposal(2, &[(2, 4), (3, 1)], None)),
        "team_matches[1]",
        "teams 3 and 1 met in round 1",
    );
}

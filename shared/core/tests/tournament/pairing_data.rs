//! Pairing data a TRF file carries beside the games: per-player virtual points of acceleration,
//! forbidden pairings, teams.

use crate::support::*;
use arbiter_core::Score;
use arbiter_core::tournament::*;

fn set_points(player: u32, points: &[i32]) -> Command {
    Command::SetVirtualPoints(SetVirtualPoints {
        player,
        points: points.iter().map(|&t| Score(t)).collect(),
    })
}

#[test]
fn virtual_points_set_replace_the_method_and_reach_the_pairing_input() {
    let given = Given::with_players(5, 4).cmd(set_points(2, &[10, 5, 0, 0]));
    assert_eq!(
        given.events.last(),
        Some(&Event::VirtualPointsSet(VirtualPointsSet {
            player_id: 2,
            // Trailing zero rounds are not stored.
            points: vec![Score(10), Score(5)],
        }))
    );
    let s = given.state();
    assert_eq!(s.virtual_points(2, 1), Score(10));
    assert_eq!(s.virtual_points(2, 2), Score(5));
    assert_eq!(s.virtual_points(2, 3), Score::ZERO);
    assert_eq!(s.virtual_points(1, 1), Score::ZERO);
    let input = given
        .clone()
        .cmd(start(1))
        .state()
        .pairing_input(1)
        .unwrap();
    let vp: Vec<(u32, Score)> = input
        .players
        .iter()
        .map(|p| (p.player.player_id, p.virtual_points))
        .collect();
    assert_eq!(
        vp,
        vec![
            (1, Score::ZERO),
            (2, Score(10)),
            (3, Score::ZERO),
            (4, Score::ZERO)
        ]
    );
}

#[test]
fn virtual_points_of_a_paired_round_cannot_change() {
    let given = Given::with_players(5, 4)
        .cmd(set_points(1, &[10, 10]))
        .round(
            1,
            &[(1, 3), (4, 2)],
            None,
            &[BoardResult::WhiteWins, BoardResult::Draw],
        );
    let e = given.when(set_points(1, &[5, 10])).unwrap_err();
    assert!(e.to_string().contains("round 1 is already paired"), "{e}");
    // Round 2 is not paired yet: its value may change, round 1's kept.
    assert!(given.when(set_points(1, &[10, 5])).is_ok());
    let e = given.when(set_points(9, &[10])).unwrap_err();
    assert!(
        matches!(e, DomainError::UnknownPlayer { player: 9, .. }),
        "{e}"
    );
    let e = given.when(set_points(1, &[10; 6])).unwrap_err();
    assert!(e.to_string().contains("6 rounds"), "{e}");
}

#[test]
fn forbidden_pairings_by_round_in_the_pairing_input() {
    let given = Given::with_players(5, 5)
        .cmd(Command::ForbidPairings(ForbidPairings {
            players: vec![4, 1, 2],
            rounds: None,
        }))
        .cmd(Command::ForbidPairings(ForbidPairings {
            players: vec![3, 5],
            rounds: Some((2, 3)),
        }));
    let s = given.state();
    assert_eq!(s.forbidden_pairs(1), vec![(1, 2), (1, 4), (2, 4)]);
    assert_eq!(s.forbidden_pairs(2), vec![(1, 2), (1, 4), (2, 4), (3, 5)]);
    assert_eq!(s.forbidden_pairs(4), vec![(1, 2), (1, 4), (2, 4)]);
    let input = given
        .clone()
        .cmd(start(1))
        .state()
        .pairing_input(1)
        .unwrap();
    assert_eq!(input.forbidden_pairs, vec![(1, 2), (1, 4), (2, 4)]);
    // A late entry renumbers: the pairs follow the players, not the numbers.
    let late = given.cmd(register("Strong, Late", 2600));
    assert_eq!(
        late.state().forbidden_pairs(1),
        vec![(2, 3), (2, 5), (3, 5)]
    );

    let one = Given::with_players(5, 3);
    for (players, rounds, says) in [
        (vec![1], None, "at least two"),
        (vec![1, 1], None, "listed twice"),
        (vec![1, 2], Some((0, 2)), "not within"),
        (vec![1, 2], Some((3, 9)), "not within"),
    ] {
        let e = one
            .when(Command::ForbidPairings(ForbidPairings { players, rounds }))
            .unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
    }
}

#[test]
fn teams_follow_renumbering() {
    let given = Given::with_players(5, 3).cmd(Command::RecordTeam(RecordTeam {
        team: TeamRecorded {
            name: "Club A".into(),
            members: vec![Some(1), None, Some(3)],
            ..TeamRecorded::default()
        },
    }));
    assert_eq!(
        given.state().teams()[0].members,
        vec![Some(1), None, Some(3)]
    );
    let late = given.clone().cmd(register("Strong, Late", 2600));
    assert_eq!(
        late.state().teams()[0].members,
        vec![Some(2), None, Some(4)]
    );
    let e = given
        .when(Command::RecordTeam(RecordTeam {
            team: TeamRecorded {
                name: " ".into(),
                ..TeamRecorded::default()
            },
        }))
        .unwrap_err();
    assert!(e.to_string().contains("team.name"), "{e}");
}

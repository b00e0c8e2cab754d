//! The input of the pairing of a round: history, scores, availability, acceleration.

use crate::support::*;
use arbiter_core::tournament::*;
use arbiter_core::{Color, ResultCode, RoundEntry, Score};

#[test]
fn pairing_input_holds_every_player_with_history_score_and_availability() {
    let given = Given::with_players(5, 5)
        .round(
            1,
            &[(1, 3), (4, 2)],
            Some(5),
            &[BoardResult::WhiteWins, BoardResult::BlackWinsForfeit],
        )
        .cmd(bye(1, 2, ByeKind::HalfPoint))
        .cmd(withdraw(3, 2))
        .cmd(register("Late, Comer", 2150))
        .cmd(start(2));
    let input = given.state().pairing_input(2).unwrap();
    assert_eq!((input.round, input.attempt, input.rounds), (2, 1, 5));
    assert_eq!(input.rule_set, "dutch-2025");
    assert_eq!(input.initial_color, Some(Color::White));
    let lines: Vec<(u32, &str, Vec<RoundEntry>, Score, Availability)> = input
        .players
        .iter()
        .map(|p| {
            (
                p.player.player_id,
                p.player.name.as_str(),
                p.history.clone(),
                p.score,
                p.availability,
            )
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            (
                1,
                "Player 01",
                vec![game(3, Color::White, ResultCode::Win)],
                Score::ONE,
                Availability::Bye(ByeKind::HalfPoint)
            ),
            (
                2,
                "Player 02",
                vec![game(5, Color::Black, ResultCode::ForfeitWin)],
                Score::ONE,
                Availability::Available
            ),
            (
                3,
                "Player 03",
                vec![game(1, Color::Black, ResultCode::Loss)],
                Score::ZERO,
                Availability::Withdrawn { from_round: 2 }
            ),
            (
                4,
                "Late, Comer",
                vec![RoundEntry::bye(ResultCode::ZeroBye)],
                Score::ZERO,
                Availability::Available
            ),
            (
                5,
                "Player 04",
                vec![game(2, Color::White, ResultCode::ForfeitLoss)],
                Score::ZERO,
                Availability::Available
            ),
            (
                6,
                "Player 05",
                vec![RoundEntry::bye(ResultCode::PairingBye)],
                Score::ONE,
                Availability::Available
            ),
        ]
    );
    assert_eq!(
        input
            .available()
            .map(|p| p.player.player_id)
            .collect::<Vec<_>>(),
        vec![2, 4, 5, 6]
    );
    assert!(
        input
            .players
            .iter()
            .all(|p| p.virtual_points == Score::ZERO)
    );
}

#[test]
fn pairing_input_of_the_next_round_before_it_starts() {
    let given = Given::with_players(5, 4);
    let input = given.state().pairing_input(1).unwrap();
    assert_eq!(input.attempt, 0);
    assert!(
        input
            .players
            .iter()
            .all(|p| p.history.is_empty() && p.score == Score::ZERO)
    );
}

#[test]
fn pairing_input_rejections() {
    assert_eq!(
        State::default().pairing_input(1),
        Err(DomainError::TournamentNotCreated {
            command: "pairing input"
        })
    );
    let paired = Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None);
    let state = paired.state();
    assert!(matches!(
        state.pairing_input(1),
        Err(DomainError::RoundAlreadyPaired { round: 1, .. })
    ));
    assert_eq!(
        state.pairing_input(2),
        Err(DomainError::PreviousRoundNotClosed {
            round: 2,
            previous: 1
        })
    );
    assert_eq!(
        state.pairing_input(0),
        Err(DomainError::RoundOutOfRange {
            round: 0,
            rounds: 5
        })
    );
    assert_eq!(
        state.pairing_input(6),
        Err(DomainError::RoundOutOfRange {
            round: 6,
            rounds: 5
        })
    );
}

fn baku(players: u32) -> Given {
    let mut c = create(9);
    c.acceleration = Some(AccelerationChoice {
        method: AccelerationMethod::Baku,
        rounds: None,
    });
    let mut g = Given::created_with(c);
    for i in 0..players {
        g = g.cmd(register(&format!("P{:02}", i + 1), 2600 - 10 * i));
    }
    g
}

#[test]
fn baku_group_a_is_the_first_half_rounded_up_to_even_with_virtual_points() {
    // 10 players: GA = 2·⌈10/4⌉ = 6.
    let state = baku(10).cmd(start(1)).state();
    let accelerated: Vec<u32> = state
        .players()
        .filter(|p| p.accelerated)
        .map(|p| p.pairing_number())
        .collect();
    assert_eq!(accelerated, vec![1, 2, 3, 4, 5, 6]);
    let input = state.pairing_input(1).unwrap();
    assert_eq!(input.players[0].virtual_points, Score::ONE);
    assert_eq!(input.players[6].virtual_points, Score::ZERO);
    // Nine rounds: 1 point in rounds 1–3, ½ in rounds 4–5, nothing after.
    assert_eq!(state.virtual_points(1, 3), Score::ONE);
    assert_eq!(state.virtual_points(1, 4), Score::HALF);
    assert_eq!(state.virtual_points(1, 6), Score::ZERO);
    assert_eq!(state.virtual_points(7, 1), Score::ZERO);
}

#[test]
fn late_entrants_join_group_a_only_above_its_last_player() {
    let boards: Vec<(u32, u32)> = (1..=5).map(|i| (i, i + 5)).collect();
    let given = baku(10).paired(1, &boards, None);
    // Player 6 (2550) is the last of group A.
    let above = given.clone().cmd(register("Above", 2555)).state();
    assert!(above.player(6).unwrap().accelerated, "the newcomer at 6");
    assert!(
        above.player(7).unwrap().accelerated,
        "the old last player of group A, now 7"
    );
    assert!(!above.player(8).unwrap().accelerated);
    let below = given.cmd(register("Below", 2545)).state();
    assert!(below.player(6).unwrap().accelerated);
    assert!(!below.player(7).unwrap().accelerated, "the newcomer at 7");
}

#[test]
fn without_acceleration_nobody_is_in_group_a() {
    let state = Given::with_players(9, 10).cmd(start(1)).state();
    assert!(state.players().all(|p| !p.accelerated));
    assert_eq!(state.virtual_points(1, 1), Score::ZERO);
}

//! Round robins in the aggregate (C.05 §5-§6): numbers are the draw (order of
//! registration), the rounds fit the field, the pairing is the schedule's round, the rest of an
//! odd field, no byes or late entries, and the C.05 §6.6 withdrawal rule.

use crate::support::*;
use arbiter_core::tournament::*;

fn rr(rounds: u32, players: &[(&str, u32)]) -> Given {
    let mut c = create(rounds);
    c.pairing_system = PairingSystem::RoundRobin;
    let mut g = Given::created_with(c);
    for (name, rating) in players {
        g = g.cmd(register(name, *rating));
    }
    g
}

fn propose_rr(round: u32, boards: &[(u32, u32)], bye: Option<u32>) -> Command {
    let mut p = propose_cmd(round, 1, boards, bye);
    p.rule_set = "berger".into();
    Command::ProposePairing(p)
}

/// A whole round of a round robin: started, proposed, published, results in, closed.
fn played(g: Given, round: u32, boards: &[(u32, u32)], results: &[BoardResult]) -> Given {
    g.cmd(start(round))
        .cmd(propose_rr(round, boards, None))
        .cmd(publish(round))
        .results(round, results)
        .cmd(close(round))
}

const FOUR: [(&str, u32); 4] = [("D", 1500), ("A", 2400), ("C", 1800), ("B", 2100)];

#[test]
fn pairing_numbers_are_the_order_of_registration_not_the_ratings() {
    let s = rr(3, &FOUR).state();
    let names: Vec<String> = (1..=4)
        .map(|pn| s.player(pn).unwrap().player.name.clone())
        .collect();
    assert_eq!(names, ["D", "A", "C", "B"]);
}

#[test]
fn the_rounds_must_fit_the_field() {
    let err = rr(4, &FOUR).when(start(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "a round robin of 4 players has 3 rounds, not 4: change the number of rounds (UpdateTournament) or the field"
    );
    assert!(rr(3, &FOUR).when(start(1)).is_ok());
}

#[test]
fn the_pairing_is_the_schedules_round_board_by_board() {
    // Handbook, 3 or 4 players, round 2: 4-3 1-2.
    let g = played(
        rr(3, &FOUR),
        1,
        &[(1, 4), (2, 3)],
        &[BoardResult::Draw, BoardResult::Draw],
    )
    .cmd(start(2));
    assert!(g.when(propose_rr(2, &[(4, 3), (1, 2)], None)).is_ok());
    let err = g.when(propose_rr(2, &[(4, 3), (2, 1)], None)).unwrap_err();
    assert_eq!(
        err,
        DomainError::OffSchedule {
            round: 2,
            board: 2,
            expected: "1-2".into(),
            given: "2-1".into()
        }
    );
    let err = g.when(propose_rr(2, &[(4, 3)], None)).unwrap_err();
    assert!(
        matches!(err, DomainError::OffSchedule { board: 2, .. }),
        "{err}"
    );
}

#[test]
fn an_odd_field_rests_with_zero_points_and_has_no_pairing_allocated_bye() {
    // 3 players: the table of 4, number 4 is the bye slot; round 1 is 1-4 2-3, so 1 rests.
    let g = rr(3, &FOUR[..3]).cmd(start(1));
    let events = g.when(propose_rr(1, &[(2, 3)], None)).unwrap();
    let Event::PairingProposed(p) = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(
        p.unpaired,
        vec![Unpaired {
            player_id: 1,
            code: arbiter_core::ResultCode::ZeroBye
        }]
    );
    let err = g.when(propose_rr(1, &[(2, 3)], Some(1))).unwrap_err();
    assert!(
        matches!(&err, DomainError::Invalid { field, .. } if field == "bye"),
        "{err}"
    );
}

#[test]
fn no_byes_absences_or_late_entries() {
    let g = rr(3, &FOUR);
    assert!(g.when(bye(2, 1, ByeKind::HalfPoint)).is_err());
    assert!(g.when(absent(2, 1)).is_err());
    let started = g.cmd(start(1));
    let err = started.when(register("E", 2000)).unwrap_err();
    assert!(err.to_string().contains("no late entries"), "{err}");
}

#[test]
fn a_withdrawn_players_games_stay_on_the_schedule() {
    // Player 4 withdraws before round 1: he is still paired (his games are forfeited).
    let g = rr(3, &FOUR).cmd(withdraw(4, 1)).cmd(start(1));
    assert!(g.when(propose_rr(1, &[(1, 4), (2, 3)], None)).is_ok());
}

#[test]
fn a_withdrawn_players_games_are_forfeits_recorded_with_the_pairing() {
    use BoardResult::*;
    let recorded = |events: &[Event]| -> Vec<(u32, BoardResult)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::ResultRecorded(r) => Some((r.board, r.result)),
                _ => None,
            })
            .collect()
    };
    // Round 1 is 1-4 2-3. Player 4 withdrew: board 1 is +/- at publication, board 2 is
    // played; the forfeit cannot be entered again, and the round closes with board 2's result.
    let g = rr(3, &FOUR)
        .cmd(withdraw(4, 1))
        .cmd(start(1))
        .cmd(propose_rr(1, &[(1, 4), (2, 3)], None));
    let events = g.when(publish(1)).unwrap();
    assert!(
        matches!(events[0], Event::PairingPublished(_)),
        "{events:?}"
    );
    assert_eq!(recorded(&events), vec![(1, WhiteWinsForfeit)]);
    let published = g.cmd(publish(1));
    assert!(matches!(
        published.when(result(1, 1, WhiteWins)),
        Err(DomainError::ResultAlreadyRecorded { board: 1, .. })
    ));
    assert!(published.when(close(1)).is_err());
    assert!(published.cmd(result(1, 2, Draw)).when(close(1)).is_ok());
    // White withdrawn: -/+; both: -/-. A withdrawal from a later round forfeits nothing yet.
    let white_gone = rr(3, &FOUR)
        .cmd(withdraw(1, 1))
        .cmd(start(1))
        .cmd(propose_rr(1, &[(1, 4), (2, 3)], None));
    assert_eq!(
        recorded(&white_gone.when(publish(1)).unwrap()),
        vec![(1, BlackWinsForfeit)]
    );
    let both_gone = rr(3, &FOUR)
        .cmd(withdraw(2, 1))
        .cmd(withdraw(3, 1))
        .cmd(withdraw(4, 2))
        .cmd(start(1))
        .cmd(propose_rr(1, &[(1, 4), (2, 3)], None));
    assert_eq!(
        recorded(&both_gone.when(publish(1)).unwrap()),
        vec![(2, DoubleForfeit)]
    );
    // A Swiss event pairs no withdrawn player, so records nothing at publication.
    let swiss = Given::with_players(5, 4)
        .cmd(withdraw(4, 1))
        .cmd(start(1))
        .cmd(propose(1, 1, &[(1, 3)], Some(2)));
    assert!(recorded(&swiss.when(publish(1)).unwrap()).is_empty());
}

#[test]
fn withdrawals_below_half_are_cancelled_for_the_standings() {
    use BoardResult::*;
    // 4 players, 3 games each. Player 4 withdraws from round 2 after 1 game: 1 < 1.5.
    let after_one = played(rr(3, &FOUR), 1, &[(1, 4), (2, 3)], &[WhiteWins, Draw]);
    let below = after_one.clone().cmd(withdraw(4, 2));
    assert_eq!(below.state().withdrawn_below_half(), vec![4]);
    // From round 3 after 2 games: 2 >= 1.5, his results count.
    let above = played(after_one, 2, &[(4, 3), (1, 2)], &[BlackWins, Draw]).cmd(withdraw(4, 3));
    assert!(above.state().withdrawn_below_half().is_empty());
    // A forfeit is no completed game.
    let forfeited = played(
        rr(3, &FOUR),
        1,
        &[(1, 4), (2, 3)],
        &[WhiteWinsForfeit, Draw],
    );
    let forfeited = played(forfeited, 2, &[(4, 3), (1, 2)], &[BlackWins, Draw]).cmd(withdraw(4, 3));
    assert_eq!(forfeited.state().withdrawn_below_half(), vec![4]);
}

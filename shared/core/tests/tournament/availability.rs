//! WithdrawPlayer, RequestBye, CancelBye, DeclareAbsence (C.04.2.D.3–4, C.05 §6.7).

use crate::support::*;
use arbiter_core::tournament::*;
use arbiter_core::{ResultCode, RoundEntry, Score};

// --- RequestBye --------------------------------------------------------------------------------

#[test]
fn bye_requested_before_the_round_is_paired() {
    let given = Given::with_players(5, 5);
    let then = given.when(bye(5, 1, ByeKind::HalfPoint)).unwrap();
    assert_eq!(
        then,
        vec![Event::ByeRequested(ByeRequested {
            player_id: 5,
            round: 1,
            kind: ByeKind::HalfPoint
        })]
    );
    let state = given.after(bye(5, 1, ByeKind::HalfPoint));
    assert_eq!(
        state.availability(5, 1),
        Some(Availability::Bye(ByeKind::HalfPoint))
    );
    assert_eq!(state.byes_requested(), vec![(5, 1, ByeKind::HalfPoint)]);
}

#[test]
fn a_requested_bye_is_listed_unpaired_and_scores_its_value() {
    let given = Given::with_players(5, 5)
        .cmd(bye(5, 1, ByeKind::HalfPoint))
        .cmd(bye(4, 1, ByeKind::FullPoint))
        .cmd(start(1));
    // Three players are left: one of them gets the PAB.
    let then = given.when(propose(1, 1, &[(1, 3)], Some(2))).unwrap();
    let Event::PairingProposed(p) = &then[0] else {
        panic!("{then:?}")
    };
    assert_eq!(
        p.unpaired,
        vec![
            Unpaired {
                player_id: 2,
                code: ResultCode::PairingBye
            },
            Unpaired {
                player_id: 4,
                code: ResultCode::FullBye
            },
            Unpaired {
                player_id: 5,
                code: ResultCode::HalfBye
            },
        ]
    );
    let state = given
        .cmd(propose(1, 1, &[(1, 3)], Some(2)))
        .cmd(publish(1))
        .state();
    assert_eq!(
        state.entry(5, 1),
        Some(RoundEntry::bye(ResultCode::HalfBye))
    );
    assert_eq!(
        state.entry(2, 1),
        Some(RoundEntry::bye(ResultCode::PairingBye))
    );
    assert_eq!(state.score(5), Some(Score::HALF));
    assert_eq!(state.score(4), Some(Score::ONE));
    assert_eq!(state.score(2), Some(Score::ONE));
    // The game is still on: no points yet.
    assert_eq!(state.score(1), Some(Score::ZERO));
    assert_eq!(state.entry(1, 1), None);
}

#[test]
fn bye_requested_while_the_round_is_being_paired_asks_for_a_new_pairing() {
    let given = Given::with_players(5, 4)
        .cmd(start(1))
        .cmd(propose(1, 1, &[(1, 3), (4, 2)], None));
    let then = given.when(bye(4, 1, ByeKind::ZeroPoint)).unwrap();
    assert_eq!(
        then,
        vec![
            Event::ByeRequested(ByeRequested {
                player_id: 4,
                round: 1,
                kind: ByeKind::ZeroPoint
            }),
            requested(1, 2)
        ]
    );
}

#[test]
fn bye_request_rejected_once_the_round_is_paired() {
    let given = Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None);
    let err = given.when(bye(4, 1, ByeKind::HalfPoint)).unwrap_err();
    assert!(
        matches!(err, DomainError::RoundAlreadyPaired { round: 1, .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "the pairing of round 1 is already published; a bye must be requested before the round is paired"
    );
    // A later round is fine.
    assert!(given.when(bye(4, 2, ByeKind::HalfPoint)).is_ok());
}

#[test]
fn bye_request_rejections() {
    let given = Given::with_players(5, 5)
        .cmd(bye(1, 2, ByeKind::HalfPoint))
        .cmd(absent(2, 2))
        .cmd(withdraw(3, 2))
        .cmd(Command::RegisterPlayer(RegisterPlayer {
            first_round: Some(3),
            ..RegisterPlayer::new("Late", 1000)
        }));
    assert_eq!(
        given.when(bye(1, 2, ByeKind::ZeroPoint)),
        Err(DomainError::ByeAlreadyRequested {
            player: 1,
            round: 2,
            kind: ByeKind::HalfPoint
        })
    );
    assert_eq!(
        given.when(bye(2, 2, ByeKind::HalfPoint)),
        Err(DomainError::AbsenceAlreadyDeclared {
            player: 2,
            round: 2
        })
    );
    assert_eq!(
        given.when(bye(3, 4, ByeKind::HalfPoint)),
        Err(DomainError::PlayerWithdrawn {
            player: 3,
            from_round: 2
        })
    );
    assert_eq!(
        given.when(bye(6, 2, ByeKind::HalfPoint)),
        Err(DomainError::PlayerNotEntered {
            player: 6,
            round: 2,
            first_round: 3
        })
    );
    assert_eq!(
        given.when(bye(7, 2, ByeKind::HalfPoint)),
        Err(DomainError::UnknownPlayer {
            player: 7,
            players: 6
        })
    );
    assert_eq!(
        given.when(bye(0, 2, ByeKind::HalfPoint)),
        Err(DomainError::UnknownPlayer {
            player: 0,
            players: 6
        })
    );
    assert_eq!(
        given.when(bye(1, 6, ByeKind::HalfPoint)),
        Err(DomainError::RoundOutOfRange {
            round: 6,
            rounds: 5
        })
    );
    assert_eq!(
        given.when(bye(1, 0, ByeKind::HalfPoint)),
        Err(DomainError::RoundOutOfRange {
            round: 0,
            rounds: 5
        })
    );
}

// --- CancelBye ---------------------------------------------------------------------------------

#[test]
fn cancel_bye() {
    let given = Given::with_players(5, 4).cmd(bye(2, 3, ByeKind::HalfPoint));
    let c = Command::CancelBye(CancelBye {
        player: 2,
        round: 3,
    });
    assert_eq!(
        given.when(c.clone()),
        Ok(vec![Event::ByeCancelled(ByeCancelled {
            player_id: 2,
            round: 3
        })])
    );
    let state = given.after(c);
    assert_eq!(state.availability(2, 3), Some(Availability::Available));
    assert!(state.byes_requested().is_empty());
}

#[test]
fn cancel_bye_while_the_round_is_being_paired_asks_for_a_new_pairing() {
    let given = Given::with_players(5, 5)
        .cmd(bye(5, 1, ByeKind::HalfPoint))
        .cmd(start(1));
    let then = given
        .when(Command::CancelBye(CancelBye {
            player: 5,
            round: 1,
        }))
        .unwrap();
    assert_eq!(
        then,
        vec![
            Event::ByeCancelled(ByeCancelled {
                player_id: 5,
                round: 1
            }),
            requested(1, 2)
        ]
    );
}

#[test]
fn cancel_bye_rejections() {
    let given = Given::with_players(5, 5)
        .cmd(bye(5, 1, ByeKind::HalfPoint))
        .paired(1, &[(1, 3), (4, 2)], None);
    assert_eq!(
        given.when(Command::CancelBye(CancelBye {
            player: 4,
            round: 2
        })),
        Err(DomainError::NoByeRequested {
            player: 4,
            round: 2
        })
    );
    assert!(matches!(
        given.when(Command::CancelBye(CancelBye {
            player: 5,
            round: 1
        })),
        Err(DomainError::RoundAlreadyPaired { round: 1, .. })
    ));
    assert_eq!(
        given.when(Command::CancelBye(CancelBye {
            player: 9,
            round: 2
        })),
        Err(DomainError::UnknownPlayer {
            player: 9,
            players: 5
        })
    );
}

// --- DeclareAbsence ----------------------------------------------------------------------------

#[test]
fn declared_absence_is_not_paired_and_scores_zero() {
    let given = Given::with_players(5, 5);
    let then = given.when(absent(3, 1)).unwrap();
    assert_eq!(
        then,
        vec![Event::AbsenceDeclared(AbsenceDeclared {
            player_id: 3,
            round: 1,
            reason: "exam".into()
        })]
    );
    let state = given
        .clone()
        .cmd(absent(3, 1))
        .paired(1, &[(1, 4), (5, 2)], None)
        .state();
    assert_eq!(
        state.entry(3, 1),
        Some(RoundEntry::bye(ResultCode::ZeroBye))
    );
    assert_eq!(state.score(3), Some(Score::ZERO));
    assert_eq!(state.absences(), vec![(3, 1)]);
    assert_eq!(
        state
            .player(3)
            .unwrap()
            .absences
            .get(&1)
            .map(String::as_str),
        Some("exam")
    );
}

#[test]
fn absence_rejections() {
    let given = Given::with_players(5, 5)
        .cmd(absent(3, 2))
        .cmd(bye(4, 2, ByeKind::HalfPoint))
        .paired(1, &[(1, 3), (4, 2)], Some(5));
    assert_eq!(
        given.when(absent(3, 2)),
        Err(DomainError::AbsenceAlreadyDeclared {
            player: 3,
            round: 2
        })
    );
    assert_eq!(
        given.when(absent(4, 2)),
        Err(DomainError::ByeAlreadyRequested {
            player: 4,
            round: 2,
            kind: ByeKind::HalfPoint
        })
    );
    let err = given.when(absent(1, 1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the pairing of round 1 is already published; a player missing a paired game loses it by forfeit (record the result)"
    );
    assert_eq!(
        given.when(absent(1, 9)),
        Err(DomainError::RoundOutOfRange {
            round: 9,
            rounds: 5
        })
    );
}

#[test]
fn absence_while_the_round_is_being_paired_asks_for_a_new_pairing() {
    let given = Given::with_players(5, 4).cmd(start(1));
    let then = given.when(absent(4, 1)).unwrap();
    assert_eq!(then[1], requested(1, 2));
}

// --- WithdrawPlayer ----------------------------------------------------------------------------

#[test]
fn withdrawn_player_is_not_paired_again() {
    let given = Given::with_players(5, 5).round(
        1,
        &[(1, 3), (4, 2)],
        Some(5),
        &[BoardResult::Draw, BoardResult::Draw],
    );
    let then = given.when(withdraw(4, 2)).unwrap();
    assert_eq!(
        then,
        vec![Event::PlayerWithdrawn(PlayerWithdrawn {
            player_id: 4,
            from_round: 2,
            reason: "illness".into()
        })]
    );
    let given = given.cmd(withdraw(4, 2)).cmd(start(2));
    let err = given
        .when(propose(2, 1, &[(1, 4), (3, 2)], None))
        .unwrap_err();
    assert_eq!(
        err,
        DomainError::NotAvailable {
            round: 2,
            player: 4,
            availability: Availability::Withdrawn { from_round: 2 }
        }
    );
    assert_eq!(
        err.to_string(),
        "round 2: player 4 is not to be paired (withdrawn from round 2)"
    );
    let state = given
        .cmd(propose(2, 1, &[(5, 1), (2, 3)], None))
        .cmd(publish(2))
        .state();
    assert_eq!(
        state.entry(4, 2),
        Some(RoundEntry::bye(ResultCode::ZeroBye))
    );
    assert_eq!(state.withdrawals(), vec![(4, 2)]);
    // His round-1 game stays in the record (C.05 §6.7.1).
    assert!(state.entry(4, 1).unwrap().is_played_game());
}

#[test]
fn withdrawal_cancels_the_byes_requested_for_later_rounds() {
    let given = Given::with_players(5, 4)
        .cmd(bye(2, 1, ByeKind::HalfPoint))
        .cmd(bye(2, 3, ByeKind::HalfPoint))
        .cmd(bye(2, 4, ByeKind::ZeroPoint));
    let then = given.when(withdraw(2, 3)).unwrap();
    assert_eq!(
        then,
        vec![
            Event::ByeCancelled(ByeCancelled {
                player_id: 2,
                round: 3
            }),
            Event::ByeCancelled(ByeCancelled {
                player_id: 2,
                round: 4
            }),
            Event::PlayerWithdrawn(PlayerWithdrawn {
                player_id: 2,
                from_round: 3,
                reason: "illness".into()
            }),
        ]
    );
    assert_eq!(
        given.after(withdraw(2, 3)).byes_requested(),
        vec![(2, 1, ByeKind::HalfPoint)]
    );
}

#[test]
fn withdrawal_while_the_round_is_being_paired_asks_for_a_new_pairing() {
    let given = Given::with_players(5, 4).cmd(start(1));
    let then = given.when(withdraw(4, 1)).unwrap();
    assert_eq!(then.last(), Some(&requested(1, 2)));
    // Withdrawing from a later round does not touch the pending pairing.
    assert_eq!(given.when(withdraw(4, 2)).unwrap().len(), 1);
}

#[test]
fn withdrawal_rejections() {
    let given = Given::with_players(5, 4)
        .cmd(withdraw(3, 4))
        .paired(1, &[(1, 3), (4, 2)], None);
    assert_eq!(
        given.when(withdraw(3, 2)),
        Err(DomainError::PlayerWithdrawn {
            player: 3,
            from_round: 4
        })
    );
    assert_eq!(
        given.when(withdraw(8, 2)),
        Err(DomainError::UnknownPlayer {
            player: 8,
            players: 4
        })
    );
    assert!(matches!(
        given.when(withdraw(1, 1)),
        Err(DomainError::RoundAlreadyPaired { round: 1, .. })
    ));
    assert_eq!(
        given.when(withdraw(1, 6)),
        Err(DomainError::RoundOutOfRange {
            round: 6,
            rounds: 5
        })
    );
    let long = Command::WithdrawPlayer(WithdrawPlayer {
        player: 1,
        from_round: 2,
        reason: "\u{0}".into(),
    });
    assert!(
        matches!(given.when(long), Err(DomainError::Invalid { ref field, .. }) if field == "reason")
    );
}

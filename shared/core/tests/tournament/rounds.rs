//! StartRound, RequestPairing, ProposePairing, ReportPairingFailure, PublishPairing, CloseRound.

use crate::support::*;
use arbiter_core::tournament::*;
use arbiter_core::{Color, ResultCode, RoundEntry};

fn failure(round: u32, attempt: u32) -> Command {
    Command::ReportPairingFailure(ReportPairingFailure {
        round,
        attempt,
        engine: engine(),
        rule_set: "dutch-2025".into(),
        based_on_version: 9,
        input_digest: digest(),
        reason: "no legal pairing".into(),
    })
}

fn manual(round: u32, boards: &[(u32, u32)], bye: Option<u32>, note: &str) -> Command {
    Command::PublishPairing(PublishPairing {
        round,
        proposal_version: Some(42),
        changes: Some(ManualPairing {
            boards: pairs(boards),
            bye,
            team_bye: None,
            team_matches: Vec::new(),
        }),
        note: note.into(),
    })
}

// --- StartRound --------------------------------------------------------------------------------

#[test]
fn start_round_requests_its_pairing() {
    let given = Given::with_players(5, 4);
    let then = given
        .when(Command::StartRound(StartRound {
            round: 1,
            scheduled_unix_ms: Some(1_754_035_200_000),
        }))
        .unwrap();
    assert_eq!(
        then,
        vec![
            Event::RoundStarted(RoundStarted {
                round: 1,
                scheduled_unix_ms: Some(1_754_035_200_000)
            }),
            requested(1, 1)
        ]
    );
    let state = given.after(start(1));
    assert_eq!(state.current_round(), Some(1));
    assert_eq!(state.round_phase(1), Some(RoundPhase::Requested));
    assert_eq!(state.pending_round(), Some(1));
    assert_eq!(state.round_attempt(1), Some(1));
}

#[test]
fn start_round_must_be_the_next_round() {
    let given = Given::with_players(5, 4);
    assert_eq!(
        given.when(start(2)),
        Err(DomainError::RoundOutOfOrder {
            round: 2,
            expected: 1
        })
    );
    let given = given.round(
        1,
        &[(1, 3), (4, 2)],
        None,
        &[BoardResult::Draw, BoardResult::Draw],
    );
    assert_eq!(
        given.when(start(1)),
        Err(DomainError::RoundOutOfOrder {
            round: 1,
            expected: 2
        })
    );
    assert_eq!(
        given.when(start(3)),
        Err(DomainError::RoundOutOfOrder {
            round: 3,
            expected: 2
        })
    );
    assert_eq!(
        given.when(start(6)),
        Err(DomainError::RoundOutOfRange {
            round: 6,
            rounds: 5
        })
    );
    assert_eq!(
        given.when(start(0)),
        Err(DomainError::RoundOutOfRange {
            round: 0,
            rounds: 5
        })
    );
    assert!(given.when(start(2)).is_ok());
}

#[test]
fn start_round_needs_the_previous_round_closed() {
    let paired = Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None);
    let err = paired.when(start(2)).unwrap_err();
    assert_eq!(
        err,
        DomainError::PreviousRoundNotClosed {
            round: 2,
            previous: 1
        }
    );
    assert_eq!(
        err.to_string(),
        "round 2 cannot start before round 1 is closed"
    );
    let requested_only = Given::with_players(5, 4).cmd(start(1));
    assert_eq!(
        requested_only.when(start(2)),
        Err(DomainError::PreviousRoundNotClosed {
            round: 2,
            previous: 1
        })
    );
}

#[test]
fn start_round_needs_two_players_to_pair() {
    assert_eq!(
        Given::with_players(5, 1).when(start(1)),
        Err(DomainError::NotEnoughPlayers {
            round: 1,
            available: 1
        })
    );
    let given = Given::with_players(5, 3)
        .cmd(absent(1, 1))
        .cmd(bye(2, 1, ByeKind::HalfPoint));
    assert_eq!(
        given.when(start(1)),
        Err(DomainError::NotEnoughPlayers {
            round: 1,
            available: 1
        })
    );
}

#[test]
fn start_round_after_the_last_round_is_out_of_range() {
    let given = Given::with_players(1, 2).round(1, &[(1, 2)], None, &[BoardResult::Draw]);
    assert_eq!(
        given.when(start(2)),
        Err(DomainError::RoundOutOfRange {
            round: 2,
            rounds: 1
        })
    );
}

// --- ProposePairing ----------------------------------------------------------------------------

#[test]
fn proposal_numbers_boards_and_lists_the_unpaired() {
    let given = Given::with_players(5, 5).cmd(absent(2, 1)).cmd(start(1));
    let then = given.when(propose(1, 1, &[(1, 4), (5, 3)], None)).unwrap();
    assert_eq!(
        then,
        vec![Event::PairingProposed(PairingProposed {
            round: 1,
            attempt: 1,
            boards: vec![
                Board {
                    number: 1,
                    white: 1,
                    black: 4
                },
                Board {
                    number: 2,
                    white: 5,
                    black: 3
                }
            ],
            unpaired: vec![Unpaired {
                player_id: 2,
                code: ResultCode::ZeroBye
            }],
            engine: engine(),
            rule_set: "dutch-2025".into(),
            based_on_version: 10,
            input_digest: digest(),
            explanation: "bracket 0: 1-3, 2-4".into(),
            team_bye: None,
            team_matches: Vec::new(),
        })]
    );
    let state = given.after(propose(1, 1, &[(1, 4), (5, 3)], None));
    assert_eq!(state.round_phase(1), Some(RoundPhase::Proposed));
    assert_eq!(state.proposal(1).map(|p| p.boards.len()), Some(2));
}

#[test]
fn proposal_with_a_pairing_allocated_bye() {
    let given = Given::with_players(5, 5).cmd(start(1));
    let then = given
        .when(propose(1, 1, &[(1, 3), (4, 2)], Some(5)))
        .unwrap();
    let Event::PairingProposed(p) = &then[0] else {
        panic!()
    };
    assert_eq!(
        p.unpaired,
        vec![Unpaired {
            player_id: 5,
            code: ResultCode::PairingBye
        }]
    );
}

#[test]
fn proposal_must_answer_the_current_request() {
    let given = Given::with_players(5, 4);
    assert_eq!(
        given.when(propose(1, 1, &[(1, 3), (4, 2)], None)),
        Err(DomainError::RoundNotStarted { round: 1 })
    );
    let given = given.cmd(start(1));
    assert_eq!(
        given.when(propose(1, 2, &[(1, 3), (4, 2)], None)),
        Err(DomainError::StaleAttempt {
            round: 1,
            attempt: 2,
            current: 1
        })
    );
    let mut other_rules = propose_cmd(1, 1, &[(1, 3), (4, 2)], None);
    other_rules.rule_set = "dutch-2017".into();
    let err = given
        .when(Command::ProposePairing(other_rules))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "round 1: the tournament pairs with rule set \"dutch-2025\", not \"dutch-2017\""
    );
    let mut short = propose_cmd(1, 1, &[(1, 3), (4, 2)], None);
    short.input_digest = vec![1, 2, 3];
    assert!(
        matches!(given.when(Command::ProposePairing(short)), Err(DomainError::Invalid { ref field, .. }) if field == "input_digest")
    );
    let mut nameless = propose_cmd(1, 1, &[(1, 3), (4, 2)], None);
    nameless.engine.name = String::new();
    assert!(
        matches!(given.when(Command::ProposePairing(nameless)), Err(DomainError::Invalid { ref field, .. }) if field == "engine.name")
    );
    assert_eq!(
        given.when(propose(2, 1, &[(1, 3), (4, 2)], None)),
        Err(DomainError::RoundNotStarted { round: 2 })
    );

    let proposed = given.cmd(propose(1, 1, &[(1, 3), (4, 2)], None));
    assert_eq!(
        proposed.when(propose(1, 1, &[(1, 2), (3, 4)], None)),
        Err(DomainError::AlreadyProposed {
            round: 1,
            attempt: 1
        })
    );
    let published = proposed.cmd(publish(1));
    assert!(matches!(
        published.when(propose(1, 1, &[(1, 3), (4, 2)], None)),
        Err(DomainError::RoundAlreadyPaired { round: 1, .. })
    ));
}

#[test]
fn proposal_must_be_a_complete_legal_pairing() {
    let given = Given::with_players(5, 5).cmd(absent(5, 1)).cmd(start(1));
    let cases: Vec<(Command, DomainError)> = vec![
        (
            propose(1, 1, &[(1, 3), (4, 9)], None),
            DomainError::PairingUnknownPlayer {
                round: 1,
                player: 9,
            },
        ),
        (
            propose(1, 1, &[(1, 3), (3, 2)], None),
            DomainError::PairedTwice {
                round: 1,
                player: 3,
            },
        ),
        (
            propose(1, 1, &[(1, 3), (4, 4)], None),
            DomainError::PairedWithSelf {
                round: 1,
                board: 2,
                player: 4,
            },
        ),
        (
            propose(1, 1, &[(1, 3), (4, 2)], Some(1)),
            DomainError::PairedTwice {
                round: 1,
                player: 1,
            },
        ),
        (
            propose(1, 1, &[(1, 3), (4, 5)], None),
            DomainError::NotAvailable {
                round: 1,
                player: 5,
                availability: Availability::Absent,
            },
        ),
        (
            propose(1, 1, &[(1, 3)], None),
            DomainError::PlayersLeftOut {
                round: 1,
                players: vec![2, 4],
            },
        ),
        (
            propose(1, 1, &[(1, 3)], Some(2)),
            DomainError::PlayersLeftOut {
                round: 1,
                players: vec![4],
            },
        ),
        (
            propose(1, 1, &[], None),
            DomainError::PlayersLeftOut {
                round: 1,
                players: vec![1, 2, 3, 4],
            },
        ),
    ];
    for (c, expected) in cases {
        assert_eq!(given.when(c), Err(expected));
    }
}

fn after_round_one() -> Given {
    // 1-3 (1-0), 4-2 (draw), 5 gets the PAB.
    Given::with_players(5, 5).round(
        1,
        &[(1, 3), (4, 2)],
        Some(5),
        &[BoardResult::WhiteWins, BoardResult::Draw],
    )
}

#[test]
fn no_rematch_of_a_played_game_in_a_swiss() {
    let given = after_round_one().cmd(start(2));
    let err = given
        .when(propose(2, 1, &[(5, 1), (3, 1)], None))
        .unwrap_err();
    assert_eq!(
        err,
        DomainError::PairedTwice {
            round: 2,
            player: 1
        }
    );
    let err = given
        .when(propose(2, 1, &[(2, 5), (3, 1)], Some(4)))
        .unwrap_err();
    assert_eq!(
        err,
        DomainError::Rematch {
            round: 2,
            board: 2,
            white: 3,
            black: 1,
            earlier_round: 1
        }
    );
    assert_eq!(
        err.to_string(),
        "round 2, board 2: players 3 and 1 already played each other in round 1 (C.04.1.b)"
    );
}

#[test]
fn players_whose_game_was_forfeited_may_meet_again() {
    let given = Given::with_players(5, 4)
        .round(
            1,
            &[(1, 3), (4, 2)],
            None,
            &[BoardResult::WhiteWinsForfeit, BoardResult::DoubleForfeit],
        )
        .cmd(start(2));
    assert!(given.when(propose(2, 1, &[(3, 1), (2, 4)], None)).is_ok());
}

#[test]
fn rematches_are_the_rule_in_a_double_round_robin() {
    let mut c = create(2);
    c.pairing_system = PairingSystem::DoubleRoundRobin;
    let mut p1 = propose_cmd(1, 1, &[(1, 2)], None);
    p1.rule_set = "berger-double".into();
    let mut p2 = propose_cmd(2, 1, &[(2, 1)], None);
    p2.rule_set = "berger-double".into();
    let given = Given::created_with(c)
        .cmd(register("A", 2000))
        .cmd(register("B", 1900))
        .cmd(start(1))
        .cmd(Command::ProposePairing(p1))
        .cmd(publish(1))
        .results(1, &[BoardResult::Draw])
        .cmd(close(1))
        .cmd(start(2));
    assert!(given.when(Command::ProposePairing(p2)).is_ok());
}

#[test]
fn no_pairing_allocated_bye_twice() {
    let given = after_round_one().cmd(start(2));
    let err = given
        .when(propose(2, 1, &[(1, 4), (2, 3)], Some(5)))
        .unwrap_err();
    assert_eq!(
        err,
        DomainError::ByeNotAllowed {
            round: 2,
            player: 5,
            earlier_round: 1,
            reason: "he had the pairing-allocated bye"
        }
    );
    assert_eq!(
        err.to_string(),
        "round 2: player 5 cannot get the pairing-allocated bye: he had the pairing-allocated bye in round 1 (C.04.1.d)"
    );
    assert!(
        given
            .when(propose(2, 1, &[(1, 4), (5, 2)], Some(3)))
            .is_ok()
    );
}

#[test]
fn no_pairing_allocated_bye_after_a_forfeit_win() {
    let given = Given::with_players(5, 5)
        .round(
            1,
            &[(1, 3), (4, 2)],
            Some(5),
            &[BoardResult::WhiteWinsForfeit, BoardResult::Draw],
        )
        .cmd(start(2));
    let err = given
        .when(propose(2, 1, &[(5, 4), (2, 3)], Some(1)))
        .unwrap_err();
    assert_eq!(
        err,
        DomainError::ByeNotAllowed {
            round: 2,
            player: 1,
            earlier_round: 1,
            reason: "he won by forfeit"
        }
    );
}

#[test]
fn a_full_point_bye_bars_the_pab_under_dutch_2025_only() {
    let run = |rule_set: &str| {
        let mut c = create(5);
        c.rule_set = Some(rule_set.into());
        let mut p1 = propose_cmd(1, 1, &[(1, 3), (4, 2)], None);
        p1.rule_set = rule_set.into();
        let mut p2 = propose_cmd(2, 1, &[(1, 4), (2, 3)], Some(5));
        p2.rule_set = rule_set.into();
        let mut g = Given::created_with(c);
        for i in 0..5 {
            g = g.cmd(register(&format!("P{i}"), 2400 - 100 * i));
        }
        g.cmd(bye(5, 1, ByeKind::FullPoint))
            .cmd(start(1))
            .cmd(Command::ProposePairing(p1))
            .cmd(publish(1))
            .results(1, &[BoardResult::Draw, BoardResult::Draw])
            .cmd(close(1))
            .cmd(start(2))
            .when(Command::ProposePairing(p2))
    };
    assert_eq!(
        run("dutch-2025"),
        Err(DomainError::ByeNotAllowed {
            round: 2,
            player: 5,
            earlier_round: 1,
            reason: "he scored a win's points without playing"
        })
    );
    assert!(run("dutch-2017").is_ok());
}

#[test]
fn a_half_point_bye_does_not_bar_the_pab() {
    let given = Given::with_players(5, 5)
        .cmd(bye(5, 1, ByeKind::HalfPoint))
        .round(
            1,
            &[(1, 3), (4, 2)],
            None,
            &[BoardResult::Draw, BoardResult::Draw],
        )
        .cmd(start(2));
    assert!(
        given
            .when(propose(2, 1, &[(1, 4), (2, 3)], Some(5)))
            .is_ok()
    );
}

// --- RequestPairing and ReportPairingFailure ---------------------------------------------------

#[test]
fn failure_is_recorded_and_a_new_request_can_follow() {
    let given = Given::with_players(5, 4).cmd(start(1));
    let then = given.when(failure(1, 1)).unwrap();
    assert_eq!(
        then,
        vec![Event::PairingFailed(PairingFailed {
            round: 1,
            attempt: 1,
            engine: engine(),
            rule_set: "dutch-2025".into(),
            based_on_version: 9,
            input_digest: digest(),
            reason: "no legal pairing".into(),
        })]
    );
    let failed = given.cmd(failure(1, 1));
    let state = failed.state();
    assert_eq!(state.round_phase(1), Some(RoundPhase::Failed));
    assert_eq!(
        state.pairing_failure(1).map(|f| f.reason.as_str()),
        Some("no legal pairing")
    );
    assert_eq!(
        failed.when(propose(1, 1, &[(1, 3), (4, 2)], None)),
        Err(DomainError::RoundNotPending {
            round: 1,
            phase: RoundPhase::Failed
        })
    );
    assert_eq!(
        failed.when(publish(1)),
        Err(DomainError::NoProposal { round: 1 })
    );
    let again = Command::RequestPairing(RequestPairing { round: 1 });
    assert_eq!(failed.when(again.clone()), Ok(vec![requested(1, 2)]));
    let state = failed.after(again);
    assert_eq!(state.round_phase(1), Some(RoundPhase::Requested));
    assert_eq!(state.pairing_failure(1), None);
}

#[test]
fn failure_rejections() {
    let given = Given::with_players(5, 4).cmd(start(1));
    assert_eq!(
        given.when(failure(1, 3)),
        Err(DomainError::StaleAttempt {
            round: 1,
            attempt: 3,
            current: 1
        })
    );
    let Command::ReportPairingFailure(mut f) = failure(1, 1) else {
        unreachable!()
    };
    f.reason = " ".into();
    assert!(
        matches!(given.when(Command::ReportPairingFailure(f)), Err(DomainError::Invalid { ref field, .. }) if field == "reason")
    );
    let proposed = given.cmd(propose(1, 1, &[(1, 3), (4, 2)], None));
    assert_eq!(
        proposed.when(failure(1, 1)),
        Err(DomainError::AlreadyProposed {
            round: 1,
            attempt: 1
        })
    );
}

#[test]
fn request_pairing_rejections() {
    let given = Given::with_players(5, 4);
    let req = |round| Command::RequestPairing(RequestPairing { round });
    assert_eq!(
        given.when(req(1)),
        Err(DomainError::RoundNotStarted { round: 1 })
    );
    let published = given.paired(1, &[(1, 3), (4, 2)], None);
    let err = published.when(req(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the pairing of round 1 is already published; a published pairing is not changed (C.04.2.D.10)"
    );
    assert_eq!(
        published.when(req(7)),
        Err(DomainError::RoundOutOfRange {
            round: 7,
            rounds: 5
        })
    );
}

#[test]
fn a_new_request_discards_the_proposal() {
    let given = Given::with_players(5, 4)
        .cmd(start(1))
        .cmd(propose(1, 1, &[(1, 3), (4, 2)], None));
    let state = given.after(Command::RequestPairing(RequestPairing { round: 1 }));
    assert_eq!(state.proposal(1), None);
    assert_eq!(state.round_attempt(1), Some(2));
}

// --- PublishPairing ----------------------------------------------------------------------------

#[test]
fn publishing_makes_the_proposal_official() {
    let given = Given::with_players(5, 5)
        .cmd(bye(2, 1, ByeKind::HalfPoint))
        .cmd(start(1))
        .cmd(propose(1, 1, &[(1, 4), (5, 3)], None));
    let then = given.when(publish(1)).unwrap();
    assert_eq!(
        then,
        vec![Event::PairingPublished(PairingPublished {
            round: 1,
            proposal_version: Some(42),
            boards: vec![
                Board {
                    number: 1,
                    white: 1,
                    black: 4
                },
                Board {
                    number: 2,
                    white: 5,
                    black: 3
                }
            ],
            unpaired: vec![Unpaired {
                player_id: 2,
                code: ResultCode::HalfBye
            }],
            manually_changed: false,
            note: String::new(),
            team_bye: None,
            team_matches: Vec::new(),
        })]
    );
    let state = given.after(publish(1));
    assert_eq!(state.round_phase(1), Some(RoundPhase::Published));
    assert_eq!(state.pending_round(), None);
    let published = state.published(1).unwrap();
    assert_eq!(
        published
            .boards
            .iter()
            .map(|b| (b.number, b.white, b.black))
            .collect::<Vec<_>>(),
        vec![(1, 1, 4), (2, 5, 3)]
    );
    assert!(published.boards.iter().all(|b| b.result.is_none()));
    assert_eq!(
        state.entry(2, 1),
        Some(RoundEntry::bye(ResultCode::HalfBye))
    );
}

#[test]
fn publishing_needs_a_pending_round_with_a_proposal() {
    let given = Given::with_players(5, 4);
    assert_eq!(
        given.when(publish(1)),
        Err(DomainError::RoundNotStarted { round: 1 })
    );
    let started = given.cmd(start(1));
    assert_eq!(
        started.when(publish(1)),
        Err(DomainError::NoProposal { round: 1 })
    );
    let published = started
        .cmd(propose(1, 1, &[(1, 3), (4, 2)], None))
        .cmd(publish(1));
    assert!(matches!(
        published.when(publish(1)),
        Err(DomainError::RoundAlreadyPaired { round: 1, .. })
    ));
}

#[test]
fn a_pairing_changed_by_hand_is_marked_and_needs_a_reason() {
    let given = Given::with_players(5, 4)
        .cmd(start(1))
        .cmd(propose(1, 1, &[(1, 3), (4, 2)], None));
    let err = given
        .when(manual(1, &[(1, 2), (3, 4)], None, ""))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid note: a pairing changed by hand needs a note giving the reason"
    );
    let then = given
        .when(manual(
            1,
            &[(3, 1), (4, 2)],
            None,
            "colour correction agreed with both players",
        ))
        .unwrap();
    let Event::PairingPublished(p) = &then[0] else {
        panic!()
    };
    assert!(p.manually_changed);
    assert_eq!(
        p.boards[0],
        Board {
            number: 1,
            white: 3,
            black: 1
        }
    );
    assert_eq!(p.note, "colour correction agreed with both players");
    // The same pairing as proposed is not a change.
    let then = given.when(manual(1, &[(1, 3), (4, 2)], None, "")).unwrap();
    let Event::PairingPublished(p) = &then[0] else {
        panic!()
    };
    assert!(!p.manually_changed);
    // A hand-made pairing is checked like a proposal.
    assert_eq!(
        given.when(manual(1, &[(1, 3)], None, "short")),
        Err(DomainError::PlayersLeftOut {
            round: 1,
            players: vec![2, 4]
        })
    );
}

#[test]
fn after_a_failure_the_arbiter_may_publish_a_pairing_by_hand() {
    let given = Given::with_players(5, 4).cmd(start(1)).cmd(failure(1, 1));
    let then = given
        .when(manual(
            1,
            &[(1, 3), (4, 2)],
            None,
            "engine failed; paired by the arbiter",
        ))
        .unwrap();
    let Event::PairingPublished(p) = &then[0] else {
        panic!()
    };
    assert!(p.manually_changed);
    assert_eq!(p.proposal_version, None);
}

// --- CloseRound --------------------------------------------------------------------------------

#[test]
fn close_round_when_all_results_are_in() {
    let given = Given::with_players(5, 4)
        .paired(1, &[(1, 3), (4, 2)], None)
        .results(1, &[BoardResult::WhiteWins, BoardResult::BlackWins]);
    assert_eq!(
        given.when(close(1)),
        Ok(vec![Event::RoundClosed(RoundClosed { round: 1 })])
    );
    let state = given.after(close(1));
    assert_eq!(state.round_phase(1), Some(RoundPhase::Closed));
    assert_eq!(state.closed_rounds(), 1);
    assert_eq!(
        state.entry(2, 1),
        Some(game(4, Color::Black, ResultCode::Win))
    );
}

#[test]
fn close_round_rejections() {
    let given = Given::with_players(5, 6);
    assert_eq!(
        given.when(close(1)),
        Err(DomainError::RoundNotStarted { round: 1 })
    );
    let started = given.cmd(start(1));
    assert_eq!(
        started.when(close(1)),
        Err(DomainError::RoundNotPublished { round: 1 })
    );
    let partial = started
        .cmd(propose(1, 1, &[(1, 4), (5, 2), (3, 6)], None))
        .cmd(publish(1))
        .cmd(result(1, 2, BoardResult::Draw));
    let err = partial.when(close(1)).unwrap_err();
    assert_eq!(
        err,
        DomainError::ResultsMissing {
            round: 1,
            boards: vec![1, 3]
        }
    );
    assert_eq!(
        err.to_string(),
        "round 1 is not finished: no result on board(s) [1, 3]"
    );
    let closed = partial
        .results(1, &[BoardResult::Draw])
        .cmd(result(1, 3, BoardResult::Draw))
        .cmd(close(1));
    assert_eq!(
        closed.when(close(1)),
        Err(DomainError::RoundAlreadyClosed { round: 1 })
    );
    assert_eq!(
        closed.when(close(9)),
        Err(DomainError::RoundOutOfRange {
            round: 9,
            rounds: 5
        })
    );
}

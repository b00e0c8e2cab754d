//! RecordResult and CorrectResult (C.04.2 D.7-D.8; Laws 8.7).

use crate::support::*;
use arbiter_core::tournament::*;
use arbiter_core::{Color, PointSystem, ResultCode, Score};

fn four_players_paired() -> Given {
    // Board 1: 1 (white) - 3; board 2: 4 (white) - 2.
    Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None)
}

#[test]
fn record_result() {
    let given = four_players_paired();
    assert_eq!(
        given.when(result(1, 2, BoardResult::BlackWins)),
        Ok(vec![Event::ResultRecorded(ResultRecorded {
            round: 1,
            board: 2,
            result: BoardResult::BlackWins
        })])
    );
    let state = given.after(result(1, 2, BoardResult::BlackWins));
    assert_eq!(
        state.entry(2, 1),
        Some(game(4, Color::Black, ResultCode::Win))
    );
    assert_eq!(
        state.entry(4, 1),
        Some(game(2, Color::White, ResultCode::Loss))
    );
    assert_eq!(state.score(2), Some(Score::ONE));
    assert_eq!(
        state.published(1).unwrap().boards[1].result,
        Some(BoardResult::BlackWins)
    );
}

#[test]
fn every_board_result_gives_both_lines_their_trf_codes_and_points() {
    use ResultCode::*;
    let cases = [
        (BoardResult::WhiteWins, ('1', '0'), (10, 0)),
        (BoardResult::Draw, ('=', '='), (5, 5)),
        (BoardResult::BlackWins, ('0', '1'), (0, 10)),
        (BoardResult::WhiteWinsForfeit, ('+', '-'), (10, 0)),
        (BoardResult::BlackWinsForfeit, ('-', '+'), (0, 10)),
        (BoardResult::DoubleForfeit, ('-', '-'), (0, 0)),
        (BoardResult::WhiteWinsUnrated, ('W', 'L'), (10, 0)),
        (BoardResult::DrawUnrated, ('D', 'D'), (5, 5)),
        (BoardResult::BlackWinsUnrated, ('L', 'W'), (0, 10)),
        (
            BoardResult::ArbiterDecision {
                white: Loss,
                black: Loss,
            },
            ('0', '0'),
            (0, 0),
        ),
        (
            BoardResult::ArbiterDecision {
                white: Draw,
                black: Loss,
            },
            ('=', '0'),
            (5, 0),
        ),
    ];
    for (res, (w, b), (pw, pb)) in cases {
        let state = four_players_paired().after(result(1, 1, res));
        let (ew, eb) = (state.entry(1, 1).unwrap(), state.entry(3, 1).unwrap());
        assert_eq!(
            (ew.result.trf_char(), eb.result.trf_char()),
            (w, b),
            "{res}"
        );
        assert_eq!(
            (ew.opponent, ew.color, eb.opponent, eb.color),
            (Some(3), Some(Color::White), Some(1), Some(Color::Black))
        );
        assert_eq!(
            (state.score(1), state.score(3)),
            (Some(Score(pw)), Some(Score(pb))),
            "{res}"
        );
    }
}

#[test]
fn scores_follow_a_custom_point_system() {
    let mut c = create(5);
    c.scoring = PointSystem::with_win_draw(Score::points(3), Score::points(1));
    let state = Given::created_with(c)
        .cmd(register("A", 2000))
        .cmd(register("B", 1900))
        .cmd(register("C", 1800))
        .cmd(start(1))
        .cmd(propose(1, 1, &[(1, 2)], Some(3)))
        .cmd(publish(1))
        .cmd(result(1, 1, BoardResult::Draw))
        .state();
    assert_eq!(
        state.scores(),
        vec![(1, Score(10)), (2, Score(10)), (3, Score(30))]
    );
}

#[test]
fn record_result_rejections() {
    let given = four_players_paired();
    let err = given.when(result(1, 3, BoardResult::Draw)).unwrap_err();
    assert_eq!(
        err,
        DomainError::UnknownBoard {
            round: 1,
            board: 3,
            boards: 2
        }
    );
    assert_eq!(err.to_string(), "round 1 has no board 3 (boards are 1..=2)");
    assert_eq!(
        given.when(result(1, 0, BoardResult::Draw)),
        Err(DomainError::UnknownBoard {
            round: 1,
            board: 0,
            boards: 2
        })
    );
    assert_eq!(
        given.when(result(2, 1, BoardResult::Draw)),
        Err(DomainError::RoundNotStarted { round: 2 })
    );
    assert_eq!(
        given.when(result(6, 1, BoardResult::Draw)),
        Err(DomainError::RoundOutOfRange {
            round: 6,
            rounds: 5
        })
    );
    let recorded = given.cmd(result(1, 1, BoardResult::WhiteWins));
    let err = recorded.when(result(1, 1, BoardResult::Draw)).unwrap_err();
    assert_eq!(
        err,
        DomainError::ResultAlreadyRecorded {
            round: 1,
            board: 1,
            result: BoardResult::WhiteWins
        }
    );
    assert_eq!(
        err.to_string(),
        "round 1, board 1 already has the result 1-0: use CorrectResult"
    );
    let bad = BoardResult::ArbiterDecision {
        white: ResultCode::Win,
        black: ResultCode::Win,
    };
    assert!(matches!(
        recorded.when(result(1, 2, bad)),
        Err(DomainError::InvalidDecision {
            round: 1,
            board: 2,
            ..
        })
    ));
    let bye_code = BoardResult::ArbiterDecision {
        white: ResultCode::PairingBye,
        black: ResultCode::Loss,
    };
    assert!(matches!(
        recorded.when(result(1, 2, bye_code)),
        Err(DomainError::InvalidDecision { .. })
    ));
}

#[test]
fn result_before_publication_is_rejected() {
    let given = Given::with_players(5, 4)
        .cmd(start(1))
        .cmd(propose(1, 1, &[(1, 3), (4, 2)], None));
    assert_eq!(
        given.when(result(1, 1, BoardResult::Draw)),
        Err(DomainError::RoundNotPublished { round: 1 })
    );
}

#[test]
fn result_in_a_closed_round_is_a_correction() {
    let given = four_players_paired()
        .results(1, &[BoardResult::Draw, BoardResult::Draw])
        .cmd(close(1));
    assert_eq!(
        given.when(result(1, 1, BoardResult::WhiteWins)),
        Err(DomainError::RoundClosed { round: 1 })
    );
}

// --- CorrectResult -----------------------------------------------------------------------------

fn round_one_played() -> Given {
    four_players_paired()
        .results(1, &[BoardResult::WhiteWins, BoardResult::Draw])
        .cmd(close(1))
}

#[test]
fn correction_before_the_next_pairing_counts_for_the_next_pairing() {
    let given = round_one_played();
    let then = given.when(correct(1, 1, BoardResult::BlackWins)).unwrap();
    assert_eq!(
        then,
        vec![Event::ResultCorrected(ResultCorrected {
            round: 1,
            board: 1,
            previous: BoardResult::WhiteWins,
            corrected: BoardResult::BlackWins,
            reason: "scoresheets show otherwise".into(),
        })]
    );
    let state = given.after(correct(1, 1, BoardResult::BlackWins));
    assert_eq!(
        state.entry(3, 1),
        Some(game(1, Color::Black, ResultCode::Win))
    );
    assert_eq!(state.score(1), Some(Score::ZERO));
    assert_eq!(state.corrections()[0].effect, CorrectionEffect::NextPairing);
    // The original result stays in the log: the events before the correction still say 1-0.
    assert_eq!(
        State::from_events(&given.events).entry(1, 1),
        Some(game(3, Color::White, ResultCode::Win))
    );
}

#[test]
fn correction_while_the_next_round_is_being_paired_asks_for_a_new_pairing() {
    let given = round_one_played()
        .cmd(start(2))
        .cmd(propose(2, 1, &[(1, 2), (3, 4)], None));
    let then = given.when(correct(1, 1, BoardResult::Draw)).unwrap();
    assert_eq!(then.len(), 2);
    assert_eq!(then[1], requested(2, 2));
    let state = given.after(correct(1, 1, BoardResult::Draw));
    let input = state.pairing_input(2).unwrap();
    assert_eq!(input.attempt, 2);
    assert_eq!(input.players[0].score, Score::HALF);
    assert_eq!(
        input.players[0].history,
        vec![game(3, Color::White, ResultCode::Draw)]
    );
}

#[test]
fn correction_after_the_next_pairing_counts_for_later_pairings_only() {
    let given = round_one_played().paired(2, &[(1, 2), (3, 4)], None);
    let state = given.after(correct(1, 1, BoardResult::Draw));
    assert_eq!(
        state.corrections()[0].effect,
        CorrectionEffect::LaterPairings
    );
    // The published pairing of round 2 stands; standings and round 3 use the correction.
    assert_eq!(state.published(2), given.state().published(2));
    assert_eq!(state.score(1), Some(Score::HALF));
    assert_eq!(
        state.entry(1, 1),
        Some(game(3, Color::White, ResultCode::Draw))
    );
}

#[test]
fn correction_after_the_next_round_is_for_rating_only() {
    let given = round_one_played().round(
        2,
        &[(1, 2), (3, 4)],
        None,
        &[BoardResult::Draw, BoardResult::Draw],
    );
    let state = given.after(correct(1, 1, BoardResult::Draw));
    assert_eq!(
        state.corrections()[0].effect,
        CorrectionEffect::FinalEvaluationOnly
    );
    // Pairings and standings go on as if the recorded result were right ...
    assert_eq!(
        state.entry(1, 1),
        Some(game(3, Color::White, ResultCode::Win))
    );
    assert_eq!(state.score(1), Some(Score(15)));
    // ... while rating sees the correction.
    assert_eq!(
        state.final_entry(1, 1),
        Some(game(3, Color::White, ResultCode::Draw))
    );
    let board = state.published(1).unwrap().boards[0];
    assert_eq!(
        (board.result, board.final_result),
        (Some(BoardResult::WhiteWins), Some(BoardResult::Draw))
    );
}

#[test]
fn correction_after_the_tournament_is_for_rating_only() {
    let given = Given::with_players(1, 2)
        .round(1, &[(1, 2)], None, &[BoardResult::WhiteWins])
        .cmd(Command::FinishTournament(FinishTournament {}));
    let then = given.when(correct(1, 1, BoardResult::Draw)).unwrap();
    assert_eq!(then.len(), 1);
    let state = given.after(correct(1, 1, BoardResult::Draw));
    assert_eq!(
        state.corrections()[0].effect,
        CorrectionEffect::FinalEvaluationOnly
    );
    assert_eq!(state.score(1), Some(Score::ONE));
    assert_eq!(
        state.final_entry(1, 1).map(|e| e.result),
        Some(ResultCode::Draw)
    );
}

#[test]
fn a_game_corrected_to_a_forfeit_no_longer_bars_a_rematch() {
    // 1-3 is corrected to a forfeit: they may meet again (C.04.2.D.6); 4-2 was played.
    let given = round_one_played().cmd(correct(1, 1, BoardResult::WhiteWinsForfeit));
    let err = given
        .clone()
        .cmd(start(2))
        .when(propose(2, 1, &[(3, 1), (2, 4)], None))
        .unwrap_err();
    assert_eq!(
        err,
        DomainError::Rematch {
            round: 2,
            board: 2,
            white: 2,
            black: 4,
            earlier_round: 1
        }
    );
    let both = given
        .cmd(correct(1, 2, BoardResult::DoubleForfeit))
        .cmd(start(2));
    assert!(both.when(propose(2, 1, &[(3, 1), (2, 4)], None)).is_ok());
}

#[test]
fn correction_rejections() {
    let given = four_players_paired().cmd(result(1, 1, BoardResult::WhiteWins));
    assert_eq!(
        given.when(correct(1, 2, BoardResult::Draw)),
        Err(DomainError::ResultNotRecorded { round: 1, board: 2 })
    );
    assert_eq!(
        given.when(correct(1, 1, BoardResult::WhiteWins)),
        Err(DomainError::ResultUnchanged {
            round: 1,
            board: 1,
            result: BoardResult::WhiteWins
        })
    );
    assert_eq!(
        given.when(correct(1, 5, BoardResult::Draw)),
        Err(DomainError::UnknownBoard {
            round: 1,
            board: 5,
            boards: 2
        })
    );
    assert_eq!(
        given.when(correct(2, 1, BoardResult::Draw)),
        Err(DomainError::RoundNotStarted { round: 2 })
    );
    let no_reason = Command::CorrectResult(CorrectResult {
        round: 1,
        board: 1,
        result: BoardResult::Draw,
        reason: "".into(),
    });
    assert!(
        matches!(given.when(no_reason), Err(DomainError::Invalid { ref field, .. }) if field == "reason")
    );
    let bad = BoardResult::ArbiterDecision {
        white: ResultCode::Draw,
        black: ResultCode::ForfeitLoss,
    };
    assert!(matches!(
        given.when(correct(1, 1, bad)),
        Err(DomainError::InvalidDecision { .. })
    ));
    let pending = Given::with_players(5, 4).cmd(start(1));
    assert_eq!(
        pending.when(correct(1, 1, BoardResult::Draw)),
        Err(DomainError::RoundNotPublished { round: 1 })
    );
}

#[test]
fn a_correction_of_a_correction_names_the_latest_result() {
    let given = round_one_played().cmd(correct(1, 1, BoardResult::Draw));
    let then = given.when(correct(1, 1, BoardResult::BlackWins)).unwrap();
    let Event::ResultCorrected(c) = &then[0] else {
        panic!()
    };
    assert_eq!(
        (c.previous, c.corrected),
        (BoardResult::Draw, BoardResult::BlackWins)
    );
    assert_eq!(
        given
            .after(correct(1, 1, BoardResult::BlackWins))
            .corrections()
            .len(),
        2
    );
}

#[test]
fn a_late_correction_keeps_standings_and_the_next_pairing_and_changes_the_rating_result() {
    // Round 1: 1-3 1-0, 4-2 ½-½; round 2 played and closed; then round 1 board 1 is found to
    // have been a draw (C.04.2 D.8: after the end of the next round, for rating only).
    let given = round_one_played().round(
        2,
        &[(1, 2), (3, 4)],
        None,
        &[BoardResult::Draw, BoardResult::Draw],
    );
    let before = given.state();
    let state = given.after(correct(1, 1, BoardResult::Draw));
    // Standings and the input of the round-3 pairing are exactly those before the correction.
    assert_eq!(state.scores(), before.scores());
    let with_start = |s: &Given| s.clone().cmd(start(3));
    let next_before = with_start(&given).state().pairing_input(3).unwrap();
    let next_after = with_start(&given.clone().cmd(correct(1, 1, BoardResult::Draw)))
        .state()
        .pairing_input(3)
        .unwrap();
    assert_eq!(next_after.players, next_before.players);
    // Rating reads the corrected result; the difference is listed with its note.
    assert_eq!(
        state.final_entry(3, 1),
        Some(game(1, Color::Black, ResultCode::Draw))
    );
    let late = state.rating_only_corrections();
    assert_eq!(
        late,
        vec![RatingOnlyCorrection {
            round: 1,
            board: 1,
            white: 1,
            black: 3,
            standings: BoardResult::WhiteWins,
            rating: BoardResult::Draw,
            after_round: Some(2),
        }]
    );
    assert_eq!(
        late[0].note(),
        "result corrected after round 2 ended: counts as 1-0 for standings, ½-½ for rating (C.04.2 D.8)"
    );
    // The fold decides from when the correction arrives: replaying the log gives the same.
    let mut events = given.events.clone();
    events.extend(given.when(correct(1, 1, BoardResult::Draw)).unwrap());
    assert_eq!(State::from_events(&events), state);
}

#[test]
fn a_timely_correction_changes_standings_the_next_pairing_and_rating_alike() {
    let given = round_one_played();
    let state = given.after(correct(1, 1, BoardResult::Draw));
    assert_eq!(state.score(1), Some(Score::HALF));
    assert_eq!(state.final_entry(1, 1), state.entry(1, 1));
    assert!(state.rating_only_corrections().is_empty());
    let input = given
        .cmd(correct(1, 1, BoardResult::Draw))
        .cmd(start(2))
        .state()
        .pairing_input(2)
        .unwrap();
    assert_eq!(input.players[0].score, Score::HALF);
}

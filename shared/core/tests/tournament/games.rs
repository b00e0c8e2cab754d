//! SubmitGame: one game's score per board of a published pairing, its players and result
//! those of the board.

use crate::support::*;
use arbiter_core::tournament::*;

fn paired() -> Given {
    // Board 1: 1 (white) - 3; board 2: 4 (white) - 2.
    Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None)
}

fn game(round: u32, board: u32, white: &str, black: &str, result: &str) -> Command {
    Command::SubmitGame(SubmitGame {
        round,
        board,
        pgn: format!("[White \"{white}\"]\n[Black \"{black}\"]\n\n1. e4 e5 {result}\n"),
        white: white.into(),
        black: black.into(),
        result: result.into(),
        laws: None,
    })
}

#[test]
fn a_game_of_a_published_board_is_kept_once() {
    let g = paired();
    let events = g.when(game(1, 2, "Player 04", "Player 02", "*")).unwrap();
    assert!(matches!(&events[..], [Event::GameSubmitted(e)] if e.round == 1 && e.board == 2));
    let g = g.cmd(game(1, 2, "Player 04", "Player 02", "*"));
    assert!(g.state().game_submitted(1, 2));
    assert!(!g.state().game_submitted(1, 1));
    assert_eq!(
        g.when(game(1, 2, "Player 04", "Player 02", "*")),
        Err(DomainError::GameAlreadySubmitted { round: 1, board: 2 })
    );
}

#[test]
fn a_game_must_fit_the_pairing_and_the_recorded_result() {
    let g = paired();
    assert_eq!(
        g.when(game(1, 3, "Player 04", "Player 02", "*")),
        Err(DomainError::UnknownBoard {
            round: 1,
            board: 3,
            boards: 2
        })
    );
    assert_eq!(
        g.when(game(2, 1, "Player 01", "Player 03", "*")),
        Err(DomainError::RoundNotStarted { round: 2 })
    );
    let swapped = g
        .when(game(1, 1, "Player 03", "Player 01", "1-0"))
        .unwrap_err();
    assert!(
        matches!(&swapped, DomainError::GameMismatch { round: 1, board: 1, reason } if reason.contains("White is \"Player 03\"")),
        "{swapped}"
    );
    let g = g.cmd(result(1, 1, BoardResult::Draw));
    let e = g
        .when(game(1, 1, "Player 01", "Player 03", "1-0"))
        .unwrap_err();
    assert!(e.to_string().contains("the recorded result is"), "{e}");
    assert!(
        g.when(game(1, 1, "Player 01", "Player 03", "1/2-1/2"))
            .is_ok()
    );
    let g = g.cmd(result(1, 2, BoardResult::WhiteWinsForfeit));
    let e = g
        .when(game(1, 2, "Player 04", "Player 02", "1-0"))
        .unwrap_err();
    assert!(e.to_string().contains("forfeit"), "{e}");
}

fn in_file(index: u32, white: &str, black: &str, result: &str) -> GameInFile {
    GameInFile {
        index,
        pgn: format!("[White \"{white}\"]\n[Black \"{black}\"]\n\n1. e4 e5 {result}\n"),
        white: white.into(),
        black: black.into(),
        result: result.into(),
        laws: None,
    }
}

fn file(round: u32, games: Vec<GameInFile>) -> Command {
    Command::SubmitGames(SubmitGames { round, games })
}

#[test]
fn a_rounds_file_finds_each_games_board_by_the_players_names() {
    let g = paired();
    // In another order than the boards: matched by name, appended in file order.
    let events = g
        .when(file(
            1,
            vec![
                in_file(1, "Player 04", "Player 02", "0-1"),
                in_file(2, "Player 01", "Player 03", "1/2-1/2"),
            ],
        ))
        .unwrap();
    let boards: Vec<u32> = events
        .iter()
        .map(|e| match e {
            Event::GameSubmitted(g) => g.board,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(boards, [2, 1]);
    let g = g.cmd(file(1, vec![in_file(1, "Player 04", "Player 02", "0-1")]));
    assert_eq!(g.state().submitted_game_result(1, 2), Some("0-1"));
    // The same file again: the first game already there is named.
    let e = g
        .when(file(1, vec![in_file(1, "Player 04", "Player 02", "0-1")]))
        .unwrap_err();
    assert!(
        matches!(&e, DomainError::GameInFile { index: 1, error, .. }
            if matches!(**error, DomainError::GameAlreadySubmitted { round: 1, board: 2 })),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("game 1 of the file (Player 04 - Player 02)"),
        "{e}"
    );
}

#[test]
fn a_rounds_file_is_refused_whole_naming_the_game() {
    let g = paired().cmd(result(1, 1, BoardResult::Draw));
    let cases = [
        // Colours swapped.
        (
            vec![
                in_file(1, "Player 04", "Player 02", "*"),
                in_file(2, "Player 03", "Player 01", "*"),
            ],
            "game 2 of the file (Player 03 - Player 01): no board of round 1 has White \"Player 03\" and Black \"Player 01\"; board 1 has them with the other colours",
        ),
        // Nobody's board.
        (
            vec![in_file(1, "Player 05", "Player 02", "*")],
            "game 1 of the file (Player 05 - Player 02): no board of round 1",
        ),
        // The recorded result says otherwise.
        (
            vec![
                in_file(1, "Player 04", "Player 02", "*"),
                in_file(2, "Player 01", "Player 03", "1-0"),
            ],
            "game 2 of the file (Player 01 - Player 03): round 1, board 1: the game does not match the published pairing: the PGN's result is \"1-0\", the recorded result is",
        ),
        // Twice the same board.
        (
            vec![
                in_file(1, "Player 04", "Player 02", "*"),
                in_file(2, "Player 04", "Player 02", "*"),
            ],
            "game 2 of the file (Player 04 - Player 02): round 1, board 2: the game does not match the published pairing: game 1 of the file is already this board's game",
        ),
    ];
    for (games, words) in cases {
        let e = g.when(file(1, games)).unwrap_err();
        assert!(e.to_string().contains(words), "{e}\nlacks\n{words}");
    }
    assert_eq!(
        g.when(file(2, vec![in_file(1, "Player 04", "Player 02", "*")])),
        Err(DomainError::RoundNotStarted { round: 2 })
    );
    assert!(matches!(
        g.when(file(1, vec![])),
        Err(DomainError::Invalid { .. })
    ));
}

#[test]
fn games_are_accepted_after_the_tournament_is_finished() {
    let g = Given::with_players(1, 4)
        .round(
            1,
            &[(1, 3), (4, 2)],
            None,
            &[BoardResult::WhiteWins, BoardResult::Draw],
        )
        .cmd(Command::FinishTournament(FinishTournament {}));
    assert!(g.state().is_finished());
    assert!(g.when(game(1, 1, "Player 01", "Player 03", "1-0")).is_ok());
    // The same checks as before the finish.
    let e = g
        .when(game(1, 2, "Player 04", "Player 02", "1-0"))
        .unwrap_err();
    assert!(e.to_string().contains("the recorded result is"), "{e}");
    assert!(
        g.when(file(
            1,
            vec![in_file(1, "Player 04", "Player 02", "1/2-1/2")]
        ))
        .is_ok()
    );
    // Other commands stay refused.
    assert!(matches!(
        g.when(start(2)),
        Err(DomainError::TournamentFinished { .. })
    ));
}

#[test]
fn a_result_may_not_contradict_the_submitted_game() {
    // Board 1's score ends 1-0, board 2's is unfinished ("*").
    let g = paired()
        .cmd(game(1, 1, "Player 01", "Player 03", "1-0"))
        .cmd(game(1, 2, "Player 04", "Player 02", "*"));
    let e = g.when(result(1, 1, BoardResult::BlackWins)).unwrap_err();
    assert!(
        matches!(&e, DomainError::ResultContradictsGame { round: 1, board: 1, game_result, .. } if game_result == "1-0"),
        "{e:?}"
    );
    assert!(
        e.to_string().contains("round 1, board 1: the result 0-1"),
        "{e}"
    );
    let e = g
        .when(result(1, 1, BoardResult::WhiteWinsForfeit))
        .unwrap_err();
    assert!(e.to_string().contains("no game was played"), "{e}");
    assert!(g.when(result(1, 2, BoardResult::BlackWins)).is_ok());
    let g = g.cmd(result(1, 1, BoardResult::WhiteWins));
    // The correction: the same rule.
    let e = g.when(correct(1, 1, BoardResult::Draw)).unwrap_err();
    assert!(
        e.to_string().contains("round 1, board 1: the result")
            && e.to_string()
                .contains("contradicts the submitted game, whose score ends \"1-0\""),
        "{e}"
    );
    assert!(matches!(
        g.when(correct(1, 1, BoardResult::BlackWinsForfeit)),
        Err(DomainError::ResultContradictsGame { .. })
    ));
    // An arbiter's decision may differ from the moves (Laws 12.9), and so may an unrated
    // result of the same outcome.
    let decision = BoardResult::ArbiterDecision {
        white: arbiter_core::ResultCode::Loss,
        black: arbiter_core::ResultCode::Draw,
    };
    assert!(g.when(correct(1, 1, decision)).is_ok());
    assert!(g.when(correct(1, 1, BoardResult::WhiteWinsUnrated)).is_ok());
    // After the finish too.
    let done = Given::with_players(1, 4)
        .paired(1, &[(1, 3), (4, 2)], None)
        .cmd(game(1, 1, "Player 01", "Player 03", "1-0"))
        .results(1, &[BoardResult::WhiteWins, BoardResult::Draw])
        .cmd(close(1))
        .cmd(Command::FinishTournament(FinishTournament {}));
    assert!(matches!(
        done.when(correct(1, 1, BoardResult::BlackWins)),
        Err(DomainError::ResultContradictsGame { .. })
    ));
    assert!(done.when(correct(1, 2, BoardResult::BlackWins)).is_ok());
}

#[test]
fn the_result_a_score_ends_with() {
    for (pgn, r) in [
        ("[Result \"0-1\"]\n\n1. e4 e5 1-0\n", Some("1-0")),
        (
            "1. e4 {1-0} e5 (1... c5 0-1) 1/2-1/2 ; 0-1\n",
            Some("1/2-1/2"),
        ),
        ("[Event \"x ] y\"]\n1. e4 *", Some("*")),
        ("1. e4 e5", None),
    ] {
        assert_eq!(pgn_result(pgn), r, "{pgn}");
    }
}

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

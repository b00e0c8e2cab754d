//! What the Laws make of how a recorded game ended (E.04 Art. 3.7, 4.5 and 5): the result a game's
//! moves (and, for a flag fall, its final position) allow, so that a platform's proposed result can
//! be held against it. A platform is the record of the game, not of its result: it may declare a
//! draw by timeout where the opponent could still mate (E.04 15.4, 19.4), miss an automatic draw
//! (15.3, 19.3), or score a mate the wrong way.
//! Written by hand, not taken from a crate: it is the product's own rule text (which ending
//! decides, in which order, and which article says so); the position work is shakmaty's.
//!
//! What is judged, first event first (the game ends at the first one):
//! 1. an automatic draw reached before the last move (threefold repetition 5.4.1, fifty moves
//!    5.4.4): the platform should have stopped the game there;
//! 2. the final position: checkmate (5.1), stalemate (5.4.2), no mate possible for either side
//!    (5.4.3), threefold repetition or fifty moves;
//! 3. a flag fall (the Termination tag says time): the side to move lost on time, unless the
//!    opponent cannot mate by any series of legal moves: then a draw (4.5).
//!
//! Anything else (resignation, agreement, abandonment, an unfinished score `*`) the moves do not
//! decide: `judge` answers `None`.

use arbiter_screening::pgn::{FinalState, Game};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

/// The result the Laws give a game, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: &'static str,
    pub reason: String,
    /// The article, e.g. "E.04 Art. 4.5".
    pub article: &'static str,
}

fn win(c: Color) -> &'static str {
    match c {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

const DRAW: &str = "1/2-1/2";

/// Placement, side to move, castling rights and en passant square: what "the same position"
/// means for repetition (Laws 9.2.2).
fn repetition_key(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

fn halfmove_clock(fen: &str) -> u32 {
    fen.split_whitespace()
        .nth(4)
        .and_then(|h| h.parse().ok())
        .unwrap_or(0)
}

fn position(fen: &str) -> Option<Chess> {
    let f: Fen = fen.parse().ok()?;
    f.into_position(CastlingMode::Standard).ok()
}

/// Whether the Termination tag says the game ended on time: "Time forfeit" (lichess), "... won
/// on time", "... drawn by timeout ..." (chess.com), "time" in any case.
pub fn ended_on_time(termination: &str) -> bool {
    let t = termination.to_ascii_lowercase();
    t.contains("time forfeit") || t.contains("on time") || t.contains("timeout")
}

/// What the Laws make of the game's end; `None` when its moves do not decide it.
pub fn judge(game: &Game) -> Option<Verdict> {
    if game.result.trim() == "*" {
        return None;
    }
    // 1. An automatic draw on the way: the first position that occurred a third time, or
    // that completed fifty moves each without a pawn move or a capture, before a later move.
    for (i, ply) in game.plies.iter().enumerate() {
        let move_no = i / 2 + 1;
        if ply.earlier_occurrences >= 2 {
            return Some(Verdict {
                result: DRAW,
                reason: format!(
                    "the position before move {move_no} ({}) occurred for the third time, and \
                     the game went on",
                    ply.san
                ),
                article: "E.04 Art. 5.4.1",
            });
        }
        if halfmove_clock(&ply.fen_before) >= 100 {
            return Some(Verdict {
                result: DRAW,
                reason: format!(
                    "fifty moves each without a pawn move or a capture were completed before \
                     move {move_no} ({}), and the game went on",
                    ply.san
                ),
                article: "E.04 Art. 5.4.4",
            });
        }
    }
    // 2. The final position.
    let pos = position(&game.final_fen)?;
    let to_move = pos.turn();
    match game.final_state {
        FinalState::Checkmate => {
            return Some(Verdict {
                result: win(to_move.other()),
                reason: format!("{} is checkmated", side(to_move)),
                article: "E.04 Art. 5.1",
            });
        }
        FinalState::Stalemate => {
            return Some(Verdict {
                result: DRAW,
                reason: format!("{} is stalemated", side(to_move)),
                article: "E.04 Art. 5.4.2",
            });
        }
        FinalState::Open => {}
    }
    if pos.is_insufficient_material() {
        return Some(Verdict {
            result: DRAW,
            reason: "neither side can mate by any series of legal moves".into(),
            article: "E.04 Art. 5.4.3",
        });
    }
    let key = repetition_key(&game.final_fen);
    let earlier = game
        .plies
        .iter()
        .filter(|p| repetition_key(&p.fen_before) == key)
        .count();
    if earlier >= 2 {
        return Some(Verdict {
            result: DRAW,
            reason: "the final position occurred for the third time".into(),
            article: "E.04 Art. 5.4.1",
        });
    }
    if halfmove_clock(&game.final_fen) >= 100 {
        return Some(Verdict {
            result: DRAW,
            reason: "the last fifty moves of each player had no pawn move and no capture".into(),
            article: "E.04 Art. 5.4.4",
        });
    }
    // 3. A flag fall: the clock that ran out is the side to move's.
    if ended_on_time(&game.termination) {
        let opponent = to_move.other();
        return Some(if pos.has_insufficient_material(opponent) {
            Verdict {
                result: DRAW,
                reason: format!(
                    "{}'s flag fell, but {} cannot mate by any series of legal moves",
                    side(to_move),
                    side(opponent)
                ),
                article: "E.04 Art. 4.5",
            }
        } else {
            Verdict {
                result: win(opponent),
                reason: format!(
                    "{}'s flag fell and {} can still mate",
                    side(to_move),
                    side(opponent)
                ),
                article: "E.04 Art. 4.5",
            }
        });
    }
    None
}

/// Whether White (`white`) or Black can still mate by some series of legal moves in the
/// position `fen` (E.04 4.5, 11.4.2: a flag fall or a disconnection against a side that cannot
/// is a draw). Errors name what in the FEN is wrong.
pub fn can_mate(fen: &str, white: bool) -> Result<bool, String> {
    let f: Fen = fen
        .trim()
        .parse()
        .map_err(|e| format!("{fen:?} is not a FEN: {e}"))?;
    let pos: Chess = f
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("{fen:?} is not a legal position: {e}"))?;
    let side = if white { Color::White } else { Color::Black };
    Ok(!pos.has_insufficient_material(side))
}

/// The verdict when it differs from the game's own result (the platform's proposal).
pub fn discrepancy(game: &Game) -> Option<Verdict> {
    judge(game).filter(|v| v.result != game.result.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_screening::pgn;

    fn game(tags: &str, moves: &str) -> Game {
        let text = format!("[White \"A\"]\n[Black \"B\"]\n{tags}\n\n{moves}\n");
        pgn::parse(text.as_bytes(), "t.pgn", 1 << 20)
            .unwrap()
            .remove(0)
    }

    fn fen_game(fen: &str, tags: &str, moves: &str) -> Game {
        game(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n{tags}"), moves)
    }

    #[test]
    fn a_draw_by_timeout_where_the_opponent_could_still_mate_is_a_win() {
        // After White's move Black's clock runs out; White still has a queen: White wins
        // (E.04 4.5, 15.4; scenario 6 of docs/src/guide/online-hybrid.md).
        let g = fen_game(
            "7k/8/8/8/8/8/8/KQ6 w - - 0 1",
            "[Result \"1/2-1/2\"]\n[Termination \"Time forfeit\"]",
            "1. Qc1 1/2-1/2",
        );
        let v = discrepancy(&g).expect("the platform's draw is wrong");
        assert_eq!(v.result, "1-0");
        assert_eq!(v.article, "E.04 Art. 4.5");
        assert!(v.reason.contains("Black's flag fell"), "{}", v.reason);
    }

    #[test]
    fn a_flag_fall_against_a_bare_king_is_a_draw() {
        // Black (a rook up) flags; White has a bare king and cannot mate: a draw, not 1-0.
        let g = fen_game(
            "7k/7r/8/8/8/8/8/K7 w - - 0 1",
            "[Result \"1-0\"]\n[Termination \"Time forfeit\"]",
            "1. Kb1 1-0",
        );
        let v = discrepancy(&g).unwrap();
        assert_eq!((v.result, v.article), (DRAW, "E.04 Art. 4.5"));
        // Scored as a draw, the platform was right.
        let g = fen_game(
            "7k/7r/8/8/8/8/8/K7 w - - 0 1",
            "[Result \"1/2-1/2\"]\n[Termination \"Time forfeit\"]",
            "1. Kb1 1/2-1/2",
        );
        assert_eq!(discrepancy(&g), None);
        assert_eq!(judge(&g).unwrap().result, DRAW);
    }

    #[test]
    fn a_mate_scored_the_wrong_way_and_a_missed_automatic_draw() {
        let mate = game(
            "[Result \"0-1\"]",
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 0-1",
        );
        let v = discrepancy(&mate).unwrap();
        assert_eq!((v.result, v.article), ("1-0", "E.04 Art. 5.1"));
        let ok = game(
            "[Result \"1-0\"]",
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0",
        );
        assert_eq!(discrepancy(&ok), None);
        // Knights out and back twice: the start position occurs a third time, then a move more.
        let rep = game(
            "[Result \"1-0\"]",
            "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0",
        );
        let v = discrepancy(&rep).unwrap();
        assert_eq!((v.result, v.article), (DRAW, "E.04 Art. 5.4.1"));
        assert!(v.reason.contains("move 5 (e4)"), "{}", v.reason);
    }

    #[test]
    fn who_can_still_mate() {
        assert_eq!(can_mate("7k/8/8/8/8/8/8/KQ6 w - - 0 1", true), Ok(true));
        assert_eq!(can_mate("7k/8/8/8/8/8/8/KQ6 w - - 0 1", false), Ok(false));
        assert_eq!(can_mate("7k/8/8/8/8/8/8/KN6 w - - 0 1", true), Ok(false));
        assert!(
            can_mate("not a fen", true)
                .unwrap_err()
                .contains("not a FEN")
        );
    }

    #[test]
    fn resignations_and_agreements_are_not_judged() {
        let g = game("[Result \"0-1\"]\n[Termination \"Normal\"]", "1. e4 e5 0-1");
        assert_eq!(judge(&g), None);
        let g = game("[Result \"*\"]", "1. e4 e5 *");
        assert_eq!(judge(&g), None);
        // Insufficient material on the board: a draw whatever was claimed.
        let g = fen_game(
            "7k/8/8/8/8/8/8/K5B1 w - - 0 1",
            "[Result \"1-0\"]",
            "1. Bd4 1-0",
        );
        assert_eq!(discrepancy(&g).unwrap().article, "E.04 Art. 5.4.3");
    }
}

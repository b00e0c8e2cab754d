//! A round's PGN file (`SubmitGames`): read whole (every game legal, errors naming the game by
//! its place in the file, its players and round, and the ply and move), then cut into the
//! games' own texts, each kept in the log as its board's `GameSubmitted`.

use arbiter_core::tournament::{GameInFile, LawsVerdict};
use arbiter_screening::pgn;
use arbiter_service_kit::edge::{MAX_GAME_PGN_BYTES, MAX_ROUND_PGN_BYTES};
use tonic::Status;

/// What the Laws make of a game's end (the `arbiter-laws` crate), for the aggregate to hold
/// the platform's result against in online and hybrid events.
pub fn laws_verdict(g: &pgn::Game) -> Option<LawsVerdict> {
    arbiter_laws::judge(g).map(|v| LawsVerdict {
        result: v.result.to_string(),
        reason: v.reason,
        article: v.article.to_string(),
    })
}

/// The games of `text` for `round` of tournament `tid`, each with its own PGN text, or why the
/// file is refused (`INVALID_ARGUMENT` naming the game).
#[allow(clippy::result_large_err)]
pub fn read(tid: &str, round: u32, text: &str) -> Result<Vec<GameInFile>, Status> {
    let source = format!("tournament {tid}, round {round}, PGN file");
    let games = pgn::parse(text.as_bytes(), &source, MAX_ROUND_PGN_BYTES as u64)
        .map_err(|e| Status::invalid_argument(format!("pgn: {e}")))?;
    // The games' own texts: each piece must read as exactly the game the whole file gave.
    let mut pieces = Vec::with_capacity(games.len());
    for piece in split(text) {
        match pgn::parse(piece.as_bytes(), &source, MAX_ROUND_PGN_BYTES as u64) {
            Ok(mut one) if one.len() == 1 => pieces.push((piece, one.remove(0))),
            // A comment or tags-only noise between games.
            Err(pgn::PgnError::NoGames { .. }) => {}
            _ => {
                return Err(Status::invalid_argument(format!(
                    "pgn: {source}: the file reads as {} games, but it cannot be cut into them \
                     one by one after game {}; send each game with its tags, one after the other",
                    games.len(),
                    pieces.len()
                )));
            }
        }
    }
    let same = pieces.len() == games.len()
        && pieces.iter().zip(&games).all(|((_, p), g)| {
            (&p.white, &p.black, &p.result, &p.plies) == (&g.white, &g.black, &g.result, &g.plies)
        });
    if !same {
        return Err(Status::invalid_argument(format!(
            "pgn: {source}: the file reads as {} games, but cut at its tag sections it gives {}; \
             send each game with its tags, one after the other",
            games.len(),
            pieces.len()
        )));
    }
    let mut out = Vec::with_capacity(games.len());
    for ((piece, _), g) in pieces.into_iter().zip(games) {
        if piece.len() > MAX_GAME_PGN_BYTES {
            return Err(Status::invalid_argument(format!(
                "pgn: {source}: {}: {} bytes is larger than the {MAX_GAME_PGN_BYTES}-byte limit \
                 for one game (MAX_GAME_PGN_BYTES)",
                g.label(),
                piece.len()
            )));
        }
        let laws = laws_verdict(&g);
        out.push(GameInFile {
            laws,
            index: u32::try_from(g.number).unwrap_or(u32::MAX),
            pgn: piece.trim().to_string() + "\n",
            white: g.white,
            black: g.black,
            result: g.result,
        });
    }
    Ok(out)
}

/// Cuts PGN text before each tag section that follows movetext. Comments (`{...}`, `;` to the
/// end of the line), escaped lines (`%`) and quoted tag values are skipped, so a `[` inside
/// them does not cut. Leading text before the first game belongs to no piece.
pub fn split(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut starts: Vec<usize> = Vec::new();
    let mut movetext = false;
    let mut line_start = true;
    let mut i = 0;
    let to_eol = |mut i: usize| {
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
        i
    };
    while i < b.len() {
        let at_line_start = line_start;
        line_start = false;
        match b[i] {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b'%' if at_line_start => i = to_eol(i),
            b';' => i = to_eol(i),
            b'{' => {
                if starts.is_empty() {
                    starts.push(i);
                }
                movetext = true;
                while i < b.len() && b[i] != b'}' {
                    i += 1;
                }
                i += 1;
            }
            b'[' => {
                if starts.is_empty() || movetext {
                    starts.push(i);
                    movetext = false;
                }
                let mut quoted = false;
                i += 1;
                while i < b.len() && b[i] != b'\n' {
                    match b[i] {
                        b'\\' if quoted => i += 1,
                        b'"' => quoted = !quoted,
                        b']' if !quoted => break,
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                if starts.is_empty() {
                    starts.push(i);
                }
                movetext = true;
                i += 1;
            }
        }
    }
    let mut pieces = Vec::with_capacity(starts.len());
    for (k, &s) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(b.len());
        // Cut points are ASCII bytes ('[', '{' or the first byte of a token), hence char
        // boundaries, except a token's first byte, which is a boundary too.
        if let Some(piece) = text.get(s..end) {
            pieces.push(piece);
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    const B: &str = "[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. d4 {a [bracket] in a comment} d5 ; [x]\n2. c4 *\n";

    #[test]
    fn cuts_a_file_into_its_games() {
        let file = format!("\u{feff}{A}\n{B}\n\n");
        let games = read("t", 1, &file).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            (
                games[0].index,
                games[0].white.as_str(),
                games[0].result.as_str()
            ),
            (1, "A", "1-0")
        );
        assert_eq!(games[0].pgn, A);
        assert_eq!(
            (
                games[1].index,
                games[1].black.as_str(),
                games[1].result.as_str()
            ),
            (2, "D", "*")
        );
        assert_eq!(games[1].pgn.trim(), B.trim());
    }

    #[test]
    fn a_bad_game_is_named() {
        let bad = B.replace("2. c4", "2. Qh8");
        let e = read("t", 3, &format!("{A}\n{bad}")).unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument);
        for w in ["round 3", "game 2", "C - D", "Qh8"] {
            assert!(e.message().contains(w), "{:?} lacks {w:?}", e.message());
        }
    }
}

//! PGN ingestion: games parsed with pgn-reader, moves checked for legality with shakmaty, the
//! position before every ply kept (as FEN) for analysis, `[%clk]` comments kept per move.
//!
//! Every error names the game (its number in the file, players, round) and, for moves, the ply
//! and the SAN, so an arbiter can find and correct the scoresheet.

use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;

/// Default largest PGN file accepted: a round of a large open is well under 1 MB; anything
/// much bigger is a wrong file or an attempt to exhaust the analysis queue.
pub const DEFAULT_MAX_PGN_BYTES: u64 = 8 * 1024 * 1024;

/// Why a PGN was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PgnError {
    #[error("{path}: cannot read: {reason}")]
    Unreadable { path: String, reason: String },
    /// The text is not PGN where the reader stopped (an unterminated tag or comment).
    #[error("{path}: line {line}, game {game}: PGN syntax error: {reason}")]
    Syntax {
        path: String,
        line: usize,
        /// The game's number in the file.
        game: usize,
        reason: String,
    },
    #[error("{path}: {bytes} bytes is larger than the {limit}-byte limit for a PGN file")]
    TooLarge {
        path: String,
        bytes: u64,
        limit: u64,
    },
    #[error("{path}: no game found")]
    NoGames { path: String },
    #[error("{path}: {game}: ply {ply} ({move_number}{dots} {san}) is not legal in {fen}")]
    IllegalMove {
        path: String,
        game: String,
        ply: usize,
        move_number: u32,
        dots: &'static str,
        san: String,
        fen: String,
    },
    #[error(
        "{path}: {game}: the movetext ends without a result (1-0, 0-1, 1/2-1/2 or *); the PGN looks truncated"
    )]
    Truncated { path: String, game: String },
    /// A record of tags alone (a file cut after a game's tags): no move to screen.
    #[error("{path}: {game}: tags without moves or a result")]
    TagsOnly { path: String, game: String },
    #[error(
        "{path}: {game}: the movetext has no result (1-0, 0-1, 1/2-1/2 or *) before the next game's tags"
    )]
    MissingResult { path: String, game: String },
    #[error("{path}: {game}: bad {what}: {reason}")]
    BadTag {
        path: String,
        game: String,
        what: &'static str,
        reason: String,
    },
}

/// One move of a game as played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ply {
    pub san: String,
    pub uci: String,
    /// FEN of the position before the move.
    pub fen_before: String,
    /// Legal moves in that position.
    pub legal_moves: u32,
    /// How often that position occurred earlier in the game (same placement, side, castling, e.p.).
    pub earlier_occurrences: u32,
    /// The mover's clock after the move, from `[%clk h:mm:ss(.f)]`, in centiseconds.
    pub clock_cs: Option<u32>,
}

/// How the final position stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FinalState {
    Checkmate,
    Stalemate,
    Open,
}

/// A parsed, legal game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Game {
    /// 1-based position in its file.
    pub number: usize,
    pub white: String,
    pub black: String,
    pub white_elo: Option<u16>,
    pub black_elo: Option<u16>,
    pub event: String,
    pub site: String,
    /// As tagged ("2025.09.04", "????.??.??"); "?" when untagged.
    pub date: String,
    pub round: String,
    /// As tagged (PGN's "base+increment" in seconds, or "?" when untagged).
    pub time_control: String,
    /// The termination marker of the movetext.
    pub result: String,
    /// The Termination tag as written (e.g. "Time forfeit", "Normal"); "?" when untagged.
    pub termination: String,
    pub plies: Vec<Ply>,
    pub final_fen: String,
    pub final_state: FinalState,
}

impl Game {
    /// "game 3 (White - Black, round 2)".
    pub fn label(&self) -> String {
        label(self.number, &self.white, &self.black, &self.round)
    }
}

fn label(number: usize, white: &str, black: &str, round: &str) -> String {
    format!("game {number} ({white} - {black}, round {round})")
}

/// Reads and parses a PGN file, refusing files above `max_bytes`.
pub fn read_file(path: &Path, max_bytes: u64) -> Result<Vec<Game>, PgnError> {
    let (text, _, shown) = read_text(path, max_bytes)?;
    parse(text.as_bytes(), &shown, max_bytes)
}

/// A PGN file's text and how it was decoded, as the TRF reader decodes TRF files
/// (`arbiter_trf::decode`): UTF-8 without its byte order mark, else Windows-1252 / Latin-1
/// (PGN's own standard says Latin-1; older programs write it). The caller warns when the file
/// was not UTF-8. Also the file's name for errors.
pub fn read_text(path: &Path, max_bytes: u64) -> Result<(String, Encoding, String), PgnError> {
    let (bytes, shown) = read_bytes(path, max_bytes)?;
    let (text, encoding) = arbiter_trf::decode(&bytes);
    Ok((text, encoding, shown))
}

pub use arbiter_trf::Encoding;

/// A file's bytes and its name for errors, refusing files above `max_bytes` before reading.
fn read_bytes(path: &Path, max_bytes: u64) -> Result<(Vec<u8>, String), PgnError> {
    let shown = path.display().to_string();
    let unreadable = |e: std::io::Error| PgnError::Unreadable {
        path: shown.clone(),
        reason: e.to_string(),
    };
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(PgnError::Unreadable {
            path: shown,
            reason: "not a regular file".into(),
        });
    }
    if meta.len() > max_bytes {
        return Err(PgnError::TooLarge {
            path: shown,
            bytes: meta.len(),
            limit: max_bytes,
        });
    }
    let bytes = std::fs::read(path).map_err(unreadable)?;
    Ok((bytes, shown))
}

impl PgnError {
    /// A fault of one game that a collection can do without: a variant game (not screened), a
    /// game whose result token is missing while the next game follows, or a game that is not
    /// legal chess (real event files hold some: a game keyed in from a wrong position).
    /// Everything else (a cut file, a syntax error, a bad rating) stays an error of the whole
    /// file.
    pub fn skippable_in_collection(&self) -> bool {
        matches!(
            self,
            PgnError::MissingResult { .. }
                | PgnError::IllegalMove { .. }
                | PgnError::TagsOnly { .. }
        ) || matches!(self, PgnError::BadTag { what, .. } if *what == "Variant tag")
    }
}

/// Reads a collection as [`read_file`] does, but leaves out the games
/// [`PgnError::skippable_in_collection`] names, returning them as warnings.
pub fn read_collection(
    path: &Path,
    max_bytes: u64,
) -> Result<(Vec<Game>, Vec<PgnError>), PgnError> {
    let (text, _, shown) = read_text(path, max_bytes)?;
    parse_collection(&text, &shown, max_bytes)
}

/// Parses a collection's text (from [`read_text`]) as [`read_collection`] does.
pub fn parse_collection(
    text: &str,
    source: &str,
    max_bytes: u64,
) -> Result<(Vec<Game>, Vec<PgnError>), PgnError> {
    parse_with(text.as_bytes(), source, max_bytes, true)
}

/// The bytes handed to the PGN reader, counted, so that an error can be placed: the reader
/// has consumed what was read minus what it still buffers.
struct Counted<'a> {
    bytes: &'a [u8],
    read: std::rc::Rc<std::cell::Cell<usize>>,
}

impl std::io::Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let at = self.read.get();
        let n = buf.len().min(self.bytes.len() - at);
        buf[..n].copy_from_slice(&self.bytes[at..at + n]);
        self.read.set(at + n);
        Ok(n)
    }
}

/// The 1-based line of a syntax error the reader reports having stopped at `consumed`: an
/// unterminated tag or comment runs to where the reader gave up, so the line named is the
/// one that opens it.
fn syntax_line(bytes: &[u8], consumed: usize, reason: &str) -> usize {
    let consumed = consumed.min(bytes.len());
    let opener = if reason.contains("comment") {
        Some(b'{')
    } else if reason.contains("tag") {
        Some(b'[')
    } else {
        None
    };
    let at = opener
        .and_then(|o| bytes[..consumed].iter().rposition(|&b| b == o))
        .unwrap_or(consumed);
    1 + bytes[..at].iter().filter(|&&b| b == b'\n').count()
}

/// Parses PGN text; `source` names it in errors.
pub fn parse(bytes: &[u8], source: &str, max_bytes: u64) -> Result<Vec<Game>, PgnError> {
    parse_with(bytes, source, max_bytes, false).map(|(games, _)| games)
}

/// Parses PGN text; with `skip`, the games [`PgnError::skippable_in_collection`] names are
/// left out and returned beside the games.
fn parse_with(
    bytes: &[u8],
    source: &str,
    max_bytes: u64,
    skip: bool,
) -> Result<(Vec<Game>, Vec<PgnError>), PgnError> {
    if bytes.len() as u64 > max_bytes {
        return Err(PgnError::TooLarge {
            path: source.into(),
            bytes: bytes.len() as u64,
            limit: max_bytes,
        });
    }
    let read = std::rc::Rc::new(std::cell::Cell::new(0));
    let mut reader = Reader::new(Counted {
        bytes,
        read: read.clone(),
    });
    let mut visitor = GameVisitor {
        source: source.into(),
        number: 0,
    };
    let mut games = Vec::new();
    let mut skipped = Vec::new();
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some(Ok(Some(game)))) => games.push(game),
            Ok(Some(Ok(None))) => {} // whitespace or tags-only noise with no moves and no result
            // A game without a result followed by more games is a missing token, not a cut file.
            Ok(Some(Err(PgnError::Truncated { path, game })))
                if reader.has_more().unwrap_or(false) =>
            {
                let e = PgnError::MissingResult { path, game };
                if !skip {
                    return Err(e);
                }
                skipped.push(e);
            }
            Ok(Some(Err(e))) if skip && e.skippable_in_collection() => skipped.push(e),
            Ok(Some(Err(e))) => return Err(e),
            Ok(None) => break,
            // The reader's only errors over bytes in memory are its syntax errors.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                let consumed = read.get().saturating_sub(reader.buffer().len());
                let reason = e.to_string();
                return Err(PgnError::Syntax {
                    path: source.into(),
                    line: syntax_line(bytes, consumed, &reason),
                    game: visitor.number.max(1),
                    reason,
                });
            }
            Err(e) => {
                return Err(PgnError::Unreadable {
                    path: source.into(),
                    reason: e.to_string(),
                });
            }
        }
    }
    if games.is_empty() {
        // Nothing left to screen: the first game's own fault is the clearer answer.
        return Err(skipped.into_iter().next().unwrap_or(PgnError::NoGames {
            path: source.into(),
        }));
    }
    Ok((games, skipped))
}

struct GameVisitor {
    source: String,
    number: usize,
}

#[derive(Default)]
struct Tags {
    map: HashMap<&'static str, String>,
    fen: Option<String>,
    variant: Option<String>,
    any: bool,
}

struct Movetext {
    label: String,
    tags: Tags,
    pos: Chess,
    plies: Vec<Ply>,
    seen: HashMap<String, u32>,
    outcome: Option<String>,
}

const KEPT_TAGS: [&str; 11] = [
    "White",
    "Black",
    "WhiteElo",
    "BlackElo",
    "Event",
    "Site",
    "Date",
    "Round",
    "Result",
    "TimeControl",
    "Termination",
];

fn repetition_key(pos: &Chess) -> String {
    // Placement, side, castling and en passant: the halfmove/fullmove counters do not make a
    // position different for the repetition rule.
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.splitn(5, ' ').take(4).collect::<Vec<_>>().join(" ")
}

/// `[%clk 1:23:45]` or `[%clk 0:01:02.5]` in a comment, in centiseconds.
pub fn parse_clock(comment: &str) -> Option<u32> {
    let start = comment.find("[%clk")? + 5;
    let rest = comment[start..].trim_start();
    let end = rest.find(']')?;
    let text = rest[..end].trim();
    let mut parts = text.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let h: u32 = h.parse().ok()?;
    let m: u32 = m.parse().ok()?;
    let (sec, frac) = s.split_once('.').unwrap_or((s, ""));
    let sec: u32 = sec.parse().ok()?;
    let cs = match frac.len() {
        0 => 0,
        1 => frac.parse::<u32>().ok()? * 10,
        _ => frac[..2].parse::<u32>().ok()?,
    };
    if m >= 60 || sec >= 60 {
        return None;
    }
    Some(((h * 60 + m) * 60 + sec) * 100 + cs)
}

impl Visitor for GameVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Result<Option<Game>, PgnError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.number += 1;
        ControlFlow::Continue(Tags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.any = true;
        let value = value.decode_utf8_lossy().trim().to_string();
        match name {
            b"FEN" => tags.fen = Some(value),
            b"Variant" => tags.variant = Some(value),
            _ => {
                if let Some(k) = KEPT_TAGS.iter().find(|k| k.as_bytes() == name) {
                    tags.map.insert(k, value);
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Movetext> {
        let get = |k: &str| tags.map.get(k).cloned().unwrap_or_else(|| "?".into());
        let label = label(self.number, &get("White"), &get("Black"), &get("Round"));
        let bad = |what, reason: String| {
            ControlFlow::Break(Err(PgnError::BadTag {
                path: self.source.clone(),
                game: label.clone(),
                what,
                reason,
            }))
        };
        if let Some(v) = &tags.variant
            && !v.eq_ignore_ascii_case("standard")
        {
            return bad(
                "Variant tag",
                format!("{v:?} is not screened (standard chess only)"),
            );
        }
        let pos = match &tags.fen {
            None => Chess::default(),
            Some(f) => match f.parse::<Fen>() {
                Err(e) => return bad("FEN tag", e.to_string()),
                Ok(fen) => match fen.into_position(CastlingMode::Standard) {
                    Ok(p) => p,
                    Err(e) => return bad("FEN tag", e.to_string()),
                },
            },
        };
        ControlFlow::Continue(Movetext {
            label,
            tags,
            pos,
            plies: Vec::new(),
            seen: HashMap::new(),
            outcome: None,
        })
    }

    fn san(&mut self, mt: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let key = repetition_key(&mt.pos);
        let fen_before = Fen::from_position(&mt.pos, EnPassantMode::Legal).to_string();
        let m = match san_plus.san.to_move(&mt.pos) {
            Ok(m) => m,
            Err(_) => {
                let ply = mt.plies.len() + 1;
                let white = mt.pos.turn() == Color::White;
                return ControlFlow::Break(Err(PgnError::IllegalMove {
                    path: self.source.clone(),
                    game: mt.label.clone(),
                    ply,
                    move_number: u32::from(mt.pos.fullmoves()),
                    dots: if white { "." } else { "..." },
                    san: san_plus.to_string(),
                    fen: fen_before,
                }));
            }
        };
        let legal_moves = mt.pos.legal_moves().len() as u32;
        let uci = UciMove::from_standard(m).to_string();
        let seen = mt.seen.entry(key).or_insert(0);
        let earlier_occurrences = *seen;
        *seen += 1;
        mt.pos.play_unchecked(m);
        mt.plies.push(Ply {
            san: san_plus.to_string(),
            uci,
            fen_before,
            legal_moves,
            earlier_occurrences,
            clock_cs: None,
        });
        ControlFlow::Continue(())
    }

    fn comment(&mut self, mt: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        if let Some(last) = mt.plies.last_mut()
            && let Some(cs) = parse_clock(&String::from_utf8_lossy(comment.as_bytes()))
        {
            last.clock_cs = Some(cs);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _mt: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, mt: &mut Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        mt.outcome = Some(
            match outcome {
                Outcome::Known(KnownOutcome::Decisive {
                    winner: Color::White,
                }) => "1-0",
                Outcome::Known(KnownOutcome::Decisive {
                    winner: Color::Black,
                }) => "0-1",
                Outcome::Known(KnownOutcome::Draw) => "1/2-1/2",
                Outcome::Unknown => "*",
            }
            .into(),
        );
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Movetext) -> Self::Output {
        let Some(result) = mt.outcome else {
            if mt.plies.is_empty() && !mt.tags.any {
                return Ok(None);
            }
            if mt.plies.is_empty() {
                return Err(PgnError::TagsOnly {
                    path: self.source.clone(),
                    game: mt.label,
                });
            }
            return Err(PgnError::Truncated {
                path: self.source.clone(),
                game: mt.label,
            });
        };
        let elo = |k: &'static str| -> Result<Option<u16>, PgnError> {
            match mt.tags.map.get(k).map(String::as_str) {
                None | Some("") | Some("?") | Some("-") => Ok(None),
                Some(v) => match v.parse::<u16>() {
                    Ok(0) => Ok(None),
                    Ok(r) if r <= 3500 => Ok(Some(r)),
                    _ => Err(PgnError::BadTag {
                        path: self.source.clone(),
                        game: mt.label.clone(),
                        what: if k == "WhiteElo" {
                            "WhiteElo tag"
                        } else {
                            "BlackElo tag"
                        },
                        reason: format!("{v:?} is not a rating between 1 and 3500"),
                    }),
                },
            }
        };
        let white_elo = elo("WhiteElo")?;
        let black_elo = elo("BlackElo")?;
        let get = |k: &str| mt.tags.map.get(k).cloned().unwrap_or_else(|| "?".into());
        let final_state = if mt.pos.is_checkmate() {
            FinalState::Checkmate
        } else if mt.pos.is_stalemate() {
            FinalState::Stalemate
        } else {
            FinalState::Open
        };
        Ok(Some(Game {
            number: self.number,
            white: get("White"),
            black: get("Black"),
            white_elo,
            black_elo,
            event: get("Event"),
            site: get("Site"),
            date: get("Date"),
            round: get("Round"),
            time_control: get("TimeControl"),
            termination: get("Termination"),
            result,
            final_fen: Fen::from_position(&mt.pos, EnPassantMode::Legal).to_string(),
            final_state,
            plies: mt.plies,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX: u64 = DEFAULT_MAX_PGN_BYTES;

    #[test]
    fn clocks_are_kept_per_move() {
        let pgn = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 { [%clk 1:30:00] } e5 { [%clk 1:29:58.5] } 2. Nf3 1-0\n";
        let games = parse(pgn, "t.pgn", MAX).unwrap();
        let clocks: Vec<_> = games[0].plies.iter().map(|p| p.clock_cs).collect();
        assert_eq!(clocks, vec![Some(540_000), Some(539_850), None]);
        assert_eq!(games[0].plies[1].uci, "e7e5");
    }

    #[test]
    fn a_syntax_error_names_its_line_and_game() {
        // Game 2's comment on line 9 never ends.
        let pgn = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n\n[White \"C\"]\n[Black \"D\"]\n\n1. d4 {a note that\nnever ends 2. c4 1-0\n";
        let e = parse(pgn, "s.pgn", MAX).unwrap_err();
        assert!(
            matches!(&e, PgnError::Syntax { line: 9, game: 2, reason, .. } if reason.contains("comment")),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("s.pgn: line 9, game 2: PGN syntax error: unterminated comment"),
            "{e}"
        );
        // A tag cut off at the end of the file: the line that opens it.
        let e = parse(b"1. e4 e5 1-0\n\n[White \"Ann", "t.pgn", MAX).unwrap_err();
        assert!(
            matches!(
                &e,
                PgnError::Syntax {
                    line: 3,
                    game: 2,
                    ..
                }
            ),
            "{e:?}"
        );
    }

    #[test]
    fn a_latin1_file_is_read_as_windows_1252() {
        let dir = std::env::temp_dir().join(format!("arbiter-pgn-latin1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("latin1.pgn");
        std::fs::write(
            &path,
            b"[White \"M\xfcller, J\xf6rg\"]\n[Black \"\x8aimek\"]\n\n1. e4 e5 1-0\n",
        )
        .unwrap();
        let (text, encoding, shown) = read_text(&path, MAX).unwrap();
        assert_eq!(encoding, Encoding::Windows1252);
        assert!(shown.ends_with("latin1.pgn"));
        let (games, _) = parse_collection(&text, &shown, MAX).unwrap();
        assert_eq!(
            (games[0].white.as_str(), games[0].black.as_str()),
            ("Müller, Jörg", "Šimek")
        );
        std::fs::write(&path, "\u{FEFF}[White \"Müller\"]\n\n1. e4 1-0\n").unwrap();
        let (text, encoding, _) = read_text(&path, MAX).unwrap();
        assert_eq!(encoding, Encoding::Utf8);
        assert_eq!(read_collection(&path, MAX).unwrap().0[0].white, "Müller");
        assert!(text.starts_with('['));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_illegal_move_names_game_ply_and_move() {
        let pgn = b"[White \"A\"]\n[Black \"B\"]\n[Round \"4\"]\n\n1. e4 e5 2. Ke3 1-0\n";
        let e = parse(pgn, "r4.pgn", MAX).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("game 1 (A - B, round 4)"), "{text}");
        assert!(text.contains("ply 3 (2. Ke3)"), "{text}");
    }

    #[test]
    fn a_game_cut_off_before_its_result_is_truncated() {
        let pgn = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n\n[White \"C\"]\n[Black \"D\"]\n\n1. d4 d5 2. c4";
        let e = parse(pgn, "cut.pgn", MAX).unwrap_err();
        assert!(
            matches!(e, PgnError::Truncated { ref game, .. } if game.starts_with("game 2 (C - D")),
            "{e}"
        );
    }

    #[test]
    fn a_record_of_tags_alone_is_refused_in_a_file_and_skipped_in_a_collection() {
        let pgn = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n\n[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n";
        let e = parse(pgn.as_bytes(), "tags.pgn", MAX).unwrap_err();
        assert!(
            matches!(e, PgnError::TagsOnly { ref game, .. } if game.starts_with("game 2 (C - D")),
            "{e}"
        );
        let (games, skipped) = parse_collection(pgn, "tags.pgn", MAX).expect("the collection");
        assert_eq!((games.len(), skipped.len()), (1, 1));
        assert!(
            skipped[0].to_string().contains("game 2 (C - D"),
            "{}",
            skipped[0]
        );
    }

    #[test]
    fn a_missing_result_before_the_next_game_is_named_as_such() {
        let pgn = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5\n\n[White \"C\"]\n[Black \"D\"]\n\n1. d4 d5 1-0\n";
        let e = parse(pgn, "mid.pgn", MAX).unwrap_err();
        assert!(
            matches!(e, PgnError::MissingResult { ref game, .. } if game.starts_with("game 1 (A - B")),
            "{e}"
        );
    }

    #[test]
    fn a_collection_skips_variant_games_and_missing_results_naming_them() {
        let pgn = b"[White \"A\"]\n[Black \"B\"]\n[Variant \"Atomic\"]\n\n1. e4 e5 1-0\n\n\
[White \"C\"]\n[Black \"D\"]\n\n1. e4 e5\n\n\
[White \"E\"]\n[Black \"F\"]\n\n1. d4 d5 2. c4 0-1\n";
        let e = parse(pgn, "mixed.pgn", MAX).unwrap_err();
        assert!(e.to_string().contains("Atomic"), "{e}");
        let (games, skipped) = parse_with(pgn, "mixed.pgn", MAX, true).unwrap();
        let names: Vec<_> = games
            .iter()
            .map(|g| (g.white.as_str(), g.plies.len()))
            .collect();
        assert_eq!(names, vec![("E", 3)]);
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(
            skipped[0].to_string().contains("game 1 (A - B")
                && skipped[0].to_string().contains("Atomic"),
            "{}",
            skipped[0]
        );
        assert!(
            matches!(&skipped[1], PgnError::MissingResult { game, .. } if game.starts_with("game 2 (C - D")),
            "{}",
            skipped[1]
        );
        // A game that is not legal chess is left out of a collection too, named; alone in its
        // file it is the file's error.
        let bad = b"[White \"A\"]\n[Black \"B\"]\n\n1. O-O e5 1-0\n\n[White \"E\"]\n[Black \"F\"]\n\n1. d4 d5 0-1\n";
        let (games, skipped) = parse_with(bad, "bad.pgn", MAX, true).unwrap();
        assert_eq!(games.len(), 1);
        assert!(
            matches!(&skipped[..], [PgnError::IllegalMove { game, ply: 1, .. }] if game.starts_with("game 1 (A - B")),
            "{skipped:?}"
        );
        let alone = b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 1-0\n";
        assert!(matches!(
            parse_with(alone, "bad.pgn", MAX, true),
            Err(PgnError::IllegalMove { .. })
        ));
    }

    #[test]
    fn oversized_input_is_refused_before_parsing() {
        let e = parse(&[b' '; 2048], "big.pgn", 1024).unwrap_err();
        assert_eq!(
            e,
            PgnError::TooLarge {
                path: "big.pgn".into(),
                bytes: 2048,
                limit: 1024
            }
        );
    }

    #[test]
    fn repetitions_are_counted() {
        let pgn = b"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 1/2-1/2\n";
        let g = &parse(pgn, "rep.pgn", MAX).unwrap()[0];
        let occ: Vec<_> = g.plies.iter().map(|p| p.earlier_occurrences).collect();
        assert_eq!(occ, vec![0, 0, 0, 0, 1, 1, 1, 1, 2]);
    }
}

//! Stockfish self-play at chosen strengths: the games the calibration and the separation
//! experiment are made of. Openings come from a short list of common four-ply starts plus one
//! seeded random legal move per side, so games differ while the seed fixes the start.
//!
//! Full-strength play (a node budget, one thread, cleared hash) is reproducible. Weakened play
//! (`UCI_LimitStrength`/`UCI_Elo`, `Skill Level`) is not: Stockfish 15.1 draws its weakening
//! from a clock-seeded generator, which is what makes those players vary like people do.

use crate::uci::{Engine, EngineError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, EnPassantMode, Position};
use std::collections::HashMap;
use std::path::Path;

/// How strong a generated player is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// No weakening: the engine's own best move.
    Full,
    /// `UCI_LimitStrength` with `UCI_Elo`.
    Elo(u32),
    /// `Skill Level` 0..=20.
    Skill(u32),
    /// A reproducible weakening for a player of this rating: the engine's four best lines,
    /// and a move drawn (with the game's seeded generator) among those within
    /// [`sampling_spread`] centipawns of the best, the closer the likelier. Stockfish's own
    /// weakenings (`UCI_Elo`, `Skill Level`) draw from a generator seeded by the clock, so
    /// their games differ from run to run; these are the same every time (one thread, a fixed
    /// node budget, a new game per position).
    Sampled(u32),
    /// Partial assistance: a [`Strength::Sampled`] player of `rating` who plays the engine's
    /// best line instead on `per_mille` of his moves, which the game's seeded generator picks.
    Assisted { rating: u32, per_mille: u32 },
}

/// How far below the best line (centipawns) a [`Strength::Sampled`] player of `rating` may
/// choose: 280 at 1600, 200 at 2000, 120 at 2400, never under 20.
pub fn sampling_spread(rating: u32) -> i32 {
    let r = i32::try_from(rating).unwrap_or(i32::MAX).min(3000);
    ((3000 - r) / 5).max(20)
}

/// A generated player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerSpec {
    pub name: String,
    /// Written to the Elo tag.
    pub rating: u16,
    pub strength: Strength,
    /// `go nodes` per move.
    pub nodes: u64,
}

impl PlayerSpec {
    pub fn describe(&self) -> String {
        let s = match self.strength {
            Strength::Full => "full strength".to_string(),
            Strength::Elo(e) => format!("UCI_LimitStrength UCI_Elo {e}"),
            Strength::Skill(l) => format!("Skill Level {l}"),
            Strength::Sampled(r) => format!(
                "sampled among 4 lines within {} cp (rating {r})",
                sampling_spread(r)
            ),
            Strength::Assisted { rating, per_mille } => format!(
                "the best line on {per_mille} per mille of moves, else sampled among 4 lines \
                 within {} cp (rating {rating})",
                sampling_spread(rating)
            ),
        };
        format!("{s}, {} nodes per move", self.nodes)
    }

    fn options(&self) -> Vec<(&'static str, String)> {
        let mut o = vec![("Threads", "1".to_string()), ("Hash", "16".to_string())];
        match self.strength {
            Strength::Full => {}
            Strength::Elo(e) => {
                o.push(("UCI_LimitStrength", "true".into()));
                o.push(("UCI_Elo", e.to_string()));
            }
            Strength::Skill(l) => o.push(("Skill Level", l.to_string())),
            Strength::Sampled(_) | Strength::Assisted { .. } => {
                o.push(("MultiPV", "4".to_string()))
            }
        }
        o
    }
}

/// Common four-ply starts (UCI), the first stage of every generated opening.
const OPENINGS: [&str; 12] = [
    "e2e4 e7e5 g1f3 b8c6",
    "e2e4 c7c5 g1f3 d7d6",
    "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5",
    "d2d4 d7d5 c2c4 e7e6",
    "d2d4 g8f6 c2c4 g7g6",
    "d2d4 g8f6 c2c4 e7e6",
    "c2c4 e7e5 b1c3 g8f6",
    "g1f3 d7d5 g2g3 g8f6",
    "e2e4 c7c5 b1c3 b8c6",
    "d2d4 d7d5 c2c4 c7c6",
    "e2e4 d7d6 d2d4 g8f6",
];

/// Longest calibration game; longer ones are adjudicated drawn.
pub const MAX_PLIES: usize = 200;

fn repetition_key(pos: &Chess) -> String {
    let fen = shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.splitn(5, ' ').take(4).collect::<Vec<_>>().join(" ")
}

/// A move among the candidates within `spread` centipawns of the best, weighted by how close
/// it is (weight `spread + 1 - loss`); the best move when there are no candidates.
fn sample(a: &crate::uci::Analysis, spread: i32, rng: &mut ChaCha8Rng) -> String {
    let Some(best) = a.candidates.first() else {
        return a.bestmove.clone();
    };
    let top = best.score.ordering();
    let weighted: Vec<(&str, u64)> = a
        .candidates
        .iter()
        .filter_map(|c| {
            let loss = top.saturating_sub(c.score.ordering());
            (loss <= spread).then(|| {
                (
                    c.uci.as_str(),
                    u64::try_from(spread + 1 - loss).unwrap_or(1),
                )
            })
        })
        .collect();
    let total: u64 = weighted.iter().map(|(_, w)| w).sum();
    if total == 0 {
        return a.bestmove.clone();
    }
    let mut pick = rng.random_range(0..total);
    for (uci, w) in &weighted {
        if pick < *w {
            return (*uci).to_string();
        }
        pick -= w;
    }
    a.bestmove.clone()
}

/// Plays `pairs` (white, black, seed), `parallel` games at a time, game `i` as round `i + 1`
/// of `event`; the PGN texts in order.
pub async fn play_all(
    engine: &Path,
    pairs: &[(PlayerSpec, PlayerSpec, u64)],
    event: &str,
    max_plies: usize,
    parallel: usize,
) -> Result<Vec<String>, EngineError> {
    use futures::StreamExt;
    futures::stream::iter(
        pairs
            .iter()
            .enumerate()
            .map(|(i, (w, b, seed))| play(engine, w, b, *seed, event, (i + 1) as u32, max_plies)),
    )
    .buffered(parallel.max(1))
    .collect::<Vec<_>>()
    .await
    .into_iter()
    .collect()
}

/// Plays one game and returns it as PGN text; at `max_plies` it is adjudicated drawn.
pub async fn play(
    engine: &Path,
    white: &PlayerSpec,
    black: &PlayerSpec,
    seed: u64,
    event: &str,
    round: u32,
    max_plies: usize,
) -> Result<String, EngineError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Chess::default();
    let mut uci_moves: Vec<String> = Vec::new();
    let mut sans: Vec<String> = Vec::new();
    let mut seen: HashMap<String, u32> = HashMap::new();
    let play_move =
        |pos: &mut Chess, m: shakmaty::Move, uci: &mut Vec<String>, san: &mut Vec<String>| {
            uci.push(UciMove::from_standard(m).to_string());
            san.push(SanPlus::from_move_and_play_unchecked(pos, m).to_string());
        };
    let opening = OPENINGS[rng.random_range(0..OPENINGS.len())];
    for u in opening.split(' ') {
        let m = u
            .parse::<UciMove>()
            .expect("opening move")
            .to_move(&pos)
            .expect("legal opening");
        play_move(&mut pos, m, &mut uci_moves, &mut sans);
    }
    for _ in 0..2 {
        let legal = pos.legal_moves();
        let m = legal[rng.random_range(0..legal.len())];
        play_move(&mut pos, m, &mut uci_moves, &mut sans);
    }
    let mut w = Engine::start(engine, &white.options()).await?;
    let mut b = Engine::start(engine, &black.options()).await?;
    let mut last_score: Option<i32> = None;
    let result = loop {
        *seen.entry(repetition_key(&pos)).or_default() += 1;
        if pos.is_checkmate() {
            break if pos.turn() == Color::White {
                "0-1"
            } else {
                "1-0"
            };
        }
        if pos.is_stalemate()
            || pos.is_insufficient_material()
            || pos.halfmoves() >= 100
            || seen[&repetition_key(&pos)] >= 3
            || uci_moves.len() >= max_plies
        {
            break "1/2-1/2";
        }
        let (eng, spec) = if pos.turn() == Color::White {
            (&mut w, white)
        } else {
            (&mut b, black)
        };
        let position = format!("startpos moves {}", uci_moves.join(" "));
        let a = eng
            .search(&position, &format!("nodes {}", spec.nodes))
            .await?;
        let score = a
            .candidates
            .first()
            .map(|c| c.score.ordering())
            .unwrap_or(0);
        // Both sides agree the game is decided: adjudicate instead of playing it out.
        if score >= 1000 && last_score.is_some_and(|s| s <= -1000) {
            break if pos.turn() == Color::White {
                "1-0"
            } else {
                "0-1"
            };
        }
        last_score = Some(score);
        let chosen = match spec.strength {
            Strength::Sampled(r) => sample(&a, sampling_spread(r), &mut rng),
            // The draw comes first, on every move, so the assisted moves do not depend on
            // what the sampling would have drawn.
            Strength::Assisted { rating, per_mille } => {
                if rng.random_range(0..1000) < per_mille {
                    a.candidates
                        .first()
                        .map_or_else(|| a.bestmove.clone(), |c| c.uci.clone())
                } else {
                    sample(&a, sampling_spread(rating), &mut rng)
                }
            }
            _ => a.bestmove.clone(),
        };
        let m = chosen
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .ok_or_else(|| EngineError::Protocol {
                path: engine.display().to_string(),
                reason: format!("the chosen move {chosen} is not legal"),
            })?;
        play_move(&mut pos, m, &mut uci_moves, &mut sans);
    };
    w.kill().await;
    b.kill().await;
    let mut pgn = String::new();
    for (k, v) in [
        ("Event", event.to_string()),
        ("Site", "self-play".into()),
        ("Round", round.to_string()),
        ("White", white.name.clone()),
        ("Black", black.name.clone()),
        ("Result", result.into()),
        ("WhiteElo", white.rating.to_string()),
        ("BlackElo", black.rating.to_string()),
        ("WhiteStrength", white.describe()),
        ("BlackStrength", black.describe()),
    ] {
        pgn.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    pgn.push('\n');
    for (i, san) in sans.iter().enumerate() {
        if i % 2 == 0 {
            pgn.push_str(&format!("{}. ", i / 2 + 1));
        }
        pgn.push_str(san);
        pgn.push(if i % 16 == 15 { '\n' } else { ' ' });
    }
    pgn.push_str(result);
    pgn.push_str("\n\n");
    Ok(pgn)
}

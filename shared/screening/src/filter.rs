//! The decision filter (docs/src/benchmarks.md): which of a player's moves count, and the
//! per-decision quantities for those that do. Pure: a game plus the engine's answers in, decisions
//! out.

use crate::pgn::{FinalState, Game};
use crate::score::Score;
use crate::stats::scaled_e4;
use crate::uci::Analysis;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Filter settings (the defaults: docs/src/benchmarks.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterConfig {
    pub book_plies: usize,
    pub forced_gap_cp: i32,
    pub lopsided_cp: i32,
}

impl Default for FilterConfig {
    fn default() -> Self {
        FilterConfig {
            book_plies: 16,
            forced_gap_cp: 200,
            lopsided_cp: 300,
        }
    }
}

/// Why a decision is not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    Book,
    OnlyMove,
    Repetition,
    Forced,
    Lopsided,
    Unanalysed,
}

/// The per-decision quantities of a counted move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counted {
    /// Played move = engine's first choice.
    pub mm: bool,
    /// Played move's value equals the best value.
    pub ev: bool,
    /// Played move among the top three.
    pub t3: bool,
    /// Centipawn loss (clamped values).
    pub cpl: i32,
    /// Scaled difference δ in units of 1e-4.
    pub delta_e4: i64,
    /// Best minus second-best value (clamped), the difficulty feature.
    pub gap_cp: i32,
}

/// One of a player's moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// 1-based ply number in the game.
    pub ply: usize,
    pub white: bool,
    pub counted: Option<Counted>,
    pub skipped: Option<SkipReason>,
    /// The candidates' deficits, for the full test; counted decisions only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wide: Option<crate::full::Wide>,
}

/// The FENs whose analysis [`decisions`] needs: every position from the end of the book on,
/// and the final position unless the game ended in mate or stalemate.
pub fn positions_needed(game: &Game, cfg: &FilterConfig) -> Vec<String> {
    let mut out: Vec<String> = game
        .plies
        .iter()
        .skip(cfg.book_plies)
        .filter(|p| p.earlier_occurrences < 2)
        .map(|p| p.fen_before.clone())
        .collect();
    if game.plies.len() >= cfg.book_plies && game.final_state == FinalState::Open {
        out.push(game.final_fen.clone());
    }
    out
}

/// The played move's value from the mover's side: its own line when it is among the
/// candidates, else minus the best value of the next position (quick test).
fn played_value(
    game: &Game,
    i: usize,
    a: &Analysis,
    analyses: &HashMap<String, Analysis>,
) -> Option<Score> {
    let played = &game.plies[i].uci;
    if let Some(c) = a.candidates.iter().find(|c| &c.uci == played) {
        return Some(c.score);
    }
    let next_fen = match game.plies.get(i + 1) {
        Some(p) => &p.fen_before,
        None => match game.final_state {
            FinalState::Checkmate => return Some(Score::Mate(1)),
            FinalState::Stalemate => return Some(Score::Cp(0)),
            FinalState::Open => &game.final_fen,
        },
    };
    let next = analyses.get(next_fen)?;
    Some(next.candidates.first()?.score.negate())
}

/// The candidates' scaled deficits from the first candidate's value, smallest first (the
/// last lines of a wide search may come from a shallower iteration, hence the sort), the
/// legal moves left unranked and the played move's place.
fn wide(a: &Analysis, ply: &crate::pgn::Ply, c: &Counted) -> crate::full::Wide {
    let v1 = scaled_e4(a.candidates.first().map_or(0, |b| b.score.clamped()));
    let mut ranked: Vec<(i64, &str)> = a
        .candidates
        .iter()
        .map(|m| ((v1 - scaled_e4(m.score.clamped())).max(0), m.uci.as_str()))
        .collect();
    ranked.sort_by_key(|(d, _)| *d);
    let played = ranked
        .iter()
        .position(|(_, m)| *m == ply.uci)
        .and_then(|i| u16::try_from(i).ok());
    crate::full::Wide {
        unranked: ply
            .legal_moves
            .saturating_sub(u32::try_from(ranked.len()).unwrap_or(u32::MAX)),
        played_delta_e4: played.map_or(c.delta_e4, |i| ranked[usize::from(i)].0),
        deltas_e4: ranked.into_iter().map(|(d, _)| d).collect(),
        played,
    }
}

/// Every decision of both players, in ply order.
pub fn decisions(
    game: &Game,
    analyses: &HashMap<String, Analysis>,
    cfg: &FilterConfig,
) -> Vec<Decision> {
    let mut out = Vec::with_capacity(game.plies.len());
    for (i, ply) in game.plies.iter().enumerate() {
        let white = ply.fen_before.split(' ').nth(1) == Some("w");
        let skip = |r| Decision {
            ply: i + 1,
            white,
            counted: None,
            skipped: Some(r),
            wide: None,
        };
        if i < cfg.book_plies {
            out.push(skip(SkipReason::Book));
            continue;
        }
        if ply.legal_moves <= 1 {
            out.push(skip(SkipReason::OnlyMove));
            continue;
        }
        if ply.earlier_occurrences >= 2 {
            out.push(skip(SkipReason::Repetition));
            continue;
        }
        let Some(a) = analyses.get(&ply.fen_before) else {
            out.push(skip(SkipReason::Unanalysed));
            continue;
        };
        let Some(best) = a.candidates.first() else {
            out.push(skip(SkipReason::Unanalysed));
            continue;
        };
        let v1 = best.score.clamped();
        let gap = match a.candidates.get(1) {
            Some(c) => v1 - c.score.clamped(),
            None => cfg.forced_gap_cp,
        };
        if gap >= cfg.forced_gap_cp {
            out.push(skip(SkipReason::Forced));
            continue;
        }
        if v1.abs() >= cfg.lopsided_cp {
            out.push(skip(SkipReason::Lopsided));
            continue;
        }
        let Some(vm) = played_value(game, i, a, analyses) else {
            out.push(skip(SkipReason::Unanalysed));
            continue;
        };
        let mm = best.uci == ply.uci;
        let counted = Counted {
            mm,
            // The first choice always ties with itself, even when a re-searched next position
            // would give it a slightly different value.
            ev: mm || vm.ordering() == best.score.ordering(),
            t3: a.candidates.iter().take(3).any(|c| c.uci == ply.uci),
            cpl: (v1 - vm.clamped()).max(0),
            delta_e4: if mm {
                0
            } else {
                (scaled_e4(v1) - scaled_e4(vm.clamped())).max(0)
            },
            gap_cp: gap,
        };
        out.push(Decision {
            ply: i + 1,
            white,
            counted: Some(counted),
            skipped: None,
            wide: Some(wide(a, ply, &counted)),
        });
    }
    out
}

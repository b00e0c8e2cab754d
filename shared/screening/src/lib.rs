//! Fair-play screening (the method: docs/src/benchmarks.md): advisory, reproducible statistics of
//! how closely a player's moves agree with a chess engine, against what players of that rating do.
//!
//! - [`pgn`]: games in, legality checked, clocks kept.
//! - [`uci`]: Stockfish processes under the reproducibility rules; [`cache`]: exact reuse.
//! - [`filter`]: which moves count; [`stats`]: the hand-written statistics.
//! - [`full`]: the full test (wide analyses, the move-probability law, IPR).
//! - [`baseline`]: the versioned, rating-conditioned expectations; [`policy`]: thresholds.
//! - [`screen`]: games to per-player performances; [`selfplay`] and [`calibrate`]: building a
//!   baseline offline from engine games; [`human`]: from human games, with its calibration
//!   report on held-out events; [`human_full`]: the full test's, with the quick-then-full order
//!   measured on held-out events.
//!
//! Screening is triage: nothing here decides a result or names a cheater.

pub mod baseline;
pub mod cache;
pub mod calibrate;
pub mod filter;
pub mod full;
pub mod human;
pub mod human_full;
pub mod pgn;
pub mod policy;
pub mod score;
pub mod screen;
pub mod selfplay;
pub mod stats;
pub mod uci;

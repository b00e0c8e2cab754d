//! Domain types shared by every part of arbiter.
//!
//! Scores are exact: [`Score`] counts tenths of a point in an integer, so no pairing decision or
//! tie-break ever depends on floating-point rounding. Results carry their TRF codes (the TRF16
//! result-code table) so that a round entry read from a file and one recorded by an arbiter are the
//! same value.
//!
//! [`tournament`] is the tournament aggregate: commands decided against the state folded from
//! the event log, and the events they produce.

mod color;
mod result;
mod score;
mod scoring;
pub mod teams;
pub mod tournament;

/// The knockout rules (bracket, mini-matches, colours), as the tournament events carry them.
pub use arbiter_knockout as knockout;
pub use color::Color;
pub use result::{ResultCode, RoundEntry};
pub use score::{Score, ScoreParseError};
pub use scoring::{PointSystem, ResultKind};

/// A pairing number (TRF "starting rank"), 1-based. `0` is never a valid player.
pub type PlayerId = u32;

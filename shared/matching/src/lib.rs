//! Maximum-weight matching on general graphs with exact integer weights (the pairing engines' core).
//!
//! [`Matcher`] solves maximum-weight matching on a dense graph with Edmonds' primal–dual blossom
//! algorithm, exactly (integer duals, no floating point) and deterministically, and re-solves
//! incrementally after the edges of a few vertices change. Weights are any [`Weight`]: `u64`,
//! `u128` or the fixed-width [`Wide<N>`] for lexicographic criteria wider than 128 bits.

mod matcher;
mod palette;
mod weight;
mod wide;

pub use matcher::{Matcher, SolveStats, WeightError};
pub use palette::{BuildLimbHasher, LimbHasher};
pub use weight::Weight;
pub use wide::Wide;

#[cfg(test)]
mod tests;

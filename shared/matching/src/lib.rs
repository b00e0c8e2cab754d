//! Maximum-weight matching on general graphs with exact integer weights (the pairing engines' core).
//!
//! [`Matcher`] solves maximum-weight matching on a dense graph with Edmonds' primal–dual blossom
//! algorithm, exactly (integer duals, no floating point) and deterministically, and re-solves
//! incrementally after the edges of a few vertices change. Large graphs are searched on
//! candidate edges and the rest priced by the duals afterwards ([`with_sparse_from`] sets the
//! size from which, for tests and benchmarks). Weights are any [`Weight`]: `u64`,
//! `u128` or the fixed-width [`Wide<N>`] for lexicographic criteria wider than 128 bits.

mod matcher;
mod palette;
mod weight;
mod wide;

pub use matcher::{Matcher, SPARSE_FROM, SolveStats, WeightError, with_sparse_from, with_threads};
pub use palette::{BuildLimbHasher, LimbHasher};
pub use weight::Weight;
pub use wide::Wide;

#[cfg(test)]
mod tests;

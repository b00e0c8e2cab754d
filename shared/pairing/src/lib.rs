//! FIDE pairing engines, pure and deterministic.
//!
//! The Dutch system (C.04.3) is implemented as a sequence of maximum-weight matchings on exact
//! integer weights: every quality criterion of the rules becomes a bit field of the edge weight,
//! ordered by priority, so that one matching optimises all of them lexicographically; the
//! generation order of candidates (transpositions and exchanges, section D) is then enforced
//! by fixing decisions one player at a time, each checked by re-solving. This is written by hand
//! because it is the product's core: exact agreement with the FIDE-endorsed engines, no floats,
//! and speed beyond theirs.
//!
//! The other FIDE Swiss systems (C.04.4), Dubov, Burstein and Lim, follow their rule text's
//! own procedures and priority orders (modules `dubov`, `burstein`, `lim`), on a shared layer
//! (`swiss`) that keeps every decision compatible with completing the round under C.04.1's
//! absolute criteria. FIDE endorses no program for them: they are built from the text, and
//! each module names the choices it made where the text is ambiguous.
//!
//! Dutch rule sets are named by the date they took effect ([`RuleSet`]). The input is a
//! [`PairingInput`]: the history of every player before the round, nothing else, so a pairing is
//! a pure function of the history, as the audit invariant requires.

mod burstein;
mod dubov;
mod dutch;
mod explain;
mod input;
mod lim;
pub mod profile;
mod record;
pub mod simulate;
mod state;
mod swiss;
pub mod trf;
mod verdict;

/// The engines' internal checks, which reach what the public interface does not: each exact
/// search against the whole enumeration it replaces, the weight packer against its definition,
/// the round-1 shortcut against the general path. Called by `tests/internal_checks.rs`; a
/// feature rather than unit tests so that the library is not compiled a second time, at full
/// optimisation, for a test harness of its own.
#[cfg(feature = "test-support")]
#[doc(hidden)]
pub mod checks {
    pub use crate::burstein::checks as burstein;
    pub use crate::dubov::checks as dubov;
    pub use crate::dutch::checks::{completion, round1, round2025, weight};
    pub use crate::lim::checks as lim;
    pub use crate::profile::checks as profile;
}

pub use dutch::{GROUP_FELL_BACK, GROUP_REALIZED, with_dual_proofs, with_group_graphs};
pub use explain::{BracketReport, Explanation};
pub use input::{PairingInput, PlayerInput, RuleSet, RuleSetParseError};
pub use record::{RecordPlayer, RecordedPairing, TournamentRecord};
pub use verdict::{Comparison, Verdict};

use arbiter_core::PlayerId;

/// One board of a round: who has white and who has black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Board {
    pub white: PlayerId,
    pub black: PlayerId,
}

/// The pairing of one round, boards in publication order (C.04.2 D.9), the pairing-allocated
/// bye apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPairing {
    pub boards: Vec<Board>,
    pub bye: Option<PlayerId>,
    pub explanation: Explanation,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// No pairing satisfies the absolute criteria (C.1-C.3): the arbiter decides (A.9).
    #[error("no valid pairing exists: {0}")]
    NoValidPairing(String),
    /// The input contradicts itself (duplicate ids, unknown opponents, ...).
    #[error("invalid pairing input: {0}")]
    InvalidInput(String),
}

/// Pairs the next round by the given input's rule set.
pub fn pair(input: &PairingInput) -> Result<RoundPairing, PairingError> {
    input.validate()?;
    match input.rule_set {
        RuleSet::Dutch2017 | RuleSet::Dutch2025 => dutch::pair(input),
        RuleSet::Dubov => dubov::pair(input),
        RuleSet::Lim => lim::pair(input),
        RuleSet::Burstein => burstein::pair(input),
        RuleSet::BursteinBbp => burstein::bbp::pair(input),
    }
}

/// Pairs the round and says how `other` (e.g. the pairing recorded in a tournament file)
/// compares with the engine's pairing, naming the deciding rule.
pub fn compare(input: &PairingInput, other: &RecordedPairing) -> Result<Comparison, PairingError> {
    input.validate()?;
    match input.rule_set {
        RuleSet::Dutch2017 | RuleSet::Dutch2025 => dutch::compare(input, other),
        RuleSet::Dubov => dubov::compare(input, other),
        RuleSet::Lim => lim::compare(input, other),
        RuleSet::Burstein => burstein::compare(input, other),
        RuleSet::BursteinBbp => burstein::bbp::compare(input, other),
    }
}

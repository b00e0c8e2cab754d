//! How another pairing of a round compares with the engine's: identical, not a valid pairing
//! (naming the absolute criterion it breaks), or worse on a named criterion in a named
//! bracket, or equal on every criterion and later in the generation order, or only the
//! colours differ (naming the colour rule). What `arbiter check` reports for each round.

use crate::{Board, RoundPairing};
use arbiter_core::PlayerId;
use std::fmt;

/// The verdict on another pairing of the same round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The same boards, colours and bye.
    Identical,
    /// Not a pairing of this round: unknown or unavailable players, a player twice, more than
    /// one player left unpaired.
    NotAPairing { detail: String },
    /// It breaks an absolute criterion (C.1-C.3 / [C1]-[C3]).
    Absolute { rule: String, detail: String },
    /// In the engine's bracket `bracket` (0-based, as in the explanation) the other pairing
    /// pairs differently and is worse on `rule`.
    Criterion {
        bracket: usize,
        bracket_score: String,
        rule: String,
        meaning: String,
        /// For a count criterion: the number of pairs that meet it (the engine's, the other's).
        counts: Option<(i64, i64)>,
        /// False only if the other pairing scores better on `rule` there, which the engine's
        /// optimum excludes: reported, never hidden, as an inconsistency.
        engine_better: bool,
    },
    /// Both are equal on every quality criterion in bracket `bracket`: the engine's comes first
    /// in the generation order of candidates (B.2-B.7 with section D; 3.x/4.x in 2025).
    GenerationOrder {
        bracket: usize,
        bracket_score: String,
    },
    /// The same pairs; the colours of `board` (the engine's) follow `rule`.
    Colour {
        board: Board,
        rule: String,
        meaning: String,
    },
}

impl Verdict {
    /// The rule named, if any ("C.6", "[C9]", "E.4", ...).
    pub fn rule(&self) -> Option<&str> {
        match self {
            Verdict::Absolute { rule, .. }
            | Verdict::Criterion { rule, .. }
            | Verdict::Colour { rule, .. } => Some(rule),
            Verdict::GenerationOrder { .. } => Some("generation order"),
            _ => None,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Identical => write!(f, "identical"),
            Verdict::NotAPairing { detail } => write!(f, "not a pairing of this round: {detail}"),
            Verdict::Absolute { rule, detail } => write!(f, "breaks {rule}: {detail}"),
            Verdict::Criterion {
                bracket,
                bracket_score,
                rule,
                meaning,
                counts,
                engine_better,
            } => {
                let better = if *engine_better {
                    "the engine's pairing is better"
                } else {
                    "INCONSISTENT: the recorded pairing scores better"
                };
                write!(
                    f,
                    "decided by {rule} in bracket {} ({bracket_score} points): {better} on \
                     \"{meaning}\"",
                    bracket + 1
                )?;
                if let Some((e, o)) = counts {
                    write!(
                        f,
                        " (its count, higher is better: engine {e}, recorded {o})"
                    )?;
                }
                Ok(())
            }
            Verdict::GenerationOrder {
                bracket,
                bracket_score,
            } => write!(
                f,
                "decided by the generation order in bracket {} ({bracket_score} points): both \
                 are equal on every quality criterion, the engine's candidate comes first",
                bracket + 1
            ),
            Verdict::Colour {
                board,
                rule,
                meaning,
            } => write!(
                f,
                "same pairs; colours of {} - {} decided by {rule}: {meaning}",
                board.white, board.black
            ),
        }
    }
}

/// The engine's pairing of a round and the verdict on another pairing of it.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub engine: RoundPairing,
    pub verdict: Verdict,
}

pub(crate) fn ids(ps: &[PlayerId]) -> String {
    ps.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

//! Engine scores from the mover's point of view and the two views the statistics need:
//! an ordering value (mates above every centipawn score) and a clamped value for losses.

use serde::{Deserialize, Serialize};

/// A UCI score, always from the point of view of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in n moves (n > 0: the side to move mates; n <= 0: it is mated).
    Mate(i32),
}

/// Mate scores sit beyond this value so they order above every centipawn score.
const MATE_BASE: i32 = 10_000;
/// Losses and scaled differences use values clamped to ±1000 cp, mates counting as ±1000.
pub const CLAMP_CP: i32 = 1_000;

impl Score {
    /// The value used for ordering and equality: mate in n = ±(10000 − |n|).
    pub fn ordering(self) -> i32 {
        match self {
            Score::Cp(c) => c.clamp(-(MATE_BASE - 1000), MATE_BASE - 1000),
            Score::Mate(n) if n > 0 => MATE_BASE - n,
            Score::Mate(n) => -(MATE_BASE + n),
        }
    }

    /// The value used for losses: clamped to ±1000 cp.
    pub fn clamped(self) -> i32 {
        self.ordering().clamp(-CLAMP_CP, CLAMP_CP)
    }

    /// The same score seen by the other side (after the move that led to it).
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_order_above_centipawns_and_clamp_to_a_thousand() {
        assert!(Score::Mate(3).ordering() > Score::Cp(5000).ordering());
        assert!(Score::Mate(1).ordering() > Score::Mate(3).ordering());
        assert!(Score::Mate(-1).ordering() < Score::Mate(-5).ordering());
        assert_eq!(Score::Mate(-2).clamped(), -1000);
        assert_eq!(Score::Cp(250).clamped(), 250);
        assert_eq!(Score::Mate(4).negate(), Score::Mate(-4));
    }
}

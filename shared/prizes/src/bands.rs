//! Rating-band categories.
//!
//! The Arbiters' Manual asks for bands that do not overlap (2300-2399 and 2200-2299 rather than
//! "under 2400" and "under 2300"); otherwise one player can be eligible for both.

use crate::error::PrizeError;

/// Ratings from `low` to `high`, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RatingBand {
    low: u16,
    high: u16,
}

impl RatingBand {
    pub fn new(low: u16, high: u16) -> Result<RatingBand, PrizeError> {
        if low > high {
            return Err(PrizeError::InvalidBand { low, high });
        }
        Ok(RatingBand { low, high })
    }

    pub fn low(self) -> u16 {
        self.low
    }

    pub fn high(self) -> u16 {
        self.high
    }

    /// Whether a player rated `rating` is eligible.
    pub fn contains(self, rating: u16) -> bool {
        (self.low..=self.high).contains(&rating)
    }
}

/// The index pairs `(i, j)`, `i < j`, of bands that share a rating: an announcement to warn
/// about, not an error, since the regulations may still want it.
pub fn overlapping_bands(bands: &[RatingBand]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, a) in bands.iter().enumerate() {
        for (j, b) in bands.iter().enumerate().skip(i + 1) {
            if a.low <= b.high && b.low <= a.high {
                out.push((i, j));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_that_share_a_rating_are_reported() {
        let b = |l, h| RatingBand::new(l, h).unwrap();
        let separate = [b(2300, 2399), b(2200, 2299)];
        assert!(overlapping_bands(&separate).is_empty());
        let nested = [b(0, 2399), b(0, 2299), b(2400, 2499)];
        assert_eq!(overlapping_bands(&nested), [(0, 1)]);
        assert!(b(2200, 2299).contains(2299) && !b(2200, 2299).contains(2300));
        let e = RatingBand::new(2300, 2200).unwrap_err();
        assert_eq!(
            e.to_string(),
            "rating band 2300-2200: lower bound above upper bound"
        );
    }
}

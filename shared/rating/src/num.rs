//! Exact arithmetic helpers: hundredths of a point and the regulations' roundings.
//!
//! Nothing in this crate that is compared or reported uses binary floating point. Table values
//! (expected scores, ΔR) are hundredths; averages and changes are rationals rounded exactly as
//! the regulations prescribe.

use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub};

/// An exact quantity in hundredths (`Hundredths(84)` is 0.84).
///
/// Used for expected scores `PD` (B.02 8.1.2), per-game `ΔR`, `ΣΔR`, fractional scores `p`
/// and the unrounded rating change `K × ΣΔR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Hundredths(pub i32);

impl Hundredths {
    pub const ZERO: Hundredths = Hundredths(0);

    pub fn get(self) -> i32 {
        self.0
    }

    /// `K × self` (the unrounded rating change of B.02 8.3.2d).
    pub fn times(self, k: u32) -> Hundredths {
        Hundredths(self.0 * k as i32)
    }

    /// Nearest integer, 0.5 up (toward +infinity): B.02 8.3.4, read as
    /// docs/src/auditors/agreement.md says.
    pub fn round_half_up(self) -> i32 {
        round_half_up(i64::from(self.0), 100) as i32
    }
}

impl Add for Hundredths {
    type Output = Hundredths;
    fn add(self, o: Hundredths) -> Hundredths {
        Hundredths(self.0 + o.0)
    }
}
impl AddAssign for Hundredths {
    fn add_assign(&mut self, o: Hundredths) {
        self.0 += o.0
    }
}
impl Sub for Hundredths {
    type Output = Hundredths;
    fn sub(self, o: Hundredths) -> Hundredths {
        Hundredths(self.0 - o.0)
    }
}
impl Neg for Hundredths {
    type Output = Hundredths;
    fn neg(self) -> Hundredths {
        Hundredths(-self.0)
    }
}
impl std::iter::Sum for Hundredths {
    fn sum<I: Iterator<Item = Hundredths>>(iter: I) -> Hundredths {
        iter.fold(Hundredths::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Hundredths {
    /// Two decimals: `0.84`, `-0.19`, `57.20`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        f.pad(&format!("{sign}{}.{:02}", a / 100, a % 100))
    }
}

/// `num / den` rounded to the nearest integer, halves toward +infinity (`floor(x + 1/2)`).
///
/// This is the rounding of B.01 1.4.7 / 1.4.9 and B.02 8.2.3 / 8.3.4 ("0.5 up").
///
/// # Panics
/// If `den <= 0`.
pub fn round_half_up(num: i64, den: i64) -> i64 {
    assert!(den > 0, "round_half_up: non-positive denominator");
    (2 * num + den).div_euclid(2 * den)
}

/// Smallest integer `>= num / den` (`den > 0`).
pub fn ceil_div(num: i64, den: i64) -> i64 {
    assert!(den > 0, "ceil_div: non-positive denominator");
    -((-num).div_euclid(den))
}

/// An exact non-integral figure reported alongside its rounded value (e.g. `Ra` of an
/// initial rating, `Ru` before rounding): `num / den` with `den > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    pub num: i64,
    pub den: i64,
}

impl Ratio {
    pub fn new(num: i64, den: i64) -> Ratio {
        assert!(den > 0, "Ratio: non-positive denominator");
        Ratio { num, den }
    }
    pub fn integer(v: i64) -> Ratio {
        Ratio { num: v, den: 1 }
    }
    /// Nearest integer, 0.5 up.
    pub fn round_half_up(self) -> i64 {
        round_half_up(self.num, self.den)
    }
    /// The value scaled by `10^decimals` and rounded half up (for display and comparisons
    /// against figures printed with a fixed number of decimals).
    pub fn scaled(self, decimals: u32) -> i64 {
        round_half_up(self.num * 10i64.pow(decimals), self.den)
    }
    pub fn add_int(self, v: i64) -> Ratio {
        Ratio {
            num: self.num + v * self.den,
            den: self.den,
        }
    }
}

impl fmt::Display for Ratio {
    /// Four decimals, rounded half up (`2044.8571`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.scaled(4);
        let sign = if s < 0 { "-" } else { "" };
        let a = s.unsigned_abs();
        f.pad(&format!("{sign}{}.{:04}", a / 10_000, a % 10_000))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_up_rounding() {
        assert_eq!(round_half_up(5640, 100), 56);
        assert_eq!(round_half_up(5650, 100), 57);
        assert_eq!(round_half_up(-5640, 100), -56);
        assert_eq!(round_half_up(-5650, 100), -56);
        assert_eq!(round_half_up(-5651, 100), -57);
        assert_eq!(round_half_up(31832, 13), 2449);
        assert_eq!(round_half_up(22280, 9), 2476);
    }

    #[test]
    fn ceil_division() {
        assert_eq!(ceil_div(7, 2), 4);
        assert_eq!(ceil_div(6, 2), 3);
        assert_eq!(ceil_div(-7, 2), -3);
        assert_eq!(ceil_div(0, 3), 0);
    }

    #[test]
    fn displays() {
        assert_eq!(Hundredths(84).to_string(), "0.84");
        assert_eq!(Hundredths(-19).to_string(), "-0.19");
        assert_eq!(Hundredths(5720).to_string(), "57.20");
        assert_eq!(Ratio::new(13600, 7).to_string(), "1942.8571");
        assert_eq!(Ratio::new(-3, 2).to_string(), "-1.5000");
    }
}

//! Exact money amounts: fractions of the currency's minor unit.

use std::cmp::Ordering;
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, Sub};

/// An exact amount of money in minor units of the currency (cents for EUR), possibly a fraction.
///
/// Shares of a pooled prize are rarely whole cents (100 cents among 3 players), so amounts are
/// kept as reduced fractions and only rounded when paid (see the crate documentation).
/// Arithmetic panics on overflow rather than wrapping; amounts stay far from the limits because
/// a denominator never exceeds twice the size of a tied group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Amount {
    // Invariant: den > 0 and gcd(|num|, den) = 1, so equal values compare equal field by field.
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

fn mul(a: i128, b: i128) -> i128 {
    a.checked_mul(b).expect("amount overflow")
}

impl Amount {
    pub const ZERO: Amount = Amount { num: 0, den: 1 };

    /// A whole number of minor units.
    pub fn from_minor(minor: i64) -> Amount {
        Amount {
            num: i128::from(minor),
            den: 1,
        }
    }

    /// `num / den` minor units, reduced; `None` when `den` is zero.
    pub fn new(num: i128, den: i128) -> Option<Amount> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den);
        let sign = den.signum();
        Some(Amount {
            num: sign * num / g,
            den: sign * den / g,
        })
    }

    /// The numerator of the reduced fraction.
    pub fn numer(self) -> i128 {
        self.num
    }

    /// The denominator of the reduced fraction (always positive).
    pub fn denom(self) -> i128 {
        self.den
    }

    /// Whether the amount is a whole number of minor units.
    pub fn is_whole(self) -> bool {
        self.den == 1
    }

    /// The largest whole number of minor units not above the amount.
    pub fn floor(self) -> i128 {
        self.num.div_euclid(self.den)
    }

    /// The part above [`Amount::floor`], in `0 <= f < 1`.
    pub fn fraction(self) -> Amount {
        self - Amount::from_minor_wide(self.floor())
    }

    pub(crate) fn from_minor_wide(minor: i128) -> Amount {
        Amount { num: minor, den: 1 }
    }
}

impl Add for Amount {
    type Output = Amount;
    fn add(self, o: Amount) -> Amount {
        let num = mul(self.num, o.den)
            .checked_add(mul(o.num, self.den))
            .expect("amount overflow");
        Amount::new(num, mul(self.den, o.den)).expect("non-zero denominator")
    }
}

impl Sub for Amount {
    type Output = Amount;
    fn sub(self, o: Amount) -> Amount {
        self + Amount {
            num: -o.num,
            den: o.den,
        }
    }
}

impl Sum for Amount {
    fn sum<I: Iterator<Item = Amount>>(iter: I) -> Amount {
        iter.fold(Amount::ZERO, Add::add)
    }
}

impl Ord for Amount {
    fn cmp(&self, o: &Amount) -> Ordering {
        // Denominators are positive, so cross-multiplying keeps the order.
        mul(self.num, o.den).cmp(&mul(o.num, self.den))
    }
}

impl PartialOrd for Amount {
    fn partial_cmp(&self, o: &Amount) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Amount {
    /// A terminating decimal when there is one (`862.5`, `33.25`), otherwise the fraction
    /// (`100/3`): the display never rounds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            return write!(f, "{}", self.num);
        }
        let (mut twos, mut fives, mut rest) = (0u32, 0u32, self.den);
        while rest % 2 == 0 {
            rest /= 2;
            twos += 1;
        }
        while rest % 5 == 0 {
            rest /= 5;
            fives += 1;
        }
        if rest != 1 {
            return write!(f, "{}/{}", self.num, self.den);
        }
        let digits = twos.max(fives);
        let scaled = mul(self.num, 10i128.pow(digits)) / self.den;
        let sign = if scaled < 0 { "-" } else { "" };
        let a = scaled.unsigned_abs();
        let unit = 10u128.pow(digits);
        write!(
            f,
            "{sign}{}.{:0width$}",
            a / unit,
            a % unit,
            width = digits as usize
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i128, d: i128) -> Amount {
        Amount::new(n, d).unwrap()
    }

    #[test]
    fn reduces_and_compares() {
        assert_eq!(r(6, -4), r(-3, 2));
        assert_eq!((r(6, -4).numer(), r(6, -4).denom()), (-3, 2));
        assert!(r(1, 3) < r(1, 2));
        assert_eq!(r(1, 3) + r(1, 6), r(1, 2));
        assert_eq!(r(7, 2).floor(), 3);
        assert_eq!(r(-7, 2).floor(), -4);
        assert_eq!(r(7, 2).fraction(), r(1, 2));
        assert_eq!(Amount::new(1, 0), None);
    }

    #[test]
    fn displays_without_rounding() {
        assert_eq!(r(1725, 2).to_string(), "862.5");
        assert_eq!(r(-1, 8).to_string(), "-0.125");
        assert_eq!(r(133, 4).to_string(), "33.25");
        assert_eq!(r(100, 3).to_string(), "100/3");
        assert_eq!(Amount::from_minor(5).to_string(), "5");
    }
}

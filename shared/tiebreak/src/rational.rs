//! Exact rational numbers for tie-break values.
//!
//! Every tie-break value is a ratio of two integers: scores are tenths of a point, Sonneborn-Berger
//! products are hundredths, averages (ARO, AOB, APRO) are sums divided by counts. Keeping the
//! ratio exact means two players are tied exactly when their values are equal, never "almost".

use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// An exact fraction `num / den` with `den > 0`, always stored in lowest terms.
#[derive(Clone, Copy, Debug)]
pub struct Rational {
    num: i64,
    den: i64,
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Rational {
    pub const ZERO: Rational = Rational { num: 0, den: 1 };

    /// `num / den`; `None` when `den` is zero.
    pub fn new(num: i64, den: i64) -> Option<Rational> {
        if den == 0 {
            return None;
        }
        let (mut n, mut d) = (num, den);
        if d < 0 {
            n = -n;
            d = -d;
        }
        let g = gcd(n, d).max(1);
        Some(Rational {
            num: n / g,
            den: d / g,
        })
    }

    /// A whole number.
    pub fn from_int(v: i64) -> Rational {
        Rational { num: v, den: 1 }
    }

    /// A value given in tenths (a [`arbiter_core::Score`]).
    pub fn from_tenths(t: i64) -> Rational {
        Rational::new(t, 10).unwrap_or(Rational::ZERO)
    }

    /// A value given in hundredths (a score multiplied by a score).
    pub fn from_hundredths(h: i64) -> Rational {
        Rational::new(h, 100).unwrap_or(Rational::ZERO)
    }

    pub fn numer(self) -> i64 {
        self.num
    }
    pub fn denom(self) -> i64 {
        self.den
    }
    pub fn is_integer(self) -> bool {
        self.den == 1
    }

    /// The nearest integer, halves rounded up (towards +∞): `floor(x + 1/2)`.
    pub fn round_half_up(self) -> i64 {
        let twice = 2 * self.num as i128 + self.den as i128;
        let d = 2 * self.den as i128;
        twice.div_euclid(d) as i64
    }

    /// This value rounded half up to `decimals` decimal places, as an exact rational.
    pub fn round_to(self, decimals: u32) -> Rational {
        let scale = 10i64.pow(decimals);
        let scaled =
            Rational::new(self.num.saturating_mul(scale), self.den).unwrap_or(Rational::ZERO);
        Rational::new(scaled.round_half_up(), scale).unwrap_or(Rational::ZERO)
    }

    /// Decimal text with exactly `decimals` places, rounding half up when the value needs more.
    pub fn to_decimal_string(self, decimals: u32) -> String {
        let scale = 10i64.pow(decimals);
        let scaled = Rational::new(self.num.saturating_mul(scale), self.den)
            .unwrap_or(Rational::ZERO)
            .round_half_up();
        let neg = scaled < 0;
        let a = scaled.unsigned_abs();
        let int = a / scale as u64;
        let frac = a % scale as u64;
        let sign = if neg { "-" } else { "" };
        if decimals == 0 {
            format!("{sign}{int}")
        } else {
            format!("{sign}{int}.{frac:0width$}", width = decimals as usize)
        }
    }

    /// The number of decimals needed to write the value exactly, if it is a finite decimal
    /// with at most `max` places.
    pub fn exact_decimals(self, max: u32) -> Option<u32> {
        (0..=max).find(|&d| (self.num as i128 * 10i128.pow(d)) % self.den as i128 == 0)
    }

    /// Integer division of the value by `n` (an average); `None` for `n == 0`.
    pub fn div_int(self, n: i64) -> Option<Rational> {
        if n == 0 {
            return None;
        }
        Rational::new(self.num, self.den.checked_mul(n)?)
    }

    /// Division by another rational; `None` when dividing by zero.
    pub fn checked_div(self, o: Rational) -> Option<Rational> {
        if o.num == 0 {
            return None;
        }
        Rational::new(self.num.checked_mul(o.den)?, self.den.checked_mul(o.num)?)
    }

    /// The largest integer not above the value.
    pub fn floor(self) -> i64 {
        self.num.div_euclid(self.den)
    }
}

/// A decimal number read exactly: "62.00", "-7", "2309", ".5". Anything else is refused.
impl std::str::FromStr for Rational {
    type Err = String;

    fn from_str(s: &str) -> Result<Rational, String> {
        let bad = || format!("{s:?} is not a decimal number");
        let t = s.trim();
        let (neg, t) = match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t),
        };
        let (int, frac) = t.split_once('.').unwrap_or((t, ""));
        let digits = format!("{int}{frac}");
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) || frac.len() > 12 {
            return Err(bad());
        }
        let n: i64 = digits.parse().map_err(|_| bad())?;
        let v = Rational::new(n, 10i64.pow(frac.len() as u32)).ok_or_else(bad)?;
        Ok(if neg { -v } else { v })
    }
}

impl Default for Rational {
    fn default() -> Self {
        Rational::ZERO
    }
}

impl PartialEq for Rational {
    fn eq(&self, o: &Rational) -> bool {
        self.num == o.num && self.den == o.den
    }
}
impl Eq for Rational {}
impl Hash for Rational {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.num.hash(h);
        self.den.hash(h);
    }
}
impl PartialOrd for Rational {
    fn partial_cmp(&self, o: &Rational) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Rational {
    fn cmp(&self, o: &Rational) -> Ordering {
        (self.num as i128 * o.den as i128).cmp(&(o.num as i128 * self.den as i128))
    }
}

impl Add for Rational {
    type Output = Rational;
    fn add(self, o: Rational) -> Rational {
        if self.den == o.den {
            return Rational::new(self.num + o.num, self.den).unwrap_or(Rational::ZERO);
        }
        let g = gcd(self.den, o.den).max(1);
        let den = self.den / g * o.den;
        let num = self.num * (den / self.den) + o.num * (den / o.den);
        Rational::new(num, den).unwrap_or(Rational::ZERO)
    }
}
impl AddAssign for Rational {
    fn add_assign(&mut self, o: Rational) {
        *self = *self + o;
    }
}
impl Sub for Rational {
    type Output = Rational;
    fn sub(self, o: Rational) -> Rational {
        self + (-o)
    }
}
impl Neg for Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        Rational {
            num: -self.num,
            den: self.den,
        }
    }
}
impl Mul for Rational {
    type Output = Rational;
    fn mul(self, o: Rational) -> Rational {
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        Rational::new(
            (self.num / g1) * (o.num / g2),
            (self.den / g2) * (o.den / g1),
        )
        .unwrap_or(Rational::ZERO)
    }
}
impl std::iter::Sum for Rational {
    fn sum<I: Iterator<Item = Rational>>(it: I) -> Rational {
        it.fold(Rational::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Rational {
    /// Exact text: a decimal when the value has a finite decimal expansion of at most six
    /// places (`68`, `9.75`), the fraction otherwise (`141/10` is written `14.1`; `40/3` stays
    /// `40/3`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.exact_decimals(6) {
            Some(d) => f.pad(&self.to_decimal_string(d)),
            None => f.pad(&format!("{}/{}", self.num, self.den)),
        }
    }
}

impl Serialize for Rational {
    /// Serialised as its exact text (see `Display`), so no precision is lost in transit.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d).unwrap()
    }

    #[test]
    fn normalises_and_compares() {
        assert_eq!(r(2, 4), r(1, 2));
        assert_eq!(r(-3, -6), r(1, 2));
        assert_eq!(r(3, -6), r(-1, 2));
        assert!(r(1, 3) < r(1, 2));
        assert!(Rational::new(1, 0).is_none());
    }

    #[test]
    fn rounds_half_up() {
        assert_eq!(r(5, 2).round_half_up(), 3);
        assert_eq!(r(-5, 2).round_half_up(), -2);
        assert_eq!(r(24633, 11).round_half_up(), 2239);
        assert_eq!(r(1413, 100).to_decimal_string(1), "14.1");
        assert_eq!(r(2825, 200).to_decimal_string(2), "14.13");
        assert_eq!(r(40, 3).to_decimal_string(2), "13.33");
        assert_eq!(r(-1, 20).to_decimal_string(1), "0.0");
        assert_eq!(r(-3, 20).to_decimal_string(1), "-0.1");
        assert_eq!(r(7, 1).to_decimal_string(0), "7");
    }

    #[test]
    fn displays_exactly() {
        assert_eq!(r(975, 100).to_string(), "9.75");
        assert_eq!(r(68, 1).to_string(), "68");
        assert_eq!(r(40, 3).to_string(), "40/3");
    }

    proptest! {
        #[test]
        fn add_sub_round_trip(a in -100_000i64..100_000, b in 1i64..1000, c in -100_000i64..100_000, d in 1i64..1000) {
            let x = r(a, b);
            let y = r(c, d);
            prop_assert_eq!((x + y) - y, x);
        }

        #[test]
        fn order_matches_cross_multiplication(a in -10_000i64..10_000, b in 1i64..500, c in -10_000i64..10_000, d in 1i64..500) {
            prop_assert_eq!(r(a, b).cmp(&r(c, d)), (a * d).cmp(&(c * b)));
        }

        #[test]
        fn round_half_up_is_nearest(a in -100_000i64..100_000, b in 1i64..1000) {
            let x = r(a, b);
            let n = x.round_half_up();
            let diff = x - Rational::from_int(n);
            prop_assert!(diff >= r(-1, 2) && diff < r(1, 2));
        }
    }
}

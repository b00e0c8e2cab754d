use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

/// An exact score in tenths of a point (`Score(15)` is 1.5 points).
///
/// Tenths are enough for every point system FIDE uses (1/½/0, 3/1/0, 2/1/0, Baku virtual
/// points of 1 and ½) and match the TRF points column (`%4.1f`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct Score(pub i32);

impl Score {
    pub const ZERO: Score = Score(0);
    pub const HALF: Score = Score(5);
    pub const ONE: Score = Score(10);

    pub fn from_tenths(t: i32) -> Score {
        Score(t)
    }
    pub fn tenths(self) -> i32 {
        self.0
    }
    /// Whole points, for tests and generators.
    pub fn points(p: i32) -> Score {
        Score(p * 10)
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0)
    }
}
impl Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0)
    }
}
impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}
impl AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0
    }
}
impl SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0
    }
}
impl std::iter::Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Score {
    /// Formats as the TRF points column does: one decimal (`4.5`, `-0.5`, `10.0`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        let s = format!("{sign}{}.{}", a / 10, a % 10);
        f.pad(&s)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a score with at most one decimal: {0:?}")]
pub struct ScoreParseError(pub String);

impl FromStr for Score {
    type Err = ScoreParseError;
    /// Accepts `4`, `4.0`, `4,5`, ` 4.5 `, `-1.5`, `.5`; rejects anything finer than tenths.
    fn from_str(s: &str) -> Result<Score, ScoreParseError> {
        let err = || ScoreParseError(s.to_string());
        let t = s.trim();
        let (neg, t) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (int, frac) = match t.find(['.', ',']) {
            Some(i) => (&t[..i], &t[i + 1..]),
            None => (t, ""),
        };
        if int.is_empty() && frac.is_empty() {
            return Err(err());
        }
        if !int.chars().all(|c| c.is_ascii_digit()) || !frac.chars().all(|c| c.is_ascii_digit()) {
            return Err(err());
        }
        // Trailing zeros beyond the first decimal are harmless ("4.50").
        let frac_trim = frac.trim_end_matches('0');
        if frac_trim.len() > 1 {
            return Err(err());
        }
        let i: i32 = if int.is_empty() {
            0
        } else {
            int.parse().map_err(|_| err())?
        };
        let d: i32 = frac_trim
            .chars()
            .next()
            .map(|c| c as i32 - '0' as i32)
            .unwrap_or(0);
        let v = i
            .checked_mul(10)
            .and_then(|v| v.checked_add(d))
            .ok_or_else(err)?;
        Ok(Score(if neg { -v } else { v }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_trf_forms() {
        assert_eq!("4".parse::<Score>().unwrap(), Score(40));
        assert_eq!(" 4.5".parse::<Score>().unwrap(), Score(45));
        assert_eq!("4,5".parse::<Score>().unwrap(), Score(45));
        assert_eq!("-0.5".parse::<Score>().unwrap(), Score(-5));
        assert_eq!("10.50".parse::<Score>().unwrap(), Score(105));
        assert!("4.25".parse::<Score>().is_err());
        assert!("x".parse::<Score>().is_err());
        assert!("".parse::<Score>().is_err());
    }

    #[test]
    fn displays_one_decimal() {
        assert_eq!(Score(45).to_string(), "4.5");
        assert_eq!(Score(-5).to_string(), "-0.5");
        assert_eq!(format!("{:>4}", Score(5)), " 0.5");
    }

    proptest! {
        #[test]
        fn display_parse_round_trip(t in -100_000i32..100_000) {
            prop_assert_eq!(Score(t).to_string().parse::<Score>().unwrap(), Score(t));
        }
    }
}

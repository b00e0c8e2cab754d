//! Which version of the rating regulations applies, rating categories and time controls.

use std::fmt;
use std::str::FromStr;

/// A calendar date (proleptic Gregorian), enough to pick a rule-set and a junior's age.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    pub year: i32,
    pub month: u8,
    pub day: u8,
}

impl Date {
    /// # Panics
    /// If the month or day is out of range.
    pub const fn new(year: i32, month: u8, day: u8) -> Date {
        assert!(
            month >= 1 && month <= 12 && day >= 1 && day <= 31,
            "invalid date"
        );
        Date { year, month, day }
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a date of the form YYYY-MM-DD (or YYYY/MM/DD, YYYY.MM.DD): {0:?}")]
pub struct DateParseError(pub String);

impl FromStr for Date {
    type Err = DateParseError;
    /// Accepts `2024-03-01`, `2024/03/01` (TRF) and `2024.03.01`.
    fn from_str(s: &str) -> Result<Date, DateParseError> {
        let err = || DateParseError(s.to_string());
        let t = s.trim();
        let mut it = t.split(['-', '/', '.']);
        let (y, m, d) = (
            it.next().ok_or_else(err)?,
            it.next().ok_or_else(err)?,
            it.next().ok_or_else(err)?,
        );
        if it.next().is_some() || y.len() != 4 {
            return Err(err());
        }
        let all_digits =
            |x: &str| !x.is_empty() && x.len() <= 2 && x.bytes().all(|b| b.is_ascii_digit());
        if !y.bytes().all(|b| b.is_ascii_digit()) || !all_digits(m) || !all_digits(d) {
            return Err(err());
        }
        let (y, m, d): (i32, u8, u8) = (
            y.parse().map_err(|_| err())?,
            m.parse().map_err(|_| err())?,
            d.parse().map_err(|_| err())?,
        );
        if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
            return Err(err());
        }
        Ok(Date {
            year: y,
            month: m,
            day: d,
        })
    }
}

/// A version of the FIDE Rating Regulations (B.02), named by when it took effect
/// (docs/src/auditors/agreement.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSet {
    /// `b02-2022-seed-text`: B.02 as printed in seed 001 CAPITULO VI (in force 1 Jan 2022).
    B02_2022,
    /// `b02-2024`: B.02 in force from 1 March 2024: every difference above 400
    /// counts as 400; new initial-rating method (two hypothetical 1800 draws, maximum 2200);
    /// rating floor 1400.
    B02_2024,
    /// `b02-2025-10`: the 1 October 2025 amendment: players rated 2650 or more always use the
    /// actual difference (B.02 8.3.1 as amended).
    B02_2025_10,
}

impl RuleSet {
    pub const ALL: [RuleSet; 3] = [RuleSet::B02_2022, RuleSet::B02_2024, RuleSet::B02_2025_10];

    /// The identifier recorded in emitted events and golden data.
    pub fn id(self) -> &'static str {
        match self {
            RuleSet::B02_2022 => "b02-2022-seed-text",
            RuleSet::B02_2024 => "b02-2024",
            RuleSet::B02_2025_10 => "b02-2025-10",
        }
    }

    pub fn from_id(id: &str) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|r| r.id() == id)
    }

    /// The first day on which tournaments starting that day use this rule-set.
    pub fn effective_from(self) -> Date {
        match self {
            RuleSet::B02_2022 => Date::new(2022, 1, 1),
            RuleSet::B02_2024 => Date::new(2024, 3, 1),
            RuleSet::B02_2025_10 => Date::new(2025, 10, 1),
        }
    }

    /// The newest rule-set in force on a tournament's **start** date (FIDE applies changes to
    /// tournaments starting on or after the effective date; seed 001 CAPITULO VI 0.1).
    /// `None` before 1 January 2022 (earlier regulations are not modelled).
    pub fn in_force_on(start: Date) -> Option<RuleSet> {
        RuleSet::ALL
            .into_iter()
            .rev()
            .find(|r| start >= r.effective_from())
    }

    /// The lowest published rating: a first rating must reach it and a rating that drops below
    /// it is listed as unrated (B.02 7.1.4 / 7.2.1: 1000; 2024: 1400).
    pub fn rating_floor(self) -> i32 {
        match self {
            RuleSet::B02_2022 => 1000,
            RuleSet::B02_2024 | RuleSet::B02_2025_10 => 1400,
        }
    }

    /// The highest initial rating (2024 rules: 2200; the 2022 text has none).
    pub fn max_initial_rating(self) -> Option<i32> {
        match self {
            RuleSet::B02_2022 => None,
            RuleSet::B02_2024 | RuleSet::B02_2025_10 => Some(2200),
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The rating category of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    Standard,
    Rapid,
    Blitz,
}

impl Category {
    pub fn name(self) -> &'static str {
        match self {
            Category::Standard => "standard",
            Category::Rapid => "rapid",
            Category::Blitz => "blitz",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A time control, as the thinking time one player gets for the whole game.
///
/// `base_seconds` is all fixed time (every period added up); `increment_seconds` is the per-move
/// increment. The regulations evaluate a game of 60 moves (B.02 standard and rapid/blitz 1.1-1.2),
/// so the total is `base + 60 × increment`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeControl {
    pub base_seconds: u32,
    pub increment_seconds: u32,
}

impl TimeControl {
    /// `base` minutes plus `increment` seconds per move.
    pub fn minutes_plus_increment(base_minutes: u32, increment_seconds: u32) -> TimeControl {
        TimeControl {
            base_seconds: base_minutes * 60,
            increment_seconds,
        }
    }

    /// Thinking time per player for a 60-move game, in seconds.
    pub fn seconds_for_60_moves(self) -> u32 {
        self.base_seconds + 60 * self.increment_seconds
    }

    /// `T` of the rapid/blitz regulations 1.1 in exact minutes as `(whole, remainder seconds)`.
    pub fn minutes_for_60_moves(self) -> (u32, u32) {
        let s = self.seconds_for_60_moves();
        (s / 60, s % 60)
    }

    /// The category a game with this control (same for both players) is rated in
    /// (rapid/blitz regulations 1.1-1.2): rapid if 10 < T < 60 minutes, blitz if 3 < T <= 10,
    /// standard if T >= 60 (whether a standard game reaches its per-pair minimum is
    /// [`standard_minimum_met`](Self::standard_minimum_met)); `None` when T <= 3 (not rateable).
    pub fn category(self) -> Option<Category> {
        let s = self.seconds_for_60_moves();
        if s >= 3600 {
            Some(Category::Standard)
        } else if s > 600 {
            Some(Category::Rapid)
        } else if s > 180 {
            Some(Category::Blitz)
        } else {
            None
        }
    }

    /// Standard regulations 1.1: the minimum time per player depends on the pair's ratings
    /// (120 minutes if one is rated 2400 or more, 90 if one is rated 1800 or more, else 60).
    /// Unrated players are taken as below 1800.
    pub fn standard_minimum_met(self, a: Option<u16>, b: Option<u16>) -> bool {
        self.seconds_for_60_moves() >= 60 * standard_minimum_minutes(a, b)
    }
}

/// The minimum thinking time per player (minutes, 60 moves) for a standard game between
/// players rated `a` and `b` (standard regulations 1.1).
pub fn standard_minimum_minutes(a: Option<u16>, b: Option<u16>) -> u32 {
    let hi = a.unwrap_or(0).max(b.unwrap_or(0));
    if hi >= 2400 {
        120
    } else if hi >= 1800 {
        90
    } else {
        60
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_set_by_start_date() {
        assert_eq!(RuleSet::in_force_on(Date::new(2021, 12, 31)), None);
        assert_eq!(
            RuleSet::in_force_on(Date::new(2022, 1, 1)),
            Some(RuleSet::B02_2022)
        );
        assert_eq!(
            RuleSet::in_force_on(Date::new(2024, 2, 29)),
            Some(RuleSet::B02_2022)
        );
        assert_eq!(
            RuleSet::in_force_on(Date::new(2024, 3, 1)),
            Some(RuleSet::B02_2024)
        );
        assert_eq!(
            RuleSet::in_force_on(Date::new(2025, 9, 30)),
            Some(RuleSet::B02_2024)
        );
        assert_eq!(
            RuleSet::in_force_on(Date::new(2025, 10, 1)),
            Some(RuleSet::B02_2025_10)
        );
        for r in RuleSet::ALL {
            assert_eq!(RuleSet::from_id(r.id()), Some(r));
        }
    }

    #[test]
    fn parses_dates() {
        assert_eq!("2024/03/01".parse::<Date>().unwrap(), Date::new(2024, 3, 1));
        assert_eq!(
            " 2025-10-1 ".parse::<Date>().unwrap(),
            Date::new(2025, 10, 1)
        );
        assert!("2025-13-01".parse::<Date>().is_err());
        assert!("25-10-01".parse::<Date>().is_err());
        assert!("2025-10".parse::<Date>().is_err());
    }

    #[test]
    fn standard_minimum_by_ratings() {
        assert_eq!(standard_minimum_minutes(Some(2400), Some(1500)), 120);
        assert_eq!(standard_minimum_minutes(Some(1800), None), 90);
        assert_eq!(standard_minimum_minutes(Some(1799), Some(1700)), 60);
        let tc = TimeControl::minutes_plus_increment(60, 30); // 90 minutes
        assert!(tc.standard_minimum_met(Some(2000), Some(1900)));
        assert!(!tc.standard_minimum_met(Some(2400), Some(1900)));
        assert_eq!(
            TimeControl::minutes_plus_increment(3, 2).category(),
            Some(Category::Blitz)
        );
        assert_eq!(TimeControl::minutes_plus_increment(2, 1).category(), None); // T = 3 is not > 3
        assert_eq!(TimeControl::minutes_plus_increment(2, 0).category(), None);
        assert_eq!(
            TimeControl {
                base_seconds: 150,
                increment_seconds: 1
            }
            .minutes_for_60_moves(),
            (3, 30)
        );
    }
}

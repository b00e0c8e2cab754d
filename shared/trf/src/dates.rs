//! Dates as real programs write them (tolerant reading only).
//!
//! TRF16 records 132 and 001 fix `YY/MM/DD` for round dates and `YYYY/MM/DD` for birth dates, but
//! files from older programs carry dots, dashes, day-first orders, four-digit years in `132` and
//! placeholders such as `.  .`. Nothing pairs or ranks by these dates, so a date that cannot be
//! read is dropped with a warning instead of refusing the file; one that can be read is normalised
//! and the warning says which order was assumed.

use crate::model::{BirthDate, RoundDate};

/// The order of the three parts of a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    Ymd,
    Dmy,
    Mdy,
}

impl Order {
    fn name(self, sep: char, long_year: bool) -> String {
        let y = if long_year { "YYYY" } else { "YY" };
        let parts = match self {
            Order::Ymd => [y, "MM", "DD"],
            Order::Dmy => ["DD", "MM", y],
            Order::Mdy => ["MM", "DD", y],
        };
        parts.join(&sep.to_string())
    }
}

/// A date split at its separator: the separator and the three parts (blank parts kept).
struct Split<'a> {
    sep: char,
    parts: Vec<&'a str>,
}

fn split(s: &str) -> Option<Split<'_>> {
    let sep = s.chars().find(|c| matches!(c, '/' | '.' | '-'))?;
    let parts: Vec<&str> = s.split(sep).map(str::trim).collect();
    Some(Split { sep, parts })
}

fn num(s: &str) -> Option<u32> {
    if !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

pub(crate) fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        _ => 0,
    }
}

/// The orders to try for a separator, the file convention first: slashes are TRF's own
/// `YY/MM/DD` (TRF16 record 132), dots the European day-first `DD.MM.YY`, dashes ISO `YY-MM-DD`.
pub(crate) fn orders_for(sep: char) -> [Order; 3] {
    match sep {
        '.' => [Order::Dmy, Order::Mdy, Order::Ymd],
        _ => [Order::Ymd, Order::Dmy, Order::Mdy],
    }
}

/// A round date (`132`) under one order, or `None` when impossible in that order.
pub(crate) fn round_date_in(s: &str, order: Order) -> Option<RoundDate> {
    let Split { parts, .. } = split(s.trim())?;
    let [a, b, c] = parts.as_slice() else {
        return None;
    };
    let (y, m, d) = match order {
        Order::Ymd => (a, b, c),
        Order::Dmy => (c, b, a),
        Order::Mdy => (c, a, b),
    };
    if y.len() != 2 && y.len() != 4 || m.len() > 2 || d.len() > 2 {
        return None;
    }
    let (year, month, day) = (num(y)?, num(m)?, num(d)?);
    let full_year = if y.len() == 2 { 2000 + year } else { year };
    let ok = (1..=12).contains(&month) && day >= 1 && day <= days_in_month(full_year, month);
    ok.then_some(RoundDate {
        yy: (year % 100) as u8,
        month: month as u8,
        day: day as u8,
    })
}

/// The separator of a date text, when it has one.
pub(crate) fn separator(s: &str) -> Option<char> {
    split(s.trim()).map(|s| s.sep)
}

/// Describes an order for a warning: `DD.MM.YY`, `YYYY-MM-DD`, ...
pub(crate) fn order_name(s: &str, order: Order) -> String {
    let sp = split(s.trim());
    let sep = sp.as_ref().map(|s| s.sep).unwrap_or('/');
    let long = sp.is_some_and(|s| s.parts.iter().any(|p| p.len() == 4));
    order.name(sep, long)
}

/// What a tolerant reading made of a birth date.
pub(crate) enum BirthReading {
    /// A date, with the layout it was read in.
    Date(BirthDate, String),
    /// A placeholder with no digits (`.  .`, `--`): no date.
    Placeholder,
    /// Not a date in any layout we know.
    Unreadable,
}

/// A birth date in the layouts real files use: `YYYY.MM.DD`, `YYYY-MM-DD`, `DD.MM.YYYY`,
/// `DD/MM/YYYY`, partial dates with blank or zero parts, `YYYY/MM`, placeholders.
pub(crate) fn birth_date_tolerant(s: &str) -> BirthReading {
    let s = s.trim();
    if !s.is_empty() && !s.chars().any(|c| c.is_ascii_digit()) {
        return if s.chars().all(|c| matches!(c, '.' | '/' | '-' | ' ')) {
            BirthReading::Placeholder
        } else {
            BirthReading::Unreadable
        };
    }
    let Some(Split { sep, parts }) = split(s) else {
        return BirthReading::Unreadable;
    };
    // A blank part is an unknown month or day, written 00 by TRF.
    let val = |p: &str| if p.is_empty() { Some(0) } else { num(p) };
    let (year, month, day, layout) = match parts.as_slice() {
        [y, m, d] if y.len() == 4 => match (num(y), val(m), val(d)) {
            (Some(y), Some(m), Some(d)) => (y, m, d, Order::Ymd.name(sep, true)),
            _ => return BirthReading::Unreadable,
        },
        [d, m, y] if y.len() == 4 => match (num(y), val(m), val(d)) {
            // Day-first unless the month would be impossible (then month-first).
            (Some(y), Some(m), Some(d)) if m > 12 && d <= 12 => {
                (y, d, m, Order::Mdy.name(sep, true))
            }
            (Some(y), Some(m), Some(d)) => (y, m, d, Order::Dmy.name(sep, true)),
            _ => return BirthReading::Unreadable,
        },
        [y, m] if y.len() == 4 => match (num(y), val(m)) {
            (Some(y), Some(m)) => (y, m, 0, format!("YYYY{sep}MM")),
            _ => return BirthReading::Unreadable,
        },
        [m, y] if y.len() == 4 => match (num(y), val(m)) {
            (Some(y), Some(m)) => (y, m, 0, format!("MM{sep}YYYY")),
            _ => return BirthReading::Unreadable,
        },
        [y, rest @ ..] if y.len() == 4 && rest.iter().all(|p| p.is_empty()) => match num(y) {
            Some(y) => (y, 0, 0, format!("YYYY{sep}")),
            None => return BirthReading::Unreadable,
        },
        _ => return BirthReading::Unreadable,
    };
    let ok = match (month, day) {
        (0, _) => day == 0,
        (1..=12, 0) => true,
        (1..=12, d) => d <= days_in_month(year, month),
        _ => false,
    };
    if !ok {
        return BirthReading::Unreadable;
    }
    BirthReading::Date(
        BirthDate::Full {
            year: year as u16,
            month: month as u8,
            day: day as u8,
        },
        layout,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rd(s: &str, o: Order) -> Option<String> {
        round_date_in(s, o).map(|d| d.to_string())
    }

    #[test]
    fn round_dates_in_each_order() {
        assert_eq!(rd("10.09.13", Order::Dmy).as_deref(), Some("13/09/10"));
        assert_eq!(rd("11.25.02", Order::Dmy), None);
        assert_eq!(rd("11.25.02", Order::Mdy).as_deref(), Some("02/11/25"));
        assert_eq!(rd("2013-09-10", Order::Ymd).as_deref(), Some("13/09/10"));
        assert_eq!(rd("10.09.2013", Order::Dmy).as_deref(), Some("13/09/10"));
        assert_eq!(rd("13/02/30", Order::Ymd), None);
    }

    #[test]
    fn birth_dates_in_real_layouts() {
        let b = |s: &str| match birth_date_tolerant(s) {
            BirthReading::Date(d, l) => format!("{d} {l}"),
            BirthReading::Placeholder => "placeholder".into(),
            BirthReading::Unreadable => "unreadable".into(),
        };
        assert_eq!(b("1969.12.06"), "1969/12/06 YYYY.MM.DD");
        assert_eq!(b("1993-12-20"), "1993/12/20 YYYY-MM-DD");
        assert_eq!(b("06.12.1969"), "1969/12/06 DD.MM.YYYY");
        assert_eq!(b("12/31/1969"), "1969/12/31 MM/DD/YYYY");
        assert_eq!(b("1969.  .  "), "1969/00/00 YYYY.MM.DD");
        assert_eq!(b("1969/12"), "1969/12/00 YYYY/MM");
        assert_eq!(b(".  ."), "placeholder");
        assert_eq!(b("unknown"), "unreadable");
        assert_eq!(b("1969.13.40"), "unreadable");
    }
}

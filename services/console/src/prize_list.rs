//! The prize list: the prize fund as the arbiter types it (place prizes, the method for ties
//! announced in the regulations, an optional rating-band prize list) applied to the standings
//! the reporting service gives, by `arbiter-prizes`. Nothing is stored: the screen's address
//! holds the fund, so a proposed list can be bookmarked, printed and checked again later.

use arbiter_core::Score;
use arbiter_prizes::{
    Amount, Category, Distribution, Entrants, Method, Policy, PrizeFund, ScoreGroup, SharingScope,
    Source, distribute,
};
use arbiter_proto::reporting::v1 as rep;
use serde::Deserialize;

/// The form, as submitted (every field may be missing).
#[derive(Debug, Default, Deserialize)]
pub struct PrizeForm {
    #[serde(default)]
    pub places: String,
    #[serde(default)]
    pub method: String,
    #[serde(default)]
    pub scope: String,
    /// One prize per player (the highest open to them); on unless the form says `no`.
    #[serde(default)]
    pub one_prize: String,
    #[serde(default)]
    pub band_name: String,
    #[serde(default)]
    pub band_below: String,
    #[serde(default)]
    pub band_prizes: String,
}

/// Why the prize list cannot be computed, for the form to say.
#[derive(Debug, PartialEq, Eq)]
pub enum FormError {
    /// `field`'s item `index` (from 1) is not an amount.
    Amount {
        field: &'static str,
        index: usize,
        text: String,
    },
    /// The rating band's limit is not a rating.
    Band(String),
    /// What `arbiter-prizes` refused, in its words.
    Prizes(String),
}

/// One line of the proposed prize list.
#[derive(Debug)]
pub struct Line {
    pub rank: String,
    pub id: u32,
    pub name: String,
    pub rating: u32,
    pub points: i32,
    pub paid: i64,
    pub exact: Amount,
    /// What the award is made of: (list, place) per portion; `None` place when the player
    /// shares a group's pool below the prize places.
    pub portions: Vec<(Option<String>, Option<usize>)>,
}

/// The computed list.
#[derive(Debug)]
pub struct PrizeList {
    pub lines: Vec<Line>,
    pub fund_total: i128,
    pub paid_total: i128,
    /// Prizes no player could take: (list, place, amount).
    pub unawarded: Vec<(Option<String>, usize, i64)>,
}

impl PrizeForm {
    /// The announced method, if one is chosen (the regulations must name it: no default).
    pub fn method(&self) -> Option<Method> {
        match self.method.as_str() {
            "equal" => Some(Method::Equal),
            "tie-break" => Some(Method::TieBreak),
            "hort" => Some(Method::Hort),
            _ => None,
        }
    }

    fn policy(&self, method: Method) -> Policy {
        Policy {
            method,
            scope: if self.scope == "all-tied" {
                SharingScope::AllTied
            } else {
                SharingScope::PrizePlaces
            },
            one_prize_per_player: self.one_prize != "no",
        }
    }

    /// The prize list for `standings`, or `None` when no method is chosen yet.
    pub fn compute(&self, standings: &rep::Standings) -> Option<Result<PrizeList, FormError>> {
        let method = self.method()?;
        Some(self.compute_with(method, standings))
    }

    fn compute_with(&self, method: Method, st: &rep::Standings) -> Result<PrizeList, FormError> {
        let mut fund: PrizeFund<u32> = PrizeFund::places(amounts("places", &self.places)?);
        let band_name = self.band_name.trim();
        let band_prizes = amounts("band_prizes", &self.band_prizes)?;
        if !band_prizes.is_empty() {
            let below: u32 = self
                .band_below
                .trim()
                .parse()
                .map_err(|_| FormError::Band(self.band_below.trim().to_string()))?;
            // Rated players below the limit, in standings order; unrated players are not in a
            // rating band.
            let eligible = st
                .rows
                .iter()
                .filter(|r| r.rating > 0 && r.rating < below)
                .map(|r| r.player_id)
                .collect();
            fund = fund.with_category(Category {
                name: band_label(band_name, below),
                prizes: band_prizes,
                entrants: Entrants::Standings(eligible),
            });
        }
        let d = distribute(&score_groups(st), &fund, &self.policy(method))
            .map_err(|e| FormError::Prizes(e.to_string()))?;
        Ok(list(st, &fund, &d))
    }
}

/// A band's name as typed, or "below N".
fn band_label(name: &str, below: u32) -> String {
    if name.is_empty() {
        format!("< {below}")
    } else {
        name.to_string()
    }
}

/// The standings as score groups, players in tie-break order.
fn score_groups(st: &rep::Standings) -> Vec<ScoreGroup<u32>> {
    let mut groups: Vec<ScoreGroup<u32>> = Vec::new();
    for r in &st.rows {
        match groups.last_mut() {
            Some(g) if g.points == Score::from_tenths(r.points) => g.players.push(r.player_id),
            _ => groups.push(ScoreGroup::new(
                Score::from_tenths(r.points),
                vec![r.player_id],
            )),
        }
    }
    groups
}

fn list(st: &rep::Standings, fund: &PrizeFund<u32>, d: &Distribution<u32>) -> PrizeList {
    let source_name = |s: Source| match s {
        Source::Places => None,
        Source::Category(i) => fund.categories.get(i).map(|c| c.name.clone()),
    };
    let lines = st
        .rows
        .iter()
        .filter_map(|r| {
            let a = d.award(&r.player_id)?;
            Some(Line {
                rank: if !r.place.is_empty() {
                    r.place.clone()
                } else if r.rank_to > r.rank {
                    format!("{}-{}", r.rank, r.rank_to)
                } else {
                    r.rank.to_string()
                },
                id: r.player_id,
                name: r.name.clone(),
                rating: r.rating,
                points: r.points,
                paid: a.paid,
                exact: a.exact,
                portions: a
                    .portions
                    .iter()
                    .map(|p| (source_name(p.source), p.place))
                    .collect(),
            })
        })
        .collect();
    PrizeList {
        lines,
        fund_total: fund.total(),
        paid_total: d.paid_total(),
        unawarded: d
            .unawarded
            .iter()
            .map(|p| (source_name(p.source), p.place, p.amount))
            .collect(),
    }
}

/// Amounts in currency units with at most two decimals (`1000`, `262.50`), separated by
/// commas, semicolons, spaces or lines, as minor units (cents).
pub fn amounts(field: &'static str, text: &str) -> Result<Vec<i64>, FormError> {
    text.split([',', ';', ' ', '\t', '\n', '\r'])
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| {
            minor_units(t).ok_or_else(|| FormError::Amount {
                field,
                index: i + 1,
                text: t.to_string(),
            })
        })
        .collect()
}

fn minor_units(t: &str) -> Option<i64> {
    let (whole, cents) = match t.split_once('.') {
        Some((w, c)) if (1..=2).contains(&c.len()) => (w, c),
        Some(_) => return None,
        None => (t, "0"),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(cents) {
        return None;
    }
    let cents: i64 = if cents.len() == 1 {
        cents.parse::<i64>().ok()? * 10
    } else {
        cents.parse().ok()?
    };
    whole
        .parse::<i64>()
        .ok()?
        .checked_mul(100)?
        .checked_add(cents)
}

/// Minor units written as currency units: `26250` → `262.50`.
pub fn money(minor: i128) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let a = minor.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// An exact amount in minor units written in currency units, never rounded: `86250` →
/// `862.5`, `10000/3` → `100/3`.
pub fn exact_money(a: Amount) -> String {
    Amount::new(a.numer(), a.denom() * 100).map_or_else(|| a.to_string(), |x| x.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: u32, rank: u32, rank_to: u32, points: i32, rating: u32) -> rep::StandingRow {
        rep::StandingRow {
            player_id: id,
            rank,
            rank_to,
            points,
            rating,
            name: format!("P{id}"),
            ..Default::default()
        }
    }

    #[test]
    fn amounts_are_read_exactly_and_bad_ones_are_named() {
        assert_eq!(
            amounts("places", "1000, 262.50;3.5\n0.05"),
            Ok(vec![100000, 26250, 350, 5])
        );
        assert_eq!(
            amounts("places", "100 1e3"),
            Err(FormError::Amount {
                field: "places",
                index: 2,
                text: "1e3".into()
            })
        );
        assert!(amounts("places", "1.234").is_err());
        assert!(amounts("places", "-5").is_err());
        assert_eq!(money(26250), "262.50");
        assert_eq!(exact_money(Amount::new(10000, 3).unwrap()), "100/3");
        assert_eq!(exact_money(Amount::new(172500, 2).unwrap()), "862.5");
    }

    /// Two players tied for first under the Hort system, a band prize for the rated player
    /// below 2000 who would otherwise win nothing, and the fund paid out to the cent.
    #[test]
    fn the_standings_become_a_prize_list() {
        let st = rep::Standings {
            rows: vec![
                row(3, 1, 2, 40, 2300),
                row(1, 1, 2, 40, 2250),
                row(2, 3, 3, 30, 2100),
                row(4, 4, 4, 20, 1900),
                row(5, 5, 5, 10, 0),
            ],
            ..Default::default()
        };
        let form = PrizeForm {
            places: "1000 500 250".into(),
            method: "hort".into(),
            band_below: "2000".into(),
            band_prizes: "100".into(),
            ..PrizeForm::default()
        };
        let l = form.compute(&st).unwrap().unwrap();
        let paid: Vec<(u32, i64)> = l.lines.iter().map(|x| (x.id, x.paid)).collect();
        // Hort: the group holds 1000 + 500; halves by tie-break (500, 250), the other 750
        // shared (375 each).
        assert_eq!(
            paid,
            [(3, 87500), (1, 62500), (2, 25000), (4, 10000), (5, 0)]
        );
        assert_eq!(l.lines[0].rank, "1-2");
        assert_eq!(l.fund_total, 185000);
        assert_eq!(l.paid_total, 185000);
        assert!(l.unawarded.is_empty());
        assert_eq!(l.lines[3].portions, [(Some("< 2000".to_string()), Some(1))]);
        // No method chosen: nothing is computed.
        assert!(PrizeForm::default().compute(&st).is_none());
        let bad = PrizeForm {
            band_prizes: "100".into(),
            band_below: "two thousand".into(),
            ..form
        };
        assert_eq!(
            bad.compute(&st).unwrap().unwrap_err(),
            FormError::Band("two thousand".into())
        );
    }
}

//! The prize list: the prize fund (place prizes, the method for ties announced in the
//! regulations, category prize lists) applied to the standings the reporting service gives, by
//! `arbiter-prizes`. The fund is the one announced with the tournament (`TournamentUpdated`'s
//! prize fund) unless the screen's address holds one being tried; announcing the one typed
//! records it in the log.

use arbiter_core::Score;
use arbiter_core::tournament::{PrizeCategory, PrizeFund as Announced, PrizeSharing};
use arbiter_prizes::{
    Amount, Category, Distribution, Entrants, Method, Policy, PrizeFund, ScoreGroup, SharingScope,
    Source, distribute, rank_by_key,
};
use arbiter_proto::reporting::v1 as rep;
use serde::Deserialize;
use std::collections::HashMap;

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
    /// ISO 4217 code, e.g. EUR (optional).
    #[serde(default)]
    pub currency: String,
    /// Category prize lists, one a line: `NAME; CONDITIONS; PRIZES` (see [`category`]).
    #[serde(default)]
    pub categories: String,
}

/// What the standings do not say about a player and a category may ask: sex and birth year
/// (from the registration), and the points scored against expectation in thousandths (from
/// the rating worker; absent without rated games).
#[derive(Debug, Clone, Default)]
pub struct PlayerFacts {
    pub female: bool,
    pub birth_year: Option<i32>,
    pub gain_milli: Option<i64>,
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
    /// Category line `line` (from 1) cannot be read: why.
    Category { line: usize, why: String },
    /// What the service refused when the fund was announced, in its words.
    Announce(String),
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
    /// Whether the form holds anything (a fund being tried) or is the bare screen.
    pub fn is_empty(&self) -> bool {
        [
            &self.places,
            &self.method,
            &self.scope,
            &self.one_prize,
            &self.currency,
            &self.categories,
        ]
        .iter()
        .all(|f| f.trim().is_empty())
    }

    /// The form showing an announced fund.
    pub fn from_fund(f: &Announced) -> PrizeForm {
        let amounts = |a: &[i64]| {
            a.iter()
                .map(|&m| money(i128::from(m)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        PrizeForm {
            places: amounts(&f.places),
            method: match f.sharing {
                PrizeSharing::Equal => "equal",
                PrizeSharing::TieBreak => "tie-break",
                PrizeSharing::Hort => "hort",
            }
            .into(),
            scope: if f.share_among_all_tied {
                "all-tied".into()
            } else {
                String::new()
            },
            one_prize: if f.several_prizes_per_player {
                "no".into()
            } else {
                String::new()
            },
            currency: f.currency.clone(),
            categories: f
                .categories
                .iter()
                .map(|c| format!("{}; {}; {}", c.name, conditions_text(c), amounts(&c.prizes)))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// The fund the form stands for, as the regulations would announce it; `None` when no
    /// method is chosen yet (the regulations must name it: no default).
    pub fn fund(&self) -> Option<Result<Announced, FormError>> {
        let sharing = match self.method.as_str() {
            "equal" => PrizeSharing::Equal,
            "tie-break" => PrizeSharing::TieBreak,
            "hort" => PrizeSharing::Hort,
            _ => return None,
        };
        let read = || -> Result<Announced, FormError> {
            let mut categories = Vec::new();
            for (i, line) in self.categories.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                categories
                    .push(category(line).map_err(|why| FormError::Category { line: i + 1, why })?);
            }
            Ok(Announced {
                currency: self.currency.trim().to_ascii_uppercase(),
                places: amounts("places", &self.places)?,
                sharing,
                share_among_all_tied: self.scope == "all-tied",
                several_prizes_per_player: self.one_prize == "no",
                categories,
            })
        };
        Some(read())
    }
}

/// A category line: `NAME; CONDITIONS; PRIZES`. Conditions, separated by spaces or commas,
/// all of which must hold: `rating<2000`, `rating>=1600`, `unrated`, `women`, `born>=2008`,
/// `born<=1961`, `fed=ESP`, and `gain` to rank by the points scored against expectation
/// instead of the standings; none = every player. Prizes as for the places.
pub fn category(line: &str) -> Result<PrizeCategory, String> {
    let parts: Vec<&str> = line.split(';').map(str::trim).collect();
    let [name, conditions, prizes] = parts[..] else {
        return Err(format!(
            "{line:?}: NAME; CONDITIONS; PRIZES, e.g. \"Under 2000; rating<2000; 100 50\""
        ));
    };
    let mut c = PrizeCategory {
        name: name.to_string(),
        prizes: amounts("prizes", prizes).map_err(|e| match e {
            FormError::Amount { text, .. } => format!("{text:?} is not an amount"),
            other => format!("{other:?}"),
        })?,
        ..Default::default()
    };
    for word in conditions
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
    {
        let number = |v: &str| {
            v.parse::<u32>()
                .map_err(|_| format!("{word:?}: {v:?} is not a number"))
        };
        let year = |v: &str| {
            v.parse::<i32>()
                .map_err(|_| format!("{word:?}: {v:?} is not a year"))
        };
        let w = word.to_ascii_lowercase();
        if let Some(v) = w.strip_prefix("rating<") {
            c.rating_below = Some(number(v)?);
        } else if let Some(v) = w.strip_prefix("rating>=") {
            c.rating_from = Some(number(v)?);
        } else if let Some(v) = w.strip_prefix("born>=") {
            c.born_from_year = Some(year(v)?);
        } else if let Some(v) = w.strip_prefix("born<=") {
            c.born_until_year = Some(year(v)?);
        } else if let Some(v) = w.strip_prefix("fed=") {
            c.federation = Some(v.to_ascii_uppercase());
        } else {
            match w.as_str() {
                "unrated" => c.unrated_only = true,
                "women" | "woman" | "female" => c.women = true,
                "gain" | "rating-gain" => c.by_rating_gain = true,
                _ => {
                    return Err(format!(
                        "{word:?} is not a condition: rating<N, rating>=N, unrated, women, \
                         born>=YEAR, born<=YEAR, fed=CODE or gain"
                    ));
                }
            }
        }
    }
    Ok(c)
}

/// A category's conditions as [`category`] reads them.
fn conditions_text(c: &PrizeCategory) -> String {
    let mut w = Vec::new();
    if let Some(r) = c.rating_from {
        w.push(format!("rating>={r}"));
    }
    if let Some(r) = c.rating_below {
        w.push(format!("rating<{r}"));
    }
    if c.unrated_only {
        w.push("unrated".into());
    }
    if c.women {
        w.push("women".into());
    }
    if let Some(y) = c.born_from_year {
        w.push(format!("born>={y}"));
    }
    if let Some(y) = c.born_until_year {
        w.push(format!("born<={y}"));
    }
    if let Some(f) = &c.federation {
        w.push(format!("fed={f}"));
    }
    if c.by_rating_gain {
        w.push("gain".into());
    }
    w.join(" ")
}

/// Whether the player of standings row `r` may win category `c`.
fn eligible(c: &PrizeCategory, r: &rep::StandingRow, facts: Option<&PlayerFacts>) -> bool {
    let rated = r.rating > 0;
    let year = facts.and_then(|f| f.birth_year);
    c.rating_from.is_none_or(|from| rated && r.rating >= from)
        && c.rating_below.is_none_or(|below| rated && r.rating < below)
        && (!c.unrated_only || !rated)
        && (!c.women || facts.is_some_and(|f| f.female))
        && c.born_from_year
            .is_none_or(|y| year.is_some_and(|b| b >= y))
        && c.born_until_year
            .is_none_or(|y| year.is_some_and(|b| b <= y))
        && c.federation
            .as_ref()
            .is_none_or(|f| r.federation.eq_ignore_ascii_case(f))
}

/// The prize list of `fund` for `st`: place prizes by the standings, each category among its
/// eligible players, ranked by the standings or by their gain.
pub fn compute(
    fund: &Announced,
    st: &rep::Standings,
    facts: &HashMap<u32, PlayerFacts>,
) -> Result<PrizeList, FormError> {
    let groups = score_groups(st);
    let mut prizes: PrizeFund<u32> = PrizeFund::places(fund.places.clone());
    for c in &fund.categories {
        let players: Vec<u32> = st
            .rows
            .iter()
            .filter(|r| eligible(c, r, facts.get(&r.pairing_number)))
            .map(|r| r.pairing_number)
            .collect();
        let entrants = if c.by_rating_gain {
            let values: Vec<(u32, i64)> = players
                .iter()
                .filter_map(|p| Some((*p, facts.get(p)?.gain_milli?)))
                .collect();
            Entrants::Ranked(
                rank_by_key(&groups, &values).map_err(|e| FormError::Prizes(e.to_string()))?,
            )
        } else {
            Entrants::Standings(players)
        };
        prizes = prizes.with_category(Category {
            name: c.name.clone(),
            prizes: c.prizes.clone(),
            entrants,
        });
    }
    let policy = Policy {
        method: match fund.sharing {
            PrizeSharing::Equal => Method::Equal,
            PrizeSharing::TieBreak => Method::TieBreak,
            PrizeSharing::Hort => Method::Hort,
        },
        scope: if fund.share_among_all_tied {
            SharingScope::AllTied
        } else {
            SharingScope::PrizePlaces
        },
        one_prize_per_player: !fund.several_prizes_per_player,
    };
    let d = distribute(&groups, &prizes, &policy).map_err(|e| FormError::Prizes(e.to_string()))?;
    Ok(list(st, &prizes, &d))
}

/// The standings as score groups, players in tie-break order.
fn score_groups(st: &rep::Standings) -> Vec<ScoreGroup<u32>> {
    let mut groups: Vec<ScoreGroup<u32>> = Vec::new();
    for r in &st.rows {
        match groups.last_mut() {
            Some(g) if g.points == Score::from_tenths(arbiter_proto::tenths(r.score.as_ref())) => {
                g.players.push(r.pairing_number)
            }
            _ => groups.push(ScoreGroup::new(
                Score::from_tenths(arbiter_proto::tenths(r.score.as_ref())),
                vec![r.pairing_number],
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
            let a = d.award(&r.pairing_number)?;
            Some(Line {
                rank: if !r.place.is_empty() {
                    r.place.clone()
                } else if r.rank_to > r.rank {
                    format!("{}-{}", r.rank, r.rank_to)
                } else {
                    r.rank.to_string()
                },
                id: r.pairing_number,
                name: r.name.clone(),
                rating: r.rating,
                points: arbiter_proto::tenths(r.score.as_ref()),
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
            pairing_number: id,
            rank,
            rank_to,
            score: Some(arbiter_proto::common::v1::Decimal::tenths(points)),
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
            categories: "Under 2000; rating<2000; 100".into(),
            ..PrizeForm::default()
        };
        let fund = form.fund().unwrap().unwrap();
        // The fund shown again reads the same.
        assert_eq!(PrizeForm::from_fund(&fund).fund().unwrap().unwrap(), fund);
        let l = compute(&fund, &st, &HashMap::new()).unwrap();
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
        assert_eq!(
            l.lines[3].portions,
            [(Some("Under 2000".to_string()), Some(1))]
        );
        // No method chosen: nothing is computed.
        assert!(PrizeForm::default().fund().is_none());
        let bad = PrizeForm {
            categories: "\nUnder 2000; rating<two-thousand; 100".into(),
            ..form
        };
        let e = bad.fund().unwrap().unwrap_err();
        assert!(
            matches!(&e, FormError::Category { line: 2, why } if why.contains("two-thousand")),
            "{e:?}"
        );
    }

    /// Categories by sex, birth year, federation and rating gain pick their players from what
    /// registration and the rating worker say of them.
    #[test]
    fn categories_pick_their_players() {
        let mut st = rep::Standings {
            rows: vec![
                row(1, 1, 1, 40, 2300),
                row(2, 2, 2, 30, 2100),
                row(3, 3, 3, 20, 1900),
                row(4, 4, 4, 10, 0),
            ],
            ..Default::default()
        };
        st.rows[2].federation = "ESP".into();
        let facts: HashMap<u32, PlayerFacts> = [
            (
                2,
                PlayerFacts {
                    female: true,
                    birth_year: Some(2010),
                    gain_milli: Some(-300),
                },
            ),
            (
                3,
                PlayerFacts {
                    female: true,
                    birth_year: Some(1990),
                    gain_milli: Some(1_200),
                },
            ),
            (
                4,
                PlayerFacts {
                    female: false,
                    birth_year: Some(2011),
                    gain_milli: None,
                },
            ),
        ]
        .into();
        let form = PrizeForm {
            places: "100".into(),
            method: "tie-break".into(),
            one_prize: "no".into(),
            categories: [
                "Women; women; 30",
                "Juniors; born>=2008; 20",
                "Spain; fed=ESP; 15",
                "Unrated; unrated; 5",
                "Gain; gain; 10",
            ]
            .join("\n"),
            ..PrizeForm::default()
        };
        let fund = form.fund().unwrap().unwrap();
        let l = compute(&fund, &st, &facts).unwrap();
        let from = |id: u32| -> Vec<String> {
            l.lines
                .iter()
                .find(|x| x.id == id)
                .map(|x| x.portions.iter().filter_map(|(n, _)| n.clone()).collect())
                .unwrap_or_default()
        };
        assert_eq!(from(2), ["Women", "Juniors"]);
        assert_eq!(from(3), ["Spain", "Gain"]);
        assert_eq!(from(4), ["Unrated"]);
        assert_eq!(l.paid_total, l.fund_total);
    }
}

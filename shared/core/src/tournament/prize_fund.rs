//! An event's prize fund as its regulations announce it (Arbiters' Manual, appendix on cash
//! prizes): place prizes, how ties are paid, and category prize lists with who may win them.
//! The aggregate only checks and keeps it; the prize list is computed from it and the
//! standings by arbiter-prizes.

use serde::{Deserialize, Serialize};

/// How tied players are paid; the regulations must say which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PrizeSharing {
    Equal,
    TieBreak,
    Hort,
}

/// Amounts in minor units of `currency` (cents).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrizeFund {
    pub currency: String,
    pub places: Vec<i64>,
    pub sharing: PrizeSharing,
    pub share_among_all_tied: bool,
    pub several_prizes_per_player: bool,
    pub categories: Vec<PrizeCategory>,
}

/// A category prize list; every condition given must hold for a player to be eligible.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PrizeCategory {
    pub name: String,
    pub prizes: Vec<i64>,
    pub rating_from: Option<u32>,
    pub rating_below: Option<u32>,
    pub unrated_only: bool,
    pub women: bool,
    pub born_from_year: Option<i32>,
    pub born_until_year: Option<i32>,
    pub federation: Option<String>,
    pub by_rating_gain: bool,
}

impl PrizeFund {
    /// What the regulations cannot announce: a negative amount, a category without a name
    /// or prizes, limits that exclude everyone. The error names the field.
    pub fn check(&self) -> Result<(), (String, String)> {
        let bad = |f: String, m: &str| Err((f, m.to_string()));
        if let Some(i) = self.places.iter().position(|&a| a < 0) {
            return bad(format!("prize_fund.places[{i}]"), "a prize is not negative");
        }
        let code = |c: &str| c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase());
        if !self.currency.is_empty() && !code(&self.currency) {
            return bad(
                "prize_fund.currency".into(),
                "a three-letter currency code (ISO 4217), e.g. EUR",
            );
        }
        for (i, c) in self.categories.iter().enumerate() {
            let f = |x: &str| format!("prize_fund.categories[{i}].{x}");
            if c.name.trim().is_empty() {
                return bad(f("name"), "a category needs a name");
            }
            if c.prizes.is_empty() {
                return bad(f("prizes"), "a category needs at least one prize");
            }
            if let Some(j) = c.prizes.iter().position(|&a| a < 0) {
                return bad(f(&format!("prizes[{j}]")), "a prize is not negative");
            }
            if let (Some(a), Some(b)) = (c.rating_from, c.rating_below)
                && a >= b
            {
                return bad(
                    f("rating_below"),
                    "the band is empty: below must exceed from",
                );
            }
            if c.unrated_only && (c.rating_from.is_some() || c.rating_below.is_some()) {
                return bad(f("unrated_only"), "unrated players are in no rating band");
            }
            if let (Some(a), Some(b)) = (c.born_from_year, c.born_until_year)
                && a > b
            {
                return bad(f("born_until_year"), "no year is both from and until");
            }
            if let Some(fed) = &c.federation
                && !code(fed)
            {
                return bad(f("federation"), "a three-letter FIDE federation code");
            }
        }
        Ok(())
    }
}

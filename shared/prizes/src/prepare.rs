//! Input checks, and the standings and prize lists turned into player indices.

use crate::error::PrizeError;
use crate::input::{Entrants, PrizeFund, ScoreGroup};
use std::collections::{HashMap, HashSet};
use std::fmt::Display;
use std::hash::Hash;

pub(crate) const PLACES: &str = "place prizes";

/// One prize list (the place prizes, or a category) ready for assignment.
pub(crate) struct List {
    pub amounts: Vec<i64>,
    /// Entrants by index into [`Prepared::players`], best first, ties grouped.
    pub ranking: Vec<Vec<usize>>,
}

pub(crate) struct Prepared<'a, P> {
    /// Every player in standings order.
    pub players: Vec<&'a P>,
    /// Index 0 is the place prizes, then the categories in the fund's order.
    pub lists: Vec<List>,
}

pub(crate) fn prepare<'a, P>(
    standings: &'a [ScoreGroup<P>],
    fund: &PrizeFund<P>,
) -> Result<Prepared<'a, P>, PrizeError>
where
    P: Eq + Hash + Display,
{
    if fund.places.is_empty() && fund.categories.is_empty() {
        return Err(PrizeError::NoPrizes);
    }
    check_amounts(PLACES, &fund.places)?;
    for c in &fund.categories {
        if c.prizes.is_empty() {
            return Err(PrizeError::EmptyCategory {
                category: c.name.clone(),
            });
        }
        check_amounts(&c.name, &c.prizes)?;
    }
    if fund.total() > i128::from(i64::MAX) {
        return Err(PrizeError::FundTooLarge);
    }
    if standings.is_empty() {
        return Err(PrizeError::NoPlayers);
    }

    let mut players = Vec::new();
    let mut index: HashMap<&P, usize> = HashMap::new();
    let mut general = Vec::with_capacity(standings.len());
    for (g, group) in standings.iter().enumerate() {
        if group.players.is_empty() {
            return Err(empty_group(PLACES, g));
        }
        // Equal points are allowed: a play-off splits one score into several groups.
        if g > 0 && group.points > standings[g - 1].points {
            return Err(PrizeError::GroupsOutOfOrder { group: g + 1 });
        }
        let mut members = Vec::with_capacity(group.players.len());
        for p in &group.players {
            if index.insert(p, players.len()).is_some() {
                return Err(PrizeError::DuplicatePlayer {
                    player: p.to_string(),
                });
            }
            members.push(players.len());
            players.push(p);
        }
        general.push(members);
    }

    let mut lists = vec![List {
        amounts: fund.places.clone(),
        ranking: general.clone(),
    }];
    for c in &fund.categories {
        let ranking = match &c.entrants {
            Entrants::Standings(eligible) => {
                let set = indices(&c.name, &index, eligible.iter())?;
                general
                    .iter()
                    .map(|g| g.iter().copied().filter(|i| set.contains(i)).collect())
                    .filter(|g: &Vec<usize>| !g.is_empty())
                    .collect()
            }
            Entrants::Ranked(groups) => {
                if let Some(g) = groups.iter().position(Vec::is_empty) {
                    return Err(empty_group(&c.name, g));
                }
                indices(&c.name, &index, groups.iter().flatten())?;
                groups
                    .iter()
                    .map(|g| g.iter().map(|p| index[p]).collect())
                    .collect()
            }
        };
        lists.push(List {
            amounts: c.prizes.clone(),
            ranking,
        });
    }
    Ok(Prepared { players, lists })
}

fn empty_group(list: &str, g: usize) -> PrizeError {
    PrizeError::EmptyGroup {
        list: list.to_string(),
        group: g + 1,
    }
}

/// Prize amounts must be non-negative and must not grow with the place: the one-prize rule
/// hands out prizes by value, which only keeps each list's places in order if they fall.
fn check_amounts(list: &str, amounts: &[i64]) -> Result<(), PrizeError> {
    for (i, &a) in amounts.iter().enumerate() {
        if a < 0 {
            return Err(PrizeError::NegativePrize {
                list: list.to_string(),
                place: i + 1,
                amount: a,
            });
        }
        if i > 0 && a > amounts[i - 1] {
            return Err(PrizeError::PrizesIncrease {
                list: list.to_string(),
                place: i + 1,
            });
        }
    }
    Ok(())
}

/// The standings indices of `players`, each known and named once.
pub(crate) fn indices<'p, P>(
    list: &str,
    index: &HashMap<&P, usize>,
    players: impl Iterator<Item = &'p P>,
) -> Result<HashSet<usize>, PrizeError>
where
    P: Eq + Hash + Display + 'p,
{
    let mut set = HashSet::new();
    for p in players {
        let Some(&i) = index.get(p) else {
            return Err(PrizeError::UnknownPlayer {
                list: list.to_string(),
                player: p.to_string(),
            });
        };
        if !set.insert(i) {
            return Err(PrizeError::DuplicateEntrant {
                list: list.to_string(),
                player: p.to_string(),
            });
        }
    }
    Ok(set)
}

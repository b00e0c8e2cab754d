//! The distribution: who holds which place of each list, then who shares what.

use crate::error::PrizeError;
use crate::input::{Policy, PrizeFund, ScoreGroup, SharingScope};
use crate::output::{Award, Distribution, Portion, Prize, Source};
use crate::prepare::{List, prepare};
use crate::share::{exact_shares, pay};
use std::collections::HashMap;
use std::fmt::Display;
use std::hash::Hash;

/// Distributes `fund` over `standings` under `policy`.
///
/// First every place of every list gets a holder, by tie-break order:
/// * with [`Policy::one_prize_per_player`] off, place `q` of a list goes to the `q`-th player of
///   that list's ranking, so one player may win several lists;
/// * with it on, all prizes are handed out by decreasing amount (on equal amounts the place
///   prizes first, then the categories in the fund's order), each to the best-ranked eligible
///   player who holds nothing yet. A player thus keeps the highest prize open to them and the
///   prize they leave passes down the list. The choice uses the amounts of the places as
///   announced, before any sharing.
///
/// Then, within each tied group of a list's ranking, the holders (and under
/// [`SharingScope::AllTied`], for the place prizes, the group's players holding no prize) share
/// the prizes they hold by [`Policy::method`]. Each group pays exactly the prizes its members
/// hold, so the paid total plus [`Distribution::unawarded`] is always the fund's total.
pub fn distribute<P>(
    standings: &[ScoreGroup<P>],
    fund: &PrizeFund<P>,
    policy: &Policy,
) -> Result<Distribution<P>, PrizeError>
where
    P: Clone + Eq + Hash + Display,
{
    let prep = prepare(standings, fund)?;
    let holders = assign(&prep.lists, prep.players.len(), policy.one_prize_per_player);

    let mut holds_any = vec![false; prep.players.len()];
    let mut unawarded = Vec::new();
    for (l, list) in prep.lists.iter().enumerate() {
        for (q, h) in holders[l].iter().enumerate() {
            match h {
                Some(i) => holds_any[*i] = true,
                None => unawarded.push(Prize {
                    source: source(l),
                    place: q + 1,
                    amount: list.amounts[q],
                }),
            }
        }
    }

    let mut portions: Vec<Vec<Portion>> = vec![Vec::new(); prep.players.len()];
    for (l, list) in prep.lists.iter().enumerate() {
        let place_of: HashMap<usize, usize> = holders[l]
            .iter()
            .enumerate()
            .filter_map(|(q, h)| h.map(|i| (i, q)))
            .collect();
        let all_tied = l == 0 && policy.scope == SharingScope::AllTied;
        for group in &list.ranking {
            if !group.iter().any(|i| place_of.contains_key(i)) {
                continue;
            }
            // Players of a cumulative list may share even when holding another list's prize.
            let free = |i: usize| !policy.one_prize_per_player || !holds_any[i];
            let sharers: Vec<(usize, Option<usize>)> = group
                .iter()
                .filter_map(|&i| match place_of.get(&i) {
                    Some(&q) => Some((i, Some(q))),
                    None if all_tied && free(i) => Some((i, None)),
                    None => None,
                })
                .collect();
            let nominal: Vec<i64> = sharers
                .iter()
                .map(|&(_, q)| q.map_or(0, |q| list.amounts[q]))
                .collect();
            let exact = exact_shares(policy.method, &nominal);
            let paid = pay(&exact);
            for (s, &(i, q)) in sharers.iter().enumerate() {
                portions[i].push(Portion {
                    source: source(l),
                    place: q.map(|q| q + 1),
                    exact: exact[s],
                    paid: paid[s],
                });
            }
        }
    }

    let awards = prep
        .players
        .iter()
        .zip(portions)
        .map(|(p, portions)| Award {
            player: (*p).clone(),
            exact: portions.iter().map(|x| x.exact).sum(),
            paid: portions.iter().map(|x| x.paid).sum(),
            portions,
        })
        .collect();
    Ok(Distribution { awards, unawarded })
}

fn source(list: usize) -> Source {
    match list {
        0 => Source::Places,
        c => Source::Category(c - 1),
    }
}

/// The holder (player index) of each place of each list, `None` when nobody can take it.
fn assign(lists: &[List], players: usize, one_prize: bool) -> Vec<Vec<Option<usize>>> {
    let flat: Vec<Vec<usize>> = lists.iter().map(|l| l.ranking.concat()).collect();
    if !one_prize {
        return lists
            .iter()
            .zip(&flat)
            .map(|(l, f)| (0..l.amounts.len()).map(|q| f.get(q).copied()).collect())
            .collect();
    }
    let mut holders: Vec<Vec<Option<usize>>> =
        lists.iter().map(|l| vec![None; l.amounts.len()]).collect();
    let mut prizes: Vec<(usize, usize)> = lists
        .iter()
        .enumerate()
        .flat_map(|(l, list)| (0..list.amounts.len()).map(move |q| (l, q)))
        .collect();
    // Highest amount first; ties keep (list, place) order, so the place prizes come first.
    prizes.sort_by_key(|&(l, q)| std::cmp::Reverse(lists[l].amounts[q]));
    let mut taken = vec![false; players];
    // Players only ever become taken, so each list's search resumes where it stopped.
    let mut cursor = vec![0; lists.len()];
    for (l, q) in prizes {
        let c = &mut cursor[l];
        while *c < flat[l].len() && taken[flat[l][*c]] {
            *c += 1;
        }
        if let Some(&i) = flat[l].get(*c) {
            taken[i] = true;
            holders[l][q] = Some(i);
        }
    }
    holders
}

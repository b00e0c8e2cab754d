//! Tie-breaks evaluated on the participants still tied together: direct encounter (C.07 Art. 6),
//! extended direct encounter for teams (13.3), top board result and bottom board elimination
//! (12.2, 12.3).
//!
//! The result for a group is a rank inside the group (1 = best, equal ranks = still tied). When
//! the criterion separates nobody every member gets 0, as in the FIDE reference output.

use crate::descriptor::{Acronym, EdeChain, TieBreak};
use crate::field::Field;
use crate::rational::Rational;
use std::collections::BTreeMap;

/// Ranks `members` by the keys (larger key = better); equal keys share a rank.
fn rank_by<K: Ord + Clone>(members: &[usize], key: impl Fn(usize) -> K) -> Vec<(usize, u32)> {
    let mut v: Vec<(usize, K)> = members.iter().map(|&m| (m, key(m))).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1));
    let mut out = Vec::with_capacity(v.len());
    let mut rank = 1;
    for i in 0..v.len() {
        if i > 0 && v[i].1 != v[i - 1].1 {
            rank = i as u32 + 1;
        }
        out.push((v[i].0, rank));
    }
    out
}

/// Refines a ranking: every subgroup sharing a rank is re-ranked by `refine` (which returns
/// ranks starting at 1 inside the subgroup).
fn refine_ties(
    ranked: Vec<(usize, u32)>,
    mut refine: impl FnMut(&[usize]) -> Vec<(usize, u32)>,
) -> Vec<(usize, u32)> {
    let mut by_rank: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (m, r) in ranked {
        by_rank.entry(r).or_default().push(m);
    }
    let mut out = Vec::new();
    for (r, sub) in by_rank {
        if sub.len() == 1 {
            out.push((sub[0], r));
        } else {
            for (m, rr) in refine(&sub) {
                out.push((m, r + rr - 1));
            }
        }
    }
    out
}

fn separates(ranked: &[(usize, u32)]) -> bool {
    ranked.iter().any(|&(_, r)| r != 1)
}

fn all_tied(members: &[usize]) -> Vec<(usize, u32)> {
    members.iter().map(|&m| (m, 1)).collect()
}

/// Direct encounter among `members` on channel `ch` (Art. 6).
///
/// 6.1: points scored in the games among them; several games between the same two count as
/// their average (6.1.2); forfeits are not encounters unless `/P` (6.1.1) or the pairings
/// were pre-determined (Art. 15). 6.2: if all have met, rank by these points and re-apply to
/// every subgroup still tied. 6.3: otherwise one participant is ranked first only if nobody
/// else can reach his points whatever the missing results; the rest are then treated the same
/// way.
fn direct_encounter(
    f: &Field,
    members: &[usize],
    ch: usize,
    forfeits_played: bool,
) -> Vec<(usize, u32)> {
    if members.len() <= 1 {
        return all_tied(members);
    }
    let fp = forfeits_played || f.options.article16.forfeits_as_played || f.predetermined;
    let mut de: BTreeMap<usize, Rational> = BTreeMap::new();
    let mut met: BTreeMap<usize, usize> = BTreeMap::new();
    for &p in members {
        let mut per_opp: BTreeMap<usize, (i64, i64)> = BTreeMap::new();
        for s in &f.comps[p].slots {
            let Some(o) = s.opp else { continue };
            if o == p || !members.contains(&o) {
                continue;
            }
            if s.is_played() || (fp && s.is_forfeit()) {
                let e = per_opp.entry(o).or_insert((0, 0));
                e.0 += s.pts[ch];
                e.1 += 1;
            }
        }
        let total: Rational = per_opp
            .values()
            .filter_map(|&(sum, cnt)| Rational::new(sum, cnt * 10))
            .sum();
        de.insert(p, total);
        met.insert(p, per_opp.len());
    }
    let k = members.len();
    let all_met = members.iter().all(|p| met[p] == k - 1);
    if all_met {
        let ranked = rank_by(members, |m| de[&m]);
        if !separates(&ranked) {
            return ranked;
        }
        return refine_ties(ranked, |sub| direct_encounter(f, sub, ch, forfeits_played));
    }
    let win = Rational::from_tenths(f.sys[ch].win);
    let max_possible = |m: usize| de[&m] + win * Rational::from_int((k - 1 - met[&m]) as i64);
    let mut order: Vec<usize> = members.to_vec();
    order.sort_by(|a, b| de[b].cmp(&de[a]));
    let top = order[0];
    let rest: Vec<usize> = order[1..].to_vec();
    let best_other = rest
        .iter()
        .map(|&m| max_possible(m))
        .max()
        .unwrap_or(Rational::ZERO);
    if de[&top] > best_other {
        let mut out = vec![(top, 1)];
        out.extend(
            direct_encounter(f, &rest, ch, forfeits_played)
                .into_iter()
                .map(|(m, r)| (m, r + 1)),
        );
        out
    } else {
        all_tied(members)
    }
}

/// Board points of `a` on each board, over the given rounds (all played matches when
/// `against` is `None`, the mutual matches with `against` otherwise).
fn board_totals(f: &Field, a: usize, against: Option<usize>) -> Vec<i64> {
    let mut t = vec![0i64; f.boards];
    for s in &f.comps[a].slots {
        if !s.is_played() || (against.is_some() && s.opp != against) {
            continue;
        }
        for (b, p) in s.boards.iter().enumerate() {
            if b < t.len() {
                t[b] += p;
            }
        }
    }
    t
}

fn board_count(t: &[i64]) -> i64 {
    t.iter().enumerate().map(|(b, p)| (b as i64 + 1) * p).sum()
}

/// Bottom board elimination key: total without the last board, without the last two, ...
fn bbe_key(t: &[i64]) -> Vec<i64> {
    (1..t.len())
        .map(|k| t[..t.len() - k].iter().sum())
        .collect()
}

#[derive(Clone, Copy)]
enum BoardStep {
    Count,
    Top,
    Bottom,
}

fn board_step(f: &Field, members: &[usize], step: BoardStep, mutual: bool) -> Vec<(usize, u32)> {
    let against = |m: usize| -> Option<usize> {
        if mutual {
            members.iter().copied().find(|&o| o != m)
        } else {
            None
        }
    };
    match step {
        // Lower board count is better.
        BoardStep::Count => rank_by(members, |m| -board_count(&board_totals(f, m, against(m)))),
        BoardStep::Top => rank_by(members, |m| board_totals(f, m, against(m))),
        BoardStep::Bottom => rank_by(members, |m| bbe_key(&board_totals(f, m, against(m)))),
    }
}

/// Extended direct encounter (13.3): DE on the primary score, then on the secondary score,
/// repeated until nothing changes; with exactly two teams still tied the 2026 chains continue on
/// their mutual match.
fn extended_de(f: &Field, members: &[usize], chain: EdeChain, fp: bool) -> Vec<(usize, u32)> {
    if members.len() <= 1 {
        return all_tied(members);
    }
    for ch in [f.primary, f.secondary()] {
        let r = direct_encounter(f, members, ch, fp);
        if separates(&r) {
            return refine_ties(r, |sub| extended_de(f, sub, chain, fp));
        }
    }
    if members.len() != 2 {
        return all_tied(members);
    }
    let steps: &[BoardStep] = match chain {
        EdeChain::Plain => &[],
        EdeChain::TopBoard => &[BoardStep::Top],
        EdeChain::BottomBoard => &[BoardStep::Bottom],
        EdeChain::CountTop => &[BoardStep::Count, BoardStep::Top],
        EdeChain::CountBottom => &[BoardStep::Count, BoardStep::Bottom],
    };
    for &st in steps {
        let r = board_step(f, members, st, true);
        if separates(&r) {
            return r;
        }
    }
    all_tied(members)
}

/// Ranks inside one tied group for a group-relative tie-break, in the order of `members`;
/// all zeros when nobody is separated.
pub(crate) fn group_values(f: &Field, tb: &TieBreak, members: &[usize]) -> Vec<u32> {
    let ch = f.channel(tb.score);
    let ranked = match tb.acronym {
        Acronym::De => direct_encounter(f, members, ch, tb.forfeits_played),
        Acronym::Ede(chain) => extended_de(f, members, chain, tb.forfeits_played),
        Acronym::Tbr => board_step(f, members, BoardStep::Top, false),
        Acronym::Bbe => board_step(f, members, BoardStep::Bottom, false),
        _ => all_tied(members),
    };
    if !separates(&ranked) {
        return vec![0; members.len()];
    }
    let map: BTreeMap<usize, u32> = ranked.into_iter().collect();
    members
        .iter()
        .map(|m| map.get(m).copied().unwrap_or(0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_share_equal_keys_and_refine_ties() {
        let r = rank_by(&[10, 11, 12, 13], |m| [3, 5, 3, 1][m - 10]);
        let mut r2 = r.clone();
        r2.sort();
        assert_eq!(r2, vec![(10, 2), (11, 1), (12, 2), (13, 4)]);
        let refined = refine_ties(r, |sub| rank_by(sub, |m| m));
        let mut refined: Vec<_> = refined;
        refined.sort();
        assert_eq!(refined, vec![(10, 3), (11, 1), (12, 2), (13, 4)]);
        assert!(separates(&refined));
        assert!(!separates(&all_tied(&[1, 2])));
    }

    #[test]
    fn board_keys() {
        assert_eq!(board_count(&[10, 0, 5]), 10 + 15);
        assert_eq!(bbe_key(&[10, 5, 5, 0]), vec![20, 15, 10]);
    }
}

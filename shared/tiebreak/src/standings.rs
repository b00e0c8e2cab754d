//! Standings: points, then the configured tie-breaks in order, each applied only to the
//! participants still tied (C.07 4.2); shared places when everything is equal.

use crate::compute::{self, lower_is_better};
use crate::descriptor::{Acronym, TieBreak};
use crate::field::Field;
use crate::group::group_values;
use crate::model::{ModelError, TeamTournament, Tournament};
use crate::rational::Rational;
use crate::rules::{Options, RuleSet};
use arbiter_core::PlayerId;
use serde::Serialize;
use std::cmp::Ordering;

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// Pairing number.
    pub id: PlayerId,
    pub name: String,
    pub rating: Option<u32>,
    pub federation: Option<String>,
    /// Primary score (points; match or game points for teams).
    pub points: Rational,
    /// Tie-break values, in the order of [`Standings::tiebreaks`]; `None` = undefined. DE, EDE,
    /// TBR and BBE hold the rank inside the group that was still tied when they were applied
    /// (0 when they separated nobody or the participant was not tied).
    pub values: Vec<Option<Rational>>,
    /// Place after points and all tie-breaks. Participants equal on everything share it.
    pub rank: u32,
    /// Last place of a shared range (`rank` when the place is not shared).
    pub rank_to: u32,
    /// First and last place of the participants with the same points (the score group): the
    /// places whose prizes are pooled when the regulations share prizes among tied players
    /// (the cash-prize methods of the pre-2023 FIDE Tie-Break Regulations, seed 000 "Sistemas de
    /// desempate" 7: shared, by tie-break, Hort). The prize of the tie-break method is that of
    /// `rank`.
    pub score_group: (u32, u32),
}

/// Final (or live) standings with the values behind them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standings {
    /// The rule set that produced the values.
    pub rule_set: RuleSet,
    /// The tie-breaks applied after the points (a leading `PTS` is dropped).
    pub tiebreaks: Vec<TieBreak>,
    /// In rank order; participants sharing a place are ordered by pairing number.
    pub rows: Vec<Standing>,
    /// Decimal places used to print each tie-break.
    pub decimals: Vec<u32>,
    /// Configuration remarks (tie-breaks not meant for this event, values undefined, ...).
    pub warnings: Vec<String>,
}

fn cmp_values(a: Option<Rational>, b: Option<Rational>, lower_better: bool) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => {
            if lower_better {
                x.cmp(&y)
            } else {
                y.cmp(&x)
            }
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Splits a sorted group into runs of equal keys.
fn split_runs(sorted: Vec<usize>, key: &dyn Fn(usize) -> Option<Rational>) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for m in sorted {
        match out.last_mut() {
            Some(run) if key(run[0]) == key(m) => run.push(m),
            _ => out.push(vec![m]),
        }
    }
    out
}

fn warnings(f: &Field, list: &[TieBreak]) -> Vec<String> {
    let mut w = Vec::new();
    let unrated = f.comps.iter().any(|c| c.rating.is_none()) && f.options.unrated_rating.is_none();
    for tb in list {
        let a = tb.acronym;
        if a.is_2026_only() && f.rule_set != RuleSet::C07_2026 {
            w.push(format!(
                "{tb}: introduced by the March 2026 rules, not part of {}",
                f.rule_set
            ));
        }
        if a.is_team_only() && !f.is_team {
            w.push(format!(
                "{tb}: a team tie-break used in an individual event"
            ));
        }
        if a.is_buchholz_family() && f.predetermined && f.rule_set == RuleSet::C07_2026 {
            w.push(format!("{tb}: Buchholz-type tie-breaks must not be used in round-robins (C.07 2026, Art. 8)"));
        }
        if a.is_rating_based() && unrated {
            w.push(format!(
                "{tb}: undefined for everybody: unrated participants and no rating published for them (C.07 Art. 10)"
            ));
        }
        if matches!(a, Acronym::Kashdan { .. } | Acronym::Sob) && f.rule_set.is_c07() {
            w.push(format!(
                "{tb}: not a C.07 tie-break; it must be defined in the regulations (Art. 4.1)"
            ));
        }
    }
    w
}

/// The standings of a normalised field.
pub(crate) fn compute(f: &Field, list: &[TieBreak]) -> Standings {
    let list: Vec<TieBreak> = match list.first() {
        Some(t)
            if t.acronym == Acronym::Pts
                && (t.score.is_none() || f.channel(t.score) == f.primary) =>
        {
            list[1..].to_vec()
        }
        _ => list.to_vec(),
    };
    let n = f.comps.len();
    let points: Vec<Rational> = (0..n)
        .map(|c| Rational::from_tenths(f.score(c, f.primary)))
        .collect();
    let mut table: Vec<Vec<Option<Rational>>> = vec![vec![None; list.len()]; n];

    let mut all: Vec<usize> = (0..n).collect();
    all.sort_by(|&a, &b| {
        points[b]
            .cmp(&points[a])
            .then(f.comps[a].id.cmp(&f.comps[b].id))
    });
    let mut groups = split_runs(all, &|m| Some(points[m]));

    for (k, tb) in list.iter().enumerate() {
        let lower = lower_is_better(tb);
        if tb.acronym.is_group_relative() {
            for row in table.iter_mut() {
                row[k] = Some(Rational::ZERO);
            }
            let mut next = Vec::new();
            for g in groups {
                if g.len() == 1 {
                    next.push(g);
                    continue;
                }
                let ranks = group_values(f, tb, &g);
                for (i, &m) in g.iter().enumerate() {
                    table[m][k] = Some(Rational::from_int(ranks[i] as i64));
                }
                let mut sorted = g.clone();
                sorted.sort_by(|&a, &b| {
                    cmp_values(table[a][k], table[b][k], lower)
                        .then(f.comps[a].id.cmp(&f.comps[b].id))
                });
                next.extend(split_runs(sorted, &|m| table[m][k]));
            }
            groups = next;
        } else {
            let vals = compute::values(f, tb);
            let last = compute::demoted(f, tb);
            for (m, v) in vals.iter().enumerate() {
                table[m][k] = *v;
            }
            let mut next = Vec::new();
            for g in groups {
                if g.len() == 1 {
                    next.push(g);
                    continue;
                }
                let mut sorted = g.clone();
                sorted.sort_by(|&a, &b| {
                    last[a]
                        .cmp(&last[b])
                        .then(cmp_values(vals[a], vals[b], lower))
                        .then(f.comps[a].id.cmp(&f.comps[b].id))
                });
                for run in split_runs(sorted, &|m| vals[m]) {
                    // A value shared by a demoted and a regular player still separates them.
                    let (a, b): (Vec<usize>, Vec<usize>) = run.into_iter().partition(|&m| !last[m]);
                    next.extend([a, b].into_iter().filter(|r| !r.is_empty()));
                }
            }
            groups = next;
        }
    }

    let mut rows = Vec::with_capacity(n);
    let mut place = 1u32;
    for g in &groups {
        let rank_to = place + g.len() as u32 - 1;
        for &m in g {
            let c = &f.comps[m];
            rows.push(Standing {
                id: c.id,
                name: c.name.clone(),
                rating: c.rating,
                federation: c.federation.clone(),
                points: points[m],
                values: table[m].clone(),
                rank: place,
                rank_to,
                score_group: (0, 0),
            });
        }
        place = rank_to + 1;
    }
    // Score groups: consecutive rows with equal points.
    let mut i = 0;
    while i < rows.len() {
        let mut j = i;
        while j + 1 < rows.len() && rows[j + 1].points == rows[i].points {
            j += 1;
        }
        for row in rows.iter_mut().take(j + 1).skip(i) {
            row.score_group = (i as u32 + 1, j as u32 + 1);
        }
        i = j + 1;
    }
    let decimals = list.iter().map(compute::decimals).collect();
    Standings {
        rule_set: f.rule_set,
        warnings: warnings(f, &list),
        tiebreaks: list,
        rows,
        decimals,
    }
}

/// Standings of an individual tournament: points, then `tiebreaks` in order.
pub fn standings(
    t: &Tournament,
    tiebreaks: &[TieBreak],
    options: &Options,
) -> Result<Standings, ModelError> {
    t.validate()?;
    Ok(compute(&Field::from_individual(t, options), tiebreaks))
}

/// Standings of a team tournament: primary score, then `tiebreaks` in order.
pub fn team_standings(
    t: &TeamTournament,
    tiebreaks: &[TieBreak],
    options: &Options,
) -> Result<Standings, ModelError> {
    t.validate()?;
    Ok(compute(&Field::from_team(t, options), tiebreaks))
}

fn values_of(f: &Field, tb: &TieBreak) -> Vec<(PlayerId, Option<Rational>)> {
    let vals = if tb.acronym.is_group_relative() {
        // Evaluated among the participants with equal points.
        let mut v = vec![Some(Rational::ZERO); f.comps.len()];
        let mut all: Vec<usize> = (0..f.comps.len()).collect();
        let pts: Vec<i64> = (0..f.comps.len()).map(|c| f.score(c, f.primary)).collect();
        all.sort_by_key(|&c| std::cmp::Reverse(pts[c]));
        for g in split_runs(all, &|m| Some(Rational::from_tenths(pts[m]))) {
            if g.len() > 1 {
                for (i, r) in group_values(f, tb, &g).into_iter().enumerate() {
                    v[g[i]] = Some(Rational::from_int(r as i64));
                }
            }
        }
        v
    } else {
        compute::values(f, tb)
    };
    f.comps.iter().zip(vals).map(|(c, v)| (c.id, v)).collect()
}

/// The value of one tie-break for every player, in model order. DE, EDE, TBR and BBE are
/// evaluated among the players with equal points.
pub fn tiebreak_values(
    t: &Tournament,
    tb: &TieBreak,
    options: &Options,
) -> Result<Vec<(PlayerId, Option<Rational>)>, ModelError> {
    t.validate()?;
    Ok(values_of(&Field::from_individual(t, options), tb))
}

/// [`tiebreak_values`] for a team tournament.
pub fn team_tiebreak_values(
    t: &TeamTournament,
    tb: &TieBreak,
    options: &Options,
) -> Result<Vec<(PlayerId, Option<Rational>)>, ModelError> {
    t.validate()?;
    Ok(values_of(&Field::from_team(t, options), tb))
}

//! Values of the tie-breaks that do not depend on who is tied (everything except DE, EDE, TBR
//! and BBE, see `group.rs`).
//!
//! Rule references are to FIDE C.07 (Play-Off and Tie-Break Regulations) unless a seed is named.

use crate::descriptor::{Acronym, TieBreak};
use crate::field::{Field, Kind, Outcome, Slot};
use crate::rational::Rational;
use crate::rules::RuleSet;
use crate::tables;
use arbiter_core::Color;

/// One value per competitor, in field order; `None` = undefined (ranks after every defined
/// value).
pub(crate) type Values = Vec<Option<Rational>>;

/// Smaller values rank higher for these tie-breaks (pairing number, board count, and the
/// group ranks produced by DE, EDE, TBR and BBE); RTNG/R reverses RTNG.
pub(crate) fn lower_is_better(tb: &TieBreak) -> bool {
    match tb.acronym {
        Acronym::Tpn => !tb.reverse,
        Acronym::Rtng => tb.reverse,
        Acronym::Bc | Acronym::De | Acronym::Ede(_) | Acronym::Tbr | Acronym::Bbe => true,
        _ => false,
    }
}

/// The score of every competitor "when others need it" (C.07 16.3; legacy A.2.1; Art. 15).
pub(crate) fn adjusted(f: &Field, ch: usize) -> Vec<i64> {
    let draw = f.sys[ch].draw;
    f.comps
        .iter()
        .map(|c| {
            if f.predetermined {
                // Art. 15: forfeits are results like any other; nothing is adjusted.
                return c.slots.iter().map(|s| s.pts[ch]).sum();
            }
            match f.rule_set {
                // Every result obtained without playing counts as a draw (seed 001 "Oponente
                // Virtual", last paragraph; seed 004 "Bucholz con ajuste FIDE").
                RuleSet::Legacy2009 => c
                    .slots
                    .iter()
                    .map(|s| if s.is_played() { s.pts[ch] } else { draw })
                    .sum(),
                // 16.2.5: a requested bye followed only by voluntary unplayed rounds (or in the last
                // round) counts as a draw; every other round keeps its real value.
                RuleSet::C07_2024 | RuleSet::C07_2026 => {
                    let last_not_vur = c
                        .slots
                        .iter()
                        .rposition(|s| !s.is_vur())
                        .map(|i| i + 1)
                        .unwrap_or(0);
                    c.slots
                        .iter()
                        .enumerate()
                        .map(|(i, s)| {
                            if i < last_not_vur || s.opp.is_some() {
                                s.pts[ch]
                            } else {
                                draw
                            }
                        })
                        .sum()
                }
            }
        })
        .collect()
}

/// One round's part of a Buchholz-type value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Contribution {
    /// The opponent's (or dummy's) score: decides which value is least significant.
    pub score: Rational,
    /// What is summed: the score for BH, score × own result for SB.
    pub value: Rational,
    /// A voluntary unplayed round of the participant (16.5 cut exception).
    pub vur: bool,
}

/// What a Buchholz-type sum is made of.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BhSpec {
    /// Channel of the opponents' scores.
    pub ch_opp: usize,
    /// Channel of the own result multiplying them (Sonneborn-Berger family); `None` for BH.
    pub ch_own: Option<usize>,
    /// `/P`: forfeits are games against the scheduled opponent.
    pub forfeits_played: bool,
    /// Harkness median in the legacy rules: forfeit wins are left out (seed 004).
    pub skip_forfeit_wins: bool,
}

fn opposite(p: i64, win: i64, draw: i64) -> i64 {
    if p == draw { draw } else { (win - p).max(0) }
}

/// Per competitor, the contributions of every round (C.07 16.4 dummy opponent; legacy virtual
/// opponent; Art. 15 for pre-determined pairings).
pub(crate) fn contributions(f: &Field, spec: BhSpec) -> Vec<Vec<Contribution>> {
    let ch = spec.ch_opp;
    let adj = adjusted(f, ch);
    let own: Vec<i64> = (0..f.comps.len()).map(|c| f.score(c, ch)).collect();
    let a16 = f.options.article16;
    let forfeits_played = spec.forfeits_played || a16.forfeits_as_played;
    let (win, draw) = (f.sys[ch].win, f.sys[ch].draw);
    let n = f.rounds as i64;
    f.comps
        .iter()
        .enumerate()
        .map(|(c, comp)| {
            let mut before = 0i64;
            let mut out = Vec::with_capacity(comp.slots.len());
            for (i, s) in comp.slots.iter().enumerate() {
                let r = i as i64 + 1;
                let result = spec.ch_own.map(|k| s.pts[k]);
                let treat_played =
                    s.is_played() || (s.is_forfeit() && (forfeits_played || f.predetermined));
                let item = if treat_played {
                    let o = s.opp.unwrap_or(c);
                    Some((adj[o], result, false))
                } else if f.predetermined {
                    // A round without a scheduled game in a round-robin (odd number of players).
                    None
                } else if f.rule_set == RuleSet::Legacy2009 {
                    if spec.skip_forfeit_wins && s.kind == Kind::ForfeitWin {
                        None
                    } else {
                        // Seed 001 "Oponente Virtual": S = SPR + (1 - SfPR) + 0.5 (n - R).
                        let v = before + opposite(s.pts[ch], win, draw) + draw * (n - r);
                        Some((v, result, false))
                    }
                } else if a16.draw_against_themselves {
                    Some((own[c], spec.ch_own.map(|k| f.sys[k].draw), false))
                } else {
                    let mut dummy = own[c];
                    if f.rule_set == RuleSet::C07_2026 {
                        // 16.4.1 forfeits: capped by the scheduled opponent's adjusted score;
                        // 16.4.2 byes: capped by a draw in every round.
                        let cap = match s.opp {
                            Some(o) => adj[o],
                            None => draw * n,
                        };
                        dummy = dummy.min(cap);
                    }
                    Some((dummy, result, s.is_vur()))
                };
                before += s.pts[ch];
                if let Some((score, factor, vur)) = item {
                    let score = Rational::from_tenths(score);
                    let value = match factor {
                        Some(k) => score * Rational::from_tenths(k),
                        None => score,
                    };
                    out.push(Contribution { score, value, vur });
                }
            }
            out
        })
        .collect()
}

fn key(c: &Contribution) -> (Rational, Rational) {
    (c.score, c.value)
}

/// Sum after removing `low` least and `high` most significant values (Art. 14), with the VUR
/// exception of 16.5 when `vur_exception`: a cut removes the higher of the least significant
/// value and the lowest VUR contribution. Cuts beyond the values there are leave nothing: the
/// sum of no value is 0, as FIDE TEC's reference implementation computes it (C.07 is silent).
pub(crate) fn cut_sum(
    mut v: Vec<Contribution>,
    low: usize,
    high: usize,
    vur_exception: bool,
) -> Rational {
    for _ in 0..low {
        if v.is_empty() {
            break;
        }
        let Some(lsv) = (0..v.len()).min_by_key(|&i| key(&v[i])) else {
            break;
        };
        let mut idx = lsv;
        // 16.5.1 compares with the lowest VUR *contribution*: for SB the product, not the
        // dummy's score (they differ when a VUR scored less than another).
        if vur_exception
            && let Some(vi) = (0..v.len())
                .filter(|&i| v[i].vur)
                .min_by_key(|&i| (v[i].value, v[i].score))
            && v[lsv].value <= v[vi].value
        {
            idx = vi;
        }
        v.remove(idx);
    }
    for _ in 0..high {
        if v.is_empty() {
            break;
        }
        // The first of the equal maxima, as `max_by_key` would return the last.
        let best = v.iter().map(key).max();
        let Some(idx) = v.iter().position(|c| Some(key(c)) == best) else {
            break;
        };
        v.remove(idx);
    }
    v.iter().map(|c| c.value).sum()
}

/// Number of values a Harkness median removes at each end (seed 004 "02 DESEMPATES" 3).
pub(crate) fn harkness_cuts(rounds: usize) -> usize {
    match rounds {
        0..=8 => 1,
        9..=12 => 2,
        _ => 3,
    }
}

fn vur_exception(f: &Field) -> bool {
    f.rule_set.is_c07() && !f.predetermined && !f.options.article16.no_vur_cut_exception
}

/// Buchholz-family value with cuts for every competitor.
pub(crate) fn buchholz(f: &Field, spec: BhSpec, tb: &TieBreak) -> Values {
    let (low, high) = if tb.harkness {
        let k = harkness_cuts(f.rounds);
        (k, k)
    } else {
        (tb.cut_low as usize, tb.cut_high as usize)
    };
    let exc = vur_exception(f);
    contributions(f, spec)
        .into_iter()
        .map(|v| Some(cut_sum(v, low, high, exc)))
        .collect()
}

fn bh_spec(f: &Field, tb: &TieBreak) -> BhSpec {
    BhSpec {
        ch_opp: f.channel(tb.score),
        ch_own: None,
        forfeits_played: tb.forfeits_played,
        skip_forfeit_wins: tb.harkness && f.rule_set == RuleSet::Legacy2009,
    }
}

/// Plain BH (or FB) of every competitor, used by AOB, SOB and SSSC.
fn plain_bh(f: &Field, ch: usize, fore: bool, forfeits_played: bool) -> Vec<Rational> {
    let spec = BhSpec {
        ch_opp: ch,
        ch_own: None,
        forfeits_played,
        skip_forfeit_wins: false,
    };
    let projected;
    let field = if fore {
        projected = f.fore_projection();
        &projected
    } else {
        f
    };
    contributions(field, spec)
        .into_iter()
        .map(|v| v.iter().map(|c| c.value).sum())
        .collect()
}

fn counts(f: &Field, pred: impl Fn(&Slot) -> bool) -> Values {
    f.comps
        .iter()
        .map(|c| {
            Some(Rational::from_int(
                c.slots.iter().filter(|s| pred(s)).count() as i64,
            ))
        })
        .collect()
}

/// The rating of a competitor for Art. 10, or the published rating for unrated players.
fn rating_of(f: &Field, c: usize) -> Option<i64> {
    f.comps[c]
        .rating
        .or(f.options.unrated_rating)
        .map(i64::from)
}

fn ratings_valid(f: &Field) -> bool {
    (0..f.comps.len()).all(|c| rating_of(f, c).is_some())
}

/// Opponents' ratings and the rating points (tenths) of the games that count for Art. 10.
fn rated_games(f: &Field, c: usize) -> (Vec<i64>, i64) {
    let mut ratings = Vec::new();
    let mut pts = 0;
    for s in &f.comps[c].slots {
        if let Some(o) = s.opp
            && f.played_for_ratings(s)
            && let Some(r) = rating_of(f, o)
        {
            ratings.push(r);
            pts += if s.is_played() {
                s.rating_pts
            } else if s.kind == Kind::ForfeitWin {
                10
            } else {
                0
            };
        }
    }
    (ratings, pts)
}

fn mean_rounded(v: &[i64]) -> Option<i64> {
    Rational::new(v.iter().sum(), v.len() as i64).map(|r| r.round_half_up())
}

/// ARO with cuts (10.1, 14.x). In the legacy rules unplayed rounds are removed first (seed 001
/// "AROC 1").
fn aro(f: &Field, tb: &TieBreak) -> Values {
    if !ratings_valid(f) {
        return vec![None; f.comps.len()];
    }
    (0..f.comps.len())
        .map(|c| {
            let (mut ratings, _) = rated_games(f, c);
            ratings.sort_unstable();
            let (mut low, mut high) = (tb.cut_low as usize, tb.cut_high as usize);
            if f.rule_set == RuleSet::Legacy2009 {
                let unplayed = f.rounds.saturating_sub(ratings.len());
                let d = unplayed.min(low);
                low -= d;
                high -= (unplayed - d).min(high);
            }
            if low + high >= ratings.len() {
                return None;
            }
            let kept = &ratings[low..ratings.len() - high];
            mean_rounded(kept).map(Rational::from_int)
        })
        .collect()
}

/// TPR (10.2): rounded ARO + dp of the percentage score, rounded half up.
fn tpr_int(f: &Field, c: usize) -> Option<i64> {
    let (ratings, pts) = rated_games(f, c);
    let aro = mean_rounded(&ratings)?;
    let percent = Rational::new(pts * 10, ratings.len() as i64)?.round_half_up();
    Some(aro + tables::dp_for_percent(percent) as i64)
}

/// PTP (10.3): the lowest whole rating whose expected score (table 8.1.2, no cap) reaches the
/// score; a zero score gives the lowest opponent rating - 800.
fn ptp_int(f: &Field, c: usize) -> Option<i64> {
    let (ratings, pts) = rated_games(f, c);
    let min = *ratings.iter().min()?;
    let max = *ratings.iter().max()?;
    if pts == 0 {
        return Some(min - 800);
    }
    let target = pts * 10; // hundredths
    let expected = |r: i64| -> i64 {
        ratings
            .iter()
            .map(|&o| tables::expected_hundredths(r, o))
            .sum()
    };
    let (mut lo, mut hi) = (min - 800, max + 800);
    if expected(hi) < target {
        return Some(hi);
    }
    // expected(lo) == 0 < target; find the lowest R in (lo, hi] with expected(R) >= target.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if expected(mid) >= target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

fn average_of_opponents(f: &Field, of: &[Option<i64>]) -> Values {
    f.comps
        .iter()
        .map(|comp| {
            let v: Vec<i64> = comp
                .slots
                .iter()
                .filter(|s| f.played_for_ratings(s))
                .filter_map(|s| s.opp.and_then(|o| of[o]))
                .collect();
            mean_rounded(&v).map(Rational::from_int)
        })
        .collect()
}

/// Every tie-break that does not depend on the tied group. DE, EDE, TBR and BBE return zeros
/// here; the standings compute them per group.
pub(crate) fn values(f: &Field, tb: &TieBreak) -> Values {
    let n = f.comps.len();
    let ch = f.channel(tb.score);
    let sys = f.sys[ch];
    match tb.acronym {
        Acronym::Pts => (0..n)
            .map(|c| Some(Rational::from_tenths(f.score(c, ch))))
            .collect(),
        Acronym::MpVGp => (0..n)
            .map(|c| Some(Rational::from_tenths(f.score(c, f.secondary()))))
            .collect(),
        Acronym::De | Acronym::Ede(_) | Acronym::Tbr | Acronym::Bbe => {
            vec![Some(Rational::ZERO); n]
        }
        Acronym::Win => counts(f, |s| s.pts[ch] == sys.win),
        Acronym::Won => counts(f, |s| f.played_for_type_b(s) && s.outcome == Outcome::Win),
        Acronym::Bpg => counts(f, |s| {
            f.played_for_type_b(s) && s.color == Some(Color::Black)
        }),
        Acronym::Bwg => counts(f, |s| {
            f.played_for_type_b(s) && s.color == Some(Color::Black) && s.outcome == Outcome::Win
        }),
        Acronym::Rep => counts(f, |s| !s.is_vur() || f.played_for_type_b(s)),
        Acronym::Std => f
            .comps
            .iter()
            .map(|c| {
                let t: i64 = c
                    .slots
                    .iter()
                    .map(|s| (s.pts[ch] - sys.draw).signum() * 5 + 5)
                    .sum();
                Some(Rational::from_tenths(t))
            })
            .collect(),
        Acronym::Ps => f
            .comps
            .iter()
            .map(|c| {
                let mut running = 0;
                let mut total = 0;
                for (i, s) in c.slots.iter().enumerate() {
                    running += s.pts[ch];
                    if i >= tb.cut_low as usize {
                        total += running;
                    }
                }
                Some(Rational::from_tenths(total))
            })
            .collect(),
        Acronym::Tpn => f
            .comps
            .iter()
            .map(|c| Some(Rational::from_int(c.id as i64)))
            .collect(),
        Acronym::Rtng => {
            if !ratings_valid(f) {
                return vec![None; n];
            }
            (0..n)
                .map(|c| rating_of(f, c).map(Rational::from_int))
                .collect()
        }
        Acronym::Bh => buchholz(f, bh_spec(f, tb), tb),
        Acronym::Fb => buchholz(&f.fore_projection(), bh_spec(f, tb), tb),
        Acronym::Sb => {
            let spec = BhSpec {
                ch_opp: ch,
                ch_own: Some(ch),
                forfeits_played: tb.forfeits_played,
                skip_forfeit_wins: false,
            };
            buchholz(f, spec, tb)
        }
        Acronym::Esb(a, b) => {
            let spec = BhSpec {
                ch_opp: f.channel(Some(a)),
                ch_own: Some(f.channel(Some(b))),
                forfeits_played: tb.forfeits_played,
                skip_forfeit_wins: false,
            };
            buchholz(f, spec, tb)
        }
        Acronym::Aob | Acronym::Sob => {
            let bh = plain_bh(f, ch, tb.fore, false);
            f.comps
                .iter()
                .map(|comp| {
                    let v: Vec<Rational> = comp
                        .slots
                        .iter()
                        .filter(|s| s.is_played())
                        .filter_map(|s| s.opp.map(|o| bh[o]))
                        .collect();
                    let sum: Rational = v.iter().copied().sum();
                    if tb.acronym == Acronym::Sob {
                        Some(sum)
                    } else {
                        sum.div_int(v.len() as i64)
                    }
                })
                .collect()
        }
        Acronym::Ks => {
            let max_games = if f.predetermined {
                f.comps
                    .iter()
                    .map(|c| c.slots.iter().filter(|s| s.opp.is_some()).count())
                    .max()
                    .unwrap_or(0)
            } else {
                f.rounds
            } as i64;
            // 50 % of the maximum score, moved by n half-points (14.5).
            let limit = Rational::new(sys.win * max_games, 20).unwrap_or(Rational::ZERO)
                + Rational::new(tb.limit_half_points as i64, 2).unwrap_or(Rational::ZERO);
            let scores: Vec<Rational> = (0..n)
                .map(|c| Rational::from_tenths(f.score(c, ch)))
                .collect();
            f.comps
                .iter()
                .map(|comp| {
                    let t: i64 = comp
                        .slots
                        .iter()
                        .filter(|s| s.opp.is_some_and(|o| scores[o] >= limit))
                        .map(|s| s.pts[ch])
                        .sum();
                    Some(Rational::from_tenths(t))
                })
                .collect()
        }
        Acronym::Aro => aro(f, tb),
        Acronym::Tpr | Acronym::Ptp => {
            if !ratings_valid(f) {
                return vec![None; n];
            }
            let g = if tb.acronym == Acronym::Tpr {
                tpr_int
            } else {
                ptp_int
            };
            (0..n).map(|c| g(f, c).map(Rational::from_int)).collect()
        }
        Acronym::Apro | Acronym::Appo => {
            if !ratings_valid(f) {
                return vec![None; n];
            }
            let g = if tb.acronym == Acronym::Apro {
                tpr_int
            } else {
                ptp_int
            };
            let of: Vec<Option<i64>> = (0..n).map(|c| g(f, c)).collect();
            average_of_opponents(f, &of)
        }
        Acronym::Bc => f
            .comps
            .iter()
            .map(|c| {
                let t: i64 = c
                    .slots
                    .iter()
                    .flat_map(|s| s.boards.iter().enumerate().map(|(b, p)| (b as i64 + 1) * p))
                    .sum();
                Some(Rational::from_tenths(t))
            })
            .collect(),
        Acronym::Sssc => {
            let prim = f.primary;
            let sec = f.secondary();
            let bh = plain_bh(f, prim, tb.fore, tb.forfeits_played);
            let divisor = match tb.divisor {
                Some(k) => k as i64,
                None => {
                    let num = f.sys[prim].win * f.rounds as i64;
                    let den = f.sys[sec].win;
                    if den > 0 { (num / den).max(1) } else { 1 }
                }
            };
            (0..n)
                .map(|c| {
                    let v = Rational::from_tenths(f.score(c, sec))
                        + bh[c].div_int(divisor).unwrap_or(Rational::ZERO);
                    Some(v.round_to(2))
                })
                .collect()
        }
        Acronym::Kashdan { win, draw, loss } => f
            .comps
            .iter()
            .map(|c| {
                let t: i64 = c
                    .slots
                    .iter()
                    .map(|s| {
                        if s.is_played() {
                            match s.outcome {
                                Outcome::Win => win,
                                Outcome::Draw => draw,
                                Outcome::Loss => loss,
                            }
                        } else {
                            draw
                        }
                    })
                    .map(i64::from)
                    .sum();
                Some(Rational::from_int(t))
            })
            .collect(),
    }
}

/// Participants ranked below all others on this tie-break whatever their value (legacy rule,
/// seed 000 4.3 / seed 001: ARO and TPR of players with too few games; our reading of the two
/// wordings: docs/src/auditors/agreement.md).
pub(crate) fn demoted(f: &Field, tb: &TieBreak) -> Vec<bool> {
    match (f.rule_set, f.options.few_games_rank_last, tb.acronym) {
        (RuleSet::Legacy2009, Some(k), Acronym::Aro | Acronym::Tpr) => (0..f.comps.len())
            .map(|c| {
                f.comps[c]
                    .slots
                    .iter()
                    .filter(|s| f.played_for_ratings(s))
                    .count()
                    <= k as usize
            })
            .collect(),
        _ => vec![false; f.comps.len()],
    }
}

/// Decimal places used when a value of this tie-break is written (values are exact; this is
/// presentation only).
pub(crate) fn decimals(tb: &TieBreak) -> u32 {
    match tb.acronym {
        Acronym::Sb | Acronym::Esb(..) | Acronym::Aob | Acronym::Sssc => 2,
        Acronym::Pts
        | Acronym::MpVGp
        | Acronym::Bh
        | Acronym::Fb
        | Acronym::Ps
        | Acronym::Ks
        | Acronym::Std
        | Acronym::Sob
        | Acronym::Bc => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(score: &str, value: &str, vur: bool) -> Contribution {
        let p = |s: &str| {
            let (i, f) = s.split_once('.').unwrap_or((s, ""));
            Rational::new(
                format!("{i}{f}").parse().unwrap(),
                10i64.pow(f.len() as u32),
            )
            .unwrap()
        };
        Contribution {
            score: p(score),
            value: p(value),
            vur,
        }
    }

    #[test]
    fn vur_exception_prefers_the_higher_value() {
        // 16.5.1: least significant value 1, VUR 2.5: the VUR goes.
        let v = vec![
            c("4", "4", false),
            c("2.5", "2.5", true),
            c("1", "1", false),
            c("4", "4", false),
            c("2.5", "2.5", false),
        ];
        assert_eq!(
            cut_sum(v.clone(), 1, 0, true),
            Rational::new(23, 2).unwrap()
        );
        assert_eq!(cut_sum(v, 1, 0, false), Rational::from_int(13));
        // SB: the VUR product (0) is below the least significant value (1 x 1): the least
        // significant value goes, as it is the higher of the two.
        let sb = vec![c("1", "1", false), c("2", "0", true), c("3", "3", false)];
        assert_eq!(cut_sum(sb, 1, 0, true), Rational::from_int(3));
    }

    #[test]
    fn cuts_beyond_the_values_leave_nothing_and_medians_cut_both_ends() {
        assert_eq!(
            cut_sum(vec![c("2", "2", false)], 2, 1, true),
            Rational::ZERO
        );
        let v = vec![
            c("1", "1", false),
            c("3", "3", false),
            c("2", "2", false),
            c("5", "5", false),
        ];
        assert_eq!(cut_sum(v.clone(), 1, 1, true), Rational::from_int(5));
        // Median-2 of four rounds: nothing is left (FIDE TEC's reference gives 0).
        assert_eq!(cut_sum(v, 2, 2, true), Rational::ZERO);
    }

    #[test]
    fn harkness_median_depends_on_the_rounds() {
        assert_eq!(harkness_cuts(7), 1);
        assert_eq!(harkness_cuts(8), 1);
        assert_eq!(harkness_cuts(9), 2);
        assert_eq!(harkness_cuts(12), 2);
        assert_eq!(harkness_cuts(13), 3);
    }

    #[test]
    fn opposite_results_of_the_virtual_opponent() {
        assert_eq!(opposite(10, 10, 5), 0);
        assert_eq!(opposite(0, 10, 5), 10);
        assert_eq!(opposite(5, 10, 5), 5);
        assert_eq!(opposite(10, 30, 10), 10);
    }
}

//! The Burstein system (C.04.4.2): within a scoregroup ordered by Sonneborn-Berger, Buchholz,
//! Median and rating, the highest player meets the lowest he has not met, the second highest
//! the second lowest, and so on, in the fixed priority order of combinations of §6.2/§6.4,
//! keeping the combination that grants the most colour preferences (§6.5). The top half of
//! the initial ranking carries one virtual point for pairing rounds 1 and 2 (§3.3).
//!
//! Rule text: FIDE Handbook C.04.4.2 (§1 definitions, §2 unfinished games,
//! §3 basic principles and acceleration, §4 bye, §5 colours, §6 pairing procedure and its
//! combination tables).
//!
//! Choices where the text is silent or ambiguous:
//! - Sonneborn-Berger, Buchholz and Median for pairing use played games only, each opponent
//!   with his current real score (virtual points never count); Median drops the highest and
//!   lowest opponent from 3 games on. Exact integers (tenths times tenths), no floats.
//! - §3.3 "upper half" of an odd list: the first N/2 rounded down, by pairing number (the
//!   initial ranking by rating). An input that carries its own acceleration (TRF XXA) is
//!   used instead of the built-in one.
//! - §5.1 names only the top half: for a board of two players without games, the
//!   higher-ranked takes the drawn colour when his pairing number is odd, the other colour
//!   when even (every board of the top half follows the rule's wording).
//! - §5.4 after the SB/Buchholz/Median tie-breaks: the higher rating, then the lower pairing
//!   number, gets his preference.
//! - §6.5 is applied as "the first combination in the priority order that grants the most
//!   colour preferences" (the rule's example picks exactly that), found exactly by branch and
//!   bound over the priority order (`choose`, with the bound `swiss::preference_bound`); a test checks it
//!   against the whole enumeration on thousands of rounds. A scoregroup whose search reaches
//!   the step limit of `swiss::Search` says so in the explanation.
//! - §6.3 "a player who floated into this scoregroup does not float again" holds while any
//!   combination allows it; §6.6's merge of two scoregroups is the fallback: when no
//!   combination keeps the round pairable, the scoregroup joins the next one.
//! - Every decision keeps the rest of the round pairable (see `swiss`), which stands in for
//!   §6.6's "return to the original scoregroup and take the next combination".

pub(crate) mod bbp;

use crate::swiss::{
    self, ByeRule, Candidate, Coloured, Decided, Field, Made, RuleNames, Search, Step,
};
use crate::{Comparison, PairingError, PairingInput, RecordedPairing, RoundPairing};
use std::cmp::Ordering;

pub(crate) const NAMES: RuleNames = RuleNames {
    rematch: "§3.1 (Burstein; C.04.1.b)",
    bye: "§4.1 (Burstein; C.04.1.d)",
    colour_difference: "C.04.1.f (Burstein §5.2)",
    colour_run: "C.04.1.g (Burstein §5.3)",
};

/// How a scoregroup's combination is chosen (§6.5).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Choice {
    /// Branch and bound over the priority order (`Search::best_exact`): the engine's.
    Exact,
    /// Every combination visited, the first granting the most kept: what the exact search
    /// must equal (tests).
    #[cfg(feature = "test-support")]
    Exhaustive,
}

/// The pairing data of §3.2 and the pairing score.
struct Ranked<'a> {
    f: &'a Field,
    /// Pairing score (real + virtual points), tenths.
    score: Vec<i32>,
    sb: Vec<i64>,
    buchholz: Vec<i64>,
    median: Vec<i64>,
}

impl<'a> Ranked<'a> {
    fn new(f: &'a Field, input: &PairingInput) -> Ranked<'a> {
        let n = f.all.len();
        let given = given_acceleration(f, input);
        let mut score = vec![0; n];
        let mut sb = vec![0; n];
        let mut buchholz = vec![0; n];
        let mut median = vec![0; n];
        for i in 0..n {
            let virt = if let Some(given) = &given {
                given[i]
            } else if f.round <= 2 && i < n / 2 {
                f.win
            } else {
                0
            };
            score[i] = f.all[i].score + virt;
            let mut opp: Vec<i64> = Vec::new();
            for &(o, got) in &f.all[i].games {
                let os = f.index_of(o).map(|j| f.all[j].score).unwrap_or(0) as i64;
                sb[i] += got as i64 * os;
                opp.push(os);
            }
            buchholz[i] = opp.iter().sum();
            median[i] = if opp.len() >= 3 {
                buchholz[i] - opp.iter().max().unwrap() - opp.iter().min().unwrap()
            } else {
                buchholz[i]
            };
        }
        Ranked {
            f,
            score,
            sb,
            buchholz,
            median,
        }
    }

    /// §3.2: SB, Buchholz, Median, rating (all descending), then pairing number.
    fn order(&self, a: usize, b: usize) -> Ordering {
        self.sb[b]
            .cmp(&self.sb[a])
            .then(self.buchholz[b].cmp(&self.buchholz[a]))
            .then(self.median[b].cmp(&self.median[a]))
            .then(self.f.all[b].rating.cmp(&self.f.all[a].rating))
            .then(self.f.id(a).cmp(&self.f.id(b)))
    }

    fn describe(&self, i: usize) -> String {
        let hundredths = |v: i64| arbiter_core::Score((v / 10) as i32).to_string();
        format!(
            "{} (SB {}, Bh {}, Med {}, R {})",
            self.f.id(i),
            hundredths(self.sb[i]),
            arbiter_core::Score(self.buchholz[i] as i32),
            arbiter_core::Score(self.median[i] as i32),
            self.f.all[i].rating
        )
    }
}

/// The virtual points of this round the input carries itself (TRF XXA, or an event's own
/// acceleration), by index into `f.all`, tenths; `None` when it carries none, and §3.3's
/// built-in acceleration applies (each reading has its own).
fn given_acceleration(f: &Field, input: &PairingInput) -> Option<Vec<i32>> {
    let r = f.played_rounds() as usize;
    input
        .players
        .iter()
        .any(|p| p.acceleration.iter().any(|s| s.tenths() != 0))
        .then(|| {
            (0..f.all.len())
                .map(|i| {
                    input
                        .players
                        .iter()
                        .find(|p| p.id == f.id(i))
                        .and_then(|p| p.acceleration.get(r))
                        .map_or(0, |s| s.tenths())
                })
                .collect()
        })
}

fn field(input: &PairingInput) -> Field {
    Field::new(input, ByeRule::AnyUnplayedPoint)
}

pub(crate) fn pair(input: &PairingInput) -> Result<RoundPairing, PairingError> {
    let f = field(input);
    let rk = Ranked::new(&f, input);
    let (made, colours) = run(&f, &rk, Choice::Exact)?;
    Ok(swiss::finish(&f, input, &made, &colours))
}

pub(crate) fn compare(
    input: &PairingInput,
    other: &RecordedPairing,
) -> Result<Comparison, PairingError> {
    let f = field(input);
    let rk = Ranked::new(&f, input);
    let (made, colours) = run(&f, &rk, Choice::Exact)?;
    let engine = swiss::finish(&f, input, &made, &colours);
    let mut c = swiss::compare(&f, &made, &colours, engine, other, &NAMES);
    recount(&rk, &made, other, &mut c.verdict);
    Ok(c)
}

/// Where the other pairing pairs the players of the engine's deciding scoregroup among
/// themselves with the same floaters, both combinations are counted by §6.5 (colour
/// preferences granted, each pair's colours by §5): the engine's must grant at least as many
/// (it is the first of the priority order granting the most); fewer is reported.
fn recount(rk: &Ranked, made: &Made, other: &RecordedPairing, verdict: &mut crate::Verdict) {
    let f = rk.f;
    let crate::Verdict::Criterion {
        bracket,
        counts,
        engine_better,
        ..
    } = verdict
    else {
        return;
    };
    let Some(rep) = made.brackets.get(*bracket) else {
        return;
    };
    let pool: std::collections::BTreeSet<usize> = rep
        .moved_down
        .iter()
        .chain(&rep.residents)
        .filter_map(|&id| f.index_of(id))
        .collect();
    let ours: Vec<(usize, usize)> = made
        .pairs
        .iter()
        .filter(|d| d.bracket == *bracket)
        .map(|d| (d.a, d.b))
        .collect();
    let theirs: Vec<(usize, usize)> = other
        .boards
        .iter()
        .filter_map(|b| Some((f.index_of(b.white)?, f.index_of(b.black)?)))
        .filter(|(x, y)| pool.contains(x) && pool.contains(y))
        .collect();
    let paired = |p: &[(usize, usize)]| {
        p.iter()
            .flat_map(|&(a, b)| [a, b])
            .collect::<std::collections::BTreeSet<usize>>()
    };
    if ours.is_empty() || paired(&ours) != paired(&theirs) {
        return;
    }
    let granted = |p: &[(usize, usize)]| p.iter().map(|&(a, b)| granted_pair(rk, a, b)).sum();
    let (e, o): (i64, i64) = (granted(&ours), granted(&theirs));
    *counts = Some((e, o));
    *engine_better = e >= o;
}

/// §5: the colours of `a` and `b`.
fn colours_of(rk: &Ranked, a: usize, b: usize) -> Coloured {
    let f = rk.f;
    let (a, b) = if rk.order(a, b) != Ordering::Greater {
        (a, b)
    } else {
        (b, a)
    };
    let (ca, rule, meaning) = match swiss::common_colour(f, a, b) {
        Some((c, Step::BothPrefs)) => (c, "§5.4", "both players get their colour preference"),
        Some((c, Step::Equalise)) => (c, "§5.4", "equalise the whites and blacks played"),
        Some((c, Step::Alternate)) => (
            c,
            "§5.4",
            "alternate from the first difference going back from the previous round",
        ),
        None => match f.pref(a) {
            Some(c) => (
                c,
                "§5.4",
                "the preference of the player with the higher SB (Buchholz, ...)",
            ),
            None => {
                let c = if f.id(a) % 2 == 1 {
                    f.initial_colour
                } else {
                    f.initial_colour.opposite()
                };
                (
                    c,
                    "§5.1",
                    "no games yet: odd-numbered players take the colour drawn for number 1",
                )
            }
        },
    };
    let (board, forced) = swiss::board_of(f, a, b, ca);
    if forced {
        Coloured {
            board,
            rule: "§5.2/§5.3",
            meaning: "the other allocation breaks a colour limit",
        }
    } else {
        Coloured {
            board,
            rule,
            meaning,
        }
    }
}

/// Colour preferences granted by pairing `a` with `b` under §5 (§6.5 counts them); a player
/// without a preference counts as granted.
fn granted_pair(rk: &Ranked, a: usize, b: usize) -> i64 {
    swiss::granted_on(rk.f, a, b, &colours_of(rk, a, b).board)
}

/// §6.1-§6.5 for one scoregroup: the first combination of the priority order granting the
/// most colour preferences, whose floaters satisfy `floater_ok`; with whether it is the first
/// combination, and whether the search was cut short by its step limit.
fn choose(
    f: &Field,
    rk: &Ranked,
    pool: &[usize],
    floats: usize,
    lower: &[usize],
    floater_ok: &dyn Fn(usize) -> bool,
    how: Choice,
) -> Option<(Candidate, bool, bool)> {
    let mut s = Search::new(f, lower.to_vec());
    let nx = next(rk);
    let found = match how {
        Choice::Exact => s
            .best_exact(
                pool,
                floats,
                &nx,
                &|a, b| granted_pair(rk, a, b),
                floater_ok,
                &|rest, left| swiss::preference_bound(f, rest, left),
            )
            .map(|e| (e.candidate, e.first)),
        #[cfg(feature = "test-support")]
        Choice::Exhaustive => s
            .best_indexed(pool, floats, usize::MAX, &nx, &|c| {
                c.floaters
                    .iter()
                    .all(|&x| floater_ok(x))
                    .then(|| c.pairs.iter().map(|&(a, b)| granted_pair(rk, a, b)).sum())
            })
            .map(|(c, k)| (c, k == 1)),
    };
    found.map(|(c, first)| (c, first, s.stopped()))
}

/// §6.1-§6.4: the highest unpaired player, and his partners from the lowest upwards.
fn next<'a>(
    rk: &'a Ranked<'a>,
) -> impl Fn(&[usize], &[(usize, usize)]) -> (usize, Vec<usize>) + 'a {
    move |rem: &[usize], _| {
        let mut l = rem.to_vec();
        l.sort_by(|&a, &b| rk.order(a, b));
        let p = l[1..].iter().rev().copied().collect();
        (l[0], p)
    }
}

fn run(f: &Field, rk: &Ranked, how: Choice) -> Result<(Made, Vec<Coloured>), PairingError> {
    let mut made = Made::new();
    let mut order = f.avail.clone();
    order.sort_by(|&a, &b| rk.score[b].cmp(&rk.score[a]).then(rk.order(a, b)));
    let score = |i: usize| rk.score[i];
    let mut groups = swiss::score_groups(&order, &score);
    if order.len() % 2 == 1 {
        // §4: the lowest scoregroup's player with the lowest SB, Buchholz, Median, rating,
        // who has not had a point without playing (§4.1).
        let mut found = None;
        'g: for g in groups.iter().rev() {
            for &x in g.iter().rev() {
                let rest: Vec<usize> = order.iter().copied().filter(|&i| i != x).collect();
                if f.bye_allowed(x) && f.completable(&rest) {
                    found = Some(x);
                    break 'g;
                }
            }
        }
        let Some(x) = found else {
            return Err(no_pairing());
        };
        made.bye = Some((
            x,
            "§4.2",
            "the lowest SB (then Buchholz, Median) of the lowest scoregroup among those without a point obtained without playing".into(),
        ));
        for g in &mut groups {
            g.retain(|&i| i != x);
        }
        groups.retain(|g| !g.is_empty());
    }
    let mut came: Vec<usize> = Vec::new();
    for gi in 0..groups.len() {
        let last = gi + 1 == groups.len();
        let gscore = score(groups[gi][0]);
        let mut pool: Vec<usize> = came
            .iter()
            .copied()
            .chain(groups[gi].iter().copied())
            .collect();
        pool.sort_by(|&a, &b| rk.order(a, b));
        let bracket = made.brackets.len();
        let mut rep = swiss::report(f, gscore, &came, &groups[gi]);
        rep.unmet.push(format!(
            "§3.2 order: {}",
            pool.iter()
                .map(|&i| rk.describe(i))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let lower: Vec<usize> = groups[gi + 1..].concat();
        let floats = if last { 0 } else { pool.len() % 2 };
        // §6.3: not a player who floated in; §6.6: he must have an opponent below.
        let floater_ok = |x: usize| !came.contains(&x) && lower.iter().any(|&j| f.compatible(x, j));
        let mut chosen = choose(f, rk, &pool, floats, &lower, &floater_ok, how);
        if chosen.is_none() && floats == 1 {
            // Only a floater who came from above (or one without an opponent below) keeps the
            // round pairable.
            chosen = choose(f, rk, &pool, floats, &lower, &|_| true, how);
        }
        let table = if pool.len() % 2 == 0 {
            "§6.2"
        } else {
            "§6.4"
        };
        match chosen {
            Some((c, first, stopped)) => {
                if stopped {
                    rep.unmet.push(
                        "§6.5 the search stopped at its step limit: the best combination found, \
                         not proven the first granting the most"
                            .into(),
                    );
                }
                for &(x, y) in &c.pairs {
                    made.pairs.push(Decided {
                        a: x,
                        b: y,
                        bracket,
                        rule: if first { table } else { "§6.5" },
                        meaning: if first {
                            format!("combination 1 of the priority order ({table}): the highest meets the lowest he can meet")
                        } else {
                            "a later combination of the priority order: the first granting the most colour preferences".to_string()
                        },
                    });
                    rep.pairs.push((f.id(x), f.id(y)));
                }
                if !c.floaters.is_empty() {
                    rep.downfloaters = swiss::ids(f, &c.floaters);
                    rep.unmet.push(format!(
                        "§6.3 floats to the next scoregroup: {}",
                        crate::verdict::ids(&rep.downfloaters)
                    ));
                }
                came = c.floaters;
            }
            None if !last => {
                rep.unmet
                    .push("§6.6 no combination possible: merged with the next scoregroup".into());
                rep.downfloaters = swiss::ids(f, &pool);
                came = pool;
            }
            None => return Err(no_pairing()),
        }
        made.brackets.push(rep);
    }
    if !came.is_empty() {
        return Err(no_pairing());
    }
    if let Some((x, _, why)) = &made.bye
        && let Some(last) = made.brackets.last_mut()
    {
        last.last = true;
        last.unmet.push(format!("§4 bye: {} ({why})", f.id(*x)));
    }
    let colours = made
        .pairs
        .iter()
        .map(|d| colours_of(rk, d.a, d.b))
        .collect();
    Ok((made, colours))
}

fn no_pairing() -> PairingError {
    PairingError::NoValidPairing(
        "the players cannot all be paired (except one eligible for the bye) without a rematch \
         or breaking a colour limit (Burstein §3.1, §4.1, §5.2, §5.3)"
            .into(),
    )
}

#[cfg(feature = "test-support")]
pub mod checks {
    use super::*;
    use crate::RuleSet;

    /// The exact search of §6.5 against the whole enumeration of the priority order, on every
    /// round of small Burstein events (`simulate::each_small_round`: no scoregroup over 12
    /// players): the same pairs, floaters and bye in every round.
    pub fn the_exact_search_chooses_what_the_whole_enumeration_chooses() {
        let (mut rounds, mut beyond_first, mut unpairable) = (0, 0, 0);
        crate::simulate::each_small_round(RuleSet::Burstein, |seed, round, input| {
            let f = field(input);
            let rk = Ranked::new(&f, input);
            let shape = |r: Result<(Made, Vec<Coloured>), PairingError>| {
                r.ok().map(|(m, _)| {
                    let limited = m
                        .brackets
                        .iter()
                        .any(|b| b.unmet.iter().any(|u| u.contains("step limit")));
                    assert!(
                        !limited,
                        "seed {seed} round {round}: a search was cut short"
                    );
                    let later = m.pairs.iter().filter(|d| d.rule == "§6.5").count();
                    let pairs: Vec<(usize, usize)> = m.pairs.iter().map(|d| (d.a, d.b)).collect();
                    (pairs, m.bye.map(|b| b.0), later)
                })
            };
            let exact = shape(run(&f, &rk, Choice::Exact));
            let whole = shape(run(&f, &rk, Choice::Exhaustive));
            assert_eq!(
                exact.as_ref().map(|e| (&e.0, e.1)),
                whole.as_ref().map(|w| (&w.0, w.1)),
                "seed {seed} round {round}"
            );
            match exact {
                Some((_, _, later)) => beyond_first += (later > 0) as usize,
                None => unpairable += 1,
            }
            rounds += 1;
        });
        eprintln!(
            "{rounds} rounds, {beyond_first} with a scoregroup past combination 1, {unpairable} unpairable"
        );
        assert!(rounds >= 9_000, "{rounds} rounds");
        // §6.5 decided something beyond the first combination in a good share of them.
        assert!(beyond_first * 10 >= rounds, "{beyond_first} of {rounds}");
    }
}

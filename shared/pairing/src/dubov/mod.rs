//! The Dubov system (C.04.4.1, approved 1997): within a scoregroup, white-seekers with the
//! lowest average rating of opponents (ARO) meet the highest-rated black-seekers, so that the
//! AROs of a scoregroup's players converge.
//!
//! Rule text: FIDE Handbook C.04.4.1 (§1 definitions, §2 restrictions,
//! §3 colours, §4 bye, §5 first round, §6 standard pairing, §7 transfers, §8 floaters),
//! described for users in docs/src/rules/swiss.md. Section numbers below are the rule's.
//!
//! Choices where the text is silent or ambiguous (each also named in `--explain` output):
//! - ARO is the average over opponents of *played* games, kept as an exact fraction and
//!   compared by cross-multiplication (no floats); a player without games has ARO 0.
//! - "Alphabetical order" (6.2, 7.3, 7.4) is replaced by pairing number: the engine input
//!   carries no names, and the pairing number is the announced deterministic order.
//! - §5: "odd-numbered players" are those of the top half (identical to the other systems).
//! - Scoregroups are paired top-down (§6 does not say).
//! - §2.1 "upfloated": a round in which the player met an opponent with a higher score than
//!   his own before that round; the limit is applied when a player is transferred up (§7).
//! - §6.4 "has floated": met a lower-scored opponent, or received the bye, in an earlier round.
//!   Among floaters of the same class a-d, the lowest-rated floats first (then the higher
//!   pairing number), as §4 chooses the bye.
//! - A player without a colour preference joins the smaller colour subgroup (white if equal).
//! - §3 after rules 1-5 (equal AROs and ratings): white to the lower pairing number.
//! - §1.5 "dominant colour": the colour preferred by more players of the lowest scoregroup.
//! - Every decision keeps the rest of the round pairable (see `swiss`), which realises §6.3's
//!   "change the previous row" and §6.4's floaters without dead ends.

use crate::swiss::{
    self, ByeRule, Candidate, Coloured, Decided, Field, Made, RuleNames, Search, Step,
};
use crate::{Comparison, PairingError, PairingInput, RecordedPairing, RoundPairing};
use arbiter_core::Color;
use std::cmp::{Ordering, Reverse};

pub(crate) const NAMES: RuleNames = RuleNames {
    rematch: "C.04.1.b (Dubov §2)",
    bye: "C.04.1.d (Dubov §4)",
    colour_difference: "C.04.1.f (Dubov §2.2, no last-round exception)",
    colour_run: "C.04.1.g (Dubov §2.2, no last-round exception)",
};

pub(crate) fn pair(input: &PairingInput) -> Result<RoundPairing, PairingError> {
    let f = Field::new(input, ByeRule::PabOrForfeitWin);
    let (made, colours) = run(&f, Choice::Search)?;
    Ok(swiss::finish(&f, input, &made, &colours))
}

pub(crate) fn compare(
    input: &PairingInput,
    other: &RecordedPairing,
) -> Result<Comparison, PairingError> {
    let f = Field::new(input, ByeRule::PabOrForfeitWin);
    let (made, colours) = run(&f, Choice::Search)?;
    let engine = swiss::finish(&f, input, &made, &colours);
    Ok(swiss::compare(&f, &made, &colours, engine, other, &NAMES))
}

/// How a scoregroup's first candidate and first floater set are found: by the search (always),
/// or, in tests, by enumerating every pairing and every floater set and sorting them into the
/// rule's order, which the search must agree with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Choice {
    Search,
    #[cfg(feature = "test-support")]
    Exhaustive,
}

/// For the players still unpaired and the pairs made, the player to pair now and his partners
/// in order (see [`row_next`]).
type RowOrder<'a> = dyn Fn(&[usize], &[(usize, usize)]) -> (usize, Vec<usize>) + 'a;

/// Whether the players of `set` can all be paired among themselves.
fn can_pair(f: &Field, set: &[usize], how: Choice) -> bool {
    match how {
        Choice::Search => f.completable(set),
        #[cfg(feature = "test-support")]
        Choice::Exhaustive => exhaustive::can_pair(f, set),
    }
}

/// The first candidate of the row order (§6.2/§6.3) pairing all of `group` with `rest` still
/// pairable.
fn first_of(
    f: &Field,
    rest: Vec<usize>,
    group: &[usize],
    next: &RowOrder<'_>,
    how: Choice,
) -> Option<Candidate> {
    match how {
        Choice::Search => Search::new(f, rest).first(group, 0, next),
        #[cfg(feature = "test-support")]
        Choice::Exhaustive => exhaustive::first(f, &rest, group, next),
    }
}

/// The floater sets of `k` out of `n` ranked players, in the order §6.4 tries them.
fn floater_sets(n: usize, k: usize, how: Choice) -> Box<dyn Iterator<Item = Vec<usize>>> {
    match how {
        Choice::Search => Box::new(swiss::Combinations::new(n, k)),
        #[cfg(feature = "test-support")]
        Choice::Exhaustive => Box::new(exhaustive::subsets(n, k).into_iter()),
    }
}

/// White-seeker order (6.2): ARO ascending, then rating ascending, then pairing number.
fn white_order(f: &Field, a: usize, b: usize) -> Ordering {
    f.aro(a)
        .cmp(&f.aro(b))
        .then(f.all[a].rating.cmp(&f.all[b].rating))
        .then(f.id(a).cmp(&f.id(b)))
}

/// Black-seeker order (6.2): rating descending, then ARO descending, then pairing number.
fn black_order(f: &Field, a: usize, b: usize) -> Ordering {
    f.all[b]
        .rating
        .cmp(&f.all[a].rating)
        .then(f.aro(b).cmp(&f.aro(a)))
        .then(f.id(a).cmp(&f.id(b)))
}

fn aro_list(f: &Field, v: &[usize]) -> String {
    v.iter()
        .map(|&i| {
            format!(
                "{} (ARO {}, R {})",
                f.id(i),
                f.aro(i).show(),
                f.all[i].rating
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The colour more players of `v` prefer, if one does.
fn dominant(f: &Field, v: &[usize]) -> Option<Color> {
    let w = v
        .iter()
        .filter(|&&i| f.pref(i) == Some(Color::White))
        .count();
    let b = v
        .iter()
        .filter(|&&i| f.pref(i) == Some(Color::Black))
        .count();
    match w.cmp(&b) {
        Ordering::Greater => Some(Color::White),
        Ordering::Less => Some(Color::Black),
        Ordering::Equal => None,
    }
}

/// §2.1: may `i` be moved up to a higher scoregroup this round?
fn may_upfloat(f: &Field, i: usize) -> bool {
    if f.is_last_round() {
        return true;
    }
    let ups = f.floats(i, true);
    let limit = if f.total_rounds < 10 { 3 } else { 4 };
    ups.len() < limit && ups.last() != Some(&f.played_rounds())
}

fn has_floated(f: &Field, i: usize) -> bool {
    !f.floats(i, false).is_empty()
        || f.all[i]
            .history
            .iter()
            .any(|h| h.result == arbiter_core::ResultCode::PairingBye)
}

/// §3: the colour of `a` against `b`, and the rule that decided it.
fn colours_of(f: &Field, a: usize, b: usize) -> Coloured {
    let (ca, rule, meaning) = match swiss::common_colour(f, a, b) {
        Some((c, Step::BothPrefs)) => (c, "§3.1", "both players get their due colour"),
        Some((c, Step::Equalise)) => (c, "§3.2", "equalise whites and blacks"),
        Some((c, Step::Alternate)) => (
            c,
            "§3.3",
            "alternate from the latest round in which the colour histories differ",
        ),
        None => match f.aro(a).cmp(&f.aro(b)) {
            Ordering::Greater => (Color::White, "§3.4", "white to the higher ARO"),
            Ordering::Less => (Color::Black, "§3.4", "white to the higher ARO"),
            Ordering::Equal => match f.all[a].rating.cmp(&f.all[b].rating) {
                Ordering::Less => (Color::White, "§3.5", "white to the lower rating"),
                Ordering::Greater => (Color::Black, "§3.5", "white to the lower rating"),
                Ordering::Equal => (
                    if f.id(a) < f.id(b) {
                        Color::White
                    } else {
                        Color::Black
                    },
                    "§3.5",
                    "equal ARO and rating: white to the lower pairing number",
                ),
            },
        },
    };
    let (board, forced) = swiss::board_of(f, a, b, ca);
    if forced {
        Coloured {
            board,
            rule: "C.04.1.f/g",
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

/// The bye (§4): lowest rating in the lowest scoregroup; with equal ratings a player whose
/// preference is the dominant colour, then the highest ARO.
fn choose_bye(f: &Field, groups: &[Vec<usize>], how: Choice) -> Option<(usize, String)> {
    for g in groups.iter().rev() {
        let dom = dominant(f, g);
        let mut c: Vec<usize> = g.iter().copied().filter(|&i| f.bye_allowed(i)).collect();
        c.sort_by(|&a, &b| {
            f.all[a]
                .rating
                .cmp(&f.all[b].rating)
                .then((f.pref(b) == dom && dom.is_some()).cmp(&(f.pref(a) == dom && dom.is_some())))
                .then(f.aro(b).cmp(&f.aro(a)))
                .then(f.id(b).cmp(&f.id(a)))
        });
        for x in c {
            let rest: Vec<usize> = f.avail.iter().copied().filter(|&i| i != x).collect();
            if can_pair(f, &rest, how) {
                return Some((
                    x,
                    format!(
                        "lowest rating ({}) in the lowest scoregroup able to take it",
                        f.all[x].rating
                    ),
                ));
            }
        }
    }
    None
}

/// The row-by-row order of §6.2/§6.3 over the white-seekers `w` and black-seekers `b`: the
/// white-seeker of row k meets the black-seeker of his row; failing that, the first
/// black-seeker of the following rows, exchanged into his row (so the black-seeker he
/// displaces moves to the row he came from); failing all, a white-seeker of the following
/// rows. Black-seekers left over then meet each other in order.
fn row_next<'a>(
    w: &'a [usize],
    b: &'a [usize],
) -> impl Fn(&[usize], &[(usize, usize)]) -> (usize, Vec<usize>) + 'a {
    // Called once per search step: linear in the group, with each white-seeker's row looked
    // up rather than searched (a scan per pair made round 1 of 9,999 players cubic).
    let size = w.iter().chain(b).max().map_or(0, |&m| m + 1);
    let mut w_row = vec![usize::MAX; size];
    for (i, &x) in w.iter().enumerate() {
        w_row[x] = i;
    }
    move |rem: &[usize], pairs: &[(usize, usize)]| {
        let size = rem.iter().max().map_or(size, |&m| size.max(m + 1));
        let mut in_rem = vec![false; size];
        for &x in rem {
            in_rem[x] = true;
        }
        let has = |x: &usize| in_rem.get(*x).copied().unwrap_or(false);
        let mut arr = b.to_vec();
        let mut at = vec![usize::MAX; size];
        for (j, &y) in arr.iter().enumerate() {
            at[y] = j;
        }
        for &(x, y) in pairs {
            let i = w_row.get(x).copied().unwrap_or(usize::MAX);
            let j = at.get(y).copied().unwrap_or(usize::MAX);
            if i != usize::MAX && j != usize::MAX && i < arr.len() {
                arr.swap(i, j);
                at[arr[i]] = i;
                at[arr[j]] = j;
            }
        }
        if let Some(k) = w.iter().position(has) {
            let lead = w[k];
            let mut p: Vec<usize> = Vec::new();
            let row = k.min(arr.len());
            p.extend(arr[row..].iter().copied().filter(has));
            p.extend(arr[..row].iter().copied().filter(has));
            p.extend(w[k + 1..].iter().copied().filter(has));
            return (lead, p);
        }
        let k = b.iter().position(has).expect("group not empty");
        let lead = b[k];
        let p = b[k + 1..].iter().copied().filter(has).collect();
        (lead, p)
    }
}

fn tag_pairs(
    f: &Field,
    c: &Candidate,
    w: &[usize],
    b: &[usize],
    bracket: usize,
    made: &mut Made,
    first_round: bool,
) {
    for &(x, y) in &c.pairs {
        let row_x = w.iter().position(|&v| v == x);
        let row_y = b.iter().position(|&v| v == y);
        let (rule, meaning) = match (row_x, row_y) {
            (Some(i), Some(j)) if i == j && first_round => (
                "§5",
                format!(
                    "round 1: row {} of the top half meets row {} of the bottom half",
                    i + 1,
                    j + 1
                ),
            ),
            (Some(i), Some(j)) if i == j => (
                "§6.2",
                format!(
                    "row {}: the white-seeker with ARO {} meets the black-seeker rated {}",
                    i + 1,
                    f.aro(x).show(),
                    f.all[y].rating
                ),
            ),
            (Some(i), Some(_)) => (
                "§6.3",
                format!(
                    "row {}: the first black-seeker of the following rows he can meet with the \
                     rest of the round still pairable",
                    i + 1
                ),
            ),
            (Some(_), None) => (
                "§6.3",
                "no black-seeker possible: a white-seeker of the following rows".into(),
            ),
            _ => (
                "§6.3",
                "black-seekers left over after the white-seekers are paired".into(),
            ),
        };
        made.pairs.push(Decided {
            a: x,
            b: y,
            bracket,
            rule,
            meaning,
        });
    }
}

/// Colour subgroups of a pool (§6.1), balanced by §7.3/§7.4 within §2.2.
fn subgroups(f: &Field, pool: &[usize], notes: &mut Vec<String>) -> (Vec<usize>, Vec<usize>) {
    let mut w: Vec<usize> = pool
        .iter()
        .copied()
        .filter(|&i| f.pref(i) == Some(Color::White))
        .collect();
    let mut b: Vec<usize> = pool
        .iter()
        .copied()
        .filter(|&i| f.pref(i) == Some(Color::Black))
        .collect();
    for &i in pool.iter().filter(|&&i| f.pref(i).is_none()) {
        if w.len() <= b.len() {
            w.push(i)
        } else {
            b.push(i)
        }
    }
    if w.len() > b.len() + 1 {
        let n = (w.len() - b.len()) / 2;
        let mut c: Vec<usize> = w
            .iter()
            .copied()
            .filter(|&i| f.can_take(i, Color::Black))
            .collect();
        c.sort_by(|&x, &y| {
            f.aro(x)
                .cmp(&f.aro(y))
                .then(f.all[y].rating.cmp(&f.all[x].rating))
                .then(f.id(x).cmp(&f.id(y)))
        });
        let moved: Vec<usize> = c.into_iter().take(n).collect();
        if !moved.is_empty() {
            notes.push(format!(
                "§7.3 white-seekers with the lowest ARO moved to the black subgroup: {}",
                crate::verdict::ids(&swiss::ids(f, &moved))
            ));
        }
        w.retain(|i| !moved.contains(i));
        b.extend(moved);
    } else if b.len() > w.len() + 1 {
        let n = (b.len() - w.len()) / 2;
        let mut c: Vec<usize> = b
            .iter()
            .copied()
            .filter(|&i| f.can_take(i, Color::White))
            .collect();
        c.sort_by(|&x, &y| {
            f.aro(y)
                .cmp(&f.aro(x))
                .then(f.all[x].rating.cmp(&f.all[y].rating))
                .then(f.id(x).cmp(&f.id(y)))
        });
        let moved: Vec<usize> = c.into_iter().take(n).collect();
        if !moved.is_empty() {
            notes.push(format!(
                "§7.4 black-seekers with the highest ARO moved to the white subgroup: {}",
                crate::verdict::ids(&swiss::ids(f, &moved))
            ));
        }
        b.retain(|i| !moved.contains(i));
        w.extend(moved);
    }
    w.sort_by(|&x, &y| white_order(f, x, y));
    b.sort_by(|&x, &y| black_order(f, x, y));
    (w, b)
}

fn run(f: &Field, how: Choice) -> Result<(Made, Vec<Coloured>), PairingError> {
    let mut made = Made::new();
    let mut colours = Vec::new();
    let mut order = f.avail.clone();
    let score = |i: usize| f.all[i].score;
    order.sort_by_key(|&i| (Reverse(score(i)), f.id(i)));
    let mut groups = swiss::score_groups(&order, &score);
    if f.avail.len() % 2 == 1 {
        let Some((x, why)) = choose_bye(f, &groups, how) else {
            return Err(no_pairing());
        };
        made.bye = Some((x, "§4", why));
        for g in &mut groups {
            g.retain(|&i| i != x);
        }
        groups.retain(|g| !g.is_empty());
    }
    if f.round == 1 || f.avail.iter().all(|&i| f.all[i].colours.is_empty()) {
        first_round(f, &groups.concat(), &mut made, &mut colours, how)?;
        return Ok((made, colours));
    }
    let group_scores: Vec<i32> = groups.iter().map(|g| score(g[0])).collect();
    let mut came: Vec<usize> = Vec::new();
    let mut gi = 0;
    while gi < groups.len() {
        let mut pool = groups[gi].clone();
        if pool.is_empty() && came.is_empty() {
            // Everyone was transferred up (§7).
            gi += 1;
            continue;
        }
        let lower_of = |groups: &Vec<Vec<usize>>| -> Vec<usize> { groups[gi + 1..].concat() };
        let bracket = made.brackets.len();
        let mut rep = swiss::report(f, group_scores[gi], &came, &pool);
        let mut out: Vec<usize> = Vec::new();

        // §8: floaters from above, alternately white- and black-preferring, each against the
        // highest-rated player (opposite preference first, then lowest ARO).
        let mut fw: Vec<usize> = came
            .iter()
            .copied()
            .filter(|&i| f.pref(i) != Some(Color::Black))
            .collect();
        let mut fb: Vec<usize> = came
            .iter()
            .copied()
            .filter(|&i| f.pref(i) == Some(Color::Black))
            .collect();
        fw.sort_by(|&x, &y| white_order(f, x, y));
        fb.sort_by(|&x, &y| black_order(f, x, y));
        let mut fl = Vec::new();
        for k in 0..fw.len().max(fb.len()) {
            fl.extend(fw.get(k));
            fl.extend(fb.get(k));
        }
        for (k, &x) in fl.iter().enumerate() {
            let mut cands: Vec<usize> = pool.clone();
            cands.sort_by(|&a, &b| {
                let opp = |i: usize| f.pref(i).is_some() && f.pref(i) != f.pref(x);
                opp(b)
                    .cmp(&opp(a))
                    .then(f.all[b].rating.cmp(&f.all[a].rating))
                    .then(f.aro(a).cmp(&f.aro(b)))
                    .then(f.id(a).cmp(&f.id(b)))
            });
            let lower = lower_of(&groups);
            let found = cands.into_iter().find(|&c| {
                if !f.compatible(x, c) {
                    return false;
                }
                let mut s: Vec<usize> = pool.iter().copied().filter(|&i| i != c).collect();
                s.extend(&fl[k + 1..]);
                s.extend(&out);
                s.extend(&lower);
                can_pair(f, &s, how)
            });
            match found {
                Some(c) => {
                    pool.retain(|&i| i != c);
                    made.pairs.push(Decided {
                        a: x,
                        b: c,
                        bracket,
                        rule: "§8.2",
                        meaning: "a floater meets the highest-rated player, opposite colour \
                                  preference first"
                            .into(),
                    });
                    rep.pairs.push((f.id(x), f.id(c)));
                }
                None => out.push(x),
            }
        }
        if !out.is_empty() {
            rep.unmet.push(format!(
                "§8 floaters from above without an opponent here, float on: {}",
                crate::verdict::ids(&swiss::ids(f, &out))
            ));
        }
        let has_lower = gi + 1 < groups.len();

        // §7.1: a player who has met everybody here gets a partner transferred up.
        if has_lower {
            let stuck: Vec<usize> = pool
                .iter()
                .copied()
                .filter(|&p| !pool.iter().any(|&q| f.compatible(p, q)))
                .collect();
            for p in stuck {
                let mut cands: Vec<usize> = groups[gi + 1]
                    .iter()
                    .copied()
                    .filter(|&q| f.compatible(p, q) && may_upfloat(f, q))
                    .collect();
                cands.sort_by(|&a, &b| {
                    let opp = |i: usize| f.pref(i).is_some() && f.pref(i) != f.pref(p);
                    opp(b)
                        .cmp(&opp(a))
                        .then(f.all[b].rating.cmp(&f.all[a].rating))
                        .then(f.aro(a).cmp(&f.aro(b)))
                        .then(f.id(a).cmp(&f.id(b)))
                });
                let lower = lower_of(&groups);
                let found = cands.into_iter().find(|&q| {
                    let mut s: Vec<usize> = pool.iter().copied().filter(|&i| i != p).collect();
                    s.extend(&out);
                    s.extend(lower.iter().copied().filter(|&i| i != q));
                    can_pair(f, &s, how)
                });
                pool.retain(|&i| i != p);
                match found {
                    Some(q) => {
                        groups[gi + 1].retain(|&i| i != q);
                        made.pairs.push(Decided {
                            a: p,
                            b: q,
                            bracket,
                            rule: "§7.1",
                            meaning: "he has met everybody in his scoregroup: a player \
                                      transferred up from the next scoregroup"
                                .into(),
                        });
                        rep.pairs.push((f.id(p), f.id(q)));
                        rep.unmet
                            .push(format!("§7.1 transferred up for {}: {}", f.id(p), f.id(q)));
                    }
                    None => out.push(p),
                }
            }
        }

        // §7.2: an odd scoregroup gets a player transferred up from the next possible one.
        let mut chosen: Option<(Candidate, Vec<usize>, Vec<usize>)> = None;
        if pool.len() % 2 == 1 && has_lower {
            let dom = dominant(f, &pool);
            'lower: for lj in gi + 1..groups.len() {
                let mut cands: Vec<usize> = groups[lj]
                    .iter()
                    .copied()
                    .filter(|&q| may_upfloat(f, q) && pool.iter().any(|&p| f.compatible(p, q)))
                    .collect();
                cands.sort_by(|&a, &b| {
                    let opp = |i: usize| dom.is_some() && f.pref(i).is_some() && f.pref(i) != dom;
                    opp(b)
                        .cmp(&opp(a))
                        .then(f.all[b].rating.cmp(&f.all[a].rating))
                        .then(f.aro(a).cmp(&f.aro(b)))
                        .then(f.id(a).cmp(&f.id(b)))
                });
                for q in cands {
                    let mut with = pool.clone();
                    with.push(q);
                    let mut notes = Vec::new();
                    let (w, b) = subgroups(f, &with, &mut notes);
                    let mut rest: Vec<usize> =
                        lower_of(&groups).into_iter().filter(|&i| i != q).collect();
                    rest.extend(&out);
                    let found = first_of(f, rest, &with, &row_next(&w, &b), how);
                    if let Some(c) = found {
                        groups[lj].retain(|&i| i != q);
                        rep.unmet
                            .push(format!("§7.2 odd scoregroup: {} transferred up", f.id(q)));
                        rep.unmet.extend(notes);
                        pool = with;
                        chosen = Some((c, w, b));
                        break 'lower;
                    }
                }
            }
        }

        // §6.2-§6.4: pair the colour subgroups row by row; who cannot be paired floats down.
        let lower = lower_of(&groups);
        if chosen.is_none() {
            let mut notes = Vec::new();
            let (w, b) = subgroups(f, &pool, &mut notes);
            rep.unmet.extend(notes);
            // §6.4 floater order: a. not floated, pairable below; b. not floated; c. floated,
            // pairable; d. floated; then the lowest rating.
            let mut ranked = pool.clone();
            ranked.sort_by_key(|&i| {
                let pairable = lower.iter().any(|&j| f.compatible(i, j));
                (
                    has_floated(f, i),
                    !pairable,
                    f.all[i].rating,
                    Reverse(f.id(i)),
                )
            });
            let max_k = if has_lower { pool.len() } else { 0 };
            let mut k = pool.len() % 2;
            let mut tried = 0;
            'k: while k <= max_k {
                for combo in floater_sets(ranked.len(), k, how) {
                    tried += 1;
                    if tried > swiss::FLOATER_SETS_GUARD {
                        rep.unmet.push(format!(
                            "§6.4 the floater search stopped after {} sets: the first set \
                             found pairable, not proven the first of the order",
                            swiss::FLOATER_SETS_GUARD
                        ));
                        break 'k;
                    }
                    let fl: Vec<usize> = combo.iter().map(|&c| ranked[c]).collect();
                    let stay: Vec<usize> =
                        pool.iter().copied().filter(|i| !fl.contains(i)).collect();
                    let mut rest = lower.clone();
                    rest.extend(&out);
                    rest.extend(&fl);
                    if !can_pair(f, &stay, how) || !can_pair(f, &rest, how) {
                        continue;
                    }
                    if let Some(c) = first_of(f, rest, &stay, &row_next(&w, &b), how) {
                        out.extend(&fl);
                        chosen = Some((c, w.clone(), b.clone()));
                        break 'k;
                    }
                }
                k += 2;
            }
        }
        let (c, w, b) = match chosen {
            Some(x) => x,
            // Nobody here can be paired with the rest of the round still pairable: the whole
            // scoregroup floats down (§6.4).
            None if has_lower => {
                out.extend(&pool);
                (
                    Candidate {
                        pairs: Vec::new(),
                        floaters: Vec::new(),
                    },
                    Vec::new(),
                    Vec::new(),
                )
            }
            None => return Err(no_pairing()),
        };
        rep.unmet.insert(
            0,
            format!("§6.2 white-seekers by ARO ascending: {}", aro_list(f, &w)),
        );
        rep.unmet.insert(
            1,
            format!(
                "§6.2 black-seekers by rating descending: {}",
                aro_list(f, &b)
            ),
        );
        tag_pairs(f, &c, &w, &b, bracket, &mut made, false);
        rep.pairs
            .extend(c.pairs.iter().map(|&(x, y)| (f.id(x), f.id(y))));
        let floated: Vec<usize> = out.clone();
        if !floated.is_empty() {
            rep.downfloaters = swiss::ids(f, &floated);
            rep.unmet.push(format!(
                "§6.4 float to the next scoregroup: {}",
                crate::verdict::ids(&rep.downfloaters)
            ));
        }
        if !has_lower && !out.is_empty() {
            return Err(no_pairing());
        }
        made.brackets.push(rep);
        came = out;
        gi += 1;
    }
    if !came.is_empty() {
        return Err(no_pairing());
    }
    for d in &made.pairs {
        colours.push(colours_of(f, d.a, d.b));
    }
    finish_bye_report(f, &mut made);
    Ok((made, colours))
}

fn finish_bye_report(f: &Field, made: &mut Made) {
    if let Some((x, _, why)) = &made.bye {
        if let Some(last) = made.brackets.last_mut() {
            last.last = true;
            last.downfloaters.push(f.id(*x));
            last.unmet.push(format!("§4 bye: {} ({why})", f.id(*x)));
        }
    }
}

fn first_round(
    f: &Field,
    players: &[usize],
    made: &mut Made,
    colours: &mut Vec<Coloured>,
    how: Choice,
) -> Result<(), PairingError> {
    let mut list = players.to_vec();
    list.sort_by_key(|&i| f.id(i));
    let half = list.len() / 2;
    let (top, bottom) = list.split_at(half);
    let c = first_of(f, Vec::new(), &list, &row_next(top, bottom), how).ok_or_else(no_pairing)?;
    let mut rep = swiss::report(f, 0, &[], &list);
    rep.unmet
        .push("§5 round 1: top half against bottom half, row by row".into());
    tag_pairs(f, &c, top, bottom, 0, made, true);
    let mut pairs = c.pairs.clone();
    pairs.sort_by_key(|&(a, b)| f.id(a).min(f.id(b)));
    for (k, &(a, b)) in pairs.iter().enumerate() {
        // §5: the top-half player of board k gets the drawn colour when k is odd.
        colours.push(swiss::first_round_colours(
            f,
            a,
            b,
            k + 1,
            "§5",
            "round 1: odd boards' top-half player gets the drawn colour",
        ));
    }
    rep.pairs = c.pairs.iter().map(|&(x, y)| (f.id(x), f.id(y))).collect();
    made.brackets.push(rep);
    finish_bye_report(f, made);
    Ok(())
}

fn no_pairing() -> PairingError {
    PairingError::NoValidPairing(
        "the players cannot all be paired (except one eligible for the bye) without a rematch \
         or breaking a colour limit (C.04.1.b, d, f, g)"
            .into(),
    )
}

/// The search's and the combinations' answers found another way, for the tests: every pairing
/// of a group and every floater set is enumerated, then sorted into the rule's order.
#[cfg(feature = "test-support")]
mod exhaustive {
    use super::{Candidate, Field, RowOrder};

    /// Whether `set` has a perfect matching without a rematch or a colour-limit break, by trying
    /// every partner of its first player.
    pub fn can_pair(f: &Field, set: &[usize]) -> bool {
        let Some((&x, rest)) = set.split_first() else {
            return true;
        };
        rest.iter().enumerate().any(|(k, &y)| {
            f.compatible(x, y) && {
                let mut r = rest.to_vec();
                r.remove(k);
                can_pair(f, &r)
            }
        })
    }

    fn matchings(
        f: &Field,
        set: &[usize],
        acc: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        let Some((&x, rest)) = set.split_first() else {
            out.push(acc.clone());
            return;
        };
        for (k, &y) in rest.iter().enumerate() {
            if f.compatible(x, y) {
                let mut r = rest.to_vec();
                r.remove(k);
                acc.push((x, y));
                matchings(f, &r, acc, out);
                acc.pop();
            }
        }
    }

    /// Every perfect matching of `group`, each placed in the row order by the position of
    /// every step's partner in the list `next` gives for that step; the least is the first.
    pub fn first(f: &Field, rest: &[usize], group: &[usize], next: &RowOrder) -> Option<Candidate> {
        if !can_pair(f, rest) {
            return None;
        }
        let mut all = Vec::new();
        matchings(f, group, &mut Vec::new(), &mut all);
        all.into_iter()
            .filter_map(|m| {
                let partner = |x: usize| {
                    m.iter()
                        .find_map(|&(a, b)| (a == x).then_some(b).or((b == x).then_some(a)))
                };
                let (mut rem, mut pairs, mut key) = (group.to_vec(), Vec::new(), Vec::new());
                while !rem.is_empty() {
                    let (lead, list) = next(&rem, &pairs);
                    let p = partner(lead)?;
                    key.push(list.iter().position(|&y| y == p)?);
                    pairs.push((lead, p));
                    rem.retain(|&y| y != lead && y != p);
                }
                Some((key, pairs))
            })
            .min_by(|a, b| a.0.cmp(&b.0))
            .map(|(_, pairs)| Candidate {
                pairs,
                floaters: Vec::new(),
            })
    }

    /// Every `k`-subset of `0..n`, in lexicographic order of its sorted members.
    pub fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
        let mut all: Vec<Vec<usize>> = (0u32..1 << n)
            .filter(|m| m.count_ones() as usize == k)
            .map(|m| (0..n).filter(|&i| m & (1 << i) != 0).collect())
            .collect();
        all.sort();
        all
    }
}

#[cfg(feature = "test-support")]
pub mod checks {
    use super::*;
    use crate::RuleSet;

    /// The search of the row order (§6.2/§6.3), the floater sets of §6.4 and every completion
    /// test against whole enumerations, on every round of small Dubov events
    /// (`simulate::each_small_round`: 6 to 12 players, so every group is enumerable): the same
    /// pairs, in the same order, and the same bye in every round.
    pub fn the_row_search_chooses_what_the_whole_enumeration_chooses() {
        let (mut rounds, mut exchanged, mut floated, mut unpairable) = (0, 0, 0, 0);
        crate::simulate::each_small_round(RuleSet::Dubov, |seed, round, input| {
            let f = Field::new(input, ByeRule::PabOrForfeitWin);
            let shape = |r: &Result<(Made, Vec<Coloured>), PairingError>| {
                r.as_ref().ok().map(|(m, _)| {
                    let pairs: Vec<(usize, usize)> = m.pairs.iter().map(|d| (d.a, d.b)).collect();
                    (pairs, m.bye.as_ref().map(|b| b.0))
                })
            };
            let searched = run(&f, Choice::Search);
            let whole = run(&f, Choice::Exhaustive);
            assert_eq!(shape(&searched), shape(&whole), "seed {seed} round {round}");
            if let Ok((m, _)) = &searched {
                exchanged += m.pairs.iter().any(|d| d.rule == "§6.3") as usize;
                floated += m
                    .brackets
                    .iter()
                    .any(|b| !b.downfloaters.is_empty() && !b.last)
                    as usize;
            }
            unpairable += searched.is_err() as usize;
            rounds += 1;
        });
        eprintln!(
            "{rounds} rounds, {exchanged} with a §6.3 exchange, {floated} with §6.4 floaters, \
             {unpairable} unpairable"
        );
        assert!(rounds >= 9_000, "{rounds} rounds");
        // The orders beyond the first were exercised, not only the straight rows of §6.2.
        assert!(exchanged * 10 >= rounds, "{exchanged} of {rounds}");
        assert!(floated * 10 >= rounds, "{floated} of {rounds}");
    }
}

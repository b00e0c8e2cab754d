//! The Burstein system as bbpPairings reads it (rule set `burstein-bbp`), for events whose
//! rules name that program's pairings. bbpPairings is the most used free Burstein engine; its
//! own documentation calls its Burstein an implementation of an earlier version of the rules,
//! not endorsed. Where the rule text (FIDE Handbook C.04.4.2) leaves a point open, this reading
//! takes the side that program takes; `docs/src/rules/swiss.md` sets the two readings side by
//! side. The engine's own reading is `burstein` (`super`).
//!
//! The reading, point by point:
//! - §3.3 the virtual point of rounds 1 and 2 goes to the top of the initial ranking until
//!   half (rounded down) of the players present in round 1 carry it; absent players above that
//!   line carry it too, without counting.
//! - §3.2 Sonneborn-Berger, Buchholz and Median count every round: an opponent's score counts
//!   his unplayed rounds as draws and includes his virtual point; a player's own unplayed
//!   round is a game against a virtual opponent (his score before the round, the opposite
//!   result, draws for the rounds after). Median is 0 until three rounds are played.
//! - §3.2 a floater is ranked in his new scoregroup by Sonneborn-Berger, then Buchholz and
//!   Median each multiplied by his score (the residents' own by theirs), then pairing number.
//! - §4.1 the bye goes to the lowest player of the §3.2 order who has had neither a
//!   pairing-allocated bye nor a forfeit win (a half-point bye does not disqualify).
//! - §6: a maximum-weight matching decides, in this order, that everyone is paired, that the
//!   most pairs are inside a scoregroup (a scoregroup that cannot be paired with at most one
//!   floater joins the next one), and inside each scoregroup the most pairs whose colour
//!   preferences differ (or where one has none); then, from the top of each scoregroup, each
//!   player takes the lowest partner that keeps that optimum. A player whose partner lies
//!   below the scoregroup floats.
//! - §5 colours: the common steps (both preferences, the absolute one, the larger imbalance,
//!   the strong one, alternation from the last round the two histories differ), then the
//!   higher of the two in the §3.2 order gets his preference; two players without a preference
//!   take colours by pairing number and the colour drawn for round 1.
//!
//! The matching weight is exact (integers, one field per criterion), and every choice is a
//! function of the input alone, so the pairing does not depend on the solver's tie-breaking
//! except in the one place the reading itself does: which maximum matching is tested for a
//! scoregroup's pairability. `tests/golden/burstein-bbp` holds tournaments paired by that
//! program, every round of which this reading must reproduce.

use super::NAMES;
use crate::swiss::{self, ByeRule, Coloured, Decided, Field, Made};
use crate::{Comparison, PairingError, PairingInput, RecordedPairing, RoundPairing};
use arbiter_core::{Color, ResultCode};
use arbiter_matching::Matcher;

/// The fields of an edge's weight, most significant first: both can meet; both in one
/// scoregroup; their colour preferences can both be granted; the partner's place counted
/// from the top, so that the lowest partner weighs most (the highest player's search for the
/// lowest partner). Each field holds the sum over half of 9,999 players of the field below it.
const COMPATIBLE: u128 = 1 << 56;
const SAME_GROUP: u128 = 1 << 42;
const COLOUR: u128 = 1 << 28;

/// What this reading computes of each player before the round.
struct Reading<'a> {
    f: &'a Field,
    /// Score with the virtual point (§3.3), tenths.
    score: Vec<i128>,
    sb: Vec<i128>,
    buchholz: Vec<i128>,
    median: Vec<i128>,
    pref: Vec<Option<Color>>,
    absolute: Vec<bool>,
    strong: Vec<bool>,
    imbalance: Vec<i32>,
    /// Place in the initial ranking among the players who count this round: those present,
    /// and those absent who were paired before (one absent from the start is left out).
    rank: Vec<usize>,
}

impl<'a> Reading<'a> {
    fn new(f: &'a Field, input: &PairingInput) -> Reading<'a> {
        let n = f.all.len();
        let pts = &input.points;
        let (win, draw) = (pts.win.tenths() as i128, pts.draw.tenths() as i128);
        let played_rounds = f.played_rounds() as usize;
        let acc = acceleration(f, input);
        let points = |i: usize, k: usize| pts.points(f.all[i].history[k].result).tenths() as i128;
        let rounds = |i: usize| f.all[i].history.len().min(played_rounds);
        // An opponent's score with his unplayed rounds as draws, and his virtual point.
        let adjusted: Vec<i128> = (0..n)
            .map(|i| {
                acc[i]
                    + (0..rounds(i))
                        .map(|k| {
                            if f.all[i].history[k].is_played_game() {
                                points(i, k)
                            } else {
                                draw
                            }
                        })
                        .sum::<i128>()
            })
            .collect();
        // The virtual opponent's score for an unplayed round: the opposite result.
        let virtual_opponent = |r: ResultCode| -> i128 {
            match r {
                ResultCode::ForfeitLoss
                | ResultCode::ZeroBye
                | ResultCode::Loss
                | ResultCode::LossUnrated => win,
                ResultCode::HalfBye | ResultCode::Draw | ResultCode::DrawUnrated => draw,
                ResultCode::PairingBye if (pts.pairing_bye.tenths() as i128) < win => {
                    if (pts.pairing_bye.tenths() as i128) < draw {
                        win
                    } else {
                        draw
                    }
                }
                _ => pts.forfeit_loss.tenths() as i128,
            }
        };
        let (mut sb, mut buchholz, mut median) = (vec![0; n], vec![0; n], vec![0; n]);
        for i in 0..n {
            // The player's own score before round k, with draws for the rounds after it.
            let mut own = (played_rounds as i128 - 1) * draw + acc[i];
            let (mut lo, mut hi) = (i128::MAX, i128::MIN);
            for k in 0..rounds(i) {
                let h = &f.all[i].history[k];
                let got = points(i, k);
                let opponent = match h.opponent.and_then(|o| f.index_of(o)) {
                    Some(o) if h.is_played_game() => adjusted[o],
                    _ => own + virtual_opponent(h.result),
                };
                sb[i] += opponent * got;
                buchholz[i] += opponent;
                lo = lo.min(opponent);
                hi = hi.max(opponent);
                own += got - draw;
            }
            if played_rounds > 2 && rounds(i) > 0 {
                median[i] = buchholz[i] - lo - hi;
            }
        }
        let mut r = Reading {
            f,
            score: (0..n).map(|i| f.all[i].score as i128 + acc[i]).collect(),
            sb,
            buchholz,
            median,
            pref: vec![None; n],
            absolute: vec![false; n],
            strong: vec![false; n],
            imbalance: vec![0; n],
            rank: vec![0; n],
        };
        let mut place = 0;
        for i in 0..n {
            r.rank[i] = place;
            let e = &f.all[i];
            let paired = |h: &arbiter_core::RoundEntry| {
                h.opponent.is_some() || h.result == ResultCode::PairingBye
            };
            if e.available || e.history.iter().any(paired) {
                place += 1;
            }
        }
        for i in 0..n {
            let colours = &f.all[i].colours;
            let whites = colours.iter().filter(|&&c| c == Color::White).count() as i32;
            let blacks = colours.len() as i32 - whites;
            // The length of the run of equal colours the history ends with.
            let run = colours
                .iter()
                .rev()
                .take_while(|&&c| Some(c) == colours.last().copied())
                .count();
            let last = colours.last().map(|c| c.opposite());
            let fewer = if whites > blacks {
                Color::Black
            } else {
                Color::White
            };
            let imbalance = (whites - blacks).abs();
            r.pref[i] = if imbalance > 1 {
                Some(fewer)
            } else if run > 1 {
                last
            } else if imbalance > 0 {
                Some(fewer)
            } else {
                last
            };
            r.absolute[i] = imbalance > 1 || run > 1;
            r.strong[i] = !r.absolute[i] && imbalance > 0;
            r.imbalance[i] = imbalance;
        }
        r
    }

    /// `a` ranks below `b` in the §3.2 order (SB, Buchholz, Median, pairing number); between
    /// players of different scores Buchholz and Median are weighed by the score.
    fn below(&self, a: usize, b: usize) -> bool {
        let key = |p: usize, q: usize| {
            let weigh = if self.score[p] == self.score[q] {
                1
            } else {
                self.score[p]
            };
            (self.sb[p], self.buchholz[p] * weigh, self.median[p] * weigh)
        };
        (key(a, b), self.rank[b]) < (key(b, a), self.rank[a])
    }

    /// Both may meet (not met, not both bound to the same colour), and the weight of the
    /// edge between them.
    fn weight(&self, a: usize, b: usize, same_group: bool, colour: bool) -> u128 {
        let bound = self.absolute[a] && self.absolute[b] && self.pref[a] == self.pref[b];
        if self.f.met(a, b) || bound {
            return 0;
        }
        let granted =
            self.pref[a] != self.pref[b] || self.pref[a].is_none() || self.pref[b].is_none();
        COMPATIBLE
            + if same_group { SAME_GROUP } else { 0 }
            + if same_group && colour && granted {
                COLOUR
            } else {
                0
            }
    }

    fn describe(&self, i: usize) -> String {
        let tenths = |v: i128| arbiter_core::Score(v as i32).to_string();
        format!(
            "{} (SB {}, Bh {}, Med {})",
            self.f.id(i),
            arbiter_core::Score((self.sb[i] / 10) as i32),
            tenths(self.buchholz[i]),
            tenths(self.median[i]),
        )
    }
}

/// §3.3: the virtual point of rounds 1 and 2 (or the file's own acceleration, TRF XXA).
fn acceleration(f: &Field, input: &PairingInput) -> Vec<i128> {
    let n = f.all.len();
    if let Some(given) = super::given_acceleration(f, input) {
        return given.into_iter().map(i128::from).collect();
    }
    let mut acc = vec![0; n];
    if f.round > 2 {
        return acc;
    }
    let present = |i: usize| match f.all[i].history.first() {
        Some(h) => h.opponent.is_some() || h.result == ResultCode::PairingBye,
        None => f.round > 1 || f.all[i].available,
    };
    let mut left = (0..n).filter(|&i| present(i)).count();
    if left <= 1 {
        return acc;
    }
    for (i, a) in acc.iter_mut().enumerate() {
        *a = f.win as i128;
        if present(i) {
            left -= 2;
            if left <= 1 {
                break;
            }
        }
    }
    acc
}

/// A stable merge sort that takes its runs in the same order as the program's list sort,
/// so that even an order that is not transitive (a floater weighed by his score among
/// players of score 0) sorts the same way.
fn list_sort(items: Vec<usize>, before: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    // Merges `newer` into `older`: an element of `newer` goes first only when strictly before.
    let merge = |older: Vec<usize>, newer: Vec<usize>| {
        let mut out = Vec::with_capacity(older.len() + newer.len());
        let (mut i, mut j) = (0, 0);
        while i < older.len() && j < newer.len() {
            if before(newer[j], older[i]) {
                out.push(newer[j]);
                j += 1;
            } else {
                out.push(older[i]);
                i += 1;
            }
        }
        out.extend_from_slice(&older[i..]);
        out.extend_from_slice(&newer[j..]);
        out
    };
    if items.len() < 2 {
        return items;
    }
    let mut buckets: Vec<Vec<usize>> = Vec::new();
    for x in items {
        let mut carry = vec![x];
        let mut k = 0;
        while k < buckets.len() && !buckets[k].is_empty() {
            carry = merge(std::mem::take(&mut buckets[k]), carry);
            k += 1;
        }
        if k == buckets.len() {
            buckets.push(carry);
        } else {
            buckets[k] = carry;
        }
    }
    let mut acc: Vec<usize> = Vec::new();
    for b in buckets {
        acc = merge(b, acc);
    }
    acc
}

/// The scoregroups' boundaries as the reading grows them: vertex indices where a scoregroup
/// starts, in order; a boundary written twice closes a scoregroup that sends no floater on.
struct Bounds(Vec<usize>);

impl Bounds {
    fn last(&self) -> usize {
        self.0[self.0.len() - 1]
    }
    fn back(&self, k: usize) -> usize {
        self.0[self.0.len() - 1 - k]
    }
}

/// The matching is acceptable: every scoregroup but the last is paired, each with at most one
/// player paired outside it (two when a floater comes in and one must go on).
fn acceptable(m: &Matcher<u128>, bounds: &Bounds) -> bool {
    let b = &bounds.0;
    let (end, open) = (bounds.last(), bounds.back(1));
    let (mut it, mut outside, mut begin) = (0, 0, 0);
    for v in 0..m.len() {
        if v >= end {
            return true;
        }
        if v >= b[it] {
            outside = 0;
            begin = v;
            while v >= b[it] {
                it += 1;
            }
        }
        let mate = m.mate(v).unwrap_or(v);
        if mate == v && v < open {
            return false;
        }
        if mate == v || mate < begin || mate >= b[it] {
            outside += 1;
            if outside > if b[it] % 2 == 1 { 2 } else { 1 } {
                return false;
            }
        }
    }
    true
}

pub(crate) fn pair(input: &PairingInput) -> Result<RoundPairing, PairingError> {
    let f = Field::new(input, ByeRule::PabOrForfeitWin);
    let r = Reading::new(&f, input);
    let (made, colours) = run(&f, &r)?;
    Ok(swiss::finish(&f, input, &made, &colours))
}

pub(crate) fn compare(
    input: &PairingInput,
    other: &RecordedPairing,
) -> Result<Comparison, PairingError> {
    let f = Field::new(input, ByeRule::PabOrForfeitWin);
    let r = Reading::new(&f, input);
    let (made, colours) = run(&f, &r)?;
    let engine = swiss::finish(&f, input, &made, &colours);
    Ok(swiss::compare(&f, &made, &colours, engine, other, &NAMES))
}

fn run(f: &Field, r: &Reading) -> Result<(Made, Vec<Coloured>), PairingError> {
    let mut made = Made::new();
    let mut order = list_sort(f.avail.clone(), &|p, q| {
        r.score[q] < r.score[p] || (r.score[q] == r.score[p] && r.below(q, p))
    });
    if order.len() % 2 == 1 {
        let at = (0..order.len())
            .rev()
            .find(|&k| f.bye_allowed(order[k]))
            .ok_or_else(|| no_pairing("no player may receive the pairing-allocated bye (§4.1)"))?;
        let x = order.remove(at);
        made.bye = Some((
            x,
            "§4.1 (bbp reading)",
            "the lowest in the §3.2 order who has had no pairing-allocated bye or forfeit win"
                .into(),
        ));
    }
    let v = order;
    let n = v.len();
    let mut m: Matcher<u128> = Matcher::new(n);

    // The scoregroups, each joined to the next while it cannot be paired.
    let mut b = Bounds(vec![0, 0]);
    let mut ok = true;
    while b.last() < n {
        b.0.push(b.last());
        loop {
            let begin = b.last();
            loop {
                let x = b.last();
                let (from, group) = (b.back(2), b.back(1));
                for u in from..x {
                    m.set_weight(x, u, r.weight(v[u], v[x], u >= group, false));
                }
                *b.0.last_mut().expect("bounds") += 1;
                if !(b.last() < n && r.score[v[begin]] == r.score[v[b.last()]]) {
                    break;
                }
            }
            // An odd group: its first player below stands in as the floater's opponent, so
            // that the groups above are judged paired.
            if b.last() % 2 == 1 {
                let x = b.last();
                for u in b.back(1)..x {
                    m.set_weight(x, u, COMPATIBLE);
                }
            }
            m.solve();
            ok = acceptable(&m, &b);
            if !(b.last() < n && !ok) {
                break;
            }
        }
        if b.last() < n && b.last() % 2 == 0 {
            b.0.push(b.last());
        }
    }
    // The last scoregroup cannot be paired: it joins the one above, as often as needed.
    while b.0.len() > 3 && !ok {
        b.0.pop();
        let boundary = b.0.pop().expect("bounds");
        let begin = b.0.pop().expect("bounds");
        for o in b.last()..boundary {
            for i in boundary..n {
                m.set_weight(o, i, r.weight(v[o], v[i], o >= begin, false));
            }
        }
        m.solve();
        b.0.push(begin);
        b.0.push(n);
        ok = acceptable(&m, &b);
    }
    if !ok {
        return Err(no_pairing(
            "the players cannot all be paired (except the bye) without a rematch or two players \
             bound to the same colour (§3.1, §5)",
        ));
    }

    // From the top of each scoregroup: the lowest partner that keeps the matching's weight.
    let mut taken = vec![false; n];
    let mut floater: Option<usize> = None;
    let mut begin = b.0[0];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for &end in &b.0[1..] {
        if begin == end {
            continue;
        }
        let came = floater.take();
        let members: Vec<usize> = (begin..end).chain(came).collect();
        let group = list_sort(members, &|p, q| r.below(v[q], v[p]));
        for (k, &x) in group.iter().enumerate() {
            for &y in group[k + 1..].iter() {
                m.set_weight(x, y, r.weight(v[x], v[y], true, true));
            }
        }
        let mut report = swiss::report(
            f,
            r.score[v[begin]] as i32,
            &came.map(|c| vec![v[c]]).unwrap_or_default(),
            &(begin..end).map(|x| v[x]).collect::<Vec<_>>(),
        );
        report.unmet.push(format!(
            "§3.2 order (bbp reading): {}",
            group
                .iter()
                .map(|&x| r.describe(v[x]))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let bracket = made.brackets.len();
        for (k, &x) in group.iter().enumerate() {
            if taken[x] {
                continue;
            }
            let mut place = 1;
            for &y in &group[k + 1..] {
                if !taken[y] {
                    let w = r.weight(v[x], v[y], true, true);
                    if w != 0 {
                        m.set_weight(x, y, w + place);
                        place += 1;
                    }
                }
            }
            m.solve();
            let mate = m.mate(x).unwrap_or(x);
            if mate >= end {
                floater = Some(x);
                report.downfloaters = vec![f.id(v[x])];
                report.unmet.push(format!(
                    "§6.3 floats to the next scoregroup: {}",
                    f.id(v[x])
                ));
            } else if mate == x {
                return Err(no_pairing("a player is left without a partner (§6.6)"));
            } else {
                taken[x] = true;
                taken[mate] = true;
                for u in 0..n {
                    if u != x {
                        m.set_weight(x, u, u128::from(u == mate));
                    }
                    if u != mate {
                        m.set_weight(mate, u, u128::from(u == x));
                    }
                }
                pairs.push((v[x], v[mate]));
                report.pairs.push((f.id(v[x]), f.id(v[mate])));
                made.pairs.push(Decided {
                    a: v[x],
                    b: v[mate],
                    bracket,
                    rule: "§6.2 (bbp reading)",
                    meaning: "the lowest partner that keeps everyone paired with the most pairs \
                              inside scoregroups and the most colour preferences granted"
                        .into(),
                });
            }
        }
        made.brackets.push(report);
        begin = end;
    }
    if let Some((x, _, why)) = &made.bye
        && let Some(last) = made.brackets.last_mut()
    {
        last.last = true;
        last.unmet.push(format!("§4 bye: {} ({why})", f.id(*x)));
    }
    let colours = pairs.iter().map(|&(a, b)| colours_of(r, a, b)).collect();
    Ok((made, colours))
}

/// §5 for `a` (the higher of the two in the scoregroup's order) against `b`.
fn colours_of(r: &Reading, a: usize, b: usize) -> Coloured {
    let f = r.f;
    let (pa, pb) = (r.pref[a], r.pref[b]);
    let neutral = if pa != pb || pa.is_none() {
        pa.or(pb.map(|c| c.opposite()))
    } else if r.absolute[a] && (r.imbalance[a] > r.imbalance[b] || !r.absolute[b]) {
        pa
    } else if r.absolute[b] && (r.imbalance[b] > r.imbalance[a] || !r.absolute[a]) {
        pb.map(|c| c.opposite())
    } else if r.strong[a] && !r.strong[b] {
        pa
    } else if r.strong[b] && !r.strong[a] {
        pb.map(|c| c.opposite())
    } else {
        let (ha, hb) = (&f.all[a].colours, &f.all[b].colours);
        (1..=ha.len().min(hb.len()))
            .map(|k| (ha[ha.len() - k], hb[hb.len() - k]))
            .find(|(x, y)| x != y)
            .map(|(_, y)| y)
    };
    let (colour, meaning) = match neutral {
        Some(c) => (c, "the common colour steps"),
        // Both want the same colour (or neither has played): the higher in the §3.2 order
        // gets his preference.
        None => match pa {
            Some(p) if r.below(a, b) => (
                p.opposite(),
                "the higher in the §3.2 order gets his preference",
            ),
            Some(p) => (p, "the higher in the §3.2 order gets his preference"),
            None => {
                // The higher-ranked takes the drawn colour on an odd pairing number.
                let hi = if r.rank[a] < r.rank[b] { a } else { b };
                let drawn = if r.rank[hi] % 2 == 1 {
                    f.initial_colour.opposite()
                } else {
                    f.initial_colour
                };
                let c = if hi == a { drawn } else { drawn.opposite() };
                (
                    c,
                    "no preference: by pairing number and the colour drawn for round 1",
                )
            }
        },
    };
    let board = if colour == Color::White {
        crate::Board {
            white: f.id(a),
            black: f.id(b),
        }
    } else {
        crate::Board {
            white: f.id(b),
            black: f.id(a),
        }
    };
    Coloured {
        board,
        rule: "§5 (bbp reading)",
        meaning,
    }
}

fn no_pairing(why: &str) -> PairingError {
    PairingError::NoValidPairing(format!("{why} (Burstein, bbp reading)"))
}

//! The generation order of candidates (C.04.3 B.2-B.7 with the sequences of section D),
//! imposed on an optimal matching one decision at a time. Shared by both Dutch rule sets: they
//! differ in the criteria weights and in the graph the phases run on, not in these steps.
//!
//! Every phase adds a small bonus or penalty, below all criteria fields, to the edges of one
//! player, re-solves, and fixes what the new optimum shows:
//! A. which moved-down players are paired (within each score, the highest-ranked possible),
//! B. their opponents (the highest-ranked resident still possible, D.1),
//! C. the fewest exchanges and the smallest BSN-difference sum in the remainder (D.2.a/b),
//! D. which S1 players move to S2, the lowest-ranked first (D.2.c),
//! E. which S2 players move to S1, the highest-ranked first (D.2.d),
//! F. S1 and S2 of the remainder are fixed,
//! G. the opponent of each S1 player in turn (D.1 transpositions).
//!
//! Phases B, D, E and G first try to read their answer off the last solve: its duals bound how
//! much any matching through an edge loses, which proves most answers (see [`proved_best`],
//! [`stays_upper`] and [`stays_lower`]); only where that fails do they set the bonus and
//! re-solve.

use super::weight::Acc;
use super::{BracketSolver, MatchGraph};
use arbiter_matching::{BuildLimbHasher, Wide};
use std::collections::HashMap;

std::thread_local! {
    /// Whether phases B, D, E and G take the answers the duals prove.
    static DUAL_PROOFS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Runs `f` with this thread's Dutch pairings taking (`true`, the default) or not taking the
/// answers the last solve's duals prove in phases B, D, E and G: without them each such answer
/// is re-solved, as the phases were first written. For tests that compare the two ways: the
/// pairings are the same.
pub fn with_dual_proofs<R>(on: bool, f: impl FnOnce() -> R) -> R {
    super::with_setting(&DUAL_PROOFS, on, f)
}

fn dual_proofs() -> bool {
    DUAL_PROOFS.with(|c| c.get())
}

/// Index of the edge (o, p), o > p, in a lower-triangular array.
pub(crate) fn tri(o: usize, p: usize) -> usize {
    o * (o - 1) / 2 + p
}

/// The criteria weights of a bracket's edges by position pair (indexed with [`tri`]), each
/// distinct value stored once: a bracket of a large field has millions of edges but only
/// thousands of distinct weights, each up to a few hundred bytes wide.
pub(crate) struct BaseWeights<const N: usize> {
    cells: Vec<u32>,
    /// Index 0 is zero (no edge).
    vals: Vec<Acc<N>>,
    index: HashMap<[u64; N], u32, BuildLimbHasher>,
}

impl<const N: usize> BaseWeights<N> {
    /// All `m(m-1)/2` edges of `m` positions absent.
    pub fn new(m: usize) -> Self {
        BaseWeights {
            cells: vec![0; m * m.saturating_sub(1) / 2],
            vals: vec![Acc::ZERO],
            index: HashMap::with_hasher(BuildLimbHasher),
        }
    }

    #[inline]
    pub fn get(&self, k: usize) -> Acc<N> {
        self.vals[self.cells[k] as usize]
    }

    pub fn set(&mut self, k: usize, w: Acc<N>) {
        self.cells[k] = if w.is_zero() {
            0
        } else {
            let next = self.vals.len() as u32;
            let i = *self.index.entry(w.0).or_insert(next);
            if i == next {
                self.vals.push(w);
            }
            i
        };
    }
}

/// Width of the field the phases' bonuses use, just above the tie-break term: the addends of
/// phase C need `2·field_bits + 2` bits, the others fewer.
pub(crate) fn phases_width(field_bits: u32) -> u32 {
    3 * field_bits + 1
}

/// The tie-break term of an edge between two residents, the higher-ranked at position `p`:
/// among equally good matchings it prefers the one whose residents paired "upwards" are the
/// highest-ranked, the split into S1 and S2 the generation order (B.6) ends with. Below every
/// rule, so it never decides a pairing; it spares re-solves. Its sum over a matching stays
/// below `cur_end²`, which the tie-break field (`2·bits(cur_end)` bits or more) holds.
pub(crate) fn tie_term(p: usize, cur_end: usize) -> u64 {
    (cur_end - p) as u64
}

/// `E`: the sum, over the current matching's edges that every matching considered has (pairs
/// fixed with weight `maxw`, or `fixed` true for their vertices) left out, of their low
/// `low_bits` bits: the phases' field and the tie-break term. The criteria weight of a
/// matching is the rest, so a matching with the most criteria weight and those pairs weighs
/// at least the optimum minus `E`. `None` unless `E` is below `2^low_bits`: then the current
/// matching has the most criteria weight.
fn spare_weight<const N: usize, G: MatchGraph<N>>(
    g: &G,
    low_bits: u32,
    maxw: &Acc<N>,
    fixed: impl Fn(usize) -> bool,
) -> Option<Wide<N>> {
    let maxw = Wide(maxw.0);
    let one = Wide::<N>::from_u64(1);
    let mask = if low_bits < Wide::<N>::BITS {
        (one << low_bits).wrapping_sub(one)
    } else {
        Wide::<N>::MAX
    };
    let mut e = Wide::<N>::ZERO;
    for u in 0..g.len() {
        let Some(m) = g.mate(u) else { continue };
        if m < u {
            continue;
        }
        let w = g.weight(u, m);
        if w != maxw && !fixed(u) {
            e = e.checked_add(w & mask)?;
        }
    }
    (low_bits >= Wide::<N>::BITS || e < one << low_bits).then_some(e)
}

/// Whether no matching of the most criteria weight (with the fixed pairs) pairs `x` with any
/// of `above`, proved by the duals of the last solve, which must be optimal for the current
/// weights: such a matching `M` weighs at least the optimum `D` minus `spare` (see
/// [`spare_weight`]), and `D - w(M)` is at least the slack of each edge of `M` (the dual
/// objective minus a matching's weight sums the slacks of its edges and other non-negative
/// terms), so an edge whose doubled slack exceeds `2·spare` is in none. If `x` has an
/// opponent in such a matching below all of `above`, that opponent is then the highest-ranked
/// possible: what a re-solve with the phase's bonuses would give.
fn proved_best<const N: usize, G: MatchGraph<N>>(
    g: &G,
    x: usize,
    mut above: impl Iterator<Item = usize>,
    spare: Wide<N>,
) -> bool {
    let twice = spare << 1;
    above.all(|o| g.slack(x, o).is_some_and(|s| s > twice))
}

/// Twice `E`, the tie-break terms (the low `tie` bits) of the current matching's edges (pairs
/// fixed with weight `maxw` left out), when the last solve's duals are optimal for the current
/// weights: a matching of the most weight above the tie-break term weighs at least the optimum
/// minus `E`, so it uses no edge of doubled slack above `2E` and leaves unmatched no vertex of
/// doubled dual above `2E`.
fn tie_margin<const N: usize, G: MatchGraph<N>>(g: &G, tie: u32, maxw: &Acc<N>) -> Option<Wide<N>> {
    spare_weight(g, tie, maxw, |_| false).map(|e| e << 1)
}

/// Whether every edge from `x` to one of `others` has doubled slack above `margin`.
fn avoids<const N: usize, G: MatchGraph<N>>(
    g: &G,
    x: usize,
    mut others: impl Iterator<Item = usize>,
    margin: Wide<N>,
) -> bool {
    others.all(|u| g.slack(x, u).is_none_or(|s| s > margin))
}

/// Whether every matching of the most weight above the tie-break term pairs vertex `x` with a
/// higher vertex below `res_hi` (a resident ranked below it), proved by the duals of the last
/// solve (see [`tie_margin`]): no other edge of `x` can be in one, nor can `x` be unmatched.
fn stays_upper<const N: usize, G: MatchGraph<N>>(
    g: &G,
    x: usize,
    res_hi: usize,
    tie: u32,
    maxw: &Acc<N>,
) -> bool {
    tie_margin(g, tie, maxw).is_some_and(|m| {
        let others = (0..g.len()).filter(|&u| u != x && (u < x || u >= res_hi));
        g.dual(x) > m && avoids(g, x, others, m)
    })
}

/// Whether no matching of the most weight above the tie-break term pairs vertex `x` with a
/// vertex between it and `res_hi` (a resident ranked below it), proved by the duals of the
/// last solve (see [`tie_margin`]). Then a bonus on those edges below the criteria would not
/// move `x` to S1 (phase E).
fn stays_lower<const N: usize, G: MatchGraph<N>>(
    g: &G,
    x: usize,
    res_hi: usize,
    tie: u32,
    maxw: &Acc<N>,
) -> bool {
    tie_margin(g, tie, maxw).is_some_and(|m| avoids(g, x, x + 1..res_hi, m))
}

/// Opponents for the players on a rotation that gives `x` the opponent `o` in place of `now`:
/// the player holding `o` takes another, whose holder takes another, and so on until one
/// takes `now`; each is a later open player (`later`), each new pair a candidate that the
/// duals leave possible (`near`). Found by breadth-first search; `None` when there is none.
/// The caller checks that the rotation keeps the criteria weight.
#[allow(clippy::too_many_arguments)]
fn rotation(
    x: usize,
    o: usize,
    now: usize,
    pool: &[usize],
    assign: &[usize],
    partner: &[usize],
    later: &impl Fn(usize) -> bool,
    candidate: &impl Fn(usize, usize, &[bool]) -> bool,
    matched: &[bool],
    near: &impl Fn(usize, usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    let k = partner[o];
    if k == usize::MAX || k == x || !later(k) {
        return None;
    }
    // `via[q]`: the player that takes opponent `q`.
    let mut via = vec![usize::MAX; partner.len()];
    let mut seen = vec![false; partner.len()];
    let mut queue = vec![k];
    seen[k] = true;
    let mut head = 0;
    while let Some(&s) = queue.get(head) {
        head += 1;
        for &q in pool {
            if q == o || q == assign[s] || via[q] != usize::MAX {
                continue;
            }
            if !candidate(s, q, matched) || !near(s, q) {
                continue;
            }
            via[q] = s;
            if q == now {
                let mut path = Vec::new();
                let mut q = now;
                loop {
                    let s = via[q];
                    path.push((s, q));
                    if s == k {
                        return Some(path);
                    }
                    q = assign[s];
                }
            }
            let h = partner[q];
            if h != usize::MAX && h != x && !seen[h] && later(h) {
                seen[h] = true;
                queue.push(h);
            }
        }
    }
    None
}

/// A phase that gives each of a list of players, in order, the highest-ranked opponent still
/// possible (phases B and G): the answer for each is fixed by the criteria and the ranks alone.
///
/// A re-solve with graded bonuses for every player is the costly way. Instead an assignment of
/// the open players to opponents is kept with the matching's criteria weight: the matching's
/// own, improved by swapping a player's opponent with that of a later open player, or of a
/// player outside the phase not yet paired for good, where that keeps the criteria weight,
/// which brings it close to the order the phase ends with. Each player's assigned
/// opponent is proved to be the answer from the last solve's duals where it can be
/// ([`proved_best`]); only the others are re-solved with the phase's bonuses.
///
/// Pairs fixed here keep their weights while the matching has them: fixing a pair changes its
/// players' rows, and every such change costs the next solve a repair. Before a re-solve the
/// fixed pairs the matching lacks are made binding; a re-solve that breaks one of the others
/// makes them all binding and solves again (while it keeps them, it is optimal among the
/// matchings that keep them). All are made binding at the end.
struct InOrder<'a, const N: usize> {
    v: &'a [usize],
    pos_of: &'a [usize],
    /// The possible opponents, highest-ranked first.
    pool: &'a [usize],
    /// Bits below the criteria: the phases' field and the tie-break term.
    low_bits: u32,
    /// Of those, the bits whose sum over a matching differs between the matchings the phase
    /// chooses among (the others hold bonuses every one of them gets alike).
    spare_bits: u32,
    maxw: Acc<N>,
}

impl<const N: usize> InOrder<'_, N> {
    /// `takes_part(g, x)`: whether `x` is still to be paired when its turn comes (asked of the
    /// matching then, as the phase always did); `candidate(x, o, matched)`: `o` may be the
    /// opponent of `x`; `weight(o, x)`: the base weight of that edge; `bonus(g, x, matched)`:
    /// sets the phase's bonuses on the edges of `x` (a solve follows); `done(x, q)`: told of
    /// each pair made.
    #[allow(clippy::too_many_arguments)]
    fn settle<G: MatchGraph<N>>(
        &self,
        g: &mut G,
        players: &[usize],
        matched: &mut [bool],
        takes_part: impl Fn(&G, usize) -> bool,
        candidate: impl Fn(usize, usize, &[bool]) -> bool,
        weight: impl Fn(usize, usize) -> Wide<N>,
        mut bonus: impl FnMut(&mut G, usize, &[bool]),
        finalize: &impl Fn(&mut G, usize, usize),
        mut done: impl FnMut(usize, usize),
    ) {
        let (v, pos_of, pool, low_bits) = (self.v, self.pos_of, self.pool, self.low_bits);
        let crit = |o: usize, x: usize| weight(o, x) >> low_bits;
        let crit2 = |a: usize, b: usize| crit(a.max(b), a.min(b));
        let mate =
            |g: &G, x: usize| pos_of[g.mate(v[x]).expect("a player of the phase has an opponent")];
        let len = pos_of.len().max(matched.len());
        let mut settled = vec![false; len];
        let mut assign = vec![usize::MAX; len];
        let mut partner = vec![usize::MAX; len];
        let mut in_phase = vec![false; len];
        let mut turn = vec![usize::MAX; len];
        for (i, &x) in players.iter().enumerate() {
            in_phase[x] = true;
            turn[x] = i;
        }
        // The open players' opponents in the matching, then in rank order each takes the
        // highest-ranked opponent it can get by swapping with that opponent's partner where
        // the swap keeps the criteria weight (both new edges possible): a later open player,
        // or a player outside the phase not yet paired for good.
        let reassign = |g: &G,
                        assign: &mut [usize],
                        partner: &mut [usize],
                        settled: &[bool],
                        matched: &[bool]| {
            partner.fill(usize::MAX);
            for (p, &u) in v.iter().enumerate() {
                if let Some(q) = g.mate(u).map(|w| pos_of[w]).filter(|&q| q != usize::MAX) {
                    partner[p] = q;
                }
            }
            let open: Vec<usize> = players.iter().copied().filter(|&x| !settled[x]).collect();
            let mut rank = vec![usize::MAX; len];
            for (i, &x) in open.iter().enumerate() {
                assign[x] = mate(g, x);
                rank[x] = i;
            }
            for &x in &open {
                let ax = assign[x];
                for &o in pool {
                    if o == ax {
                        break;
                    }
                    let k = partner[o];
                    if k == usize::MAX || k == x || !candidate(x, o, matched) {
                        continue;
                    }
                    let movable = if rank[k] != usize::MAX {
                        rank[k] > rank[x] && candidate(k, ax, matched)
                    } else {
                        !in_phase[k]
                            && matched.get(k).is_none_or(|&m| !m)
                            && k != ax
                            && weight(k.max(ax), k.min(ax)) != Wide::ZERO
                    };
                    if movable
                        && crit(ax, x).wrapping_add(crit2(o, k))
                            == crit(o, x).wrapping_add(crit2(ax, k))
                    {
                        assign[x] = o;
                        if rank[k] != usize::MAX {
                            assign[k] = ax;
                        }
                        partner[x] = o;
                        partner[o] = x;
                        partner[k] = ax;
                        partner[ax] = k;
                        break;
                    }
                }
            }
        };
        reassign(g, &mut assign, &mut partner, &settled, matched);
        let mut pending: Vec<(usize, usize)> = Vec::new();
        // Computed when first needed after each solve.
        let mut spare: Option<Option<Wide<N>>> = None;
        for &x in players {
            if !takes_part(g, x) {
                continue;
            }
            let mut now = assign[x];
            let e = *spare.get_or_insert_with(|| {
                // Pending pairs the matching has: in every matching considered, so not spare.
                let mut partner = vec![usize::MAX; g.len()];
                for &(a, b) in &pending {
                    partner[v[a]] = v[b];
                    partner[v[b]] = v[a];
                }
                let kept = |u: usize| partner[u] != usize::MAX && g.mate(u) == Some(partner[u]);
                spare_weight(g, self.spare_bits, &self.maxw, kept)
            });
            let mut above = pool
                .iter()
                .copied()
                .take_while(|&o| o != now)
                .filter(|&o| candidate(x, o, matched))
                .peekable();
            // Already with the highest-ranked candidate in the matching itself: the bonuses
            // would raise it at least as much as any other, so it stays optimal. Otherwise the
            // duals must certify the matching, which needs the weights of the last solve (the
            // phases before may have changed some; fixing a pair here changes none).
            let proofs = dual_proofs();
            let mut proved = (above.peek().is_none() && now == mate(g, x))
                || (proofs
                    && g.is_solved()
                    && e.is_some_and(|e| proved_best(g, v[x], above.map(|o| v[o]), e)));
            let later = |s: usize| in_phase[s] && !settled[s] && turn[s] > turn[x];
            // Else the highest-ranked candidate the duals leave possible may be reached by
            // rotating the opponents of later open players: then it is the answer.
            if !proved
                && proofs
                && g.is_solved()
                && let Some(e) = e
            {
                let twice = e << 1;
                let mut first = None;
                for o in pool.iter().copied().take_while(|&o| o != now) {
                    if !candidate(x, o, matched) {
                        continue;
                    }
                    match g.slack(v[x], v[o]) {
                        Some(sl) if sl > twice => continue,
                        Some(_) => first = Some(o),
                        None => {}
                    }
                    break;
                }
                let near = |s: usize, o: usize| g.slack(v[s], v[o]).is_some_and(|sl| sl <= twice);
                if let Some(o) = first
                    && let Some(path) = rotation(
                        x, o, now, pool, &assign, &partner, &later, &candidate, matched, &near,
                    )
                {
                    let new_sum = path
                        .iter()
                        .fold(crit2(x, o), |acc, &(s, q)| acc.wrapping_add(crit2(s, q)));
                    let old_sum = path.iter().fold(crit2(x, now), |acc, &(s, _)| {
                        acc.wrapping_add(crit2(s, assign[s]))
                    });
                    if new_sum == old_sum {
                        for &(s, q) in &path {
                            assign[s] = q;
                            partner[s] = q;
                            partner[q] = s;
                        }
                        assign[x] = o;
                        partner[x] = o;
                        partner[o] = x;
                        now = o;
                        proved = true;
                    }
                }
            }
            let q = if proved {
                now
            } else {
                let (bind, keep): (Vec<_>, Vec<_>) = pending
                    .drain(..)
                    .partition(|&(a, b)| g.mate(v[a]) != Some(v[b]));
                pending = keep;
                for (a, b) in bind {
                    finalize(g, a, b);
                }
                bonus(g, x, matched);
                g.solve();
                spare = None;
                if pending.iter().any(|&(a, b)| g.mate(v[a]) != Some(v[b])) {
                    for (a, b) in pending.drain(..) {
                        finalize(g, a, b);
                    }
                    g.solve();
                }
                mate(g, x)
            };
            matched[x] = true;
            matched[q] = true;
            settled[x] = true;
            if !proved {
                // The open players' assignment restarts from the new matching.
                reassign(g, &mut assign, &mut partner, &settled, matched);
            }
            pending.push((x, q));
            done(x, q);
        }
        for (a, b) in pending {
            finalize(g, a, b);
        }
    }
}

/// One bracket laid out for the phases. Positions: moved-down players `0..mdps`, residents
/// `mdps..cur_end`, then the next scoregroup (or the rest) `cur_end..m`.
pub(crate) struct Phases<'a, const N: usize> {
    pub m: usize,
    pub mdps: usize,
    pub cur_end: usize,
    /// Graph vertex of each position.
    pub vert: &'a [usize],
    /// Pairing score of each position (non-increasing).
    pub scores: &'a [i32],
    /// The residents' graph vertices: `res_lo..res_hi`, consecutive.
    pub res_lo: usize,
    pub res_hi: usize,
    /// Bits below the phases' unit (a tie-break term the caller keeps there).
    pub tie: u32,
    /// Width of one count field, for the exchange bonuses.
    pub field_bits: u32,
    /// Weight given to a fixed pair.
    pub maxw: Acc<N>,
}

impl<const N: usize> Phases<'_, N> {
    /// Runs the phases on a graph whose bracket edges already hold `base` (indexed by
    /// positions with [`tri`]); `fixed` is told of every pair made (positions).
    pub fn run<G: MatchGraph<N>>(
        &self,
        g: &mut G,
        base: &mut BaseWeights<N>,
        mut fixed: impl FnMut(usize, usize),
    ) -> BracketSolver {
        let (m, mdps, cur_end, v) = (self.m, self.mdps, self.cur_end, self.vert);
        let (res_lo, res_hi, tie) = (self.res_lo, self.res_hi, self.tie);
        let mut pos_of = vec![usize::MAX; g.len()];
        for (p, &x) in v.iter().enumerate() {
            pos_of[x] = p;
        }
        let mate = |g: &G, p: usize| g.mate(v[p]);
        let resident = |g: &G, p: usize| mate(g, p).is_some_and(|y| y >= res_lo && y < res_hi);
        let upper = |g: &G, p: usize| mate(g, p).is_some_and(|y| y > v[p] && y < res_hi);
        let mut matched = vec![false; cur_end];
        let mut pairs = Vec::new();
        let maxw = self.maxw;
        let finalize = |g: &mut G, a: usize, b: usize| {
            let (va, vb) = (v[a], v[b]);
            for x in 0..g.len() {
                if x != va {
                    g.set(va, x, if x == vb { maxw } else { Acc::ZERO });
                }
                if x != vb {
                    g.set(vb, x, if x == va { maxw } else { Acc::ZERO });
                }
            }
        };
        let unit = |add: u64| {
            let mut a = Acc::<N>::ZERO;
            a.add_u64(add);
            a.shl(tie);
            a
        };
        let with = |w: &Acc<N>, add: u64| {
            let mut x = *w;
            x.add(&unit(add));
            x
        };
        let set = |g: &mut G, p: usize, o: usize, w: Acc<N>| g.set(v[p], v[o], w);
        crate::profile::step("bracket: first solve");
        g.solve();
        let gave_up = |g: &G| g.gave_up();
        let dropped = || BracketSolver {
            pairs: Vec::new(),
            matched: vec![false; cur_end],
        };
        if gave_up(g) {
            return dropped();
        }

        // A. Which moved-down players are paired: the highest scores first (fixed by the
        // criteria), and within one score the highest-ranked that can be.
        let score = |p: usize| self.scores[p];
        let (mut md_score, mut left, mut left_paired) = (i32::MIN, 0usize, 0usize);
        for p in 0..mdps {
            if p == 0 || score(p) < md_score {
                md_score = score(p);
                left = 0;
                left_paired = 0;
                let mut q = p;
                while q < m && score(q) >= md_score {
                    left += 1;
                    if resident(g, q) {
                        left_paired += 1;
                    }
                    q += 1;
                }
            }
            if left_paired == 0 {
                continue;
            }
            if left <= left_paired {
                matched[p] = true;
                continue;
            }
            left -= 1;
            if !resident(g, p) {
                for o in mdps..cur_end {
                    let w = base.get(tri(o, p));
                    if !w.is_zero() {
                        set(g, p, o, with(&w, 1));
                    }
                }
                crate::profile::step("A: which moved-down players");
                g.solve();
            }
            if resident(g, p) {
                matched[p] = true;
                left_paired -= 1;
                for o in mdps..cur_end {
                    let w = base.get(tri(o, p));
                    if !w.is_zero() {
                        set(g, p, o, with(&w, (cur_end - mdps) as u64 + 1));
                    }
                }
            }
        }

        if gave_up(g) {
            return dropped();
        }
        // B. The opponent of each paired moved-down player: the highest-ranked resident
        // still possible (D.1), proved from the duals where it can be, as in G. Every
        // matching B chooses among pairs exactly the moved-down players A chose, each with a
        // resident, so their bonuses from A are alike in all of them: only the tie-break
        // term differs.
        let paired_mdps: Vec<usize> = (0..mdps).filter(|&p| matched[p]).collect();
        let residents: Vec<usize> = (mdps..cur_end).collect();
        let order = InOrder {
            v,
            pos_of: &pos_of,
            pool: &residents,
            low_bits: tie + phases_width(self.field_bits),
            spare_bits: tie,
            maxw,
        };
        order.settle(
            g,
            &paired_mdps,
            &mut matched,
            |_, _| true,
            |p, o, matched| !matched[o] && !base.get(tri(o, p)).is_zero(),
            |o, p| Wide(base.get(tri(o, p)).0),
            |g, p, matched| {
                let mut addend = m as u64;
                for o in (mdps..cur_end).rev() {
                    if matched[o] {
                        continue;
                    }
                    let w = base.get(tri(o, p));
                    if !w.is_zero() {
                        set(g, p, o, with(&w, addend));
                        addend += 1;
                    }
                }
                crate::profile::step("B: their opponents");
            },
            &finalize,
            |p, q| {
                fixed(p, q);
                pairs.push((p, q));
            },
        );
        // Pairs settled by a swap are bound but not yet in the matching, which C reads.
        if pairs.iter().any(|&(p, q)| mate(g, p) != Some(v[q])) {
            crate::profile::step("B: their opponents");
            g.solve();
        }

        if gave_up(g) {
            return dropped();
        }
        // C. The remainder: fewest exchanges, then smallest difference of exchanged BSNs.
        let remainder: Vec<usize> = (mdps..cur_end)
            .filter(|&x| mate(g, x).is_none_or(|y| y >= res_lo))
            .collect();
        let rpairs = remainder
            .iter()
            .filter(|&&x| mate(g, x).is_some_and(|y| y < v[x]))
            .count();
        let exchange_addend = |prem: usize| {
            let mut a = Acc::<N>::ZERO;
            a.add_u64((prem < rpairs) as u64);
            a.shl(2 * self.field_bits);
            a.sub_u64(prem as u64);
            a.shl(1 + tie);
            a
        };
        let computer = |base: &BaseWeights<N>, p: usize, o: usize, prem: usize| {
            let mut w = base.get(tri(o, p));
            if !w.is_zero() {
                w.add(&exchange_addend(prem));
            }
            w
        };
        // When the players paired "upwards" are already exactly the first `rpairs` of the
        // remainder (S1), no exchange is needed and the current matching already maximises
        // the exchange bonuses among the optimal matchings: skip that re-solve.
        let natural = remainder[..rpairs].iter().all(|&x| upper(g, x));
        if !natural {
            for (oi, &o) in remainder.iter().enumerate() {
                for (prem, &p) in remainder.iter().enumerate().take(oi) {
                    set(g, p, o, computer(base, p, o, prem));
                }
            }
            crate::profile::step("C: fewest exchanges");
            g.solve();
        }
        let exchanges = remainder[..rpairs]
            .iter()
            .filter(|&&x| !upper(g, x))
            .count();

        if gave_up(g) {
            return dropped();
        }
        // D. Which S1 players move to S2: the lowest-ranked first (D.2.c). A player stays in
        // S1 when the duals prove that no matching D chooses among pairs it otherwise: all of
        // them have the most criteria weight and exchange bonuses, so they differ only in the
        // tie-break term. Otherwise a small penalty on its edges to the players below it
        // asks a solve. That penalty stays while the player stays in S1 (then it is alike in
        // every matching left to choose among, and the duals keep certifying the matching)
        // and comes off before the next solve, so that at most one is ever set.
        let penalize = |g: &mut G, base: &BaseWeights<N>, x: usize, pos: usize, on: bool| {
            for &o in &remainder[pos + 1..] {
                let mut w = computer(base, x, o, pos);
                if on && !w.is_zero() {
                    w.sub(&unit(1));
                }
                set(g, x, o, w);
            }
        };
        let mut penalized: Option<(usize, usize)> = None;
        let mut remaining = exchanges;
        let mut pos = rpairs;
        while pos > 0 && remaining > 0 {
            pos -= 1;
            let x = remainder[pos];
            if upper(g, x)
                && !(dual_proofs() && g.is_solved() && stays_upper(g, v[x], res_hi, tie, &maxw))
            {
                if let Some((y, ypos)) = penalized.take() {
                    penalize(g, base, y, ypos, false);
                }
                penalize(g, base, x, pos, true);
                crate::profile::step("D: S1 players to S2");
                g.solve();
                if upper(g, x) {
                    penalized = Some((x, pos));
                    continue;
                }
            }
            if upper(g, x) {
                continue;
            }
            // Exchanged: its edges to the players below it go (unmatched edges lowered, which
            // keeps the duals' certificate).
            remaining -= 1;
            for &o in &remainder[pos + 1..] {
                base.set(tri(o, x), Acc::ZERO);
                set(g, x, o, Acc::ZERO);
            }
        }
        if let Some((y, ypos)) = penalized {
            penalize(g, base, y, ypos, false);
        }

        if gave_up(g) {
            return dropped();
        }
        // E. Which S2 players move to S1: the highest-ranked first (D.2.d). A player stays
        // in S2 when the duals prove that no matching E chooses among pairs it with a player
        // below it (as D proves who stays in S1); otherwise a small bonus on those edges asks
        // a solve.
        let mut remaining = exchanges;
        let mut pos = rpairs;
        while pos < remainder.len() && remaining > 1 {
            let x = remainder[pos];
            let already = upper(g, x);
            if !already
                && dual_proofs()
                && g.is_solved()
                && stays_lower(g, v[x], res_hi, tie, &maxw)
            {
                pos += 1;
                continue;
            }
            if !already {
                for &o in &remainder[pos + 1..] {
                    let w = computer(base, x, o, pos);
                    if !w.is_zero() {
                        set(g, x, o, with(&w, 1));
                    }
                }
                crate::profile::step("E: S2 players to S1");
                g.solve();
            }
            if upper(g, x) {
                remaining -= 1;
                for &o in &remainder[..pos] {
                    base.set(tri(x, o), Acc::ZERO);
                    set(g, x, o, Acc::ZERO);
                }
                for o in cur_end..m {
                    base.set(tri(o, x), Acc::ZERO);
                    set(g, x, o, Acc::ZERO);
                }
            }
            if !already {
                for &o in &remainder[pos + 1..] {
                    set(g, x, o, computer(base, x, o, pos));
                }
            }
            pos += 1;
        }

        // F. Fix S1 and S2 of the remainder.
        for (xi, &x) in remainder.iter().enumerate() {
            for &o in &remainder[xi + 1..] {
                let was = base.get(tri(o, x));
                if !upper(g, x) || upper(g, o) {
                    base.set(tri(o, x), Acc::ZERO);
                }
                if !natural || was != base.get(tri(o, x)) {
                    set(g, x, o, base.get(tri(o, x)));
                }
            }
        }

        if gave_up(g) {
            return dropped();
        }
        // G. Each S1 player in turn gets the highest-ranked S2 opponent possible (D.1).
        let s1: Vec<usize> = remainder.iter().copied().filter(|&x| upper(g, x)).collect();
        let order = InOrder {
            v,
            pos_of: &pos_of,
            pool: &remainder,
            low_bits: tie + phases_width(self.field_bits),
            spare_bits: tie + phases_width(self.field_bits),
            maxw,
        };
        order.settle(
            g,
            &s1,
            &mut matched,
            upper,
            |x, o, matched| o > x && !matched[o] && !base.get(tri(o, x)).is_zero(),
            |o, x| Wide(base.get(tri(o, x)).0),
            |g, x, matched| {
                let mut addend = 0u64;
                for &o in remainder.iter().rev() {
                    if o <= x || matched[o] {
                        continue;
                    }
                    let w = base.get(tri(o, x));
                    if !w.is_zero() {
                        set(g, x, o, with(&w, addend));
                    }
                    addend += 1;
                }
                crate::profile::step("G: each S1 player's opponent");
            },
            &finalize,
            |x, q| {
                fixed(x, q);
                pairs.push((x, q));
            },
        );

        BracketSolver { pairs, matched }
    }
}

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

use super::weight::Acc;
use super::{BracketSolver, MatchGraph};
use arbiter_matching::BuildLimbHasher;
use std::collections::HashMap;

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

        // B. The opponent of each paired moved-down player: the highest-ranked resident
        // still possible.
        for p in 0..mdps {
            if !matched[p] {
                continue;
            }
            let mut addend = m as u64;
            let mut best = None;
            for o in (mdps..cur_end).rev() {
                if matched[o] {
                    continue;
                }
                let w = base.get(tri(o, p));
                if !w.is_zero() {
                    set(g, p, o, with(&w, addend));
                    addend += 1;
                    best = Some(v[o]);
                }
            }
            // Already with the highest-ranked candidate: the bonuses raise the current
            // matching at least as much as any other, so it stays optimal.
            if mate(g, p) != best {
                crate::profile::step("B: their opponents");
                g.solve();
            }
            let q =
                pos_of[mate(g, p).expect("a moved-down player chosen for pairing has an opponent")];
            matched[q] = true;
            finalize(g, p, q);
            fixed(p, q);
            pairs.push((p, q));
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

        // D. Which S1 players move to S2: the lowest-ranked first (D.2.c).
        let mut remaining = exchanges;
        let mut pos = rpairs;
        while pos > 0 && remaining > 0 {
            pos -= 1;
            let x = remainder[pos];
            if upper(g, x) {
                for &o in &remainder[pos + 1..] {
                    let mut w = computer(base, x, o, pos);
                    if !w.is_zero() {
                        w.sub(&unit(1));
                        set(g, x, o, w);
                    }
                }
                crate::profile::step("D: S1 players to S2");
                g.solve();
            }
            let exchange = !upper(g, x);
            if exchange {
                remaining -= 1;
            }
            for &o in &remainder[pos + 1..] {
                if exchange {
                    base.set(tri(o, x), Acc::ZERO);
                }
                set(g, x, o, computer(base, x, o, pos));
            }
        }

        // E. Which S2 players move to S1: the highest-ranked first (D.2.d).
        let mut remaining = exchanges;
        let mut pos = rpairs;
        while pos < remainder.len() && remaining > 1 {
            let x = remainder[pos];
            let already = upper(g, x);
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

        // G. Each S1 player in turn gets the highest-ranked S2 opponent possible (D.1).
        for &x in &remainder {
            if !upper(g, x) {
                continue;
            }
            let mut addend = 0u64;
            let mut best = None;
            for &o in remainder.iter().rev() {
                if o <= x || matched[o] {
                    continue;
                }
                let w = base.get(tri(o, x));
                if !w.is_zero() {
                    set(g, x, o, with(&w, addend));
                    best = Some(v[o]);
                }
                addend += 1;
            }
            // As in B: the highest-ranked candidate already paired needs no re-solve.
            if mate(g, x) != best {
                crate::profile::step("G: each S1 player's opponent");
                g.solve();
            }
            let q = pos_of[mate(g, x).expect("an S1 player has an opponent")];
            matched[x] = true;
            matched[q] = true;
            finalize(g, x, q);
            fixed(x, q);
            pairs.push((x, q));
        }

        BracketSolver { pairs, matched }
    }
}

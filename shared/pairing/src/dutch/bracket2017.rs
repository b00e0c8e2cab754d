//! Pairing one bracket under rule set `dutch-2017` (C.04.3 as approved in Baku 2016).
//!
//! The bracket's matching graph holds the bracket (moved-down players first, then residents)
//! and the next scoregroup (for C.7), or every remaining player when the bracket is the last
//! one or the PPB (A.9). One maximum-weight matching optimises C.4-C.19 at once (weights in
//! [`weight`](super::weight)); the B/D generation order is then imposed in phases, each fixing
//! one decision and re-solving:
//! A. which moved-down players are paired (highest first, B.2/D.3),
//! B. their opponents (the highest-ranked resident possible, D.1),
//! C. the fewest exchanges and the smallest BSN-difference sum in the remainder (D.2.a/b),
//! D/E. which S1 players leave and which S2 players enter (D.2.c/d),
//! G. the opponent of each S1 player in turn (D.1 transpositions).

use super::completion::Completion;
use super::weight::{Acc, ScoreDiffFields, bits};
use super::{BracketSolver, MatchGraph};
use crate::state::{Float, Player, RoundState};

pub(crate) struct Bracket<'a> {
    pub st: &'a RoundState,
    /// Player indices: moved-down players, residents, then the next scoregroup / the rest.
    pub group: &'a [usize],
    pub mdps: usize,
    pub cur_end: usize,
    /// The last bracket or the PPB: every remaining player is in the graph.
    pub special: bool,
    /// The next scoregroup is the last one.
    pub last_next: bool,
    pcb: u32,
    next_bits: u32,
    sd: ScoreDiffFields,
    min_score: i32,
}

impl<'a> Bracket<'a> {
    pub fn new(
        st: &'a RoundState,
        group: &'a [usize],
        mdps: usize,
        cur_end: usize,
        special: bool,
        last_next: bool,
    ) -> Bracket<'a> {
        let score = |pos: usize| st.players[group[pos]].score;
        let min_score = score(group.len() - 1);
        // Possible score differences in this bracket: a downfloater's (score - min + 1 point)
        // for every player, and one pair difference per player and distinct opponent score.
        let mut diffs = Vec::new();
        for i in 0..cur_end {
            diffs.push(score(i) - min_score + 10);
            let first = mdps.max(i + 1);
            for j in first..cur_end {
                if j <= first || score(j) < score(j - 1) {
                    diffs.push(score(i) - score(j));
                }
            }
        }
        Bracket {
            st,
            group,
            mdps,
            cur_end,
            special,
            last_next,
            pcb: bits((cur_end - mdps) as u64),
            next_bits: bits((group.len() - cur_end) as u64),
            sd: ScoreDiffFields::from_occurrences(diffs),
            min_score,
        }
    }

    fn player(&self, pos: usize) -> &Player {
        &self.st.players[self.group[pos]]
    }

    /// Low bits holding the tie-break term below all the rules' fields.
    fn tie_bits(&self) -> u32 {
        2 * bits(self.cur_end as u64)
    }

    /// Width in bits of the largest edge weight of this bracket.
    pub fn weight_bits(&self) -> u32 {
        let (pcb, sd) = (self.pcb, self.sd.width);
        let played = self.st.played_rounds;
        let mut b = if self.special { 2 } else { 0 } + pcb + sd;
        if !self.special {
            b += if self.last_next {
                pcb.max(self.next_bits) + 3
            } else {
                self.next_bits
            } + sd;
        }
        b += 4 * pcb;
        if played >= 1 {
            b += 2 * pcb + 2 * sd;
        }
        if played >= 2 {
            b += 2 * pcb + 2 * sd;
        }
        b + 3 * pcb + 1 + self.tie_bits()
    }

    /// The criteria weight of pairing the players at positions `hp < lp`; zero when they
    /// may not meet.
    pub fn edge<const N: usize>(&self, hp: usize, lp: usize) -> Acc<N> {
        let mut w = Acc::<N>::ZERO;
        if !self.st.compatible(self.group[hp], self.group[lp]) {
            return w;
        }
        let (h, l) = (self.player(hp), self.player(lp));
        let (h_cur, l_cur) = (hp < self.cur_end, lp < self.cur_end);
        let (pcb, sd) = (self.pcb, &self.sd);
        let down = |p: &Player| p.score - self.min_score + 10;
        let not_elig = |p: &Player| (!p.bye_eligible) as u64;
        let played = self.st.played_rounds;

        // C.4 / A.9: complete the round, leaving unpaired only a player who may get the bye.
        if self.special {
            w.add_u64(1 + not_elig(h) + not_elig(l));
        }
        // C.5: as many pairs as possible in this bracket.
        w.shl(pcb);
        if l_cur {
            w.add_u64(1);
        }
        // C.6: the smallest PSD.
        w.shl(sd.width);
        if l_cur {
            w.add_bit(sd.at(down(h)));
            w.add_bit(sd.at(down(l)));
            w.sub_bit(sd.at(h.score - l.score));
        }
        // C.7: the best pairing of the next bracket (pairs, then scores of the floaters).
        if !self.special {
            if self.last_next {
                w.shl(pcb.max(self.next_bits));
                w.shl(3);
                w.add_u64(1 + not_elig(h) + not_elig(l));
            } else {
                w.shl(self.next_bits);
                if !l_cur {
                    w.add_u64(1);
                }
            }
            w.shl(sd.width);
            if h_cur {
                w.add_bit(sd.at(down(h)));
            }
            if l_cur {
                w.add_bit(sd.at(down(l)));
            }
        }
        // C.8-C.11: colours.
        let (lp_, hp_) = (&l.pref, &h.pref);
        let same = lp_.colour == hp_.colour;
        w.shl(pcb);
        if l_cur && (!lp_.absolute_imbalance() || !hp_.absolute_imbalance() || !same) {
            w.add_u64(1);
        }
        w.shl(pcb);
        if l_cur
            && (!lp_.absolute()
                || !hp_.absolute()
                || !same
                || if lp_.imbalance == hp_.imbalance {
                    lp_.repeated.is_none() || lp_.repeated != hp_.repeated
                } else {
                    let denied = if lp_.imbalance > hp_.imbalance {
                        hp_
                    } else {
                        lp_
                    };
                    denied.repeated != lp_.colour.map(|c| c.opposite())
                })
        {
            w.add_u64(1);
        }
        w.shl(pcb);
        if l_cur && (!same || lp_.colour.is_none() || hp_.colour.is_none()) {
            w.add_u64(1);
        }
        w.shl(pcb);
        if l_cur
            && ((!lp_.strong && !lp_.absolute())
                || (!hp_.strong && !hp_.absolute())
                || (lp_.absolute() && hp_.absolute())
                || !same)
        {
            w.add_u64(1);
        }
        // C.12-C.15: repeated floats, one and two rounds back.
        for back in 0..2usize {
            if played as usize > back {
                w.shl(pcb);
                if l_cur {
                    if l.floats[back] == Float::Down {
                        w.add_u64(1);
                    }
                    if h.score <= l.score && h.floats[back] == Float::Down {
                        w.add_u64(1);
                    }
                }
                w.shl(pcb);
                if l_cur && h.score > l.score && l.floats[back] == Float::Up {
                    w.sub_u64(1);
                }
            }
        }
        // C.16-C.19: score differences of repeated floaters.
        for back in 0..2usize {
            if played as usize > back {
                w.shl(sd.width);
                if l_cur {
                    if l.floats[back] == Float::Down {
                        w.add_bit(sd.at(down(l)));
                    }
                    if h.floats[back] == Float::Down {
                        w.add_bit(sd.at(down(h)));
                        if h.score > l.score {
                            w.sub_bit(sd.at(h.score - l.score));
                        }
                    }
                }
                w.shl(sd.width);
                if l_cur && l.floats[back] == Float::Up && h.score > l.score {
                    w.sub_bit(sd.at(h.score - l.score));
                }
            }
        }
        // Room for the generation-order phases.
        w.shl(3 * pcb + 1);
        // Below every rule: among equally good matchings prefer the one whose residents
        // paired "upwards" are the highest-ranked, which is the shape the generation order
        // (B.6) ends with. It never decides a pairing, it only spares re-solving.
        w.shl(self.tie_bits());
        if hp >= self.mdps && l_cur {
            w.add_u64((self.cur_end - hp) as u64);
        }
        w
    }

    /// Pairs the bracket; returns the pairs made (player indices) and which bracket positions
    /// (< cur_end) are paired.
    pub fn solve<const N: usize, G: MatchGraph<N>>(
        &self,
        validity: &mut Completion,
    ) -> BracketSolver {
        let m = self.group.len();
        let (mdps, cur_end) = (self.mdps, self.cur_end);
        let tri = |o: usize, p: usize| o * (o - 1) / 2 + p;
        let mut base = vec![Acc::<N>::ZERO; m * m.saturating_sub(1) / 2];
        let mut g = G::new(m);
        for o in mdps.max(1)..m {
            for p in 0..o {
                let w = self.edge::<N>(p, o);
                if !w.is_zero() {
                    g.set(p, o, w);
                }
                base[tri(o, p)] = w;
            }
        }
        let maxw = {
            let mut a = Acc::<N>::ZERO;
            a.add_u64(1);
            a.shl(self.weight_bits() + 1);
            a.sub_u64(1);
            a
        };
        g.solve();
        let resident = |g: &G, x: usize| g.mate(x).is_some_and(|y| y >= mdps && y < cur_end);
        let upper = |g: &G, x: usize| g.mate(x).is_some_and(|y| y > x && y < cur_end);
        let mut matched = vec![false; cur_end];
        let mut pairs = Vec::new();
        let finalize = |g: &mut G, a: usize, b: usize| {
            for x in 0..m {
                if x != a {
                    g.set(a, x, if x == b { maxw } else { Acc::ZERO });
                }
                if x != b {
                    g.set(b, x, if x == a { maxw } else { Acc::ZERO });
                }
            }
        };
        let tie = self.tie_bits();
        // Adds `add` units of the generation-order phases (above the tie-break term).
        let with = |w: &Acc<N>, add: u64| {
            let mut a = Acc::<N>::ZERO;
            a.add_u64(add);
            a.shl(tie);
            let mut v = *w;
            v.add(&a);
            v
        };
        let minus_one = |w: &mut Acc<N>| {
            let mut a = Acc::<N>::ZERO;
            a.add_u64(1);
            a.shl(tie);
            w.sub(&a);
        };

        // A. Which moved-down players are paired: the highest scores first, and within one
        // score the highest-ranked that can be.
        let score = |pos: usize| self.player(pos).score;
        let (mut md_score, mut left, mut left_paired) = (i32::MIN, 0usize, 0usize);
        for p in 0..mdps {
            if p == 0 || score(p) < md_score {
                md_score = score(p);
                left = 0;
                left_paired = 0;
                let mut q = p;
                while q < m && score(q) >= md_score {
                    left += 1;
                    if resident(&g, q) {
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
            if !resident(&g, p) {
                for o in mdps..cur_end {
                    let w = base[tri(o, p)];
                    if !w.is_zero() {
                        g.set(p, o, with(&w, 1));
                    }
                }
                g.solve();
            }
            if resident(&g, p) {
                matched[p] = true;
                left_paired -= 1;
                for o in mdps..cur_end {
                    let w = base[tri(o, p)];
                    if !w.is_zero() {
                        g.set(p, o, with(&w, (cur_end - mdps) as u64 + 1));
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
                let w = base[tri(o, p)];
                if !w.is_zero() {
                    g.set(p, o, with(&w, addend));
                    addend += 1;
                    best = Some(o);
                }
            }
            // Already with the highest-ranked candidate: the bonuses raise the current
            // matching at least as much as any other, so it stays optimal.
            if g.mate(p) != best {
                g.solve();
            }
            let q = g
                .mate(p)
                .expect("a moved-down player chosen for pairing has an opponent");
            matched[q] = true;
            finalize(&mut g, p, q);
            validity.fix_pair(self.group[p], self.group[q]);
            pairs.push((p, q));
        }

        // C. The remainder: fewest exchanges, then smallest difference of exchanged BSNs.
        let remainder: Vec<usize> = (mdps..cur_end)
            .filter(|&x| g.mate(x).is_none_or(|y| y >= mdps))
            .collect();
        let rpairs = remainder
            .iter()
            .filter(|&&x| g.mate(x).is_some_and(|y| y < x))
            .count();
        let exchange_addend = |prem: usize| {
            let mut a = Acc::<N>::ZERO;
            a.add_u64((prem < rpairs) as u64);
            a.shl(2 * self.pcb);
            a.sub_u64(prem as u64);
            a.shl(1 + tie);
            a
        };
        let computer = |base: &Vec<Acc<N>>, p: usize, o: usize, prem: usize| {
            let mut w = base[tri(o, p)];
            if !w.is_zero() {
                w.add(&exchange_addend(prem));
            }
            w
        };
        // When the players paired "upwards" are already exactly the first `rpairs` of the
        // remainder (S1), no exchange is needed and the current matching already maximises
        // the exchange bonuses among the optimal matchings: skip that re-solve.
        let natural = remainder[..rpairs].iter().all(|&x| upper(&g, x));
        if !natural {
            for (oi, &o) in remainder.iter().enumerate() {
                for (prem, &p) in remainder.iter().enumerate().take(oi) {
                    g.set(p, o, computer(&base, p, o, prem));
                }
            }
            g.solve();
        }
        let exchanges = remainder[..rpairs]
            .iter()
            .filter(|&&x| !upper(&g, x))
            .count();

        // D. Which S1 players move to S2: the lowest-ranked first (D.2.c).
        let mut remaining = exchanges;
        let mut pos = rpairs;
        while pos > 0 && remaining > 0 {
            pos -= 1;
            let x = remainder[pos];
            if upper(&g, x) {
                for &o in &remainder[pos + 1..] {
                    let mut w = computer(&base, x, o, pos);
                    if !w.is_zero() {
                        minus_one(&mut w);
                        g.set(x, o, w);
                    }
                }
                g.solve();
            }
            let exchange = !upper(&g, x);
            if exchange {
                remaining -= 1;
            }
            for &o in &remainder[pos + 1..] {
                if exchange {
                    base[tri(o, x)] = Acc::ZERO;
                }
                g.set(x, o, computer(&base, x, o, pos));
            }
        }

        // E. Which S2 players move to S1: the highest-ranked first (D.2.d).
        let mut remaining = exchanges;
        let mut pos = rpairs;
        while pos < remainder.len() && remaining > 1 {
            let x = remainder[pos];
            let already = upper(&g, x);
            if !already {
                for &o in &remainder[pos + 1..] {
                    let w = computer(&base, x, o, pos);
                    if !w.is_zero() {
                        g.set(x, o, with(&w, 1));
                    }
                }
                g.solve();
            }
            if upper(&g, x) {
                remaining -= 1;
                for &o in &remainder[..pos] {
                    base[tri(x, o)] = Acc::ZERO;
                    g.set(x, o, Acc::ZERO);
                }
                for o in cur_end..m {
                    base[tri(o, x)] = Acc::ZERO;
                    g.set(x, o, Acc::ZERO);
                }
            }
            if !already {
                for &o in &remainder[pos + 1..] {
                    g.set(x, o, computer(&base, x, o, pos));
                }
            }
            pos += 1;
        }

        // F. Fix S1 and S2 of the remainder.
        for (xi, &x) in remainder.iter().enumerate() {
            for &o in &remainder[xi + 1..] {
                let was = base[tri(o, x)];
                if !upper(&g, x) || upper(&g, o) {
                    base[tri(o, x)] = Acc::ZERO;
                }
                if !natural || was != base[tri(o, x)] {
                    g.set(x, o, base[tri(o, x)]);
                }
            }
        }

        // G. Each S1 player in turn gets the highest-ranked S2 opponent possible (D.1).
        for &x in &remainder {
            if !upper(&g, x) {
                continue;
            }
            let mut addend = 0u64;
            let mut best = None;
            for &o in remainder.iter().rev() {
                if o <= x || matched[o] {
                    continue;
                }
                let w = base[tri(o, x)];
                if !w.is_zero() {
                    g.set(x, o, with(&w, addend));
                    best = Some(o);
                }
                addend += 1;
            }
            // As in B: the highest-ranked candidate already paired needs no re-solve.
            if g.mate(x) != best {
                g.solve();
            }
            let q = g.mate(x).expect("an S1 player has an opponent");
            matched[x] = true;
            matched[q] = true;
            finalize(&mut g, x, q);
            validity.fix_pair(self.group[x], self.group[q]);
            pairs.push((x, q));
        }

        BracketSolver { pairs, matched }
    }
}

//! Rule set `dutch-2025`: the Dutch system as revised with effect from 1 July 2025
//! (spec/dutch-2025.md). What differs from `dutch-2017`, all of it here:
//!
//! * no PPB/CLB collapse: completion ([C4]) and the lowest possible PAB score ([C5]) are the top
//!   field of every edge of ONE matching over all players still to pair, so every bracket is
//!   paired knowing the rest can be completed;
//! * the PAB score is fixed before the first bracket by a whole-field pre-pass;
//! * [C7] maximises the scores paired (instead of the PSD), [C8] looks ahead at the next
//!   bracket's pairs and scores;
//! * [C9] the PAB assignee's played games, in a bracket that floats only the future assignee;
//! * float criteria [C14]-[C21] count upfloaters positively (no borrowing) and use scoregroup
//!   fields; the float history itself (which unplayed rounds count as a downfloat) and PAB
//!   eligibility are in `state.rs`.
//!
//! The generation order (phases) and colours are shared with `dutch-2017`.

use super::MatchGraph;
use super::phases::{BaseWeights, Phases, tri};
use super::weight::{Acc, Packer, Sink, bits};
use crate::state::{Float, Player, RoundState};
use std::collections::BTreeMap;

/// The edge-weight layout of one round.
pub(crate) struct Layout {
    /// Bits of the largest scoregroup's size: the width of every count field.
    sgsb: u32,
    /// Bit position of each score's field in a "scores" field, and that field's width.
    shift: BTreeMap<i32, u32>,
    sgs: u32,
    played: u32,
    tie: u32,
}

/// What a bracket knows when its edges are weighed.
#[derive(Clone, Copy)]
pub(crate) struct BracketView {
    pub bye_score: i32,
    /// [C9] applies: the bracket floats exactly the future PAB assignee.
    pub single_downfloater: bool,
}

impl Layout {
    pub fn new(st: &RoundState) -> Layout {
        // Scoregroups from the lowest score up: each gets bits for its size.
        let mut shift = BTreeMap::new();
        let mut sgs = 0;
        let mut largest = 0;
        let mut i = st.len();
        while i > 0 {
            let score = st.players[i - 1].score;
            let mut j = i;
            while j > 0 && st.players[j - 1].score == score {
                j -= 1;
            }
            let size = (i - j) as u64;
            shift.insert(score, sgs);
            sgs += bits(size);
            largest = largest.max(size);
            i = j;
        }
        Layout {
            sgsb: bits(largest),
            shift,
            sgs,
            played: st.played_rounds,
            tie: 2 * bits(st.len() as u64),
        }
    }

    pub fn weight_bits(&self) -> u32 {
        let (b, s) = (self.sgsb, self.sgs);
        let mut w = 2 + b + s + b + s + b + 4 * b;
        if self.played >= 1 {
            w += 2 * b + 2 * s;
        }
        if self.played >= 2 {
            w += 2 * b + 2 * s;
        }
        w + super::phases::phases_width(b) + self.tie
    }

    fn at(&self, score: i32) -> u32 {
        self.shift[&score]
    }

    /// Weight of pairing `h` (higher-ranked) with `l`. `l_cur`/`l_next`: the lower player is in
    /// the current bracket / in the next scoregroup; `tie`: the tie-break bonus (0 outside the
    /// bracket's residents).
    #[allow(clippy::too_many_arguments)]
    pub fn edge<const N: usize>(
        &self,
        st: &RoundState,
        hi: usize,
        li: usize,
        l_cur: bool,
        l_next: bool,
        view: BracketView,
        ranks: &BTreeMap<u32, u64>,
        tie: u64,
    ) -> Acc<N> {
        let mut w = Packer::<N>::new();
        self.edge_into(st, hi, li, l_cur, l_next, view, ranks, tie, &mut w);
        w.finish()
    }

    /// Writes the fields of [`Layout::edge`] into `w`; false (nothing written) when the two
    /// may not meet.
    #[allow(clippy::too_many_arguments)]
    pub fn edge_into<S: Sink + ?Sized>(
        &self,
        st: &RoundState,
        hi: usize,
        li: usize,
        l_cur: bool,
        l_next: bool,
        view: BracketView,
        ranks: &BTreeMap<u32, u64>,
        tie: u64,
        w: &mut S,
    ) -> bool {
        if !st.compatible(hi, li) {
            return false;
        }
        let (h, l): (&Player, &Player) = (&st.players[hi], &st.players[li]);
        let (b, s) = (self.sgsb, self.sgs);
        let candidate = |p: &Player| p.bye_eligible && p.score <= view.bye_score;
        // [C4]/[C5]: complete the round, the unpaired player an eligible one of the PAB score.
        w.field("[C4]/[C5]", 0);
        w.add_u64(1 + (!candidate(h)) as u64 + (!candidate(l)) as u64);
        // [C6] pairs in this bracket; [C7] the scores paired.
        w.field("[C6]", b);
        if l_cur {
            w.add_u64(1);
        }
        w.field("[C7]", s);
        if l_cur {
            w.add_bit(self.at(h.score));
        }
        // [C8] the next bracket: its pairs, then its scores paired.
        w.field("[C8]", b);
        if l_next {
            w.add_u64(1);
        }
        w.field("[C8]", s);
        if l_next {
            w.add_bit(self.at(h.score));
        }
        // [C9] the PAB assignee's games played (rank among those with the PAB score).
        w.field("[C9]", b);
        if view.single_downfloater {
            if h.score == view.bye_score {
                w.add_u64(ranks[&(self.played - h.played_games)]);
            }
            if l.score == view.bye_score {
                w.add_u64(ranks[&(self.played - l.played_games)]);
            }
        }
        // [C10]-[C13] colours, as in dutch-2017.
        super::bracket2017::colour_fields(w, l, h, l_cur, b, ["[C10]", "[C11]", "[C12]", "[C13]"]);
        // [C14]-[C17] repeated floats.
        for back in 0..2usize {
            if self.played as usize > back {
                w.field(["[C14]", "[C16]"][back], b);
                if l_cur {
                    if l.floats[back] == Float::Down {
                        w.add_u64(1);
                    }
                    if h.score <= l.score && h.floats[back] == Float::Down {
                        w.add_u64(1);
                    }
                }
                w.field(["[C15]", "[C17]"][back], b);
                if l_cur && !(h.score > l.score && l.floats[back] == Float::Up) {
                    w.add_u64(1);
                }
            }
        }
        // [C18]-[C21] scores of repeated floaters.
        for back in 0..2usize {
            if self.played as usize > back {
                w.field(["[C18]", "[C20]"][back], s);
                if l_cur {
                    if l.floats[back] == Float::Down {
                        w.add_bit(self.at(l.score));
                    }
                    if h.floats[back] == Float::Down {
                        w.add_bit(self.at(h.score));
                    }
                }
                w.field(["[C19]", "[C21]"][back], s);
                if l_cur && !(l.floats[back] == Float::Up && h.score > l.score) {
                    w.add_bit(self.at(h.score));
                }
            }
        }
        w.field(super::bracket2017::PHASES, super::phases::phases_width(b));
        w.field(super::bracket2017::TIE, self.tie);
        w.add_u64(tie);
        true
    }

    /// The pre-pass weight (odd fields): complete the round leaving unpaired an eligible
    /// player of the lowest possible score.
    pub fn bye_prepass<const N: usize>(&self, st: &RoundState, hi: usize, li: usize) -> Acc<N> {
        let mut w = Acc::<N>::ZERO;
        if !st.compatible(hi, li) {
            return w;
        }
        let (h, l) = (&st.players[hi], &st.players[li]);
        w.add_u64(1 + (!h.bye_eligible) as u64 + (!l.bye_eligible) as u64);
        w.shl(self.sgs);
        w.add_u64((self.at(h.score) + self.at(l.score)) as u64);
        w.shl(self.sgsb);
        if l.score >= st.players[0].score {
            w.add_u64(1);
        }
        w
    }
}

/// The pairs of the round (player indices), or `None` when no complete pairing exists.
pub(crate) fn pair_round<const N: usize, G: MatchGraph<N>>(
    st: &RoundState,
    brackets: &mut Vec<super::BracketDone>,
    mut audit: Option<&mut super::audit::Audit>,
) -> Option<Vec<Option<usize>>> {
    let n = st.len();
    let lay = Layout::new(st);
    let score = |i: usize| st.players[i].score;
    let mut g = G::new(n);
    let odd = n % 2 == 1;
    let mut view = BracketView {
        bye_score: 0,
        single_downfloater: false,
    };
    let no_ranks = BTreeMap::new();
    for i in 0..n {
        for j in 0..i {
            let w = if odd {
                lay.bye_prepass::<N>(st, j, i)
            } else {
                lay.edge::<N>(st, j, i, false, false, view, &no_ranks, 0)
            };
            g.set(i, j, w);
        }
    }
    crate::profile::step("round: whole-field pre-pass");
    g.solve();
    let unmatched: Vec<usize> = (0..n).filter(|&i| g.mate(i).is_none()).collect();
    if unmatched.len() > 1 {
        return None;
    }
    let mut ranks: BTreeMap<u32, u64> = BTreeMap::new();
    if odd {
        let bye = unmatched[0];
        view.bye_score = score(bye);
        for i in 0..n {
            for j in 0..i {
                g.set(
                    i,
                    j,
                    lay.edge::<N>(st, j, i, false, false, view, &no_ranks, 0),
                );
            }
        }
        let top = score(0);
        view.single_downfloater = view.bye_score >= top
            && (0..n)
                .take_while(|&i| score(i) >= top)
                .all(|i| g.mate(i).is_none_or(|m| score(m) >= top));
        // [C9]: rank the PAB-score players by unplayed rounds, fewest first; the matching
        // maximises the ranks of the players it pairs, so the one left over has the fewest.
        let mut unplayed: Vec<u32> = (0..n)
            .filter(|&i| score(i) == view.bye_score)
            .map(|i| st.played_rounds - st.players[i].played_games)
            .collect();
        unplayed.sort_unstable();
        for (rank, u) in unplayed.into_iter().enumerate() {
            ranks.insert(u, rank as u64);
        }
    }
    let maxw = Acc::<N>::all_ones(lay.weight_bits() + 1);

    let mut mate_of: Vec<Option<usize>> = vec![None; n];
    let mut next = 0;
    let mut group: Vec<usize> = Vec::new();
    while next < n && score(next) >= score(0) {
        group.push(next);
        next += 1;
    }
    let mut mdps = 0usize;
    // The graph drops the players paired in earlier brackets now and then (their rows would
    // only lengthen every scan): `vx` is each player's vertex, `px` each vertex's player; both
    // keep the players' order, which the phases rely on.
    let mut vx: Vec<usize> = (0..n).collect();
    let mut px: Vec<usize> = (0..n).collect();
    let mut settled = 0usize;
    while group.len() > 1 || next < n {
        let cur_end = group.len();
        if cur_end == mdps {
            break;
        }
        let res_lo = if mdps < cur_end { vx[group[mdps]] } else { 0 };
        let res_hi = res_lo + (cur_end - mdps);
        let group_start = next;
        while next < n && score(next) >= score(group_start) {
            group.push(next);
            next += 1;
        }
        let m = group.len();
        let mut base = BaseWeights::<N>::new(m);
        for o in mdps.max(1)..m {
            for p in 0..o {
                let tie = if p >= mdps && o < cur_end {
                    super::phases::tie_term(p, cur_end)
                } else {
                    0
                };
                let w = lay.edge::<N>(
                    st,
                    group[p],
                    group[o],
                    o < cur_end,
                    o >= cur_end,
                    view,
                    &ranks,
                    tie,
                );
                g.set(vx[group[p]], vx[group[o]], w);
                base.set(tri(o, p), w);
            }
        }
        let scores: Vec<i32> = group.iter().map(|&i| score(i)).collect();
        let vert: Vec<usize> = group.iter().map(|&i| vx[i]).collect();
        let phases = Phases {
            m,
            mdps,
            cur_end,
            vert: &vert,
            scores: &scores,
            res_lo,
            res_hi,
            tie: lay.tie,
            field_bits: lay.sgsb,
            maxw,
        };
        let outcome = phases.run(&mut g, &mut base, |_, _| {});
        if let Some(a) = audit.as_deref_mut() {
            // Vertices are player indices; the bracket's group is in index order.
            let mut universe: Vec<usize> = group.clone();
            universe.extend(next..n);
            let pos_of = |x: usize| group.binary_search(&x).ok();
            let outside = BracketView {
                bye_score: view.bye_score,
                single_downfloater: false,
            };
            let weigh = |x: usize, y: usize, w: &mut dyn Sink| match (pos_of(x), pos_of(y)) {
                (Some(_), Some(py)) => {
                    lay.edge_into(st, x, y, py < cur_end, py >= cur_end, view, &ranks, 0, w)
                }
                _ => lay.edge_into(st, x, y, false, false, outside, &no_ranks, 0, w),
            };
            let pairs: Vec<(usize, usize)> = outcome
                .pairs
                .iter()
                .map(|&(p, q)| (group[p], group[q]))
                .collect();
            a.bracket::<N, G>(
                brackets.len(),
                &universe,
                &group[..cur_end],
                &pairs,
                |x| x,
                weigh,
            );
        }
        let mut done = super::BracketDone::new(&group[..cur_end], mdps);
        for &(a, b) in &outcome.pairs {
            let (x, y) = (group[a], group[b]);
            mate_of[x] = Some(y);
            mate_of[y] = Some(x);
            done.pairs.push((x, y));
        }
        // [C9] applies to the next bracket when its scoregroup is not above the PAB score and
        // nobody in it is tentatively paired below that scoregroup: then the one player it
        // floats is the PAB assignee.
        view.single_downfloater = odd && group_start < n && score(group_start) <= view.bye_score;
        let mut carried = Vec::new();
        let mut new_mdps = 0;
        for (pos, &x) in group.iter().enumerate() {
            if pos < cur_end && outcome.matched[pos] {
                continue;
            }
            if pos < cur_end {
                new_mdps += 1;
                done.unpaired.push(x);
            }
            let mate = g.mate(vx[x]).map_or(x, |v| px[v]);
            if group_start < n && score(mate) < score(group_start) {
                view.single_downfloater = false;
            }
            carried.push(x);
        }
        brackets.push(done);
        group = carried;
        mdps = new_mdps;
        settled += 2 * brackets.last().map_or(0, |d| d.pairs.len());
        if settled >= 16 && settled * 8 >= g.len() {
            let keep: Vec<bool> = px.iter().map(|&x| mate_of[x].is_none()).collect();
            g.retain(&keep);
            px.retain(|&x| mate_of[x].is_none());
            for (v, &x) in px.iter().enumerate() {
                vx[x] = v;
            }
            settled = 0;
        }
    }
    Some(mate_of)
}

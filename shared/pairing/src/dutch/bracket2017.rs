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
use super::phases::{BaseWeights, Phases, tri};
use super::weight::{Acc, Packer, ScoreDiffFields, Sink, bits};
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
    /// Score-difference fields of C.6 (every player's float and every pair).
    sd: ScoreDiffFields,
    /// Of C.7: the floats of the bracket's players only.
    sd_next: ScoreDiffFields,
    /// Of C.16 / C.18 (one and two rounds back): the players who floated down then, and their
    /// pairs with lower scores.
    sd_down: [ScoreDiffFields; 2],
    /// Of C.17 / C.19: pairs whose lower player floated up then.
    sd_up: [ScoreDiffFields; 2],
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
        let floats = |pos: usize| st.players[group[pos]].floats;
        let min_score = score(group.len() - 1);
        // Possible score differences in this bracket, one entry per possible occurrence: a
        // downfloater's (score - min + 1 point) for every player, and one pair difference per
        // player and distinct opponent score. Each criterion's fields count only the
        // occurrences it can write: the repeated-float criteria see few players, and narrower
        // weights make every solve of a large bracket cheaper.
        let mut diffs = Vec::new();
        let mut next = Vec::new();
        let mut down: [Vec<i32>; 2] = Default::default();
        let mut up: [Vec<i32>; 2] = Default::default();
        for i in 0..cur_end {
            let float = score(i) - min_score + 10;
            diffs.push(float);
            next.push(float);
            for back in 0..2 {
                if floats(i)[back] == Float::Down {
                    down[back].push(float);
                }
            }
            let first = mdps.max(i + 1);
            for j in first..cur_end {
                if j <= first || score(j) < score(j - 1) {
                    let d = score(i) - score(j);
                    diffs.push(d);
                    for back in 0..2 {
                        if d > 0 && floats(i)[back] == Float::Down {
                            down[back].push(d);
                        }
                    }
                }
            }
            // As the lower player of a pair: one difference per distinct higher score.
            if i >= mdps.max(1) && floats(i).contains(&Float::Up) {
                let mut higher: Vec<i32> = (0..i).map(score).filter(|&s| s > score(i)).collect();
                higher.sort_unstable();
                higher.dedup();
                for back in 0..2 {
                    if floats(i)[back] == Float::Up {
                        up[back].extend(higher.iter().map(|s| s - score(i)));
                    }
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
            sd_next: ScoreDiffFields::from_occurrences(next),
            sd_down: down.map(ScoreDiffFields::from_occurrences),
            sd_up: up.map(ScoreDiffFields::from_occurrences),
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
            } + self.sd_next.width;
        }
        b += 4 * pcb;
        for back in 0..2 {
            if played as usize > back {
                b += 2 * pcb + self.sd_down[back].width + self.sd_up[back].width;
            }
        }
        b + super::phases::phases_width(pcb) + self.tie_bits()
    }

    /// The criteria weight of pairing the players at positions `hp < lp`; zero when they
    /// may not meet.
    pub fn edge<const N: usize>(&self, hp: usize, lp: usize) -> Acc<N> {
        let mut w = Packer::<N>::new();
        self.edge_into(hp, lp, &mut w);
        w.finish()
    }

    /// Writes the criteria fields of the pair at positions `hp < lp` into `w`; false (and
    /// nothing written) when they may not meet.
    pub fn edge_into<S: Sink + ?Sized>(&self, hp: usize, lp: usize, w: &mut S) -> bool {
        if !self.st.compatible(self.group[hp], self.group[lp]) {
            return false;
        }
        let (h, l) = (self.player(hp), self.player(lp));
        let (h_cur, l_cur) = (hp < self.cur_end, lp < self.cur_end);
        let (pcb, sd) = (self.pcb, &self.sd);
        let down = |p: &Player| p.score - self.min_score + 10;
        let not_elig = |p: &Player| (!p.bye_eligible) as u64;
        let played = self.st.played_rounds;

        // C.4 / A.9: complete the round, leaving unpaired only a player who may get the bye.
        w.field("C.4", 0);
        if self.special {
            w.add_u64(1 + not_elig(h) + not_elig(l));
        }
        // C.5: as many pairs as possible in this bracket.
        w.field("C.5", pcb);
        if l_cur {
            w.add_u64(1);
        }
        // C.6: the smallest PSD.
        w.field("C.6", sd.width);
        if l_cur {
            w.add_bit(sd.at(down(h)));
            w.add_bit(sd.at(down(l)));
            w.sub_bit(sd.at(h.score - l.score));
        }
        // C.7: the best pairing of the next bracket (pairs, then scores of the floaters).
        if !self.special {
            if self.last_next {
                w.field("C.7", pcb.max(self.next_bits) + 3);
                w.add_u64(1 + not_elig(h) + not_elig(l));
            } else {
                w.field("C.7", self.next_bits);
                if !l_cur {
                    w.add_u64(1);
                }
            }
            let sd = &self.sd_next;
            w.field("C.7", sd.width);
            if h_cur {
                w.add_bit(sd.at(down(h)));
            }
            if l_cur {
                w.add_bit(sd.at(down(l)));
            }
        }
        // C.8-C.11: colours.
        colour_fields(w, l, h, l_cur, pcb, ["C.8", "C.9", "C.10", "C.11"]);
        // C.12-C.15: repeated floats, one and two rounds back.
        for back in 0..2usize {
            if played as usize > back {
                w.field(["C.12", "C.14"][back], pcb);
                if l_cur {
                    if l.floats[back] == Float::Down {
                        w.add_u64(1);
                    }
                    if h.score <= l.score && h.floats[back] == Float::Down {
                        w.add_u64(1);
                    }
                }
                w.field(["C.13", "C.15"][back], pcb);
                if l_cur && h.score > l.score && l.floats[back] == Float::Up {
                    w.sub_u64(1);
                }
            }
        }
        // C.16-C.19: score differences of repeated floaters.
        for back in 0..2usize {
            if played as usize > back {
                let sd = &self.sd_down[back];
                w.field(["C.16", "C.18"][back], sd.width);
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
                let sd = &self.sd_up[back];
                w.field(["C.17", "C.19"][back], sd.width);
                if l_cur && l.floats[back] == Float::Up && h.score > l.score {
                    w.sub_bit(sd.at(h.score - l.score));
                }
            }
        }
        // Room for the generation-order phases.
        w.field(PHASES, super::phases::phases_width(pcb));
        // Below every rule: among equally good matchings prefer the one whose residents
        // paired "upwards" are the highest-ranked, which is the shape the generation order
        // (B.6) ends with. It never decides a pairing, it only spares re-solving.
        w.field(TIE, self.tie_bits());
        if hp >= self.mdps && l_cur {
            w.add_u64(super::phases::tie_term(hp, self.cur_end));
        }
        true
    }

    /// Pairs the bracket; returns the pairs made (player indices) and which bracket positions
    /// (< cur_end) are paired.
    pub fn solve<const N: usize, G: MatchGraph<N>>(
        &self,
        validity: &mut Completion,
    ) -> BracketSolver {
        let m = self.group.len();
        let mut base = BaseWeights::<N>::new(m);
        let mut g = G::new(m);
        for o in self.mdps.max(1)..m {
            for p in 0..o {
                let w = self.edge::<N>(p, o);
                if !w.is_zero() {
                    g.set(p, o, w);
                }
                base.set(tri(o, p), w);
            }
        }
        let vert: Vec<usize> = (0..m).collect();
        let scores: Vec<i32> = self
            .group
            .iter()
            .map(|&i| self.st.players[i].score)
            .collect();
        let phases = Phases {
            m,
            mdps: self.mdps,
            cur_end: self.cur_end,
            vert: &vert,
            scores: &scores,
            res_lo: self.mdps,
            res_hi: self.cur_end,
            tie: self.tie_bits(),
            field_bits: self.pcb,
            maxw: Acc::<N>::all_ones(self.weight_bits() + 1),
        };
        phases.run(&mut g, &mut base, |a, b| {
            validity.fix_pair(self.group[a], self.group[b])
        })
    }
}

/// Names of the fields below the rules' own: room for the generation-order phases, and the
/// tie-break term. They never decide between two pairings on the criteria.
pub(crate) const PHASES: &str = "generation order";
pub(crate) const TIE: &str = "tie-break";

/// The four colour fields (C.8-C.11 in dutch-2017, [C10]-[C13] in dutch-2025), each `width`
/// bits, counted only for pairs inside the current bracket (`l_cur`).
pub(crate) fn colour_fields<S: Sink + ?Sized>(
    w: &mut S,
    l: &Player,
    h: &Player,
    l_cur: bool,
    pcb: u32,
    rules: [&'static str; 4],
) {
    let (lp_, hp_) = (&l.pref, &h.pref);
    let same = lp_.colour == hp_.colour;
    w.field(rules[0], pcb);
    if l_cur && (!lp_.absolute_imbalance() || !hp_.absolute_imbalance() || !same) {
        w.add_u64(1);
    }
    w.field(rules[1], pcb);
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
    w.field(rules[2], pcb);
    if l_cur && (!same || lp_.colour.is_none() || hp_.colour.is_none()) {
        w.add_u64(1);
    }
    w.field(rules[3], pcb);
    if l_cur
        && ((!lp_.strong && !lp_.absolute())
            || (!hp_.strong && !hp_.absolute())
            || (lp_.absolute() && hp_.absolute())
            || !same)
    {
        w.add_u64(1);
    }
}

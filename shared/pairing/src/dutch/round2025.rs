//! Rule set `dutch-2025`: the Dutch system as revised with effect from 1 July 2025
//! (C.04.3, 2025 revision). What differs from `dutch-2017`, all of it here:
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
use super::completion::Completion;
use super::phases::{BaseWeights, Phases, tri};
use super::weight::{Acc, Packer, Sink, bits};
use crate::state::{Float, Player, RoundState};
use std::collections::BTreeMap;

/// The edge-weight layout of one round, or of one bracket of it.
///
/// The score fields ([C7], [C8], [C18]-[C21]) hold one counter per score. A bracket's edges
/// only ever count the scores of its own players, and [C7] and [C18]-[C21] only those of the
/// bracket's players before the next scoregroup, so a bracket's layout keeps the counters of
/// those scores alone: the counters it drops are zero in every weight, so the order of the
/// matchings is the same, on far fewer bits (the round's layout has a counter for every
/// scoregroup, each as wide as that scoregroup's size). The completion field stays at one
/// position for the whole round (`top_at`), since the edges outside the bracket carry it too.
#[derive(Clone)]
pub(crate) struct Layout {
    /// Bits of the largest scoregroup's size: the width of every count field.
    sgsb: u32,
    /// Each scoregroup's size, by score.
    sizes: BTreeMap<i32, u64>,
    /// The counters of [C8]'s scores field: the bracket's players and the next scoregroup.
    next: Counters,
    /// The counters of [C7] and [C18]-[C21]: the bracket's players before the next
    /// scoregroup (the only ones those fields count).
    own: Counters,
    played: u32,
    tie: u32,
    /// Where the completion field ([C4]/[C5]) starts; `None`: right above the other fields.
    top_at: Option<u32>,
    /// Whether edges carry the completion field (see [`Layout::without_completion`]).
    completion: bool,
}

/// Score counters: the bit position of each counted score's counter in a "scores" field, and
/// that field's width. From the lowest score up, each as wide as its scoregroup's size.
#[derive(Clone, Default)]
struct Counters {
    shift: BTreeMap<i32, u32>,
    width: u32,
}

impl Counters {
    fn new(sizes: &BTreeMap<i32, u64>, scores: &[i32]) -> Counters {
        let mut c = Counters::default();
        for (&score, &size) in sizes {
            if scores.contains(&score) {
                c.shift.insert(score, c.width);
                c.width += bits(size);
            }
        }
        c
    }

    fn at(&self, score: i32) -> u32 {
        self.shift[&score]
    }
}

/// The always-empty bits between the completion field and a bracket's criteria.
pub(crate) const HEADROOM: &str = "headroom";

/// What a bracket knows when its edges are weighed.
#[derive(Clone, Copy)]
pub(crate) struct BracketView {
    pub bye_score: i32,
    /// [C9] applies: the bracket floats exactly the future PAB assignee.
    pub single_downfloater: bool,
}

impl Layout {
    /// The layout with a counter for every scoregroup of the round.
    pub fn new(st: &RoundState) -> Layout {
        let mut sizes = BTreeMap::new();
        for p in &st.players {
            *sizes.entry(p.score).or_insert(0u64) += 1;
        }
        let largest = sizes.values().copied().max().unwrap_or(0);
        let all: Vec<i32> = sizes.keys().copied().collect();
        let every = Counters::new(&sizes, &all);
        Layout {
            sgsb: bits(largest),
            sizes,
            next: every.clone(),
            own: every,
            played: st.played_rounds,
            tie: 2 * bits(st.len() as u64),
            top_at: None,
            completion: true,
        }
    }

    /// This layout with the completion field left empty: the weights of a bracket's group
    /// paired on its own (see [`pair_round`]). The completion field of an edge is its two
    /// players' shares (`1/2 + 1` for a player who may not take the bye, `1/2` for one who
    /// may, in units of the field), so a matching's completion value is the sum of its matched
    /// players' shares, and a group player left unpaired in the group's own graph stands for
    /// one paired below it, who keeps his share.
    pub fn without_completion(&self) -> Layout {
        Layout {
            completion: false,
            ..self.clone()
        }
    }

    /// This layout with the completion field at bit `top_at`, for every edge of the round.
    pub fn with_top_at(&self, top_at: u32) -> Layout {
        Layout {
            top_at: Some(top_at),
            ..self.clone()
        }
    }

    /// The layout of a bracket whose players before the next scoregroup have `own` scores,
    /// and all of whose players have `scores`: counters for those scores only, the completion
    /// field where this layout has it.
    pub fn for_scores(&self, own: &[i32], scores: &[i32]) -> Layout {
        Layout {
            next: Counters::new(&self.sizes, scores),
            own: Counters::new(&self.sizes, own),
            ..self.clone()
        }
    }

    /// Bits of every field below the completion field.
    pub fn lower_bits(&self) -> u32 {
        let (b, s, o) = (self.sgsb, self.next.width, self.own.width);
        let mut w = b + o + b + s + b + 4 * b;
        if self.played >= 1 {
            w += 2 * b + 2 * o;
        }
        if self.played >= 2 {
            w += 2 * b + 2 * o;
        }
        w + super::phases::phases_width(b) + self.tie
    }

    pub fn weight_bits(&self) -> u32 {
        2 + self.top_at.unwrap_or(self.lower_bits())
    }

    /// Bits of the whole-field pre-pass weights ([`Layout::bye_prepass`]).
    pub fn prepass_bits(&self) -> u32 {
        2 + self.next.width + self.sgsb
    }

    /// The most bits below the completion field that a bracket needs when its moved-down
    /// players come from the scoregroup right above it: the usual case, and the width a round
    /// is first tried on (a bracket that needs more has it paired again on the widest layout).
    pub fn usual_bracket_bits(&self) -> u32 {
        let scores: Vec<i32> = self.sizes.keys().rev().copied().collect();
        (0..scores.len())
            .map(|k| {
                let near = &scores[k.saturating_sub(1)..(k + 2).min(scores.len())];
                let own = &scores[k.saturating_sub(1)..k + 1];
                self.for_scores(own, near).lower_bits()
            })
            .max()
            .unwrap_or(0)
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
        let (b, s, o) = (self.sgsb, self.next.width, self.own.width);
        let (at_own, at_next) = (|x| self.own.at(x), |x| self.next.at(x));
        let candidate = |p: &Player| p.bye_eligible && p.score <= view.bye_score;
        // [C4]/[C5]: complete the round, the unpaired player an eligible one of the PAB score.
        w.field("[C4]/[C5]", 0);
        if self.completion {
            w.add_u64(1 + (!candidate(h)) as u64 + (!candidate(l)) as u64);
        }
        if let Some(top) = self.top_at {
            w.field(HEADROOM, top - self.lower_bits());
        }
        // [C6] pairs in this bracket; [C7] the scores paired.
        w.field("[C6]", b);
        if l_cur {
            w.add_u64(1);
        }
        w.field("[C7]", o);
        if l_cur {
            w.add_bit(at_own(h.score));
        }
        // [C8] the next bracket: its pairs, then its scores paired.
        w.field("[C8]", b);
        if l_next {
            w.add_u64(1);
        }
        w.field("[C8]", s);
        if l_next {
            w.add_bit(at_next(h.score));
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
                w.field(["[C18]", "[C20]"][back], o);
                if l_cur {
                    if l.floats[back] == Float::Down {
                        w.add_bit(at_own(l.score));
                    }
                    if h.floats[back] == Float::Down {
                        w.add_bit(at_own(h.score));
                    }
                }
                w.field(["[C19]", "[C21]"][back], o);
                if l_cur && !(l.floats[back] == Float::Up && h.score > l.score) {
                    w.add_bit(at_own(h.score));
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
        w.shl(self.next.width);
        w.add_u64((self.next.at(h.score) + self.next.at(l.score)) as u64);
        w.shl(self.sgsb);
        if l.score >= st.players[0].score {
            w.add_u64(1);
        }
        w
    }
}

/// A bracket's criteria need more bits than the round's width leaves below the completion
/// field: the round is to be paired again on wider weights.
#[derive(Debug)]
pub(crate) struct Wider;

std::thread_local! {
    /// Whether dutch-2025 brackets are first paired on their group's graph alone.
    static GROUP_GRAPHS: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Runs `f` with this thread's dutch-2025 brackets paired first on their group's graph alone
/// (`true`, the default) or always on the whole field's (see [`pair_round`]). For tests that
/// compare the two ways: the pairings are the same.
pub fn with_group_graphs<R>(on: bool, f: impl FnOnce() -> R) -> R {
    super::with_setting(&GROUP_GRAPHS, on, f)
}

/// Profile counts: brackets paired on their group's graph, and those whose group graph gave a
/// solve the rest of the round could not realize (paired again on the whole field's).
pub const GROUP_REALIZED: &str = "dutch-2025 brackets paired on their group graph";
pub const GROUP_FELL_BACK: &str = "dutch-2025 group graphs not realized (whole field instead)";
/// The most players of a group that the rest of the round may need (see
/// [`Completion::rest_deficiency`]) for the group's graph to be tried: the matchings of a group
/// leave few of its players unpaired, so a rest that needs more is rarely realized. Measured on
/// the scale bench's fields; any value pairs the same, only the time differs.
const REST_DEFICIENCY_TRIED: usize = 8;

/// Profile count: brackets whose rest of the round cannot be completed without the group's
/// players, paired on the whole field's graph without trying their group graph.
pub const GROUP_NOT_TRIED: &str = "dutch-2025 brackets whose rest needs the group (whole field)";

/// A bracket's graph over its group alone, each solve checked against the rest of the round:
/// the solve is what the whole field's graph would give only when the players the group's
/// matching leaves unpaired can all be paired below the group (see [`pair_round`]).
pub(crate) struct GroupGraph<'c, const N: usize, G> {
    g: G,
    /// The round's completion test and the group's players (by position); `None`: unchecked.
    check: Option<(&'c mut Completion, &'c [usize])>,
    /// Whether every solve so far was realized on the whole field.
    realized: bool,
}

impl<const N: usize, G: MatchGraph<N>> MatchGraph<N> for GroupGraph<'_, N, G> {
    fn new(m: usize) -> Self {
        GroupGraph {
            g: G::new(m),
            check: None,
            realized: true,
        }
    }
    fn len(&self) -> usize {
        self.g.len()
    }
    fn set(&mut self, u: usize, v: usize, w: Acc<N>) {
        self.g.set(u, v, w);
    }
    fn solve(&mut self) {
        self.g.solve();
        if !self.realized {
            return;
        }
        if let Some((completion, group)) = self.check.as_mut() {
            let pairs: Vec<(usize, usize)> = (0..self.g.len())
                .filter_map(|p| {
                    self.g
                        .mate(p)
                        .filter(|&q| q > p)
                        .map(|q| (group[p], group[q]))
                })
                .collect();
            self.realized = completion.realize(group, &pairs);
        }
    }
    fn mate(&self, v: usize) -> Option<usize> {
        self.g.mate(v)
    }
    fn weight(&self, u: usize, v: usize) -> arbiter_matching::Wide<N> {
        self.g.weight(u, v)
    }
    fn is_solved(&self) -> bool {
        self.g.is_solved()
    }
    fn slack(&self, u: usize, v: usize) -> Option<arbiter_matching::Wide<N>> {
        self.g.slack(u, v)
    }
    fn dual(&self, v: usize) -> arbiter_matching::Wide<N> {
        self.g.dual(v)
    }
    fn retain(&mut self, keep: &[bool]) {
        self.g.retain(keep);
    }
    fn gave_up(&self) -> bool {
        !self.realized
    }
}

/// The whole field's graph over the players not yet paired (`px`, in order), every edge
/// weighed as outside any bracket, except the edges between the moved-down players of the
/// coming bracket (`mdps`, the first of `group`), which keep what the last bracket's group
/// graph left on them (`carry`, without the completion field).
#[allow(clippy::too_many_arguments)]
fn whole_field<const N: usize, G: MatchGraph<N>>(
    st: &RoundState,
    outer: &Layout,
    view: BracketView,
    px: &[usize],
    group: &[usize],
    mdps: usize,
    carry: &[Acc<N>],
) -> G {
    let no_ranks = BTreeMap::new();
    // As the round's first graph had them: weighed before [C9] could apply.
    let view = BracketView {
        bye_score: view.bye_score,
        single_downfloater: false,
    };
    let mut g = G::new(px.len());
    let mut vx = vec![usize::MAX; st.len()];
    for (v, &x) in px.iter().enumerate() {
        vx[x] = v;
    }
    for i in 0..px.len() {
        for j in 0..i {
            let w = outer.edge::<N>(st, px[j], px[i], false, false, view, &no_ranks, 0);
            g.set(i, j, w);
        }
    }
    for o in 1..mdps {
        for p in 0..o {
            let mut w = carry[tri(o, p)];
            if !w.is_zero() {
                w.add(&outer.edge::<N>(st, group[p], group[o], false, false, view, &no_ranks, 0));
            }
            g.set(vx[group[p]], vx[group[o]], w);
        }
    }
    g
}

/// The pairs of the round (player indices), or `None` when no complete pairing exists.
/// `lay`: the round's layout (see [`Layout::new`]), with the completion field placed so that
/// the weights fit `N` limbs with the matcher's headroom.
///
/// Each bracket is paired on one matching over every player still to pair: its own group
/// (the bracket and the next scoregroup) weighed by the criteria, every other edge by the
/// completion field alone. Below the group, that graph is the rest of the field paired among
/// itself on equal weights, which makes most of the cost of each solve. So a bracket with
/// players below its group is first paired on its group's graph alone, the completion field
/// left out ([`Layout::without_completion`]), where a group player left unpaired stands for
/// one paired below the group. That graph's optimum is at least the whole field's (less a
/// constant): any matching of the whole field gives one of the group with the same criteria,
/// and the completion field is the sum of the matched players' shares. Each solve's matching
/// is then realized on the whole field ([`Completion::realize`]): the unpaired group players
/// paired below the group and the rest completed, the bye to a player who may take it. A
/// realized solve is thus an optimum of the whole field too, and what the phases read off it
/// (mates, and bounds from its duals, which hold for every matching of the whole field by
/// the same argument) is what they would read off the whole field. When a solve cannot be
/// realized, the bracket and the rest of the round are paired on the whole field's graph.
/// The brackets at or below the PAB score of an odd round ([C9] reads the tentative pairs
/// below them) and the audit always take the whole field's graph.
pub(crate) fn pair_round<const N: usize, G: MatchGraph<N>>(
    st: &RoundState,
    lay: &Layout,
    brackets: &mut Vec<super::BracketDone>,
    mut audit: Option<&mut super::audit::Audit>,
) -> Result<Option<Vec<Option<usize>>>, Wider> {
    let n = st.len();
    // The edges outside the bracket count no score: their layout has no counters.
    let outer = lay.for_scores(&[], &[]);
    let score = |i: usize| st.players[i].score;
    let odd = n % 2 == 1;
    let mut view = BracketView {
        bye_score: 0,
        single_downfloater: false,
    };
    let no_ranks = BTreeMap::new();
    let group_graphs = audit.is_none() && GROUP_GRAPHS.with(|c| c.get());
    // The whole field's graph, while brackets are paired on it.
    let mut whole: Option<G> = None;
    if odd || !group_graphs {
        let mut g = G::new(n);
        for i in 0..n {
            for j in 0..i {
                let w = if odd {
                    lay.bye_prepass::<N>(st, j, i)
                } else {
                    outer.edge::<N>(st, j, i, false, false, view, &no_ranks, 0)
                };
                g.set(i, j, w);
            }
        }
        crate::profile::step("round: whole-field pre-pass");
        g.solve();
        whole = Some(g);
    }
    let unmatched: Vec<usize> = match &whole {
        Some(g) => (0..n).filter(|&i| g.mate(i).is_none()).collect(),
        None => Vec::new(),
    };
    if unmatched.len() > 1 {
        return Ok(None);
    }
    let mut ranks: BTreeMap<u32, u64> = BTreeMap::new();
    if odd {
        let bye = unmatched[0];
        view.bye_score = score(bye);
        let g = whole.as_mut().expect("odd rounds have the pre-pass");
        let top = score(0);
        view.single_downfloater = view.bye_score >= top
            && (0..n)
                .take_while(|&i| score(i) >= top)
                .all(|i| g.mate(i).is_none_or(|m| score(m) >= top));
        if group_graphs {
            whole = None;
        } else {
            // Weighed before [C9] can apply, as `whole_field` weighs.
            let outside = BracketView {
                bye_score: view.bye_score,
                single_downfloater: false,
            };
            for i in 0..n {
                for j in 0..i {
                    g.set(
                        i,
                        j,
                        outer.edge::<N>(st, j, i, false, false, outside, &no_ranks, 0),
                    );
                }
            }
        }
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
    // The completion test the group graphs' solves are realized with (the bye to a player who
    // may take it at the PAB score), made when a group graph first needs it.
    let mut completion: Option<Completion> = None;
    if group_graphs && !odd {
        let c = completion.insert(Completion::with_bye_candidates(st, |_| false));
        if !c.complete() {
            return Ok(None);
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
    // The whole field's graph drops the players paired in earlier brackets now and then
    // (their rows would only lengthen every scan): `vx` is each player's vertex, `px` each
    // vertex's player; both keep the players' order, which the phases rely on.
    let mut vx: Vec<usize> = (0..n).collect();
    let mut px: Vec<usize> = (0..n).collect();
    let mut settled = 0usize;
    // The edges between the moved-down players as the last group graph left them (by
    // position, with `tri`), without the completion field.
    let mut carry: Vec<Acc<N>> = Vec::new();
    while group.len() > 1 || next < n {
        let cur_end = group.len();
        if cur_end == mdps {
            break;
        }
        let group_start = next;
        while next < n && score(next) >= score(group_start) {
            group.push(next);
            next += 1;
        }
        let m = group.len();
        let scores: Vec<i32> = group.iter().map(|&i| score(i)).collect();
        let blay = lay.for_scores(&scores[..cur_end], &scores);
        if lay.top_at.is_some_and(|top| blay.lower_bits() > top) {
            return Err(Wider);
        }
        let weigh = |lay: &Layout, p: usize, o: usize| {
            let tie = if p >= mdps && o < cur_end {
                super::phases::tie_term(p, cur_end)
            } else {
                0
            };
            lay.edge::<N>(
                st,
                group[p],
                group[o],
                o < cur_end,
                o >= cur_end,
                view,
                &ranks,
                tie,
            )
        };
        let run_phases =
            |g: &mut dyn FnMut(&Phases<N>, &mut BaseWeights<N>) -> super::BracketSolver,
             base: &mut BaseWeights<N>,
             vert: &[usize],
             res_lo: usize| {
                let phases = Phases {
                    m,
                    mdps,
                    cur_end,
                    vert,
                    scores: &scores,
                    res_lo,
                    res_hi: res_lo + (cur_end - mdps),
                    tie: blay.tie,
                    field_bits: blay.sgsb,
                    maxw,
                };
                g(&phases, base)
            };
        let below = n - next;
        let mut outcome = None;
        if group_graphs && below > 0 && (!odd || score(group_start) > view.bye_score) {
            let c = completion.get_or_insert_with(|| {
                let bye_score = view.bye_score;
                Completion::with_bye_candidates(st, |i| {
                    st.players[i].bye_eligible && st.players[i].score <= bye_score
                })
            });
            if c.rest_deficiency(&group) > REST_DEFICIENCY_TRIED {
                crate::profile::count(GROUP_NOT_TRIED);
            } else {
                let hlay = blay.without_completion();
                let mut base = BaseWeights::<N>::new(m);
                let mut h = GroupGraph::<N, G> {
                    g: G::new(m),
                    check: Some((c, &group)),
                    realized: true,
                };
                for o in mdps.max(1)..m {
                    for p in 0..o {
                        let w = weigh(&hlay, p, o);
                        h.set(p, o, w);
                        base.set(tri(o, p), w);
                    }
                }
                for o in 1..mdps {
                    for p in 0..o {
                        h.set(p, o, carry[tri(o, p)]);
                    }
                }
                let vert: Vec<usize> = (0..m).collect();
                let solved = run_phases(
                    &mut |phases, base| phases.run(&mut h, base, |_, _| {}),
                    &mut base,
                    &vert,
                    mdps,
                );
                if h.realized {
                    // The edges among the next bracket's moved-down players (this bracket's
                    // unpaired ones, in order) as this graph leaves them.
                    let unpaired: Vec<usize> =
                        (0..cur_end).filter(|&p| !solved.matched[p]).collect();
                    carry = vec![Acc::ZERO; unpaired.len() * unpaired.len().saturating_sub(1) / 2];
                    for (b, &pb) in unpaired.iter().enumerate() {
                        for (a, &pa) in unpaired.iter().enumerate().take(b) {
                            carry[tri(b, a)] = Acc(h.weight(pa, pb).0);
                        }
                    }
                    outcome = Some(solved);
                    // The whole field's graph, if any, does not know these pairs.
                    whole = None;
                    crate::profile::count(GROUP_REALIZED);
                } else {
                    crate::profile::count(GROUP_FELL_BACK);
                }
            }
        }
        let outcome = match outcome {
            Some(outcome) => outcome,
            None => {
                let g = whole.get_or_insert_with(|| {
                    px = (0..n).filter(|&x| mate_of[x].is_none()).collect();
                    for (v, &x) in px.iter().enumerate() {
                        vx[x] = v;
                    }
                    settled = 0;
                    whole_field(st, &outer, view, &px, &group, mdps, &carry)
                });
                let mut base = BaseWeights::<N>::new(m);
                for o in mdps.max(1)..m {
                    for p in 0..o {
                        let w = weigh(&blay, p, o);
                        g.set(vx[group[p]], vx[group[o]], w);
                        base.set(tri(o, p), w);
                    }
                }
                let vert: Vec<usize> = group.iter().map(|&i| vx[i]).collect();
                let res_lo = if mdps < cur_end { vx[group[mdps]] } else { 0 };
                let outcome = run_phases(
                    &mut |phases, base| phases.run(g, base, |_, _| {}),
                    &mut base,
                    &vert,
                    res_lo,
                );
                if let Some(a) = audit.as_deref_mut() {
                    // Vertices are player indices; the bracket's group is in index order.
                    let mut universe: Vec<usize> = group.clone();
                    universe.extend(next..n);
                    let pos_of = |x: usize| group.binary_search(&x).ok();
                    let outside = BracketView {
                        bye_score: view.bye_score,
                        single_downfloater: false,
                    };
                    let weigh = |x: usize, y: usize, w: &mut dyn Sink| match (pos_of(x), pos_of(y))
                    {
                        (Some(_), Some(py)) => blay.edge_into(
                            st,
                            x,
                            y,
                            py < cur_end,
                            py >= cur_end,
                            view,
                            &ranks,
                            0,
                            w,
                        ),
                        _ => outer.edge_into(st, x, y, false, false, outside, &no_ranks, 0, w),
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
                outcome
            }
        };
        let mut done = super::BracketDone::new(&group[..cur_end], mdps);
        for &(a, b) in &outcome.pairs {
            let (x, y) = (group[a], group[b]);
            mate_of[x] = Some(y);
            mate_of[y] = Some(x);
            done.pairs.push((x, y));
        }
        if let Some(c) = completion.as_mut() {
            c.settle(&done.pairs);
        }
        // [C9] applies to the next bracket when its scoregroup is not above the PAB score and
        // nobody in it is tentatively paired below that scoregroup: then the one player it
        // floats is the PAB assignee. (A bracket paired on its group graph has its next
        // scoregroup above the PAB score, so nothing is to be read then.)
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
            if let Some(g) = &whole {
                let mate = g.mate(vx[x]).map_or(x, |v| px[v]);
                if group_start < n && score(mate) < score(group_start) {
                    view.single_downfloater = false;
                }
            }
            carried.push(x);
        }
        brackets.push(done);
        if let Some(g) = &whole {
            // The edges among the next bracket's moved-down players, for a group graph.
            let outside = BracketView {
                bye_score: view.bye_score,
                single_downfloater: false,
            };
            let unpaired = &carried[..new_mdps];
            carry = vec![Acc::ZERO; new_mdps * new_mdps.saturating_sub(1) / 2];
            for (b, &xb) in unpaired.iter().enumerate() {
                for (a, &xa) in unpaired.iter().enumerate().take(b) {
                    let mut w = Acc(g.weight(vx[xa], vx[xb]).0);
                    if !w.is_zero() {
                        w.sub(&outer.edge::<N>(st, xa, xb, false, false, outside, &no_ranks, 0));
                    }
                    carry[tri(b, a)] = w;
                }
            }
        }
        group = carried;
        mdps = new_mdps;
        if let Some(g) = whole.as_mut() {
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
    }
    Ok(Some(mate_of))
}

#[cfg(feature = "test-support")]
pub mod checks {
    use super::{Layout, Wider, pair_round};
    use crate::RuleSet;
    use crate::dutch::CoreGraph;
    use crate::simulate::Simulation;
    use crate::state::RoundState;

    /// The compact bracket layouts pair exactly as the layout with every scoregroup's counter
    /// (the widest, which any bracket fits), and a round whose bracket needs more than the
    /// width it was given says so instead of pairing on overlapping fields.
    pub fn bracket_layouts_pair_as_the_widest_and_ask_for_more_width_when_short() {
        const N: usize = 16;
        let (mut same, mut wider) = (0, 0);
        for seed in 0..12u64 {
            let players = 24 + 7 * seed as u32;
            let sim = Simulation::new(players, 9, 2026_1129 + seed);
            for round in [3, 5, 7, 9] {
                let input = sim
                    .before_round(round)
                    .expect("the generated history")
                    .input_for_round(round, RuleSet::Dutch2025)
                    .expect("the round's input");
                let st = RoundState::new(&input);
                let lay = Layout::new(&st);
                assert!(lay.weight_bits() + 8 <= 64 * N as u32, "the test's width");
                let run = |top_at: u32| {
                    let mut brackets = Vec::new();
                    pair_round::<N, CoreGraph<N>>(
                        &st,
                        &lay.with_top_at(top_at),
                        &mut brackets,
                        None,
                    )
                };
                let widest = run(64 * N as u32 - 10).expect("the widest layout fits");
                assert_eq!(
                    run(lay.lower_bits()).expect("every counter fits"),
                    widest,
                    "seed {seed}, round {round}"
                );
                match run(lay.usual_bracket_bits()) {
                    Ok(mates) => {
                        assert_eq!(mates, widest, "seed {seed}, round {round}");
                        same += 1;
                    }
                    Err(Wider) => wider += 1,
                }
            }
        }
        // Both ways out of the narrowest width were taken.
        assert!(
            same > 0 && wider > 0,
            "{same} paired, {wider} asked for more"
        );
    }
}

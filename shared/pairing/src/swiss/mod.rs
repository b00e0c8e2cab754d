//! What the Dubov, Burstein and Lim rule sets (C.04.4) share: each player's history as those
//! systems read it, the absolute criteria of C.04.1 (b: no rematch; d: who may not get the
//! pairing-allocated bye; f, g: colour limits), the completion test that keeps every
//! decision of a scoregroup compatible with pairing the rest of the round, a search that
//! walks a system's candidates in its own priority order, and the checker behind
//! `arbiter check --system dubov|burstein|lim`.
//!
//! Rule text: FIDE Handbook C.04.1 (basic rules) and §C.04.4 (the three systems:
//! C.04.4.1 Dubov, C.04.4.2 Burstein, C.04.4.3 Lim). Only played games count as meetings and for
//! colours (C.04.2 D.5, D.6).
//!
//! The completion test is what makes these engines total: a scoregroup may only take a
//! decision (a pair, a floater, a transfer) after which every player not yet paired can still
//! be paired without breaking an absolute criterion. The systems' own procedures (exchanges,
//! "undo the previous group", "merge two groups") exist to reach such a pairing; checking it
//! directly keeps their priority orders and never paints the round into a corner.

use crate::verdict::Verdict;
use crate::{
    Board, BracketReport, Comparison, Explanation, PairingInput, RecordedPairing, RoundPairing,
};
use arbiter_core::{Color, PlayerId, ResultCode, RoundEntry};
use arbiter_matching::Matcher;
use std::collections::{BTreeMap, BTreeSet};

/// One player of the tournament, as these systems read his history.
#[derive(Debug, Clone)]
pub(crate) struct Entrant {
    pub id: PlayerId,
    pub rating: u16,
    /// Real score in tenths of a point.
    pub score: i32,
    /// Colours of played games, oldest first.
    pub colours: Vec<Color>,
    /// Played games: opponent and own points (tenths).
    pub games: Vec<(PlayerId, i32)>,
    /// Points of each round, oldest first (tenths).
    pub round_points: Vec<i32>,
    /// C.04.1.d: a pairing-allocated bye or a forfeit win already received.
    pub pab_blocked: bool,
    /// Any point received without playing (Burstein §4.1 is stricter than C.04.1.d).
    pub unplayed_points: bool,
    pub history: Vec<RoundEntry>,
    pub available: bool,
}

/// The round to pair, as all three systems see it.
pub(crate) struct Field {
    pub round: u32,
    pub total_rounds: u32,
    pub initial_colour: Color,
    pub win: i32,
    /// Every player of the tournament, by pairing number.
    pub all: Vec<Entrant>,
    /// Indices into `all` of the players to pair, by pairing number.
    pub avail: Vec<usize>,
    index: BTreeMap<PlayerId, usize>,
    forbidden: BTreeSet<(PlayerId, PlayerId)>,
    /// C.04.1.f/g hold this round (Lim §6 lifts them in the last round).
    pub colour_limits: bool,
    /// Who may not receive the bye.
    pub bye_rule: ByeRule,
    /// `compatible` for every two indices, computed once.
    compat: std::cell::OnceCell<Vec<bool>>,
    /// The last perfect matching a completion test found, reused by the next one.
    hint: std::cell::RefCell<Hint>,
}

/// A perfect matching found by an earlier completion test. The searches ask the test for one
/// set after another, each the last one less a pair or two, so the last matching restricted
/// to the new set usually leaves only a few players without a partner there; short
/// augmenting paths re-pair them in time linear in the set, where the solver takes cubic time.
/// Only a perfect matching actually found answers yes; otherwise the solver decides, so the
/// answer is exactly the solver's and the pairings do not depend on the hint.
#[derive(Default)]
struct Hint {
    /// Each index's partner, `usize::MAX` for none.
    mate: Vec<usize>,
    /// `stamp[i] == generation`: `i` is in the set being tested.
    stamp: Vec<u32>,
    generation: u32,
}

/// More players without a partner than this, and the solver is quicker than repairing.
const HINT_REPAIR_LIMIT: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ByeRule {
    /// C.04.1.d: an earlier PAB or forfeit win.
    PabOrForfeitWin,
    /// Burstein §4.1: any point obtained without playing.
    AnyUnplayedPoint,
}

fn pair_key(a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    (a.min(b), a.max(b))
}

impl Field {
    pub fn new(input: &PairingInput, bye_rule: ByeRule) -> Field {
        let pts = &input.points;
        let mut sorted: Vec<&crate::PlayerInput> = input.players.iter().collect();
        sorted.sort_by_key(|p| p.id);
        let all: Vec<Entrant> = sorted
            .iter()
            .map(|p| {
                let mut e = Entrant {
                    id: p.id,
                    rating: p.rating,
                    score: 0,
                    colours: Vec::new(),
                    games: Vec::new(),
                    round_points: Vec::new(),
                    pab_blocked: false,
                    unplayed_points: false,
                    history: p.history.clone(),
                    available: p.available,
                };
                for h in &p.history {
                    let got = pts.points(h.result).tenths();
                    e.score += got;
                    e.round_points.push(got);
                    if h.is_played_game() {
                        if let (Some(o), Some(c)) = (h.opponent, h.color) {
                            e.colours.push(c);
                            e.games.push((o, got));
                        }
                    } else {
                        if got > 0 {
                            e.unplayed_points = true;
                        }
                        if matches!(h.result, ResultCode::PairingBye | ResultCode::ForfeitWin) {
                            e.pab_blocked = true;
                        }
                    }
                }
                e
            })
            .collect();
        let index = all.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
        let avail = (0..all.len()).filter(|&i| all[i].available).collect();
        let forbidden = input
            .forbidden_pairs
            .iter()
            .map(|&(a, b)| pair_key(a, b))
            .collect();
        Field {
            round: input.round,
            total_rounds: input.total_rounds,
            initial_colour: input.initial_color,
            win: pts.win.tenths(),
            all,
            avail,
            index,
            forbidden,
            colour_limits: true,
            bye_rule,
            compat: std::cell::OnceCell::new(),
            hint: std::cell::RefCell::new(Hint::default()),
        }
    }

    pub fn id(&self, i: usize) -> PlayerId {
        self.all[i].id
    }

    pub fn index_of(&self, id: PlayerId) -> Option<usize> {
        self.index.get(&id).copied()
    }

    pub fn is_last_round(&self) -> bool {
        self.round >= self.total_rounds
    }

    /// Rounds played so far.
    pub fn played_rounds(&self) -> u32 {
        self.round - 1
    }

    /// Whites minus blacks.
    pub fn cd(&self, i: usize) -> i32 {
        self.all[i]
            .colours
            .iter()
            .map(|c| if *c == Color::White { 1 } else { -1 })
            .sum()
    }

    /// The colour of the last two played games when they were the same.
    pub fn repeated(&self, i: usize) -> Option<Color> {
        let c = &self.all[i].colours;
        let n = c.len();
        (n >= 2 && c[n - 1] == c[n - 2]).then(|| c[n - 1])
    }

    /// Whether `i` may take colour `c` under C.04.1.f (|whites - blacks| at most 2) and
    /// C.04.1.g (not three times in a row).
    pub fn can_take(&self, i: usize, c: Color) -> bool {
        if !self.colour_limits {
            return true;
        }
        let cd = self.cd(i) + if c == Color::White { 1 } else { -1 };
        cd.abs() <= 2 && self.repeated(i) != Some(c)
    }

    /// The colour preference of C.04.1.h, as Dubov §1, Burstein §1 and Lim §5 word it: the
    /// colour played fewer times; with equal numbers, the opposite of the last played game;
    /// none before a first game.
    pub fn pref(&self, i: usize) -> Option<Color> {
        let cd = self.cd(i);
        if cd > 0 {
            Some(Color::Black)
        } else if cd < 0 {
            Some(Color::White)
        } else {
            self.all[i].colours.last().map(|c| c.opposite())
        }
    }

    pub fn met(&self, i: usize, j: usize) -> bool {
        let b = self.all[j].id;
        self.all[i].games.iter().any(|&(o, _)| o == b)
            || self.forbidden.contains(&pair_key(self.all[i].id, b))
    }

    /// `i` and `j` may meet: not met before (C.04.1.b) and some colour allocation keeps both
    /// within the colour limits.
    pub fn compatible(&self, i: usize, j: usize) -> bool {
        let n = self.all.len();
        self.compat.get_or_init(|| {
            let mut m = vec![false; n * n];
            for a in 0..n {
                for b in 0..n {
                    m[a * n + b] = self.compute_compatible(a, b);
                }
            }
            m
        })[i * n + j]
    }

    /// Sets whether C.04.1.f/g bind this round (before any pairing question is asked).
    pub fn set_colour_limits(&mut self, on: bool) {
        self.colour_limits = on;
        self.compat = std::cell::OnceCell::new();
        *self.hint.get_mut() = Hint::default();
    }

    fn compute_compatible(&self, i: usize, j: usize) -> bool {
        i != j
            && !self.met(i, j)
            && (self.can_take(i, Color::White) && self.can_take(j, Color::Black)
                || self.can_take(i, Color::Black) && self.can_take(j, Color::White))
    }

    pub fn bye_allowed(&self, i: usize) -> bool {
        match self.bye_rule {
            ByeRule::PabOrForfeitWin => !self.all[i].pab_blocked,
            ByeRule::AnyUnplayedPoint => !self.all[i].pab_blocked && !self.all[i].unplayed_points,
        }
    }

    /// The completion test: the players of `set` can all be paired among themselves.
    pub fn completable(&self, set: &[usize]) -> bool {
        if set.len() % 2 == 1 {
            return false;
        }
        if set.is_empty() {
            return true;
        }
        if self.repaired(set) {
            return true;
        }
        let mut m: Matcher<u64> = Matcher::new(set.len());
        for a in 0..set.len() {
            let mut any = false;
            for b in 0..set.len() {
                if a != b && self.compatible(set[a], set[b]) {
                    any = true;
                    if a < b {
                        m.set_weight(a, b, 1);
                    }
                }
            }
            if !any {
                return false;
            }
        }
        m.solve();
        if !(0..set.len()).all(|v| m.mate(v).is_some()) {
            return false;
        }
        let mut hint = self.hint.borrow_mut();
        hint.mate.resize(self.all.len(), usize::MAX);
        for (v, &i) in set.iter().enumerate() {
            hint.mate[i] = m.mate(v).map_or(usize::MAX, |w| set[w]);
        }
        true
    }

    /// Whether the last matching found, restricted to `set`, becomes a perfect matching of
    /// `set` with at most [`HINT_REPAIR_LIMIT`] players re-paired by augmenting paths of one or
    /// three edges. `true` only with such a matching in hand (then kept as the next hint).
    fn repaired(&self, set: &[usize]) -> bool {
        let mut guard = self.hint.borrow_mut();
        let h = &mut *guard;
        let n = self.all.len();
        if h.mate.len() != n {
            return false;
        }
        h.stamp.resize(n, 0);
        h.generation = h.generation.wrapping_add(1);
        if h.generation == 0 {
            h.stamp.iter_mut().for_each(|s| *s = 0);
            h.generation = 1;
        }
        let g = h.generation;
        for &i in set {
            h.stamp[i] = g;
        }
        let paired = |h: &Hint, i: usize| {
            let m = h.mate[i];
            m != usize::MAX && h.stamp[m] == g && h.mate[m] == i && self.compatible(i, m)
        };
        let mut exposed: Vec<usize> = set.iter().copied().filter(|&i| !paired(h, i)).collect();
        if exposed.len() > HINT_REPAIR_LIMIT {
            return false;
        }
        for &i in &exposed {
            h.mate[i] = usize::MAX;
        }
        while let Some(x) = exposed.pop() {
            // One edge: another player without a partner.
            if let Some(k) = exposed.iter().position(|&y| self.compatible(x, y)) {
                let y = exposed.swap_remove(k);
                h.mate[x] = y;
                h.mate[y] = x;
                continue;
            }
            // Three edges: x takes u's place, u's partner w takes a player y without one.
            let mut done = false;
            'scan: for &u in set {
                let w = h.mate[u];
                if w == usize::MAX || !self.compatible(x, u) {
                    continue;
                }
                for k in 0..exposed.len() {
                    let y = exposed[k];
                    if self.compatible(w, y) {
                        exposed.swap_remove(k);
                        h.mate[x] = u;
                        h.mate[u] = x;
                        h.mate[w] = y;
                        h.mate[y] = w;
                        done = true;
                        break 'scan;
                    }
                }
            }
            if !done {
                return false;
            }
        }
        set.iter().all(|&i| paired(h, i))
    }

    /// Score before round `r` (1-based), tenths.
    pub fn score_before(&self, i: usize, r: u32) -> i32 {
        self.all[i].round_points[..(r as usize - 1).min(self.all[i].round_points.len())]
            .iter()
            .sum()
    }

    /// Rounds in which `i` played an opponent with a higher (`up`) or lower score than his own
    /// before that round, oldest first.
    pub fn floats(&self, i: usize, up: bool) -> Vec<u32> {
        let mut out = Vec::new();
        for (k, h) in self.all[i].history.iter().enumerate() {
            let r = k as u32 + 1;
            if !h.is_played_game() {
                continue;
            }
            let Some(j) = h.opponent.and_then(|o| self.index_of(o)) else {
                continue;
            };
            let (mine, theirs) = (self.score_before(i, r), self.score_before(j, r));
            if (up && theirs > mine) || (!up && theirs < mine) {
                out.push(r);
            }
        }
        out
    }

    /// Played opponents' ratings: (sum, count), for the average rating of opponents.
    pub fn aro(&self, i: usize) -> Aro {
        let mut a = Aro { sum: 0, count: 0 };
        for &(o, _) in &self.all[i].games {
            if let Some(j) = self.index_of(o) {
                a.sum += self.all[j].rating as u64;
                a.count += 1;
            }
        }
        a
    }
}

/// An average rating of opponents kept as a fraction, compared exactly (no floats).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Aro {
    pub sum: u64,
    pub count: u64,
}

impl Aro {
    /// Ordering key: compares `sum / count` by cross-multiplication; no games = 0.
    pub fn cmp(&self, other: &Aro) -> std::cmp::Ordering {
        let l = self.sum * other.count.max(1);
        let r = other.sum * self.count.max(1);
        let l = if self.count == 0 { 0 } else { l };
        let r = if other.count == 0 { 0 } else { r };
        l.cmp(&r)
    }
    /// Published form, one decimal (display only).
    pub fn show(&self) -> String {
        if self.count == 0 {
            return "-".into();
        }
        let tenths = (self.sum * 10 + self.count / 2) / self.count;
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// A pair decided by a system, with the rule that decided it (for `--explain` and the checker).
#[derive(Debug, Clone)]
pub(crate) struct Decided {
    pub a: usize,
    pub b: usize,
    pub bracket: usize,
    pub rule: &'static str,
    pub meaning: String,
}

/// Colours of one board and the rule that decided them.
#[derive(Debug, Clone)]
pub(crate) struct Coloured {
    pub board: Board,
    pub rule: &'static str,
    pub meaning: &'static str,
}

/// What one of these engines produced for a round, before board ordering.
pub(crate) struct Made {
    pub pairs: Vec<Decided>,
    pub bye: Option<(usize, &'static str, String)>,
    pub brackets: Vec<BracketReport>,
}

impl Made {
    pub fn new() -> Made {
        Made {
            pairs: Vec::new(),
            bye: None,
            brackets: Vec::new(),
        }
    }
}

/// A candidate search in a system's own priority order. `next` names, for the players of the
/// group still unpaired and the pairs made so far, the player to pair now and his partners in
/// order of preference; a floater (a player left for another scoregroup) is tried after all
/// his partners when `floats` allows one. Every step keeps the completion test true for the
/// group's remainder, its floaters and `rest` (everyone unpaired outside the group).
pub(crate) struct Search<'a> {
    pub f: &'a Field,
    pub rest: Vec<usize>,
    nodes: usize,
    stopped: bool,
}

/// The result of [`Search::best_exact`].
pub(crate) struct Exact {
    pub candidate: Candidate,
    pub value: i64,
    /// Whether it is the first candidate of the priority order.
    pub first: bool,
}

/// Upper bound on search steps per group: beyond it the best candidate found so far is used.
const NODE_LIMIT: usize = 200_000;

pub(crate) struct Candidate {
    pub pairs: Vec<(usize, usize)>,
    pub floaters: Vec<usize>,
}

impl<'a> Search<'a> {
    pub fn new(f: &'a Field, rest: Vec<usize>) -> Search<'a> {
        Search {
            f,
            rest,
            nodes: 0,
            stopped: false,
        }
    }

    fn feasible(&self, group: &[usize], floaters: &[usize]) -> bool {
        let mut s: Vec<usize> = self.rest.clone();
        s.extend_from_slice(group);
        s.extend_from_slice(floaters);
        self.f.completable(&s)
    }

    /// Visits complete candidates with exactly `floats` floaters, in priority order, until
    /// `visit` returns false.
    pub fn run(
        &mut self,
        group: &[usize],
        floats: usize,
        next: &dyn Fn(&[usize], &[(usize, usize)]) -> (usize, Vec<usize>),
        visit: &mut dyn FnMut(&Candidate) -> bool,
    ) {
        self.run_pruned(group, floats, next, &|_, _, _| false, visit);
    }

    /// [`Search::run`], skipping every branch for which `prune(c, rest, floats)` (the partial
    /// candidate, the group's players still to place, the floaters still to choose) is true;
    /// asked before the branch's completion test, which costs a matching.
    fn run_pruned(
        &mut self,
        group: &[usize],
        floats: usize,
        next: &dyn Fn(&[usize], &[(usize, usize)]) -> (usize, Vec<usize>),
        prune: &dyn Fn(&Candidate, &[usize], usize) -> bool,
        visit: &mut dyn FnMut(&Candidate) -> bool,
    ) {
        if group.len() < floats || (group.len() - floats) % 2 == 1 {
            return;
        }
        if !self.feasible(group, &[]) {
            return;
        }
        let mut c = Candidate {
            pairs: Vec::new(),
            floaters: Vec::new(),
        };
        self.dfs(group.to_vec(), floats, &mut c, next, prune, visit);
    }

    fn dfs(
        &mut self,
        group: Vec<usize>,
        floats: usize,
        c: &mut Candidate,
        next: &dyn Fn(&[usize], &[(usize, usize)]) -> (usize, Vec<usize>),
        prune: &dyn Fn(&Candidate, &[usize], usize) -> bool,
        visit: &mut dyn FnMut(&Candidate) -> bool,
    ) -> bool {
        self.nodes += 1;
        if self.nodes > NODE_LIMIT {
            self.stopped = true;
            return false;
        }
        if group.is_empty() {
            return visit(c);
        }
        let (lead, partners) = next(&group, &c.pairs);
        for p in partners {
            if !self.f.compatible(lead, p) {
                continue;
            }
            let rem: Vec<usize> = group
                .iter()
                .copied()
                .filter(|&x| x != lead && x != p)
                .collect();
            if rem.len() < floats {
                continue;
            }
            c.pairs.push((lead, p));
            let go = if prune(c, &rem, floats) || !self.feasible(&rem, &c.floaters) {
                true
            } else {
                self.dfs(rem, floats, c, next, prune, visit)
            };
            c.pairs.pop();
            if !go {
                return false;
            }
        }
        if floats > 0 {
            let rem: Vec<usize> = group.iter().copied().filter(|&x| x != lead).collect();
            c.floaters.push(lead);
            let go = if prune(c, &rem, floats - 1) {
                true
            } else {
                self.dfs(rem, floats - 1, c, next, prune, visit)
            };
            c.floaters.pop();
            if !go {
                return false;
            }
        }
        true
    }

    /// The first candidate in priority order with the highest value, a candidate's value being
    /// the sum of `pair_value` over its pairs, found exactly (Burstein §6.5: as many colour
    /// preferences granted as possible, the first such combination of the priority order).
    ///
    /// `bound(rest, floats)` must be at least the value of any way to pair `rest` with
    /// `floats` of them floating (its proof obligation). First the candidates are searched in
    /// priority order for one whose value reaches the bound of the whole group, cutting every
    /// branch whose value so far plus its bound falls short: the first found is the first of
    /// the highest value. When none does, branch and bound over the priority order: a branch
    /// is cut only when its value so far plus its bound cannot exceed the best candidate
    /// already found, and a later candidate replaces the best only when strictly better, so
    /// the result is the first of the highest value, as the whole enumeration would give.
    /// Floaters refused by `floater_ok` are never chosen. `None` when no candidate exists;
    /// [`Search::stopped`] tells whether the step limit ended the search first.
    pub fn best_exact(
        &mut self,
        group: &[usize],
        floats: usize,
        next: &dyn Fn(&[usize], &[(usize, usize)]) -> (usize, Vec<usize>),
        pair_value: &dyn Fn(usize, usize) -> i64,
        floater_ok: &dyn Fn(usize) -> bool,
        bound: &dyn Fn(&[usize], usize) -> i64,
    ) -> Option<Exact> {
        let value = |c: &Candidate| c.pairs.iter().map(|&(a, b)| pair_value(a, b)).sum::<i64>();
        let copy = |c: &Candidate| Candidate {
            pairs: c.pairs.clone(),
            floaters: c.floaters.clone(),
        };
        let bad_floater = |c: &Candidate| c.floaters.last().is_some_and(|&x| !floater_ok(x));
        // The first candidate of the priority order (for the explanation).
        let mut first: Option<Candidate> = None;
        self.run_pruned(group, floats, next, &|c, _, _| bad_floater(c), &mut |c| {
            first = Some(copy(c));
            false
        });
        let first = first?;
        let is_first = |c: &Candidate| c.pairs == first.pairs && c.floaters == first.floaters;
        // The bound of the whole group is usually reached: the first candidate reaching it,
        // looked for directly (every branch that cannot reach it cut), is the answer.
        let ceiling = bound(group, floats);
        let mut found: Option<Candidate> = None;
        self.run_pruned(
            group,
            floats,
            next,
            &|c, rest, left| bad_floater(c) || value(c) + bound(rest, left) < ceiling,
            &mut |c| {
                found = Some(copy(c));
                false
            },
        );
        if let Some(c) = found {
            return Some(Exact {
                first: is_first(&c),
                value: value(&c),
                candidate: c,
            });
        }
        // Otherwise branch and bound from the first candidate on.
        let best: std::cell::RefCell<Option<Exact>> = std::cell::RefCell::new(None);
        let mut leaves = 0usize;
        self.run_pruned(
            group,
            floats,
            next,
            &|c, rest, left| {
                if bad_floater(c) {
                    return true;
                }
                best.borrow()
                    .as_ref()
                    .is_some_and(|b| value(c) + bound(rest, left) <= b.value)
            },
            &mut |c| {
                leaves += 1;
                let v = value(c);
                let mut b = best.borrow_mut();
                if b.as_ref().is_none_or(|b| v > b.value) {
                    *b = Some(Exact {
                        candidate: copy(c),
                        value: v,
                        first: leaves == 1,
                    });
                }
                true
            },
        );
        best.into_inner()
    }

    /// Whether the step limit stopped a search of this `Search` before it was complete.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The first candidate in priority order, if any.
    pub fn first(
        &mut self,
        group: &[usize],
        floats: usize,
        next: &dyn Fn(&[usize], &[(usize, usize)]) -> (usize, Vec<usize>),
    ) -> Option<Candidate> {
        let mut found = None;
        self.run(group, floats, next, &mut |c| {
            found = Some(Candidate {
                pairs: c.pairs.clone(),
                floaters: c.floaters.clone(),
            });
            false
        });
        found
    }

    /// Among the first `cap` candidates in priority order, the first with the highest `score`,
    /// with its 1-based position among those visited; candidates scored `None` are skipped
    /// (not valid for the system). The whole enumeration that [`Search::best_exact`] is tested
    /// against.
    #[cfg(feature = "test-support")]
    pub fn best_indexed(
        &mut self,
        group: &[usize],
        floats: usize,
        cap: usize,
        next: &dyn Fn(&[usize], &[(usize, usize)]) -> (usize, Vec<usize>),
        score: &dyn Fn(&Candidate) -> Option<i64>,
    ) -> Option<(Candidate, usize)> {
        let mut best: Option<(i64, Candidate, usize)> = None;
        let mut seen = 0;
        self.run(group, floats, next, &mut |c| {
            seen += 1;
            if let Some(s) = score(c)
                && best.as_ref().is_none_or(|(b, _, _)| s > *b)
            {
                best = Some((
                    s,
                    Candidate {
                        pairs: c.pairs.clone(),
                        floaters: c.floaters.clone(),
                    },
                    seen,
                ));
            }
            seen < cap
        });
        best.map(|(_, c, k)| (c, k))
    }
}

/// Colour preferences granted on the board of `a` and `b` (Burstein §6.5, Lim §5.2): each
/// player with his preferred colour, or without a preference, counts one.
pub(crate) fn granted_on(f: &Field, a: usize, b: usize, board: &crate::Board) -> i64 {
    let (w, k) = if f.id(a) == board.white {
        (a, b)
    } else {
        (b, a)
    };
    (f.pref(w) != Some(Color::Black)) as i64 + (f.pref(k) != Some(Color::White)) as i64
}

/// The most colour preferences (Burstein §6.5, Lim §5.2) that pairing `rest` (with `floats`
/// of them floating) could grant, whoever meets whom: every player paired counts once at
/// most, and of the players left with the same preference once opposite preferences, players
/// without one and the floaters have absorbed them, each pair grants one fewer. The proof obligation of
/// `Search::best_exact`: no pairing of `rest` grants more.
pub(crate) fn preference_bound(f: &Field, rest: &[usize], floats: usize) -> i64 {
    let (mut white, mut black, mut none) = (0usize, 0usize, 0usize);
    for &i in rest {
        match f.pref(i) {
            Some(Color::White) => white += 1,
            Some(Color::Black) => black += 1,
            None => none += 1,
        }
    }
    let same = white.abs_diff(black).saturating_sub(none + floats);
    (rest.len() - floats) as i64 - (same / 2) as i64
}

/// The common colour steps after "both get their preference": the player further from
/// balance gets his preference (equalisation); then alternate relative to the most recent
/// round in which the two (right-aligned, C.04.2 D.5) played-colour histories differ.
/// Returns the colour of `a` and the step that decided it, or `None` when histories are
/// identical (a system-specific tie-break decides).
pub(crate) fn common_colour(f: &Field, a: usize, b: usize) -> Option<(Color, Step)> {
    let (pa, pb) = (f.pref(a), f.pref(b));
    match (pa, pb) {
        (Some(x), Some(y)) if x != y => return Some((x, Step::BothPrefs)),
        (Some(x), None) => return Some((x, Step::BothPrefs)),
        (None, Some(y)) => return Some((y.opposite(), Step::BothPrefs)),
        _ => {}
    }
    let (ca, cb) = (f.cd(a).abs(), f.cd(b).abs());
    if let Some(x) = pa
        && ca != cb
    {
        return Some(if ca > cb {
            (x, Step::Equalise)
        } else {
            (x.opposite(), Step::Equalise)
        });
    }
    let (ha, hb) = (&f.all[a].colours, &f.all[b].colours);
    for k in 1..=ha.len().min(hb.len()) {
        let (x, y) = (ha[ha.len() - k], hb[hb.len() - k]);
        if x != y {
            return Some((x.opposite(), Step::Alternate));
        }
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    BothPrefs,
    Equalise,
    Alternate,
}

/// The board with `a`'s colour `ca`; when that breaks an absolute colour limit of either
/// player, the other allocation (which the compatibility of the pair guarantees).
pub(crate) fn board_of(f: &Field, a: usize, b: usize, ca: Color) -> (Board, bool) {
    let ok = |c: Color| f.can_take(a, c) && f.can_take(b, c.opposite());
    let (c, forced) = if ok(ca) {
        (ca, false)
    } else {
        (ca.opposite(), true)
    };
    let board = if c == Color::White {
        Board {
            white: f.id(a),
            black: f.id(b),
        }
    } else {
        Board {
            white: f.id(b),
            black: f.id(a),
        }
    };
    (board, forced)
}

/// Round 1 colours of Dubov (C.04.4.1 §5) and Lim (C.04.4.3 §7.2): on board `board` (from 1)
/// the top-half player, the pair's lower number, gets the drawn colour when the board is odd
/// and the other colour when it is even (unless a colour limit forces the other, `board_of`).
/// Each system names the rule in its own words.
pub(crate) fn first_round_colours(
    f: &Field,
    a: usize,
    b: usize,
    board: usize,
    rule: &'static str,
    meaning: &'static str,
) -> Coloured {
    let (hi, lo) = if f.id(a) < f.id(b) { (a, b) } else { (b, a) };
    let c = if board % 2 == 1 {
        f.initial_colour
    } else {
        f.initial_colour.opposite()
    };
    let (board, _) = board_of(f, hi, lo, c);
    Coloured {
        board,
        rule,
        meaning,
    }
}

/// Names the rules a recorded round can break, in the words of one system.
pub(crate) struct RuleNames {
    pub rematch: &'static str,
    pub bye: &'static str,
    pub colour_difference: &'static str,
    pub colour_run: &'static str,
}

/// Board order of C.04.2 D.9 (higher-ranked = higher score, then lower pairing number), and
/// the round's explanation.
pub(crate) fn finish(
    f: &Field,
    input: &PairingInput,
    made: &Made,
    colours: &[Coloured],
) -> RoundPairing {
    let score = |id: PlayerId| f.all[f.index_of(id).expect("paired player")].score;
    let mut boards: Vec<Board> = colours.iter().map(|c| c.board).collect();
    boards.sort_by_key(|b| {
        let (x, y) = (b.white, b.black);
        let hi = if (score(x), std::cmp::Reverse(x)) >= (score(y), std::cmp::Reverse(y)) {
            x
        } else {
            y
        };
        (
            std::cmp::Reverse(score(hi)),
            std::cmp::Reverse(score(x) + score(y)),
            hi,
        )
    });
    let mut explanation = Explanation::new(input);
    explanation.brackets = made.brackets.clone();
    for d in &made.pairs {
        if let Some(b) = explanation.brackets.get_mut(d.bracket) {
            b.unmet.push(format!(
                "{} {}-{}: {}",
                d.rule,
                f.id(d.a),
                f.id(d.b),
                d.meaning
            ));
        }
    }
    for c in colours {
        let b = c.board;
        if let Some(d) = made.pairs.iter().find(|d| {
            [f.id(d.a), f.id(d.b)].contains(&b.white) && [f.id(d.a), f.id(d.b)].contains(&b.black)
        }) && let Some(br) = explanation.brackets.get_mut(d.bracket)
        {
            br.unmet.push(format!(
                "{} colours {} (white) - {}: {}",
                c.rule, b.white, b.black, c.meaning
            ));
        }
    }
    RoundPairing {
        boards,
        bye: made.bye.as_ref().map(|b| f.id(b.0)),
        explanation,
    }
}

/// The checker: is `other` a pairing of this round, does it keep the absolute criteria, and
/// where it differs from the engine's, which rule decided the engine's choice.
pub(crate) fn compare(
    f: &Field,
    made: &Made,
    colours: &[Coloured],
    engine: RoundPairing,
    other: &RecordedPairing,
    names: &RuleNames,
) -> Comparison {
    let verdict = verdict(f, made, colours, &engine, other, names);
    Comparison { engine, verdict }
}

fn verdict(
    f: &Field,
    made: &Made,
    colours: &[Coloured],
    engine: &RoundPairing,
    other: &RecordedPairing,
    names: &RuleNames,
) -> Verdict {
    let not = |detail: String| Verdict::NotAPairing { detail };
    let mut seen = BTreeSet::new();
    let mut idx = |id: PlayerId| -> Result<usize, Verdict> {
        let Some(i) = f.index_of(id) else {
            return Err(not(format!("player {id} is not in the tournament")));
        };
        if !f.all[i].available {
            return Err(not(format!("player {id} is not to be paired this round")));
        }
        if !seen.insert(id) {
            return Err(not(format!("player {id} appears twice")));
        }
        Ok(i)
    };
    let mut boards = Vec::new();
    for b in &other.boards {
        match (idx(b.white), idx(b.black)) {
            (Ok(w), Ok(k)) => boards.push((w, k)),
            (Err(v), _) | (_, Err(v)) => return v,
        }
    }
    let bye = match other.bye.map(&mut idx) {
        Some(Err(v)) => return v,
        Some(Ok(i)) => Some(i),
        None => None,
    };
    let missing: Vec<PlayerId> = f
        .avail
        .iter()
        .map(|&i| f.id(i))
        .filter(|id| !seen.contains(id))
        .collect();
    if !missing.is_empty() {
        return not(format!(
            "not paired and not given the bye: {}",
            crate::verdict::ids(&missing)
        ));
    }
    if bye.is_some() != (f.avail.len() % 2 == 1) {
        return not(if bye.is_some() {
            "a bye with an even number of players".into()
        } else {
            "no bye with an odd number of players".into()
        });
    }
    for &(w, k) in &boards {
        if f.met(w, k) {
            return Verdict::Absolute {
                rule: names.rematch.into(),
                detail: format!("{} and {} have already played each other", f.id(w), f.id(k)),
            };
        }
    }
    for &(w, k) in &boards {
        for (i, c) in [(w, Color::White), (k, Color::Black)] {
            if f.colour_limits && !f.can_take(i, c) {
                let cd = f.cd(i) + if c == Color::White { 1 } else { -1 };
                let (rule, what) = if cd.abs() > 2 {
                    (
                        names.colour_difference,
                        format!("colour difference {cd:+} after this round"),
                    )
                } else {
                    (
                        names.colour_run,
                        "the same colour three times in a row".to_string(),
                    )
                };
                let colour = if c == Color::White { "white" } else { "black" };
                return Verdict::Absolute {
                    rule: rule.into(),
                    detail: format!("player {} gets {colour}: {what}", f.id(i)),
                };
            }
        }
    }
    if let Some(i) = bye
        && !f.bye_allowed(i)
    {
        return Verdict::Absolute {
            rule: names.bye.into(),
            detail: format!(
                "player {} already received a point without playing and cannot get the bye",
                f.id(i)
            ),
        };
    }
    let mine = RecordedPairing {
        boards: engine.boards.clone(),
        bye: engine.bye,
    };
    if mine.normalized() == other.normalized() {
        return Verdict::Identical;
    }
    let bracket_score = |k: usize| {
        made.brackets
            .get(k)
            .map(|b| arbiter_core::Score(b.score).to_string())
            .unwrap_or_default()
    };
    if other.bye != engine.bye
        && let Some((i, rule, meaning)) = &made.bye
    {
        return Verdict::Criterion {
            bracket: made.brackets.len().saturating_sub(1),
            bracket_score: bracket_score(made.brackets.len().saturating_sub(1)),
            rule: (*rule).into(),
            meaning: format!("the bye goes to {}: {meaning}", f.id(*i)),
            counts: None,
            engine_better: true,
        };
    }
    let key = |a: PlayerId, b: PlayerId| pair_key(a, b);
    let theirs: BTreeSet<(PlayerId, PlayerId)> =
        other.boards.iter().map(|b| key(b.white, b.black)).collect();
    for d in &made.pairs {
        if !theirs.contains(&key(f.id(d.a), f.id(d.b))) {
            return Verdict::Criterion {
                bracket: d.bracket,
                bracket_score: bracket_score(d.bracket),
                rule: d.rule.into(),
                meaning: format!("{} meets {}: {}", f.id(d.a), f.id(d.b), d.meaning),
                counts: None,
                engine_better: true,
            };
        }
    }
    // Same pairs: a colour differs.
    for c in colours {
        if !other.boards.contains(&c.board) {
            return Verdict::Colour {
                board: c.board,
                rule: c.rule.into(),
                meaning: c.meaning.into(),
            };
        }
    }
    Verdict::Identical
}

/// Score groups of `players` (already in the system's order), highest score first.
pub(crate) fn score_groups(players: &[usize], score: &dyn Fn(usize) -> i32) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &p in players {
        match groups.last_mut() {
            Some(g) if score(g[0]) == score(p) => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    groups
}

/// Ids of players, for explanations.
pub(crate) fn ids(f: &Field, v: &[usize]) -> Vec<PlayerId> {
    v.iter().map(|&i| f.id(i)).collect()
}

/// A pairing's report entry for a group.
pub(crate) fn report(f: &Field, score: i32, came: &[usize], residents: &[usize]) -> BracketReport {
    BracketReport {
        score,
        moved_down: ids(f, came),
        residents: ids(f, residents),
        pairs: Vec::new(),
        downfloaters: Vec::new(),
        ppb: false,
        last: false,
        unmet: Vec::new(),
    }
}

/// Lexicographic k-combinations of 0..n, one at a time (there can be too many to hold).
pub(crate) struct Combinations {
    n: usize,
    next: Option<Vec<usize>>,
}

impl Combinations {
    pub fn new(n: usize, k: usize) -> Combinations {
        Combinations {
            n,
            next: (k <= n).then(|| (0..k).collect()),
        }
    }
}

impl Iterator for Combinations {
    type Item = Vec<usize>;
    fn next(&mut self) -> Option<Vec<usize>> {
        let current = self.next.take()?;
        let (n, k) = (self.n, current.len());
        let mut c = current.clone();
        let mut i = k;
        while i > 0 && c[i - 1] == i - 1 + n - k {
            i -= 1;
        }
        if i > 0 {
            c[i - 1] += 1;
            for j in i..k {
                c[j] = c[j - 1] + 1;
            }
            self.next = Some(c);
        }
        Some(current)
    }
}

/// Floater sets a Lim or Dubov scoregroup may try before its search stops and says so in the
/// explanation: the sets are enumerated in their rule's order without any other cap, and a
/// set whose stayers cannot all be paired, or whose floaters leave the rest unpairable, is
/// skipped without a search (it could not succeed).
pub(crate) const FLOATER_SETS_GUARD: usize = 1_000_000;

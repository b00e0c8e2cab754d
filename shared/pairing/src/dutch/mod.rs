//! The FIDE (Dutch) system: the round loop over brackets (A.9) and colour allocation.

mod audit;
mod bracket2017;
mod colour;
mod completion;
mod phases;
mod round1;
mod round2025;
mod weight;

pub use phases::with_dual_proofs;

/// The Dutch engine's internal checks (see the crate's `checks`).
#[cfg(feature = "test-support")]
pub mod checks {
    pub use super::completion::checks as completion;
    pub use super::round1::checks as round1;
    pub use super::round2025::checks as round2025;
    pub use super::weight::checks as weight;
}
pub use round2025::{GROUP_FELL_BACK, GROUP_REALIZED, with_group_graphs};

/// Runs `f` with this thread's `setting` set to `value`, restored afterwards (also when `f`
/// panics): the engine's switches for tests that compare two ways of pairing.
fn with_setting<R>(
    setting: &'static std::thread::LocalKey<std::cell::Cell<bool>>,
    value: bool,
    f: impl FnOnce() -> R,
) -> R {
    struct Restore(&'static std::thread::LocalKey<std::cell::Cell<bool>>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            self.0.with(|c| c.set(self.1));
        }
    }
    let _restore = Restore(setting, setting.with(|c| c.replace(value)));
    f()
}

use crate::explain::{BracketReport, Explanation};
use crate::state::RoundState;
use crate::{Board, PairingError, PairingInput, RecordedPairing, RoundPairing, RuleSet};
use audit::Audit;
use completion::Completion;
use weight::Acc;

/// The matching graph a bracket is solved on (weights of `N` limbs).
pub(crate) trait MatchGraph<const N: usize> {
    fn new(m: usize) -> Self;
    fn len(&self) -> usize;
    fn set(&mut self, u: usize, v: usize, w: Acc<N>);
    fn solve(&mut self);
    fn mate(&self, v: usize) -> Option<usize>;
    /// The weight of edge `{u, v}`.
    fn weight(&self, u: usize, v: usize) -> arbiter_matching::Wide<N>;
    /// Whether no weight changed since the last solve (see
    /// [`arbiter_matching::Matcher::is_solved`]).
    fn is_solved(&self) -> bool;
    /// Twice the slack of edge `{u, v}` under the last solve's duals (see
    /// [`arbiter_matching::Matcher::slack`]).
    fn slack(&self, u: usize, v: usize) -> Option<arbiter_matching::Wide<N>>;
    /// Twice the dual of vertex `v` after the last solve (see
    /// [`arbiter_matching::Matcher::dual`]).
    fn dual(&self, v: usize) -> arbiter_matching::Wide<N>;
    /// Drops the vertices not kept, renumbering the rest in order, keeping the solution as a
    /// warm start.
    fn retain(&mut self, keep: &[bool]);
    /// Whether the graph's solves are no longer of use (a group graph whose solve the rest of
    /// the round cannot realize): the phases then stop, and their result is dropped.
    fn gave_up(&self) -> bool {
        false
    }
}

/// The weighted-matching core behind [`MatchGraph`].
pub(crate) struct CoreGraph<const N: usize>(arbiter_matching::Matcher<arbiter_matching::Wide<N>>);

impl<const N: usize> MatchGraph<N> for CoreGraph<N>
where
    arbiter_matching::Wide<N>: arbiter_matching::Weight,
{
    fn new(m: usize) -> Self {
        CoreGraph(arbiter_matching::Matcher::new(m))
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn set(&mut self, u: usize, v: usize, w: Acc<N>) {
        self.0.set_weight(u, v, arbiter_matching::Wide(w.0));
    }
    fn solve(&mut self) {
        crate::profile::solve(&mut self.0);
        tracing::trace!(vertices = self.0.len(), stats = ?self.0.last_solve_stats(), "matching solved");
    }
    fn mate(&self, v: usize) -> Option<usize> {
        self.0.mate(v)
    }
    fn weight(&self, u: usize, v: usize) -> arbiter_matching::Wide<N> {
        *self.0.weight(u, v)
    }
    fn is_solved(&self) -> bool {
        self.0.is_solved()
    }
    fn slack(&self, u: usize, v: usize) -> Option<arbiter_matching::Wide<N>> {
        self.0.slack(u, v)
    }
    fn dual(&self, v: usize) -> arbiter_matching::Wide<N> {
        self.0.dual(v)
    }
    fn retain(&mut self, keep: &[bool]) {
        self.0.retain(keep);
    }
}

/// What one bracket produced: pairs as positions in the bracket's group, and which of the
/// bracket's own positions are paired.
pub(crate) struct BracketSolver {
    pub pairs: Vec<(usize, usize)>,
    pub matched: Vec<bool>,
}

fn solve_bracket(b: &bracket2017::Bracket, validity: &mut Completion) -> BracketSolver {
    // Headroom above the widest weight for the matcher's dual variables.
    let need = b.weight_bits() + 8;
    tracing::trace!(bits = need, vertices = b.group.len(), "bracket weights");
    macro_rules! run {
        ($($n:literal),*) => {
            $( if need <= 64 * $n { return b.solve::<$n, CoreGraph<$n>>(validity); } )*
        };
    }
    run!(1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64);
    panic!("edge weights of {need} bits exceed the supported width")
}

/// One bracket as it was paired: for the explanation.
pub(crate) struct BracketDone {
    /// Player indices: moved-down players first, then residents.
    pub group: Vec<usize>,
    pub mdps: usize,
    pub pairs: Vec<(usize, usize)>,
    pub unpaired: Vec<usize>,
    pub ppb: bool,
    pub last: bool,
}

impl BracketDone {
    pub fn new(group: &[usize], mdps: usize) -> BracketDone {
        BracketDone {
            group: group.to_vec(),
            mdps,
            pairs: Vec::new(),
            unpaired: Vec::new(),
            ppb: false,
            last: false,
        }
    }
}

fn no_complete_pairing() -> PairingError {
    PairingError::NoValidPairing(
        "the players cannot all be paired (except one eligible for the bye) without two \
         players meeting twice or two non-topscorers with the same absolute colour \
         preference meeting (C.1-C.3)"
            .into(),
    )
}

/// Rule set dutch-2017: brackets one by one, each on its own graph (the bracket and the next
/// scoregroup), a completion test after each; when it fails, the PPB is re-paired with every
/// remaining player and the collapsed last bracket completes the round (A.9).
fn round_2017(
    st: &RoundState,
    brackets: &mut Vec<BracketDone>,
    mut audit: Option<&mut Audit>,
) -> Result<Vec<Option<usize>>, PairingError> {
    let n = st.len();
    let mut validity = Completion::new(st);
    if !validity.complete() {
        return Err(no_complete_pairing());
    }
    let mut mate: Vec<Option<usize>> = vec![None; n];
    let score = |i: usize| st.players[i].score;
    let mut next = 0;
    let mut group: Vec<usize> = Vec::new();
    while next < n && score(next) >= score(0) {
        group.push(next);
        next += 1;
    }
    let mut special = next == n;
    let mut mdps = 0usize;
    let mut ppb = false;
    while group.len() > 1 || next < n {
        let cur_end = group.len();
        if cur_end == mdps {
            break;
        }
        let group_start = next;
        while next < n && (special || score(next) >= score(group_start)) {
            group.push(next);
            next += 1;
        }
        let bracket = bracket2017::Bracket::new(st, &group, mdps, cur_end, special, next == n);
        let outcome = solve_bracket(&bracket, &mut validity);
        if !special && !validity.complete() {
            // A.9: this bracket is the PPB; re-pair it with every remaining player.
            group.truncate(cur_end);
            next = group_start;
            special = true;
            ppb = true;
            continue;
        }
        if let Some(a) = audit.as_deref_mut() {
            audit_2017(&bracket, &outcome.pairs, brackets.len(), a);
        }
        let mut done = BracketDone::new(&group[..cur_end], mdps);
        done.ppb = ppb;
        done.last = special && !ppb;
        for &(a, b) in &outcome.pairs {
            let (x, y) = (group[a], group[b]);
            mate[x] = Some(y);
            mate[y] = Some(x);
            done.pairs.push((x, y));
        }
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
            carried.push(x);
        }
        brackets.push(done);
        ppb = false;
        special = next == n;
        group = carried;
        mdps = new_mdps;
    }
    Ok(mate)
}

/// Follows another pairing through one dutch-2017 bracket (see [`audit`]).
fn audit_2017(b: &bracket2017::Bracket, pairs: &[(usize, usize)], index: usize, a: &mut Audit) {
    if a.found.is_some() {
        return;
    }
    let need = b.weight_bits() + 8;
    macro_rules! run {
        ($($n:literal),*) => {
            $( if need <= 64 * $n { return audit_2017_n::<$n>(b, pairs, index, a); } )*
        };
    }
    run!(1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64);
}

fn audit_2017_n<const N: usize>(
    b: &bracket2017::Bracket,
    pairs: &[(usize, usize)],
    index: usize,
    a: &mut Audit,
) where
    arbiter_matching::Wide<N>: arbiter_matching::Weight,
{
    let universe: Vec<usize> = (0..b.group.len()).collect();
    a.bracket::<N, CoreGraph<N>>(
        index,
        &universe,
        &universe[..b.cur_end],
        pairs,
        |p| b.group[p],
        |p, o, w| b.edge_into(p, o, w),
    );
}

/// Rule set dutch-2025 on one graph over the whole field. Each bracket weighs its edges with
/// counters for its own players' scores only (see [`round2025::Layout`]), so the round is
/// first paired on the width its usual brackets need; a bracket that needs more (moved-down
/// players from several scoregroups) has the round paired again on the width of every
/// scoregroup's counters, which any bracket fits. Both give the same pairing.
fn round_2025(
    st: &RoundState,
    brackets: &mut Vec<BracketDone>,
    mut audit: Option<&mut Audit>,
) -> Result<Vec<Option<usize>>, PairingError> {
    let lay = round2025::Layout::new(st);
    let headroom = 8;
    let prepass = lay.prepass_bits() + headroom;
    let usual = (2 + lay.usual_bracket_bits() + headroom).max(prepass);
    let widest = (lay.weight_bits() + headroom).max(prepass);
    for need in [usual, widest] {
        brackets.clear();
        if let Some(a) = audit.as_deref_mut() {
            a.found = None;
        }
        tracing::trace!(bits = need, vertices = st.len(), "round weights");
        macro_rules! run {
            ($($n:literal),*) => {
                $( if need <= 64 * $n {
                    let placed = lay.with_top_at(64 * $n - headroom - 2);
                    match round2025::pair_round::<$n, CoreGraph<$n>>(st, &placed, brackets, audit.as_deref_mut()) {
                        Ok(mates) => return mates.ok_or_else(no_complete_pairing),
                        Err(round2025::Wider) => continue,
                    }
                } )*
            };
        }
        run!(1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64);
        break;
    }
    Err(PairingError::InvalidInput(format!(
        "edge weights of {widest} bits exceed the supported width"
    )))
}

pub(crate) fn pair(input: &PairingInput) -> Result<RoundPairing, PairingError> {
    pair_state(input, &RoundState::new(input), None)
}

/// Which way a round is paired: the general engine, or a shortcut where one applies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Path {
    General,
    Shortcuts,
}

fn pair_state(
    input: &PairingInput,
    st: &RoundState,
    audit: Option<&mut Audit>,
) -> Result<RoundPairing, PairingError> {
    // An audit follows the general engine's brackets.
    let path = if audit.is_some() {
        Path::General
    } else {
        Path::Shortcuts
    };
    pair_state_by(input, st, audit, path).map(|(p, _)| p)
}

/// Pairs the round by `path`; also says whether a shortcut was taken.
pub(crate) fn pair_state_by(
    input: &PairingInput,
    st: &RoundState,
    audit: Option<&mut Audit>,
    path: Path,
) -> Result<(RoundPairing, bool), PairingError> {
    let n = st.len();
    let mut explanation = Explanation::new(input);
    if n == 0 {
        return Ok((
            RoundPairing {
                boards: Vec::new(),
                bye: None,
                explanation,
            },
            false,
        ));
    }
    let mut brackets = Vec::new();
    let shortcut = match path {
        Path::Shortcuts => round1::natural(st, &mut brackets),
        Path::General => None,
    };
    let took_shortcut = shortcut.is_some();
    let mate = match (shortcut, input.rule_set) {
        (Some(mate), _) => mate,
        (None, RuleSet::Dutch2017) => round_2017(st, &mut brackets, audit)?,
        (None, _) => round_2025(st, &mut brackets, audit)?,
    };
    let last = brackets.len().saturating_sub(1);
    for (k, d) in brackets.iter().enumerate() {
        let mut report = BracketReport::new(st, &d.group, d.mdps);
        report.ppb = d.ppb;
        report.last = d.last || (input.rule_set == RuleSet::Dutch2025 && k == last);
        report.pairs = d
            .pairs
            .iter()
            .map(|&(x, y)| (st.players[x].id, st.players[y].id))
            .collect();
        report.downfloaters = d.unpaired.iter().map(|&x| st.players[x].id).collect();
        explanation.brackets.push(report);
    }
    let unpaired: Vec<usize> = (0..n).filter(|&i| mate[i].is_none()).collect();
    if unpaired.len() > 1 {
        return Err(PairingError::NoValidPairing(format!(
            "{} players were left unpaired",
            unpaired.len()
        )));
    }
    // The search ranks completion as a criterion ([C4] in the 2025 text), so when every
    // complete round-pairing would give the bye to a player who may not receive it (an earlier
    // PAB, or an unplayed round scored as a win: C.04.1), it ends on one that does: no valid
    // pairing exists, and the arbiter decides.
    if let Some(&i) = unpaired.first()
        && !st.players[i].bye_eligible
    {
        return Err(PairingError::NoValidPairing(format!(
            "player {} is left unpaired by every pairing, and may not receive the              pairing-allocated bye (an earlier one, or an unplayed round scored as a win:              C.04.1)",
            st.players[i].id
        )));
    }
    let bye = unpaired.first().map(|&i| st.players[i].id);

    // Colours (section E) and board order (C.04.2 D.9).
    let mut boards: Vec<(usize, usize)> = Vec::new();
    for i in 0..n {
        if let Some(j) = mate[i] {
            if st.players[i].id < st.players[j].id {
                let c = colour::colour_of(st, i, j);
                boards.push(if c == arbiter_core::Color::White {
                    (i, j)
                } else {
                    (j, i)
                });
            }
        }
    }
    let key = |&(w, b): &(usize, usize)| {
        let (hi, lo) = if ranks_above_plain(st, w, b) {
            (w, b)
        } else {
            (b, w)
        };
        (
            std::cmp::Reverse(st.players[hi].plain_score),
            std::cmp::Reverse(st.players[lo].plain_score),
            st.players[hi].rank,
        )
    };
    boards.sort_by_key(key);
    let boards: Vec<Board> = boards
        .iter()
        .map(|&(w, b)| Board {
            white: st.players[w].id,
            black: st.players[b].id,
        })
        .collect();
    explanation.finish(st, &boards, bye);
    Ok((
        RoundPairing {
            boards,
            bye,
            explanation,
        },
        took_shortcut,
    ))
}

/// Ranking by score without virtual points, then effective pairing number (board order).
fn ranks_above_plain(st: &RoundState, a: usize, b: usize) -> bool {
    let (x, y) = (&st.players[a], &st.players[b]);
    (x.plain_score, std::cmp::Reverse(x.rank)) > (y.plain_score, std::cmp::Reverse(y.rank))
}

/// Pairs the round and judges `other` against the engine's pairing ([`crate::compare`]).
pub(crate) fn compare(
    input: &PairingInput,
    other: &RecordedPairing,
) -> Result<crate::Comparison, PairingError> {
    use crate::verdict::{Comparison, Verdict, ids};
    use std::collections::{BTreeMap, BTreeSet};
    let st = RoundState::new(input);
    let n = st.len();
    let v2025 = input.rule_set == RuleSet::Dutch2025;
    let absolute = |k: usize| {
        if v2025 {
            ["[C1]", "[C2]", "[C3]"][k]
        } else {
            ["C.1", "C.2", "C.3"][k]
        }
        .to_string()
    };
    let index_of: BTreeMap<arbiter_core::PlayerId, usize> = st
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i))
        .collect();
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    let mut note = |id: arbiter_core::PlayerId, problems: &mut Vec<String>| {
        if !index_of.contains_key(&id) {
            problems.push(format!(
                "player {id} is not one of the players to pair this round"
            ));
        } else if !seen.insert(id) {
            problems.push(format!("player {id} appears more than once"));
        }
    };
    for b in &other.boards {
        note(b.white, &mut problems);
        note(b.black, &mut problems);
    }
    if let Some(bye) = other.bye {
        note(bye, &mut problems);
    }
    let left: Vec<arbiter_core::PlayerId> = st
        .players
        .iter()
        .map(|p| p.id)
        .filter(|id| !seen.contains(id))
        .collect();
    if left.len() + other.bye.is_some() as usize > 1 {
        problems.push(format!(
            "more than one player without an opponent ({}{})",
            other.bye.map(|b| format!("bye {b}, ")).unwrap_or_default(),
            ids(&left)
        ));
    }
    let engine = pair_state(input, &st, None)?;
    let not_a_pairing = |detail: String, engine: RoundPairing| Comparison {
        engine,
        verdict: Verdict::NotAPairing { detail },
    };
    if !problems.is_empty() {
        return Ok(not_a_pairing(problems.join("; "), engine));
    }
    let bye = other.bye.or(left.first().copied());
    let mut mate: Vec<Option<usize>> = vec![None; n];
    for b in &other.boards {
        let (w, k) = (index_of[&b.white], index_of[&b.black]);
        mate[w] = Some(k);
        mate[k] = Some(w);
        if !st.compatible(w, k) {
            let met = input
                .players
                .iter()
                .find(|p| p.id == b.white)
                .and_then(|p| {
                    p.history
                        .iter()
                        .position(|e| e.is_played_game() && e.opponent == Some(b.black))
                });
            let (rule, detail) = if let Some(r) = met {
                (
                    absolute(0),
                    format!(
                        "{} and {} already played each other in round {}",
                        b.white,
                        b.black,
                        r + 1
                    ),
                )
            } else if input
                .forbidden_pairs
                .iter()
                .any(|&(x, y)| (x, y) == (b.white, b.black) || (y, x) == (b.white, b.black))
            {
                (
                    absolute(0),
                    format!(
                        "{} and {} are a forbidden pair of this tournament",
                        b.white, b.black
                    ),
                )
            } else {
                let c = st.players[w]
                    .pref
                    .colour
                    .map(|c| format!("{c:?}"))
                    .unwrap_or_default();
                (
                    absolute(2),
                    format!(
                        "{} and {} are not topscorers and both have an absolute preference for {c}",
                        b.white, b.black
                    ),
                )
            };
            return Ok(Comparison {
                engine,
                verdict: Verdict::Absolute { rule, detail },
            });
        }
    }
    if let Some(b) = bye
        && !st.players[index_of[&b]].bye_eligible
    {
        return Ok(Comparison {
            engine,
            verdict: Verdict::Absolute {
                rule: absolute(1),
                detail: format!(
                    "player {b} may not receive the pairing-allocated bye (already had one, \
                         or an unplayed round scored as a win)"
                ),
            },
        });
    }
    let same = {
        let mut a = engine.boards.clone();
        let mut o = other.boards.clone();
        a.sort();
        o.sort();
        a == o && engine.bye == bye
    };
    if same {
        return Ok(Comparison {
            engine,
            verdict: Verdict::Identical,
        });
    }
    let mut audit = Audit::new(mate);
    let engine = pair_state(input, &st, Some(&mut audit))?;
    let score_of = |k: usize| {
        engine
            .explanation
            .brackets
            .get(k)
            .map(|b| arbiter_core::Score(b.score).to_string())
            .unwrap_or_default()
    };
    let verdict = match audit.found {
        Some(f) => match f.rule {
            Some(rule) => Verdict::Criterion {
                bracket: f.bracket,
                bracket_score: score_of(f.bracket),
                rule: rule.to_string(),
                meaning: audit::describe(rule).to_string(),
                counts: f.counts,
                engine_better: f.engine_better,
            },
            None => Verdict::GenerationOrder {
                bracket: f.bracket,
                bracket_score: score_of(f.bracket),
            },
        },
        None => {
            // Every bracket paired the same players: only colours differ.
            let flipped = engine.boards.iter().find(|e| {
                other
                    .boards
                    .iter()
                    .any(|o| o.white == e.black && o.black == e.white)
            });
            match flipped {
                Some(&board) => {
                    let (_, rule) = colour::colour_and_rule(
                        &st,
                        index_of[&board.white],
                        index_of[&board.black],
                    );
                    Verdict::Colour {
                        board,
                        rule: rule.name(input.rule_set).to_string(),
                        meaning: rule.describe().to_string(),
                    }
                }
                None => Verdict::NotAPairing {
                    detail: "it differs from the engine's pairing outside every bracket".into(),
                },
            }
        }
    };
    Ok(Comparison { engine, verdict })
}

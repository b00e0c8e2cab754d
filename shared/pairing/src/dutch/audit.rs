//! Why the engine's pairing beats another one (`arbiter check`, the pairing worker's Check):
//! the rule that decides between them, found with the engine's own criteria.
//!
//! The engine pairs bracket by bracket. The other pairing is followed along the engine's
//! brackets until the first bracket in which it pairs differently (other pairs, other
//! downfloaters). There both bracket pairings are weighed the way the engine weighs candidates:
//! the pairs made inside the bracket are fixed, and the rest of the bracket's graph (the
//! downfloaters with the next scoregroup, or every player still to pair) is completed in the
//! best way, because the look-ahead criteria (C.4/C.7, [C4]/[C8]) judge what the rest allows.
//! Both totals are then compared criterion by criterion, highest first, field by field of the
//! edge weights ([`Breakdown`]); the first field that differs names the criterion. Equal on all
//! of them, the generation order (B/D) decided.

use super::MatchGraph;
use super::weight::{Breakdown, Packer, Sink};
use std::collections::BTreeSet;

/// What the audit found in the first bracket where the other pairing differs.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// Index of the bracket in the round's explanation.
    pub bracket: usize,
    /// The first criterion field that differs (`None`: equal on every criterion).
    pub rule: Option<&'static str>,
    /// The engine's bracket pairing is the better one on `rule`.
    pub engine_better: bool,
    /// Field values (for count fields: the count) of both, when `rule` is a count.
    pub counts: Option<(i64, i64)>,
}

/// The other pairing, followed through the engine's brackets.
pub(crate) struct Audit {
    /// Mate of each player (index into the round state) in the other pairing.
    pub other: Vec<Option<usize>>,
    pub found: Option<Found>,
}

/// The fields that never decide on the criteria.
const NOT_RULES: [&str; 2] = [super::bracket2017::PHASES, super::bracket2017::TIE];

impl Audit {
    pub fn new(other: Vec<Option<usize>>) -> Audit {
        Audit { other, found: None }
    }

    /// The pairs the other pairing makes among `cur` (vertices of the bracket, in the caller's
    /// numbering), given `player` of each.
    pub fn pairs_among(
        &self,
        cur: &[usize],
        player: impl Fn(usize) -> usize,
    ) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for (a, &va) in cur.iter().enumerate() {
            for &vb in &cur[a + 1..] {
                if self.other[player(va)] == Some(player(vb)) {
                    pairs.push((va, vb));
                }
            }
        }
        pairs
    }

    /// Compares the engine's bracket pairing with the other's and records the verdict when
    /// they differ. `universe`: vertices still to pair when the bracket starts; `cur`: those
    /// of the bracket itself; `player`: the player of a vertex; `weigh`: writes the edge weight
    /// of two vertices (lower vertex first) into a sink, packed for the matcher or field by
    /// field, false when they may not meet.
    pub fn bracket<const N: usize, G: MatchGraph<N>>(
        &mut self,
        index: usize,
        universe: &[usize],
        cur: &[usize],
        engine_pairs: &[(usize, usize)],
        player: impl Fn(usize) -> usize,
        weigh: impl Fn(usize, usize, &mut dyn Sink) -> bool,
    ) {
        if self.found.is_some() {
            return;
        }
        let norm = |ps: &[(usize, usize)]| -> BTreeSet<(usize, usize)> {
            ps.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect()
        };
        let other_pairs = self.pairs_among(cur, &player);
        if norm(&other_pairs) == norm(engine_pairs) {
            return;
        }
        let engine = settle::<N, G>(universe, cur, engine_pairs, &weigh);
        let other = settle::<N, G>(universe, cur, &other_pairs, &weigh);
        let found = match engine.first_difference(&other, &NOT_RULES) {
            None => Found {
                bracket: index,
                rule: None,
                engine_better: true,
                counts: None,
            },
            Some((rule, engine_better)) => {
                let at = engine
                    .fields
                    .iter()
                    .zip(&other.fields)
                    .position(|((r, a), (_, b))| *r == rule && a != b)
                    .expect("the differing field");
                Found {
                    bracket: index,
                    rule: Some(rule),
                    engine_better,
                    counts: engine.count(at).zip(other.count(at)),
                }
            }
        };
        self.found = Some(found);
    }
}

/// The criteria total of a bracket pairing: its `fixed` pairs, plus the best completion of
/// the vertices of `universe` it leaves (the bracket's unpaired vertices never pair with each
/// other there: that would be a pair of the bracket).
fn settle<const N: usize, G: MatchGraph<N>>(
    universe: &[usize],
    cur: &[usize],
    fixed: &[(usize, usize)],
    weigh: &impl Fn(usize, usize, &mut dyn Sink) -> bool,
) -> Breakdown {
    let taken: BTreeSet<usize> = fixed.iter().flat_map(|&(a, b)| [a, b]).collect();
    let in_cur: BTreeSet<usize> = cur.iter().copied().collect();
    let free: Vec<usize> = universe
        .iter()
        .copied()
        .filter(|v| !taken.contains(v))
        .collect();
    let mut g = G::new(free.len());
    for j in 0..free.len() {
        for i in 0..j {
            let (a, b) = (free[i].min(free[j]), free[i].max(free[j]));
            if in_cur.contains(&a) && in_cur.contains(&b) {
                continue;
            }
            let mut p = Packer::<N>::new();
            weigh(a, b, &mut p);
            let w = p.finish();
            if !w.is_zero() {
                g.set(i, j, w);
            }
        }
    }
    g.solve();
    let mut total = Breakdown::default();
    let mut add = |a: usize, b: usize| {
        let mut one = Breakdown::default();
        weigh(a.min(b), a.max(b), &mut one);
        total.add(&one);
    };
    for &(a, b) in fixed {
        add(a, b);
    }
    for i in 0..free.len() {
        if let Some(j) = g.mate(i).filter(|&j| i < j) {
            add(free[i], free[j]);
        }
    }
    total
}

/// What a criterion asks, for the report.
pub(crate) fn describe(rule: &str) -> &'static str {
    match rule {
        "C.4" => "the penultimate bracket leaves a remainder that can be paired (A.9)",
        "C.5" | "[C6]" => "as many pairs as possible in the bracket",
        "C.6" => "the smallest score differences (PSD) in the bracket",
        "[C7]" => "the highest scores paired in the bracket (the smallest downfloater scores)",
        "C.7" => "the best next bracket: most pairs, then the smallest PSD there",
        "[C4]/[C5]" => "a complete round whose bye goes to an eligible player of the lowest score",
        "[C8]" => "the best next bracket: most pairs, then the highest scores paired there",
        "[C9]" => "the pairing-allocated bye to the player with the fewest unplayed rounds",
        "C.8" | "[C10]" => "fewest topscorers (or opponents) with a colour difference beyond 2",
        "C.9" | "[C11]" => "fewest topscorers (or opponents) with the same colour three times",
        "C.10" | "[C12]" => "fewest players not getting their colour preference",
        "C.11" | "[C13]" => "fewest players not getting their strong colour preference",
        "C.12" | "[C14]" => "fewest players getting the same downfloat as in the previous round",
        "C.13" | "[C15]" => "fewest players getting the same upfloat as in the previous round",
        "C.14" | "[C16]" => "fewest players getting the same downfloat as two rounds before",
        "C.15" | "[C17]" => "fewest players getting the same upfloat as two rounds before",
        "C.16" | "[C18]" => "smallest scores of players repeating the previous round's downfloat",
        "C.17" | "[C19]" => "smallest score differences of players repeating the previous upfloat",
        "C.18" | "[C20]" => {
            "smallest scores of players repeating the downfloat of two rounds before"
        }
        "C.19" | "[C21]" => {
            "smallest score differences of players repeating the upfloat of two rounds before"
        }
        _ => "",
    }
}

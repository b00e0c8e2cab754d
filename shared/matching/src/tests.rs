//! Unit tests that look inside the matcher (certificate checks, forced incremental paths).

use crate::{Matcher, Weight};
use proptest::prelude::*;

/// Maximum matching weight by exhaustive recursion (n ≤ 12).
pub(crate) fn brute_force<W: Weight>(n: usize, w: &dyn Fn(usize, usize) -> W) -> W {
    fn rec<W: Weight>(
        n: usize,
        used: u32,
        w: &dyn Fn(usize, usize) -> W,
        memo: &mut Vec<Option<W>>,
    ) -> W {
        if let Some(v) = memo[used as usize] {
            return v;
        }
        let Some(i) = (0..n).find(|&i| used & (1 << i) == 0) else {
            return W::ZERO;
        };
        let mut best = rec(n, used | 1 << i, w, memo);
        for j in i + 1..n {
            if used & (1 << j) == 0 && !w(i, j).is_zero() {
                let cand = rec(n, used | 1 << i | 1 << j, w, memo)
                    .checked_add(w(i, j))
                    .expect("sum fits");
                if cand > best {
                    best = cand;
                }
            }
        }
        memo[used as usize] = Some(best);
        best
    }
    let mut memo = vec![None; 1 << n];
    rec(n, 0, w, &mut memo)
}

fn check_valid<W: Weight>(m: &Matcher<W>) {
    for v in 0..m.len() {
        if let Some(u) = m.mate(v) {
            assert_eq!(m.mate(u), Some(v));
            assert!(!m.weight(u, v).is_zero());
        }
    }
    m.verify().unwrap();
}

fn graph_strategy(max_n: usize, max_w: u64) -> impl Strategy<Value = (usize, Vec<u64>)> {
    (0..=max_n).prop_flat_map(move |n| {
        let cells = n * n.saturating_sub(1) / 2;
        // Zeros and ties are frequent on purpose.
        let wt = prop_oneof![2 => Just(0u64), 3 => 0..=max_w];
        (Just(n), proptest::collection::vec(wt, cells))
    })
}

fn build(n: usize, ws: &[u64]) -> Matcher<u64> {
    let mut m = Matcher::new(n);
    m.max_roots = 1 + n % 4;
    let mut k = 0;
    for i in 0..n {
        for j in i + 1..n {
            m.set_weight(i, j, ws[k]);
            k += 1;
        }
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn small_graphs_match_brute_force((n, ws) in graph_strategy(10, 12)) {
        let mut m = build(n, &ws);
        m.solve();
        check_valid(&m);
        let expect = brute_force(n, &|i, j| *m.weight(i, j));
        prop_assert_eq!(m.total_weight(), expect);
    }

    /// The bounds callers rest on: after a solve, every edge's doubled slack is at most twice
    /// the optimum minus the best weight of a matching that uses the edge (zero for matched
    /// edges), and every vertex's doubled dual at most twice the optimum minus the best weight
    /// of a matching that leaves it unmatched. `is_solved` holds until a weight changes, but
    /// for an unmatched edge lowered (the bounds then hold for the new weights).
    #[test]
    fn slack_bounds_the_loss_of_every_matching_through_an_edge(
        (n, ws) in graph_strategy(9, 12),
        sparse in any::<bool>(),
        lower in any::<prop::sample::Index>(),
    ) {
        let mut m = build(n, &ws);
        prop_assert!(!m.is_solved());
        crate::with_sparse_from(if sparse { 0 } else { usize::MAX }, || m.solve());
        prop_assert!(m.is_solved());
        let check = |m: &Matcher<u64>| -> Result<(), TestCaseError> {
            let opt = m.total_weight();
            prop_assert_eq!(opt, brute_force(n, &|i, j| *m.weight(i, j)));
            for u in 0..n {
                // The best matching leaving u unmatched.
                let without = brute_force(n, &|i, j| {
                    if i == u || j == u { 0 } else { *m.weight(i, j) }
                });
                prop_assert!(m.dual(u) <= 2 * (opt - without), "dual of {} too large", u);
                for v in u + 1..n {
                    let w = *m.weight(u, v);
                    let Some(slack) = m.slack(u, v) else {
                        prop_assert_eq!(w, 0, "edge ({}, {}) has no slack", u, v);
                        continue;
                    };
                    // The best matching through (u, v): the edge and the best of the rest.
                    let rest = brute_force(n, &|i, j| {
                        if [i, j].iter().any(|x| *x == u || *x == v) { 0 } else { *m.weight(i, j) }
                    });
                    let through = w + rest;
                    prop_assert!(slack <= 2 * (opt - through), "({}, {}): slack {} > 2·({} - {})", u, v, slack, opt, through);
                    if m.mate(u) == Some(v) {
                        prop_assert_eq!(slack, 0);
                    }
                }
            }
            Ok(())
        };
        check(&m)?;
        // Lower an unmatched edge, if there is one: the certificate still holds.
        let unmatched: Vec<(usize, usize)> = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .filter(|&(u, v)| *m.weight(u, v) > 0 && m.mate(u) != Some(v))
            .collect();
        if !unmatched.is_empty() {
            let (u, v) = unmatched[lower.index(unmatched.len())];
            let w = *m.weight(u, v);
            m.set_weight(u, v, w / 2);
            prop_assert!(m.is_solved());
            check(&m)?;
        }
        if n >= 2 {
            let w = *m.weight(0, 1);
            m.set_weight(0, 1, w + 1);
            prop_assert!(!m.is_solved());
            m.solve();
            prop_assert!(m.is_solved());
            m.retain(&vec![true; n]);
            prop_assert!(!m.is_solved());
        }
    }

    #[test]
    fn sparse_small_graphs_match_brute_force((n, ws) in graph_strategy(10, 12)) {
        let m = crate::with_sparse_from(0, || {
            let mut m = build(n, &ws);
            m.solve();
            m
        });
        check_valid(&m);
        let expect = brute_force(n, &|i, j| *m.weight(i, j));
        prop_assert_eq!(m.total_weight(), expect);
    }

    #[test]
    fn small_graphs_wide_range((n, ws) in graph_strategy(10, 1 << 40)) {
        let mut m = build(n, &ws);
        m.solve();
        check_valid(&m);
        let expect = brute_force(n, &|i, j| *m.weight(i, j));
        prop_assert_eq!(m.total_weight(), expect);
    }
}

/// Deterministic xorshift for tests that want many sizes without proptest shrinking overhead.
pub(crate) struct Rng(pub u64);
impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub(crate) fn below(&mut self, k: u64) -> u64 {
        self.next() % k
    }
}

#[test]
fn random_dense_graphs_have_a_certificate() {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for round in 0..300 {
        let n = 1 + rng.below(60) as usize;
        let maxw = [1, 3, 10, 1000, 1 << 50][round % 5];
        let zero_share = rng.below(4);
        let mut m = Matcher::<u64>::new(n);
        for i in 0..n {
            for j in i + 1..n {
                let w = if rng.below(4) < zero_share {
                    0
                } else {
                    rng.below(maxw + 1)
                };
                m.set_weight(i, j, w);
            }
        }
        m.solve();
        check_valid(&m);
        if n <= 12 {
            assert_eq!(m.total_weight(), brute_force(n, &|i, j| *m.weight(i, j)));
        }
    }
}

/// Lexicographic weights over more than 128 bits: three fields, the most significant at bit 180
/// (the limit for `Wide<4>` is 252 bits).
fn lex4(a: u64, b: u64, c: u64) -> crate::Wide<4> {
    use crate::Wide;
    if a == 0 && b == 0 && c == 0 {
        return Wide::ZERO;
    }
    (Wide::from_u64(a) << 180) | (Wide::from_u64(b) << 90) | c
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    #[test]
    fn wide4_lexicographic_weights(n in 0usize..=10, seed in any::<u64>()) {
        let mut rng = Rng(seed | 1);
        let mut m = Matcher::<crate::Wide<4>>::new(n);
        for i in 0..n {
            for j in i + 1..n {
                let w = if rng.below(3) == 0 { crate::Wide::ZERO } else {
                    lex4(rng.below(3), rng.below(4), rng.below(1 << 40))
                };
                m.set_weight(i, j, w);
            }
        }
        m.solve();
        check_valid(&m);
        prop_assert_eq!(m.total_weight(), brute_force(n, &|i, j| *m.weight(i, j)));
    }

    #[test]
    fn wide8_weights_near_the_limit(n in 0usize..=9, seed in any::<u64>()) {
        use crate::Wide;
        let mut rng = Rng(seed | 1);
        let mut m = Matcher::<Wide<8>>::new(n);
        for i in 0..n {
            for j in i + 1..n {
                // Up to 500 significant bits (the limit is 508), fields at 440, 300 and 0.
                let w = if rng.below(3) == 0 { Wide::ZERO } else {
                    (Wide::from_u64(rng.below(1 << 20)) << 440)
                        | (Wide::from_u64(rng.below(5)) << 300)
                        | rng.next()
                };
                m.set_weight(i, j, w);
            }
        }
        m.solve();
        check_valid(&m);
        prop_assert_eq!(m.total_weight(), brute_force(n, &|i, j| *m.weight(i, j)));
    }
}

/// One step of an incremental scenario: new weights for all edges of a few vertices.
#[derive(Clone, Debug)]
struct Change {
    vertices: Vec<usize>,
    seed: u64,
}

fn scenario() -> impl Strategy<Value = (usize, u64, u64, Vec<Change>)> {
    (
        2usize..=40,
        any::<u64>(),
        prop_oneof![Just(1u64), Just(5), Just(100), Just(1 << 45)],
    )
        .prop_flat_map(|(n, seed, maxw)| {
            let change = (proptest::collection::vec(0..n, 1..=2), any::<u64>())
                .prop_map(|(vertices, seed)| Change { vertices, seed });
            (
                Just(n),
                Just(seed),
                Just(maxw),
                proptest::collection::vec(change, 1..12),
            )
        })
}

fn random_weight(rng: &mut Rng, maxw: u64) -> u64 {
    // Zeros and ties on purpose.
    match rng.below(5) {
        0 => 0,
        1 => maxw,
        _ => rng.below(maxw + 1),
    }
}

/// A dense solve from scratch of the same weights (the reference for every other way).
fn fresh_copy<W: Weight>(m: &Matcher<W>) -> Matcher<W> {
    crate::with_sparse_from(usize::MAX, || fresh_copy_here(m))
}

fn fresh_copy_here<W: Weight>(m: &Matcher<W>) -> Matcher<W> {
    let n = m.len();
    let mut f = Matcher::new(n);
    for i in 0..n {
        for j in i + 1..n {
            f.set_weight(i, j, *m.weight(i, j));
        }
    }
    f.solve_from_scratch();
    assert!(!f.last_solve_stats().incremental);
    f
}

fn run_scenario(n: usize, seed: u64, maxw: u64, changes: &[Change], never_rebuild: bool) {
    let mut rng = Rng(seed | 1);
    let mut m = Matcher::<u64>::new(n);
    m.never_rebuild = never_rebuild;
    m.max_roots = [1, 2, 3, 8, usize::MAX][(seed % 5) as usize];
    for i in 0..n {
        for j in i + 1..n {
            m.set_weight(i, j, random_weight(&mut rng, maxw));
        }
    }
    m.solve();
    check_valid(&m);
    for ch in changes {
        let mut r = Rng(ch.seed | 1);
        for &v in &ch.vertices {
            for u in 0..n {
                if u != v {
                    m.set_weight(v, u, random_weight(&mut r, maxw));
                }
            }
        }
        m.solve();
        check_valid(&m);
        assert_eq!(m.total_weight(), fresh_copy(&m).total_weight());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn incremental_equals_from_scratch((n, seed, maxw, changes) in scenario()) {
        run_scenario(n, seed, maxw, &changes, true);
    }

    /// The same on candidate edges: every solve of the sequence priced against the whole
    /// graph, with the dense solve's weight.
    #[test]
    fn sparse_incremental_equals_dense((n, seed, maxw, changes) in scenario()) {
        crate::with_sparse_from(0, || run_scenario(n, seed, maxw, &changes, seed % 2 == 0));
    }

    #[test]
    fn incremental_with_rebuild_policy((n, seed, maxw, changes) in scenario()) {
        run_scenario(n, seed, maxw, &changes, false);
    }
}

/// Single-edge changes of every kind (matched, inside a blossom, raising, lowering, removing).
#[test]
fn single_edge_changes() {
    let mut rng = Rng(77);
    for _ in 0..200 {
        let n = 2 + rng.below(25) as usize;
        let mut m = Matcher::<u64>::new(n);
        m.never_rebuild = true;
        for i in 0..n {
            for j in i + 1..n {
                m.set_weight(i, j, random_weight(&mut rng, 20));
            }
        }
        m.solve();
        for _ in 0..20 {
            let a = rng.below(n as u64) as usize;
            let b = (a + 1 + rng.below(n as u64 - 1) as usize) % n;
            let (a, b) = match (rng.below(3), m.mate(a)) {
                (0, Some(ma)) => (a, ma),
                _ => (a, b),
            };
            m.set_weight(a, b, random_weight(&mut rng, 20));
            m.solve();
            check_valid(&m);
            assert_eq!(m.total_weight(), fresh_copy(&m).total_weight());
            if n <= 10 {
                assert_eq!(m.total_weight(), brute_force(n, &|i, j| *m.weight(i, j)));
            }
        }
    }
}

#[test]
fn wide4_incremental() {
    let mut rng = Rng(4242);
    for _ in 0..60 {
        let n = 2 + rng.below(30) as usize;
        let mut m = Matcher::<crate::Wide<4>>::new(n);
        m.never_rebuild = rng.below(2) == 0;
        let wt = |rng: &mut Rng| {
            if rng.below(4) == 0 {
                crate::Wide::ZERO
            } else {
                lex4(rng.below(3), rng.below(5), rng.below(1 << 50))
            }
        };
        for i in 0..n {
            for j in i + 1..n {
                m.set_weight(i, j, wt(&mut rng));
            }
        }
        m.solve();
        check_valid(&m);
        for _ in 0..10 {
            let v = rng.below(n as u64) as usize;
            for u in 0..n {
                if u != v {
                    m.set_weight(v, u, wt(&mut rng));
                }
            }
            m.solve();
            check_valid(&m);
            assert_eq!(m.total_weight(), fresh_copy(&m).total_weight());
            if n <= 10 {
                assert_eq!(m.total_weight(), brute_force(n, &|i, j| *m.weight(i, j)));
            }
        }
    }
}
/// Long sequences on up to 91 vertices, changing whole or partial rows of 1–3 vertices at a time.
#[test]
fn long_sequences_with_partial_row_changes() {
    for it in 0..40u64 {
        let mut rng = Rng(0x1234_5678_9abc ^ (it.wrapping_mul(0x9e3779b97f4a7c15)) | 1);
        let n = 2 + rng.below(90) as usize;
        let maxw = [1u64, 2, 7, 50, 1 << 40, 1 << 53][rng.below(6) as usize];
        let mut m = Matcher::<u64>::new(n);
        m.never_rebuild = rng.below(2) == 0;
        m.max_roots = [1, 2, 3, 8, usize::MAX][rng.below(5) as usize];
        let zero = rng.below(5);
        let wt = |r: &mut Rng| {
            if r.below(5) < zero {
                0
            } else {
                random_weight(r, maxw)
            }
        };
        for i in 0..n {
            for j in i + 1..n {
                m.set_weight(i, j, wt(&mut rng));
            }
        }
        m.solve();
        check_valid(&m);
        for _ in 0..30 {
            let k = 1 + rng.below(3);
            for _ in 0..k {
                let v = rng.below(n as u64) as usize;
                let partial = rng.below(3) == 0;
                for u in 0..n {
                    if u != v && (!partial || rng.below(4) == 0) {
                        m.set_weight(v, u, wt(&mut rng));
                    }
                }
            }
            m.solve();
            if let Err(e) = m.verify() {
                panic!("it={it} n={n}: {e}");
            }
            assert_eq!(m.total_weight(), fresh_copy(&m).total_weight(), "it={it}");
        }
    }
}

/// Weights at the very top of the allowed range, through many incremental re-solves: every dual
/// addition and subtraction is overflow-checked in debug builds.
#[test]
fn weights_at_the_limit_never_overflow() {
    let top = (1u64 << Matcher::<u64>::WEIGHT_BITS) - 1;
    let mut rng = Rng(0xfeed);
    for round in 0..30 {
        let n = 2 + rng.below(40) as usize;
        let mut m = Matcher::<u64>::new(n);
        m.never_rebuild = round % 2 == 0;
        m.max_roots = [1, 2, 8][round % 3];
        let wt = |r: &mut Rng| match r.below(4) {
            0 => 0,
            1 => top,
            _ => top - r.below(1 << 20),
        };
        for i in 0..n {
            for j in i + 1..n {
                m.set_weight(i, j, wt(&mut rng));
            }
        }
        m.solve();
        m.verify().unwrap();
        for _ in 0..15 {
            let v = rng.below(n as u64) as usize;
            for u in 0..n {
                if u != v {
                    m.set_weight(v, u, wt(&mut rng));
                }
            }
            m.solve();
            m.verify().unwrap();
        }
        // Totals of up to n/2 such weights do not fit in u64; compare in u128.
        let total: u128 = (0..n)
            .filter_map(|v| {
                m.mate(v)
                    .filter(|&u| v < u)
                    .map(|u| *m.weight(v, u) as u128)
            })
            .sum();
        let mut f = Matcher::<u128>::new(n);
        for i in 0..n {
            for j in i + 1..n {
                f.set_weight(i, j, *m.weight(i, j) as u128);
            }
        }
        f.solve_from_scratch();
        assert_eq!(total, f.total_weight());
    }
    // Wide<4> at its 252-bit limit.
    let top4 = crate::Wide::<4>::MAX >> 4;
    let mut m = Matcher::<crate::Wide<4>>::new(24);
    m.never_rebuild = true;
    for step in 0..40 {
        let v = step % 24;
        for u in 0..24 {
            if u != v {
                let w = if rng.below(5) == 0 {
                    crate::Wide::ZERO
                } else {
                    top4.wrapping_sub(crate::Wide::from_u64(rng.below(1000)))
                };
                m.set_weight(v, u, w);
            }
        }
        m.solve();
        m.verify().unwrap();
    }
}

/// Dropping vertices keeps a warm start that the next solve turns into an optimum of the
/// smaller graph: certificate checked, weight equal to a from-scratch solve (and to brute force
/// when small), with weight changes on the kept vertices before the re-solve.
#[test]
fn retain_then_solve_equals_a_fresh_solve() {
    let mut rng = Rng(0x2545f4914f6cdd1d);
    for round in 0..400 {
        let n = 2 + rng.below(40) as usize;
        let maxw = [1, 4, 50, 1 << 20, 1 << 50][round % 5];
        let mut m = Matcher::<u64>::new(n);
        m.max_roots = 1 + round % 8;
        m.never_rebuild = round % 4 == 1;
        for i in 0..n {
            for j in i + 1..n {
                let w = if rng.below(3) == 0 {
                    0
                } else {
                    rng.below(maxw + 1)
                };
                m.set_weight(i, j, w);
            }
        }
        m.solve();
        // Drop some matched pairs (settled players), and in some rounds free vertices or
        // single ends of pairs too.
        let mut keep = vec![true; n];
        for v in 0..n {
            let drop = rng.below(3) == 0;
            match m.mate(v) {
                Some(u) if u > v && drop => {
                    keep[v] = false;
                    keep[u] = false;
                }
                None if drop && round % 2 == 0 => keep[v] = false,
                Some(_) if drop && round % 3 == 0 => keep[v] = false,
                _ => {}
            }
        }
        let old_of = m.retain(&keep);
        let k = old_of.len();
        assert_eq!(m.len(), k);
        assert!(old_of.windows(2).all(|p| p[0] < p[1]));
        // Some weight changes among the kept vertices, as the next bracket would make.
        for _ in 0..rng.below(3 * k as u64 + 1) {
            let (a, b) = (
                rng.below(k.max(1) as u64) as usize,
                rng.below(k.max(1) as u64) as usize,
            );
            if a != b {
                m.set_weight(a, b, rng.below(maxw + 1));
            }
        }
        m.solve();
        check_valid(&m);
        let mut fresh = Matcher::<u64>::new(k);
        for i in 0..k {
            for j in i + 1..k {
                fresh.set_weight(i, j, *m.weight(i, j));
            }
        }
        fresh.solve_from_scratch();
        assert_eq!(m.total_weight(), fresh.total_weight(), "round {round}");
        if k <= 12 {
            assert_eq!(m.total_weight(), brute_force(k, &|i, j| *m.weight(i, j)));
        }
    }
}

/// The table of distinct weights holds exactly the values the graph uses, through overwrites
/// (values freed and their slots reused) and `retain`; and a graph built on a table with reused
/// slots solves exactly like one built fresh (same mates, same weight).
#[test]
fn distinct_weight_table_tracks_the_graph() {
    let distinct = |m: &Matcher<u64>| {
        let n = m.len();
        let mut set = std::collections::BTreeSet::new();
        for i in 0..n {
            for j in i + 1..n {
                if *m.weight(i, j) != 0 {
                    set.insert(*m.weight(i, j));
                }
            }
        }
        set.len()
    };
    let mut rng = Rng(0x9e3779b97f4a7c15);
    for round in 0..200 {
        let n = 2 + rng.below(30) as usize;
        let maxw = [3, 20, 1 << 30][round % 3];
        let mut m = Matcher::<u64>::new(n);
        for _ in 0..4 {
            for _ in 0..rng.below(2 * (n * n) as u64 + 1) {
                let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                if a != b {
                    m.set_weight(a, b, random_weight(&mut rng, maxw));
                }
            }
            assert_eq!(m.distinct_weights(), distinct(&m), "round {round}");
            m.solve();
            let fresh = fresh_copy(&m);
            let mut again = m.clone();
            again.solve_from_scratch();
            assert_eq!(m.total_weight(), fresh.total_weight(), "round {round}");
            assert_eq!(again.mates(), fresh.mates(), "round {round}");
        }
        let keep: Vec<bool> = (0..n).map(|_| rng.below(4) != 0).collect();
        m.retain(&keep);
        assert_eq!(
            m.distinct_weights(),
            distinct(&m),
            "round {round} after retain"
        );
    }
}

/// Raises each edge `(v, u)` by `u mod modulus`: a bonus on one vertex's edges, as a pairing
/// engine's phase gives.
fn add_row_bonus(m: &mut Matcher<u64>, v: usize, modulus: u64) {
    for u in 0..m.len() {
        if u != v && !m.weight(v, u).is_zero() {
            let w = *m.weight(v, u);
            m.set_weight(v, u, w + (u as u64 % modulus));
        }
    }
}

/// Graphs shaped like a Swiss bracket, where the heaviest edges of every vertex lead to the same
/// few vertices and most weights tie: a lexicographic weight (fewest unpaired, colours, then a
/// bonus for the higher-ranked end, `n - min(i, j)`), a share of forbidden pairs. The sparse
/// solve (candidate edges, priced against the rest) reaches the dense solve's weight, with a
/// certificate for the whole graph, from scratch and through re-solves that fix one pair at a
/// time as the pairing engines do; and it scans far fewer cells.
#[test]
fn sparse_solves_of_bracket_shaped_graphs_equal_dense_ones() {
    let mut rng = Rng(0x5eed_5a2e);
    for round in 0..12 {
        let n = 200 + rng.below(300) as usize;
        let colour: Vec<u64> = (0..n).map(|_| rng.below(3)).collect();
        let forbid = [0u64, 5, 20][round % 3];
        let mut ws = Vec::with_capacity(n * (n - 1) / 2);
        for i in 0..n {
            for j in i + 1..n {
                let w = if rng.below(100) < forbid {
                    0
                } else {
                    let colours = 2 - (colour[i] == colour[j] && colour[i] != 0) as u64;
                    (1u64 << 40) + (colours << 20) + (n - i) as u64
                };
                ws.push(w);
            }
        }
        let set_all = |m: &mut Matcher<u64>| {
            let mut k = 0;
            for i in 0..n {
                for j in i + 1..n {
                    m.set_weight(i, j, ws[k]);
                    k += 1;
                }
            }
        };
        let mut dense = Matcher::<u64>::new(n);
        set_all(&mut dense);
        crate::with_sparse_from(usize::MAX, || dense.solve());
        let mut sparse = Matcher::<u64>::new(n);
        set_all(&mut sparse);
        crate::with_sparse_from(0, || sparse.solve());
        check_valid(&sparse);
        assert_eq!(
            sparse.total_weight(),
            dense.total_weight(),
            "round {round}, n {n}"
        );
        let (ds, ss) = (dense.last_solve_stats(), sparse.last_solve_stats());
        assert!(
            ss.cells * 2 < ds.cells,
            "round {round}: sparse {ss:?}, dense {ds:?}"
        );
        // Fix pairs one at a time: a bonus on one vertex's edges, re-solve, then its pair's
        // rows set to the fixed weight and zero.
        for _ in 0..20 {
            let v = rng.below(n as u64) as usize;
            for m in [&mut dense, &mut sparse] {
                add_row_bonus(m, v, 7);
            }
            crate::with_sparse_from(usize::MAX, || dense.solve());
            crate::with_sparse_from(0, || sparse.solve());
            check_valid(&sparse);
            assert_eq!(sparse.total_weight(), dense.total_weight(), "round {round}");
            if let Some(u) = sparse.mate(v) {
                for m in [&mut dense, &mut sparse] {
                    for x in 0..n {
                        for (a, b) in [(v, u), (u, v)] {
                            if x != a {
                                m.set_weight(a, x, if x == b { 1 << 50 } else { 0 });
                            }
                        }
                    }
                }
            }
        }
        // Dropping settled vertices keeps the candidate lists of the others.
        let keep: Vec<bool> = (0..n)
            .map(|v| sparse.mate(v).is_none() || v % 3 != 0)
            .collect();
        dense.retain(&keep);
        sparse.retain(&keep);
        crate::with_sparse_from(usize::MAX, || dense.solve());
        crate::with_sparse_from(0, || sparse.solve());
        check_valid(&sparse);
        assert_eq!(
            sparse.total_weight(),
            dense.total_weight(),
            "round {round}, retained"
        );
    }
}

/// Pricing split over two threads (from the first cell, so every check is split) gives the
/// same matching, the same duals and the same work as on one thread, from scratch and through
/// re-solves, on the bracket-shaped graphs whose sparse solves price the most.
#[test]
fn pricing_on_two_threads_equals_one_thread() {
    let mut rng = Rng(0x7412_ead5);
    let mut split = 0;
    for round in 0..6 {
        let n = 200 + rng.below(200) as usize;
        let colour: Vec<u64> = (0..n).map(|_| rng.below(3)).collect();
        let mut one = Matcher::<u64>::new(n);
        let mut two = Matcher::<u64>::new(n);
        for i in 0..n {
            for j in i + 1..n {
                if rng.below(100) >= 10 {
                    let colours = 2 - (colour[i] == colour[j] && colour[i] != 0) as u64;
                    let w = (1u64 << 40) + (colours << 20) + (n - i) as u64;
                    one.set_weight(i, j, w);
                    two.set_weight(i, j, w);
                }
            }
        }
        for step in 0..8 {
            crate::with_sparse_from(0, || crate::with_threads(1, 0, || one.solve()));
            crate::with_sparse_from(0, || crate::with_threads(2, 0, || two.solve()));
            let (s1, s2) = (one.last_solve_stats(), two.last_solve_stats());
            assert_eq!(one.mates(), two.mates(), "round {round}, step {step}");
            assert!(
                (0..n).all(|v| one.dual(v) == two.dual(v)),
                "round {round}, step {step}"
            );
            assert_eq!(s1.priced_in, s2.priced_in, "round {round}, step {step}");
            assert!(s1.pricing_threads <= 1, "{s1:?}");
            // Each solve that priced (every sparse one does) split it in two.
            assert_eq!(s2.pricing_threads, s1.pricing_threads * 2, "{s2:?}");
            split += s2.pricing_threads / 2;
            // A bonus on one vertex's edges: the next solve re-prices.
            let v = rng.below(n as u64) as usize;
            for m in [&mut one, &mut two] {
                add_row_bonus(m, v, 5);
            }
        }
    }
    assert!(split >= 6, "only {split} solves priced on two threads");
}

/// `2y_u + 2y_v + Σ 2z_B - 2w` by walking both blossom chains: the definition the indexed
/// chains of [`Matcher::slack`] must reproduce.
fn walked_slack(m: &Matcher<u64>, u: usize, v: usize) -> Option<u64> {
    let wt = *m.weight(u, v);
    if wt == 0 || u == v {
        return None;
    }
    let chain = |mut b: u32| {
        let mut c = vec![b];
        while m.parent[b as usize] != crate::matcher::NONE {
            b = m.parent[b as usize];
            c.push(b);
        }
        c
    };
    let (cu, cv) = (chain(u as u32), chain(v as u32));
    let shared: u64 = cu
        .iter()
        .filter(|b| cv.contains(b))
        .map(|&b| m.z[b as usize])
        .sum();
    (m.y[u] + m.y[v] + shared).checked_sub(2 * wt)
}

#[test]
fn indexed_slacks_equal_walked_chains() {
    let mut nested = 0;
    for it in 0..60u64 {
        let mut rng = Rng(0xc0ffee ^ it.wrapping_mul(0x9e3779b97f4a7c15) | 1);
        let n = 2 + rng.below(70) as usize;
        // Few distinct small weights: many tight edges, so blossoms nest.
        let maxw = [1u64, 2, 3, 8][rng.below(4) as usize];
        let mut m = Matcher::<u64>::new(n);
        for i in 0..n {
            for j in i + 1..n {
                m.set_weight(i, j, random_weight(&mut rng, maxw));
            }
        }
        for step in 0..6 {
            m.solve();
            if step == 3 {
                let keep: Vec<bool> = (0..m.len()).map(|_| rng.below(6) != 0).collect();
                m.retain(&keep);
                m.solve();
            }
            let n = m.len();
            nested += (n..2 * n)
                .filter(|&b| m.parent[b] != crate::matcher::NONE)
                .count();
            for u in 0..n {
                for v in 0..n {
                    assert_eq!(
                        m.slack(u, v),
                        walked_slack(&m, u, v),
                        "it={it} step={step} ({u}, {v})"
                    );
                }
            }
            // A changed weight is read at once; the blossoms stay those of the solve.
            let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            if a != b {
                m.set_weight(a, b, random_weight(&mut rng, maxw));
                assert_eq!(m.slack(a, b), walked_slack(&m, a, b));
            }
        }
    }
    assert!(
        nested > 100,
        "only {nested} nested blossoms: the test does not reach deep chains"
    );
}

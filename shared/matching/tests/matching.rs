//! The matcher through its public API only.

use arbiter_matching::{Matcher, WeightError, Wide};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, k: u64) -> u64 {
        self.next() % k
    }
}

#[test]
fn empty_and_tiny_graphs() {
    let mut m = Matcher::<u64>::new(0);
    assert!(m.is_empty());
    m.solve();
    assert_eq!(m.mates(), Vec::<Option<usize>>::new());
    assert_eq!(m.total_weight(), 0);

    let mut m = Matcher::<u64>::new(1);
    m.solve();
    assert_eq!(m.mates(), vec![None]);

    let mut m = Matcher::<u128>::new(3);
    m.solve();
    assert_eq!(m.mates(), vec![None; 3]);
    m.set_weight(0, 2, 9);
    m.solve();
    assert_eq!(m.mates(), vec![Some(2), None, Some(0)]);
    assert_eq!(m.total_weight(), 9);
    m.verify().unwrap();
}

#[test]
fn blossom_example() {
    // A heavy triangle 0-1-2 with pendant edges: the optimum must leave the triangle once.
    let mut m = Matcher::<u64>::new(6);
    for (a, b, w) in [
        (0, 1, 10),
        (1, 2, 10),
        (0, 2, 10),
        (2, 3, 4),
        (0, 4, 3),
        (1, 5, 2),
        (3, 4, 6),
    ] {
        m.set_weight(a, b, w);
    }
    m.solve();
    m.verify().unwrap();
    // Unique optimum: 0-2 (10) + 1-5 (2) + 3-4 (6) = 18; any other triangle edge scores 16 at most.
    assert_eq!(m.total_weight(), 18);
    assert_eq!(m.mate(5), Some(1));
}

#[test]
fn zero_weight_edges_are_never_matched() {
    let mut m = Matcher::<u64>::new(4);
    m.set_weight(0, 1, 1);
    m.solve();
    assert_eq!(m.mates(), vec![Some(1), Some(0), None, None]);
    m.set_weight(0, 1, 0);
    m.solve();
    assert_eq!(m.mates(), vec![None; 4]);
    assert_eq!(m.total_weight(), 0);
}

#[test]
fn weight_limit_is_enforced() {
    let mut m = Matcher::<u64>::new(3);
    assert_eq!(Matcher::<u64>::WEIGHT_BITS, 60);
    assert!(m.try_set_weight(0, 1, (1 << 60) - 1).is_ok());
    assert_eq!(
        m.try_set_weight(0, 1, 1 << 60),
        Err(WeightError::TooLarge {
            bits: 61,
            max_bits: 60
        })
    );
    assert_eq!(
        *m.weight(0, 1),
        (1 << 60) - 1,
        "a refused weight changes nothing"
    );
    assert_eq!(m.try_set_weight(2, 2, 1), Err(WeightError::SelfLoop(2)));
    assert_eq!(
        m.try_set_weight(0, 3, 1),
        Err(WeightError::OutOfRange { vertex: 3, len: 3 })
    );
    assert_eq!(Matcher::<Wide<4>>::WEIGHT_BITS, 252);
    let mut w = Matcher::<Wide<4>>::new(2);
    assert!(w.try_set_weight(0, 1, Wide::ONE << 251).is_ok());
    assert!(w.try_set_weight(0, 1, Wide::ONE << 252).is_err());
    // At the limit the arithmetic still fits.
    let mut big = Matcher::<u64>::new(5);
    for i in 0..5 {
        for j in i + 1..5 {
            big.set_weight(i, j, (1 << 60) - 1 - (i * 5 + j) as u64);
        }
    }
    big.solve();
    big.verify().unwrap();
}

#[test]
#[should_panic(expected = "at most 124 are allowed")]
fn set_weight_panics_on_too_large_weight() {
    Matcher::<u128>::new(2).set_weight(0, 1, 1 << 124);
}

#[test]
#[should_panic(expected = "loop")]
fn set_weight_panics_on_loop() {
    Matcher::<u64>::new(2).set_weight(1, 1, 1);
}

#[test]
fn weights_are_symmetric() {
    let mut m = Matcher::<u64>::new(3);
    m.set_weight(2, 0, 7);
    assert_eq!(*m.weight(0, 2), 7);
    assert_eq!(*m.weight(2, 0), 7);
    assert_eq!(*m.weight(1, 1), 0);
}

/// Plays a sequence of calls: a dense random graph, then row changes of one or two vertices.
fn play(seed: u64, n: usize) -> Vec<Vec<Option<usize>>> {
    let mut rng = Rng(seed);
    let mut m = Matcher::<Wide<4>>::new(n);
    let wt = |r: &mut Rng| {
        // Few distinct values: many ties, so determinism is actually tested.
        if r.below(4) == 0 {
            Wide::ZERO
        } else {
            (Wide::from_u64(r.below(3)) << 140) | r.below(3)
        }
    };
    for i in 0..n {
        for j in i + 1..n {
            m.set_weight(i, j, wt(&mut rng));
        }
    }
    m.solve();
    let mut out = vec![m.mates()];
    for step in 0..25 {
        for v in [rng.below(n as u64) as usize, rng.below(n as u64) as usize]
            .iter()
            .take(1 + step % 2)
        {
            for u in 0..n {
                if u != *v {
                    m.set_weight(*v, u, wt(&mut rng));
                }
            }
        }
        m.solve();
        m.verify().unwrap();
        out.push(m.mates());
    }
    out
}

#[test]
fn identical_call_sequences_give_identical_matchings() {
    for (seed, n) in [(1u64, 10usize), (2, 31), (3, 64), (4, 101)] {
        let a = play(seed, n);
        let b = play(seed, n);
        assert_eq!(a, b);
        // Replaying on another thread gives the same too.
        let c = std::thread::spawn(move || play(seed, n)).join().unwrap();
        assert_eq!(a, c);
    }
}

#[test]
fn repeated_solve_without_changes_keeps_the_matching() {
    let mut rng = Rng(99);
    let n = 50;
    let mut m = Matcher::<u64>::new(n);
    for i in 0..n {
        for j in i + 1..n {
            m.set_weight(i, j, rng.below(10));
        }
    }
    m.solve();
    let first = m.mates();
    m.solve();
    assert_eq!(m.mates(), first);
    // Setting a weight to its current value is not a change either.
    m.set_weight(3, 4, *m.weight(3, 4));
    m.solve();
    assert_eq!(m.mates(), first);
}

#[test]
fn engine_like_usage_changing_one_vertex_at_a_time() {
    let mut rng = Rng(2024);
    let n = 120;
    let mut m = Matcher::<Wide<4>>::new(n);
    let wt = |r: &mut Rng| {
        if r.below(10) == 0 {
            Wide::ZERO
        } else {
            (Wide::from_u64(1 + r.below(2)) << 200)
                | (Wide::from_u64(r.below(1000)) << 100)
                | r.next()
        }
    };
    for i in 0..n {
        for j in i + 1..n {
            m.set_weight(i, j, wt(&mut rng));
        }
    }
    m.solve();
    m.verify().unwrap();
    for step in 0..n {
        let v = (step * 7) % n;
        for u in 0..n {
            if u != v {
                m.set_weight(v, u, wt(&mut rng));
            }
        }
        m.solve();
        m.verify().unwrap();
    }
    // The last state, solved from scratch on a fresh matcher, has the same optimum.
    let mut f = Matcher::<Wide<4>>::new(n);
    for i in 0..n {
        for j in i + 1..n {
            f.set_weight(i, j, *m.weight(i, j));
        }
    }
    f.solve_from_scratch();
    assert_eq!(f.total_weight(), m.total_weight());
}

fn random_graph(n: usize, seed: u64) -> Matcher<Wide<4>> {
    let mut rng = Rng(seed);
    let mut m = Matcher::<Wide<4>>::new(n);
    for i in 0..n {
        for j in i + 1..n {
            let w = if rng.below(8) == 0 {
                Wide::ZERO
            } else {
                (Wide::from_u64(1 + rng.below(3)) << 150) | rng.below(1000)
            };
            m.set_weight(i, j, w);
        }
    }
    m.solve();
    m
}

fn scratch_total(m: &Matcher<Wide<4>>) -> Wide<4> {
    let n = m.len();
    let mut f = Matcher::<Wide<4>>::new(n);
    for i in 0..n {
        for j in i + 1..n {
            f.set_weight(i, j, *m.weight(i, j));
        }
    }
    f.solve_from_scratch();
    f.total_weight()
}

/// Lowering the other edges of a vertex (and raising its matched edge) keeps the matching
/// optimal; the re-solve usually notices it without any search (a search remains necessary when
/// the vertex sat in a blossom with a positive dual, whose base pair dissolving it unmatches).
#[test]
fn locking_a_pair_rarely_needs_a_search() {
    let n = 80;
    let mut m = random_graph(n, 5);
    let mut without_search = 0;
    for v in 0..n {
        let before = m.mates();
        let mate = m.mate(v);
        for u in 0..n {
            if u != v && Some(u) != mate {
                let w = *m.weight(v, u) >> 1;
                m.set_weight(v, u, w);
            }
        }
        if let Some(u) = mate {
            let w = *m.weight(v, u) + Wide::from_u64(7);
            m.set_weight(v, u, w);
        }
        m.solve();
        m.verify().unwrap();
        let st = m.last_solve_stats();
        assert!(st.incremental);
        if st.searches == 0 {
            without_search += 1;
            assert_eq!(m.mates(), before);
        }
        assert_eq!(m.mate(v), mate);
    }
    assert_eq!(m.total_weight(), scratch_total(&m));
    assert!(
        without_search >= n * 3 / 4,
        "{without_search} of {n} without search"
    );
}

/// Forbidding the current pair of each vertex in turn.
#[test]
fn forbidding_pairs_one_at_a_time() {
    let n = 60;
    let mut m = random_graph(n, 6);
    for v in 0..n {
        if let Some(u) = m.mate(v) {
            m.set_weight(v, u, Wide::ZERO);
            m.solve();
            m.verify().unwrap();
            assert!(m.last_solve_stats().incremental);
            assert_ne!(m.mate(v), Some(u));
            assert_eq!(m.total_weight(), scratch_total(&m));
        }
    }
}

#[test]
fn solve_from_scratch_agrees_with_solve() {
    let mut m = random_graph(45, 11);
    let mut rng = Rng(12);
    for _ in 0..20 {
        let v = rng.below(45) as usize;
        for u in 0..45 {
            if u != v {
                m.set_weight(v, u, Wide::from_u64(rng.below(50)) << 100);
            }
        }
        let mut again = m.clone();
        m.solve();
        again.solve_from_scratch();
        assert!(m.last_solve_stats().incremental);
        assert!(!again.last_solve_stats().incremental);
        again.verify().unwrap();
        assert_eq!(m.total_weight(), again.total_weight());
        // The clone, re-solved incrementally afterwards, stays optimal too.
        m = again;
    }
}

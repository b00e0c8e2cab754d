//! Solve times on dense graphs: from scratch, and per incremental re-solve after the edges of
//! one vertex change (the pairing engine's pattern).
//!
//! `cargo bench -p arbiter-matching [-- sizes...]`, e.g. `-- 100 300`.

use arbiter_matching::{Matcher, SolveStats, Wide};
use std::time::{Duration, Instant};

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

type W = Wide<4>;

/// Weight models: independent random 240-bit values, and lexicographic bit fields with few
/// distinct values per field (many ties, as pairing criteria produce) and 10% missing edges.
#[derive(Clone, Copy)]
enum Model {
    Random,
    Fields,
}

fn weight(model: Model, r: &mut Rng) -> W {
    match model {
        Model::Random => Wide([r.next(), r.next(), r.next(), r.next() >> 16]),
        Model::Fields => {
            if r.below(10) == 0 {
                W::ZERO
            } else {
                (W::from_u64(1 + r.below(4)) << 200)
                    | (W::from_u64(r.below(16)) << 150)
                    | (W::from_u64(r.below(100)) << 80)
                    | r.below(1 << 20)
            }
        }
    }
}

/// What changes between re-solves, always around one vertex `v`.
#[derive(Clone, Copy)]
enum Edit {
    /// Every edge of `v` gets a fresh random weight.
    NewRow,
    /// The edge from `v` to its mate is removed.
    Forbid,
    /// Every other edge of `v` is halved (the current pair stays optimal).
    Lock,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn build(m: usize, model: Model) -> (Matcher<W>, Rng) {
    let mut rng = Rng(0x5eed_0000 + m as u64);
    let mut matcher = Matcher::<W>::new(m);
    for i in 0..m {
        for j in i + 1..m {
            matcher.set_weight(i, j, weight(model, &mut rng));
        }
    }
    (matcher, rng)
}

fn run(m: usize, model: Model, edit: Edit, name: &str) {
    let (mut matcher, mut rng) = build(m, model);
    let t = Instant::now();
    matcher.solve();
    let scratch = t.elapsed();
    let scratch_stats = matcher.last_solve_stats();

    let resolves = m.min(300);
    let mut times = Vec::with_capacity(resolves);
    let mut work = SolveStats::default();
    for k in 0..resolves {
        let v = (k * 7919) % m;
        match edit {
            Edit::NewRow => {
                for u in 0..m {
                    if u != v {
                        matcher.set_weight(v, u, weight(model, &mut rng));
                    }
                }
            }
            Edit::Forbid => {
                if let Some(u) = matcher.mate(v) {
                    matcher.set_weight(v, u, W::ZERO);
                }
            }
            Edit::Lock => {
                let mate = matcher.mate(v);
                for u in 0..m {
                    if u != v && Some(u) != mate {
                        let w = *matcher.weight(v, u) >> 1;
                        matcher.set_weight(v, u, w);
                    }
                }
            }
        }
        let t = Instant::now();
        matcher.solve();
        times.push(t.elapsed());
        let st = matcher.last_solve_stats();
        work.searches += st.searches;
        work.scans += st.scans;
        work.dual_steps += st.dual_steps;
        work.blossoms += st.blossoms;
    }
    times.sort();
    let mean = times.iter().sum::<Duration>() / resolves as u32;
    let per = |x: usize| x as f64 / resolves as f64;
    println!(
        "{name:<16} m={m:>5}  scratch {:>8.2} ms ({:>5} row scans) | re-solve mean {:>7.3} ms, median {:>7.3}, max {:>7.3} ({:>3} runs; per run {:.1} searches, {:.0} row scans, {:.0} dual steps, {:.1} blossoms)",
        ms(scratch),
        scratch_stats.scans,
        ms(mean),
        ms(times[resolves / 2]),
        ms(times[resolves - 1]),
        resolves,
        per(work.searches),
        per(work.scans),
        per(work.dual_steps),
        per(work.blossoms),
    );
    // Keep the optimiser honest.
    assert!(matcher.total_weight() > W::ZERO);
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![100, 300, 1000]
    } else {
        sizes
    };
    println!("Matcher<Wide<4>>, dense graphs; times are wall-clock on this machine");
    for &m in &sizes {
        run(m, Model::Random, Edit::NewRow, "random/new-row");
        run(m, Model::Fields, Edit::NewRow, "fields/new-row");
        run(m, Model::Fields, Edit::Forbid, "fields/forbid");
        run(m, Model::Fields, Edit::Lock, "fields/lock");
    }
}

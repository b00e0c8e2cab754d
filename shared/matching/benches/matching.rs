//! Solve times on dense random graphs: from scratch, and per incremental re-solve after the edges
//! of one vertex change (the pairing engine's pattern).
//!
//! `cargo bench -p arbiter-matching [-- sizes...]`, e.g. `-- 100 300`.

use arbiter_matching::{Matcher, Wide};
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

/// Two weight models: independent random 240-bit values, and lexicographic bit fields with few
/// distinct values per field (many ties, as pairing criteria produce), 10% missing edges.
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn run(m: usize, model: Model, name: &str) {
    let mut rng = Rng(0x5eed_0000 + m as u64);
    let mut matcher = Matcher::<W>::new(m);
    for i in 0..m {
        for j in i + 1..m {
            matcher.set_weight(i, j, weight(model, &mut rng));
        }
    }
    let t = Instant::now();
    matcher.solve();
    let scratch = t.elapsed();
    let scratch_stats = matcher.last_solve_stats();
    let mut work = [0usize; 5];

    let resolves = m.min(300);
    let mut times = Vec::with_capacity(resolves);
    for k in 0..resolves {
        let v = (k * 7919) % m;
        for u in 0..m {
            if u != v {
                matcher.set_weight(v, u, weight(model, &mut rng));
            }
        }
        let t = Instant::now();
        matcher.solve();
        times.push(t.elapsed());
        let st = matcher.last_solve_stats();
        for (acc, x) in work.iter_mut().zip([
            st.searches,
            st.scans,
            st.dual_steps,
            st.blossoms,
            st.incremental as usize,
        ]) {
            *acc += x;
        }
    }
    times.sort();
    let mean = times.iter().sum::<Duration>() / resolves as u32;
    println!(
        "{name:>7} m={m:>5}  from scratch {:>9.2} ms   re-solve after one vertex: mean {:>7.3} ms  median {:>7.3} ms  max {:>7.3} ms  ({} re-solves)",
        ms(scratch),
        ms(mean),
        ms(times[resolves / 2]),
        ms(times[resolves - 1]),
        resolves,
    );
    let per = |x: usize| x as f64 / resolves as f64;
    println!(
        "{:>15}  work from scratch: {} searches, {} scans, {} dual steps, {} blossoms;  per re-solve: {:.1} searches, {:.0} scans, {:.0} dual steps, {:.1} blossoms, {:.0}% incremental",
        "",
        scratch_stats.searches,
        scratch_stats.scans,
        scratch_stats.dual_steps,
        scratch_stats.blossoms,
        per(work[0]),
        per(work[1]),
        per(work[2]),
        per(work[3]),
        100.0 * per(work[4]),
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
    println!("Matcher<Wide<4>>, dense graphs");
    for &m in &sizes {
        run(m, Model::Random, "random");
        run(m, Model::Fields, "fields");
    }
}

//! Pairs round 9 of generated Swiss fields of 100, 300, 1,000 and 3,000 players and prints the
//! median time and the peak memory of pairing that round.
//!
//! Each size runs in its own child process so that the peak resident memory (VmHWM) belongs
//! to that size alone. `cargo bench -p arbiter-pairing --bench pair_round [-- SIZES...]`.

use arbiter_pairing::simulate::Simulation;
use arbiter_pairing::{RuleSet, pair};
use std::time::Instant;

fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.to_string())
        })
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

fn run_one(n: u32, rule_set: RuleSet) {
    let mut sim = Simulation::new(n, 11, 20_261_121 + n as u64);
    sim.rule_set = rule_set;
    let t0 = Instant::now();
    let record = sim.play(8).expect("the simulated rounds pair");
    let setup = t0.elapsed();
    let input = record.input_for_round(9, rule_set).expect("round 9 input");
    let before = peak_kib();
    let reps = if n >= 3000 {
        3
    } else if n >= 1000 {
        5
    } else {
        9
    };
    let mut times = Vec::new();
    let mut boards = 0;
    for _ in 0..reps {
        let t = Instant::now();
        let p = pair(&input).expect("round 9 pairs");
        times.push(t.elapsed());
        boards = p.boards.len();
    }
    times.sort();
    let median = times[times.len() / 2];
    println!(
        "{rule_set} {n:>5} players, round 9: median {:>10.1} ms over {reps} runs ({boards} boards); peak memory {} MiB (before pairing {} MiB); 8 rounds simulated in {:.1} s",
        median.as_secs_f64() * 1e3,
        peak_kib() / 1024,
        before / 1024,
        setup.as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let rule_set: RuleSet = std::env::var("ARBITER_RULES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(RuleSet::Dutch2017);
    if let Ok(n) = std::env::var("ARBITER_BENCH_ONE") {
        run_one(n.parse().expect("size"), rule_set);
        return;
    }
    let sizes: Vec<u32> = if args.is_empty() {
        vec![100, 300, 1000, 3000]
    } else {
        args.iter().filter_map(|a| a.parse().ok()).collect()
    };
    let exe = std::env::current_exe().expect("own path");
    for n in sizes {
        let status = std::process::Command::new(&exe)
            .env("ARBITER_BENCH_ONE", n.to_string())
            .env("ARBITER_RULES", rule_set.name())
            .status()
            .expect("child bench");
        assert!(status.success(), "bench for {n} players failed");
    }
}

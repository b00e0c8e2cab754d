//! Pairing at scale: generated fields of 100 to 9,999 players, rounds 1, 5 and 9 of nine, with
//! forfeits, withdrawals and half-point byes, paired under both rule sets. Prints per case the
//! median time, the peak resident memory and the growth exponent of the time between sizes.
//!
//! ```text
//! cargo bench -p arbiter-pairing --bench scale -- [--max-players N] [--sizes 100,1000]
//!     [--rounds 1,5,9] [--rules dutch-2017,dutch-2025] [--reps K] [--timeout SECONDS]
//!     [--profile]
//! ```
//!
//! `--profile` also pairs each case once more with the engine's solves recorded by step
//! ([`arbiter_pairing::profile`]) and prints, after the table, where the time went.
//!
//! One case alone: `ARBITER_SCALE_CASE=players:round:rule-set:reps` runs it in this process;
//! `ARBITER_SCALE_DIGEST=1` then also prints a fingerprint of the pairing, to check that two
//! builds pair a field no reference engine can pair identically.
//!
//! Each case runs in its own child process, so that its peak memory (VmHWM) is its own and a
//! case over the time limit can be stopped. The history before the paired round is played
//! with the simulation's greedy pairer for the Dutch rule sets (the engine itself would take
//! longer than the case), with the system's own engine for `--rules dubov,burstein,lim` (so
//! their peak memory includes the history's rounds, and the time limit covers them).

use arbiter_pairing::simulate::{Pairer, Simulation};
use arbiter_pairing::{RuleSet, pair, profile};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SIZES: [u32; 5] = [100, 1000, 2000, 5000, 9999];
const ROUNDS: [u32; 3] = [1, 5, 9];
const TOTAL_ROUNDS: u32 = 9;

fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

/// The field of `n` players ready for round `round`: 1% withdraw at a random round, 2% of
/// player-rounds are announced half-point byes, 3% of games are forfeited. A Dutch rule set's
/// history is played by the greedy pairer; Dubov's, Burstein's and Lim's by the system's own
/// engine, whose colour limits (C.04.1.f/g as each words them, with no last-round exception)
/// a greedy history breaks, leaving rounds no engine of theirs may pair.
fn field(n: u32, rule_set: RuleSet) -> Simulation {
    let seed = 20_261_125 + n as u64;
    let mut sim = Simulation::new(n, TOTAL_ROUNDS, seed);
    sim.rule_set = rule_set;
    sim.pairer = match rule_set {
        RuleSet::Dutch2017 | RuleSet::Dutch2025 => Pairer::Greedy,
        RuleSet::Dubov | RuleSet::Burstein | RuleSet::BursteinBbp | RuleSet::Lim => Pairer::Engine,
    };
    sim.half_bye_permille = 20;
    sim.forfeit_permille = 30;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5ca1e);
    sim.withdrawals = (0..n / 100)
        .map(|_| (rng.random_range(1..=n), rng.random_range(2..=TOTAL_ROUNDS)))
        .collect();
    sim
}

/// Child: pairs one case `reps` times and prints `median_ms boards peak_kib`.
fn run_case(n: u32, round: u32, rule_set: RuleSet, reps: usize) {
    let sim = field(n, rule_set);
    let record = sim.before_round(round).expect("the generated history");
    let input = record
        .input_for_round(round, rule_set)
        .expect("the round's input");
    let sparse_from = std::env::var("ARBITER_SCALE_SPARSE_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(arbiter_matching::SPARSE_FROM);
    arbiter_matching::with_sparse_from(sparse_from, || pair_case(&input, reps));
}

fn pair_case(input: &arbiter_pairing::PairingInput, reps: usize) {
    let mut times = Vec::with_capacity(reps);
    let mut boards = 0;
    for _ in 0..reps {
        let t = Instant::now();
        let p = pair(input).expect("the round pairs");
        times.push(t.elapsed());
        boards = p.boards.len();
    }
    times.sort();
    println!(
        "{:.3} {boards} {}",
        times[times.len() / 2].as_secs_f64() * 1e3,
        peak_kib()
    );
    if std::env::var_os("ARBITER_SCALE_DIGEST").is_some() {
        // A fingerprint of the whole pairing, to compare two builds on fields no reference
        // engine pairs: FNV-1a over its Debug form.
        let p = pair(input).expect("the round pairs");
        let digest = format!("{:?}", p)
            .bytes()
            .fold(0xcbf29ce484222325u64, |h, b| {
                (h ^ b as u64).wrapping_mul(0x100000001b3)
            });
        println!("digest {digest:016x}");
    }
    if std::env::var_os("ARBITER_SCALE_PROFILE").is_some() {
        let (_, prof) = profile::record(|| pair(input).expect("the round pairs"));
        for (step, c) in &prof.steps {
            println!(
                "| {step} | {} ({} from scratch) | {:.0} ms | {} | {} | {} | {} | {} | {} ({}) |",
                c.solves,
                c.from_scratch,
                c.time.as_secs_f64() * 1e3,
                c.searches,
                c.scans,
                c.cells,
                c.dual_steps,
                c.blossoms,
                c.pricing_rounds,
                c.priced_in
            );
        }
        for (what, n) in &prof.counts {
            println!("| {what}: {n} | | | | | | | | |");
        }
    }
}

struct Options {
    sizes: Vec<u32>,
    rounds: Vec<u32>,
    rules: Vec<RuleSet>,
    reps: Option<usize>,
    timeout: Duration,
    profile: bool,
    sparse_from: Option<usize>,
}

fn list<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Vec<T> {
    let v = v.unwrap_or_else(|| panic!("{flag} needs a value"));
    v.split(',')
        .map(|x| {
            x.trim()
                .parse()
                .unwrap_or_else(|_| panic!("{flag}: {x:?} is not a valid value"))
        })
        .collect()
}

fn options() -> Options {
    let mut o = Options {
        sizes: SIZES.to_vec(),
        rounds: ROUNDS.to_vec(),
        rules: vec![RuleSet::Dutch2017, RuleSet::Dutch2025],
        reps: None,
        timeout: Duration::from_secs(300),
        profile: false,
        sparse_from: None,
    };
    let mut max_players = u32::MAX;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--max-players" => max_players = list::<u32>(&a, args.next())[0],
            "--sizes" => o.sizes = list(&a, args.next()),
            "--rounds" => o.rounds = list(&a, args.next()),
            "--rules" => o.rules = list(&a, args.next()),
            "--reps" => o.reps = Some(list::<usize>(&a, args.next())[0]),
            "--timeout" => o.timeout = Duration::from_secs(list::<u64>(&a, args.next())[0]),
            "--profile" => o.profile = true,
            "--sparse-from" => o.sparse_from = Some(list::<usize>(&a, args.next())[0]),
            // cargo bench passes --bench.
            "--bench" => {}
            _ => panic!(
                "unknown argument {a:?}: expected --max-players, --sizes, --rounds, --rules, \
                 --reps, --timeout or --profile"
            ),
        }
    }
    o.sizes.retain(|&n| n <= max_players);
    for &r in &o.rounds {
        assert!(
            (1..=TOTAL_ROUNDS).contains(&r),
            "--rounds: {r} is not a round of 1..={TOTAL_ROUNDS}"
        );
    }
    o
}

enum Outcome {
    Done {
        ms: f64,
        boards: u64,
        kib: u64,
        /// Table rows of the solves by step (with `--profile`).
        profile: Vec<String>,
    },
    TimedOut,
    Failed(String),
}

fn spawn_case(n: u32, round: u32, rule_set: RuleSet, reps: usize, o: &Options) -> Outcome {
    let exe = std::env::current_exe().expect("own path");
    let mut cmd = Command::new(exe);
    cmd.env(
        "ARBITER_SCALE_CASE",
        format!("{n}:{round}:{rule_set}:{reps}"),
    );
    if o.profile {
        cmd.env("ARBITER_SCALE_PROFILE", "1");
    }
    if let Some(n) = o.sparse_from {
        cmd.env("ARBITER_SCALE_SPARSE_FROM", n.to_string());
    }
    let timeout = o.timeout;
    let mut child = cmd.stdout(Stdio::piped()).spawn().expect("child bench");
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("child status") {
            let mut out = String::new();
            use std::io::Read;
            child
                .stdout
                .take()
                .expect("piped")
                .read_to_string(&mut out)
                .expect("child output");
            if !status.success() {
                return Outcome::Failed(format!("{status}"));
            }
            let mut lines = out.lines();
            let f: Vec<&str> = lines
                .next()
                .unwrap_or_default()
                .split_whitespace()
                .collect();
            return Outcome::Done {
                ms: f[0].parse().expect("time"),
                boards: f[1].parse().expect("boards"),
                kib: f[2].parse().expect("peak"),
                profile: lines.map(str::to_string).collect(),
            };
        }
        if t0.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Outcome::TimedOut;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn main() {
    if let Ok(case) = std::env::var("ARBITER_SCALE_CASE") {
        let f: Vec<&str> = case.split(':').collect();
        run_case(
            f[0].parse().expect("size"),
            f[1].parse().expect("round"),
            f[2].parse().expect("rule set"),
            f[3].parse().expect("repetitions"),
        );
        return;
    }
    let o = options();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "scale bench: {} cores, load average {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut profiles = Vec::new();
    println!("| rule set | round | players | boards | median | peak RSS | growth exponent |");
    println!("|---|---|---|---|---|---|---|");
    for &rule_set in &o.rules {
        for &round in &o.rounds {
            let mut prev: Option<(u32, f64)> = None;
            for &n in &o.sizes {
                let reps = o.reps.unwrap_or(if n <= 1000 { 5 } else { 1 });
                let line = match spawn_case(n, round, rule_set, reps, &o) {
                    Outcome::Done {
                        ms,
                        boards,
                        kib,
                        profile,
                    } => {
                        profiles.push((format!("{rule_set}, round {round}, {n} players"), profile));
                        let growth = prev
                            .filter(|&(pn, pms)| pn < n && pms > 0.5)
                            .map(|(pn, pms)| {
                                format!("{:.2}", (ms / pms).ln() / (n as f64 / pn as f64).ln())
                            })
                            .unwrap_or_default();
                        prev = Some((n, ms));
                        format!(
                            "| {boards} | {} | {:.0} MiB | {growth} |",
                            if ms >= 1000.0 {
                                format!("{:.2} s", ms / 1e3)
                            } else if ms >= 10.0 {
                                format!("{ms:.1} ms")
                            } else {
                                format!("{ms:.3} ms")
                            },
                            kib as f64 / 1024.0
                        )
                    }
                    Outcome::TimedOut => {
                        prev = None;
                        format!("| | > {} s (stopped) | | |", o.timeout.as_secs())
                    }
                    Outcome::Failed(e) => {
                        prev = None;
                        format!("| | failed: {e} | | |")
                    }
                };
                println!("| {rule_set} | {round} | {n} {line}");
            }
        }
    }
    if o.profile {
        println!();
        println!("Where the time goes: the matcher's solves by step of the engine.");
        for (case, rows) in profiles {
            println!();
            if rows.is_empty() {
                println!(
                    "{case}: no matching solved (round 1 without history is paired by arithmetic)."
                );
                continue;
            }
            println!("{case}:");
            println!();
            println!(
                "| step | solves | time | searches | row scans | cells | dual steps | blossoms | pricing rounds (edges priced in) |"
            );
            println!("|---|---|---|---|---|---|---|");
            for r in rows {
                println!("{r}");
            }
        }
    }
}

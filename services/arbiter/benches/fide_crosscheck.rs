//! The endorsement cross-check campaign in full: per system and field size, N tournaments from
//! `arbiter generate` judged by gacrux's pairing and tie-break checkers, and N from gacrux's
//! generator judged by `arbiter check` (pairings and every tie-break). Prints one row per cell
//! and every disagreement found.
//!
//! ```sh
//! pip install gacrux==1.11.65
//! cargo bench --profile test -p arbiter --bench fide_crosscheck -- [--count N] [--jobs J]
//!     [--only ours|ours-dutch|theirs|teams] [--sizes 9,16,30,51] [--keep DIR] [--with-game-counts] [--bbp PATH]
//!     [--arbiter PATH] [--first-seed S]
//! ```
//!
//! `--first-seed S`: each cell's seeds are `S..S+count` (default: 1 for arbiter's generator, 0
//! for gacrux's and bbpPairings'), so that successive runs judge different tournaments.
//!
//! `--arbiter PATH`: the binary to judge (default: this build's), e.g. a copy, so that a long
//! run is not disturbed by rebuilding.
//!
//! `--bbp PATH`: a bbpPairings v5.0.1 built from its public sources (never shipped with
//! arbiter), whose Dutch rules are the 2017 text: it judges the `dutch-2017` cells (written as
//! TRF16) and its generator's tournaments are judged by `arbiter check`.
//!
//! The cells of the test sample (services/arbiter/tests/e2e/crosscheck) at a larger scale and
//! over more field sizes; `--count` tournaments per cell (default 100).

#[path = "../tests/e2e/crosscheck/campaign.rs"]
mod campaign;

use campaign::{Cell, Source, Tally, Tools, run_cell};
use std::time::Instant;

struct Args {
    count: u64,
    jobs: usize,
    only: Option<String>,
    sizes: Vec<u32>,
    keep: Option<std::path::PathBuf>,
    with_game_counts: bool,
    bbp: Option<std::path::PathBuf>,
    arbiter: Option<std::path::PathBuf>,
    first_seed: Option<u64>,
}

fn args() -> Args {
    let mut a = Args {
        count: 100,
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
        only: None,
        sizes: vec![9, 16, 30, 51],
        keep: None,
        with_game_counts: false,
        bbp: None,
        arbiter: None,
        first_seed: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag}: a value"));
        match flag.as_str() {
            "--count" => a.count = value().parse().expect("--count N"),
            "--jobs" => a.jobs = value().parse().expect("--jobs J"),
            "--only" => a.only = Some(value()),
            "--sizes" => {
                a.sizes = value()
                    .split(',')
                    .map(|s| s.parse().expect("--sizes 9,16,..."))
                    .collect()
            }
            "--keep" => a.keep = Some(value().into()),
            "--with-game-counts" => a.with_game_counts = true,
            "--bbp" => a.bbp = Some(value().into()),
            "--arbiter" => a.arbiter = Some(value().into()),
            "--first-seed" => a.first_seed = Some(value().parse().expect("--first-seed S")),
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    a
}

fn cells(a: &Args) -> Vec<Cell> {
    let ours = |system, args: Vec<&'static str>, players, count| Cell {
        source: Source::Ours { system, args },
        players,
        rounds: None,
        first_seed: a.first_seed.unwrap_or(1),
        count,
        with_game_counts: a.with_game_counts,
        chess_json: false,
    };
    let theirs = |accelerated, players: u32, count| Cell {
        source: Source::Gacrux { accelerated },
        players,
        // gacrux's generator needs the number: ⌈log2 n⌉ + 2, as ours defaults to.
        rounds: Some((u32::BITS - (players - 1).leading_zeros() + 2).min(11)),
        first_seed: a.first_seed.unwrap_or(0),
        count,
        with_game_counts: false,
        chess_json: false,
    };
    let heavy = campaign::HEAVY.to_vec();
    let mut out = Vec::new();
    let n = a.count;
    if !matches!(a.only.as_deref(), Some("theirs") | Some("teams")) {
        for &p in &a.sizes {
            out.push(ours("dutch-2025", vec![], p, n));
            out.push(ours("dutch-2025", vec!["--unrated", "0"], p, n));
            out.push(ours("dutch-2025", heavy.clone(), p, n));
            out.push(ours("dutch-2025", vec!["--scoring", "3:1"], p, n / 4));
            if p >= 16 {
                out.push(ours("dutch-2025-baku", vec![], p, n));
            }
            for system in ["burstein", "dubov", "lim"] {
                out.push(ours(system, vec![], p, n / 4));
            }
            // Judged by bbpPairings when given (its checker reads TRF16), else tie-breaks only.
            let (trf16, count) = if a.bbp.is_some() {
                (vec!["--format", "trf16"], n)
            } else {
                (vec![], n / 4)
            };
            out.push(ours("dutch-2017", trf16.clone(), p, count));
            if p >= 16 && a.bbp.is_some() {
                out.push(ours("dutch-2017-baku", trf16, p, count));
            }
        }
        for p in [5, 8, 9, 12] {
            out.push(ours("round-robin", vec![], p, n / 4));
        }
        for p in [4, 6, 7] {
            out.push(ours("double-round-robin", vec![], p, n / 4));
        }
    }
    // FIDE's team Swiss, each colour model, over team fields of 7 to 40 (`--only teams` runs
    // these alone): `count` events per model and field, a quarter of them ranked by game
    // points, a quarter with forfeited matches; each also through Chess-JSON both ways.
    if matches!(a.only.as_deref(), None | Some("ours") | Some("teams")) {
        for system in ["fide-team-a", "fide-team-b", "fide-team-none"] {
            for p in [7, 10, 16, 25, 40] {
                for (args, count) in [
                    (vec![], n / 2),
                    (vec!["--game-points"], n / 4),
                    (vec!["--forfeits", "60"], n / 4),
                ] {
                    // Every team event also through Chess-JSON both ways.
                    out.push(Cell {
                        chess_json: true,
                        ..ours(system, args, p, count)
                    });
                }
            }
        }
    }
    if a.only.as_deref() == Some("teams") {
        out.retain(|c| c.gacrux_team_method().is_some());
    }
    if !matches!(
        a.only.as_deref(),
        Some("ours") | Some("ours-dutch") | Some("teams")
    ) {
        for &p in &a.sizes {
            out.push(theirs(false, p, n));
            if p >= 12 {
                out.push(theirs(true, p, n));
            }
        }
        // bbpPairings' generator chooses its own field sizes and lengths.
        if a.bbp.is_some() {
            out.push(Cell {
                source: Source::Bbp,
                players: 0,
                rounds: None,
                first_seed: a.first_seed.unwrap_or(1),
                count: n,
                with_game_counts: false,
                chess_json: false,
            });
        }
    }
    // The Dutch cells of arbiter's side alone: those whose every round the other side's
    // pairing checker judges (the 50,000 of C.04.A's scale).
    if a.only.as_deref() == Some("ours-dutch") {
        out.retain(
            |c| matches!(&c.source, Source::Ours { system, .. } if system.starts_with("dutch")),
        );
    }
    out.retain(|c| c.count > 0);
    out
}

fn main() {
    let a = args();
    let mut tools = Tools::new(
        a.arbiter
            .clone()
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_arbiter").into()),
        a.bbp.clone(),
    );
    tools.check().unwrap_or_else(|e| panic!("{e}"));
    let root = a.keep.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("arbiter-fide-crosscheck-{}", std::process::id()))
    });
    println!(
        "| cell | players | tournaments | rounds judged | rounds agreeing | values compared | values agreeing | files disagreeing | seconds |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut total = Tally::default();
    let started = Instant::now();
    for (k, cell) in cells(&a).iter().enumerate() {
        let t0 = Instant::now();
        let dir = root.join(format!("{k:03}"));
        let t = run_cell(&tools, cell, &dir, a.jobs)
            .unwrap_or_else(|e| panic!("{}: {e}", cell.label()));
        row(&cell.label(), &cell.players.to_string(), &t, t0.elapsed());
        // Each finding at once, under its cell's row, so a long run can be read as it goes.
        for f in &t.findings {
            println!("|   finding: {f} |");
        }
        total.add(&t);
        if a.keep.is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    row("total", "", &total, started.elapsed());
    if total.chess_json > 0 {
        println!(
            "team events through Chess-JSON both ways unchanged: {}",
            total.chess_json
        );
    }
}

fn row(label: &str, players: &str, t: &Tally, took: std::time::Duration) {
    println!(
        "| {label} | {players} | {} | {} | {} | {} | {} | {} | {:.0} |",
        t.tournaments,
        t.rounds,
        t.rounds_agreeing,
        t.values,
        t.values_agreeing,
        t.findings.len(),
        took.as_secs_f64()
    );
}

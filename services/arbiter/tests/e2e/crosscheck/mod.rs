//! The endorsement cross-check in small (the `fide_crosscheck` bench runs it in full): 200
//! tournaments from `arbiter generate` pass gacrux's pairing and tie-break checkers, and 200
//! from gacrux's generator pass `arbiter check`, pairings and every tie-break. Small fields and
//! few rounds keep it to about a minute on two cores.

pub mod campaign;

use campaign::{Cell, Source, Tally, Tools, run_cell};

fn tools() -> Tools {
    let tools = Tools {
        arbiter: env!("CARGO_BIN_EXE_arbiter").into(),
        python: "python3".into(),
    };
    tools.check().unwrap_or_else(|e| panic!("{e}"));
    tools
}

fn run(cells: &[Cell], name: &str) -> Tally {
    let tools = tools();
    let dir =
        std::env::temp_dir().join(format!("arbiter-crosscheck-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut total = Tally::default();
    for (k, cell) in cells.iter().enumerate() {
        let t = run_cell(&tools, cell, &dir.join(k.to_string()), 2)
            .unwrap_or_else(|e| panic!("{}: {e}", cell.label()));
        total.add(&t);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        total.findings.is_empty(),
        "{} of {} tournaments disagree:\n{}",
        total.findings.len(),
        total.tournaments,
        total.findings.join("\n")
    );
    total
}

fn ours(system: &'static str, args: &[&'static str], players: u32, count: u64) -> Cell {
    Cell {
        source: Source::Ours {
            system,
            args: args.to_vec(),
        },
        players,
        rounds: None,
        first_seed: 1,
        count,
        with_won: false,
    }
}

fn theirs(accelerated: bool, players: u32, rounds: u32, count: u64) -> Cell {
    Cell {
        source: Source::Gacrux { accelerated },
        players,
        rounds: Some(rounds),
        first_seed: 0,
        count,
        with_won: false,
    }
}

#[test]
fn two_hundred_generated_tournaments_pass_the_fide_tec_checkers() {
    let cells = [
        ours("dutch-2025", &[], 9, 30),
        ours("dutch-2025", &["--unrated", "0"], 16, 40),
        ours("dutch-2025", &[], 24, 30),
        ours("dutch-2025-baku", &[], 30, 20),
        ours("dutch-2025", &["--scoring", "3:1"], 14, 20),
        // Many byes, withdrawals, forfeits and unusual results.
        ours(
            "dutch-2025",
            &[
                "--half-byes",
                "120",
                "--zero-byes",
                "60",
                "--withdrawals",
                "30",
                "--forfeits",
                "60",
                "--unusual",
                "30",
            ],
            19,
            30,
        ),
        // The tie-breaks of the other systems (gacrux pairs only the Dutch system).
        ours("dutch-2017", &[], 12, 5),
        ours("burstein", &[], 12, 5),
        ours("dubov", &[], 12, 5),
        ours("lim", &[], 12, 5),
        ours("round-robin", &[], 9, 5),
        ours("double-round-robin", &[], 6, 5),
    ];
    let t = run(&cells, "ours");
    assert_eq!(t.tournaments, 200);
    // Every Dutch 2025 round was judged by gacrux's pairing checker, and values were compared
    // in every file.
    assert!(t.rounds >= 170 * 5, "{} rounds judged", t.rounds);
    assert_eq!(t.rounds, t.rounds_agreeing);
    assert!(t.values >= 200 * 6 * 10, "{} values compared", t.values);
    assert_eq!(t.values, t.values_agreeing);
}

#[test]
fn two_hundred_tournaments_of_the_fide_tec_generator_pass_arbiter_check() {
    let cells = [
        theirs(false, 9, 5, 60),
        theirs(false, 20, 7, 70),
        theirs(false, 35, 7, 30),
        theirs(true, 14, 5, 40),
    ];
    let t = run(&cells, "theirs");
    assert_eq!(t.tournaments, 200);
    assert_eq!(t.rounds, 60 * 5 + 70 * 7 + 30 * 7 + 40 * 5);
    assert_eq!(t.rounds, t.rounds_agreeing);
    assert!(t.values >= 200 * 9 * 20, "{} values compared", t.values);
    assert_eq!(t.values, t.values_agreeing);
}

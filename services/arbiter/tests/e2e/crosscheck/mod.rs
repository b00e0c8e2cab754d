//! The endorsement cross-check in small (the `fide_crosscheck` bench runs it in full): 200
//! tournaments from `arbiter generate` pass gacrux's pairing and tie-break checkers, and 200
//! from gacrux's generator pass `arbiter check`, pairings and every tie-break. Small fields and
//! few rounds keep it to about a minute on two cores.

pub mod campaign;

use campaign::{Cell, Source, Tally, Tools, run_cell};

fn tools() -> Tools {
    let mut tools = Tools::new(env!("CARGO_BIN_EXE_arbiter").into(), None);
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
        with_game_counts: false,
        chess_json: false,
    }
}

fn theirs(accelerated: bool, players: u32, rounds: u32, count: u64) -> Cell {
    Cell {
        source: Source::Gacrux { accelerated },
        players,
        rounds: Some(rounds),
        first_seed: 0,
        count,
        with_game_counts: false,
        chess_json: false,
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
        ours("dutch-2025", &campaign::HEAVY, 19, 30),
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

/// FIDE's team Swiss (C.04.6), each colour model: every round of the generated team events
/// is paired by gacrux exactly as by arbiter (the same matches, colours and board order), and
/// every team's rank, points and tie-breaks in gacrux's table are arbiter's. Odd fields (the
/// bye), forfeited matches and game points as the primary score included. One event per model
/// (game points, forfeited matches) also goes through Chess-JSON both ways: gacrux's
/// conversion of the file imports, re-pairs and exports back with the same games, matches,
/// teams and standings.
#[test]
fn generated_team_swiss_rounds_equal_the_fide_tec_checkers_pairing_for_every_colour_model() {
    let mut cells = Vec::new();
    for system in ["fide-team-a", "fide-team-b", "fide-team-none"] {
        cells.push(ours(system, &[], 9, 5));
        cells.push(ours(system, &["--forfeits", "60"], 14, 4));
        cells.push(ours(system, &["--game-points"], 11, 2));
        cells.push(Cell {
            chess_json: true,
            ..ours(system, &["--game-points", "--forfeits", "100"], 11, 1)
        });
        cells.push(ours(system, &["--rounds", "9"], 20, 3));
    }
    let t = run(&cells, "teams");
    assert_eq!(t.tournaments, 3 * 15);
    assert_eq!(t.chess_json, 3);
    assert!(t.rounds >= 3 * 15 * 5, "{} rounds judged", t.rounds);
    assert_eq!(t.rounds, t.rounds_agreeing);
    // Every team's rank, points and five tie-breaks, in every event.
    assert!(t.values >= 3 * 15 * 9 * 7, "{} values compared", t.values);
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

/// Chess-JSON both ways with gacrux: its generator's tournaments, converted to Chess-JSON by
/// gacrux, are re-paired round by round by `arbiter check`, imported, and exported back as
/// Chess-JSON with the same players, points and games; gacrux reads the export back to the same
/// TRF player lines (the rank column aside: the export writes the computed standings where
/// gacrux's generator writes its seeding).
#[test]
fn chess_json_from_gacrux_imports_pairs_and_exports_back_identically() {
    use crate::common::{arbiter, arbiter_ok};
    use serde_json::Value;
    use std::collections::BTreeSet;
    let tools = tools();
    let dir = std::env::temp_dir().join(format!("arbiter-chess-json-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let gacrux = |module: &str, args: &[&str]| {
        let out = std::process::Command::new(&tools.python)
            .args(["-m", &format!("gacrux.{module}")])
            .args(args)
            .output()
            .expect("python3");
        assert!(
            out.status.success(),
            "gacrux.{module}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    gacrux(
        "tournamentgenerator",
        &[
            "-g",
            "0",
            "4",
            "-p",
            "15",
            "-N",
            "6",
            "-o",
            &p("g%d.trf"),
            "-F",
            "TRF",
        ],
    );
    gacrux(
        "tournamentgenerator",
        &[
            "-g",
            "4",
            "2",
            "-p",
            "24",
            "-N",
            "7",
            "-a",
            "-o",
            &p("g%d.trf"),
            "-F",
            "TRF",
        ],
    );
    let games = |doc: &Value| -> BTreeSet<String> {
        doc["event"]["tournaments"][0]["gameList"]
            .as_array()
            .expect("gameList")
            .iter()
            .map(|g| {
                let side = |s: &Value| format!("{}:{}", s["cid"], s["result"]);
                format!(
                    "r{} {} {} played={} rated={}",
                    g["round"],
                    side(&g["white"]),
                    if g["black"].is_null() {
                        "bye".into()
                    } else {
                        side(&g["black"])
                    },
                    g["played"],
                    g["rated"]
                )
            })
            .collect()
    };
    let players = |doc: &Value| -> BTreeSet<String> {
        let t = &doc["event"]["tournaments"][0];
        let profiles = doc["event"]["profiles"].as_array().expect("profiles");
        t["competitors"]
            .as_array()
            .expect("competitors")
            .iter()
            .map(|c| {
                let profile = profiles
                    .iter()
                    .find(|p| p["id"] == c["profileId"])
                    .expect("the competitor's profile");
                let points: f64 = match &c["gamePoints"] {
                    Value::String(s) => s.parse().expect("points"),
                    v => v.as_f64().expect("points"),
                };
                format!(
                    "{} {} {} {} {}",
                    c["cid"], profile["fideName"], profile["fideId"], c["rating"]["rating"], points
                )
            })
            .collect()
    };
    for k in 0..6 {
        let trf = p(&format!("g{k:04}.trf"));
        let json = p(&format!("g{k:04}.json"));
        gacrux("convert", &["-i", &trf, "-o", &json, "-F", "JSON"]);
        let check = arbiter(["check", &json, "--pairings-only"]);
        assert_eq!(check.code, 0, "{json}: {}{}", check.stdout, check.stderr);
        assert!(
            check.stdout.contains(" rounds identical (dutch-2025)"),
            "{}",
            check.stdout
        );
        let data = p(&format!("data{k}"));
        let imported = arbiter_ok(["import", &json, "--data", &data]);
        let id = imported
            .lines()
            .last()
            .expect("the tournament id")
            .trim()
            .to_string();
        let back = p(&format!("back{k}.json"));
        arbiter_ok([
            "export",
            &id,
            "--data",
            &data,
            "--format",
            "chess-json",
            "-o",
            &back,
        ]);
        let read = |f: &str| -> Value {
            serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap()
        };
        let (original, exported) = (read(&json), read(&back));
        assert_eq!(games(&original), games(&exported), "{json}: the games");
        assert_eq!(
            players(&original),
            players(&exported),
            "{json}: the players"
        );
        // gacrux reads the export back to the player lines it wrote, rank column aside.
        let back_trf = p(&format!("back{k}.trf"));
        gacrux(
            "convert",
            &["-i", &back, "-f", "JSON", "-o", &back_trf, "-F", "TRF"],
        );
        let lines = |f: &str| -> Vec<String> {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .filter(|l| l.starts_with("001"))
                .map(|l| {
                    format!(
                        "{}|{}",
                        &l[..84.min(l.len())],
                        l.get(90..).unwrap_or("").trim_end()
                    )
                })
                .collect()
        };
        assert_eq!(
            lines(&trf),
            lines(&back_trf),
            "{trf}: gacrux's reading of the export"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! `arbiter screen`: bad input is a clear error with a non-zero exit and no panic; a real
//! screening (Stockfish, the shipped quick profile) prints the documented JSON, identically on
//! a second run.

use arbiter_screening::selfplay::{PlayerSpec, Strength, play};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-screen-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn screen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("screen")
        .args(args)
        .output()
        .expect("run arbiter")
}

fn refused(out: &Output, code: i32, needles: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} missing from: {err}");
    }
    assert!(out.stdout.is_empty(), "nothing printed on failure");
}

fn write(d: &Path, name: &str, text: &[u8]) -> String {
    let p = d.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

#[test]
fn bad_input_is_named_and_refused() {
    let d = dir("bad");
    let illegal = write(&d, "illegal.pgn", b"[White \"Ann\"]\n[Black \"Bob\"]\n[Round \"3\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke6 4. O-O 1-0\n");
    refused(
        &screen(&[&illegal]),
        3,
        &[
            "illegal.pgn",
            "game 1 (Ann - Bob, round 3)",
            "ply 6 (3... Ke6)",
            "not legal",
        ],
    );

    let truncated = write(&d, "cut.pgn", b"[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 e5 1-0\n\n[White \"Cy\"]\n[Black \"Di\"]\n[Round \"2\"]\n\n1. d4 d5 2. c4 e6 3. Nc3");
    refused(
        &screen(&[&truncated]),
        3,
        &["cut.pgn", "game 2 (Cy - Di, round 2)", "truncated"],
    );

    let mut big = Vec::with_capacity(10 * 1024 * 1024);
    while big.len() < 10 * 1024 * 1024 {
        big.extend_from_slice(b"[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n");
    }
    let large = write(&d, "large.pgn", &big);
    refused(
        &screen(&[&large]),
        3,
        &["large.pgn", "larger than the 8388608-byte limit"],
    );

    let missing = d.join("no-such.pgn").display().to_string();
    refused(&screen(&[&missing]), 5, &["no-such.pgn", "cannot read"]);

    let empty = write(&d, "empty.pgn", b"\n\n");
    refused(&screen(&[&empty]), 3, &["empty.pgn", "no game found"]);

    let ok = write(&d, "ok.pgn", b"1. e4 e5 1-0\n");
    refused(&screen(&[&ok, "--format", "xml"]), 3, &["xml"]);

    // A baseline that is neither a file nor a shipped version: both named, with what is
    // shipped for the test asked for.
    refused(
        &screen(&[&ok, "--baseline", "no-such-version"]),
        5,
        &[
            "--baseline no-such-version",
            "not a shipped baseline version",
            "sf15.1-n20k-mpv3/human-2026.12.1",
        ],
    );
    refused(
        &screen(&[
            &ok,
            "--full",
            "--baseline",
            "sf15.1-n100k-mpv20/human-full-2026.12.9",
        ]),
        5,
        &[
            "not a shipped full-test baseline version",
            "sf15.1-n100k-mpv20/human-full-2026.12.3",
        ],
    );
    // The policy's order names the full test's baseline apart, and is not the full test.
    refused(
        &screen(&[&ok, "--then-full", "--full-baseline", "no-such-full"]),
        5,
        &[
            "--full-baseline no-such-full",
            "not a shipped full-test baseline version",
        ],
    );
    refused(&screen(&[&ok, "--then-full", "--full"]), 3, &["--full"]);
    refused(
        &screen(&[&ok, "--full-baseline", "x.json"]),
        3,
        &["--then-full"],
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_calibration_from_saved_games_refuses_a_game_outside_its_buckets() {
    let d = dir("calibrate");
    let out = d.join("b.json").display().to_string();
    let calibrate = |games: &str| {
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args([
                "screening-calibrate",
                "--players",
                "sampled",
                "--ratings",
                "1400,1600",
            ])
            .args(["--version", "test", "--out", &out, "--games", games])
            .output()
            .expect("run arbiter")
    };
    let stray = write(
        &d,
        "stray.pgn",
        b"[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"1400\"]\n\n1. e4 e5 1-0\n\n[White \"C\"]\n[Black \"D\"]\n[Round \"2\"]\n[WhiteElo \"1500\"]\n\n1. d4 d5 0-1\n",
    );
    refused(
        &calibrate(&stray),
        3,
        &[
            "stray.pgn",
            "game 2 (C - D, round 2)",
            "WhiteElo 1500 is not one of the buckets (1400,1600)",
        ],
    );
    let missing = d.join("no-such.pgn").display().to_string();
    refused(&calibrate(&missing), 5, &["no-such.pgn"]);
    // A national-scale file must be one of the human collections.
    let national = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "screening-calibrate",
            "--human",
            &stray,
            "--current-fide-scale",
        ])
        .args([
            "--national-scale",
            "club.pgn",
            "--version",
            "test",
            "--out",
            &out,
        ])
        .output()
        .expect("run arbiter");
    refused(
        &national,
        3,
        &["--national-scale: club.pgn is not one of the --human files"],
    );
    assert!(!Path::new(&out).exists(), "no artefact written");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_syntax_error_names_its_line_and_a_latin1_file_is_decoded_with_a_warning() {
    let d = dir("syntax");
    // Game 2's comment, opened on line 9, never ends: invalid input, not an unreadable file.
    let syntax = write(
        &d,
        "syntax.pgn",
        b"[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 e5 1-0\n\n[White \"Cy\"]\n[Black \"Di\"]\n\n1. d4 {a note\n2. c4 1-0\n",
    );
    refused(
        &screen(&[&syntax]),
        3,
        &["syntax.pgn: line 9, game 2: PGN syntax error", "comment"],
    );
    // Latin-1 names are read as such (not replaced), and the file is named in a warning.
    let latin1 = write(
        &d,
        "latin1.pgn",
        b"[White \"M\xfcller\"]\n[Black \"Bob\"]\n[Round \"1\"]\n\n1. e4 e5 2. Ke3 1-0\n",
    );
    let out = screen(&[&latin1]);
    refused(&out, 3, &["game 1 (Müller - Bob, round 1)", "not legal"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: ")
            && err.contains("latin1.pgn: the file is not valid UTF-8")
            && err.contains("Windows-1252 / Latin-1"),
        "{err}"
    );
    assert!(!err.contains('\u{FFFD}'), "{err}");
    // A UTF-8 file gets no such warning.
    let utf8 = write(
        &d,
        "utf8.pgn",
        "[White \"Müller\"]\n[Black \"Bob\"]\n\n1. e4 e5 2. Ke3 1-0\n".as_bytes(),
    );
    let out = screen(&[&utf8]);
    refused(&out, 3, &["Müller - Bob"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("UTF-8"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_collection_skips_variant_games_and_missing_results_with_a_warning() {
    let d = dir("skip");
    let mixed = write(
        &d,
        "mixed.pgn",
        b"[White \"Ann\"]\n[Black \"Bob\"]\n[Variant \"Atomic\"]\n\n1. e4 e5 1-0\n\n\
[White \"Cy\"]\n[Black \"Di\"]\n\n1. e4 e5\n\n\
[White \"Ed\"]\n[Black \"Flo\"]\n\n1. d4 d5 2. c4 0-1\n",
    );
    let out = screen(&[&mixed, "--format", "json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: skipped")
            && err.contains("game 1 (Ann - Bob")
            && err.contains("Atomic"),
        "{err}"
    );
    assert!(
        err.contains("game 2 (Cy - Di") && err.contains("no result"),
        "{err}"
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let players: Vec<&str> = rows
        .as_array()
        .expect("an array")
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    assert_eq!(players, vec!["Ed", "Flo"]);
    // A game keyed in from a wrong position (its first move is castling): left out and named,
    // or, with --strict, the whole file refused.
    let illegal = write(
        &d,
        "illegal-game.pgn",
        b"[White \"Gus\"]\n[Black \"Hal\"]\n[Round \"1\"]\n\n1. O-O e5 1-0\n\n\
[White \"Ed\"]\n[Black \"Flo\"]\n\n1. d4 d5 2. c4 0-1\n",
    );
    let out = screen(&[&illegal, "--format", "json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: skipped")
            && err.contains("game 1 (Gus - Hal, round 1)")
            && err.contains("ply 1 (1. O-O) is not legal"),
        "{err}"
    );
    refused(
        &screen(&[&illegal, "--strict"]),
        3,
        &["game 1 (Gus - Hal, round 1)", "not legal", "--strict"],
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn screening_prints_the_documented_json_and_repeats_it_exactly() {
    let d = dir("json");
    let engine =
        arbiter_screening::uci::find_engine(None).expect("Stockfish is installed (.ci/run)");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let p = |n: &str, r| PlayerSpec {
        name: n.into(),
        rating: r,
        // Reproducible games: Stockfish's own `UCI_Elo` weakening draws from a clock-seeded
        // generator, so its games (and how many of a player's moves the filter counts) change
        // from run to run; a short lopsided game once left a player with no counted move.
        strength: Strength::Sampled(u32::from(r)),
        nodes: 20_000,
    };
    let text = rt.block_on(async {
        let a = play(
            &engine,
            &p("Carla", 1700),
            &p("Dmitri", 2300),
            3,
            "cli",
            1,
            100,
        )
        .await
        .expect("game");
        let b = play(
            &engine,
            &p("Dmitri", 2300),
            &p("Carla", 1700),
            4,
            "cli",
            2,
            100,
        )
        .await
        .expect("game");
        a + &b
    });
    let file = write(&d, "round.pgn", text.as_bytes());
    let first = screen(&[&file, "--format", "json", "--workers", "2"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let rows: serde_json::Value = serde_json::from_slice(&first.stdout).expect("JSON");
    let rows = rows.as_array().expect("an array");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["player"], "Carla");
    assert_eq!(rows[1]["player"], "Dmitri");
    for r in rows {
        assert_eq!(r["games"], 2);
        assert!(
            r["z"].is_number() && r["counted"].as_u64().is_some_and(|n| n > 0),
            "{r}"
        );
        assert!(
            ["none", "watch"].contains(&r["flag"].as_str().expect("flag")),
            "{r}"
        );
        for k in [
            "mm_rate", "ev_rate", "t3_rate", "acpl", "asd", "z_mm", "z_asd",
        ] {
            assert!(r[k].is_number(), "{k} in {r}");
        }
        assert_eq!(r["versions"]["policy"], "levels-2026");
        assert_eq!(r["versions"]["engine_profile"], "sf15.1-n20k-mpv3");
    }
    assert_eq!(rows[0]["rating"], 1700);
    let second = screen(&[&file, "--format", "json", "--workers", "1"]);
    assert_eq!(
        first.stdout, second.stdout,
        "a second screening is bit-identical"
    );

    // The policy's order: the same quick rows, then the full test of the Watches alone.
    let ordered = screen(&[
        &file,
        "--format",
        "json",
        "--then-full",
        "--full-baseline",
        "sf15.1-n100k-mpv20/human-full-2026.12.3",
    ]);
    assert!(
        ordered.status.success(),
        "{}",
        String::from_utf8_lossy(&ordered.stderr)
    );
    let both: serde_json::Value = serde_json::from_slice(&ordered.stdout).expect("JSON");
    let quick: serde_json::Value = serde_json::from_slice(&first.stdout).expect("JSON");
    assert_eq!(both["quick"], quick);
    let watched: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| r["flag"] != "none")
        .map(|r| &r["player"])
        .collect();
    let full = both["full"].as_array().expect("an array");
    assert_eq!(
        full.iter().map(|r| &r["player"]).collect::<Vec<_>>(),
        watched
    );
    for r in full {
        assert_eq!(r["versions"]["engine_profile"], "sf15.1-n100k-mpv20");
        assert_eq!(r["field_size"], 2);
        assert!(r["ipr"].is_object(), "{r}");
    }

    // The same games dated before 1 March 2024: a baseline fitted on today's FIDE scale judges
    // Carla at her rating on it (1700 + 0.4 × 300), one fitted on ratings as tagged at 1700.
    let dated = write(
        &d,
        "2022.pgn",
        text.replace(
            "[Site \"self-play\"]",
            "[Site \"self-play\"]\n[Date \"2022.07.29\"]",
        )
        .as_bytes(),
    );
    let rating_under = |baseline: &str| {
        let out = screen(&[&dated, "--format", "json", "--baseline", baseline]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        (rows[0]["rating"].clone(), rows[1]["rating"].clone())
    };
    assert_eq!(
        rating_under("sf15.1-n20k-mpv3/human-2026.12.2"),
        (serde_json::json!(1820), serde_json::json!(2300))
    );
    assert_eq!(
        rating_under("sf15.1-n20k-mpv3/human-2026.12.1"),
        (serde_json::json!(1700), serde_json::json!(2300))
    );
    let _ = std::fs::remove_dir_all(&d);
}

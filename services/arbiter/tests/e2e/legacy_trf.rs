//! The legacy corpus (shared/trf/tests/legacy) through the binary: each file as an older
//! program writes it pairs, checks, ranks, imports and exports exactly as its normalised twin;
//! the warnings come on standard error (JSON lines with --format json); --strict refuses the
//! file naming line, columns, field and the mode that would read it.

use crate::common::{Run, arbiter, root};
use std::path::{Path, PathBuf};

fn corpus() -> Vec<(String, PathBuf, PathBuf)> {
    let dir = root().join("shared/trf/tests/legacy");
    let mut out: Vec<(String, PathBuf, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let name = p
                .file_name()?
                .to_str()?
                .strip_suffix(".twin.trf")?
                .to_string();
            Some((name.clone(), dir.join(format!("{name}.trf")), p))
        })
        .collect();
    out.sort();
    assert!(out.len() >= 16, "the corpus has {} files", out.len());
    out
}

fn run(args: &[&str], file: &Path) -> Run {
    let mut a: Vec<&std::ffi::OsStr> = args.iter().map(|s| s.as_ref()).collect();
    a.push(file.as_os_str());
    arbiter(a)
}

#[test]
fn each_variant_pairs_checks_and_ranks_as_its_twin() {
    for (name, variant, twin) in corpus() {
        // A round robin has no next round to pair, nor Dutch pairings to check.
        let swiss = !name.starts_with("round-robin");
        let commands: &[&[&str]] = if swiss {
            &[
                &["pair"],
                &["check"],
                &["standings"],
                &["standings", "--format", "json"],
            ]
        } else {
            &[&["standings"], &["standings", "--format", "json"]]
        };
        for &args in commands {
            let v = run(args, &variant);
            let t = run(args, &twin);
            assert_eq!(v.code, 0, "{name} {args:?}: {}{}", v.stdout, v.stderr);
            assert_eq!(v.stdout, t.stdout, "{name} {args:?}");
            assert_eq!(t.stderr, "", "{name} twin {args:?}");
        }
        // Every round of the corpus was paired by the engine: the checker, treating withdrawn
        // players and colourless forfeits as the endorsed checkers do, flags none.
        if swiss {
            let c = run(&["check"], &variant);
            assert!(
                c.stdout.contains("3/3 rounds identical"),
                "{name}: {}",
                c.stdout
            );
        }
    }
}

#[test]
fn warnings_as_json_lines_name_line_columns_and_field() {
    for (name, variant, _) in corpus() {
        let cmd = if name.starts_with("round-robin") {
            "standings"
        } else {
            "pair"
        };
        let r = run(&[cmd, "--format", "json"], &variant);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let warnings: Vec<serde_json::Value> = r
            .stderr
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}: {e}: {l}")))
            .collect();
        assert!(!warnings.is_empty(), "{name}: no warning");
        for w in &warnings {
            assert_eq!(w["file"], variant.display().to_string(), "{name}");
            assert!(
                w["field"].as_str().is_some_and(|f| !f.is_empty()),
                "{name}: {w}"
            );
            assert!(
                w["message"].as_str().is_some_and(|f| !f.is_empty()),
                "{name}: {w}"
            );
            if w["kind"] != "Encoding" {
                assert!(w["line"].as_u64().is_some_and(|l| l > 0), "{name}: {w}");
                assert!(w["columns"].is_array(), "{name}: {w}");
            }
        }
        // The same warnings as text.
        let text = run(&[cmd], &variant);
        assert_eq!(text.stderr.lines().count(), warnings.len(), "{name}");
        assert!(
            text.stderr.lines().all(|l| l.starts_with("warning: ")),
            "{name}"
        );
    }
}

#[test]
fn strict_mode_refuses_naming_where_and_the_mode() {
    // The variants TRF16 itself refuses; the others (encodings, blank or "0000 - -" byes,
    // colourless forfeits on both lines) were read by the strict reader before, and still are.
    let refused = [
        ("dates-dotted", "line 5, columns 92-99 (132 round 1 date)"),
        (
            "dates-month-first",
            "line 5, columns 92-99 (132 round 1 date)",
        ),
        (
            "dates-ambiguous",
            "line 5, columns 92-99 (132 round 1 date)",
        ),
        ("dates-iso", "line 5, columns 92-99 (132 round 1 date)"),
        ("birth-dates", "line 6, columns 70-79 (birth date)"),
        ("malformed-fields", "line 10, columns 58-68 (FIDE id)"),
        (
            "bye-half-as-draw",
            "line 16, columns 102-105 (round 2 opponent)",
        ),
        (
            "bye-pab-as-forfeit",
            "line 8, columns 112-119 (round 3 of player 3)",
        ),
        (
            "forfeit-colour-one-sided",
            "line 9, column 117 (round 3 colour)",
        ),
        ("all-at-once", "line 5, columns 92-99 (132 round 1 date)"),
    ];
    let corpus = corpus();
    for (name, where_) in refused {
        let (_, variant, _) = corpus.iter().find(|c| c.0 == name).unwrap();
        for cmd in ["pair", "check", "standings"] {
            let r = run(&[cmd, "--strict"], variant);
            if cmd == "standings" && name == "bye-pab-as-forfeit" {
                // A win without opponent is a forfeit win to the standings, strict or not.
                assert_eq!(r.code, 0, "{name} {cmd}: {}", r.stderr);
                continue;
            }
            assert_eq!(r.code, 3, "{name} {cmd}: {}", r.stderr);
            let err = r.stderr.lines().find(|l| l.starts_with("error: ")).unwrap();
            assert!(err.contains(where_), "{name} {cmd}: {err}");
            // A consistency error says what the other line has instead of expected/found.
            if name != "forfeit-colour-one-sided" {
                assert!(err.contains("expected"), "{name} {cmd}: {err}");
                assert!(err.contains("found"), "{name} {cmd}: {err}");
            }
            assert!(err.contains("without --strict"), "{name} {cmd}: {err}");
        }
    }
    // A file no mode reads says so.
    let dir = std::env::temp_dir().join(format!("arbiter-legacy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, _, twin) = corpus.iter().find(|c| c.0 == "dates-dotted").unwrap();
    let text = std::fs::read_to_string(twin)
        .unwrap()
        .replacen(" 2580 ", " 25x0 ", 1);
    let bad = dir.join("bad-rating.trf");
    std::fs::write(&bad, text).unwrap();
    let r = run(&["pair"], &bad);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.contains("line 6, columns 49-52 (rating)")
            && r.stderr
                .contains("refused by the default reading and by --strict"),
        "{}",
        r.stderr
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn each_variant_imports_as_its_twin() {
    let dir = std::env::temp_dir().join(format!("arbiter-legacy-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, variant, twin) in corpus() {
        let mut exports = Vec::new();
        for (k, file) in [&variant, &twin].into_iter().enumerate() {
            let data = dir.join(format!("{name}-{k}"));
            let d = data.to_str().unwrap();
            let im = arbiter([
                "import",
                file.to_str().unwrap(),
                "--data",
                d,
                "--id",
                "legacy",
                "--format",
                "json",
            ]);
            assert_eq!(im.code, 0, "{name}: {}", im.stderr);
            let ex = arbiter(["export", "legacy", "--data", d, "--format", "trfx"]);
            assert_eq!(ex.code, 0, "{name}: {}", ex.stderr);
            let path = dir.join(format!("{name}-{k}.trf"));
            std::fs::write(&path, &ex.stdout).unwrap();
            let next = run(&["pair"], &path);
            let next = format!("{} {}", next.code, next.stdout);
            let standings = run(&["standings"], &path).stdout;
            exports.push((ex.stdout, (next, standings)));
        }
        // The same next round and standings from both imports; the same export too, except
        // that a forfeit without colours on either line is put with the lower start number as
        // White, and a blank block is exported blank as it came (it means Z either way).
        assert_eq!(exports[0].1, exports[1].1, "{name}: the pairings differ");
        if !["forfeit-colourless", "withdrawn-blank", "all-at-once"].contains(&name.as_str()) {
            assert_eq!(exports[0].0, exports[1].0, "{name}: the imports differ");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `arbiter import` meets the rule registration meets (the aggregate's): a rating above the
/// ceiling or below the FIDE floor, or a FIDE id of 11 digits, is refused naming the field and
/// nothing is written.
#[test]
fn import_refuses_implausible_ratings_and_fide_ids() {
    let dir = std::env::temp_dir().join(format!("arbiter-legacy-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, _, twin) = &corpus()[0];
    let text = std::fs::read_to_string(twin).unwrap();
    // Player 1's rating (columns 49-52) and FIDE id (58-68), by characters.
    let edit = |from: usize, to: usize, value: &str| {
        let mut out = String::new();
        let mut done = false;
        for line in text.split_inclusive('\n') {
            if !done && line.starts_with("001 ") {
                let chars: Vec<char> = line.chars().collect();
                let mut l: String = chars[..from].iter().collect();
                l.push_str(&format!("{value:>width$}", width = to - from));
                l.extend(&chars[to..]);
                out.push_str(&l);
                done = true;
            } else {
                out.push_str(line);
            }
        }
        out
    };
    for (k, (file, says)) in [
        (
            edit(48, 52, "5000"),
            "rating: 5000 is above the ceiling 3000",
        ),
        (
            edit(48, 52, "900"),
            "rating: 900 is below the FIDE rating floor",
        ),
        (
            edit(57, 68, "18446744073"),
            "fide_id: 18446744073 is not a FIDE id",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let path = dir.join(format!("bounds-{k}.trf"));
        std::fs::write(&path, file).unwrap();
        let data = dir.join(format!("data-{k}"));
        let im = arbiter([
            "import",
            path.to_str().unwrap(),
            "--data",
            data.to_str().unwrap(),
            "--id",
            "bounds",
        ]);
        assert_eq!(im.code, 3, "{says}: {}", im.stderr);
        assert!(im.stderr.contains(says), "{says}: {}", im.stderr);
        let replay = arbiter(["replay", "bounds", "--data", data.to_str().unwrap()]);
        assert_ne!(replay.code, 0, "{says}: nothing was imported");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

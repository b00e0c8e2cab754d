//! `arbiter standings` end to end: the real binary on the golden files.
//!
//! Expected values are read from tests/golden/tiebreaks (tables of the FIDE TEC reference
//! implementation and our worked example of C.07 Art. 16, 2024 against 2026); nothing the binary
//! prints is written into the tests.

use crate::common::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// Runs `standings` with the tie-breaks of a golden table's header and compares every value of
/// the table with the CSV output.
fn compare_table(stem: &str, mismatches: &mut Vec<String>) -> usize {
    let (header, rows) = read_tsv(&golden(&format!("tiebreaks/{stem}.tsv")));
    assert_eq!(&header[..3], ["Rank", "StartNo", "PTS"], "{stem}: header");
    let list = header[3..].join(",");
    let trf = golden(&format!("dutch-2017/{stem}.trf"));
    let out = arbiter_ok([
        "standings".as_ref(),
        trf.as_os_str(),
        "--tiebreaks".as_ref(),
        list.as_ref(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    let (csv_header, csv_rows) = parse_csv(&out);
    assert_eq!(
        &csv_header[..7],
        [
            "rank",
            "rank_to",
            "no",
            "name",
            "rating",
            "federation",
            "points"
        ],
        "{stem}: CSV header"
    );
    assert_eq!(&csv_header[7..], &header[3..], "{stem}: tie-break columns");
    assert_eq!(csv_rows.len(), rows.len(), "{stem}: one row per player");
    let by_no: BTreeMap<&str, &Vec<String>> = csv_rows.iter().map(|r| (r[2].as_str(), r)).collect();
    let mut compared = 0;
    for row in &rows {
        let no = row[1].as_str();
        let Some(got) = by_no.get(no) else {
            mismatches.push(format!("{stem} #{no}: missing"));
            continue;
        };
        let mut check = |what: &str, expected: &str, got: &str| {
            compared += 1;
            if canonical(expected) != canonical(got) {
                mismatches.push(format!(
                    "{stem} #{no} {what}: expected {expected}, got {got}"
                ));
            }
        };
        check("rank", &row[0], &got[0]);
        check("points", &row[2], &got[6]);
        for (k, name) in header[3..].iter().enumerate() {
            check(name, &row[3 + k], &got[7 + k]);
        }
    }
    compared
}

#[test]
fn every_golden_table_is_reproduced_by_the_binary() {
    let dir = golden("tiebreaks");
    let mut stems: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    assert!(stems.len() >= 100, "golden tables present: {}", stems.len());
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for stem in &stems {
        compared += compare_table(stem, &mut mismatches);
    }
    assert!(compared > 10_000, "values compared: {compared}");
    assert!(
        mismatches.is_empty(),
        "{} of {compared} values differ:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(50)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The worked example of C.07 Art. 16 (1 Aug 2024 and 1 Mar 2026 texts): case
/// `swiss-7p-5r-unplayed-2024-vs-2026`.
fn unplayed_case() -> Value {
    let text = std::fs::read_to_string(golden("tiebreaks/examples.json")).unwrap();
    let all: Value = serde_json::from_str(&text).unwrap();
    all["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "swiss-7p-5r-unplayed-2024-vs-2026")
        .expect("the unplayed-rounds case")
        .clone()
}

/// The JSON output as descriptor -> pairing number -> canonical value, plus the list of
/// tie-breaks and the rules.
struct JsonStandings {
    rules: String,
    tiebreaks: Vec<String>,
    values: BTreeMap<String, BTreeMap<String, String>>,
    points: BTreeMap<String, String>,
}

fn json_standings(out: &str) -> JsonStandings {
    let v: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let tiebreaks: Vec<String> = v["tiebreaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let mut values: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut points = BTreeMap::new();
    for row in v["standings"].as_array().unwrap() {
        let no = row["no"].to_string();
        points.insert(no.clone(), canonical(&row["points"].to_string()));
        for t in &tiebreaks {
            values
                .entry(t.clone())
                .or_default()
                .insert(no.clone(), canonical(&row["values"][t].to_string()));
        }
    }
    JsonStandings {
        rules: v["rules"].as_str().unwrap().to_string(),
        tiebreaks,
        values,
        points,
    }
}

/// Expected values of one rule set: the 2026 block lists only what changes.
fn expected_values(case: &Value, rules: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for block in ["c07-2024-08", rules] {
        for (name, by_no) in case["expected"][block].as_object().unwrap() {
            let descriptor = name.replace('-', "/");
            let m = out.entry(descriptor).or_default();
            for (no, v) in by_no.as_object().unwrap() {
                m.insert(no.clone(), canonical(&v.to_string()));
            }
        }
    }
    out
}

#[test]
fn the_files_own_tiebreak_record_is_the_default() {
    let path = golden("tiebreaks/swiss-unplayed.trf");
    let text = std::fs::read_to_string(&path).unwrap();
    let record: Vec<String> = text
        .lines()
        .find_map(|l| l.strip_prefix("202 "))
        .expect("record 202")
        .trim()
        .split(',')
        .map(String::from)
        .collect();
    let out = arbiter_ok([
        "standings".as_ref(),
        path.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let got = json_standings(&out);
    assert_eq!(got.tiebreaks, record, "columns are record 202");
    // Record 042 is 2025/05/01: the August 2024 rules.
    assert_eq!(got.rules, "c07-2024-08");
    let case = unplayed_case();
    let expected = expected_values(&case, "c07-2024-08");
    for t in &got.tiebreaks {
        let Some(exp) = expected.get(t) else { continue };
        assert_eq!(&got.values[t], exp, "{t}");
    }
    for (no, score) in case["scores"].as_object().unwrap() {
        assert_eq!(
            got.points[no],
            canonical(&score.to_string()),
            "points of {no}"
        );
    }
}

/// The CSV output (values printed with the usual decimals, as the golden example gives them)
/// as descriptor -> pairing number -> canonical value.
fn csv_values(out: &str) -> (Vec<String>, BTreeMap<String, BTreeMap<String, String>>) {
    let (header, rows) = parse_csv(out);
    let tiebreaks = header[7..].to_vec();
    let mut values: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for row in &rows {
        for (k, t) in tiebreaks.iter().enumerate() {
            values
                .entry(t.clone())
                .or_default()
                .insert(row[2].clone(), canonical(&row[7 + k]));
        }
    }
    (tiebreaks, values)
}

#[test]
fn every_value_of_the_worked_example_under_both_rule_sets() {
    let path = golden("tiebreaks/swiss-unplayed.trf");
    let case = unplayed_case();
    for rules in ["c07-2024-08", "c07-2026-03"] {
        let expected = expected_values(&case, rules);
        let list: Vec<&str> = expected.keys().map(String::as_str).collect();
        let list = list.join(",");
        let args = |format: &str| {
            arbiter_ok([
                "standings".as_ref(),
                path.as_os_str(),
                "--tiebreaks".as_ref(),
                list.as_ref(),
                "--rules".as_ref(),
                rules.as_ref(),
                "--format".as_ref(),
                format.as_ref(),
            ])
        };
        assert_eq!(json_standings(&args("json")).rules, rules);
        let (tiebreaks, values) = csv_values(&args("csv"));
        assert_eq!(tiebreaks.len(), expected.len());
        for (t, exp) in &expected {
            assert_eq!(&values[t], exp, "{rules} {t}");
        }
    }
}

#[test]
fn recommended_list_when_the_file_has_none() {
    // The dutch-2017 corpus files carry no 202/212 record.
    let path = golden("dutch-2017/t0009.trf");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("202") || l.starts_with("212"))
    );
    let out = arbiter_ok([
        "standings".as_ref(),
        path.as_os_str(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    let (header, rows) = parse_csv(&out);
    let all_rated = rows.iter().all(|r| !r[4].is_empty());
    let kind = if all_rated {
        arbiter_tiebreak::EventKind::SwissAllRated
    } else {
        arbiter_tiebreak::EventKind::SwissNotAllRated
    };
    let recommended: Vec<String> = arbiter_tiebreak::default_tiebreaks(kind)
        .iter()
        .map(|t| t.to_string())
        .collect();
    assert_eq!(&header[7..], &recommended[..]);
    // Same players and points as the golden table of that file.
    let (_, golden_rows) = read_tsv(&golden("tiebreaks/t0009.tsv"));
    assert_eq!(rows.len(), golden_rows.len());
    for g in &golden_rows {
        let row = rows.iter().find(|r| r[2] == g[1]).expect("player listed");
        assert_eq!(canonical(&row[6]), canonical(&g[2]), "points of {}", g[1]);
    }
}

#[test]
fn text_output_lists_every_player_with_the_rules() {
    let path = golden("dutch-2017/t0013.trf");
    let (header, golden_rows) = read_tsv(&golden("tiebreaks/t0013.tsv"));
    let list = header[3..].join(",");
    let out = arbiter_ok([
        "standings".as_ref(),
        path.as_os_str(),
        "--tiebreaks".as_ref(),
        list.as_ref(),
    ]);
    let mut lines = out.lines();
    assert!(lines.next().unwrap().starts_with("Rules: "));
    let head: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(&head[..6], ["Rk", "No", "Name", "Rtg", "Fed", "Pts"]);
    let body: Vec<&str> = lines.filter(|l| !l.starts_with("Note:")).collect();
    assert_eq!(body.len(), golden_rows.len());
    // First line is the winner of the golden table.
    let first: Vec<&str> = body[0].split_whitespace().collect();
    assert_eq!(
        (first[0], first[1]),
        (golden_rows[0][0].as_str(), golden_rows[0][1].as_str())
    );
}

#[test]
fn standings_after_an_earlier_round() {
    let path = golden("dutch-2017/t0009.trf");
    let text = std::fs::read_to_string(&path).unwrap();
    let file = arbiter_trf::parse(&text).unwrap().file;
    for round in [1u32, 3] {
        let out = arbiter_ok([
            "standings".as_ref(),
            path.as_os_str(),
            "--round".as_ref(),
            round.to_string().as_ref(),
            "--tiebreaks".as_ref(),
            "BH".as_ref(),
            "--format".as_ref(),
            "csv".as_ref(),
        ]);
        let (_, rows) = parse_csv(&out);
        assert_eq!(rows.len(), file.players().count());
        for r in &rows {
            let id: u32 = r[2].parse().unwrap();
            let score = file.score_after(id, round).unwrap();
            assert_eq!(
                canonical(&r[6]),
                canonical(&score.to_string()),
                "round {round} #{id}"
            );
        }
    }
}

#[test]
fn shared_places_are_shown_as_ranges() {
    // Two players who drew their only game are equal on everything.
    let dir = TempDir::new("shared");
    let mut ps = vec![
        TrfPlayer {
            id: 1,
            name: "Alpha, A".into(),
            rating: 2000,
            ..Default::default()
        },
        TrfPlayer {
            id: 2,
            name: "Bravo, B".into(),
            rating: 2000,
            ..Default::default()
        },
    ];
    game(&mut ps, 1, 0, 1, '=');
    let trf = format!("012 Tied\n{}\n{}\nXXR 1\n", ps[0].line(), ps[1].line());
    let path = dir.file("tied.trf", trf);
    let out = arbiter_ok([
        "standings".as_ref(),
        path.as_os_str(),
        "--tiebreaks".as_ref(),
        "BH,SB".as_ref(),
        "--format".as_ref(),
        "csv".as_ref(),
    ]);
    let (_, rows) = parse_csv(&out);
    for r in &rows {
        assert_eq!((r[0].as_str(), r[1].as_str()), ("1", "2"), "{r:?}");
    }
    let text = arbiter_ok([
        "standings".as_ref(),
        path.as_os_str(),
        "--tiebreaks".as_ref(),
        "BH,SB".as_ref(),
    ]);
    assert_eq!(
        text.lines()
            .filter(|l| l.trim_start().starts_with("1-2 "))
            .count(),
        2,
        "{text}"
    );
}

#[test]
fn a_missing_file_exits_5() {
    let r = arbiter(["standings", "/nonexistent/dir/none.trf"]);
    assert_eq!(r.code, 5);
    assert!(
        r.stderr.contains("/nonexistent/dir/none.trf"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_malformed_file_exits_3_naming_line_and_field() {
    let dir = TempDir::new("malformed");
    let good = std::fs::read_to_string(golden("tiebreaks/swiss-unplayed.trf")).unwrap();
    // Player 1's round-1 result becomes a draw: player 4's line still says he lost.
    let bad = good.replacen("     4 w 1     7 b 1", "     4 w =     7 b 1", 1);
    assert_ne!(bad, good);
    let path = dir.file("bad.trf", bad);
    let r = arbiter(["standings".as_ref(), path.as_os_str()]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("bad.trf"), "{}", r.stderr);
    assert!(r.stderr.contains("line "), "{}", r.stderr);
    assert!(r.stderr.contains("round 1"), "{}", r.stderr);

    let garbage = dir.file("garbage.trf", "001 this is not a player line\n");
    let r = arbiter(["standings".as_ref(), garbage.as_os_str()]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("line 1"), "{}", r.stderr);
}

#[test]
fn an_unknown_tiebreak_exits_3_with_its_column() {
    let path = golden("tiebreaks/swiss-unplayed.trf");
    let r = arbiter([
        "standings".as_ref(),
        path.as_os_str(),
        "--tiebreaks".as_ref(),
        "BH/C1,BH,XYZ,SB".as_ref(),
    ]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("XYZ"), "{}", r.stderr);
    assert!(r.stderr.contains("column 10"), "{}", r.stderr);

    // The same in the file's own record: line and column of the line.
    let dir = TempDir::new("badrecord");
    let text = std::fs::read_to_string(&path).unwrap();
    let line_no = text.lines().position(|l| l.starts_with("202 ")).unwrap() + 1;
    let bad = text.replace("202 BH/C1,BH,DE,SB", "202 BH/C1,BH,QQ,SB");
    let bad_path = dir.file("record.trf", bad);
    let r = arbiter(["standings".as_ref(), bad_path.as_os_str()]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!("line {line_no}")),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("column 14"), "{}", r.stderr);
    assert!(r.stderr.contains("QQ"), "{}", r.stderr);
}

#[test]
fn bad_options_exit_3() {
    let path = golden("tiebreaks/swiss-unplayed.trf");
    let r = arbiter([
        "standings".as_ref(),
        path.as_os_str(),
        "--format".as_ref(),
        "xml".as_ref(),
    ]);
    assert_eq!(r.code, 3);
    assert!(r.stderr.contains("--format"), "{}", r.stderr);
    let r = arbiter([
        "standings".as_ref(),
        path.as_os_str(),
        "--round".as_ref(),
        "99".as_ref(),
    ]);
    assert_eq!(r.code, 3);
    assert!(r.stderr.contains("--round"), "{}", r.stderr);
    let r = arbiter([
        "standings".as_ref(),
        path.as_os_str(),
        "--rules".as_ref(),
        "c07-1999".as_ref(),
    ]);
    assert_eq!(r.code, 3);
    assert!(r.stderr.contains("--rules"), "{}", r.stderr);
}

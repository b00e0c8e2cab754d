//! `arbiter check` on the manual's worked tournament: as recorded it is identical round by
//! round; with a round-1 board's colours swapped, or two round-1 opponents exchanged, the round
//! is reported with the rule that decides (the initial-colour rule E.5 for colours in round 1,
//! where nobody has a preference yet; the generation order for an exchange in a round where
//! every player has the same score and no colour history, so no quality criterion differs).

use crate::common::{arbiter, golden};

const TRF: &str = "manual-example/manual-40p-7r.trf";

/// The player line of pairing number `id`.
fn line_of(lines: &mut [String], id: u32) -> &mut String {
    lines
        .iter_mut()
        .find(|l| l.starts_with("001") && l[4..8].trim() == id.to_string())
        .unwrap_or_else(|| panic!("player {id}"))
}

/// Rewrites player `id`'s entry of round `round` (TRF16 columns 92-101 for round 1).
fn set_entry(lines: &mut [String], id: u32, round: usize, opp: u32, colour: char) {
    let l = line_of(lines, id);
    let at = 91 + 10 * (round - 1);
    let result = l.as_bytes()[at + 7] as char;
    let entry = format!("{opp:>4} {colour} {result}");
    l.replace_range(at..at + 8, &entry);
}

fn entry(lines: &mut [String], id: u32, round: usize) -> (u32, char) {
    let l = line_of(lines, id);
    let at = 91 + 10 * (round - 1);
    (
        l[at..at + 4].trim().parse().expect("opponent"),
        l.as_bytes()[at + 5] as char,
    )
}

fn check(text: &str, name: &str) -> crate::common::Run {
    let dir = std::env::temp_dir().join(format!("arbiter-check-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.trf");
    std::fs::write(&path, text).unwrap();
    let r = arbiter(["check", "--system", "dutch-2017", path.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn lines() -> Vec<String> {
    std::fs::read_to_string(golden(TRF))
        .expect("golden file")
        .lines()
        .map(str::to_string)
        .collect()
}

fn round_report(stdout: &str, round: u32) -> String {
    let head = format!("round {round}: ");
    let start = stdout
        .find(&head)
        .unwrap_or_else(|| panic!("round {round} not reported:\n{stdout}"));
    stdout[start..]
        .lines()
        .take(2)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn recorded_tournament_is_identical() {
    let text = lines().join("\n") + "\n";
    let r = check(&text, "same");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let summary = r
        .stdout
        .lines()
        .find(|l| l.contains(" rounds identical"))
        .unwrap_or_default();
    let (same, total) = summary
        .split_once(" rounds identical")
        .and_then(|(counts, _)| counts.split_once('/'))
        .unwrap_or_else(|| panic!("no summary line: {}", r.stdout));
    assert_eq!(same, total, "{}", r.stdout);
    assert!(total.parse::<u32>().unwrap() >= 6, "{}", r.stdout);
}

#[test]
fn swapped_colours_in_round_1_name_the_initial_colour_rule() {
    let mut l = lines();
    let (opp, colour) = entry(&mut l, 1, 1);
    let (flip, back) = if colour == 'w' {
        ('b', 'w')
    } else {
        ('w', 'b')
    };
    set_entry(&mut l, 1, 1, opp, flip);
    set_entry(&mut l, opp, 1, 1, back);
    let r = check(&(l.join("\n") + "\n"), "colour");
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    let report = round_report(&r.stdout, 1);
    assert!(
        report.contains("colours of") && report.contains("decided by E.5"),
        "{report}"
    );
}

#[test]
fn exchanged_opponents_in_round_1_are_decided_by_the_generation_order() {
    let mut l = lines();
    let (a_opp, a_col) = entry(&mut l, 1, 1);
    let (b_opp, b_col) = entry(&mut l, 2, 1);
    let other = |c: char| if c == 'w' { 'b' } else { 'w' };
    set_entry(&mut l, 1, 1, b_opp, a_col);
    set_entry(&mut l, b_opp, 1, 1, other(a_col));
    set_entry(&mut l, 2, 1, a_opp, b_col);
    set_entry(&mut l, a_opp, 1, 2, other(b_col));
    let r = check(&(l.join("\n") + "\n"), "exchange");
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    let report = round_report(&r.stdout, 1);
    assert!(
        report.contains("decided by the generation order in bracket 1"),
        "{report}"
    );
    assert!(
        r.stdout.contains(&format!("recorded only: 1 - {b_opp}"))
            || r.stdout.contains(&format!("recorded only: {b_opp} - 1")),
        "{}",
        r.stdout
    );
}

/// A file that names no rule set (no 192 type code, no 042 start date, like the golden corpora's)
/// is refused by `pair` and `check` without `--system` (exit 3, saying what to give), and is
/// checked under the rule set given: the two rule sets differ, so neither is a silent default.
#[test]
fn a_file_naming_no_rule_set_needs_system() {
    let path = golden("dutch-2017/t0001.trf");
    let text = std::fs::read_to_string(&path).expect("golden file");
    assert!(
        !text
            .lines()
            .any(|l| l.starts_with("042") || l.starts_with("192")),
        "the fixture must name no rule set"
    );
    for cmd in ["pair", "check"] {
        let r = arbiter([cmd, path.to_str().unwrap()]);
        assert_eq!(r.code, 3, "{cmd}: stdout {} stderr {}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("names no rule set") && r.stderr.contains("--system"),
            "{cmd}: {}",
            r.stderr
        );
    }
    // Under the rule set its generator used, every round of the file is the engine's pairing.
    let r = arbiter(["check", "--system", "dutch-2017", path.to_str().unwrap()]);
    assert_eq!(r.code, 0, "stdout {} stderr {}", r.stdout, r.stderr);
}

/// A mistyped command line is invalid input (exit 3), never the 2 with which `check` and
/// `replay` say "a round differs" and `client` says "refused"; help is not an error.
#[test]
fn usage_errors_exit_3_and_help_exits_0() {
    for args in [
        vec!["check", "--sytem", "dutch-2017", "x.trf"],
        vec!["replay"],
        vec!["client", "bye", "t", "3", "--round", "2"],
        vec!["no-such-command"],
    ] {
        let r = arbiter(&args);
        assert_eq!(r.code, 3, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("Usage"), "{args:?}: {}", r.stderr);
    }
    let r = arbiter(["check", "--help"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Usage"), "{}", r.stdout);
}

/// The standings part of `check`: the file's ranks (columns 86-89) against the ranking by its
/// own tie-break list (record 202 here), then with two ranks exchanged each player is named
/// with both ranks, his points and his tie-break values.
#[test]
fn the_files_ranks_are_checked_against_its_standings() {
    let path = golden("tiebreaks/swiss-unplayed.trf");
    let text = std::fs::read_to_string(&path).expect("golden file");
    let r = arbiter(["check", path.to_str().unwrap()]);
    assert!(
        r.stdout
            .contains("standings: 7/7 ranks agree (points, then BH/C1,BH,DE,SB;"),
        "{}",
        r.stdout
    );
    // Ranks 1 and 2 exchanged (columns 86-89).
    let swapped: String = text
        .lines()
        .map(|l| {
            if !l.starts_with("001") || l.len() < 89 {
                return format!("{l}\n");
            }
            let rank = match l[85..89].trim() {
                "1" => "   2",
                "2" => "   1",
                _ => return format!("{l}\n"),
            };
            format!("{}{rank}{}\n", &l[..85], &l[89..])
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("arbiter-check-ranks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.trf");
    std::fs::write(&file, swapped).unwrap();
    let r = arbiter(["check", file.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    let named: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("standings: player "))
        .collect();
    assert_eq!(named.len(), 2, "{}", r.stdout);
    assert!(
        named
            .iter()
            .any(|l| l.contains("rank 2 in the file, 1 computed (points 4.0; BH/C1 ")),
        "{named:?}"
    );
    assert!(
        r.stdout.contains("standings: 5/7 ranks agree"),
        "{}",
        r.stdout
    );
    // Another list may rank them otherwise: the one asked for is the one used.
    let r = arbiter(["check", "--tiebreaks", "SB", path.to_str().unwrap()]);
    assert!(
        r.stdout.contains("ranks agree (points, then SB;"),
        "{}",
        r.stdout
    );
}

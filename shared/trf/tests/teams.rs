//! TRF-2026 team records `300`, `320` and `330`: read, written back byte for byte, malformed
//! fields refused naming the field, and checked against the `310` teams and the rounds.
//!
//! `tests/teams/team-2026.trf` is a three-team round robin (two boards, one PAB team a round,
//! board 2 of round 1 empty on both sides) with `310`, `320`, `330`, `300`, `352` and `362`.
//! Its lines (1-based): 18-24 players 1-7, 26-28 teams 1-3, 30 `320`, 32 `330`, 34-36 `300`,
//! 37 `XXR`.

use arbiter_core::Score;
use arbiter_trf::*;
use std::path::Path;

fn team_file() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/teams/team-2026.trf");
    String::from_utf8(std::fs::read(p).unwrap()).unwrap()
}

fn lines() -> Vec<String> {
    team_file().lines().map(str::to_string).collect()
}

fn text(lines: &[String]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// The team file with line `n` (1-based) replaced.
fn with_line(n: usize, line: &str) -> Vec<String> {
    let mut l = lines();
    l[n - 1] = line.to_string();
    l
}

fn reject(lines: &[String]) -> TrfError {
    match parse(&text(lines)) {
        Ok(_) => panic!("accepted:\n{}", text(lines)),
        Err(e) => e,
    }
}

#[track_caller]
fn check(
    e: &TrfError,
    kind: ErrorKind,
    line: usize,
    cols: (usize, usize),
    field: &str,
    needle: &str,
) {
    assert_eq!(e.kind, kind, "{e}");
    assert_eq!(e.line(), line, "{e}");
    assert_eq!(e.columns(), Some(cols), "{e}");
    assert_eq!(e.field(), field, "{e}");
    assert!(
        e.to_string().contains(needle),
        "{e} does not mention {needle:?}"
    );
}

/// Reads a single record line and writes it back.
#[track_caller]
fn single(line: &str) -> Record {
    let input = format!("{line}\n");
    let t = parse(&input).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert_eq!(t.file.records.len(), 1);
    assert_eq!(t.write().unwrap(), input, "written back differently");
    t.file.records[0].clone()
}

// ---------------------------------------------------------------------------------------------
// The whole file.

#[test]
fn the_team_file_reads_and_writes_back_byte_for_byte() {
    let input = team_file();
    for opts in [ParseOptions::default(), ParseOptions::tolerant()] {
        let t = parse_with(&input, &opts).unwrap();
        assert!(t.warnings.is_empty(), "{:?}", t.warnings);
        assert_eq!(t.line_ending, LineEnding::CrLf);
        assert_eq!(t.write().unwrap(), input);
        assert_eq!(t.profile(), Profile::Trf2026);
        assert!(!t.file.records.iter().any(|r| matches!(r, Record::Other(_))));
    }
    let f = parse(&input).unwrap().file;
    let rec = |n: usize| &f.records[n - 1];
    assert_eq!(
        rec(30),
        &Record::TeamByes320(TeamByes320 {
            match_points: Score(20),
            game_points: Score(10),
            teams: vec![Some(3), Some(2), Some(1)],
        })
    );
    assert_eq!(
        rec(32),
        &Record::TeamForfeit330(TeamForfeit330 {
            kind: TeamForfeitKind::WhiteWins,
            round: 3,
            white: 2,
            black: 3,
        })
    );
    assert_eq!(
        rec(34),
        &Record::TeamOrder300(TeamOrder300 {
            round: 1,
            team: 1,
            opponent: 2,
            boards: vec![Some(1), None],
        })
    );
    assert_eq!(
        rec(35),
        &Record::TeamOrder300(TeamOrder300 {
            round: 1,
            team: 2,
            opponent: 1,
            boards: vec![Some(3), None],
        })
    );
    assert_eq!(
        rec(36),
        &Record::TeamOrder300(TeamOrder300 {
            round: 2,
            team: 1,
            opponent: 3,
            boards: vec![Some(2), Some(7)],
        })
    );
    // A written model reads back as itself.
    let back = parse(&write(&f).unwrap()).unwrap();
    assert_eq!(back.file, f);
}

// ---------------------------------------------------------------------------------------------
// Each record alone.

#[test]
fn record_300_round_trips() {
    for line in [
        "300 001 002 001    3 0000",
        "300 011 123 999 0000    7 0000",
        "300 999 001 002 9999",
        "300 005 017 004    1    2    3    4    5    6    7    8    9   10   11   12   13   14",
    ] {
        assert!(matches!(single(line), Record::TeamOrder300(_)), "{line}");
    }
}

#[test]
fn record_320_round_trips() {
    for line in [
        "320  2.0  1.0 003 002 001",
        "320 11.5  2.0",
        "320  0.0  0.0 000 017 000 000",
        "320  3.0 99.5 999",
    ] {
        assert!(matches!(single(line), Record::TeamByes320(_)), "{line}");
    }
    let Record::TeamByes320(b) = single("320  2.0  1.0 000 017 000 000") else {
        unreachable!()
    };
    assert_eq!(b.teams, vec![None, Some(17), None, None]);
}

#[test]
fn record_330_round_trips() {
    for (line, kind) in [
        ("330 +- 004 023 047", TeamForfeitKind::WhiteWins),
        ("330 -+ 008 027 005", TeamForfeitKind::BlackWins),
        ("330 -- 999 001 999", TeamForfeitKind::Double),
    ] {
        let Record::TeamForfeit330(f) = single(line) else {
            panic!("{line}")
        };
        assert_eq!(f.kind, kind);
        assert_eq!(TeamForfeitKind::from_code(kind.code()), Some(kind));
    }
}

#[test]
fn other_spellings_read_as_the_canonical_record() {
    for (input, canonical) in [
        ("300   1   2   1    3    0", "300 001 002 001    3 0000"),
        ("300 001 002 001 0003     ", "300 001 002 001    3"),
        ("300 001 002 001         3", "300 001 002 001 0000    3"),
        ("320    2    1   3   2   1", "320  2.0  1.0 003 002 001"),
        ("320 2,0  1.0      002", "320  2.0  1.0 000 002"),
        ("330 --   4  23  47", "330 -- 004 023 047"),
    ] {
        let a = parse(&format!("{input}\n")).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let b = parse(&format!("{canonical}\n")).unwrap();
        assert_eq!(a.file, b.file, "{input:?}");
        assert_eq!(a.write().unwrap(), format!("{canonical}\n"));
    }
}

#[test]
fn the_writer_refuses_what_would_not_read_back() {
    let refuse = |r: Record, field: &str| {
        let e = write(&TrfFile { records: vec![r] }).unwrap_err();
        assert_eq!(e.field, field, "{e}");
    };
    let order = TeamOrder300 {
        round: 1,
        team: 2,
        opponent: 1,
        boards: vec![Some(3)],
    };
    refuse(
        Record::TeamOrder300(TeamOrder300 {
            opponent: 2,
            ..order.clone()
        }),
        "300 opponent team",
    );
    refuse(
        Record::TeamOrder300(TeamOrder300 {
            boards: vec![],
            ..order.clone()
        }),
        "300 boards",
    );
    refuse(
        Record::TeamOrder300(TeamOrder300 {
            boards: vec![None, Some(10_000)],
            ..order.clone()
        }),
        "300 board 2",
    );
    refuse(
        Record::TeamOrder300(TeamOrder300 { round: 0, ..order }),
        "300 round",
    );
    let byes = TeamByes320 {
        match_points: Score(20),
        game_points: Score(10),
        teams: vec![Some(1)],
    };
    refuse(
        Record::TeamByes320(TeamByes320 {
            game_points: Score(-5),
            ..byes.clone()
        }),
        "320 PAB points",
    );
    refuse(
        Record::TeamByes320(TeamByes320 {
            match_points: Score(1005),
            ..byes.clone()
        }),
        "320 PAB match points",
    );
    refuse(
        Record::TeamByes320(TeamByes320 {
            teams: vec![None, Some(1000)],
            ..byes
        }),
        "320 round 2 team",
    );
    let forfeit = TeamForfeit330 {
        kind: TeamForfeitKind::Double,
        round: 3,
        white: 2,
        black: 3,
    };
    refuse(
        Record::TeamForfeit330(TeamForfeit330 {
            black: 2,
            ..forfeit.clone()
        }),
        "330 black team",
    );
    refuse(
        Record::TeamForfeit330(TeamForfeit330 {
            white: 1000,
            ..forfeit
        }),
        "330 white team",
    );
}

// ---------------------------------------------------------------------------------------------
// Malformed fields: one test per kind of error.

const L300: usize = 36;
const L320: usize = 30;
const L330: usize = 32;

#[test]
fn record_300_round_invalid() {
    let e = reject(&with_line(L300, "300 0x2 001 003    2    7"));
    check(
        &e,
        ErrorKind::Syntax,
        L300,
        (5, 7),
        "300 round",
        "expected a round number from 1 to 999, found \"0x2\"",
    );
    let e = reject(&with_line(L300, "300 000 001 003    2    7"));
    check(
        &e,
        ErrorKind::Syntax,
        L300,
        (5, 7),
        "300 round",
        "found \"000\"",
    );
}

#[test]
fn record_300_team_invalid() {
    let e = reject(&with_line(L300, "300 002 000 003    2    7"));
    check(
        &e,
        ErrorKind::Syntax,
        L300,
        (9, 11),
        "300 team",
        "expected a team number from 1 to 999",
    );
}

#[test]
fn record_300_opponent_is_the_team() {
    let e = reject(&with_line(L300, "300 002 001 001    2    7"));
    check(
        &e,
        ErrorKind::Syntax,
        L300,
        (13, 15),
        "300 opponent team",
        "a team other than the team in columns 9-11 (1)",
    );
}

#[test]
fn record_300_board_invalid() {
    let e = reject(&with_line(L300, "300 002 001 003    2   7b"));
    check(
        &e,
        ErrorKind::Syntax,
        L300,
        (22, 25),
        "300 board 2",
        "expected a start number or 0000, found \"7b\"",
    );
}

#[test]
fn record_300_without_boards() {
    let e = reject(&with_line(L300, "300 002 001 003"));
    check(
        &e,
        ErrorKind::Syntax,
        L300,
        (17, 20),
        "300 board 1",
        "found end of line",
    );
}

#[test]
fn record_300_shifted() {
    let e = reject(&with_line(L300, "300 002 001 003     2    7"));
    check(
        &e,
        ErrorKind::Misaligned,
        L300,
        (21, 21),
        "300 board 2",
        "not in their columns",
    );
    let e = reject(&with_line(L300, "300 002 001 003    2     7"));
    check(
        &e,
        ErrorKind::Misaligned,
        L300,
        (26, 26),
        "300 board 3",
        "not in their columns",
    );
    let e = reject(&with_line(L300, "300  002 001 003    2    7"));
    assert_eq!(e.kind, ErrorKind::Syntax, "{e}");
    assert_eq!(e.field(), "300 round", "{e}");
}

#[test]
fn record_300_code_without_blank() {
    let e = reject(&with_line(L300, "3000002 001 003    2    7"));
    check(
        &e,
        ErrorKind::Misaligned,
        L300,
        (4, 4),
        "separator after the record code",
        "blank",
    );
}

#[test]
fn record_320_points_invalid() {
    let e = reject(&with_line(L320, "320  2.x  1.0 003 002 001"));
    check(
        &e,
        ErrorKind::Syntax,
        L320,
        (5, 8),
        "320 PAB match points",
        "expected points such as 2.0, found \"2.x\"",
    );
    let e = reject(&with_line(L320, "320  2.0      003 002 001"));
    check(
        &e,
        ErrorKind::Syntax,
        L320,
        (10, 13),
        "320 PAB game points",
        "found blank",
    );
    let e = reject(&with_line(L320, "320  2.0 0.25 003 002 001"));
    check(
        &e,
        ErrorKind::Syntax,
        L320,
        (10, 13),
        "320 PAB game points",
        "points such as 2.0",
    );
}

#[test]
fn record_320_points_negative() {
    let e = reject(&with_line(L320, "320 -2.0  1.0 003 002 001"));
    check(
        &e,
        ErrorKind::Syntax,
        L320,
        (5, 8),
        "320 PAB match points",
        "non-negative points",
    );
}

#[test]
fn record_320_round_team_invalid() {
    let e = reject(&with_line(L320, "320  2.0  1.0 003 0x2 001"));
    check(
        &e,
        ErrorKind::Syntax,
        L320,
        (19, 21),
        "320 round 2 team",
        "expected a team number or 000, found \"0x2\"",
    );
}

#[test]
fn record_320_shifted() {
    let e = reject(&with_line(L320, "320  2.0  1.0 003 002  001"));
    check(
        &e,
        ErrorKind::Misaligned,
        L320,
        (26, 26),
        "320 round 4 team",
        "not in their columns",
    );
    let e = reject(&with_line(L320, "320  2.0  1.0 0030002 001"));
    check(
        &e,
        ErrorKind::Misaligned,
        L320,
        (18, 18),
        "320 round 2 team",
        "not in their columns",
    );
    let e = reject(&with_line(L320, "320  2.0x 1.0 003 002 001"));
    check(
        &e,
        ErrorKind::Misaligned,
        L320,
        (9, 9),
        "320 PAB match points",
        "not in their columns",
    );
}

#[test]
fn record_330_forfeit_type_invalid() {
    let e = reject(&with_line(L330, "330 ++ 003 002 003"));
    check(
        &e,
        ErrorKind::Syntax,
        L330,
        (5, 6),
        "330 forfeit type",
        "expected +-, -+ or --, found \"++\"",
    );
    let e = reject(&with_line(L330, "330 +  003 002 003"));
    check(
        &e,
        ErrorKind::Syntax,
        L330,
        (5, 6),
        "330 forfeit type",
        "found \"+\"",
    );
}

#[test]
fn record_330_round_invalid() {
    let e = reject(&with_line(L330, "330 +- 0 3 002 003"));
    check(
        &e,
        ErrorKind::Syntax,
        L330,
        (8, 10),
        "330 round",
        "a round number from 1 to 999",
    );
}

#[test]
fn record_330_team_invalid() {
    let e = reject(&with_line(L330, "330 +- 003 00b 003"));
    check(
        &e,
        ErrorKind::Syntax,
        L330,
        (12, 14),
        "330 white team",
        "found \"00b\"",
    );
    let e = reject(&with_line(L330, "330 +- 003 002"));
    check(
        &e,
        ErrorKind::Syntax,
        L330,
        (16, 18),
        "330 black team",
        "found end of line",
    );
}

#[test]
fn record_330_black_is_white() {
    let e = reject(&with_line(L330, "330 +- 003 002 002"));
    check(
        &e,
        ErrorKind::Syntax,
        L330,
        (16, 18),
        "330 black team",
        "a team other than the white team (2)",
    );
}

#[test]
fn record_330_trailing_text() {
    let e = reject(&with_line(L330, "330 +- 003 002 003 x"));
    check(
        &e,
        ErrorKind::Syntax,
        L330,
        (19, 20),
        "330 end of record",
        "nothing after column 18",
    );
}

#[test]
fn record_330_shifted() {
    let e = reject(&with_line(L330, "330 +- 0033 002 003"));
    check(
        &e,
        ErrorKind::Misaligned,
        L330,
        (11, 11),
        "330 round",
        "not in their columns",
    );
}

#[test]
fn tolerant_reading_keeps_syntax_errors() {
    let l = with_line(L330, "330 ++ 003 002 003");
    let e = parse_with(&text(&l), &ParseOptions::tolerant()).unwrap_err();
    assert_eq!(e.field(), "330 forfeit type");
    let e = parse_with(&text(&l), &ParseOptions::lenient()).unwrap_err();
    assert_eq!(e.field(), "330 forfeit type");
}

// ---------------------------------------------------------------------------------------------
// Consistency with the 310 teams, the rounds and the players.

#[test]
fn team_numbers_must_be_310_teams() {
    let e = reject(&with_line(L330, "330 +- 003 002 009"));
    check(
        &e,
        ErrorKind::UnknownPlayer,
        L330,
        (16, 18),
        "330 black team",
        "no 310 team has number 9",
    );
    let e = reject(&with_line(L320, "320  2.0  1.0 003 004 001"));
    check(
        &e,
        ErrorKind::UnknownPlayer,
        L320,
        (19, 21),
        "320 round 2 team",
        "no 310 team has number 4",
    );
    let e = reject(&with_line(L300, "300 002 001 005    2    7"));
    check(
        &e,
        ErrorKind::UnknownPlayer,
        L300,
        (13, 15),
        "300 opponent team",
        "no 310 team has number 5",
    );
    // Lenient: the same problem as a warning.
    let t = parse_with(
        &text(&with_line(L330, "330 +- 003 002 009")),
        &ParseOptions::lenient(),
    )
    .unwrap();
    assert_eq!(t.warnings.len(), 1, "{:?}", t.warnings);
    assert_eq!(t.warnings[0].kind, WarningKind::Inconsistent);
    // Without 310 records there is nothing to check against (TRF16 `013` teams).
    let f = parse("330 +- 003 002 009\n320  2.0  1.0 004\n").unwrap();
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
}

#[test]
fn a_team_in_two_forfeits_of_a_round() {
    let mut l = lines();
    l.insert(L330, "330 -- 003 001 002".to_string());
    let e = reject(&l);
    check(
        &e,
        ErrorKind::PairedTwice,
        L330 + 1,
        (16, 18),
        "330 black team",
        "team 2 is already in a forfeited match of round 3 (line 32)",
    );
}

#[test]
fn rounds_beyond_the_file_are_reported() {
    let warned = |l: Vec<String>| parse(&text(&l)).unwrap().warnings;
    let w = warned(with_line(L330, "330 +- 004 002 003"));
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].kind, WarningKind::Conflict);
    assert_eq!(w[0].field, "330 round");
    assert_eq!(w[0].location, Some(Location::span(L330, 8, 10)));
    assert!(
        w[0].message.contains("round 4 is beyond the 3 rounds"),
        "{}",
        w[0]
    );
    let w = warned(with_line(L300, "300 007 001 003    2    7"));
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].field, "300 round");
    let w = warned(with_line(L320, "320  2.0  1.0 003 002 001 000"));
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].field, "320 round 4 team");
    assert_eq!(w[0].location, Some(Location::span(L320, 27, 29)));
}

#[test]
fn a_second_pab_for_a_team_is_reported() {
    let w = parse(&text(&with_line(L320, "320  2.0  1.0 003 002 003")))
        .unwrap()
        .warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].kind, WarningKind::RepeatedPairingBye);
    assert_eq!(w[0].location, Some(Location::span(L320, 23, 25)));
    assert!(w[0].message.contains("first in round 1"), "{}", w[0]);
}

#[test]
fn board_players_are_checked_against_001_and_310() {
    let w = parse(&text(&with_line(L300, "300 002 001 003    2    8")))
        .unwrap()
        .warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].kind, WarningKind::Unusual);
    assert_eq!(w[0].field, "300 board 2");
    assert!(
        w[0].message.contains("no 001 record has start number 8"),
        "{}",
        w[0]
    );
    let w = parse(&text(&with_line(L300, "300 002 001 003    2    3")))
        .unwrap()
        .warnings;
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].location, Some(Location::span(L300, 22, 25)));
    assert!(
        w[0].message
            .contains("player 3 is not a member of team 1 (310 record on line 26)"),
        "{}",
        w[0]
    );
}

//! The legacy corpus (tests/legacy, written by make.py): each file as an older program writes it
//! reads in the tolerant mode with the warning its variation calls for, is refused by the strict
//! mode where TRF16 / TRF-2026 refuse it, and reads as the same model as its normalised twin.

use arbiter_core::{ResultCode, RoundEntry};
use arbiter_trf::TrfFile;
use arbiter_trf::{
    Encoding, ErrorKind, ParseOptions, Trf, TrfError, WarningKind, parse_bytes_with,
};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/legacy")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn tolerant(name: &str) -> Trf {
    parse_bytes_with(&read(&format!("{name}.trf")), &ParseOptions::tolerant())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn strict(name: &str) -> Result<Trf, TrfError> {
    parse_bytes_with(&read(&format!("{name}.trf")), &ParseOptions::default())
}

fn twin(name: &str) -> Trf {
    let t = parse_bytes_with(&read(&format!("{name}.twin.trf")), &ParseOptions::default())
        .unwrap_or_else(|e| panic!("{name} twin: {e}"));
    assert!(t.warnings.is_empty(), "{name} twin: {:?}", t.warnings);
    t
}

/// One variation: the warning it must produce (kind, line, field) and the strict error (line,
/// columns, field), `None` where the strict reader accepts it too.
struct Case {
    name: &'static str,
    warning: (WarningKind, Option<usize>, &'static str),
    strict: Option<(usize, (usize, usize), &'static str)>,
    same_model: bool,
}

const fn case(
    name: &'static str,
    warning: (WarningKind, Option<usize>, &'static str),
    strict: Option<(usize, (usize, usize), &'static str)>,
) -> Case {
    Case {
        name,
        warning,
        strict,
        same_model: true,
    }
}

// Players 1-13 are on lines 6-18; the 132 record is line 5 (line 6 in the round robin).
const CASES: &[Case] = &[
    case(
        "dates-dotted",
        (WarningKind::Legacy, Some(5), "132 round 1 date"),
        Some((5, (92, 99), "132 round 1 date")),
    ),
    case(
        "dates-month-first",
        (WarningKind::Legacy, Some(5), "132 round 1 date"),
        Some((5, (92, 99), "132 round 1 date")),
    ),
    case(
        "dates-ambiguous",
        (WarningKind::Legacy, Some(5), "132 round 3 date"),
        Some((5, (92, 99), "132 round 1 date")),
    ),
    case(
        "dates-iso",
        (WarningKind::Realigned, Some(5), "132 round dates"),
        Some((5, (92, 99), "132 round 1 date")),
    ),
    case(
        "birth-dates",
        (WarningKind::Legacy, Some(9), "birth date"),
        Some((6, (70, 79), "birth date")),
    ),
    case(
        "malformed-fields",
        (WarningKind::Unusual, Some(11), "sex"),
        Some((10, (58, 68), "FIDE id")),
    ),
    case(
        "bye-half-as-draw",
        (WarningKind::Legacy, Some(16), "round 2"),
        Some((16, (102, 105), "round 2 opponent")),
    ),
    case(
        "bye-pab-as-forfeit",
        (WarningKind::Legacy, Some(18), "round 1"),
        None,
    ),
    case(
        "bye-zero-as-forfeit",
        (WarningKind::Legacy, Some(17), "round 2"),
        None,
    ),
    case(
        "bye-half-blank",
        (WarningKind::ImpliedBye, Some(16), "round 2"),
        Some((16, (81, 84), "points")),
    ),
    case(
        "bye-pab-blank",
        (WarningKind::ImpliedBye, Some(18), "round 1"),
        Some((8, (81, 84), "points")),
    ),
    case(
        "withdrawn-blank",
        (WarningKind::Legacy, Some(17), "round 3"),
        None,
    ),
    case(
        "forfeit-colour-one-sided",
        (WarningKind::Legacy, Some(9), "round 3 colour"),
        Some((9, (117, 117), "round 3 colour")),
    ),
    Case {
        name: "forfeit-colourless",
        warning: (WarningKind::Unusual, Some(9), "round 3 colour"),
        strict: None,
        same_model: false,
    },
    case(
        "encoding-cp1252",
        (WarningKind::Encoding, None, "encoding"),
        None,
    ),
    case(
        "encoding-latin1",
        (WarningKind::Encoding, None, "encoding"),
        None,
    ),
    case(
        "round-robin-teams",
        (WarningKind::Legacy, Some(6), "132 round 1 date"),
        Some((6, (92, 99), "132 round 1 date")),
    ),
    // The strict reading takes the shifted lines as teams without players (their names run
    // on into the numbers): TRF16 does not say a team must list any.
    case(
        "round-robin-team-lines-shifted",
        (WarningKind::Realigned, Some(13), "013 team"),
        None,
    ),
    case(
        "all-at-once",
        (WarningKind::Legacy, Some(17), "round 2"),
        Some((5, (92, 99), "132 round 1 date")),
    ),
];

#[test]
fn every_variant_reads_tolerantly_with_its_warning() {
    for c in CASES {
        let t = tolerant(c.name);
        let (kind, line, field) = c.warning;
        assert!(
            t.warnings
                .iter()
                .any(|w| w.kind == kind && w.location.map(|l| l.line) == line && w.field == field),
            "{}: no {kind:?} warning for {field} on line {line:?}: {:#?}",
            c.name,
            t.warnings
        );
        if c.same_model {
            assert_eq!(blanks_as_zero(&t.file), twin(c.name).file, "{}", c.name);
        }
    }
}

/// The model keeps a blank block as written (an export gives the file back); it means `Z`.
fn blanks_as_zero(f: &TrfFile) -> TrfFile {
    let paired = f.round_to_pair() as usize - 1;
    let mut f = f.clone();
    for p in f.players_mut() {
        if p.rounds.len() < paired {
            p.rounds.resize(paired, None);
        }
        for e in &mut p.rounds[..paired] {
            e.get_or_insert(RoundEntry::bye(ResultCode::ZeroBye));
        }
    }
    f
}

#[test]
fn strict_reading_refuses_what_the_spec_refuses() {
    for c in CASES {
        match (c.strict, strict(c.name)) {
            (Some((line, cols, field)), Err(e)) => {
                assert_eq!(
                    (e.line(), e.columns(), e.field()),
                    (line, Some(cols), field),
                    "{}: {e}",
                    c.name
                );
                assert!(e.message.contains("expected") || e.kind != ErrorKind::Syntax);
            }
            (None, Ok(_)) => {}
            (want, got) => panic!(
                "{}: expected {want:?}, got {:?}",
                c.name,
                got.map(|t| t.warnings)
            ),
        }
    }
}

#[test]
fn the_messages_of_the_issue() {
    let e = strict("dates-month-first").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 5, columns 92-99 (132 round 1 date): expected a date YY/MM/DD, found \"11.25.02\""
    );
    let e = strict("bye-half-as-draw").unwrap_err();
    assert_eq!(
        e.message,
        "expected the opponent's start number for a played game (=), found \"0000\""
    );
    // The assumed order is named, and the readings it excludes.
    let t = tolerant("dates-ambiguous");
    let w = t
        .warnings
        .iter()
        .find(|w| w.field == "132 round 1 date")
        .unwrap();
    assert!(w.message.contains("assumed DD.MM.YY"), "{w}");
    assert!(w.message.contains("also possible"), "{w}");
    let t = tolerant("dates-month-first");
    let w = t
        .warnings
        .iter()
        .find(|w| w.field == "132 round 1 date")
        .unwrap();
    assert!(w.message.contains("assumed MM.DD.YY"), "{w}");
}

#[test]
fn encodings_are_detected_and_names_read_the_same() {
    for name in ["encoding-cp1252", "encoding-latin1", "all-at-once"] {
        let t = tolerant(name);
        assert_eq!(t.encoding, Encoding::Windows1252, "{name}");
        let names =
            |f: &arbiter_trf::TrfFile| f.players().map(|p| p.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&t.file), names(&twin(name).file), "{name}");
    }
    assert!(
        twin("encoding-cp1252")
            .file
            .players()
            .any(|p| p.name.starts_with('Š'))
    );
}

#[test]
fn a_well_formed_file_reads_the_same_in_both_modes() {
    for c in CASES {
        let bytes = read(&format!("{}.twin.trf", c.name));
        let s = parse_bytes_with(&bytes, &ParseOptions::default()).unwrap();
        let t = parse_bytes_with(&bytes, &ParseOptions::tolerant()).unwrap();
        assert_eq!(s, t, "{}", c.name);
    }
}

#[test]
fn several_wins_without_opponent_in_a_round_are_full_point_byes() {
    // Player 12 gets player 13's round-1 "0000 - +" too: neither can be told to be the
    // pairing-allocated bye. (The copy makes player 6's round-1 game one-sided, so the
    // consistency checks are lenient here.)
    let text = String::from_utf8(read("bye-pab-as-forfeit.trf")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with("001   13"))
        .unwrap();
    let j = lines
        .iter()
        .position(|l| l.starts_with("001   12"))
        .unwrap();
    let bye = lines[i][91..99].to_string();
    assert_eq!(bye, "0000 - +");
    lines[j].replace_range(91..99, &bye);
    let opts = ParseOptions {
        lenient: true,
        tolerant: true,
    };
    let t = arbiter_trf::parse_with(&lines.join("\n"), &opts).unwrap();
    let full = |id| t.file.player(id).and_then(|p| p.entry(1)).map(|e| e.result);
    assert_eq!(full(12), Some(arbiter_core::ResultCode::FullBye));
    assert_eq!(full(13), Some(arbiter_core::ResultCode::FullBye));
    assert!(
        t.warnings
            .iter()
            .any(|w| w.message.contains("full-point bye"))
    );
}

#[test]
fn a_round_robin_with_team_records_reads_in_both_layouts() {
    let t = tolerant("round-robin-teams");
    let teams: Vec<&arbiter_trf::Team013> = t
        .file
        .records
        .iter()
        .filter_map(|r| match r {
            arbiter_trf::Record::Team013(team) => Some(team),
            _ => None,
        })
        .collect();
    assert_eq!(teams.len(), 2);
    assert_eq!(teams[0].members, vec![Some(1), Some(2), Some(3)]);
    assert_eq!(t.file.total_rounds(), 5);
    assert_eq!(t.file.round_to_pair(), 6);
}

//! Malformed files are rejected with the line, the columns, the field and what was expected.
//!
//! Each test breaks the hand-made tournament of `common` in one way. Its lines are:
//! 1 `012`, 2 `022`, 3 `132`, 4-7 players 1-4, 8 `XXR 3`, 9 `XXC white1`.

mod common;

use arbiter_trf::{ErrorKind, TrfError, parse};
use common::*;

fn reject(lines: &[String]) -> TrfError {
    match parse(&join(lines, "\n")) {
        Ok(_) => panic!("accepted:\n{}", join(lines, "\n")),
        Err(e) => e,
    }
}

#[track_caller]
fn check(
    e: &TrfError,
    kind: ErrorKind,
    line: usize,
    cols: Option<(usize, usize)>,
    field: &str,
    needle: &str,
) {
    assert_eq!(e.kind, kind, "{e}");
    assert_eq!(e.line(), line, "{e}");
    assert_eq!(e.columns(), cols, "{e}");
    assert_eq!(e.field(), field, "{e}");
    assert!(
        e.to_string().contains(needle),
        "{e:?} does not mention {needle:?}"
    );
}

fn with(i: usize, f: impl FnOnce(&str) -> String) -> Vec<String> {
    let mut l = base_lines();
    l[i] = f(&l[i]);
    l
}

fn replace(i: usize, from: &str, to: &str) -> Vec<String> {
    with(i, |s| {
        assert!(s.contains(from), "{s:?} has no {from:?}");
        s.replacen(from, to, 1)
    })
}

fn appended(line: &str) -> Vec<String> {
    let mut l = base_lines();
    l.push(line.to_string());
    l
}

#[test]
fn empty_input() {
    let e = parse("").unwrap_err();
    check(&e, ErrorKind::Empty, 1, None, "file", "no records");
    let e = parse("\n   \r\n\n").unwrap_err();
    check(&e, ErrorKind::Empty, 3, None, "file", "no records");
}

#[test]
fn truncated_line() {
    let e = reject(&with(4, |s| s[..60].to_string()));
    check(
        &e,
        ErrorKind::Syntax,
        5,
        Some((81, 84)),
        "points",
        "expected the points, e.g. 4.5, found end of line",
    );
}

#[test]
fn truncated_file() {
    let text = base_text();
    let cut = text.find("     3 b 1").unwrap() + "     3 b".len();
    let e = parse(&text[..cut]).unwrap_err();
    check(
        &e,
        ErrorKind::Syntax,
        7,
        Some((109, 109)),
        "round 2 result",
        "a result code for the game against 3, found end of line",
    );
}

#[test]
fn start_number_not_numeric() {
    let e = reject(&replace(3, "001    1 ", "001   a1 "));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((5, 8)),
        "start number",
        "found \"a1\"",
    );
}

#[test]
fn start_number_zero() {
    let e = reject(&replace(3, "001    1 ", "001    0 "));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((5, 8)),
        "start number",
        "expected a start number from 1 to 9999, found \"0\"",
    );
}

#[test]
fn duplicate_start_number() {
    let e = reject(&replace(6, "001    4 ", "001    2 "));
    check(
        &e,
        ErrorKind::DuplicateStartNumber,
        7,
        Some((5, 8)),
        "start number",
        "already used on line 5",
    );
}

#[test]
fn opponent_does_not_exist() {
    let e = reject(&replace(3, "   3 w 1", "  12 w 1"));
    check(
        &e,
        ErrorKind::UnknownPlayer,
        4,
        Some((92, 95)),
        "round 1 opponent",
        "no 001 record has start number 12",
    );
}

#[test]
fn opponent_not_a_number() {
    let e = reject(&replace(6, "   2 b =", "12a4 b ="));
    assert_eq!(
        e.to_string(),
        "line 7, columns 92-95 (round 1 opponent): expected a start number or 0000, found \"12a4\""
    );
    check(
        &e,
        ErrorKind::Syntax,
        7,
        Some((92, 95)),
        "round 1 opponent",
        "12a4",
    );
}

#[test]
fn colour_letter_invalid() {
    let e = reject(&replace(3, "   3 w 1", "   3 x 1"));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((97, 97)),
        "round 1 colour",
        "expected w, b or -, found \"x\"",
    );
}

#[test]
fn result_letter_invalid() {
    let e = reject(&replace(3, "   2 b =", "   2 b Q"));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((109, 109)),
        "round 2 result",
        "expected a result code",
    );
}

#[test]
fn game_on_one_line_only() {
    let e = reject(&replace(5, "   4 w 0", "0000 - Z"));
    check(
        &e,
        ErrorKind::OneSidedGame,
        7,
        Some((102, 105)),
        "round 2 opponent",
        "player 3 (line 6) has no game against 4 in round 2",
    );
}

#[test]
fn colours_not_opposite() {
    let e = reject(&replace(6, "   2 b =", "   2 w ="));
    check(
        &e,
        ErrorKind::ColourMismatch,
        7,
        Some((97, 97)),
        "round 1 colour",
        "colours of a game must be opposite",
    );
}

#[test]
fn results_not_complementary() {
    let e = reject(&replace(6, "   2 b =", "   2 b 1"));
    check(
        &e,
        ErrorKind::ResultMismatch,
        7,
        Some((99, 99)),
        "round 1 result",
        "result 1 does not match = recorded by player 2 on line 5",
    );
}

#[test]
fn forfeit_results_not_complementary() {
    let mut l = replace(3, "   3 w 1", "   3 w +");
    l[5] = l[5].replacen("   1 b 0", "   1 b +", 1);
    let e = reject(&l);
    check(
        &e,
        ErrorKind::ResultMismatch,
        6,
        Some((99, 99)),
        "round 1 result",
        "result + does not match +",
    );
}

#[test]
fn two_pairing_byes_in_a_round() {
    let mut l = base_lines();
    l[3].push_str("  0000 - U");
    l[4].push_str("  0000 - U");
    let e = reject(&l);
    check(
        &e,
        ErrorKind::SecondPairingBye,
        5,
        Some((119, 119)),
        "round 3 result",
        "already has a pairing-allocated bye (player 1, line 4)",
    );
}

#[test]
fn player_paired_twice() {
    let e = reject(&replace(5, "   4 w 0", "   1 w 0"));
    check(
        &e,
        ErrorKind::PairedTwice,
        6,
        Some((102, 105)),
        "round 2 opponent",
        "player 1 is paired twice in round 2",
    );
}

#[test]
fn player_paired_with_himself() {
    let e = reject(&replace(3, "   3 w 1", "   1 w 1"));
    check(
        &e,
        ErrorKind::SelfPairing,
        4,
        Some((92, 95)),
        "round 1 opponent",
        "paired against himself",
    );
}

#[test]
fn points_column_mismatch() {
    let e = reject(&replace(3, " 1.5 ", " 2.5 "));
    check(
        &e,
        ErrorKind::PointsMismatch,
        4,
        Some((81, 84)),
        "points",
        "expected 1.5",
    );
}

#[test]
fn points_column_mismatch_under_bbp_scoring() {
    let mut l = base_lines();
    l.push("BBW  3.0".into());
    l.push("BBD  1.0".into());
    let e = reject(&l);
    check(
        &e,
        ErrorKind::PointsMismatch,
        4,
        Some((81, 84)),
        "points",
        "expected 4.0",
    );
}

#[test]
fn points_too_fine() {
    let e = reject(&replace(3, " 1.5 ", "1.55 "));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((81, 84)),
        "points",
        "found \"1.55\"",
    );
}

#[test]
fn xxr_not_a_number() {
    let e = reject(&replace(7, "XXR 3", "XXR five"));
    check(
        &e,
        ErrorKind::Syntax,
        8,
        Some((5, 8)),
        "XXR number of rounds",
        "expected a number of rounds from 1 to 999, found \"five\"",
    );
}

#[test]
fn xxr_zero() {
    let e = reject(&replace(7, "XXR 3", "XXR 0"));
    check(
        &e,
        ErrorKind::Syntax,
        8,
        Some((5, 5)),
        "XXR number of rounds",
        "found \"0\"",
    );
}

#[test]
fn record_code_not_followed_by_a_blank() {
    let e = reject(&replace(7, "XXR 3", "XXR3"));
    check(
        &e,
        ErrorKind::Misaligned,
        8,
        Some((4, 4)),
        "separator after the record code",
        "found \"3\"",
    );
}

#[test]
fn xxa_value_invalid() {
    let e = reject(&appended("XXA    1  1.0  1.x"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((15, 18)),
        "XXA round 2 virtual points",
        "found \"1.x\"",
    );
}

#[test]
fn xxa_for_an_unknown_player() {
    let e = reject(&appended("XXA    9  1.0"));
    check(
        &e,
        ErrorKind::UnknownPlayer,
        10,
        Some((5, 8)),
        "XXA start number",
        "start number 9",
    );
}

#[test]
fn bbw_value_invalid() {
    let e = reject(&appended("BBW  x.5"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((6, 8)),
        "BBW points",
        "expected points such as 1.0, found \"x.5\"",
    );
}

#[test]
fn xxs_entry_invalid() {
    let e = reject(&appended("XXS W=3 Q=1"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((9, 11)),
        "XXS entry 2",
        "CODE=VALUE",
    );
}

#[test]
fn xxc_option_invalid() {
    let e = reject(&replace(8, "XXC white1", "XXC white"));
    check(
        &e,
        ErrorKind::Syntax,
        9,
        Some((5, 9)),
        "XXC option 1",
        "expected rank, white1 or black1",
    );
}

#[test]
fn xxp_with_an_unknown_player() {
    let e = reject(&appended("XXP 1   7"));
    check(
        &e,
        ErrorKind::UnknownPlayer,
        10,
        Some((9, 9)),
        "XXP id 2",
        "start number 7",
    );
}

#[test]
fn birth_date_invalid() {
    let e = reject(&replace(4, "1990/01/01", "1990/13/01"));
    check(
        &e,
        ErrorKind::Syntax,
        5,
        Some((70, 79)),
        "birth date",
        "expected a date YYYY/MM/DD",
    );
}

#[test]
fn round_date_invalid() {
    let e = reject(&replace(2, "25/01/11", "25/02/30"));
    check(
        &e,
        ErrorKind::Syntax,
        3,
        Some((102, 109)),
        "132 round 2 date",
        "found \"25/02/30\"",
    );
}

#[test]
fn round_block_shifted() {
    let e = reject(&replace(5, "     1 b 0", "      1 b 0"));
    check(
        &e,
        ErrorKind::Misaligned,
        6,
        Some((96, 96)),
        "round 1",
        "not in their columns",
    );
}

#[test]
fn name_overflows_its_columns() {
    let e = reject(&with(3, |s| {
        format!(
            "{}{}{}",
            &s[..14],
            "Able-Longname, Annabel Maximiliana",
            &s[48..]
        )
    }));
    check(
        &e,
        ErrorKind::Misaligned,
        4,
        Some((48, 48)),
        "name",
        "expected a blank separator column",
    );
}

#[test]
fn rating_not_numeric() {
    let e = reject(&replace(3, " 2400 ", " 24O0 "));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((49, 52)),
        "rating",
        "found \"24O0\"",
    );
}

#[test]
fn sex_invalid() {
    let e = reject(&replace(3, "001    1 m", "001    1 x"));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((10, 10)),
        "sex",
        "expected m, w or blank",
    );
}

#[test]
fn played_game_without_opponent() {
    let e = reject(&replace(3, "   3 w 1", "0000 w 1"));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((92, 95)),
        "round 1 opponent",
        "the opponent's start number for a played game (1)",
    );
}

#[test]
fn bye_with_an_opponent() {
    let e = reject(&replace(3, "   2 b =", "   2 - H"));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((102, 105)),
        "round 2 opponent",
        "0000 for a bye (H)",
    );
}

#[test]
fn bye_with_a_colour() {
    let mut l = base_lines();
    l[3].push_str("  0000 w H");
    let e = reject(&l);
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((117, 117)),
        "round 3 colour",
        "- for a bye (H)",
    );
}

#[test]
fn game_without_result() {
    let e = reject(&replace(3, "   3 w 1", "   3 w  "));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((99, 99)),
        "round 1 result",
        "a result code for the game against 3, found blank",
    );
    let e = reject(&replace(3, "   2 b =", "   2 b  "));
    check(
        &e,
        ErrorKind::Syntax,
        4,
        Some((109, 109)),
        "round 2 result",
        "a result code for the game against 2, found end of line",
    );
}

#[test]
fn rounds_record_invalid() {
    let e = reject(&appended("142 x"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((5, 5)),
        "142 number of rounds",
        "found \"x\"",
    );
}

#[test]
fn initial_colour_record_invalid() {
    let e = reject(&appended("152 X"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((5, 5)),
        "152 initial colour",
        "expected W or B",
    );
}

#[test]
fn scoring_record_symbol_invalid() {
    let e = reject(&appended("162  Q 3.0"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((6, 6)),
        "162 result symbol 1",
        "one of W D L A P X",
    );
}

#[test]
fn scoring_record_value_invalid() {
    let e = reject(&appended("162  W 3.0    D one"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((16, 19)),
        "162 points for D",
        "found \"one\"",
    );
}

#[test]
fn bye_record_for_an_unknown_player() {
    let e = reject(&appended("240 H 003 0002 0009"));
    check(
        &e,
        ErrorKind::UnknownPlayer,
        10,
        Some((16, 19)),
        "240 id 2",
        "number 9",
    );
}

#[test]
fn bye_record_type_invalid() {
    let e = reject(&appended("240 X 003 0002"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((5, 5)),
        "240 bye type",
        "expected F, H or Z",
    );
}

#[test]
fn acceleration_rounds_reversed() {
    let e = reject(&appended("250       1.0 003 001 0001 0002"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((19, 21)),
        "250 last round",
        "not before the first round (3)",
    );
}

#[test]
fn acceleration_of_zero_points() {
    let e = reject(&appended("250       0.0 001 001 0001 0002"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((10, 13)),
        "250 game points",
        "non-zero",
    );
}

#[test]
fn prohibited_pairing_with_one_player() {
    let e = reject(&appended("260 001 003    2"));
    check(
        &e,
        ErrorKind::Syntax,
        10,
        Some((18, 18)),
        "260 ids",
        "at least two start numbers",
    );
}

#[test]
fn messages_name_the_location() {
    // The Display form always leads with the location and the field.
    let e = reject(&replace(3, " 2400 ", " 24O0 "));
    assert!(
        e.to_string()
            .starts_with("line 4, columns 49-52 (rating): expected "),
        "{e}"
    );
}

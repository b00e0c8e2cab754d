//! Inputs that differ only in ways that do not matter (docs/src/guide/files.md) read as the
//! same file.

mod common;

use arbiter_core::{ResultCode, RoundEntry};
use arbiter_trf::{Encoding, LineEnding, Record, WarningKind, parse, parse_bytes};
use common::*;

fn without_blank_records(r: &[Record]) -> Vec<Record> {
    r.iter()
        .filter(|r| !matches!(r, Record::Blank))
        .cloned()
        .collect()
}

#[test]
fn base_file_is_valid_and_clean() {
    let trf = parse(&base_text()).unwrap();
    assert!(trf.warnings.is_empty(), "{:?}", trf.warnings);
    assert_eq!(trf.file.players().count(), 4);
    assert_eq!(trf.file.round_to_pair(), 3);
}

#[test]
fn cr_lf_and_crlf_read_the_same() {
    let lines = base_lines();
    let lf = parse(&join(&lines, "\n")).unwrap();
    let crlf = parse(&join(&lines, "\r\n")).unwrap();
    let cr = parse(&join(&lines, "\r")).unwrap();
    let no_final = parse(&lines.join("\r\n")).unwrap();
    assert_eq!(lf.file, crlf.file);
    assert_eq!(lf.file, cr.file);
    assert_eq!(lf.file, no_final.file);
    assert_eq!(
        (lf.line_ending, crlf.line_ending, cr.line_ending),
        (LineEnding::Lf, LineEnding::CrLf, LineEnding::Cr)
    );
    // Each is written back exactly as it came.
    assert_eq!(cr.write().unwrap(), join(&lines, "\r"));
    assert_eq!(crlf.write().unwrap(), join(&lines, "\r\n"));
}

#[test]
fn mixed_line_ends_read_the_same() {
    let lines = base_lines();
    let mut mixed = String::new();
    for (i, l) in lines.iter().enumerate() {
        mixed.push_str(l);
        mixed.push_str(["\n", "\r\n", "\r"][i % 3]);
    }
    assert_eq!(
        parse(&mixed).unwrap().file,
        parse(&base_text()).unwrap().file
    );
}

#[test]
fn lower_case_result_and_colour_letters_read_the_same() {
    let mut upper = base_lines();
    let mut lower = base_lines();
    // Give player 4 a requested half-point bye in round 3, player 1 a zero-point bye.
    upper[6].push_str("  0000 - H");
    lower[6].push_str("  0000 - h");
    upper[3].push_str("  0000 - Z");
    lower[3].push_str("  0000 - z");
    // Upper-case colours are accepted as well.
    lower[4] = lower[4].replace("   4 w =", "   4 W =");
    let a = parse(&join(&upper, "\n")).unwrap();
    let b = parse(&join(&lower, "\n")).unwrap();
    assert_eq!(a.file, b.file);
    assert_eq!(
        b.file.player(4).unwrap().entry(3),
        Some(&RoundEntry::bye(ResultCode::HalfBye))
    );
}

#[test]
fn unrated_game_letters_are_case_insensitive() {
    let mut upper = base_lines();
    let mut lower = base_lines();
    for (lines, (w, l)) in [(&mut upper, ("W", "L")), (&mut lower, ("w", "l"))] {
        lines[3] = lines[3].replace("   3 w 1", &format!("   3 w {w}"));
        lines[5] = lines[5].replace("   1 b 0", &format!("   1 b {l}"));
    }
    let a = parse(&join(&upper, "\n")).unwrap();
    let b = parse(&join(&lower, "\n")).unwrap();
    assert_eq!(a.file, b.file);
    assert_eq!(
        a.file.player(1).unwrap().entry(1).unwrap().result,
        ResultCode::WinUnrated
    );
}

#[test]
fn trailing_blanks_do_not_matter() {
    let lines = base_lines();
    let padded: Vec<String> = lines.iter().map(|l| format!("{l:<140}")).collect();
    let tabs: Vec<String> = lines.iter().map(|l| format!("{l} \t ")).collect();
    let base = parse(&join(&lines, "\n")).unwrap().file;
    assert_eq!(parse(&join(&padded, "\r\n")).unwrap().file, base);
    assert_eq!(parse(&join(&tabs, "\n")).unwrap().file, base);
}

#[test]
fn a_line_may_end_before_its_last_fields() {
    // Rank blank and no rounds yet: the line stops after the points column.
    let mut lines = base_lines();
    lines.truncate(3);
    lines.push(player(1, "Able, Ann", 2400, "0.0", &[]));
    lines.push(player(2, "Baker, Bob", 2300, "0.0", &[]));
    let f = parse(&join(&lines, "\n")).unwrap().file;
    assert!(lines[3].len() == 84);
    assert_eq!(f.player(1).unwrap().rank, None);
    assert!(f.player(1).unwrap().rounds.is_empty());
    assert_eq!(f.round_to_pair(), 1);
}

#[test]
fn blank_and_white_space_lines_are_ignored() {
    let lines = base_lines();
    let mut spaced = Vec::new();
    for l in &lines {
        spaced.push(l.clone());
        spaced.push(String::new());
        spaced.push("   \t".to_string());
    }
    let a = parse(&join(&lines, "\n")).unwrap().file;
    let b = parse(&join(&spaced, "\n")).unwrap();
    assert_eq!(without_blank_records(&b.file.records), a.records);
    assert_eq!(b.file.point_system(), a.point_system());
    assert_eq!(b.file.round_to_pair(), a.round_to_pair());
    // The blank lines are kept for the round trip (white space itself is not).
    let expected: Vec<String> = spaced.iter().map(|l| l.trim_end().to_string()).collect();
    assert_eq!(b.write().unwrap(), join(&expected, "\n"));
}

#[test]
fn bye_spellings_read_the_same() {
    let mut a = base_lines();
    let mut b = base_lines();
    let mut c = base_lines();
    a[3].push_str("  0000 - Z");
    b[3].push_str("       - Z"); // four blanks for the opponent
    c[3].push_str("  0000 -"); // blank result = Z
    let fa = parse(&join(&a, "\n")).unwrap().file;
    assert_eq!(parse(&join(&b, "\n")).unwrap().file, fa);
    assert_eq!(parse(&join(&c, "\n")).unwrap().file, fa);
    assert_eq!(
        fa.absent_players(3).into_iter().collect::<Vec<_>>(),
        vec![1]
    );
}

#[test]
fn number_spellings_read_the_same() {
    let a = base_lines();
    let mut b = base_lines();
    b[3] = b[3].replace(" 1.5    ", " 1,5    ");
    b[4] = b[4].replace(" 1.0    ", "   1    ");
    assert_ne!(a, b);
    assert_eq!(
        parse(&join(&a, "\n")).unwrap().file,
        parse(&join(&b, "\n")).unwrap().file
    );
}

#[test]
fn bom_and_latin1_are_decoded() {
    let mut lines = base_lines();
    lines[3] = lines[3].replace("Able, Ann ", "Öble, Änn ");
    let text = join(&lines, "\n");
    let utf8 = parse(&text).unwrap();
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(text.as_bytes());
    let with_bom = parse_bytes(&bom).unwrap();
    assert_eq!(with_bom.file, utf8.file);
    assert_eq!(with_bom.encoding, Encoding::Utf8);
    assert!(with_bom.warnings.is_empty());
    let latin1: Vec<u8> = text
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect();
    let l1 = parse_bytes(&latin1).unwrap();
    assert_eq!(l1.file, utf8.file);
    assert_eq!(l1.encoding, Encoding::Windows1252);
    assert!(l1.warnings.iter().any(|w| w.kind == WarningKind::Encoding));
    assert_eq!(l1.file.player(1).unwrap().name, "Öble, Änn");
}

#[test]
fn legacy_titles_and_sex_are_read_as_modern_codes() {
    let mut lines = base_lines();
    lines[3] = format!("{}f  g{}", &lines[3][..9], &lines[3][13..]);
    let trf = parse(&join(&lines, "\n")).unwrap();
    let p = trf.file.player(1).unwrap();
    assert_eq!(
        p.title,
        Some(arbiter_trf::TitleCode::Fide(arbiter_trf::Title::GM))
    );
    assert_eq!(p.sex, Some(arbiter_trf::Sex::Female));
    assert_eq!(
        trf.warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Legacy)
            .count(),
        2
    );
    // Written the modern way.
    let out = trf.write().unwrap();
    assert!(
        out.lines()
            .nth(3)
            .unwrap()
            .starts_with("001    1 w GM Able")
    );
}

#[test]
fn byte_counted_columns_are_realigned_in_lenient_mode() {
    // A writer that counted bytes: a two-byte letter in the name shifts the rest left by one.
    let mut lines = base_lines();
    let good = lines[3].replace("Able, Ann ", "Äble, Ann ");
    // The writer padded the name to 33 bytes, i.e. 32 characters: one blank fewer at column 47.
    let shifted: String = good.chars().take(46).chain(good.chars().skip(47)).collect();
    lines[3] = shifted;
    let strict = parse(&join(&lines, "\n")).unwrap_err();
    assert_eq!(strict.kind, arbiter_trf::ErrorKind::Misaligned);
    let lenient =
        arbiter_trf::parse_with(&join(&lines, "\n"), &arbiter_trf::ParseOptions::lenient())
            .unwrap();
    assert!(
        lenient
            .warnings
            .iter()
            .any(|w| w.kind == WarningKind::Realigned)
    );
    let mut expected = base_lines();
    expected[3] = good;
    assert_eq!(lenient.file, parse(&join(&expected, "\n")).unwrap().file);
}

#[test]
fn shifted_round_area_is_read_as_groups_in_lenient_mode() {
    let mut lines = base_lines();
    lines[5] = lines[5].replace("   1 b 0     4 w 0", "    1 b 0    4 w 0");
    assert!(parse(&join(&lines, "\n")).is_err());
    let lenient =
        arbiter_trf::parse_with(&join(&lines, "\n"), &arbiter_trf::ParseOptions::lenient())
            .unwrap();
    assert_eq!(lenient.file, parse(&base_text()).unwrap().file);
    assert!(
        lenient
            .warnings
            .iter()
            .any(|w| w.kind == WarningKind::Realigned)
    );
}

#[test]
fn unknown_records_are_kept_with_a_warning() {
    let mut lines = base_lines();
    lines.insert(2, "999 something new".to_string());
    lines.push("XXQ engine option".to_string());
    lines.push("### a comment".to_string());
    let trf = parse(&join(&lines, "\n")).unwrap();
    let unknown: Vec<_> = trf
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::UnknownRecord)
        .collect();
    assert_eq!(
        unknown.len(),
        1,
        "unknown XX codes are ignored silently: {unknown:?}"
    );
    assert_eq!(unknown[0].location.unwrap().line, 3);
    assert_eq!(
        trf.file.records[2],
        Record::Other("999 something new".into())
    );
    assert_eq!(trf.write().unwrap(), join(&lines, "\n"));
}

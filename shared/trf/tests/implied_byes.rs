//! Byes written only in the points column (a blank round, or `0000` without a result letter,
//! counted in the points) are read as the byes they imply by the default, lenient reading,
//! with a warning naming line and round, and refused by the strict one. The layouts are built
//! here, after the way some club programs write their exports.

use arbiter_core::ResultCode;
use arbiter_trf::{ParseOptions, WarningKind, parse, parse_with};

/// A player line with every field in its column; `rounds` are the 8-character round blocks
/// (opponent, colour, result), written from column 92 ten columns apart.
fn player(no: u32, name: &str, points: &str, rounds: &[&str]) -> String {
    let mut b = vec![b' '; 91];
    let mut put = |col: usize, text: &str| {
        let i = col - 1;
        if b.len() < i + text.len() {
            b.resize(i + text.len(), b' ');
        }
        b[i..i + text.len()].copy_from_slice(text.as_bytes());
    };
    put(1, "001");
    put(5, &format!("{no:>4}"));
    put(10, "m");
    put(15, name);
    put(49, &format!("{:>4}", 2200 - no * 50));
    put(54, "IRL");
    put(58, &format!("{:>11}", 2_500_000 + no));
    put(81, &format!("{points:>4}"));
    for (r, block) in rounds.iter().enumerate() {
        put(92 + 10 * r, block);
    }
    String::from_utf8(b).unwrap().trim_end().to_string()
}

fn file(players: &[String]) -> String {
    let mut lines = vec![
        "012 Club Championship".to_string(),
        "042 2009/05/01".to_string(),
        "062 5".to_string(),
        "072 5".to_string(),
    ];
    lines.extend(players.iter().cloned());
    lines.join("\n") + "\n"
}

/// Five players, three rounds. As the club program wrote it: round 1's odd one out (player
/// 5) has `0000` without a result and a point; player 1 asked for a half-point bye in round 2
/// (a blank block, half a point); round 3's odd one out (player 4) has a blank block and a
/// point. `p1` and `p2` replace players 1's and 2's round 2 and 3 blocks and points.
fn club_event(p1: [&str; 3], p2: [&str; 2]) -> String {
    file(&[
        player(1, "Murphy, Sean", p1[2], &["   3 w 1", p1[0], p1[1]]),
        player(2, "Kelly, Aoife", p2[1], &["   4 b 1", "   5 w 0", p2[0]]),
        player(
            3,
            "Byrne, Liam",
            "2.0",
            &["   1 b 0", "   4 w 1", "   5 b 1"],
        ),
        player(
            4,
            "Ryan, Niamh",
            "1.0",
            &["   2 w 0", "   3 b 0", "        "],
        ),
        player(
            5,
            "Walsh, Conor",
            "2.0",
            &["0000 -  ", "   2 b 1", "   3 w 0"],
        ),
    ])
}

/// The event as played: player 1 beats player 2 in round 3.
fn as_played() -> String {
    club_event(["        ", "   2 w 1", "2.5"], ["   1 b 0", "1.0"])
}

#[test]
fn blank_rounds_counted_in_the_points_are_read_as_the_byes_they_imply() {
    let text = as_played();
    let trf = parse_with(&text, &ParseOptions::tolerant()).expect("read");
    let entry = |no: u32, round: u32| {
        trf.file
            .players()
            .find(|p| p.start_number == no)
            .and_then(|p| p.entry(round))
            .map(|e| e.result)
    };
    // Round 1: player 5 is the only one without a game: `0000` and a point is the
    // pairing-allocated bye. Round 2: half a point, a half-point bye. Round 3: player 4 alone
    // without a game, a point: the pairing-allocated bye.
    assert_eq!(entry(5, 1), Some(ResultCode::PairingBye));
    assert_eq!(entry(1, 2), Some(ResultCode::HalfBye));
    assert_eq!(entry(4, 3), Some(ResultCode::PairingBye));
    let implied: Vec<(usize, &str)> = trf
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::ImpliedBye)
        .map(|w| (w.location.as_ref().expect("a place").line, w.field.as_str()))
        .collect();
    assert_eq!(implied, [(5, "round 2"), (8, "round 3"), (9, "round 1")]);
    let said = &trf
        .warnings
        .iter()
        .find(|w| w.kind == WarningKind::ImpliedBye && w.field == "round 2")
        .unwrap()
        .message;
    assert!(said.contains("read as a half-point bye (H)"), "{said}");
    // Nothing else is said of those blocks (not "read as an absence").
    assert!(
        trf.warnings
            .iter()
            .all(|w| w.kind == WarningKind::ImpliedBye || !w.message.starts_with("blank in")),
        "{:?}",
        trf.warnings
    );
    // Written back, the byes are explicit and the file reads strictly.
    let again = parse(&trf.write().expect("written")).expect("strict");
    assert_eq!(again.file, trf.file);

    // The strict reading takes the file as written and refuses its points.
    let e = parse(&text).unwrap_err();
    assert_eq!(e.field, "points");
}

#[test]
fn what_two_readings_could_explain_is_left_for_the_points_check() {
    let tolerant = |text: &str| parse_with(text, &ParseOptions::tolerant());
    // An explicit `Z` is an absence as written: the points then do not add up.
    let z = club_event(["       Z", "   2 w 1", "2.5"], ["   1 b 0", "1.0"]);
    assert_eq!(tolerant(&z).unwrap_err().field, "points");
    // Player 2 played every round: half a point more has nothing to be read as.
    let typo = club_event(["        ", "   2 w 1", "2.5"], ["   1 b 0", "1.5"]);
    let e = tolerant(&typo).unwrap_err();
    assert_eq!((e.field.as_str(), e.line()), ("points", 6));
    // Player 1 without a game in rounds 2 and 3 and one and a half points more: a half and a
    // full point, but which where? Not guessed.
    let mixed = club_event(["        ", "        ", "2.5"], ["        ", "1.0"]);
    assert_eq!(tolerant(&mixed).unwrap_err().field, "points");
    // One point more: a half-point bye in each, the only reading.
    let halves = club_event(["        ", "        ", "2.0"], ["        ", "1.0"]);
    let trf = tolerant(&halves).expect("read");
    let p1 = trf.file.players().next().unwrap();
    assert_eq!(
        (p1.entry(2).map(|e| e.result), p1.entry(3).map(|e| e.result)),
        (Some(ResultCode::HalfBye), Some(ResultCode::HalfBye))
    );
}

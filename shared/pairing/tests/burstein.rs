//! The Burstein system (C.04.4.2): the rule text's combination tables (§6.2 six players,
//! §6.4 five players), its colour example (§6.5), the built-in acceleration (§3.3) and the
//! bye rules (§4) as tests, 2,000 simulated tournaments without an absolute-criterion
//! breach, and the checker naming the rule of deliberately broken rounds.

mod swiss_support;

use arbiter_core::ResultCode;
use arbiter_pairing::{Board, RuleSet, Verdict, pair};
use std::collections::BTreeSet;
use swiss_support::*;

/// §6.2: the 15 combinations of six players, in priority order.
const SIX: [[(u32, u32); 3]; 15] = [
    [(1, 6), (2, 5), (3, 4)],
    [(1, 6), (2, 4), (3, 5)],
    [(1, 6), (2, 3), (4, 5)],
    [(1, 5), (2, 6), (3, 4)],
    [(1, 5), (2, 4), (3, 6)],
    [(1, 5), (2, 3), (4, 6)],
    [(1, 4), (2, 6), (3, 5)],
    [(1, 4), (2, 5), (3, 6)],
    [(1, 4), (2, 3), (5, 6)],
    [(1, 3), (2, 6), (4, 5)],
    [(1, 3), (2, 5), (4, 6)],
    [(1, 3), (2, 4), (5, 6)],
    [(1, 2), (3, 6), (4, 5)],
    [(1, 2), (3, 5), (4, 6)],
    [(1, 2), (3, 4), (5, 6)],
];

/// §6.4: the 15 combinations of five players (the floater last), in priority order.
const FIVE: [([(u32, u32); 2], u32); 15] = [
    ([(1, 5), (2, 4)], 3),
    ([(1, 5), (2, 3)], 4),
    ([(1, 5), (3, 4)], 2),
    ([(1, 4), (2, 5)], 3),
    ([(1, 4), (2, 3)], 5),
    ([(1, 4), (3, 5)], 2),
    ([(1, 3), (2, 5)], 4),
    ([(1, 3), (2, 4)], 5),
    ([(1, 3), (4, 5)], 2),
    ([(1, 2), (3, 5)], 4),
    ([(1, 2), (3, 4)], 5),
    ([(1, 2), (4, 5)], 3),
    ([(2, 5), (3, 4)], 1),
    ([(2, 4), (3, 5)], 1),
    ([(2, 3), (4, 5)], 1),
];

fn unordered(boards: &[Board]) -> BTreeSet<(u32, u32)> {
    pairs(boards)
}

/// Players 1..`n` on 1 point from two half-point byes (no games, so no colour preferences
/// and equal SB/Buchholz: ordered by rating), plus, with `extra`, one more player on 0
/// points below them; round 3 (no acceleration).
fn one_group(n: u32, extra: bool) -> Builder {
    let total = n + extra as u32;
    let ratings: Vec<u16> = (0..total).map(|i| 2500 - 50 * i as u16).collect();
    let mut b = Builder::new(&ratings, 7);
    for p in 1..=n {
        b.bye(1, p, ResultCode::HalfBye);
        b.bye(2, p, ResultCode::HalfBye);
    }
    if extra {
        b.bye(1, total, ResultCode::ZeroBye);
        b.bye(2, total, ResultCode::ZeroBye);
    }
    b
}

/// Every set of at most three restricted pairs (announced restrictions count as "already
/// met"): the engine's pairing is the first combination of `table` without one of them.
fn restriction_sets(n: u32) -> Vec<Vec<(u32, u32)>> {
    let all: Vec<(u32, u32)> = (1..=n)
        .flat_map(|a| (a + 1..=n).map(move |b| (a, b)))
        .collect();
    let mut out = vec![vec![]];
    for i in 0..all.len() {
        out.push(vec![all[i]]);
        for j in i + 1..all.len() {
            out.push(vec![all[i], all[j]]);
            for k in j + 1..all.len() {
                out.push(vec![all[i], all[j], all[k]]);
            }
        }
    }
    out
}

#[test]
fn the_six_player_table_is_the_priority_order() {
    let b = one_group(6, false);
    let mut checked = 0;
    for f in restriction_sets(6) {
        let Some(want) = SIX.iter().find(|c| c.iter().all(|p| !f.contains(p))) else {
            continue;
        };
        let mut input = b.input(3, RuleSet::Burstein, &[]);
        input.forbidden_pairs = f.clone();
        let got = unordered(&pair(&input).unwrap().boards);
        assert_eq!(got, want.iter().copied().collect(), "restricted {f:?}");
        checked += 1;
    }
    assert_eq!(checked, 576);
}

#[test]
fn the_five_player_table_is_the_priority_order() {
    // Player 6 is alone below the group: the floater meets him.
    let b = one_group(5, true);
    let mut checked = 0;
    for f in restriction_sets(5) {
        let Some((want, floater)) = FIVE.iter().find(|(c, _)| c.iter().all(|p| !f.contains(p)))
        else {
            continue;
        };
        let mut input = b.input(3, RuleSet::Burstein, &[]);
        input.forbidden_pairs = f.clone();
        let got = unordered(&pair(&input).unwrap().boards);
        let mut w: BTreeSet<(u32, u32)> = want.iter().copied().collect();
        w.insert((*floater, 6));
        assert_eq!(got, w, "restricted {f:?}");
        checked += 1;
    }
    assert_eq!(checked, 176);
}

/// Players 1..n on 1 point (a draw against an outside opponent, then a half-point bye), the
/// round-1 colour giving each the preference asked: `white[i]` = player i+1 prefers white.
fn with_preferences(white: &[bool], below: bool) -> (Builder, Vec<u32>) {
    let n = white.len() as u32;
    let mut ratings: Vec<u16> = (0..n).map(|i| 2500 - 50 * i as u16).collect();
    if below {
        ratings.push(2000);
    }
    let first_filler = ratings.len() as u32 + 1;
    ratings.extend((0..n).map(|i| 1500 - i as u16));
    let mut b = Builder::new(&ratings, 7);
    for p in 1..=n {
        let filler = first_filler + p - 1;
        if white[(p - 1) as usize] {
            b.game(1, filler, p, ResultCode::Draw);
        } else {
            b.game(1, p, filler, ResultCode::Draw);
        }
        b.bye(2, p, ResultCode::HalfBye);
    }
    let mut playing: Vec<u32> = (1..=n).collect();
    if below {
        b.bye(1, n + 1, ResultCode::ZeroBye);
        b.bye(2, n + 1, ResultCode::ZeroBye);
        playing.push(n + 1);
    }
    (b, playing)
}

#[test]
fn the_colour_example_takes_the_combination_granting_most_preferences() {
    // §6.5: 2, 4 and 5 prefer white, the others black: combination 4 of §6.2 (1-5 2-6 3-4).
    let (b, playing) = with_preferences(&[false, true, false, true, true, false], false);
    let input = b.input(3, RuleSet::Burstein, &playing);
    let p = pair(&input).unwrap();
    let mut got = p.boards.clone();
    got.sort();
    assert_eq!(
        got,
        vec![
            Board { white: 2, black: 6 },
            Board { white: 4, black: 3 },
            Board { white: 5, black: 1 },
        ]
    );
    assert!(p.explanation.render().contains("§6.5"));
    // ... and combination 2 of §6.4 (1-5 2-3 4F) with five players.
    let (b, playing) = with_preferences(&[false, true, false, true, true], true);
    let p = pair(&b.input(3, RuleSet::Burstein, &playing)).unwrap();
    assert_eq!(
        unordered(&p.boards),
        [(1, 5), (2, 3), (4, 6)]
            .into_iter()
            .collect::<BTreeSet<_>>()
    );
}

#[test]
fn rounds_one_and_two_are_accelerated() {
    // §3.3: the top half carries a virtual point: {1,2,3,4} and {5,6,7,8} are paired apart,
    // the highest against the lowest (§6.1); §5.1: odd-numbered players of the top half get
    // the drawn colour.
    let b = Builder::new(&[2500, 2400, 2300, 2200, 2100, 2000, 1900, 1800], 7);
    let p = pair(&b.input(1, RuleSet::Burstein, &[])).unwrap();
    let mut got = p.boards.clone();
    got.sort();
    assert_eq!(
        got,
        vec![
            Board { white: 1, black: 4 },
            Board { white: 3, black: 2 },
            Board { white: 5, black: 8 },
            Board { white: 7, black: 6 },
        ]
    );
    let scores: Vec<i32> = p.explanation.brackets.iter().map(|b| b.score).collect();
    assert_eq!(scores, vec![10, 0]);
    // With seven players: {1,2,3} and {4,...,7}; 7 gets the bye, 1-3, and 2 floats to 6.
    let b = Builder::new(&[2500, 2400, 2300, 2200, 2100, 2000, 1900], 7);
    let p = pair(&b.input(1, RuleSet::Burstein, &[])).unwrap();
    assert_eq!(p.bye, Some(7));
    assert_eq!(
        unordered(&p.boards),
        [(1, 3), (2, 6), (4, 5)]
            .into_iter()
            .collect::<BTreeSet<_>>()
    );
    // In round 3 the virtual point is gone: all on 1 point are one scoregroup.
    let mut b = Builder::new(&[2500, 2400, 2300, 2200], 7);
    b.game(1, 1, 4, ResultCode::Win);
    b.game(1, 3, 2, ResultCode::Loss);
    b.game(2, 4, 2, ResultCode::Win);
    b.game(2, 3, 1, ResultCode::Win);
    // Scores: 1, 2, 3, 4 all on 1 point.
    let p = pair(&b.input(3, RuleSet::Burstein, &[])).unwrap();
    assert_eq!(p.explanation.brackets.len(), 1);
}

#[test]
fn the_bye_never_goes_to_a_player_with_a_point_without_playing() {
    // §4.1: player 7 (lowest) had a half-point bye in round 1: 6 gets the bye.
    let mut b = Builder::new(&[2500, 2400, 2300, 2200, 2100, 2000, 1900], 7);
    b.game(1, 1, 4, ResultCode::Win);
    b.game(1, 2, 5, ResultCode::Win);
    b.game(1, 3, 6, ResultCode::Win);
    b.bye(1, 7, ResultCode::HalfBye);
    let input = b.input(2, RuleSet::Burstein, &[]);
    let p = pair(&input).unwrap();
    // Lowest scoregroup (0 points + virtual): 4, 5, 6 lost; 7 has ½. Rounds 1-2 are
    // accelerated: 1, 2, 3 carry a virtual point. The bye goes to the lowest-SB player of
    // the lowest scoregroup {4, 5, 6}: all SB 0, Buchholz 1 each, so the lowest rating: 6.
    assert_eq!(p.bye, Some(6));
    let mut boards = p.boards.clone();
    let six = boards
        .iter()
        .position(|b| b.white == 7 || b.black == 7)
        .unwrap();
    let partner = if boards[six].white == 7 {
        boards[six].black
    } else {
        boards[six].white
    };
    boards[six] = Board {
        white: partner,
        black: 6,
    };
    match verdict(&input, &record_of(boards, Some(7))) {
        Verdict::Absolute { rule, .. } => assert_eq!(rule, "§4.1 (Burstein; C.04.1.d)"),
        v => panic!("expected §4.1, got {v}"),
    }
}

#[test]
fn two_thousand_simulated_tournaments_keep_the_absolute_criteria() {
    // Burstein makes no last-round exception; any point without playing blocks the bye.
    let rounds = property(RuleSet::Burstein, 2_000, true, true);
    assert!(rounds > 8_000, "only {rounds} rounds paired");
}

#[test]
fn the_checker_names_the_rule_of_broken_rounds() {
    checker_suite(
        RuleSet::Burstein,
        "§3.1 (Burstein; C.04.1.b)",
        "§4.1 (Burstein; C.04.1.d)",
        &["§6.2", "§6.4", "§6.5", "§4.2"],
    );
}

#[test]
fn a_player_who_floated_in_does_not_float_again() {
    // §6.4: "if #2 is a floater from another scoregroup, combinations 3, 6 and 9 are not
    // valid". Player 2 (2 points from two full-point byes) floats alone into the 1-point
    // group {1, 3, 4, 5} (half-point byes), where he ranks #2 by rating (SB, Buchholz and
    // Median are all 0). Players 6 and 7 are on 0 points; 7 gets the bye. With 2-3 and 2-4
    // restricted, combinations 1 and 2 fail and 3 would float 2 again: combination 4,
    // 1-4 2-5 with 3 floating to 6, is the pairing.
    let mut b = Builder::new(&[2500, 2450, 2400, 2350, 2300, 2000, 1900], 7);
    for r in 1..=2 {
        b.bye(r, 2, ResultCode::FullBye);
        for p in [1, 3, 4, 5] {
            b.bye(r, p, ResultCode::HalfBye);
        }
        for p in [6, 7] {
            b.bye(r, p, ResultCode::ZeroBye);
        }
    }
    let mut input = b.input(3, RuleSet::Burstein, &[]);
    input.forbidden_pairs = vec![(2, 3), (2, 4)];
    let p = pair(&input).unwrap();
    assert_eq!(p.bye, Some(7));
    assert_eq!(
        unordered(&p.boards),
        [(1, 4), (2, 5), (3, 6)]
            .into_iter()
            .collect::<BTreeSet<_>>()
    );
}

/// The rule set `burstein-bbp` pairs every round of the golden corpus of bbpPairings'
/// Burstein tournaments (tests/golden/burstein-bbp) exactly: pairs, colours and bye.
#[test]
fn the_bbp_reading_pairs_every_round_of_its_golden_corpus() {
    use arbiter_pairing::RecordedPairing;
    let records = golden_records("burstein-bbp");
    assert_eq!(records.len(), 120);
    let (mut rounds, mut differing) = (0, Vec::new());
    for (path, record) in &records {
        for r in 1..=record.paired_rounds() {
            let input = record
                .input_for_round(r, RuleSet::BursteinBbp)
                .expect("input");
            let same = pair(&input).is_ok_and(|p| {
                RecordedPairing {
                    boards: p.boards,
                    bye: p.bye,
                }
                .normalized()
                    == record.recorded(r).normalized()
            });
            rounds += 1;
            if !same {
                differing.push(format!("{} round {r}", path.display()));
            }
        }
    }
    assert!(rounds >= 900, "{rounds} rounds");
    assert!(
        differing.is_empty(),
        "{} of {rounds} differ: {differing:?}",
        differing.len()
    );
}

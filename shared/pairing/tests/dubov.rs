//! The Dubov system (C.04.4.1): the rule text's worked example and rules as tests, 2,000
//! simulated tournaments without an absolute-criterion breach, and the checker naming the
//! rule of deliberately broken rounds.

mod swiss_support;

use arbiter_core::ResultCode;
use arbiter_pairing::{Board, RuleSet, Verdict, pair};
use swiss_support::*;

const D: ResultCode = ResultCode::Draw;
const H: ResultCode = ResultCode::HalfBye;

/// The §6.2 example of the rule text: six white-seekers with AROs 2310.0, 2318.4, 2322.3,
/// 2333.7, 2340.5, 2344.6 and six black-seekers rated 2380, 2365, 2300, 2280, 2260, 2250,
/// all on 2.5 points before round 6. Each white-seeker's games are against opponents whose
/// ratings average to his ARO; `tweak` may change the history before pairing.
fn aro_example(tweak: impl FnOnce(&mut Vec<(u32, u32, u32, u16)>)) -> (Builder, Vec<u32>) {
    // Players 1-6: black-seekers; 7-12: white-seekers (rated 2200); 13...: their opponents.
    let black_ratings = [2380u16, 2365, 2300, 2280, 2260, 2250];
    // (player, round, colour 0 = white 1 = black, opponent rating or 0 = player 1..6 given)
    let mut games: Vec<(u32, u32, u32, u16)> = Vec::new();
    for p in 1..=6 {
        games.push((p, 1, 0, 2000));
    }
    let white_seekers: [&[u16]; 6] = [
        &[2310],
        &[2318, 2318, 2318, 2318, 2320],
        &[2322, 2322, 2323],
        &[2333, 2334, 2334],
        &[2340, 2341],
        &[2344, 2345, 2345, 2345, 2344],
    ];
    for (k, opps) in white_seekers.iter().enumerate() {
        let n = opps.len();
        for (g, &r) in opps.iter().enumerate() {
            // Colours ending in black, alternating: a white preference (more blacks, or equal
            // with black last).
            let colour = ((n - 1 - g) % 2 == 0) as u32;
            games.push((7 + k as u32, g as u32 + 1, colour, r));
        }
    }
    tweak(&mut games);
    let mut ratings: Vec<u16> = black_ratings.to_vec();
    ratings.extend([2200u16; 6]);
    let fillers: Vec<u16> = games.iter().filter(|g| g.3 >= 1000).map(|g| g.3).collect();
    ratings.extend(&fillers);
    let mut b = Builder::new(&ratings, 9);
    let mut next_filler = 13;
    let mut played = std::collections::BTreeSet::new();
    for &(p, r, colour, opp) in &games {
        let o = if opp >= 1000 {
            next_filler += 1;
            next_filler - 1
        } else {
            opp as u32
        };
        let (w, k) = if colour == 0 { (p, o) } else { (o, p) };
        b.game(r, w, k, D);
        played.insert((p, r));
        played.insert((o, r));
    }
    for p in 1..=12 {
        for r in 1..=5 {
            if !played.contains(&(p, r)) {
                b.bye(r, p, H);
            }
        }
    }
    (b, (1..=12).collect())
}

fn boards(input: &arbiter_pairing::PairingInput) -> Vec<(u32, u32)> {
    let p = pair(input).expect("pairing");
    let mut v: Vec<(u32, u32)> = p.boards.iter().map(|b| (b.white, b.black)).collect();
    v.sort();
    v
}

#[test]
fn the_aro_example_pairs_row_by_row() {
    let (b, playing) = aro_example(|_| {});
    let input = b.input(6, RuleSet::Dubov, &playing);
    // Row by row: ARO ascending against rating descending; both get their due colours.
    assert_eq!(
        boards(&input),
        vec![(7, 1), (8, 2), (9, 3), (10, 4), (11, 5), (12, 6)]
    );
    let text = pair(&input).unwrap().explanation.render();
    for aro in ["2310.0", "2318.4", "2322.3", "2333.7", "2340.5", "2344.6"] {
        assert!(
            text.contains(&format!("ARO {aro}")),
            "{aro} missing from:\n{text}"
        );
    }
    assert!(text.contains("Dubov system (C.04.4.1)"), "{text}");
}

#[test]
fn a_rematch_takes_the_first_black_seeker_of_the_following_rows() {
    // Player 7 (row 1, ARO still 2310.0) has already met player 1 (row 1's black-seeker).
    let (b, playing) = aro_example(|g| {
        g.retain(|x| !(x.0 == 7 || x.0 == 1));
        g.push((7, 1, 0, 2240));
        g.push((7, 2, 1, 1)); // black against player 1: 2240 and 2380 average 2310.0
    });
    let input = b.input(6, RuleSet::Dubov, &playing);
    assert_eq!(
        boards(&input),
        vec![(7, 2), (8, 1), (9, 3), (10, 4), (11, 5), (12, 6)]
    );
}

#[test]
fn a_clash_in_the_last_row_changes_the_previous_row() {
    // Player 12 (last row, ARO still 2344.6) has already met player 6 (last black-seeker).
    let (b, playing) = aro_example(|g| {
        g.retain(|x| !(x.0 == 12 || x.0 == 6));
        g.push((12, 1, 1, 6));
        for (r, rating) in [(2, 2368u16), (3, 2368), (4, 2368), (5, 2369)] {
            g.push((12, r, (r % 2 == 1) as u32, rating));
        }
    });
    let input = b.input(6, RuleSet::Dubov, &playing);
    assert_eq!(
        boards(&input),
        vec![(7, 1), (8, 2), (9, 3), (10, 4), (11, 6), (12, 5)]
    );
}

#[test]
fn round_one_is_top_half_against_bottom_half_with_alternating_colours() {
    for n in [8u32, 9, 40, 41] {
        let ratings: Vec<u16> = (0..n).map(|i| 2600 - 10 * i as u16).collect();
        let b = Builder::new(&ratings, 9);
        let p = pair(&b.input(1, RuleSet::Dubov, &[])).unwrap();
        let half = n / 2;
        assert_eq!(p.boards.len() as u32, half);
        assert_eq!(
            p.bye,
            (n % 2 == 1).then_some(n),
            "§5: the last player gets the bye"
        );
        for k in 1..=half {
            let (top, bottom) = (k, k + half);
            let want = if k % 2 == 1 {
                Board {
                    white: top,
                    black: bottom,
                }
            } else {
                Board {
                    white: bottom,
                    black: top,
                }
            };
            assert!(
                p.boards.contains(&want),
                "n={n}: board {k} should be {want:?}: {:?}",
                p.boards
            );
        }
    }
}

#[test]
fn the_bye_goes_to_the_lowest_rating_of_the_lowest_scoregroup() {
    let mut b = Builder::new(&[2400, 2300, 2200, 2100, 2000, 1900, 1800], 5);
    b.game(1, 1, 5, ResultCode::Win);
    b.game(1, 6, 2, ResultCode::Loss);
    b.game(1, 3, 7, D);
    b.bye(1, 4, ResultCode::PairingBye);
    let p = pair(&b.input(2, RuleSet::Dubov, &[])).unwrap();
    // Lowest scoregroup (0 points): 5 (2000) and 6 (1900).
    assert_eq!(p.bye, Some(6));
    // With equal ratings the higher ARO takes it: 5 met 1 (2400), 6 met 2 (2300).
    let mut b = Builder::new(&[2400, 2300, 2200, 2100, 2000, 2000, 1800], 5);
    b.game(1, 1, 5, ResultCode::Win);
    b.game(1, 6, 2, ResultCode::Loss);
    b.game(1, 3, 7, D);
    b.bye(1, 4, ResultCode::PairingBye);
    let p = pair(&b.input(2, RuleSet::Dubov, &[])).unwrap();
    assert_eq!(p.bye, Some(5));
}

#[test]
fn colours_follow_section_3() {
    // Two black-seekers with the same history: white to the higher ARO (§3.4).
    let mut b = Builder::new(&[2400, 2300, 2200, 2100], 5);
    b.game(1, 1, 3, D);
    b.game(1, 2, 4, D);
    // 1 and 2 both played white and drew; 3 and 4 played black. Pair only 1 and 2.
    let input = b.input(2, RuleSet::Dubov, &[1, 2]);
    let p = pair(&input).unwrap();
    // Both seek black with equal histories; ARO of 1 = 2200, of 2 = 2100: white to 1.
    assert_eq!(p.boards, vec![Board { white: 1, black: 2 }]);
    let other = record_of(vec![Board { white: 2, black: 1 }], None);
    match verdict(&input, &other) {
        Verdict::Colour { rule, .. } => assert_eq!(rule, "§3.4"),
        v => panic!("expected a colour verdict, got {v}"),
    }
}

#[test]
fn two_thousand_simulated_tournaments_keep_the_absolute_criteria() {
    // Dubov makes no last-round exception to C.04.1.f/g.
    let rounds = property(RuleSet::Dubov, 2_000, true, false);
    assert!(rounds > 8_000, "only {rounds} rounds paired");
}

/// Every round of the golden corpora's histories: paired within the absolute criteria, or
/// refused only where no pairing can keep them.
#[test]
fn every_golden_history_is_paired_validly() {
    let (paired, _) = golden_histories(RuleSet::Dubov, true, false);
    assert!(paired >= 10_000, "{paired} rounds paired");
}

#[test]
fn the_checker_names_the_rule_of_broken_rounds() {
    checker_suite(
        RuleSet::Dubov,
        "C.04.1.b (Dubov §2)",
        "C.04.1.d (Dubov §4)",
        &["§5", "§6.2", "§6.3", "§7.1", "§8.2", "§4"],
    );
}

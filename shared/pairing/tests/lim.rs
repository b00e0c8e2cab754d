//! The Lim system (C.04.4.3): the rule text's exchange tables (§4.2, §4.3), first-round
//! example (§7.2), processing order (§2.2, §8) and colour rules as tests, 2,000 simulated
//! tournaments without an absolute-criterion breach, and the checker naming the rule of
//! deliberately broken rounds.

mod swiss_support;

use arbiter_core::ResultCode;
use arbiter_pairing::{Board, RuleSet, Verdict, pair};
use swiss_support::*;

/// Six players of one scoregroup, paired downwards, where player `p` may not meet the players
/// listed (announced restrictions, which count as "already met"): the boards as unordered
/// pairs, lowest number first, sorted.
fn six_with_restrictions(restricted: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let b = Builder::new(&[2500, 2400, 2300, 2200, 2100, 2000], 7);
    let mut input = b.input(1, RuleSet::Lim, &[]);
    input.forbidden_pairs = restricted.to_vec();
    let p = pair(&input).expect("pairing");
    let mut v: Vec<(u32, u32)> = p
        .boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect();
    v.sort();
    v
}

#[test]
fn the_exchange_table_for_player_one() {
    // §4.2: proposed 1v4 2v5 3v6; then 1v5 2v4 3v6; 1v6 2v4 3v5; 1v3 2v5 4v6; 1v2 3v5 4v6.
    assert_eq!(six_with_restrictions(&[]), vec![(1, 4), (2, 5), (3, 6)]);
    assert_eq!(
        six_with_restrictions(&[(1, 4)]),
        vec![(1, 5), (2, 4), (3, 6)]
    );
    assert_eq!(
        six_with_restrictions(&[(1, 4), (1, 5)]),
        vec![(1, 6), (2, 4), (3, 5)]
    );
    assert_eq!(
        six_with_restrictions(&[(1, 4), (1, 5), (1, 6)]),
        vec![(1, 3), (2, 5), (4, 6)]
    );
    assert_eq!(
        six_with_restrictions(&[(1, 3), (1, 4), (1, 5), (1, 6)]),
        vec![(1, 2), (3, 5), (4, 6)]
    );
}

#[test]
fn the_exchange_table_for_player_two() {
    // §4.3, with 1v6 fixed: 1v6 2v4 3v5; 1v6 2v5 3v4; 1v6 2v3 4v5; 1v3 2v6 4v5; 1v2 3v5 4v6.
    let one = [(1, 4), (1, 5)];
    let with = |more: &[(u32, u32)]| {
        let mut v = one.to_vec();
        v.extend_from_slice(more);
        six_with_restrictions(&v)
    };
    assert_eq!(with(&[]), vec![(1, 6), (2, 4), (3, 5)]);
    assert_eq!(with(&[(2, 4)]), vec![(1, 6), (2, 5), (3, 4)]);
    assert_eq!(with(&[(2, 4), (2, 5)]), vec![(1, 6), (2, 3), (4, 5)]);
    assert_eq!(
        with(&[(2, 3), (2, 4), (2, 5)]),
        vec![(1, 3), (2, 6), (4, 5)]
    );
    assert_eq!(
        with(&[(2, 3), (2, 4), (2, 5), (2, 6)]),
        vec![(1, 2), (3, 5), (4, 6)]
    );
}

#[test]
fn round_one_matches_the_forty_player_example() {
    // §7.2: 1-21, 22-2, 3-23, 24-4, ..., 40-20, first-named player white.
    for n in [40u32, 41] {
        let ratings: Vec<u16> = (0..n).map(|i| 2600 - 10 * i as u16).collect();
        let p = pair(&Builder::new(&ratings, 9).input(1, RuleSet::Lim, &[])).unwrap();
        assert_eq!(
            p.bye,
            (n == 41).then_some(41),
            "§7.1: the lowest-ranked gets the bye"
        );
        for k in 1..=20u32 {
            let want = if k % 2 == 1 {
                Board {
                    white: k,
                    black: k + 20,
                }
            } else {
                Board {
                    white: k + 20,
                    black: k,
                }
            };
            assert!(
                p.boards.contains(&want),
                "board {k}: {want:?} not in {:?}",
                p.boards
            );
        }
    }
}

/// Eight players after round 1: 1 and 3 won with white, 2 and 4 with black; all games
/// decisive.
fn after_round_one() -> Builder {
    let mut b = Builder::new(&[2500, 2400, 2300, 2200, 2100, 2000, 1900, 1800], 7);
    b.game(1, 1, 5, ResultCode::Win);
    b.game(1, 6, 2, ResultCode::Loss);
    b.game(1, 3, 7, ResultCode::Win);
    b.game(1, 8, 4, ResultCode::Loss);
    b
}

#[test]
fn round_two_pairs_the_top_group_down_the_bottom_group_up_and_reviews_colours() {
    let input = after_round_one().input(2, RuleSet::Lim, &[]);
    let p = pair(&input).unwrap();
    // §8: the 1-point group first, then the 0-point group; no player has the median ½.
    let scores: Vec<i32> = p.explanation.brackets.iter().map(|b| b.score).collect();
    assert_eq!(scores, vec![10, 0]);
    // 1-point group {1,2,3,4}: proposed 1v3 2v4 grants two preferences (1 and 3 both want
    // black, 2 and 4 white); the exchange 1v4 2v3 grants all four (§5.2).
    // 0-point group {5,6,7,8}, upwards from 8: proposed 8v6 (both want black); 8v5 with
    // 7v6 grants all four.
    let mut got = p.boards.clone();
    got.sort();
    let mut want = vec![
        Board { white: 4, black: 1 },
        Board { white: 2, black: 3 },
        Board { white: 5, black: 8 },
        Board { white: 7, black: 6 },
    ];
    want.sort();
    assert_eq!(got, want);
    let text = p.explanation.render();
    assert!(text.contains("§5.2"), "{text}");
    assert!(text.contains("paired upwards"), "{text}");
}

#[test]
fn identical_histories_alternate_by_rank_above_and_below_the_median() {
    // Only 1 and 3 (both won with white): median group or above, the higher-ranked (1)
    // gets the alternating colour, black.
    let input = after_round_one().input(2, RuleSet::Lim, &[1, 3]);
    assert_eq!(
        pair(&input).unwrap().boards,
        vec![Board { white: 3, black: 1 }]
    );
    // Only 6 and 8 (both lost with white): below the median group, the lower-ranked (8)
    // alternates.
    let input = after_round_one().input(2, RuleSet::Lim, &[6, 8]);
    assert_eq!(
        pair(&input).unwrap().boards,
        vec![Board { white: 6, black: 8 }]
    );
    let other = record_of(vec![Board { white: 8, black: 6 }], None);
    match verdict(&input, &other) {
        Verdict::Colour { rule, .. } => assert_eq!(rule, "§5.4"),
        v => panic!("expected a colour verdict, got {v}"),
    }
}

#[test]
fn the_bye_goes_to_the_lowest_ranked_of_the_lowest_scoregroup() {
    let mut b = Builder::new(&[2500, 2400, 2300, 2200, 2100, 2000, 1900], 7);
    b.game(1, 1, 4, ResultCode::Win);
    b.game(1, 5, 2, ResultCode::Loss);
    b.game(1, 3, 6, ResultCode::Loss);
    b.bye(1, 7, ResultCode::PairingBye);
    // 0 points: 4 and 5; the lowest-ranked is 5.
    assert_eq!(pair(&b.input(2, RuleSet::Lim, &[])).unwrap().bye, Some(5));
}

#[test]
fn the_last_round_puts_scores_before_colours() {
    // §6: in the last round a player may get a colour three times in a row. Players 1 and 2
    // have both played white twice; in the last round they are the only two left.
    let mut b = Builder::new(&[2500, 2400, 2300, 2200, 2100, 2000], 3);
    b.game(1, 1, 4, ResultCode::Win);
    b.game(1, 2, 5, ResultCode::Win);
    b.game(1, 3, 6, ResultCode::Win);
    b.game(2, 1, 6, ResultCode::Win);
    b.game(2, 2, 3, ResultCode::Win);
    b.game(2, 4, 5, ResultCode::Win);
    let input = b.input(3, RuleSet::Lim, &[1, 2]);
    let p = pair(&input).expect("the last round pairs 1 and 2 despite colours");
    assert_eq!(p.boards.len(), 1);
    // Before the last round the same two cannot meet.
    let mut b2 = b;
    b2.total_rounds = 5;
    assert!(pair(&b2.input(3, RuleSet::Lim, &[1, 2])).is_err());
}

#[test]
fn two_thousand_simulated_tournaments_keep_the_absolute_criteria() {
    // Lim §6: colour limits do not bind in the last round.
    let rounds = property(RuleSet::Lim, 2_000, false, false);
    assert!(rounds > 8_000, "only {rounds} rounds paired");
}

/// Every round of the golden corpora's histories: paired within the absolute criteria, or
/// refused only where no pairing can keep them.
#[test]
fn every_golden_history_is_paired_validly() {
    let (paired, _) = golden_histories(RuleSet::Lim, false, false);
    assert!(paired >= 10_000, "{paired} rounds paired");
}

#[test]
fn the_checker_names_the_rule_of_broken_rounds() {
    checker_suite(
        RuleSet::Lim,
        "C.04.1.b (Lim §2.1)",
        "C.04.1.d (Lim §1)",
        &["§2.4", "§3.8", "§4.1", "§5.2", "§1"],
    );
}

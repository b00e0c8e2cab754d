//! Hand-made cases: bad input, rounding, sharing scope, category prizes.

use arbiter_core::Score;
use arbiter_prizes::{
    Amount, Category, Distribution, Entrants, Method, Policy, Prize, PrizeError, PrizeFund,
    ScoreGroup, SharingScope, Source, distribute,
};

fn group(points: i32, players: &[&'static str]) -> ScoreGroup<&'static str> {
    ScoreGroup::new(Score::points(points), players.to_vec())
}

fn paid(d: &Distribution<&'static str>) -> Vec<(&'static str, i64)> {
    d.awards.iter().map(|a| (a.player, a.paid)).collect()
}

fn err(st: &[ScoreGroup<&'static str>], fund: PrizeFund<&'static str>) -> String {
    distribute(st, &fund, &Policy::new(Method::Equal))
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let st = [group(5, &["A", "B"])];
    assert_eq!(
        distribute(&st, &PrizeFund::places(vec![]), &Policy::new(Method::Equal)),
        Err(PrizeError::NoPrizes)
    );
    assert_eq!(
        err(&[], PrizeFund::places(vec![1])),
        "no players: the standings are empty"
    );
    assert_eq!(
        err(&st, PrizeFund::places(vec![10, -1])),
        "place prizes: prize for place 2 is negative (-1)"
    );
    assert_eq!(
        err(&st, PrizeFund::places(vec![10, 20])),
        "place prizes: place 2 pays more than place 1"
    );
    assert_eq!(
        err(&st, PrizeFund::places(vec![i64::MAX, 1])),
        "the prize fund exceeds the largest representable amount"
    );
    assert_eq!(
        err(
            &[group(5, &["A"]), group(4, &[])],
            PrizeFund::places(vec![1])
        ),
        "place prizes: group 2 has no player"
    );
    assert_eq!(
        err(
            &[group(4, &["A"]), group(5, &["B"])],
            PrizeFund::places(vec![1])
        ),
        "score group 2 has more points than the group before it"
    );
    assert_eq!(
        err(
            &[group(5, &["A"]), group(4, &["B", "A"])],
            PrizeFund::places(vec![1])
        ),
        "player A is listed twice in the standings"
    );
}

#[test]
fn bad_categories_are_refused() {
    let st = [group(5, &["A", "B"])];
    let cat = |name: &str, prizes: Vec<i64>, entrants| Category {
        name: name.to_string(),
        prizes,
        entrants,
    };
    let with = |c| PrizeFund::places(vec![10]).with_category(c);
    let e = err(
        &st,
        with(cat("U16", vec![], Entrants::Standings(vec!["A"]))),
    );
    assert_eq!(e, "category U16 has no prize");
    let e = err(
        &st,
        with(cat("U16", vec![5], Entrants::Standings(vec!["Z"]))),
    );
    assert_eq!(e, "U16: player Z is not in the standings");
    let e = err(
        &st,
        with(cat("U16", vec![5], Entrants::Standings(vec!["B", "B"]))),
    );
    assert_eq!(e, "U16: player B is listed twice");
    let e = err(
        &st,
        with(cat(
            "Gain",
            vec![5],
            Entrants::Ranked(vec![vec!["A"], vec![]]),
        )),
    );
    assert_eq!(e, "Gain: group 2 has no player");
    let e = err(
        &st,
        with(cat(
            "Gain",
            vec![5],
            Entrants::Ranked(vec![vec!["A"], vec!["A"]]),
        )),
    );
    assert_eq!(e, "Gain: player A is listed twice");
    let e = err(
        &st,
        with(cat("Women", vec![-5], Entrants::Standings(vec!["A"]))),
    );
    assert_eq!(e, "Women: prize for place 1 is negative (-5)");
}

#[test]
fn odd_cents_go_up_the_tie_break_order_and_totals_hold() {
    // 100.00 EUR for place 10 shared by 11 players on the same score (whole group shares).
    let players: Vec<&str> = vec!["K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U"];
    let st = [group(7, &players)];
    let policy = Policy {
        scope: SharingScope::AllTied,
        ..Policy::new(Method::Equal)
    };
    let d = distribute(&st, &PrizeFund::places(vec![10000]), &policy).unwrap();
    assert!(
        d.awards
            .iter()
            .all(|a| a.exact == Amount::new(10000, 11).unwrap())
    );
    assert_eq!(d.awards[0].paid, 910);
    assert!(d.awards[1..].iter().all(|a| a.paid == 909));
    assert_eq!(d.paid_total(), 10000);
    // The default scope keeps the prize with the player ranked at place 1 of the group.
    let d = distribute(
        &st,
        &PrizeFund::places(vec![10000]),
        &Policy::new(Method::Equal),
    )
    .unwrap();
    assert_eq!(d.awards[0].paid, 10000);
    assert!(
        d.awards[1..]
            .iter()
            .all(|a| a.paid == 0 && a.portions.is_empty())
    );
}

#[test]
fn more_prizes_than_players_leaves_prizes_unawarded() {
    let st = [group(3, &["A", "B"])];
    let d = distribute(
        &st,
        &PrizeFund::places(vec![30, 20, 10]),
        &Policy::new(Method::Hort),
    );
    let d = d.unwrap();
    assert_eq!(paid(&d), [("A", 28), ("B", 22)]); // 15 + 12.5 and 10 + 12.5, rounded
    let expected = Prize {
        source: Source::Places,
        place: 3,
        amount: 10,
    };
    assert_eq!(d.unawarded, [expected]);
    assert_eq!(d.paid_total() + d.unawarded_total(), 60);
}

fn juniors(prizes: Vec<i64>, entrants: &[&'static str]) -> Category<&'static str> {
    Category {
        name: "Juniors".into(),
        prizes,
        entrants: Entrants::Standings(entrants.to_vec()),
    }
}

#[test]
fn one_prize_per_player_keeps_the_highest_and_passes_the_other_on() {
    let st = [
        group(6, &["A"]),
        group(5, &["B"]),
        group(4, &["C"]),
        group(3, &["D"]),
    ];
    let policy = Policy::new(Method::TieBreak);
    // B's junior prize (600) beats place 2 (500), which passes to C.
    let fund = PrizeFund::places(vec![1000, 500]).with_category(juniors(vec![600], &["B", "D"]));
    let d = distribute(&st, &fund, &policy).unwrap();
    assert_eq!(paid(&d), [("A", 1000), ("B", 600), ("C", 500), ("D", 0)]);
    // Place 2 is worth more than the junior prize: B keeps it and D is the best junior left.
    let fund = PrizeFund::places(vec![1000, 500]).with_category(juniors(vec![400], &["B", "D"]));
    let d = distribute(&st, &fund, &policy).unwrap();
    assert_eq!(paid(&d), [("A", 1000), ("B", 500), ("C", 0), ("D", 400)]);
    // Equal values: the general prize comes first.
    let fund = PrizeFund::places(vec![1000, 500]).with_category(juniors(vec![500], &["B", "D"]));
    let d = distribute(&st, &fund, &policy).unwrap();
    assert_eq!(paid(&d), [("A", 1000), ("B", 500), ("C", 0), ("D", 500)]);
    // Cumulative prizes: B wins both.
    let cumulative = Policy {
        one_prize_per_player: false,
        ..policy
    };
    let d = distribute(&st, &fund, &cumulative).unwrap();
    assert_eq!(paid(&d), [("A", 1000), ("B", 1000), ("C", 0), ("D", 0)]);
    assert_eq!(d.award(&"B").unwrap().portions.len(), 2);
}

#[test]
fn category_ties_share_by_the_same_method() {
    // Two juniors tied on 5 points share the two junior prizes equally.
    let st = [group(6, &["A"]), group(5, &["B", "C", "D"])];
    let fund = PrizeFund::places(vec![1000]).with_category(juniors(vec![301, 100], &["C", "D"]));
    let d = distribute(&st, &fund, &Policy::new(Method::Equal)).unwrap();
    assert_eq!(paid(&d), [("A", 1000), ("B", 0), ("C", 201), ("D", 200)]);
    assert_eq!(d.award(&"D").unwrap().exact, Amount::new(401, 2).unwrap());
    assert_eq!(
        d.award(&"C").unwrap().portions[0].source,
        Source::Category(0)
    );
}

#[test]
fn a_juniors_category_with_no_junior_left_is_unawarded() {
    let st = [group(6, &["A"]), group(5, &["B"])];
    let fund = PrizeFund::places(vec![1000, 900]).with_category(juniors(vec![100], &["A"]));
    let d = distribute(&st, &fund, &Policy::new(Method::Hort)).unwrap();
    assert_eq!(paid(&d), [("A", 1000), ("B", 900)]);
    assert_eq!(d.unawarded.len(), 1);
    assert_eq!(d.unawarded[0].source, Source::Category(0));
    assert_eq!(fund.total(), d.paid_total() + d.unawarded_total());
}

#[test]
fn play_off_losers_share_only_the_places_they_contest() {
    // Four players on 7 points; the play-off decides 1st and 2nd, the semi-final losers share
    // 3rd and 4th.
    let st = [group(7, &["W"]), group(7, &["F"]), group(7, &["S1", "S2"])];
    let fund = PrizeFund::places(vec![400, 300, 200, 101]);
    let d = distribute(&st, &fund, &Policy::new(Method::Equal)).unwrap();
    assert_eq!(paid(&d), [("W", 400), ("F", 300), ("S1", 151), ("S2", 150)]);
}

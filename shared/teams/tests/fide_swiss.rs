//! FIDE's team Swiss (C.04.6) on hand-built fields whose answers follow from its articles.
//! (The campaign in services/arbiter/tests/e2e/crosscheck checks whole generated events
//! against FIDE TEC's own checker.)

use arbiter_core::teams::TeamScore;
use arbiter_core::{Color, Score};
use arbiter_teams::{ColourModel, FideTeamInput, FideTeamSystem, TeamStanding, pair_round};
use std::collections::BTreeSet;

fn team(tpn: u32, points: i32) -> TeamStanding {
    TeamStanding {
        tpn,
        available: true,
        pairing_score: Score::points(points),
        primary: Score::points(points),
        secondary: Score::ZERO,
        met: BTreeSet::new(),
        bye_barred: false,
        colours: Vec::new(),
        floated: false,
    }
}

fn input(colours: ColourModel, round: u32, teams: Vec<TeamStanding>) -> FideTeamInput {
    FideTeamInput {
        system: FideTeamSystem {
            colours,
            secondary_for_colours: true,
        },
        round,
        total_rounds: 9,
        initial_colour: Color::White,
        teams,
    }
}

fn pairs(i: &FideTeamInput) -> Vec<(u32, u32)> {
    pair_round(i)
        .expect("paired")
        .matches
        .iter()
        .map(|m| (m.white, m.black))
        .collect()
}

/// Round 1: the top members are the first half (Art. 3.6.2 orders bottom members last), each
/// meets the first free bottom member; colours by Art. 4.3.1 (odd TPN: the initial-colour).
#[test]
fn round_one_folds_the_field_and_alternates_the_initial_colour() {
    let i = input(ColourModel::TypeA, 1, (1..=6).map(|t| team(t, 0)).collect());
    assert_eq!(pairs(&i), vec![(1, 4), (5, 2), (3, 6)]);
}

/// Art. 3.4: the bye goes to the lowest score, then the most matches played, then the largest
/// TPN; [C2] bars a team that has won a match by forfeit.
#[test]
fn the_bye_goes_to_the_lowest_largest_tpn_team_not_barred_by_c2() {
    let i = input(ColourModel::TypeA, 1, (1..=5).map(|t| team(t, 0)).collect());
    assert_eq!(pair_round(&i).unwrap().bye, Some(5));

    let mut teams: Vec<TeamStanding> = (1..=5).map(|t| team(t, 0)).collect();
    teams[4].bye_barred = true;
    let i = input(ColourModel::TypeA, 2, teams);
    assert_eq!(pair_round(&i).unwrap().bye, Some(4));
}

/// [C1]: teams that played do not meet again; a forfeited match is no meeting (the caller
/// leaves it out of `met`). Three teams that all met each other cannot be paired.
#[test]
fn teams_that_met_are_not_paired_again_and_no_pairing_is_an_error() {
    let mut teams: Vec<TeamStanding> = (1..=4).map(|t| team(t, 0)).collect();
    teams[0].met.insert(2);
    teams[1].met.insert(1);
    teams[0].colours.push(Color::White);
    teams[1].colours.push(Color::Black);
    let got = pairs(&input(ColourModel::TypeA, 2, teams.clone()));
    assert!(!got.contains(&(1, 2)) && !got.contains(&(2, 1)), "{got:?}");

    let mut three: Vec<TeamStanding> = (1..=4).map(|t| team(t, 0)).collect();
    for (a, b) in [(1, 2), (1, 3), (1, 4)] {
        three[a - 1].met.insert(b as u32);
        three[b - 1].met.insert(a as u32);
    }
    let e = pair_round(&input(ColourModel::TypeA, 4, three)).unwrap_err();
    assert!(e.contains("Art. 3.3.3"), "{e}");
}

/// Art. 3.5: an odd top-scoregroup takes one upfloater, the first in TPN order from the next
/// scoregroup ([C5] the highest score, Art. 3.5.4 the lowest TPN).
#[test]
fn an_odd_scoregroup_takes_the_best_upfloater() {
    let mut teams = vec![team(1, 4), team(2, 4), team(3, 4)];
    teams.extend([team(4, 2), team(5, 2), team(6, 0), team(7, 0), team(8, 0)]);
    let p = pair_round(&input(ColourModel::None, 3, teams)).unwrap();
    let matches: BTreeSet<(u32, u32)> = p
        .matches
        .iter()
        .map(|m| (m.white.min(m.black), m.white.max(m.black)))
        .collect();
    // The bracket {1, 2, 3, 4}: top members 1 and 2, bottoms 3 and 4.
    assert!(
        matches.contains(&(1, 3)) && matches.contains(&(2, 4)),
        "{matches:?}"
    );
    // The next bracket, {5} and the three teams on 0, takes team 6.
    assert!(matches.contains(&(5, 6)), "{matches:?}");
}

/// [C8]: two teams that want the same colour are not paired when another pairing of the
/// bracket avoids it, even against the lexicographic order; with no colour model the order
/// alone decides.
#[test]
fn teams_wanting_the_same_colour_are_kept_apart() {
    let mut teams: Vec<TeamStanding> = (1..=4).map(|t| team(t, 2)).collect();
    // 1 and 3 played White twice (type A: they prefer Black), 2 and 4 Black twice.
    for (t, c) in [
        (0, Color::White),
        (1, Color::Black),
        (2, Color::White),
        (3, Color::Black),
    ] {
        teams[t].colours = vec![c, c];
    }
    assert_eq!(
        pairs(&input(ColourModel::TypeA, 3, teams.clone())),
        vec![(4, 1), (2, 3)],
        "1-4 and 2-3 grant every preference"
    );
    // No preferences: 1-3 and 2-4 come first (Art. 3.6.2); Art. 4.3.8 alternates the
    // first-team's colour.
    assert_eq!(
        pairs(&input(ColourModel::None, 3, teams)),
        vec![(3, 1), (2, 4)]
    );
}

/// Type B's mild preference (colour difference +1 or -1, or the last colour when balanced)
/// is a preference that Art. 4.3.3 grants; type A has none there and Art. 4.3.5 decides.
#[test]
fn type_b_grants_a_mild_preference_that_type_a_does_not_know() {
    let mut teams = vec![team(1, 2), team(2, 2)];
    teams[0].colours = vec![Color::White, Color::Black, Color::White];
    teams[1].colours = vec![Color::White, Color::Black];
    let b = pair_round(&input(ColourModel::TypeB, 4, teams.clone())).unwrap();
    assert_eq!(
        (b.matches[0].white, b.matches[0].black, b.matches[0].rule),
        (2, 1, "4.3.3")
    );
    let a = pair_round(&input(ColourModel::TypeA, 4, teams)).unwrap();
    assert_eq!(
        (a.matches[0].white, a.matches[0].black, a.matches[0].rule),
        (2, 1, "4.3.5")
    );
}

#[test]
fn rule_sets_and_type_codes_name_the_system() {
    for colours in [ColourModel::TypeA, ColourModel::TypeB, ColourModel::None] {
        for secondary_for_colours in [true, false] {
            let s = FideTeamSystem {
                colours,
                secondary_for_colours,
            };
            assert_eq!(FideTeamSystem::parse(&s.rule_set()), Some(s));
            for primary in [TeamScore::MatchPoints, TeamScore::GamePoints] {
                assert_eq!(
                    FideTeamSystem::from_type_code(&s.type_code(primary)),
                    Some((s, primary))
                );
            }
        }
    }
    assert_eq!(
        FideTeamSystem::from_type_code("FIDE_TEAM_TYPEB_MP_GP").map(|(s, _)| s.colours),
        Some(ColourModel::TypeB)
    );
    assert_eq!(FideTeamSystem::parse("dutch-2025"), None);
    assert_eq!(FideTeamSystem::from_type_code("FIDE_DUTCH_2025"), None);
}

/// A field beyond what one exact bracket weight holds is refused by name, not paired wrongly.
#[test]
fn a_field_beyond_the_limit_is_refused() {
    let n = arbiter_teams::MAX_TEAMS as u32 + 1;
    let e = pair_round(&input(
        ColourModel::TypeA,
        1,
        (1..=n).map(|t| team(t, 0)).collect(),
    ))
    .unwrap_err();
    assert!(e.contains("at most 700"), "{e}");
}

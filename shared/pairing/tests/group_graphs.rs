//! dutch-2025 brackets paired first on their group's graph alone (the bracket and the next
//! scoregroup, each solve realized on the rest of the round) pair exactly as brackets paired on
//! the whole field's graph: generated fields of 30 to 400 players with forfeits, half-point byes
//! and withdrawals, rounds 2 to 9, odd and even, each round paired both ways. The golden corpus
//! (`golden_dutch.rs`) pairs every dutch-2025 round of it the first way.

use arbiter_pairing::simulate::{Pairer, Simulation};
use arbiter_pairing::{RuleSet, pair, profile, with_group_graphs};

#[test]
fn group_graphs_pair_generated_fields_as_the_whole_field() {
    let (mut compared, mut realized, mut fell_back) = (0, 0u64, 0u64);
    for (players, seed) in [
        (30u32, 7u64),
        (31, 8),
        (57, 9),
        (120, 10),
        (171, 11),
        (400, 12),
    ] {
        let mut sim = Simulation::new(players, 9, seed);
        sim.pairer = Pairer::Greedy;
        sim.half_bye_permille = 30;
        sim.forfeit_permille = 40;
        sim.withdrawals = vec![(players / 3, 3), (players / 2, 5), (players / 5, 7)];
        for round in 2..=9 {
            let record = sim.before_round(round).expect("the generated history");
            let input = record
                .input_for_round(round, RuleSet::Dutch2025)
                .expect("the round's input");
            let (grouped, prof) = profile::record(|| with_group_graphs(true, || pair(&input)));
            let whole = with_group_graphs(false, || pair(&input));
            assert_eq!(
                grouped, whole,
                "{players} players, round {round}: the group graphs paired differently"
            );
            assert!(!grouped.expect("pairing").boards.is_empty());
            let count = |what| prof.counts.get(what).copied().unwrap_or(0);
            realized += count(arbiter_pairing::GROUP_REALIZED);
            fell_back += count(arbiter_pairing::GROUP_FELL_BACK);
            compared += 1;
        }
    }
    assert_eq!(compared, 48);
    // The comparison means something only if brackets were paired on their group graphs.
    assert!(
        realized > 100,
        "{realized} brackets on group graphs, {fell_back} fell back"
    );
    println!("{realized} brackets on group graphs, {fell_back} fell back");
}

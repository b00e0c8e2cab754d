//! The matcher's sparse solves (candidate edges, priced against the whole graph) pair exactly
//! as its dense solves do: generated fields with forfeits, half-point byes and withdrawals,
//! several rounds, both Dutch rule sets, every graph solved sparsely (threshold 0) against
//! every graph solved densely. The golden corpora's brackets are below the default threshold,
//! so this is the proof for the large fields the sparse solves are for.

use arbiter_matching::with_sparse_from;
use arbiter_pairing::simulate::{Pairer, Simulation};
use arbiter_pairing::{RuleSet, pair};

#[test]
fn sparse_and_dense_solves_pair_generated_fields_identically() {
    let mut compared = 0;
    for (players, seed) in [(90u32, 11u64), (230, 12), (420, 13)] {
        let mut sim = Simulation::new(players, 9, seed);
        sim.pairer = Pairer::Greedy;
        sim.half_bye_permille = 20;
        sim.forfeit_permille = 30;
        sim.withdrawals = vec![(players / 3, 3), (players / 2, 5)];
        for round in [2, 4, 6, 9] {
            let record = sim.before_round(round).expect("the generated history");
            for rule_set in [RuleSet::Dutch2017, RuleSet::Dutch2025] {
                let input = record
                    .input_for_round(round, rule_set)
                    .expect("the round's input");
                let dense = with_sparse_from(usize::MAX, || pair(&input)).expect("dense pairing");
                let sparse = with_sparse_from(0, || pair(&input)).expect("sparse pairing");
                assert_eq!(
                    sparse, dense,
                    "{players} players, round {round}, {rule_set}: the sparse solves paired differently"
                );
                assert!(!dense.boards.is_empty());
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 24);
}

//! The Varma tables against the annex as the spec copies it
//! (tests/golden/round-robin/varma-tables.json, from spec/data), the meeting rounds the spec
//! derived, and the restricted draw's procedure (C.05 Annex 2 steps 2–4).

use arbiter_roundrobin::varma::{
    Entrant, Lot, VarmaError, drawing_order, same_group_meetings, varma_draw, varma_table,
};
use serde_json::Value;

fn golden() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/golden/round-robin/varma-tables.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("golden tables")).expect("json")
}

fn numbers(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

#[test]
fn every_table_is_the_annexs_and_its_meeting_rounds_the_specs() {
    let g = golden();
    let tables = g["tables"].as_object().unwrap();
    assert_eq!(tables.len(), 8);
    for (key, t) in tables {
        let size = t["table_size"].as_u64().unwrap() as u32;
        assert_eq!(key, &format!("{}-{size}", size - 1));
        for players in [size - 1, size] {
            let ours = varma_table(players).unwrap();
            assert_eq!(ours.table_size, size);
            for (name, nums) in ours.groups {
                assert_eq!(
                    nums.to_vec(),
                    numbers(&t["groups"][name.to_string()]),
                    "{key} group {name}"
                );
            }
        }
        let ours = varma_table(size).unwrap();
        for (name, rounds) in same_group_meetings(&ours) {
            assert_eq!(
                rounds,
                numbers(&t["derived_same_group_meeting_rounds"][name.to_string()]),
                "{key} group {name}"
            );
        }
    }
    assert_eq!(varma_table(8), Err(VarmaError::Players(8)));
    assert_eq!(varma_table(25), Err(VarmaError::Players(25)));
}

fn entrant(name: &str, federation: &str) -> Entrant {
    Entrant {
        name: name.into(),
        federation: federation.into(),
    }
}

/// Ten players: ESP 3, ARG 3, MEX 2, CHI 1, PER 1.
fn field() -> Vec<Entrant> {
    vec![
        entrant("Zeta", "ESP"),
        entrant("Perez", "PER"),
        entrant("Alba", "ESP"),
        entrant("Gomez", "ARG"),
        entrant("Mora", "ESP"),
        entrant("Ruiz", "MEX"),
        entrant("Diaz", "ARG"),
        entrant("Vera", "CHI"),
        entrant("Abad", "MEX"),
        entrant("Bravo", "ARG"),
    ]
}

#[test]
fn the_drawing_order_is_step_two() {
    let f = field();
    let names: Vec<&str> = drawing_order(&f)
        .into_iter()
        .map(|i| f[i].name.as_str())
        .collect();
    // ARG and ESP have 3 each (ARG first by code), MEX 2, then CHI and PER by code; names in
    // alphabetical order within a federation.
    assert_eq!(
        names,
        [
            "Bravo", "Diaz", "Gomez", "Alba", "Mora", "Zeta", "Abad", "Ruiz", "Vera", "Perez"
        ]
    );
}

#[test]
fn compatriots_draw_from_one_group_and_every_number_is_drawn_once() {
    let f = field();
    for seed in 0..50usize {
        // A simple deterministic lot source; every choice within range.
        let mut k = seed;
        let mut envelopes = Vec::new();
        let drawn = varma_draw(&f, |lot| {
            k = k.wrapping_mul(31).wrapping_add(7);
            let options = match lot {
                Lot::Envelope {
                    federation,
                    options,
                } => {
                    envelopes.push((federation.to_string(), options.clone()));
                    options.len()
                }
                Lot::Number { options, .. } => options.len(),
            };
            k % options
        })
        .unwrap();
        let mut sorted = drawn.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=10).collect::<Vec<u32>>(), "seed {seed}");
        let t = varma_table(10).unwrap();
        let group_of = |n: u32| t.groups.iter().find(|(_, g)| g.contains(&n)).unwrap().0;
        for fed in ["ESP", "ARG", "MEX"] {
            let groups: Vec<char> = f
                .iter()
                .zip(&drawn)
                .filter(|(e, _)| e.federation == fed)
                .map(|(_, &n)| group_of(n))
                .collect();
            assert!(groups.windows(2).all(|w| w[0] == w[1]), "{fed}: {groups:?}");
        }
        // The first federation (ARG, 3 players) may only choose an envelope of 3 or more.
        assert_eq!(envelopes[0], ("ARG".to_string(), vec!['A', 'B']));
    }
}

#[test]
fn an_odd_field_never_draws_the_rest_number_and_bad_lots_are_refused() {
    let nine: Vec<Entrant> = field().into_iter().take(9).collect();
    let drawn = varma_draw(&nine, |_| 0).unwrap();
    assert!(!drawn.contains(&10), "{drawn:?}");
    let mut sorted = drawn.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (1..=9).collect::<Vec<u32>>());
    assert_eq!(
        varma_draw(&nine, |_| 99),
        Err(VarmaError::BadLot {
            chosen: 99,
            options: 2
        })
    );
    // Eleven players of one federation in a field of twelve: no group holds eleven numbers.
    let mut big: Vec<Entrant> = (0..11)
        .map(|i| entrant(&format!("P{i:02}"), "ESP"))
        .collect();
    big.push(entrant("Solo", "ARG"));
    assert!(matches!(
        varma_draw(&big, |_| 0),
        Err(VarmaError::FederationTooLarge { players: 11, .. })
    ));
}

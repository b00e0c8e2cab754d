//! The Varma tables against the annex as transcribed (tests/golden/round-robin/varma-tables.json,
//! C.05 Annex 2), the meeting rounds derived from them, and the restricted draw's procedure
//! (C.05 Annex 2 steps 2–4).

use arbiter_roundrobin::varma::{
    Entrant, Lot, VarmaCheckError, VarmaError, check_varma_draw, drawing_order,
    same_group_meetings, varma_draw, varma_table,
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
                Lot::Open { .. } => panic!("the restricted draw has envelopes"),
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

/// Every draw the procedure can make passes the check of recorded numbers; numbers it cannot
/// make are refused naming the federation (split over two envelopes, or an envelope too small
/// at its turn) or the number (out of the table, given twice).
#[test]
fn recorded_numbers_are_checked_against_the_procedure() {
    let f = field();
    for seed in 0..200u64 {
        let mut k = seed;
        let drawn = varma_draw(&f, |lot| {
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((k >> 33) % lot.options() as u64) as usize
        })
        .unwrap();
        assert_eq!(
            check_varma_draw(&f, &drawn),
            Ok(()),
            "seed {seed}: {drawn:?}"
        );
    }
    // Table 9-10: A 3,4,8  B 5,7,9  C 1,6  D 2,10. Field order: Zeta ESP, Perez PER, Alba ESP,
    // Gomez ARG, Mora ESP, Ruiz MEX, Diaz ARG, Vera CHI, Abad MEX, Bravo ARG.
    let good = [3, 1, 4, 5, 8, 2, 7, 6, 10, 9];
    assert_eq!(check_varma_draw(&f, &good), Ok(()));
    // ESP split over A and C.
    let split = [3, 4, 1, 5, 8, 2, 7, 6, 10, 9];
    assert!(matches!(
        check_varma_draw(&f, &split),
        Err(VarmaCheckError::NotOneEnvelope { ref federation, .. }) if federation == "ESP"
    ));
    let twice = [3, 1, 4, 5, 8, 2, 7, 6, 10, 3];
    assert!(matches!(
        check_varma_draw(&f, &twice),
        Err(VarmaCheckError::Twice { number: 3, .. })
    ));
    let out = [3, 1, 4, 5, 8, 2, 7, 6, 10, 11];
    assert!(matches!(
        check_varma_draw(&f, &out),
        Err(VarmaCheckError::OutOfRange { number: 11, .. })
    ));
    assert!(matches!(
        check_varma_draw(&f, &good[..9]),
        Err(VarmaCheckError::Count {
            given: 9,
            players: 10
        })
    ));
    // Twelve players, ESP 4 and ARG 4: table 11-12 A 4,5,9,10  B 1,2,7  C 6,8,12  D 3,11.
    // Only A holds four numbers: the second four-player federation has no envelope left.
    let mut twelve: Vec<Entrant> = (0..4).map(|i| entrant(&format!("E{i}"), "ESP")).collect();
    twelve.extend((0..4).map(|i| entrant(&format!("A{i}"), "ARG")));
    twelve.extend((0..4).map(|i| entrant(&format!("X{i}"), &format!("F{i}"))));
    // ARG draws first (equal counts, by code): A. ESP then spreads over B (3) + ...: refused.
    let numbers = [1, 2, 7, 3, 4, 5, 9, 10, 6, 8, 12, 11];
    assert!(matches!(
        check_varma_draw(&twelve, &numbers),
        Err(VarmaCheckError::NotOneEnvelope { ref federation, .. }) if federation == "ESP"
    ));
    // ESP's four in A and ARG's over B and C: ARG (first by code) is split.
    let numbers = [4, 5, 9, 10, 1, 2, 7, 6, 3, 8, 12, 11];
    let e = check_varma_draw(&twelve, &numbers);
    assert!(
        matches!(e, Err(VarmaCheckError::NotOneEnvelope { ref federation, .. }) if federation == "ARG"),
        "{e:?}"
    );
}

/// The check accepts exactly what the procedure can draw: over all lot sequences of a small
/// field, a permutation passes iff some sequence of lots draws it.
#[test]
fn the_check_accepts_exactly_the_drawable_numbers() {
    // Nine players: ESP 3, ARG 2, four singles. Table 9-10 without 10.
    let mut f: Vec<Entrant> = (0..3).map(|i| entrant(&format!("E{i}"), "ESP")).collect();
    f.extend((0..2).map(|i| entrant(&format!("A{i}"), "ARG")));
    f.extend((0..4).map(|i| entrant(&format!("S{i}"), &format!("S{i}"))));
    // Every drawable result, by enumerating lot sequences with a counter (mixed radix).
    let mut drawable = std::collections::BTreeSet::new();
    let mut seq: Vec<usize> = Vec::new();
    loop {
        let mut used: Vec<usize> = Vec::new();
        let mut i = 0;
        let r = varma_draw(&f, |lot| {
            let c = if i < seq.len() { seq[i] } else { 0 };
            i += 1;
            used.push(lot.options());
            c
        })
        .unwrap();
        drawable.insert(r);
        // Next sequence: increment from the last position, within each choice's options.
        seq.resize(used.len(), 0);
        let mut pos = used.len();
        loop {
            if pos == 0 {
                break;
            }
            pos -= 1;
            seq[pos] += 1;
            if seq[pos] < used[pos] {
                seq.truncate(pos + 1);
                break;
            }
            seq[pos] = 0;
            if pos == 0 {
                seq.clear();
                pos = usize::MAX;
                break;
            }
        }
        if pos == usize::MAX {
            break;
        }
    }
    assert!(drawable.len() > 100, "{}", drawable.len());
    // Every permutation of 1..=9 is checked: accepted iff drawable.
    let mut perm: Vec<u32> = (1..=9).collect();
    let mut accepted = 0;
    loop {
        let ok = check_varma_draw(&f, &perm).is_ok();
        assert_eq!(ok, drawable.contains(&perm), "{perm:?}");
        accepted += ok as usize;
        // Next permutation in lexicographic order.
        let Some(i) = (0..perm.len() - 1).rev().find(|&i| perm[i] < perm[i + 1]) else {
            break;
        };
        let j = (i + 1..perm.len())
            .rev()
            .find(|&j| perm[j] > perm[i])
            .unwrap();
        perm.swap(i, j);
        perm[i + 1..].reverse();
    }
    assert_eq!(accepted, drawable.len());
}

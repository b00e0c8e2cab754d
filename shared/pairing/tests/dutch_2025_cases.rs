//! The small cases that tell the two Dutch rule sets apart (C.04.3 as revised in 2025 against the
//! Baku 2016 text; what each shows: docs/src/auditors/agreement.md): each must pair as its rule set
//! says, and differently (where the expectations say so) under the other. Files and expectations:
//! tests/golden/dutch-2025-cases.

use arbiter_pairing::trf::record_from_trf;
use arbiter_pairing::{RuleSet, pair};
use std::path::Path;

fn run(case: &str, rule_set: RuleSet) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/dutch-2025-cases");
    let bytes = std::fs::read(dir.join(format!("case-{case}.trf"))).expect("case file");
    let trf = arbiter_trf::parse_bytes(&bytes).expect("case parses");
    let record = record_from_trf(&trf.file).expect("record");
    let input = record
        .input_for_round(record.next_round(), rule_set)
        .expect("input");
    let p = pair(&input).expect("pairs");
    let mut out: Vec<String> = p
        .boards
        .iter()
        .map(|b| format!("{}-{}", b.white, b.black))
        .collect();
    out.extend(p.bye.map(|b| format!("{b}-0")));
    out.sort();
    out
}

fn expected() -> serde_json::Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden/dutch-2025-cases");
    serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap()
}

fn want(v: &serde_json::Value) -> Vec<String> {
    let mut w: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    w.sort();
    w
}

#[test]
fn every_case_pairs_as_its_rule_set_says() {
    let exp = expected();
    let cases = exp["cases"].as_object().unwrap();
    assert_eq!(cases.len(), 8);
    for (name, by_rules) in cases {
        for (rules, rule_set) in [
            ("dutch-2025", RuleSet::Dutch2025),
            ("dutch-2017", RuleSet::Dutch2017),
        ] {
            assert_eq!(
                run(name, rule_set),
                want(&by_rules[rules]),
                "case {name} under {rules}"
            );
        }
    }
}

#[test]
fn the_rule_sets_disagree_where_the_spec_says_they_do() {
    let exp = expected();
    let mut differing = 0;
    for (name, by_rules) in exp["cases"].as_object().unwrap() {
        let (a, b) = (want(&by_rules["dutch-2025"]), want(&by_rules["dutch-2017"]));
        if a != b {
            differing += 1;
            assert_ne!(
                run(name, RuleSet::Dutch2025),
                run(name, RuleSet::Dutch2017),
                "case {name}"
            );
        }
    }
    // C9 is the one case whose pairing is the same (for different reasons).
    assert_eq!(differing, 7);
}

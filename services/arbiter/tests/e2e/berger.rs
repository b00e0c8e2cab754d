//! `arbiter berger` against the golden Berger data.

use crate::common::{arbiter, golden};

/// `arbiter berger`: the manual's 8-player double round robin, line by line from the golden
/// example; a bad size is refused with exit 3.
#[test]
fn berger_prints_the_manuals_double_round_robin() {
    let text = std::fs::read_to_string(golden("round-robin/berger-tables.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let ex = &v["double_round_robin_example"];
    let r = arbiter(["berger", "8", "--double"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let rounds = ex["rounds"].as_array().unwrap();
    assert_eq!(lines.len(), rounds.len());
    for (k, (line, round)) in lines.iter().zip(rounds).enumerate() {
        let games: Vec<String> = round
            .as_array()
            .unwrap()
            .iter()
            .map(|g| format!("{}-{}", g[0], g[1]))
            .collect();
        assert_eq!(
            line.split_whitespace().collect::<Vec<_>>(),
            [vec![format!("R{}", k + 1)], games].concat(),
            "round {}",
            k + 1
        );
    }
    let odd = arbiter(["berger", "5"]);
    assert_eq!(odd.code, 0);
    assert_eq!(odd.stdout.matches("(rests:").count(), 5, "{}", odd.stdout);
    let bad = arbiter(["berger", "1"]);
    assert_eq!(bad.code, 3);
    assert!(bad.stderr.contains("at least 2 players"), "{}", bad.stderr);
}

//! The Scheveningen tables against the manual's (Arbiters' Manual 2023 ch. IV §3), as transcribed in
//! tests/golden/round-robin/scheveningen.json: A's board-i player is number i, B's board-j
//! player k + j.

use arbiter_roundrobin::scheveningen::scheveningen;
use serde_json::Value;

#[test]
fn every_scheveningen_table_of_the_manual() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/golden/round-robin/scheveningen.json"
    );
    let g: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let tables = g["tables"].as_object().unwrap();
    assert_eq!(tables.len(), 9);
    for (key, t) in tables {
        let k: u32 = key.parse().unwrap();
        let number = |cell: &Value| {
            let s = cell.as_str().unwrap();
            let board: u32 = s[1..].parse().unwrap();
            if s.starts_with('A') { board } else { k + board }
        };
        let want: Vec<Vec<(u32, u32)>> = t["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|g| (number(&g[0]), number(&g[1])))
                    .collect()
            })
            .collect();
        let ours: Vec<Vec<(u32, u32)>> = scheveningen(k)
            .unwrap()
            .into_iter()
            .map(|r| r.games)
            .collect();
        assert_eq!(ours, want, "{k} boards");
    }
}

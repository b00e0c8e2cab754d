//! The Skalitzka system against the manual's six-board table (Arbiters' Manual 2023 ch. IV §5, the Spanish Arbiters' Manual §4)
//! (tests/golden/round-robin/skalitzka.json): team 1's boards A-F are players 1-6, team 2's a-f
//! 7-12, team 3's 1-6 13-18.

use arbiter_roundrobin::skalitzka::skalitzka;
use serde_json::Value;

#[test]
fn six_boards_are_the_manuals_table() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/golden/round-robin/skalitzka.json"
    );
    let g: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let p = |s: &str| -> u32 {
        let c = s.as_bytes()[0];
        match c {
            b'A'..=b'F' => (c - b'A') as u32 + 1,
            b'a'..=b'f' => (c - b'a') as u32 + 7,
            _ => s.parse::<u32>().unwrap() + 12,
        }
    };
    let ours = skalitzka(6).unwrap();
    for (r, round) in g["rounds"].as_array().unwrap().iter().enumerate() {
        let want: Vec<(u32, u32)> = round
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                let (w, b) = x.as_str().unwrap().split_once('-').unwrap();
                (p(w), p(b))
            })
            .collect();
        assert_eq!(ours[r].games, want, "round {}", r + 1);
    }
}

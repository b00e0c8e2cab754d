//! The Hilton tables against the manual's (Arbiters' Manual 2023 "Emparejamientos Hilton"), as transcribed with the
//! corrections of docs/src/auditors/agreement.md (tests/golden/round-robin/hilton.json): team t
//! board k is player t·(T − 1) + k; games board by board.

use arbiter_roundrobin::hilton::hilton;
use serde_json::Value;

#[test]
fn every_hilton_table_of_the_manual() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/golden/round-robin/hilton.json"
    );
    let g: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let blocks = g["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 5);
    for b in blocks {
        let teams = b["teams"].as_str().unwrap().len() as u32;
        let boards = b["boards"].as_u64().unwrap() as u32;
        assert_eq!(boards, teams - 1);
        let player = |team: &Value, board: u32| {
            (team.as_str().unwrap().as_bytes()[0] - b'A') as u32 * boards + board
        };
        let table = b["table"].as_array().unwrap();
        let ours = hilton(teams).unwrap();
        for (r, round) in ours.iter().enumerate() {
            let want: Vec<(u32, u32)> = table
                .iter()
                .enumerate()
                .flat_map(|(k, rounds)| {
                    rounds[r]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(move |g| (player(&g[0], k as u32 + 1), player(&g[1], k as u32 + 1)))
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(round.games, want, "{teams} teams, round {}", r + 1);
        }
    }
}

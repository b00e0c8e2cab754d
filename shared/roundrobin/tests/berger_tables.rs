//! The construction against the Berger tables of the handbook (3 to 16 players, copied in
//! tests/golden/round-robin/berger-tables.json) and its double-round-robin example; properties
//! of every field up to 40 players.

use arbiter_roundrobin::{Game, Round, berger, double_berger};
use serde_json::Value;
use std::collections::BTreeSet;

fn golden() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/golden/round-robin/berger-tables.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("golden tables")).expect("json")
}

fn games_of(round: &Value) -> Vec<Game> {
    round
        .as_array()
        .expect("round")
        .iter()
        .map(|g| {
            (
                g[0].as_u64().expect("white") as u32,
                g[1].as_u64().expect("black") as u32,
            )
        })
        .collect()
}

/// A round as the table prints it: an odd field's rest shows as a game with the bye slot,
/// which is always board 1.
fn as_table(r: &Round, bye_slot: Option<u32>, round_no: usize) -> Vec<Game> {
    let mut games = r.games.clone();
    if let (Some(rest), Some(slot)) = (r.rest, bye_slot) {
        // The highest number has black in odd rounds.
        let g = if round_no % 2 == 1 {
            (rest, slot)
        } else {
            (slot, rest)
        };
        games.insert(0, g);
    }
    games
}

#[test]
fn every_table_of_the_handbook() {
    let g = golden();
    let tables = g["tables"].as_object().expect("tables");
    assert_eq!(tables.len(), 14);
    for (players, t) in tables {
        let players: u32 = players.parse().unwrap();
        let bye_slot = t["bye_slot"].as_u64().map(|b| b as u32);
        let expected: Vec<Vec<Game>> = t["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(games_of)
            .collect();
        let got = berger(players).unwrap();
        assert_eq!(got.len(), expected.len(), "{players} players: rounds");
        for (k, (r, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(
                &as_table(r, bye_slot, k + 1),
                e,
                "{players} players, round {}",
                k + 1
            );
        }
    }
}

#[test]
fn the_manuals_double_round_robin() {
    let g = golden();
    let ex = &g["double_round_robin_example"];
    let players = ex["players"].as_u64().unwrap() as u32;
    let expected: Vec<Vec<Game>> = ex["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(games_of)
        .collect();
    let got: Vec<Vec<Game>> = double_berger(players)
        .unwrap()
        .into_iter()
        .map(|r| r.games)
        .collect();
    assert_eq!(got, expected);
}

/// Colours per player over a schedule, in round order ('w', 'b', or '-' for a rest).
fn colours(rounds: &[Round], players: u32) -> Vec<Vec<char>> {
    let mut c = vec![Vec::new(); players as usize + 1];
    for r in rounds {
        let mut seen = vec![false; players as usize + 1];
        for &(w, b) in &r.games {
            c[w as usize].push('w');
            c[b as usize].push('b');
            seen[w as usize] = true;
            seen[b as usize] = true;
        }
        for p in 1..=players as usize {
            if !seen[p] {
                c[p].push('-');
            }
        }
    }
    c
}

fn longest_run(seq: &[char]) -> usize {
    let played: Vec<char> = seq.iter().copied().filter(|&x| x != '-').collect();
    let mut best = 0;
    let mut run = 0;
    for (i, &x) in played.iter().enumerate() {
        run = if i > 0 && played[i - 1] == x {
            run + 1
        } else {
            1
        };
        best = best.max(run);
    }
    best
}

#[test]
fn every_field_up_to_40_players() {
    for players in 2..=40u32 {
        let rounds = berger(players).unwrap();
        let n = players + players % 2;
        assert_eq!(rounds.len() as u32, n - 1);
        let mut met = BTreeSet::new();
        for r in &rounds {
            let mut here = BTreeSet::new();
            for &(w, b) in &r.games {
                assert!(w != b && w <= players && b <= players, "{players}: {r:?}");
                assert!(
                    here.insert(w) && here.insert(b),
                    "{players}: a player twice: {r:?}"
                );
                assert!(met.insert((w.min(b), w.max(b))), "{players}: {w}-{b} twice");
            }
            assert_eq!(here.len() as u32 + r.rest.is_some() as u32, players);
        }
        assert_eq!(
            met.len() as u32,
            players * (players - 1) / 2,
            "{players}: everyone meets"
        );
        let c = colours(&rounds, players);
        for (p, seq) in c.iter().enumerate().skip(1) {
            let whites = seq.iter().filter(|&&x| x == 'w').count();
            let blacks = seq.iter().filter(|&&x| x == 'b').count();
            // Even fields: the first half gets one white more; odd fields are balanced.
            if players % 2 == 1 {
                assert_eq!(whites, blacks, "{players} players, player {p}");
            } else {
                assert!(
                    whites.abs_diff(blacks) == 1,
                    "{players} players, player {p}"
                );
            }
            assert!(
                longest_run(&c[p]) <= 2,
                "{players} players, player {p}: {:?}",
                c[p]
            );
        }
        // Double round robin: each pair once with each colour, and from 6 players on never
        // the same colour three times running, the cycle boundary included.
        let double = double_berger(players).unwrap();
        let mut games = BTreeSet::new();
        for r in &double {
            for &g in &r.games {
                assert!(
                    games.insert(g),
                    "{players}: {g:?} twice in the double round robin"
                );
            }
        }
        assert_eq!(games.len() as u32, players * (players - 1));
        if players >= 6 {
            let c = colours(&double, players);
            for (p, seq) in c.iter().enumerate().skip(1) {
                assert!(
                    longest_run(seq) <= 2,
                    "double, {players} players, player {p}: {seq:?}"
                );
            }
        }
    }
}

//! The Skalitzka system (Arbiters' Manual 2023 ch. IV §5, the Spanish Arbiters' Manual §4): three teams of an even number of boards meet
//! each other in two rounds with nobody idle. The manual prints six boards; its pattern is one of
//! pairs of boards, repeated: on boards 2i − 1 and 2i (capitals = team 1, small letters = team 2,
//! numbers = team 3, white first)
//!
//! ```text
//! round 1: X(2i−1)–y(2i−1)  y(2i)–n(2i−1)  n(2i)–X(2i)
//! round 2: n(2i−1)–X(2i−1)  y(2i−1)–n(2i)  X(2i)–y(2i)
//! ```
//!
//! which is the manual's table for six boards, and is what this module builds for any even
//! number. Numbering: team `t` (0, 1, 2) board `k` is player `t·b + k`.

use crate::{Round, RoundRobinError};

/// The Skalitzka schedule of three teams of `boards` players (even): two rounds.
pub fn skalitzka(boards: u32) -> Result<Vec<Round>, RoundRobinError> {
    if boards == 0 || boards % 2 == 1 {
        return Err(RoundRobinError::SkalitzkaBoards(boards));
    }
    let (cap, small, num) = (|k: u32| k, |k: u32| boards + k, |k: u32| 2 * boards + k);
    let mut r1 = Vec::new();
    let mut r2 = Vec::new();
    for i in 1..=boards / 2 {
        let (o, e) = (2 * i - 1, 2 * i);
        r1.extend([(cap(o), small(o)), (small(e), num(o)), (num(e), cap(e))]);
        r2.extend([(num(o), cap(o)), (small(o), num(e)), (cap(e), small(e))]);
    }
    Ok(vec![
        Round {
            games: r1,
            rest: None,
        },
        Round {
            games: r2,
            rest: None,
        },
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any even number of boards: everyone plays once a round, meets one player of each other
    /// team, and has one White and one Black.
    #[test]
    fn every_even_team_size_keeps_the_properties() {
        for b in (2..=20).step_by(2) {
            let r = skalitzka(b).unwrap();
            let team = |p: u32| (p - 1) / b;
            let mut whites = vec![0; (3 * b + 1) as usize];
            let mut met = vec![Vec::new(); (3 * b + 1) as usize];
            for round in &r {
                let mut seen = std::collections::BTreeSet::new();
                for &(w, x) in &round.games {
                    assert!(seen.insert(w) && seen.insert(x));
                    assert_ne!(team(w), team(x));
                    whites[w as usize] += 1;
                    met[w as usize].push(team(x));
                    met[x as usize].push(team(w));
                }
                assert_eq!(seen.len() as u32, 3 * b);
            }
            for p in 1..=3 * b {
                assert_eq!(whites[p as usize], 1, "{b} boards: player {p}");
                let mut teams = met[p as usize].clone();
                teams.sort_unstable();
                teams.dedup();
                assert_eq!(
                    teams.len(),
                    2,
                    "{b} boards: player {p} meets both other teams"
                );
            }
        }
        assert_eq!(skalitzka(5), Err(RoundRobinError::SkalitzkaBoards(5)));
    }
}

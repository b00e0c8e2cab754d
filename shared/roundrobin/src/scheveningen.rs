//! Scheveningen schedules for a match between two teams (Arbiters' Manual 2023 ch. IV §3): every player of team A
//! meets every player of team B once, in as many rounds as a team has boards. The board tables for
//! 2 to 10 boards are the manual's data (they follow no single rule that reproduces them, the 6-
//! and 10-board tables least of all), so they are kept as printed. Semi-Scheveningen: the first
//! halves of the teams meet each other and so do the second halves, each with the table of half the
//! boards.
//!
//! Numbering: with `k` boards, A's board-`i` player is number `i` and B's board-`j` player
//! is `k + j`; board `i` of every round is played by A's board-`i` player.

use crate::{Round, RoundRobinError};

/// The manual's tables, by boards (2 to 10): each round's boards, white first.
const TABLES: [&[&[&str]]; 9] = [
    &[&["A1-B1", "A2-B2"], &["B2-A1", "B1-A2"]],
    &[
        &["A1-B1", "A2-B2", "B3-A3"],
        &["B2-A1", "A2-B3", "B1-A3"],
        &["A1-B3", "B1-A2", "A3-B2"],
    ],
    &[
        &["A1-B1", "A2-B2", "B3-A3", "B4-A4"],
        &["B2-A1", "B1-A2", "A3-B4", "A4-B3"],
        &["A1-B3", "A2-B4", "B1-A3", "B2-A4"],
        &["B4-A1", "B3-A2", "A3-B2", "A4-B1"],
    ],
    &[
        &["A1-B1", "A2-B2", "A3-B3", "B4-A4", "B5-A5"],
        &["B2-A1", "B3-A2", "B4-A3", "A4-B5", "A5-B1"],
        &["A1-B3", "A2-B4", "B5-A3", "B1-A4", "A5-B2"],
        &["B4-A1", "B5-A2", "A3-B1", "A4-B2", "B3-A5"],
        &["A1-B5", "B1-A2", "B2-A3", "A4-B3", "A5-B4"],
    ],
    &[
        &["B1-A1", "B5-A2", "A3-B4", "A4-B2", "A5-B3", "B6-A6"],
        &["B2-A1", "A2-B1", "B3-A3", "B4-A4", "A5-B6", "A6-B5"],
        &["A1-B3", "A2-B2", "B1-A3", "B6-A4", "B5-A5", "A6-B4"],
        &["A1-B4", "B6-A2", "A3-B5", "A4-B1", "B2-A5", "B3-A6"],
        &["B5-A1", "B4-A2", "A3-B6", "B3-A4", "A5-B1", "A6-B2"],
        &["A1-B6", "A2-B3", "B2-A3", "A4-B5", "B4-A5", "B1-A6"],
    ],
    &[
        &[
            "A1-B1", "A2-B2", "A3-B3", "A4-B4", "B5-A5", "B6-A6", "B7-A7",
        ],
        &[
            "B2-A1", "B3-A2", "B4-A3", "A4-B5", "A5-B6", "A6-B7", "B1-A7",
        ],
        &[
            "A1-B3", "A2-B4", "A3-B5", "B6-A4", "B7-A5", "B1-A6", "A7-B2",
        ],
        &[
            "B4-A1", "B5-A2", "A3-B6", "A4-B7", "A5-B1", "B2-A6", "B3-A7",
        ],
        &[
            "A1-B5", "A2-B6", "B7-A3", "B1-A4", "B2-A5", "A6-B3", "A7-B4",
        ],
        &[
            "B6-A1", "A2-B7", "A3-B1", "A4-B2", "B3-A5", "B4-A6", "B5-A7",
        ],
        &[
            "A1-B7", "B1-A2", "B2-A3", "B3-A4", "A5-B4", "A6-B5", "A7-B6",
        ],
    ],
    &[
        &[
            "A1-B1", "A2-B2", "A3-B3", "A4-B4", "B5-A5", "B6-A6", "B7-A7", "B8-A8",
        ],
        &[
            "B2-A1", "B3-A2", "B4-A3", "B1-A4", "A5-B6", "A6-B7", "A7-B8", "A8-B5",
        ],
        &[
            "A1-B3", "A2-B4", "A3-B1", "A4-B2", "B7-A5", "B8-A6", "B5-A7", "B6-A8",
        ],
        &[
            "B4-A1", "B1-A2", "B2-A3", "B3-A4", "A5-B8", "A6-B5", "A7-B6", "A8-B7",
        ],
        &[
            "A1-B5", "A2-B6", "A3-B7", "A4-B8", "B1-A5", "B2-A6", "B3-A7", "B4-A8",
        ],
        &[
            "B6-A1", "B7-A2", "B8-A3", "B5-A4", "A5-B2", "A6-B3", "A7-B4", "A8-B1",
        ],
        &[
            "A1-B7", "A2-B8", "A3-B5", "A4-B6", "B3-A5", "B4-A6", "B1-A7", "B2-A8",
        ],
        &[
            "B8-A1", "B5-A2", "B6-A3", "B7-A4", "A5-B4", "A6-B1", "A7-B2", "A8-B3",
        ],
    ],
    &[
        &[
            "A1-B1", "A2-B2", "A3-B3", "A4-B4", "A5-B5", "B6-A6", "B7-A7", "B8-A8", "B9-A9",
        ],
        &[
            "B2-A1", "B3-A2", "B4-A3", "B5-A4", "A5-B6", "A6-B7", "A7-B8", "A8-B9", "B1-A9",
        ],
        &[
            "A1-B3", "A2-B4", "A3-B5", "A4-B6", "B7-A5", "B8-A6", "B9-A7", "B1-A8", "A9-B2",
        ],
        &[
            "B4-A1", "B5-A2", "B6-A3", "A4-B7", "A5-B8", "A6-B9", "A7-B1", "B2-A8", "B3-A9",
        ],
        &[
            "A1-B5", "A2-B6", "A3-B7", "B8-A4", "B9-A5", "B1-A6", "B2-A7", "A8-B3", "A9-B4",
        ],
        &[
            "B6-A1", "B7-A2", "A3-B8", "A4-B9", "A5-B1", "A6-B2", "B3-A7", "B4-A8", "B5-A9",
        ],
        &[
            "A1-B7", "A2-B8", "B9-A3", "B1-A4", "B2-A5", "B3-A6", "A7-B4", "A8-B5", "A9-B6",
        ],
        &[
            "B8-A1", "A2-B9", "A3-B1", "A4-B2", "A5-B3", "B4-A6", "B5-A7", "B6-A8", "B7-A9",
        ],
        &[
            "A1-B9", "B1-A2", "B2-A3", "B3-A4", "B4-A5", "A6-B5", "A7-B6", "A8-B7", "A9-B8",
        ],
    ],
    &[
        &[
            "A1-B1", "A2-B2", "A3-B8", "B9-A4", "B5-A5", "A6-B3", "A7-B4", "B6-A8", "B7-A9",
            "B10-A10",
        ],
        &[
            "B2-A1", "B1-A2", "B4-A3", "A4-B7", "A5-B10", "B8-A6", "B3-A7", "A8-B5", "A9-B6",
            "A10-B9",
        ],
        &[
            "A1-B3", "A2-B8", "A3-B1", "B2-A4", "B6-A5", "A6-B4", "A7-B10", "B7-A8", "B9-A9",
            "B5-A10",
        ],
        &[
            "B4-A1", "B3-A2", "A3-B9", "B1-A4", "A5-B7", "B10-A6", "A7-B6", "B8-A8", "A9-B5",
            "A10-B2",
        ],
        &[
            "A1-B5", "A2-B4", "B2-A3", "A4-B3", "B1-A5", "B9-A6", "B7-A7", "A8-B10", "B8-A9",
            "A10-B6",
        ],
        &[
            "B6-A1", "A2-B7", "B5-A3", "B4-A4", "A5-B8", "A6-B1", "A7-B9", "A8-B2", "B10-A9",
            "B3-A10",
        ],
        &[
            "A1-B7", "B5-A2", "A3-B10", "A4-B6", "B4-A5", "B2-A6", "B1-A7", "B9-A8", "A9-B3",
            "A10-B8",
        ],
        &[
            "B8-A1", "B6-A2", "B3-A3", "B10-A4", "A5-B9", "A6-B5", "A7-B2", "A8-B1", "A9-B4",
            "B7-A10",
        ],
        &[
            "A1-B9", "A2-B10", "A3-B6", "A4-B8", "B2-A5", "A6-B7", "B5-A7", "B3-A8", "B1-A9",
            "B4-A10",
        ],
        &[
            "B10-A1", "B9-A2", "B7-A3", "A4-B5", "A5-B3", "B6-A6", "B8-A7", "A8-B4", "A9-B2",
            "A10-B1",
        ],
    ],
];

/// Fewest and most boards the manual has a table for.
pub const MIN_BOARDS: u32 = 2;
pub const MAX_BOARDS: u32 = 10;

fn table(boards: u32) -> Result<&'static [&'static [&'static str]], RoundRobinError> {
    if !(MIN_BOARDS..=MAX_BOARDS).contains(&boards) {
        return Err(RoundRobinError::ScheveningenBoards(boards));
    }
    Ok(TABLES[(boards - MIN_BOARDS) as usize])
}

/// "A3" with `boards` boards: A's players are 1..=boards, B's boards+1..=2·boards.
fn number(cell: &str, boards: u32) -> u32 {
    let (team, board) = cell.split_at(1);
    let board: u32 = board.parse().expect("the tables name boards by number");
    if team == "A" { board } else { boards + board }
}

/// The Scheveningen match of two teams of `boards` players: `boards` rounds, players numbered
/// A1..Ak = 1..k and B1..Bk = k+1..2k.
pub fn scheveningen(boards: u32) -> Result<Vec<Round>, RoundRobinError> {
    Ok(table(boards)?
        .iter()
        .map(|round| Round {
            games: round
                .iter()
                .map(|game| {
                    let (w, b) = game.split_once('-').expect("white-black");
                    (number(w, boards), number(b, boards))
                })
                .collect(),
            rest: None,
        })
        .collect())
}

/// The semi-Scheveningen match of two teams of `boards` players (even): the first halves meet
/// with the table of `boards / 2` boards, the second halves with the same table on the boards
/// below; `boards / 2` rounds. Numbering as for [`scheveningen`].
pub fn semi_scheveningen(boards: u32) -> Result<Vec<Round>, RoundRobinError> {
    if boards % 2 == 1 {
        return Err(RoundRobinError::SemiScheveningenBoards(boards));
    }
    let h = boards / 2;
    let half = scheveningen(h).map_err(|_| RoundRobinError::SemiScheveningenBoards(boards))?;
    // A half's numbers (1..h for A, h+1..2h for B) to the match's, for the first (0) or second
    // (1) half.
    let place = |x: u32, second: u32| {
        if x <= h {
            second * h + x
        } else {
            boards + second * h + (x - h)
        }
    };
    Ok(half
        .iter()
        .map(|r| Round {
            games: (0..2)
                .flat_map(|s| {
                    r.games
                        .iter()
                        .map(move |&(w, b)| (place(w, s), place(b, s)))
                })
                .collect(),
            rest: None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The properties of the manual's tables, checked on ours: board i is
    /// A_i's, everybody plays once a round, every A-B pair meets exactly once.
    #[test]
    fn every_table_is_a_complete_match() {
        for k in MIN_BOARDS..=MAX_BOARDS {
            let rounds = scheveningen(k).unwrap();
            assert_eq!(rounds.len() as u32, k);
            let mut met = std::collections::BTreeSet::new();
            for r in &rounds {
                assert_eq!(r.games.len() as u32, k);
                let mut seen = std::collections::BTreeSet::new();
                for (i, &(w, b)) in r.games.iter().enumerate() {
                    let (a, x) = if w <= k { (w, b) } else { (b, w) };
                    assert_eq!(a, i as u32 + 1, "{k} boards: board {} is A's", i + 1);
                    assert!(x > k && x <= 2 * k);
                    assert!(seen.insert(w) && seen.insert(b));
                    assert!(met.insert((a, x)), "{k} boards: {a}-{x} twice");
                }
            }
            assert_eq!(met.len() as u32, k * k);
        }
        assert_eq!(scheveningen(1), Err(RoundRobinError::ScheveningenBoards(1)));
        assert_eq!(
            scheveningen(11),
            Err(RoundRobinError::ScheveningenBoards(11))
        );
    }

    /// Semi-Scheveningen of 8 (the example of Arbiters' Manual 2023 ch. IV §3): A1-A4 meet B1-B4 and A5-A8 meet
    /// B5-B8, four rounds, the 4-board table twice.
    #[test]
    fn semi_scheveningen_uses_the_half_table_twice() {
        let semi = semi_scheveningen(8).unwrap();
        let four = scheveningen(4).unwrap();
        assert_eq!(semi.len(), 4);
        for (s, f) in semi.iter().zip(&four) {
            assert_eq!(
                &s.games[..4],
                &f.games
                    .iter()
                    .map(|&(w, b)| (
                        if w <= 4 { w } else { w + 4 },
                        if b <= 4 { b } else { b + 4 }
                    ))
                    .collect::<Vec<_>>()[..]
            );
            for (i, &(w, b)) in s.games[4..].iter().enumerate() {
                let (a, x) = if w <= 8 { (w, b) } else { (b, w) };
                assert_eq!(a, 5 + i as u32);
                assert!((13..=16).contains(&x), "{x}");
            }
        }
        assert_eq!(
            semi_scheveningen(7),
            Err(RoundRobinError::SemiScheveningenBoards(7))
        );
        assert_eq!(
            semi_scheveningen(22),
            Err(RoundRobinError::SemiScheveningenBoards(22))
        );
    }
}

//! Hilton pairings (Arbiters' Manual 2023 "Emparejamientos Hilton"): team events of few rounds and many players. T
//! teams (4, 6, 8, 10 or 12) of T - 1 boards, three rounds; in every round the board-k players of
//! all teams are paired among themselves, every team meets every other team on exactly one board,
//! and nobody has one colour three times. The tables are the manual's data, with two corrections to
//! the 12-team table (docs/src/auditors/agreement.md).
//!
//! Numbering: team `t` (A = 0, B = 1, ...) board `k` is player `t·(T − 1) + k`; the games of a
//! round are listed board by board, in the table's order within a board.

use crate::{Round, RoundRobinError};

/// The tables for 4, 6, 8, 10 and 12 teams: `[board − 1][round − 1]` = that board's games,
/// white team first ("CB DA": C's player has White against B's, D's against A's).
const TABLES: [&[[&str; 3]]; 5] = [
    &[
        ["CB DA", "BA DC", "AC BD"],
        ["AC BD", "CB DA", "BA DC"],
        ["BA DC", "AC BD", "CB DA"],
    ],
    &[
        ["EB CD FA", "DB AE CF", "EC BA DF"],
        ["AC DE BF", "EC BA FD", "AD CB FE"],
        ["BD EA FC", "AD CB EF", "BE DC AF"],
        ["CE AB DF", "BE DC FA", "CA ED FB"],
        ["DA BC FE", "CA ED BF", "DB AE CF"],
    ],
    &[
        ["GB CF ED HA", "DB AE FG CH", "EC BF GA DH"],
        ["AC DG FE BH", "EC BF GA HD", "FD CG AB HE"],
        ["BD EA GF HC", "FD CG AB EH", "GE DA BC FH"],
        ["CE FB AG DH", "GE DA BC HF", "AF EB CD HG"],
        ["DF GC BA HE", "AF EB CD GH", "BG FC DE AH"],
        ["EG AD CB FH", "BG FC DE HA", "CA GD EF HB"],
        ["FA BE DC HG", "CA GD EF BH", "DB AE FG CH"],
    ],
    &[
        ["IB CH GD EF JA", "DB AE FI HG CJ", "EC BF GA IH DJ"],
        ["AC DI HE FG BJ", "EC BF GA IH JD", "FD CG HB AI JE"],
        ["BD EA IF GH JC", "FD CG HB AI EJ", "GE DH IC BA FJ"],
        ["CE FB AG HI DJ", "GE DH IC BA JF", "HF EI AD CB JG"],
        ["DF GC BH IA JE", "HF EI AD CB GJ", "IG FA BE DC HJ"],
        ["EG HD CI AB FJ", "IG FA BE DC JH", "AH GB CF ED JI"],
        ["FH IE DA BC JG", "AH GB CF ED IJ", "BI HC DG FE AJ"],
        ["GI AF EB CD HJ", "BI HC DG FE JA", "CA ID EH GF JB"],
        ["HA BG FC DE JI", "CA ID EH GF BJ", "DB AE FI HG CJ"],
    ],
    &[
        [
            "KB CJ ID EH GF LA",
            "DB AE FK JG HI CL",
            "EC BF GA KH IJ DL",
        ],
        [
            "AC DK JE FI HG BL",
            "EC BF GA KH IJ LD",
            "AI HB CG FD LE JK",
        ],
        [
            "BD EA KF GJ IH LC",
            "FD CG HB AI JK EL",
            "GE DH IC BJ KA FL",
        ],
        [
            "CE FB AG HK JI DL",
            "GE DH IC BJ KA LF",
            "HF EI JD CK AB LG",
        ],
        [
            "DF GC BH IA KJ LE",
            "HF EI JD CK AB GL",
            "IG FJ KE DA BC HL",
        ],
        [
            "EG HD CI JB AK FL",
            "IG FJ KE DA BC LH",
            "JH GK AF EB CD LI",
        ],
        [
            "FH IE DJ KC BA LG",
            "JH GK AF EB CD IL",
            "KI HA BG FC DE JL",
        ],
        [
            "GI JF EK AD CB HL",
            "KI HA BG FC DE LJ",
            "AJ IB CH GD EF LK",
        ],
        [
            "HJ KG FA BE DC LI",
            "AJ IB CH GD EF KL",
            "BK JC DI HE FG AL",
        ],
        [
            "IK AH GB CF ED JL",
            "BK JC DI HE FG LA",
            "CA KD EJ IF GH LB",
        ],
        [
            "JA BI HC DG FE LK",
            "CA KD EJ IF GH BL",
            "DB AE FK JG HI CL",
        ],
    ],
];

/// The Hilton schedule of `teams` teams (4, 6, 8, 10 or 12) of `teams − 1` boards: three rounds.
pub fn hilton(teams: u32) -> Result<Vec<Round>, RoundRobinError> {
    if !(4..=12).contains(&teams) || teams % 2 == 1 {
        return Err(RoundRobinError::HiltonTeams(teams));
    }
    let table = TABLES[(teams / 2 - 2) as usize];
    let boards = teams - 1;
    let player = |team: u8, board: u32| (team - b'A') as u32 * boards + board;
    Ok((0..3)
        .map(|r| Round {
            games: table
                .iter()
                .enumerate()
                .flat_map(|(k, rounds)| {
                    let board = k as u32 + 1;
                    rounds[r].split(' ').map(move |g| {
                        let g = g.as_bytes();
                        (player(g[0], board), player(g[1], board))
                    })
                })
                .collect(),
            rest: None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The properties the manual's tables have, checked on ours: everybody plays once a round
    /// against the same board of another team; each pair of teams meets once a round, never twice
    /// on one board; nobody has one colour three times.
    #[test]
    fn every_table_keeps_the_hilton_properties() {
        for teams in [4u32, 6, 8, 10, 12] {
            let boards = teams - 1;
            let rounds = hilton(teams).unwrap();
            assert_eq!(rounds.len(), 3);
            let team_of = |p: u32| (p - 1) / boards;
            let board_of = |p: u32| (p - 1) % boards;
            let mut on_board = std::collections::BTreeSet::new();
            let mut whites = vec![0u32; (teams * boards + 1) as usize];
            for r in &rounds {
                assert_eq!(r.games.len() as u32, teams * boards / 2);
                let mut seen = std::collections::BTreeSet::new();
                let mut met = std::collections::BTreeSet::new();
                for &(w, b) in &r.games {
                    assert_eq!(board_of(w), board_of(b));
                    assert!(seen.insert(w) && seen.insert(b));
                    let pair = (team_of(w).min(team_of(b)), team_of(w).max(team_of(b)));
                    assert!(pair.0 != pair.1 && met.insert(pair), "{teams}: {pair:?}");
                    assert!(
                        on_board.insert((pair, board_of(w))),
                        "{teams}: {pair:?} twice on a board"
                    );
                    whites[w as usize] += 1;
                }
                assert_eq!(met.len() as u32, teams * (teams - 1) / 2);
            }
            assert!(
                whites[1..].iter().all(|&x| x == 1 || x == 2),
                "{teams}: {whites:?}"
            );
        }
        assert_eq!(hilton(5), Err(RoundRobinError::HiltonTeams(5)));
        assert_eq!(hilton(14), Err(RoundRobinError::HiltonTeams(14)));
    }
}

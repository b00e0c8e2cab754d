//! Round-robin pairings from the Berger tables that C.05 §5.1 makes mandatory for FIDE round
//! robins (C.05 Annex 1), built by their arithmetic rule rather than stored:
//!
//! * `n` even (an odd field uses the table of `n + 1`; whoever meets the highest number rests),
//!   `m = n - 1` rounds; players `i, j < n` meet in round `r` iff `i + j ≡ r + 1 (mod m)`;
//!   player `n` meets the `p` with `2p ≡ r + 1 (mod m)`;
//! * board 1 is the game of player `n`; board `k + 1` pairs `p + k` with `p - k` (mod m);
//! * player `n` has black in odd rounds and white in even ones; for `i, j < n`, `i` has white
//!   iff `(j - i) mod m` is odd.
//!
//! Written by hand because it is the rule itself, a few lines of modular arithmetic; the tests
//! check it against the handbook's tables for 3 to 16 players.

pub mod hilton;
pub mod lots;
pub mod scheveningen;
pub mod skalitzka;
pub mod varma;

/// One game of a round: (white, black), players numbered from 1.
pub type Game = (u32, u32);

/// One round: its games in board order and the player who rests (odd fields only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Game>,
    pub rest: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoundRobinError {
    #[error("a round robin needs at least 2 players, got {0}")]
    TooFewPlayers(u32),
    #[error("{0} players: the Berger construction is limited to 2..=1000 players")]
    TooManyPlayers(u32),
    #[error(
        "the manual's Scheveningen tables are for teams of 2 to 10 boards, not {0} (Arbiters' Manual 2023 ch. IV §3)"
    )]
    ScheveningenBoards(u32),
    #[error(
        "a semi-Scheveningen needs teams of an even number of boards, 4 to 20 (two halves of 2 to 10), not {0}"
    )]
    SemiScheveningenBoards(u32),
    #[error(
        "the manual's Hilton tables are for 4, 6, 8, 10 or 12 teams, not {0} (Arbiters' Manual 2023 \"Emparejamientos Hilton\")"
    )]
    HiltonTeams(u32),
    #[error(
        "the Skalitzka system pairs three teams of an even number of boards, not {0} (Arbiters' Manual 2023 ch. IV §5)"
    )]
    SkalitzkaBoards(u32),
}

/// Integer in 1..=m congruent to `x` modulo `m`.
fn wrap(x: i64, m: i64) -> u32 {
    ((x - 1).rem_euclid(m) + 1) as u32
}

/// The single round robin of `players` players: `players - 1` rounds for an even field,
/// `players` rounds for an odd one.
pub fn berger(players: u32) -> Result<Vec<Round>, RoundRobinError> {
    if players < 2 {
        return Err(RoundRobinError::TooFewPlayers(players));
    }
    if players > 1000 {
        return Err(RoundRobinError::TooManyPlayers(players));
    }
    let n = players + players % 2;
    let m = i64::from(n - 1);
    let mut rounds = Vec::with_capacity(m as usize);
    for r in 1..=m {
        // n's opponent p: 2p ≡ r + 1 (mod m); m is odd, so p = (r + 1) * (m + 1) / 2.
        let p = wrap((r + 1) * (m + 1) / 2, m);
        let first = if r % 2 == 1 { (p, n) } else { (n, p) };
        let mut games = vec![first];
        for k in 1..i64::from(n / 2) {
            let (a, b) = (wrap(i64::from(p) + k, m), wrap(i64::from(p) - k, m));
            games.push(if white_first(a, b, m) { (a, b) } else { (b, a) });
        }
        let rest = (players % 2 == 1).then(|| {
            let (w, b) = games.remove(0);
            if w == n { b } else { w }
        });
        rounds.push(Round { games, rest });
    }
    Ok(rounds)
}

/// For `i, j < n`: `i` has white against `j` iff `(j - i) mod m` is odd.
fn white_first(i: u32, j: u32, m: i64) -> bool {
    (i64::from(j) - i64::from(i)).rem_euclid(m) % 2 == 1
}

/// The double round robin: the single cycle with its last two rounds swapped (so nobody has the
/// same colour three times in a row across the cycles, for 6 players or more), then the same
/// rounds again with colours reversed (Arbiters' Manual 2023 ch. IV "Doble Ronda"; C.05 Annex 1 says the first
/// cycle only; our choice: docs/src/auditors/agreement.md).
pub fn double_berger(players: u32) -> Result<Vec<Round>, RoundRobinError> {
    let mut first = berger(players)?;
    let k = first.len();
    if k >= 2 {
        first.swap(k - 2, k - 1);
    }
    let second: Vec<Round> = first
        .iter()
        .map(|r| Round {
            games: r.games.iter().map(|&(w, b)| (b, w)).collect(),
            rest: r.rest,
        })
        .collect();
    first.extend(second);
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_players_as_the_handbook_prints_them() {
        let r = berger(4).unwrap();
        let games: Vec<Vec<Game>> = r.into_iter().map(|r| r.games).collect();
        assert_eq!(
            games,
            vec![
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)]
            ]
        );
    }

    #[test]
    fn too_few_players() {
        assert_eq!(berger(1), Err(RoundRobinError::TooFewPlayers(1)));
        assert_eq!(
            berger(2).unwrap(),
            vec![Round {
                games: vec![(1, 2)],
                rest: None
            }]
        );
    }
}

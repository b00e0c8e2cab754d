//! A knockout event in the event log (the rules are
//! `arbiter_knockout`'s, Arbiters' Manual 2023 ch. IV §6.2).
//!
//! Round model: every round of the event log is one game of each match still undecided in the
//! current knockout round. Knockout round 1 opens in log round 1 with game 1 of every match;
//! each later log round has the next game of every match not yet decided (its second classical
//! game, then its tie-break games as the rules place them), the decided matches' players
//! having no game (listed unpaired with a zero-point bye, so every player has an entry every
//! round). Once every match of the knockout round is decided, the next log round opens the
//! next knockout round with game 1 of its matches. Tie-break games are therefore log rounds
//! in which only the level matches play. Boards are the undecided matches in bracket order.
//!
//! So each round is a function of the field, the rules and the results of the rounds before
//! it: the pairing worker proposes it, publication is checked against it board by board, and
//! the audit re-derives it, exactly as a round robin's schedule. The event's `rounds` is the
//! most log rounds the bracket can need (knockout rounds × the most games a match can take),
//! checked at round 1 like a round robin's; the event finishes when the final is decided,
//! usually well before that.

use super::error::DomainError;
use super::schedule::ScheduledRound;
use super::state::State;
use super::types::{BoardResult, Pair, PairingSystem};
use crate::{PlayerId, ResultCode};
use arbiter_knockout::{Decision, Game, HalfPoints, MatchKey, Rules, Seeding, Status};

/// One game of a match as played in the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutGame {
    /// The log round and board it was played on.
    pub round: u32,
    pub board: u32,
    pub game: Game,
    pub white: PlayerId,
    pub black: PlayerId,
    pub result: Option<BoardResult>,
}

/// A match of the bracket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutMatch {
    pub key: MatchKey,
    pub high_seed: u32,
    pub high: PlayerId,
    /// `None`: a bye (the higher seed goes through without a game).
    pub low_seed: Option<u32>,
    pub low: Option<PlayerId>,
    pub games: Vec<KnockoutGame>,
    pub status: Status,
}

impl KnockoutMatch {
    pub fn decision(&self) -> Option<Decision> {
        match self.status {
            Status::Decided(d) => Some(d),
            Status::Next(_) => None,
        }
    }

    pub fn winner(&self) -> Option<PlayerId> {
        self.decision().map(|d| {
            if d.high_wins {
                self.high
            } else {
                self.low.unwrap_or(self.high)
            }
        })
    }

    pub fn loser(&self) -> Option<PlayerId> {
        self.decision().and_then(|d| {
            if d.high_wins {
                self.low
            } else {
                Some(self.high)
            }
        })
    }

    fn seed_of_winner(&self) -> Option<u32> {
        self.decision().map(|d| {
            if d.high_wins {
                self.high_seed
            } else {
                self.low_seed.unwrap_or(self.high_seed)
            }
        })
    }
}

/// One knockout round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnockoutRound {
    /// From 1; the last is the final.
    pub round: u32,
    /// The log round its first games are played in.
    pub first_log_round: u32,
    pub matches: Vec<KnockoutMatch>,
}

/// The bracket as far as the log has played it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    /// `seeds[i]` is seed `i + 1`.
    pub seeds: Vec<PlayerId>,
    /// Knockout rounds the field needs.
    pub knockout_rounds: u32,
    pub rounds: Vec<KnockoutRound>,
    /// The next log round with its boards (white, black) and their games, when the bracket
    /// is not decided and the walk reached a round not yet played.
    pub next: Option<(u32, Vec<Pair>, Vec<Game>)>,
    /// The log round in which the final was decided, and the winner.
    pub decided: Option<(u32, PlayerId)>,
}

impl Bracket {
    /// The places a player holds (shared places as a range): the winner 1st, the final's
    /// loser 2nd, the semi-finals' losers 3rd-4th, ... `None` while his fate is open.
    pub fn places(&self, pn: PlayerId) -> Option<(u32, u32)> {
        if self.decided.is_some_and(|(_, w)| w == pn) {
            return Some(arbiter_knockout::places(None, self.knockout_rounds));
        }
        self.rounds.iter().find_map(|r| {
            r.matches
                .iter()
                .any(|m| m.loser() == Some(pn))
                .then(|| arbiter_knockout::places(Some(r.round), self.knockout_rounds))
        })
    }
}

/// Half points White and Black score with `result` (forfeits count as the result they give).
fn halves(result: BoardResult) -> (u32, u32) {
    let h = |c: ResultCode| match c {
        ResultCode::Win
        | ResultCode::WinUnrated
        | ResultCode::ForfeitWin
        | ResultCode::FullBye
        | ResultCode::PairingBye => 2,
        ResultCode::Draw | ResultCode::DrawUnrated | ResultCode::HalfBye => 1,
        _ => 0,
    };
    let (w, b) = result.codes();
    (h(w), h(b))
}

impl State {
    /// The knockout's rules; refused for other systems.
    pub fn knockout_rules(&self) -> Result<&Rules, DomainError> {
        let t = self
            .tournament()
            .ok_or(DomainError::TournamentNotCreated { command: "Bracket" })?;
        match (&t.knockout, t.pairing_system) {
            (Some(r), PairingSystem::Knockout) => Ok(r),
            _ => Err(DomainError::invalid(
                "pairing_system",
                format!(
                    "{:?} is not a knockout: it has no bracket",
                    t.pairing_system
                ),
            )),
        }
    }

    /// The players as seeds 1..n, by the rules' seeding.
    pub fn knockout_seeds(&self) -> Result<Vec<PlayerId>, DomainError> {
        let rules = self.knockout_rules()?;
        let mut players: Vec<(u32, PlayerId)> = self
            .players()
            .map(|p| (p.player.rating, p.pairing_number()))
            .collect();
        match rules.seeding {
            // Highest rating first; equal ratings by pairing number.
            Seeding::Rating => players.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))),
            Seeding::PairingNumber => players.sort_by_key(|p| p.1),
        }
        Ok(players.into_iter().map(|p| p.1).collect())
    }

    /// The bracket as the published rounds have played it (`until`: stop before that log
    /// round, as the state before its publication saw it).
    pub fn bracket_until(&self, until: Option<u32>) -> Result<Bracket, DomainError> {
        let rules = self.knockout_rules()?;
        let seeds = self.knockout_seeds()?;
        let n = seeds.len() as u32;
        if n < 2 {
            return Err(DomainError::invalid(
                "players",
                format!("{n} players: a knockout needs at least 2"),
            ));
        }
        let knockout_rounds = arbiter_knockout::rounds(n);
        let pn = |seed: u32| seeds[seed as usize - 1];
        let new_match =
            |key: MatchKey, a: u32, b: Option<u32>| -> Result<KnockoutMatch, DomainError> {
                let (high_seed, low_seed) = match b {
                    Some(b) if b < a => (b, Some(a)),
                    other => (a, other),
                };
                let status = match low_seed {
                    None => Status::Decided(Decision {
                        high_wins: true,
                        stage: None,
                        kind: None,
                        games: 0,
                    }),
                    Some(_) => rules
                        .status(key, &[])
                        .map_err(|e| DomainError::invalid("knockout", e))?,
                };
                Ok(KnockoutMatch {
                    key,
                    high_seed,
                    high: pn(high_seed),
                    low_seed,
                    low: low_seed.map(pn),
                    games: Vec::new(),
                    status,
                })
            };
        let first = arbiter_knockout::first_round(n)
            .into_iter()
            .enumerate()
            .map(|(i, (a, b))| {
                new_match(
                    MatchKey {
                        round: 1,
                        index: i as u32 + 1,
                    },
                    a,
                    b,
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut bracket = Bracket {
            seeds: seeds.clone(),
            knockout_rounds,
            rounds: vec![KnockoutRound {
                round: 1,
                first_log_round: 1,
                matches: first,
            }],
            next: None,
            decided: None,
        };
        let mut log = 1u32;
        loop {
            let current = bracket.rounds.last_mut().expect("round 1");
            if current.matches.iter().all(|m| m.decision().is_some()) {
                if current.round == knockout_rounds {
                    let winner = current.matches[0].winner().expect("decided");
                    bracket.decided = Some((log - 1, winner));
                    return Ok(bracket);
                }
                let k = current.round + 1;
                let winners: Vec<u32> = current
                    .matches
                    .iter()
                    .map(|m| m.seed_of_winner().expect("decided"))
                    .collect();
                let matches = winners
                    .chunks(2)
                    .enumerate()
                    .map(|(i, w)| {
                        new_match(
                            MatchKey {
                                round: k,
                                index: i as u32 + 1,
                            },
                            w[0],
                            Some(w[1]),
                        )
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                bracket.rounds.push(KnockoutRound {
                    round: k,
                    first_log_round: log,
                    matches,
                });
                continue;
            }
            // Log round `log`: the next game of every undecided match, in bracket order.
            let playing: Vec<(usize, Game)> = current
                .matches
                .iter()
                .enumerate()
                .filter_map(|(i, m)| match m.status {
                    Status::Next(g) => Some((i, g)),
                    Status::Decided(_) => None,
                })
                .collect();
            let boards: Vec<Pair> = playing
                .iter()
                .map(|&(i, g)| {
                    let m = &current.matches[i];
                    let low = m.low.expect("a match with a game has two players");
                    if g.high_white {
                        Pair::new(m.high, low)
                    } else {
                        Pair::new(low, m.high)
                    }
                })
                .collect();
            let published = match until {
                Some(u) if log >= u => None,
                _ => self.published(log),
            };
            let Some(p) = published else {
                bracket.next = Some((log, boards, playing.iter().map(|x| x.1).collect()));
                return Ok(bracket);
            };
            let mut complete = true;
            for (b, (&(i, game), pair)) in playing.iter().zip(&boards).enumerate() {
                let board = b as u32 + 1;
                let Some(pb) = p
                    .boards
                    .get(b)
                    .filter(|x| Pair::new(x.white, x.black) == *pair)
                else {
                    return Err(DomainError::OffBracket {
                        round: log,
                        board,
                        expected: format!("{}-{}", pair.white, pair.black),
                        given: p
                            .boards
                            .get(b)
                            .map_or("no game".into(), |x| format!("{}-{}", x.white, x.black)),
                    });
                };
                let m = &mut current.matches[i];
                m.games.push(KnockoutGame {
                    round: log,
                    board,
                    game,
                    white: pb.white,
                    black: pb.black,
                    result: pb.result,
                });
                if pb.result.is_none() {
                    complete = false;
                }
                let results: Vec<HalfPoints> = m
                    .games
                    .iter()
                    .map_while(|g| {
                        g.result.map(|r| {
                            let (w, bl) = halves(r);
                            if g.game.high_white { (w, bl) } else { (bl, w) }
                        })
                    })
                    .collect();
                m.status = rules.status(m.key, &results).map_err(|e| {
                    DomainError::invalid("knockout", format!("round {log}, board {board}: {e}"))
                })?;
            }
            if p.boards.len() > boards.len() {
                let extra = &p.boards[boards.len()];
                return Err(DomainError::OffBracket {
                    round: log,
                    board: boards.len() as u32 + 1,
                    expected: "no game".into(),
                    given: format!("{}-{}", extra.white, extra.black),
                });
            }
            if !complete {
                // The round is being played: the bracket stands as far as its results go.
                return Ok(bracket);
            }
            log += 1;
        }
    }

    /// The bracket as far as the log has played it.
    pub fn bracket(&self) -> Result<Bracket, DomainError> {
        self.bracket_until(None)
    }

    /// Log round `round` of a knockout: the boards the bracket gives it after the rounds
    /// before, and the players without a game.
    pub(crate) fn knockout_round(&self, round: u32) -> Result<ScheduledRound, DomainError> {
        let bracket = self.bracket_until(Some(round))?;
        match bracket.next {
            Some((r, boards, _)) if r == round => {
                let on_board: Vec<PlayerId> =
                    boards.iter().flat_map(|p| [p.white, p.black]).collect();
                let mut not_playing: Vec<PlayerId> = self
                    .players()
                    .map(|p| p.pairing_number())
                    .filter(|pn| !on_board.contains(pn))
                    .collect();
                not_playing.sort();
                Ok(ScheduledRound {
                    round,
                    boards,
                    rest: None,
                    not_playing,
                })
            }
            Some((r, _, _)) => Err(DomainError::PreviousRoundNotClosed { round, previous: r }),
            None => match bracket.decided {
                Some((decided_in, winner)) => Err(DomainError::KnockoutDecided {
                    round,
                    decided_in,
                    winner,
                }),
                None => Err(DomainError::PreviousRoundNotClosed {
                    round,
                    previous: round.saturating_sub(1),
                }),
            },
        }
    }

    /// The event rounds a knockout of this field needs: knockout rounds × the most games a
    /// match can take.
    pub fn knockout_event_rounds(&self) -> Result<(u32, u32, u32), DomainError> {
        let rules = self.knockout_rules()?;
        let k = arbiter_knockout::rounds(self.player_count());
        Ok((k * rules.max_games(), k, rules.max_games()))
    }
}

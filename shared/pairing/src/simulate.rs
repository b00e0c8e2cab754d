//! Seeded random tournaments, played round by round through the engine: fields for
//! benchmarks, demonstrations and end-to-end tests. The same configuration and seed always
//! give the same tournament (ChaCha8 stream).
//!
//! Fields too large to simulate through the engine itself (the scale bench's thousands of
//! players over many rounds) are played with [`Pairer::Greedy`]: a quick Swiss-like pairing
//! whose only purpose is a realistic history (scores, colours, floats, byes) for the round the
//! engine then pairs.

use crate::{PairingError, RecordPlayer, RuleSet, TournamentRecord, pair};
use arbiter_core::{Color, PointSystem, ResultCode, RoundEntry};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How the simulated rounds are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairer {
    /// The engine, under the simulation's rule set.
    Engine,
    /// Scoregroups in order, each one's top half against its bottom half, no rematch, the
    /// leftover floating down, colours by preference: near-linear time, not a FIDE pairing.
    Greedy,
}

/// How a simulated tournament is played.
#[derive(Debug, Clone)]
pub struct Simulation {
    pub players: u32,
    pub total_rounds: u32,
    pub seed: u64,
    pub rule_set: RuleSet,
    /// Percentage of games drawn.
    pub draw_percent: u32,
    /// Per mille of player-rounds with an announced half-point bye (never in the last round).
    pub half_bye_permille: u32,
    /// Per mille of games lost by forfeit.
    pub forfeit_permille: u32,
    /// Players who withdraw, with the round from which they are absent.
    pub withdrawals: Vec<(u32, u32)>,
    pub pairer: Pairer,
}

impl Simulation {
    pub fn new(players: u32, total_rounds: u32, seed: u64) -> Simulation {
        Simulation {
            players,
            total_rounds,
            seed,
            rule_set: RuleSet::Dutch2017,
            draw_percent: 30,
            half_bye_permille: 0,
            forfeit_permille: 0,
            withdrawals: Vec::new(),
            pairer: Pairer::Engine,
        }
    }

    /// The tournament before any round: players numbered by descending rating.
    pub fn start(&self) -> TournamentRecord {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut ratings: Vec<u16> = (0..self.players)
            .map(|_| rng.random_range(1000..2800))
            .collect();
        ratings.sort_unstable_by(|a, b| b.cmp(a));
        TournamentRecord {
            players: ratings
                .iter()
                .enumerate()
                .map(|(i, &r)| RecordPlayer {
                    id: i as u32 + 1,
                    rating: r,
                    rounds: Vec::new(),
                    acceleration: Vec::new(),
                })
                .collect(),
            points: PointSystem::default(),
            total_rounds: self.total_rounds,
            initial_color: Some(Color::White),
            absent_next: Default::default(),
            forbidden_pairs: Vec::new(),
        }
    }

    /// Plays `rounds` rounds: announced byes and withdrawals, the engine's pairing, random
    /// results weighted by rating.
    pub fn play(&self, rounds: u32) -> Result<TournamentRecord, PairingError> {
        let mut t = self.start();
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ 0x9e37_79b9_7f4a_7c15);
        for r in 1..=rounds.min(self.total_rounds) {
            self.play_round(&mut t, r, &mut rng)?;
        }
        Ok(t)
    }

    /// The tournament ready for round `round`: rounds before it played, and the announced
    /// byes and withdrawals of `round` itself recorded (so that
    /// [`TournamentRecord::input_for_round`] leaves those players out).
    pub fn before_round(&self, round: u32) -> Result<TournamentRecord, PairingError> {
        let mut t = self.start();
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ 0x9e37_79b9_7f4a_7c15);
        for r in 1..round.min(self.total_rounds + 1) {
            self.play_round(&mut t, r, &mut rng)?;
        }
        self.announce(&mut t, round, &mut rng);
        Ok(t)
    }

    /// Records round `r`'s withdrawals and announced half-point byes.
    fn announce(&self, t: &mut TournamentRecord, r: u32, rng: &mut ChaCha8Rng) {
        let i = (r - 1) as usize;
        for p in &mut t.players {
            p.rounds.resize(i, None);
            let withdrawn = self
                .withdrawals
                .iter()
                .any(|&(id, from)| id == p.id && r >= from);
            if withdrawn {
                p.rounds.push(Some(RoundEntry::bye(ResultCode::ZeroBye)));
            } else if r < self.total_rounds && rng.random_range(0..1000) < self.half_bye_permille {
                p.rounds.push(Some(RoundEntry::bye(ResultCode::HalfBye)));
            }
        }
    }

    fn play_round(
        &self,
        t: &mut TournamentRecord,
        r: u32,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), PairingError> {
        let i = (r - 1) as usize;
        self.announce(t, r, rng);
        let (boards, bye) = match self.pairer {
            Pairer::Engine => {
                let input = t
                    .input_for_round(r, self.rule_set)
                    .map_err(PairingError::InvalidInput)?;
                let p = pair(&input)?;
                (p.boards.iter().map(|b| (b.white, b.black)).collect(), p.bye)
            }
            Pairer::Greedy => greedy(t, i),
        };
        let rating = |t: &TournamentRecord, id: u32| t.players[(id - 1) as usize].rating as i32;
        for &(w, bl) in &boards {
            let (rw, rb) = if rng.random_range(0..1000) < self.forfeit_permille {
                if rng.random_bool(0.5) {
                    (ResultCode::ForfeitWin, ResultCode::ForfeitLoss)
                } else {
                    (ResultCode::ForfeitLoss, ResultCode::ForfeitWin)
                }
            } else if rng.random_range(0..100) < self.draw_percent {
                (ResultCode::Draw, ResultCode::Draw)
            } else {
                // White's chance of a decisive game in per mille, from the rating difference.
                let d = rating(t, w) - rating(t, bl);
                let p = (500 + d).clamp(50, 950);
                if rng.random_range(0..1000) < p {
                    (ResultCode::Win, ResultCode::Loss)
                } else {
                    (ResultCode::Loss, ResultCode::Win)
                }
            };
            t.players[(w - 1) as usize]
                .rounds
                .push(Some(RoundEntry::game(bl, Color::White, rw)));
            t.players[(bl - 1) as usize]
                .rounds
                .push(Some(RoundEntry::game(w, Color::Black, rb)));
        }
        if let Some(b) = bye {
            t.players[(b - 1) as usize]
                .rounds
                .push(Some(RoundEntry::bye(ResultCode::PairingBye)));
        }
        for p in &mut t.players {
            p.rounds
                .resize(i + 1, Some(RoundEntry::bye(ResultCode::ZeroBye)));
        }
        Ok(())
    }
}

/// The [`Pairer::Greedy`] pairing of round index `i` (players without an entry there):
/// boards (white, black) and the bye.
fn greedy(t: &TournamentRecord, i: usize) -> (Vec<(u32, u32)>, Option<u32>) {
    struct P {
        id: u32,
        score: i32,
        /// Whites minus blacks, and the last colour played.
        diff: i32,
        last: Option<Color>,
        had_bye: bool,
    }
    let mut field: Vec<P> = t
        .players
        .iter()
        .filter(|p| p.rounds.get(i).copied().flatten().is_none())
        .map(|p| {
            let mut q = P {
                id: p.id,
                score: 0,
                diff: 0,
                last: None,
                had_bye: false,
            };
            for e in p.rounds[..i].iter().flatten() {
                q.score += t.points.points(e.result).tenths();
                q.had_bye |= e.result == ResultCode::PairingBye;
                if e.is_played_game() {
                    q.diff += if e.color == Some(Color::White) { 1 } else { -1 };
                    q.last = e.color;
                }
            }
            q
        })
        .collect();
    field.sort_by_key(|p| (std::cmp::Reverse(p.score), p.id));
    // Opponents met so far, by player id.
    let met = |a: u32, b: u32| {
        t.players[(a - 1) as usize].rounds[..i]
            .iter()
            .flatten()
            .any(|e| e.opponent == Some(b))
    };
    let mut bye = None;
    if field.len() % 2 == 1 {
        let k = field
            .iter()
            .rposition(|p| !p.had_bye)
            .unwrap_or(field.len() - 1);
        bye = Some(field.remove(k).id);
    }
    let wants_white = |p: &P| (p.diff, p.last == Some(Color::White)) < (0, true);
    let mut boards = Vec::with_capacity(field.len() / 2);
    let mut paired = vec![false; field.len()];
    let mut start = 0;
    while start < field.len() {
        // The scoregroup with the players still unpaired from above.
        let mut end = start;
        while end < field.len() && field[end].score == field[start].score {
            end += 1;
        }
        let group: Vec<usize> = (0..end).filter(|&k| !paired[k]).collect();
        let half = group.len() / 2;
        for (gi, &a) in group[..half].iter().enumerate() {
            if paired[a] {
                continue;
            }
            let b = group[half + gi..]
                .iter()
                .chain(group[half..half + gi].iter())
                .copied()
                .find(|&b| !paired[b] && !met(field[a].id, field[b].id));
            if let Some(b) = b {
                paired[a] = true;
                paired[b] = true;
                let (x, y) = (&field[a], &field[b]);
                boards.push(if wants_white(x) || !wants_white(y) {
                    (x.id, y.id)
                } else {
                    (y.id, x.id)
                });
            }
        }
        start = end;
    }
    // What is left (rematches everywhere above): pair in order, avoiding rematches if possible.
    let mut left: Vec<usize> = (0..field.len()).filter(|&k| !paired[k]).collect();
    while let Some(a) = left.first().copied() {
        left.remove(0);
        let j = left
            .iter()
            .position(|&b| !met(field[a].id, field[b].id))
            .unwrap_or(0);
        if j < left.len() {
            let b = left.remove(j);
            boards.push((field[a].id, field[b].id));
        } else if bye.is_none() {
            bye = Some(field[a].id);
        }
    }
    (boards, bye)
}

/// Every round of 1,500 small events of `rule_set` (6 to 12 players, 7 rounds, 4 % half-point
/// byes and 4 % forfeits, the history played by the engine itself) as the engine's input:
/// `visit(seed, round, input)`, until an event can no longer be paired. The fields of the
/// tests that hold an exact search to the whole enumeration (no group over 12 players).
#[cfg(feature = "test-support")]
pub(crate) fn each_small_round(
    rule_set: RuleSet,
    mut visit: impl FnMut(u64, u32, &crate::PairingInput),
) {
    for seed in 0..1_500u64 {
        let mut sim = Simulation::new(6 + (seed % 7) as u32, 7, seed);
        sim.rule_set = rule_set;
        sim.pairer = Pairer::Engine;
        sim.half_bye_permille = 40;
        sim.forfeit_permille = 40;
        for round in 1..=7 {
            let Ok(record) = sim.before_round(round) else {
                break;
            };
            let input = record
                .input_for_round(round, rule_set)
                .expect("a simulated round's input");
            visit(seed, round, &input);
        }
    }
}

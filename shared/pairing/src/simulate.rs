//! Seeded random tournaments, played round by round through the engine: fields for
//! benchmarks, demonstrations and end-to-end tests. The same configuration and seed always
//! give the same tournament (ChaCha8 stream).

use crate::{PairingError, RecordPlayer, RuleSet, TournamentRecord, pair};
use arbiter_core::{Color, PointSystem, ResultCode, RoundEntry};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

    fn play_round(
        &self,
        t: &mut TournamentRecord,
        r: u32,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), PairingError> {
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
        let input = t
            .input_for_round(r, self.rule_set)
            .map_err(PairingError::InvalidInput)?;
        let pairing = pair(&input)?;
        let rating = |t: &TournamentRecord, id: u32| t.players[(id - 1) as usize].rating as i32;
        for b in &pairing.boards {
            let (w, bl) = (b.white, b.black);
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
        if let Some(b) = pairing.bye {
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

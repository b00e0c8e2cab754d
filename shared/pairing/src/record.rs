//! A tournament's recorded history, round by round, and the two views an audit needs of it:
//! the engine input for round r (everything before r, plus who is not to be paired in r) and
//! the pairing that was actually made in round r.

use crate::{Board, PairingInput, PlayerInput, RuleSet};
use arbiter_core::{Color, PlayerId, PointSystem, ResultCode, RoundEntry, Score};
use std::collections::{BTreeMap, BTreeSet};

/// One player's line of a tournament record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordPlayer {
    pub id: PlayerId,
    pub rating: u16,
    /// Round entries from round 1; `None` = nothing recorded (a zero-point bye once the round
    /// is over; for the round being paired, "to be paired").
    pub rounds: Vec<Option<RoundEntry>>,
    /// Virtual points per round (acceleration), index 0 = round 1.
    pub acceleration: Vec<Score>,
}

/// A tournament as recorded: enough to pair any round again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRecord {
    pub players: Vec<RecordPlayer>,
    pub points: PointSystem,
    pub total_rounds: u32,
    /// The colour of the first player in round 1, when known.
    pub initial_color: Option<Color>,
    /// Players announced absent for the next round outside the round columns.
    pub absent_next: BTreeSet<PlayerId>,
    pub forbidden_pairs: Vec<(PlayerId, PlayerId)>,
}

/// The pairing recorded for one round.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordedPairing {
    pub boards: Vec<Board>,
    pub bye: Option<PlayerId>,
}

impl RecordedPairing {
    /// Boards sorted by white then black, for comparison regardless of board order.
    pub fn normalized(&self) -> (Vec<Board>, Option<PlayerId>) {
        let mut b = self.boards.clone();
        b.sort();
        (b, self.bye)
    }
}

/// Whether an entry is part of the round's pairing (a game, a forfeit, or the PAB).
fn is_paired(e: &RoundEntry) -> bool {
    e.opponent.is_some() || e.result == ResultCode::PairingBye
}

impl TournamentRecord {
    /// Rounds that hold at least one game or pairing-allocated bye.
    pub fn paired_rounds(&self) -> u32 {
        let mut r = 0;
        for p in &self.players {
            for (i, e) in p.rounds.iter().enumerate() {
                if e.as_ref().is_some_and(is_paired) {
                    r = r.max(i as u32 + 1);
                }
            }
        }
        r
    }

    /// The round a pairing engine pairs next: one after the last round with a pairing.
    pub fn next_round(&self) -> u32 {
        self.paired_rounds() + 1
    }

    /// The round a pairing request means: `asked`, or the next round when `asked` is 0.
    /// Refused past the event's last round (when the record declares how many it has), so
    /// every interface pairs the same rounds.
    pub fn round_to_pair(&self, asked: u32) -> Result<u32, String> {
        let round = if asked == 0 { self.next_round() } else { asked };
        if self.total_rounds > 0 && round > self.total_rounds {
            return Err(if asked == 0 {
                format!("all {} rounds are already paired", self.total_rounds)
            } else {
                format!(
                    "round {round} is past the event's last round ({})",
                    self.total_rounds
                )
            });
        }
        Ok(round)
    }

    /// The initial colour: recorded, or the colour that in round 1 the lowest pairing number
    /// among the players paired in a game received.
    pub fn initial_colour(&self) -> Option<Color> {
        if self.initial_color.is_some() {
            return self.initial_color;
        }
        let mut ps: Vec<&RecordPlayer> = self.players.iter().collect();
        ps.sort_by_key(|p| p.id);
        ps.iter().find_map(|p| match p.rounds.first() {
            Some(Some(e)) if e.opponent.is_some() => e.color,
            _ => None,
        })
    }

    /// The engine input for round `round`: history before it; players with an entry in that
    /// round that is not part of the pairing (announced byes, absences), and players listed
    /// in `absent_next` when `round` is the next one, are not paired.
    pub fn input_for_round(&self, round: u32, rule_set: RuleSet) -> Result<PairingInput, String> {
        let initial = self.initial_colour().ok_or_else(|| {
            "the initial colour is not recorded and no round-1 game shows it".to_string()
        })?;
        let before = (round - 1) as usize;
        let players = self
            .players
            .iter()
            .map(|p| {
                let history = (0..before)
                    .map(|i| {
                        p.rounds
                            .get(i)
                            .copied()
                            .flatten()
                            .unwrap_or(RoundEntry::bye(ResultCode::ZeroBye))
                    })
                    .collect();
                let this = p.rounds.get(before).copied().flatten();
                let available = match this {
                    None => !(round == self.next_round() && self.absent_next.contains(&p.id)),
                    Some(e) => is_paired(&e),
                };
                PlayerInput {
                    id: p.id,
                    rating: p.rating,
                    history,
                    available,
                    acceleration: p.acceleration.clone(),
                }
            })
            .collect();
        Ok(PairingInput {
            rule_set,
            round,
            total_rounds: self.total_rounds.max(round),
            initial_color: initial,
            points: self.points,
            players,
            forbidden_pairs: self.forbidden_pairs.clone(),
        })
    }

    /// The pairing recorded in round `round`.
    pub fn recorded(&self, round: u32) -> RecordedPairing {
        let i = (round - 1) as usize;
        let mut out = RecordedPairing::default();
        let mut seen = BTreeMap::new();
        for p in &self.players {
            let Some(Some(e)) = p.rounds.get(i) else {
                continue;
            };
            if e.result == ResultCode::PairingBye {
                out.bye = Some(p.id);
            } else if let (Some(o), Some(c)) = (e.opponent, e.color) {
                let (w, b) = if c == Color::White {
                    (p.id, o)
                } else {
                    (o, p.id)
                };
                seen.insert((w.min(b), w.max(b)), Board { white: w, black: b });
            }
        }
        out.boards = seen.into_values().collect();
        out
    }
}

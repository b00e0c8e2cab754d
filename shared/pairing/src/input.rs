//! What a pairing engine is given: the players and their history before the round.

use crate::PairingError;
use arbiter_core::{Color, PlayerId, PointSystem, ResultCode, RoundEntry, Score};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// A pairing rule set, named by the date it took effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSet {
    /// FIDE (Dutch) System approved in Baku 2016, in force 2017-07-01 to 2025-06-30.
    Dutch2017,
    /// The revision in force from 2025-07-01.
    Dutch2025,
    /// The Dubov system (C.04.4.1).
    Dubov,
    /// The Burstein system (C.04.4.2), with its built-in acceleration.
    Burstein,
    /// The Burstein system as bbpPairings reads the points its text leaves open
    /// (`burstein::bbp`), for events whose rules name that program.
    BursteinBbp,
    /// The Lim system (C.04.4.3).
    Lim,
}

impl RuleSet {
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Dutch2017 => "dutch-2017",
            RuleSet::Dutch2025 => "dutch-2025",
            RuleSet::Dubov => "dubov",
            RuleSet::Burstein => "burstein",
            RuleSet::BursteinBbp => "burstein-bbp",
            RuleSet::Lim => "lim",
        }
    }

    /// One of the Dutch rule sets (C.04.3).
    pub fn is_dutch(self) -> bool {
        matches!(self, RuleSet::Dutch2017 | RuleSet::Dutch2025)
    }

    /// The Dutch rule set in force on a date given as (year, month, day).
    pub fn dutch_in_force_on(year: i32, month: u32, day: u32) -> RuleSet {
        if (year, month, day) >= (2025, 7, 1) {
            RuleSet::Dutch2025
        } else {
            RuleSet::Dutch2017
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown rule set {0:?}: expected dutch-2017, dutch-2025, dubov, burstein, burstein-bbp or lim"
)]
pub struct RuleSetParseError(pub String);

impl FromStr for RuleSet {
    type Err = RuleSetParseError;
    fn from_str(s: &str) -> Result<RuleSet, RuleSetParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "dutch-2017" | "dutch2017" | "fide_dutch_2017" | "dutch-2016" => Ok(RuleSet::Dutch2017),
            "dutch-2025" | "dutch2025" | "fide_dutch_2025" | "dutch" => Ok(RuleSet::Dutch2025),
            "dubov" | "fide_dubov" => Ok(RuleSet::Dubov),
            "burstein" | "fide_burstein" => Ok(RuleSet::Burstein),
            "burstein-bbp" => Ok(RuleSet::BursteinBbp),
            "lim" | "fide_lim" => Ok(RuleSet::Lim),
            _ => Err(RuleSetParseError(s.to_string())),
        }
    }
}

/// One player as the engine sees him before round `round`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInput {
    /// Pairing number (1-based); the order of pairing numbers is the initial ranking order.
    pub id: PlayerId,
    /// FIDE rating, 0 if unrated (informational: pairing numbers already encode the order).
    pub rating: u16,
    /// Entries of rounds 1..round-1, oldest first. A round the player was not part of is a
    /// zero-point bye (`RoundEntry::bye(ResultCode::ZeroBye)`).
    pub history: Vec<RoundEntry>,
    /// `false` when the player is not to be paired this round (announced bye, absence,
    /// withdrawal).
    pub available: bool,
    /// Virtual points of an accelerated system per round (index 0 = round 1); missing = 0.
    pub acceleration: Vec<Score>,
}

/// Everything a pairing depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingInput {
    pub rule_set: RuleSet,
    /// The round to pair, 1-based.
    pub round: u32,
    /// Total number of rounds of the tournament.
    pub total_rounds: u32,
    /// The colour drawn before round 1 for the first player (E.5).
    pub initial_color: Color,
    pub points: PointSystem,
    pub players: Vec<PlayerInput>,
    /// Pairs that must not meet (besides players who already played each other).
    pub forbidden_pairs: Vec<(PlayerId, PlayerId)>,
}

impl PairingInput {
    /// Checks that the history is self-consistent; every error names the player and round.
    pub fn validate(&self) -> Result<(), PairingError> {
        let bad = |m: String| Err(PairingError::InvalidInput(m));
        if self.round == 0 {
            return bad("round must be at least 1".into());
        }
        if self.total_rounds < self.round {
            return bad(format!(
                "round {} is beyond the tournament's {} rounds",
                self.round, self.total_rounds
            ));
        }
        let mut ids = BTreeSet::new();
        for p in &self.players {
            if p.id == 0 {
                return bad("pairing number 0 is not a player".into());
            }
            if !ids.insert(p.id) {
                return bad(format!("pairing number {} appears twice", p.id));
            }
        }
        let played = (self.round - 1) as usize;
        let by_id: std::collections::BTreeMap<PlayerId, &PlayerInput> =
            self.players.iter().map(|p| (p.id, p)).collect();
        for p in &self.players {
            if p.history.len() != played {
                return bad(format!(
                    "player {} has {} rounds of history, expected {}",
                    p.id,
                    p.history.len(),
                    played
                ));
            }
            for (ri, e) in p.history.iter().enumerate() {
                let rnd = ri + 1;
                match e.opponent {
                    Some(o) => {
                        if !e.result.has_opponent() {
                            return bad(format!(
                                "player {} round {rnd}: result '{}' cannot have an opponent",
                                p.id,
                                e.result.trf_char()
                            ));
                        }
                        let Some(op) = by_id.get(&o) else {
                            return bad(format!(
                                "player {} round {rnd}: unknown opponent {o}",
                                p.id
                            ));
                        };
                        if o == p.id {
                            return bad(format!("player {} round {rnd}: plays himself", p.id));
                        }
                        let back = op.history.get(ri);
                        if back.and_then(|b| b.opponent) != Some(p.id) {
                            return bad(format!(
                                "player {} round {rnd}: opponent {o} does not list him back",
                                p.id
                            ));
                        }
                        if e.result.is_played() && e.color.is_none() {
                            return bad(format!(
                                "player {} round {rnd}: played game without colour",
                                p.id
                            ));
                        }
                    }
                    None => {
                        if e.result.has_opponent() && e.result != ResultCode::ForfeitLoss {
                            return bad(format!(
                                "player {} round {rnd}: result '{}' needs an opponent",
                                p.id,
                                e.result.trf_char()
                            ));
                        }
                    }
                }
            }
        }
        for &(a, b) in &self.forbidden_pairs {
            for x in [a, b] {
                if !ids.contains(&x) {
                    return bad(format!("forbidden pair names unknown player {x}"));
                }
            }
        }
        Ok(())
    }
}

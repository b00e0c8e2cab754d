//! What the arbiter sets ahead of a pairing: virtual points, forbidden pairings, and a round
//! robin's drawing of lots (C.05 §6.2).

use super::*;
use crate::Score;
use crate::tournament::types::Player;
use std::collections::BTreeSet;

impl Decider<'_> {
    pub(super) fn set_virtual_points(
        &self,
        c: &SetVirtualPoints,
    ) -> Result<Vec<Event>, DomainError> {
        self.entry(c.player)?;
        if c.points.len() > self.t.rounds as usize {
            return Err(DomainError::invalid(
                "points",
                format!(
                    "{} rounds of virtual points for a tournament of {} rounds",
                    c.points.len(),
                    self.t.rounds
                ),
            ));
        }
        if let Some(i) = c
            .points
            .iter()
            .position(|s| !(0..=9999).contains(&s.tenths()))
        {
            return Err(DomainError::invalid(
                "points",
                format!("round {}: virtual points must be 0 to 999.9", i + 1),
            ));
        }
        let at = |r: u32| c.points.get(r as usize - 1).copied().unwrap_or(Score::ZERO);
        let open = self.first_unpaired_round();
        if let Some(r) =
            (1..open.min(self.t.rounds + 1)).find(|&r| at(r) != self.s.virtual_points(c.player, r))
        {
            return Err(DomainError::invalid(
                "points",
                format!("round {r} is already paired; its virtual points cannot change"),
            ));
        }
        let mut points = c.points.clone();
        while points.last() == Some(&Score::ZERO) {
            points.pop();
        }
        let mut events = vec![Event::VirtualPointsSet(VirtualPointsSet {
            player_id: c.player,
            points,
        })];
        if let Some(r) = self.s.pending_round()
            && at(r) != self.s.virtual_points(c.player, r)
        {
            events.extend(self.rerequest());
        }
        Ok(events)
    }

    pub(super) fn forbid_pairings(&self, c: &ForbidPairings) -> Result<Vec<Event>, DomainError> {
        let mut seen = BTreeSet::new();
        for &p in &c.players {
            self.entry(p)?;
            if !seen.insert(p) {
                return Err(DomainError::invalid(
                    "players",
                    format!("player {p} is listed twice"),
                ));
            }
        }
        if seen.len() < 2 {
            return Err(DomainError::invalid("players", "at least two players"));
        }
        let (first, last) = c.rounds.unwrap_or((1, self.t.rounds));
        if first == 0 || first > last || last > self.t.rounds {
            return Err(DomainError::invalid(
                "rounds",
                format!(
                    "rounds {first} to {last} are not within 1 to {}",
                    self.t.rounds
                ),
            ));
        }
        if first < self.first_unpaired_round() {
            return Err(DomainError::RoundAlreadyPaired {
                round: first,
                hint: "forbid the pairings from a round not yet paired",
            });
        }
        let mut events = vec![Event::PairingsForbidden(PairingsForbidden {
            player_ids: c.players.clone(),
            rounds: c.rounds,
        })];
        if self
            .s
            .pending_round()
            .is_some_and(|r| (first..=last).contains(&r))
        {
            events.extend(self.rerequest());
        }
        Ok(events)
    }

    /// C.05 §6.2: the drawing of lots gives a round robin's pairing numbers, before round 1.
    /// Drawn by the service from a published seed (the lots are SHA-256 of the seed, so
    /// anyone re-derives them), or recorded by the arbiter from a draw in the hall; a Varma
    /// draw (C.05 Annex 2) recorded by hand must be one the procedure can make.
    pub(super) fn draw_lots(&self, c: &DrawLots) -> Result<Vec<Event>, DomainError> {
        if self.t.pairing_system.is_swiss() {
            return Err(DomainError::invalid(
                "pairing_system",
                "a Swiss event is numbered by the initial ranking (C.04.2.B), not by lots; the drawing of lots is for round robins (C.05 §6.2)",
            ));
        }
        if self.t.pairing_system.is_team_table() {
            return Err(DomainError::invalid(
                "pairing_system",
                format!(
                    "a {:?} event numbers its players by team and board (registered in that order); a drawing of lots would move them to other teams",
                    self.t.pairing_system
                ),
            ));
        }
        if let Some(r) = self.s.current_round() {
            return Err(DomainError::invalid(
                "round",
                format!("round {r} has started: the lots are drawn before round 1 (C.05 §6.2)"),
            ));
        }
        if self.s.lots_drawn().is_some() {
            return Err(DomainError::invalid(
                "lots",
                "the lots were already drawn and the service records one draw per event: the numbers stay (C.05 §6.4)",
            ));
        }
        // `drawn_numbers` has checked the seed as a line of text.
        let numbers = drawn_numbers(self.s, c)?;
        let seed = c.seed.trim().to_string();
        Ok(vec![Event::LotsDrawn(LotsDrawn {
            numbers,
            varma: c.varma,
            seed,
        })])
    }
}

/// The numbers a drawing of lots gives the players of `state` (in pairing-number order): drawn
/// from `c.seed`, or `c.numbers` checked (a Varma draw must be one the procedure can make).
/// The audit calls it again on the state before a recorded draw to re-derive it.
pub fn drawn_numbers(state: &State, c: &DrawLots) -> Result<Vec<PlayerId>, DomainError> {
    use arbiter_roundrobin::{lots, varma};
    let n = state.player_count();
    if n < 2 {
        return Err(DomainError::invalid(
            "players",
            format!("{n} players registered: a round robin needs at least 2"),
        ));
    }
    let players: Vec<&Player> = (1..=n)
        .filter_map(|pn| state.player(pn).map(|p| &p.player))
        .collect();
    let entrants: Vec<varma::Entrant> = players
        .iter()
        .map(|p| varma::Entrant {
            name: p.name.clone(),
            federation: p.federation.clone(),
        })
        .collect();
    if c.varma
        && let Some(p) = players.iter().find(|p| p.federation.is_empty())
    {
        return Err(DomainError::invalid(
            "federation",
            format!(
                "player {} ({}) has no federation: the Varma draw orders the players by federation (C.05 Annex 2 step 2)",
                p.player_id, p.name
            ),
        ));
    }
    let seed = line("seed", &c.seed, false)?;
    let numbers = match (seed.is_empty(), c.numbers.is_empty()) {
        (false, true) if c.varma => varma::varma_draw(&entrants, lots::seeded(&seed))
            .map_err(|e| DomainError::invalid("varma", e.to_string()))?,
        (false, true) => {
            let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
            lots::unrestricted_draw(&names, lots::seeded(&seed))
        }
        (true, false) => {
            if c.varma {
                varma::check_varma_draw(&entrants, &c.numbers)
                    .map_err(|e| DomainError::invalid("numbers", e.to_string()))?;
            } else {
                check_permutation(&c.numbers, n)?;
            }
            c.numbers.clone()
        }
        _ => {
            return Err(DomainError::invalid(
                "seed",
                "give either a seed (the service draws) or the numbers drawn in the hall, not both or neither",
            ));
        }
    };
    Ok(numbers)
}

/// `numbers` gives each of `n` players one number of 1..=n (the players in pairing-number order).
fn check_permutation(numbers: &[PlayerId], n: u32) -> Result<(), DomainError> {
    if numbers.len() != n as usize {
        return Err(DomainError::invalid(
            "numbers",
            format!("{} numbers for {n} players", numbers.len()),
        ));
    }
    let mut seen = vec![false; n as usize + 1];
    for (i, &x) in numbers.iter().enumerate() {
        if x == 0 || x > n {
            return Err(DomainError::invalid(
                "numbers",
                format!("player {}: number {x} is not in 1..={n}", i + 1),
            ));
        }
        if std::mem::replace(&mut seen[x as usize], true) {
            return Err(DomainError::invalid(
                "numbers",
                format!("player {}: number {x} is drawn twice", i + 1),
            ));
        }
    }
    Ok(())
}

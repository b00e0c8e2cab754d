//! An arbiter's undo of a registration, and the duplicate check of a new one. A registration
//! made in error (a duplicate, a typo'd player, the wrong event) is cancelled before the player
//! is first paired: nothing about him is published yet, so he leaves the list as if never
//! registered and the players below him move up one number (the inverse of C.04.2.C.3's
//! insertion). Once a published pairing lists him, the record stands (C.04.2.D.10) and he is
//! withdrawn (C.04.2.D.3) instead.

use super::*;

/// A name as people compare them: case and runs of spaces do not make another person.
fn name_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl Decider<'_> {
    /// A second player of the same name needs the arbiter's word unless both have a FIDE id
    /// (two ids are two people; the duplicate-id check covers the same id).
    pub(super) fn check_same_name(
        &self,
        player: &Player,
        confirmed: bool,
    ) -> Result<(), DomainError> {
        if confirmed {
            return Ok(());
        }
        let key = name_key(&player.name);
        match self.s.players().find(|q| {
            name_key(&q.player.name) == key
                && (player.fide_id.is_none() || q.player.fide_id.is_none())
        }) {
            Some(q) => Err(DomainError::SameNameRegistered {
                name: q.player.name.clone(),
                player: q.pairing_number(),
                entry: q.entry.number(),
            }),
            None => Ok(()),
        }
    }

    pub(super) fn cancel_registration(
        &self,
        c: &CancelRegistration,
    ) -> Result<Vec<Event>, DomainError> {
        let e = self.entry(c.player)?;
        let Some(p) = self.s.player_by_entry(e) else {
            return Err(DomainError::UnknownPlayer {
                player: c.player,
                players: self.s.player_count(),
            });
        };
        let refuse = |reason: String| DomainError::RegistrationNotCancellable {
            entry: e.number(),
            name: p.player.name.clone(),
            reason,
        };
        if let Some((round, place)) = self.s.first_listed(e) {
            let place = match place {
                Ok(board) => format!("board {board}"),
                Err(code) => format!("unpaired, TRF code {}", code.trf_char()),
            };
            return Err(refuse(format!(
                "he is on the published pairing of round {round} ({place}), and a published \
                 pairing stands (C.04.2.D.10); withdraw him instead (WithdrawPlayer)"
            )));
        }
        if !self.t.pairing_system.is_swiss() {
            // A round robin's or knockout's field fixes its schedule or bracket when round 1
            // starts, and its numbers once the lots are drawn.
            if let Some(r) = self.s.current_round() {
                return Err(refuse(format!(
                    "round {r} has started and a {:?} event's field is fixed from round 1; \
                     withdraw him instead (WithdrawPlayer)",
                    self.t.pairing_system
                )));
            }
            if self.s.lots_drawn().is_some() {
                return Err(refuse(
                    "the lots were drawn for this field (C.05 §6.2): the numbers stay; withdraw \
                     him instead (WithdrawPlayer)"
                        .into(),
                ));
            }
        }
        if let Some(team) = self
            .s
            .teams()
            .into_iter()
            .find(|t| t.members.contains(&Some(c.player)))
        {
            return Err(refuse(format!(
                "he is on the list of team {} ({:?})",
                team.number, team.name
            )));
        }
        let mut events = vec![Event::RegistrationCancelled(RegistrationCancelled {
            entry: e.number(),
            player_id: c.player,
            reason: line("reason", &c.reason, false)?,
        })];
        // Pairing numbers changed under a pending pairing: it has to be made again.
        events.extend(self.rerequest());
        Ok(events)
    }
}

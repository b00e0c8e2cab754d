//! An arbiter's undo of a registration, and the duplicate check of a new one. A registration
//! made in error (a duplicate, a typo'd player, the wrong event) is cancelled before the player
//! is first paired: nothing about him is published yet, so he leaves the list as if never
//! registered and the players below him move up one number (the inverse of C.04.2.C.3's
//! insertion). Once a published pairing lists him, the record stands (C.04.2.D.10) and he is
//! withdrawn (C.04.2.D.3) instead.

use super::*;
use crate::tournament::state::MAX_PLAYERS;
use crate::tournament::types::Player;

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

    pub(super) fn register(&self, c: &RegisterPlayer) -> Result<Vec<Event>, DomainError> {
        let mut player = Player {
            player_id: 0,
            name: line("name", &c.name, true)?,
            fide_id: fide_id("fide_id", c.fide_id)?,
            national_id: line("national_id", &c.national_id, false)?,
            rating: c.rating,
            national_rating: c.national_rating,
            k_factor: c.k_factor,
            title: c.title,
            federation: federation("federation", &c.federation)?,
            birth_date: c.birth_date,
            sex: c.sex,
            club: line("club", &c.club, false)?,
        };
        plausible_rating("rating", c.rating)?;
        plausible_rating("national_rating", c.national_rating)?;
        if c.k_factor > 100 {
            return Err(DomainError::invalid(
                "k_factor",
                format!("{} is above 100", c.k_factor),
            ));
        }
        if let Some(id) = player.fide_id
            && let Some(other) = self.s.player_by_fide_id(id)
        {
            return Err(DomainError::DuplicateFideId {
                fide_id: id,
                player: other.pairing_number(),
            });
        }
        self.check_same_name(&player, c.confirm_same_name)?;
        if self.s.player_count() >= MAX_PLAYERS {
            return Err(DomainError::TooManyPlayers {
                players: self.s.player_count(),
            });
        }
        // C.04.2.C.1–2: a player is admitted before the pairing of a round is made, and is
        // paired from the round he can play.
        let Some(open) = self.s.next_open_round() else {
            return Err(DomainError::NoRoundLeftToEnter {
                rounds: self.t.rounds,
            });
        };
        let first_round = c.first_round.unwrap_or(open);
        if first_round > self.t.rounds {
            return Err(DomainError::RoundOutOfRange {
                round: first_round,
                rounds: self.t.rounds,
            });
        }
        if first_round < open {
            return Err(DomainError::EntryTooEarly {
                round: first_round,
                earliest: open,
            });
        }
        if !self.t.pairing_system.is_swiss() {
            // A round robin's field fixes its schedule (C.05 §6.4: changes after the drawing
            // only at the CA's discretion): nobody enters once round 1 has started.
            if self.s.current_round().is_some() || first_round != 1 {
                return Err(DomainError::invalid(
                    "first_round",
                    "a round robin takes no late entries: its schedule is drawn for the field registered before round 1",
                ));
            }
            if self.s.lots_drawn().is_some() {
                return Err(DomainError::invalid(
                    "lots",
                    "the lots were drawn for the field registered before the draw: an entry after the drawing is the chief arbiter's decision (C.05 §6.4), outside the service",
                ));
            }
            // C.05 §6.2-6.3: round-robin numbers come from the drawing of lots, not the rating
            // order: the arbiter registers the players in the order of the numbers drawn, and
            // each keeps the number of his registration.
            player.player_id = self.s.player_count() + 1;
        } else if c.next_number {
            player.player_id = self.s.player_count() + 1;
        } else {
            // C.04.2.B.2–3 and C.3: the newcomer takes his place in the ranking order (after
            // any player he ties with on every key); everyone below moves down one number.
            player.player_id = 1 + self
                .s
                .players()
                .filter(|q| q.player.initial_ranking_cmp(&player).is_le())
                .count() as u32;
        }
        let mut events = vec![if first_round == 1 {
            Event::PlayerRegistered(PlayerRegistered { player })
        } else {
            Event::LateEntry(LateEntry {
                player,
                first_round,
                missed_rounds: vec![c.missed_rounds.code(); first_round as usize - 1],
            })
        }];
        // Pairing numbers changed under a pending pairing: it has to be made again.
        events.extend(self.rerequest());
        Ok(events)
    }

    /// A correction of registration data. Until round 1 starts the list is provisional
    /// (C.04.2.B): the corrected player takes his place in the ranking order and the players
    /// between move by one. From round 1 on the numbers stay (they are on the pairings and
    /// decide the order within score groups); the data is corrected.
    pub(super) fn correct_player(&self, c: &CorrectPlayer) -> Result<Vec<Event>, DomainError> {
        let e = self.entry(c.player)?;
        let Some(p) = self.s.player_by_entry(e) else {
            return Err(DomainError::UnknownPlayer {
                player: c.player,
                players: self.s.player_count(),
            });
        };
        let mut fields: Vec<String> = Vec::new();
        for f in &c.fields {
            let f = f.trim();
            if !Player::FIELDS.contains(&f) {
                return Err(DomainError::invalid(
                    "fields",
                    format!(
                        "{f:?} is not a player field ({})",
                        Player::FIELDS.join(", ")
                    ),
                ));
            }
            if !fields.iter().any(|x| x == f) {
                fields.push(f.to_string());
            }
        }
        if fields.is_empty() {
            return Err(DomainError::invalid(
                "fields",
                "name the fields to correct, e.g. rating",
            ));
        }
        let v = &c.corrected;
        let mut given = v.clone();
        for f in &fields {
            match f.as_str() {
                "name" => given.name = line("name", &v.name, true)?,
                "fide_id" => given.fide_id = fide_id("fide_id", v.fide_id)?,
                "national_id" => given.national_id = line("national_id", &v.national_id, false)?,
                "federation" => given.federation = federation("federation", &v.federation)?,
                "club" => given.club = line("club", &v.club, false)?,
                "rating" => {
                    plausible_rating("rating", v.rating)?;
                }
                "national_rating" => {
                    plausible_rating("national_rating", v.national_rating)?;
                }
                "k_factor" => {
                    let (value, max) = (v.k_factor, 100);
                    if value > max {
                        return Err(DomainError::invalid(
                            f.clone(),
                            format!("{value} is above {max}"),
                        ));
                    }
                }
                _ => {}
            }
        }
        let mut corrected = p.player.clone();
        for f in &fields {
            corrected.copy_field(&given, f);
        }
        if corrected == p.player {
            return Err(DomainError::invalid(
                "fields",
                format!("player {} already has these values", c.player),
            ));
        }
        if let Some(id) = corrected.fide_id
            && let Some(other) = self.s.player_by_fide_id(id)
            && other.entry != e
        {
            return Err(DomainError::DuplicateFideId {
                fide_id: id,
                player: other.pairing_number(),
            });
        }
        let reason = line("reason", &c.reason, true)?;
        // C.04.2.B.2-3: his place among the others, ties after those registered before him.
        // A round robin's numbers are the drawing of lots: a correction never moves them.
        let new_player_id = if self.s.current_round().is_none() && self.t.pairing_system.is_swiss()
        {
            let place = 1 + self
                .s
                .players()
                .filter(|q| q.entry != e)
                .filter(|q| {
                    q.player
                        .initial_ranking_cmp(&corrected)
                        .then(q.entry.cmp(&e))
                        .is_lt()
                })
                .count() as u32;
            (place != c.player).then_some(place)
        } else {
            None
        };
        let mut events = vec![Event::PlayerCorrected(PlayerCorrected {
            player: corrected,
            fields,
            reason,
            new_player_id,
        })];
        // The pairing input holds the player's data: a pending pairing is made again.
        events.extend(self.rerequest());
        Ok(events)
    }

    pub(super) fn withdraw(&self, c: &WithdrawPlayer) -> Result<Vec<Event>, DomainError> {
        let e = self.entry(c.player)?;
        let Some(p) = self.s.player_by_entry(e) else {
            return Err(DomainError::UnknownPlayer {
                player: c.player,
                players: self.s.player_count(),
            });
        };
        if let Some(w) = &p.withdrawn {
            return Err(DomainError::PlayerWithdrawn {
                player: c.player,
                from_round: w.from_round,
            });
        }
        self.round_open(c.from_round, "a player leaving a paired round loses his game by forfeit; withdraw him from a later round")?;
        let mut events: Vec<Event> = p
            .byes
            .range(c.from_round..)
            .map(|(round, _)| {
                Event::ByeCancelled(ByeCancelled {
                    player_id: c.player,
                    round: *round,
                })
            })
            .collect();
        events.push(Event::PlayerWithdrawn(PlayerWithdrawn {
            player_id: c.player,
            from_round: c.from_round,
            reason: line("reason", &c.reason, false)?,
        }));
        events.extend(self.rerequest_if_pending(c.from_round));
        Ok(events)
    }
}

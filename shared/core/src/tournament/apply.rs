//! Folding events into the state. `apply` is a pure function of the state and the event: it
//! reads no clock and no environment, so replaying a stream always gives the same state.

use super::conduct::ConsentRecord;
use super::error::DomainError;
use super::event::*;
use super::state::{
    CorrectionEffect, CorrectionRecord, Game, PlayerRecord, Proposal, Published, RoundPhase,
    RoundRecord, Slot, State, Withdrawal,
};
use super::types::{EntryId, Player, Unpaired};
use crate::{Color, PlayerId, ResultCode};
use std::collections::BTreeMap;

fn inconsistent(event: &Event, reason: impl Into<String>) -> DomainError {
    DomainError::InconsistentEvent {
        event: event.kind(),
        reason: reason.into(),
    }
}

impl State {
    /// Folds a whole stream.
    pub fn from_events<'a>(events: impl IntoIterator<Item = &'a Event>) -> State {
        let mut s = State::default();
        for e in events {
            s.apply(e);
        }
        s
    }

    /// Folds one event. An event that does not fit the state (it names an unknown player, round
    /// or board; it comes before the tournament was created) leaves the state unchanged; use
    /// [`State::try_apply`] to learn why.
    pub fn apply(&mut self, event: &Event) {
        let _ = self.try_apply(event);
    }

    /// Folds one event, or leaves the state unchanged and says why the event does not fit it.
    /// Only the consistency of references is checked here, not the rules `decide` enforces:
    /// the log is a record of facts.
    pub fn try_apply(&mut self, event: &Event) -> Result<(), DomainError> {
        if self.tournament.is_none() && !matches!(event, Event::TournamentCreated(_)) {
            return Err(inconsistent(
                event,
                "the stream has no TournamentCreated before it",
            ));
        }
        match event {
            Event::TournamentCreated(e) => {
                if self.tournament.is_some() {
                    return Err(inconsistent(event, "the tournament was already created"));
                }
                self.tournament = Some(e.clone());
            }
            Event::TournamentUpdated(e) => {
                let Some(t) = self.tournament.as_mut() else {
                    return Err(inconsistent(event, "no tournament"));
                };
                if let Some(v) = &e.name {
                    t.name = v.clone();
                }
                if let Some(v) = &e.place {
                    t.place = v.clone();
                }
                if let Some(v) = e.start_date {
                    t.start_date = v;
                }
                if let Some(v) = e.end_date {
                    t.end_date = v;
                }
                if let Some(v) = &e.chief_arbiter {
                    t.chief_arbiter = v.clone();
                }
                if let Some(v) = e.rounds {
                    t.rounds = v;
                }
                if let Some(v) = &e.tie_breaks {
                    t.tie_breaks = v.clone();
                }
                if let Some(v) = &e.federation {
                    t.federation = v.clone();
                }
                if let Some(v) = &e.deputy_arbiters {
                    t.deputy_arbiters = v.clone();
                }
                if let Some(v) = &e.time_control {
                    t.time_control = v.clone();
                }
                if let Some(v) = e.rating_kind {
                    t.rating_kind = v;
                }
                if let Some(v) = &e.prize_fund {
                    self.prize_fund = Some(v.clone());
                }
            }
            Event::PlayerRegistered(e) => self.insert_player(&e.player, 1, Vec::new()),
            Event::LateEntry(e) => {
                self.insert_player(&e.player, e.first_round.max(1), e.missed_rounds.clone())
            }
            Event::PlayerCorrected(e) => self.correct_player(e, event)?,
            Event::RegistrationCancelled(e) => self.cancel_registration(e, event)?,
            Event::PlayerWithdrawn(e) => {
                let p = self.player_mut(e.player_id, event)?;
                p.withdrawn = Some(Withdrawal {
                    from_round: e.from_round,
                    reason: e.reason.clone(),
                });
            }
            Event::ByeRequested(e) => {
                self.player_mut(e.player_id, event)?
                    .byes
                    .insert(e.round, e.kind);
            }
            Event::ByeCancelled(e) => {
                self.player_mut(e.player_id, event)?.byes.remove(&e.round);
            }
            Event::FairPlayConsentRecorded(e) => {
                let from_round = self.published_rounds() + 1;
                self.player_mut(e.player_id, event)?.consent = Some(ConsentRecord {
                    from_round,
                    regulations_version: e.regulations_version.clone(),
                    accepted_by: e.accepted_by.clone(),
                    by_guardian: e.by_guardian,
                    items: e.items.clone(),
                    platform_account: e.platform_account.clone(),
                });
            }
            Event::AbsenceDeclared(e) => {
                self.player_mut(e.player_id, event)?
                    .absences
                    .insert(e.round, e.reason.clone());
            }
            Event::RoundStarted(e) => {
                let expected = self.rounds.len() as u32 + 1;
                if e.round != expected {
                    return Err(inconsistent(
                        event,
                        format!(
                            "round {} started, but the next round is {expected}",
                            e.round
                        ),
                    ));
                }
                self.rounds.push(RoundRecord {
                    phase: RoundPhase::Started,
                    attempt: 0,
                    scheduled_unix_ms: e.scheduled_unix_ms,
                    proposal: None,
                    failure: None,
                    published: None,
                });
                if e.round == 1 {
                    self.fix_accelerated_group();
                }
            }
            Event::PairingRequested(e) => {
                let r = self.pending_round_mut(e.round, event)?;
                r.phase = RoundPhase::Requested;
                r.attempt = e.attempt;
                r.proposal = None;
                r.failure = None;
            }
            Event::PairingProposed(e) => {
                let boards =
                    self.map_boards(e.round, e.boards.iter().map(|b| (b.white, b.black)), event)?;
                let unpaired = self.map_unpaired(e.round, &e.unpaired, event)?;
                let r = self.pending_round_mut(e.round, event)?;
                r.phase = RoundPhase::Proposed;
                r.failure = None;
                r.proposal = Some(Proposal {
                    attempt: e.attempt,
                    boards,
                    unpaired,
                    engine: e.engine.clone(),
                    rule_set: e.rule_set.clone(),
                    based_on_version: e.based_on_version,
                    input_digest: e.input_digest.clone(),
                    explanation: e.explanation.clone(),
                    team_matches: e.team_matches.clone(),
                    team_bye: e.team_bye,
                });
            }
            Event::PairingFailed(e) => {
                let r = self.pending_round_mut(e.round, event)?;
                r.phase = RoundPhase::Failed;
                r.proposal = None;
                r.failure = Some(e.clone());
            }
            Event::PairingPublished(e) => {
                let boards =
                    self.map_boards(e.round, e.boards.iter().map(|b| (b.white, b.black)), event)?;
                let unpaired = self.map_unpaired(e.round, &e.unpaired, event)?;
                let mut slots = BTreeMap::new();
                for (i, (w, b)) in boards.iter().enumerate() {
                    for (who, color) in [(*w, Color::White), (*b, Color::Black)] {
                        if slots.insert(who, Slot::Board(i, color)).is_some() {
                            return Err(inconsistent(
                                event,
                                format!("player {} is listed twice", self.pn(who)),
                            ));
                        }
                    }
                }
                for (who, code) in &unpaired {
                    if slots.insert(*who, Slot::Unpaired(*code)).is_some() {
                        return Err(inconsistent(
                            event,
                            format!("player {} is listed twice", self.pn(*who)),
                        ));
                    }
                }
                let r = self.pending_round_mut(e.round, event)?;
                r.phase = RoundPhase::Published;
                r.published = Some(Published {
                    proposal_version: e.proposal_version,
                    games: boards
                        .into_iter()
                        .map(|(white, black)| Game {
                            white,
                            black,
                            result: None,
                            final_result: None,
                        })
                        .collect(),
                    unpaired,
                    manually_changed: e.manually_changed,
                    note: e.note.clone(),
                    slots,
                });
                if !e.team_matches.is_empty() || e.team_bye.is_some() {
                    self.team_rounds.insert(
                        e.round,
                        super::team_event::TeamPairing {
                            matches: e.team_matches.clone(),
                            bye: e.team_bye,
                        },
                    );
                }
            }
            Event::ResultRecorded(e) => {
                let g = self.game_mut(e.round, e.board, event)?;
                g.result = Some(e.result);
                g.final_result = Some(e.result);
            }
            Event::ResultCorrected(e) => {
                let effect = self.correction_effect(e.round);
                let g = self.game_mut(e.round, e.board, event)?;
                g.final_result = Some(e.corrected);
                if effect != CorrectionEffect::FinalEvaluationOnly {
                    g.result = Some(e.corrected);
                }
                self.corrections.push(CorrectionRecord {
                    round: e.round,
                    board: e.board,
                    previous: e.previous,
                    corrected: e.corrected,
                    reason: e.reason.clone(),
                    effect,
                });
            }
            Event::RoundClosed(e) => {
                let Some(r) = self.round_mut(e.round) else {
                    return Err(inconsistent(
                        event,
                        format!("round {} has not started", e.round),
                    ));
                };
                if r.published.is_none() {
                    return Err(inconsistent(
                        event,
                        format!("round {} has no published pairing", e.round),
                    ));
                }
                r.phase = RoundPhase::Closed;
            }
            Event::TournamentFinished(e) => {
                self.finished = Some(e.rounds_played);
            }
            Event::VirtualPointsSet(e) => {
                let p = self.player_mut(e.player_id, event)?;
                p.virtual_points = Some(e.points.clone());
            }
            Event::PairingsForbidden(e) => {
                let mut ids = Vec::with_capacity(e.player_ids.len());
                for &pn in &e.player_ids {
                    let Some(id) = self.entry_of(pn) else {
                        return Err(inconsistent(event, format!("player {pn} does not exist")));
                    };
                    ids.push(id);
                }
                self.forbidden.push((ids, e.rounds));
            }
            Event::LotsDrawn(e) => self.draw_lots(e, event)?,
            Event::TeamRecorded(e) => {
                let mut members = Vec::with_capacity(e.members.len());
                for m in &e.members {
                    members.push(match m {
                        None => None,
                        Some(pn) => match self.entry_of(*pn) {
                            Some(id) => Some(id),
                            None => {
                                return Err(inconsistent(
                                    event,
                                    format!("team member {pn} does not exist"),
                                ));
                            }
                        },
                    });
                }
                self.teams.push((e.clone(), members));
            }
            Event::LineupSubmitted(e) => {
                let mut players = Vec::with_capacity(e.players.len());
                for pn in &e.players {
                    players.push(self.entry_of(*pn).ok_or_else(|| {
                        inconsistent(event, format!("line-up player {pn} does not exist"))
                    })?);
                }
                self.team_lineups.insert((e.round, e.team), players);
            }
            Event::GameSubmitted(e) => {
                let on_board = self
                    .published(e.round)
                    .is_some_and(|p| e.board >= 1 && e.board as usize <= p.boards.len());
                if !on_board {
                    return Err(inconsistent(
                        event,
                        format!("round {} has no published board {}", e.round, e.board),
                    ));
                }
                self.games_submitted.insert((e.round, e.board));
                if let Some(result) = super::state::pgn_result(&e.pgn) {
                    self.game_results
                        .insert((e.round, e.board, result.to_string()));
                }
            }
            Event::ResultDiscrepancyDetected(e) => {
                if !self.games_submitted.contains(&(e.round, e.board)) {
                    return Err(inconsistent(
                        event,
                        format!("round {}, board {} has no submitted game", e.round, e.board),
                    ));
                }
                self.discrepancies.push(e.clone());
            }
            Event::SanctionImposed(e) => {
                self.player(e.player_id).ok_or_else(|| {
                    inconsistent(event, format!("player {} does not exist", e.player_id))
                })?;
                self.sanctions.push(e.clone());
            }
            Event::IrregularityRecorded(e) => {
                if self.published(e.round).is_none() {
                    return Err(inconsistent(
                        event,
                        format!("round {} has no published pairing", e.round),
                    ));
                }
                self.irregularities.push(e.clone());
            }
            Event::SupervisionBreachRecorded(e) => {
                if e.breach as usize != self.supervision_breaches.len() + 1 {
                    return Err(inconsistent(
                        event,
                        format!(
                            "breach {} is not the next number ({})",
                            e.breach,
                            self.supervision_breaches.len() + 1
                        ),
                    ));
                }
                if self.published(e.round).is_none() {
                    return Err(inconsistent(
                        event,
                        format!("round {} has no published pairing", e.round),
                    ));
                }
                self.supervision_breaches.push(e.clone());
            }
            Event::ConnectionIncidentReported(e) => {
                if e.incident as usize != self.incidents.len() + 1 {
                    return Err(inconsistent(
                        event,
                        format!(
                            "incident {} reported, but the next is {}",
                            e.incident,
                            self.incidents.len() + 1
                        ),
                    ));
                }
                self.incidents.push(e.clone());
            }
            Event::DisconnectionRuled(e) => {
                if e.incident == 0 || e.incident as usize > self.incidents.len() {
                    return Err(inconsistent(event, format!("no incident {}", e.incident)));
                }
                self.rulings.push(e.clone());
            }
            Event::ComplaintFiled(e) => {
                if e.complaint as usize != self.complaints.len() + 1 {
                    return Err(inconsistent(
                        event,
                        format!(
                            "complaint {} filed, but the next is {}",
                            e.complaint,
                            self.complaints.len() + 1
                        ),
                    ));
                }
                self.complaints.push(e.clone());
            }
            Event::AppealFiled(e) => {
                if e.appeal as usize != self.appeals.len() + 1 {
                    return Err(inconsistent(
                        event,
                        format!(
                            "appeal {} filed, but the next is {}",
                            e.appeal,
                            self.appeals.len() + 1
                        ),
                    ));
                }
                self.appeals.push(e.clone());
            }
            Event::AppealDecided(e) => {
                if e.appeal == 0 || e.appeal as usize > self.appeals.len() {
                    return Err(inconsistent(event, format!("no appeal {}", e.appeal)));
                }
                self.appeal_decisions.push(e.clone());
            }
            Event::ResultOverridden(e) => {
                if !self.games_submitted.contains(&(e.round, e.board)) {
                    return Err(inconsistent(
                        event,
                        format!("round {}, board {} has no submitted game", e.round, e.board),
                    ));
                }
                self.overrides.push(e.clone());
            }
        }
        Ok(())
    }

    /// Gives every player the number he drew: the ranking is permuted and the whole list
    /// counts as renumbered (cause: the player who drew number 1).
    fn draw_lots(&mut self, e: &super::event::LotsDrawn, event: &Event) -> Result<(), DomainError> {
        let n = self.ranking.len();
        if self.lots.is_some() {
            return Err(inconsistent(event, "the lots were already drawn"));
        }
        if e.numbers.len() != n {
            return Err(inconsistent(
                event,
                format!("{} numbers for {n} players", e.numbers.len()),
            ));
        }
        let mut ranking = vec![None; n];
        for (i, &x) in e.numbers.iter().enumerate() {
            match ranking.get_mut((x as usize).wrapping_sub(1)) {
                Some(slot @ None) => *slot = Some(self.ranking[i]),
                _ => {
                    return Err(inconsistent(
                        event,
                        format!("number {x} is not in 1..={n} or is drawn twice"),
                    ));
                }
            }
        }
        self.ranking = ranking.into_iter().flatten().collect();
        for (i, e) in self.ranking.iter().enumerate() {
            if let Some(p) = self.players.get_mut(e.0 as usize) {
                p.player.player_id = i as u32 + 1;
            }
        }
        if let Some(&first) = self.ranking.first() {
            self.numbering.push(super::state::NumberingChange {
                lo: 1,
                hi: n as u32,
                cause: first,
            });
        }
        self.lots = Some(e.clone());
        Ok(())
    }

    /// Takes the corrected fields, and moves the player to his new number: the players between
    /// move up or down by one.
    fn correct_player(
        &mut self,
        e: &super::event::PlayerCorrected,
        event: &Event,
    ) -> Result<(), DomainError> {
        let from = e.player.player_id;
        let n = self.ranking.len() as u32;
        let to = e.new_player_id.unwrap_or(from);
        if to == 0 || to > n {
            return Err(inconsistent(
                event,
                format!("new pairing number {to} is not in 1..={n}"),
            ));
        }
        let p = self.player_mut(from, event)?;
        let entry = p.entry;
        let mut corrected = p.player.clone();
        for f in &e.fields {
            if !super::types::Player::copy_field(&mut corrected, &e.player, f) {
                return Err(inconsistent(event, format!("unknown field {f:?}")));
            }
        }
        corrected.player_id = from;
        p.player = corrected;
        if to != from {
            self.ranking.remove(from as usize - 1);
            self.ranking.insert(to as usize - 1, entry);
            for (i, e) in self.ranking.iter().enumerate() {
                if let Some(p) = self.players.get_mut(e.0 as usize) {
                    p.player.player_id = i as u32 + 1;
                }
            }
        }
        self.numbering.push(super::state::NumberingChange {
            lo: from.min(to),
            hi: if to == from { 0 } else { from.max(to) },
            cause: entry,
        });
        Ok(())
    }

    /// Takes the entry off the list: the players below him move up one number. His record stays
    /// (entry numbers are positions in the order of registration) but names nobody.
    fn cancel_registration(
        &mut self,
        e: &super::event::RegistrationCancelled,
        event: &Event,
    ) -> Result<(), DomainError> {
        let Some(entry) = EntryId::from_number(e.entry).filter(|x| {
            self.players
                .get(x.0 as usize)
                .is_some_and(|p| p.cancelled.is_none())
        }) else {
            return Err(inconsistent(
                event,
                format!("entry {} is not a registered player", e.entry),
            ));
        };
        let n = self.ranking.len() as u32;
        let pn = self.pn(entry);
        if pn != e.player_id {
            return Err(inconsistent(
                event,
                format!(
                    "entry {} has pairing number {pn}, not {}",
                    e.entry, e.player_id
                ),
            ));
        }
        // A published pairing, a team's list or line-up naming him would name nobody.
        if let Some((round, _)) = self.first_listed(entry) {
            return Err(inconsistent(
                event,
                format!(
                    "entry {} is on the published pairing of round {round}",
                    e.entry
                ),
            ));
        }
        if self.teams.iter().any(|(_, m)| m.contains(&Some(entry)))
            || self.team_lineups.values().any(|l| l.contains(&entry))
        {
            return Err(inconsistent(
                event,
                format!("entry {} is on a team's list", e.entry),
            ));
        }
        self.ranking.remove(pn as usize - 1);
        for (i, x) in self.ranking.iter().enumerate().skip(pn as usize - 1) {
            if let Some(p) = self.players.get_mut(x.0 as usize) {
                p.player.player_id = i as u32 + 1;
            }
        }
        self.numbering.push(super::state::NumberingChange {
            lo: pn,
            hi: n,
            cause: entry,
        });
        for (ids, _) in &mut self.forbidden {
            ids.retain(|x| *x != entry);
        }
        self.forbidden.retain(|(ids, _)| ids.len() >= 2);
        if let Some(p) = self.players.get_mut(entry.0 as usize) {
            p.cancelled = Some(e.reason.clone());
            p.accelerated = false;
        }
        Ok(())
    }

    fn player_mut(
        &mut self,
        pn: PlayerId,
        event: &Event,
    ) -> Result<&mut PlayerRecord, DomainError> {
        let Some(e) = self.entry_of(pn) else {
            return Err(inconsistent(event, format!("player {pn} does not exist")));
        };
        self.players
            .get_mut(e.0 as usize)
            .ok_or_else(|| inconsistent(event, format!("player {pn} does not exist")))
    }

    fn pending_round_mut(
        &mut self,
        round: u32,
        event: &Event,
    ) -> Result<&mut RoundRecord, DomainError> {
        let Some(r) = self.round_mut(round) else {
            return Err(inconsistent(
                event,
                format!("round {round} has not started"),
            ));
        };
        if !r.phase.is_pending() {
            return Err(inconsistent(
                event,
                format!("the pairing of round {round} is already published"),
            ));
        }
        Ok(r)
    }

    fn game_mut(
        &mut self,
        round: u32,
        board: u32,
        event: &Event,
    ) -> Result<&mut Game, DomainError> {
        let Some(p) = self.round_mut(round).and_then(|r| r.published.as_mut()) else {
            return Err(inconsistent(
                event,
                format!("round {round} has no published pairing"),
            ));
        };
        let i = (board as usize).checked_sub(1);
        i.and_then(|i| p.games.get_mut(i))
            .ok_or_else(|| inconsistent(event, format!("round {round} has no board {board}")))
    }

    fn map_boards(
        &self,
        round: u32,
        boards: impl Iterator<Item = (PlayerId, PlayerId)>,
        event: &Event,
    ) -> Result<Vec<(EntryId, EntryId)>, DomainError> {
        boards
            .map(|(w, b)| {
                let f = |pn| {
                    self.entry_of(pn).ok_or_else(|| {
                        inconsistent(event, format!("round {round}: player {pn} does not exist"))
                    })
                };
                Ok((f(w)?, f(b)?))
            })
            .collect()
    }

    fn map_unpaired(
        &self,
        round: u32,
        list: &[Unpaired],
        event: &Event,
    ) -> Result<Vec<(EntryId, ResultCode)>, DomainError> {
        list.iter()
            .map(|u| {
                self.entry_of(u.player_id)
                    .map(|e| (e, u.code))
                    .ok_or_else(|| {
                        inconsistent(
                            event,
                            format!("round {round}: player {} does not exist", u.player_id),
                        )
                    })
            })
            .collect()
    }

    /// Inserts a player at the pairing number his event gives (clamped to 1..=n+1); players
    /// from that number on move down by one.
    fn insert_player(&mut self, player: &Player, first_round: u32, missed_rounds: Vec<ResultCode>) {
        let n = self.ranking.len() as u32;
        let pn = player.player_id.clamp(1, n + 1);
        let entry = EntryId(self.players.len() as u32);
        // Baku group A after round 1 has started: the last player of group A stays the same
        // player; a newcomer joins iff he is inserted above him (C.04.5.1 rule 3).
        let accelerated = self.accelerated_group_fixed
            && self
                .players
                .iter()
                .filter(|p| p.accelerated)
                .map(|p| p.player.player_id)
                .max()
                .is_some_and(|last| pn <= last);
        self.ranking.insert(pn as usize - 1, entry);
        // Numbers pn..=n pass to other players (none when appended at n + 1).
        self.numbering.push(super::state::NumberingChange {
            lo: pn,
            hi: n,
            cause: entry,
        });
        for (i, e) in self.ranking.iter().enumerate().skip(pn as usize) {
            if let Some(p) = self.players.get_mut(e.0 as usize) {
                p.player.player_id = i as u32 + 1;
            }
        }
        let mut stored = player.clone();
        stored.player_id = pn;
        let consent_required = self
            .tournament
            .as_ref()
            .is_some_and(|t| t.conduct.consent_required());
        self.players.push(PlayerRecord {
            entry,
            player: stored,
            entered_at: pn,
            first_round,
            missed_rounds,
            withdrawn: None,
            byes: BTreeMap::new(),
            absences: BTreeMap::new(),
            accelerated,
            virtual_points: None,
            consent_required,
            consent: None,
            cancelled: None,
        });
    }

    /// Baku group A: the first 2·⌈N/4⌉ players of the list when round 1 starts
    /// (C.04.5.1 rule 2).
    fn fix_accelerated_group(&mut self) {
        if self.accelerated_group_fixed
            || self
                .tournament
                .as_ref()
                .is_none_or(|t| t.acceleration.is_none())
        {
            return;
        }
        self.accelerated_group_fixed = true;
        let n = self.ranking.len() as u32;
        let size = (2 * n.div_ceil(4)).min(n);
        for e in self.ranking.iter().take(size as usize) {
            if let Some(p) = self.players.get_mut(e.0 as usize) {
                p.accelerated = true;
            }
        }
    }
}

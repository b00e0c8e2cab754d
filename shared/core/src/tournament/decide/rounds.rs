//! A round's course: byes and absences asked before it is paired, its start, the engine's
//! answer, the pairing checked and published, the round closed, and the tournament finished.

use super::*;
use crate::ResultCode;
use crate::tournament::state::{Availability, RoundPhase};
use crate::tournament::team_event;
use crate::tournament::types::{Board, Engine, Pair, PairingSystem, Unpaired};
use std::collections::BTreeSet;

impl Decider<'_> {
    /// The player exists and is to be paired in `round` as far as registration goes.
    pub(super) fn check_can_change_round(
        &self,
        player: PlayerId,
        round: u32,
    ) -> Result<(), DomainError> {
        let e = self.entry(player)?;
        match self.s.player_by_entry(e).map(|p| p.availability(round)) {
            Some(Availability::Withdrawn { from_round }) => {
                Err(DomainError::PlayerWithdrawn { player, from_round })
            }
            Some(Availability::NotEntered { first_round, .. }) => {
                Err(DomainError::PlayerNotEntered {
                    player,
                    round,
                    first_round,
                })
            }
            Some(Availability::Absent) => {
                Err(DomainError::AbsenceAlreadyDeclared { player, round })
            }
            Some(Availability::Bye(kind)) => Err(DomainError::ByeAlreadyRequested {
                player,
                round,
                kind,
            }),
            // A bye or an absence is his to ask for, consent or not.
            Some(Availability::Available | Availability::ConsentMissing) => Ok(()),
            None => Err(DomainError::UnknownPlayer {
                player,
                players: self.s.player_count(),
            }),
        }
    }

    /// A round robin follows its schedule: no byes, no absences taken out of the pairing; a
    /// scheduled game a player misses is a forfeit (C.05 §6.6: "−" for him, "+" for his
    /// opponent), recorded as its result.
    pub(super) fn refuse_in_round_robin(&self, field: &str) -> Result<(), DomainError> {
        if self.t.pairing_system.is_swiss() {
            return Ok(());
        }
        Err(DomainError::invalid(
            field,
            "a round robin pairs every player by its schedule: record a missed game as a forfeit (C.05 §6.6)",
        ))
    }

    pub(super) fn request_bye(&self, c: &RequestBye) -> Result<Vec<Event>, DomainError> {
        self.entry(c.player)?;
        self.refuse_in_round_robin("kind")?;
        // C.05 §6.7.2: to be told before the round is paired.
        self.round_open(
            c.round,
            "a bye must be requested before the round is paired",
        )?;
        self.check_can_change_round(c.player, c.round)?;
        let mut events = vec![Event::ByeRequested(ByeRequested {
            player_id: c.player,
            round: c.round,
            kind: c.kind,
        })];
        events.extend(self.rerequest_if_pending(c.round));
        Ok(events)
    }

    pub(super) fn cancel_bye(&self, c: &CancelBye) -> Result<Vec<Event>, DomainError> {
        let e = self.entry(c.player)?;
        self.round_open(c.round, "the bye is part of the published pairing")?;
        if !self
            .s
            .player_by_entry(e)
            .is_some_and(|p| p.byes.contains_key(&c.round))
        {
            return Err(DomainError::NoByeRequested {
                player: c.player,
                round: c.round,
            });
        }
        let mut events = vec![Event::ByeCancelled(ByeCancelled {
            player_id: c.player,
            round: c.round,
        })];
        events.extend(self.rerequest_if_pending(c.round));
        Ok(events)
    }

    pub(super) fn declare_absence(&self, c: &DeclareAbsence) -> Result<Vec<Event>, DomainError> {
        self.entry(c.player)?;
        self.refuse_in_round_robin("round")?;
        self.round_open(
            c.round,
            "a player missing a paired game loses it by forfeit (record the result)",
        )?;
        self.check_can_change_round(c.player, c.round)?;
        let mut events = vec![Event::AbsenceDeclared(AbsenceDeclared {
            player_id: c.player,
            round: c.round,
            reason: line("reason", &c.reason, false)?,
        })];
        events.extend(self.rerequest_if_pending(c.round));
        Ok(events)
    }

    pub(super) fn start_round(&self, c: &StartRound) -> Result<Vec<Event>, DomainError> {
        self.round_in_range(c.round)?;
        let expected = self.s.current_round().map_or(1, |n| n + 1);
        if c.round != expected {
            return Err(DomainError::RoundOutOfOrder {
                round: c.round,
                expected,
            });
        }
        if let Some(previous) = self.s.current_round()
            && self.s.round_phase(previous) != Some(RoundPhase::Closed)
        {
            return Err(DomainError::PreviousRoundNotClosed {
                round: c.round,
                previous,
            });
        }
        // The rounds of a round robin are its schedule's (C.05 §5.1, the Berger tables); a team
        // event's are its teams'.
        if let Some(rules) = self.s.team_rules() {
            if c.round == 1 {
                team_event::check_start(self.s, self.t, rules)?;
            }
        } else {
            self.s.check_round_robin_rounds()?;
        }
        if self.t.pairing_system == PairingSystem::Knockout
            && let Some((decided_in, winner)) = self.s.bracket()?.decided
        {
            return Err(DomainError::KnockoutDecided {
                round: c.round,
                decided_in,
                winner,
            });
        }
        if !self.t.pairing_system.is_swiss() {
            // A schedule pairs everyone; a Swiss pairing leaves such a player out instead.
            let missing: Vec<PlayerId> = self
                .s
                .players()
                .filter(|p| p.availability(c.round) == Availability::ConsentMissing)
                .map(|p| p.pairing_number())
                .collect();
            if !missing.is_empty() {
                return Err(DomainError::ConsentMissing {
                    round: c.round,
                    players: missing,
                });
            }
        }
        let available = self
            .s
            .players()
            .filter(|p| p.availability(c.round).is_available())
            .count() as u32;
        if available < 2 {
            return Err(DomainError::NotEnoughPlayers {
                round: c.round,
                available,
            });
        }
        Ok(vec![
            Event::RoundStarted(RoundStarted {
                round: c.round,
                scheduled_unix_ms: c.scheduled_unix_ms,
            }),
            Event::PairingRequested(PairingRequested {
                round: c.round,
                rule_set: self.t.rule_set.clone(),
                attempt: 1,
            }),
        ])
    }

    /// `round` is started and its pairing pending; returns its phase.
    pub(super) fn pending(&self, round: u32) -> Result<RoundPhase, DomainError> {
        self.round_in_range(round)?;
        match self.s.round_phase(round) {
            None => Err(DomainError::RoundNotStarted { round }),
            Some(p) if p.is_pending() => Ok(p),
            Some(_) => Err(DomainError::RoundAlreadyPaired {
                round,
                hint: "a published pairing is not changed (C.04.2.D.10)",
            }),
        }
    }

    pub(super) fn request_pairing(&self, c: &RequestPairing) -> Result<Vec<Event>, DomainError> {
        self.pending(c.round)?;
        Ok(self.rerequest().into_iter().collect())
    }

    /// The attempt and rule set of an engine's answer match the pending request.
    pub(super) fn check_answer(
        &self,
        round: u32,
        attempt: u32,
        rule_set: &str,
    ) -> Result<RoundPhase, DomainError> {
        let phase = self.pending(round)?;
        let current = self.s.round_attempt(round).unwrap_or(0);
        if phase == RoundPhase::Started || phase == RoundPhase::Failed {
            return Err(DomainError::RoundNotPending { round, phase });
        }
        if attempt != current {
            return Err(DomainError::StaleAttempt {
                round,
                attempt,
                current,
            });
        }
        if phase == RoundPhase::Proposed {
            return Err(DomainError::AlreadyProposed { round, attempt });
        }
        if rule_set != self.t.rule_set {
            return Err(DomainError::RuleSetMismatch {
                round,
                expected: self.t.rule_set.clone(),
                given: rule_set.to_string(),
            });
        }
        Ok(phase)
    }

    pub(super) fn engine(&self, e: &Engine) -> Result<Engine, DomainError> {
        Ok(Engine {
            name: line("engine.name", &e.name, true)?,
            version: line("engine.version", &e.version, false)?,
        })
    }

    pub(super) fn propose(&self, c: &ProposePairing) -> Result<Vec<Event>, DomainError> {
        self.check_answer(c.round, c.attempt, &c.rule_set)?;
        if c.input_digest.len() != 32 {
            return Err(DomainError::invalid(
                "input_digest",
                format!("{} bytes, not the 32 of a SHA-256", c.input_digest.len()),
            ));
        }
        let (boards, unpaired) = match self.s.team_rules() {
            Some(rules) => {
                // A team round is proposed as matches; the boards wait for the line-ups.
                if !c.boards.is_empty() || c.bye.is_some() {
                    return Err(DomainError::invalid(
                        "boards",
                        "a team event's proposal names matches (team_matches, team_bye), not boards",
                    ));
                }
                let pairing = team_event::TeamPairing {
                    matches: c.team_matches.clone(),
                    bye: c.team_bye,
                };
                team_event::check_pairing(self.s, self.t, rules, c.round, &pairing)?;
                (Vec::new(), Vec::new())
            }
            None => {
                if !c.team_matches.is_empty() || c.team_bye.is_some() {
                    return Err(DomainError::invalid(
                        "team_matches",
                        "team matches are proposed in team events only",
                    ));
                }
                self.check_pairing(c.round, &c.boards, c.bye)?
            }
        };
        Ok(vec![Event::PairingProposed(PairingProposed {
            round: c.round,
            attempt: c.attempt,
            boards,
            unpaired,
            engine: self.engine(&c.engine)?,
            rule_set: c.rule_set.clone(),
            based_on_version: c.based_on_version,
            input_digest: c.input_digest.clone(),
            explanation: text("explanation", &c.explanation, false)?,
            team_matches: c.team_matches.clone(),
            team_bye: c.team_bye,
        })])
    }

    pub(super) fn report_failure(
        &self,
        c: &ReportPairingFailure,
    ) -> Result<Vec<Event>, DomainError> {
        self.check_answer(c.round, c.attempt, &c.rule_set)?;
        if !c.input_digest.is_empty() && c.input_digest.len() != 32 {
            return Err(DomainError::invalid(
                "input_digest",
                format!("{} bytes, not the 32 of a SHA-256", c.input_digest.len()),
            ));
        }
        Ok(vec![Event::PairingFailed(PairingFailed {
            round: c.round,
            attempt: c.attempt,
            engine: self.engine(&c.engine)?,
            rule_set: c.rule_set.clone(),
            based_on_version: c.based_on_version,
            input_digest: c.input_digest.clone(),
            reason: text("reason", &c.reason, true)?,
        })])
    }

    pub(super) fn publish(&self, c: &PublishPairing) -> Result<Vec<Event>, DomainError> {
        self.pending(c.round)?;
        if let Some(rules) = self.s.team_rules() {
            return self.publish_team(c, rules);
        }
        let proposal = self.s.proposal(c.round);
        let proposed = proposal.as_ref().map(|p| {
            let pairs: Vec<Pair> = p
                .boards
                .iter()
                .map(|b| Pair::new(b.white, b.black))
                .collect();
            let bye = p
                .unpaired
                .iter()
                .find(|u| u.code == ResultCode::PairingBye)
                .map(|u| u.player_id);
            (pairs, bye)
        });
        let note = text("note", &c.note, false)?;
        let (pairs, bye, manually_changed) = match (&c.changes, &proposed) {
            (None, None) => return Err(DomainError::NoProposal { round: c.round }),
            (None, Some((pairs, bye))) => (pairs.clone(), *bye, false),
            (Some(m), _) => {
                let same = proposed
                    .as_ref()
                    .is_some_and(|(pairs, bye)| *pairs == m.boards && *bye == m.bye);
                if !same && note.trim().is_empty() {
                    return Err(DomainError::invalid(
                        "note",
                        "a pairing changed by hand needs a note giving the reason",
                    ));
                }
                (m.boards.clone(), m.bye, !same)
            }
        };
        let (boards, unpaired) = self.check_pairing(c.round, &pairs, bye)?;
        let forfeits = self.withdrawal_forfeits(c.round, &boards);
        let mut events = vec![Event::PairingPublished(PairingPublished {
            round: c.round,
            proposal_version: if proposal.is_some() {
                c.proposal_version
            } else {
                None
            },
            boards,
            unpaired,
            manually_changed,
            note,
            team_matches: Vec::new(),
            team_bye: None,
        })];
        events.extend(forfeits);
        Ok(events)
    }

    /// A round robin keeps a withdrawn player's games on the schedule (C.05 §6.6): each is a
    /// forfeit, recorded with the pairing so nobody has to enter it ("-" for the withdrawn
    /// player, "+" for the opponent; "-/-" when both withdrew). Whether his results count in
    /// the standings is the 50 % rule's business, not this one's. Nothing in a Swiss event,
    /// where a withdrawn player is not paired.
    pub(super) fn withdrawal_forfeits(&self, round: u32, boards: &[Board]) -> Vec<Event> {
        if self.t.pairing_system.is_swiss() {
            return Vec::new();
        }
        let gone: BTreeSet<PlayerId> = self
            .s
            .withdrawals()
            .into_iter()
            .filter(|&(_, from)| from <= round)
            .map(|(pn, _)| pn)
            .collect();
        boards
            .iter()
            .filter_map(|b| {
                let result = match (gone.contains(&b.white), gone.contains(&b.black)) {
                    (true, true) => BoardResult::DoubleForfeit,
                    (true, false) => BoardResult::BlackWinsForfeit,
                    (false, true) => BoardResult::WhiteWinsForfeit,
                    (false, false) => return None,
                };
                Some(Event::ResultRecorded(ResultRecorded {
                    round,
                    board: b.number,
                    result,
                }))
            })
            .collect()
    }

    /// Checks a pairing of `round` and numbers its boards; lists every player not on a board
    /// with his code.
    pub(super) fn check_pairing(
        &self,
        round: u32,
        pairs: &[Pair],
        bye: Option<PlayerId>,
    ) -> Result<(Vec<Board>, Vec<Unpaired>), DomainError> {
        if !self.t.pairing_system.is_swiss() {
            return self.check_schedule(round, pairs, bye);
        }
        let mut seen = BTreeSet::new();
        let mut check = |pn: PlayerId| -> Result<EntryId, DomainError> {
            let e = self
                .s
                .entry_of(pn)
                .ok_or(DomainError::PairingUnknownPlayer { round, player: pn })?;
            if !seen.insert(e) {
                return Err(DomainError::PairedTwice { round, player: pn });
            }
            let availability = self
                .s
                .player_by_entry(e)
                .map_or(Availability::Available, |p| p.availability(round));
            if !availability.is_available() {
                return Err(DomainError::NotAvailable {
                    round,
                    player: pn,
                    availability,
                });
            }
            Ok(e)
        };
        let mut boards = Vec::with_capacity(pairs.len());
        let mut games = Vec::with_capacity(pairs.len());
        for (i, p) in pairs.iter().enumerate() {
            let board = i as u32 + 1;
            if p.white == p.black {
                return Err(DomainError::PairedWithSelf {
                    round,
                    board,
                    player: p.white,
                });
            }
            let w = check(p.white)?;
            let b = check(p.black)?;
            boards.push(Board {
                number: board,
                white: p.white,
                black: p.black,
            });
            games.push((board, w, b));
        }
        let bye_entry = bye.map(&mut check).transpose()?;
        let mut unpaired = Vec::new();
        let mut left_out = Vec::new();
        for p in self.s.players() {
            if seen.contains(&p.entry) {
                continue;
            }
            match p.availability(round).unpaired_code() {
                Some(code) => unpaired.push(Unpaired {
                    player_id: p.pairing_number(),
                    code,
                }),
                None => left_out.push(p.pairing_number()),
            }
        }
        if !left_out.is_empty() {
            return Err(DomainError::PlayersLeftOut {
                round,
                players: left_out,
            });
        }
        if self.t.pairing_system.is_swiss() {
            // C.04.1.b: two players do not meet twice (only played games count, C.04.2.D.6).
            for (board, w, b) in &games {
                if let Some(earlier_round) = self.s.played_before(*w, *b, round) {
                    return Err(DomainError::Rematch {
                        round,
                        board: *board,
                        white: self.s.pn(*w),
                        black: self.s.pn(*b),
                        earlier_round,
                    });
                }
            }
            // C.04.1.d (and [C2] of dutch-2025): PAB eligibility.
            if let Some(e) = bye_entry {
                self.check_bye_eligible(round, e)?;
            }
        }
        if let Some(pn) = bye {
            unpaired.push(Unpaired {
                player_id: pn,
                code: ResultCode::PairingBye,
            });
        }
        unpaired.sort_by_key(|u| u.player_id);
        Ok((boards, unpaired))
    }

    /// A round robin's pairing is its schedule's round (C.05 §5.1, the Berger tables):
    /// every board as the Berger table has it, in its order and colours, whether or not its
    /// players will appear (a withdrawn or absent player's game is forfeited, C.05 §6.6);
    /// the player without an opponent in an odd field rests with zero points, which is no
    /// pairing-allocated bye.
    pub(super) fn check_schedule(
        &self,
        round: u32,
        pairs: &[Pair],
        bye: Option<PlayerId>,
    ) -> Result<(Vec<Board>, Vec<Unpaired>), DomainError> {
        let scheduled = self.s.scheduled_round(round)?;
        let knockout = self.t.pairing_system == PairingSystem::Knockout;
        if let Some(pn) = bye {
            return Err(DomainError::invalid(
                "bye",
                format!(
                    "a round robin has no pairing-allocated bye (player {pn}); in an odd field the player the schedule leaves out rests"
                ),
            ));
        }
        let text = |p: Option<&Pair>| {
            p.map_or("no game".to_string(), |p| {
                format!("{}-{}", p.white, p.black)
            })
        };
        for i in 0..pairs.len().max(scheduled.boards.len()) {
            let (given, expected) = (pairs.get(i), scheduled.boards.get(i));
            if given != expected && knockout {
                return Err(DomainError::OffBracket {
                    round,
                    board: i as u32 + 1,
                    expected: text(expected),
                    given: text(given),
                });
            }
            if given != expected {
                return Err(DomainError::OffSchedule {
                    round,
                    board: i as u32 + 1,
                    expected: text(expected),
                    given: text(given),
                });
            }
        }
        let boards = pairs
            .iter()
            .enumerate()
            .map(|(i, p)| Board {
                number: i as u32 + 1,
                white: p.white,
                black: p.black,
            })
            .collect();
        let unpaired = scheduled
            .rest
            .into_iter()
            .chain(scheduled.not_playing)
            .map(|pn| Unpaired {
                player_id: pn,
                code: ResultCode::ZeroBye,
            })
            .collect();
        Ok((boards, unpaired))
    }

    pub(super) fn check_bye_eligible(&self, round: u32, e: EntryId) -> Result<(), DomainError> {
        let player = self.s.pn(e);
        let win = self.t.scoring.win;
        for r in 1..round {
            let Some(x) = self.s.round_entry(e, r, false) else {
                continue;
            };
            let reason = match x.result {
                ResultCode::PairingBye => Some("he had the pairing-allocated bye"),
                ResultCode::ForfeitWin => Some("he won by forfeit"),
                code if self.t.rule_set == "dutch-2025"
                    && !code.is_played()
                    && self.t.scoring.points(code) >= win =>
                {
                    Some("he scored a win's points without playing")
                }
                _ => None,
            };
            if let Some(reason) = reason {
                return Err(DomainError::ByeNotAllowed {
                    round,
                    player,
                    earlier_round: r,
                    reason,
                });
            }
        }
        Ok(())
    }

    pub(super) fn close_round(&self, c: &CloseRound) -> Result<Vec<Event>, DomainError> {
        self.round_in_range(c.round)?;
        match self.s.round_phase(c.round) {
            None => return Err(DomainError::RoundNotStarted { round: c.round }),
            Some(RoundPhase::Closed) => {
                return Err(DomainError::RoundAlreadyClosed { round: c.round });
            }
            Some(p) if p.is_pending() => {
                return Err(DomainError::RoundNotPublished { round: c.round });
            }
            Some(_) => {}
        }
        let Some(p) = self.s.published(c.round) else {
            return Err(DomainError::RoundNotPublished { round: c.round });
        };
        let missing: Vec<u32> = p
            .boards
            .iter()
            .filter(|b| b.result.is_none())
            .map(|b| b.number)
            .collect();
        if !missing.is_empty() {
            return Err(DomainError::ResultsMissing {
                round: c.round,
                boards: missing,
            });
        }
        Ok(vec![Event::RoundClosed(RoundClosed { round: c.round })])
    }

    pub(super) fn finish(&self) -> Result<Vec<Event>, DomainError> {
        let closed = self.s.closed_rounds();
        if self.t.pairing_system == PairingSystem::Knockout {
            // A knockout ends with its final, usually before the most rounds it could need.
            let bracket = self.s.bracket()?;
            let Some((decided_in, _)) = bracket.decided else {
                return Err(DomainError::KnockoutUndecided {
                    round: bracket.rounds.last().map_or(1, |r| r.round),
                });
            };
            if closed < decided_in {
                return Err(DomainError::RoundsRemaining {
                    closed,
                    rounds: decided_in,
                });
            }
            return Ok(vec![Event::TournamentFinished(TournamentFinished {
                rounds_played: decided_in,
            })]);
        }
        if closed < self.t.rounds {
            return Err(DomainError::RoundsRemaining {
                closed,
                rounds: self.t.rounds,
            });
        }
        Ok(vec![Event::TournamentFinished(TournamentFinished {
            rounds_played: self.t.rounds,
        })])
    }
}

//! Deciding sanctions and irregularities (E.04 15, 19; Laws 12.9; E.04 10.9, 18.4). A sanction
//! needs evidence other than statistics; its effects are the ordinary events the aggregate
//! already knows (a result or its correction, absences, a withdrawal), appended with it, so
//! that standings, pairings and ratings follow without knowing sanctions. The kinds without
//! such an effect (a warning, time on a clock, a fine, a score adjusted by the arbiter's
//! decision with each player's code) are the record of the arbiter's decision.

use super::*;
use crate::ResultCode;
use crate::tournament::conduct::EventFormat;
use crate::tournament::discipline::{
    EvidenceKind, IrregularityDecision, IrregularityKind, SanctionKind, colours_reversed,
};

/// Evidence as an event keeps it: at most 50 items, one-line references, notes of free text.
fn evidence_list(
    list: &[crate::tournament::Evidence],
) -> Result<Vec<crate::tournament::Evidence>, DomainError> {
    if list.len() > 50 {
        return Err(DomainError::invalid("evidence", "more than 50 items"));
    }
    list.iter()
        .enumerate()
        .map(|(i, e)| {
            Ok(crate::tournament::Evidence {
                kind: e.kind,
                reference: line(&format!("evidence[{i}].reference"), &e.reference, false)?,
                note: text(&format!("evidence[{i}].note"), &e.note, false)?,
            })
        })
        .collect()
}

impl Decider<'_> {
    pub(super) fn impose_sanction(&self, c: &ImposeSanction) -> Result<Vec<Event>, DomainError> {
        self.entry(c.player)?;
        if c.evidence.is_empty()
            || c.evidence
                .iter()
                .all(|e| e.kind == EvidenceKind::Statistical)
        {
            return Err(DomainError::StatisticalEvidenceOnly);
        }
        let evidence = evidence_list(&c.evidence)?;
        let article = match line("article", &c.article, false)? {
            a if a.is_empty() => c.kind.article().to_string(),
            a => a,
        };
        let note = text("note", &c.note, false)?;
        let amount = line("amount", &c.amount, false)?;
        if matches!(
            c.kind,
            SanctionKind::AddTimeToOpponent | SanctionKind::ReduceTime | SanctionKind::Fine
        ) && amount.is_empty()
        {
            return Err(DomainError::invalid(
                "amount",
                format!("{}: say how much ({})", c.kind, c.kind.article()),
            ));
        }
        let mut effects = Vec::new();
        let mut rounds = Vec::new();
        match c.kind {
            SanctionKind::GameLost => {
                let Some(round) = c.round else {
                    return Err(DomainError::invalid(
                        "round",
                        "a game declared lost names the round of the game",
                    ));
                };
                let (board, offender_is_white) = self.game_of(round, c.player)?;
                // The offender loses, the opponent wins (Laws 12.9.6), as an arbiter's decision
                // with each player's code: it may differ from the moves of a submitted game.
                let (white, black) = if offender_is_white {
                    (ResultCode::Loss, ResultCode::Win)
                } else {
                    (ResultCode::Win, ResultCode::Loss)
                };
                let result = BoardResult::ArbiterDecision { white, black };
                let reason = format!("sanction: game lost ({article})");
                effects = self.set_result(round, board, result, reason)?;
            }
            SanctionKind::ExclusionFromRounds => {
                if c.rounds.is_empty() {
                    return Err(DomainError::invalid(
                        "rounds",
                        "an exclusion names the rounds (Laws 12.9.8)",
                    ));
                }
                rounds = c.rounds.clone();
                rounds.sort_unstable();
                rounds.dedup();
                for &r in &rounds {
                    effects.extend(self.declare_absence(&DeclareAbsence {
                        player: c.player,
                        round: r,
                        reason: format!("excluded ({article})"),
                    })?);
                }
            }
            SanctionKind::Expulsion => {
                // From the next round to pair; none left when the last one is paired.
                let next = self.s.published_rounds() + 1;
                if next <= self.t.rounds {
                    effects = self.withdraw(&WithdrawPlayer {
                        player: c.player,
                        from_round: next,
                        reason: format!("expelled ({article})"),
                    })?;
                }
            }
            _ => {}
        }
        let mut events = vec![Event::SanctionImposed(SanctionImposed {
            player_id: c.player,
            kind: c.kind,
            round: c.round.unwrap_or(0),
            rounds,
            amount,
            article,
            evidence,
            note,
        })];
        events.extend(effects);
        Ok(events)
    }

    /// The board of `player` in `round` and whether he has White.
    fn game_of(&self, round: u32, player: PlayerId) -> Result<(u32, bool), DomainError> {
        let p = self
            .s
            .published(round)
            .ok_or(DomainError::RoundNotPublished { round })?;
        p.boards
            .iter()
            .find_map(|b| {
                (b.white == player)
                    .then_some((b.number, true))
                    .or((b.black == player).then_some((b.number, false)))
            })
            .ok_or(DomainError::NoGameInRound { round, player })
    }

    pub(super) fn record_irregularity(
        &self,
        c: &RecordIrregularity,
    ) -> Result<Vec<Event>, DomainError> {
        let recorded = self.board(c.round, c.board)?;
        let hybrid = self.t.conduct.format == EventFormat::Hybrid;
        let online = self.t.conduct.format.is_online();
        let article = |laws: &'static str, online_art: &'static str, hybrid_art: &'static str| {
            if hybrid {
                hybrid_art
            } else if online {
                online_art
            } else {
                laws
            }
        };
        use IrregularityDecision as D;
        let (decision, article) = match c.kind {
            IrregularityKind::ColoursReversed => {
                let rule = colours_reversed(c.plies, recorded.is_some());
                if let Some(given) = c.decision
                    && given != rule
                {
                    return Err(DomainError::invalid(
                        "decision",
                        format!(
                            "with {} half-moves played the rule decides {rule}, not {given} \
                             (fewer than 10 moves by both: a new game with the right colours; \
                             10 or more: the game continues)",
                            c.plies
                        ),
                    ));
                }
                (
                    rule,
                    article("Laws 7.3", "E.04 Art. 15.2", "E.04 Art. 19.2"),
                )
            }
            kind => {
                let allowed: &[D] = match kind {
                    IrregularityKind::ArbiterCalled => &[D::Continue],
                    IrregularityKind::ClockSettingsWrong => &[D::ClocksCorrected],
                    _ => &[D::ClocksStopped, D::TimeAdded],
                };
                let Some(d) = c.decision.filter(|d| allowed.contains(d)) else {
                    return Err(DomainError::invalid(
                        "decision",
                        format!("{kind:?} is settled by one of {allowed:?}"),
                    ));
                };
                let art = match kind {
                    IrregularityKind::ArbiterCalled => {
                        article("Laws 6.11.4", "E.04 Art. 15.1", "E.04 Art. 19.1")
                    }
                    IrregularityKind::ClockSettingsWrong => {
                        article("Laws 6.10.2", "E.04 Art. 15.5", "E.04 Art. 19.5")
                    }
                    _ => article("Laws 6.11", "E.04 Art. 15.6", "E.04 Art. 19.6"),
                };
                (d, art)
            }
        };
        Ok(vec![Event::IrregularityRecorded(IrregularityRecorded {
            round: c.round,
            board: c.board,
            kind: c.kind,
            plies: c.plies,
            decision,
            article: article.to_string(),
            note: text("note", &c.note, false)?,
        })])
    }
}

// --- supervision (E.04 8, 9, 10.4, 12-14; Appendix I A.5-A.6) ------------------------------------

impl Decider<'_> {
    /// A supervision breach: only in an online supervised event, by a player of the board, of
    /// a rule every such event has or one its regulations ask for.
    pub(super) fn record_supervision_breach(
        &self,
        c: &RecordSupervisionBreach,
    ) -> Result<Vec<Event>, DomainError> {
        let format = self.t.conduct.format;
        if format != EventFormat::OnlineSupervised {
            return Err(DomainError::invalid(
                "item",
                format!(
                    "a {format} event has no remote supervision: supervision breaches (E.04 8, \
                     12-14) are for online supervised events; record an irregularity or a \
                     sanction instead"
                ),
            ));
        }
        self.board_of(c.round, c.board, c.player)?;
        if let Some(why) = c.item.not_required(&self.t.conduct.supervision) {
            return Err(DomainError::invalid("item", format!("{}: {why}", c.item)));
        }
        Ok(vec![Event::SupervisionBreachRecorded(
            SupervisionBreachRecorded {
                breach: self.s.supervision_breaches().len() as u32 + 1,
                round: c.round,
                board: c.board,
                player_id: c.player,
                item: c.item,
                article: c.item.article().to_string(),
                note: text("note", &c.note, false)?,
            },
        )])
    }
}

// --- disconnections (E.04 11, 13, 18.8-18.9) -----------------------------------------------------

impl Decider<'_> {
    pub(super) fn report_connection_incident(
        &self,
        c: &ReportConnectionIncident,
    ) -> Result<Vec<Event>, DomainError> {
        use crate::tournament::discipline::ConnectionChannel;
        let format = self.t.conduct.format;
        if !format.is_online() {
            return Err(DomainError::NotOnline {
                format: format.to_string(),
            });
        }
        let (_, _) = self.board_of(c.round, c.board, c.player)?;
        if c.channel == ConnectionChannel::VideoConference
            && format != EventFormat::OnlineSupervised
        {
            return Err(DomainError::invalid(
                "channel",
                format!(
                    "a {format} event has no video-conference supervision (E.04 13 is for \
                     online supervised events)"
                ),
            ));
        }
        if c.moved_while_vcs_down && c.channel != ConnectionChannel::VideoConference {
            return Err(DomainError::invalid(
                "moved_while_vcs_down",
                "only a video-conference drop is a breach of E.04 13.3",
            ));
        }
        if let Some(back) = c.reconnected_at_unix_ms
            && back < c.disconnected_at_unix_ms
        {
            return Err(DomainError::invalid(
                "reconnected_at_unix_ms",
                "before the disconnection",
            ));
        }
        let incident = self.s.incidents().len() as u32 + 1;
        let mut events = vec![Event::ConnectionIncidentReported(
            ConnectionIncidentReported {
                incident,
                round: c.round,
                board: c.board,
                player_id: c.player,
                channel: c.channel,
                disconnected_at_unix_ms: c.disconnected_at_unix_ms,
                reconnected_at_unix_ms: c.reconnected_at_unix_ms,
                clock_at_disconnect_ms: c.clock_at_disconnect_ms,
                moved_while_vcs_down: c.moved_while_vcs_down,
                reported_by: c.reported_by,
                note: text("note", &c.note, false)?,
            },
        )];
        // E.04 13.3-13.4: moving while off the call is a breach; with cards, a yellow card
        // (a warning) until the breach that reaches the red count, which loses the game.
        let red_after = self.t.conduct.vcs_red_card_after;
        if c.moved_while_vcs_down && red_after > 0 {
            let breaches = 1 + self
                .s
                .incidents()
                .iter()
                .filter(|i| {
                    i.moved_while_vcs_down
                        && (i.round, i.board, i.player_id) == (c.round, c.board, c.player)
                })
                .count() as u32;
            let red = breaches >= red_after;
            events.extend(self.impose_sanction(&ImposeSanction {
                player: c.player,
                kind: if red {
                    SanctionKind::GameLost
                } else {
                    SanctionKind::Warning
                },
                round: Some(c.round),
                rounds: Vec::new(),
                amount: String::new(),
                article: "E.04 Art. 13.4".into(),
                evidence: vec![crate::tournament::Evidence {
                    kind: EvidenceKind::ObservedBreach,
                    reference: format!("connection incident {incident}"),
                    note: format!(
                        "moved while off the video-conference (E.04 13.3), breach {breaches}: \
                         {} card",
                        if red { "red" } else { "yellow" }
                    ),
                }],
                note: String::new(),
            })?);
        }
        Ok(events)
    }

    /// A decision's result for a board: recorded, or a correction (with `reason`) of the one
    /// recorded, with its C.04.2 D.8 effect.
    fn set_result(
        &self,
        round: u32,
        board: u32,
        result: BoardResult,
        reason: String,
    ) -> Result<Vec<Event>, DomainError> {
        match self.board(round, board)? {
            None => self.record_result(&RecordResult {
                round,
                board,
                result,
            }),
            Some(_) => self.correct_result(&CorrectResult {
                round,
                board,
                result,
                reason,
            }),
        }
    }

    /// The board `board` of `round` and whether `player` has White on it.
    fn board_of(
        &self,
        round: u32,
        board: u32,
        player: PlayerId,
    ) -> Result<(u32, bool), DomainError> {
        self.board(round, board)?;
        let p = self
            .s
            .published(round)
            .ok_or(DomainError::RoundNotPublished { round })?;
        let b =
            p.boards
                .get((board as usize).wrapping_sub(1))
                .ok_or(DomainError::UnknownBoard {
                    round,
                    board,
                    boards: p.boards.len() as u32,
                })?;
        if b.white == player {
            Ok((board, true))
        } else if b.black == player {
            Ok((board, false))
        } else {
            Err(DomainError::invalid(
                "player",
                format!(
                    "player {player} is not on round {round}, board {board} ({} - {})",
                    b.white, b.black
                ),
            ))
        }
    }

    pub(super) fn rule_on_disconnection(
        &self,
        c: &RuleOnDisconnection,
    ) -> Result<Vec<Event>, DomainError> {
        use crate::tournament::discipline::DisconnectionOutcome as O;
        let incidents = self.s.incidents();
        let Some(i) = c
            .incident
            .checked_sub(1)
            .and_then(|k| incidents.get(k as usize))
        else {
            return Err(DomainError::UnknownIncident {
                incident: c.incident,
                incidents: incidents.len() as u32,
            });
        };
        if let Some(r) = self.s.ruling(c.incident) {
            return Err(DomainError::IncidentAlreadyRuled {
                incident: c.incident,
                outcome: r.outcome.to_string(),
            });
        }
        let not_allowed = |reason: String| DomainError::RulingNotAllowed {
            incident: c.incident,
            outcome: c.outcome.to_string(),
            reason,
        };
        let hybrid = self.t.conduct.format == EventFormat::Hybrid;
        if c.outcome.hybrid_only() && !hybrid {
            return Err(not_allowed(
                "resuming, reducing time and restarting are the hybrid rulings of E.04 18.9".into(),
            ));
        }
        // Back in time: before his flag fell, and within the regulations' window if any.
        let away_ms = i
            .reconnected_at_unix_ms
            .map(|back| back.saturating_sub(i.disconnected_at_unix_ms));
        let window_ms = i64::from(self.t.conduct.reconnection_window_s) * 1000;
        let back_in_time = away_ms.is_some_and(|a| {
            a <= i64::from(i.clock_at_disconnect_ms) && (window_ms == 0 || a <= window_ms)
        });
        let (_, is_white) = self.board_of(i.round, i.board, i.player_id)?;
        let fen = line("fen", &c.fen, false)?;
        let (mut remaining_ms, mut result) = (0, None);
        let article = match c.outcome {
            O::Continue => {
                let Some(away) = away_ms.filter(|_| back_in_time) else {
                    return Err(not_allowed(format!(
                        "the player was not back in time (away {}, {} on his clock{}): the \
                         game is lost, or drawn when the opponent cannot mate (E.04 11.4.2)",
                        away_ms.map_or("without coming back".to_string(), |a| format!(
                            "{} s",
                            a / 1000
                        )),
                        i.clock_at_disconnect_ms / 1000,
                        if window_ms > 0 {
                            format!(", a window of {} s", window_ms / 1000)
                        } else {
                            String::new()
                        }
                    )));
                };
                // His clock kept running while he was away (E.04 4.3, 11.4).
                remaining_ms = i.clock_at_disconnect_ms - away as u32;
                if hybrid {
                    "E.04 Art. 18.9"
                } else {
                    "E.04 Art. 11.4.1"
                }
            }
            O::LossByDisconnection | O::DrawNoMatingMaterial => {
                if back_in_time {
                    return Err(not_allowed(
                        "the player was back before his flag fell (and within the window): \
                         the game continues (E.04 11.4.1)"
                            .into(),
                    ));
                }
                let Some(can_mate) = c.opponent_can_mate else {
                    return Err(DomainError::invalid(
                        "fen",
                        "give the position, so that the opponent's mating material can be \
                         checked (E.04 4.5, 11.4.2)",
                    ));
                };
                match (c.outcome, can_mate) {
                    (O::LossByDisconnection, false) => {
                        return Err(not_allowed(
                            "the opponent cannot mate by any series of legal moves: the game \
                             is drawn (DrawNoMatingMaterial, E.04 4.5, 11.4.2)"
                                .into(),
                        ));
                    }
                    (O::DrawNoMatingMaterial, true) => {
                        return Err(not_allowed(
                            "the opponent can still mate: the game is lost (E.04 11.4.2)".into(),
                        ));
                    }
                    (O::LossByDisconnection, true) => {
                        let (white, black) = if is_white {
                            (ResultCode::Loss, ResultCode::Win)
                        } else {
                            (ResultCode::Win, ResultCode::Loss)
                        };
                        result = Some(BoardResult::ArbiterDecision { white, black });
                    }
                    _ => result = Some(BoardResult::Draw),
                }
                "E.04 Art. 11.4.2"
            }
            O::ResumeFromPosition => {
                if fen.is_empty() || (c.white_ms == 0 && c.black_ms == 0) {
                    return Err(DomainError::invalid(
                        "fen, white_ms, black_ms",
                        "resuming needs the position and both clocks at the interruption",
                    ));
                }
                "E.04 Art. 18.9 a"
            }
            O::ReduceTime => {
                if c.reduce_ms == 0 {
                    return Err(DomainError::invalid("reduce_ms", "by how much"));
                }
                "E.04 Art. 18.9 b"
            }
            O::RestartSameTimeControl => "E.04 Art. 18.9 c",
            O::RestartShorterTimeControl => {
                if c.time_control.trim().is_empty() {
                    return Err(DomainError::invalid("time_control", "which one"));
                }
                "E.04 Art. 18.9 d"
            }
        };
        let mut events = vec![Event::DisconnectionRuled(DisconnectionRuled {
            incident: c.incident,
            outcome: c.outcome,
            remaining_ms,
            fen,
            white_ms: c.white_ms,
            black_ms: c.black_ms,
            reduce_ms: c.reduce_ms,
            time_control: line("time_control", &c.time_control, false)?,
            article: article.to_string(),
            note: text("note", &c.note, false)?,
        })];
        if let Some(result) = result {
            events.extend(self.record_result(&RecordResult {
                round: i.round,
                board: i.board,
                result,
            })?);
        }
        Ok(events)
    }
}

// --- complaints (E.04 Appendix I G.2) ------------------------------------------------------------

impl Decider<'_> {
    pub(super) fn file_complaint(&self, c: &FileComplaint) -> Result<Vec<Event>, DomainError> {
        use crate::tournament::discipline::{COMPLAINT_WINDOW_MS, ComplaintOutcome};
        let format = self.t.conduct.format;
        if !format.is_online() {
            return Err(DomainError::NotOnline {
                format: format.to_string(),
            });
        }
        self.entry(c.complainant)?;
        self.entry(c.accused)?;
        let fide_id = self
            .s
            .player(c.complainant)
            .and_then(|p| p.player.fide_id)
            .ok_or_else(|| {
                DomainError::invalid(
                    "complainant",
                    format!(
                        "player {} has no FIDE id: complaints come from participants with one \
                         (E.04 Appendix I G.2)",
                        c.complainant
                    ),
                )
            })?;
        if c.accused == c.complainant {
            return Err(DomainError::invalid("accused", "the complainant himself"));
        }
        let grounds = text("grounds", &c.grounds, true)?;
        let evidence = evidence_list(&c.evidence)?;
        let deadline = c
            .last_round_ended_at_unix_ms
            .map_or(0, |end| end + COMPLAINT_WINDOW_MS);
        let (outcome, article) = if deadline != 0 && c.filed_at_unix_ms > deadline {
            (ComplaintOutcome::RejectedAsLate, "E.04 Appendix I G.2.1")
        } else if c.only_rating_performance {
            (
                ComplaintOutcome::ManifestlyUnfounded,
                "E.04 Appendix I G.2.5",
            )
        } else {
            (ComplaintOutcome::Admitted, "E.04 Appendix I G.2")
        };
        Ok(vec![Event::ComplaintFiled(ComplaintFiled {
            complaint: self.s.complaints().len() as u32 + 1,
            complainant: c.complainant,
            complainant_fide_id: fide_id,
            accused: c.accused,
            grounds,
            evidence,
            filed_at_unix_ms: c.filed_at_unix_ms,
            deadline_unix_ms: deadline,
            outcome,
            article: article.to_string(),
        })])
    }
}

// --- appeals (E.04 9.14, 17.11; Laws 11.10; GR 10) -----------------------------------------------

impl Decider<'_> {
    pub(super) fn file_appeal(&self, c: &FileAppeal) -> Result<Vec<Event>, DomainError> {
        use crate::tournament::discipline::APPEALABLE;
        self.entry(c.appellant)?;
        if !APPEALABLE.contains(&c.decision_kind.as_str()) {
            return Err(DomainError::invalid(
                "decision_version",
                format!(
                    "version {} is a {}, not an arbiter's decision that can be appealed ({})",
                    c.decision_version,
                    if c.decision_kind.is_empty() {
                        "missing event"
                    } else {
                        &c.decision_kind
                    },
                    APPEALABLE.join(", ")
                ),
            ));
        }
        let minutes = self.t.conduct.appeal_deadline_minutes;
        let deadline = if minutes == 0 {
            0
        } else {
            c.decision_at_unix_ms + i64::from(minutes) * 60_000
        };
        Ok(vec![Event::AppealFiled(AppealFiled {
            appeal: self.s.appeals().len() as u32 + 1,
            appellant: c.appellant,
            decision_version: c.decision_version,
            decision_kind: c.decision_kind.clone(),
            grounds: text("grounds", &c.grounds, true)?,
            deposit: line("deposit", &c.deposit, false)?,
            filed_at_unix_ms: c.filed_at_unix_ms,
            deadline_unix_ms: deadline,
            admitted: deadline == 0 || c.filed_at_unix_ms <= deadline,
        })])
    }

    pub(super) fn decide_appeal(&self, c: &DecideAppeal) -> Result<Vec<Event>, DomainError> {
        let appeals = self.s.appeals();
        let Some(a) = c
            .appeal
            .checked_sub(1)
            .and_then(|k| appeals.get(k as usize))
        else {
            return Err(DomainError::UnknownAppeal {
                appeal: c.appeal,
                appeals: appeals.len() as u32,
            });
        };
        let closed = |reason: &str| DomainError::AppealNotOpen {
            appeal: c.appeal,
            reason: reason.to_string(),
        };
        if !a.admitted {
            return Err(closed(
                "it was received after the announced deadline (GR 10.3)",
            ));
        }
        if self.s.appeal_decision(c.appeal).is_some() {
            return Err(closed("it is already decided"));
        }
        // GR 10.2: an odd number of voting members, the chair and at least two others.
        let committee: Vec<String> = c
            .committee
            .iter()
            .enumerate()
            .map(|(i, m)| line(&format!("committee[{i}]"), m, true))
            .collect::<Result<_, _>>()?;
        if committee.len() < 3 || committee.len().is_multiple_of(2) || committee.len() > 15 {
            return Err(DomainError::invalid(
                "committee",
                format!(
                    "{} members: the appeals committee sits with an odd number, at least three \
                     (GR 10.2)",
                    committee.len()
                ),
            ));
        }
        if c.new_result.is_some() && !c.upheld {
            return Err(DomainError::invalid(
                "new_result",
                "a rejected appeal changes no result",
            ));
        }
        let note = text("note", &c.note, false)?;
        let mut events = vec![Event::AppealDecided(AppealDecided {
            appeal: c.appeal,
            upheld: c.upheld,
            deposit_returned: c.deposit_returned,
            committee,
            note,
        })];
        if let Some((round, board, result)) = c.new_result {
            let reason = format!("appeal {} upheld (GR 10)", c.appeal);
            events.extend(self.set_result(round, board, result, reason)?);
        }
        Ok(events)
    }
}

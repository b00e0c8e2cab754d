//! Deciding sanctions and irregularities (spec online-hybrid §9-§10). A sanction needs evidence
//! other than statistics; its effects are the ordinary events the aggregate already knows (a
//! result or its correction, absences, a withdrawal), appended with it, so that standings,
//! pairings and ratings follow without knowing sanctions. The kinds without such an effect
//! (a warning, time on a clock, a fine, a score adjusted by the arbiter's decision with each
//! player's code) are the record of the arbiter's decision.

use super::*;
use crate::tournament::conduct::EventFormat;
use crate::tournament::discipline::{
    EvidenceKind, IrregularityDecision, IrregularityKind, SanctionKind, colours_reversed,
};

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
        if c.evidence.len() > 50 {
            return Err(DomainError::invalid("evidence", "more than 50 items"));
        }
        let mut evidence = Vec::with_capacity(c.evidence.len());
        for (i, e) in c.evidence.iter().enumerate() {
            evidence.push(crate::tournament::Evidence {
                kind: e.kind,
                reference: line(&format!("evidence[{i}].reference"), &e.reference, false)?,
                note: text(&format!("evidence[{i}].note"), &e.note, false)?,
            });
        }
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
                effects = match self.board(round, board)? {
                    None => self.record_result(&RecordResult {
                        round,
                        board,
                        result,
                    })?,
                    Some(_) => self.correct_result(&CorrectResult {
                        round,
                        board,
                        result,
                        reason,
                    })?,
                };
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

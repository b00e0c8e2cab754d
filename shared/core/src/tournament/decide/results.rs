//! Results recorded and corrected (C.04.2 D.8 for a correction's effect).

use super::*;
use crate::tournament::state::{CorrectionEffect, RoundPhase};
use crate::tournament::types::PairingSystem;

impl Decider<'_> {
    /// A result recorded or corrected for a board whose game is submitted must not contradict
    /// the game's score, as `SubmitGame` would refuse that game under that result: a forfeit
    /// says no game was played, and a played result must be the one the score ends with. An
    /// arbiter's decision (each player's code given, e.g. a loss for a player whose phone rang
    /// in a position he was winning, Laws 11.3.b, 12.9) may differ from the moves, and so may
    /// any result while the score ends with `*` (its end unknown).
    pub(super) fn agrees_with_game(
        &self,
        round: u32,
        board: u32,
        result: BoardResult,
    ) -> Result<(), DomainError> {
        let Some(game) = self.s.submitted_game_result(round, board) else {
            return Ok(());
        };
        use BoardResult as R;
        let reason = match result {
            R::ArbiterDecision { .. } => return Ok(()),
            _ if game == "*" => return Ok(()),
            R::WhiteWinsForfeit | R::BlackWinsForfeit | R::DoubleForfeit => {
                "a forfeit says no game was played, and this game's score is submitted; record \
                 the game's result, or an arbiter's decision with each player's code"
                    .to_string()
            }
            played if played.pgn() == Some(game) => return Ok(()),
            _ if self.t.conduct.format.is_online() => "the platform's result is the score's: \
                confirm it by recording it, or override it with OverridePlatformResult and a \
                reason (E.04 9.14, 15.3-15.4)"
                .to_string(),
            _ => "record the result the score ends with, or an arbiter's decision with each \
                  player's code when the result differs from the moves (Laws 12.9)"
                .to_string(),
        };
        Err(DomainError::ResultContradictsGame {
            round,
            board,
            result,
            game_result: game.to_string(),
            reason,
        })
    }

    /// `board` of `round` is published, its round open and its result not yet recorded.
    pub(super) fn board_without_result(&self, round: u32, board: u32) -> Result<(), DomainError> {
        self.round_in_range(round)?;
        if self.s.round_phase(round) == Some(RoundPhase::Closed) {
            return Err(DomainError::RoundClosed { round });
        }
        if let Some(result) = self.board(round, board)? {
            return Err(DomainError::ResultAlreadyRecorded {
                round,
                board,
                result,
            });
        }
        Ok(())
    }

    pub(super) fn record_result(&self, c: &RecordResult) -> Result<Vec<Event>, DomainError> {
        self.board_without_result(c.round, c.board)?;
        c.result
            .check()
            .map_err(|reason| DomainError::InvalidDecision {
                round: c.round,
                board: c.board,
                reason,
            })?;
        self.agrees_with_game(c.round, c.board, c.result)?;
        Ok(vec![Event::ResultRecorded(ResultRecorded {
            round: c.round,
            board: c.board,
            result: c.result,
        })])
    }

    pub(super) fn correct_result(&self, c: &CorrectResult) -> Result<Vec<Event>, DomainError> {
        let Some(previous) = self.board(c.round, c.board)? else {
            return Err(DomainError::ResultNotRecorded {
                round: c.round,
                board: c.board,
            });
        };
        if previous == c.result {
            return Err(DomainError::ResultUnchanged {
                round: c.round,
                board: c.board,
                result: previous,
            });
        }
        c.result
            .check()
            .map_err(|reason| DomainError::InvalidDecision {
                round: c.round,
                board: c.board,
                reason,
            })?;
        self.agrees_with_game(c.round, c.board, c.result)?;
        let mut events = vec![Event::ResultCorrected(ResultCorrected {
            round: c.round,
            board: c.board,
            previous,
            corrected: c.result,
            reason: line("reason", &c.reason, true)?,
        })];
        // A knockout's published rounds follow from the results before them: a correction
        // that would decide a match differently once its next games are paired is refused
        // (the bracket must stay one the log can replay).
        if self.t.pairing_system == PairingSystem::Knockout
            && self.s.correction_effect(c.round) == CorrectionEffect::LaterPairings
        {
            let mut after = self.s.clone();
            for e in &events {
                after.apply(e);
            }
            if let Err(e) = after.bracket() {
                return Err(DomainError::invalid(
                    "result",
                    format!(
                        "round {}, board {}: the correction changes the knockout after round {} was paired ({e}); correct it once that round is closed, for rating only",
                        c.round,
                        c.board,
                        c.round + 1
                    ),
                ));
            }
        }
        // C.04.2.D.8: before the next pairing is made, the next pairing uses the correction.
        if self.s.correction_effect(c.round) == CorrectionEffect::NextPairing {
            events.extend(self.rerequest_if_pending(c.round + 1));
        }
        Ok(events)
    }
}

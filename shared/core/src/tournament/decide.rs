//! Deciding what a command means: the events it produces, or why it is refused. `decide` reads
//! only the state and the command, so the same state and command always give the same answer.

use super::command::*;
use super::error::DomainError;
use super::event::*;
use super::state::State;
use super::types::{Arbiter, BoardResult, EntryId, MAX_FIDE_ID, RATING_CEILING, RATING_FLOOR};
use crate::PlayerId;

mod creation;
mod discipline;
mod online;
mod pairing_setup;
mod registration;
mod results;
mod rounds;
mod teams;

pub use pairing_setup::drawn_numbers;

/// The events `command` produces on `state`, or why it is refused. Only `CreateTournament` is
/// accepted on an empty stream; once the tournament is finished, only `CorrectResult` (for
/// rating purposes, C.04.2.D.8) and the submission of games (fair-play screening is often done
/// after the event; the same checks apply).
pub fn decide(state: &State, command: &Command) -> Result<Vec<Event>, DomainError> {
    let t = match (state.tournament(), command) {
        (None, Command::CreateTournament(c)) => return creation::create(c),
        (Some(_), Command::CreateTournament(_)) => {
            return Err(DomainError::TournamentAlreadyCreated);
        }
        (None, c) => return Err(DomainError::TournamentNotCreated { command: c.name() }),
        (Some(t), _) => t,
    };
    if let Some(rounds_played) = state.finished()
        && !matches!(
            command,
            Command::CorrectResult(_)
                | Command::SubmitGame(_)
                | Command::SubmitGames(_)
                | Command::FileComplaint(_)
                | Command::FileAppeal(_)
                | Command::DecideAppeal(_)
        )
    {
        return Err(DomainError::TournamentFinished {
            command: command.name(),
            rounds_played,
        });
    }
    let d = Decider { s: state, t };
    match command {
        Command::CreateTournament(_) => Err(DomainError::TournamentAlreadyCreated),
        Command::UpdateTournament(c) => d.update(c),
        Command::RegisterPlayer(c) => d.register(c),
        Command::WithdrawPlayer(c) => d.withdraw(c),
        Command::CorrectPlayer(c) => d.correct_player(c),
        Command::CancelRegistration(c) => d.cancel_registration(c),
        Command::RequestBye(c) => d.request_bye(c),
        Command::CancelBye(c) => d.cancel_bye(c),
        Command::DeclareAbsence(c) => d.declare_absence(c),
        Command::RecordFairPlayConsent(c) => d.record_fair_play_consent(c),
        Command::OverridePlatformResult(c) => d.override_platform_result(c),
        Command::ImposeSanction(c) => d.impose_sanction(c),
        Command::RecordIrregularity(c) => d.record_irregularity(c),
        Command::RecordSupervisionBreach(c) => d.record_supervision_breach(c),
        Command::ReportConnectionIncident(c) => d.report_connection_incident(c),
        Command::RuleOnDisconnection(c) => d.rule_on_disconnection(c),
        Command::FileComplaint(c) => d.file_complaint(c),
        Command::FileAppeal(c) => d.file_appeal(c),
        Command::DecideAppeal(c) => d.decide_appeal(c),
        Command::StartRound(c) => d.start_round(c),
        Command::RequestPairing(c) => d.request_pairing(c),
        Command::ProposePairing(c) => d.propose(c),
        Command::ReportPairingFailure(c) => d.report_failure(c),
        Command::PublishPairing(c) => d.publish(c),
        Command::RecordResult(c) => d.record_result(c),
        Command::CorrectResult(c) => d.correct_result(c),
        Command::CloseRound(c) => d.close_round(c),
        Command::FinishTournament(_) => d.finish(),
        Command::SetVirtualPoints(c) => d.set_virtual_points(c),
        Command::ForbidPairings(c) => d.forbid_pairings(c),
        Command::DrawLots(c) => d.draw_lots(c),
        Command::RecordTeam(c) => d.record_team(c),
        Command::SubmitLineup(c) => d.submit_lineup(c),
        Command::SubmitGame(c) => d.submit_game(c),
        Command::SubmitGames(c) => d.submit_games(c),
    }
}

// --- field validation --------------------------------------------------------------------------

const MAX_TEXT: usize = 200;
/// The longest free text a command may carry (notes, a pairing's explanation), in characters.
pub const MAX_LONG_TEXT: usize = 100_000;

/// A one-line text: trimmed, no control characters, at most `MAX_TEXT` characters.
fn line(field: &str, value: &str, required: bool) -> Result<String, DomainError> {
    let v = value.trim();
    if required && v.is_empty() {
        return Err(DomainError::invalid(field, "must not be empty"));
    }
    if let Some(c) = v.chars().find(|c| c.is_control()) {
        return Err(DomainError::invalid(
            field,
            format!("contains the control character {c:?}"),
        ));
    }
    if v.chars().count() > MAX_TEXT {
        return Err(DomainError::invalid(
            field,
            format!("longer than {MAX_TEXT} characters"),
        ));
    }
    Ok(v.to_string())
}

/// A free text (line breaks and tabs allowed), at most `MAX_LONG_TEXT` characters.
fn text(field: &str, value: &str, required: bool) -> Result<String, DomainError> {
    if required && value.trim().is_empty() {
        return Err(DomainError::invalid(field, "must not be empty"));
    }
    if let Some(c) = value
        .chars()
        .find(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err(DomainError::invalid(
            field,
            format!("contains the control character {c:?}"),
        ));
    }
    if value.chars().count() > MAX_LONG_TEXT {
        return Err(DomainError::invalid(
            field,
            format!("longer than {MAX_LONG_TEXT} characters"),
        ));
    }
    Ok(value.to_string())
}

fn federation(field: &str, value: &str) -> Result<String, DomainError> {
    let v = value.trim();
    if v.is_empty() || (v.len() == 3 && v.bytes().all(|b| b.is_ascii_uppercase())) {
        Ok(v.to_string())
    } else {
        Err(DomainError::invalid(
            field,
            format!("{v:?} is not a FIDE federation code (three capital letters)"),
        ))
    }
}

fn fide_id(field: &str, id: Option<u64>) -> Result<Option<u64>, DomainError> {
    match id {
        Some(0) => Err(DomainError::invalid(
            field,
            "0 is not a FIDE id (leave it out instead)",
        )),
        Some(id) if id > MAX_FIDE_ID => Err(DomainError::invalid(
            field,
            format!("{id} is not a FIDE id (at most 10 digits)"),
        )),
        other => Ok(other),
    }
}

/// A registered rating: 0 (unrated, or no national rating) or a plausible one. The FIDE
/// rating (`rating`, of the event's rating kind) starts at the FIDE floor; national scales
/// differ, so `national_rating` has the ceiling only. The one rule for the API, `arbiter
/// import` and corrections.
fn plausible_rating(field: &str, value: u32) -> Result<u32, DomainError> {
    let floor = if field == "rating" { RATING_FLOOR } else { 1 };
    if value == 0 || (floor..=RATING_CEILING).contains(&value) {
        return Ok(value);
    }
    Err(DomainError::invalid(
        field,
        if value > RATING_CEILING {
            format!("{value} is above the ceiling {RATING_CEILING}")
        } else {
            format!(
                "{value} is below the FIDE rating floor {RATING_FLOOR} (B.02); give 0 for an \
                 unrated player"
            )
        },
    ))
}

fn arbiter(field: &str, a: &Arbiter, required: bool) -> Result<Arbiter, DomainError> {
    let title = a.title.trim();
    if !matches!(title, "" | "IA" | "FA" | "NA") {
        return Err(DomainError::invalid(
            format!("{field}.title"),
            format!("{title:?} is not IA, FA or NA"),
        ));
    }
    Ok(Arbiter {
        name: line(&format!("{field}.name"), &a.name, required)?,
        fide_id: fide_id(&format!("{field}.fide_id"), a.fide_id)?,
        title: title.to_string(),
    })
}

// --- what every command family uses ----------------------------------------------------------

struct Decider<'a> {
    s: &'a State,
    t: &'a TournamentCreated,
}

impl Decider<'_> {
    /// The first round whose pairing may still change (past the last round when none).
    fn first_unpaired_round(&self) -> u32 {
        self.s
            .next_open_round()
            .unwrap_or(self.t.rounds.saturating_add(1))
    }

    fn entry(&self, player: PlayerId) -> Result<EntryId, DomainError> {
        self.s.entry_of(player).ok_or(DomainError::UnknownPlayer {
            player,
            players: self.s.player_count(),
        })
    }

    fn round_in_range(&self, round: u32) -> Result<(), DomainError> {
        if round == 0 || round > self.t.rounds {
            return Err(DomainError::RoundOutOfRange {
                round,
                rounds: self.t.rounds,
            });
        }
        Ok(())
    }

    /// `round` is in range and its pairing not yet published.
    fn round_open(&self, round: u32, hint: &'static str) -> Result<(), DomainError> {
        self.round_in_range(round)?;
        match self.s.next_open_round() {
            Some(open) if round >= open => Ok(()),
            _ => Err(DomainError::RoundAlreadyPaired { round, hint }),
        }
    }

    /// A new request for the pending round, whose input has just changed.
    fn rerequest(&self) -> Option<Event> {
        let round = self.s.pending_round()?;
        let attempt = self.s.round_attempt(round)?.saturating_add(1);
        Some(Event::PairingRequested(PairingRequested {
            round,
            rule_set: self.t.rule_set.clone(),
            attempt,
        }))
    }

    /// A new request if `round` is the pending round.
    fn rerequest_if_pending(&self, round: u32) -> Option<Event> {
        if self.s.pending_round() == Some(round) {
            self.rerequest()
        } else {
            None
        }
    }

    /// `round` is published and `board` is one of its boards; returns the board's latest result.
    fn board(&self, round: u32, board: u32) -> Result<Option<BoardResult>, DomainError> {
        self.round_in_range(round)?;
        let Some(phase) = self.s.round_phase(round) else {
            return Err(DomainError::RoundNotStarted { round });
        };
        if phase.is_pending() {
            return Err(DomainError::RoundNotPublished { round });
        }
        let Some(p) = self.s.published(round) else {
            return Err(DomainError::RoundNotPublished { round });
        };
        let Some(b) = (board as usize)
            .checked_sub(1)
            .and_then(|i| p.boards.get(i))
        else {
            return Err(DomainError::UnknownBoard {
                round,
                board,
                boards: p.boards.len() as u32,
            });
        };
        Ok(b.final_result)
    }
}

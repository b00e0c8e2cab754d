//! Refusals and failures as gRPC statuses. Every message names the tournament and then what and
//! where (player, round, board), as the domain error does.

use arbiter_core::tournament::DomainError;
use arbiter_eventlog::LogError;
use arbiter_proto::convert::ConvertError;
use tonic::{Code, Status};

/// The gRPC code of a refused command.
pub fn domain_code(e: &DomainError) -> Code {
    use DomainError as D;
    match e {
        // A game of a file: the code of what refused it.
        D::GameInFile { error, .. } => domain_code(error),
        D::NoBoardForGame { .. } | D::StatisticalEvidenceOnly => Code::InvalidArgument,
        D::UnknownIncident { .. } | D::UnknownAppeal { .. } => Code::NotFound,
        D::AppealNotOpen { .. } => Code::FailedPrecondition,
        D::IncidentAlreadyRuled { .. } => Code::AlreadyExists,
        D::RulingNotAllowed { .. } => Code::FailedPrecondition,
        D::ResultContradictsGame { .. } => Code::FailedPrecondition,
        D::TournamentNotCreated { .. } => Code::NotFound,
        D::TournamentAlreadyCreated => Code::AlreadyExists,
        D::Invalid { .. } | D::NothingToUpdate => Code::InvalidArgument,
        D::UnknownPlayer { .. } | D::UnknownBoard { .. } => Code::NotFound,
        D::DuplicateFideId { .. }
        | D::ByeAlreadyRequested { .. }
        | D::AbsenceAlreadyDeclared { .. }
        | D::ConsentAlreadyRecorded { .. }
        | D::AlreadyProposed { .. }
        | D::ResultAlreadyRecorded { .. }
        | D::GameAlreadySubmitted { .. } => Code::AlreadyExists,
        D::RoundOutOfRange { .. }
        | D::RuleSetMismatch { .. }
        | D::InvalidDecision { .. }
        | D::GameMismatch { .. } => Code::InvalidArgument,
        // A manual pairing that breaks the rules.
        D::PairingUnknownPlayer { .. }
        | D::PairedTwice { .. }
        | D::PairedWithSelf { .. }
        | D::NotAvailable { .. }
        | D::PlayersLeftOut { .. }
        | D::Rematch { .. }
        | D::OffSchedule { .. }
        | D::OffBracket { .. }
        | D::ByeNotAllowed { .. } => Code::InvalidArgument,
        D::StaleAttempt { .. } => Code::Aborted,
        D::InconsistentEvent { .. } => Code::Internal,
        D::TournamentFinished { .. }
        | D::TooManyPlayers { .. }
        | D::SameNameRegistered { .. }
        | D::RegistrationNotCancellable { .. }
        | D::PlayerWithdrawn { .. }
        | D::PlayerNotEntered { .. }
        | D::NoByeRequested { .. }
        | D::NoRoundLeftToEnter { .. }
        | D::EntryTooEarly { .. }
        | D::RoundOutOfOrder { .. }
        | D::RoundNotStarted { .. }
        | D::PreviousRoundNotClosed { .. }
        | D::RoundAlreadyPaired { .. }
        | D::RoundNotPending { .. }
        | D::RoundNotPublished { .. }
        | D::RoundClosed { .. }
        | D::RoundAlreadyClosed { .. }
        | D::ResultsMissing { .. }
        | D::NotEnoughPlayers { .. }
        | D::ConsentNotRequired { .. }
        | D::NotOnline { .. }
        | D::NoPlatformResult { .. }
        | D::NoGameInRound { .. }
        | D::ConsentMissing { .. }
        | D::RoundsRemaining { .. }
        | D::RoundRobinRounds { .. }
        | D::KnockoutRounds { .. }
        | D::KnockoutDecided { .. }
        | D::KnockoutUndecided { .. }
        | D::NoProposal { .. }
        | D::ResultNotRecorded { .. }
        | D::ResultUnchanged { .. } => Code::FailedPrecondition,
    }
}

/// A refused command of tournament `tournament_id`.
pub fn domain_status(tournament_id: &str, e: &DomainError) -> Status {
    let message = match e {
        DomainError::TournamentNotCreated { command } => format!(
            "tournament {tournament_id} does not exist (no events in its stream): {command} needs \
             a created tournament"
        ),
        other => format!("tournament {tournament_id}: {other}"),
    };
    Status::new(domain_code(e), message)
}

/// A failure of the event log.
pub fn log_status(e: &LogError) -> Status {
    match e {
        LogError::Conflict { .. } => Status::aborted(e.to_string()),
        LogError::CommandIdReused { .. } => Status::already_exists(e.to_string()),
        LogError::InvalidStream { .. } | LogError::InvalidAppend(_) | LogError::TooLarge { .. } => {
            Status::invalid_argument(e.to_string())
        }
        LogError::Corrupt { .. } => Status::data_loss(e.to_string()),
        LogError::Storage(_) | LogError::Nats(_) => Status::unavailable(e.to_string()),
    }
}

/// A request field that does not convert, named with its message path (e.g. `player.title`).
pub fn convert_status(prefix: &str, e: &ConvertError) -> Status {
    if prefix.is_empty() {
        Status::invalid_argument(e.to_string())
    } else {
        Status::invalid_argument(format!("{prefix}.{e}"))
    }
}

/// A tournament that does not exist, for queries.
pub fn unknown_tournament(tournament_id: &str) -> Status {
    Status::not_found(format!(
        "tournament {tournament_id} does not exist (no events in its stream)"
    ))
}

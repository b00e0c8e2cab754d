//! Refusals and failures as gRPC statuses. Every message names the tournament and then what and
//! where (player, round, board), as the domain error does; every refusal also carries
//! google.rpc details a program acts on without reading the text: an `ErrorInfo` (a reason
//! code of [`arbiter_proto::ERROR_DOMAIN`] and metadata such as `tournament_id` or
//! `current_version`), a `BadRequest` naming the field of an INVALID_ARGUMENT, a
//! `PreconditionFailure` for a FAILED_PRECONDITION (all built by [`arbiter_proto::refusal`]).
//! [`with_details`] gives the statuses made elsewhere their details on the way out of the gRPC
//! port.

use arbiter_core::tournament::DomainError;
use arbiter_eventlog::LogError;
use arbiter_proto::convert::ConvertError;
use arbiter_proto::{code_name, field_of, refusal};
use tonic::{Code, Status};

/// `status` as it leaves the gRPC port: unchanged when it has details; else with the
/// details of [`refusal`] under reason `INVALID_FIELD` for an INVALID_ARGUMENT naming its
/// field, the code's own name otherwise (so every refusal has an `ErrorInfo`).
pub fn with_details(status: Status) -> Status {
    if status.code() == Code::Ok || !status.details().is_empty() {
        return status;
    }
    let message = status.message().to_string();
    match field_of(&message) {
        Some((field, _)) if status.code() == Code::InvalidArgument => {
            let field = field.to_string();
            refusal(
                status.code(),
                message,
                "INVALID_FIELD",
                &[("field", &field)],
            )
        }
        _ => refusal(status.code(), message, code_name(status.code()), &[]),
    }
}

/// The reason code of a domain refusal: the error's name in upper snake case
/// (`RoundNotStarted` → `ROUND_NOT_STARTED`); a game of a file gives its own error's.
pub fn domain_reason(e: &DomainError) -> String {
    if let DomainError::GameInFile { error, .. } = e {
        return domain_reason(error);
    }
    reason_of(&variant_name(e))
}

/// The reason code of the domain error named `variant` (see [`DOMAIN_REFUSALS`]).
pub fn reason_of(variant: &str) -> String {
    match variant {
        // The same reason as a request field that does not convert.
        "Invalid" => "INVALID_FIELD".to_string(),
        v => upper_snake(v),
    }
}

/// The reasons given outside the domain's refusals, with their code and meaning (for the API
/// reference; a refusal with none of these has the code's own name as its reason).
pub const OTHER_REASONS: &[(&str, Code, &str)] = &[
    (
        "INVALID_FIELD",
        Code::InvalidArgument,
        "a request field is missing or invalid; `BadRequest` names it, `metadata.field` too",
    ),
    (
        "INVALID_JSON",
        Code::InvalidArgument,
        "JSON over HTTP: the body is not the method's request message in the proto3 JSON \
         mapping (`metadata.message_type`)",
    ),
    (
        "VERSION_CONFLICT",
        Code::Aborted,
        "the command's `header.expected_version` is not the stream's version: \
         `metadata.current_version` is; re-read and retry",
    ),
    (
        "COMMAND_ID_REUSED",
        Code::AlreadyExists,
        "the command id was used before by a different request",
    ),
    (
        "TOURNAMENT_NOT_FOUND",
        Code::NotFound,
        "no tournament with `metadata.tournament_id`",
    ),
    (
        "TOKEN_REQUIRED",
        Code::Unauthenticated,
        "the method needs a bearer token (`metadata.method`)",
    ),
    (
        "TOKEN_INVALID",
        Code::Unauthenticated,
        "the bearer token is malformed, expired, revoked or not signed by this server's keys",
    ),
    (
        "ROLE_NOT_ALLOWED",
        Code::PermissionDenied,
        "the token's role or tournaments do not allow the method \
         (`metadata.role`, `metadata.method`, `metadata.tournament_id`)",
    ),
    (
        "NOT_OWN_ENTRY",
        Code::PermissionDenied,
        "a player's token acting for another entry (`metadata.entry`, `metadata.token_entry`)",
    ),
];

/// The error's variant name (its `Debug` form up to the fields), e.g. `RoundNotStarted`.
pub fn variant_name(e: &DomainError) -> String {
    let debug = format!("{e:?}");
    debug
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// `RoundNotStarted` → `ROUND_NOT_STARTED`.
pub fn upper_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// The gRPC code of each domain refusal, and the list of them (for the API reference): one
/// table, matched without a wildcard so that a new error does not compile until it is placed.
macro_rules! domain_codes {
    ($($code:ident: $($variant:ident)|+;)*) => {
        /// The gRPC code of a refused command.
        pub fn domain_code(e: &DomainError) -> Code {
            use DomainError as D;
            match e {
                // A game of a file: the code of what refused it.
                D::GameInFile { error, .. } => domain_code(error),
                $($(D::$variant { .. })|+ => Code::$code,)*
            }
        }

        /// Every domain refusal's error name (its reason code in upper snake case, see
        /// [`domain_reason`]) and gRPC code.
        pub const DOMAIN_REFUSALS: &[(&str, Code)] = &[$($((stringify!($variant), Code::$code),)+)*];
    };
}

domain_codes! {
    InvalidArgument: NoBoardForGame
        | StatisticalEvidenceOnly;
    NotFound: UnknownIncident
        | UnknownAppeal;
    FailedPrecondition: AppealNotOpen;
    AlreadyExists: IncidentAlreadyRuled;
    FailedPrecondition: RulingNotAllowed;
    FailedPrecondition: ResultContradictsGame;
    NotFound: TournamentNotCreated;
    AlreadyExists: TournamentAlreadyCreated;
    InvalidArgument: Invalid
        | NothingToUpdate;
    NotFound: UnknownPlayer
        | UnknownBoard;
    AlreadyExists: DuplicateFideId
        | ByeAlreadyRequested
        | AbsenceAlreadyDeclared
        | ConsentAlreadyRecorded
        | AlreadyProposed
        | ResultAlreadyRecorded
        | GameAlreadySubmitted;
    InvalidArgument: RoundOutOfRange
        | RuleSetMismatch
        | InvalidDecision
        | GameMismatch;
    InvalidArgument: PairingUnknownPlayer
        | PairedTwice
        | PairedWithSelf
        | NotAvailable
        | PlayersLeftOut
        | Rematch
        | OffSchedule
        | OffBracket
        | ByeNotAllowed;
    Aborted: StaleAttempt;
    Internal: InconsistentEvent;
    FailedPrecondition: TournamentFinished
        | TooManyPlayers
        | SameNameRegistered
        | RegistrationNotCancellable
        | PlayerWithdrawn
        | PlayerNotEntered
        | NoByeRequested
        | NoRoundLeftToEnter
        | EntryTooEarly
        | RoundOutOfOrder
        | RoundNotStarted
        | PreviousRoundNotClosed
        | RoundAlreadyPaired
        | RoundNotPending
        | RoundNotPublished
        | RoundClosed
        | RoundAlreadyClosed
        | ResultsMissing
        | NotEnoughPlayers
        | ConsentNotRequired
        | NotOnline
        | NoPlatformResult
        | NoGameInRound
        | ConsentMissing
        | RoundsRemaining
        | RoundRobinRounds
        | KnockoutRounds
        | KnockoutDecided
        | KnockoutUndecided
        | NoProposal
        | ResultNotRecorded
        | ResultUnchanged;
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
    let mut metadata = vec![("tournament_id", tournament_id)];
    if let DomainError::Invalid { field, .. } = e {
        metadata.push(("field", field.as_str()));
    }
    refusal(domain_code(e), message, &domain_reason(e), &metadata)
}

/// A command that expected the stream at `expected` while it is at `current`: ABORTED with
/// reason `VERSION_CONFLICT` and both versions in the metadata (re-read and retry).
pub fn version_conflict(tournament_id: &str, expected: u64, current: u64) -> Status {
    refusal(
        Code::Aborted,
        format!(
            "tournament {tournament_id}: expected version {expected}, but the stream is at \
             version {current}; re-read and retry"
        ),
        "VERSION_CONFLICT",
        &[
            ("tournament_id", tournament_id),
            ("expected_version", &expected.to_string()),
            ("current_version", &current.to_string()),
        ],
    )
}

/// A failure of the event log.
pub fn log_status(e: &LogError) -> Status {
    match e {
        LogError::Conflict { expected, actual } => refusal(
            Code::Aborted,
            e.to_string(),
            "VERSION_CONFLICT",
            &[
                ("expected_version", &expected.to_string()),
                ("current_version", &actual.to_string()),
            ],
        ),
        LogError::CommandIdReused { .. } => {
            refusal(Code::AlreadyExists, e.to_string(), "COMMAND_ID_REUSED", &[])
        }
        // With their details here (not only at the host's edge): a stream that fails after
        // its first message sends this status in its trailers, past the edge's reach.
        LogError::InvalidStream { .. } | LogError::InvalidAppend(_) | LogError::TooLarge { .. } => {
            with_details(Status::invalid_argument(e.to_string()))
        }
        LogError::Corrupt { .. } => with_details(Status::data_loss(e.to_string())),
        LogError::Storage(_) | LogError::Nats(_) => {
            with_details(Status::unavailable(e.to_string()))
        }
    }
}

/// A request field that does not convert, named with its message path (e.g. `player.title`).
pub fn convert_status(prefix: &str, e: &ConvertError) -> Status {
    let message = if prefix.is_empty() {
        e.to_string()
    } else {
        format!("{prefix}.{e}")
    };
    refusal(Code::InvalidArgument, message, "INVALID_FIELD", &[])
}

/// A tournament that does not exist, for queries.
pub fn unknown_tournament(tournament_id: &str) -> Status {
    refusal(
        Code::NotFound,
        format!("tournament {tournament_id} does not exist (no events in its stream)"),
        "TOURNAMENT_NOT_FOUND",
        &[("tournament_id", tournament_id)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_proto::ERROR_DOMAIN;
    use tonic_types::StatusExt;

    #[test]
    fn every_refusal_leaves_with_an_error_info() {
        let plain = with_details(Status::invalid_argument("player: missing"));
        let info = plain.get_details_error_info().expect("ErrorInfo");
        assert_eq!(
            (info.reason.as_str(), info.domain.as_str()),
            ("INVALID_FIELD", ERROR_DOMAIN)
        );
        let v = plain
            .get_details_bad_request()
            .expect("BadRequest")
            .field_violations;
        assert_eq!(
            (v[0].field.as_str(), v[0].description.as_str()),
            ("player", "missing")
        );

        let other = with_details(Status::not_found("no such thing"));
        assert_eq!(
            other.get_details_error_info().expect("ErrorInfo").reason,
            "NOT_FOUND"
        );

        // Details already given are kept.
        let conflict = version_conflict("t", 3, 5);
        let again = with_details(conflict.clone());
        assert_eq!(again.details(), conflict.details());
        let m = again.get_details_error_info().expect("ErrorInfo").metadata;
        assert_eq!(m.get("current_version").map(String::as_str), Some("5"));
    }

    /// A log failure can end a stream after its first message, beyond the host's edge: its
    /// status carries its details itself.
    #[test]
    fn a_log_failure_has_its_details_without_the_edge() {
        let down = log_status(&LogError::Storage("disk gone".into()));
        assert_eq!(down.code(), Code::Unavailable);
        assert_eq!(
            down.get_details_error_info().expect("ErrorInfo").reason,
            "UNAVAILABLE"
        );
    }

    #[test]
    fn domain_refusals_have_their_names_as_reasons() {
        let e = DomainError::RoundNotStarted { round: 2 };
        let s = domain_status("t", &e);
        assert_eq!(s.code(), Code::FailedPrecondition);
        let info = s.get_details_error_info().expect("ErrorInfo");
        assert_eq!(info.reason, "ROUND_NOT_STARTED");
        let p = s
            .get_details_precondition_failure()
            .expect("PreconditionFailure");
        assert_eq!(p.violations[0].subject, "tournament/t");
        assert!(
            DOMAIN_REFUSALS
                .iter()
                .any(|(v, c)| *v == "RoundNotStarted" && *c == Code::FailedPrecondition)
        );
        assert_eq!(reason_of("Invalid"), "INVALID_FIELD");
    }
}

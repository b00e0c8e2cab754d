//! A command's context (who, which tournament, which command id, bound to which request) and
//! its outcome.

use super::*;

/// The outcome of a command, as [`CommandResult`] sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandOutcome {
    pub tournament_id: String,
    pub first_version: Version,
    pub last_version: Version,
    pub event_ids: Vec<String>,
    pub replayed: bool,
}

impl From<CommandOutcome> for CommandResult {
    fn from(o: CommandOutcome) -> CommandResult {
        CommandResult {
            tournament_id: o.tournament_id,
            first_version: o.first_version,
            last_version: o.last_version,
            event_ids: o.event_ids,
            replayed: o.replayed,
            ..Default::default()
        }
    }
}

/// Who asks for what, where: the header of a command, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandContext {
    pub tournament_id: String,
    pub stream: String,
    pub command_id: String,
    pub expected_version: Option<Version>,
    pub actor: String,
    /// The request the command id is bound to (requests from the gRPC edge); `None` for the
    /// services' own appends, whose command ids are derived from what they answer.
    pub request: Option<RequestBinding>,
    /// What the caller may touch ([`Grant::Full`] for the services' own appends).
    pub grant: Grant,
}

/// A command id's binding to its request: the command's name and the digest of its canonical
/// request ([`request_digest`]). It is stored on the first event of the append
/// (`Event.origin`), so the binding is as durable as the events, in every backend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestBinding {
    pub command: &'static str,
    pub digest: [u8; 32],
}

/// The digest a command id is bound to: SHA-256 over the method name and the request message
/// without its header, in protobuf encoding (prost writes fields in field-number order, so
/// the same request always encodes the same). The header is left out on purpose: it carries
/// the command id itself, the actor and the expected version, and a client retrying after a
/// lost answer may re-read and send another expected version for the same request.
pub fn request_digest(command: &str, body_without_header: &impl prost::Message) -> [u8; 32] {
    arbiter_eventlog::record::payload_digest(&[
        b"arbiter.request.v1".to_vec(),
        command.as_bytes().to_vec(),
        body_without_header.encode_to_vec(),
    ])
}

/// A command request of the gRPC API: its header and its body, for [`CommandContext::for_request`].
pub trait CommandRequest: prost::Message + Clone + crate::edge::Check {
    /// The gRPC method, e.g. `"RegisterPlayer"`.
    const COMMAND: &'static str;
    fn header(&self) -> Option<&CommandHeader>;
    /// The request without its header.
    fn body(&self) -> Self;
}

macro_rules! command_requests {
    ($($ty:path => $name:literal),* $(,)?) => {$(
        impl CommandRequest for $ty {
            const COMMAND: &'static str = $name;
            fn header(&self) -> Option<&CommandHeader> {
                self.header.as_ref()
            }
            fn body(&self) -> Self {
                let mut b = self.clone();
                b.header = None;
                b
            }
        }
    )*};
}

command_requests! {
    arbiter_proto::registration::v1::CreateTournamentRequest => "CreateTournament",
    arbiter_proto::registration::v1::UpdateTournamentRequest => "UpdateTournament",
    arbiter_proto::registration::v1::RegisterPlayerRequest => "RegisterPlayer",
    arbiter_proto::registration::v1::EnterLateRequest => "EnterLate",
    arbiter_proto::registration::v1::CorrectPlayerRequest => "CorrectPlayer",
    arbiter_proto::registration::v1::WithdrawPlayerRequest => "WithdrawPlayer",
    arbiter_proto::registration::v1::CancelRegistrationRequest => "CancelRegistration",
    arbiter_proto::registration::v1::RequestByeRequest => "RequestBye",
    arbiter_proto::registration::v1::CancelByeRequest => "CancelBye",
    arbiter_proto::registration::v1::DeclareAbsenceRequest => "DeclareAbsence",
    arbiter_proto::registration::v1::RecordFairPlayConsentRequest => "RecordFairPlayConsent",
    arbiter_proto::registration::v1::DrawLotsRequest => "DrawLots",
    arbiter_proto::registration::v1::RecordTeamRequest => "RecordTeam",
    arbiter_proto::round_director::v1::StartRoundRequest => "StartRound",
    arbiter_proto::round_director::v1::RequestRepairingRequest => "RequestRepairing",
    arbiter_proto::round_director::v1::PublishPairingRequest => "PublishPairing",
    arbiter_proto::round_director::v1::SubmitLineupRequest => "SubmitLineup",
    arbiter_proto::round_director::v1::RecordResultRequest => "RecordResult",
    arbiter_proto::round_director::v1::CorrectResultRequest => "CorrectResult",
    arbiter_proto::round_director::v1::OverridePlatformResultRequest => "OverridePlatformResult",
    arbiter_proto::round_director::v1::ImposeSanctionRequest => "ImposeSanction",
    arbiter_proto::round_director::v1::RecordIrregularityRequest => "RecordIrregularity",
    arbiter_proto::round_director::v1::RecordSupervisionBreachRequest => "RecordSupervisionBreach",
    arbiter_proto::round_director::v1::ReportConnectionIncidentRequest => "ReportConnectionIncident",
    arbiter_proto::round_director::v1::RuleOnDisconnectionRequest => "RuleOnDisconnection",
    arbiter_proto::round_director::v1::FileAppealRequest => "FileAppeal",
    arbiter_proto::round_director::v1::DecideAppealRequest => "DecideAppeal",
    arbiter_proto::round_director::v1::CloseRoundRequest => "CloseRound",
    arbiter_proto::round_director::v1::FinishTournamentRequest => "FinishTournament",
    arbiter_proto::screening::v1::SubmitGameRequest => "SubmitGame",
    arbiter_proto::screening::v1::SubmitGamesRequest => "SubmitGames",
    arbiter_proto::screening::v1::RunFullTestRequest => "RunFullTest",
    arbiter_proto::screening::v1::FileComplaintRequest => "FileComplaint",
}

impl CommandContext {
    /// The opening every command handler shares: the caller the authentication layer put in
    /// the request, authorized for the request's tournament ([`CommandContext::for_request`]),
    /// and the request's body.
    #[allow(clippy::result_large_err)]
    pub fn open<R: CommandRequest>(
        request: tonic::Request<R>,
    ) -> Result<(CommandContext, R), Status> {
        let caller = arbiter_auth::layer::principal(&request)?;
        let r = request.into_inner();
        let ctx = CommandContext::for_request(&caller, &r)?;
        Ok((ctx, r))
    }

    /// The context of a request from the gRPC edge, for the caller the authentication layer
    /// found (`arbiter_auth::layer::principal`): the caller must be allowed the command on the
    /// header's tournament ([`Principal::authorize`]: `UNAUTHENTICATED` or `PERMISSION_DENIED`
    /// before anything is decided), the actor recorded is the token's subject (the header's
    /// actor is checked as before but not recorded: a client's claim is not who it is), the
    /// command id is bound to the request. A player's own commands carry
    /// [`Grant::OwnEntry`] in [`CommandContext::grant`], which the handler checks against the
    /// player the command resolves to.
    #[allow(clippy::result_large_err)]
    pub fn for_request<R: CommandRequest>(
        principal: &Principal,
        request: &R,
    ) -> Result<CommandContext, Status> {
        let h = request
            .header()
            .ok_or_else(|| Status::invalid_argument("header: missing"))?;
        stream_of(&h.tournament_id)?;
        let grant = principal.authorize(R::COMMAND, h.tournament_id.trim())?;
        crate::edge::check_actor("the token's subject (sub)", &principal.subject)?;
        crate::edge::check_actor("header.actor", &h.actor)?;
        request.check()?;
        let mut ctx = CommandContext::new(
            &h.tournament_id,
            &h.command_id,
            h.expected_version,
            &principal.subject,
        )?;
        // After the header's own checks, so that an overlong id is not echoed back.
        crate::edge::check_command_id("header.command_id", &ctx.command_id)?;
        ctx.grant = grant;
        ctx.request = Some(RequestBinding {
            command: R::COMMAND,
            digest: request_digest(R::COMMAND, &request.body()),
        });
        Ok(ctx)
    }

    #[allow(clippy::result_large_err)]
    pub fn new(
        tournament_id: &str,
        command_id: &str,
        expected_version: Option<Version>,
        actor: &str,
    ) -> Result<CommandContext, Status> {
        let stream = stream_of(tournament_id)?;
        let command_id = match command_id.trim() {
            "" => uuid::Uuid::new_v4().to_string(),
            c if c.len() > 200 => {
                return Err(Status::invalid_argument(
                    "header.command_id: longer than 200 characters",
                ));
            }
            c if c.chars().any(char::is_control) => {
                return Err(Status::invalid_argument(
                    "header.command_id: contains a control character",
                ));
            }
            c => c.to_string(),
        };
        Ok(CommandContext {
            tournament_id: tournament_id.trim().to_string(),
            stream,
            command_id,
            expected_version,
            actor: actor.to_string(),
            request: None,
            grant: Grant::Full,
        })
    }
}

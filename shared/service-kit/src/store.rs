//! The event-sourced tournament store: how every service turns a tournament's event stream into
//! state, and commands into events.
//!
//! - One stream per tournament, named `tournament-<id>` ([`stream_of`]).
//! - [`Folded`] is the state of one stream at a version: the domain [`State`], plus what the log
//!   knows and the aggregate does not (the version of each proposal, every command id with the
//!   events it wrote).
//! - [`TournamentStore`] keeps the folded streams of one service in memory, catches them up
//!   from the log on every use, and writes a snapshot to its [`CheckpointStore`] once the
//!   events folded since the last one are as large as that snapshot (and at least
//!   [`CHECKPOINT_EVERY`] of them), and at shutdown, so that a restart resumes from the
//!   snapshot and reads only the tail. Snapshot writes are thus proportional to the log's
//!   growth, not to the state's size (a full snapshot every few events of a 10,000-player
//!   event wrote 10x the log). A snapshot is the same for every service, so it is keyed by
//!   stream alone ([`SNAPSHOT_OWNER`]): services sharing a checkpoint store share one copy.
//! - [`TournamentStore::execute`] runs a command: fold, `decide`, append with the folded
//!   version as the expected version and the request's command id. The same command id returns
//!   the first outcome and appends nothing; an optimistic-concurrency conflict is retried after
//!   re-reading (up to [`MAX_ATTEMPTS`] times); a refused command appends nothing. Commands to
//!   one stream take turns in this process (a per-stream async mutex, FIFO), so tasks of one
//!   process never race each other's appends; the retries are left for other processes
//!   writing the same stream.
//! - [`Feed`] delivers every append after a service's checkpoint, for services that react to
//!   events (pairing worker, reporting): a subscription on the log, or a JetStream durable
//!   consumer.

use crate::status::{domain_status, log_status};
use arbiter_auth::{Grant, Principal};
use arbiter_core::tournament::{Command, Event, State, decide};
use arbiter_eventlog::{
    CheckpointStore, EventLog, ExpectedVersion, JetStreamLog, LogError, StoredEvent, SubscribeFrom,
    Version, encode_events,
};
use arbiter_proto::common::v1::{CommandHeader, CommandResult};
use arbiter_proto::convert::{event_from_wire, event_to_wire};
use futures::{FutureExt, StreamExt};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use tonic::Status;
use tracing::{Instrument, info, info_span, warn};

/// Every tournament's stream is `tournament-<id>`.
pub const STREAM_PREFIX: &str = "tournament-";
/// The longest tournament id accepted.
pub const MAX_TOURNAMENT_ID: usize = 100;
/// A snapshot is written after at least this many new events (and see [`TournamentStore`]).
pub const CHECKPOINT_EVERY: u64 = 64;
/// The shortest stream snapshotted ([`TournamentStore::with_snapshot_min_events`]), over
/// either log: folding a shorter one again costs less than keeping a copy of its state in
/// every process (a 100-player event's snapshot is as large as its log, and distributed
/// services each keep their own). Reading 1,000 events back takes about 1 ms from sled and
/// 10 ms from a JetStream cluster (`cargo bench -p arbiter-eventlog --bench append`), so a
/// shorter stream is refolded in tens of milliseconds on its first use after a restart.
pub const SNAPSHOT_MIN_EVENTS: u64 = 1000;
/// The checkpoint-store owner of the stream snapshots (in place of a service name).
pub const SNAPSHOT_OWNER: &str = "folded-stream";
/// What an event takes in the log besides its payload, command id and actor (ids, hashes,
/// version, time, index entries), for the snapshot trigger.
const EVENT_OVERHEAD: u64 = 150;
/// How many times a command is decided again after an optimistic-concurrency conflict.
pub const MAX_ATTEMPTS: u32 = 12;
/// The checkpoint key of a service's position in the all-streams feed.
pub const FEED_CHECKPOINT: &str = "all-streams-feed";

/// The stream of a tournament id, after checking the id: 1 to 100 characters of
/// `A-Z a-z 0-9 _ -`.
#[allow(clippy::result_large_err)]
pub fn stream_of(tournament_id: &str) -> Result<String, Status> {
    let id = tournament_id.trim();
    if id.is_empty() {
        return Err(Status::invalid_argument("tournament_id: must not be empty"));
    }
    if id.len() > MAX_TOURNAMENT_ID {
        return Err(Status::invalid_argument(format!(
            "tournament_id: longer than {MAX_TOURNAMENT_ID} characters"
        )));
    }
    if let Some(c) = id
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(Status::invalid_argument(format!(
            "tournament_id {id:?}: character {c:?} not allowed (use A-Z a-z 0-9 _ -)"
        )));
    }
    Ok(format!("{STREAM_PREFIX}{id}"))
}

/// The tournament id of a tournament stream.
pub fn tournament_of(stream: &str) -> Option<&str> {
    stream.strip_prefix(STREAM_PREFIX).filter(|s| !s.is_empty())
}

/// A fresh tournament id (UUID v7: unique and ordered by creation time).
pub fn new_tournament_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// What a stream says about one command id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandRecord {
    pub first_version: Version,
    pub last_version: Version,
    pub event_ids: Vec<String>,
    /// The command that wrote the events (`CommandOrigin.command`), or the kind of its first
    /// event when the append carries no origin (internal appends, older logs).
    #[serde(default)]
    pub command: String,
    /// The digest of the request that wrote the events (`CommandOrigin.request_digest`); `None`
    /// for appends without an origin.
    #[serde(default)]
    pub request_digest: Option<Vec<u8>>,
}

/// An event that did not fit the state it was folded into (the log is a record of facts, so
/// it is kept; audits report it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Misfit {
    pub version: Version,
    pub reason: String,
}

/// One stream folded up to `version`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Folded {
    pub state: State,
    /// The version of the last event folded (0 = empty stream).
    pub version: Version,
    /// The hash of the last event folded.
    pub head_hash: Vec<u8>,
    /// `(round, attempt, version)` of every `PairingRequested`.
    requests: Vec<(u32, u32, Version)>,
    /// `(round, attempt, version)` of every `PairingProposed`.
    proposals: Vec<(u32, u32, Version)>,
    /// `(round, version)` of every `PairingPublished`.
    publications: Vec<(u32, Version)>,
    /// `(round, time)` of every `RoundClosed`, the time as the log recorded it (no serde
    /// default: a snapshot written without it is folded again from the start).
    closings: Vec<(u32, i64)>,
    /// The version of each player's registration, by entry (no serde default: a snapshot
    /// written without it is folded again from the start).
    registrations: Vec<Version>,
    /// The version of each registration, correction, cancelled registration and drawing of
    /// lots, in the order of `State::numbering_changes`.
    numbering: Vec<Version>,
    /// The version of a round robin's `LotsDrawn` (no serde default: a snapshot written
    /// without it is folded again from the start).
    lots_drawn_at: Option<Version>,
    /// Every command id of the stream.
    commands: BTreeMap<String, CommandRecord>,
    /// Events that did not fit the state.
    pub misfits: Vec<Misfit>,
    /// The last signed chain head the stream records (a snapshot written before this field
    /// reads as none until the next head is signed).
    #[serde(default)]
    pub signed_head: Option<SignedHeadNote>,
}

/// A `ChainHeadSigned` event as the pages show it (the auditor's tools verify it: `arbiter
/// replay`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedHeadNote {
    /// The version of the `ChainHeadSigned` event.
    pub at: Version,
    /// The version it signs, and that event's hash.
    pub version: Version,
    pub head_hash: Vec<u8>,
    pub key_id: String,
    pub public_key: Vec<u8>,
    pub signed_unix_ms: i64,
    pub covers: String,
}

/// Why a stream could not be folded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FoldError {
    /// The log failed (or found damage).
    Log(LogError),
    /// An event's payload is not a valid event of the schema.
    Schema {
        stream: String,
        version: Version,
        detail: String,
    },
    /// Versions are not consecutive.
    Gap {
        stream: String,
        expected: Version,
        found: Version,
    },
}

impl std::fmt::Display for FoldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FoldError::Log(e) => write!(f, "{e}"),
            FoldError::Schema {
                stream,
                version,
                detail,
            } => write!(f, "stream {stream:?} version {version}: {detail}"),
            FoldError::Gap {
                stream,
                expected,
                found,
            } => write!(
                f,
                "stream {stream:?}: expected version {expected}, found {found}"
            ),
        }
    }
}

impl std::error::Error for FoldError {}

impl From<LogError> for FoldError {
    fn from(e: LogError) -> FoldError {
        FoldError::Log(e)
    }
}

/// A command refused because its stream is damaged: FAILED_PRECONDITION naming the damage
/// (the stream accepts nothing until it is restored from a copy).
fn damaged_status(tournament_id: &str, damage: &str) -> Status {
    Status::failed_precondition(format!(
        "tournament {tournament_id}: its event log is damaged ({damage}); no change is accepted \
         until the log is restored from a copy"
    ))
}

/// The status of a log failure met by a command.
fn command_log_status(tournament_id: &str, e: &LogError) -> Status {
    match e {
        LogError::Corrupt { .. } => damaged_status(tournament_id, &e.to_string()),
        other => log_status(other),
    }
}

impl FoldError {
    pub fn to_status(&self) -> Status {
        match self {
            FoldError::Log(e) => log_status(e),
            other => Status::data_loss(other.to_string()),
        }
    }
}

impl Folded {
    /// Folds one stored event (the next version). Returns the domain event, `None` for kinds
    /// outside the tournament aggregate.
    pub fn apply_stored(&mut self, e: &StoredEvent) -> Result<Option<Event>, FoldError> {
        if e.version != self.version + 1 {
            return Err(FoldError::Gap {
                stream: e.stream.clone(),
                expected: self.version + 1,
                found: e.version,
            });
        }
        let wire = e.decode_event()?;
        if let Some(arbiter_proto::events::v1::event::Kind::ChainHeadSigned(h)) = &wire.kind {
            self.signed_head = Some(SignedHeadNote {
                at: e.version,
                version: h.version,
                head_hash: h.head_hash.clone(),
                key_id: h.key_id.clone(),
                public_key: h.public_key.clone(),
                signed_unix_ms: h.signed_unix_ms,
                covers: h.covers.clone(),
            });
        }
        let event = event_from_wire(&wire).map_err(|err| FoldError::Schema {
            stream: e.stream.clone(),
            version: e.version,
            detail: err.to_string(),
        })?;
        if let Some(ev) = &event {
            if let Err(why) = self.state.try_apply(ev) {
                self.misfits.push(Misfit {
                    version: e.version,
                    reason: why.to_string(),
                });
            } else {
                match ev {
                    Event::PairingRequested(p) => {
                        self.requests.push((p.round, p.attempt, e.version))
                    }
                    Event::PairingProposed(p) => {
                        self.proposals.push((p.round, p.attempt, e.version))
                    }
                    Event::PairingPublished(p) => self.publications.push((p.round, e.version)),
                    Event::RoundClosed(c) => self.closings.push((c.round, e.time_unix_ms)),
                    Event::PlayerRegistered(_) | Event::LateEntry(_) => {
                        self.registrations.push(e.version);
                        self.numbering.push(e.version);
                    }
                    Event::PlayerCorrected(_) | Event::RegistrationCancelled(_) => {
                        self.numbering.push(e.version)
                    }
                    Event::LotsDrawn(_) => {
                        self.numbering.push(e.version);
                        self.lots_drawn_at = Some(e.version);
                    }
                    _ => {}
                }
            }
        }
        let rec = self
            .commands
            .entry(e.command_id.clone())
            .or_insert_with(|| {
                let (command, request_digest) = match &wire.origin {
                    Some(o) => (o.command.clone(), Some(o.request_digest.clone())),
                    None => (arbiter_eventlog::kind_name(&wire).to_string(), None),
                };
                CommandRecord {
                    first_version: e.version,
                    last_version: e.version,
                    event_ids: Vec::new(),
                    command,
                    request_digest,
                }
            });
        rec.last_version = e.version;
        rec.event_ids.push(e.event_id.to_string());
        self.version = e.version;
        self.head_hash = e.hash.to_vec();
        Ok(event)
    }

    /// Folds a whole stream read from the log.
    pub fn from_stored<'a>(
        events: impl IntoIterator<Item = &'a StoredEvent>,
    ) -> Result<Folded, FoldError> {
        let mut f = Folded::default();
        for e in events {
            f.apply_stored(e)?;
        }
        Ok(f)
    }

    /// The stream version of the `PairingProposed` answering `attempt` of `round`.
    pub fn proposal_version(&self, round: u32, attempt: u32) -> Option<Version> {
        self.proposals
            .iter()
            .rev()
            .find(|(r, a, _)| *r == round && *a == attempt)
            .map(|(_, _, v)| *v)
    }

    /// The stream version of the `PairingRequested` of `attempt` of `round`.
    pub fn request_version(&self, round: u32, attempt: u32) -> Option<Version> {
        self.requests
            .iter()
            .rev()
            .find(|(r, a, _)| *r == round && *a == attempt)
            .map(|(_, _, v)| *v)
    }

    /// When the log recorded the (last) closing of `round`, in Unix milliseconds.
    pub fn round_closed_at(&self, round: u32) -> Option<i64> {
        self.closings
            .iter()
            .rev()
            .find(|(r, _)| *r == round)
            .map(|&(_, t)| t)
    }

    /// The stream version of the `PairingPublished` of `round`.
    pub fn publication_version(&self, round: u32) -> Option<Version> {
        self.publications
            .iter()
            .find(|(r, _)| *r == round)
            .map(|(_, v)| *v)
    }

    /// The version of the latest proposal of `round`, if it still stands.
    pub fn current_proposal_version(&self, round: u32) -> Option<Version> {
        let p = self.state.proposal(round)?;
        self.proposal_version(round, p.attempt)
    }

    /// The version of each player's registration event, by entry (order of registration).
    pub fn registration_versions(&self) -> &[Version] {
        &self.registrations
    }

    /// The version of each event of `State::numbering_changes` (registrations, corrections,
    /// cancelled registrations, the drawing of lots).
    pub fn numbering_versions(&self) -> &[Version] {
        &self.numbering
    }

    /// The version of the round robin's drawing of lots, once drawn.
    pub fn lots_drawn_at(&self) -> Option<Version> {
        self.lots_drawn_at
    }

    /// What the stream holds for a command id.
    pub fn command(&self, command_id: &str) -> Option<&CommandRecord> {
        self.commands.get(command_id)
    }

    /// Number of distinct command ids in the stream.
    pub fn command_count(&self) -> usize {
        self.commands.len()
    }
}

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

struct Entry {
    folded: Arc<Folded>,
    loaded: bool,
    checkpointed: Version,
    /// A snapshot of this stream is being written in the background.
    writing: bool,
    /// The size of the last snapshot, and about how many bytes of log were folded since.
    snapshot_bytes: u64,
    since_bytes: u64,
}

impl Entry {
    fn fold(&mut self, e: &StoredEvent) -> Result<(), FoldError> {
        Arc::make_mut(&mut self.folded).apply_stored(e)?;
        self.since_bytes +=
            (e.payload.len() + e.command_id.len() + e.actor.len()) as u64 + EVENT_OVERHEAD;
        Ok(())
    }

    /// A snapshot now costs no more than the log written since the last one.
    fn snapshot_due(&self, min_events: u64) -> bool {
        !self.writing
            && self.folded.version >= min_events
            && self.folded.version >= self.checkpointed + CHECKPOINT_EVERY
            && self.since_bytes >= self.snapshot_bytes
    }
}

/// Counters, for tests and logs.
#[derive(Debug, Default)]
pub struct StoreStats {
    /// Appends refused for a version conflict and decided again.
    pub conflicts_retried: AtomicU64,
    /// Commands whose id had been applied before (answered without appending).
    pub replayed: AtomicU64,
    /// Commands that appended events.
    pub appended: AtomicU64,
    /// Streams resumed from a snapshot.
    pub resumed_from_checkpoint: AtomicU64,
}

/// One service's view of the tournament streams (see the module documentation).
pub struct TournamentStore {
    log: Arc<dyn EventLog>,
    service: String,
    checkpoints: Option<CheckpointStore>,
    /// Snapshots are written one at a time, off the fold's lock (see [`Snapshots`]).
    snapshots: Arc<Snapshots>,
    /// Streams shorter than this are never snapshotted (0: all are).
    snapshot_min_events: u64,
    entries: std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<Entry>>>>,
    /// One turn per stream for commands (see the module documentation). Kept apart from the
    /// fold's lock so that reads are not held up by a command waiting for its append.
    turns: std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    stats: StoreStats,
    /// Streams whose log was found damaged (a fold or [`TournamentStore::scrub`] met an event
    /// that does not decode or verify): commands to them are refused, and `/healthz` and the
    /// pages say so. Kept until the process restarts on a repaired log.
    damaged: std::sync::Mutex<BTreeMap<String, String>>,
}

impl TournamentStore {
    /// A store for `service` over `log`, snapshotting into `checkpoints` (none: no snapshots).
    pub fn new(
        log: Arc<dyn EventLog>,
        service: impl Into<String>,
        checkpoints: Option<CheckpointStore>,
    ) -> TournamentStore {
        TournamentStore {
            log,
            service: service.into(),
            checkpoints,
            snapshots: Arc::default(),
            snapshot_min_events: 0,
            entries: Default::default(),
            turns: Default::default(),
            stats: StoreStats::default(),
            damaged: Default::default(),
        }
    }

    /// Snapshots only streams of at least `n` events (see [`SNAPSHOT_MIN_EVENTS`]).
    pub fn with_snapshot_min_events(mut self, n: u64) -> TournamentStore {
        self.snapshot_min_events = n;
        self
    }

    fn turn(&self, stream: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut map = self.turns.lock().expect("turns lock");
        map.entry(stream.to_string()).or_default().clone()
    }

    pub fn log(&self) -> &Arc<dyn EventLog> {
        &self.log
    }

    pub fn service(&self) -> &str {
        &self.service
    }

    pub fn stats(&self) -> &StoreStats {
        &self.stats
    }

    fn entry(&self, stream: &str) -> Arc<tokio::sync::Mutex<Entry>> {
        let mut map = self.entries.lock().expect("entries lock");
        map.entry(stream.to_string())
            .or_insert_with(|| {
                Arc::new(tokio::sync::Mutex::new(Entry {
                    folded: Arc::new(Folded::default()),
                    loaded: false,
                    checkpointed: 0,
                    writing: false,
                    snapshot_bytes: 0,
                    since_bytes: 0,
                }))
            })
            .clone()
    }

    fn forget_if_empty(&self, stream: &str, folded: &Folded) {
        if folded.version == 0 {
            self.entries.lock().expect("entries lock").remove(stream);
        }
    }

    /// The snapshot of `stream` in this service's checkpoint store, if it still matches the log.
    async fn load_snapshot(&self, stream: &str) -> Option<(Folded, usize, Vec<StoredEvent>)> {
        let store = self.checkpoints.as_ref()?;
        let c = match store.get(SNAPSHOT_OWNER, stream) {
            Ok(Some(c)) => c,
            Ok(None) => return None,
            Err(e) => {
                warn!(service = %self.service, stream, error = %e, "checkpoint unreadable, folding from the start");
                return None;
            }
        };
        let folded: Folded = match serde_json::from_slice(c.snapshot.as_deref()?) {
            Ok(f) => f,
            Err(e) => {
                warn!(service = %self.service, stream, error = %e, "snapshot unreadable, folding from the start");
                return None;
            }
        };
        if folded.version != c.version || folded.version == 0 {
            return None;
        }
        // The snapshot must describe this log: its last event must still be there, unchanged.
        let tail = match self.log.read(stream, folded.version).await {
            Ok(t) => t,
            Err(e) => {
                warn!(service = %self.service, stream, error = %e, "cannot check the snapshot against the log");
                return None;
            }
        };
        match tail.first() {
            Some(e) if e.version == folded.version && e.hash.as_slice() == folded.head_hash => {
                let size = c.snapshot.as_ref().map_or(0, Vec::len);
                Some((folded, size, tail[1..].to_vec()))
            }
            _ => {
                warn!(service = %self.service, stream, version = folded.version, "snapshot does not match the log, folding from the start");
                None
            }
        }
    }

    /// The streams found damaged, each with what was found (see [`TournamentStore::scrub`]).
    pub fn damaged(&self) -> Vec<(String, String)> {
        self.damaged
            .lock()
            .expect("damaged lock")
            .iter()
            .map(|(s, d)| (s.clone(), d.clone()))
            .collect()
    }

    /// What was found damaged in `stream`, if anything.
    pub fn damage_of(&self, stream: &str) -> Option<String> {
        self.damaged.lock().expect("damaged lock").get(stream).cloned()
    }

    /// Remembers a fold's failure that shows damage (not one of reaching the log).
    fn note_damage<T>(&self, stream: &str, r: Result<T, FoldError>) -> Result<T, FoldError> {
        let damage = match &r {
            Err(FoldError::Log(e @ LogError::Corrupt { .. })) => Some(e.to_string()),
            Err(e @ (FoldError::Schema { .. } | FoldError::Gap { .. })) => Some(e.to_string()),
            _ => None,
        };
        if let Some(d) = damage {
            let mut map = self.damaged.lock().expect("damaged lock");
            if !map.contains_key(stream) {
                tracing::error!(service = %self.service, stream, "damaged event log: {d}");
                map.insert(stream.to_string(), d);
            }
        }
        r
    }

    /// Reads every tournament stream of the log whole, verifying each event's hash and link and
    /// decoding it, so that damage in the middle of a stream (behind a snapshot, never read
    /// again by the fold) is found at start. Returns the streams found damaged.
    pub async fn scrub(&self) -> Vec<(String, String)> {
        let streams = match self.log.list_streams().await {
            Ok(s) => s,
            Err(e) => {
                warn!(service = %self.service, "cannot list the streams to verify them: {e}");
                return Vec::new();
            }
        };
        for stream in streams.iter().filter(|s| tournament_of(s).is_some()) {
            let read = self.log.read(stream, 1).await.map_err(FoldError::from);
            let checked = read.and_then(|events| {
                let mut folded = Folded::default();
                for e in &events {
                    folded.apply_stored(e)?;
                }
                Ok(())
            });
            let _ = self.note_damage(stream, checked);
        }
        self.damaged()
    }

    /// The current state of `stream`: the cached fold caught up with the log.
    pub async fn current(&self, stream: &str) -> Result<Arc<Folded>, FoldError> {
        let r = self.current_unchecked(stream).await;
        self.note_damage(stream, r)
    }

    async fn current_unchecked(&self, stream: &str) -> Result<Arc<Folded>, FoldError> {
        let shared = self.entry(stream);
        let mut entry = shared.lock().await;
        let mut tail = None;
        if !entry.loaded {
            if let Some((folded, size, rest)) = self.load_snapshot(stream).await {
                info!(service = %self.service, stream, version = folded.version, "resumed from checkpoint");
                self.stats
                    .resumed_from_checkpoint
                    .fetch_add(1, Ordering::Relaxed);
                entry.checkpointed = folded.version;
                entry.snapshot_bytes = size as u64;
                entry.folded = Arc::new(folded);
                tail = Some(rest);
            }
            entry.loaded = true;
        }
        let tail = match tail {
            Some(t) => t,
            // Ask for the stream's version first (one cheap request): reading a JetStream
            // subject from a version scans it, so it is done only when there is a tail.
            None if self.log.last_version(stream).await? <= entry.folded.version => Vec::new(),
            None => self.log.read(stream, entry.folded.version + 1).await?,
        };
        for e in &tail {
            entry.fold(e)?;
        }
        if entry.snapshot_due(self.snapshot_min_events) {
            self.snapshot_in_background(stream, &shared, &mut entry);
        }
        let out = entry.folded.clone();
        drop(entry);
        self.forget_if_empty(stream, &out);
        Ok(out)
    }

    /// Folds events delivered by a [`Feed`] without reading the log when they are the next
    /// versions of the cached fold; events already folded are skipped, and a gap (or a stream
    /// not loaded yet) is caught up from the log as [`TournamentStore::current`] does.
    pub async fn absorb(
        &self,
        stream: &str,
        events: &[StoredEvent],
    ) -> Result<Arc<Folded>, FoldError> {
        {
            let shared = self.entry(stream);
            let mut entry = shared.lock().await;
            let next = entry.folded.version + 1;
            let fresh: Vec<&StoredEvent> = events
                .iter()
                .filter(|e| e.stream == stream && e.version >= next)
                .collect();
            if entry.loaded && fresh.is_empty() {
                return Ok(entry.folded.clone());
            }
            if entry.loaded && fresh[0].version == next {
                for e in fresh {
                    entry.fold(e)?;
                }
                if entry.snapshot_due(self.snapshot_min_events) {
                    self.snapshot_in_background(stream, &shared, &mut entry);
                }
                return Ok(entry.folded.clone());
            }
        }
        self.current(stream).await
    }

    /// The state of `stream` as of `version` (0 = current).
    pub async fn as_of(&self, stream: &str, version: Version) -> Result<Arc<Folded>, FoldError> {
        let current = self.current(stream).await?;
        if version == 0 || version >= current.version {
            return Ok(current);
        }
        let events = self.log.read(stream, 1).await?;
        let mut f = Folded::default();
        for e in events.iter().take_while(|e| e.version <= version) {
            f.apply_stored(e)?;
        }
        Ok(Arc::new(f))
    }

    /// Starts writing a snapshot of the entry's fold in the background. A command or a follower
    /// that found a snapshot due does not wait for its encoding or its flush, and the fold's
    /// lock is not held meanwhile (readers and the next command go on). A snapshot is only a
    /// shortcut for a restart: losing one costs a longer fold, never an event.
    fn snapshot_in_background(
        &self,
        stream: &str,
        shared: &Arc<tokio::sync::Mutex<Entry>>,
        entry: &mut Entry,
    ) {
        let Some(store) = self.checkpoints.clone() else {
            return;
        };
        entry.writing = true;
        let job = SnapshotJob {
            store,
            service: self.service.clone(),
            stream: stream.to_string(),
            folded: entry.folded.clone(),
            checkpointed: entry.checkpointed,
            latest: false,
        };
        let since = entry.since_bytes;
        let shared = shared.clone();
        let snapshots = self.snapshots.clone();
        snapshots.started();
        tokio::spawn(async move {
            let written = {
                let _one = snapshots.one_at_a_time.lock().await;
                job.write().await
            };
            {
                let mut entry = shared.lock().await;
                entry.writing = false;
                if let Some((version, size)) = written {
                    entry.checkpointed = entry.checkpointed.max(version);
                    entry.snapshot_bytes = size;
                    entry.since_bytes = entry.since_bytes.saturating_sub(since);
                }
            }
            snapshots.finished();
        });
    }

    /// Waits until no snapshot is being written in the background (tests, benches).
    pub async fn snapshots_settled(&self) {
        self.snapshots.settled().await;
    }

    /// Writes a snapshot of every stream that moved since its last one (at shutdown).
    pub async fn checkpoint_all(&self) {
        let entries: Vec<(String, Arc<tokio::sync::Mutex<Entry>>)> = self
            .entries
            .lock()
            .expect("entries lock")
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let Some(store) = &self.checkpoints else {
            return;
        };
        for (stream, entry) in entries {
            let mut entry = entry.lock().await;
            if entry.folded.version > entry.checkpointed
                && entry.folded.version >= self.snapshot_min_events
            {
                let job = SnapshotJob {
                    store: store.clone(),
                    service: self.service.clone(),
                    stream: stream.clone(),
                    folded: entry.folded.clone(),
                    checkpointed: entry.checkpointed,
                    latest: true,
                };
                let written = {
                    let _one = self.snapshots.one_at_a_time.lock().await;
                    job.write().await
                };
                if let Some((version, size)) = written {
                    entry.checkpointed = version;
                    entry.snapshot_bytes = size;
                    entry.since_bytes = 0;
                }
            }
        }
    }

    /// Runs a command (see the module documentation). `build` turns the request into a domain
    /// command given the current state; it may be called again after a conflict.
    pub async fn execute<F>(
        &self,
        ctx: &CommandContext,
        mut build: F,
    ) -> Result<CommandOutcome, Status>
    where
        F: FnMut(&Folded) -> Result<Command, Status>,
    {
        let span = info_span!(
            "command",
            service = %self.service,
            tournament = %ctx.tournament_id,
            command_id = %ctx.command_id,
            actor = %ctx.actor,
            command = tracing::field::Empty,
        );
        async {
            // tokio's mutex queues waiters in arrival order: commands to one stream are
            // decided and appended one after the other, each on the state the previous left.
            let _turn = self.turn(&ctx.stream).lock_owned().await;
            if let Some(d) = self.damage_of(&ctx.stream) {
                return Err(damaged_status(&ctx.tournament_id, &d));
            }
            for attempt in 0..MAX_ATTEMPTS {
                let folded = self.current(&ctx.stream).await.map_err(|e| match e {
                    FoldError::Log(e) => command_log_status(&ctx.tournament_id, &e),
                    other => damaged_status(&ctx.tournament_id, &other.to_string()),
                })?;
                if let Some(rec) = folded.command(&ctx.command_id) {
                    check_binding(ctx, rec)?;
                    self.stats.replayed.fetch_add(1, Ordering::Relaxed);
                    info!(
                        first = rec.first_version,
                        last = rec.last_version,
                        "command id already applied: answering with its first outcome"
                    );
                    return Ok(CommandOutcome {
                        tournament_id: ctx.tournament_id.clone(),
                        first_version: rec.first_version,
                        last_version: rec.last_version,
                        event_ids: rec.event_ids.clone(),
                        replayed: true,
                    });
                }
                if let Some(expected) = ctx.expected_version
                    && expected != folded.version
                {
                    return Err(Status::aborted(format!(
                        "tournament {}: expected version {expected}, but the stream is at version {}; \
                         re-read and retry",
                        ctx.tournament_id, folded.version
                    )));
                }
                let command = build(&folded)?;
                tracing::Span::current().record("command", command.name());
                let events = decide(&folded.state, &command).map_err(|e| {
                    let status = domain_status(&ctx.tournament_id, &e);
                    arbiter_telemetry::metrics::refusal(status.code(), &rule_name(&e));
                    status
                })?;
                if events.is_empty() {
                    return Ok(CommandOutcome {
                        tournament_id: ctx.tournament_id.clone(),
                        first_version: folded.version,
                        last_version: folded.version,
                        event_ids: Vec::new(),
                        replayed: false,
                    });
                }
                let mut wire: Vec<_> = events.iter().map(event_to_wire).collect();
                if let (Some(b), Some(first)) = (&ctx.request, wire.first_mut()) {
                    first.origin = Some(arbiter_proto::events::v1::CommandOrigin {
                        command: b.command.to_string(),
                        request_digest: b.digest.to_vec(),
                    });
                }
                let append_started = Instant::now();
                let appended = self
                    .log
                    .append(
                        &ctx.stream,
                        ExpectedVersion::Exact(folded.version),
                        &ctx.command_id,
                        &ctx.actor,
                        encode_events(&wire),
                    )
                    .await;
                match appended {
                    Ok(o) => {
                        arbiter_telemetry::metrics::log_append(
                            append_started.elapsed(),
                            o.position,
                        );
                        let kinds: Vec<&str> = events.iter().map(Event::kind).collect();
                        if o.replayed {
                            self.stats.replayed.fetch_add(1, Ordering::Relaxed);
                        } else {
                            self.stats.appended.fetch_add(1, Ordering::Relaxed);
                        }
                        info!(
                            first = o.first_version,
                            last = o.last_version,
                            events = ?kinds,
                            replayed = o.replayed,
                            "appended"
                        );
                        return Ok(CommandOutcome {
                            tournament_id: ctx.tournament_id.clone(),
                            first_version: o.first_version,
                            last_version: o.last_version,
                            event_ids: o.event_ids.iter().map(|u| u.to_string()).collect(),
                            replayed: o.replayed,
                        });
                    }
                    Err(LogError::Conflict { expected, actual }) => {
                        if ctx.expected_version.is_some() {
                            return Err(Status::aborted(format!(
                                "tournament {}: expected version {expected}, but the stream is at \
                                 version {actual}; re-read and retry",
                                ctx.tournament_id
                            )));
                        }
                        self.stats.conflicts_retried.fetch_add(1, Ordering::Relaxed);
                        info!(
                            attempt,
                            expected, actual, "version conflict: re-reading and deciding again"
                        );
                        let pause = Duration::from_millis(2u64 << attempt.min(6));
                        tokio::time::sleep(pause).await;
                    }
                    Err(LogError::CommandIdReused { .. }) if attempt + 1 < MAX_ATTEMPTS => {
                        // Another request with this command id was appended since the stream
                        // was read: read again, and answer as that command's replay or refuse.
                        info!(attempt, "command id appended meanwhile: re-reading");
                    }
                    Err(e) => return Err(command_log_status(&ctx.tournament_id, &e)),
                }
            }
            Err(Status::aborted(format!(
                "tournament {}: the stream kept changing; gave up after {MAX_ATTEMPTS} attempts",
                ctx.tournament_id
            )))
        }
        .instrument(span)
        .await
    }
}

/// The snapshot writes of one store: one at a time (so that reading the stored snapshot and
/// replacing it are not interleaved with another write of the same stream), counted so that
/// tests can wait for them.
#[derive(Default)]
struct Snapshots {
    one_at_a_time: tokio::sync::Mutex<()>,
    in_flight: AtomicU64,
    idle: tokio::sync::Notify,
}

impl Snapshots {
    fn started(&self) {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
    }

    fn finished(&self) {
        if self.in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.idle.notify_waiters();
        }
    }

    async fn settled(&self) {
        loop {
            let idle = self.idle.notified();
            if self.in_flight.load(Ordering::SeqCst) == 0 {
                return;
            }
            idle.await;
        }
    }
}

/// One snapshot to write: the fold of `stream` as it was when the write was decided.
struct SnapshotJob {
    store: CheckpointStore,
    service: String,
    stream: String,
    folded: Arc<Folded>,
    /// The version of the entry's last snapshot when the job was made.
    checkpointed: Version,
    /// At shutdown: only a stored snapshot as new as this fold will do.
    latest: bool,
}

impl SnapshotJob {
    /// Writes the snapshot unless one at least as useful is stored already; returns the
    /// version and size now stored, or `None` when nothing could be stored.
    async fn write(self) -> Option<(Version, u64)> {
        let SnapshotJob {
            store,
            service,
            stream,
            folded,
            checkpointed,
            latest,
        } = self;
        // Another service sharing the store may have written this stream's snapshot already
        // (services fold at about the same pace): take it as ours rather than write a copy, and
        // never replace it with an older one. At shutdown (`latest`) only one as new as ours
        // will do.
        if let Ok(Some(c)) = store.get(SNAPSHOT_OWNER, &stream) {
            let enough = c.version >= folded.version || (!latest && c.version > checkpointed);
            if enough {
                let size = c.snapshot.as_ref().map_or(0, Vec::len) as u64;
                return Some((c.version.min(folded.version), size));
            }
        }
        let version = folded.version;
        // Encoding a large fold is CPU work: background work, off the runtime's workers.
        let encoded = crate::background::run(move || serde_json::to_vec(&*folded)).await;
        let snapshot = match encoded {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => {
                warn!(service = %service, stream, error = %e, "cannot encode snapshot");
                return None;
            }
            Err(e) => {
                warn!(service = %service, stream, error = %e, "snapshot encoding stopped");
                return None;
            }
        };
        let size = snapshot.len() as u64;
        let c = arbiter_eventlog::Checkpoint {
            version,
            snapshot: Some(snapshot),
        };
        match store.put(SNAPSHOT_OWNER, &stream, &c).await {
            Ok(()) => {
                // A snapshot kept under the service's name by an older version is dead weight.
                if let Ok(Some(_)) = store.get(&service, &stream) {
                    let _ = store.remove(&service, &stream).await;
                }
                Some((version, size))
            }
            Err(e) => {
                warn!(service = %service, stream, error = %e, "cannot write checkpoint");
                None
            }
        }
    }
}

/// The rule that refused a command, for the metrics: the error's variant name (its `Debug`
/// form up to the fields), e.g. `RoundNotStarted`.
fn rule_name(e: &arbiter_core::tournament::DomainError) -> String {
    let debug = format!("{e:?}");
    debug
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Refuses a command id already used by another request: the same id must carry the same
/// request (see [`request_digest`]). An append without a recorded request (a service's own
/// append, or a log written before requests were bound) cannot be compared, so a request from
/// the edge is refused there too rather than answered with someone else's events; the
/// services' own appends (no binding) keep being answered as replays.
#[allow(clippy::result_large_err)]
fn check_binding(ctx: &CommandContext, rec: &CommandRecord) -> Result<(), Status> {
    let Some(b) = &ctx.request else {
        return Ok(());
    };
    if rec.request_digest.as_deref() == Some(b.digest.as_slice()) {
        return Ok(());
    }
    Err(Status::already_exists(format!(
        "header.command_id {:?} was already used in tournament {} by {} at stream version {} \
         (events {}..={}) with a different request; this {} was refused and nothing was \
         appended (use a new command id for a new request)",
        ctx.command_id,
        ctx.tournament_id,
        rec.command,
        rec.first_version,
        rec.first_version,
        rec.last_version,
        b.command,
    )))
}

/// One append delivered by a [`Feed`].
#[derive(Debug, Clone)]
pub struct Batch {
    pub position: u64,
    pub events: Vec<StoredEvent>,
}

impl Batch {
    /// The span a service handles this append in: position, stream, versions and event kinds.
    pub fn span(&self, service: &str) -> tracing::Span {
        let kinds: Vec<&'static str> = self
            .events
            .iter()
            .map(|e| {
                e.decode_event()
                    .map(|w| arbiter_eventlog::kind_name(&w))
                    .unwrap_or("Undecodable")
            })
            .collect();
        let first = self.events.first();
        info_span!(
            "events",
            service,
            position = self.position,
            stream = first.map(|e| e.stream.as_str()).unwrap_or(""),
            first_version = first.map(|e| e.version).unwrap_or(0),
            last_version = self.events.last().map(|e| e.version).unwrap_or(0),
            kinds = ?kinds,
        )
    }
}

/// Where a service that reacts to events gets them from.
#[derive(Clone)]
pub enum Feed {
    /// A subscription to every stream of the log, resumed from the position in the service's
    /// checkpoint store.
    Subscription(Arc<dyn EventLog>),
    /// A JetStream durable consumer named after the service: the server keeps the position;
    /// several processes of the same service share the work.
    Durable(JetStreamLog),
}

impl Feed {
    /// Delivers every append after this service's position to `handle`, in order, until
    /// `shutdown` turns true. A batch whose handling fails is delivered again (after a pause).
    pub async fn follow<F, Fut>(
        self,
        service: &str,
        checkpoints: Option<CheckpointStore>,
        mut handle: F,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<(), LogError>
    where
        F: FnMut(Batch) -> Fut,
        Fut: std::future::Future<Output = Result<(), String>>,
    {
        match self {
            Feed::Subscription(log) => {
                let start = match &checkpoints {
                    Some(c) => c.get(service, FEED_CHECKPOINT)?.map_or(0, |c| c.version),
                    None => 0,
                };
                if start > 0 {
                    info!(service, position = start, "feed resumed from checkpoint");
                }
                let mut events = log
                    .subscribe(SubscribeFrom::All {
                        from_position: start + 1,
                    })
                    .await?;
                let mut done = start;
                let mut saved = start;
                let mut last_save = Instant::now();
                let mut pending: Option<StoredEvent> = None;
                loop {
                    let first = match pending.take() {
                        Some(e) => e,
                        None => {
                            let next = tokio::select! {
                                _ = shutdown.changed() => None,
                                next = events.next() => Some(next),
                                _ = tokio::time::sleep(Duration::from_millis(500)), if saved < done => {
                                    save_position(&checkpoints, service, done).await;
                                    saved = done;
                                    last_save = Instant::now();
                                    continue;
                                }
                            };
                            match next {
                                None => break,
                                Some(None) => break,
                                Some(Some(e)) => e?,
                            }
                        }
                    };
                    if *shutdown.borrow() {
                        break;
                    }
                    let position = first.position;
                    let mut batch = vec![first];
                    while let Some(Some(next)) = events.next().now_or_never() {
                        let e = next?;
                        if e.position == position {
                            batch.push(e);
                        } else {
                            pending = Some(e);
                            break;
                        }
                    }
                    let batch = Batch {
                        position,
                        events: batch,
                    };
                    let span = batch.span(service);
                    let mut tries = 0u32;
                    loop {
                        match handle(batch.clone()).instrument(span.clone()).await {
                            Ok(()) => break,
                            Err(e) => {
                                tries += 1;
                                if tries >= 5 || *shutdown.borrow() {
                                    tracing::error!(service, position, error = %e, "handling failed, giving up on this append");
                                    break;
                                }
                                warn!(service, position, tries, error = %e, "handling failed, retrying");
                                tokio::time::sleep(Duration::from_millis(200 * tries as u64)).await;
                            }
                        }
                    }
                    done = position;
                    arbiter_telemetry::metrics::consumer_position(service, done, None);
                    if last_save.elapsed() >= Duration::from_millis(250) {
                        save_position(&checkpoints, service, done).await;
                        saved = done;
                        last_save = Instant::now();
                    }
                }
                if saved < done {
                    save_position(&checkpoints, service, done).await;
                }
                Ok(())
            }
            Feed::Durable(js) => {
                let name = service.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
                let consumer = js.durable_consumer(&name, None).await?;
                info!(service, consumer = %name, "following the log through a durable consumer");
                loop {
                    if *shutdown.borrow() {
                        break;
                    }
                    let batch = tokio::select! {
                        _ = shutdown.changed() => break,
                        b = consumer.batch(64, Duration::from_millis(500)) => b,
                    };
                    let mut deliveries = match batch {
                        Ok(b) => b,
                        Err(e) => {
                            warn!(service, error = %e, "fetch failed, retrying");
                            tokio::time::sleep(Duration::from_millis(250)).await;
                            continue;
                        }
                    };
                    // Each delivery is handled as it arrives; a stop waits for the one in hand.
                    while let Some(d) = tokio::select! {
                        _ = shutdown.changed() => None,
                        d = deliveries.next() => d,
                    } {
                        let d = match d {
                            Ok(d) => d,
                            Err(e) => {
                                warn!(service, error = %e, "delivery unreadable, fetching again");
                                tokio::time::sleep(Duration::from_millis(250)).await;
                                break;
                            }
                        };
                        let batch = Batch {
                            position: d.position,
                            events: d.events.clone(),
                        };
                        let span = batch.span(service);
                        d.set_span_parent(&span);
                        match handle(batch).instrument(span).await {
                            Ok(()) => {
                                // Handlers are idempotent (derived command ids, absorbing
                                // what is folded already), so a lost acknowledgement costs
                                // one repeat, never a second effect.
                                if let Err(e) = d.ack_unconfirmed().await {
                                    warn!(service, position = d.position, error = %e, "ack failed");
                                }
                                arbiter_telemetry::metrics::consumer_position(
                                    service,
                                    d.position,
                                    Some(d.pending),
                                );
                            }
                            Err(e) => {
                                warn!(service, position = d.position, error = %e, "handling failed, asking for redelivery");
                                let _ = d.nak().await;
                            }
                        }
                    }
                }
                Ok(())
            }
        }
    }
}

async fn save_position(checkpoints: &Option<CheckpointStore>, service: &str, position: u64) {
    if let Some(c) = checkpoints {
        let cp = arbiter_eventlog::Checkpoint {
            version: position,
            snapshot: None,
        };
        if let Err(e) = c.put(service, FEED_CHECKPOINT, &cp).await {
            warn!(service, error = %e, "cannot save the feed position");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::tournament::{CreateTournament, RegisterPlayer};
    use arbiter_eventlog::SledLog;

    fn create() -> Command {
        let d = "2025-09-01".parse().unwrap();
        let mut c = CreateTournament::new("Test", d, d, 5);
        c.chief_arbiter = arbiter_core::tournament::Arbiter::named("Doe, Jane");
        Command::CreateTournament(c)
    }

    #[test]
    fn tournament_ids_are_checked() {
        assert_eq!(stream_of("open-2026").unwrap(), "tournament-open-2026");
        assert_eq!(tournament_of("tournament-open-2026"), Some("open-2026"));
        assert_eq!(tournament_of("other"), None);
        for bad in ["", " ", "a.b", "a b", "ä", &"x".repeat(101)] {
            assert_eq!(
                stream_of(bad).unwrap_err().code(),
                tonic::Code::InvalidArgument,
                "{bad:?}"
            );
        }
    }

    #[tokio::test]
    async fn same_command_id_twice_appends_once() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let store = TournamentStore::new(log.clone(), "test", None);
        let ctx = CommandContext::new("t1", "c1", None, "me").unwrap();
        let first = store.execute(&ctx, |_| Ok(create())).await.unwrap();
        assert!(!first.replayed);
        let again = store.execute(&ctx, |_| Ok(create())).await.unwrap();
        assert!(again.replayed);
        assert_eq!(again.event_ids, first.event_ids);
        assert_eq!(log.last_version("tournament-t1").await.unwrap(), 1);
        // A different command id on the same stream is decided again: refused.
        let other = CommandContext::new("t1", "c2", None, "me").unwrap();
        let e = store.execute(&other, |_| Ok(create())).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::AlreadyExists);
        assert_eq!(log.last_version("tournament-t1").await.unwrap(), 1);
    }

    fn bound(ctx: CommandContext, command: &'static str, request: &[u8]) -> CommandContext {
        CommandContext {
            request: Some(RequestBinding {
                command,
                digest: arbiter_eventlog::record::payload_digest(&[request.to_vec()]),
            }),
            ..ctx
        }
    }

    fn register(name: &str) -> Command {
        Command::RegisterPlayer(RegisterPlayer::new(name, 2000))
    }

    /// The command id binding on one backend: the same id with another request is refused
    /// naming the first command, nothing appended; the same request is a replay even after the
    /// stream moved on; a fresh store (a restart) reads the binding back from the log.
    async fn command_id_binding(log: Arc<dyn EventLog>) {
        let store = TournamentStore::new(log.clone(), "test", None);
        let ctx = CommandContext::new("b", "create", None, "me").unwrap();
        store.execute(&ctx, |_| Ok(create())).await.unwrap();
        let a = bound(
            CommandContext::new("b", "reg-1", None, "me").unwrap(),
            "RegisterPlayer",
            b"Alpha",
        );
        let first = store
            .execute(&a, |_| Ok(register("Alpha, A")))
            .await
            .unwrap();
        assert_eq!((first.first_version, first.replayed), (2, false));
        let stored = log.read("tournament-b", 2).await.unwrap().remove(0);
        let origin = stored.decode_event().unwrap().origin.expect("origin");
        assert_eq!(origin.command, "RegisterPlayer");
        assert_eq!(
            origin.request_digest,
            a.request.as_ref().unwrap().digest.to_vec()
        );

        let other = bound(a.clone(), "RegisterPlayer", b"Bravo");
        let unused = || -> Result<Command, Status> { panic!("a refused request is not decided") };
        for s in [&store, &TournamentStore::new(log.clone(), "fresh", None)] {
            let e = s.execute(&other, |_| unused()).await.unwrap_err();
            assert_eq!(e.code(), tonic::Code::AlreadyExists, "{e:?}");
            for w in [
                "\"reg-1\"",
                "RegisterPlayer",
                "version 2",
                "nothing was appended",
            ] {
                assert!(e.message().contains(w), "{w}: {}", e.message());
            }
            // Another command with the id: refused naming the first one.
            let start = bound(a.clone(), "StartRound", b"1");
            let e = s.execute(&start, |_| unused()).await.unwrap_err();
            assert!(e.message().contains("by RegisterPlayer"), "{}", e.message());
        }
        assert_eq!(log.last_version("tournament-b").await.unwrap(), 2);

        // The stream moves on; the first request again is still its first outcome.
        let c = bound(
            CommandContext::new("b", "reg-2", None, "me").unwrap(),
            "RegisterPlayer",
            b"Charlie",
        );
        store
            .execute(&c, |_| Ok(register("Charlie, C")))
            .await
            .unwrap();
        for s in [&store, &TournamentStore::new(log.clone(), "fresh2", None)] {
            let again = s.execute(&a, |_| Ok(register("Alpha, A"))).await.unwrap();
            assert!(again.replayed);
            assert_eq!(again.event_ids, first.event_ids);
            assert_eq!((again.first_version, again.last_version), (2, 2));
        }
        // An append without a recorded request (here the unbound create) cannot be compared:
        // a bound request with its id is refused, an unbound one (a service's own) replays.
        let e = store
            .execute(&bound(ctx.clone(), "CreateTournament", b"x"), |_| unused())
            .await
            .unwrap_err();
        assert!(
            e.message().contains("by TournamentCreated"),
            "{}",
            e.message()
        );
        assert!(store.execute(&ctx, |_| unused()).await.unwrap().replayed);
        assert_eq!(log.last_version("tournament-b").await.unwrap(), 3);
    }

    /// A log on which, just before a chosen command id is appended, another writer (another
    /// process of the service) appends other events under the same id: the race between a
    /// store's fold and its append.
    struct Racing {
        inner: Arc<dyn EventLog>,
        before: std::sync::Mutex<Option<(String, Vec<Vec<u8>>)>>,
    }

    impl EventLog for Racing {
        fn append<'a>(
            &'a self,
            stream: &'a str,
            expected: ExpectedVersion,
            command_id: &'a str,
            actor: &'a str,
            events: Vec<Vec<u8>>,
        ) -> futures::future::BoxFuture<'a, Result<arbiter_eventlog::AppendOutcome, LogError>>
        {
            let first = {
                let mut b = self.before.lock().unwrap();
                match b.as_ref() {
                    Some((id, _)) if id == command_id => b.take(),
                    _ => None,
                }
            };
            Box::pin(async move {
                if let Some((id, payloads)) = first {
                    let o = self
                        .inner
                        .append(stream, ExpectedVersion::Any, &id, "other", payloads)
                        .await?;
                    assert!(!o.replayed);
                }
                self.inner
                    .append(stream, expected, command_id, actor, events)
                    .await
            })
        }
        fn read<'a>(
            &'a self,
            stream: &'a str,
            from_version: Version,
        ) -> futures::future::BoxFuture<'a, Result<Vec<StoredEvent>, LogError>> {
            self.inner.read(stream, from_version)
        }
        fn last_version<'a>(
            &'a self,
            stream: &'a str,
        ) -> futures::future::BoxFuture<'a, Result<Version, LogError>> {
            self.inner.last_version(stream)
        }
        fn subscribe(
            &self,
            from: SubscribeFrom,
        ) -> futures::future::BoxFuture<'_, Result<arbiter_eventlog::EventStream, LogError>>
        {
            self.inner.subscribe(from)
        }
        fn list_streams(&self) -> futures::future::BoxFuture<'_, Result<Vec<String>, LogError>> {
            self.inner.list_streams()
        }
    }

    /// Two writers race with one command id: the loser's append meets the winner's events in
    /// the log (CommandIdReused) and is answered as the command's binding says: another request
    /// is refused naming the winner, the same request is the winner's outcome.
    #[tokio::test]
    async fn a_command_id_raced_by_another_writer() {
        // The other writer's events: the same tournament, "Bravo" registered under "reg-1".
        let elsewhere: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let other = TournamentStore::new(elsewhere.clone(), "other", None);
        let create_ctx = CommandContext::new("r", "create", None, "me").unwrap();
        other.execute(&create_ctx, |_| Ok(create())).await.unwrap();
        let id = CommandContext::new("r", "reg-1", None, "me").unwrap();
        let bravo = bound(id.clone(), "RegisterPlayer", b"Bravo");
        other
            .execute(&bravo, |_| Ok(register("Bravo, B")))
            .await
            .unwrap();
        let bravo_payload = elsewhere.read("tournament-r", 2).await.unwrap()[0]
            .payload
            .clone();

        for (ours, command, refused) in [
            (
                bound(id.clone(), "RegisterPlayer", b"Alpha"),
                "Alpha, A",
                true,
            ),
            (bravo.clone(), "Bravo, B", false),
        ] {
            let inner: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
            let log = Arc::new(Racing {
                inner: inner.clone(),
                before: std::sync::Mutex::new(None),
            });
            let store = TournamentStore::new(log.clone(), "test", None);
            store.execute(&create_ctx, |_| Ok(create())).await.unwrap();
            *log.before.lock().unwrap() = Some(("reg-1".into(), vec![bravo_payload.clone()]));
            let got = store.execute(&ours, |_| Ok(register(command))).await;
            if refused {
                let e = got.unwrap_err();
                assert_eq!(e.code(), tonic::Code::AlreadyExists, "{e:?}");
                assert!(
                    e.message()
                        .contains("by RegisterPlayer at stream version 2"),
                    "{}",
                    e.message()
                );
            } else {
                let o = got.unwrap();
                assert!(o.replayed);
                assert_eq!((o.first_version, o.last_version), (2, 2));
            }
            assert_eq!(inner.last_version("tournament-r").await.unwrap(), 2);
            assert!(log.before.lock().unwrap().is_none(), "the race happened");
        }
    }

    #[tokio::test]
    async fn command_ids_are_bound_to_their_request_sled() {
        command_id_binding(Arc::new(SledLog::temporary().unwrap())).await;
    }

    #[tokio::test]
    async fn command_ids_are_bound_to_their_request_jetstream() {
        let nats = arbiter_eventlog::testing::NatsServer::start()
            .await
            .expect("nats-server (apt-get install nats-server)");
        let log = arbiter_eventlog::JetStreamLog::connect(
            &[nats.url()],
            arbiter_eventlog::JetStreamConfig::default(),
        )
        .await
        .unwrap();
        command_id_binding(Arc::new(log)).await;
    }

    #[tokio::test]
    async fn stale_expected_version_is_aborted_and_appends_nothing() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let store = TournamentStore::new(log.clone(), "test", None);
        let ctx = CommandContext::new("t", "c1", Some(0), "me").unwrap();
        store.execute(&ctx, |_| Ok(create())).await.unwrap();
        let stale = CommandContext::new("t", "c2", Some(0), "me").unwrap();
        let e = store
            .execute(&stale, |_| {
                Ok(Command::RegisterPlayer(RegisterPlayer::new("A, B", 2000)))
            })
            .await
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::Aborted);
        assert!(e.message().contains("version 1"), "{}", e.message());
        assert_eq!(log.last_version("tournament-t").await.unwrap(), 1);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_stores_racing_both_succeed_after_retrying() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let a = Arc::new(TournamentStore::new(log.clone(), "a", None));
        let b = Arc::new(TournamentStore::new(log.clone(), "b", None));
        let ctx = CommandContext::new("race", "create", None, "me").unwrap();
        a.execute(&ctx, |_| Ok(create())).await.unwrap();
        // Both stores have folded version 1; each then registers players concurrently.
        a.current("tournament-race").await.unwrap();
        b.current("tournament-race").await.unwrap();
        let mut tasks = Vec::new();
        for (i, store) in [a.clone(), b.clone()]
            .into_iter()
            .cycle()
            .take(16)
            .enumerate()
        {
            tasks.push(tokio::spawn(async move {
                let ctx = CommandContext::new("race", &format!("r{i}"), None, "me").unwrap();
                store
                    .execute(&ctx, |_| {
                        Ok(Command::RegisterPlayer(RegisterPlayer::new(
                            format!("Player, {i:02}"),
                            2000 + i as u32,
                        )))
                    })
                    .await
            }));
        }
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        assert_eq!(log.last_version("tournament-race").await.unwrap(), 17);
        let f = a.current("tournament-race").await.unwrap();
        assert_eq!(f.state.player_count(), 16);
        let retried = a.stats().conflicts_retried.load(Ordering::Relaxed)
            + b.stats().conflicts_retried.load(Ordering::Relaxed);
        assert!(retried > 0, "no conflict was seen");
    }

    /// Tasks of one process writing one stream take turns: no conflict, no retry, every
    /// command appended once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writers_in_one_process_take_turns_without_conflicts() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let store = Arc::new(TournamentStore::new(log.clone(), "one", None));
        let ctx = CommandContext::new("turns", "create", None, "me").unwrap();
        store.execute(&ctx, |_| Ok(create())).await.unwrap();
        let mut tasks = Vec::new();
        for w in 0..8u32 {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..25u32 {
                    let ctx =
                        CommandContext::new("turns", &format!("w{w}-{i}"), None, "me").unwrap();
                    let o = store
                        .execute(&ctx, |_| {
                            Ok(Command::RegisterPlayer(RegisterPlayer::new(
                                format!("Player, {w}-{i}"),
                                1500 + w * 25 + i,
                            )))
                        })
                        .await
                        .unwrap();
                    assert!(!o.replayed);
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(log.last_version("tournament-turns").await.unwrap(), 201);
        assert_eq!(store.stats().conflicts_retried.load(Ordering::Relaxed), 0);
        assert_eq!(store.stats().appended.load(Ordering::Relaxed), 201);
        let f = store.current("tournament-turns").await.unwrap();
        assert_eq!(f.state.player_count(), 200);
        assert_eq!(f.command_count(), 201);
    }

    #[tokio::test]
    async fn delivered_events_are_folded_once_and_gaps_caught_up() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let writer = TournamentStore::new(log.clone(), "writer", None);
        let reader = TournamentStore::new(log.clone(), "reader", None);
        let ctx = CommandContext::new("a", "c", None, "me").unwrap();
        writer.execute(&ctx, |_| Ok(create())).await.unwrap();
        assert_eq!(reader.current("tournament-a").await.unwrap().version, 1);
        for i in 0..3 {
            let ctx = CommandContext::new("a", &format!("p{i}"), None, "me").unwrap();
            writer
                .execute(&ctx, |_| {
                    Ok(Command::RegisterPlayer(RegisterPlayer::new(
                        format!("P, {i}"),
                        1500,
                    )))
                })
                .await
                .unwrap();
        }
        let all = log.read("tournament-a", 1).await.unwrap();
        // The next version: folded from the delivery.
        let f = reader.absorb("tournament-a", &all[1..2]).await.unwrap();
        assert_eq!((f.version, f.state.player_count()), (2, 1));
        // Already folded: skipped.
        let f = reader.absorb("tournament-a", &all[0..2]).await.unwrap();
        assert_eq!(f.version, 2);
        // A gap: caught up from the log.
        let f = reader.absorb("tournament-a", &all[3..4]).await.unwrap();
        assert_eq!((f.version, f.state.player_count()), (4, 3));
        assert_eq!(*f, Folded::from_stored(&all).unwrap());
    }

    #[tokio::test]
    async fn snapshot_round_trips_and_resumes() {
        let dir = arbiter_eventlog::testing::TempDir::new("arbiter-store-snap").unwrap();
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let checkpoints = CheckpointStore::open(dir.path().join("cp")).unwrap();
        {
            let store = TournamentStore::new(log.clone(), "svc", Some(checkpoints.clone()));
            let ctx = CommandContext::new("s", "c", None, "me").unwrap();
            store.execute(&ctx, |_| Ok(create())).await.unwrap();
            for i in 0..5 {
                let ctx = CommandContext::new("s", &format!("p{i}"), None, "me").unwrap();
                store
                    .execute(&ctx, |_| {
                        Ok(Command::RegisterPlayer(RegisterPlayer::new(
                            format!("P, {i}"),
                            1500,
                        )))
                    })
                    .await
                    .unwrap();
            }
            store.current("tournament-s").await.unwrap();
            store.checkpoint_all().await;
        }
        let c = checkpoints
            .get(SNAPSHOT_OWNER, "tournament-s")
            .unwrap()
            .unwrap();
        assert_eq!(c.version, 6);
        // With a minimum, a shorter stream is folded again rather than snapshotted.
        {
            let store = TournamentStore::new(log.clone(), "svc", Some(checkpoints.clone()))
                .with_snapshot_min_events(7);
            let ctx = CommandContext::new("short", "c", None, "me").unwrap();
            store.execute(&ctx, |_| Ok(create())).await.unwrap();
            store.checkpoint_all().await;
        }
        assert_eq!(
            checkpoints.get(SNAPSHOT_OWNER, "tournament-short").unwrap(),
            None
        );
        let snap: Folded = serde_json::from_slice(c.snapshot.as_deref().unwrap()).unwrap();
        let fresh = Folded::from_stored(&log.read("tournament-s", 1).await.unwrap()).unwrap();
        assert_eq!(snap, fresh);
        let store = TournamentStore::new(log.clone(), "svc", Some(checkpoints));
        let f = store.current("tournament-s").await.unwrap();
        assert_eq!(*f, fresh);
        assert_eq!(
            store
                .stats()
                .resumed_from_checkpoint
                .load(Ordering::Relaxed),
            1
        );
    }
}

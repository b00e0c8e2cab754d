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

mod context;
mod feed;
mod snapshots;

pub use context::*;
pub use feed::*;
use snapshots::*;

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
        self.damaged
            .lock()
            .expect("damaged lock")
            .get(stream)
            .cloned()
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
                    return Err(crate::status::version_conflict(
                        &ctx.tournament_id,
                        expected,
                        folded.version,
                    ));
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
                            return Err(crate::status::version_conflict(
                                &ctx.tournament_id,
                                expected,
                                actual,
                            ));
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

/// The rule that refused a command, for the metrics: the error's variant name (its `Debug`
/// form up to the fields), e.g. `RoundNotStarted`.
fn rule_name(e: &arbiter_core::tournament::DomainError) -> String {
    crate::status::variant_name(e)
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

#[cfg(test)]
mod tests;

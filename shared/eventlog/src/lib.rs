//! The append-only, hash-chained event log of arbiter.
//!
//! Every fact about a tournament is an event in one *stream* (one stream per tournament). Events
//! are appended in batches by commands; each stored event carries its version in the stream
//! (1, 2, 3, ... without gaps), a UUID v7 event id, the id of the command that appended it, the
//! actor, the append time, its payload (an encoded `arbiter.events.v1.Event`), the hash of the
//! previous event of the stream and its own hash (see [`record`]).
//!
//! - [`EventLog`] is the interface services use. Appends are idempotent by command id and
//!   guarded by optimistic concurrency ([`ExpectedVersion`]).
//! - [`SledLog`] is the embedded backend (one process, a data folder).
//! - [`JetStreamLog`] is the distributed backend (NATS JetStream as the log of record).
//! - [`verify_chain`] audits a sequence of stored events; [`signing`] signs chain heads with
//!   the deployment's Ed25519 key and checks a log against a published signed head.
//! - [`CheckpointStore`] keeps each service's checkpoints and snapshots in its own sled store.
//! - [`encode_events`], [`StoredEvent::decode_event`] and [`StoredEvent::to_envelope`] connect
//!   the opaque payloads with the event schema of `arbiter-proto`.
//! - `testing` (cargo feature `test-fixtures`) starts real `nats-server` processes for tests.

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use uuid::Uuid;

mod checkpoint;
mod envelope;
mod heads;
mod jetstream;
pub mod record;
pub mod signing;
mod sled_config;
mod sled_log;
#[cfg(feature = "test-fixtures")]
pub mod testing;

pub use checkpoint::{Checkpoint, CheckpointStore};
pub use envelope::{encode_events, envelope_to_stored, kind_name};
pub use jetstream::{Delivery, DurableConsumer, JetStreamConfig, JetStreamLog};
pub use record::{BreakKind, ChainBreak, verify_chain};
pub use signing::{HeadMismatch, HeadSigner, SignedHead};
pub use sled_log::SledLog;

/// A version within a stream. The first event of a stream has version 1; version 0 means
/// "the stream has no events".
pub type Version = u64;

/// A SHA-256 digest.
pub type Hash = [u8; 32];

/// The `previous_hash` of the first event of every stream.
pub const ZERO_HASH: Hash = [0; 32];

/// The longest stream name accepted.
pub const MAX_STREAM_NAME: usize = 128;

/// One event as stored in the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    pub stream: String,
    pub version: Version,
    pub event_id: Uuid,
    pub command_id: String,
    pub actor: String,
    /// Milliseconds since the Unix epoch (UTC), taken when the event was appended.
    pub time_unix_ms: i64,
    /// The encoded event (an `arbiter.events.v1.Event`); opaque to the log.
    pub payload: Vec<u8>,
    pub prev_hash: Hash,
    pub hash: Hash,
    /// Where the append that wrote this event sits in the order of all appends of the log (all
    /// streams): every event of one append shares it, and it grows with each append. For sled it
    /// is the commit number, for JetStream the message's stream sequence. It is not part of the
    /// hash chain (a copy of the log into another backend gets other positions).
    pub position: u64,
}

/// The optimistic-concurrency condition of an append.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExpectedVersion {
    /// Append whatever the stream's version is.
    Any,
    /// Append only if the stream's current version is exactly this (0 = the stream is empty).
    Exact(Version),
}

impl From<Version> for ExpectedVersion {
    fn from(v: Version) -> ExpectedVersion {
        ExpectedVersion::Exact(v)
    }
}

impl From<Option<Version>> for ExpectedVersion {
    fn from(v: Option<Version>) -> ExpectedVersion {
        v.map_or(ExpectedVersion::Any, ExpectedVersion::Exact)
    }
}

/// What an append did. Appending the same command id again returns the first outcome with
/// `replayed = true` (and appends nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendOutcome {
    pub stream: String,
    pub first_version: Version,
    pub last_version: Version,
    pub event_ids: Vec<Uuid>,
    /// The hash of the last event appended.
    pub last_hash: Hash,
    /// See [`StoredEvent::position`].
    pub position: u64,
    /// The command id had been appended before; nothing new was written.
    pub replayed: bool,
}

/// Where a subscription starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubscribeFrom {
    /// The events of one stream with `version >= from_version`, then every new one.
    Stream {
        stream: String,
        from_version: Version,
    },
    /// The events of every stream written by appends at `position >= from_position` (0 or 1 =
    /// from the beginning), in append order, then every new one. All events of one append are
    /// delivered together.
    All { from_position: u64 },
}

/// Errors of the event log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// Optimistic concurrency failed: the stream is at `actual`, not `expected`. Re-read and
    /// decide again.
    #[error("version conflict: expected version {expected}, stream is at {actual}")]
    Conflict { expected: Version, actual: Version },
    /// The command id was already used in this stream for different events.
    #[error("command id {command_id:?} was already used in stream {stream:?} for other events")]
    CommandIdReused { stream: String, command_id: String },
    #[error("invalid stream name {stream:?}: {reason}")]
    InvalidStream { stream: String, reason: String },
    #[error("invalid append: {0}")]
    InvalidAppend(String),
    #[error("append too large: {size} bytes, the limit is {limit}")]
    TooLarge { size: usize, limit: usize },
    /// A stored event could not be decoded or failed its integrity check.
    #[error("the event at version {version} of stream {stream:?} is damaged: {detail}")]
    Corrupt {
        stream: String,
        version: Version,
        detail: String,
    },
    /// The embedded store failed (I/O, sled).
    #[error("storage error: {0}")]
    Storage(String),
    /// The NATS connection or JetStream failed, and retrying did not help in time.
    #[error("JetStream error: {0}")]
    Nats(String),
}

/// A stream of stored events (a subscription). It ends only on an error or when the log closes.
pub type EventStream = BoxStream<'static, Result<StoredEvent, LogError>>;

/// The event log: append-only streams with idempotent, optimistically concurrent appends.
///
/// The methods return boxed futures so that `dyn EventLog` works (services pick the backend at
/// start-up).
pub trait EventLog: Send + Sync + 'static {
    /// Appends `events` (encoded payloads, at least one) to `stream` as one atomic batch.
    ///
    /// - If `command_id` was appended to this stream before, nothing is written and the first
    ///   outcome is returned with `replayed = true` (whatever `expected` says). The same command
    ///   id with different payloads is [`LogError::CommandIdReused`].
    /// - Otherwise, if `expected` is `Exact(v)` and the stream is not at `v`, the result is
    ///   [`LogError::Conflict`].
    /// - When it returns `Ok`, the events are durable.
    fn append<'a>(
        &'a self,
        stream: &'a str,
        expected: ExpectedVersion,
        command_id: &'a str,
        actor: &'a str,
        events: Vec<Vec<u8>>,
    ) -> BoxFuture<'a, Result<AppendOutcome, LogError>>;

    /// The events of `stream` with `version >= from_version`, in order (empty for an unknown
    /// stream). Each event's hash and its link to the previous one are checked; a failure is
    /// [`LogError::Corrupt`] naming the stream and version.
    fn read<'a>(
        &'a self,
        stream: &'a str,
        from_version: Version,
    ) -> BoxFuture<'a, Result<Vec<StoredEvent>, LogError>>;

    /// The current version of `stream` (0 when it has no events).
    fn last_version<'a>(&'a self, stream: &'a str) -> BoxFuture<'a, Result<Version, LogError>>;

    /// Stored events from a starting point, then new ones as they are appended.
    fn subscribe(&self, from: SubscribeFrom) -> BoxFuture<'_, Result<EventStream, LogError>>;

    /// The names of all streams with at least one event, sorted.
    fn list_streams(&self) -> BoxFuture<'_, Result<Vec<String>, LogError>>;
}

/// Checks a stream name: 1 to [`MAX_STREAM_NAME`] characters of `A-Z a-z 0-9 _ -`.
///
/// The same names are valid in every backend (a JetStream subject token cannot hold `.`, `*`,
/// `>` or spaces).
pub fn validate_stream_name(stream: &str) -> Result<(), LogError> {
    let bad = |reason: &str| {
        Err(LogError::InvalidStream {
            stream: stream.to_string(),
            reason: reason.to_string(),
        })
    };
    if stream.is_empty() {
        return bad("empty");
    }
    if stream.len() > MAX_STREAM_NAME {
        return bad("longer than 128 bytes");
    }
    if let Some(c) = stream
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return bad(&format!(
            "character {c:?} not allowed (use A-Z a-z 0-9 _ -)"
        ));
    }
    Ok(())
}

pub(crate) fn validate_append(
    stream: &str,
    command_id: &str,
    events: &[Vec<u8>],
) -> Result<(), LogError> {
    validate_stream_name(stream)?;
    if command_id.is_empty() {
        return Err(LogError::InvalidAppend("empty command id".into()));
    }
    if command_id.len() > 256 {
        return Err(LogError::InvalidAppend(
            "command id longer than 256 bytes".into(),
        ));
    }
    if command_id.chars().any(char::is_control) {
        return Err(LogError::InvalidAppend(
            "control character in command id".into(),
        ));
    }
    if events.is_empty() {
        return Err(LogError::InvalidAppend("no events".into()));
    }
    Ok(())
}

pub(crate) fn now_unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_names() {
        assert!(validate_stream_name("open-2026_A").is_ok());
        for bad in ["", "a.b", "a b", "a*", "a>", "ä", &"x".repeat(129)] {
            assert!(
                matches!(
                    validate_stream_name(bad),
                    Err(LogError::InvalidStream { .. })
                ),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn expected_version_conversions() {
        assert_eq!(ExpectedVersion::from(3), ExpectedVersion::Exact(3));
        assert_eq!(ExpectedVersion::from(None), ExpectedVersion::Any);
        assert_eq!(ExpectedVersion::from(Some(0)), ExpectedVersion::Exact(0));
    }

    #[test]
    fn append_validation() {
        assert!(validate_append("s", "c", &[vec![]]).is_ok());
        assert!(matches!(
            validate_append("s", "", &[vec![]]),
            Err(LogError::InvalidAppend(_))
        ));
        assert!(matches!(
            validate_append("s", "c", &[]),
            Err(LogError::InvalidAppend(_))
        ));
    }
}

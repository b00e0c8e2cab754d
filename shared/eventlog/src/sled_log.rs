//! The embedded backend: a sled database in a data folder.
//!
//! Layout (one sled database):
//! - tree `s/<stream>`: key = version (u64 big-endian), value = position (u64 BE) + record;
//! - tree `c/<stream>`: key = command id, value = first version, last version, position
//!   (u64 BE each) + the SHA-256 digest of the command's payloads;
//! - tree `a`: key = position (u64 BE), value = first version, last version (u64 BE each) +
//!   stream name: the order of all appends, for subscriptions to every stream.
//!
//! All writes go through one writer thread per log (see [`Writer`]), which takes appends from
//! a channel, applies each as one sled transaction over the three trees, and makes the whole
//! group durable with one blocking `Db::flush()` before answering any of them (group commit):
//! `append` returns only once its events are on disk. No `flush_async` anywhere: concurrent
//! `flush_async` calls deadlock in sled 0.34 (spacejam/sled#1308, #1241), which hung the
//! server under load. Versions and positions are derived from the last key of their tree, never
//! from `Db::generate_id` (which jumps after a restart).
//!
//! Readers see only durable events: sled shows an insert at once, so reads, `last_version`,
//! `list_streams` and subscriptions are bounded by the durable head of each stream and the
//! durable position, which the writer advances after the flush. A failed flush fails every
//! append of its group, none of it becomes visible, and later appends are refused (sled's state
//! is unknown after an I/O error; a restart recovers what is on disk).
//!
//! After the flush the group's new stream heads are recorded in the head journal (see
//! `heads.rs`), with one sync for the group. On
//! open, a stream that no longer reaches its recorded head (sled drops everything after a
//! damaged log entry as if it were a torn write) is marked damaged: reading or appending to it
//! fails with [`LogError::Corrupt`] naming the stream and the first missing version.

use crate::heads::{HeadJournal, HeadRecord};
use crate::record::{self, check_link, decode_record, encode_record, payload_digest};
use crate::{
    AppendOutcome, EventLog, EventStream, ExpectedVersion, Hash, LogError, StoredEvent,
    SubscribeFrom, Version, ZERO_HASH, validate_append, validate_stream_name,
};
use futures::future::BoxFuture;
use sled::transaction::{ConflictableTransactionError, TransactionError};
use sled::{Transactional, Tree};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use tokio::sync::{mpsc, oneshot, watch};

pub(crate) const EVENTS_PREFIX: &str = "s/";
const COMMANDS_PREFIX: &str = "c/";
const ALL_TREE: &str = "a";
/// Appends read per step by an all-streams subscription.
const SUBSCRIPTION_CHUNK: usize = 256;
/// The most requests the writer applies before one flush (bounds the wait of the first).
const MAX_GROUP: usize = 1024;

/// The sled-backed [`EventLog`]. Cheap to clone (shared state).
#[derive(Clone)]
pub struct SledLog {
    inner: Arc<Inner>,
}

struct Inner {
    db: sled::Db,
    all: Tree,
    shared: Arc<Shared>,
    /// Streams found damaged on open, or by a later read: reading or appending to them fails
    /// with the damage found.
    damage: RwLock<BTreeMap<String, LogError>>,
    /// The head journal could not be read: appends are refused.
    journal_damage: Option<String>,
    /// To the writer thread; `None` once closed.
    requests: Option<mpsc::UnboundedSender<Request>>,
    writer: Option<std::thread::JoinHandle<()>>,
    /// Last, so it drops after every sled handle above: waits for sled to release the folder
    /// (`None` for a temporary log, whose folder sled removes).
    _released: Option<crate::sled_config::Released>,
}

impl Drop for Inner {
    /// Closes the channel and waits for the writer to drain it and flush, so the sled files are
    /// released (and durable) when the last clone of the log is gone.
    fn drop(&mut self) {
        self.requests.take();
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }
}

/// What the writer publishes for readers.
struct Shared {
    /// The durable head version of each stream with events.
    durable: RwLock<HashMap<String, Version>>,
    /// The position of the last durable append, for subscriptions.
    notify: watch::Sender<u64>,
}

enum Request {
    Append {
        stream: String,
        expected: ExpectedVersion,
        command_id: String,
        actor: String,
        payloads: Vec<Vec<u8>>,
        digest: Hash,
        reply: oneshot::Sender<Result<AppendOutcome, LogError>>,
    },
    Flush(oneshot::Sender<Result<(), LogError>>),
}

/// A stored event sled cannot give back: damage on disk in plain words (sled's own text is for
/// its developers), anything else a storage failure.
fn unreadable(stream: &str, version: Version, e: sled::Error) -> LogError {
    match e {
        sled::Error::Corruption { .. } => LogError::Corrupt {
            stream: stream.to_string(),
            version,
            detail: format!("it cannot be read back: {DAMAGED_ON_DISK}"),
        },
        other => storage(other),
    }
}

/// A storage failure. sled's checksum failure (`Error::Corruption`, wherever it surfaces: at
/// open, in an index, in a stream) is said in plain words: its own text names internal file
/// offsets and a backtrace placeholder, useless to whoever runs the server.
fn storage(e: impl std::fmt::Display) -> LogError {
    let text = e.to_string();
    if text.starts_with("Read corrupted data") {
        return LogError::Storage(DAMAGED_ON_DISK.into());
    }
    LogError::Storage(text)
}

/// What sled's checksum failure means, for users.
const DAMAGED_ON_DISK: &str = "corrupt data on disk: the storage's checksum of what it wrote \
     does not match (the files were damaged or changed since)";

fn be(v: u64) -> [u8; 8] {
    v.to_be_bytes()
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    b.get(at..at + 8)
        .map(|s| u64::from_be_bytes(s.try_into().expect("8 bytes")))
}

struct CommandEntry {
    first: Version,
    last: Version,
    position: u64,
    digest: Hash,
}

impl CommandEntry {
    fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(56);
        v.extend_from_slice(&be(self.first));
        v.extend_from_slice(&be(self.last));
        v.extend_from_slice(&be(self.position));
        v.extend_from_slice(&self.digest);
        v
    }
    fn decode(b: &[u8]) -> Option<CommandEntry> {
        if b.len() != 56 {
            return None;
        }
        Some(CommandEntry {
            first: u64_at(b, 0)?,
            last: u64_at(b, 8)?,
            position: u64_at(b, 16)?,
            digest: b[24..56].try_into().ok()?,
        })
    }
}

impl SledLog {
    /// Opens (or creates) the log in the folder `path`, checking every stream against the
    /// head journal (see [`SledLog::damaged_streams`]).
    pub fn open(path: impl AsRef<Path>) -> Result<SledLog, LogError> {
        let path = path.as_ref();
        std::fs::create_dir_all(path).map_err(storage)?;
        let db = crate::sled_config::config(path, crate::sled_config::LOG)
            .open()
            .map_err(storage)?;
        SledLog::from_db(db, path, Some(crate::sled_config::Released::new(path)))
    }

    /// A log in a fresh temporary folder that is removed when the log is dropped (for tests).
    pub fn temporary() -> Result<SledLog, LogError> {
        let path = temp_path();
        std::fs::create_dir_all(&path).map_err(storage)?;
        let db = crate::sled_config::temporary(crate::sled_config::LOG)
            .path(&path)
            .open()
            .map_err(storage)?;
        SledLog::from_db(db, &path, None)
    }

    fn from_db(
        db: sled::Db,
        path: &Path,
        released: Option<crate::sled_config::Released>,
    ) -> Result<SledLog, LogError> {
        let all = db.open_tree(ALL_TREE).map_err(storage)?;
        let last_position = match all.last().map_err(storage)? {
            Some((k, _)) => u64_at(&k, 0).ok_or_else(|| storage("bad key in the append index"))?,
            None => 0,
        };
        let (notify, _) = watch::channel(last_position);
        let mut durable = HashMap::new();
        for name in db.tree_names() {
            let Some(stream) = std::str::from_utf8(&name)
                .ok()
                .and_then(|n| n.strip_prefix(EVENTS_PREFIX))
            else {
                continue;
            };
            let tree = db.open_tree(&name).map_err(storage)?;
            if let Some((k, _)) = tree.last().map_err(storage)?
                && let Ok(v) = Self::key_version(stream, &k)
            {
                durable.insert(stream.to_string(), v);
            }
        }
        let (mut journal, heads) = HeadJournal::open(path, durable.is_empty()).map_err(storage)?;
        let (damage, journal_damage) = match heads {
            Ok(heads) if heads.is_empty() && !durable.is_empty() => {
                let why = format!(
                    "head journal {}: missing or empty, but the log holds {} stream(s): it was \
                     removed or emptied since they were written",
                    path.join(crate::heads::FILE_NAME).display(),
                    durable.len()
                );
                tracing::error!("{why}; appends are refused");
                (BTreeMap::new(), Some(why))
            }
            Ok(heads)
                if last_position
                    .saturating_sub(heads.values().map(|h| h.position).max().unwrap_or(0))
                    > MAX_GROUP as u64 =>
            {
                let recorded_to = heads.values().map(|h| h.position).max().unwrap_or(0);
                let why = format!(
                    "head journal {}: it records the appends up to position {recorded_to}, but the \
                     log holds {} more; a stop leaves at most one group of {MAX_GROUP} unrecorded \
                     (the journal was truncated or replaced by an older one)",
                    path.join(crate::heads::FILE_NAME).display(),
                    last_position - recorded_to
                );
                tracing::error!("{why}; appends are refused");
                (BTreeMap::new(), Some(why))
            }
            Ok(heads) => {
                let mut damage = check_heads(&db, &heads)?;
                for (stream, e) in check_unrecorded(&db, &durable, &heads)? {
                    damage.entry(stream).or_insert(e);
                }
                // What a stop left durable but unrecorded (the last group's appends, flushed by
                // sled before the journal was written) is recorded now, before anything else is
                // appended: otherwise later groups would record positions above it and the
                // next start would read the gap as a truncated journal.
                let tail = unrecorded_tail(&db, &durable, &heads, &damage)?;
                if !tail.is_empty() {
                    journal
                        .record_all(tail.iter().map(|(s, h)| (s.as_str(), h)))
                        .map_err(storage)?;
                }
                (damage, None)
            }
            Err(why) => {
                let why = format!(
                    "head journal {}: {why}",
                    path.join(crate::heads::FILE_NAME).display()
                );
                tracing::error!("{why}; appends are refused");
                (BTreeMap::new(), Some(why))
            }
        };
        for e in damage.values() {
            tracing::error!("{e}");
        }
        let shared = Arc::new(Shared {
            durable: RwLock::new(durable),
            notify,
        });
        let (requests, inbox) = mpsc::unbounded_channel();
        let writer = Writer {
            db: db.clone(),
            all: all.clone(),
            journal,
            shared: shared.clone(),
            trees: HashMap::new(),
            last_position,
            failed: None,
        };
        let writer = std::thread::Builder::new()
            .name("arbiter-log-writer".into())
            .spawn(move || writer.run(inbox))
            .map_err(storage)?;
        Ok(SledLog {
            inner: Arc::new(Inner {
                db,
                all,
                shared,
                damage: RwLock::new(damage),
                journal_damage,
                requests: Some(requests),
                writer: Some(writer),
                _released: released,
            }),
        })
    }

    /// Problems found when the log was opened: streams that no longer reach the version and
    /// hash recorded when they were written, and a damaged head journal. Empty when all is well.
    pub fn damaged_streams(&self) -> Vec<LogError> {
        let mut out: Vec<LogError> = self
            .inner
            .damage
            .read()
            .expect("damage lock")
            .values()
            .cloned()
            .collect();
        if let Some(why) = &self.inner.journal_damage {
            out.push(LogError::Storage(why.clone()));
        }
        out
    }

    fn check_damage(&self, stream: &str) -> Result<(), LogError> {
        match self.inner.damage.read().expect("damage lock").get(stream) {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// Remembers damage a read found: from then on the stream is refused as if found on open
    /// (the first damage found is kept).
    fn note_damage<T>(&self, r: Result<T, LogError>) -> Result<T, LogError> {
        if let Err(e @ LogError::Corrupt { stream, .. }) = &r {
            tracing::error!("{e}; appends to the stream are refused");
            self.inner
                .damage
                .write()
                .expect("damage lock")
                .entry(stream.clone())
                .or_insert_with(|| e.clone());
        }
        r
    }

    /// Waits until everything queued before it is durable (appends already are when they
    /// return; dropping the last clone drains the queue and flushes too).
    pub async fn flush(&self) -> Result<(), LogError> {
        let (reply, answer) = oneshot::channel();
        self.send(Request::Flush(reply))?;
        answer
            .await
            .map_err(|_| storage("the log's writer stopped before answering"))?
    }

    /// The durable head version of a stream (0: no durable events).
    fn durable_version(&self, stream: &str) -> Version {
        self.inner
            .shared
            .durable
            .read()
            .expect("durable heads lock")
            .get(stream)
            .copied()
            .unwrap_or(0)
    }

    fn events_tree(&self, stream: &str) -> Result<Tree, LogError> {
        self.inner
            .db
            .open_tree(format!("{EVENTS_PREFIX}{stream}"))
            .map_err(storage)
    }

    /// Decodes and checks the stored value at `version` of `stream`.
    fn decode_value(stream: &str, version: Version, value: &[u8]) -> Result<StoredEvent, LogError> {
        let corrupt = |detail: String| LogError::Corrupt {
            stream: stream.to_string(),
            version,
            detail,
        };
        let position =
            u64_at(value, 0).ok_or_else(|| corrupt("value shorter than 8 bytes".into()))?;
        let e = decode_record(&value[8..], position).map_err(|e| corrupt(e.0))?;
        if e.version != version {
            return Err(corrupt(format!("record says version {}", e.version)));
        }
        if e.stream != stream {
            return Err(corrupt(format!("record says stream {:?}", e.stream)));
        }
        Ok(e)
    }

    fn key_version(stream: &str, key: &[u8]) -> Result<Version, LogError> {
        match key.try_into() {
            Ok(k) => Ok(u64::from_be_bytes(k)),
            Err(_) => Err(LogError::Corrupt {
                stream: stream.to_string(),
                version: 0,
                detail: format!("key of {} bytes in the events tree", key.len()),
            }),
        }
    }

    /// The last version and hash of a stream.
    fn head(stream: &str, tree: &Tree) -> Result<(Version, Hash), LogError> {
        match tree.last().map_err(|e| unreadable(stream, 0, e))? {
            None => Ok((0, ZERO_HASH)),
            Some((k, v)) => {
                let version = Self::key_version(stream, &k)?;
                let e = Self::decode_value(stream, version, &v)?;
                Ok((version, e.hash))
            }
        }
    }

    /// Durable events `from..=to` of a stream (to = `None`: to the durable end), each checked
    /// against its hash and its predecessor.
    fn read_range(
        &self,
        stream: &str,
        from: Version,
        to: Option<Version>,
    ) -> Result<Vec<StoredEvent>, LogError> {
        self.check_damage(stream)?;
        let durable = self.durable_version(stream);
        let to = to.map_or(durable, |t| t.min(durable));
        if to == 0 || from.max(1) > to {
            return Ok(Vec::new());
        }
        let read = Self::read_tree(stream, &self.events_tree(stream)?, from, Some(to));
        self.note_damage(read)
    }

    /// Events `from..=to` of a stream's tree (durable or not), each checked against its hash
    /// and its predecessor.
    fn read_tree(
        stream: &str,
        tree: &Tree,
        from: Version,
        to: Option<Version>,
    ) -> Result<Vec<StoredEvent>, LogError> {
        let from = from.max(1);
        let mut prev = if from > 1 {
            match tree
                .get(be(from - 1))
                .map_err(|e| unreadable(stream, from - 1, e))?
            {
                Some(v) => Some((from - 1, Self::decode_value(stream, from - 1, &v)?.hash)),
                None => None,
            }
        } else {
            None
        };
        let range = match to {
            Some(to) => tree.range(be(from)..=be(to)),
            None => tree.range(be(from)..),
        };
        let mut out = Vec::new();
        for item in range {
            let next = prev.map_or(from, |(v, _)| v + 1);
            let (k, v) = item.map_err(|e| unreadable(stream, next, e))?;
            let version = Self::key_version(stream, &k)?;
            let e = Self::decode_value(stream, version, &v)?;
            if prev.is_none() && version != from {
                return Err(LogError::Corrupt {
                    stream: stream.to_string(),
                    version,
                    detail: format!("expected version {from} first"),
                });
            }
            check_link(&e, prev).map_err(|kind| LogError::Corrupt {
                stream: stream.to_string(),
                version,
                detail: record::ChainBreak {
                    stream: stream.to_string(),
                    version,
                    kind,
                }
                .to_string(),
            })?;
            prev = Some((version, e.hash));
            out.push(e);
        }
        Ok(out)
    }

    fn replayed(
        stream: &str,
        events_tree: &Tree,
        entry: CommandEntry,
        digest: Hash,
        command_id: &str,
    ) -> Result<AppendOutcome, LogError> {
        if entry.digest != digest {
            return Err(LogError::CommandIdReused {
                stream: stream.to_string(),
                command_id: command_id.to_string(),
            });
        }
        let events = Self::read_tree(stream, events_tree, entry.first, Some(entry.last))?;
        let last = events.last().ok_or_else(|| LogError::Corrupt {
            stream: stream.to_string(),
            version: entry.first,
            detail: format!("command {command_id:?} indexed but its events are missing"),
        })?;
        Ok(AppendOutcome {
            stream: stream.to_string(),
            first_version: entry.first,
            last_version: entry.last,
            event_ids: events.iter().map(|e| e.event_id).collect(),
            last_hash: last.hash,
            position: entry.position,
            replayed: true,
        })
    }

    async fn append_impl(
        &self,
        stream: &str,
        expected: ExpectedVersion,
        command_id: &str,
        actor: &str,
        payloads: Vec<Vec<u8>>,
    ) -> Result<AppendOutcome, LogError> {
        validate_append(stream, command_id, &payloads)?;
        self.check_damage(stream)?;
        if let Some(why) = &self.inner.journal_damage {
            return Err(LogError::Storage(why.clone()));
        }
        let digest = payload_digest(&payloads);
        let (reply, answer) = oneshot::channel();
        self.send(Request::Append {
            stream: stream.to_string(),
            expected,
            command_id: command_id.to_string(),
            actor: actor.to_string(),
            payloads,
            digest,
            reply,
        })?;
        answer
            .await
            .map_err(|_| storage("the log's writer stopped before answering"))?
    }

    fn send(&self, request: Request) -> Result<(), LogError> {
        self.inner
            .requests
            .as_ref()
            .ok_or_else(|| storage("the log is closed"))?
            .send(request)
            .map_err(|_| storage("the log's writer has stopped"))
    }

    /// Reads up to `max` appends at positions `>= from` of every stream.
    fn read_positions(&self, from: u64, max: usize) -> Result<Vec<StoredEvent>, LogError> {
        let mut out = Vec::new();
        // The durable position is read before the streams' durable heads, which the writer
        // advances first: every append up to it is readable.
        let durable = *self.inner.shared.notify.borrow();
        if from.max(1) > durable {
            return Ok(out);
        }
        for item in self
            .inner
            .all
            .range(be(from.max(1))..=be(durable))
            .take(max)
        {
            let (k, v) = item.map_err(storage)?;
            let position = u64_at(&k, 0).ok_or_else(|| storage("bad key in the append index"))?;
            let (first, last) = match (u64_at(&v, 0), u64_at(&v, 8)) {
                (Some(f), Some(l)) if v.len() >= 16 => (f, l),
                _ => {
                    return Err(storage(format!(
                        "bad append index entry at position {position}"
                    )));
                }
            };
            let stream = std::str::from_utf8(&v[16..])
                .map_err(|_| storage(format!("bad stream name at position {position}")))?;
            let events = match self.read_range(stream, first, Some(last)) {
                // A damaged stream is refused from then on (see `note_damage`); the other
                // streams' appends are still delivered.
                Err(LogError::Corrupt { .. }) => continue,
                other => other?,
            };
            if events.len() as u64 != last - first + 1 {
                return Err(LogError::Corrupt {
                    stream: stream.to_string(),
                    version: first,
                    detail: format!(
                        "append at position {position} lists versions {first}..={last}, found {}",
                        events.len()
                    ),
                });
            }
            out.extend(events);
        }
        Ok(out)
    }

    fn list_streams_sync(&self) -> Result<Vec<String>, LogError> {
        let mut out: Vec<String> = self
            .inner
            .shared
            .durable
            .read()
            .expect("durable heads lock")
            .iter()
            .filter(|(_, v)| **v > 0)
            .map(|(s, _)| s.clone())
            .collect();
        out.extend(
            self.inner
                .damage
                .read()
                .expect("damage lock")
                .keys()
                .cloned(),
        );
        out.sort();
        out.dedup();
        Ok(out)
    }
}

fn temp_path() -> PathBuf {
    use std::sync::atomic::AtomicU64;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    std::env::temp_dir().join(format!(
        "arbiter-sled-{}-{}-{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ))
}

/// Finds streams with events the journal does not record although appends after them are
/// recorded (a journal truncated, or replaced by an older one). The journal is written after
/// each group of appends, so a crash leaves unrecorded only the events of appends after the
/// last recorded one: their positions are above every recorded position.
fn check_unrecorded(
    db: &sled::Db,
    durable: &HashMap<String, Version>,
    heads: &BTreeMap<String, HeadRecord>,
) -> Result<BTreeMap<String, LogError>, LogError> {
    let recorded_to = heads.values().map(|h| h.position).max().unwrap_or(0);
    let mut damage = BTreeMap::new();
    for (stream, &last) in durable {
        let recorded = heads.get(stream).map_or(0, |h| h.version);
        if last <= recorded {
            continue;
        }
        let tree = db
            .open_tree(format!("{EVENTS_PREFIX}{stream}"))
            .map_err(storage)?;
        let Some(value) = tree.get(be(recorded + 1)).map_err(storage)? else {
            continue;
        };
        let position = u64_at(&value, 0).unwrap_or(0);
        if position <= recorded_to {
            damage.insert(
                stream.clone(),
                LogError::Corrupt {
                    stream: stream.clone(),
                    version: recorded + 1,
                    detail: format!(
                        "the head journal does not record versions {}..={last}, written before \
                         appends it does record (the journal was truncated or replaced)",
                        recorded + 1
                    ),
                },
            );
        }
    }
    Ok(damage)
}

/// The heads of the streams whose durable events go beyond what the journal records (and that
/// are not damaged): the appends a stop left unrecorded.
fn unrecorded_tail(
    db: &sled::Db,
    durable: &HashMap<String, Version>,
    heads: &BTreeMap<String, HeadRecord>,
    damage: &BTreeMap<String, LogError>,
) -> Result<BTreeMap<String, HeadRecord>, LogError> {
    let mut out = BTreeMap::new();
    for (stream, &last) in durable {
        if damage.contains_key(stream) || last <= heads.get(stream).map_or(0, |h| h.version) {
            continue;
        }
        let tree = db
            .open_tree(format!("{EVENTS_PREFIX}{stream}"))
            .map_err(storage)?;
        let Some((_, value)) = tree.last().map_err(storage)? else {
            continue;
        };
        // An event that does not decode is damage, which a read reports where it is.
        let Ok(event) = SledLog::decode_value(stream, last, &value) else {
            continue;
        };
        let position = u64_at(&value, 0).unwrap_or(0);
        out.insert(
            stream.clone(),
            HeadRecord {
                version: last,
                hash: event.hash,
                position,
            },
        );
    }
    Ok(out)
}

/// Compares each stream with the head the journal recorded for it.
fn check_heads(
    db: &sled::Db,
    heads: &BTreeMap<String, HeadRecord>,
) -> Result<BTreeMap<String, LogError>, LogError> {
    let mut damage = BTreeMap::new();
    for (stream, rec) in heads {
        if stream == crate::heads::GENESIS {
            continue;
        }
        let tree = db
            .open_tree(format!("{EVENTS_PREFIX}{stream}"))
            .map_err(storage)?;
        let problem = match SledLog::head(stream, &tree) {
            Err(e) => Some(e),
            Ok((last, _)) if last < rec.version => Some(LogError::Corrupt {
                stream: stream.clone(),
                version: last + 1,
                detail: format!(
                    "the store ends at version {last}, but versions up to {} were written \
                     (data lost or damaged on disk)",
                    rec.version
                ),
            }),
            Ok(_) => match tree.get(be(rec.version)).map_err(storage)? {
                None => Some(LogError::Corrupt {
                    stream: stream.clone(),
                    version: rec.version,
                    detail: "event missing".into(),
                }),
                Some(v) => match SledLog::decode_value(stream, rec.version, &v) {
                    Err(e) => Some(e),
                    Ok(e) if e.hash != rec.hash => Some(LogError::Corrupt {
                        stream: stream.clone(),
                        version: rec.version,
                        detail: "hash differs from the one recorded when it was written".into(),
                    }),
                    Ok(_) => None,
                },
            },
        };
        if let Some(p) = problem {
            damage.insert(stream.clone(), p);
        }
    }
    Ok(damage)
}

enum Cursor {
    Stream {
        stream: String,
        next_version: Version,
    },
    All {
        next_position: u64,
    },
}

struct Subscription {
    log: SledLog,
    cursor: Cursor,
    buffer: VecDeque<StoredEvent>,
    changes: watch::Receiver<u64>,
    failed: bool,
}

impl Subscription {
    async fn next(mut self) -> Option<(Result<StoredEvent, LogError>, Subscription)> {
        loop {
            if let Some(e) = self.buffer.pop_front() {
                return Some((Ok(e), self));
            }
            if self.failed {
                return None;
            }
            // Mark the current state seen before reading, so an append after the read wakes us.
            self.changes.borrow_and_update();
            let read = match &self.cursor {
                Cursor::Stream {
                    stream,
                    next_version,
                } => self.log.read_range(stream, *next_version, None),
                Cursor::All { next_position } => {
                    self.log.read_positions(*next_position, SUBSCRIPTION_CHUNK)
                }
            };
            match read {
                Err(e) => {
                    self.failed = true;
                    return Some((Err(e), self));
                }
                Ok(events) if events.is_empty() => {
                    if self.changes.changed().await.is_err() {
                        return None;
                    }
                }
                Ok(events) => {
                    let last = events.last().expect("non-empty");
                    match &mut self.cursor {
                        Cursor::Stream { next_version, .. } => *next_version = last.version + 1,
                        Cursor::All { next_position } => *next_position = last.position + 1,
                    }
                    self.buffer.extend(events);
                }
            }
        }
    }
}

impl EventLog for SledLog {
    fn append<'a>(
        &'a self,
        stream: &'a str,
        expected: ExpectedVersion,
        command_id: &'a str,
        actor: &'a str,
        events: Vec<Vec<u8>>,
    ) -> BoxFuture<'a, Result<AppendOutcome, LogError>> {
        Box::pin(self.append_impl(stream, expected, command_id, actor, events))
    }

    fn read<'a>(
        &'a self,
        stream: &'a str,
        from_version: Version,
    ) -> BoxFuture<'a, Result<Vec<StoredEvent>, LogError>> {
        Box::pin(async move {
            validate_stream_name(stream)?;
            self.read_range(stream, from_version, None)
        })
    }

    fn last_version<'a>(&'a self, stream: &'a str) -> BoxFuture<'a, Result<Version, LogError>> {
        Box::pin(async move {
            validate_stream_name(stream)?;
            self.check_damage(stream)?;
            Ok(self.durable_version(stream))
        })
    }

    fn subscribe(&self, from: SubscribeFrom) -> BoxFuture<'_, Result<EventStream, LogError>> {
        Box::pin(async move {
            let cursor = match from {
                SubscribeFrom::Stream {
                    stream,
                    from_version,
                } => {
                    validate_stream_name(&stream)?;
                    self.check_damage(&stream)?;
                    Cursor::Stream {
                        stream,
                        next_version: from_version.max(1),
                    }
                }
                SubscribeFrom::All { from_position } => Cursor::All {
                    next_position: from_position.max(1),
                },
            };
            let sub = Subscription {
                log: self.clone(),
                cursor,
                buffer: VecDeque::new(),
                changes: self.inner.shared.notify.subscribe(),
                failed: false,
            };
            let stream: EventStream = Box::pin(futures::stream::unfold(sub, Subscription::next));
            Ok(stream)
        })
    }

    fn list_streams(&self) -> BoxFuture<'_, Result<Vec<String>, LogError>> {
        Box::pin(async move { self.list_streams_sync() })
    }
}

/// The one writer of a log, on its own thread: takes a group of requests from the channel
/// (whatever is queued, up to [`MAX_GROUP`]), applies each append, makes the group durable with
/// one blocking flush and one head-journal sync, publishes the new durable heads, then answers.
/// Being alone, it needs no lock between reading a stream's head and writing after it.
struct Writer {
    db: sled::Db,
    all: Tree,
    journal: HeadJournal,
    shared: Arc<Shared>,
    /// Each stream's events and command trees, opened once.
    trees: HashMap<String, (Tree, Tree)>,
    last_position: u64,
    /// Why a group could not be made durable; appends are refused from then on.
    failed: Option<String>,
}

type AppendReply = oneshot::Sender<Result<AppendOutcome, LogError>>;

impl Writer {
    fn run(mut self, mut inbox: mpsc::UnboundedReceiver<Request>) {
        while let Some(first) = inbox.blocking_recv() {
            let mut group = vec![first];
            while group.len() < MAX_GROUP {
                match inbox.try_recv() {
                    Ok(r) => group.push(r),
                    Err(_) => break,
                }
            }
            self.commit(group);
        }
        // Every sender is gone: the queue is drained; leave nothing unflushed.
        if let Err(e) = self.db.flush() {
            tracing::error!("final flush of the event log failed: {e}");
        }
    }

    fn commit(&mut self, group: Vec<Request>) {
        let mut appends: Vec<(AppendReply, Result<AppendOutcome, LogError>)> = Vec::new();
        let mut flushes = Vec::new();
        let mut heads: BTreeMap<String, HeadRecord> = BTreeMap::new();
        let started = std::time::Instant::now();
        let group_len = group.len();
        for request in group {
            match request {
                Request::Append {
                    stream,
                    expected,
                    command_id,
                    actor,
                    payloads,
                    digest,
                    reply,
                } => {
                    let result = match &self.failed {
                        Some(why) => Err(LogError::Storage(why.clone())),
                        None => {
                            self.apply(&stream, expected, &command_id, &actor, payloads, digest)
                        }
                    };
                    if let Ok(o) = &result
                        && !o.replayed
                    {
                        let head = HeadRecord {
                            version: o.last_version,
                            hash: o.last_hash,
                            position: o.position,
                        };
                        heads.insert(stream, head);
                    }
                    appends.push((reply, result));
                }
                Request::Flush(reply) => flushes.push(reply),
            }
        }
        let applied = started.elapsed();
        let durable = match &self.failed {
            Some(why) => Err(why.clone()),
            None => self.make_durable(&heads).map(|(flush, journal)| {
                arbiter_telemetry::metrics::log_commit(group_len, applied, flush, journal);
            }),
        };
        match durable {
            Ok(()) => {
                {
                    let mut d = self.shared.durable.write().expect("durable heads lock");
                    for (stream, h) in &heads {
                        d.insert(stream.clone(), h.version);
                    }
                }
                if let Some(p) = heads.values().map(|h| h.position).max() {
                    self.shared.notify.send_replace(p);
                }
                for (reply, result) in appends {
                    let _ = reply.send(result);
                }
                for reply in flushes {
                    let _ = reply.send(Ok(()));
                }
            }
            Err(why) => {
                if self.failed.is_none() {
                    tracing::error!("{why}; the log refuses appends until it is reopened");
                    self.failed = Some(why.clone());
                }
                for (reply, result) in appends {
                    // Refusals that wrote nothing stand; anything that wrote is not durable.
                    let result = match result {
                        Ok(_) => Err(LogError::Storage(why.clone())),
                        Err(e) => Err(e),
                    };
                    let _ = reply.send(result);
                }
                for reply in flushes {
                    let _ = reply.send(Err(LogError::Storage(why.clone())));
                }
            }
        }
    }

    /// One flush for the whole group, then its heads in the journal with one sync.
    /// Makes the group durable: sled first, then the head journal (a journal ahead of the log
    /// would read as damage at the next start). Returns how long each took.
    fn make_durable(
        &mut self,
        heads: &BTreeMap<String, HeadRecord>,
    ) -> Result<(std::time::Duration, std::time::Duration), String> {
        let t0 = std::time::Instant::now();
        self.db
            .flush()
            .map_err(|e| format!("flushing the event log failed: {e}"))?;
        let flushed = t0.elapsed();
        if !heads.is_empty() {
            self.journal
                .record_all(heads.iter().map(|(s, h)| (s.as_str(), h)))
                .map_err(|e| format!("writing the head journal failed: {e}"))?;
        }
        Ok((flushed, t0.elapsed() - flushed))
    }

    fn trees(&mut self, stream: &str) -> Result<(Tree, Tree), LogError> {
        if let Some(t) = self.trees.get(stream) {
            return Ok(t.clone());
        }
        let events = self
            .db
            .open_tree(format!("{EVENTS_PREFIX}{stream}"))
            .map_err(storage)?;
        let commands = self
            .db
            .open_tree(format!("{COMMANDS_PREFIX}{stream}"))
            .map_err(storage)?;
        self.trees
            .insert(stream.to_string(), (events.clone(), commands.clone()));
        Ok((events, commands))
    }

    /// Checks and writes one append (not yet durable). The checks see earlier appends of the
    /// same group, which become durable together with this one or not at all.
    fn apply(
        &mut self,
        stream: &str,
        expected: ExpectedVersion,
        command_id: &str,
        actor: &str,
        payloads: Vec<Vec<u8>>,
        digest: Hash,
    ) -> Result<AppendOutcome, LogError> {
        let (events_tree, commands_tree) = self.trees(stream)?;
        if let Some(v) = commands_tree.get(command_id).map_err(storage)? {
            let entry = CommandEntry::decode(&v).ok_or_else(|| LogError::Corrupt {
                stream: stream.to_string(),
                version: 0,
                detail: format!("bad command index entry for {command_id:?}"),
            })?;
            return SledLog::replayed(stream, &events_tree, entry, digest, command_id);
        }

        let (last_version, last_hash) = SledLog::head(stream, &events_tree)?;
        if let ExpectedVersion::Exact(expected) = expected
            && expected != last_version
        {
            return Err(LogError::Conflict {
                expected,
                actual: last_version,
            });
        }
        let position = self.last_position + 1;
        let mut events =
            record::build_events(stream, last_version, last_hash, command_id, actor, payloads);
        for e in &mut events {
            e.position = position;
        }
        let first = last_version + 1;
        let last = last_version + events.len() as u64;
        let entry = CommandEntry {
            first,
            last,
            position,
            digest,
        };
        let values: Vec<([u8; 8], Vec<u8>)> = events
            .iter()
            .map(|e| {
                let mut v = be(position).to_vec();
                v.extend_from_slice(&encode_record(e));
                (be(e.version), v)
            })
            .collect();
        let mut all_value = Vec::with_capacity(16 + stream.len());
        all_value.extend_from_slice(&be(first));
        all_value.extend_from_slice(&be(last));
        all_value.extend_from_slice(stream.as_bytes());

        // One transaction, so a crash keeps the events, the command index and the append
        // order together or drops them together.
        let tx = (&events_tree, &commands_tree, &self.all).transaction(|(et, ct, at)| {
            // The writer is alone; these checks guard the invariants should that ever change.
            if et.get(be(first))?.is_some() || at.get(be(position))?.is_some() {
                return Err(ConflictableTransactionError::Abort("version already taken"));
            }
            for (k, v) in &values {
                et.insert(k, v.as_slice())?;
            }
            ct.insert(command_id.as_bytes(), entry.encode())?;
            at.insert(&be(position), all_value.as_slice())?;
            Ok(())
        });
        match tx {
            Ok(()) => {}
            Err(TransactionError::Abort(why)) => return Err(storage(why)),
            Err(TransactionError::Storage(e)) => return Err(storage(e)),
        }
        self.last_position = position;
        let last_hash = events.last().map(|e| e.hash).unwrap_or(last_hash);
        Ok(AppendOutcome {
            stream: stream.to_string(),
            first_version: first,
            last_version: last,
            event_ids: events.iter().map(|e| e.event_id).collect(),
            last_hash,
            position,
            replayed: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sled's own checksum failure reaches users as damage at a version in plain words, not
    /// as sled's debug text (which names its internal file offsets and a backtrace).
    #[test]
    fn a_storage_checksum_failure_is_damage_in_plain_words() {
        let e = unreadable("t/x", 7, sled::Error::Corruption { at: None, bt: () });
        let text = e.to_string();
        assert!(matches!(e, LogError::Corrupt { version: 7, .. }), "{e:?}");
        assert!(
            text.starts_with("the event at version 7 of stream"),
            "{text}"
        );
        assert!(
            !text.contains("backtrace") && !text.contains("Read corrupted"),
            "{text}"
        );
        let other = unreadable("t/x", 7, sled::Error::Unsupported("x".into()));
        assert!(matches!(other, LogError::Storage(_)), "{other:?}");
        // The same failure met anywhere else (opening the log, an index).
        let at_open = storage(sled::Error::Corruption { at: None, bt: () }).to_string();
        assert!(at_open.contains("corrupt data on disk"), "{at_open}");
        assert!(!at_open.contains("backtrace"), "{at_open}");
    }
}

//! The distributed backend: NATS JetStream as the log of record.
//!
//! - One JetStream stream (default `ARBITER_EVENTS`) covers the subjects
//!   `<prefix>.*.events` (default prefix `arbiter.t`); each event stream (tournament) is one
//!   subject, `<prefix>.<stream>.events`. The JetStream stream denies deletes and purges.
//! - One append is one JetStream message: its body is the batch of records
//!   ([`record::encode_batch`]), so a multi-event append is atomic. Headers: `Nats-Msg-Id` =
//!   `<stream>:<command id>` (server-side de-duplication within the duplicate window),
//!   `Arbiter-Stream`, `Arbiter-Command-Id`, `Arbiter-First-Version`, `Arbiter-Last-Version`.
//! - Optimistic concurrency: our per-stream version is mapped to JetStream's per-subject
//!   sequence of the last message (learnt from the last message and its version headers), and
//!   the publish carries `Nats-Expected-Last-Subject-Sequence`.
//! - Idempotency beyond the duplicate window: each log instance keeps, per stream it appends to,
//!   the index of command ids it has read from the subject (loaded on first use, caught up
//!   whenever the subject moved).
//! - Lost acks: a publish whose ack was lost is resent unchanged (same id, same expectation).
//!   Servers answer either "duplicate" (2.9) or "wrong last sequence" (2.10+); in both cases the
//!   log re-reads the subject and, finding its own message, reports success.
//! - Fail-over: while a cluster elects a new stream leader, requests fail with "no stream found"
//!   or time out; these are retried for [`JetStreamConfig::retry_for`].

use crate::record::{self, ChainBreak, check_link, decode_batch, encode_batch, payload_digest};
use crate::{
    AppendOutcome, EventLog, EventStream, ExpectedVersion, Hash, LogError, StoredEvent,
    SubscribeFrom, Version, validate_append, validate_stream_name,
};
use async_nats::HeaderMap;
use async_nats::jetstream::consumer::{AckPolicy, DeliverPolicy, pull};
use async_nats::jetstream::context::{PublishAckFuture, PublishErrorKind};
use async_nats::jetstream::message::{PublishMessage, StreamMessage};
use async_nats::jetstream::stream::{
    Config as StreamConfig, DiscardPolicy, LastRawMessageErrorKind, RetentionPolicy, StorageType,
};
use async_nats::jetstream::{self, AckKind};
use futures::StreamExt;
use futures::future::BoxFuture;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};
use uuid::Uuid;

/// Reads spanning at least this many JetStream sequences use an ordered consumer.
const BULK_READ_MIN_SPAN: u64 = 16;

pub const HEADER_STREAM: &str = "Arbiter-Stream";
pub const HEADER_COMMAND_ID: &str = "Arbiter-Command-Id";
pub const HEADER_FIRST_VERSION: &str = "Arbiter-First-Version";
pub const HEADER_LAST_VERSION: &str = "Arbiter-Last-Version";

/// Settings of the JetStream backend.
#[derive(Debug, Clone)]
pub struct JetStreamConfig {
    /// The JetStream stream holding every event stream.
    pub stream_name: String,
    /// Subjects are `<subject_prefix>.<stream>.events`.
    pub subject_prefix: String,
    /// Replicas of the JetStream stream (1, or 3 in a cluster).
    pub replicas: usize,
    /// JetStream's de-duplication window for `Nats-Msg-Id`.
    pub duplicate_window: Duration,
    /// How long transient failures (leader election, reconnects, timeouts) are retried before
    /// an operation fails.
    pub retry_for: Duration,
    /// Timeout of one JetStream request.
    pub request_timeout: Duration,
}

impl Default for JetStreamConfig {
    fn default() -> Self {
        JetStreamConfig {
            stream_name: "ARBITER_EVENTS".into(),
            subject_prefix: "arbiter.t".into(),
            replicas: 1,
            duplicate_window: Duration::from_secs(120),
            retry_for: Duration::from_secs(20),
            request_timeout: Duration::from_secs(5),
        }
    }
}

/// The JetStream-backed [`EventLog`]. Cheap to clone (shared state).
#[derive(Clone)]
pub struct JetStreamLog {
    inner: Arc<Inner>,
}

struct Inner {
    client: async_nats::Client,
    js: jetstream::Context,
    stream: jetstream::stream::Stream,
    cfg: JetStreamConfig,
    heads: std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<Head>>>>,
}

/// What this instance knows of one event stream, up to JetStream sequence `seq`.
#[derive(Default)]
struct Head {
    loaded: bool,
    /// JetStream sequence of the subject's last message (0 = none).
    seq: u64,
    version: Version,
    hash: Hash,
    commands: HashMap<String, CommandInfo>,
    /// (first version, JetStream sequence) of every message, in order.
    index: Vec<(Version, u64)>,
}

#[derive(Clone)]
struct CommandInfo {
    first: Version,
    last: Version,
    position: u64,
    event_ids: Vec<Uuid>,
    last_hash: Hash,
    digest: Hash,
}

impl CommandInfo {
    fn outcome(&self, stream: &str, replayed: bool) -> AppendOutcome {
        AppendOutcome {
            stream: stream.to_string(),
            first_version: self.first,
            last_version: self.last,
            event_ids: self.event_ids.clone(),
            last_hash: self.last_hash,
            position: self.position,
            replayed,
        }
    }
}

fn nats(e: impl std::fmt::Display) -> LogError {
    LogError::Nats(e.to_string())
}

/// The outcome of one attempt of a retried operation.
enum Attempt<T> {
    Done(T),
    /// Transient: try again until the deadline; the text says what failed.
    Retry(String),
}

impl JetStreamLog {
    /// Connects to the given server URLs (all the nodes of a cluster, so that the client can
    /// reconnect to another one) and creates the JetStream stream if it does not exist.
    pub async fn connect(urls: &[String], cfg: JetStreamConfig) -> Result<JetStreamLog, LogError> {
        let client = async_nats::ConnectOptions::new()
            .connection_timeout(cfg.request_timeout)
            .connect(urls)
            .await
            .map_err(nats)?;
        JetStreamLog::with_client(client, cfg).await
    }

    /// Uses an existing connection.
    pub async fn with_client(
        client: async_nats::Client,
        cfg: JetStreamConfig,
    ) -> Result<JetStreamLog, LogError> {
        validate_token(&cfg.stream_name, "stream_name")?;
        let js = jetstream::ContextBuilder::new()
            .timeout(cfg.request_timeout)
            .build(client.clone());
        let config = StreamConfig {
            name: cfg.stream_name.clone(),
            subjects: vec![format!("{}.*.events", cfg.subject_prefix)],
            storage: StorageType::File,
            retention: RetentionPolicy::Limits,
            discard: DiscardPolicy::New,
            num_replicas: cfg.replicas,
            duplicate_window: cfg.duplicate_window,
            max_messages: -1,
            max_bytes: -1,
            max_messages_per_subject: -1,
            max_consumers: -1,
            deny_delete: true,
            deny_purge: true,
            description: Some("arbiter event log: one subject per event stream".into()),
            ..Default::default()
        };
        // In a fresh cluster JetStream answers before the meta leader is elected; retry.
        let deadline = Instant::now() + cfg.retry_for.max(Duration::from_secs(10));
        let stream = retry_until(deadline, "create the JetStream stream", || {
            let js = js.clone();
            let config = config.clone();
            async move {
                match js.get_or_create_stream(config).await {
                    Ok(s) => Ok(Attempt::Done(s)),
                    Err(e) => Ok(Attempt::Retry(e.to_string())),
                }
            }
        })
        .await?;
        Ok(JetStreamLog {
            inner: Arc::new(Inner {
                client,
                js,
                stream,
                cfg,
                heads: Default::default(),
            }),
        })
    }

    /// The NATS connection (for other uses by the same service).
    pub fn client(&self) -> &async_nats::Client {
        &self.inner.client
    }

    /// The subject of an event stream.
    pub fn subject(&self, stream: &str) -> String {
        format!("{}.{}.events", self.inner.cfg.subject_prefix, stream)
    }

    fn stream_of_subject<'s>(&self, subject: &'s str) -> Option<&'s str> {
        subject
            .strip_prefix(self.inner.cfg.subject_prefix.as_str())?
            .strip_prefix('.')?
            .strip_suffix(".events")
    }

    fn head_of(&self, stream: &str) -> Arc<tokio::sync::Mutex<Head>> {
        let mut heads = self.inner.heads.lock().expect("heads lock");
        heads.entry(stream.to_string()).or_default().clone()
    }

    fn deadline(&self) -> Instant {
        Instant::now() + self.inner.cfg.retry_for
    }

    /// The first message of `subject` at JetStream sequence `>= seq`, or `None`.
    async fn message_from(
        &self,
        subject: &str,
        seq: u64,
        deadline: Instant,
    ) -> Result<Option<RawMsg>, LogError> {
        retry_until(deadline, "read a message", || async move {
            match self
                .inner
                .stream
                .get_first_raw_message_by_subject(subject, seq)
                .await
            {
                Ok(m) => Ok(Attempt::Done(Some(RawMsg::from_stored(m)))),
                Err(e) => match e.kind() {
                    LastRawMessageErrorKind::NoMessageFound => Ok(Attempt::Done(None)),
                    LastRawMessageErrorKind::InvalidSubject => Err(nats(e)),
                    _ => Ok(Attempt::Retry(e.to_string())),
                },
            }
        })
        .await
    }

    /// The last message of `subject`, or `None`.
    async fn last_message(
        &self,
        subject: &str,
        deadline: Instant,
    ) -> Result<Option<RawMsg>, LogError> {
        retry_until(deadline, "read the last message", || async move {
            match self
                .inner
                .stream
                .get_last_raw_message_by_subject(subject)
                .await
            {
                Ok(m) => Ok(Attempt::Done(Some(RawMsg::from_stored(m)))),
                Err(e) => match e.kind() {
                    LastRawMessageErrorKind::NoMessageFound => Ok(Attempt::Done(None)),
                    LastRawMessageErrorKind::InvalidSubject => Err(nats(e)),
                    _ => Ok(Attempt::Retry(e.to_string())),
                },
            }
        })
        .await
    }

    /// The messages of `subject` with JetStream sequences in `from..=to`, in order. A short
    /// range is read message by message; a long one through an ordered consumer (falling back
    /// to single reads should the consumer fail).
    async fn messages_between(
        &self,
        subject: &str,
        from: u64,
        to: u64,
        deadline: Instant,
    ) -> Result<Vec<RawMsg>, LogError> {
        let mut out = Vec::new();
        if to < from {
            return Ok(out);
        }
        let mut next = from;
        if to - from >= BULK_READ_MIN_SPAN {
            if let Err(e) = self.consume_between(subject, from, to, &mut out).await {
                tracing::debug!(%subject, error = %e, "bulk read failed, reading message by message");
            }
            next = out.last().map_or(from, |m| m.seq + 1);
        }
        while next <= to {
            match self.message_from(subject, next, deadline).await? {
                Some(m) if m.seq <= to => {
                    next = m.seq + 1;
                    out.push(m);
                }
                _ => break,
            }
        }
        Ok(out)
    }

    /// Reads `from..=to` of `subject` through an ordered consumer into `out`.
    async fn consume_between(
        &self,
        subject: &str,
        from: u64,
        to: u64,
        out: &mut Vec<RawMsg>,
    ) -> Result<(), LogError> {
        let consumer = self
            .inner
            .stream
            .create_consumer(pull::OrderedConfig {
                filter_subject: subject.to_string(),
                deliver_policy: DeliverPolicy::ByStartSequence {
                    start_sequence: from,
                },
                ..Default::default()
            })
            .await
            .map_err(nats)?;
        let mut messages = consumer.messages().await.map_err(nats)?;
        let timeout = self.inner.cfg.request_timeout;
        loop {
            let m = match tokio::time::timeout(timeout, messages.next()).await {
                Err(_) => return Err(nats("ordered consumer stalled")),
                Ok(None) => return Err(nats("ordered consumer ended")),
                Ok(Some(m)) => m.map_err(nats)?,
            };
            let seq = m.info().map_err(nats)?.stream_sequence;
            if seq > to {
                return Ok(());
            }
            out.push(RawMsg {
                seq,
                headers: m.headers.clone().unwrap_or_default(),
                payload: m.payload.to_vec(),
            });
            if seq == to {
                return Ok(());
            }
        }
    }

    /// Reads the subject's messages after `head.seq` into `head`, checking the chain.
    async fn catch_up(
        &self,
        stream: &str,
        head: &mut Head,
        deadline: Instant,
    ) -> Result<(), LogError> {
        let subject = self.subject(stream);
        if let Some(last) = self.last_message(&subject, deadline).await?
            && last.seq > head.seq
        {
            for msg in self
                .messages_between(&subject, head.seq + 1, last.seq, deadline)
                .await?
            {
                absorb(stream, head, &msg)?;
            }
            if head.seq != last.seq {
                return Err(LogError::Nats(format!(
                    "{subject}: read up to sequence {}, the last message is {}",
                    head.seq, last.seq
                )));
            }
        }
        head.loaded = true;
        Ok(())
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
        let digest = payload_digest(&payloads);
        let subject = self.subject(stream);
        let msg_id = format!("{stream}:{command_id}");
        let deadline = self.deadline();
        let head = self.head_of(stream);
        let mut head = head.lock().await;
        if !head.loaded {
            self.catch_up(stream, &mut head, deadline).await?;
        }

        // The message being sent: built for one head state, resent unchanged after transient
        // failures so that the server can recognise it.
        let mut pending: Option<(u64, Vec<StoredEvent>, Vec<u8>)> = None;
        let mut caught_up_for_expectation = false;
        let trace = arbiter_telemetry::propagation::current_headers();
        loop {
            if let Some(c) = head.commands.get(command_id) {
                if c.digest != digest {
                    return Err(LogError::CommandIdReused {
                        stream: stream.to_string(),
                        command_id: command_id.to_string(),
                    });
                }
                // Our own message, found after a lost ack, is not a replay.
                let ours = pending.as_ref().is_some_and(|(_, evs, _)| {
                    evs.iter()
                        .map(|e| e.event_id)
                        .eq(c.event_ids.iter().copied())
                });
                return Ok(c.outcome(stream, !ours));
            }
            if let ExpectedVersion::Exact(v) = expected
                && v != head.version
            {
                if !caught_up_for_expectation {
                    // Our view may be stale: look again before calling it a conflict.
                    caught_up_for_expectation = true;
                    self.catch_up(stream, &mut head, deadline).await?;
                    continue;
                }
                return Err(LogError::Conflict {
                    expected: v,
                    actual: head.version,
                });
            }
            if pending.as_ref().is_none_or(|(seq, _, _)| *seq != head.seq) {
                let events = record::build_events(
                    stream,
                    head.version,
                    head.hash,
                    command_id,
                    actor,
                    payloads.clone(),
                );
                let body = encode_batch(&events);
                pending = Some((head.seq, events, body));
            }
            let (expected_seq, events, body) = pending.as_ref().expect("built above");
            let mut headers = HeaderMap::new();
            headers.insert(HEADER_STREAM, stream);
            headers.insert(HEADER_COMMAND_ID, command_id);
            headers.insert(HEADER_FIRST_VERSION, events[0].version.to_string().as_str());
            headers.insert(
                HEADER_LAST_VERSION,
                events[events.len() - 1].version.to_string().as_str(),
            );
            // The appender's trace context, beside the events (never in them: the hashed
            // records stay the same whoever traced them).
            for (k, v) in &trace {
                headers.insert(k.as_str(), v.as_str());
            }
            let publish = PublishMessage::build()
                .payload(body.clone().into())
                .headers(headers)
                .message_id(&msg_id)
                .expected_last_subject_sequence(*expected_seq);

            let result = match self.inner.js.send_publish(subject.clone(), publish).await {
                Ok(ack) => PublishAckFuture::into_future(ack).await,
                Err(e) => Err(e),
            };
            match result {
                Ok(ack) if !ack.duplicate && ack.sequence > head.seq => {
                    let first = events[0].version;
                    let last = events[events.len() - 1].version;
                    let info = CommandInfo {
                        first,
                        last,
                        position: ack.sequence,
                        event_ids: events.iter().map(|e| e.event_id).collect(),
                        last_hash: events[events.len() - 1].hash,
                        digest,
                    };
                    head.seq = ack.sequence;
                    head.version = last;
                    head.hash = info.last_hash;
                    head.index.push((first, ack.sequence));
                    head.commands.insert(command_id.to_string(), info.clone());
                    return Ok(info.outcome(stream, false));
                }
                Ok(_) => {
                    // A duplicate: a message with this id is already stored (ours after a lost
                    // ack, or the same command sent by another instance). Read it.
                    self.catch_up(stream, &mut head, deadline).await?;
                    if !head.commands.contains_key(command_id) {
                        return Err(LogError::Nats(format!(
                            "JetStream reports message {msg_id:?} as a duplicate, but it is not \
                             in subject {subject}"
                        )));
                    }
                }
                Err(e) => match e.kind() {
                    PublishErrorKind::WrongLastSequence => {
                        // Someone appended first (or our earlier attempt did). Re-read; the loop
                        // then finds our command, reports a conflict or rebuilds for `Any`.
                        self.catch_up(stream, &mut head, deadline).await?;
                        caught_up_for_expectation = true;
                    }
                    PublishErrorKind::MaxPayloadExceeded => {
                        return Err(LogError::TooLarge {
                            size: body.len(),
                            limit: self.inner.client.server_info().max_payload,
                        });
                    }
                    _ => {
                        // StreamNotFound during leader election, timeouts, broken connections.
                        if Instant::now() >= deadline {
                            return Err(LogError::Nats(format!(
                                "append to {subject} failed for {:?}: {e}",
                                self.inner.cfg.retry_for
                            )));
                        }
                        tracing::debug!(%subject, error = %e, "append failed, retrying");
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                },
            }
        }
    }

    async fn read_impl(
        &self,
        stream: &str,
        from_version: Version,
    ) -> Result<Vec<StoredEvent>, LogError> {
        validate_stream_name(stream)?;
        let from = from_version.max(1);
        let start_seq = self.start_seq(stream, from);
        let subject = self.subject(stream);
        let deadline = self.deadline();
        let mut out = Vec::new();
        let Some(last) = self.last_message(&subject, deadline).await? else {
            return Ok(out);
        };
        let mut prev: Option<(Version, Hash)> = None;
        for msg in self
            .messages_between(&subject, start_seq, last.seq, deadline)
            .await?
        {
            for e in decode_message(stream, prev.map_or(0, |p| p.0) + 1, &msg)? {
                if let Err(kind) = check_link(&e, prev) {
                    return Err(corrupt_link(stream, e.version, kind));
                }
                prev = Some((e.version, e.hash));
                if e.version >= from {
                    out.push(e);
                }
            }
        }
        Ok(out)
    }

    /// The JetStream sequence to start reading `stream` at so that `from` is included: from this
    /// instance's index when it has one at hand, otherwise the beginning.
    fn start_seq(&self, stream: &str, from: Version) -> u64 {
        let head = self.head_of(stream);
        let Ok(head) = head.try_lock() else { return 1 };
        let i = head.index.partition_point(|(first, _)| *first <= from);
        if i == 0 { 1 } else { head.index[i - 1].1 }
    }

    async fn last_version_impl(&self, stream: &str) -> Result<Version, LogError> {
        validate_stream_name(stream)?;
        let msg = self
            .last_message(&self.subject(stream), self.deadline())
            .await?;
        match msg {
            None => Ok(0),
            Some(m) => {
                header_version(&m.headers, HEADER_LAST_VERSION).ok_or_else(|| LogError::Corrupt {
                    stream: stream.to_string(),
                    version: 0,
                    detail: format!("message {} has no {HEADER_LAST_VERSION} header", m.seq),
                })
            }
        }
    }

    async fn list_streams_impl(&self) -> Result<Vec<String>, LogError> {
        let filter = format!("{}.*.events", self.inner.cfg.subject_prefix);
        let subjects = retry_until(self.deadline(), "list subjects", || {
            let filter = filter.clone();
            async move {
                let mut info = match self.inner.stream.info_with_subjects(&filter).await {
                    Ok(i) => i,
                    Err(e) => return Ok(Attempt::Retry(e.to_string())),
                };
                let mut subjects = Vec::new();
                while let Some(item) = info.next().await {
                    match item {
                        Ok((subject, count)) if count > 0 => subjects.push(subject),
                        Ok(_) => {}
                        Err(e) => return Ok(Attempt::Retry(e.to_string())),
                    }
                }
                Ok(Attempt::Done(subjects))
            }
        })
        .await?;
        let mut out: Vec<String> = subjects
            .iter()
            .filter_map(|s| self.stream_of_subject(s).map(str::to_string))
            .collect();
        out.sort();
        out.dedup();
        Ok(out)
    }

    async fn subscribe_impl(&self, from: SubscribeFrom) -> Result<EventStream, LogError> {
        let (filter_subject, deliver_policy, only_stream, from_version) = match &from {
            SubscribeFrom::Stream {
                stream,
                from_version,
            } => {
                validate_stream_name(stream)?;
                let start = self.start_seq(stream, (*from_version).max(1));
                (
                    self.subject(stream),
                    DeliverPolicy::ByStartSequence {
                        start_sequence: start,
                    },
                    Some(stream.clone()),
                    (*from_version).max(1),
                )
            }
            SubscribeFrom::All { from_position } => (
                format!("{}.*.events", self.inner.cfg.subject_prefix),
                DeliverPolicy::ByStartSequence {
                    start_sequence: (*from_position).max(1),
                },
                None,
                1,
            ),
        };
        let config = pull::OrderedConfig {
            filter_subject,
            deliver_policy,
            ..Default::default()
        };
        let messages = retry_until(self.deadline(), "create an ordered consumer", || {
            let config = config.clone();
            async move {
                let consumer = match self.inner.stream.create_consumer(config).await {
                    Ok(c) => c,
                    Err(e) => return Ok(Attempt::Retry(e.to_string())),
                };
                match consumer.messages().await {
                    Ok(m) => Ok(Attempt::Done(m)),
                    Err(e) => Ok(Attempt::Retry(e.to_string())),
                }
            }
        })
        .await?;
        let state = SubState {
            log: self.clone(),
            messages: Box::pin(messages),
            buffer: VecDeque::new(),
            last: BTreeMap::new(),
            only_stream,
            from_version,
            failed: false,
        };
        Ok(Box::pin(futures::stream::unfold(state, SubState::next)))
    }

    /// A durable pull consumer named `name` over one event stream (`Some(stream)`) or all of
    /// them (`None`). It is created on first use and resumes after the last acknowledged
    /// message when opened again (by this or another process). Several workers opening the same
    /// name share its messages (each message goes to one of them).
    pub async fn durable_consumer(
        &self,
        name: &str,
        stream: Option<&str>,
    ) -> Result<DurableConsumer, LogError> {
        validate_token(name, "consumer name")?;
        let filter_subject = match stream {
            Some(s) => {
                validate_stream_name(s)?;
                self.subject(s)
            }
            None => format!("{}.*.events", self.inner.cfg.subject_prefix),
        };
        let config = pull::Config {
            durable_name: Some(name.to_string()),
            filter_subject,
            deliver_policy: DeliverPolicy::All,
            ack_policy: AckPolicy::Explicit,
            ack_wait: Duration::from_secs(30),
            ..Default::default()
        };
        let consumer = retry_until(self.deadline(), "create a durable consumer", || {
            let config = config.clone();
            async move {
                match self.inner.stream.get_or_create_consumer(name, config).await {
                    Ok(c) => Ok(Attempt::Done(c)),
                    Err(e) => Ok(Attempt::Retry(e.to_string())),
                }
            }
        })
        .await?;
        Ok(DurableConsumer {
            log: self.clone(),
            consumer,
        })
    }
}

/// A durable pull consumer (see [`JetStreamLog::durable_consumer`]).
pub struct DurableConsumer {
    log: JetStreamLog,
    consumer: jetstream::consumer::Consumer<pull::Config>,
}

/// One append delivered by a [`DurableConsumer`]: its events, to be acknowledged once handled.
/// Unacknowledged deliveries are sent again after the ack wait (30 s) or to the next consumer
/// opened with the same name.
pub struct Delivery {
    pub events: Vec<StoredEvent>,
    /// The JetStream sequence of the message (= [`StoredEvent::position`]).
    pub position: u64,
    /// Messages still to be delivered to this consumer after this one (the server's count).
    pub pending: u64,
    message: jetstream::Message,
}

impl Delivery {
    /// Acknowledges the delivery and waits for the server to confirm, so that a consumer opened
    /// later does not get it again.
    pub async fn ack(&self) -> Result<(), LogError> {
        self.message.double_ack().await.map_err(nats)
    }

    /// Acknowledges without waiting for the server's confirmation (one publish, no round trip
    /// through the cluster's consensus). For deliveries whose handling is idempotent: if the
    /// acknowledgement is lost, the delivery comes again after the ack wait and is handled
    /// again to the same effect. Followers ack most deliveries this way, so that a queue of
    /// confirmations does not delay the few that matter (a pairing request behind hundreds of
    /// results).
    pub async fn ack_unconfirmed(&self) -> Result<(), LogError> {
        self.message.ack().await.map_err(nats)
    }

    /// Makes `span` (not yet entered) a child of the trace context the appender published
    /// with the message, if any.
    pub fn set_span_parent(&self, span: &tracing::Span) {
        let Some(headers) = &self.message.headers else {
            return;
        };
        arbiter_telemetry::propagation::set_parent(span, |k| headers.get(k).map(|v| v.as_str()));
    }

    /// Asks for redelivery (e.g. after a failure handling it).
    pub async fn nak(&self) -> Result<(), LogError> {
        self.message
            .ack_with(AckKind::Nak(None))
            .await
            .map_err(nats)
    }
}

impl DurableConsumer {
    /// Waits up to `wait` for at most `max` deliveries.
    pub async fn fetch(&self, max: usize, wait: Duration) -> Result<Vec<Delivery>, LogError> {
        let mut batch = self.batch(max, wait).await?;
        let mut out = Vec::new();
        while let Some(d) = batch.next().await {
            out.push(d?);
        }
        Ok(out)
    }

    /// Asks for at most `max` deliveries within `wait` and yields each as soon as it arrives:
    /// a follower handles the first delivery at once rather than after the batch fills or
    /// expires (up to `wait` of latency at a low event rate).
    pub async fn batch(
        &self,
        max: usize,
        wait: Duration,
    ) -> Result<impl futures::Stream<Item = Result<Delivery, LogError>> + Unpin + '_, LogError>
    {
        let batch = self
            .consumer
            .batch()
            .max_messages(max)
            .expires(wait)
            .messages()
            .await
            .map_err(nats)?;
        Ok(batch.map(move |m| self.delivery(m.map_err(nats)?)))
    }

    fn delivery(&self, message: jetstream::Message) -> Result<Delivery, LogError> {
        let info = message.info().map_err(nats)?;
        let (position, pending) = (info.stream_sequence, info.pending);
        let stream = self
            .log
            .stream_of_subject(message.subject.as_str())
            .map(str::to_string)
            .ok_or_else(|| nats(format!("unexpected subject {}", message.subject)))?;
        let events = decode_batch(&message.payload, position).map_err(|e| LogError::Corrupt {
            stream: stream.clone(),
            version: header_version(
                &message.headers.clone().unwrap_or_default(),
                HEADER_FIRST_VERSION,
            )
            .unwrap_or(0),
            detail: e.0,
        })?;
        for e in &events {
            let computed = record::compute_hash(e);
            if computed != e.hash {
                return Err(corrupt_link(
                    &stream,
                    e.version,
                    record::BreakKind::HashMismatch {
                        stored: e.hash,
                        computed,
                    },
                ));
            }
        }
        Ok(Delivery {
            events,
            position,
            pending,
            message,
        })
    }

    /// Messages not yet delivered to (or not yet acknowledged by) this consumer, as the server
    /// counts them.
    pub async fn pending(&mut self) -> Result<u64, LogError> {
        let info = self.consumer.info().await.map_err(nats)?;
        Ok(info.num_pending + info.num_ack_pending as u64)
    }
}

struct SubState {
    log: JetStreamLog,
    messages: std::pin::Pin<Box<pull::Ordered>>,
    buffer: VecDeque<StoredEvent>,
    /// Last (version, hash) seen per stream, to check links as events arrive.
    last: BTreeMap<String, (Version, Hash)>,
    only_stream: Option<String>,
    from_version: Version,
    failed: bool,
}

impl SubState {
    async fn next(mut self) -> Option<(Result<StoredEvent, LogError>, SubState)> {
        loop {
            if let Some(e) = self.buffer.pop_front() {
                return Some((Ok(e), self));
            }
            if self.failed {
                return None;
            }
            let message = match self.messages.next().await? {
                Ok(m) => m,
                Err(e) => {
                    self.failed = true;
                    return Some((Err(nats(e)), self));
                }
            };
            match self.absorb(&message) {
                Ok(()) => {}
                Err(e) => {
                    self.failed = true;
                    return Some((Err(e), self));
                }
            }
        }
    }

    fn absorb(&mut self, message: &jetstream::Message) -> Result<(), LogError> {
        let position = message.info().map_err(nats)?.stream_sequence;
        let stream = self
            .log
            .stream_of_subject(message.subject.as_str())
            .ok_or_else(|| nats(format!("unexpected subject {}", message.subject)))?
            .to_string();
        let events = decode_batch(&message.payload, position).map_err(|e| LogError::Corrupt {
            stream: stream.clone(),
            version: 0,
            detail: format!("message {position}: {}", e.0),
        })?;
        for e in events {
            if e.stream != stream {
                return Err(LogError::Corrupt {
                    stream,
                    version: e.version,
                    detail: format!("record of stream {:?} in this subject", e.stream),
                });
            }
            let prev = self.last.get(&stream).copied();
            check_link(&e, prev).map_err(|kind| corrupt_link(&stream, e.version, kind))?;
            self.last.insert(stream.clone(), (e.version, e.hash));
            if self.only_stream.is_some() && e.version < self.from_version {
                continue;
            }
            self.buffer.push_back(e);
        }
        Ok(())
    }
}

/// A stored message, however it was read.
struct RawMsg {
    seq: u64,
    headers: HeaderMap,
    payload: Vec<u8>,
}

impl RawMsg {
    fn from_stored(m: StreamMessage) -> RawMsg {
        RawMsg {
            seq: m.sequence,
            headers: m.headers,
            payload: m.payload.to_vec(),
        }
    }
}

fn corrupt_link(stream: &str, version: Version, kind: record::BreakKind) -> LogError {
    LogError::Corrupt {
        stream: stream.to_string(),
        version,
        detail: ChainBreak {
            stream: stream.to_string(),
            version,
            kind,
        }
        .to_string(),
    }
}

fn header_version(headers: &HeaderMap, name: &str) -> Option<Version> {
    headers.get(name)?.as_str().parse().ok()
}

/// Decodes a stored message of `stream` (`version_hint` names the version in errors).
fn decode_message(
    stream: &str,
    version_hint: Version,
    msg: &RawMsg,
) -> Result<Vec<StoredEvent>, LogError> {
    let corrupt = |detail: String| LogError::Corrupt {
        stream: stream.to_string(),
        version: header_version(&msg.headers, HEADER_FIRST_VERSION).unwrap_or(version_hint),
        detail: format!("message {}: {detail}", msg.seq),
    };
    let events = decode_batch(&msg.payload, msg.seq).map_err(|e| corrupt(e.0))?;
    let (Some(first), Some(last)) = (events.first(), events.last()) else {
        return Err(corrupt("empty batch".into()));
    };
    if header_version(&msg.headers, HEADER_FIRST_VERSION) != Some(first.version)
        || header_version(&msg.headers, HEADER_LAST_VERSION) != Some(last.version)
    {
        return Err(corrupt("version headers do not match the records".into()));
    }
    if let Some(e) = events.iter().find(|e| e.stream != stream) {
        return Err(corrupt(format!("record of stream {:?}", e.stream)));
    }
    Ok(events)
}

/// Adds one stored message to a head, checking its events' chain.
fn absorb(stream: &str, head: &mut Head, msg: &RawMsg) -> Result<(), LogError> {
    let events = decode_message(stream, head.version + 1, msg)?;
    for e in &events {
        let prev = (head.version > 0).then_some((head.version, head.hash));
        check_link(e, prev).map_err(|kind| corrupt_link(stream, e.version, kind))?;
        if head.version == 0 && e.version != 1 {
            return Err(corrupt_link(
                stream,
                e.version,
                record::BreakKind::VersionGap {
                    expected: 1,
                    found: e.version,
                },
            ));
        }
        head.version = e.version;
        head.hash = e.hash;
    }
    let first = &events[0];
    let payloads: Vec<Vec<u8>> = events.iter().map(|e| e.payload.clone()).collect();
    head.commands.insert(
        first.command_id.clone(),
        CommandInfo {
            first: first.version,
            last: head.version,
            position: msg.seq,
            event_ids: events.iter().map(|e| e.event_id).collect(),
            last_hash: head.hash,
            digest: payload_digest(&payloads),
        },
    );
    head.index.push((first.version, msg.seq));
    head.seq = msg.seq;
    Ok(())
}

fn validate_token(s: &str, what: &str) -> Result<(), LogError> {
    if s.is_empty()
        || !s
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(LogError::InvalidAppend(format!(
            "{what} {s:?}: use A-Z a-z 0-9 _ -"
        )));
    }
    Ok(())
}

/// Runs `op` until it is done, fails permanently, or `deadline` passes (then the last transient
/// failure is returned).
async fn retry_until<T, F, Fut>(deadline: Instant, what: &str, mut op: F) -> Result<T, LogError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Attempt<T>, LogError>>,
{
    let mut pause = Duration::from_millis(50);
    loop {
        match op().await? {
            Attempt::Done(t) => return Ok(t),
            Attempt::Retry(why) => {
                if Instant::now() >= deadline {
                    return Err(LogError::Nats(format!("could not {what}: {why}")));
                }
                tracing::debug!(what, why, "retrying");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_millis(500));
            }
        }
    }
}

impl EventLog for JetStreamLog {
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
        Box::pin(self.read_impl(stream, from_version))
    }

    fn last_version<'a>(&'a self, stream: &'a str) -> BoxFuture<'a, Result<Version, LogError>> {
        Box::pin(self.last_version_impl(stream))
    }

    fn subscribe(&self, from: SubscribeFrom) -> BoxFuture<'_, Result<EventStream, LogError>> {
        Box::pin(self.subscribe_impl(from))
    }

    fn list_streams(&self) -> BoxFuture<'_, Result<Vec<String>, LogError>> {
        Box::pin(self.list_streams_impl())
    }
}

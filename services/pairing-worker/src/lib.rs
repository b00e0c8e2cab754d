//! The pairing worker: answers every `PairingRequested` of the event stream. For a request of
//! round r, attempt a, at version v it folds the tournament's stream up to v, builds the
//! engine's input (history, availability, point system, rule set, initial colour), runs
//! `arbiter_pairing::pair`, and appends `PairingProposed` with the engine's name and version,
//! the rule set, the SHA-256 digest of the canonical input ([`arbiter_round_pairing::engine::input_digest`]) and the
//! explanation, or `PairingFailed` with the reason. Its command id is derived from (round,
//! attempt), so a request handled twice (after a crash, or by two workers) appends once.
//!
//! Requests arrive through a [`Feed`]: a subscription to the log resumed from the worker's
//! checkpoint, or a JetStream durable consumer (workers sharing its name share the work, one
//! delivery to one worker). At start the worker also answers every request left pending.
//!
//! The worker is a pool: up to [`Worker::slots`] engines run at once (default: the machine's
//! cores), admitted in order of arrival (a FIFO semaphore), so a large event's pairing holds
//! one slot and never a small event's request while a slot is free. Each tournament's
//! requests are still handled one after the other, in log order (one queue per stream).
//! Following the embedded log, the feed moves on as soon as a request is queued: a request
//! lost to a crash is still unanswered in the log and the sweep at the next start answers it.
//! Following a durable consumer, a delivery is acknowledged only once answered, so another
//! worker gets it again if this one dies, and a worker holds no more requests than it has
//! slots, leaving the rest to the other workers.
//!
//! The gRPC API (`arbiter.pairing_worker.v1.PairingWorker`) pairs without appending: dry runs,
//! TRF files, explanations, and checks of published rounds. `arbiter_round_pairing::audit` re-runs every published
//! pairing of a stream (what `arbiter replay` reports).

use arbiter_core::ResultCode;
use arbiter_core::tournament::{RoundPhase, State};
use arbiter_eventlog::{CheckpointStore, LogError, Version};
use arbiter_pairing::{RoundPairing, RuleSet, pair};
use arbiter_proto::common::v1::TrfFormat;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::pairing_worker::v1 as api;
use arbiter_proto::pairing_worker::v1::pairing_worker_server::{
    PairingWorker as PairingWorkerApi, PairingWorkerServer,
};
use arbiter_round_pairing::engine::{self, Answer, answer, engine, input_digest, input_for};
use arbiter_service_kit::Host;
use arbiter_service_kit::status::unknown_tournament;
use arbiter_service_kit::store::{
    Batch, CommandContext, Feed, Folded, TournamentStore, stream_of, tournament_of,
};
use futures::StreamExt;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::{Semaphore, oneshot, watch};
use tonic::{Code, Request, Response, Status};
use tracing::{Instrument, debug, info, info_span, warn};

/// The service's name: actor of its commands, key of its checkpoints, durable consumer name.
pub const SERVICE: &str = "pairing-worker";

/// Counters, for tests and logs.
#[derive(Debug, Default)]
pub struct WorkerStats {
    pub proposed: AtomicU64,
    pub failed: AtomicU64,
    /// Requests already answered or superseded when handled.
    pub skipped: AtomicU64,
    /// Engines running now (shared with each run's [`Running`] guard).
    pub running: Arc<AtomicU64>,
    /// Requests given up after repeated failures (answered by the next start's sweep).
    pub abandoned: AtomicU64,
}

/// An engine's run counted while it lasts, in the worker's stats and the process's gauge. It
/// goes with the background job, so a run abandoned at shutdown stays counted until it ends.
struct Running(Arc<AtomicU64>);

impl Running {
    fn start(count: &Arc<AtomicU64>) -> Running {
        count.fetch_add(1, Ordering::Relaxed);
        arbiter_telemetry::metrics::pairing_running(true);
        Running(count.clone())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        arbiter_telemetry::metrics::pairing_running(false);
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One pairing request read from the log: `attempt` of `round`, written at `version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingRequest {
    pub stream: String,
    pub round: u32,
    pub attempt: u32,
    pub version: Version,
}

/// A queued request and who waits for its answer (a durable delivery to acknowledge).
struct Job {
    request: PairingRequest,
    /// Told true once answered (or found answered), false if given up.
    done: Option<oneshot::Sender<bool>>,
    /// The span of the append that asked for it: the pairing belongs to that trace.
    span: tracing::Span,
}

/// Answers pairing requests (see the crate documentation).
pub struct Worker {
    store: Arc<TournamentStore>,
    stats: WorkerStats,
    /// Engine slots; tokio's semaphore admits waiters in arrival order.
    slots: Arc<Semaphore>,
    slot_count: usize,
    /// Requests waiting, per stream; a stream present here has a task working its queue.
    queues: std::sync::Mutex<HashMap<String, VecDeque<Job>>>,
    /// Turns true at shutdown: queued requests are dropped, running ones abandoned.
    stop: watch::Sender<bool>,
}

/// The default pool size: one engine per core.
pub fn default_slots() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Worker {
    pub fn new(store: Arc<TournamentStore>) -> Worker {
        Worker::with_slots(store, default_slots())
    }

    /// A worker running at most `slots` engines at once (at least one).
    pub fn with_slots(store: Arc<TournamentStore>, slots: usize) -> Worker {
        let slots = slots.max(1);
        Worker {
            store,
            stats: WorkerStats::default(),
            slots: Arc::new(Semaphore::new(slots)),
            slot_count: slots,
            queues: Default::default(),
            stop: watch::channel(false).0,
        }
    }

    /// How many engines may run at once.
    pub fn slots(&self) -> usize {
        self.slot_count
    }

    /// Queues `request` behind its stream's earlier ones; the returned receiver gets true once
    /// it is answered (or found answered or superseded), false if it was given up after
    /// repeated failures, and is dropped unanswered at shutdown.
    pub fn submit(self: &Arc<Self>, request: PairingRequest) -> oneshot::Receiver<bool> {
        let (tx, rx) = oneshot::channel();
        let job = Job {
            request,
            done: Some(tx),
            span: tracing::Span::current(),
        };
        let stream = job.request.stream.clone();
        let mut queues = self.queues.lock().expect("queues lock");
        if let Some(q) = queues.get_mut(&stream) {
            q.push_back(job);
            return rx;
        }
        queues.insert(stream.clone(), VecDeque::from([job]));
        drop(queues);
        let worker = self.clone();
        let mut stop = self.stop.subscribe();
        tokio::spawn(async move {
            tokio::select! {
                _ = stop.wait_for(|s| *s) => {}
                _ = worker.drain(&stream) => {}
            }
        });
        rx
    }

    /// Works one stream's queue until it is empty.
    async fn drain(&self, stream: &str) {
        loop {
            let job = {
                let mut queues = self.queues.lock().expect("queues lock");
                let Some(q) = queues.get_mut(stream) else {
                    return;
                };
                match q.pop_front() {
                    Some(j) => j,
                    None => {
                        queues.remove(stream);
                        return;
                    }
                }
            };
            let r = &job.request;
            let mut tries = 0u32;
            let answered = loop {
                match self
                    .handle_request(&r.stream, r.round, r.attempt, r.version)
                    .instrument(job.span.clone())
                    .await
                {
                    Ok(()) => break true,
                    Err(e) => {
                        tries += 1;
                        if tries >= 5 {
                            tracing::error!(stream, round = r.round, error = %e, "pairing request given up (answered after the next start, or by another worker)");
                            self.stats.abandoned.fetch_add(1, Ordering::Relaxed);
                            break false;
                        }
                        warn!(stream, round = r.round, tries, error = %e, "pairing request failed, retrying");
                        tokio::time::sleep(std::time::Duration::from_millis(200 * tries as u64))
                            .await;
                    }
                }
            };
            if let Some(done) = job.done {
                let _ = done.send(answered);
            }
        }
    }

    /// Stops the pool: queued requests are dropped and running pairings abandoned (they are
    /// still unanswered in the log, and answered after the next start).
    pub fn shutdown(&self) {
        let _ = self.stop.send(true);
        self.queues.lock().expect("queues lock").clear();
    }

    pub fn stats(&self) -> &WorkerStats {
        &self.stats
    }

    pub fn store(&self) -> &Arc<TournamentStore> {
        &self.store
    }

    /// Handles one append of the feed: folds it, and queues every `PairingRequested` in it;
    /// with `wait`, returns once they have been handled.
    pub async fn handle_batch(self: &Arc<Self>, batch: Batch, wait: bool) -> Result<(), String> {
        let waiting = self.queue_batch(&batch).await?;
        if wait {
            for w in waiting {
                match w.await {
                    Ok(true) => {}
                    Ok(false) => return Err("a pairing request was given up".to_string()),
                    Err(_) => return Err("stopped before the request was answered".to_string()),
                }
            }
        }
        Ok(())
    }

    /// Folds one append and queues its requests; one receiver per request queued.
    async fn queue_batch(
        self: &Arc<Self>,
        batch: &Batch,
    ) -> Result<Vec<oneshot::Receiver<bool>>, String> {
        // Keep the fold current from the delivered events (no log read when they are the next
        // versions).
        let streams: std::collections::BTreeSet<&str> = batch
            .events
            .iter()
            .map(|e| e.stream.as_str())
            .filter(|s| tournament_of(s).is_some())
            .collect();
        for stream in streams {
            self.store
                .absorb(stream, &batch.events)
                .await
                .map_err(|e| e.to_string())?;
        }
        let mut waiting = Vec::new();
        for e in &batch.events {
            if tournament_of(&e.stream).is_none() {
                continue;
            }
            let wire = match e.decode_event() {
                Ok(w) => w,
                Err(err) => {
                    warn!(stream = %e.stream, version = e.version, error = %err, "undecodable event skipped");
                    continue;
                }
            };
            if let Some(pb::event::Kind::PairingRequested(r)) = &wire.kind {
                waiting.push(self.submit(PairingRequest {
                    stream: e.stream.clone(),
                    round: r.round,
                    attempt: r.attempt,
                    version: e.version,
                }));
            }
        }
        Ok(waiting)
    }

    /// Answers the request of `attempt` of `round` written at `version` of `stream`, unless it
    /// is already answered or superseded.
    pub async fn handle_request(
        &self,
        stream: &str,
        round: u32,
        attempt: u32,
        version: Version,
    ) -> Result<(), String> {
        let tournament = tournament_of(stream).unwrap_or(stream).to_string();
        let span = info_span!("pairing_request", %tournament, round, attempt, version);
        async {
            let latest = self
                .store
                .current(stream)
                .await
                .map_err(|e| e.to_string())?;
            let s = &latest.state;
            if s.round_phase(round) != Some(RoundPhase::Requested)
                || s.round_attempt(round) != Some(attempt)
            {
                debug!("already answered or superseded");
                self.stats.skipped.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            let at = if latest.version == version {
                latest.clone()
            } else {
                self.store
                    .as_of(stream, version)
                    .await
                    .map_err(|e| e.to_string())?
            };
            // A slot of the pool for the engine's run; the slot goes with the background job,
            // so a pairing abandoned at shutdown keeps its core until it ends. The run is
            // background work (lower priority than answering calls: see the service kit's
            // `background`).
            let slot = self
                .slots
                .clone()
                .acquire_owned()
                .await
                .map_err(|e| e.to_string())?;
            let running = Running::start(&self.stats.running);
            let started = std::time::Instant::now();
            let answer = arbiter_service_kit::background::run(move || {
                let a = answer(&at.state, round, version);
                drop(running);
                drop(slot);
                a
            })
            .await;
            arbiter_telemetry::metrics::pairing(started.elapsed());
            let answer = answer.map_err(|e| e.to_string())?;
            let ctx = CommandContext::new(
                &tournament,
                &format!("{SERVICE}:round-{round}:attempt-{attempt}"),
                None,
                SERVICE,
            )
            .map_err(|e| e.message().to_string())?;
            match self.store.execute(&ctx, |_| Ok(answer.command())).await {
                Ok(o) => {
                    match &answer {
                        Answer::Proposed(p) => {
                            self.stats.proposed.fetch_add(1, Ordering::Relaxed);
                            info!(
                                version = o.first_version,
                                boards = p.boards.len(),
                                bye = ?p.bye,
                                replayed = o.replayed,
                                "proposed"
                            );
                        }
                        Answer::Failed(f) => {
                            self.stats.failed.fetch_add(1, Ordering::Relaxed);
                            warn!(version = o.first_version, reason = %f.reason, "pairing failed");
                        }
                    }
                    Ok(())
                }
                Err(status)
                    if matches!(
                        status.code(),
                        Code::AlreadyExists | Code::Aborted | Code::FailedPrecondition
                    ) =>
                {
                    info!(reason = %status.message(), "request no longer open");
                    self.stats.skipped.fetch_add(1, Ordering::Relaxed);
                    Ok(())
                }
                Err(status) => Err(format!(
                    "tournament {tournament} round {round}: {}",
                    status.message()
                )),
            }
        }
        .instrument(span)
        .await
    }

    /// Answers every request left pending in the log (a crash between an event's delivery and
    /// its answer, or requests written while no worker ran), one after the other.
    pub async fn sweep(&self) -> Result<usize, LogError> {
        let mut answered = 0;
        for r in self.pending().await? {
            if let Err(e) = self
                .handle_request(&r.stream, r.round, r.attempt, r.version)
                .await
            {
                warn!(stream = %r.stream, round = r.round, error = %e, "pending request not answered");
            } else {
                answered += 1;
            }
        }
        Ok(answered)
    }

    /// The requests left unanswered in the log.
    pub async fn pending(&self) -> Result<Vec<PairingRequest>, LogError> {
        let mut out = Vec::new();
        for stream in self.store.log().list_streams().await? {
            if tournament_of(&stream).is_none() {
                continue;
            }
            let f = match self.store.current(&stream).await {
                Ok(f) => f,
                Err(e) => {
                    warn!(%stream, error = %e, "cannot fold, skipped");
                    continue;
                }
            };
            let Some(round) = f.state.pending_round() else {
                continue;
            };
            if f.state.round_phase(round) != Some(RoundPhase::Requested) {
                continue;
            }
            let attempt = f.state.round_attempt(round).unwrap_or(0);
            let Some(version) = f.request_version(round, attempt) else {
                continue;
            };
            out.push(PairingRequest {
                stream,
                round,
                attempt,
                version,
            });
        }
        Ok(out)
    }

    /// Queues the requests left pending, then follows `feed` until `shutdown` turns true, and
    /// stops the pool.
    pub async fn follow(
        self: Arc<Self>,
        feed: Feed,
        checkpoints: Option<CheckpointStore>,
        shutdown: watch::Receiver<bool>,
    ) -> Result<(), LogError> {
        match self.pending().await {
            Ok(pending) => {
                if !pending.is_empty() {
                    info!(requests = pending.len(), "answering requests left pending");
                }
                // Queued now; the receivers of their outcomes are not kept (nobody waits).
                for r in pending {
                    drop(self.submit(r));
                }
            }
            Err(e) => warn!(error = %e, "sweep of pending requests failed"),
        }
        let followed = match feed {
            Feed::Durable(js) => self.clone().follow_durable(js, shutdown).await,
            feed => {
                let worker = self.clone();
                feed.follow(
                    SERVICE,
                    checkpoints,
                    move |batch| {
                        let worker = worker.clone();
                        async move { worker.handle_batch(batch, false).await }
                    },
                    shutdown,
                )
                .await
            }
        };
        self.shutdown();
        followed
    }

    /// Follows the JetStream durable consumer that every worker process shares: a delivery
    /// with requests is acknowledged once they are answered (a worker that dies leaves them
    /// to another), and no more deliveries are fetched than there are free slots, so that
    /// while all are busy the other requests stay with the server for an idle worker.
    async fn follow_durable(
        self: Arc<Self>,
        js: arbiter_eventlog::JetStreamLog,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<(), LogError> {
        let name = SERVICE.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
        let consumer = js.durable_consumer(&name, None).await?;
        info!(consumer = %name, slots = self.slot_count, "sharing pairing requests through a durable consumer");
        let mut in_hand = tokio::task::JoinSet::new();
        'fetching: loop {
            while in_hand.len() >= self.slot_count {
                tokio::select! {
                    _ = shutdown.wait_for(|s| *s) => break 'fetching,
                    _ = in_hand.join_next() => {}
                }
            }
            while in_hand.try_join_next().is_some() {}
            if *shutdown.borrow() {
                break;
            }
            // No more deliveries than free slots: a delivery fetched is this process's until
            // acknowledged, so a larger fetch could take a request while the slots are full
            // and hold it from an idle worker.
            let free = self.slot_count - in_hand.len();
            let batch = tokio::select! {
                _ = shutdown.wait_for(|s| *s) => break,
                b = consumer.batch(free, std::time::Duration::from_millis(500)) => b,
            };
            let mut deliveries = match batch {
                Ok(b) => b,
                Err(e) => {
                    warn!(error = %e, "fetch failed, retrying");
                    tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                    continue;
                }
            };
            // Each delivery is queued as it arrives (a request does not wait for the batch to
            // fill or expire).
            while let Some(d) = tokio::select! {
                _ = shutdown.wait_for(|s| *s) => None,
                d = deliveries.next() => d,
            } {
                let d = match d {
                    Ok(d) => d,
                    Err(e) => {
                        warn!(error = %e, "delivery unreadable, fetching again");
                        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                        break;
                    }
                };
                let batch = Batch {
                    position: d.position,
                    events: d.events.clone(),
                };
                let span = batch.span(SERVICE);
                d.set_span_parent(&span);
                arbiter_telemetry::metrics::consumer_position(SERVICE, d.position, Some(d.pending));
                match self.queue_batch(&batch).instrument(span).await {
                    Ok(waiting) if waiting.is_empty() => {
                        // Nothing to answer (most deliveries: results, registrations): a
                        // repeat after a lost acknowledgement is skipped again, so the
                        // confirmation is not waited for.
                        if let Err(e) = d.ack_unconfirmed().await {
                            warn!(position = d.position, error = %e, "ack failed");
                        }
                    }
                    Ok(waiting) => {
                        in_hand.spawn(async move {
                            for w in waiting {
                                if w.await != Ok(true) {
                                    // Given up, or stopped first: another worker (or this
                                    // one restarted) gets it again.
                                    let _ = d.nak().await;
                                    return;
                                }
                            }
                            if let Err(e) = d.ack().await {
                                warn!(position = d.position, error = %e, "ack failed");
                            }
                        });
                    }
                    Err(e) => {
                        warn!(position = d.position, error = %e, "handling failed, asking for redelivery");
                        let _ = d.nak().await;
                    }
                }
            }
        }
        // Requests in hand are given back: the pool's stop drops their receivers (naks).
        self.shutdown();
        let _ = tokio::time::timeout(std::time::Duration::from_millis(500), async {
            while in_hand.join_next().await.is_some() {}
        })
        .await;
        Ok(())
    }
}

/// The gRPC implementation (queries that append nothing).
#[derive(Clone)]
pub struct PairingWorkerService {
    store: Arc<TournamentStore>,
}

impl PairingWorkerService {
    pub fn new(store: Arc<TournamentStore>) -> PairingWorkerService {
        PairingWorkerService { store }
    }

    pub fn into_server(self) -> PairingWorkerServer<PairingWorkerService> {
        PairingWorkerServer::new(self)
    }

    async fn folded(
        &self,
        t: Option<arbiter_proto::common::v1::TournamentRef>,
    ) -> Result<(String, Arc<Folded>), Status> {
        let t = t.unwrap_or_default();
        let stream = stream_of(&t.tournament_id)?;
        let f = self
            .store
            .as_of(&stream, t.as_of_version)
            .await
            .map_err(|e| e.to_status())?;
        if f.version == 0 {
            return Err(unknown_tournament(&t.tournament_id));
        }
        Ok((t.tournament_id, f))
    }
}

fn wire_boards(p: &RoundPairing) -> Vec<pb::Board> {
    p.boards
        .iter()
        .enumerate()
        .map(|(i, b)| pb::Board {
            number: i as u32 + 1,
            white: b.white,
            black: b.black,
        })
        .collect()
}

fn unpaired_of(state: &State, round: u32, bye: Option<u32>) -> Vec<pb::Unpaired> {
    let mut out: Vec<pb::Unpaired> = state
        .players()
        .filter_map(|p| {
            let pn = p.pairing_number();
            let code = if Some(pn) == bye {
                ResultCode::PairingBye
            } else {
                p.availability(round).unpaired_code()?
            };
            Some(pb::Unpaired {
                player_id: pn,
                code: pb::ResultCode::from(code) as i32,
            })
        })
        .collect();
    out.sort_by_key(|u| u.player_id);
    out
}

/// Runs the engine off the async threads.
async fn run_engine(
    input: &arbiter_pairing::PairingInput,
) -> Result<Result<RoundPairing, arbiter_pairing::PairingError>, Status> {
    let input = input.clone();
    tokio::task::spawn_blocking(move || pair(&input))
        .await
        .map_err(|e| Status::internal(format!("the engine stopped: {e}")))
}

#[tonic::async_trait]
impl PairingWorkerApi for PairingWorkerService {
    async fn pair(
        &self,
        request: Request<api::PairRequest>,
    ) -> Result<Response<api::PairingResult>, Status> {
        let r = request.into_inner();
        let (tid, f) = self.folded(r.tournament).await?;
        let round = match r.round {
            0 => f.state.next_open_round().ok_or_else(|| {
                Status::failed_precondition(format!("tournament {tid}: no round is left to pair"))
            })?,
            n => n,
        };
        let rule_set = (!r.rule_set.trim().is_empty()).then(|| r.rule_set.trim().to_string());
        let (_, input) = input_for(&f.state, round, rule_set.as_deref()).map_err(|why| {
            Status::failed_precondition(format!("tournament {tid}: round {round}: {why}"))
        })?;
        let p = run_engine(&input).await?.map_err(|e| {
            Status::failed_precondition(format!("tournament {tid}: round {round}: {e}"))
        })?;
        Ok(Response::new(api::PairingResult {
            round,
            boards: wire_boards(&p),
            unpaired: unpaired_of(&f.state, round, p.bye),
            engine: Some(arbiter_proto::convert::engine_to_wire(&engine())),
            rule_set: input.rule_set.name().to_string(),
            based_on_version: f.version,
            input_digest: input_digest(&input).to_vec(),
            explanation: p.explanation.render(),
        }))
    }

    async fn pair_trf(
        &self,
        request: Request<api::PairTrfRequest>,
    ) -> Result<Response<api::PairingResult>, Status> {
        let r = request.into_inner();
        if r.format != TrfFormat::Unspecified as i32 && TrfFormat::try_from(r.format).is_err() {
            return Err(Status::invalid_argument(format!(
                "format: value {} is unknown",
                r.format
            )));
        }
        let file = arbiter_trf::parse_bytes(&r.trf)
            .map_err(|e| Status::invalid_argument(format!("trf: {e}")))?
            .file;
        let record = arbiter_pairing::trf::record_from_trf(&file)
            .map_err(|e| Status::invalid_argument(format!("trf: {e}")))?;
        // The same decisions as `arbiter pair`: no silent rule set, no round past the last.
        let asked: Option<RuleSet> = (!r.rule_set.trim().is_empty())
            .then(|| r.rule_set.trim().parse())
            .transpose()
            .map_err(|e| Status::invalid_argument(format!("rule_set: {e}")))?;
        let rule_set = arbiter_pairing::trf::rule_set_for(asked, &file).map_err(|why| {
            Status::invalid_argument(format!(
                "rule_set: {why}; set it to dutch-2017 or dutch-2025"
            ))
        })?;
        let round = record
            .round_to_pair(r.round)
            .map_err(|why| Status::invalid_argument(format!("round: {why}")))?;
        let input = record
            .input_for_round(round, rule_set)
            .map_err(|e| Status::invalid_argument(format!("trf: round {round}: {e}")))?;
        let p = run_engine(&input)
            .await?
            .map_err(|e| Status::failed_precondition(format!("round {round}: {e}")))?;
        let mut unpaired: Vec<pb::Unpaired> = input
            .players
            .iter()
            .filter(|pl| !pl.available)
            .map(|pl| pb::Unpaired {
                player_id: pl.id,
                code: pb::ResultCode::ZeroBye as i32,
            })
            .collect();
        if let Some(b) = p.bye {
            unpaired.push(pb::Unpaired {
                player_id: b,
                code: pb::ResultCode::PairingBye as i32,
            });
        }
        unpaired.sort_by_key(|u| u.player_id);
        Ok(Response::new(api::PairingResult {
            round,
            boards: wire_boards(&p),
            unpaired,
            engine: Some(arbiter_proto::convert::engine_to_wire(&engine())),
            rule_set: rule_set.name().to_string(),
            based_on_version: 0,
            input_digest: input_digest(&input).to_vec(),
            explanation: p.explanation.render(),
        }))
    }

    async fn explain(
        &self,
        request: Request<api::ExplainRequest>,
    ) -> Result<Response<api::ExplainResponse>, Status> {
        let r = request.into_inner();
        let (tid, f) = self.folded(r.tournament).await?;
        let proposal = f.state.proposal(r.round).ok_or_else(|| {
            Status::not_found(format!(
                "tournament {tid}: round {} has no proposal to explain",
                r.round
            ))
        })?;
        let explanation = if r.pairing_number == 0 {
            proposal.explanation.clone()
        } else {
            let needle = r.pairing_number.to_string();
            let mut out = String::new();
            let mut block: Vec<&str> = Vec::new();
            let flush = |block: &mut Vec<&str>, out: &mut String| {
                if block.iter().any(|l| {
                    l.split(|c: char| !c.is_ascii_digit())
                        .any(|tok| tok == needle)
                }) {
                    for l in block.iter() {
                        out.push_str(l);
                        out.push('\n');
                    }
                }
                block.clear();
            };
            for line in proposal.explanation.lines() {
                if line.trim().is_empty() {
                    flush(&mut block, &mut out);
                } else {
                    block.push(line);
                }
            }
            flush(&mut block, &mut out);
            out
        };
        Ok(Response::new(api::ExplainResponse {
            explanation,
            proposal_version: f.proposal_version(r.round, proposal.attempt).unwrap_or(0),
        }))
    }

    async fn check(
        &self,
        request: Request<api::CheckRequest>,
    ) -> Result<Response<api::CheckResponse>, Status> {
        let r = request.into_inner();
        let (tid, f) = self.folded(r.tournament).await?;
        let round = r.round;
        let no_pairing = || {
            Status::failed_precondition(format!(
                "tournament {tid}: round {round} has no published pairing"
            ))
        };
        // What is judged, and the state it is judged on: the state the round was (or is being)
        // paired from. A candidate is judged on the current state while its round is proposed
        // and not yet published; the published pairing on the state just before publication.
        let (before, judged, judged_unpaired) = if r.candidate_boards.is_empty() {
            let published_at = f.publication_version(round).ok_or_else(no_pairing)?;
            let published = f.state.published(round).ok_or_else(no_pairing)?;
            let stream = stream_of(&tid)?;
            let before = self
                .store
                .as_of(&stream, published_at - 1)
                .await
                .map_err(|e| e.to_status())?;
            let boards = published
                .boards
                .iter()
                .map(|b| pb::Board {
                    number: b.number,
                    white: b.white,
                    black: b.black,
                })
                .collect::<Vec<_>>();
            let unpaired = published
                .unpaired
                .iter()
                .map(|u| (u.player_id, u.code == ResultCode::PairingBye))
                .collect::<Vec<_>>();
            (before, boards, unpaired)
        } else {
            if f.state.published(round).is_some() {
                return Err(Status::failed_precondition(format!(
                    "tournament {tid}: round {round} is published already: check the published \
                     pairing (no candidate boards)"
                )));
            }
            if f.state.proposal(round).is_none() {
                return Err(Status::failed_precondition(format!(
                    "tournament {tid}: round {round} is not started: there is nothing to judge a \
                     candidate against"
                )));
            }
            let unpaired = r
                .candidate_unpaired
                .iter()
                .map(|u| (u.player_id, u.code == pb::ResultCode::PairingBye as i32))
                .collect::<Vec<_>>();
            (f.clone(), r.candidate_boards, unpaired)
        };
        let before = &before.state;
        if engine::is_round_robin(before) {
            let rests: Vec<u32> = judged_unpaired.iter().map(|(p, _)| *p).collect();
            return check_round_robin(&tid, before, round, &judged, &rests).map(Response::new);
        }
        let byes: Vec<u32> = judged_unpaired
            .iter()
            .filter(|(_, bye)| *bye)
            .map(|(p, _)| *p)
            .collect();
        if byes.len() > 1 {
            return Err(Status::invalid_argument(format!(
                "tournament {tid}: round {round}: more than one pairing-allocated bye ({byes:?})"
            )));
        }
        let judged_bye = byes.first().copied();
        let (_, input) = input_for(before, round, None).map_err(|why| {
            Status::failed_precondition(format!("tournament {tid}: round {round}: {why}"))
        })?;
        let p = run_engine(&input).await?.map_err(|e| {
            Status::failed_precondition(format!("tournament {tid}: round {round}: {e}"))
        })?;
        let differences = board_differences(&judged, &wire_boards(&p));
        let mut unpaired_differences = Vec::new();
        if judged_bye != p.bye {
            unpaired_differences.extend(judged_bye);
            unpaired_differences.extend(p.bye);
        }
        let recomputed = input_digest(&input).to_vec();
        let published_digest = before
            .proposal(round)
            .map(|pp| pp.input_digest)
            .unwrap_or_default();
        let verdict = if differences.is_empty() && unpaired_differences.is_empty() {
            None
        } else {
            let recorded =
                engine::recorded_pairing(judged.iter().map(|b| (b.white, b.black)), judged_bye);
            let input = input.clone();
            let compared =
                tokio::task::spawn_blocking(move || arbiter_pairing::compare(&input, &recorded))
                    .await
                    .map_err(|e| Status::internal(format!("the engine stopped: {e}")))?;
            match compared {
                Ok(c) => Some(c.verdict),
                // What cannot be compared is not a pairing of the round: say why.
                Err(e) => Some(arbiter_pairing::Verdict::NotAPairing {
                    detail: e.to_string(),
                }),
            }
        };
        Ok(Response::new(api::CheckResponse {
            deciding_rule: verdict
                .as_ref()
                .and_then(|v| v.rule())
                .unwrap_or_default()
                .to_string(),
            verdict: verdict.map(|v| v.to_string()).unwrap_or_default(),
            matches: differences.is_empty() && unpaired_differences.is_empty(),
            published_input_digest: published_digest,
            recomputed_input_digest: recomputed,
            differences,
            unpaired_differences,
            explanation: p.explanation.render(),
        }))
    }
}

/// `Check` of a round robin's published round: the schedule's round board by board (there is
/// no rule to judge a difference by: the schedule is the rule), its rest, and the digest.
/// The boards on which a published pairing and a computed one differ (who plays whom, board by
/// board), for the audit answers of every system.
fn board_differences(judged: &[pb::Board], computed: &[pb::Board]) -> Vec<api::BoardDifference> {
    let mut differences = Vec::new();
    for i in 0..judged.len().max(computed.len()) {
        let a = judged.get(i).cloned();
        let b = computed.get(i).cloned();
        let same =
            matches!((&a, &b), (Some(x), Some(y)) if x.white == y.white && x.black == y.black);
        if !same {
            differences.push(api::BoardDifference {
                board: i as u32 + 1,
                published: a,
                recomputed: b,
            });
        }
    }
    differences
}

#[allow(clippy::result_large_err)]
fn check_round_robin(
    tid: &str,
    before: &State,
    round: u32,
    judged: &[pb::Board],
    unpaired: &[u32],
) -> Result<api::CheckResponse, Status> {
    let (scheduled, explanation) = engine::round_robin_round(before, round).map_err(|why| {
        Status::failed_precondition(format!("tournament {tid}: round {round}: {why}"))
    })?;
    let computed: Vec<pb::Board> = scheduled
        .boards
        .iter()
        .enumerate()
        .map(|(i, p)| pb::Board {
            number: i as u32 + 1,
            white: p.white,
            black: p.black,
        })
        .collect();
    let differences = board_differences(judged, &computed);
    let published_rest = unpaired
        .iter()
        .find(|p| Some(**p) == scheduled.rest)
        .copied();
    let mut unpaired_differences = Vec::new();
    if published_rest != scheduled.rest {
        unpaired_differences.extend(published_rest);
        unpaired_differences.extend(scheduled.rest);
    }
    let matches = differences.is_empty() && unpaired_differences.is_empty();
    Ok(api::CheckResponse {
        deciding_rule: if matches {
            String::new()
        } else {
            "C.05 §5.1 (Berger tables)".to_string()
        },
        verdict: if matches {
            String::new()
        } else {
            "the pairing is not the round-robin schedule's round".to_string()
        },
        matches,
        published_input_digest: before
            .proposal(round)
            .map(|pp| pp.input_digest)
            .unwrap_or_default(),
        recomputed_input_digest: engine::round_robin_digest(before, round).to_vec(),
        differences,
        unpaired_differences,
        explanation,
    })
}

/// Adds the pairing worker to `host`: the pool (`slots` engines at once, default one per core)
/// following the host's feed, and the gRPC API.
pub fn register(host: &mut Host, slots: Option<usize>) {
    let store = host.store().clone();
    let worker = Arc::new(match slots {
        Some(n) => Worker::with_slots(store.clone(), n),
        None => Worker::new(store.clone()),
    });
    info!(slots = worker.slots(), "pairing pool");
    host.follower(
        SERVICE,
        worker.follow(
            host.feed().clone(),
            host.checkpoints().cloned(),
            host.stopping(),
        ),
    );
    host.grpc(PairingWorkerService::new(store).into_server());
}

/// Pairs a round from a folded state exactly as the worker would, for callers that need the
/// engine's answer without a log (tests, tools).
pub fn pair_round(state: &State, round: u32) -> Result<RoundPairing, String> {
    let (_, input) = input_for(state, round, None)?;
    pair(&input).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::tournament::{
        Arbiter, Command, CreateTournament, PairingSystem, RegisterPlayer, StartRound,
    };
    use arbiter_eventlog::{EventLog, SledLog};
    use arbiter_service_kit::store::CommandContext;

    async fn tournament(store: &TournamentStore, players: u32) {
        tournament_of(store, players, PairingSystem::Dutch).await
    }

    async fn tournament_of(store: &TournamentStore, players: u32, system: PairingSystem) {
        let d = "2025-09-01".parse().unwrap();
        let mut c = CreateTournament::new("Worker test", d, d, 3);
        c.pairing_system = system;
        c.chief_arbiter = Arbiter::named("Doe, Jane");
        let ctx = CommandContext::new("w", "create", None, "test").unwrap();
        store
            .execute(&ctx, |_| Ok(Command::CreateTournament(c.clone())))
            .await
            .unwrap();
        for i in 1..=players {
            let ctx = CommandContext::new("w", &format!("p{i}"), None, "test").unwrap();
            store
                .execute(&ctx, |_| {
                    Ok(Command::RegisterPlayer(RegisterPlayer::new(
                        format!("Player, {i}"),
                        2000 + 10 * i,
                    )))
                })
                .await
                .unwrap();
        }
        let ctx = CommandContext::new("w", "start-1", None, "test").unwrap();
        store
            .execute(&ctx, |_| {
                Ok(Command::StartRound(StartRound {
                    round: 1,
                    scheduled_unix_ms: None,
                }))
            })
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn a_request_handled_twice_is_answered_once_with_the_input_digest() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let store = Arc::new(TournamentStore::new(log.clone(), SERVICE, None));
        tournament(&store, 5).await;
        let f = store.current("tournament-w").await.unwrap();
        let requested = f.request_version(1, 1).unwrap();
        assert_eq!(requested, f.version);
        let worker = Worker::new(store.clone());
        worker
            .handle_request("tournament-w", 1, 1, requested)
            .await
            .unwrap();
        worker
            .handle_request("tournament-w", 1, 1, requested)
            .await
            .unwrap();
        assert_eq!(worker.stats().proposed.load(Ordering::Relaxed), 1);
        assert_eq!(worker.stats().skipped.load(Ordering::Relaxed), 1);
        assert_eq!(
            log.last_version("tournament-w").await.unwrap(),
            requested + 1
        );
        let after = store.current("tournament-w").await.unwrap();
        let p = after.state.proposal(1).expect("a proposal");
        assert_eq!(
            (p.boards.len(), p.unpaired.len()),
            (2, 1),
            "5 players: 2 boards and a bye"
        );
        assert_eq!(p.engine, engine());
        assert_eq!(p.rule_set, "dutch-2025");
        assert_eq!(p.based_on_version, requested);
        assert!(p.explanation.contains("Round 1"), "{}", p.explanation);
        // The digest is the canonical input's, recomputed from the events before the request.
        let before = store.as_of("tournament-w", requested).await.unwrap();
        let (_, input) = input_for(&before.state, 1, None).unwrap();
        assert_eq!(p.input_digest, input_digest(&input).to_vec());
        // The sweep finds nothing left to answer.
        assert_eq!(worker.sweep().await.unwrap(), 0);
    }

    #[tokio::test]
    async fn the_other_swiss_systems_are_paired_by_their_own_engines() {
        for (system, name, title) in [
            (PairingSystem::Dubov, "dubov", "Dubov system"),
            (PairingSystem::Burstein, "burstein", "Burstein system"),
            (PairingSystem::Lim, "lim", "Lim system"),
        ] {
            let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
            let store = Arc::new(TournamentStore::new(log.clone(), SERVICE, None));
            tournament_of(&store, 7, system).await;
            let f = store.current("tournament-w").await.unwrap();
            let requested = f.request_version(1, 1).unwrap();
            let worker = Worker::new(store.clone());
            worker
                .handle_request("tournament-w", 1, 1, requested)
                .await
                .unwrap();
            let after = store.current("tournament-w").await.unwrap();
            let p = after.state.proposal(1).expect("a proposal");
            assert_eq!(p.rule_set, name);
            assert_eq!((p.boards.len(), p.unpaired.len()), (3, 1), "{name}");
            assert!(p.explanation.contains(title), "{}", p.explanation);
        }
    }

    #[tokio::test]
    async fn a_round_robins_round_is_its_berger_tables() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let store = Arc::new(TournamentStore::new(log.clone(), SERVICE, None));
        // 3 players, 3 rounds: the table of 4 (handbook: R1 1-4 2-3), number 4 is the rest.
        tournament_of(&store, 3, PairingSystem::RoundRobin).await;
        let f = store.current("tournament-w").await.unwrap();
        let requested = f.request_version(1, 1).unwrap();
        let worker = Worker::new(store.clone());
        worker
            .handle_request("tournament-w", 1, 1, requested)
            .await
            .unwrap();
        let after = store.current("tournament-w").await.unwrap();
        let p = after.state.proposal(1).expect("a proposal");
        assert_eq!(p.rule_set, "berger");
        assert_eq!(p.engine.name, "arbiter-berger");
        let boards: Vec<(u32, u32)> = p.boards.iter().map(|b| (b.white, b.black)).collect();
        assert_eq!(boards, [(2, 3)]);
        assert_eq!(
            p.unpaired,
            [arbiter_core::tournament::Unpaired {
                player_id: 1,
                code: ResultCode::ZeroBye
            }]
        );
        assert!(
            p.explanation.contains("player 1 rests"),
            "{}",
            p.explanation
        );
        let before = store.as_of("tournament-w", requested).await.unwrap();
        assert_eq!(
            p.input_digest,
            engine::round_robin_digest(&before.state, 1).to_vec()
        );
    }

    /// `PairTrf` decides as `arbiter pair` does: no silent rule set for a file that names
    /// none, no round past the event's last, and the rounds it may pair are paired.
    #[tokio::test]
    async fn pair_trf_refuses_what_the_cli_refuses() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let service = PairingWorkerService::new(Arc::new(TournamentStore::new(log, SERVICE, None)));
        // 20 players, all 7 rounds played, type code 092 (dutch-2025), no start date.
        let typed = include_str!("../../../tests/golden/dutch-2025/t0001.trf");
        let untyped: String = typed
            .lines()
            .filter(|l| !l.starts_with("092"))
            .map(|l| format!("{l}\n"))
            .collect();
        let ask = |trf: &str, rule_set: &str, round: u32| {
            service.pair_trf(Request::new(api::PairTrfRequest {
                trf: trf.as_bytes().to_vec(),
                format: 0,
                rule_set: rule_set.into(),
                round,
            }))
        };
        let refused = |r: Result<Response<api::PairingResult>, Status>, why: &str| {
            let e = r.expect_err(why);
            assert_eq!(e.code(), tonic::Code::InvalidArgument, "{e:?}");
            assert!(e.message().contains(why), "{}", e.message());
        };
        refused(ask(typed, "", 0).await, "all 7 rounds are already paired");
        refused(
            ask(typed, "", 8).await,
            "round 8 is past the event's last round (7)",
        );
        refused(ask(&untyped, "", 3).await, "names no rule set");
        for (trf, rule_set) in [(typed, ""), (untyped.as_str(), "dutch-2025")] {
            let r = ask(trf, rule_set, 3)
                .await
                .expect("round 3 pairs")
                .into_inner();
            assert_eq!((r.round, r.rule_set.as_str()), (3, "dutch-2025"));
            assert_eq!(r.boards.len(), 10);
        }
    }

    #[test]
    fn the_digest_covers_every_input_field() {
        let mut s = arbiter_core::tournament::State::default();
        let d = "2025-09-01".parse().unwrap();
        let mut c = CreateTournament::new("Digest", d, d, 3);
        c.chief_arbiter = Arbiter::named("Doe, Jane");
        for e in arbiter_core::tournament::decide(&s, &Command::CreateTournament(c)).unwrap() {
            s.apply(&e);
        }
        for i in 1..=4 {
            let r = Command::RegisterPlayer(RegisterPlayer::new(format!("P, {i}"), 1500 + i));
            for e in arbiter_core::tournament::decide(&s, &r).unwrap() {
                s.apply(&e);
            }
        }
        let (_, input) = input_for(&s, 1, None).unwrap();
        let base = input_digest(&input);
        assert_eq!(base, input_digest(&input.clone()), "deterministic");
        let mut other = input.clone();
        other.players[2].available = false;
        assert_ne!(input_digest(&other), base);
        let mut other = input.clone();
        other.initial_color = arbiter_core::Color::Black;
        assert_ne!(input_digest(&other), base);
        let mut other = input.clone();
        other.rule_set = arbiter_pairing::RuleSet::Dutch2017;
        assert_ne!(input_digest(&other), base);
        let mut other = input;
        other.players[0].rating += 1;
        assert_ne!(input_digest(&other), base);
    }
}

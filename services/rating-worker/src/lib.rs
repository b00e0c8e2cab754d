//! The rating worker: follows every tournament stream and appends, as each round is closed, the
//! rating changes of the event so far, and at the end the title-norm results.
//!
//! - On `RoundClosed` and `ResultCorrected` it appends one `RatingChangesComputed`: per player
//!   the rating before, K, rated games, score, expected score, `K × (score − expected)` and the
//!   performance, through the last published round, under the rating regulations in force on
//!   the start date and in the tournament's rating kind ([`compute`]). Not on every
//!   `ResultRecorded`: each answer carries the whole event's figures, so one per result made
//!   these answers most of the log (a 50-board round wrote its table 50 times); the figures at
//!   any version, mid-round included, are one call away in the gRPC API.
//! - On `TournamentFinished` it appends one `NormResult` per player and title above the one he
//!   holds (standard events): achieved or not, with every failing condition and by how much. A
//!   correction after the end (it counts for rating only, C.04.2.D.8) appends the rating changes
//!   and the norm results again.
//! - Only tournaments rated by FIDE (`fide_rated`) get events; the API answers for every one.
//!
//! What it appends is a function of the stream up to the triggering event (the stream folded
//! to that event's version), and the append's command id is derived from the triggering
//! event's id ([`command_id`]). Handling a trigger twice (a restart before the checkpoint was
//! written, two workers, a sweep) therefore writes nothing new: the command id is found in the
//! stream, or the log answers the identical append as a replay.
//!
//! Events arrive through a [`Feed`] resumed from the worker's checkpoint. At start the worker
//! also sweeps the tail of every stream since its last sweep and answers triggers left without
//! an answer (a batch the feed gave up on).
//!
//! The gRPC API (`arbiter.rating_worker.v1.RatingWorker`, [`RatingWorkerService`]) computes the
//! same figures for any version of a stream. The FIDE rating list
//! registration looks players up in is `arbiter_rating_list`'s.

pub mod compute;
mod service;

pub use service::RatingWorkerService;

use arbiter_core::tournament::State;
use arbiter_eventlog::{CheckpointStore, EventLog, StoredEvent};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_service_kit::Host;
use arbiter_service_kit::store::{Folded, TournamentStore, tournament_of};
/// The worker's counts (the same for every trigger worker).
pub use arbiter_service_kit::trigger::WorkerStats;
use arbiter_service_kit::trigger::{TriggerHandler, TriggerWorker, append_answer};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tracing::{Instrument, debug, info_span, warn};

/// The service's name: actor of its appends, key of its checkpoints, durable consumer name.
pub const SERVICE: &str = "rating-worker";

/// The command id of what the worker appends for the event `event_id`.
pub fn command_id(event_id: impl std::fmt::Display) -> String {
    format!("{SERVICE}:{event_id}")
}

/// What an event asks of the worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// `RoundClosed`: the rating changes.
    Ratings,
    /// `ResultCorrected`: the rating changes, and the norms again if the tournament is over.
    Correction,
    /// `TournamentFinished`: the norm results.
    Finished,
}

impl Trigger {
    /// The trigger of a wire event, if it is one.
    pub fn of(event: &pb::Event) -> Option<Trigger> {
        match event.kind.as_ref()? {
            Kind::RoundClosed(_) => Some(Trigger::Ratings),
            Kind::ResultCorrected(_) => Some(Trigger::Correction),
            Kind::TournamentFinished(_) => Some(Trigger::Finished),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Trigger::Ratings => "ratings",
            Trigger::Correction => "correction",
            Trigger::Finished => "finished",
        }
    }
}

/// What the worker appends for `trigger`, given the tournament folded up to the triggering
/// event (empty: nothing to append).
pub fn answer(state: &State, trigger: Trigger) -> Vec<pb::Event> {
    if !state.tournament().is_some_and(|t| t.fide_rated) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if matches!(trigger, Trigger::Ratings | Trigger::Correction)
        && let Some(r) = compute::event_ratings(state)
    {
        out.push(pb::Event {
            origin: None,
            kind: Some(Kind::RatingChangesComputed(r.to_event())),
        });
    }
    if trigger == Trigger::Finished || (trigger == Trigger::Correction && state.is_finished()) {
        out.extend(
            compute::norm_results(state, None)
                .into_iter()
                .map(|n| pb::Event {
                    origin: None,
                    kind: Some(Kind::NormResult(n)),
                }),
        );
    }
    out
}

/// Counters, for tests and logs.

/// Answers triggers (see the crate documentation).
pub struct Worker {
    store: Arc<TournamentStore>,
    checkpoints: Option<CheckpointStore>,
    /// Per stream, the fold at the last event seen, advanced event by event as the feed
    /// delivers them, so that the state at a trigger is at hand without re-reading the stream.
    cursors: tokio::sync::Mutex<HashMap<String, Folded>>,
    stats: Arc<WorkerStats>,
    appends: Appends,
}

/// Answers on their way to the log. The feed does not wait for each append (a durable append
/// waits for a flush, and one at a time the worker fell behind hundreds of busy streams): the
/// answer is computed in feed order, then appended by a task that waits for the stream's
/// previous answer, so a stream's answers stay in the order of their triggers. At most
/// [`MAX_APPENDS_IN_FLIGHT`] at once (the feed waits beyond that). An answer lost to a stop
/// before its append is found missing by the next start's sweep.
struct Appends {
    last: std::sync::Mutex<HashMap<String, tokio::task::JoinHandle<()>>>,
    slots: Arc<tokio::sync::Semaphore>,
}

/// Appends of answers in flight at once.
const MAX_APPENDS_IN_FLIGHT: usize = 64;
/// Attempts of one append before it is left to the next sweep.
const APPEND_ATTEMPTS: u32 = 3;

impl Worker {
    pub fn new(store: Arc<TournamentStore>, checkpoints: Option<CheckpointStore>) -> Worker {
        Worker {
            store,
            checkpoints,
            cursors: Default::default(),
            stats: Arc::new(WorkerStats::default()),
            appends: Appends {
                last: Default::default(),
                slots: Arc::new(tokio::sync::Semaphore::new(MAX_APPENDS_IN_FLIGHT)),
            },
        }
    }

    /// Waits until every answer handed to the log so far is appended (or given up).
    pub async fn settle(&self) {
        let pending: Vec<tokio::task::JoinHandle<()>> = {
            let mut last = self.appends.last.lock().expect("appends lock");
            last.drain().map(|(_, h)| h).collect()
        };
        for h in pending {
            let _ = h.await;
        }
    }

    pub fn stats(&self) -> &WorkerStats {
        &self.stats
    }

    pub fn store(&self) -> &Arc<TournamentStore> {
        &self.store
    }

    /// Folds `e` into its stream's cursor and, if it is a trigger not yet answered, appends the
    /// answer.
    pub async fn handle_event(&self, e: &StoredEvent) -> Result<(), String> {
        let Some(tournament) = tournament_of(&e.stream) else {
            return Ok(());
        };
        let mut cursors = self.cursors.lock().await;
        match cursors.get_mut(&e.stream) {
            Some(c) if c.version + 1 == e.version => {
                if let Err(err) = c.apply_stored(e) {
                    warn!(stream = %e.stream, version = e.version, error = %err, "cursor dropped");
                    cursors.remove(&e.stream);
                }
            }
            Some(c) if c.version >= e.version => {}
            _ => {
                cursors.remove(&e.stream);
            }
        }
        let wire = match e.decode_event() {
            Ok(w) => w,
            Err(err) => {
                warn!(stream = %e.stream, version = e.version, error = %err, "undecodable event skipped");
                return Ok(());
            }
        };
        let Some(trigger) = Trigger::of(&wire) else {
            return Ok(());
        };
        self.stats.triggers.fetch_add(1, Ordering::Relaxed);
        let command = command_id(e.event_id);
        let span = info_span!(
            "rating_trigger",
            %tournament,
            version = e.version,
            trigger = trigger.name(),
            command_id = %command,
        );
        async {
            let current = self
                .store
                .current(&e.stream)
                .await
                .map_err(|x| x.to_string())?;
            if current.command(&command).is_some() {
                debug!("already answered");
                self.stats.already_answered.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            // The state at the trigger: the cursor when it is there, else a fold of the stream
            // up to the trigger (which becomes the cursor).
            if let Some(c) = cursors.get(&e.stream).filter(|c| c.version == e.version) {
                return self.answer_with(&c.state, e, trigger, &command).await;
            }
            let f = self
                .store
                .as_of(&e.stream, e.version)
                .await
                .map_err(|x| x.to_string())?;
            if f.version != e.version {
                return Err(format!(
                    "stream {} folded to version {} instead of {}",
                    e.stream, f.version, e.version
                ));
            }
            if cursors.get(&e.stream).is_none_or(|c| c.version < e.version) {
                cursors.insert(e.stream.clone(), (*f).clone());
            }
            self.answer_with(&f.state, e, trigger, &command).await
        }
        .instrument(span)
        .await?;
        if trigger == Trigger::Finished {
            // Finished tournaments rarely change again: free the cursor.
            cursors.remove(&e.stream);
        }
        Ok(())
    }

    async fn answer_with(
        &self,
        state: &State,
        e: &StoredEvent,
        trigger: Trigger,
        command: &str,
    ) -> Result<(), String> {
        // Ratings and norm searches are background work: off the async threads, at a lower
        // priority than answering calls (the service kit's `background`).
        let state = state.clone();
        let events = arbiter_service_kit::background::run(move || answer(&state, trigger))
            .await
            .map_err(|x| format!("rating or norm computation stopped: {x}"))?;
        if events.is_empty() {
            debug!("nothing to append");
            self.stats.nothing_to_append.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        self.submit(&e.stream, command, events).await;
        Ok(())
    }

    /// Hands an answer to the log (see [`Appends`]).
    async fn submit(&self, stream: &str, command: &str, events: Vec<pb::Event>) {
        // Never closed, so always a permit.
        let permit = self.appends.slots.clone().acquire_owned().await.ok();
        let log = self.store.log().clone();
        let stats = self.stats.clone();
        let key = stream.to_string();
        let (stream, command) = (stream.to_string(), command.to_string());
        let mut last = self.appends.last.lock().expect("appends lock");
        let before = last.remove(&key);
        let span = tracing::Span::current();
        let task = tokio::spawn(
            async move {
                if let Some(before) = before {
                    let _ = before.await;
                }
                append_with_retries(&log, &stats, &stream, &command, &events).await;
                drop(permit);
            }
            .instrument(span),
        );
        last.insert(key, task);
        last.retain(|_, h| !h.is_finished());
    }
}

impl TriggerWorker for Worker {
    const SERVICE: &'static str = SERVICE;

    fn store(&self) -> &Arc<TournamentStore> {
        &self.store
    }

    fn checkpoints(&self) -> Option<CheckpointStore> {
        self.checkpoints.clone()
    }
}

impl TriggerHandler for Worker {
    async fn handle_event(&self, e: &StoredEvent) -> Result<(), String> {
        Worker::handle_event(self, e).await
    }

    async fn settle(&self) {
        Worker::settle(self).await
    }
}

/// Appends one answer, a few times if the log refuses for a passing reason; an answer still
/// not appended is found missing by the next sweep.
async fn append_with_retries(
    log: &Arc<dyn EventLog>,
    stats: &WorkerStats,
    stream: &str,
    command: &str,
    events: &[pb::Event],
) {
    for attempt in 1..=APPEND_ATTEMPTS {
        match append_answer(log, stats, stream, command, SERVICE, events).await {
            Ok(()) => return,
            Err(x) if attempt < APPEND_ATTEMPTS => {
                warn!(%stream, attempt, error = %x, "answer not appended; trying again");
                tokio::time::sleep(std::time::Duration::from_millis(50 << attempt)).await;
            }
            Err(x) => {
                warn!(%stream, error = %x, "answer not appended; the next sweep answers it");
            }
        }
    }
}

/// Adds the rating worker to `host`: the worker following the host's feed (its sweep position
/// in the host's checkpoints), and the gRPC API.
pub fn register(host: &mut Host) {
    let store = host.store().clone();
    let worker = Arc::new(Worker::new(store.clone(), host.checkpoints().cloned()));
    host.follower(
        SERVICE,
        worker.follow(
            host.feed().clone(),
            host.checkpoints().cloned(),
            host.stopping(),
        ),
    );
    host.grpc(RatingWorkerService::new(store).into_server());
}

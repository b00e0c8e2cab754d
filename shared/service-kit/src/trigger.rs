//! The trigger follower: what a worker that answers events of the tournament streams (the
//! rating worker's results and closed rounds, the screening service's closed rounds) is run
//! by. At start a sweep reads every tournament stream from where the last sweep stopped (its
//! position per stream in the service's checkpoints, key `sweep:<stream>`) and hands each event
//! to the worker, so that triggers left unanswered by a stop are answered; then the follower
//! hands every append of the feed to it, until shutdown.
//!
//! The worker decides what a trigger is and whether it is answered already (its command ids
//! are derived from the trigger), so handing it an event twice appends nothing twice.

use crate::store::{Feed, TournamentStore, tournament_of};
use arbiter_eventlog::{Checkpoint, CheckpointStore, LogError, StoredEvent};
use std::future::Future;
use std::sync::Arc;
use tokio::sync::watch;
use tracing::{Instrument, info, info_span, warn};

/// A worker the [`TriggerFollower`] runs.
pub trait TriggerHandler: Send + Sync + 'static {
    /// Answers `e` if it is a trigger without an answer. An error stops the sweep of that
    /// stream (and has the feed deliver the append again).
    fn handle_event(&self, e: &StoredEvent) -> impl Future<Output = Result<(), String>> + Send;

    /// Waits until the answers handed on so far are in the log (for workers whose appends run
    /// behind their handling); a sweep position is recorded only after it.
    fn settle(&self) -> impl Future<Output = ()> + Send {
        async {}
    }
}

/// The checkpoint key under which the sweep records how far it has read `stream`.
pub fn sweep_key(stream: &str) -> String {
    format!("sweep:{stream}")
}

/// Sweeps, then follows a feed, for one service (see the module documentation).
#[derive(Clone)]
pub struct TriggerFollower {
    service: &'static str,
    store: Arc<TournamentStore>,
    checkpoints: Option<CheckpointStore>,
}

impl TriggerFollower {
    /// `service` names the checkpoints and the feed's consumer; `checkpoints` keeps the sweep
    /// positions (none: every sweep reads every stream from the start).
    pub fn new(
        service: &'static str,
        store: Arc<TournamentStore>,
        checkpoints: Option<CheckpointStore>,
    ) -> TriggerFollower {
        TriggerFollower {
            service,
            store,
            checkpoints,
        }
    }

    /// Reads every tournament stream from where the last sweep stopped and hands its events to
    /// `handler`. Returns the number of events read.
    pub async fn sweep<H: TriggerHandler>(&self, handler: &H) -> Result<u64, LogError> {
        let service = self.service;
        let mut read = 0u64;
        for stream in self.store.log().list_streams().await? {
            if tournament_of(&stream).is_none() {
                continue;
            }
            let from = match &self.checkpoints {
                Some(c) => c
                    .get(service, &sweep_key(&stream))?
                    .map_or(0, |c| c.version),
                None => 0,
            };
            let events = self.store.log().read(&stream, from + 1).await?;
            let mut done = from;
            for e in &events {
                if let Err(err) = handler.handle_event(e).await {
                    warn!(service, %stream, version = e.version, error = %err, "sweep stopped on this stream");
                    break;
                }
                done = e.version;
                read += 1;
            }
            // The position is recorded only once the answers up to it are in the log.
            handler.settle().await;
            if done > from
                && let Some(c) = &self.checkpoints
            {
                let mark = Checkpoint {
                    version: done,
                    snapshot: None,
                };
                if let Err(err) = c.put(service, &sweep_key(&stream), &mark).await {
                    warn!(service, %stream, error = %err, "cannot record the sweep position");
                }
            }
        }
        Ok(read)
    }

    /// Sweeps, then hands every append of `feed` to `handler` until `shutdown` turns true;
    /// settles the handler's answers before returning.
    pub async fn follow<H: TriggerHandler>(
        self,
        handler: Arc<H>,
        feed: Feed,
        shutdown: watch::Receiver<bool>,
    ) -> Result<(), LogError> {
        let service = self.service;
        match self
            .sweep(handler.as_ref())
            .instrument(info_span!("sweep", service))
            .await
        {
            Ok(n) if n > 0 => info!(service, events = n, "swept the streams' tails"),
            Ok(_) => {}
            Err(e) => warn!(service, error = %e, "sweep failed"),
        }
        let h = handler.clone();
        let followed = feed
            .follow(
                service,
                self.checkpoints.clone(),
                move |batch| {
                    let h = h.clone();
                    async move {
                        for e in &batch.events {
                            h.handle_event(e).await?;
                        }
                        Ok(())
                    }
                },
                shutdown,
            )
            .await;
        handler.settle().await;
        followed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_eventlog::{EventLog, ExpectedVersion, SledLog, encode_events};
    use arbiter_proto::events::v1 as pb;
    use std::sync::Mutex;

    /// Records what it is handed; fails once on `fail` (stream, version).
    #[derive(Default)]
    struct Recorder {
        seen: Mutex<Vec<(String, u64)>>,
        fail: Mutex<Option<(String, u64)>>,
        settled: Mutex<u32>,
    }

    impl TriggerHandler for Recorder {
        async fn handle_event(&self, e: &StoredEvent) -> Result<(), String> {
            let mut fail = self.fail.lock().unwrap();
            if fail.as_ref() == Some(&(e.stream.clone(), e.version)) {
                *fail = None;
                return Err("not now".into());
            }
            self.seen
                .lock()
                .unwrap()
                .push((e.stream.clone(), e.version));
            Ok(())
        }

        async fn settle(&self) {
            *self.settled.lock().unwrap() += 1;
        }
    }

    async fn append(log: &Arc<dyn EventLog>, stream: &str, n: u32) {
        for round in 1..=n {
            let e = pb::Event {
                origin: None,
                kind: Some(pb::event::Kind::RoundClosed(pb::RoundClosed { round })),
            };
            log.append(
                stream,
                ExpectedVersion::Any,
                &uuid::Uuid::new_v4().to_string(),
                "test",
                encode_events(&[e]),
            )
            .await
            .unwrap();
        }
    }

    #[tokio::test]
    async fn a_sweep_hands_each_tournament_event_once_and_resumes_where_it_stopped() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let checkpoints = CheckpointStore::temporary().unwrap();
        let store = Arc::new(TournamentStore::new(log.clone(), "test", None));
        let follower = TriggerFollower::new("test", store, Some(checkpoints.clone()));
        append(&log, "tournament-a", 3).await;
        append(&log, "tournament-b", 2).await;
        append(&log, "other", 2).await;
        let h = Recorder::default();
        // b's second event fails: b's sweep stops before it, a's goes on.
        *h.fail.lock().unwrap() = Some(("tournament-b".into(), 2));
        assert_eq!(follower.sweep(&h).await.unwrap(), 4);
        let mut seen = h.seen.lock().unwrap().clone();
        seen.sort();
        assert_eq!(
            seen,
            [
                ("tournament-a".to_string(), 1),
                ("tournament-a".to_string(), 2),
                ("tournament-a".to_string(), 3),
                ("tournament-b".to_string(), 1),
            ]
        );
        // Settled before each stream's position was recorded.
        assert_eq!(*h.settled.lock().unwrap(), 2);
        assert_eq!(
            checkpoints
                .get("test", &sweep_key("tournament-b"))
                .unwrap()
                .map(|c| c.version),
            Some(1)
        );
        // The next sweep starts where each stream's stopped.
        append(&log, "tournament-a", 1).await;
        h.seen.lock().unwrap().clear();
        assert_eq!(follower.sweep(&h).await.unwrap(), 2);
        let mut seen = h.seen.lock().unwrap().clone();
        seen.sort();
        assert_eq!(
            seen,
            [
                ("tournament-a".to_string(), 4),
                ("tournament-b".to_string(), 2)
            ]
        );
        assert_eq!(follower.sweep(&h).await.unwrap(), 0);
    }
}

/// What a trigger worker counts: the same four figures for every worker.
#[derive(Debug, Default)]
pub struct WorkerStats {
    /// Triggers seen.
    pub triggers: std::sync::atomic::AtomicU64,
    /// Appends written.
    pub appended: std::sync::atomic::AtomicU64,
    /// Triggers whose answer was already in the stream (or that the log answered as a replay).
    pub already_answered: std::sync::atomic::AtomicU64,
    /// Triggers with nothing to append.
    pub nothing_to_append: std::sync::atomic::AtomicU64,
}

/// Appends a worker's answer to a trigger under the command id derived from it. The same
/// answer again is a replay of the log, and a different answer already there stands (both
/// counted as already answered); any other refusal is returned for the worker to retry or to
/// leave to the next sweep.
pub async fn append_answer(
    log: &Arc<dyn arbiter_eventlog::EventLog>,
    stats: &WorkerStats,
    stream: &str,
    command: &str,
    actor: &str,
    events: &[arbiter_proto::events::v1::Event],
) -> Result<(), LogError> {
    use std::sync::atomic::Ordering;
    let appended = log
        .append(
            stream,
            arbiter_eventlog::ExpectedVersion::Any,
            command,
            actor,
            arbiter_eventlog::encode_events(events),
        )
        .await;
    match appended {
        Ok(o) if o.replayed => {
            info!(first = o.first_version, "answer was already in the log");
            stats.already_answered.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Ok(o) => {
            info!(
                first = o.first_version,
                last = o.last_version,
                events = events.len(),
                "appended"
            );
            stats.appended.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Err(LogError::CommandIdReused { .. }) => {
            warn!("a different answer to this trigger is already in the stream; kept");
            stats.already_answered.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// A worker run by a [`TriggerFollower`]: its name, store and checkpoints, with sweeping and
/// following provided, so that each worker writes only what triggers it and what it answers.
pub trait TriggerWorker: TriggerHandler + Sized {
    /// The service's name: its checkpoints' owner and its answers' actor.
    const SERVICE: &'static str;

    fn store(&self) -> &Arc<TournamentStore>;

    /// Where the sweep positions are kept (none: every sweep reads every stream).
    fn checkpoints(&self) -> Option<CheckpointStore>;

    /// Reads every tournament stream from where the last sweep stopped and answers the
    /// triggers without an answer. Returns the number of events read.
    fn sweep(&self) -> impl Future<Output = Result<u64, LogError>> + Send {
        async move {
            TriggerFollower::new(Self::SERVICE, self.store().clone(), self.checkpoints())
                .sweep(self)
                .await
        }
    }

    /// Sweeps, then follows `feed` until `shutdown` turns true.
    fn follow(
        self: Arc<Self>,
        feed: Feed,
        checkpoints: Option<CheckpointStore>,
        shutdown: watch::Receiver<bool>,
    ) -> impl Future<Output = Result<(), LogError>> + Send {
        async move {
            TriggerFollower::new(Self::SERVICE, self.store().clone(), checkpoints)
                .follow(self, feed, shutdown)
                .await
        }
    }
}

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

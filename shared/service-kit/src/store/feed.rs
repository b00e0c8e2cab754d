//! The feed: every append after a service's checkpoint, from the log's subscription or a
//! JetStream durable consumer.

use super::*;

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

pub(super) async fn save_position(
    checkpoints: &Option<CheckpointStore>,
    service: &str,
    position: u64,
) {
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

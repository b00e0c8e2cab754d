//! Snapshots of folded streams: when one is due, and writing it off the fold's lock.

use super::*;

/// The snapshot writes of one store: one at a time (so that reading the stored snapshot and
/// replacing it are not interleaved with another write of the same stream), counted so that
/// tests can wait for them.
#[derive(Default)]
pub(super) struct Snapshots {
    pub(super) one_at_a_time: tokio::sync::Mutex<()>,
    pub(super) in_flight: AtomicU64,
    pub(super) idle: tokio::sync::Notify,
}

impl Snapshots {
    pub(super) fn started(&self) {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
    }

    pub(super) fn finished(&self) {
        if self.in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.idle.notify_waiters();
        }
    }

    pub(super) async fn settled(&self) {
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
pub(super) struct SnapshotJob {
    pub(super) store: CheckpointStore,
    pub(super) service: String,
    pub(super) stream: String,
    pub(super) folded: Arc<Folded>,
    /// The version of the entry's last snapshot when the job was made.
    pub(super) checkpointed: Version,
    /// At shutdown: only a stored snapshot as new as this fold will do.
    pub(super) latest: bool,
}

impl SnapshotJob {
    /// Writes the snapshot unless one at least as useful is stored already; returns the
    /// version and size now stored, or `None` when nothing could be stored.
    pub(super) async fn write(self) -> Option<(Version, u64)> {
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

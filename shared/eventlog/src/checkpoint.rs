//! Per-service checkpoints and snapshots, kept in the service's own sled store.
//!
//! A service folding a stream records, per (service, stream), the last version it has applied
//! and optionally an opaque snapshot of its state at that version. On restart it loads the
//! snapshot and resumes reading at `version + 1`.
//!
//! Writes are made durable by one flusher thread per store that serves every waiting `put` with
//! one blocking `Db::flush()` (group commit), never `flush_async` (it deadlocks in sled 0.34
//! under concurrent use: spacejam/sled#1308).

use crate::{LogError, Version};
use std::path::Path;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

const TREE: &str = "arbiter.checkpoints";

/// The last version a service has applied from a stream, with an optional snapshot of its
/// state at that version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    pub version: Version,
    pub snapshot: Option<Vec<u8>>,
}

/// Checkpoints keyed by (service, stream). Cheap to clone.
#[derive(Clone)]
pub struct CheckpointStore {
    tree: sled::Tree,
    flusher: Arc<Flusher>,
    /// Last, so the last clone's tree and flusher (and with it the database) are gone when it
    /// waits for sled to release the folder; `None` when the database is not the store's own.
    _released: Option<Arc<crate::sled_config::Released>>,
}

type FlushReply = oneshot::Sender<Result<(), String>>;

/// The thread that flushes a database for every caller waiting on it, one flush per group.
struct Flusher {
    requests: Option<mpsc::UnboundedSender<FlushReply>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Flusher {
    fn start(db: sled::Db) -> Result<Flusher, LogError> {
        let (requests, mut inbox) = mpsc::unbounded_channel::<FlushReply>();
        let thread = std::thread::Builder::new()
            .name("arbiter-checkpoint-flusher".into())
            .spawn(move || {
                while let Some(first) = inbox.blocking_recv() {
                    let mut group = vec![first];
                    while let Ok(r) = inbox.try_recv() {
                        group.push(r);
                    }
                    // Everything inserted before these requests were sent is covered.
                    let result = db.flush().map(|_| ()).map_err(|e| e.to_string());
                    for reply in group {
                        let _ = reply.send(result.clone());
                    }
                }
                let _ = db.flush();
            })
            .map_err(storage)?;
        Ok(Flusher {
            requests: Some(requests),
            thread: Some(thread),
        })
    }

    async fn flush(&self) -> Result<(), LogError> {
        let (reply, answer) = oneshot::channel();
        self.requests
            .as_ref()
            .ok_or_else(|| storage("checkpoint store closed"))?
            .send(reply)
            .map_err(|_| storage("the checkpoint flusher has stopped"))?;
        answer
            .await
            .map_err(|_| storage("the checkpoint flusher stopped before answering"))?
            .map_err(|e| storage(format!("flushing checkpoints failed: {e}")))
    }
}

impl Drop for Flusher {
    /// Flushes what is left and releases the database before the store is gone.
    fn drop(&mut self) {
        self.requests.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn storage(e: impl std::fmt::Display) -> LogError {
    LogError::Storage(e.to_string())
}

fn key(service: &str, stream: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(4 + service.len() + stream.len());
    k.extend_from_slice(&(service.len() as u32).to_be_bytes());
    k.extend_from_slice(service.as_bytes());
    k.extend_from_slice(stream.as_bytes());
    k
}

fn encode(c: &Checkpoint) -> Vec<u8> {
    let mut v = Vec::with_capacity(9 + c.snapshot.as_ref().map_or(0, Vec::len));
    v.extend_from_slice(&c.version.to_be_bytes());
    match &c.snapshot {
        None => v.push(0),
        Some(s) => {
            v.push(1);
            v.extend_from_slice(s);
        }
    }
    v
}

fn decode(service: &str, stream: &str, v: &[u8]) -> Result<Checkpoint, LogError> {
    let bad = || {
        storage(format!(
            "corrupt checkpoint for service {service:?}, stream {stream:?}"
        ))
    };
    if v.len() < 9 {
        return Err(bad());
    }
    let version = u64::from_be_bytes(v[..8].try_into().expect("8 bytes"));
    let snapshot = match v[8] {
        0 if v.len() == 9 => None,
        1 => Some(v[9..].to_vec()),
        _ => return Err(bad()),
    };
    Ok(Checkpoint { version, snapshot })
}

impl CheckpointStore {
    /// Opens (or creates) a store in the folder `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<CheckpointStore, LogError> {
        let path = path.as_ref();
        let db = crate::sled_config::config(path, crate::sled_config::CHECKPOINTS)
            .open()
            .map_err(storage)?;
        let mut store = CheckpointStore::in_db(&db)?;
        drop(db);
        store._released = Some(Arc::new(crate::sled_config::Released::new(path)));
        Ok(store)
    }

    /// A store in a temporary folder, removed on drop (for tests).
    pub fn temporary() -> Result<CheckpointStore, LogError> {
        let db = crate::sled_config::temporary(crate::sled_config::CHECKPOINTS)
            .open()
            .map_err(storage)?;
        CheckpointStore::in_db(&db)
    }

    /// Uses a tree of an existing sled database, so a service can keep its projection and its
    /// checkpoints in one database (and update both in one sled transaction via [`Self::tree`]).
    pub fn in_db(db: &sled::Db) -> Result<CheckpointStore, LogError> {
        let tree = db.open_tree(TREE).map_err(storage)?;
        Ok(CheckpointStore {
            tree,
            flusher: Arc::new(Flusher::start(db.clone())?),
            _released: None,
        })
    }

    /// The underlying tree (keys and values as written by this module).
    pub fn tree(&self) -> &sled::Tree {
        &self.tree
    }

    pub fn get(&self, service: &str, stream: &str) -> Result<Option<Checkpoint>, LogError> {
        match self.tree.get(key(service, stream)).map_err(storage)? {
            None => Ok(None),
            Some(v) => decode(service, stream, &v).map(Some),
        }
    }

    /// Stores a checkpoint and flushes: it is durable when this returns.
    pub async fn put(&self, service: &str, stream: &str, c: &Checkpoint) -> Result<(), LogError> {
        self.tree
            .insert(key(service, stream), encode(c))
            .map_err(storage)?;
        self.flusher.flush().await
    }

    pub async fn remove(&self, service: &str, stream: &str) -> Result<(), LogError> {
        self.tree.remove(key(service, stream)).map_err(storage)?;
        self.flusher.flush().await
    }

    /// Every checkpoint of a service, by stream name (sorted).
    pub fn list(&self, service: &str) -> Result<Vec<(String, Checkpoint)>, LogError> {
        let mut prefix = (service.len() as u32).to_be_bytes().to_vec();
        prefix.extend_from_slice(service.as_bytes());
        let mut out = Vec::new();
        for item in self.tree.scan_prefix(&prefix) {
            let (k, v) = item.map_err(storage)?;
            let stream = String::from_utf8(k[prefix.len()..].to_vec())
                .map_err(|_| storage("checkpoint key is not UTF-8"))?;
            let c = decode(service, &stream, &v)?;
            out.push((stream, c));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn put_get_list_remove() {
        let store = CheckpointStore::temporary().unwrap();
        assert_eq!(store.get("reporting", "t1").unwrap(), None);
        let c1 = Checkpoint {
            version: 7,
            snapshot: Some(b"state".to_vec()),
        };
        let c2 = Checkpoint {
            version: 3,
            snapshot: None,
        };
        store.put("reporting", "t1", &c1).await.unwrap();
        store.put("reporting", "t2", &c2).await.unwrap();
        // A service whose name is a prefix of another does not see the other's checkpoints.
        store.put("reportingx", "t1", &c2).await.unwrap();
        assert_eq!(store.get("reporting", "t1").unwrap(), Some(c1.clone()));
        let list = store.list("reporting").unwrap();
        assert_eq!(
            list,
            vec![("t1".to_string(), c1), ("t2".to_string(), c2.clone())]
        );
        store.remove("reporting", "t1").await.unwrap();
        assert_eq!(store.get("reporting", "t1").unwrap(), None);
        // An empty snapshot is kept distinct from no snapshot.
        let empty = Checkpoint {
            version: 1,
            snapshot: Some(vec![]),
        };
        store.put("x", "t", &empty).await.unwrap();
        assert_eq!(store.get("x", "t").unwrap(), Some(empty));
    }
}

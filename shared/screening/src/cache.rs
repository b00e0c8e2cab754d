//! The per-position cache, keyed by engine profile id + full FEN. Exact by construction: with
//! one thread, a node budget and a cleared hash the engine gives the same answer for the same
//! FEN every time, so a hit returns what a fresh analysis would.

use crate::uci::Analysis;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Serialize, Deserialize)]
struct Entry {
    profile: String,
    fen: String,
    analysis: Analysis,
}

/// Shared, thread-safe cache with hit/miss counters.
#[derive(Default)]
pub struct PositionCache {
    map: Mutex<HashMap<(String, String), Analysis>>,
    hits: AtomicU64,
    misses: AtomicU64,
    /// Held while the file is written, so that two saves never share the temporary file.
    saving: Mutex<()>,
}

impl PositionCache {
    pub fn new() -> PositionCache {
        PositionCache::default()
    }

    /// Loads a cache file written by [`PositionCache::save`] (JSON lines); a missing file is
    /// an empty cache.
    pub fn load(path: &Path) -> Result<PositionCache, String> {
        let cache = PositionCache::new();
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(cache),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let mut map = cache.map.lock().expect("cache lock");
        for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            let e: Entry = serde_json::from_str(&line).map_err(|e| {
                format!("{}: line {}: not a cache entry: {e}", path.display(), i + 1)
            })?;
            map.insert((e.profile, e.fen), e.analysis);
        }
        drop(map);
        Ok(cache)
    }

    /// Writes every entry, sorted, so the file is the same for the same content. The file is
    /// replaced at once (written aside, then renamed), and the analyses go on meanwhile: the
    /// entries are copied first.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let _one_at_a_time = self.saving.lock().expect("save lock");
        let mut entries: Vec<((String, String), Analysis)> = self
            .map
            .lock()
            .expect("cache lock")
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let tmp = path.with_extension("tmp");
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?,
        );
        for ((profile, fen), analysis) in entries {
            let e = Entry {
                profile,
                fen,
                analysis,
            };
            let line = serde_json::to_string(&e).map_err(|e| e.to_string())?;
            writeln!(out, "{line}").map_err(|e| format!("{}: {e}", tmp.display()))?;
        }
        out.flush().map_err(|e| format!("{}: {e}", tmp.display()))?;
        drop(out);
        std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// A cached answer, counting the hit or the miss.
    pub fn get(&self, profile_id: &str, fen: &str) -> Option<Analysis> {
        let found = self
            .map
            .lock()
            .expect("cache lock")
            .get(&(profile_id.to_string(), fen.to_string()))
            .cloned();
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    pub fn put(&self, profile_id: &str, fen: &str, analysis: Analysis) {
        self.map
            .lock()
            .expect("cache lock")
            .insert((profile_id.to_string(), fen.to_string()), analysis);
    }

    pub fn len(&self) -> usize {
        self.map.lock().expect("cache lock").len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// (hits, misses) since creation or the last reset.
    pub fn counters(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }

    pub fn reset_counters(&self) {
        self.hits.store(0, Ordering::Relaxed);
        self.misses.store(0, Ordering::Relaxed);
    }

    /// Saves the cache to `path` every `every` while the returned guard lives, when entries
    /// were added since the last save: a calibration that runs for hours and is stopped keeps
    /// all but its last minutes of analysis. A failed save here is only logged; the caller's
    /// own save at the end reports its error.
    pub fn keep_saved(self: &Arc<Self>, path: &Path, every: Duration) -> KeepSaved {
        let (stop, stopped) = mpsc::channel::<()>();
        let cache = self.clone();
        let path = path.to_path_buf();
        // Counted here, not in the thread: what is added before the thread starts is new too.
        let mut saved = cache.len();
        let thread = std::thread::spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                let now = cache.len();
                if now == saved {
                    continue;
                }
                match cache.save(&path) {
                    Ok(()) => saved = now,
                    Err(e) => {
                        tracing::warn!(error = %e, "periodic save of the position cache failed")
                    }
                }
            }
        });
        KeepSaved {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

/// The periodic save of [`PositionCache::keep_saved`]; dropping it stops the saves (waiting for
/// one under way to end).
pub struct KeepSaved {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for KeepSaved {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analysis() -> Analysis {
        Analysis {
            candidates: Vec::new(),
            bestmove: "e2e4".into(),
        }
    }

    /// While the guard lives, what is added reaches the file without the run ending; a cache
    /// with nothing new is not written again; the file reads back whole.
    #[test]
    fn a_long_run_keeps_its_cache_saved_as_it_goes() {
        let dir = std::env::temp_dir().join(format!("arbiter-cache-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let path = dir.join("cache");
        let cache = Arc::new(PositionCache::new());
        let saved = cache.keep_saved(&path, Duration::from_millis(20));
        cache.put("p", "fen 1", analysis());
        cache.put("p", "fen 2", analysis());
        // Wait for the saver's next turn (bounded), never for a fixed time.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while PositionCache::load(&path).map_or(0, |c| c.len()) < 2 {
            assert!(std::time::Instant::now() < deadline, "no save in 30 s");
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(saved);
        let back = PositionCache::load(&path).expect("the saved cache loads");
        assert_eq!(back.len(), 2);
        assert!(back.get("p", "fen 1").is_some() && back.get("p", "fen 2").is_some());
        assert!(!path.with_extension("tmp").exists());
        std::fs::remove_dir_all(&dir).expect("the temporary directory is removed");
    }
}

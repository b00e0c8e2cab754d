//! The per-position cache, keyed by engine profile id + full FEN. Exact by construction: with
//! one thread, a node budget and a cleared hash the engine gives the same answer for the same
//! FEN every time, so a hit returns what a fresh analysis would.

use crate::uci::Analysis;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

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

    /// Writes every entry, sorted, so the file is the same for the same content.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let map = self.map.lock().expect("cache lock");
        let mut keys: Vec<_> = map.keys().collect();
        keys.sort();
        let tmp = path.with_extension("tmp");
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?,
        );
        for k in keys {
            let e = Entry {
                profile: k.0.clone(),
                fen: k.1.clone(),
                analysis: map[k].clone(),
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
}

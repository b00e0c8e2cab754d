//! How the project opens its sled databases (the log, checkpoint stores).
//!
//! - A bounded page cache: sled's default is 1 GiB per database, which a server holding a
//!   log and a checkpoint store would grow into under load while the working set (the tails
//!   of streams being played) is a few MB.
//! - zstd compression of new databases: events and snapshots are protobuf and JSON with much
//!   repetition (ids, names, field tags), and sled's log-structured files keep up to half of a
//!   segment dead before cleaning it, so uncompressed the folder was 3-4x the bytes it stores
//!   (3.51x for the log in the 1,000-event load bench, 1.76x compressed). sled sets up a fresh
//!   zstd context for every fragment it writes: about a tenth of the server's CPU under that
//!   load, affordable since the server's allocator is mimalloc and followers' computations run
//!   at a lower priority (RecordResult p99 9.6 ms uncompressed, 20.9 ms compressed).
//! - sled refuses to open a database with another compression setting than the one it was
//!   created with, so an existing database keeps its setting, read back from its own `conf`
//!   file.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// How one kind of database is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Profile {
    /// sled's page cache.
    pub cache_bytes: u64,
    /// Whether a new database is created compressed.
    pub compress_new: bool,
}

/// An event log.
pub(crate) const LOG: Profile = Profile {
    cache_bytes: 192 << 20,
    compress_new: true,
};
/// A checkpoint store (snapshots are read once per stream at start).
pub(crate) const CHECKPOINTS: Profile = Profile {
    cache_bytes: 48 << 20,
    compress_new: true,
};
/// zstd level: the fastest levels already take most of the gain on this data.
const COMPRESSION_LEVEL: i32 = 1;

/// The configuration for the database in `path` (created as `profile` says if new).
pub(crate) fn config(path: &Path, profile: Profile) -> sled::Config {
    let compress = existing_compression(path).unwrap_or(profile.compress_new);
    sled::Config::new()
        .path(path)
        .cache_capacity(profile.cache_bytes)
        .use_compression(compress)
        .compression_factor(COMPRESSION_LEVEL)
}

/// A temporary database (tests), as a new one of `profile`.
pub(crate) fn temporary(profile: Profile) -> sled::Config {
    sled::Config::new()
        .temporary(true)
        .cache_capacity(profile.cache_bytes)
        .use_compression(profile.compress_new)
        .compression_factor(COMPRESSION_LEVEL)
}

/// How long dropping a database waits for sled to let go of its files (see [`Released`]).
const RELEASE_WAIT: Duration = Duration::from_secs(30);

/// Held as the last field of what owns a database opened from a folder: when it drops, the
/// owner's sled handles are gone, and it waits until sled has released the database's file
/// lock, so the folder can be opened again at once by this process. sled's background writes
/// (its thread pool) still hold the lock for a moment after the last handle is dropped, and
/// a reopen in that moment was refused with "could not acquire lock".
pub(crate) struct Released {
    dir: PathBuf,
}

impl Released {
    pub(crate) fn new(dir: &Path) -> Released {
        Released {
            dir: dir.to_path_buf(),
        }
    }
}

impl Drop for Released {
    fn drop(&mut self) {
        if let Err(why) = wait_released(&self.dir, RELEASE_WAIT) {
            tracing::warn!("{why}");
        }
    }
}

/// Waits until no handle holds the lock sled takes on the database in `dir`, at most `within`
/// (the lock is an exclusive `flock`, so taking and dropping it ourselves is the wait). A
/// database still open elsewhere in this process, or by another process, is reported, not
/// waited for past `within`.
pub(crate) fn wait_released(dir: &Path, within: Duration) -> Result<(), String> {
    let file = dir.join("db");
    let lock = match std::fs::File::open(&file) {
        Ok(f) => f,
        // Nothing there, nothing held.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(format!(
                "cannot open {} to wait for its release: {e}",
                file.display()
            ));
        }
    };
    let (done, taken) = std::sync::mpsc::channel();
    // The blocking lock waits in a thread of its own, so a holder that never lets go costs a
    // parked thread, not a hung drop.
    std::thread::Builder::new()
        .name("arbiter-sled-release".into())
        .spawn(move || {
            let _ = done.send(lock.lock().and_then(|()| lock.unlock()));
        })
        .map_err(|e| format!("cannot wait for the release of {}: {e}", file.display()))?;
    match taken.recv_timeout(within) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!(
            "cannot lock {} to wait for its release: {e}",
            file.display()
        )),
        Err(_) => Err(format!(
            "{} is still locked {within:?} after it was closed: is it open elsewhere?",
            file.display()
        )),
    }
}

/// The compression setting recorded by sled in an existing database (`None`: a new one).
fn existing_compression(path: &Path) -> Option<bool> {
    // Text lines followed by a binary checksum.
    let bytes = std::fs::read(path.join("conf")).ok()?;
    String::from_utf8_lossy(&bytes).lines().find_map(|l| {
        let v = l.strip_prefix("use_compression:")?.trim();
        v.parse::<bool>().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes a key to a database opened with `profile` and reads it back after reopening.
    fn write_and_reopen(dir: &Path, profile: Profile) {
        {
            let db = config(dir, profile).open().unwrap();
            db.insert(b"k", b"v").unwrap();
            db.flush().unwrap();
        }
        let db = config(dir, profile).open().unwrap();
        assert_eq!(db.get(b"k").unwrap().as_deref(), Some(&b"v"[..]));
    }

    #[test]
    fn a_database_keeps_the_compression_it_was_created_with() {
        let dir = std::env::temp_dir().join(format!("arbiter-sled-conf-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Created uncompressed, as every database was before compression was turned on: it
        // stays so whatever it is opened as.
        {
            let db = sled::Config::new().path(&dir).open().unwrap();
            db.insert(b"k0", b"v").unwrap();
            db.flush().unwrap();
        }
        assert_eq!(existing_compression(&dir), Some(false));
        write_and_reopen(&dir, LOG);
        write_and_reopen(&dir, CHECKPOINTS);
        assert_eq!(existing_compression(&dir), Some(false));
        std::fs::remove_dir_all(&dir).unwrap();

        // New databases are compressed, and reopen as such.
        for profile in [LOG, CHECKPOINTS] {
            write_and_reopen(&dir, profile);
            assert_eq!(existing_compression(&dir), Some(true));
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}

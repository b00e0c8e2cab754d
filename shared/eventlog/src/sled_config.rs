//! How the project opens its sled databases (the log, checkpoint stores).
//!
//! - A bounded page cache: sled's default is 1 GiB per database, which a server holding a
//!   log and a checkpoint store would grow into under load while the working set (the tails
//!   of streams being played) is a few MB.
//! - zstd compression of new databases: events and snapshots are protobuf and JSON with much
//!   repetition (ids, names, field tags), and sled's log-structured files keep up to half of a
//!   segment dead before cleaning it, so uncompressed the folder was 3-4x the bytes it stores.
//!   sled refuses to open a database with another compression setting than the one it was
//!   created with, so a database created uncompressed (before this setting) stays uncompressed:
//!   the setting is read back from the database's own `conf` file.

use std::path::Path;

/// Page cache of an event log.
pub const LOG_CACHE_BYTES: u64 = 192 << 20;
/// Page cache of a checkpoint store (snapshots are read once per stream at start).
pub const CHECKPOINT_CACHE_BYTES: u64 = 48 << 20;
/// zstd level: the fastest levels already take most of the gain on this data.
const COMPRESSION_LEVEL: i32 = 1;

/// The configuration for the database in `path` (created compressed if new).
pub(crate) fn config(path: &Path, cache_bytes: u64) -> sled::Config {
    let compress = match existing_compression(path) {
        Some(c) => c,
        None => true,
    };
    sled::Config::new()
        .path(path)
        .cache_capacity(cache_bytes)
        .use_compression(compress)
        .compression_factor(COMPRESSION_LEVEL)
}

/// A temporary database (tests), compressed like a new one.
pub(crate) fn temporary(cache_bytes: u64) -> sled::Config {
    sled::Config::new()
        .temporary(true)
        .cache_capacity(cache_bytes)
        .use_compression(true)
        .compression_factor(COMPRESSION_LEVEL)
}

/// The compression setting recorded by sled in an existing database (`None`: a new one).
fn existing_compression(path: &Path) -> Option<bool> {
    // Text lines followed by a binary checksum.
    let bytes = std::fs::read(path.join("conf")).ok()?;
    String::from_utf8_lossy(&bytes)
        .lines().find_map(|l| {
        let v = l.strip_prefix("use_compression:")?.trim();
        v.parse::<bool>().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_keeps_the_compression_it_was_created_with() {
        let dir = std::env::temp_dir().join(format!("arbiter-sled-conf-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Created uncompressed, as every database was before compression was turned on.
        {
            let db = sled::Config::new().path(&dir).open().unwrap();
            db.insert(b"k", b"v").unwrap();
            db.flush().unwrap();
        }
        assert_eq!(existing_compression(&dir), Some(false));
        let db = config(&dir, LOG_CACHE_BYTES).open().unwrap();
        assert_eq!(db.get(b"k").unwrap().as_deref(), Some(&b"v"[..]));
        drop(db);
        std::fs::remove_dir_all(&dir).unwrap();

        // A new database is compressed, and reopens as such.
        {
            let db = config(&dir, LOG_CACHE_BYTES).open().unwrap();
            db.insert(b"k", b"v").unwrap();
            db.flush().unwrap();
        }
        assert_eq!(existing_compression(&dir), Some(true));
        let db = config(&dir, LOG_CACHE_BYTES).open().unwrap();
        assert_eq!(db.get(b"k").unwrap().as_deref(), Some(&b"v"[..]));
        drop(db);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

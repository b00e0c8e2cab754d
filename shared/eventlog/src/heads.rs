//! The head journal of the sled backend: an append-only file, next to the sled files, that
//! records each stream's last version and hash after every append.
//!
//! sled treats a damaged entry of its own log as the torn end of a crash and silently drops
//! everything written after it. The journal lets [`crate::SledLog`] notice: on open, every
//! stream must still reach the version the journal recorded, with the same hash; otherwise the
//! stream is reported as corrupt instead of being served short.
//!
//! Record: `"AJH1"`, stream length (u8), stream, version (u64 BE), hash (32 bytes), position
//! (u64 BE), then the first 8 bytes of SHA-256 over the preceding bytes of the record.
//!
//! A journal made for an empty log starts with a genesis record (the empty stream name at
//! version 0), kept through compaction: a log with events whose journal is missing or empty
//! was not written that way, and is reported (see `SledLog::open`).

use crate::{Hash, Version};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub(crate) const FILE_NAME: &str = "arbiter-heads";
/// The stream name of the genesis record (no stream is named so).
pub(crate) const GENESIS: &str = "";
const MAGIC: &[u8; 4] = b"AJH1";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HeadRecord {
    pub version: Version,
    pub hash: Hash,
    pub position: u64,
}

/// The heads recorded per stream, or why the journal could not be read.
pub(crate) type RecordedHeads = Result<BTreeMap<String, HeadRecord>, String>;

pub(crate) struct HeadJournal {
    file: File,
    dir: PathBuf,
    /// The last head of each stream, to rewrite the journal compactly.
    heads: BTreeMap<String, HeadRecord>,
    /// Bytes in the journal file.
    size: u64,
    /// [`COMPACT_MIN`] (smaller in tests).
    compact_min: u64,
}

/// The journal is rewritten with one record per stream once it grows past this many bytes per
/// stream (and past [`COMPACT_MIN`]), so it stays a small fraction of the log.
const COMPACT_FACTOR: u64 = 8 * 100;
const COMPACT_MIN: u64 = 1 << 20;

fn encode(stream: &str, h: &HeadRecord) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 + 1 + stream.len() + 8 + 32 + 8 + 8);
    out.extend_from_slice(MAGIC);
    out.push(stream.len() as u8);
    out.extend_from_slice(stream.as_bytes());
    out.extend_from_slice(&h.version.to_be_bytes());
    out.extend_from_slice(&h.hash);
    out.extend_from_slice(&h.position.to_be_bytes());
    let check = Sha256::digest(&out);
    out.extend_from_slice(&check[..8]);
    out
}

/// Parses the journal: the last record per stream. A truncated last record (a crash during its
/// write) is ignored; any other damage is an error naming the byte offset.
fn parse(bytes: &[u8]) -> Result<BTreeMap<String, HeadRecord>, String> {
    let mut out = BTreeMap::new();
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let Some(len) = rest.get(4).map(|n| 4 + 1 + *n as usize + 8 + 32 + 8 + 8) else {
            return Ok(out); // torn tail
        };
        if rest.len() < len {
            if rest.len() >= 4 && &rest[..4] != MAGIC {
                return Err(format!("bad record at byte {at}"));
            }
            return Ok(out); // torn tail
        }
        let rec = &rest[..len];
        let check = Sha256::digest(&rec[..len - 8]);
        if &rec[..4] != MAGIC || rec[len - 8..] != check[..8] {
            return Err(format!("bad record at byte {at}"));
        }
        let n = rec[4] as usize;
        let stream = std::str::from_utf8(&rec[5..5 + n])
            .map_err(|_| format!("bad stream name at byte {at}"))?
            .to_string();
        let b = &rec[5 + n..];
        let version = u64::from_be_bytes(b[..8].try_into().expect("8 bytes"));
        let hash: Hash = b[8..40].try_into().expect("32 bytes");
        let position = u64::from_be_bytes(b[40..48].try_into().expect("8 bytes"));
        let entry = out.entry(stream).or_insert(HeadRecord {
            version,
            hash,
            position,
        });
        if version >= entry.version {
            *entry = HeadRecord {
                version,
                hash,
                position,
            };
        }
        at += len;
    }
    Ok(out)
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Replaces the journal with one record per stream (a new file renamed over the old, so a
/// crash leaves one or the other whole). Returns its size.
fn rewrite(dir: &Path, heads: &BTreeMap<String, HeadRecord>) -> io::Result<u64> {
    let tmp = dir.join(format!("{FILE_NAME}.tmp"));
    let mut bytes = Vec::new();
    for (stream, rec) in heads {
        bytes.extend(encode(stream, rec));
    }
    let mut f = File::create(&tmp)?;
    f.write_all(&bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, dir.join(FILE_NAME))?;
    sync_dir(dir)?;
    Ok(bytes.len() as u64)
}

impl HeadJournal {
    /// Opens the journal in `dir`, returning it with the recorded heads. An intact journal is
    /// compacted to one record per stream; a damaged one is left as it is (and reported). For
    /// an empty log (`log_is_empty`) a missing or empty journal gets its genesis record.
    pub fn open(dir: &Path, log_is_empty: bool) -> io::Result<(HeadJournal, RecordedHeads)> {
        let path: PathBuf = dir.join(FILE_NAME);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(e),
        };
        let mut heads = parse(&bytes);
        if log_is_empty
            && let Ok(h) = &mut heads
            && h.is_empty()
        {
            h.insert(
                GENESIS.to_string(),
                HeadRecord {
                    version: 0,
                    hash: [0; 32],
                    position: 0,
                },
            );
        }
        let mut size = bytes.len() as u64;
        if let Ok(h) = &heads {
            size = rewrite(dir, h)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(&path)?;
        let journal = HeadJournal {
            file,
            dir: dir.to_path_buf(),
            heads: heads.clone().unwrap_or_default(),
            size,
            compact_min: COMPACT_MIN,
        };
        Ok((journal, heads))
    }

    /// Records new heads of streams, durably, with one write and one sync for all.
    pub fn record_all<'a>(
        &mut self,
        heads: impl IntoIterator<Item = (&'a str, &'a HeadRecord)>,
    ) -> io::Result<()> {
        let mut bytes = Vec::new();
        for (stream, h) in heads {
            bytes.extend(encode(stream, h));
            self.heads.insert(stream.to_string(), *h);
        }
        self.file.write_all(&bytes)?;
        self.file.sync_data()?;
        self.size += bytes.len() as u64;
        if self.size
            > self
                .compact_min
                .max(COMPACT_FACTOR * self.heads.len() as u64)
        {
            self.size = rewrite(&self.dir, &self.heads)?;
            self.file = OpenOptions::new()
                .append(true)
                .open(self.dir.join(FILE_NAME))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(v: u64) -> HeadRecord {
        HeadRecord {
            version: v,
            hash: [v as u8; 32],
            position: v * 10,
        }
    }

    #[test]
    fn keeps_the_last_head_per_stream_and_ignores_a_torn_tail() {
        let mut bytes = Vec::new();
        bytes.extend(encode("a", &rec(1)));
        bytes.extend(encode("b", &rec(1)));
        bytes.extend(encode("a", &rec(2)));
        let full = bytes.clone();
        let torn = encode("b", &rec(5));
        bytes.extend(&torn[..torn.len() - 3]);
        let heads = parse(&bytes).unwrap();
        assert_eq!(heads["a"], rec(2));
        assert_eq!(heads["b"], rec(1));
        assert_eq!(parse(&full).unwrap().len(), 2);
    }

    #[test]
    fn the_journal_is_compacted_as_it_grows() {
        let dir = std::env::temp_dir().join(format!("arbiter-heads-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (mut j, heads) = HeadJournal::open(&dir, true).unwrap();
        assert_eq!(heads.unwrap().len(), 1, "the genesis record");
        j.compact_min = 4096;
        let one = encode("a", &rec(1)).len() as u64;
        let n = 4096 / one + 10;
        for v in 1..=n {
            j.record_all([("a", &rec(v)), ("b", &rec(1))]).unwrap();
        }
        let size = std::fs::metadata(dir.join(FILE_NAME)).unwrap().len();
        assert!(size < 4096, "{size} bytes after {n} records");
        drop(j);
        let (_, heads) = HeadJournal::open(&dir, false).unwrap();
        let heads = heads.unwrap();
        assert_eq!((heads["a"], heads["b"]), (rec(n), rec(1)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damage_in_the_middle_is_reported() {
        let mut bytes = Vec::new();
        bytes.extend(encode("a", &rec(1)));
        bytes.extend(encode("a", &rec(2)));
        bytes[10] ^= 1;
        assert_eq!(parse(&bytes).unwrap_err(), "bad record at byte 0");
    }
}

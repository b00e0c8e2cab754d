//! The canonical encoding of a stored event, its hash, and chain verification.
//!
//! An event's hash is SHA-256 over its canonical encoding, which covers everything but the hash
//! itself (and the backend-specific position):
//!
//! ```text
//! "arbiter.event.v1\0"            17 bytes, domain separation
//! stream        u32 BE length + UTF-8 bytes
//! version       u64 BE
//! event id      16 bytes (UUID, big-endian as in its text form)
//! command id    u32 BE length + UTF-8 bytes
//! actor         u32 BE length + UTF-8 bytes
//! time          i64 BE (Unix milliseconds)
//! payload       u32 BE length + bytes
//! previous hash 32 bytes
//! ```
//!
//! A *record* (what the backends store) is the canonical encoding followed by the 32-byte hash,
//! so a record is self-describing and can be checked on its own.

use crate::{Hash, StoredEvent, Version, ZERO_HASH};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use uuid::Uuid;

const DOMAIN: &[u8; 17] = b"arbiter.event.v1\0";

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_be_bytes());
    out.extend_from_slice(b);
}

/// The canonical encoding of `e` without its hash.
pub fn canonical_bytes(e: &StoredEvent) -> Vec<u8> {
    let mut out = Vec::with_capacity(
        DOMAIN.len()
            + 4 * 4
            + 8 * 2
            + 16
            + 32
            + e.stream.len()
            + e.command_id.len()
            + e.actor.len()
            + e.payload.len(),
    );
    out.extend_from_slice(DOMAIN);
    put_bytes(&mut out, e.stream.as_bytes());
    out.extend_from_slice(&e.version.to_be_bytes());
    out.extend_from_slice(e.event_id.as_bytes());
    put_bytes(&mut out, e.command_id.as_bytes());
    put_bytes(&mut out, e.actor.as_bytes());
    out.extend_from_slice(&e.time_unix_ms.to_be_bytes());
    put_bytes(&mut out, &e.payload);
    out.extend_from_slice(&e.prev_hash);
    out
}

/// The hash `e` should carry: SHA-256 of [`canonical_bytes`].
pub fn compute_hash(e: &StoredEvent) -> Hash {
    Sha256::digest(canonical_bytes(e)).into()
}

/// Encodes a record: canonical bytes followed by the hash stored in `e`.
pub fn encode_record(e: &StoredEvent) -> Vec<u8> {
    let mut out = canonical_bytes(e);
    out.extend_from_slice(&e.hash);
    out
}

/// Why a record could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub String);

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], DecodeError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.b.len())
            .ok_or_else(|| {
                DecodeError(format!(
                    "truncated at byte {} reading {what} ({n} bytes, {} left)",
                    self.at,
                    self.b.len() - self.at
                ))
            })?;
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self, what: &str) -> Result<u32, DecodeError> {
        Ok(u32::from_be_bytes(
            self.take(4, what)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self, what: &str) -> Result<u64, DecodeError> {
        Ok(u64::from_be_bytes(
            self.take(8, what)?.try_into().expect("8 bytes"),
        ))
    }
    fn sized(&mut self, what: &str) -> Result<&'a [u8], DecodeError> {
        let n = self.u32(what)? as usize;
        self.take(n, what)
    }
    fn string(&mut self, what: &str) -> Result<String, DecodeError> {
        let b = self.sized(what)?;
        String::from_utf8(b.to_vec()).map_err(|_| DecodeError(format!("{what} is not UTF-8")))
    }
    fn hash(&mut self, what: &str) -> Result<Hash, DecodeError> {
        Ok(self.take(32, what)?.try_into().expect("32 bytes"))
    }
}

/// Decodes a record (see [`encode_record`]). `position` is filled in by the caller's backend.
/// The hash is *not* checked here; see [`check_record`].
pub fn decode_record(bytes: &[u8], position: u64) -> Result<StoredEvent, DecodeError> {
    let mut r = Reader { b: bytes, at: 0 };
    if r.take(DOMAIN.len(), "header")? != DOMAIN {
        return Err(DecodeError("bad record header".into()));
    }
    let stream = r.string("stream")?;
    let version = r.u64("version")?;
    let event_id = Uuid::from_bytes(r.take(16, "event id")?.try_into().expect("16 bytes"));
    let command_id = r.string("command id")?;
    let actor = r.string("actor")?;
    let time_unix_ms = r.u64("time")? as i64;
    let payload = r.sized("payload")?.to_vec();
    let prev_hash = r.hash("previous hash")?;
    let hash = r.hash("hash")?;
    if r.at != bytes.len() {
        return Err(DecodeError(format!(
            "{} trailing bytes",
            bytes.len() - r.at
        )));
    }
    Ok(StoredEvent {
        stream,
        version,
        event_id,
        command_id,
        actor,
        time_unix_ms,
        payload,
        prev_hash,
        hash,
        position,
    })
}

/// Encodes a batch of records (one JetStream message): `u32 count` then `u32 length + record`
/// per event.
pub fn encode_batch(events: &[StoredEvent]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(events.len() as u32).to_be_bytes());
    for e in events {
        put_bytes(&mut out, &encode_record(e));
    }
    out
}

/// Decodes a batch written by [`encode_batch`].
pub fn decode_batch(bytes: &[u8], position: u64) -> Result<Vec<StoredEvent>, DecodeError> {
    let mut r = Reader { b: bytes, at: 0 };
    let n = r.u32("batch count")? as usize;
    let mut out = Vec::with_capacity(n.min(4096));
    for i in 0..n {
        let rec = r.sized("record")?;
        out.push(
            decode_record(rec, position)
                .map_err(|e| DecodeError(format!("record {i}: {}", e.0)))?,
        );
    }
    if r.at != bytes.len() {
        return Err(DecodeError(format!(
            "{} trailing bytes after batch",
            bytes.len() - r.at
        )));
    }
    Ok(out)
}

/// A digest of a command's payloads, to recognise a command id reused for other events.
pub fn payload_digest(payloads: &[Vec<u8>]) -> Hash {
    let mut h = Sha256::new();
    for p in payloads {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p);
    }
    h.finalize().into()
}

/// The first broken link found by [`verify_chain`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainBreak {
    pub stream: String,
    pub version: Version,
    pub kind: BreakKind,
}

/// What is wrong at a [`ChainBreak`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BreakKind {
    /// The event's content does not hash to its stored hash (the event was altered).
    HashMismatch { stored: Hash, computed: Hash },
    /// The event's previous hash is not the hash of the event before it.
    PrevHashMismatch { expected: Hash, found: Hash },
    /// Versions are not consecutive (an event is missing, duplicated or out of order).
    VersionGap { expected: Version, found: Version },
}

impl std::fmt::Display for ChainBreak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stream {:?} version {}: ", self.stream, self.version)?;
        match &self.kind {
            BreakKind::HashMismatch { stored, computed } => write!(
                f,
                "content does not match its hash (stored {}, computed {})",
                hex(stored),
                hex(computed)
            ),
            BreakKind::PrevHashMismatch { expected, found } => write!(
                f,
                "previous hash {} does not match the previous event's hash {}",
                hex(found),
                hex(expected)
            ),
            BreakKind::VersionGap { expected, found } => {
                write!(f, "expected version {expected}, found {found}")
            }
        }
    }
}

impl std::error::Error for ChainBreak {}

/// Lower-case hex of a hash.
pub fn hex(h: &Hash) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks one event's hash and its link to its predecessor in the same stream. With no
/// predecessor (`None`), a version-1 event must carry the zero previous hash and a later one is
/// taken as an anchor.
pub(crate) fn check_link(e: &StoredEvent, prev: Option<(Version, Hash)>) -> Result<(), BreakKind> {
    let computed = compute_hash(e);
    if computed != e.hash {
        return Err(BreakKind::HashMismatch {
            stored: e.hash,
            computed,
        });
    }
    match prev {
        Some((pv, ph)) => {
            if e.version != pv + 1 {
                return Err(BreakKind::VersionGap {
                    expected: pv + 1,
                    found: e.version,
                });
            }
            if e.prev_hash != ph {
                return Err(BreakKind::PrevHashMismatch {
                    expected: ph,
                    found: e.prev_hash,
                });
            }
        }
        None if e.version == 1 && e.prev_hash != ZERO_HASH => {
            return Err(BreakKind::PrevHashMismatch {
                expected: ZERO_HASH,
                found: e.prev_hash,
            });
        }
        None => {}
    }
    Ok(())
}

/// Checks that every event hashes to its stored hash and links to the previous event of its
/// stream, and that versions are consecutive. Events of several streams may be interleaved;
/// each stream is checked on its own. A stream's first event seen must be version 1 (with the
/// zero previous hash) or, when the sequence starts in the middle of a stream, is trusted as
/// the anchor for the ones after it.
///
/// Returns the first broken link, or `None` when the chain is intact.
pub fn verify_chain<'a>(events: impl IntoIterator<Item = &'a StoredEvent>) -> Option<ChainBreak> {
    let mut last: BTreeMap<&'a str, (Version, Hash)> = BTreeMap::new();
    for e in events {
        let prev = last.get(e.stream.as_str()).copied();
        if let Err(kind) = check_link(e, prev) {
            return Some(ChainBreak {
                stream: e.stream.clone(),
                version: e.version,
                kind,
            });
        }
        last.insert(e.stream.as_str(), (e.version, e.hash));
    }
    None
}

/// Builds the events of one append: versions `after + 1 ..`, chained from `prev_hash`.
pub(crate) fn build_events(
    stream: &str,
    after: Version,
    prev_hash: Hash,
    command_id: &str,
    actor: &str,
    payloads: Vec<Vec<u8>>,
) -> Vec<StoredEvent> {
    let time_unix_ms = crate::now_unix_ms();
    let mut prev = prev_hash;
    let mut out = Vec::with_capacity(payloads.len());
    for (i, payload) in payloads.into_iter().enumerate() {
        let mut e = StoredEvent {
            stream: stream.to_string(),
            version: after + 1 + i as u64,
            event_id: Uuid::now_v7(),
            command_id: command_id.to_string(),
            actor: actor.to_string(),
            time_unix_ms,
            payload,
            prev_hash: prev,
            hash: ZERO_HASH,
            position: 0,
        };
        e.hash = compute_hash(&e);
        prev = e.hash;
        out.push(e);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: usize) -> Vec<StoredEvent> {
        build_events(
            "t1",
            0,
            ZERO_HASH,
            "c1",
            "tester",
            (0..n).map(|i| vec![i as u8; 3]).collect(),
        )
    }

    #[test]
    fn record_round_trip() {
        let evs = chain(2);
        for e in &evs {
            let back = decode_record(&encode_record(e), 0).unwrap();
            assert_eq!(&back, e);
        }
        let batch = decode_batch(&encode_batch(&evs), 9).unwrap();
        assert_eq!(batch.len(), 2);
        assert!(batch.iter().all(|e| e.position == 9));
        assert_eq!(batch[1].payload, vec![1, 1, 1]);
    }

    #[test]
    fn decode_rejects_truncation_and_trailing_bytes() {
        let rec = encode_record(&chain(1)[0]);
        for cut in [0, 5, 20, rec.len() - 1] {
            assert!(decode_record(&rec[..cut], 0).is_err(), "cut at {cut}");
        }
        let mut longer = rec.clone();
        longer.push(0);
        assert!(decode_record(&longer, 0).is_err());
    }

    #[test]
    fn intact_chain_verifies() {
        let evs = chain(5);
        assert_eq!(evs[0].prev_hash, ZERO_HASH);
        assert_eq!(evs[4].version, 5);
        assert_eq!(verify_chain(&evs), None);
        // Starting in the middle: the first event seen is the anchor.
        assert_eq!(verify_chain(&evs[2..]), None);
    }

    #[test]
    fn altered_payload_is_a_hash_mismatch() {
        let mut evs = chain(4);
        evs[2].payload[0] ^= 1;
        let b = verify_chain(&evs).unwrap();
        assert_eq!((b.stream.as_str(), b.version), ("t1", 3));
        assert!(matches!(b.kind, BreakKind::HashMismatch { .. }));
        assert!(b.to_string().contains("version 3"));
    }

    #[test]
    fn rehashed_forgery_breaks_the_next_link() {
        let mut evs = chain(4);
        evs[1].payload = b"forged".to_vec();
        evs[1].hash = compute_hash(&evs[1]);
        let b = verify_chain(&evs).unwrap();
        assert_eq!(b.version, 3);
        assert!(matches!(b.kind, BreakKind::PrevHashMismatch { .. }));
    }

    #[test]
    fn missing_event_is_a_gap() {
        let mut evs = chain(4);
        evs.remove(1);
        let b = verify_chain(&evs).unwrap();
        assert_eq!(
            b.kind,
            BreakKind::VersionGap {
                expected: 2,
                found: 3
            }
        );
    }

    #[test]
    fn first_event_must_start_from_zero_hash() {
        let mut evs = chain(1);
        evs[0].prev_hash = [1; 32];
        evs[0].hash = compute_hash(&evs[0]);
        assert!(matches!(
            verify_chain(&evs).unwrap().kind,
            BreakKind::PrevHashMismatch { .. }
        ));
    }

    #[test]
    fn interleaved_streams_are_checked_separately() {
        let a = chain(3);
        let b = build_events("t2", 0, ZERO_HASH, "c9", "x", vec![vec![1], vec![2]]);
        let mixed = vec![
            a[0].clone(),
            b[0].clone(),
            a[1].clone(),
            b[1].clone(),
            a[2].clone(),
        ];
        assert_eq!(verify_chain(&mixed), None);
    }

    #[test]
    fn hash_covers_every_field() {
        let base = chain(1).remove(0);
        let h = compute_hash(&base);
        let mut variants = Vec::new();
        let mut e = base.clone();
        e.stream.push('x');
        variants.push(e);
        let mut e = base.clone();
        e.version += 1;
        variants.push(e);
        let mut e = base.clone();
        e.event_id = Uuid::now_v7();
        variants.push(e);
        let mut e = base.clone();
        e.command_id.push('x');
        variants.push(e);
        let mut e = base.clone();
        e.actor.push('x');
        variants.push(e);
        let mut e = base.clone();
        e.time_unix_ms += 1;
        variants.push(e);
        let mut e = base.clone();
        e.prev_hash[31] = 1;
        variants.push(e);
        for v in &variants {
            assert_ne!(compute_hash(v), h);
        }
        // The position is not covered.
        let mut e = base.clone();
        e.position = 77;
        assert_eq!(compute_hash(&e), h);
    }
}

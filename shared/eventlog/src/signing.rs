//! Signed chain heads: tamper evidence beyond the unkeyed hash chain.
//!
//! The hash chain shows that a stream was not edited in place, but anyone can rebuild a chain:
//! rewrite history and recompute every hash, or restore the log and its head journal from an
//! older copy (a rollback). A *signed head* is an Ed25519 signature by the deployment's key
//! over (stream, version, hash of the event at that version, signing time). Once a signed head
//! has been published (exported, shown on a page, copied by an auditor), a log that no longer
//! holds exactly that event hash at that version, or that ends before it, is caught by
//! [`SignedHead::check_against`]. Someone holding the key can still sign a rewritten history
//! before any head of the original was published; that is outside what a signature can show.
//!
//! The signed message:
//!
//! ```text
//! "arbiter.head.v1\0"   16 bytes, domain separation
//! stream                u32 BE length + UTF-8 bytes
//! version               u64 BE
//! hash                  32 bytes (the stored hash of the event at `version`)
//! time                  i64 BE (Unix milliseconds, when the head was signed)
//! ```
//!
//! The key file holds the 32-byte secret seed as 64 hex digits; [`HeadSigner::load_or_create`]
//! writes it with mode 0600 and refuses a key file readable by others.

use crate::{Hash, StoredEvent, Version, verify_chain};
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use sha2::{Digest, Sha256};
use std::path::Path;

const DOMAIN: &[u8; 16] = b"arbiter.head.v1\0";

/// The key file's name inside a data folder.
pub const KEY_FILE: &str = "head-signing.key";

/// The short id of a public key: `ed25519:` and the first 8 bytes of its SHA-256, in hex.
pub fn key_id(public_key: &[u8; 32]) -> String {
    format!("ed25519:{}", hex(&Sha256::digest(public_key)[..8]))
}

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Parses hex digits into exactly `N` bytes, naming `what` in the error.
pub fn from_hex<const N: usize>(s: &str, what: &str) -> Result<[u8; N], String> {
    let s = s.trim();
    if s.len() != 2 * N || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!(
            "{what}: expected {} hex digits, got {:?}",
            2 * N,
            if s.len() > 80 { &s[..80] } else { s }
        ));
    }
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|e| format!("{what}: {e}"))?;
    }
    Ok(out)
}

/// The bytes a head signature covers.
pub fn head_message(stream: &str, version: Version, hash: &Hash, time_unix_ms: i64) -> Vec<u8> {
    let mut out = Vec::with_capacity(DOMAIN.len() + 4 + stream.len() + 8 + 32 + 8);
    out.extend_from_slice(DOMAIN);
    out.extend_from_slice(&(stream.len() as u32).to_be_bytes());
    out.extend_from_slice(stream.as_bytes());
    out.extend_from_slice(&version.to_be_bytes());
    out.extend_from_slice(hash);
    out.extend_from_slice(&time_unix_ms.to_be_bytes());
    out
}

/// One signed chain head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedHead {
    pub stream: String,
    pub version: Version,
    pub hash: Hash,
    pub time_unix_ms: i64,
    pub public_key: [u8; 32],
    pub signature: [u8; 64],
}

/// How a log fails a signed head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadMismatch {
    /// The signature does not verify (the head was altered, or not signed by that key).
    BadSignature(String),
    /// The head names another stream.
    OtherStream { signed: String, log: String },
    /// The log ends before the signed version: rolled back (or truncated) after the head was
    /// signed.
    RolledBack { signed: Version, log: Version },
    /// The event at the signed version is not the one signed: history was rewritten.
    Rewritten {
        version: Version,
        signed: Hash,
        log: Hash,
    },
    /// The chain up to the signed version does not verify: an earlier event was changed.
    BrokenBefore { version: Version, detail: String },
}

impl std::fmt::Display for HeadMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeadMismatch::BadSignature(why) => write!(f, "the signature does not verify: {why}"),
            HeadMismatch::OtherStream { signed, log } => {
                write!(f, "the head is for stream {signed}, the log is {log}")
            }
            HeadMismatch::RolledBack { signed, log } => write!(
                f,
                "ROLLBACK: a head was signed at version {signed}, but the log ends at version \
                 {log} (restored from an older copy or truncated)"
            ),
            HeadMismatch::Rewritten {
                version,
                signed,
                log,
            } => write!(
                f,
                "REWRITTEN: the event at version {version} has hash {}, the signed head says {}",
                hex(log),
                hex(signed)
            ),
            HeadMismatch::BrokenBefore { version, detail } => write!(
                f,
                "REWRITTEN: the chain up to signed version {version} does not verify: {detail}"
            ),
        }
    }
}

impl SignedHead {
    pub fn key_id(&self) -> String {
        key_id(&self.public_key)
    }

    pub fn message(&self) -> Vec<u8> {
        head_message(&self.stream, self.version, &self.hash, self.time_unix_ms)
    }

    /// Checks the signature with the head's own public key.
    pub fn verify(&self) -> Result<(), HeadMismatch> {
        let key = VerifyingKey::from_bytes(&self.public_key)
            .map_err(|e| HeadMismatch::BadSignature(format!("bad public key: {e}")))?;
        key.verify(&self.message(), &Signature::from_bytes(&self.signature))
            .map_err(|_| {
                HeadMismatch::BadSignature(format!(
                    "not a signature of this head by key {}",
                    self.key_id()
                ))
            })
    }

    /// Checks the signature, then that `events` (the stream read from version 1) still hold
    /// exactly the signed event at the signed version with an intact chain before it.
    pub fn check_against(&self, stream: &str, events: &[StoredEvent]) -> Result<(), HeadMismatch> {
        self.verify()?;
        if self.stream != stream {
            return Err(HeadMismatch::OtherStream {
                signed: self.stream.clone(),
                log: stream.to_string(),
            });
        }
        let log_version = events.last().map_or(0, |e| e.version);
        let Some(at) = self
            .version
            .checked_sub(1)
            .and_then(|i| events.get(i as usize))
            .filter(|e| e.version == self.version)
        else {
            return Err(HeadMismatch::RolledBack {
                signed: self.version,
                log: log_version,
            });
        };
        if at.hash != self.hash {
            return Err(HeadMismatch::Rewritten {
                version: self.version,
                signed: self.hash,
                log: at.hash,
            });
        }
        if let Some(b) = verify_chain(&events[..self.version as usize]) {
            return Err(HeadMismatch::BrokenBefore {
                version: self.version,
                detail: b.to_string(),
            });
        }
        Ok(())
    }
}

impl SignedHead {
    /// The `ChainHeadSigned` event of this head.
    pub fn to_wire(&self, covers: &str) -> arbiter_proto::events::v1::ChainHeadSigned {
        arbiter_proto::events::v1::ChainHeadSigned {
            version: self.version,
            head_hash: self.hash.to_vec(),
            signed_unix_ms: self.time_unix_ms,
            public_key: self.public_key.to_vec(),
            key_id: self.key_id(),
            signature: self.signature.to_vec(),
            covers: covers.to_string(),
        }
    }

    /// The head a `ChainHeadSigned` event of `stream` records (the signature is not checked
    /// here; see [`SignedHead::verify`]).
    pub fn from_wire(
        stream: &str,
        w: &arbiter_proto::events::v1::ChainHeadSigned,
    ) -> Result<SignedHead, String> {
        Ok(SignedHead {
            stream: stream.to_string(),
            version: w.version,
            hash: fixed(&w.head_hash, "head_hash", w.version)?,
            time_unix_ms: w.signed_unix_ms,
            public_key: fixed(&w.public_key, "public_key", w.version)?,
            signature: fixed(&w.signature, "signature", w.version)?,
        })
    }
}

/// A stored field of a fixed size, or an error naming it.
fn fixed<const N: usize>(b: &[u8], what: &str, version: u64) -> Result<[u8; N], String> {
    b.try_into().map_err(|_| {
        format!(
            "ChainHeadSigned at version {version}: {what} has {} bytes, not {N}",
            b.len()
        )
    })
}

/// The deployment's signing key.
pub struct HeadSigner {
    key: SigningKey,
}

impl std::fmt::Debug for HeadSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HeadSigner({})", self.key_id())
    }
}

impl HeadSigner {
    /// A signer from a 32-byte secret seed.
    pub fn from_seed(seed: [u8; 32]) -> HeadSigner {
        HeadSigner {
            key: SigningKey::from_bytes(&seed),
        }
    }

    /// A fresh key from the operating system's random source.
    pub fn generate() -> Result<HeadSigner, String> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| format!("no random source: {e}"))?;
        Ok(HeadSigner::from_seed(seed))
    }

    /// Reads a key file (64 hex digits). On Unix a file readable by group or others is refused.
    pub fn load(path: &Path) -> Result<HeadSigner, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the signing key {}: {e}", path.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .permissions()
                .mode();
            if mode & 0o077 != 0 {
                return Err(format!(
                    "the signing key {} is readable by others (mode {:o}); chmod 600 it",
                    path.display(),
                    mode & 0o777
                ));
            }
        }
        let seed = from_hex::<32>(&text, &format!("signing key {}", path.display()))?;
        Ok(HeadSigner::from_seed(seed))
    }

    /// Reads the key at `path`, or creates one there (mode 0600) when there is no file.
    pub fn load_or_create(path: &Path) -> Result<HeadSigner, String> {
        if path.exists() {
            return HeadSigner::load(path);
        }
        let signer = HeadSigner::generate()?;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let write = || -> std::io::Result<()> {
            use std::io::Write;
            let mut f = options.open(path)?;
            f.write_all(format!("{}\n", hex(signer.key.as_bytes())).as_bytes())?;
            f.sync_all()
        };
        write().map_err(|e| format!("cannot write the signing key {}: {e}", path.display()))?;
        Ok(signer)
    }

    pub fn public_key(&self) -> [u8; 32] {
        self.key.verifying_key().to_bytes()
    }

    pub fn key_id(&self) -> String {
        key_id(&self.public_key())
    }

    /// Signs the head of `stream` at `version` (whose event has hash `hash`).
    pub fn sign(
        &self,
        stream: &str,
        version: Version,
        hash: Hash,
        time_unix_ms: i64,
    ) -> SignedHead {
        let signature = self
            .key
            .sign(&head_message(stream, version, &hash, time_unix_ms))
            .to_bytes();
        SignedHead {
            stream: stream.to_string(),
            version,
            hash,
            time_unix_ms,
            public_key: self.public_key(),
            signature,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EventLog, ExpectedVersion, SledLog};

    async fn log_with(n: u64) -> (SledLog, Vec<StoredEvent>) {
        let log = SledLog::temporary().unwrap();
        for i in 0..n {
            log.append(
                "t",
                ExpectedVersion::Exact(i),
                &format!("c{i}"),
                "x",
                vec![vec![i as u8]],
            )
            .await
            .unwrap();
        }
        let events = log.read("t", 1).await.unwrap();
        (log, events)
    }

    #[tokio::test]
    async fn a_signed_head_verifies_and_catches_rollback_and_rewrite() {
        let signer = HeadSigner::from_seed([7; 32]);
        let (_log, events) = log_with(5).await;
        let head = signer.sign("t", 4, events[3].hash, 1_700_000_000_000);
        assert_eq!(head.check_against("t", &events), Ok(()));
        // Rolled back to three events.
        assert_eq!(
            head.check_against("t", &events[..3]),
            Err(HeadMismatch::RolledBack { signed: 4, log: 3 })
        );
        // A different history with the same length (its own valid chain).
        let (_other, forged) = log_with(6).await;
        let mut forged = forged;
        forged[3].payload = vec![99];
        forged[3].hash = crate::record::compute_hash(&forged[3]);
        assert!(matches!(
            head.check_against("t", &forged),
            Err(HeadMismatch::Rewritten { version: 4, .. })
        ));
        // An earlier event changed but the signed one copied over: the chain catches it.
        let mut patched = events.clone();
        patched[1].actor = "mallory".into();
        assert!(matches!(
            head.check_against("t", &patched),
            Err(HeadMismatch::BrokenBefore { version: 4, .. })
        ));
        // Altered head fields or another key do not verify.
        let mut moved = head.clone();
        moved.version = 3;
        moved.hash = events[2].hash;
        assert!(matches!(
            moved.check_against("t", &events),
            Err(HeadMismatch::BadSignature(_))
        ));
        let mut other_key = head.clone();
        other_key.public_key = HeadSigner::from_seed([8; 32]).public_key();
        assert!(matches!(
            other_key.verify(),
            Err(HeadMismatch::BadSignature(_))
        ));
        assert!(matches!(
            head.check_against("u", &events),
            Err(HeadMismatch::OtherStream { .. })
        ));
    }

    #[test]
    fn the_key_file_is_created_private_and_read_back() {
        let dir = std::env::temp_dir().join(format!("arbiter-key-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(KEY_FILE);
        let a = HeadSigner::load_or_create(&path).unwrap();
        let b = HeadSigner::load_or_create(&path).unwrap();
        assert_eq!(a.public_key(), b.public_key());
        assert!(a.key_id().starts_with("ed25519:") && a.key_id().len() == 8 + 16);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let err = HeadSigner::load(&path).unwrap_err();
            assert!(err.contains("readable by others"), "{err}");
        }
        std::fs::write(dir.join("bad"), "zz").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.join("bad"), std::fs::Permissions::from_mode(0o600))
                .unwrap();
        }
        let err = HeadSigner::load(&dir.join("bad")).unwrap_err();
        assert!(err.contains("64 hex digits"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hex_round_trip() {
        let b: [u8; 4] = from_hex("00ff10Ab", "x").unwrap();
        assert_eq!(b, [0, 255, 16, 171]);
        assert_eq!(hex(&b), "00ff10ab");
        assert!(from_hex::<4>("00ff10", "x").is_err());
        assert!(from_hex::<2>("zzzz", "x").is_err());
    }
}

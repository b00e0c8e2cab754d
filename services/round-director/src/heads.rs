//! Signed chain heads: after a command of the round director appended a `PairingPublished` or
//! a `TournamentFinished`, the deployment's key signs the stream's head at that event and the
//! signature is appended as a `ChainHeadSigned` event (see `arbiter_eventlog::signing`).
//!
//! The append uses the command id `chain-head-<version>`, so a retried command (or a second
//! round-director replica) does not sign the same head twice: the log refuses the id again.
//! [`sign_missing`] signs, at start, the heads a stream lacks (a stop between a publication and
//! its signature, or a log from before signed heads).

use crate::SERVICE;
use arbiter_eventlog::{
    EventLog, ExpectedVersion, HeadSigner, LogError, StoredEvent, Version, encode_events,
};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use std::collections::BTreeSet;
use std::sync::Arc;
use tracing::{info, warn};

/// What a head at this event is called, if the event is one whose head gets signed.
pub fn covers(event: &pb::Event) -> Option<String> {
    match event.kind.as_ref()? {
        Kind::PairingPublished(p) => Some(format!("PairingPublished round {}", p.round)),
        Kind::TournamentFinished(_) => Some("TournamentFinished".to_string()),
        _ => None,
    }
}

fn now_unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Signs the heads at the publications and finishes among versions `first..=last` of `stream`.
/// Returns the versions signed now. A failure is logged, not returned: the command itself
/// succeeded, and `arbiter replay` reports a publication without a signed head.
pub async fn sign_heads(
    log: &Arc<dyn EventLog>,
    signer: &HeadSigner,
    stream: &str,
    first: Version,
    last: Version,
) -> Vec<Version> {
    let mut signed = Vec::new();
    if first == 0 || last < first {
        return signed;
    }
    let events = match log.read(stream, first).await {
        Ok(e) => e,
        Err(e) => {
            warn!(%stream, "cannot read the events to sign their head: {e}");
            return signed;
        }
    };
    for e in events.iter().filter(|e| e.version <= last) {
        if let Some(what) = e.decode_event().ok().as_ref().and_then(covers)
            && sign_one(log, signer, stream, e, &what).await
        {
            signed.push(e.version);
        }
    }
    signed
}

/// Appends the signed head at `e`; true when it was written now.
async fn sign_one(
    log: &Arc<dyn EventLog>,
    signer: &HeadSigner,
    stream: &str,
    e: &StoredEvent,
    what: &str,
) -> bool {
    let head = signer.sign(stream, e.version, e.hash, now_unix_ms());
    let event = pb::Event {
        kind: Some(Kind::ChainHeadSigned(head.to_wire(what))),
        ..Default::default()
    };
    let command_id = format!("chain-head-{}", e.version);
    match log
        .append(
            stream,
            ExpectedVersion::Any,
            &command_id,
            SERVICE,
            encode_events(&[event]),
        )
        .await
    {
        Ok(o) if !o.replayed => {
            info!(%stream, version = e.version, at = o.first_version, key = %signer.key_id(), "signed chain head");
            true
        }
        Ok(_) | Err(LogError::CommandIdReused { .. }) => false,
        Err(err) => {
            warn!(%stream, version = e.version, "cannot append the signed head: {err}");
            false
        }
    }
}

/// Signs the heads `stream` is missing: a publication or finish whose head was not signed
/// (the server stopped between the two appends, or the log was written before heads were
/// signed). Their time is the time of signing. Returns the versions signed.
pub async fn sign_missing(
    log: &Arc<dyn EventLog>,
    signer: &HeadSigner,
    stream: &str,
) -> Vec<Version> {
    let events = match log.read(stream, 1).await {
        Ok(e) => e,
        Err(e) => {
            warn!(%stream, "cannot read the stream to sign its missing heads: {e}");
            return Vec::new();
        }
    };
    let decoded: Vec<Option<pb::Event>> = events.iter().map(|e| e.decode_event().ok()).collect();
    let have: BTreeSet<Version> = decoded
        .iter()
        .filter_map(|d| match d.as_ref()?.kind.as_ref()? {
            Kind::ChainHeadSigned(h) => Some(h.version),
            _ => None,
        })
        .collect();
    let mut signed = Vec::new();
    for (e, d) in events.iter().zip(&decoded) {
        if have.contains(&e.version) {
            continue;
        }
        if let Some(what) = d.as_ref().and_then(covers)
            && sign_one(log, signer, stream, e, &what).await
        {
            signed.push(e.version);
        }
    }
    signed
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_eventlog::{SignedHead, SledLog};

    fn event(kind: Kind) -> pb::Event {
        pb::Event {
            kind: Some(kind),
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn signs_publications_and_finishes_once() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let signer = HeadSigner::from_seed([3; 32]);
        let batch = vec![
            event(Kind::RoundClosed(pb::RoundClosed { round: 1 })),
            event(Kind::PairingPublished(pb::PairingPublished {
                round: 2,
                ..Default::default()
            })),
        ];
        let o = log
            .append(
                "s",
                ExpectedVersion::Exact(0),
                "c1",
                "x",
                encode_events(&batch),
            )
            .await
            .unwrap();
        assert_eq!(
            sign_heads(&log, &signer, "s", 1, o.last_version).await,
            vec![2]
        );
        // The same command answered again (a retry): nothing signed twice.
        assert!(sign_heads(&log, &signer, "s", 1, 2).await.is_empty());
        let f = log
            .append(
                "s",
                ExpectedVersion::Any,
                "c2",
                "x",
                encode_events(&[event(Kind::TournamentFinished(pb::TournamentFinished {
                    rounds_played: 2,
                }))]),
            )
            .await
            .unwrap();
        assert_eq!(
            sign_heads(&log, &signer, "s", f.first_version, f.last_version).await,
            vec![f.first_version]
        );
        let events = log.read("s", 1).await.unwrap();
        let heads: Vec<(SignedHead, String)> = events
            .iter()
            .filter_map(|e| match e.decode_event().unwrap().kind {
                Some(Kind::ChainHeadSigned(h)) => {
                    Some((SignedHead::from_wire("s", &h).unwrap(), h.covers))
                }
                _ => None,
            })
            .collect();
        assert_eq!(heads.len(), 2);
        assert_eq!(heads[0].1, "PairingPublished round 2");
        assert_eq!(heads[1].1, "TournamentFinished");
        for (h, _) in &heads {
            assert_eq!(h.check_against("s", &events), Ok(()));
            assert_eq!(h.key_id(), signer.key_id());
        }
    }

    #[tokio::test]
    async fn the_heads_a_stream_is_missing_are_signed_once() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let signer = HeadSigner::from_seed([4; 32]);
        for (i, round) in [1u32, 2].into_iter().enumerate() {
            let published = event(Kind::PairingPublished(pb::PairingPublished {
                round,
                ..Default::default()
            }));
            log.append(
                "s",
                ExpectedVersion::Any,
                &format!("publish-{i}"),
                "x",
                encode_events(&[published]),
            )
            .await
            .unwrap();
        }
        // Round 1's head was signed with its command; round 2's was lost in a crash.
        assert_eq!(sign_heads(&log, &signer, "s", 1, 1).await, vec![1]);
        assert_eq!(sign_missing(&log, &signer, "s").await, vec![2]);
        assert!(sign_missing(&log, &signer, "s").await.is_empty());
        let events = log.read("s", 1).await.unwrap();
        assert_eq!(events.len(), 4);
    }
}

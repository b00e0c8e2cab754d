//! Signed chain heads: after a command of the round director appended a `PairingPublished` or
//! a `TournamentFinished`, the deployment's key signs the stream's head at that event and the
//! signature is appended as a `ChainHeadSigned` event (see `arbiter_eventlog::signing`).
//!
//! The append uses the command id `chain-head-<version>`, so a retried command (or a second
//! round-director replica) does not sign the same head twice: the log refuses the id again.

use crate::SERVICE;
use arbiter_eventlog::{EventLog, ExpectedVersion, HeadSigner, LogError, Version, encode_events};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
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
        let Some(what) = e.decode_event().ok().as_ref().and_then(covers) else {
            continue;
        };
        let head = signer.sign(stream, e.version, e.hash, now_unix_ms());
        let event = pb::Event {
            kind: Some(Kind::ChainHeadSigned(head.to_wire(&what))),
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
                signed.push(e.version);
            }
            Ok(_) | Err(LogError::CommandIdReused { .. }) => {}
            Err(err) => warn!(%stream, version = e.version, "cannot append the signed head: {err}"),
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
}

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

//! The signed chain heads of a tournament as a JSON document: what `arbiter export --heads`
//! writes and the HTTP API serves at `/api/tournaments/{id}/heads`, for `arbiter replay
//! --against` (see `arbiter_eventlog::signing`).
//!
//! ```text
//! { "format": "arbiter-signed-heads/1", "tournament": ID, "stream": STREAM,
//!   "heads": [ { "stream": STREAM, "version": N, "hash": HEX32, "signed_unix_ms": MS,
//!                "public_key": HEX32, "key_id": "ed25519:...", "signature": HEX64,
//!                "covers": "PairingPublished round 3" } ] }
//! ```

use arbiter_eventlog::signing::hex;
use arbiter_eventlog::{SignedHead, StoredEvent};
use arbiter_proto::events::v1::event::Kind;
use serde_json::{Value, json};

pub const FORMAT: &str = "arbiter-signed-heads/1";

/// An event whose chain head the round director signs at once, and which an audit with the
/// deployment's key therefore expects a head to cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Milestone {
    /// A round's pairing published.
    Published(u32),
    /// A round closed.
    Closed(u32),
    /// The tournament finished.
    Finished,
}

/// The milestone `event` is, if it is one.
pub fn milestone(event: &arbiter_proto::events::v1::Event) -> Option<Milestone> {
    match event.kind.as_ref()? {
        Kind::PairingPublished(p) => Some(Milestone::Published(p.round)),
        Kind::RoundClosed(r) => Some(Milestone::Closed(r.round)),
        Kind::TournamentFinished(_) => Some(Milestone::Finished),
        _ => None,
    }
}

/// Whether a stored event is itself a signed head (`ChainHeadSigned`).
pub fn is_head(e: &StoredEvent) -> bool {
    matches!(
        e.decode_event().ok().and_then(|d| d.kind),
        Some(Kind::ChainHeadSigned(_))
    )
}

/// A signed head recorded in the log.
pub struct LoggedHead {
    /// The head, or why its event does not hold one.
    pub head: Result<SignedHead, String>,
    pub covers: String,
    /// The version of the `ChainHeadSigned` event itself.
    pub at: u64,
}

/// The `ChainHeadSigned` events of a stream, in order.
pub fn logged_heads(stream: &str, events: &[StoredEvent]) -> Vec<LoggedHead> {
    events
        .iter()
        .filter_map(|e| match e.decode_event().ok()?.kind? {
            Kind::ChainHeadSigned(h) => Some(LoggedHead {
                head: SignedHead::from_wire(stream, &h),
                covers: h.covers.clone(),
                at: e.version,
            }),
            _ => None,
        })
        .collect()
}

/// One head as JSON.
pub fn head_json(h: &SignedHead, covers: &str) -> Value {
    json!({
        "stream": h.stream,
        "version": h.version,
        "hash": hex(&h.hash),
        "signed_unix_ms": h.time_unix_ms,
        "public_key": hex(&h.public_key),
        "key_id": h.key_id(),
        "signature": hex(&h.signature),
        "covers": covers,
    })
}

/// The heads document of a tournament: every signed head its log records.
pub fn heads_file(tournament: &str, stream: &str, events: &[StoredEvent]) -> Value {
    let heads: Vec<Value> = logged_heads(stream, events)
        .iter()
        .filter_map(|l| l.head.as_ref().ok().map(|h| head_json(h, &l.covers)))
        .collect();
    json!({
        "format": FORMAT,
        "tournament": tournament,
        "stream": stream,
        "heads": heads,
    })
}

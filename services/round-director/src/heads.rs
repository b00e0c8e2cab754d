//! Signed chain heads: the deployment's key signs a stream's head (version and hash of an
//! event, so by the hash chain everything before it too) and the signature is appended as a
//! `ChainHeadSigned` event (see `arbiter_eventlog::signing`).
//!
//! When heads are signed:
//! - at once, by the command that appended a `PairingPublished`, a `RoundClosed` or a
//!   `TournamentFinished` ([`sign_heads`]);
//! - after any other change (a result, a correction, a registration, ...) once its stream has
//!   been quiet for [`SIGN_AFTER_QUIET`] (at most [`SIGN_AT_MOST_AFTER`] after the first
//!   unsigned change of a busy stream), by [`follow`], which follows every append of the log;
//!   at shutdown it signs what is pending;
//! - at start, whatever a stream lacks ([`sign_missing`]: a stop between a change and its
//!   signature, or a log from before signed heads).
//!
//! So every acknowledged change is covered by a signed head within seconds, and what can be
//! rolled back unseen by whoever lacks the key is at most the changes of that window.
//!
//! The append uses the command id `chain-head-<version>`, so a retried command (or a second
//! round-director replica) does not sign the same head twice: the log refuses the id again.

use crate::SERVICE;
use arbiter_eventlog::{
    CheckpointStore, EventLog, ExpectedVersion, HeadSigner, LogError, StoredEvent, Version,
    encode_events,
};
use arbiter_interchange::heads::{Milestone, milestone};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_service_kit::store::{Feed, tournament_of};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, watch};
use tracing::{info, warn};

/// What a head at this event is called, if the event is one whose head is signed at once.
pub fn covers(event: &pb::Event) -> Option<String> {
    Some(match milestone(event)? {
        Milestone::Published(round) => format!("PairingPublished round {round}"),
        Milestone::Closed(round) => format!("RoundClosed round {round}"),
        Milestone::Finished => "TournamentFinished".to_string(),
    })
}

/// What a head at the latest change of a stream is called: as [`covers`], else the kind.
fn latest(event: &pb::Event) -> String {
    covers(event).unwrap_or_else(|| {
        // Heads are public: a confidential kind is not named (arbiter_service_kit::redact).
        format!(
            "latest change: {}",
            arbiter_service_kit::redact::public_kind(event)
        )
    })
}

pub use arbiter_interchange::heads::is_head;

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

/// Signs the heads `stream` is missing: a publication, closed round or finish whose head was
/// not signed, and the stream's latest change when no head covers it (the server stopped
/// between a change and its signature, or the log was written before heads were signed).
/// Their time is the time of signing. Returns the versions signed.
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
    if let Some(v) = sign_latest(log, signer, stream).await {
        signed.push(v);
    }
    signed
}

/// Signs the head at the stream's latest change (its last event that is not itself a signed
/// head) unless a head at or after it is already recorded. Returns the version signed now.
pub async fn sign_latest(
    log: &Arc<dyn EventLog>,
    signer: &HeadSigner,
    stream: &str,
) -> Option<Version> {
    let last = match log.last_version(stream).await {
        Ok(v) => v,
        Err(e) => {
            warn!(%stream, "cannot read the stream's head to sign it: {e}");
            return None;
        }
    };
    // The tail holds at most a few signatures after the latest change; look back far enough
    // to find it, and further only if they all are.
    let mut back = 8u64;
    loop {
        let from = last.saturating_sub(back - 1).max(1);
        let tail = match log.read(stream, from).await {
            Ok(t) => t,
            Err(e) => {
                warn!(%stream, "cannot read the stream's tail to sign it: {e}");
                return None;
            }
        };
        let signed_up_to = tail
            .iter()
            .filter_map(|e| match e.decode_event().ok()?.kind? {
                Kind::ChainHeadSigned(h) => Some(h.version),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        match tail.iter().rev().find(|e| !is_head(e)) {
            Some(e) if e.version <= signed_up_to => return None,
            Some(e) => {
                let what = e.decode_event().map(|d| latest(&d)).unwrap_or_default();
                return sign_one(log, signer, stream, e, &what)
                    .await
                    .then_some(e.version);
            }
            None if from == 1 => return None,
            None => back *= 4,
        }
    }
}

/// How long a stream must be quiet before [`follow`] signs its latest change.
pub const SIGN_AFTER_QUIET: Duration = Duration::from_secs(2);
/// The longest a change waits for its signature on a stream that is never quiet that long.
pub const SIGN_AT_MOST_AFTER: Duration = Duration::from_secs(10);

/// The name of [`follow`]'s position in the checkpoint store.
pub const FOLLOWER: &str = "round-director-heads";

/// When a stream with unsigned changes is signed: after `quiet` without a change, and at most
/// `at_most` after its first unsigned change.
#[derive(Debug, Clone, Copy)]
struct Due {
    first: Instant,
    last: Instant,
}

impl Due {
    fn at(&self, quiet: Duration, at_most: Duration) -> Instant {
        (self.last + quiet).min(self.first + at_most)
    }
}

/// Follows every append of the log and signs each tournament stream's latest change once the
/// stream is quiet (see the module documentation). At `stopping`, signs what is pending and
/// returns.
pub async fn follow(
    feed: Feed,
    checkpoints: Option<CheckpointStore>,
    log: Arc<dyn EventLog>,
    signer: Arc<HeadSigner>,
    quiet: Duration,
    mut stopping: watch::Receiver<bool>,
) -> Result<(), LogError> {
    let at_most = SIGN_AT_MOST_AFTER.max(quiet);
    let pending: Arc<Mutex<BTreeMap<String, Due>>> = Arc::default();
    let changed = Arc::new(Notify::new());
    let following = {
        let pending = pending.clone();
        let changed = changed.clone();
        feed.follow(
            FOLLOWER,
            checkpoints,
            move |batch| {
                let now = Instant::now();
                let mut p = pending.lock().expect("pending heads lock");
                for e in &batch.events {
                    if tournament_of(&e.stream).is_none() || is_head(e) {
                        continue;
                    }
                    p.entry(e.stream.clone())
                        .and_modify(|d| d.last = now)
                        .or_insert(Due {
                            first: now,
                            last: now,
                        });
                }
                drop(p);
                changed.notify_one();
                async { Ok(()) }
            },
            stopping.clone(),
        )
    };
    let signing = async {
        loop {
            let next = pending
                .lock()
                .expect("pending heads lock")
                .values()
                .map(|d| d.at(quiet, at_most))
                .min();
            let stop = tokio::select! {
                _ = stopping.wait_for(|s| *s) => true,
                _ = changed.notified() => false,
                _ = async {
                    match next {
                        Some(t) => tokio::time::sleep_until(t.into()).await,
                        None => std::future::pending().await,
                    }
                } => false,
            };
            let now = Instant::now();
            let due: Vec<String> = {
                let mut p = pending.lock().expect("pending heads lock");
                let due: Vec<String> = p
                    .iter()
                    .filter(|(_, d)| stop || d.at(quiet, at_most) <= now)
                    .map(|(s, _)| s.clone())
                    .collect();
                for s in &due {
                    p.remove(s);
                }
                due
            };
            for stream in &due {
                sign_latest(&log, &signer, stream).await;
            }
            if stop {
                return;
            }
        }
    };
    let (followed, ()) = tokio::join!(following, signing);
    followed
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
    async fn signs_publications_closed_rounds_and_finishes_once() {
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
            vec![1, 2]
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
        assert_eq!(heads.len(), 3);
        assert_eq!(heads[0].1, "RoundClosed round 1");
        assert_eq!(heads[1].1, "PairingPublished round 2");
        assert_eq!(heads[2].1, "TournamentFinished");
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

    fn stream_heads(events: &[StoredEvent]) -> Vec<(u64, String)> {
        events
            .iter()
            .filter_map(|e| match e.decode_event().unwrap().kind {
                Some(Kind::ChainHeadSigned(h)) => Some((h.version, h.covers)),
                _ => None,
            })
            .collect()
    }

    async fn append_one(log: &Arc<dyn EventLog>, stream: &str, id: &str, kind: Kind) -> u64 {
        log.append(
            stream,
            ExpectedVersion::Any,
            id,
            "x",
            encode_events(&[event(kind)]),
        )
        .await
        .unwrap()
        .last_version
    }

    /// A change that is not signed at once (a result) is signed once its stream is quiet; a
    /// signature is not itself signed again, and a later change gets a head of its own.
    #[tokio::test]
    async fn a_quiet_stream_gets_its_latest_change_signed() {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let signer = Arc::new(HeadSigner::from_seed([5; 32]));
        let (stop, stopping) = watch::channel(false);
        let following = tokio::spawn(follow(
            Feed::Subscription(log.clone()),
            None,
            log.clone(),
            signer,
            Duration::from_millis(20),
            stopping,
        ));
        let stream = "tournament-quiet";
        let closed = Kind::RoundClosed(pb::RoundClosed { round: 1 });
        let v1 = append_one(&log, stream, "c1", closed).await;
        let wait_for = |version: u64| {
            let log = log.clone();
            async move {
                let deadline = Instant::now() + Duration::from_secs(10);
                loop {
                    let events = log.read(stream, 1).await.unwrap();
                    if stream_heads(&events).iter().any(|(v, _)| *v >= version) {
                        return events;
                    }
                    assert!(Instant::now() < deadline, "no head at {version}");
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
        };
        let events = wait_for(v1).await;
        assert_eq!(
            stream_heads(&events),
            vec![(v1, "RoundClosed round 1".to_string())]
        );
        let finished = Kind::TournamentFinished(pb::TournamentFinished { rounds_played: 1 });
        let v2 = append_one(&log, stream, "c2", finished).await;
        let events = wait_for(v2).await;
        let heads = stream_heads(&events);
        assert_eq!(heads.last(), Some(&(v2, "TournamentFinished".to_string())));
        // Nothing signs a signature: the stream ends with the second head, no third follows.
        stop.send_replace(true);
        following.await.unwrap().unwrap();
        assert_eq!(stream_heads(&log.read(stream, 1).await.unwrap()).len(), 2);
    }
}

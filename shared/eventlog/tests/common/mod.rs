//! Scenarios every backend must pass, written once against `EventLog`.

#![allow(dead_code)]

use arbiter_eventlog::{
    AppendOutcome, EventLog, ExpectedVersion, LogError, StoredEvent, SubscribeFrom, verify_chain,
};
use futures::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Barrier;

pub fn payload(s: &str) -> Vec<u8> {
    s.as_bytes().to_vec()
}

pub async fn append<L: EventLog + ?Sized>(
    log: &L,
    stream: &str,
    expected: impl Into<ExpectedVersion>,
    cmd: &str,
    events: &[&str],
) -> Result<AppendOutcome, LogError> {
    log.append(
        stream,
        expected.into(),
        cmd,
        "tester",
        events.iter().map(|e| payload(e)).collect(),
    )
    .await
}

/// Append, read back, read from a version, list streams.
pub async fn append_and_read<L: EventLog + ?Sized>(log: &L) {
    let o1 = append(log, "t1", 0, "c1", &["created"]).await.unwrap();
    assert_eq!(
        (o1.first_version, o1.last_version, o1.replayed),
        (1, 1, false)
    );
    assert_eq!(o1.event_ids.len(), 1);
    let o2 = append(log, "t1", 1, "c2", &["registered a", "registered b"])
        .await
        .unwrap();
    assert_eq!((o2.first_version, o2.last_version), (2, 3));
    assert!(o2.position > o1.position);
    let o3 = append(log, "t2", ExpectedVersion::Any, "c1", &["other"])
        .await
        .unwrap();
    assert_eq!((o3.first_version, o3.last_version), (1, 1));

    let all = log.read("t1", 0).await.unwrap();
    let versions: Vec<u64> = all.iter().map(|e| e.version).collect();
    assert_eq!(versions, vec![1, 2, 3]);
    let payloads: Vec<&[u8]> = all.iter().map(|e| e.payload.as_slice()).collect();
    assert_eq!(
        payloads,
        vec![&b"created"[..], b"registered a", b"registered b"]
    );
    assert_eq!(all[1].command_id, "c2");
    assert_eq!(all[2].command_id, "c2");
    assert_eq!(all[0].actor, "tester");
    assert_eq!(all[1].position, all[2].position);
    assert_eq!(all[0].prev_hash, [0; 32]);
    assert_eq!(all[1].prev_hash, all[0].hash);
    assert_eq!(all[2].hash, o2.last_hash);
    assert_eq!(all[1].event_id, o2.event_ids[0]);
    assert_eq!(all[1].event_id.get_version_num(), 7);
    assert!(all[0].time_unix_ms > 1_700_000_000_000);
    assert_eq!(verify_chain(&all), None);

    let tail = log.read("t1", 3).await.unwrap();
    assert_eq!(tail.len(), 1);
    assert_eq!(tail[0].payload, b"registered b");
    assert!(log.read("t1", 4).await.unwrap().is_empty());
    assert!(log.read("nobody", 1).await.unwrap().is_empty());
    assert_eq!(log.last_version("t1").await.unwrap(), 3);
    assert_eq!(log.last_version("nobody").await.unwrap(), 0);
    assert_eq!(
        log.list_streams().await.unwrap(),
        vec!["t1".to_string(), "t2".to_string()]
    );
    assert!(matches!(
        log.read("bad.name", 1).await,
        Err(LogError::InvalidStream { .. })
    ));
    assert!(matches!(
        append(log, "t1", ExpectedVersion::Any, "c9", &[]).await,
        Err(LogError::InvalidAppend(_))
    ));
}

/// The same command id twice gives one event and the same outcome.
pub async fn idempotent_commands<L: EventLog + ?Sized>(log: &L) {
    let first = append(log, "idem", 0, "cmd-1", &["a", "b"]).await.unwrap();
    assert!(!first.replayed);
    // Sent again, even with an expectation that is stale by now.
    let again = append(log, "idem", 0, "cmd-1", &["a", "b"]).await.unwrap();
    assert!(again.replayed);
    assert_eq!(
        AppendOutcome {
            replayed: false,
            ..again.clone()
        },
        first
    );
    let any = append(log, "idem", ExpectedVersion::Any, "cmd-1", &["a", "b"])
        .await
        .unwrap();
    assert_eq!(any, again);
    assert_eq!(log.read("idem", 1).await.unwrap().len(), 2);
    // The same id for other events is refused and writes nothing.
    let reused = append(log, "idem", ExpectedVersion::Any, "cmd-1", &["c"]).await;
    assert_eq!(
        reused,
        Err(LogError::CommandIdReused {
            stream: "idem".into(),
            command_id: "cmd-1".into()
        })
    );
    // Command ids are per stream.
    let other = append(log, "idem2", 0, "cmd-1", &["c"]).await.unwrap();
    assert!(!other.replayed);
    assert_eq!(log.last_version("idem").await.unwrap(), 2);
}

/// A stale expected version is a conflict and writes nothing.
pub async fn conflicts<L: EventLog + ?Sized>(log: &L) {
    append(log, "occ", 0, "a", &["1"]).await.unwrap();
    assert_eq!(
        append(log, "occ", 0, "b", &["2"]).await,
        Err(LogError::Conflict {
            expected: 0,
            actual: 1
        })
    );
    assert_eq!(
        append(log, "occ", 5, "b", &["2"]).await,
        Err(LogError::Conflict {
            expected: 5,
            actual: 1
        })
    );
    assert_eq!(log.last_version("occ").await.unwrap(), 1);
    // The refused command id is still free.
    let ok = append(log, "occ", 1, "b", &["2"]).await.unwrap();
    assert_eq!((ok.first_version, ok.replayed), (2, false));
    let any = append(log, "occ", ExpectedVersion::Any, "c", &["3"])
        .await
        .unwrap();
    assert_eq!(any.first_version, 3);
}

/// Two writers read the same version and append at once, `rounds` times: each time exactly one
/// wins, the other gets a conflict naming the new version and succeeds after re-reading.
pub async fn racing_writers<A, B>(a: Arc<A>, b: Arc<B>, rounds: usize)
where
    A: EventLog + ?Sized,
    B: EventLog + ?Sized,
{
    let barrier = Arc::new(Barrier::new(2));
    let stream = "race";
    let ta = tokio::spawn(writer(a, barrier.clone(), stream, "A", rounds));
    let tb = tokio::spawn(writer(b, barrier, stream, "B", rounds));
    let (wa, wb) = (ta.await.unwrap(), tb.await.unwrap());
    // Every round had one winner and one loser.
    for r in 0..rounds {
        assert_ne!(
            wa[r],
            wb[r],
            "round {r}: both {}",
            if wa[r] { "won" } else { "lost" }
        );
    }
    let wins_a = wa.iter().filter(|w| **w).count();
    assert_eq!(wins_a + wb.iter().filter(|w| **w).count(), rounds);
}

/// Returns, per round, whether this writer's first attempt won.
async fn writer<L: EventLog + ?Sized>(
    log: Arc<L>,
    barrier: Arc<Barrier>,
    stream: &'static str,
    me: &'static str,
    rounds: usize,
) -> Vec<bool> {
    let mut won = Vec::new();
    for r in 0..rounds {
        // Both read the same version...
        let v = log.last_version(stream).await.unwrap();
        assert_eq!(v, 2 * r as u64, "{me} round {r}");
        barrier.wait().await;
        // ...and both try to append at it.
        let cmd = format!("{me}-{r}");
        let first = append(&*log, stream, v, &cmd, &[&cmd]).await;
        match first {
            Ok(o) => {
                assert_eq!(o.first_version, v + 1);
                won.push(true);
            }
            Err(LogError::Conflict { expected, actual }) => {
                assert_eq!((expected, actual), (v, v + 1), "{me} round {r}");
                won.push(false);
            }
            Err(e) => panic!("{me} round {r}: {e}"),
        }
        barrier.wait().await;
        if !won[r] {
            // The loser re-reads and appends after the winner.
            let v = log.last_version(stream).await.unwrap();
            let o = append(&*log, stream, v, &cmd, &[&cmd]).await.unwrap();
            assert_eq!(o.first_version, 2 * r as u64 + 2);
        }
        barrier.wait().await;
    }
    won
}

/// After a race, the stream holds every command once with an intact chain.
pub async fn check_race_result<L: EventLog + ?Sized>(log: &L, rounds: usize) {
    let events = log.read("race", 1).await.unwrap();
    assert_eq!(events.len(), 2 * rounds);
    assert_eq!(verify_chain(&events), None);
    let mut cmds: Vec<&str> = events.iter().map(|e| e.command_id.as_str()).collect();
    cmds.sort();
    cmds.dedup();
    assert_eq!(cmds.len(), 2 * rounds);
}

async fn next_events(sub: &mut arbiter_eventlog::EventStream, n: usize) -> Vec<StoredEvent> {
    let mut out = Vec::new();
    while out.len() < n {
        let e = tokio::time::timeout(Duration::from_secs(10), sub.next())
            .await
            .expect("subscription stalled")
            .expect("subscription ended")
            .expect("subscription error");
        out.push(e);
    }
    out
}

/// Subscriptions deliver stored and then new events, in order.
pub async fn subscriptions<L: EventLog + ?Sized>(log: &L) {
    append(log, "sub", 0, "s1", &["e1", "e2"]).await.unwrap();
    let mut from_start = log
        .subscribe(SubscribeFrom::Stream {
            stream: "sub".into(),
            from_version: 1,
        })
        .await
        .unwrap();
    let mut from_three = log
        .subscribe(SubscribeFrom::Stream {
            stream: "sub".into(),
            from_version: 3,
        })
        .await
        .unwrap();
    let mut everything = log
        .subscribe(SubscribeFrom::All { from_position: 0 })
        .await
        .unwrap();

    let got = next_events(&mut from_start, 2).await;
    assert_eq!(
        got.iter().map(|e| e.version).collect::<Vec<_>>(),
        vec![1, 2]
    );

    append(log, "other", 0, "o1", &["x1"]).await.unwrap();
    for i in 3..=6 {
        let cmd = format!("s{i}");
        let body = format!("e{i}");
        append(log, "sub", i - 1, &cmd, &[&body]).await.unwrap();
    }
    let got = next_events(&mut from_start, 4).await;
    assert_eq!(
        got.iter().map(|e| e.version).collect::<Vec<_>>(),
        vec![3, 4, 5, 6]
    );
    assert_eq!(got[3].payload, b"e6");
    assert_eq!(verify_chain(&got), None);

    let got = next_events(&mut from_three, 4).await;
    assert_eq!(
        got.iter().map(|e| e.version).collect::<Vec<_>>(),
        vec![3, 4, 5, 6]
    );

    let got = next_events(&mut everything, 7).await;
    let seen: Vec<(String, u64)> = got.iter().map(|e| (e.stream.clone(), e.version)).collect();
    let want: Vec<(String, u64)> = [
        ("sub", 1),
        ("sub", 2),
        ("other", 1),
        ("sub", 3),
        ("sub", 4),
        ("sub", 5),
        ("sub", 6),
    ]
    .iter()
    .map(|(s, v)| (s.to_string(), *v))
    .collect();
    assert_eq!(seen, want);
    assert!(got.windows(2).all(|w| w[0].position <= w[1].position));

    // Resuming from a position skips what came before.
    let resume_at = got[3].position;
    let mut resumed = log
        .subscribe(SubscribeFrom::All {
            from_position: resume_at,
        })
        .await
        .unwrap();
    let again = next_events(&mut resumed, 4).await;
    assert_eq!(
        again.iter().map(|e| e.version).collect::<Vec<_>>(),
        vec![3, 4, 5, 6]
    );
}

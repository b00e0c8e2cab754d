//! The JetStream backend against the shared scenarios, on real nats-server processes.

mod common;

use arbiter_eventlog::testing::{NatsCluster, NatsServer};
use arbiter_eventlog::{
    EventLog, ExpectedVersion, JetStreamConfig, JetStreamLog, LogError, verify_chain,
};
use common::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

async fn log_on(server: &NatsServer) -> JetStreamLog {
    JetStreamLog::connect(&[server.url()], JetStreamConfig::default())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn append_and_read_back() {
    let server = NatsServer::start().await.unwrap();
    let log = log_on(&server).await;
    append_and_read(&log).await;
    // A second instance (another process, in effect) reads the same log.
    let other = log_on(&server).await;
    let events = other.read("t1", 1).await.unwrap();
    assert_eq!(events.len(), 3);
    assert_eq!(verify_chain(&events), None);
    assert_eq!(other.last_version("t1").await.unwrap(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_command_id_twice_is_one_event() {
    let server = NatsServer::start().await.unwrap();
    let log = log_on(&server).await;
    idempotent_commands(&log).await;
}

/// An instance whose view of the stream is stale sends a command another instance has already
/// appended: the server's de-duplication (2.9) or the expected-sequence check (2.10+) stops it,
/// and the instance reports the original outcome.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_appended_elsewhere_is_recognised() {
    let server = NatsServer::start().await.unwrap();
    let a = log_on(&server).await;
    let b = log_on(&server).await;
    append(&a, "x", 0, "c0", &["zero"]).await.unwrap();
    // b loads its view of the stream now (version 1).
    assert_eq!(
        append(&b, "x", ExpectedVersion::Any, "c0", &["zero"])
            .await
            .unwrap()
            .first_version,
        1
    );
    let first = append(&a, "x", 1, "c1", &["one"]).await.unwrap();
    let again = append(&b, "x", ExpectedVersion::Any, "c1", &["one"])
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!(again.event_ids, first.event_ids);
    assert_eq!(again.position, first.position);
    assert_eq!(a.read("x", 1).await.unwrap().len(), 2);
}

/// Past JetStream's de-duplication window the server no longer recognises the message id; the
/// expected-sequence check then fails, and the log finds the command in the stream itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_recognised_after_the_duplicate_window() {
    let server = NatsServer::start().await.unwrap();
    let cfg = JetStreamConfig {
        duplicate_window: Duration::from_millis(500),
        ..Default::default()
    };
    let a = JetStreamLog::connect(&[server.url()], cfg.clone())
        .await
        .unwrap();
    let b = JetStreamLog::connect(&[server.url()], cfg).await.unwrap();
    append(&a, "w", 0, "c0", &["zero"]).await.unwrap();
    assert!(
        append(&b, "w", ExpectedVersion::Any, "c0", &["zero"])
            .await
            .unwrap()
            .replayed
    );
    let first = append(&a, "w", 1, "c1", &["one"]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let again = append(&b, "w", ExpectedVersion::Any, "c1", &["one"])
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!(again.event_ids, first.event_ids);
    assert_eq!(a.last_version("w").await.unwrap(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_expected_version_conflicts() {
    let server = NatsServer::start().await.unwrap();
    let log = log_on(&server).await;
    conflicts(&log).await;
}

/// Two separate connections race: JetStream's expected-subject-sequence check decides.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_writers_one_winner_per_version() {
    let server = NatsServer::start().await.unwrap();
    let a = Arc::new(log_on(&server).await);
    let b = Arc::new(log_on(&server).await);
    racing_writers(a.clone(), b, 20).await;
    check_race_result(&*a, 20).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscription_delivers_in_order() {
    let server = NatsServer::start().await.unwrap();
    let log = log_on(&server).await;
    subscriptions(&log).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn durable_consumer_resumes_after_restart() {
    let server = NatsServer::start().await.unwrap();
    let log = log_on(&server).await;
    for i in 1..=5u64 {
        append(&log, "d", i - 1, &format!("c{i}"), &[&format!("e{i}")])
            .await
            .unwrap();
    }
    append(&log, "elsewhere", 0, "c1", &["not for this consumer"])
        .await
        .unwrap();

    let seen_first = {
        let consumer = log
            .durable_consumer("pairing-worker", Some("d"))
            .await
            .unwrap();
        let batch = consumer.fetch(3, Duration::from_secs(2)).await.unwrap();
        assert_eq!(batch.len(), 3);
        for d in &batch {
            d.ack().await.unwrap();
        }
        batch
            .iter()
            .map(|d| d.events[0].version)
            .collect::<Vec<_>>()
    };
    assert_eq!(seen_first, vec![1, 2, 3]);

    // A new handle (a restarted worker, on a new connection) continues after the acked ones.
    let log2 = log_on(&server).await;
    let consumer = log2
        .durable_consumer("pairing-worker", Some("d"))
        .await
        .unwrap();
    let batch = consumer.fetch(10, Duration::from_secs(2)).await.unwrap();
    let versions: Vec<u64> = batch.iter().map(|d| d.events[0].version).collect();
    assert_eq!(versions, vec![4, 5]);
    assert_eq!(batch[1].events[0].payload, b"e5");
    // Not acknowledged: a third handle gets them again (after a nak, at once).
    for d in &batch {
        d.nak().await.unwrap();
    }
    let again = consumer.fetch(10, Duration::from_secs(2)).await.unwrap();
    assert_eq!(
        again
            .iter()
            .map(|d| d.events[0].version)
            .collect::<Vec<_>>(),
        vec![4, 5]
    );
    for d in &again {
        d.ack().await.unwrap();
    }
    assert!(
        consumer
            .fetch(10, Duration::from_millis(300))
            .await
            .unwrap()
            .is_empty()
    );

    // A consumer over every stream sees both streams, in append order.
    let all = log2.durable_consumer("reporting", None).await.unwrap();
    let batch = all.fetch(10, Duration::from_secs(2)).await.unwrap();
    let streams: Vec<&str> = batch.iter().map(|d| d.events[0].stream.as_str()).collect();
    assert_eq!(streams, vec!["d", "d", "d", "d", "d", "elsewhere"]);
}

/// A batch yields each delivery as it arrives, not when it fills or expires; an unconfirmed
/// acknowledgement still takes the delivery off the consumer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_yields_deliveries_as_they_arrive() {
    use futures::StreamExt;
    let server = NatsServer::start().await.unwrap();
    let log = log_on(&server).await;
    append(&log, "b", 0, "c1", &["first"]).await.unwrap();
    let consumer = log.durable_consumer("follower", Some("b")).await.unwrap();
    // One message is there; the batch asks for 16 within 5 s, so it ends at its expiry. The
    // first delivery must come long before that end.
    let asked = std::time::Instant::now();
    let mut batch = consumer.batch(16, Duration::from_secs(5)).await.unwrap();
    let first = batch.next().await.unwrap().unwrap();
    let first_at = asked.elapsed();
    assert_eq!(first.events[0].payload, b"first");
    first.ack_unconfirmed().await.unwrap();
    assert!(batch.next().await.is_none(), "one message only");
    let ended_at = asked.elapsed();
    assert!(
        first_at + Duration::from_secs(2) < ended_at,
        "the first delivery waited for the batch: first at {first_at:?}, batch ended at {ended_at:?}"
    );
    drop(batch);
    // The server takes the acknowledgement without a reply: it shows in its count.
    let mut consumer = consumer;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while consumer.pending().await.unwrap() > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the unconfirmed ack never reached the server"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    append(&log, "b", 1, "c2", &["second"]).await.unwrap();
    let next = consumer.fetch(10, Duration::from_secs(2)).await.unwrap();
    let payloads: Vec<&[u8]> = next
        .iter()
        .map(|d| d.events[0].payload.as_slice())
        .collect();
    assert_eq!(payloads, vec![b"second".as_slice()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn state_survives_a_server_restart() {
    let mut server = NatsServer::start().await.unwrap();
    {
        let log = log_on(&server).await;
        append(&log, "r", 0, "c1", &["a", "b"]).await.unwrap();
    }
    server.restart().await.unwrap();
    let log = log_on(&server).await;
    assert_eq!(log.last_version("r").await.unwrap(), 2);
    let replay = append(&log, "r", ExpectedVersion::Any, "c1", &["a", "b"])
        .await
        .unwrap();
    assert!(replay.replayed);
    assert_eq!(
        append(&log, "r", 2, "c2", &["c"])
            .await
            .unwrap()
            .first_version,
        3
    );
    assert_eq!(verify_chain(&log.read("r", 1).await.unwrap()), None);
}

/// Three nodes, the stream replicated three times; the stream leader is killed between appends.
/// Appends resume (after the election) without losing or duplicating anything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appends_resume_after_the_stream_leader_dies() {
    let started = Instant::now();
    let mut cluster = NatsCluster::start(3).await.unwrap();
    let cfg = JetStreamConfig {
        replicas: 3,
        retry_for: Duration::from_secs(20),
        ..Default::default()
    };
    let log = JetStreamLog::connect(&cluster.urls(), cfg.clone())
        .await
        .unwrap();
    for i in 1..=5u64 {
        append(&log, "ha", i - 1, &format!("c{i}"), &[&format!("e{i}")])
            .await
            .unwrap();
    }

    let js = async_nats::jetstream::new(log.client().clone());
    let mut stream = js.get_stream(&cfg.stream_name).await.unwrap();
    let leader = stream
        .info()
        .await
        .unwrap()
        .cluster
        .clone()
        .and_then(|c| c.leader)
        .expect("a leader");
    cluster
        .node_named(&leader)
        .expect("leader is one of ours")
        .kill();
    let killed_at = Instant::now();

    for i in 6..=10u64 {
        let o = append(&log, "ha", i - 1, &format!("c{i}"), &[&format!("e{i}")])
            .await
            .unwrap();
        assert_eq!(o.first_version, i);
    }
    let recovery = killed_at.elapsed();
    let events = log.read("ha", 1).await.unwrap();
    assert_eq!(
        events.iter().map(|e| e.version).collect::<Vec<_>>(),
        (1..=10).collect::<Vec<_>>()
    );
    assert_eq!(verify_chain(&events), None);

    // Resending a command from before the fail-over is still recognised.
    assert!(
        append(&log, "ha", ExpectedVersion::Any, "c3", &["e3"])
            .await
            .unwrap()
            .replayed
    );
    // A stale writer still gets a conflict from the new leader.
    assert_eq!(
        append(&log, "ha", 5, "late", &["x"]).await,
        Err(LogError::Conflict {
            expected: 5,
            actual: 10
        })
    );
    eprintln!(
        "appends resumed {recovery:?} after killing {leader}; test took {:?}",
        started.elapsed()
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// A long stream is read in bulk by an instance that has nothing cached, from the start and
/// from the middle, and that instance then appends after the right version.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_stream_is_read_in_bulk() {
    let server = NatsServer::start().await.unwrap();
    let a = log_on(&server).await;
    for i in 1..=40u64 {
        append(&a, "long", i - 1, &format!("c{i}"), &[&format!("e{i}")])
            .await
            .unwrap();
        // Interleave another stream, so the subject's sequences have gaps.
        append(&a, "noise", ExpectedVersion::Any, &format!("n{i}"), &["n"])
            .await
            .unwrap();
    }
    let b = log_on(&server).await;
    let all = b.read("long", 1).await.unwrap();
    assert_eq!(
        all.iter().map(|e| e.version).collect::<Vec<_>>(),
        (1..=40).collect::<Vec<_>>()
    );
    assert_eq!(verify_chain(&all), None);
    let tail = b.read("long", 25).await.unwrap();
    assert_eq!(tail.first().map(|e| e.version), Some(25));
    assert_eq!(tail.len(), 16);
    let next = append(&b, "long", ExpectedVersion::Any, "c41", &["e41"])
        .await
        .unwrap();
    assert_eq!(next.first_version, 41);
    // After its catch-up, b reads from its index.
    assert_eq!(b.read("long", 40).await.unwrap().len(), 2);
}

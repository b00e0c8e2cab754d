//! The pairing pool over a real sled log: a small event's request, written while a large
//! event's pairing is running, is proposed before the large one is (a serial worker would
//! answer them in log order); each request is answered exactly once.

use arbiter_core::tournament::{
    AccelerationChoice, AccelerationMethod, Arbiter, Command, CreateTournament, RegisterPlayer,
    StartRound,
};
use arbiter_eventlog::{EventLog, SledLog, StoredEvent};
use arbiter_pairing_worker::{SERVICE, Worker};
use arbiter_proto::events::v1 as pb;
use arbiter_service_kit::store::{CommandContext, Feed, TournamentStore};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// A tournament of `players`; `accelerated`: Baku acceleration, so that round 1 has two
/// scoregroups and goes through the general engine (a round 1 of one scoregroup without
/// history is paired by arithmetic in milliseconds, whatever the field).
async fn tournament(store: &TournamentStore, id: &str, players: u32, accelerated: bool) {
    let d = "2025-09-01".parse().unwrap();
    let mut c = CreateTournament::new(format!("Pool {id}"), d, d, 5);
    c.chief_arbiter = Arbiter::named("Doe, Jane");
    if accelerated {
        c.acceleration = Some(AccelerationChoice {
            method: AccelerationMethod::Baku,
            rounds: None,
        });
    }
    let ctx = CommandContext::new(id, "create", None, "test").unwrap();
    store
        .execute(&ctx, |_| Ok(Command::CreateTournament(c.clone())))
        .await
        .unwrap();
    for i in 1..=players {
        let ctx = CommandContext::new(id, &format!("p{i}"), None, "test").unwrap();
        store
            .execute(&ctx, |_| {
                Ok(Command::RegisterPlayer(RegisterPlayer::new(
                    format!("Player, {i:04}"),
                    1000 + (i * 7919) % 1700,
                )))
            })
            .await
            .unwrap();
    }
}

async fn start_round(store: &TournamentStore, id: &str) {
    let ctx = CommandContext::new(id, "start-1", None, "test").unwrap();
    store
        .execute(&ctx, |_| {
            Ok(Command::StartRound(StartRound {
                round: 1,
                scheduled_unix_ms: None,
            }))
        })
        .await
        .unwrap();
}

fn kinds(events: &[StoredEvent], kind: &str) -> Vec<u64> {
    events
        .iter()
        .filter(|e| {
            e.decode_event()
                .map(|w| arbiter_eventlog::kind_name(&w) == kind)
                .unwrap_or(false)
        })
        .map(|e| e.position)
        .collect()
}

async fn wait_for_proposal(log: &Arc<dyn EventLog>, stream: &str, within: Duration) {
    let until = Instant::now() + within;
    loop {
        let events = log.read(stream, 1).await.unwrap();
        if !kinds(&events, "PairingProposed").is_empty() {
            return;
        }
        assert!(
            Instant::now() < until,
            "{stream}: no proposal within {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_event_is_paired_while_a_large_pairing_runs() {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    let writer = Arc::new(TournamentStore::new(log.clone(), "test", None));
    tournament(&writer, "large", 800, true).await;
    tournament(&writer, "small", 12, false).await;

    let worker = Arc::new(Worker::with_slots(
        Arc::new(TournamentStore::new(log.clone(), SERVICE, None)),
        2,
    ));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let follower = tokio::spawn(worker.clone().follow(
        Feed::Subscription(log.clone()),
        None,
        stop_rx,
    ));

    // The large request first; the small one once the large engine is running.
    start_round(&writer, "large").await;
    let until = Instant::now() + Duration::from_secs(60);
    while worker.stats().running.load(Ordering::Relaxed) == 0 {
        assert!(Instant::now() < until, "the large pairing never started");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let large_started = Instant::now();
    start_round(&writer, "small").await;
    wait_for_proposal(&log, "tournament-small", Duration::from_secs(60)).await;
    let small_proposed = large_started.elapsed();
    let large_events = log.read("tournament-large", 1).await.unwrap();
    assert!(
        kinds(&large_events, "PairingProposed").is_empty(),
        "the large pairing ended before the small one was proposed ({small_proposed:?}): \
         the test's large event is too small to show the pool"
    );
    wait_for_proposal(&log, "tournament-large", Duration::from_secs(300)).await;
    let large_proposed = large_started.elapsed();
    eprintln!("small proposed after {small_proposed:?}, large after {large_proposed:?}");

    // In the log: large requested < small requested < small proposed < large proposed.
    let small_events = log.read("tournament-small", 1).await.unwrap();
    let large_events = log.read("tournament-large", 1).await.unwrap();
    let (lr, lp) = (
        kinds(&large_events, "PairingRequested"),
        kinds(&large_events, "PairingProposed"),
    );
    let (sr, sp) = (
        kinds(&small_events, "PairingRequested"),
        kinds(&small_events, "PairingProposed"),
    );
    assert_eq!((lr.len(), lp.len(), sr.len(), sp.len()), (1, 1, 1, 1));
    assert!(
        lr[0] < sr[0] && sr[0] < sp[0] && sp[0] < lp[0],
        "{lr:?} {sr:?} {sp:?} {lp:?}"
    );
    let boards = |events: &[StoredEvent]| {
        events
            .iter()
            .find_map(|e| match e.decode_event().ok()?.kind? {
                pb::event::Kind::PairingProposed(p) => Some(p.boards.len()),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!((boards(&small_events), boards(&large_events)), (6, 400));

    let _ = stop_tx.send(true);
    follower.await.unwrap().unwrap();
    assert_eq!(worker.stats().proposed.load(Ordering::Relaxed), 2);
    assert_eq!(worker.stats().abandoned.load(Ordering::Relaxed), 0);
}

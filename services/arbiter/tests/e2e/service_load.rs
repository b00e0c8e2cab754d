//! `arbiter serve` (the real binary, every service in one process) under concurrent load over
//! gRPC: eight writers to one tournament all succeed, each command appended once; a reply of
//! a few KB comes back without the Nagle/delayed-ACK floor; SIGTERM under load stops the
//! server within 5 s, abandoning a running pairing, and every acknowledged command is in the
//! log after the restart.

use crate::support::*;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const WRITERS: usize = 8;

/// Registers players into `tid` from `WRITERS` concurrent clients (each its own connection),
/// `per_writer` each, or until `stop` (if given) is set or a call fails; returns the command
/// ids acknowledged and the failures.
async fn writers(
    endpoints: &Endpoints,
    tid: &str,
    per_writer: usize,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> (Vec<String>, Vec<String>) {
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let mut c = Clients::new(endpoints);
        let tid = tid.to_string();
        let stop = stop.clone();
        tasks.push(tokio::spawn(async move {
            let (mut acked, mut failed) = (Vec::new(), Vec::new());
            for i in 0..per_writer {
                if stop
                    .as_ref()
                    .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
                {
                    break;
                }
                let id = format!("w{w}-r{i}");
                let r = c
                    .reg
                    .register_player(reg::RegisterPlayerRequest {
                        confirm_same_name: false,
                        header: header(&tid, &id),
                        player: Some(arbiter_proto::registration::v1::PlayerDetails {
                            name: format!("Writer{w}, Player {i:04}"),
                            rating: 1400 + ((w * 131 + i * 17) % 1200) as u32,
                            federation: "NOR".into(),
                            ..Default::default()
                        }),
                    })
                    .await;
                match r {
                    Ok(r) => {
                        assert!(!r.into_inner().replayed, "{id} was new");
                        acked.push(id);
                    }
                    Err(e) => {
                        failed.push(format!("{id}: {:?}: {}", e.code(), e.message()));
                        if stop.is_some() {
                            break;
                        }
                    }
                }
            }
            (acked, failed)
        }));
    }
    let (mut acked, mut failed) = (Vec::new(), Vec::new());
    for t in tasks {
        let (a, f) = t.await.unwrap();
        acked.extend(a);
        failed.extend(f);
    }
    (acked, failed)
}

/// How many events of the stream each command id wrote.
fn per_command(events: &[pb::Envelope]) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for e in events {
        *m.entry(e.command_id.clone()).or_insert(0) += 1;
    }
    m
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_writers_to_one_tournament_all_succeed_and_small_replies_are_fast() {
    let work = TempDir::new("arbiter-load-writers").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let endpoints = Endpoints::one(&server.grpc);
    let mut d = Driver::new(
        Clients::new(&endpoints),
        "contended",
        Plan::swiss_40x9(),
        work.path(),
    );
    d.create().await;
    let per_writer = 150;
    let (acked, failed) = writers(&endpoints, "contended", per_writer, None).await;
    assert!(
        failed.is_empty(),
        "{} failures: {:?}",
        failed.len(),
        &failed[..failed.len().min(5)]
    );
    assert_eq!(acked.len(), WRITERS * per_writer);
    let events = d.events().await;
    assert_eq!(
        events.len(),
        1 + WRITERS * per_writer,
        "create + one event per command"
    );
    let counts = per_command(&events);
    for id in &acked {
        assert_eq!(counts.get(id), Some(&1), "{id} appended once");
    }
    assert!(
        !server.log().contains("version conflict"),
        "in-process writers retried after a conflict:\n{}",
        server
            .log()
            .lines()
            .filter(|l| l.contains("version conflict"))
            .take(3)
            .collect::<Vec<_>>()
            .join("\n")
    );

    // A reply of a few KB at idle: 40 players listed. With Nagle on the server's socket the
    // second segment waits for the client's delayed ACK (~40 ms a call).
    let mut small = Driver::new(
        Clients::new(&endpoints),
        "idle",
        Plan::swiss_40x9(),
        work.path(),
    );
    small.create().await;
    small.register_all().await;
    let mut c = Clients::new(&endpoints);
    let mut times = Vec::new();
    let mut size = 0;
    for _ in 0..21 {
        let t = Instant::now();
        let r = c
            .reg
            .list_players(reg::ListPlayersRequest {
                tournament: tref("idle"),
            })
            .await
            .unwrap()
            .into_inner();
        times.push(t.elapsed());
        size = r.players.len();
    }
    times.sort();
    let median = times[times.len() / 2];
    eprintln!(
        "ListPlayers ({size} players): median {median:?}, max {:?}",
        times.last().unwrap()
    );
    assert_eq!(size, 40);
    assert!(
        median < Duration::from_millis(25),
        "median round trip {median:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_stops_within_5s_and_keeps_every_acknowledged_command() {
    let work = TempDir::new("arbiter-load-sigterm").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let endpoints = Endpoints::one(&server.grpc);

    // A large event whose pairing is running when the signal comes.
    let mut big = Driver::new(
        Clients::new(&endpoints),
        "big",
        Plan::swiss_40x9(),
        work.path(),
    );
    big.create().await;
    let (registered, failed) = writers(&endpoints, "big", 100, None).await;
    assert!(failed.is_empty(), "{failed:?}");
    let mut load = Driver::new(
        Clients::new(&endpoints),
        "load",
        Plan::swiss_40x9(),
        work.path(),
    );
    load.create().await;

    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let load_endpoints = endpoints.clone();
    let load_stop = stop.clone();
    let writing =
        tokio::spawn(
            async move { writers(&load_endpoints, "load", 100_000, Some(load_stop)).await },
        );
    big.start_round(1).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    // The wait for the exit blocks: off the runtime's threads, which the writers use.
    let (mut server, status, took) = tokio::task::spawn_blocking(move || {
        let mut server = server;
        let (status, took) = server.terminate();
        (server, status, took)
    })
    .await
    .unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (acked, refused) = writing.await.unwrap();
    eprintln!(
        "exit {status:?} {took:?} after SIGTERM; {} commands acknowledged, last errors {:?}",
        acked.len(),
        &refused[..refused.len().min(3)]
    );
    assert!(
        status.success(),
        "exit status {status:?}:\n{}",
        server.log()
    );
    assert!(
        took < Duration::from_secs(5),
        "stopped after {took:?}:\n{}",
        server.log()
    );
    assert!(
        acked.len() > WRITERS,
        "the server was under load ({} acknowledged)",
        acked.len()
    );

    server.restart();
    // Whether the pairing was cut short (it is then answered by the sweep at start).
    let log = server.log();
    eprintln!(
        "pairing left pending at the stop: {}",
        log.contains("answering requests left pending")
    );
    let mut load = Driver::new(
        Clients::new(&Endpoints::one(&server.grpc)),
        "load",
        Plan::swiss_40x9(),
        work.path(),
    );
    let events = load.events().await;
    let counts = per_command(&events);
    for id in &acked {
        assert_eq!(
            counts.get(id),
            Some(&1),
            "acknowledged {id} in the log once"
        );
    }
    assert!(
        counts.values().all(|&n| n == 1),
        "no command appended twice"
    );
    // The abandoned pairing is answered after the restart, once.
    let mut big = Driver::new(
        Clients::new(&Endpoints::one(&server.grpc)),
        "big",
        Plan::swiss_40x9(),
        work.path(),
    );
    let proposal = big.wait_proposal(1, Duration::from_secs(120)).await;
    assert_eq!(proposal.boards.len(), registered.len() / 2);
    let proposals = big
        .events()
        .await
        .iter()
        .filter(|e| {
            matches!(
                e.payload.as_ref().and_then(|p| p.kind.as_ref()),
                Some(pb::event::Kind::PairingProposed(_))
            )
        })
        .count();
    assert_eq!(proposals, 1);
    let (status, took) = server.terminate();
    assert!(
        status.success() && took < Duration::from_secs(5),
        "{status:?} {took:?}"
    );
}

//! Two pairing-worker processes (`arbiter serve --only pairing-worker`) sharing the work as
//! one JetStream durable consumer, over a real nats-server: six events played at once, every
//! round gets exactly one `PairingProposed` whichever worker took its request; and a small
//! event's request goes to the idle worker while the other runs a 1,000-player pairing.

use crate::support::*;
use arbiter_eventlog::testing::NatsServer;
use arbiter_proto::events::v1 as pb;
use std::path::Path;
use std::time::Duration;

fn service(name: &str, nats: &str, data: &Path, log: &Path) -> Server {
    Server::start(
        &[
            "--only",
            name,
            "--nats",
            nats,
            "--data",
            data.to_str().unwrap(),
        ],
        log,
    )
}

const EVENTS: usize = 6;
const ROUNDS: u32 = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_pairing_workers_propose_once_per_round() {
    let nats = NatsServer::start()
        .await
        .expect("nats-server (apt-get install nats-server)");
    let url = nats.url();
    let work = TempDir::new("arbiter-e2e-workers").unwrap();
    let data = work.path().join("data");
    let registration = service("registration", &url, &data, &work.path().join("reg.log"));
    let director = service("round-director", &url, &data, &work.path().join("rd.log"));
    let reporting = service("reporting", &url, &data, &work.path().join("rep.log"));
    // Each worker has its own data folder (its checkpoint store); the consumer is shared.
    let workers: Vec<Server> = (0..2)
        .map(|i| {
            service(
                "pairing-worker",
                &url,
                &work.path().join(format!("worker-{i}")),
                &work.path().join(format!("worker-{i}.log")),
            )
        })
        .collect();
    let endpoints = Endpoints {
        registration: registration.grpc.clone(),
        director: director.grpc.clone(),
        reporting: reporting.grpc.clone(),
    };
    let plan = Plan {
        players: 11,
        rounds: ROUNDS,
        seed: 7,
        early_byes: Vec::new(),
        late_byes: Vec::new(),
        withdrawals: Vec::new(),
        forfeit_permille: 0,
    };
    let mut tasks = Vec::new();
    for e in 0..EVENTS {
        let mut d = Driver::new(
            Clients::new(&endpoints),
            &format!("event-{e}"),
            Plan {
                seed: plan.seed + e as u64,
                ..plan.clone()
            },
            work.path(),
        );
        tasks.push(tokio::spawn(async move {
            d.create().await;
            d.register_all().await;
            for round in 1..=ROUNDS {
                d.start_round(round).await;
                let p = d.wait_proposal(round, Duration::from_secs(60)).await;
                d.publish(round).await;
                let pairing = pairing_of(&p);
                assert_eq!(pairing.0.len(), 5);
                d.results(round, &pairing, 0..pairing.0.len()).await;
                d.close(round).await;
            }
            d.events().await
        }));
    }
    for (e, t) in tasks.into_iter().enumerate() {
        let events = t.await.unwrap();
        let mut per_round = vec![0u32; ROUNDS as usize + 1];
        for ev in &events {
            if let Some(pb::event::Kind::PairingProposed(p)) =
                ev.payload.as_ref().and_then(|p| p.kind.as_ref())
            {
                per_round[p.round as usize] += 1;
            }
        }
        assert_eq!(
            &per_round[1..],
            &vec![1; ROUNDS as usize][..],
            "event-{e}: proposals per round"
        );
    }
    // Which worker answered: each appends under the same derived command id, so the log
    // cannot tell; their own logs can.
    let answered: Vec<usize> = workers
        .iter()
        .map(|w| {
            w.log()
                .lines()
                .filter(|l| l.contains("proposed") && l.contains("replayed=false"))
                .count()
        })
        .collect();
    eprintln!("proposals appended by each worker: {answered:?}");
    assert_eq!(
        answered.iter().sum::<usize>(),
        EVENTS * ROUNDS as usize,
        "{answered:?}"
    );
}

/// Two workers of one slot each: while one runs a large event's pairing (and, its slot full,
/// fetches nothing more), the other takes a small event's request: the small event is
/// proposed first although it asked second. The large event's timed pairing is its round 2:
/// a round 1 without history is paired by arithmetic in milliseconds whatever the field.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_event_is_not_held_behind_a_large_pairing() {
    let nats = NatsServer::start()
        .await
        .expect("nats-server (apt-get install nats-server)");
    let url = nats.url();
    let work = TempDir::new("arbiter-e2e-workers-fair").unwrap();
    let data = work.path().join("data");
    let registration = service("registration", &url, &data, &work.path().join("reg.log"));
    let director = service("round-director", &url, &data, &work.path().join("rd.log"));
    let reporting = service("reporting", &url, &data, &work.path().join("rep.log"));
    let metrics: Vec<String> = (0..2)
        .map(|_| arbiter_eventlog::testing::free_port().unwrap().to_string())
        .collect();
    let _workers: Vec<Server> = (0..2)
        .map(|i| {
            Server::start(
                &[
                    "--only",
                    "pairing-worker",
                    "--nats",
                    &url,
                    "--data",
                    work.path().join(format!("worker-{i}")).to_str().unwrap(),
                    "--pairing-slots",
                    "1",
                    "--metrics-port",
                    &metrics[i],
                ],
                &work.path().join(format!("worker-{i}.log")),
            )
        })
        .collect();
    let endpoints = Endpoints {
        registration: registration.grpc.clone(),
        director: director.grpc.clone(),
        reporting: reporting.grpc.clone(),
    };
    let plan = |players| Plan {
        players,
        rounds: 5,
        seed: 11,
        early_byes: Vec::new(),
        late_byes: Vec::new(),
        withdrawals: Vec::new(),
        forfeit_permille: 0,
    };
    // Registered by eight clients at once. Its round 2 must take far longer than the small
    // event's fetch and pairing: 3,008 players take about 5 s in a debug build.
    const PER_CLIENT: u32 = 376;
    let mut large = Driver::new(
        Clients::new(&endpoints),
        "large",
        plan(8 * PER_CLIENT),
        work.path(),
    );
    large.create().await;
    let mut tasks = Vec::new();
    for w in 0..8u32 {
        let mut c = Clients::new(&endpoints);
        tasks.push(tokio::spawn(async move {
            for i in 0..PER_CLIENT {
                c.reg
                    .register_player(arbiter_proto::registration::v1::RegisterPlayerRequest {
                        confirm_same_name: false,
                        header: header("large", &format!("w{w}-{i}")),
                        player: Some(arbiter_proto::registration::v1::PlayerDetails {
                            name: format!("Large{w}, Player {i:03}"),
                            rating: 1200 + (w * PER_CLIENT + i) * 997 % 1500,
                            federation: "NOR".into(),
                            ..Default::default()
                        }),
                    })
                    .await
                    .expect("register");
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let mut small = Driver::new(Clients::new(&endpoints), "small", plan(8), work.path());
    small.create().await;
    small.register_all().await;

    // The large event's round 1, played quickly, so that its round 2 has three scoregroups
    // and a history: a pairing of seconds.
    large.start_round(1).await;
    let first = large.wait_proposal(1, Duration::from_secs(120)).await;
    large.publish(1).await;
    let first = pairing_of(&first);
    let boards = first.0.len();
    large.results(1, &first, 0..boards).await;
    large.close(1).await;

    let asked = std::time::Instant::now();
    large.start_round(2).await;
    // The small event asks once a worker runs the large pairing: that worker's one slot is
    // then full, so only the other can take the small request.
    let running = |port: &str| {
        let (status, body) = http_get(&format!("http://127.0.0.1:{port}"), "/metrics");
        assert_eq!(status, 200, "{body}");
        body.lines()
            .find_map(|l| l.strip_prefix("arbiter_pairing_engines_running "))
            .map_or(0, |v| v.trim().parse::<i64>().unwrap())
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while metrics.iter().map(|p| running(p)).sum::<i64>() == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "no worker started the large round-2 pairing"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let running_after = asked.elapsed();
    small.start_round(1).await;
    let p = small.wait_proposal(1, Duration::from_secs(60)).await;
    assert_eq!(pairing_of(&p).0.len(), 4);
    let large_events = large.events().await;
    let proposed = |events: &[pb::Envelope]| {
        events
            .iter()
            .filter(|e| {
                matches!(
                    e.payload.as_ref().and_then(|p| p.kind.as_ref()),
                    Some(pb::event::Kind::PairingProposed(_))
                )
            })
            .count()
    };
    let small_after = asked.elapsed();
    assert_eq!(
        proposed(&large_events),
        1,
        "the large round-2 pairing was proposed before the small one ({small_after:?} after it was asked)"
    );
    let p = large.wait_proposal(2, Duration::from_secs(300)).await;
    eprintln!(
        "the large pairing ran {running_after:?} after it was asked; the small event was proposed {small_after:?} after it, the large one {:?}",
        asked.elapsed()
    );
    assert_eq!(pairing_of(&p).0.len(), 4 * PER_CLIENT as usize);
    assert_eq!(proposed(&large.events().await), 2);
    assert_eq!(proposed(&small.events().await), 1);
}

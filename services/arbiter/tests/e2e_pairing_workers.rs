//! Two pairing-worker processes (`arbiter serve --only pairing-worker`) sharing the work as
//! one JetStream durable consumer, over a real nats-server: six events played at once, every
//! round gets exactly one `PairingProposed` whichever worker took its request.

mod support;

use arbiter_eventlog::testing::NatsServer;
use arbiter_proto::events::v1 as pb;
use std::path::Path;
use std::time::Duration;
use support::*;

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

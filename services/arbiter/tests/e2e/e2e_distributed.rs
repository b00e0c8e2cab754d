//! The same 40-player, 9-round Swiss with every service in its own process
//! (`arbiter serve --only ...`) over a 3-node nats-server JetStream cluster, all started by
//! `deploy/local/cluster.sh` (the script users run, exercised here). Faults on the way: the pairing worker is killed (SIGKILL) as round 3 starts, the round
//! director with half of round 4's results in, reporting in the middle of round 6; each is
//! restarted and the tournament goes on with no event lost or duplicated. At the end
//! `arbiter replay --nats` passes. A second test races two registration processes on one
//! stream.

use crate::cluster::LocalCluster;
use crate::support::*;
use arbiter_eventlog::testing::NatsServer;
use arbiter_proto::registration::v1 as reg;
use std::path::Path;
use std::time::Duration;
use tonic::Code;

fn service(name: &str, nats: &str, data: &Path, work: &Path) -> Server {
    Server::start(
        &[
            "--only",
            name,
            "--nats",
            nats,
            "--data",
            data.to_str().unwrap(),
        ],
        &work.join(format!("{name}.log")),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swiss_40x9_separate_services_over_nats() {
    let work = TempDir::new("arbiter-e2e-nats").unwrap();
    // Every stream snapshotted (a 40-player stream is shorter than the default minimum), so
    // that the restarts below resume from JetStream-backed snapshots.
    let mut cluster = LocalCluster::start_with_env(
        &work.path().join("cluster"),
        &[
            "registration",
            "round-director",
            "pairing-worker",
            "reporting",
        ],
        &[("ARBITER_SNAPSHOT_MIN_EVENTS", "0")],
    );
    let url = cluster.nats_urls();
    const WORKER: &str = "pairing-worker-1";
    let endpoints = Endpoints {
        registration: cluster.grpc("registration"),
        director: cluster.grpc("round-director"),
        reporting: cluster.grpc("reporting"),
    };
    let plan = Plan::swiss_40x9();
    let mut d = Driver::new(
        Clients::new(&endpoints),
        "open-nats",
        plan.clone(),
        work.path(),
    );
    d.create().await;
    d.register_all().await;
    let wait = Duration::from_secs(60);

    for round in 1..=plan.rounds {
        match round {
            3 => {
                // The pairing worker dies as the request is written; restarted, it answers it
                // once.
                d.start_round(round).await;
                cluster.kill9(WORKER);
                cluster.restart(WORKER);
                let p = d.wait_proposal(round, wait).await;
                d.check_proposal(round, &p).await;
                d.publish(round).await;
                let pairing = pairing_of(&p);
                d.results(round, &pairing, 0..pairing.0.len()).await;
                d.close(round).await;
                d.after_close(round).await;
            }
            4 | 6 => {
                d.start_round(round).await;
                let p = d.wait_proposal(round, wait).await;
                d.check_proposal(round, &p).await;
                d.publish(round).await;
                let pairing = pairing_of(&p);
                let half = pairing.0.len() / 2;
                d.results(round, &pairing, 0..half).await;
                let before = d.own_events().await;
                if round == 4 {
                    cluster.kill9("round-director");
                    cluster.restart("round-director");
                    let (id, req) = d.last_result.clone().unwrap();
                    let again = retry("resend", || {
                        let mut rd = d.c.rd.clone();
                        let req = req.clone();
                        async move { rd.record_result(req).await }
                    })
                    .await
                    .unwrap()
                    .into_inner();
                    assert!(
                        again.replayed,
                        "{id} sent again after the restart is replayed"
                    );
                } else {
                    cluster.kill9("reporting");
                    cluster.restart("reporting");
                }
                assert_eq!(d.own_events().await, before, "no event lost or added");
                d.results(round, &pairing, half..pairing.0.len()).await;
                d.close(round).await;
                d.after_close(round).await;
                if round == 6 {
                    assert!(
                        cluster.log("reporting").contains("resumed from checkpoint"),
                        "reporting resumes from its snapshot:\n{}",
                        cluster.log("reporting")
                    );
                }
            }
            _ => d.play_round(round).await,
        }
    }
    d.finish().await;
    let events = d.check_stream().await;
    assert!(d.forfeits > 0);
    assert!(
        cluster.log(WORKER).contains("proposed"),
        "the restarted worker answered"
    );
    assert!(kinds(&events).iter().any(|(_, k)| *k == "PlayerWithdrawn"));

    let replay = run(&["replay", "open-nats", "--nats", &url]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    assert!(
        replay.stdout.contains("9 rounds re-paired, 0 differing"),
        "{}",
        replay.stdout
    );
    // Every service and NATS node stops cleanly on its signal (exit status 0).
    let stop = cluster.stop();
    assert!(stop.ok, "cluster.sh stop:\n{}", stop.output);
    for name in [
        "registration",
        "round-director",
        WORKER,
        "reporting",
        "nats-1",
        "nats-2",
        "nats-3",
    ] {
        assert!(
            stop.output.contains(&format!("{name}: exited 0")),
            "{name}:\n{}",
            stop.output
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_registration_processes_race_on_one_stream() {
    let nats = NatsServer::start()
        .await
        .expect("nats-server (apt-get install nats-server)");
    let url = nats.url();
    let work = TempDir::new("arbiter-e2e-nats-race").unwrap();
    let a = service("registration", &url, &work.path().join("a"), work.path());
    let b = Server::start(
        &[
            "--only",
            "registration",
            "--nats",
            &url,
            "--data",
            work.path().join("b").to_str().unwrap(),
        ],
        &work.path().join("registration-b.log"),
    );
    let ca = Clients::new(&Endpoints::one(&a.grpc));
    let cb = Clients::new(&Endpoints::one(&b.grpc));
    let mut d = Driver::new(
        ca.clone(),
        "race",
        Plan {
            players: 2,
            rounds: 3,
            seed: 1,
            early_byes: vec![],
            late_byes: vec![],
            withdrawals: vec![],
            forfeit_permille: 0,
        },
        work.path(),
    );
    d.create().await;
    let version = |c: &Clients| {
        let mut reg = c.reg.clone();
        async move {
            reg.list_players(reg::ListPlayersRequest {
                tournament: tref("race"),
            })
            .await
            .unwrap()
            .into_inner()
        }
    };
    let player = |name: String, id: u64| {
        Some(arbiter_proto::registration::v1::PlayerDetails {
            name,
            rating: 1500,
            fide_id: Some(id),
            ..Default::default()
        })
    };

    // Both processes, the same expected version: one wins, the other must re-read.
    let v = version(&ca).await.version;
    let send = |c: &Clients, i: u64| {
        let mut reg = c.reg.clone();
        let p = player(format!("Racer, {i}"), 900 + i);
        async move {
            let mut h = header("race", &format!("racer-{i}"));
            h.as_mut().unwrap().expected_version = Some(v);
            reg.register_player(reg::RegisterPlayerRequest {
                header: h,
                confirm_same_name: false,
                player: p,
            })
            .await
        }
    };
    let (ra, rb) = tokio::join!(send(&ca, 1), send(&cb, 2));
    let outcomes = [ra, rb];
    assert_eq!(
        outcomes.iter().filter(|r| r.is_ok()).count(),
        1,
        "{outcomes:?}"
    );
    let lost = outcomes.iter().find_map(|r| r.as_ref().err()).unwrap();
    assert_eq!(lost.code(), Code::Aborted, "{lost:?}");
    assert_eq!(version(&cb).await.version, v + 1);

    // No expected version: every command lands once; the loser of each race retries.
    let conflicted = || {
        a.log()
            .contains("version conflict: re-reading and deciding again")
            || b.log()
                .contains("version conflict: re-reading and deciding again")
    };
    let mut sent = 1u64;
    for batch in 0..5u64 {
        let before = version(&ca).await;
        let mut tasks = Vec::new();
        for i in 0..12u64 {
            let c = if i % 2 == 0 { ca.clone() } else { cb.clone() };
            let p = player(format!("Crowd, {batch}-{i:02}"), 10_000 + batch * 100 + i);
            tasks.push(tokio::spawn(async move {
                let mut reg = c.reg.clone();
                reg.register_player(reg::RegisterPlayerRequest {
                    header: header("race", &format!("crowd-{batch}-{i}")),
                    confirm_same_name: false,
                    player: p,
                })
                .await
            }));
        }
        for t in tasks {
            t.await.unwrap().expect("every writer succeeds");
        }
        sent += 12;
        let after = version(&cb).await;
        assert_eq!(after.version, before.version + 12);
        assert_eq!(after.players.len() as u64, sent);
        if conflicted() {
            break;
        }
    }
    assert!(conflicted(), "the two processes never raced");
}

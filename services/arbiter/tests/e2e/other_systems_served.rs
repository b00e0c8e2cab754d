//! Dubov, Burstein (both readings) and Lim tournaments created and played through gRPC against `arbiter serve`
//! (one server, one tournament per system): 21 players (a pairing-allocated bye while the
//! field is odd), 6 rounds, a half-point bye, forfeits and a withdrawal. Every proposal must equal `arbiter pair
//! --system S` on the TRF export taken before it (and the engine in process); after a clean stop
//! `arbiter replay` re-pairs every round identically.

use crate::support::*;
use arbiter_proto::events::v1 as pb;

fn plan(seed: u64) -> Plan {
    Plan {
        players: 21,
        rounds: 6,
        seed,
        early_byes: vec![(9, 3, pb::ByeKind::HalfPoint)],
        late_byes: vec![],
        withdrawals: vec![(4, 17)],
        forfeit_permille: 60,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dubov_burstein_and_lim_events_run_through_the_service() {
    let work = TempDir::new("arbiter-other-systems").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap();
    let mut server = Server::start(&["--data", data_arg], &work.path().join("serve.log"));
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let systems = [
        (pb::PairingSystem::Dubov, "dubov"),
        (pb::PairingSystem::Burstein, "burstein"),
        // The same system under its other reading (the rule set names it).
        (pb::PairingSystem::Burstein, "burstein-bbp"),
        (pb::PairingSystem::Lim, "lim"),
    ];
    for (i, (system, rule_set)) in systems.iter().enumerate() {
        let tid = format!("swiss-{rule_set}");
        let p = plan(2026 + i as u64);
        let mut d =
            Driver::new(c.clone(), &tid, p.clone(), work.path()).with_system(*system, rule_set);
        d.create().await;
        d.register_all().await;
        for round in 1..=p.rounds {
            d.play_round(round).await;
        }
        d.finish().await;
        // 21 players available in rounds 1 and 2 at least.
        assert!(
            d.pairing_byes >= 2,
            "{rule_set}: a pairing-allocated bye in each round with an odd field"
        );
    }
    let status = server.interrupt();
    assert!(status.success(), "serve exited with {status:?}");
    for (_, rule_set) in systems {
        let tid = format!("swiss-{rule_set}");
        let replay = run(&["replay", &tid, "--data", data_arg]);
        assert_eq!(
            replay.code, 0,
            "{tid}: {}\n{}",
            replay.stdout, replay.stderr
        );
        assert!(
            replay.stdout.contains("6 rounds re-paired, 0 differing"),
            "{tid}: {}",
            replay.stdout
        );
    }
}

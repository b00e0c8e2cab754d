//! A 40-player, 9-round Swiss played through gRPC against `arbiter serve` (the real binary,
//! every service in one process over a sled data folder), with half-point byes, forfeits and a
//! withdrawal. Every proposal must equal `arbiter pair` on the TRF export taken before it; after
//! every round `arbiter check` must re-pair the export identically; the server is killed with
//! SIGKILL in the middle of round 5 and restarted from its data folder; at the end Ctrl-C stops
//! it cleanly and `arbiter replay` passes.

use crate::support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swiss_40x9_embedded_server() {
    let work = TempDir::new("arbiter-e2e-embedded").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap();
    let mut server = Server::start(&["--data", data_arg], &work.path().join("serve.log"));
    let http = server.http.clone().expect("http address");
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let plan = Plan::swiss_40x9();
    let mut d = Driver::new(c, "open-2025", plan.clone(), work.path());
    d.create().await;
    d.register_all().await;

    for round in 1..=plan.rounds {
        if round != 5 {
            d.play_round(round).await;
            continue;
        }
        // Round 5: the server dies (SIGKILL) with half the results in.
        d.start_round(round).await;
        let proposal = d
            .wait_proposal(round, std::time::Duration::from_secs(60))
            .await;
        d.check_proposal(round, &proposal).await;
        d.publish(round).await;
        let pairing = pairing_of(&proposal);
        let half = pairing.0.len() / 2;
        d.results(round, &pairing, 0..half).await;
        let before = d.own_events().await;
        server.kill9();
        server.restart();
        assert_eq!(
            d.own_events().await,
            before,
            "no event lost or added by the crash"
        );
        // The last command again, same command id: the first outcome, nothing appended.
        let (id, req) = d.last_result.clone().unwrap();
        let again = retry("resend", || {
            let mut rd = d.c.rd.clone();
            let req = req.clone();
            async move { rd.record_result(req).await }
        })
        .await
        .unwrap()
        .into_inner();
        assert!(again.replayed, "{id} sent twice must be replayed");
        assert_eq!(d.own_events().await, before);
        d.results(round, &pairing, half..pairing.0.len()).await;
        d.close(round).await;
        d.after_close(round).await;
        let log = server.log();
        assert!(
            log.matches("resumed from checkpoint").count() >= 1,
            "the restarted services resume from their checkpoints"
        );
    }
    d.finish().await;
    let events = d.check_stream().await;
    assert!(d.forfeits > 0, "the seed plays some forfeits");
    assert!(
        kinds(&events).iter().any(|(_, k)| *k == "PlayerWithdrawn"),
        "a withdrawal"
    );
    assert!(
        events.iter().filter(|e| matches!(
            e.payload.as_ref().and_then(|p| p.kind.as_ref()),
            Some(arbiter_proto::events::v1::event::Kind::ByeRequested(b)) if b.kind == arbiter_proto::events::v1::ByeKind::HalfPoint as i32
        )).count() >= 5,
        "half-point byes"
    );
    let final_trf = d.export().await;

    // The JSON API answers from the same projection.
    let (status, body) = http_get(&http, "/api/tournaments/open-2025/standings");
    assert_eq!(status, 200, "{body}");
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(json["after_round"], 9);
    assert_eq!(json["rows"].as_array().unwrap().len(), 40);
    let (status, body) = http_get(&http, "/api/tournaments/open-2025/pairings/9");
    assert_eq!(status, 200, "{body}");
    let (status, trf) = http_get(&http, "/api/tournaments/open-2025/trf");
    assert_eq!((status, trf.as_str()), (200, final_trf.as_str()));
    let (status, _) = http_get(&http, "/api/tournaments/nope/standings");
    assert_eq!(status, 404);

    // Ctrl-C: a clean stop; then the audit and the export read the data folder.
    let status = server.interrupt();
    assert!(status.success(), "serve exited with {status:?}");
    let replay = run(&["replay", "open-2025", "--data", data_arg]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    assert!(
        replay.stdout.contains("hash chain: intact"),
        "{}",
        replay.stdout
    );
    assert!(
        replay.stdout.contains("9 rounds re-paired, 0 differing"),
        "{}",
        replay.stdout
    );
    let export = run(&["export", "open-2025", "--data", data_arg]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    assert_eq!(export.stdout, final_trf);
}

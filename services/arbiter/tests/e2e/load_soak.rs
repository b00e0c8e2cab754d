//! Soak test: a small version of the load bench (`benches/load.rs`). Four 20-player, 5-round
//! events played at once through gRPC against the real `arbiter serve` process; no call may
//! fail, every acknowledged command must be in the log exactly once, the server must stop on
//! SIGTERM, and `arbiter replay` must pass on every event's log in the stopped server's data
//! folder.

use crate::load::*;
use arbiter_eventlog::testing::TempDir;
use std::path::PathBuf;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_events_at_once_no_errors_logs_replay() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_arbiter"));
    let work = TempDir::new("arbiter-load-soak").unwrap();
    let mut cfg = LoadConfig::new(4, 20, 5);
    cfg.connections = 2;
    cfg.prefix = "soak".into();
    let (report, stats, problems) = run_load(&bin, work.path(), &cfg).await;
    print_report(&cfg, &stats, &report);

    assert_eq!(stats.error_count(), 0, "errors: {:?}", stats.errors());
    assert_eq!(report.events_finished, 4, "every event finished");
    assert!(
        problems.is_empty(),
        "log against acknowledgements: {problems:#?}"
    );
    // 20 players: 10 boards a round, 5 rounds, 4 events.
    assert_eq!(report.results, 4 * 5 * 10);
    let lat = stats.percentiles();
    let calls = |k: &str| lat.iter().find(|l| l.0 == k).map_or(0, |l| l.1);
    assert_eq!(calls("RecordResult"), 200);
    assert_eq!(calls("RegisterPlayer"), 80);
    assert_eq!(calls("wait for pairing"), 20);
    assert_eq!(calls("result to standings"), 20, "one probe per round");
    // Per event: create, 20 registrations, 5 x (start, publish, 10 results, close), finish.
    assert_eq!(stats.ack_count(), 4 * (1 + 20 + 5 * 13 + 1));
    assert_eq!(
        report.pairing_requests, 20,
        "one pairing request a round, each answered once"
    );
    assert!(report.log_bytes > 0 && report.stored_events > 0);
    assert!(
        report.stop.is_some_and(|d| d < Duration::from_secs(30)),
        "serve stops on SIGTERM"
    );

    let data = work.path().join("data");
    for i in 0..cfg.events {
        let tid = cfg.tournament_id(i);
        let out = replay(&bin, &[&tid, "--data", data.to_str().unwrap()])
            .unwrap_or_else(|e| panic!("{tid}: {e}"));
        assert!(out.contains("hash chain: intact"), "{tid}: {out}");
        assert!(
            out.contains("5 rounds re-paired, 0 differing"),
            "{tid}: {out}"
        );
    }
}

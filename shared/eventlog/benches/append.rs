//! Append throughput of the event log backends, in events per second (and, for scale, the time
//! to read back the batch-1 stream).
//!
//! `cargo bench -p arbiter-eventlog --bench append` runs the full measurement; it starts its own
//! nats-server (`$NATS_SERVER_BIN` or `nats-server` on the PATH). Without `--bench` (e.g. under
//! `cargo test --benches`) it runs a few appends as a smoke test.
//!
//! Each run appends to one stream, one command at a time, with an exact expected version, and
//! events of about 200 bytes. Batch size = events per append (per command).
//! `ARBITER_BENCH_EVENTS` sets the number of events of a batch-1 run (default 2000); batch-100
//! runs append 20 times as many.
//!
//! Then, for sled, N concurrent appenders (tasks on a 2-thread runtime), each appending one
//! event per command: to N different streams (exact expected version), and all to one stream
//! (`ExpectedVersion::Any`). Reported: events/s over the run and the p50/p99/max latency of one
//! append (acknowledged = durable). `ARBITER_BENCH_APPENDS` sets the appends per appender
//! (default 200). `--only-sled` skips JetStream.

use arbiter_eventlog::testing::{NatsServer, TempDir};
use arbiter_eventlog::{EventLog, ExpectedVersion, JetStreamConfig, JetStreamLog, SledLog};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `appenders` tasks, each appending `per` one-event commands, to their own stream or all to
/// one; returns (events, wall time, sorted latencies).
async fn concurrent(
    log: Arc<SledLog>,
    appenders: usize,
    per: usize,
    one_stream: bool,
) -> (usize, Duration, Vec<Duration>) {
    let payload = vec![b'x'; 200];
    let started = Instant::now();
    let mut tasks = Vec::new();
    for a in 0..appenders {
        let log = log.clone();
        let payload = payload.clone();
        tasks.push(tokio::spawn(async move {
            let stream = if one_stream {
                format!("one-{appenders}")
            } else {
                format!("many-{appenders}-{a}")
            };
            let mut lat = Vec::with_capacity(per);
            for i in 0..per {
                let expected = if one_stream {
                    ExpectedVersion::Any
                } else {
                    ExpectedVersion::Exact(i as u64)
                };
                let cmd = format!("c-{a}-{i}");
                let t = Instant::now();
                log.append(&stream, expected, &cmd, "bench", vec![payload.clone()])
                    .await
                    .expect("append");
                lat.push(t.elapsed());
            }
            lat
        }));
    }
    let mut all = Vec::with_capacity(appenders * per);
    for t in tasks {
        all.extend(t.await.expect("appender"));
    }
    let took = started.elapsed();
    all.sort();
    (appenders * per, took, all)
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i].as_secs_f64() * 1000.0
}

async fn run<L: EventLog>(log: &L, stream: &str, batch: usize, events: usize) -> (usize, Duration) {
    let payload = vec![b'x'; 200];
    let appends = events.div_ceil(batch);
    let started = Instant::now();
    for i in 0..appends {
        let version = (i * batch) as u64;
        let cmd = format!("cmd-{i}");
        let batch_events = vec![payload.clone(); batch];
        log.append(stream, version.into(), &cmd, "bench", batch_events)
            .await
            .expect("append");
    }
    (appends * batch, started.elapsed())
}

async fn read_all<L: EventLog>(backend: &str, log: &L, stream: &str) {
    let started = Instant::now();
    let events = log.read(stream, 1).await.expect("read");
    let took = started.elapsed();
    println!(
        "{backend:<10} read    : {:>6} events in {:>7.3} s = {:>9.0} events/s",
        events.len(),
        took.as_secs_f64(),
        events.len() as f64 / took.as_secs_f64()
    );
}

fn report(backend: &str, batch: usize, (events, took): (usize, Duration)) {
    let per_sec = events as f64 / took.as_secs_f64();
    let appends_per_sec = per_sec / batch as f64;
    println!(
        "{backend:<10} batch {batch:>3}: {events:>6} events in {:>7.3} s = {per_sec:>9.0} events/s ({appends_per_sec:>7.0} appends/s)",
        took.as_secs_f64()
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let events: usize = if full {
        std::env::var("ARBITER_BENCH_EVENTS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2000)
    } else {
        200
    };

    let dir = TempDir::new("arbiter-bench-sled").expect("temp dir");
    let sled = SledLog::open(dir.path()).expect("sled");
    for batch in [1, 100] {
        let n = if batch == 1 { events } else { events * 20 };
        report(
            "sled",
            batch,
            run(&sled, &format!("bench-{batch}"), batch, n).await,
        );
    }
    read_all("sled", &sled, "bench-1").await;

    let per: usize = if full {
        std::env::var("ARBITER_BENCH_APPENDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(200)
    } else {
        10
    };
    let sled = Arc::new(sled);
    for one_stream in [false, true] {
        for appenders in [1, 16, 64, 256] {
            let (events, took, lat) = concurrent(sled.clone(), appenders, per, one_stream).await;
            println!(
                "sled       {:>3} appenders, {}: {events:>6} events in {:>7.3} s = {:>7.0} events/s, \
                 latency ms p50 {:>7.2} p99 {:>7.2} max {:>7.2}",
                appenders,
                if one_stream {
                    "one stream "
                } else {
                    "own streams"
                },
                took.as_secs_f64(),
                events as f64 / took.as_secs_f64(),
                pct(&lat, 0.50),
                pct(&lat, 0.99),
                pct(&lat, 1.0),
            );
        }
    }
    if std::env::args().any(|a| a == "--only-sled") {
        return;
    }

    let server = NatsServer::start().await.expect("nats-server");
    let js = JetStreamLog::connect(&[server.url()], JetStreamConfig::default())
        .await
        .expect("connect");
    for batch in [1, 100] {
        let n = if batch == 1 { events } else { events * 20 };
        report(
            "jetstream",
            batch,
            run(&js, &format!("bench-{batch}"), batch, n).await,
        );
    }
    // A fresh connection, with nothing cached.
    let fresh = JetStreamLog::connect(&[server.url()], JetStreamConfig::default())
        .await
        .expect("connect");
    read_all("jetstream", &fresh, "bench-1").await;
}

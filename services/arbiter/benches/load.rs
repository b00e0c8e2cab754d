//! The load bench: N concurrent events of P players and R rounds played through gRPC against a
//! real `arbiter serve` (the release binary, a fresh data folder), with the driver in
//! `tests/e2e/load/mod.rs` (shared with the soak test).
//!
//! ```sh
//! cargo bench -p arbiter --bench load -- --events 100             # 100 x 100 players x 9 rounds
//! cargo bench -p arbiter --bench load -- --events 300 --players 100 --rounds 9 --concurrency 300
//! cargo bench -p arbiter --bench load -- --kill-trials 100         # kill -9 at random moments
//! ```
//!
//! `--think-ms MS` pauses before each command of an event (uniform in 0..2 MS): an offered
//! load rather than a closed loop, where every event sends its next command as soon as the
//! last is answered and latency grows with the events in flight (Little's law).
//!
//! Prints wall time, results/s, p50/p99/max of every call, the time from a round's last result
//! to standings that count it, the wait for a pairing (StartRound acknowledged to the
//! PairingProposed event seen on StreamEvents), errors by kind, the server's peak RSS (VmHWM),
//! and the data folder's size against the log's own size (the stored events' bytes read back
//! through StreamEvents: payload as stored plus the envelope's fields). Then `arbiter replay`
//! on the stopped server's data folder for every event (or `--replay K` of them).
//!
//! `--kill-trials T`: batches of events (default 8 x 20 players x 5 rounds) are played while
//! the server is SIGKILLed at random moments (0.05-1 s apart) and restarted on the same
//! folder; the driver sends unanswered commands again with the same command id. After each
//! restart every command acknowledged before the kill must be in the log exactly once (its
//! acknowledged versions, nothing else with its id), two of the events must pass `arbiter
//! replay --server`, and the restart must not hang (address printed within 60 s). At the end,
//! every event's log must pass `arbiter replay` on the data folder.
//!
//! `--hostile [--players P] [--seconds S]`: anonymous clients trying to exhaust the HTTP port
//! (pages never read, slowloris sockets, oversized webhook bodies, 30-item tie-break queries)
//! while `/healthz` latency and the server's RSS are measured (`load/hostile.rs`).
//!
//! `--console [--think-ms MS]`: the web console's time per action (sign-in, a 200-player list
//! pasted, a 100-board round paired, published, its results posted one by one, every screen
//! read) and its largest screen, while the events are played (default 300 events x 16 players
//! x 7 rounds, a command per event every `--think-ms` on average, 1000 by default), then 100
//! results typed into the console by Chromium over WebDriver (`load/console.rs`).
//!
//! `--api [--calls N]`: GetStandings and GetPairings over native gRPC, gRPC-Web and the JSON
//! route, one event of `--players` x `--rounds` (default 100 x 9) played first: p50/p99 per
//! transport and the ratio to gRPC (`load/api.rs`).
//!
//! `--distributed`: the same load against one process per service (`arbiter serve --only`,
//! two pairing workers, a rating worker) over a 3-node JetStream cluster the bench starts (nats-server on the
//! PATH); also checks that every pairing request was answered by exactly one proposal.

#[path = "load/api.rs"]
mod api;
#[allow(dead_code)] // the browser tests' helpers the bench does not use
#[path = "../tests/e2e/support/browser.rs"]
mod browser;
#[path = "load/console.rs"]
mod console;
#[path = "load/hostile.rs"]
mod hostile;
#[path = "../tests/e2e/load/mod.rs"]
mod load;
#[allow(dead_code)] // the tests' helpers the bench does not use
#[path = "../tests/e2e/support/token.rs"]
mod token;

use arbiter_eventlog::testing::{NatsCluster, TempDir};
use load::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    cfg: LoadConfig,
    kill_trials: u32,
    distributed: bool,
    replay: Option<u32>,
    keep: Option<PathBuf>,
    hostile: Option<hostile::HostileConfig>,
    console: bool,
    api: Option<u32>,
}

fn usage() -> ! {
    eprintln!(
        "usage: load [--events N] [--players P] [--rounds R] [--concurrency C] \
[--connections K] [--seed S] [--think-ms MS] [--replay K] [--kill-trials T | --distributed | --hostile [--seconds S] | --console | --api [--calls N]] [--keep DIR]"
    );
    std::process::exit(3)
}

fn parse_args() -> Args {
    let mut a = Args {
        cfg: LoadConfig::new(100, 100, 9),
        kill_trials: 0,
        distributed: false,
        replay: None,
        keep: None,
        hostile: None,
        console: false,
        api: None,
    };
    let mut think_given = false;
    let mut hostile_seconds = 30;
    let mut concurrency = None;
    let mut events_given = false;
    let mut players_given = false;
    let mut rounds_given = false;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        // `cargo bench` adds --bench.
        if flag == "--bench" {
            continue;
        }
        let mut value = || it.next().unwrap_or_else(|| usage());
        let mut num = || -> u32 { value().parse().unwrap_or_else(|_| usage()) };
        match flag.as_str() {
            "--events" => {
                a.cfg.events = num();
                events_given = true;
            }
            "--players" => {
                a.cfg.players = num();
                players_given = true;
            }
            "--rounds" => {
                a.cfg.rounds = num();
                rounds_given = true;
            }
            "--concurrency" => concurrency = Some(num()),
            "--connections" => a.cfg.connections = num(),
            "--seed" => a.cfg.seed = u64::from(num()),
            "--think-ms" => {
                a.cfg.think = Duration::from_millis(u64::from(num()));
                think_given = true;
            }
            "--console" => a.console = true,
            "--api" => a.api = Some(a.api.unwrap_or(500)),
            "--calls" => a.api = Some(num()),
            "--replay" => a.replay = Some(num()),
            "--kill-trials" => a.kill_trials = num(),
            "--distributed" => a.distributed = true,
            "--keep" => a.keep = Some(PathBuf::from(value())),
            "--hostile" => {
                a.hostile = Some(hostile::HostileConfig {
                    players: 3000,
                    readers: 300,
                    slowloris: 100,
                    webhooks: 40,
                    tiebreak_loops: 4,
                    seconds: 30,
                })
            }
            "--seconds" => hostile_seconds = u64::from(num()),
            _ => usage(),
        }
    }
    if a.kill_trials > 0 {
        // Small batches, so that kills land in every phase of an event.
        if !events_given {
            a.cfg.events = 8;
        }
        if !players_given {
            a.cfg.players = 20;
        }
        if !rounds_given {
            a.cfg.rounds = 5;
        }
        a.cfg.survive_restarts = true;
    }
    if a.console {
        if !events_given {
            a.cfg.events = 300;
        }
        if !players_given {
            a.cfg.players = 16;
        }
        if !rounds_given {
            a.cfg.rounds = 7;
        }
        if !think_given {
            a.cfg.think = Duration::from_millis(1000);
        }
    }
    a.cfg.concurrency = concurrency.unwrap_or(a.cfg.events);
    if let Some(h) = &mut a.hostile {
        h.seconds = hostile_seconds;
        if players_given {
            h.players = a.cfg.players;
        }
    }
    a
}

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arbiter"))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Replays the events `which` on the data folder; returns the failures.
fn replay_all(data: &Path, tids: &[String]) -> Vec<String> {
    let d = data.to_str().expect("utf-8 path");
    tids.iter()
        .filter_map(|t| replay(&bin(), &[t, "--data", d]).err())
        .collect()
}

fn sample(cfg: &LoadConfig, k: u32) -> Vec<String> {
    let k = k.min(cfg.events).max(1);
    (0..k)
        .map(|j| cfg.tournament_id(j * cfg.events / k))
        .collect()
}

async fn bench(a: &Args, work: &Path) -> bool {
    let cfg = &a.cfg;
    println!("load average before: {}", load_average());
    let (report, stats, problems) = run_load(&bin(), work, cfg).await;
    println!("load average after: {}", load_average());
    print_report(cfg, &stats, &report);
    println!(
        "acknowledged commands missing or doubled in the log: {}",
        problems.len()
    );
    for p in problems.iter().take(20) {
        println!("  {p}");
    }
    let k = a.replay.unwrap_or(cfg.events);
    let tids = sample(cfg, k);
    let t0 = Instant::now();
    let failures = replay_all(&work.join("data"), &tids);
    println!(
        "arbiter replay on the data folder: {} events, {} failed ({:.1} s)",
        tids.len(),
        failures.len(),
        t0.elapsed().as_secs_f64()
    );
    for f in failures.iter().take(5) {
        println!("  {f}");
    }
    stats.error_count() == 0
        && problems.is_empty()
        && failures.is_empty()
        && report.events_finished == u64::from(cfg.events)
}

async fn kill_trials(a: &Args, work: &Path) -> bool {
    let data = work.join("data");
    let server = ServerProc::start(&bin(), &data, &work.join("serve.log"));
    let url = server.url.clone();
    let server = Arc::new(std::sync::Mutex::new(server));
    let stats = Arc::new(Stats::default());
    let mut rng = ChaCha8Rng::seed_from_u64(a.cfg.seed);
    let mut failures: Vec<String> = Vec::new();
    let mut tids = Vec::new();
    let (mut trial, mut batch) = (0, 0);
    let mut restarts = Vec::new();
    let t_all = Instant::now();
    println!("load average before: {}", load_average());
    while trial < a.kill_trials {
        let mut cfg = a.cfg.clone();
        cfg.prefix = format!("{}-b{batch}", a.cfg.prefix);
        tids.extend((0..cfg.events).map(|i| cfg.tournament_id(i)));
        let load = {
            let (url, cfg, stats) = (url.clone(), cfg.clone(), stats.clone());
            tokio::spawn(async move { play(&Urls::one(&url), &cfg, stats).await })
        };
        while !load.is_finished() && trial < a.kill_trials {
            tokio::time::sleep(Duration::from_millis(rng.random_range(50..1000))).await;
            if load.is_finished() {
                break;
            }
            trial += 1;
            let s = server.clone();
            let acks = tokio::task::spawn_blocking(move || {
                s.lock().unwrap().kill9();
                // Every answer the dead process sent is in by now.
                std::thread::sleep(Duration::from_millis(20));
            })
            .await
            .map(|_| stats.acks())
            .expect("kill");
            // This batch's events (earlier batches were checked after earlier kills and are
            // checked again at the end).
            let mine = format!("{}-", cfg.prefix);
            let acks: HashMap<String, Vec<Ack>> = acks
                .into_iter()
                .filter(|(t, _)| t.starts_with(&mine))
                .collect();
            let s = server.clone();
            let restarted = tokio::task::spawn_blocking(move || s.lock().unwrap().spawn())
                .await
                .expect("restart");
            match restarted {
                Ok(d) => restarts.push(d),
                Err(e) => {
                    failures.push(format!("trial {trial}: restart: {e}"));
                    println!("trial {trial}: restart hung: {e}");
                    return false;
                }
            }
            let problems = check_log(&url, &acks).await.problems;
            let mut with_acks: Vec<&String> = acks.keys().collect();
            with_acks.sort();
            let mut replayed = Vec::new();
            for _ in 0..2.min(with_acks.len()) {
                let tid = with_acks[rng.random_range(0..with_acks.len())].clone();
                let u = url.clone();
                let r = tokio::task::spawn_blocking(move || {
                    replay(&bin(), &[&tid, "--server", &u]).map_err(|e| format!("{tid}: {e}"))
                })
                .await
                .expect("replay");
                replayed.push(r);
            }
            let bad_replays: Vec<String> = replayed.into_iter().filter_map(Result::err).collect();
            println!(
                "trial {trial}: killed with {} commands of batch {batch} acknowledged; restart {:.2} s; {} missing/doubled; replays failed {}",
                acks.values().map(Vec::len).sum::<usize>(),
                restarts.last().map_or(0.0, Duration::as_secs_f64),
                problems.len(),
                bad_replays.len()
            );
            for p in problems.iter().chain(&bad_replays).take(5) {
                println!("  {p}");
            }
            failures.extend(problems.into_iter().map(|p| format!("trial {trial}: {p}")));
            failures.extend(
                bad_replays
                    .into_iter()
                    .map(|p| format!("trial {trial}: {p}")),
            );
        }
        load.await.expect("load");
        batch += 1;
    }
    let wall = t_all.elapsed();
    let check = check_log(&url, &stats.acks()).await;
    let (events, bytes) = (check.events, check.bytes);
    failures.extend(check.problems.into_iter().map(|p| format!("final: {p}")));
    let stop = server.lock().unwrap().terminate(Duration::from_secs(60));
    println!("load average after: {}", load_average());
    let replays = replay_all(&data, &tids);
    restarts.sort();
    println!(
        "kill -9 trials: {trial} over {batch} batches of {} events x {} players x {} rounds, {:.0} s",
        a.cfg.events,
        a.cfg.players,
        a.cfg.rounds,
        wall.as_secs_f64()
    );
    println!(
        "events finished {}/{}; commands acknowledged {}; calls sent again after a restart {}; errors {}",
        stats
            .events_finished
            .load(std::sync::atomic::Ordering::Relaxed),
        tids.len(),
        stats.ack_count(),
        stats
            .transport_retries
            .load(std::sync::atomic::Ordering::Relaxed),
        stats.error_count()
    );
    for (k, (n, first)) in stats.errors() {
        println!("  {k}: {n} (first: {first})");
    }
    if !restarts.is_empty() {
        println!(
            "restart to address printed: median {:.2} s, max {:.2} s",
            restarts[restarts.len() / 2].as_secs_f64(),
            restarts.last().unwrap().as_secs_f64()
        );
    }
    println!(
        "final log: {events} events, {:.1} MB; SIGTERM to exit: {}",
        bytes as f64 / 1_048_576.0,
        stop.map_or("did not stop".into(), |(_, d)| format!(
            "{:.2} s",
            d.as_secs_f64()
        ))
    );
    println!(
        "arbiter replay on the data folder: {} events, {} failed",
        tids.len(),
        replays.len()
    );
    for f in replays.iter().take(5) {
        println!("  {f}");
    }
    println!("trial failures: {}", failures.len());
    for f in failures.iter().take(20) {
        println!("  {f}");
    }
    failures.is_empty()
        && replays.is_empty()
        && stats.error_count() == 0
        && stats
            .events_finished
            .load(std::sync::atomic::Ordering::Relaxed)
            == tids.len() as u64
}

/// The same load against separate processes (registration, round director, two pairing
/// workers, reporting, rating worker) over a 3-node JetStream cluster; each process has its own data folder
/// for its checkpoints.
async fn distributed(a: &Args, work: &Path) -> bool {
    let cfg = &a.cfg;
    let cluster = NatsCluster::start(3)
        .await
        .expect("3-node nats-server cluster (apt-get install nats-server)");
    let nats = cluster.urls().join(",");
    let names = [
        ("registration", "registration"),
        ("round-director", "round-director"),
        ("pairing-worker", "pairing-worker-1"),
        ("pairing-worker", "pairing-worker-2"),
        ("reporting", "reporting"),
        ("rating-worker", "rating-worker"),
    ];
    let mut procs: Vec<(String, ServerProc)> = names
        .iter()
        .map(|(svc, name)| {
            let p = ServerProc::start_with(
                &bin(),
                &work.join(format!("data-{name}")),
                &work.join(format!("{name}.log")),
                &["--only", svc, "--nats", &nats],
            );
            (name.to_string(), p)
        })
        .collect();
    let url_of = |n: &str| {
        procs
            .iter()
            .find(|(name, _)| name == n)
            .map(|(_, p)| p.url.clone())
            .unwrap()
    };
    let urls = Urls {
        registration: url_of("registration"),
        director: url_of("round-director"),
        reporting: url_of("reporting"),
    };
    println!("load average before: {}", load_average());
    let stats = Arc::new(Stats::default());
    let wall = play(&urls, cfg, stats.clone()).await;
    println!("load average after: {}", load_average());
    let check = check_log(&urls.reporting, &stats.acks()).await;
    let (log_bytes, problems) = (check.bytes, check.problems);
    let mut peak_total = 0;
    let mut stops = Vec::new();
    for (name, p) in &mut procs {
        p.sample_rss();
        println!("  {name}: peak RSS {:.0} MB", p.peak_rss_kb as f64 / 1024.0);
        peak_total += p.peak_rss_kb;
        stops.push(p.terminate(Duration::from_secs(60)).map(|(_, d)| d));
    }
    let mut nats_bytes = 0;
    for i in 0..cluster.len() {
        nats_bytes += disk_usage(cluster.node(i).store_dir()).0;
    }
    let (data_allocated, data_length) = names
        .iter()
        .map(|(_, n)| disk_usage(&work.join(format!("data-{n}"))))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let report = Report {
        wall,
        results: stats.results.load(std::sync::atomic::Ordering::Relaxed),
        events_finished: stats
            .events_finished
            .load(std::sync::atomic::Ordering::Relaxed),
        stored_events: check.events,
        log_bytes,
        pairing_requests: check.pairing_requests,
        kinds: check.kinds,
        data_allocated,
        data_length,
        log_dir_allocated: 0,
        peak_rss_kb: peak_total,
        // The slowest process to stop; None if one did not stop.
        stop: stops
            .iter()
            .copied()
            .collect::<Option<Vec<_>>>()
            .and_then(|v| v.into_iter().max()),
    };
    print_report(cfg, &stats, &report);
    println!(
        "(distributed: peak RSS is the sum over the {} processes; the data folders hold the \
services' checkpoints; JetStream's stores on the 3 nodes take {:.1} MB, {:.2}x the log per \
replica)",
        names.len(),
        nats_bytes as f64 / 1_048_576.0,
        nats_bytes as f64 / 3.0 / log_bytes.max(1) as f64
    );
    println!(
        "acknowledged commands missing or doubled, pairing requests not answered exactly once: {}",
        problems.len()
    );
    for p in problems.iter().take(20) {
        println!("  {p}");
    }
    let tids = sample(cfg, a.replay.unwrap_or(cfg.events));
    let failures: Vec<String> = tids
        .iter()
        .filter_map(|t| replay(&bin(), &[t, "--nats", &nats]).err())
        .collect();
    println!(
        "arbiter replay --nats: {} events, {} failed",
        tids.len(),
        failures.len()
    );
    for f in failures.iter().take(5) {
        println!("  {f}");
    }
    stats.error_count() == 0
        && problems.is_empty()
        && failures.is_empty()
        && report.events_finished == u64::from(cfg.events)
}

fn main() -> ExitCode {
    let a = parse_args();
    let temp;
    let work = match &a.keep {
        Some(d) => {
            std::fs::create_dir_all(d).expect("work folder");
            d.clone()
        }
        None => {
            temp = TempDir::new("arbiter-load").expect("temp folder");
            temp.path().to_path_buf()
        }
    };
    println!(
        "server binary {}; work folder {}",
        bin().display(),
        work.display()
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let ok = rt.block_on(async {
        if let Some(h) = &a.hostile {
            hostile::run(&bin(), &work, h).await
        } else if a.console {
            console::run(&bin(), &work, &a.cfg).await
        } else if let Some(calls) = a.api {
            api::run(&bin(), &work, &a.cfg, calls).await
        } else if a.kill_trials > 0 {
            kill_trials(&a, &work).await
        } else if a.distributed {
            distributed(&a, &work).await
        } else {
            bench(&a, &work).await
        }
    });
    if ok {
        ExitCode::SUCCESS
    } else {
        println!("FAILED");
        ExitCode::FAILURE
    }
}

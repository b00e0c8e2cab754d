//! Disk taken by the services' checkpoints compared with the event log itself.
//!
//! Lays out a data folder as `arbiter serve` does: the sled log in `log/`, and the one
//! [`TournamentStore`] the services of the process share, its checkpoints in `checkpoints/`
//! (`ARBITER_DISK_PER_SERVICE=1`: one store per service, its checkpoints in `<service>/`, as
//! distributed processes have, each folding every stream: one executes the commands, the
//! others catch up after each, as the feed followers do). It plays one large event (`ARBITER_DISK_PLAYERS` registrations, default
//! 9,999, the most a pairing number can name) and `ARBITER_DISK_SMALL` small events (default 300) of `ARBITER_DISK_SMALL_PLAYERS`
//! players (default 100), 16 at a time; then writes the shutdown checkpoints, closes
//! everything and prints the size of `log/` and of the whole folder (as `du` counts it: blocks
//! allocated), and the peak RSS.
//!
//! `cargo bench -p arbiter-service-kit --bench store_disk`; without `--bench` (under
//! `cargo test --benches`) it plays a few small events as a smoke test.

use arbiter_core::tournament::{Command, CreateTournament, RegisterPlayer};
use arbiter_eventlog::testing::TempDir;
use arbiter_eventlog::{CheckpointStore, EventLog, SledLog};
use arbiter_service_kit::store::{
    CommandContext, SNAPSHOT_MIN_EVENTS, SNAPSHOT_OWNER, TournamentStore,
};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

const SERVICES: [&str; 5] = [
    "registration",
    "round-director",
    "pairing-worker",
    "reporting",
    "rating-worker",
];

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Bytes allocated on disk under `dir` (what `du` reports).
fn du(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut total = 0;
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let meta = entry.metadata().expect("metadata");
        if meta.is_dir() {
            total += du(&entry.path());
        } else {
            total += meta.blocks() * 512;
        }
    }
    total
}

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

async fn play(stores: Arc<Vec<TournamentStore>>, id: String, players: usize) {
    let stream = format!("tournament-{id}");
    let run = |cmd: String, command: Command| {
        let stores = stores.clone();
        let (id, stream) = (id.clone(), stream.clone());
        async move {
            let ctx = CommandContext::new(&id, &cmd, None, "bench").expect("context");
            stores[0]
                .execute(&ctx, |_| Ok(command.clone()))
                .await
                .unwrap_or_else(|e| panic!("{id} {cmd}: {e}"));
            for s in &stores[1..] {
                s.current(&stream).await.expect("fold");
            }
        }
    };
    let d = "2026-09-01".parse().expect("date");
    let mut create = CreateTournament::new(format!("Event {id}"), d, d, 9);
    create.chief_arbiter = arbiter_core::tournament::Arbiter::named("Doe, Jane");
    run("create".into(), Command::CreateTournament(create)).await;
    for p in 0..players {
        let name = format!("Player{p:05}, Given{}", p % 97);
        let rating = 1400 + (p as u32 * 7919) % 1400;
        run(
            format!("reg-{p}"),
            Command::RegisterPlayer(RegisterPlayer::new(name, rating)),
        )
        .await;
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let (big, small, small_players) = if full {
        (
            env("ARBITER_DISK_PLAYERS", 9_999),
            env("ARBITER_DISK_SMALL", 300),
            env("ARBITER_DISK_SMALL_PLAYERS", 100),
        )
    } else {
        (50, 4, 10)
    };
    let per_service = std::env::var("ARBITER_DISK_PER_SERVICE").is_ok_and(|v| v == "1");
    let dir = TempDir::new("arbiter-bench-disk").expect("temp dir");
    let started = Instant::now();
    {
        let log: Arc<dyn EventLog> =
            Arc::new(SledLog::open(dir.path().join("log")).expect("open the log"));
        let shared = (!per_service).then(|| {
            CheckpointStore::open(dir.path().join("checkpoints")).expect("checkpoint store")
        });
        let names: &[&str] = if per_service { &SERVICES } else { &["arbiter"] };
        let cps: Vec<CheckpointStore> = names
            .iter()
            .map(|s| match &shared {
                Some(cp) => cp.clone(),
                None => CheckpointStore::open(dir.path().join(s)).expect("checkpoint store"),
            })
            .collect();
        let stores: Vec<TournamentStore> = names
            .iter()
            .zip(&cps)
            .map(|(s, cp)| {
                // As `arbiter serve` over a sled log.
                TournamentStore::new(log.clone(), *s, Some(cp.clone()))
                    .with_snapshot_min_events(SNAPSHOT_MIN_EVENTS)
            })
            .collect();
        let stores = Arc::new(stores);
        let mut tasks = Vec::new();
        if big > 0 {
            tasks.push(tokio::spawn(play(stores.clone(), "big".into(), big)));
        }
        let queue = Arc::new(std::sync::Mutex::new((0..small).collect::<Vec<_>>()));
        for _ in 0..16 {
            let (stores, queue) = (stores.clone(), queue.clone());
            tasks.push(tokio::spawn(async move {
                loop {
                    let next = queue.lock().expect("queue").pop();
                    let Some(i) = next else { break };
                    play(stores.clone(), format!("small-{i}"), small_players).await;
                }
            }));
        }
        for t in tasks {
            t.await.expect("player task");
        }
        for s in stores.iter() {
            s.checkpoint_all().await;
        }
        let live: usize = cps
            .iter()
            .map(|cp| {
                cp.list(SNAPSHOT_OWNER)
                    .expect("list")
                    .iter()
                    .map(|(_, c)| c.snapshot.as_ref().map_or(0, Vec::len))
                    .sum::<usize>()
            })
            .sum();
        println!("live snapshot bytes {:.1} MB", live as f64 / 1_048_576.0);
    }
    let took = started.elapsed();
    if std::env::var("ARBITER_DISK_LIST").is_ok() {
        let _ = std::process::Command::new("du")
            .args(["-a", "-k"])
            .arg(dir.path())
            .status();
    }
    let log = du(&dir.path().join("log"));
    let total = du(dir.path());
    let mb = |b: u64| b as f64 / 1_048_576.0;
    println!(
        "1 event of {big} players + {small} events of {small_players} players, {}: {:.1} s",
        if per_service {
            "one store per service"
        } else {
            "one shared store"
        },
        took.as_secs_f64()
    );
    println!("log/            {:>9.1} MB", mb(log));
    let folders: Vec<&str> = if per_service {
        SERVICES.to_vec()
    } else {
        vec!["checkpoints"]
    };
    for s in folders {
        println!("{s:<15} {:>9.1} MB", mb(du(&dir.path().join(s))));
    }
    println!(
        "data folder     {:>9.1} MB = {:.2} x the log; peak RSS {:.0} MB",
        mb(total),
        total as f64 / log as f64,
        peak_rss_mb()
    );
}

//! The sled log under concurrent load and under `kill -9`.
//!
//! - Many appenders (own streams and one shared stream), checkpoint writers and a subscriber at
//!   once must all finish within a bound: a deadlock fails the test with a message instead of
//!   hanging it.
//! - A child process (this test binary, re-run with `ARBITER_KILL9_CHILD` set) appends from
//!   several tasks and prints a line per acknowledged append; the parent kills it with SIGKILL
//!   at a random moment, reopens the log and checks that every acknowledged append is there
//!   exactly once and that every stream's chain verifies. `ARBITER_KILL9_TRIALS` sets the number
//!   of trials (default 6; `ARBITER_KILL9_TRIALS=100` for the long run).

use arbiter_eventlog::testing::TempDir;
use arbiter_eventlog::{
    Checkpoint, CheckpointStore, EventLog, ExpectedVersion, SledLog, SubscribeFrom, verify_chain,
};
use futures::StreamExt;
use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

const STRESS_BOUND: Duration = Duration::from_secs(90);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_appenders_and_checkpoint_writers_finish() {
    let dir = TempDir::new("arbiter-sled-stress").unwrap();
    let log = Arc::new(SledLog::open(dir.path().join("log")).unwrap());
    let checkpoints = CheckpointStore::open(dir.path().join("cp")).unwrap();
    const OWN: usize = 48;
    const SHARED: usize = 16;
    const PER: usize = 20;
    const CHECKPOINTERS: usize = 8;
    let total = (OWN + SHARED) * PER;

    let mut sub = log
        .subscribe(SubscribeFrom::All { from_position: 0 })
        .await
        .unwrap();
    let work = async {
        let mut tasks = Vec::new();
        for a in 0..OWN + SHARED {
            let log = log.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..PER {
                    let (stream, expected) = if a < OWN {
                        (format!("own-{a}"), ExpectedVersion::Exact(i as u64))
                    } else {
                        ("shared".to_string(), ExpectedVersion::Any)
                    };
                    let cmd = format!("c-{a}-{i}");
                    let out = log
                        .append(&stream, expected, &cmd, "t", vec![cmd.clone().into_bytes()])
                        .await
                        .unwrap_or_else(|e| panic!("append {cmd} to {stream}: {e}"));
                    assert!(!out.replayed);
                    // Acknowledged means readable.
                    assert!(log.last_version(&stream).await.unwrap() >= out.last_version);
                }
            }));
        }
        for w in 0..CHECKPOINTERS {
            let checkpoints = checkpoints.clone();
            tasks.push(tokio::spawn(async move {
                for i in 0..PER as u64 {
                    let c = Checkpoint {
                        version: i,
                        snapshot: Some(vec![w as u8; 4096]),
                    };
                    checkpoints
                        .put("svc", &format!("s{w}"), &c)
                        .await
                        .unwrap_or_else(|e| panic!("checkpoint {w}/{i}: {e}"));
                }
            }));
        }
        for t in tasks {
            t.await.expect("task");
        }
        let mut seen = 0;
        while seen < total {
            sub.next().await.expect("subscription ended").unwrap();
            seen += 1;
        }
    };
    let started = Instant::now();
    tokio::time::timeout(STRESS_BOUND, work)
        .await
        .unwrap_or_else(|_| {
            panic!(
                "possible deadlock: {total} appends and {} checkpoint writes did not finish within \
             {STRESS_BOUND:?}",
                CHECKPOINTERS * PER
            )
        });
    eprintln!("{total} appends and checkpoints in {:?}", started.elapsed());

    for a in 0..OWN {
        let events = log.read(&format!("own-{a}"), 1).await.unwrap();
        assert_eq!(events.len(), PER);
        assert_eq!(verify_chain(&events), None);
    }
    let shared = log.read("shared", 1).await.unwrap();
    assert_eq!(shared.len(), SHARED * PER);
    assert_eq!(verify_chain(&shared), None);
    let ids: HashSet<&str> = shared.iter().map(|e| e.command_id.as_str()).collect();
    assert_eq!(ids.len(), SHARED * PER);
    for w in 0..CHECKPOINTERS {
        let c = checkpoints.get("svc", &format!("s{w}")).unwrap().unwrap();
        assert_eq!(c.version, PER as u64 - 1);
    }
}

/// The streams the child writes: one per task, and one all tasks share.
const CHILD_TASKS: usize = 6;

fn child_streams() -> Vec<String> {
    let mut s: Vec<String> = (0..CHILD_TASKS).map(|t| format!("k{t}")).collect();
    s.push("kshared".into());
    s
}

/// The child: appends until killed, printing `ACK <stream> <command id> <version>` once each
/// append is acknowledged.
async fn child(dir: &str, trial: &str) {
    let log = Arc::new(SledLog::open(dir).expect("child opens the log"));
    let mut tasks = Vec::new();
    for t in 0..CHILD_TASKS {
        let log = log.clone();
        let trial = trial.to_string();
        tasks.push(tokio::spawn(async move {
            for i in 0u64.. {
                let stream = if i % 3 == 0 {
                    "kshared".to_string()
                } else {
                    format!("k{t}")
                };
                let cmd = format!("t{trial}-{t}-{i}");
                let out = log
                    .append(
                        &stream,
                        ExpectedVersion::Any,
                        &cmd,
                        "child",
                        vec![vec![7; 100]],
                    )
                    .await
                    .expect("child append");
                let line = format!("ACK {stream} {cmd} {}\n", out.last_version);
                let mut o = std::io::stdout().lock();
                o.write_all(line.as_bytes()).unwrap();
                o.flush().unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

fn random_below(n: u64) -> u64 {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).expect("random bytes");
    u64::from_le_bytes(b) % n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_appends_survive_kill_9() {
    if let (Ok(dir), Ok(trial)) = (
        std::env::var("ARBITER_KILL9_CHILD"),
        std::env::var("ARBITER_KILL9_TRIAL"),
    ) {
        child(&dir, &trial).await;
        return;
    }
    let trials: usize = std::env::var("ARBITER_KILL9_TRIALS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let dir = TempDir::new("arbiter-sled-kill9").unwrap();
    let log_dir = dir.path().join("log");
    // stream -> command id -> version acknowledged, over all trials.
    let mut acked: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    let mut total_acks = 0usize;
    let mut reopen_max = Duration::ZERO;
    let started = Instant::now();
    for trial in 0..trials {
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "acknowledged_appends_survive_kill_9",
                "--nocapture",
            ])
            .env("ARBITER_KILL9_CHILD", &log_dir)
            .env("ARBITER_KILL9_TRIAL", trial.to_string())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the child");
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut lines = Vec::new();
            for line in std::io::BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => lines.push(l),
                    Err(_) => break,
                }
            }
            lines
        });
        // A random moment: from while it opens the log to well into its appends.
        std::thread::sleep(Duration::from_millis(30 + random_below(400)));
        child.kill().expect("SIGKILL the child");
        child.wait().unwrap();
        let lines = reader.join().unwrap();
        let mut this_trial = 0;
        for l in lines.iter().filter_map(|l| l.strip_prefix("ACK ")) {
            let mut parts = l.split(' ');
            let (Some(stream), Some(cmd), Some(version)) =
                (parts.next(), parts.next(), parts.next())
            else {
                // The kill can cut the last line short; a torn line was never fully acknowledged.
                continue;
            };
            let Ok(version) = version.parse::<u64>() else {
                continue;
            };
            acked
                .entry(stream.to_string())
                .or_default()
                .insert(cmd.to_string(), version);
            this_trial += 1;
        }
        total_acks += this_trial;

        let t = Instant::now();
        let reopened = tokio::time::timeout(Duration::from_secs(30), async {
            let log = SledLog::open(&log_dir).expect("reopen after kill -9");
            assert!(
                log.damaged_streams().is_empty(),
                "trial {trial}: damaged after kill -9: {:?}",
                log.damaged_streams()
            );
            for stream in child_streams() {
                let events = log.read(&stream, 1).await.unwrap();
                if let Some(b) = verify_chain(&events) {
                    panic!("trial {trial}: chain of {stream}: {b}");
                }
                let mut ids = HashSet::new();
                for e in &events {
                    assert!(
                        ids.insert(e.command_id.clone()),
                        "trial {trial}: command {} twice in {stream}",
                        e.command_id
                    );
                }
                for (cmd, version) in acked.get(&stream).into_iter().flatten() {
                    let e = events.get((*version - 1) as usize).unwrap_or_else(|| {
                        panic!(
                            "trial {trial}: acknowledged {cmd} at {stream} v{version} lost \
                             (stream ends at {})",
                            events.len()
                        )
                    });
                    assert_eq!(&e.command_id, cmd, "trial {trial}: {stream} v{version}");
                }
            }
            // A retry of an acknowledged command is recognised, not written again.
            if let Some((stream, cmds)) = acked.iter().next()
                && let Some(cmd) = cmds.keys().next()
            {
                let again = log
                    .append(
                        stream,
                        ExpectedVersion::Any,
                        cmd,
                        "child",
                        vec![vec![7; 100]],
                    )
                    .await
                    .unwrap();
                assert!(again.replayed, "trial {trial}: {cmd} appended twice");
            }
        })
        .await;
        assert!(reopened.is_ok(), "trial {trial}: reopening hung");
        reopen_max = reopen_max.max(t.elapsed());
    }
    eprintln!(
        "kill -9: {trials} trials, {total_acks} acknowledged appends all found exactly once, \
         longest reopen+check {reopen_max:?}, {:?} in all",
        started.elapsed()
    );
    assert!(total_acks > 0, "the child never acknowledged an append");
}

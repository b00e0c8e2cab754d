//! The sled backend against the shared scenarios, plus durability and tamper detection.

mod common;

use arbiter_eventlog::testing::TempDir;
use arbiter_eventlog::{EventLog, ExpectedVersion, LogError, SledLog, verify_chain};
use common::*;
use std::sync::Arc;

#[tokio::test]
async fn append_and_read_back() {
    append_and_read(&SledLog::temporary().unwrap()).await;
}

#[tokio::test]
async fn same_command_id_twice_is_one_event() {
    idempotent_commands(&SledLog::temporary().unwrap()).await;
}

#[tokio::test]
async fn stale_expected_version_conflicts() {
    conflicts(&SledLog::temporary().unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_writers_one_winner_per_version() {
    let log = Arc::new(SledLog::temporary().unwrap());
    racing_writers(log.clone(), log.clone(), 25).await;
    check_race_result(&*log, 25).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscription_delivers_in_order() {
    subscriptions(&SledLog::temporary().unwrap()).await;
}

#[tokio::test]
async fn works_as_a_trait_object() {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    append(&*log, "dyn", 0, "c", &["x"]).await.unwrap();
    assert_eq!(log.last_version("dyn").await.unwrap(), 1);
}

#[tokio::test]
async fn reopen_keeps_events_versions_and_command_ids() {
    let dir = TempDir::new("arbiter-sled-reopen").unwrap();
    let (first, events) = {
        let log = SledLog::open(dir.path()).unwrap();
        let first = append(&log, "t", 0, "c1", &["a", "b"]).await.unwrap();
        append(&log, "t", 2, "c2", &["c"]).await.unwrap();
        (first, log.read("t", 1).await.unwrap())
    };
    let log = SledLog::open(dir.path()).unwrap();
    assert_eq!(log.read("t", 1).await.unwrap(), events);
    assert_eq!(log.last_version("t").await.unwrap(), 3);
    // Idempotency survives the restart.
    let again = append(&log, "t", ExpectedVersion::Any, "c1", &["a", "b"])
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!(again.event_ids, first.event_ids);
    // Versions and positions continue from the last key.
    let next = append(&log, "t", 3, "c3", &["d"]).await.unwrap();
    assert_eq!(next.first_version, 4);
    assert!(next.position > events[2].position);
    let all = log.read("t", 1).await.unwrap();
    assert_eq!(all[3].prev_hash, all[2].hash);
    assert_eq!(verify_chain(&all), None);
}

/// Flips one byte of a stored payload in the database files and reopens: the damage is reported
/// with the stream and version, never returned as good data. Tried for the first, a middle and
/// the last event, and for every copy of the payload sled keeps on disk, one at a time.
#[tokio::test]
async fn flipped_byte_on_disk_is_detected() {
    let mut cases = 0;
    for target in 1..=3u64 {
        let mut copy = 0;
        loop {
            match flip_one_copy(target, copy).await {
                None => break,
                Some((stream, version, detail)) => {
                    assert_eq!(
                        (stream.as_str(), version),
                        ("t", target),
                        "copy {copy}: {detail}"
                    );
                    cases += 1;
                }
            }
            copy += 1;
        }
        assert!(copy > 0, "event {target}'s payload was not found on disk");
    }
    eprintln!("{cases} damaged copies detected");
    assert!(cases >= 3);
}

/// Writes three events, flips a byte in the `copy`-th on-disk copy of event `target`'s payload,
/// reopens and reads. Returns the reported corruption, or `None` when there is no such copy.
async fn flip_one_copy(target: u64, copy: usize) -> Option<(String, u64, String)> {
    let dir = TempDir::new("arbiter-sled-flip").unwrap();
    let marker = |v: u64| format!("MARKER-payload-of-event-{v}-0123456789");
    // The payloads must be findable in the files: the database is created uncompressed, as
    // databases made before compression are (and as the log keeps them when reopened).
    drop(sled::Config::new().path(dir.path()).open().unwrap());
    {
        let log = SledLog::open(dir.path()).unwrap();
        for v in 1..=3u64 {
            append(&log, "t", v - 1, &format!("c{v}"), &[&marker(v)])
                .await
                .unwrap();
        }
        log.flush().await.unwrap();
    }
    let needle = marker(target).into_bytes();
    let mut seen = 0;
    let mut flipped = false;
    'files: for path in files_under(dir.path()) {
        let mut bytes = std::fs::read(&path).unwrap();
        let mut at = 0;
        while let Some(i) = find(&bytes[at..], &needle) {
            if seen == copy {
                bytes[at + i + needle.len() / 2] ^= 0x01;
                std::fs::write(&path, &bytes).unwrap();
                flipped = true;
                break 'files;
            }
            seen += 1;
            at += i + needle.len();
        }
    }
    if !flipped {
        return None;
    }
    let log = SledLog::open(dir.path()).expect("the log opens despite the damage");
    let reported = log.damaged_streams();
    match log.read("t", 1).await {
        Err(LogError::Corrupt {
            stream,
            version,
            detail,
        }) => {
            // Appending onto a damaged stream is refused too.
            assert!(matches!(
                append(&log, "t", ExpectedVersion::Any, "c4", &["more"]).await,
                Err(LogError::Corrupt { .. })
            ));
            let _ = reported;
            Some((stream, version, detail))
        }
        Err(e) => panic!("event {target} copy {copy}: unexpected error {e}"),
        Ok(events) => panic!(
            "event {target} copy {copy}: tampered log read back as good ({} events, chain {:?})",
            events.len(),
            verify_chain(&events)
        ),
    }
}

fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

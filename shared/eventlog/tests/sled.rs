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
    arbiter_eventlog::testing::wait_sled_released(dir.path()).unwrap();
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

/// Writes `n` events to stream "t" of a new (compressed) log in `dir` and closes it.
async fn write_events(dir: &std::path::Path, n: u64) -> Vec<arbiter_eventlog::StoredEvent> {
    let log = SledLog::open(dir).unwrap();
    for v in 1..=n {
        let body = format!("event {v} of a stream whose storage is damaged later {v:08}");
        append(&log, "t", v - 1, &format!("c{v}"), &[&body])
            .await
            .unwrap();
    }
    log.flush().await.unwrap();
    log.read("t", 1).await.unwrap()
}

/// One byte flipped at offsets spread over the middle of the compressed database file: sled's
/// own checksum failure (or a record that no longer verifies) is reported as damage at a
/// version, in plain words, and the stream refuses appends; a flip in bytes sled no longer
/// uses leaves every event as it was. Never another event, a storage debug text or a panic.
#[tokio::test]
async fn a_flipped_byte_anywhere_is_damage_at_a_version_in_plain_words() {
    let mut damaged = 0;
    for k in 0..12u64 {
        let dir = TempDir::new("arbiter-sled-anywhere").unwrap();
        let written = write_events(dir.path(), 120).await;
        let db = dir.path().join("db");
        let mut bytes = std::fs::read(&db).unwrap();
        let at = bytes.len() / 4 + (bytes.len() / 2) * k as usize / 12;
        bytes[at] ^= 0x10;
        std::fs::write(&db, &bytes).unwrap();

        let log = match SledLog::open(dir.path()) {
            Ok(l) => l,
            // sled refuses a database whose own recovery fails: said as storage, not data.
            Err(e) => {
                let text = e.to_string();
                assert!(!text.contains("backtrace"), "offset {at}: {text}");
                continue;
            }
        };
        let read = log.read("t", 1).await;
        match read {
            Ok(events) => assert_eq!(events, written, "offset {at}: other events read back"),
            Err(e @ LogError::Corrupt { .. }) => {
                let text = e.to_string();
                eprintln!("offset {at}: {text}");
                assert!(
                    text.contains("the event at version") && !text.contains("Inline("),
                    "offset {at}: {text}"
                );
                assert!(!text.contains("backtrace"), "offset {at}: {text}");
                let refused = append(&log, "t", ExpectedVersion::Any, "more", &["x"]).await;
                assert!(
                    matches!(refused, Err(LogError::Corrupt { .. })),
                    "offset {at}: appended to a damaged stream: {refused:?}"
                );
                assert!(
                    log.damaged_streams()
                        .iter()
                        .any(|d| matches!(d, LogError::Corrupt { stream, .. } if stream == "t")),
                    "offset {at}: the damage is not reported"
                );
                damaged += 1;
            }
            Err(e) => panic!("offset {at}: damage reported as {e:?}"),
        }
    }
    eprintln!("{damaged} of 12 flips reached a stored event");
    assert!(damaged >= 1, "no flip reached a stored event");
}

/// A journal removed or emptied while the log holds streams, or cut back by more appends than
/// a stop can leave unrecorded, is reported and appends are refused; one group behind (a stop
/// between the flush and the journal's record) is not damage.
#[tokio::test]
async fn an_emptied_or_truncated_head_journal_is_detected() {
    let journal = |d: &std::path::Path| d.join("arbiter-heads");

    // Emptied.
    let dir = TempDir::new("arbiter-journal-emptied").unwrap();
    write_events(dir.path(), 3).await;
    std::fs::write(journal(dir.path()), b"").unwrap();
    let log = SledLog::open(dir.path()).unwrap();
    let reported: Vec<String> = log
        .damaged_streams()
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert!(
        reported.iter().any(|r| r.contains("missing or empty")),
        "{reported:?}"
    );
    assert!(
        append(&log, "t", ExpectedVersion::Any, "more", &["x"])
            .await
            .is_err()
    );
    drop(log);

    // Removed.
    let dir = TempDir::new("arbiter-journal-removed").unwrap();
    write_events(dir.path(), 3).await;
    std::fs::remove_file(journal(dir.path())).unwrap();
    let log = SledLog::open(dir.path()).unwrap();
    assert!(!log.damaged_streams().is_empty());
    drop(log);

    // Cut back by more than one group of appends: a stop cannot leave that many unrecorded.
    let dir = TempDir::new("arbiter-journal-cut").unwrap();
    let cut = {
        let log = Arc::new(SledLog::open(dir.path()).unwrap());
        append(&*log, "a", 0, "a1", &["one"]).await.unwrap();
        log.flush().await.unwrap();
        let len = std::fs::metadata(journal(dir.path())).unwrap().len();
        let appends = (0..1100).map(|i| {
            let log = log.clone();
            async move {
                append(&*log, &format!("s{i}"), 0, "c", &["x"])
                    .await
                    .unwrap();
            }
        });
        futures::future::join_all(appends).await;
        log.flush().await.unwrap();
        len
    };
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(journal(dir.path()))
        .unwrap();
    file.set_len(cut).unwrap();
    drop(file);
    let log = SledLog::open(dir.path()).unwrap();
    let reported: Vec<String> = log
        .damaged_streams()
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert!(
        reported.iter().any(|r| r.contains("1100 more")),
        "{reported:?}"
    );
    assert!(append(&log, "a", 1, "a2", &["two"]).await.is_err());
    drop(log);

    // A crash between an append and its journal record (the journal one group behind) is not
    // damage: the unrecorded events come after every recorded one.
    let dir = TempDir::new("arbiter-journal-crash").unwrap();
    let cut = {
        let log = SledLog::open(dir.path()).unwrap();
        append(&log, "a", 0, "a1", &["one"]).await.unwrap();
        log.flush().await.unwrap();
        let len = std::fs::metadata(journal(dir.path())).unwrap().len();
        append(&log, "a", 1, "a2", &["two"]).await.unwrap();
        append(&log, "b", 0, "b1", &["three"]).await.unwrap();
        log.flush().await.unwrap();
        len
    };
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(journal(dir.path()))
        .unwrap();
    file.set_len(cut).unwrap();
    drop(file);
    let log = SledLog::open(dir.path()).unwrap();
    assert!(
        log.damaged_streams().is_empty(),
        "{:?}",
        log.damaged_streams()
    );
    assert_eq!(log.read("a", 1).await.unwrap().len(), 2);
    // Later appends to another stream, then a stop: the tail the crash left unrecorded was
    // recorded at the start, so it is no gap below the new records at the next one.
    append(&log, "c", 0, "c1", &["four"]).await.unwrap();
    log.flush().await.unwrap();
    drop(log);
    let log = SledLog::open(dir.path()).unwrap();
    assert!(
        log.damaged_streams().is_empty(),
        "{:?}",
        log.damaged_streams()
    );
    assert_eq!(log.read("b", 1).await.unwrap().len(), 1);
}

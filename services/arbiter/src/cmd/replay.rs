//! `arbiter replay TOURNAMENT`: the audit of a tournament's stream. Verifies the hash chain and
//! the signed chain heads the log records, rebuilds the state by folding every event, and
//! re-runs every published pairing from the events before it, reporting each difference.
//!
//! The stream is read from the data folder or JetStream, or through a running server
//! (`--server`, the reporting service's StreamEvents with the stored payloads: the chain is
//! verified here, not taken on trust). `--against` checks the log against signed heads
//! published earlier (a heads file from `arbiter export --heads`): a log restored from an
//! older copy or a rewritten history no longer holds them.
//!
//! Every round whose re-run differs counts, including rounds published by hand (an amended
//! pairing is a difference an auditor must see); `--lenient` leaves those out of the count.
//!
//! Exit codes: 0 all is well; 2 a re-run pairing differs; 3 no such tournament or a bad
//! argument; 4 the log is damaged or tampered with (broken chain, undecodable or misfitting
//! events, a signed head it no longer holds); 5 the log or server cannot be reached.

use super::backend::{Exit, LogArgs, OpenedLog, block_on};
use super::heads;
use arbiter_eventlog::{LogError, SignedHead, StoredEvent};
use arbiter_interchange::heads::{Milestone, is_head, milestone};
use arbiter_service_kit::store::stream_of;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit codes: 0 every check passed; 2 a re-run pairing differs; \
3 no such tournament (or a bad argument); 4 the log is damaged or does not hold a signed head \
(rollback, rewritten history); 5 the log or the server cannot be reached."
)]
pub struct ReplayArgs {
    /// The tournament id.
    pub tournament: String,
    #[command(flatten)]
    pub log: LogArgs,
    /// Read the stream through a running server (e.g. http://127.0.0.1:7070) instead of the
    /// data folder, which `arbiter serve` holds locked; the hash chain is verified here.
    #[arg(long, conflicts_with = "nats")]
    pub server: Option<String>,
    /// Signed chain heads published earlier (a heads file from `arbiter export --heads`, or
    /// one head): the log must still hold exactly each signed event at its version.
    #[arg(long, value_name = "HEADS.json")]
    pub against: Vec<PathBuf>,
    /// The deployment's key as published (its id `ed25519:...` or the 64-hex-digit public
    /// key): every signed head, in the log or given, must be signed by it, and every published
    /// or closed round, the finish and every later change must be covered by such a head
    /// (exit 4 naming what is not; through `--server`, changes of the last 30 s may still be
    /// waiting for their signature).
    #[arg(long, value_name = "KEY")]
    pub key: Option<String>,
    /// Do not count rounds published by hand as differing (they are still listed).
    #[arg(long)]
    pub lenient: bool,
    /// Count rounds published by hand as differing: the default, kept for old scripts.
    #[arg(long, hide = true, conflicts_with = "lenient")]
    pub strict: bool,
}

pub fn run(a: ReplayArgs) -> ExitCode {
    block_on(replay(a))
}

/// The stream's events from the data folder or JetStream.
async fn read_local(a: &ReplayArgs, stream: &str) -> Result<(Vec<StoredEvent>, String), Exit> {
    let opened = a.log.open().await.map_err(|e| match e {
        Exit::Unavailable(m) if !a.log.uses_nats() && m.to_ascii_lowercase().contains("lock") => {
            Exit::Unavailable(format!(
                "{m}\nthe data folder is locked by a running `arbiter serve`: replay through it \
                 with --server http://127.0.0.1:GRPC_PORT"
            ))
        }
        other => other,
    })?;
    if let OpenedLog::Sled(l) = &opened
        && let Some(e) = l.damaged_streams().into_iter().find(|e| match e {
            LogError::Corrupt { stream: s, .. } => s == stream,
            _ => true,
        })
    {
        return Err(Exit::Damaged(format!(
            "tournament {}: the log is damaged: {e}",
            a.tournament
        )));
    }
    let events = opened.as_dyn().read(stream, 1).await.map_err(|e| match e {
        LogError::Corrupt { .. } => Exit::Damaged(format!(
            "tournament {}: the log is damaged: {e}",
            a.tournament
        )),
        other => Exit::Unavailable(format!("tournament {}: {other}", a.tournament)),
    })?;
    Ok((events, opened.describe(&a.log)))
}

/// The versions of the events whose head the round director signs at once.
fn signable(events: &[StoredEvent]) -> Vec<(u64, String)> {
    events
        .iter()
        .filter_map(|e| {
            let what = match milestone(&e.decode_event().ok()?)? {
                Milestone::Published(round) => format!("round {round} published"),
                Milestone::Closed(round) => format!("round {round} closed"),
                Milestone::Finished => "tournament finished".to_string(),
            };
            Some((e.version, what))
        })
        .collect()
}

/// The changes after the last version a verified head covers: every event after `covered`
/// that is not itself a signed head.
fn unsigned_tail(events: &[StoredEvent], covered: u64) -> Vec<&StoredEvent> {
    events
        .iter()
        .filter(|e| e.version > covered && !is_head(e))
        .collect()
}

/// How recent an unsigned change read through a running server may be and still be waiting
/// for its signature rather than missing it (the server signs a change within
/// `arbiter_round_director::heads::SIGN_AT_MOST_AFTER`).
const SIGNING_GRACE_MS: i64 = 30_000;

async fn replay(a: ReplayArgs) -> Result<(), Exit> {
    let stream = stream_of(&a.tournament)
        .map_err(|s| Exit::Invalid(format!("tournament id: {}", s.message())))?;
    // A bad heads file is a bad argument: say so before reading anything.
    let mut against: Vec<(PathBuf, Vec<SignedHead>)> = Vec::new();
    for path in &a.against {
        let list = heads::read_heads_file(path)?;
        if let Some(h) = list.iter().find(|h| h.stream != stream) {
            return Err(Exit::Invalid(format!(
                "{}: a head of stream {}, not of tournament {} (stream {stream})",
                path.display(),
                h.stream,
                a.tournament
            )));
        }
        against.push((path.clone(), list));
    }
    let pinned = match a.key.as_deref().map(str::trim) {
        None => None,
        Some(k) if k.starts_with("ed25519:") && k.len() == 8 + 16 => Some(k.to_string()),
        Some(k) => Some(arbiter_eventlog::signing::key_id(
            &arbiter_eventlog::signing::from_hex::<32>(k, "--key")
                .map_err(|m| Exit::Invalid(format!("{m} (or give its id, ed25519:...)")))?,
        )),
    };
    let not_pinned = |h: &SignedHead| match &pinned {
        Some(k) if h.key_id() != *k => Some(format!(
            "signed by key {}, not by the deployment's key {k}",
            h.key_id()
        )),
        _ => None,
    };
    let started = Instant::now();
    let (events, source) = match &a.server {
        Some(url) => (
            heads::fetch_events(url, &a.tournament).await?,
            format!("server {url}"),
        ),
        None => read_local(&a, &stream).await?,
    };
    if events.is_empty() {
        return Err(Exit::Invalid(format!(
            "tournament {} does not exist in {source}",
            a.tournament
        )));
    }
    let audit_events = events.clone();
    let audit_stream = stream.clone();
    let report = tokio::task::spawn_blocking(move || {
        arbiter_round_pairing::audit::audit(&audit_stream, &audit_events)
    })
    .await
    .map_err(|e| Exit::Unavailable(format!("the audit stopped: {e}")))?;
    print!("{}", report.render());

    // What does not hold: signed heads the log records or the auditor brought.
    let mut tampered: Vec<String> = Vec::new();
    let logged = heads::logged_heads(&stream, &events);
    let mut keys = BTreeSet::new();
    let mut verified = 0;
    // The highest version a verified head (by the pinned key, when one is given) covers: by
    // the hash chain, a head covers its event and everything before it.
    let mut covered = 0u64;
    for l in &logged {
        match &l.head {
            Err(m) => tampered.push(format!("the signed head at version {}: {m}", l.at)),
            Ok(h) => {
                keys.insert(h.key_id());
                match h.check_against(&stream, &events) {
                    Ok(()) if let Some(m) = not_pinned(h) => tampered.push(format!(
                        "the signed head recorded at version {} ({}, version {}): {m}",
                        l.at, l.covers, h.version
                    )),
                    Ok(()) => {
                        verified += 1;
                        covered = covered.max(h.version);
                    }
                    Err(m) => tampered.push(format!(
                        "the signed head recorded at version {} ({}, version {}): {m}",
                        l.at, l.covers, h.version
                    )),
                }
            }
        }
    }
    let keys: Vec<String> = keys.into_iter().collect();
    println!(
        "signed heads in the log: {} of {} verify{}",
        verified,
        logged.len(),
        if keys.is_empty() {
            String::new()
        } else {
            format!(" (key {})", keys.join(", "))
        }
    );
    if keys.len() > 1 {
        println!("  note: the heads are signed by more than one key");
    }
    let by = match &pinned {
        Some(k) => format!("a head signed by {k}"),
        None => "a signed head".to_string(),
    };
    let unsigned: Vec<String> = signable(&events)
        .into_iter()
        .filter(|(v, _)| *v > covered)
        .map(|(v, what)| format!("{what} (version {v})"))
        .collect();
    if !unsigned.is_empty() {
        println!("  not covered by {by}: {}", unsigned.join(", "));
        if pinned.is_some() {
            tampered.push(format!("not covered by {by}: {}", unsigned.join(", ")));
        }
    }
    let tail = unsigned_tail(&events, covered);
    if let (Some(first), Some(last)) = (tail.first(), tail.last()) {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let waiting = a.server.is_some() && now_ms - last.time_unix_ms < SIGNING_GRACE_MS;
        let what = format!(
            "{} change(s) after the last version {by} covers: versions {}..={}",
            tail.len(),
            first.version,
            last.version
        );
        if waiting {
            println!("  {what} (recent: the server signs them once the stream is quiet)");
        } else {
            println!("  {what}");
            if pinned.is_some() {
                tampered.push(format!(
                    "{what} (a running server signs every change within seconds, and at its \
                     next start what it could not sign before stopping)"
                ));
            }
        }
    }
    for (path, list) in &against {
        for h in list {
            let label = format!(
                "against {}: head of {} at version {} signed by {}",
                path.display(),
                h.stream,
                h.version,
                h.key_id()
            );
            match h
                .check_against(&stream, &events)
                .map_err(|m| m.to_string())
                .and_then(|()| not_pinned(h).map_or(Ok(()), Err))
            {
                Ok(()) => println!("{label}: held"),
                Err(m) => {
                    println!("{label}: FAILS: {m}");
                    tampered.push(format!("{label}: {m}"));
                }
            }
        }
    }

    let foreign: BTreeSet<String> = against
        .iter()
        .flat_map(|(_, list)| list.iter().map(SignedHead::key_id))
        .filter(|k| !keys.is_empty() && !keys.contains(k))
        .collect();
    if !foreign.is_empty() {
        println!(
            "  note: the heads given are signed by {}, the log's own by {}",
            foreign.into_iter().collect::<Vec<_>>().join(", "),
            keys.join(", ")
        );
    }

    let elapsed = started.elapsed();
    let differing = report.differing(a.strict || !a.lenient);
    let by_hand = differing.iter().filter(|r| r.manual).count();
    let hidden = report.differing(true).len() - differing.len();
    println!(
        "{} events, {} rounds re-paired, {} differing{}{}, {} signed heads verified, in {:.1} ms",
        report.events,
        report.rounds.len(),
        differing.len(),
        if by_hand > 0 {
            format!(" ({by_hand} published by hand)")
        } else {
            String::new()
        },
        if hidden > 0 {
            format!(" ({hidden} more published by hand, not counted: --lenient)")
        } else {
            String::new()
        },
        verified,
        elapsed.as_secs_f64() * 1000.0
    );
    if !tampered.is_empty() {
        return Err(Exit::Damaged(format!(
            "tournament {}: the log does not hold its signed heads:\n  {}",
            a.tournament,
            tampered.join("\n  ")
        )));
    }
    if !report.log_intact() {
        return Err(Exit::Damaged(format!(
            "tournament {}: the event log does not verify (see above)",
            a.tournament
        )));
    }
    let draws = report.differing_draws();
    if !draws.is_empty() {
        return Err(Exit::Differs(format!(
            "tournament {}: the drawing of lots recorded at version {} is not what its seed \
             (or the procedure) gives",
            a.tournament, draws[0].version
        )));
    }
    if !differing.is_empty() {
        let rounds: Vec<String> = differing.iter().map(|r| r.round.to_string()).collect();
        return Err(Exit::Differs(format!(
            "tournament {}: {} round(s) differ from a re-run of the engine: {}",
            a.tournament,
            differing.len(),
            rounds.join(", ")
        )));
    }
    Ok(())
}

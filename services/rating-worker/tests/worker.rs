//! The rating worker over a real sled log in a temporary folder, with real gRPC on loopback:
//! what it appends equals `arbiter-rating`'s computation for the same games; a restart (also
//! one that has lost its checkpoints) appends nothing twice; norms come at the end.

mod common;

use arbiter_core::tournament::BoardResult;
use arbiter_eventlog::testing::TempDir;
use arbiter_eventlog::{CheckpointStore, EventLog, SledLog};
use arbiter_proto::common::v1::TournamentRef;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_proto::rating_worker::v1 as api;
use arbiter_proto::rating_worker::v1::rating_worker_client::RatingWorkerClient;
use arbiter_rating::norms::NormKind;
use arbiter_rating::round_half_up;
use arbiter_rating_worker::{SERVICE, Worker, command_id};
use arbiter_service_kit::Host;
use arbiter_service_kit::host::HostError;
use arbiter_service_kit::store::{FEED_CHECKPOINT, Feed, SNAPSHOT_OWNER, TournamentStore};
use arbiter_service_kit::trigger::TriggerWorker;
use common::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::{oneshot, watch};

/// A store that plays the arbiter's part (commands), without checkpoints.
fn director(log: &Arc<dyn EventLog>) -> TournamentStore {
    TournamentStore::new(log.clone(), "round-director", None)
}

/// Starts the worker in a service host on a loopback port, as `arbiter serve --only
/// rating-worker` does; returns its address, the way to stop it and its task.
async fn start_worker(
    log: &Arc<dyn EventLog>,
    checkpoints: CheckpointStore,
) -> (
    std::net::SocketAddr,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<Result<(), HostError>>,
) {
    let store = Arc::new(TournamentStore::new(
        log.clone(),
        SERVICE,
        Some(checkpoints.clone()),
    ));
    let mut host = Host::new(store, Feed::Subscription(log.clone()), Some(checkpoints));
    arbiter_rating_worker::register(&mut host);
    let any = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let bound = host.bind(any, any).await.unwrap();
    let addr = bound.grpc_addr();
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(bound.run(async move {
        let _ = rx.await;
    }));
    (addr, tx, task)
}

/// Checks a `RatingChangesComputed` against `arbiter-rating` for the games through its round.
fn check_changes(r: &pb::RatingChangesComputed, corrections: &[Correction]) {
    assert_eq!(r.regulations, rule_set().id());
    assert_eq!(r.rating_kind, pb::RatingKind::Standard as i32);
    assert_eq!(r.changes.len(), PLAYERS.len());
    for c in &r.changes {
        let (want, k) = expected_change(c.player_id, r.through_round, corrections);
        let ctx = format!("player {} through round {}", c.player_id, r.through_round);
        assert_eq!(
            c.rating_before,
            PLAYERS[c.player_id as usize - 1].rating,
            "{ctx}"
        );
        assert_eq!(c.k_factor, k, "{ctx}");
        assert_eq!(c.games, want.games.len() as u32, "{ctx}");
        assert_eq!(c.score, want.score.tenths(), "{ctx}");
        assert_eq!(c.expected_milli, want.expected.0 * 10, "{ctx}");
        assert_eq!(
            c.change_tenths,
            round_half_up(i64::from(want.change_exact.0), 10) as i32,
            "{ctx}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rating_changes_and_norms_equal_the_rating_library() {
    let dir = TempDir::new("arbiter-rating-worker").unwrap();
    let log: Arc<dyn EventLog> = Arc::new(SledLog::open(dir.path().join("log")).unwrap());
    let checkpoints = CheckpointStore::open(dir.path().join(SERVICE)).unwrap();
    let (addr, stop, task) = start_worker(&log, checkpoints).await;

    let arbiter = director(&log);
    create(&arbiter).await;
    let correction = Correction {
        round: 2,
        white: pairs(2)[1].0,
        black: pairs(2)[1].1,
        result: BoardResult::BlackWins,
    };
    assert_ne!(
        board_result(correction.white, correction.black),
        correction.result
    );
    for round in 1..=ROUNDS {
        play_round(&arbiter, round).await;
        if round == 3 {
            // A correction of round 2 after round 3: it counts for rating only.
            correct(&arbiter, correction).await;
        }
    }
    finish(&arbiter).await;

    let triggers = trigger_events(&log).await;
    // A closing per round (not each result), one correction, the finish.
    assert_eq!(triggers.len(), 9 + 1 + 1);
    wait_for_answers(&log, triggers.len()).await;

    // Every trigger answered once, under the command id derived from it.
    let answers = worker_events(&log).await;
    let mut by_command: BTreeMap<String, Vec<&pb::Event>> = BTreeMap::new();
    for (e, w) in &answers {
        assert_eq!(e.actor, SERVICE);
        by_command.entry(e.command_id.clone()).or_default().push(w);
    }
    assert_eq!(by_command.len(), triggers.len());
    for t in &triggers {
        assert!(
            by_command.contains_key(&command_id(t.event_id)),
            "trigger at {}",
            t.version
        );
    }

    // Each RatingChangesComputed equals the library's figures for the games known at its
    // trigger: the correction counts from the moment it is written.
    let stream = log.read(STREAM, 1).await.unwrap();
    let correction_version = stream
        .iter()
        .find(|e| {
            matches!(
                e.decode_event().unwrap().kind,
                Some(Kind::ResultCorrected(_))
            )
        })
        .unwrap()
        .version;
    let mut checked = 0;
    let mut last_through = 0;
    for e in &stream {
        let Some(Kind::RatingChangesComputed(r)) = e.decode_event().unwrap().kind else {
            continue;
        };
        let trigger = stream
            .iter()
            .find(|t| command_id(t.event_id) == e.command_id)
            .expect("the trigger of an answer");
        assert!(trigger.version < e.version);
        // Answers are written in the order of their triggers.
        assert!(r.through_round >= last_through);
        last_through = r.through_round;
        // Every answer is to a closing or to the correction: complete rounds.
        assert!(matches!(
            trigger.decode_event().unwrap().kind,
            Some(Kind::RoundClosed(_)) | Some(Kind::ResultCorrected(_))
        ));
        let known: &[Correction] = if trigger.version >= correction_version {
            &[correction]
        } else {
            &[]
        };
        check_changes(&r, known);
        checked += 1;
    }
    assert_eq!(checked, 9 + 1);
    // The final figures: Echo 6.5 points, the correction applied.
    let last = answers
        .iter()
        .rev()
        .find_map(|(_, w)| match &w.kind {
            Some(Kind::RatingChangesComputed(r)) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(last.through_round, 9);
    check_changes(&last, &[correction]);
    let echo = last.changes.iter().find(|c| c.player_id == 5).unwrap();
    assert_eq!(echo.score, 65);
    assert!(echo.change_tenths > 0, "{echo:?}");
    // The forfeit is not rated: Alpha and Juliet have 8 rated games.
    assert_eq!(last.changes[0].games, 8);
    assert_eq!(last.changes[9].games, 8);

    // Norms at the end: GM for the IMs and India, IM/WGM/WIM for India.
    let norms: Vec<pb::NormResult> = answers
        .iter()
        .filter_map(|(_, w)| match &w.kind {
            Some(Kind::NormResult(n)) => Some(n.clone()),
            _ => None,
        })
        .collect();
    let norm_of = |pn: u32, t: pb::NormTitle| {
        norms
            .iter()
            .find(|n| n.player_id == pn && n.title == t as i32)
            .unwrap_or_else(|| panic!("no {t:?} norm result for {pn}"))
    };
    assert_eq!(norms.len(), 4 + 4);
    for (pn, title, kind) in [
        (5, pb::NormTitle::Gm, NormKind::GM),
        (6, pb::NormTitle::Gm, NormKind::GM),
        (8, pb::NormTitle::Gm, NormKind::GM),
        (10, pb::NormTitle::Gm, NormKind::GM),
        (9, pb::NormTitle::Gm, NormKind::GM),
        (9, pb::NormTitle::Im, NormKind::IM),
        (9, pb::NormTitle::Wgm, NormKind::WGM),
        (9, pb::NormTitle::Wim, NormKind::WIM),
    ] {
        let got = norm_of(pn, title);
        let want = expected_norm(pn, kind, &[correction]);
        let check = want.best.as_ref().unwrap_or(&want.full);
        let ctx = format!("player {pn} {kind} norm");
        assert_eq!(got.achieved, want.best.is_some(), "{ctx}");
        assert_eq!(got.games, check.games, "{ctx}");
        assert_eq!(got.score, check.score.tenths(), "{ctx}");
        assert_eq!(got.average_opponent_rating as i32, check.ra, "{ctx}");
        assert_eq!(got.performance as i32, check.rp, "{ctx}");
        assert_eq!(got.titled_opponents, check.title_holders, "{ctx}");
        assert_eq!(got.through_round, 9, "{ctx}");
        for c in check.failed() {
            assert!(
                got.explanation.contains(&c.to_string()),
                "{ctx}: {}",
                got.explanation
            );
        }
    }
    assert!(norm_of(5, pb::NormTitle::Gm).achieved);
    assert!(norm_of(9, pb::NormTitle::Im).achieved);
    let india_gm = norm_of(9, pb::NormTitle::Gm);
    assert!(!india_gm.achieved);
    assert!(
        india_gm.explanation.contains("Rp") && india_gm.explanation.contains("off by"),
        "{}",
        india_gm.explanation
    );
    let juliet = norm_of(10, pb::NormTitle::Gm);
    assert!(
        !juliet.achieved && juliet.explanation.contains("games 8 < 9: off by 1"),
        "{}",
        juliet.explanation
    );

    // The gRPC API answers the same figures.
    let mut client = RatingWorkerClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let t = || {
        Some(TournamentRef {
            tournament_id: TOURNAMENT.into(),
            as_of_version: 0,
        })
    };
    let ev = client
        .get_event_ratings(api::GetEventRatingsRequest { tournament: t() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ev.through_round, 9);
    assert_eq!(ev.rating_kind, pb::RatingKind::Standard as i32);
    assert_eq!(ev.changes, last.changes);
    let p = client
        .get_player_rating(api::GetPlayerRatingRequest {
            tournament: t(),
            pairing_number: 5,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(p.total.as_ref(), Some(echo));
    assert_eq!(p.games.len(), 9);
    let (want, k) = expected_change(5, 9, &[correction]);
    for (g, w) in p.games.iter().zip(want.games.iter()) {
        assert!(g.rated);
        assert_eq!(g.round, w.round);
        assert_eq!(g.expected_milli, w.pd.0 * 10);
        assert_eq!(
            g.change_tenths,
            round_half_up(i64::from(w.delta_r.times(k).0), 10) as i32
        );
    }
    let alpha = client
        .get_player_rating(api::GetPlayerRatingRequest {
            tournament: t(),
            pairing_number: 1,
        })
        .await
        .unwrap()
        .into_inner();
    let forfeit = alpha.games.iter().find(|g| g.opponent == 10).unwrap();
    assert!(
        !forfeit.rated
            && arbiter_proto::tenths(forfeit.score.as_ref()) == 10
            && forfeit.change_tenths == 0
    );
    let n = client
        .get_norms(api::GetNormsRequest {
            tournament: t(),
            pairing_number: 9,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(n.norms.len(), 4);
    assert_eq!(
        n.norms.iter().find(|x| x.title == pb::NormTitle::Im as i32),
        Some(norm_of(9, pb::NormTitle::Im))
    );
    // As of an earlier version: after round 1 closes, one round counts.
    let round1_closed = stream
        .iter()
        .find(|e| {
            matches!(
                e.decode_event().unwrap().kind,
                Some(Kind::RoundClosed(pb::RoundClosed { round: 1 }))
            )
        })
        .unwrap()
        .version;
    let early = client
        .get_event_ratings(api::GetEventRatingsRequest {
            tournament: Some(TournamentRef {
                tournament_id: TOURNAMENT.into(),
                as_of_version: round1_closed,
            }),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((early.version, early.through_round), (round1_closed, 1));
    assert!(early.changes.iter().all(|c| c.games <= 1));
    // Errors: unknown tournament, player 0, unknown player.
    let e = client
        .get_event_ratings(api::GetEventRatingsRequest {
            tournament: Some(TournamentRef {
                tournament_id: "nope".into(),
                as_of_version: 0,
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::NotFound);
    let e = client
        .get_player_rating(api::GetPlayerRatingRequest {
            tournament: t(),
            pairing_number: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    let e = client
        .get_norms(api::GetNormsRequest {
            tournament: t(),
            pairing_number: 11,
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::NotFound);
    assert!(e.message().contains("11"), "{}", e.message());

    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

/// The worker's pieces as `register` assembles them, with their counters at hand.
struct Running {
    worker: Arc<Worker>,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<Result<(), arbiter_eventlog::LogError>>,
}

fn start_pieces(log: &Arc<dyn EventLog>, checkpoints: &CheckpointStore) -> Running {
    let store = Arc::new(TournamentStore::new(
        log.clone(),
        SERVICE,
        Some(checkpoints.clone()),
    ));
    let worker = Arc::new(Worker::new(store, Some(checkpoints.clone())));
    let (stop, rx) = watch::channel(false);
    let task = tokio::spawn(worker.clone().follow(
        Feed::Subscription(log.clone()),
        Some(checkpoints.clone()),
        rx,
    ));
    Running { worker, stop, task }
}

impl Running {
    async fn stop(self) -> Arc<Worker> {
        self.stop.send(true).unwrap();
        self.task.await.unwrap().unwrap();
        self.worker.store().checkpoint_all().await;
        self.worker
    }
}

async fn count_answers(log: &Arc<dyn EventLog>) -> (usize, usize) {
    let answers = worker_events(log).await;
    let mut ids: Vec<&str> = answers.iter().map(|(e, _)| e.command_id.as_str()).collect();
    let events = ids.len();
    ids.dedup();
    (ids.len(), events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restarts_resume_from_the_checkpoint_and_never_append_twice() {
    let dir = TempDir::new("arbiter-rating-worker-restart").unwrap();
    let log: Arc<dyn EventLog> = Arc::new(SledLog::open(dir.path().join("log")).unwrap());
    let cp_dir = dir.path().join(SERVICE);
    let arbiter = director(&log);
    create(&arbiter).await;

    // First run: rounds 1 to 4.
    let checkpoints = CheckpointStore::open(&cp_dir).unwrap();
    let first = start_pieces(&log, &checkpoints);
    for round in 1..=4 {
        play_round(&arbiter, round).await;
    }
    // One answer per closed round.
    wait_for_answers(&log, 4).await;
    let w = first.stop().await;
    assert_eq!(w.stats().appended.load(Ordering::Relaxed), 4);
    let position = checkpoints
        .get(SERVICE, FEED_CHECKPOINT)
        .unwrap()
        .unwrap()
        .version;
    assert!(position > 0);
    let snapshot = checkpoints.get(SNAPSHOT_OWNER, STREAM).unwrap().unwrap();
    let last_trigger = trigger_events(&log).await.last().unwrap().version;
    assert!(snapshot.version >= last_trigger && snapshot.snapshot.is_some());
    drop(w);
    drop(checkpoints);

    // While it is down: rounds 5 to 9, a correction after the end, the finish.
    for round in 5..=ROUNDS {
        play_round(&arbiter, round).await;
    }
    finish(&arbiter).await;
    let late = Correction {
        round: 9,
        white: pairs(9)[2].0,
        black: pairs(9)[2].1,
        result: BoardResult::Draw,
    };
    assert_ne!(board_result(late.white, late.black), late.result);
    correct(&arbiter, late).await;
    let triggers = trigger_events(&log).await.len();
    assert_eq!(triggers, 9 + 1 + 1);

    // Second run: resumes from the checkpoint, answers only what is new.
    let checkpoints = CheckpointStore::open(&cp_dir).unwrap();
    let second = start_pieces(&log, &checkpoints);
    wait_for_answers(&log, triggers).await;
    let w = second.stop().await;
    assert_eq!(
        w.stats().appended.load(Ordering::Relaxed),
        (triggers - 4) as u64
    );
    assert_eq!(
        w.store()
            .stats()
            .resumed_from_checkpoint
            .load(Ordering::Relaxed),
        1,
        "the fold resumed from the snapshot"
    );
    let (answered, events) = count_answers(&log).await;
    assert_eq!(answered, triggers);
    // The correction after the end: rating changes and the eight norm results again.
    let last_trigger = command_id(trigger_events_last_id(&log).await);
    let after_end = worker_events(&log)
        .await
        .into_iter()
        .filter(|(e, _)| e.command_id == last_trigger)
        .count();
    assert_eq!(after_end, 1 + 8);
    let version = log.last_version(STREAM).await.unwrap();
    drop(w);
    drop(checkpoints);

    // Third run with its checkpoints lost: every trigger is handled again, nothing is appended.
    std::fs::remove_dir_all(&cp_dir).unwrap();
    let checkpoints = CheckpointStore::open(&cp_dir).unwrap();
    let third = start_pieces(&log, &checkpoints);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while third.worker.stats().triggers.load(Ordering::Relaxed) < (2 * triggers) as u64 {
        // The sweep sees every trigger once, the feed (from position 0) once more.
        assert!(std::time::Instant::now() < deadline, "triggers not re-read");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let w = third.stop().await;
    assert_eq!(w.stats().appended.load(Ordering::Relaxed), 0);
    assert_eq!(
        w.stats().already_answered.load(Ordering::Relaxed),
        (2 * triggers) as u64
    );
    assert_eq!(log.last_version(STREAM).await.unwrap(), version);
    assert_eq!(count_answers(&log).await, (answered, events));
}

async fn trigger_events_last_id(log: &Arc<dyn EventLog>) -> uuid::Uuid {
    trigger_events(log).await.last().unwrap().event_id
}

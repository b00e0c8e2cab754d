use super::*;
use arbiter_core::tournament::{CreateTournament, RegisterPlayer};
use arbiter_eventlog::SledLog;

fn create() -> Command {
    let d = "2025-09-01".parse().unwrap();
    let mut c = CreateTournament::new("Test", d, d, 5);
    c.chief_arbiter = arbiter_core::tournament::Arbiter::named("Doe, Jane");
    Command::CreateTournament(c)
}

#[test]
fn tournament_ids_are_checked() {
    assert_eq!(stream_of("open-2026").unwrap(), "tournament-open-2026");
    assert_eq!(tournament_of("tournament-open-2026"), Some("open-2026"));
    assert_eq!(tournament_of("other"), None);
    for bad in ["", " ", "a.b", "a b", "ä", &"x".repeat(101)] {
        assert_eq!(
            stream_of(bad).unwrap_err().code(),
            tonic::Code::InvalidArgument,
            "{bad:?}"
        );
    }
}

#[tokio::test]
async fn same_command_id_twice_appends_once() {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    let store = TournamentStore::new(log.clone(), "test", None);
    let ctx = CommandContext::new("t1", "c1", None, "me").unwrap();
    let first = store.execute(&ctx, |_| Ok(create())).await.unwrap();
    assert!(!first.replayed);
    let again = store.execute(&ctx, |_| Ok(create())).await.unwrap();
    assert!(again.replayed);
    assert_eq!(again.event_ids, first.event_ids);
    assert_eq!(log.last_version("tournament-t1").await.unwrap(), 1);
    // A different command id on the same stream is decided again: refused.
    let other = CommandContext::new("t1", "c2", None, "me").unwrap();
    let e = store.execute(&other, |_| Ok(create())).await.unwrap_err();
    assert_eq!(e.code(), tonic::Code::AlreadyExists);
    assert_eq!(log.last_version("tournament-t1").await.unwrap(), 1);
}

fn bound(ctx: CommandContext, command: &'static str, request: &[u8]) -> CommandContext {
    CommandContext {
        request: Some(RequestBinding {
            command,
            digest: arbiter_eventlog::record::payload_digest(&[request.to_vec()]),
        }),
        ..ctx
    }
}

fn register(name: &str) -> Command {
    Command::RegisterPlayer(RegisterPlayer::new(name, 2000))
}

/// The command id binding on one backend: the same id with another request is refused
/// naming the first command, nothing appended; the same request is a replay even after the
/// stream moved on; a fresh store (a restart) reads the binding back from the log.
async fn command_id_binding(log: Arc<dyn EventLog>) {
    let store = TournamentStore::new(log.clone(), "test", None);
    let ctx = CommandContext::new("b", "create", None, "me").unwrap();
    store.execute(&ctx, |_| Ok(create())).await.unwrap();
    let a = bound(
        CommandContext::new("b", "reg-1", None, "me").unwrap(),
        "RegisterPlayer",
        b"Alpha",
    );
    let first = store
        .execute(&a, |_| Ok(register("Alpha, A")))
        .await
        .unwrap();
    assert_eq!((first.first_version, first.replayed), (2, false));
    let stored = log.read("tournament-b", 2).await.unwrap().remove(0);
    let origin = stored.decode_event().unwrap().origin.expect("origin");
    assert_eq!(origin.command, "RegisterPlayer");
    assert_eq!(
        origin.request_digest,
        a.request.as_ref().unwrap().digest.to_vec()
    );

    let other = bound(a.clone(), "RegisterPlayer", b"Bravo");
    let unused = || -> Result<Command, Status> { panic!("a refused request is not decided") };
    for s in [&store, &TournamentStore::new(log.clone(), "fresh", None)] {
        let e = s.execute(&other, |_| unused()).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::AlreadyExists, "{e:?}");
        for w in [
            "\"reg-1\"",
            "RegisterPlayer",
            "version 2",
            "nothing was appended",
        ] {
            assert!(e.message().contains(w), "{w}: {}", e.message());
        }
        // Another command with the id: refused naming the first one.
        let start = bound(a.clone(), "StartRound", b"1");
        let e = s.execute(&start, |_| unused()).await.unwrap_err();
        assert!(e.message().contains("by RegisterPlayer"), "{}", e.message());
    }
    assert_eq!(log.last_version("tournament-b").await.unwrap(), 2);

    // The stream moves on; the first request again is still its first outcome.
    let c = bound(
        CommandContext::new("b", "reg-2", None, "me").unwrap(),
        "RegisterPlayer",
        b"Charlie",
    );
    store
        .execute(&c, |_| Ok(register("Charlie, C")))
        .await
        .unwrap();
    for s in [&store, &TournamentStore::new(log.clone(), "fresh2", None)] {
        let again = s.execute(&a, |_| Ok(register("Alpha, A"))).await.unwrap();
        assert!(again.replayed);
        assert_eq!(again.event_ids, first.event_ids);
        assert_eq!((again.first_version, again.last_version), (2, 2));
    }
    // An append without a recorded request (here the unbound create) cannot be compared:
    // a bound request with its id is refused, an unbound one (a service's own) replays.
    let e = store
        .execute(&bound(ctx.clone(), "CreateTournament", b"x"), |_| unused())
        .await
        .unwrap_err();
    assert!(
        e.message().contains("by TournamentCreated"),
        "{}",
        e.message()
    );
    assert!(store.execute(&ctx, |_| unused()).await.unwrap().replayed);
    assert_eq!(log.last_version("tournament-b").await.unwrap(), 3);
}

/// A log on which, just before a chosen command id is appended, another writer (another
/// process of the service) appends other events under the same id: the race between a
/// store's fold and its append.
struct Racing {
    inner: Arc<dyn EventLog>,
    before: std::sync::Mutex<Option<(String, Vec<Vec<u8>>)>>,
}

impl EventLog for Racing {
    fn append<'a>(
        &'a self,
        stream: &'a str,
        expected: ExpectedVersion,
        command_id: &'a str,
        actor: &'a str,
        events: Vec<Vec<u8>>,
    ) -> futures::future::BoxFuture<'a, Result<arbiter_eventlog::AppendOutcome, LogError>> {
        let first = {
            let mut b = self.before.lock().unwrap();
            match b.as_ref() {
                Some((id, _)) if id == command_id => b.take(),
                _ => None,
            }
        };
        Box::pin(async move {
            if let Some((id, payloads)) = first {
                let o = self
                    .inner
                    .append(stream, ExpectedVersion::Any, &id, "other", payloads)
                    .await?;
                assert!(!o.replayed);
            }
            self.inner
                .append(stream, expected, command_id, actor, events)
                .await
        })
    }
    fn read<'a>(
        &'a self,
        stream: &'a str,
        from_version: Version,
    ) -> futures::future::BoxFuture<'a, Result<Vec<StoredEvent>, LogError>> {
        self.inner.read(stream, from_version)
    }
    fn last_version<'a>(
        &'a self,
        stream: &'a str,
    ) -> futures::future::BoxFuture<'a, Result<Version, LogError>> {
        self.inner.last_version(stream)
    }
    fn subscribe(
        &self,
        from: SubscribeFrom,
    ) -> futures::future::BoxFuture<'_, Result<arbiter_eventlog::EventStream, LogError>> {
        self.inner.subscribe(from)
    }
    fn list_streams(&self) -> futures::future::BoxFuture<'_, Result<Vec<String>, LogError>> {
        self.inner.list_streams()
    }
}

/// Two writers race with one command id: the loser's append meets the winner's events in
/// the log (CommandIdReused) and is answered as the command's binding says: another request
/// is refused naming the winner, the same request is the winner's outcome.
#[tokio::test]
async fn a_command_id_raced_by_another_writer() {
    // The other writer's events: the same tournament, "Bravo" registered under "reg-1".
    let elsewhere: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    let other = TournamentStore::new(elsewhere.clone(), "other", None);
    let create_ctx = CommandContext::new("r", "create", None, "me").unwrap();
    other.execute(&create_ctx, |_| Ok(create())).await.unwrap();
    let id = CommandContext::new("r", "reg-1", None, "me").unwrap();
    let bravo = bound(id.clone(), "RegisterPlayer", b"Bravo");
    other
        .execute(&bravo, |_| Ok(register("Bravo, B")))
        .await
        .unwrap();
    let bravo_payload = elsewhere.read("tournament-r", 2).await.unwrap()[0]
        .payload
        .clone();

    for (ours, command, refused) in [
        (
            bound(id.clone(), "RegisterPlayer", b"Alpha"),
            "Alpha, A",
            true,
        ),
        (bravo.clone(), "Bravo, B", false),
    ] {
        let inner: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
        let log = Arc::new(Racing {
            inner: inner.clone(),
            before: std::sync::Mutex::new(None),
        });
        let store = TournamentStore::new(log.clone(), "test", None);
        store.execute(&create_ctx, |_| Ok(create())).await.unwrap();
        *log.before.lock().unwrap() = Some(("reg-1".into(), vec![bravo_payload.clone()]));
        let got = store.execute(&ours, |_| Ok(register(command))).await;
        if refused {
            let e = got.unwrap_err();
            assert_eq!(e.code(), tonic::Code::AlreadyExists, "{e:?}");
            assert!(
                e.message()
                    .contains("by RegisterPlayer at stream version 2"),
                "{}",
                e.message()
            );
        } else {
            let o = got.unwrap();
            assert!(o.replayed);
            assert_eq!((o.first_version, o.last_version), (2, 2));
        }
        assert_eq!(inner.last_version("tournament-r").await.unwrap(), 2);
        assert!(log.before.lock().unwrap().is_none(), "the race happened");
    }
}

#[tokio::test]
async fn command_ids_are_bound_to_their_request_sled() {
    command_id_binding(Arc::new(SledLog::temporary().unwrap())).await;
}

#[tokio::test]
async fn command_ids_are_bound_to_their_request_jetstream() {
    let nats = arbiter_eventlog::testing::NatsServer::start()
        .await
        .expect("nats-server (apt-get install nats-server)");
    let log = arbiter_eventlog::JetStreamLog::connect(
        &[nats.url()],
        arbiter_eventlog::JetStreamConfig::default(),
    )
    .await
    .unwrap();
    command_id_binding(Arc::new(log)).await;
}

#[tokio::test]
async fn stale_expected_version_is_aborted_and_appends_nothing() {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    let store = TournamentStore::new(log.clone(), "test", None);
    let ctx = CommandContext::new("t", "c1", Some(0), "me").unwrap();
    store.execute(&ctx, |_| Ok(create())).await.unwrap();
    let stale = CommandContext::new("t", "c2", Some(0), "me").unwrap();
    let e = store
        .execute(&stale, |_| {
            Ok(Command::RegisterPlayer(RegisterPlayer::new("A, B", 2000)))
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::Aborted);
    assert!(e.message().contains("version 1"), "{}", e.message());
    assert_eq!(log.last_version("tournament-t").await.unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stores_racing_both_succeed_after_retrying() {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    let a = Arc::new(TournamentStore::new(log.clone(), "a", None));
    let b = Arc::new(TournamentStore::new(log.clone(), "b", None));
    let ctx = CommandContext::new("race", "create", None, "me").unwrap();
    a.execute(&ctx, |_| Ok(create())).await.unwrap();
    // Both stores have folded version 1; each then registers players concurrently.
    a.current("tournament-race").await.unwrap();
    b.current("tournament-race").await.unwrap();
    let mut tasks = Vec::new();
    for (i, store) in [a.clone(), b.clone()]
        .into_iter()
        .cycle()
        .take(16)
        .enumerate()
    {
        tasks.push(tokio::spawn(async move {
            let ctx = CommandContext::new("race", &format!("r{i}"), None, "me").unwrap();
            store
                .execute(&ctx, |_| {
                    Ok(Command::RegisterPlayer(RegisterPlayer::new(
                        format!("Player, {i:02}"),
                        2000 + i as u32,
                    )))
                })
                .await
        }));
    }
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    assert_eq!(log.last_version("tournament-race").await.unwrap(), 17);
    let f = a.current("tournament-race").await.unwrap();
    assert_eq!(f.state.player_count(), 16);
    let retried = a.stats().conflicts_retried.load(Ordering::Relaxed)
        + b.stats().conflicts_retried.load(Ordering::Relaxed);
    assert!(retried > 0, "no conflict was seen");
}

/// Tasks of one process writing one stream take turns: no conflict, no retry, every
/// command appended once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writers_in_one_process_take_turns_without_conflicts() {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    let store = Arc::new(TournamentStore::new(log.clone(), "one", None));
    let ctx = CommandContext::new("turns", "create", None, "me").unwrap();
    store.execute(&ctx, |_| Ok(create())).await.unwrap();
    let mut tasks = Vec::new();
    for w in 0..8u32 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            for i in 0..25u32 {
                let ctx = CommandContext::new("turns", &format!("w{w}-{i}"), None, "me").unwrap();
                let o = store
                    .execute(&ctx, |_| {
                        Ok(Command::RegisterPlayer(RegisterPlayer::new(
                            format!("Player, {w}-{i}"),
                            1500 + w * 25 + i,
                        )))
                    })
                    .await
                    .unwrap();
                assert!(!o.replayed);
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    assert_eq!(log.last_version("tournament-turns").await.unwrap(), 201);
    assert_eq!(store.stats().conflicts_retried.load(Ordering::Relaxed), 0);
    assert_eq!(store.stats().appended.load(Ordering::Relaxed), 201);
    let f = store.current("tournament-turns").await.unwrap();
    assert_eq!(f.state.player_count(), 200);
    assert_eq!(f.command_count(), 201);
}

#[tokio::test]
async fn delivered_events_are_folded_once_and_gaps_caught_up() {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    let writer = TournamentStore::new(log.clone(), "writer", None);
    let reader = TournamentStore::new(log.clone(), "reader", None);
    let ctx = CommandContext::new("a", "c", None, "me").unwrap();
    writer.execute(&ctx, |_| Ok(create())).await.unwrap();
    assert_eq!(reader.current("tournament-a").await.unwrap().version, 1);
    for i in 0..3 {
        let ctx = CommandContext::new("a", &format!("p{i}"), None, "me").unwrap();
        writer
            .execute(&ctx, |_| {
                Ok(Command::RegisterPlayer(RegisterPlayer::new(
                    format!("P, {i}"),
                    1500,
                )))
            })
            .await
            .unwrap();
    }
    let all = log.read("tournament-a", 1).await.unwrap();
    // The next version: folded from the delivery.
    let f = reader.absorb("tournament-a", &all[1..2]).await.unwrap();
    assert_eq!((f.version, f.state.player_count()), (2, 1));
    // Already folded: skipped.
    let f = reader.absorb("tournament-a", &all[0..2]).await.unwrap();
    assert_eq!(f.version, 2);
    // A gap: caught up from the log.
    let f = reader.absorb("tournament-a", &all[3..4]).await.unwrap();
    assert_eq!((f.version, f.state.player_count()), (4, 3));
    assert_eq!(*f, Folded::from_stored(&all).unwrap());
}

#[tokio::test]
async fn snapshot_round_trips_and_resumes() {
    let dir = arbiter_eventlog::testing::TempDir::new("arbiter-store-snap").unwrap();
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    let checkpoints = CheckpointStore::open(dir.path().join("cp")).unwrap();
    {
        let store = TournamentStore::new(log.clone(), "svc", Some(checkpoints.clone()));
        let ctx = CommandContext::new("s", "c", None, "me").unwrap();
        store.execute(&ctx, |_| Ok(create())).await.unwrap();
        for i in 0..5 {
            let ctx = CommandContext::new("s", &format!("p{i}"), None, "me").unwrap();
            store
                .execute(&ctx, |_| {
                    Ok(Command::RegisterPlayer(RegisterPlayer::new(
                        format!("P, {i}"),
                        1500,
                    )))
                })
                .await
                .unwrap();
        }
        store.current("tournament-s").await.unwrap();
        store.checkpoint_all().await;
    }
    let c = checkpoints
        .get(SNAPSHOT_OWNER, "tournament-s")
        .unwrap()
        .unwrap();
    assert_eq!(c.version, 6);
    // With a minimum, a shorter stream is folded again rather than snapshotted.
    {
        let store = TournamentStore::new(log.clone(), "svc", Some(checkpoints.clone()))
            .with_snapshot_min_events(7);
        let ctx = CommandContext::new("short", "c", None, "me").unwrap();
        store.execute(&ctx, |_| Ok(create())).await.unwrap();
        store.checkpoint_all().await;
    }
    assert_eq!(
        checkpoints.get(SNAPSHOT_OWNER, "tournament-short").unwrap(),
        None
    );
    let snap: Folded = serde_json::from_slice(c.snapshot.as_deref().unwrap()).unwrap();
    let fresh = Folded::from_stored(&log.read("tournament-s", 1).await.unwrap()).unwrap();
    assert_eq!(snap, fresh);
    let store = TournamentStore::new(log.clone(), "svc", Some(checkpoints));
    let f = store.current("tournament-s").await.unwrap();
    assert_eq!(*f, fresh);
    assert_eq!(
        store
            .stats()
            .resumed_from_checkpoint
            .load(Ordering::Relaxed),
        1
    );
}

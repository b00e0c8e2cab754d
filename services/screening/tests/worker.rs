//! The worker over a temporary sled log: a closed round without games needs no engine and
//! appends nothing; with a game and no engine it fails naming why and appends nothing; with
//! Stockfish it appends one answer, and handling the same trigger again appends nothing.

use arbiter_core::tournament::*;
use arbiter_eventlog::{EventLog, SledLog, StoredEvent};
use arbiter_proto::events::v1::event::Kind;
use arbiter_screening_service::{Config, Engines, Worker, command_id};
use arbiter_service_kit::store::{CommandContext, TournamentStore};
use std::sync::Arc;
use std::sync::atomic::Ordering;

const T: &str = "screen-unit";

fn stream() -> String {
    arbiter_service_kit::store::stream_of(T).unwrap()
}

async fn run(store: &TournamentStore, id: &str, c: Command) {
    let ctx = CommandContext::new(T, id, None, "test").unwrap();
    store
        .execute(&ctx, |_| Ok(c.clone()))
        .await
        .unwrap_or_else(|s| panic!("{id}: {s:?}"));
}

/// A 2-player tournament with round 1 paired (Ann white, Bob black); with a game for the board
/// when `game` is given; the round closed. Returns the store and the stream's events.
async fn tournament(game: Option<&str>) -> (Arc<TournamentStore>, Vec<StoredEvent>) {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().unwrap());
    let store = Arc::new(TournamentStore::new(log.clone(), "test", None));
    let start: Date = "2026-01-10".parse().unwrap();
    let mut create = CreateTournament::new("Unit Open", start, start, 3);
    create.chief_arbiter = Arbiter::named("Doe, Jane");
    run(&store, "create", Command::CreateTournament(create)).await;
    run(
        &store,
        "p1",
        Command::RegisterPlayer(RegisterPlayer::new("Ann", 2200)),
    )
    .await;
    run(
        &store,
        "p2",
        Command::RegisterPlayer(RegisterPlayer::new("Bob", 2100)),
    )
    .await;
    run(
        &store,
        "start",
        Command::StartRound(StartRound {
            round: 1,
            scheduled_unix_ms: None,
        }),
    )
    .await;
    let f = store
        .current(&stream())
        .await
        .unwrap_or_else(|_| panic!("stream"));
    let input = f.state.pairing_input(1).unwrap();
    let propose = Command::ProposePairing(ProposePairing {
        round: 1,
        attempt: input.attempt,
        boards: vec![Pair::new(1, 2)],
        bye: None,
        engine: Engine {
            name: "test".into(),
            version: "1".into(),
        },
        rule_set: input.rule_set.clone(),
        based_on_version: f.version,
        input_digest: vec![0; 32],
        explanation: String::new(),
        team_bye: None,
        team_matches: Vec::new(),
    });
    run(&store, "propose", propose).await;
    let publish = PublishPairing {
        round: 1,
        proposal_version: None,
        changes: None,
        note: String::new(),
    };
    run(&store, "publish", Command::PublishPairing(publish)).await;
    if let Some(pgn) = game {
        let submit = SubmitGame {
            round: 1,
            board: 1,
            pgn: pgn.into(),
            white: "Ann".into(),
            black: "Bob".into(),
            result: "1-0".into(),
            laws: None,
        };
        run(&store, "game", Command::SubmitGame(submit)).await;
    }
    let result = RecordResult {
        round: 1,
        board: 1,
        result: BoardResult::WhiteWins,
    };
    run(&store, "result", Command::RecordResult(result)).await;
    run(
        &store,
        "close",
        Command::CloseRound(CloseRound { round: 1 }),
    )
    .await;
    let events = log.read(&stream(), 1).await.unwrap();
    (store, events)
}

fn closed(events: &[StoredEvent]) -> &StoredEvent {
    events
        .iter()
        .find(|e| matches!(e.decode_event().unwrap().kind, Some(Kind::RoundClosed(_))))
        .expect("a RoundClosed")
}

const GAME: &str = "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O \
9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 1-0\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_without_games_needs_no_engine_and_appends_nothing() {
    let (store, events) = tournament(None).await;
    let engines = Arc::new(Engines::new(Config {
        stockfish: Some("/nonexistent/stockfish".into()),
        ..Config::default()
    }));
    assert!(engines.engine().is_err());
    let worker = Worker::new(store.clone(), None, engines);
    worker.handle_event(closed(&events)).await.unwrap();
    assert_eq!(worker.stats().nothing_to_append.load(Ordering::Relaxed), 1);
    assert_eq!(
        store.log().read(&stream(), 1).await.unwrap().len(),
        events.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_engine_a_round_with_games_fails_and_appends_nothing() {
    let (store, events) = tournament(Some(GAME)).await;
    let engines = Arc::new(Engines::new(Config {
        stockfish: Some("/nonexistent/stockfish".into()),
        ..Config::default()
    }));
    let worker = Worker::new(store.clone(), None, engines);
    let e = worker.handle_event(closed(&events)).await.unwrap_err();
    assert!(
        e.to_lowercase().contains("engine") || e.contains("stockfish"),
        "{e}"
    );
    assert_eq!(
        store.log().read(&stream(), 1).await.unwrap().len(),
        events.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trigger_handled_twice_is_answered_once() {
    arbiter_screening::uci::find_engine(None).expect("Stockfish is installed (.ci/run)");
    let (store, events) = tournament(Some(GAME)).await;
    let engines = Arc::new(Engines::new(Config {
        nodes: 2_000,
        ..Config::default()
    }));
    let worker = Worker::new(store.clone(), None, engines);
    let trigger = closed(&events);
    worker.handle_event(trigger).await.unwrap();
    worker.handle_event(trigger).await.unwrap();
    assert_eq!(worker.stats().appended.load(Ordering::Relaxed), 1);
    assert_eq!(worker.stats().already_answered.load(Ordering::Relaxed), 1);
    let after = store.log().read(&stream(), 1).await.unwrap();
    let answer: Vec<_> = after
        .iter()
        .filter(|e| e.command_id == command_id(trigger.event_id))
        .collect();
    // One performance per player (no flag: far fewer counted moves than the policy needs).
    assert_eq!(answer.len(), 2);
    for e in answer {
        match e.decode_event().unwrap().kind {
            Some(Kind::PlayerScreeningComputed(p)) => {
                assert_eq!(
                    (p.through_round, p.games, p.nodes, p.flag.as_str()),
                    (1, 1, 2_000, "none")
                );
                assert!(
                    p.provisional,
                    "a budget other than the baseline's is provisional"
                );
                assert!(p.player_id == 1 || p.player_id == 2);
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

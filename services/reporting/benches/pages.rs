//! Renders the standings, crosstable, pairings and player pages of a 500-player, 11-round Swiss
//! (played by the pairing engine from a fixed seed) and prints the median time per page, then
//! times the standings page over HTTP once cold and a few times warm.
//!
//! `cargo bench -p arbiter-reporting --bench pages` (add `-- --quick` for fewer runs).

use arbiter_core::tournament::{
    Arbiter, BoardResult, CloseRound, Command, CreateTournament, Engine, Event, Pair,
    ProposePairing, PublishPairing, RecordResult, RegisterPlayer, StartRound, State, decide,
};
use arbiter_core::{Color, ResultCode};
use arbiter_eventlog::{EventLog, ExpectedVersion, SledLog, encode_events};
use arbiter_pairing::simulate::Simulation;
use arbiter_proto::convert::event_to_wire;
use arbiter_reporting::web::{self, Context};
use arbiter_service_kit::store::TournamentStore;
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

const PLAYERS: u32 = 500;
const ROUNDS: u32 = 11;
const TARGET: Duration = Duration::from_millis(200);

/// A page to time: its name and a function rendering it (returns the size).
type Timed<'a> = (&'static str, Box<dyn Fn() -> usize + 'a>);

/// The tournament as the reporting service folds it, and every event in log order, grouped by
/// the command that wrote them.
fn tournament() -> (State, Vec<Vec<Event>>) {
    let sim = Simulation::new(PLAYERS, ROUNDS, 20_261_121);
    let record = sim.play(ROUNDS).expect("the simulation pairs every round");
    let mut state = State::default();
    let mut log: Vec<Vec<Event>> = Vec::new();
    let mut run = |state: &mut State, c: Command| {
        let events = decide(state, &c).unwrap_or_else(|e| panic!("{}: {e}", c.name()));
        events.iter().for_each(|e| state.apply(e));
        log.push(events);
        log.iter().map(Vec::len).sum::<usize>() as u64
    };
    let start = "2025-09-01".parse().expect("date");
    let end = "2025-09-11".parse().expect("date");
    let mut create = CreateTournament::new("Bench Open", start, end, ROUNDS);
    create.place = "Loopback".into();
    create.chief_arbiter = Arbiter::named("Arbiter, Chief");
    create.initial_color = Some(Color::White);
    run(&mut state, Command::CreateTournament(create));
    for p in &record.players {
        let mut r = RegisterPlayer::new(format!("Player, {:03}", p.id), p.rating as u32);
        r.federation = "NOR".into();
        run(&mut state, Command::RegisterPlayer(r));
    }
    for round in 1..=ROUNDS {
        let mut version = run(
            &mut state,
            Command::StartRound(StartRound {
                round,
                scheduled_unix_ms: None,
            }),
        );
        let pairing = record.recorded(round);
        let input = state.pairing_input(round).expect("pairing input");
        version = run(
            &mut state,
            Command::ProposePairing(ProposePairing {
                round,
                attempt: input.attempt,
                boards: pairing
                    .boards
                    .iter()
                    .map(|b| Pair::new(b.white, b.black))
                    .collect(),
                bye: pairing.bye,
                engine: Engine {
                    name: "by-hand".into(),
                    version: "1".into(),
                },
                rule_set: input.rule_set.clone(),
                based_on_version: version,
                input_digest: vec![0; 32],
                explanation: String::new(),
                team_bye: None,
                team_matches: Vec::new(),
            }),
        );
        run(
            &mut state,
            Command::PublishPairing(PublishPairing {
                round,
                proposal_version: Some(version),
                changes: None,
                note: String::new(),
            }),
        );
        for (i, b) in pairing.boards.iter().enumerate() {
            let white = record.players[(b.white - 1) as usize].rounds[(round - 1) as usize]
                .expect("white's entry");
            let result = match white.result {
                ResultCode::Win => BoardResult::WhiteWins,
                ResultCode::Draw => BoardResult::Draw,
                ResultCode::Loss => BoardResult::BlackWins,
                ResultCode::ForfeitWin => BoardResult::WhiteWinsForfeit,
                ResultCode::ForfeitLoss => BoardResult::BlackWinsForfeit,
                other => panic!("round {round}: unexpected result {other:?}"),
            };
            run(
                &mut state,
                Command::RecordResult(RecordResult {
                    round,
                    board: i as u32 + 1,
                    result,
                }),
            );
        }
        run(&mut state, Command::CloseRound(CloseRound { round }));
    }
    // The fold agrees with the simulation.
    for p in &record.players {
        let sim_points = p
            .rounds
            .iter()
            .flatten()
            .map(|e| record.points.points(e.result))
            .sum();
        assert_eq!(state.score(p.id), Some(sim_points), "player {}", p.id);
    }
    (state, log)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time(runs: usize, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut times = Vec::with_capacity(runs);
    let mut size = 0;
    for _ in 0..runs {
        let t = Instant::now();
        size = std::hint::black_box(f());
        times.push(t.elapsed());
    }
    (median(times), size)
}

fn http_get(addr: std::net::SocketAddr, path: &str) -> (u16, usize) {
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).expect("read");
    let text = String::from_utf8_lossy(&buf);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, buf.len())
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 5 } else { 21 };
    let t = Instant::now();
    let (state, log) = tournament();
    let events: usize = log.iter().map(Vec::len).sum();
    println!(
        "{PLAYERS} players, {ROUNDS} rounds, {events} events: played and folded in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    let cx = Context {
        id: "bench",
        version: events as u64,
        state: &state,
        ratings: None,
        signed_head: None,
    };
    let pages: Vec<Timed> = vec![
        (
            "standings",
            Box::new(|| {
                web::standings_page(&cx, None, None)
                    .expect("standings")
                    .len()
            }),
        ),
        (
            "crosstable",
            Box::new(|| web::crosstable_page(&cx).expect("crosstable").len()),
        ),
        (
            "pairings (round 11)",
            Box::new(|| web::pairings_page(&cx, ROUNDS).expect("pairings").len()),
        ),
        (
            "player card",
            Box::new(|| web::player_page(&cx, 250).expect("player").len()),
        ),
    ];
    let mut over = Vec::new();
    for (name, f) in &pages {
        let (m, size) = time(runs, f);
        println!(
            "{name:<22} median {:>8.2} ms over {runs} runs  ({} KiB of HTML)",
            m.as_secs_f64() * 1e3,
            size / 1024
        );
        if m > TARGET {
            over.push(*name);
        }
    }

    // The standings page over HTTP: the real router over a sled log holding the same events.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let log_store: Arc<dyn EventLog> = Arc::new(SledLog::temporary().expect("sled"));
        let stream = arbiter_service_kit::store::stream_of("bench").expect("stream");
        for (i, chunk) in log.chunks(64).enumerate() {
            let wire: Vec<_> = chunk.iter().flatten().map(event_to_wire).collect();
            log_store
                .append(
                    &stream,
                    ExpectedVersion::Any,
                    &format!("bench-{i}"),
                    "bench",
                    encode_events(&wire),
                )
                .await
                .expect("append");
        }
        let store = Arc::new(TournamentStore::new(log_store, "reporting", None));
        let app = arbiter_reporting::http_router(store);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move { axum::serve(listener, app).await });
        let get = |path: &'static str| {
            tokio::task::spawn_blocking(move || {
                let t = Instant::now();
                let (status, size) = http_get(addr, path);
                assert_eq!(status, 200, "{path}");
                (t.elapsed(), size)
            })
        };
        let (cold, size) = get("/t/bench/standings").await.expect("request");
        println!(
            "HTTP /t/bench/standings  first {:>8.2} ms (folds {events} events)  ({} KiB)",
            cold.as_secs_f64() * 1e3,
            size / 1024
        );
        let mut warm = Vec::new();
        for _ in 0..runs.min(9) {
            warm.push(get("/t/bench/standings").await.expect("request").0);
        }
        println!(
            "HTTP /t/bench/standings  median {:>7.2} ms warm",
            median(warm).as_secs_f64() * 1e3
        );
    });
    if over.is_empty() {
        println!("every page under {} ms", TARGET.as_millis());
    } else {
        println!("over {} ms: {}", TARGET.as_millis(), over.join(", "));
    }
}

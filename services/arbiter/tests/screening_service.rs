//! The screening service inside `arbiter serve`, over gRPC on loopback: a 6-player, 3-round
//! tournament whose games are generated (Stockfish self-play at a small node budget, one
//! full-strength player among weakened ones) and submitted board by board; the service screens
//! each closed round; a re-run of the screening from the finished tournament's log, with a
//! fresh engine pool and cache, gives the same bytes as the events in the log. Bad games are
//! refused with a status naming what and where, and append nothing. Screening results are
//! confidential: their read needs an arbiter or fair-play role, and the public pages and JSON
//! API show none of them.

mod support;

use arbiter_auth::Role;
use arbiter_core::tournament::{BoardResult, State};
use arbiter_proto::convert::event_from_wire;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use arbiter_proto::screening::v1 as scr;
use arbiter_proto::screening::v1::screening_client::ScreeningClient;
use arbiter_screening::cache::PositionCache;
use arbiter_screening::selfplay::{PlayerSpec, Strength, play};
use arbiter_screening_service::{Screener, Submitted, Tier};
use futures::StreamExt;
use prost::Message;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::*;
use tonic::Code;
use tonic::transport::Channel;

const NODES: u64 = 3_000;
const DEEP_NODES: u64 = 6_000;
const ROUNDS: u32 = 3;

fn engine() -> PathBuf {
    arbiter_screening::uci::find_engine(None).expect("Stockfish is installed (.ci/run)")
}

fn screening_client(
    url: &str,
    token: Option<&str>,
) -> ScreeningClient<arbiter_auth::client::WithToken<Channel>> {
    let ch = Channel::from_shared(url.to_string())
        .unwrap()
        .timeout(Duration::from_secs(120))
        .connect_lazy();
    ScreeningClient::new(arbiter_auth::client::WithToken::new(ch, token).unwrap())
}

fn result_of(pgn: &str) -> BoardResult {
    match pgn
        .split("[Result \"")
        .nth(1)
        .and_then(|r| r.split('"').next())
    {
        Some("1-0") => BoardResult::WhiteWins,
        Some("0-1") => BoardResult::BlackWins,
        Some("1/2-1/2") => BoardResult::Draw,
        other => panic!("generated game without a result: {other:?}"),
    }
}

/// Every event of the stream with its stored payload bytes, read with the admin token.
async fn raw_events(url: &str, tid: &str) -> Vec<pb::Envelope> {
    raw_events_as(url, tid, Some(&token::auth().admin)).await
}

async fn raw_events_as(url: &str, tid: &str, token: Option<&str>) -> Vec<pb::Envelope> {
    let ch = Channel::from_shared(url.to_string())
        .unwrap()
        .connect_lazy();
    let mut rep = arbiter_proto::reporting::v1::reporting_client::ReportingClient::new(
        arbiter_auth::client::WithToken::new(ch, token).unwrap(),
    );
    let mut s = rep
        .stream_events(rep::StreamEventsRequest {
            tournament_id: tid.into(),
            from_version: 1,
            follow: false,
            raw_payload: true,
        })
        .await
        .unwrap()
        .into_inner();
    let mut out = Vec::new();
    while let Some(e) = s.next().await {
        out.push(e.unwrap());
    }
    out
}

fn is_screening(e: &pb::Envelope) -> bool {
    matches!(
        e.payload.as_ref().and_then(|p| p.kind.as_ref()),
        Some(Kind::PlayerScreeningComputed(_) | Kind::ScreeningFlagRaised(_))
    )
}

/// A refusal with `code` whose message holds every one of `words`, and the stream unchanged.
async fn refused<T: std::fmt::Debug>(
    d: &mut Driver,
    what: &str,
    call: impl std::future::Future<Output = Result<tonic::Response<T>, tonic::Status>>,
    code: Code,
    words: &[&str],
) {
    let before = d.version().await;
    let s = call.await.expect_err(what);
    assert_eq!(s.code(), code, "{what}: {s:?}");
    for w in words {
        assert!(
            s.message().contains(w),
            "{what}: {:?} lacks {w:?}",
            s.message()
        );
    }
    assert_eq!(d.version().await, before, "{what}: something was appended");
}

fn submit(tid: &str, cmd: &str, round: u32, board: u32, pgn: &str) -> scr::SubmitGameRequest {
    scr::SubmitGameRequest {
        header: header(tid, cmd),
        round,
        board,
        pgn: pgn.into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn screening_replays_bit_for_bit_and_refuses_bad_games() {
    let engine = engine();
    let work = TempDir::new("arbiter-screening-e2e").unwrap();
    let data = work.path().join("data");
    let log = work.path().join("server.log");
    let mut server = Server::start(
        &[
            "--data",
            data.to_str().unwrap(),
            "--stockfish",
            engine.to_str().unwrap(),
            "--screening-nodes",
            &NODES.to_string(),
            "--screening-deep-nodes",
            &DEEP_NODES.to_string(),
        ],
        &log,
    );
    let url = server.grpc.clone();
    let tid = "screen-e2e";
    let plan = Plan {
        players: 6,
        rounds: ROUNDS,
        seed: 13,
        early_byes: vec![],
        late_byes: vec![],
        withdrawals: vec![],
        forfeit_permille: 0,
    };
    let mut d = Driver::new(Clients::new(&Endpoints::one(&url)), tid, plan, work.path());
    d.create().await;
    d.register_all().await;
    let players: BTreeMap<u32, (String, u16)> =
        d.c.reg
            .list_players(reg::ListPlayersRequest {
                tournament: tref(tid),
            })
            .await
            .unwrap()
            .into_inner()
            .players
            .into_iter()
            .filter_map(|p| p.player)
            .map(|p| (p.player_id, (p.name, p.rating as u16)))
            .collect();
    let spec = |pn: u32| {
        let (name, rating) = players[&pn].clone();
        PlayerSpec {
            name,
            rating,
            // Player 1 plays the engine's own moves; the others a reproducible weakening.
            strength: if pn == 1 {
                Strength::Full
            } else {
                Strength::Sampled(u32::from(rating))
            },
            nodes: 1_000,
        }
    };
    let mut scr = screening_client(&url, Some(&token::auth().admin));
    let keys = &token::auth().keys;
    let fpo = token::issue(keys, "fpo", Role::FairPlayOfficer, &[tid], None, 3600);
    let other_fpo = token::issue(
        keys,
        "fpo2",
        Role::FairPlayOfficer,
        &["elsewhere"],
        None,
        3600,
    );
    let player = token::issue(keys, "p1", Role::Player, &[tid], Some(1), 3600);

    for round in 1..=ROUNDS {
        d.start_round(round).await;
        let proposal = d.wait_proposal(round, Duration::from_secs(60)).await;
        d.publish(round).await;
        let (boards, _) = pairing_of(&proposal);
        for (i, &(w, b)) in boards.iter().enumerate() {
            let board = i as u32 + 1;
            let pgn = play(
                &engine,
                &spec(w),
                &spec(b),
                u64::from(round * 100 + board),
                "E2E",
                round,
                120,
            )
            .await
            .unwrap();
            let result = result_of(&pgn);
            if round == 1 && board == 2 {
                // The result first: a PGN saying otherwise is refused, naming both.
                let (res, wc, bc) = wire(result);
                d.c.rd
                    .record_result(rd::RecordResultRequest {
                        header: header(tid, &format!("result-{round}-{board}")),
                        round,
                        board,
                        result: res,
                        white_code: wc,
                        black_code: bc,
                    })
                    .await
                    .unwrap();
                let wrong = if result == BoardResult::Draw {
                    "1-0"
                } else {
                    "1/2-1/2"
                };
                let tag = pgn
                    .split("[Result \"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .to_string();
                let bad = pgn.replace(
                    &format!("[Result \"{tag}\"]"),
                    &format!("[Result \"{wrong}\"]"),
                );
                let bad = format!(
                    "{}{wrong}\n\n",
                    bad.trim_end().strip_suffix(tag.as_str()).unwrap()
                );
                let got = scr.submit_game(submit(tid, "bad-result", round, board, &bad));
                refused(
                    &mut d,
                    "result mismatch",
                    got,
                    Code::InvalidArgument,
                    &["round 1, board 2", "recorded result"],
                )
                .await;
                bad_games(&mut d, &mut scr, tid, &pgn, &players, boards[1]).await;
            }
            scr.submit_game(submit(
                tid,
                &format!("game-{round}-{board}"),
                round,
                board,
                &pgn,
            ))
            .await
            .unwrap_or_else(|s| panic!("round {round} board {board}: {s:?}\n{pgn}"));
            if round == 1 && board == 1 {
                let got = scr.submit_game(submit(tid, "again", round, board, &pgn));
                refused(
                    &mut d,
                    "second game for a board",
                    got,
                    Code::AlreadyExists,
                    &["round 1, board 1", "already submitted"],
                )
                .await;
                // A fair-play officer may read screening results, not submit games.
                let mut as_fpo = screening_client(&url, Some(&fpo));
                let got = as_fpo.submit_game(submit(tid, "fpo-game", round, 2, &pgn));
                refused(
                    &mut d,
                    "fair-play officer submits",
                    got,
                    Code::PermissionDenied,
                    &["SubmitGame"],
                )
                .await;
            }
            if !(round == 1 && board == 2) {
                let (res, wc, bc) = wire(result);
                d.c.rd
                    .record_result(rd::RecordResultRequest {
                        header: header(tid, &format!("result-{round}-{board}")),
                        round,
                        board,
                        result: res,
                        white_code: wc,
                        black_code: bc,
                    })
                    .await
                    .unwrap();
            }
        }
        d.close(round).await;
    }

    // The service screens each closed round: wait for the last.
    let deadline = Instant::now() + Duration::from_secs(240);
    let report = loop {
        let r = scr
            .get_screening(scr::GetScreeningRequest {
                tournament: tref(tid),
            })
            .await
            .unwrap()
            .into_inner();
        if r.performances.iter().any(|p| p.through_round == ROUNDS) {
            break r;
        }
        assert!(
            Instant::now() < deadline,
            "no screening of round {ROUNDS}:\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    for round in 1..=ROUNDS {
        let n = report
            .performances
            .iter()
            .filter(|p| p.through_round == round)
            .count();
        assert_eq!(n, 6, "round {round}: one performance per player");
    }
    let last: Vec<_> = report
        .performances
        .iter()
        .filter(|p| p.through_round == ROUNDS)
        .collect();
    assert!(
        last.iter()
            .all(|p| p.games == ROUNDS && p.nodes == NODES && p.tier == "quick"),
        "{last:?}"
    );
    assert!(
        last.iter().all(|p| p.counted > 0 && p.player_id >= 1),
        "{last:?}"
    );
    for p in &last {
        eprintln!(
            "through round {ROUNDS}: {} (player {}) games {} counted {} MM {:.1}% z {:.2} flag {}",
            p.player,
            p.player_id,
            p.games,
            p.counted,
            f64::from(p.mm_rate_ppm) / 1e4,
            f64::from(p.z_combined) / 100.0,
            p.flag
        );
    }
    eprintln!("flags raised: {}", report.flags.len());

    // Confidential: the public, a player, an officer of another event may not read it.
    let got = screening_client(&url, None)
        .get_screening(scr::GetScreeningRequest {
            tournament: tref(tid),
        })
        .await;
    assert_eq!(got.unwrap_err().code(), Code::Unauthenticated);
    for (who, t) in [("player", &player), ("another event's officer", &other_fpo)] {
        let got = screening_client(&url, Some(t))
            .get_screening(scr::GetScreeningRequest {
                tournament: tref(tid),
            })
            .await;
        assert_eq!(got.unwrap_err().code(), Code::PermissionDenied, "{who}");
    }
    let seen = screening_client(&url, Some(&fpo))
        .get_screening(scr::GetScreeningRequest {
            tournament: tref(tid),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(seen, report);

    // The replay: the tournament folded to each RoundClosed, its games, a fresh pool and cache.
    let events = raw_events(&url, tid).await;
    let screener = Screener::start(&engine, NODES, 1, Arc::new(PositionCache::new()))
        .await
        .unwrap();
    let mut state = State::default();
    let mut games: Vec<Submitted> = Vec::new();
    let mut replayed = 0;
    for e in &events {
        let payload = e.payload.clone().unwrap();
        if let Some(ev) = event_from_wire(&payload).unwrap() {
            state.apply(&ev);
        }
        match payload.kind.unwrap() {
            Kind::GameSubmitted(g) => games.push(Submitted {
                round: g.round,
                board: g.board,
                pgn: g.pgn,
            }),
            Kind::RoundClosed(c) => {
                let mut these: Vec<Submitted> = games
                    .iter()
                    .filter(|g| g.round <= c.round)
                    .cloned()
                    .collect();
                these.sort_by_key(|g| (g.round, g.board));
                let again = screener
                    .answer(&state, &these, c.round, Tier::Quick)
                    .await
                    .unwrap();
                let command = arbiter_screening_service::command_id(&e.event_id);
                let stored: Vec<&pb::Envelope> =
                    events.iter().filter(|x| x.command_id == command).collect();
                assert_eq!(stored.len(), again.len(), "round {}: events", c.round);
                for (s, a) in stored.iter().zip(&again) {
                    assert_eq!(
                        s.payload_bytes,
                        a.encode_to_vec(),
                        "round {}: not bit-identical",
                        c.round
                    );
                }
                replayed += again.len();
            }
            _ => {}
        }
    }
    assert_eq!(replayed, events.iter().filter(|e| is_screening(e)).count());
    assert!(replayed >= 18);

    // The public pages and JSON API show none of it.
    let http = server.http.clone().unwrap();
    let mut paths = vec![
        format!("/t/{tid}"),
        format!("/t/{tid}/crosstable"),
        format!("/t/{tid}/pairings"),
        format!("/api/tournaments/{tid}/ranking"),
        format!("/api/tournaments/{tid}/crosstable"),
    ];
    paths.extend(players.keys().flat_map(|pn| {
        [
            format!("/t/{tid}/players/{pn}"),
            format!("/api/tournaments/{tid}/players/{pn}"),
        ]
    }));
    for path in &paths {
        let (status, body) = http_get(&http, path);
        assert_eq!(status, 200, "{path}");
        for word in [
            "creening",
            "z_combined",
            "mm_rate",
            "engine_profile",
            "policy_version",
        ] {
            assert!(!body.contains(word), "{path} shows {word:?}");
        }
    }

    // The public stream of events keeps the screening results' places in the chain, not
    // their content; an officer of the tournament gets them whole.
    let public = raw_events_as(&url, tid, None).await;
    assert_eq!(public.len(), events.len());
    for (p, e) in public.iter().zip(&events) {
        assert_eq!(
            (p.sequence, &p.hash, &p.previous_hash),
            (e.sequence, &e.hash, &e.previous_hash)
        );
        if is_screening(e) {
            assert!(
                p.payload.is_none() && p.payload_bytes.is_empty(),
                "event {} is shown",
                p.sequence
            );
        } else {
            assert_eq!(p.payload_bytes, e.payload_bytes);
        }
    }
    for t in [&player, &other_fpo] {
        let seen = raw_events_as(&url, tid, Some(t)).await;
        assert_eq!(
            seen.iter().filter(|e| e.payload.is_none()).count(),
            replayed
        );
    }
    assert_eq!(raw_events_as(&url, tid, Some(&fpo)).await, events);

    // The deeper test on demand, for a fair-play officer of the tournament.
    let deep = screening_client(&url, Some(&fpo))
        .run_full_test(scr::RunFullTestRequest {
            header: header(tid, "deep-1"),
            round: 0,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(deep.performances.len(), 6);
    assert!(
        deep.performances
            .iter()
            .all(|p| p.tier == "deep" && p.nodes == DEEP_NODES && p.through_round == ROUNDS)
    );
    let before = d.version().await;
    let again = screening_client(&url, Some(&fpo))
        .run_full_test(scr::RunFullTestRequest {
            header: header(tid, "deep-1"),
            round: 0,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (again.performances, again.flags),
        (deep.performances.clone(), deep.flags.clone())
    );
    assert_eq!(
        d.version().await,
        before,
        "the same command id ran the test again"
    );
    let mut as_player = screening_client(&url, Some(&player));
    let got = as_player.run_full_test(scr::RunFullTestRequest {
        header: header(tid, "deep-2"),
        round: 0,
    });
    refused(
        &mut d,
        "a player asks for the deep test",
        got,
        Code::PermissionDenied,
        &["RunFullTest"],
    )
    .await;

    // A restart answers nothing twice (the sweep finds every round answered).
    let before = raw_events(&url, tid).await.len();
    let (status, took) = server.terminate();
    assert!(
        status.success() && took < Duration::from_secs(10),
        "{status:?} after {took:?}"
    );
    server.restart();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = raw_events(&server.grpc, tid).await.len();
    assert_eq!(
        after,
        before,
        "events appended again after a restart:\n{}",
        server.log()
    );
}

/// Bad games for round 1, board 2 (`w` against `b`, game `pgn`): each refused naming what and
/// where, nothing appended.
async fn bad_games(
    d: &mut Driver,
    scr: &mut ScreeningClient<arbiter_auth::client::WithToken<Channel>>,
    tid: &str,
    pgn: &str,
    players: &BTreeMap<u32, (String, u16)>,
    (w, b): (u32, u32),
) {
    let (white, black) = (&players[&w].0, &players[&b].0);
    let head = format!(
        "[Event \"E2E\"]\n[Round \"1\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"*\"]\n\n"
    );
    let illegal = format!("{head}1. e4 e5 2. Qh8 *\n");
    let got = scr.submit_game(submit(tid, "illegal", 1, 2, &illegal));
    refused(
        d,
        "illegal move",
        got,
        Code::InvalidArgument,
        &["round 1, board 2", "ply 3", "Qh8", "not legal"],
    )
    .await;

    let cut = &pgn[..pgn.len() * 2 / 3];
    let cut = &cut[..cut.rfind(' ').unwrap()];
    let got = scr.submit_game(submit(tid, "truncated", 1, 2, cut));
    refused(
        d,
        "truncated PGN",
        got,
        Code::InvalidArgument,
        &["round 1, board 2", "truncated"],
    )
    .await;

    let got = scr.submit_game(submit(tid, "unpaired", 1, 9, pgn));
    refused(
        d,
        "board not paired",
        got,
        Code::NotFound,
        &["round 1 has no board 9"],
    )
    .await;
    let got = scr.submit_game(submit(tid, "unstarted", 3, 1, pgn));
    refused(
        d,
        "round not started",
        got,
        Code::FailedPrecondition,
        &["round 3"],
    )
    .await;

    let swapped = pgn
        .replace(&format!("[White \"{white}\""), "[White \"@@\"")
        .replace(
            &format!("[Black \"{black}\""),
            &format!("[Black \"{white}\""),
        )
        .replace("[White \"@@\"", &format!("[White \"{black}\""));
    let got = scr.submit_game(submit(tid, "swapped", 1, 2, &swapped));
    refused(
        d,
        "colours swapped",
        got,
        Code::InvalidArgument,
        &["round 1, board 2", "does not match", white.as_str()],
    )
    .await;

    // 10 MB: a game padded with a comment.
    let mut big = String::from(&head);
    big.push_str("1. e4 {");
    big.push_str(&"x".repeat(10 * 1024 * 1024));
    big.push_str("} *\n");
    let got = scr.submit_game(submit(tid, "big", 1, 2, &big));
    refused(
        d,
        "10 MB PGN",
        got,
        Code::InvalidArgument,
        &["round 1, board 2", "larger than", "limit"],
    )
    .await;

    let two = format!("{pgn}\n{pgn}");
    let got = scr.submit_game(submit(tid, "two", 1, 2, &two));
    refused(
        d,
        "two games",
        got,
        Code::InvalidArgument,
        &["round 1, board 2", "2 games"],
    )
    .await;
}

/// `serve --only screening` over NATS JetStream beside the other services' processes: the
/// game goes to the screening process, the round is closed at the round director's, and the
/// screening process answers the close from the shared log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_only_screening_over_nats_screens_a_closed_round() {
    let engine = engine();
    let nats = arbiter_eventlog::testing::NatsServer::start()
        .await
        .expect("nats-server (apt-get install nats-server)");
    let url = nats.url();
    let work = TempDir::new("arbiter-screening-nats").unwrap();
    let data = work.path().join("data");
    let service = |name: &str| {
        Server::start(
            &[
                "--only",
                name,
                "--nats",
                &url,
                "--data",
                data.to_str().unwrap(),
                "--stockfish",
                engine.to_str().unwrap(),
                "--screening-nodes",
                &NODES.to_string(),
            ],
            &work.path().join(format!("{name}.log")),
        )
    };
    let registration = service("registration");
    let director = service("round-director");
    let _pairing = service("pairing-worker");
    let reporting = service("reporting");
    let screening = service("screening");
    let endpoints = Endpoints {
        registration: registration.grpc.clone(),
        director: director.grpc.clone(),
        reporting: reporting.grpc.clone(),
    };
    let tid = "screen-nats";
    let plan = Plan {
        players: 4,
        rounds: 1,
        seed: 5,
        early_byes: vec![],
        late_byes: vec![],
        withdrawals: vec![],
        forfeit_permille: 0,
    };
    let mut d = Driver::new(Clients::new(&endpoints), tid, plan, work.path());
    d.create().await;
    d.register_all().await;
    let names: BTreeMap<u32, (String, u16)> =
        d.c.reg
            .list_players(reg::ListPlayersRequest {
                tournament: tref(tid),
            })
            .await
            .unwrap()
            .into_inner()
            .players
            .into_iter()
            .filter_map(|p| p.player)
            .map(|p| (p.player_id, (p.name, p.rating as u16)))
            .collect();
    d.start_round(1).await;
    let proposal = d.wait_proposal(1, Duration::from_secs(60)).await;
    d.publish(1).await;
    let mut scr = screening_client(&screening.grpc, Some(&token::auth().admin));
    for (i, &(w, b)) in pairing_of(&proposal).0.iter().enumerate() {
        let board = i as u32 + 1;
        let spec = |pn: u32| PlayerSpec {
            name: names[&pn].0.clone(),
            rating: names[&pn].1,
            strength: Strength::Sampled(u32::from(names[&pn].1)),
            nodes: 1_000,
        };
        let pgn = play(&engine, &spec(w), &spec(b), u64::from(board), "NATS", 1, 80)
            .await
            .unwrap();
        let game = submit(tid, &format!("game-{board}"), 1, board, &pgn);
        retry("submit", || {
            let mut scr = scr.clone();
            let game = game.clone();
            async move { scr.submit_game(game).await }
        })
        .await
        .unwrap();
        let (res, wc, bc) = wire(result_of(&pgn));
        d.c.rd
            .record_result(rd::RecordResultRequest {
                header: header(tid, &format!("result-{board}")),
                round: 1,
                board,
                result: res,
                white_code: wc,
                black_code: bc,
            })
            .await
            .unwrap();
    }
    d.close(1).await;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let r = scr
            .get_screening(scr::GetScreeningRequest {
                tournament: tref(tid),
            })
            .await
            .unwrap()
            .into_inner();
        if !r.performances.is_empty() {
            assert_eq!(r.performances.len(), 4);
            assert!(
                r.performances
                    .iter()
                    .all(|p| p.through_round == 1 && p.games == 1 && p.nodes == NODES)
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no screening:\n{}",
            screening.log()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

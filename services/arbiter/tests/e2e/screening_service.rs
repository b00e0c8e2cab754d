//! The screening service inside `arbiter serve`, over gRPC on loopback: a 6-player, 3-round
//! tournament whose games are generated (Stockfish self-play at a small node budget, one
//! full-strength player among weakened ones) and submitted board by board; the service screens
//! each closed round; a re-run of the screening from the finished tournament's log, with a
//! fresh engine pool and cache, gives the same bytes as the events in the log. Bad games are
//! refused with a status naming what and where, and append nothing. Screening results are
//! confidential: their read needs an arbiter or fair-play role, and the public pages and JSON
//! API show none of them.

use crate::support::*;
use arbiter_auth::Role;
use arbiter_core::tournament::{BoardResult, State};
use arbiter_proto::convert::event_from_wire;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::round_director::v1 as rd;
use arbiter_proto::screening::v1 as scr;
use arbiter_proto::screening::v1::screening_client::ScreeningClient;
use arbiter_screening::cache::PositionCache;
use arbiter_screening::selfplay::{PlayerSpec, Strength, play};
use arbiter_screening_service::{Screener, Submitted, Tier};
use prost::Message;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tonic::Code;
use tonic::transport::Channel;
use tonic_types::StatusExt;

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
    collect_log(rep.stream_events(whole_log(tid, true)).await)
        .await
        .unwrap()
}

fn is_screening(e: &pb::Envelope) -> bool {
    matches!(
        e.payload.as_ref().and_then(|p| p.kind.as_ref()),
        Some(Kind::PlayerScreeningComputed(_) | Kind::ScreeningFlagRaised(_))
    )
}

/// A screening result or a record of its reading: what StreamEvents redacts for the public.
fn is_confidential(e: &pb::Envelope) -> bool {
    is_screening(e)
        || matches!(
            e.payload.as_ref().and_then(|p| p.kind.as_ref()),
            Some(Kind::ConfidentialDataAccessed(_))
        )
}

/// The records of reads of screening data among `events`.
fn reads(events: &[pb::Envelope]) -> Vec<(u64, String, pb::ConfidentialDataAccessed)> {
    events
        .iter()
        .filter_map(|e| match e.payload.as_ref()?.kind.as_ref()? {
            Kind::ConfidentialDataAccessed(a) => Some((e.version, e.actor.clone(), a.clone())),
            _ => None,
        })
        .collect()
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
            "--screening-full-nodes",
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
            .filter_map(|r| {
                Some((
                    r.pairing_number,
                    r.player.map(|p| (p.name, p.rating as u16))?,
                ))
            })
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
                reason: String::new(),
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

    // Confidential: the public, a player, an officer of another event may not read it (and
    // a refused read records nothing).
    let before = d.version().await;
    let got = screening_client(&url, None)
        .get_screening(scr::GetScreeningRequest {
            tournament: tref(tid),
            reason: String::new(),
        })
        .await;
    assert_eq!(got.unwrap_err().code(), Code::Unauthenticated);
    for (who, t) in [("player", &player), ("another event's officer", &other_fpo)] {
        let got = screening_client(&url, Some(t))
            .get_screening(scr::GetScreeningRequest {
                tournament: tref(tid),
                reason: "curious".into(),
            })
            .await;
        assert_eq!(got.unwrap_err().code(), Code::PermissionDenied, "{who}");
    }
    assert_eq!(d.version().await, before, "a refused read was recorded");
    let mut as_fpo = screening_client(&url, Some(&fpo));
    let got = as_fpo.get_screening(scr::GetScreeningRequest {
        tournament: tref(tid),
        reason: "two\nlines".into(),
    });
    refused(
        &mut d,
        "a reason of two lines",
        got,
        Code::InvalidArgument,
        &["reason"],
    )
    .await;
    let seen = screening_client(&url, Some(&fpo))
        .get_screening(scr::GetScreeningRequest {
            tournament: tref(tid),
            reason: "complaint 7 by the opponent of player 1".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(seen, report);
    // Every answered read is in the log (ConfidentialDataAccessed): each of the admin's polls
    // above, then the officer's, with who, role, what and why.
    let all = raw_events(&url, tid).await;
    let recorded = reads(&all);
    let (version, actor, last) = recorded.last().cloned().expect("reads recorded");
    assert_eq!(version, before + 1);
    assert_eq!(
        (actor.as_str(), last.who.as_str(), last.role.as_str()),
        ("fpo", "fpo", "fair-play-officer")
    );
    assert_eq!(last.why, "complaint 7 by the opponent of player 1");
    assert_eq!(last.as_of_version, report.version);
    assert!(
        last.what.starts_with("GetScreening as of version")
            && last
                .what
                .contains(&format!("{} performances", report.performances.len())),
        "{last:?}"
    );
    assert!(
        recorded.len() >= 2
            && recorded[..recorded.len() - 1]
                .iter()
                .all(|(_, who, a)| who == token::SUBJECT && a.role == "admin" && a.why.is_empty()),
        "{recorded:?}"
    );

    // The replay: the tournament folded to each RoundClosed, its games, a fresh pool and cache.
    let events = raw_events(&url, tid).await;
    let screener = Screener::start(
        &engine,
        Tier::Quick,
        NODES,
        1,
        Arc::new(PositionCache::new()),
    )
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
                    .answer(&state, &these, c.round, None)
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
            (p.version, &p.hash, &p.previous_hash),
            (e.version, &e.hash, &e.previous_hash)
        );
        if is_confidential(e) {
            assert!(
                p.payload.is_none() && p.payload_bytes.is_empty(),
                "event {} is shown",
                p.version
            );
        } else {
            assert_eq!(p.payload_bytes, e.payload_bytes);
        }
    }
    for t in [&player, &other_fpo] {
        let seen = raw_events_as(&url, tid, Some(t)).await;
        assert_eq!(
            seen.iter().filter(|e| e.payload.is_none()).count(),
            replayed + reads(&events).len()
        );
    }
    assert_eq!(raw_events_as(&url, tid, Some(&fpo)).await, events);

    // The full test on demand, for a fair-play officer of the tournament.
    let deep = screening_client(&url, Some(&fpo))
        .run_full_test(scr::RunFullTestRequest {
            header: header(tid, "deep-1"),
            round: 0,
            reason: "deeper look at player 1".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(deep.performances.len(), 6);
    let (_, _, read) = reads(&raw_events(&url, tid).await).pop().unwrap();
    assert_eq!(
        (read.who.as_str(), read.why.as_str()),
        ("fpo", "deeper look at player 1")
    );
    assert!(
        read.what
            .starts_with(&format!("RunFullTest through round {ROUNDS} (tier full)")),
        "{read:?}"
    );
    assert!(deep.performances.iter().all(|p| p.tier == "full"
        && p.nodes == DEEP_NODES
        && p.through_round == ROUNDS
        && p.ipr > 0
        && p.ipr_low <= p.ipr
        && p.ipr <= p.ipr_high
        && p.z_strength.is_some()
        && p.z_assistance.is_some()));
    let before = d.version().await;
    let again = screening_client(&url, Some(&fpo))
        .run_full_test(scr::RunFullTestRequest {
            header: header(tid, "deep-1"),
            round: 0,
            reason: String::new(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (again.performances, again.flags),
        (deep.performances.clone(), deep.flags.clone())
    );
    // Not run again: the only event appended is the record of this read.
    let since: Vec<_> = raw_events(&url, tid)
        .await
        .into_iter()
        .filter(|e| e.version > before)
        .collect();
    assert_eq!(since.len(), 1, "the same command id ran the test again");
    assert!(
        reads(&since)[0]
            .2
            .what
            .contains("answered again from the log"),
        "{since:?}"
    );
    let mut as_player = screening_client(&url, Some(&player));
    let got = as_player.run_full_test(scr::RunFullTestRequest {
        header: header(tid, "deep-2"),
        round: 0,
        reason: String::new(),
        ..Default::default()
    });
    refused(
        &mut d,
        "a player asks for the full test",
        got,
        Code::PermissionDenied,
        &["RunFullTest"],
    )
    .await;

    // A restart answers nothing twice (the sweep finds every round answered). The round
    // director's signed heads are left out of the count: stopping signs what it had not.
    let not_heads = |events: Vec<pb::Envelope>| {
        events
            .iter()
            .filter(|e| e.actor != arbiter_round_director::SERVICE)
            .count()
    };
    let before = not_heads(raw_events(&url, tid).await);
    let (status, took) = server.terminate();
    assert!(
        status.success() && took < Duration::from_secs(10),
        "{status:?} after {took:?}"
    );
    // The positions analysed so far were kept in the data folder, one file per engine build,
    // and the restarted service starts with them.
    let cached: Vec<PathBuf> = std::fs::read_dir(data.join("screening-cache"))
        .expect("the screening cache folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
    let name = cached[0].file_name().unwrap().to_string_lossy().to_string();
    assert!(
        name.starts_with("positions-") && name.ends_with(".jsonl"),
        "{name}"
    );
    let kept = std::fs::read_to_string(&cached[0]).unwrap().lines().count();
    assert!(kept > 100, "{kept} positions kept");
    server.restart();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = not_heads(raw_events(&server.grpc, tid).await);
    assert_eq!(
        after,
        before,
        "events appended again after a restart:\n{}",
        server.log()
    );
    let log = server.log();
    assert!(
        log.lines()
            .any(|l| l.contains("screening cache loaded")
                && l.contains(&format!("positions={kept}"))),
        "the restarted service did not load the {kept} kept positions:\n{log}"
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
            .filter_map(|r| {
                Some((
                    r.pairing_number,
                    r.player.map(|p| (p.name, p.rating as u16))?,
                ))
            })
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
                reason: String::new(),
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

/// Short legal games with their results, one per board in board order.
const SHORT_GAMES: [(&str, BoardResult); 3] = [
    (
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0",
        BoardResult::WhiteWins,
    ),
    ("1. f3 e5 2. g4 Qh4# 0-1", BoardResult::BlackWins),
    ("1. d4 d5 2. c4 e6 3. Nc3 Nf6 1/2-1/2", BoardResult::Draw),
];

fn short_game(round: u32, white: &str, black: &str, moves: &str) -> String {
    let result = moves.rsplit(' ').next().unwrap();
    format!(
        "[Event \"Bulk\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
         [Result \"{result}\"]\n\n{moves}\n"
    )
}

fn games_request(tid: &str, cmd: &str, round: u32, pgn: &str) -> scr::SubmitGamesRequest {
    scr::SubmitGamesRequest {
        header: header(tid, cmd),
        round,
        pgn: pgn.into(),
    }
}

async fn record(d: &mut Driver, tid: &str, round: u32, board: u32, result: BoardResult) {
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
        .unwrap_or_else(|s| panic!("round {round} board {board}: {s:?}"));
}

/// `SubmitGames` over gRPC and `arbiter client submit-games`: a round's PGN file, each game
/// matched to its board by the players' registered names; every bad file refused whole with a
/// status naming the game (place in the file, White - Black) and why, the stream unchanged;
/// the same command id again answers the first outcome, the same file under another id is
/// ALREADY_EXISTS. Games are accepted after the tournament is finished (same checks), and a
/// correction contradicting a submitted game is refused naming board and both results.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rounds_pgn_file_is_submitted_whole_or_not_at_all() {
    let engine = engine();
    let work = TempDir::new("arbiter-screening-bulk").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &[
            "--data",
            data.to_str().unwrap(),
            "--stockfish",
            engine.to_str().unwrap(),
            "--screening-nodes",
            &NODES.to_string(),
        ],
        &work.path().join("server.log"),
    );
    let url = server.grpc.clone();
    let tid = "screen-bulk";
    let plan = Plan {
        players: 6,
        rounds: 2,
        seed: 21,
        early_byes: vec![],
        late_byes: vec![],
        withdrawals: vec![],
        forfeit_permille: 0,
    };
    let mut d = Driver::new(Clients::new(&Endpoints::one(&url)), tid, plan, work.path());
    d.create().await;
    d.register_all().await;
    let names: BTreeMap<u32, String> =
        d.c.reg
            .list_players(reg::ListPlayersRequest {
                tournament: tref(tid),
            })
            .await
            .unwrap()
            .into_inner()
            .players
            .into_iter()
            .filter_map(|r| Some((r.pairing_number, r.player?.name)))
            .collect();
    let mut scr = screening_client(&url, Some(&token::auth().admin));

    d.start_round(1).await;
    let proposal = d.wait_proposal(1, Duration::from_secs(60)).await;
    d.publish(1).await;
    let boards = pairing_of(&proposal).0;
    assert_eq!(boards.len(), 3);
    let player = |pn: u32| names[&pn].as_str();
    // Board k's game, White and Black as paired.
    let game = |round: u32, k: usize| {
        let (w, b) = boards[k];
        short_game(round, player(w), player(b), SHORT_GAMES[k].0)
    };
    // Board 1's result first: a game saying otherwise is refused.
    record(&mut d, tid, 1, 1, SHORT_GAMES[0].1).await;
    let (w1, b1) = boards[0];
    let (w2, b2) = boards[1];

    let illegal = game(1, 0).replace("4. Qxf7#", "4. Qh8");
    let file = format!("{}\n{illegal}\n{}", game(1, 2), game(1, 1));
    let got = scr.submit_games(games_request(tid, "bad-1", 1, &file));
    let label = format!("game 2 ({} - {}, round 1)", player(w1), player(b1));
    refused(
        &mut d,
        "an illegal move in game 2",
        got,
        Code::InvalidArgument,
        &[
            "round 1, PGN file",
            label.as_str(),
            "ply 7",
            "Qh8",
            "not legal",
        ],
    )
    .await;

    let swapped = short_game(1, player(b2), player(w2), SHORT_GAMES[1].0);
    let file = format!("{}\n{}\n{swapped}", game(1, 0), game(1, 2));
    let got = scr.submit_games(games_request(tid, "bad-2", 1, &file));
    let label = format!("game 3 of the file ({} - {})", player(b2), player(w2));
    refused(
        &mut d,
        "colours swapped in game 3",
        got,
        Code::InvalidArgument,
        &[
            label.as_str(),
            "no board of round 1",
            "board 2 has them with the other colours",
        ],
    )
    .await;

    let contradicting = short_game(1, player(w1), player(b1), SHORT_GAMES[2].0);
    let file = format!("{contradicting}\n{}", game(1, 1));
    let got = scr.submit_games(games_request(tid, "bad-3", 1, &file));
    refused(
        &mut d,
        "game 1 against the recorded result",
        got,
        Code::InvalidArgument,
        &[
            "game 1 of the file",
            "round 1, board 1",
            "the recorded result is 1-0",
        ],
    )
    .await;

    let file = format!("{}\n{}", game(1, 1), game(1, 1));
    let got = scr.submit_games(games_request(tid, "bad-4", 1, &file));
    refused(
        &mut d,
        "one board twice",
        got,
        Code::InvalidArgument,
        &[
            "game 2 of the file",
            "round 1, board 2",
            "game 1 of the file is already",
        ],
    )
    .await;

    let padded = game(1, 1).replace("1. f3", &format!("{{{}}} 1. f3", "x".repeat(1024 * 1024)));
    let file = format!("{}\n{padded}", game(1, 0));
    let got = scr.submit_games(games_request(tid, "bad-5", 1, &file));
    refused(
        &mut d,
        "a game above 1 MiB",
        got,
        Code::InvalidArgument,
        &["game 2 (", "1048576-byte limit for one game"],
    )
    .await;

    let huge = format!("{}\n{{{}}}\n", game(1, 0), "x".repeat(9 * 1024 * 1024));
    let got = scr.submit_games(games_request(tid, "bad-6", 1, &huge));
    refused(
        &mut d,
        "a 9 MiB file",
        got,
        Code::InvalidArgument,
        &["round 1", "8388608-byte limit", "MAX_ROUND_PGN_BYTES"],
    )
    .await;

    let got = scr.submit_games(games_request(tid, "bad-7", 2, &game(2, 0)));
    refused(
        &mut d,
        "a round not started",
        got,
        Code::FailedPrecondition,
        &["round 2"],
    )
    .await;
    let got = scr.submit_games(games_request(tid, "bad-8", 1, "  \n"));
    refused(
        &mut d,
        "an empty file",
        got,
        Code::InvalidArgument,
        &["pgn", "empty"],
    )
    .await;
    let fpo = token::issue(
        &token::auth().keys,
        "fpo",
        Role::FairPlayOfficer,
        &[tid],
        None,
        3600,
    );
    let mut as_fpo = screening_client(&url, Some(&fpo));
    let got = as_fpo.submit_games(games_request(tid, "bad-9", 1, &game(1, 0)));
    refused(
        &mut d,
        "a fair-play officer submits",
        got,
        Code::PermissionDenied,
        &["SubmitGames"],
    )
    .await;

    // The file in another order than the boards: each game to its board, in file order.
    let file = format!("{}\n{}\n\n{}", game(1, 2), game(1, 0), game(1, 1));
    let before = d.version().await;
    let first = scr
        .submit_games(games_request(tid, "bulk-1", 1, &file))
        .await
        .unwrap()
        .into_inner();
    let outcome = first.result.clone().unwrap();
    assert!(!outcome.replayed);
    assert_eq!(
        (outcome.first_version, outcome.last_version),
        (before + 1, before + 3)
    );
    let got: Vec<(u32, u32, &str, &str)> = first
        .games
        .iter()
        .map(|g| (g.index, g.board, g.white.as_str(), g.black.as_str()))
        .collect();
    let (w3, b3) = boards[2];
    assert_eq!(
        got,
        [
            (1, 3, player(w3), player(b3)),
            (2, 1, player(w1), player(b1)),
            (3, 2, player(w2), player(b2)),
        ]
    );
    let stored: Vec<(u32, u32, String)> = d
        .events()
        .await
        .into_iter()
        .filter(|e| e.version > before)
        .filter_map(|e| match e.payload?.kind? {
            Kind::GameSubmitted(g) => Some((g.round, g.board, g.pgn)),
            _ => None,
        })
        .collect();
    assert_eq!(
        stored,
        [(1, 3, game(1, 2)), (1, 1, game(1, 0)), (1, 2, game(1, 1))]
    );

    // The same command id: the first outcome, nothing appended.
    let before = d.version().await;
    let again = scr
        .submit_games(games_request(tid, "bulk-1", 1, &file))
        .await
        .unwrap()
        .into_inner();
    assert!(again.result.as_ref().unwrap().replayed);
    assert_eq!(again.games, first.games);
    assert_eq!(d.version().await, before);
    // The same file under another command id: the games are there already.
    let got = scr.submit_games(games_request(tid, "bulk-2", 1, &file));
    let label = format!("game 1 of the file ({} - {})", player(w3), player(b3));
    refused(
        &mut d,
        "the same file again",
        got,
        Code::AlreadyExists,
        &[label.as_str(), "round 1, board 3", "already submitted"],
    )
    .await;

    // A recorded result may not contradict the game submitted (round 1, board 2: 0-1).
    let (res, wc, bc) = wire(BoardResult::WhiteWins);
    let mut director = d.c.rd.clone();
    let got = director.record_result(rd::RecordResultRequest {
        header: header(tid, "contradicting-result"),
        round: 1,
        board: 2,
        result: res,
        white_code: wc,
        black_code: bc,
    });
    refused(
        &mut d,
        "a result against the game",
        got,
        Code::FailedPrecondition,
        &["round 1, board 2", "the result 1-0", "ends \"0-1\""],
    )
    .await;
    for (k, (_, result)) in SHORT_GAMES.iter().enumerate().skip(1) {
        record(&mut d, tid, 1, k as u32 + 1, *result).await;
    }
    d.close(1).await;

    // Round 2 played without games; the tournament finished; the file comes afterwards.
    d.start_round(2).await;
    let proposal = d.wait_proposal(2, Duration::from_secs(60)).await;
    d.publish(2).await;
    let boards2 = pairing_of(&proposal).0;
    for (k, (_, result)) in SHORT_GAMES.iter().enumerate() {
        record(&mut d, tid, 2, k as u32 + 1, *result).await;
    }
    d.close(2).await;
    d.finish().await;
    // The worker screens each closed round (round 1's games) in the background: wait for its
    // answer to round 2's close, so that the stream versions compared below are ours alone.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !scr
        .get_screening(scr::GetScreeningRequest {
            tournament: tref(tid),
            reason: String::new(),
        })
        .await
        .unwrap()
        .into_inner()
        .performances
        .iter()
        .any(|p| p.through_round == 2)
    {
        assert!(Instant::now() < deadline, "no screening of round 2");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let file2: String = boards2
        .iter()
        .enumerate()
        .map(|(k, &(w, b))| short_game(2, player(w), player(b), SHORT_GAMES[k].0) + "\n")
        .collect();
    let cli = |args: &[&str]| {
        let mut all = vec!["client", "--server", url.as_str()];
        all.extend_from_slice(args);
        run(&all)
    };
    // A bad game: exit 3 (invalid input, as the server's INVALID_ARGUMENT), the game named,
    // nothing appended.
    let bad_path = work.path().join("round2-bad.pgn");
    std::fs::write(&bad_path, file2.replace("2. g4 Qh4#", "2. g4 Qh5#")).unwrap();
    let before = d.version().await;
    let r = cli(&["submit-games", tid, "2", bad_path.to_str().unwrap()]);
    assert_eq!(r.code, 3, "{}\n{}", r.stdout, r.stderr);
    let label = format!(
        "game 2 ({} - {}, round 2)",
        player(boards2[1].0),
        player(boards2[1].1)
    );
    assert!(
        r.stderr.contains(&label) && r.stderr.contains("Qh5"),
        "{}",
        r.stderr
    );
    assert_eq!(d.version().await, before);
    let path = work.path().join("round2.pgn");
    std::fs::write(&path, &file2).unwrap();
    let r = cli(&[
        "submit-games",
        tid,
        "2",
        path.to_str().unwrap(),
        "--command-id",
        "cli-bulk",
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("3 games submitted"), "{}", r.stdout);
    for (k, &(w, b)) in boards2.iter().enumerate() {
        let line = format!(
            "game {} ({} - {}): round 2, board {}",
            k + 1,
            player(w),
            player(b),
            k + 1
        );
        assert!(r.stdout.contains(&line), "{line} in {}", r.stdout);
    }
    assert_eq!(d.version().await, before + 3);
    // The correction of a finished tournament (for rating, C.04.2.D.8) may not contradict the
    // game either; an arbiter's decision may.
    let correct = |cmd: &str, result: BoardResult| {
        let (res, wc, bc) = wire(result);
        rd::CorrectResultRequest {
            header: header(tid, cmd),
            round: 2,
            board: 1,
            corrected: res,
            white_code: wc,
            black_code: bc,
            reason: "scoresheet".into(),
        }
    };
    let got = director.correct_result(correct("correct-1", BoardResult::Draw));
    refused(
        &mut d,
        "a correction against the game",
        got,
        Code::FailedPrecondition,
        &[
            "round 2, board 1",
            "contradicts the submitted game",
            "ends \"1-0\"",
        ],
    )
    .await;
    let decision = BoardResult::ArbiterDecision {
        white: arbiter_core::ResultCode::Loss,
        black: arbiter_core::ResultCode::Win,
    };
    d.c.rd
        .correct_result(correct("correct-2", decision))
        .await
        .unwrap();
}

/// A flag raised end to end: a double round robin of six (ten rounds, each player meets each
/// other twice), one player rated 1500 playing the engine's own moves at the screening's node
/// budget, the others (rated 2600-2700) a reproducible weakening for their ratings. Each
/// round's games go in as one file; the service screens each closed round. Once the
/// full-strength player's performance has the policy's 60 counted decisions and meets the
/// Watch rule, a `ScreeningFlagRaised` names him with the versions of his performance; no
/// honest player is flagged; the public sees none of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_strength_player_is_flagged_and_nobody_else() {
    const FLAG_ROUNDS: u32 = 10;
    let engine = engine();
    let work = TempDir::new("arbiter-screening-flag").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &[
            "--data",
            data.to_str().unwrap(),
            "--stockfish",
            engine.to_str().unwrap(),
            "--screening-nodes",
            &NODES.to_string(),
            "--screening-full-nodes",
            &DEEP_NODES.to_string(),
        ],
        &work.path().join("server.log"),
    );
    let url = server.grpc.clone();
    let tid = "screen-flag";
    let plan = Plan {
        players: 6,
        rounds: FLAG_ROUNDS,
        seed: 34,
        early_byes: vec![],
        late_byes: vec![],
        withdrawals: vec![],
        forfeit_permille: 0,
    };
    let mut d = Driver::new(Clients::new(&Endpoints::one(&url)), tid, plan, work.path())
        .with_system(pb::PairingSystem::DoubleRoundRobin, "berger-double");
    d.create().await;
    // Strong honest players (their weakening keeps the games close, so the full-strength
    // player's moves are decisions the filter counts) and a low-rated one playing the engine.
    for (i, (name, rating)) in [
        ("Honest, Anna", 2700u32),
        ("Honest, Bernt", 2675),
        ("Engine, Eve", 1500),
        ("Honest, Carl", 2650),
        ("Honest, Dina", 2625),
        ("Honest, Emil", 2600),
    ]
    .into_iter()
    .enumerate()
    {
        d.c.reg
            .register_player(reg::RegisterPlayerRequest {
                confirm_same_name: false,
                header: header(tid, &format!("register-{i}")),
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: name.into(),
                    rating,
                    federation: "NOR".into(),
                    ..Default::default()
                }),
            })
            .await
            .unwrap();
    }
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
            .filter_map(|r| {
                Some((
                    r.pairing_number,
                    r.player.map(|p| (p.name, p.rating as u16))?,
                ))
            })
            .collect();
    let cheat = *players
        .iter()
        .find(|(_, (name, _))| name == "Engine, Eve")
        .unwrap()
        .0;
    let spec = |pn: u32| {
        let (name, rating) = players[&pn].clone();
        PlayerSpec {
            name,
            rating,
            strength: if pn == cheat {
                Strength::Full
            } else {
                Strength::Sampled(u32::from(rating))
            },
            nodes: if pn == cheat { NODES } else { 1_000 },
        }
    };
    let mut scr = screening_client(&url, Some(&token::auth().admin));
    // The full test of the watched players needs a quick screening to say who they are.
    let mut early_client = scr.clone();
    let early = early_client.run_full_test(scr::RunFullTestRequest {
        header: header(tid, "full-watched-early"),
        watched: true,
        ..Default::default()
    });
    refused(
        &mut d,
        "the watched players' full test before any round is screened",
        early,
        Code::FailedPrecondition,
        &["watched", "no quick screening through round 0"],
    )
    .await;
    let started = Instant::now();
    for round in 1..=FLAG_ROUNDS {
        d.start_round(round).await;
        let proposal = d.wait_proposal(round, Duration::from_secs(60)).await;
        d.publish(round).await;
        let boards = pairing_of(&proposal).0;
        let games = futures::future::join_all(boards.iter().enumerate().map(|(i, &(w, b))| {
            let (engine, white, black) = (engine.clone(), spec(w), spec(b));
            async move {
                play(
                    &engine,
                    &white,
                    &black,
                    u64::from(round * 10 + i as u32),
                    "Flag",
                    round,
                    160,
                )
                .await
                .unwrap()
            }
        }))
        .await;
        scr.submit_games(games_request(
            tid,
            &format!("games-{round}"),
            round,
            &games.join("\n"),
        ))
        .await
        .unwrap_or_else(|s| panic!("round {round}: {s:?}"));
        for (i, g) in games.iter().enumerate() {
            record(&mut d, tid, round, i as u32 + 1, result_of(g)).await;
        }
        d.close(round).await;
    }
    let deadline = Instant::now() + Duration::from_secs(240);
    let report = loop {
        let r = scr
            .get_screening(scr::GetScreeningRequest {
                tournament: tref(tid),
                reason: "flag test".into(),
            })
            .await
            .unwrap()
            .into_inner();
        if r.performances
            .iter()
            .any(|p| p.through_round == FLAG_ROUNDS)
        {
            break r;
        }
        assert!(
            Instant::now() < deadline,
            "no screening of round {FLAG_ROUNDS}:\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    for p in &report.performances {
        eprintln!(
            "through round {}: {} (player {}, {}) games {} counted {} MM {:.1}% (expected \
             {:.1}%) z_mm {} z_t3 {} z_ev {} z_asd {} flag {}",
            p.through_round,
            p.player,
            p.player_id,
            p.rating,
            p.games,
            p.counted,
            f64::from(p.mm_rate_ppm) / 1e4,
            f64::from(p.expected_mm_rate_ppm) / 1e4,
            p.z_mm,
            p.z_t3,
            p.z_ev,
            p.z_asd,
            p.flag
        );
    }
    eprintln!("played and screened in {:?}", started.elapsed());
    let cheat_name = players[&cheat].0.as_str();
    // Only the full-strength player, and only once his performance counts.
    assert!(
        report.flags.iter().all(|f| f.player_id == cheat),
        "{:?}",
        report.flags
    );
    let last = report
        .flags
        .iter()
        .find(|f| f.through_round == FLAG_ROUNDS)
        .unwrap_or_else(|| panic!("no flag through round {FLAG_ROUNDS}: {report:#?}"));
    for f in &report.flags {
        let perf = report
            .performances
            .iter()
            .find(|p| p.player_id == f.player_id && p.through_round == f.through_round)
            .unwrap();
        assert_eq!(
            (
                f.player.as_str(),
                f.tier.as_str(),
                f.level.as_str(),
                f.counted,
                f.z_combined
            ),
            (cheat_name, "quick", "watch", perf.counted, perf.z_combined)
        );
        assert!(f.counted >= 60, "{f:?}");
        assert_eq!(perf.flag, "watch");
        assert!(perf.z_combined >= 200, "{perf:?}");
        assert_eq!(
            (&f.engine_profile_id, &f.baseline_version, &f.policy_version),
            (
                &perf.engine_profile_id,
                &perf.baseline_version,
                &perf.policy_version
            )
        );
        assert_eq!(f.policy_version, "levels-2026");
        assert!(!f.engine_profile_id.is_empty() && !f.baseline_version.is_empty());
    }
    // Below 60 counted decisions a performance is never flagged, whatever its rates: the
    // full-strength player's earlier performances meet the Watch rule's rates without it.
    for p in &report.performances {
        if p.counted < 60 {
            assert_eq!(p.flag, "none", "{p:?}");
        }
    }
    assert!(
        report
            .performances
            .iter()
            .any(|p| p.player_id == cheat && p.counted < 60 && p.z_combined >= 200),
        "no performance of {cheat_name} at Watch's z under 60 counted decisions"
    );
    assert_eq!(last.player_id, cheat);

    // The policy's order: the full test for the players the quick test raised to Watch, on
    // their games only, at the whole field's size.
    let full = scr
        .run_full_test(scr::RunFullTestRequest {
            header: header(tid, "full-watched"),
            round: FLAG_ROUNDS,
            reason: "the quick test's Watch".into(),
            watched: true,
            players: vec![],
        })
        .await
        .unwrap()
        .into_inner();
    let judged: Vec<(u32, &str, u32, u32, u32)> = full
        .performances
        .iter()
        .map(|p| {
            (
                p.player_id,
                p.tier.as_str(),
                p.games,
                p.field_size,
                p.through_round,
            )
        })
        .collect();
    assert_eq!(judged, [(cheat, "full", FLAG_ROUNDS, 6, FLAG_ROUNDS)]);
    assert!(full.performances[0].ipr > 0 && full.performances[0].nodes == DEEP_NODES);
    let (_, _, read) = reads(&raw_events(&url, tid).await).pop().unwrap();
    assert!(
        read.what.starts_with(&format!(
            "RunFullTest through round {FLAG_ROUNDS} (tier full) of 1 players (the 1 at Watch)"
        )),
        "{read:?}"
    );
    // A player named by pairing number is tested too; an unknown number is refused, with
    // the field named.
    let honest = *players.keys().find(|&&pn| pn != cheat).unwrap();
    let both = scr
        .run_full_test(scr::RunFullTestRequest {
            header: header(tid, "full-named"),
            round: FLAG_ROUNDS,
            reason: String::new(),
            watched: true,
            players: vec![honest],
        })
        .await
        .unwrap()
        .into_inner();
    let ids: Vec<u32> = both.performances.iter().map(|p| p.player_id).collect();
    let mut expected = vec![cheat, honest];
    expected.sort_by_key(|&pn| players[&pn].0.clone());
    assert_eq!(ids, expected);
    let unknown = scr.run_full_test(scr::RunFullTestRequest {
        header: header(tid, "full-unknown"),
        players: vec![honest, 99],
        ..Default::default()
    });
    let before = d.version().await;
    let status = unknown.await.expect_err("pairing number 99 does not exist");
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(
        status.message().contains("no player has pairing number 99"),
        "{status:?}"
    );
    let field = status
        .get_details_bad_request()
        .and_then(|b| b.field_violations.first().map(|v| v.field.clone()));
    assert_eq!(field.as_deref(), Some("players[1]"));
    assert_eq!(d.version().await, before, "a refusal appended something");
    // The same from the command line: a fair-play officer's two calls.
    let admin = token::auth().admin.clone();
    let client = |args: &[&str]| {
        let mut all = vec![
            "client",
            "--server",
            url.as_str(),
            "--token",
            admin.as_str(),
        ];
        all.extend_from_slice(args);
        let r = run(&all);
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
        r.stdout
    };
    let (round, cheat_no) = (FLAG_ROUNDS.to_string(), format!("#{cheat}"));
    let out = client(&[
        "full-test",
        tid,
        "--round",
        &round,
        "--watched",
        "--reason",
        "cli",
    ]);
    assert!(out.contains(": 1 performances"), "{out}");
    let line = out
        .lines()
        .find(|l| l.contains(cheat_name))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains(" full ") && line.contains(&cheat_no) && line.contains("IPR"),
        "{line}"
    );
    let out = client(&["screening", tid, "--reason", "cli"]);
    assert!(
        out.lines()
            .any(|l| l.starts_with(&format!("flag: round {FLAG_ROUNDS} quick {cheat_no} "))),
        "{out}"
    );

    // Invisible to the public: the events' places only, no page shows them, a player may not
    // read them.
    let public = raw_events_as(&url, tid, None).await;
    let all = raw_events(&url, tid).await;
    let flagged: Vec<u64> = all
        .iter()
        .filter(|e| {
            matches!(
                e.payload.as_ref().and_then(|p| p.kind.as_ref()),
                Some(Kind::ScreeningFlagRaised(_))
            )
        })
        .map(|e| e.version)
        .collect();
    assert_eq!(flagged.len(), report.flags.len());
    for e in public.iter().filter(|e| flagged.contains(&e.version)) {
        assert!(e.payload.is_none() && e.payload_bytes.is_empty(), "{e:?}");
    }
    let as_player = token::issue(
        &token::auth().keys,
        "p",
        Role::Player,
        &[tid],
        Some(cheat),
        3600,
    );
    let got = screening_client(&url, Some(&as_player))
        .get_screening(scr::GetScreeningRequest {
            tournament: tref(tid),
            reason: String::new(),
        })
        .await;
    assert_eq!(got.unwrap_err().code(), Code::PermissionDenied);
    let http = server.http.clone().unwrap();
    for path in [
        format!("/t/{tid}"),
        format!("/t/{tid}/players/{cheat}"),
        format!("/api/tournaments/{tid}/players/{cheat}"),
    ] {
        let (status, body) = http_get(&http, &path);
        assert_eq!(status, 200, "{path}");
        for word in [
            "creening",
            "z_combined",
            "engine_profile",
            "seed001",
            "\"watch\"",
        ] {
            assert!(!body.contains(word), "{path} shows {word:?}");
        }
    }
}

//! Round robins run by the service over gRPC (`arbiter serve`, one server for every event):
//! a round-robin event created through gRPC publishes exactly the handbook's schedule.
//!
//! The expected schedules are DATA: the Berger tables of the handbook for 3 to 16 players and its
//! 8-player double round robin (C.05 Annex 1; Arbiters' Manual 2023 ch. IV "Doble Ronda"), as transcribed in
//! tests/golden/round-robin/berger-tables.json. Other double round robins are derived from those
//! tables by the manual's scheme (docs/src/auditors/agreement.md: the first cycle's last two rounds
//! swapped, the second cycle the first with colours reversed), written out here on the data, not by
//! the code under test.
//!
//! Also: a field that does not fit the rounds is refused at round start; a pairing published
//! by hand that leaves the schedule is refused naming the board; the C.05 §6.6 withdrawal rule
//! in the standings (below 50 % cancelled, from 50 % on the remaining games are forfeits);
//! `arbiter replay` re-derives every round.

use crate::support::*;
use arbiter_core::tournament::BoardResult;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use serde_json::Value;
use std::collections::BTreeSet;
use std::time::Duration;
use tonic::Code;

/// A server on a fresh data folder in a temporary directory named `name`: the directory (kept
/// alive by the caller), its data folder and the server.
fn serve(name: &str) -> (TempDir, std::path::PathBuf, Server) {
    let work = TempDir::new(name).unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    (work, data, server)
}

/// One round: games (white, black) in board order, and who rests.
type Round = (Vec<(u32, u32)>, Option<u32>);

/// A data file of tests/golden/round-robin (the tables as transcribed from the manual).
fn golden_file(name: &str) -> Value {
    let path = format!(
        "{}/../../tests/golden/round-robin/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).expect("golden tables")).expect("json")
}

fn golden() -> Value {
    golden_file("berger-tables.json")
}

fn games(round: &Value) -> Vec<(u32, u32)> {
    round
        .as_array()
        .expect("round")
        .iter()
        .map(|g| (g[0].as_u64().unwrap() as u32, g[1].as_u64().unwrap() as u32))
        .collect()
}

/// The handbook's schedule for `n` players: its table, the bye slot's game taken out of an odd
/// field's rounds (its opponent rests).
fn expected(g: &Value, n: u32, double: bool) -> Vec<Round> {
    let t = &g["tables"][n.to_string()];
    assert_eq!(t["players"].as_u64(), Some(n as u64));
    let bye = t["bye_slot"].as_u64().map(|b| b as u32);
    let mut rounds: Vec<Round> = t["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut gs = games(r);
            let rest = bye.and_then(|b| {
                let i = gs.iter().position(|&(w, x)| w == b || x == b)?;
                let (w, x) = gs.remove(i);
                Some(if w == b { x } else { w })
            });
            (gs, rest)
        })
        .collect();
    assert_eq!(rounds.len() as u64, t["rounds_count"].as_u64().unwrap());
    if double {
        let k = rounds.len();
        rounds.swap(k - 2, k - 1);
        let second: Vec<Round> = rounds
            .iter()
            .map(|(gs, rest)| (gs.iter().map(|&(w, b)| (b, w)).collect(), *rest))
            .collect();
        rounds.extend(second);
    }
    rounds
}

async fn create(c: &mut Clients, tid: &str, double: bool, rounds: u32) {
    let system = if double {
        pb::PairingSystem::DoubleRoundRobin
    } else {
        pb::PairingSystem::RoundRobin
    };
    create_as(c, tid, system, rounds).await
}

async fn create_as(c: &mut Clients, tid: &str, system: pb::PairingSystem, rounds: u32) {
    c.reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header(tid, "create"),
            tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                name: format!("Round robin {tid}"),
                place: "Loopback".into(),
                federation: "ESP".into(),
                start_date: Some(pb::Date {
                    year: 2026,
                    month: 3,
                    day: 1,
                }),
                end_date: Some(pb::Date {
                    year: 2026,
                    month: 3,
                    day: 30,
                }),
                chief_arbiter: Some(pb::Arbiter {
                    name: "Arbiter, Chief".into(),
                    fide_id: None,
                    title: "IA".into(),
                }),
                pairing_system: system as i32,
                rounds,
                rating_kind: pb::RatingKind::Standard as i32,
                fide_rated: true,
                ..Default::default()
            }),
        })
        .await
        .unwrap_or_else(|e| panic!("{tid}: create: {e:?}"));
}

/// Registers `n` players in the order of the lots drawn: player i is registered i-th, with a
/// rating that is NOT in that order (numbers are the draw, not the rating order).
async fn register(c: &mut Clients, tid: &str, n: u32) {
    for i in 1..=n {
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                confirm_same_name: false,
                header: header(tid, &format!("register-{i}")),
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: format!("Drawn, {i:02}"),
                    rating: 1500 + (i * 389) % 900,
                    federation: "ESP".into(),
                    ..Default::default()
                }),
            })
            .await
            .unwrap_or_else(|e| panic!("{tid}: register {i}: {e:?}"));
    }
    let players = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(tid),
        })
        .await
        .unwrap()
        .into_inner();
    for r in &players.players {
        assert_eq!(
            r.player.as_ref().unwrap().name,
            format!("Drawn, {:02}", r.pairing_number),
            "{tid}: pairing numbers are the order of registration (the draw)"
        );
    }
}

async fn schedule(c: &mut Clients, tid: &str) -> Vec<Round> {
    let s =
        c.rd.get_schedule(rd::GetTournamentRequest {
            tournament: tref(tid),
        })
        .await
        .unwrap_or_else(|e| panic!("{tid}: schedule: {e:?}"))
        .into_inner();
    s.rounds
        .iter()
        .enumerate()
        .map(|(i, r)| {
            assert_eq!(r.round as usize, i + 1);
            for (k, b) in r.boards.iter().enumerate() {
                assert_eq!(b.number as usize, k + 1);
            }
            (
                r.boards.iter().map(|b| (b.white, b.black)).collect(),
                (r.rest != 0).then_some(r.rest),
            )
        })
        .collect()
}

async fn start(c: &mut Clients, tid: &str, round: u32) -> Result<(), tonic::Status> {
    c.rd.start_round(rd::StartRoundRequest {
        header: header(tid, &format!("start-{round}")),
        round,
        scheduled_unix_ms: 0,
    })
    .await
    .map(|_| ())
}

async fn proposal(c: &mut Clients, tid: &str, round: u32) -> rep::RoundPairings {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        match c
            .rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(tid),
                round,
            })
            .await
        {
            Ok(p) => return p.into_inner(),
            Err(s) if s.code() == Code::NotFound && std::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(20)).await
            }
            Err(s) => panic!("{tid}: no proposal for round {round}: {s:?}"),
        }
    }
}

fn round_of(p: &rep::RoundPairings) -> Round {
    let boards = p
        .boards
        .iter()
        .map(|b| b.board.as_ref().map(|b| (b.white, b.black)).unwrap())
        .collect();
    let rest = p
        .unpaired
        .iter()
        .map(|u| {
            assert_eq!(
                u.code,
                pb::ResultCode::ZeroBye as i32,
                "a round-robin rest scores zero and is no pairing-allocated bye"
            );
            u.player_id
        })
        .next();
    assert!(p.unpaired.len() <= 1, "{:?}", p.unpaired);
    (boards, rest)
}

async fn publish(
    c: &mut Clients,
    tid: &str,
    round: u32,
    boards: Vec<pb::Board>,
) -> Result<(), tonic::Status> {
    let note = if boards.is_empty() {
        String::new()
    } else {
        "by hand".into()
    };
    c.rd.publish_pairing(rd::PublishPairingRequest {
        header: header(tid, &format!("publish-{round}-{}", boards.len())),
        round,
        proposal_version: 0,
        boards,
        unpaired: vec![],
        by_entry: false,
        numbering_version: None,
        note,
        team_bye: 0,
        team_matches: Vec::new(),
    })
    .await
    .map(|_| ())
}

async fn record(
    c: &mut Clients,
    tid: &str,
    command: &str,
    (round, board): (u32, u32),
    r: BoardResult,
) -> Result<(), tonic::Status> {
    let (res, wc, bc) = wire(r);
    c.rd.record_result(rd::RecordResultRequest {
        header: header(tid, command),
        round,
        board,
        result: res,
        white_code: wc,
        black_code: bc,
    })
    .await
    .map(|_| ())
}

async fn result(c: &mut Clients, tid: &str, round: u32, board: u32, r: BoardResult) {
    record(
        c,
        tid,
        &format!("result-{round}-{board}"),
        (round, board),
        r,
    )
    .await
    .unwrap_or_else(|e| panic!("{tid}: result {round}.{board}: {e:?}"));
}

async fn close(c: &mut Clients, tid: &str, round: u32) {
    c.rd.close_round(rd::CloseRoundRequest {
        header: header(tid, &format!("close-{round}")),
        round,
    })
    .await
    .unwrap_or_else(|e| panic!("{tid}: close {round}: {e:?}"));
}

/// Plays a whole round robin: every proposal must be the handbook's round; White wins on odd
/// boards, even boards are drawn (`decide` may override a board's result).
async fn play(
    c: &mut Clients,
    tid: &str,
    want: &[Round],
    decide: impl Fn(u32, u32, u32) -> Option<BoardResult>,
) {
    for (i, round_want) in want.iter().enumerate() {
        let round = i as u32 + 1;
        start(c, tid, round)
            .await
            .unwrap_or_else(|e| panic!("{tid}: start {round}: {e:?}"));
        let p = proposal(c, tid, round).await;
        assert!(!p.published);
        assert_eq!(
            &round_of(&p),
            round_want,
            "{tid}: round {round}: the proposal is not the handbook's round"
        );
        publish(c, tid, round, vec![])
            .await
            .unwrap_or_else(|e| panic!("{tid}: publish {round}: {e:?}"));
        for (k, &(w, b)) in round_want.0.iter().enumerate() {
            let board = k as u32 + 1;
            let r = decide(round, w, b).unwrap_or(if board % 2 == 1 {
                BoardResult::WhiteWins
            } else {
                BoardResult::Draw
            });
            result(c, tid, round, board, r).await;
        }
        close(c, tid, round).await;
    }
    c.rd.finish_tournament(rd::FinishTournamentRequest {
        header: header(tid, "finish"),
    })
    .await
    .unwrap_or_else(|e| panic!("{tid}: finish: {e:?}"));
}

/// Creates, registers, checks the schedule against the handbook; plays it when `full`.
async fn event(mut c: Clients, n: u32, double: bool, full: bool) {
    let g = golden();
    let want = expected(&g, n, double);
    let tid = format!("rr-{n}-{}", if double { "double" } else { "single" });
    create(&mut c, &tid, double, want.len() as u32).await;
    register(&mut c, &tid, n).await;
    assert_eq!(
        schedule(&mut c, &tid).await,
        want,
        "{tid}: GetSchedule is not the handbook's schedule"
    );
    if full {
        play(&mut c, &tid, &want, |_, _, _| None).await;
    }
}

fn replay(data: &std::path::Path, tid: &str) -> String {
    let out = run(&["replay", "--data", data.to_str().unwrap(), tid]);
    assert_eq!(out.code, 0, "replay {tid}:\n{}\n{}", out.stdout, out.stderr);
    out.stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_robins_publish_the_handbooks_schedule() {
    let started = std::time::Instant::now();
    let (work, data, mut server) = serve("arbiter-round-robin");
    let c = Clients::new(&Endpoints::one(&server.grpc));

    // Every table, single and double: the schedule from the draw; played through
    // for every single round robin and for the double ones of 3, 4, 7 and 8 players (8: the
    // manual's own example below).
    let mut jobs = Vec::new();
    for n in 3..=16 {
        jobs.push(tokio::spawn(event(c.clone(), n, false, true)));
        let full_double = matches!(n, 3 | 4 | 7 | 8);
        jobs.push(tokio::spawn(event(c.clone(), n, true, full_double)));
    }
    for j in jobs {
        j.await.expect("event");
    }

    // The manual's 8-player double round robin, exactly as printed (Arbiters' Manual 2023 ch. IV "Doble Ronda").
    let g = golden();
    let example: Vec<Round> = g["double_round_robin_example"]["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (games(r), None))
        .collect();
    assert_eq!(example.len(), 14);
    let mut c2 = c.clone();
    assert_eq!(schedule(&mut c2, "rr-8-double").await, example);

    // Pages and the TRF export work for a round robin as for a Swiss event.
    let trf = c2
        .rep
        .export_trf(rep::ExportTrfRequest {
            tournament: tref("rr-5-single"),
            format: arbiter_proto::common::v1::TrfFormat::Trf16 as i32,
        })
        .await
        .expect("export")
        .into_inner();
    let text = String::from_utf8(trf.trf).unwrap();
    arbiter_trf::parse(&text).expect("the export reads back");
    assert!(
        text.contains("0000 - Z"),
        "a rest is a zero-point round:\n{text}"
    );
    let http = server.http.clone().expect("http");
    for path in [
        "/t/rr-5-single/standings",
        "/t/rr-5-single/crosstable",
        "/t/rr-5-single/pairings/3",
        "/t/rr-5-single/schedule",
    ] {
        let (status, body) = http_get(&http, path);
        assert_eq!(status, 200, "{path}: {body}");
        assert!(body.contains("Drawn, 05"), "{path}");
    }
    // The schedule page: every round of the table, each published one linked to its pairing,
    // who rests, and how the numbers were drawn.
    let (_, page) = http_get(&http, "/t/rr-5-single/schedule");
    for r in 1..=5 {
        assert!(
            page.contains(&format!("href=\"/t/rr-5-single/pairings/{r}\"")),
            "round {r}: {page}"
        );
    }
    assert!(page.contains("in the order of registration"), "{page}");
    assert_eq!(
        page.matches("class=\"rest\"").count(),
        6,
        "a header and five rests"
    );
    // A Swiss tournament has no schedule.
    let mut c3 = c.clone();
    create_as(&mut c3, "swiss", pb::PairingSystem::Dutch, 5).await;
    let swiss = c3
        .rd
        .get_schedule(rd::GetTournamentRequest {
            tournament: tref("swiss"),
        })
        .await
        .unwrap_err();
    assert_eq!(swiss.code(), Code::FailedPrecondition, "{swiss:?}");
    assert!(
        swiss.message().contains("no schedule"),
        "{}",
        swiss.message()
    );

    // The pairing worker's check of a published round: the schedule's round, same digest.
    let mut pw = arbiter_proto::pairing_worker::v1::pairing_worker_client::PairingWorkerClient::new(
        channel(&server.grpc),
    );
    for (tid, round) in [("rr-5-single", 3), ("rr-8-double", 13)] {
        let check = pw
            .check(arbiter_proto::pairing_worker::v1::CheckRequest {
                tournament: tref(tid),
                round,
                ..Default::default()
            })
            .await
            .expect("check")
            .into_inner();
        assert!(check.matches, "{tid} round {round}: {check:?}");
        assert_eq!(check.published_input_digest, check.recomputed_input_digest);
        assert_eq!(check.published_input_digest.len(), 32);
        assert!(
            check.explanation.contains("Berger table"),
            "{}",
            check.explanation
        );
    }

    // The TRF exports of a finished single (odd: rests) and double round robin, for the import
    // below.
    let mut exports = Vec::new();
    for tid in ["rr-5-single", "rr-7-double"] {
        let trf = c2
            .rep
            .export_trf(rep::ExportTrfRequest {
                tournament: tref(tid),
                format: arbiter_proto::common::v1::TrfFormat::Trf16 as i32,
            })
            .await
            .expect("export")
            .into_inner();
        exports.push((tid, String::from_utf8(trf.trf).unwrap()));
    }

    let elapsed = started.elapsed();
    server.terminate();
    // The audit re-derives every round from the table.
    for tid in ["rr-5-single", "rr-8-double", "rr-16-single"] {
        let out = replay(&data, tid);
        assert!(!out.contains("DIFFERS"), "{out}");
        assert!(out.contains("round 1: re-paired, identical"), "{out}");
    }

    // A round robin's TRF (type code BERGER_ROUNDROBIN) imports as a round robin: the start
    // numbers are the draw, every round is the table's, a rest is no bye; the replay finds
    // every round identical and the export gives the file back. A file whose round leaves the
    // table is refused naming round and board, and nothing is written.
    for (tid, text) in &exports {
        assert!(text.contains("092 BERGER_ROUNDROBIN"), "{text}");
        let file = work.path().join(format!("{tid}.trf"));
        std::fs::write(&file, text).unwrap();
        let into = work.path().join(format!("import-{tid}"));
        let into_arg = into.to_str().unwrap();
        let im = run(&[
            "import",
            file.to_str().unwrap(),
            "--data",
            into_arg,
            "--id",
            tid,
        ]);
        assert_eq!(im.code, 0, "{tid}: {}{}", im.stdout, im.stderr);
        let out = replay(&into, tid);
        assert!(!out.contains("DIFFERS"), "{tid}: {out}");
        let rounds = if *tid == "rr-5-single" { 5 } else { 14 };
        assert_eq!(
            out.matches("re-paired, identical").count(),
            rounds,
            "{tid}: {out}"
        );
        let ex = run(&["export", tid, "--data", into_arg, "--format", "trf16"]);
        assert_eq!(ex.code, 0, "{tid}: {}", ex.stderr);
        assert_eq!(&ex.stdout, text, "{tid}: the export gives the file back");
    }
    // Round 2 of the 5-player event with its first game's colours turned around.
    let (_, text) = &exports[0];
    let r2 = |line: &str| line[91 + 10..91 + 10 + 8].to_string();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let first_white = lines
        .iter()
        .position(|l| {
            l.starts_with("001") && r2(l).trim_end().ends_with('1') | r2(l).contains(" w ")
        })
        .expect("a White in round 2");
    let opp: u32 = r2(&lines[first_white])[..4].trim().parse().unwrap();
    let mut doctored = lines.clone();
    for (i, l) in lines.iter().enumerate() {
        let sn: u32 = l.get(4..8).and_then(|x| x.trim().parse().ok()).unwrap_or(0);
        if l.starts_with("001") && (i == first_white || sn == opp) {
            let cell = r2(l);
            let turned = if cell.contains(" w ") {
                cell.replace(" w ", " b ")
            } else {
                cell.replace(" b ", " w ")
            };
            doctored[i].replace_range(101..109, &turned);
        }
    }
    let file = work.path().join("doctored.trf");
    std::fs::write(&file, doctored.join("\n") + "\n").unwrap();
    let into = work.path().join("import-doctored");
    let im = run(&[
        "import",
        file.to_str().unwrap(),
        "--data",
        into.to_str().unwrap(),
    ]);
    assert_ne!(im.code, 0, "{}", im.stdout);
    assert!(
        im.stderr.contains("round 2")
            && im
                .stderr
                .contains("the round-robin schedule (Berger table) has"),
        "{}",
        im.stderr
    );
    eprintln!("round robins played in {elapsed:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_robin_refusals_and_withdrawals() {
    let (_work, _data, server) = serve("arbiter-round-robin-rules");
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let g = golden();

    // A field that does not fit the rounds: refused at round start, naming both.
    create(&mut c, "rr-misfit", false, 4).await;
    register(&mut c, "rr-misfit", 6).await;
    let e = start(&mut c, "rr-misfit", 1).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(
        e.message()
            .contains("a round robin of 6 players has 5 rounds, not 4"),
        "{}",
        e.message()
    );

    // A pairing published by hand must be the schedule's: refused naming the board.
    let want = expected(&g, 6, false);
    create(&mut c, "rr-hand", false, 5).await;
    register(&mut c, "rr-hand", 6).await;
    start(&mut c, "rr-hand", 1).await.unwrap();
    proposal(&mut c, "rr-hand", 1).await;
    let mut boards: Vec<pb::Board> = want[0]
        .0
        .iter()
        .enumerate()
        .map(|(i, &(w, b))| pb::Board {
            number: i as u32 + 1,
            white: w,
            black: b,
        })
        .collect();
    // Colours of board 2 reversed.
    (boards[1].white, boards[1].black) = (boards[1].black, boards[1].white);
    let e = publish(&mut c, "rr-hand", 1, boards.clone())
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(
        e.message()
            .contains("round 1, board 2: the round-robin schedule (Berger table) has 2-5, not 5-2"),
        "{}",
        e.message()
    );
    // The late entrant and the bye have no place in a round robin either.
    let e = c
        .reg
        .request_bye(reg::RequestByeRequest {
            header: header("rr-hand", "bye"),
            pairing_number: 3,
            round: 2,
            kind: pb::ByeKind::HalfPoint as i32,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(
        e.message().contains("forfeit (C.05 §6.6)"),
        "{}",
        e.message()
    );
    let e = c
        .reg
        .register_player(reg::RegisterPlayerRequest {
            confirm_same_name: false,
            header: header("rr-hand", "late"),
            player: Some(arbiter_proto::registration::v1::PlayerDetails {
                name: "Late, Comer".into(),
                rating: 2000,
                ..Default::default()
            }),
        })
        .await
        .unwrap_err();
    assert!(
        e.message().contains("takes no late entries"),
        "{}",
        e.message()
    );

    // C.05 §6.6, 6 players, 5 games each. Player 6 withdraws from round 3 after 2 games (less than
    // 50 %): the points scored by or against him do not count. Player 6 of the other event
    // withdraws from round 4 after 3 games (50 % or more): his results stand and his remaining
    // games are forfeits won by his opponents, recorded with each pairing. The third is scenario 8
    // of docs/src/guide/online-hybrid.md: 10 players, the last one withdraws after 4 of his 9
    // games: kept for rating (crosstable, TRF), ignored in the final ranking.
    for (tid, from_round, n) in [
        ("rr-w-below", 3u32, 6u32),
        ("rr-w-above", 4, 6),
        ("rr-w-4-of-9", 5, 10),
    ] {
        let want = expected(&g, n, false);
        let rounds = n - 1;
        let cancelled = 2 * (from_round - 1) < rounds;
        create(&mut c, tid, false, rounds).await;
        register(&mut c, tid, n).await;
        for (i, round_want) in want.iter().enumerate() {
            let round = i as u32 + 1;
            if round == from_round {
                c.reg
                    .withdraw_player(reg::WithdrawPlayerRequest {
                        header: header(tid, "withdraw"),
                        pairing_number: n,
                        from_round: round,
                        reason: "withdrew".into(),
                        ..Default::default()
                    })
                    .await
                    .unwrap_or_else(|e| panic!("{tid}: withdraw: {e:?}"));
            }
            start(&mut c, tid, round).await.unwrap();
            assert_eq!(&round_of(&proposal(&mut c, tid, round).await), round_want);
            publish(&mut c, tid, round, vec![]).await.unwrap();
            for (k, &(w, b)) in round_want.0.iter().enumerate() {
                let board = k as u32 + 1;
                if round >= from_round && (w == n || b == n) {
                    // The withdrawn player's game was recorded as a forfeit with the pairing;
                    // entering it again is refused.
                    let again = format!("again-{round}-{board}");
                    let e = record(&mut c, tid, &again, (round, board), BoardResult::WhiteWins)
                        .await
                        .unwrap_err();
                    assert!(
                        e.message().contains("already"),
                        "{tid}: round {round} board {board}: {e:?}"
                    );
                    continue;
                }
                result(&mut c, tid, round, board, BoardResult::WhiteWins).await;
            }
            close(&mut c, tid, round).await;
        }
        // Expected points, from the table: White wins every game and every forfeit goes to
        // player 6's opponent; below 50 % nothing of player 6's counts.
        let mut points = vec![0i32; n as usize + 1];
        for (i, (games, _)) in want.iter().enumerate() {
            let round = i as u32 + 1;
            for &(w, b) in games {
                if (w == n || b == n) && cancelled {
                    continue;
                }
                let winner = if round >= from_round && w == n { b } else { w };
                points[winner as usize] += 10;
            }
        }
        let st = c
            .rep
            .get_standings(rep::GetStandingsRequest {
                tournament: tref(tid),
                after_round: 0,
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(st.after_round, rounds);
        for row in &st.rows {
            assert_eq!(
                arbiter_proto::tenths(row.score.as_ref()),
                points[row.pairing_number as usize],
                "{tid}: player {} ({})",
                row.pairing_number,
                row.name
            );
        }
        // The crosstable and the TRF keep every result (rating and history).
        let trf = c
            .rep
            .export_trf(rep::ExportTrfRequest {
                tournament: tref(tid),
                format: arbiter_proto::common::v1::TrfFormat::Trf16 as i32,
            })
            .await
            .unwrap()
            .into_inner();
        let text = String::from_utf8(trf.trf).unwrap();
        let name = format!("Drawn, {n:02}");
        let line6 = text
            .lines()
            .find(|l| l.starts_with("001") && l.contains(&name))
            .unwrap();
        // Round entries from column 92, ten characters each: opponent, colour, result.
        let codes: Vec<char> = line6.as_bytes()[91..]
            .chunks(10)
            .map(|e| e[7] as char)
            .collect();
        let lost_by_forfeit = codes.iter().filter(|&&r| r == '-').count();
        assert_eq!(
            lost_by_forfeit,
            (rounds + 1 - from_round) as usize,
            "{line6}"
        );
        assert_eq!(codes.len(), rounds as usize, "{line6}");
    }
    drop(server);
}

fn varma_golden() -> Value {
    golden_file("varma-tables.json")
}

/// A field of `n` with a federation of three, two of two, and singles (codes AAA, AAB, ...),
/// registered in an order unrelated to the federations.
async fn register_federations(c: &mut Clients, tid: &str, n: u32) -> Vec<String> {
    let mut feds: Vec<String> = ["ESP", "ESP", "ESP", "FRA", "FRA", "GER", "GER"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for i in 0..n as usize - feds.len() {
        feds.push(format!(
            "A{}{}",
            (b'A' + (i / 26) as u8) as char,
            (b'A' + (i % 26) as u8) as char
        ));
    }
    feds.truncate(n as usize);
    // Interleave: registration order is not the drawing order.
    let mut order: Vec<usize> = (0..n as usize).collect();
    order.sort_by_key(|&i| (i * 7) % n as usize);
    for (k, &i) in order.iter().enumerate() {
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                confirm_same_name: false,
                header: header(tid, &format!("register-{k}")),
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: format!("Player {i:02}, {}", feds[i]),
                    rating: 2000 + (i as u32 * 37) % 400,
                    federation: feds[i].clone(),
                    ..Default::default()
                }),
            })
            .await
            .unwrap_or_else(|e| panic!("{tid}: register {i}: {e:?}"));
    }
    feds
}

/// Each player's (pairing number, federation) as ListPlayers gives them.
async fn numbers_by_federation(c: &mut Clients, tid: &str) -> Vec<(u32, String)> {
    let list = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(tid),
        })
        .await
        .unwrap()
        .into_inner();
    list.players
        .iter()
        .filter_map(|r| Some((r.pairing_number, r.player.as_ref()?.federation.clone())))
        .collect()
}

async fn draw(
    c: &mut Clients,
    tid: &str,
    varma: bool,
    seed: &str,
    numbers: Vec<u32>,
) -> Result<(), tonic::Status> {
    c.reg
        .draw_lots(reg::DrawLotsRequest {
            header: header(tid, &format!("draw-{seed}-{numbers:?}")),
            varma,
            seed: seed.into(),
            numbers,
        })
        .await
        .map(|_| ())
}

/// C.05 §5.3 and Annex 2 through gRPC, for every table size (9 to 24 players): the service's Varma
/// draw from a published seed puts each federation's players in one group of the annex's table (the
/// golden copy, not the code under test), the schedule is still exactly the Berger table by the
/// drawn numbers, and compatriots meet only in the rounds the annex's group gives (the meeting
/// rounds derived from the annex): for 10 to 24 players never in the last three rounds, except
/// group C of the 11-12 table (docs/src/auditors/agreement.md). `arbiter replay` re-derives the
/// draw from its seed. Then the refusals: a Swiss event, a second draw, a late registration after
/// the draw, a draw after round 1 started, numbers from the hall that split a federation (refused
/// naming it, nothing appended) or read from a stale numbering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn varma_draws_keep_compatriots_to_the_tables_rounds() {
    let (_work, data, mut server) = serve("arbiter-round-robin-lots");
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let g = golden();
    let vg = varma_golden();
    for n in 9..=24u32 {
        let size = n + n % 2;
        let table = &vg["tables"][format!("{}-{size}", size - 1)];
        let group_of = |x: u32| -> String {
            table["groups"]
                .as_object()
                .unwrap()
                .iter()
                .find(|(_, v)| {
                    v.as_array()
                        .unwrap()
                        .iter()
                        .any(|y| y.as_u64() == Some(x as u64))
                })
                .map(|(k, _)| k.clone())
                .expect("every number is in a group")
        };
        let tid = format!("varma-{n}");
        let rounds = n - 1 + n % 2;
        create(&mut c, &tid, false, rounds).await;
        register_federations(&mut c, &tid, n).await;
        let seed = format!("lots of {tid}, published before the draw");
        draw(&mut c, &tid, true, &seed, vec![])
            .await
            .unwrap_or_else(|e| panic!("{tid}: draw: {e:?}"));
        let s =
            c.rd.get_schedule(rd::GetTournamentRequest {
                tournament: tref(&tid),
            })
            .await
            .unwrap()
            .into_inner();
        let lots = s.lots.clone().expect("the draw is on the schedule");
        assert!(lots.varma && lots.seed == seed, "{tid}: {lots:?}");
        // The schedule is the Berger table by the drawn numbers (the handbook prints the
        // tables up to 16 players).
        let sched = schedule(&mut c, &tid).await;
        assert_eq!(sched.len() as u32, rounds);
        if n <= 16 {
            assert_eq!(sched, expected(&g, n, false), "{tid}: the Berger table");
        }
        let players = numbers_by_federation(&mut c, &tid).await;
        for fed in ["ESP", "FRA", "GER"] {
            let groups: BTreeSet<String> = players
                .iter()
                .filter(|(_, f)| f == fed)
                .map(|&(pn, _)| group_of(pn))
                .collect();
            assert_eq!(groups.len(), 1, "{tid}: {fed} drew from {groups:?}");
        }
        // The compatriots' games: exactly the schedule's same-federation games, each in a
        // round the annex's group gives.
        let fed_of = |pn: u32| players.iter().find(|p| p.0 == pn).unwrap().1.clone();
        let mut from_schedule = Vec::new();
        for (i, (games, _)) in sched.iter().enumerate() {
            for &(w, b) in games {
                if fed_of(w) == fed_of(b) {
                    from_schedule.push((i as u32 + 1, w, b));
                }
            }
        }
        let shown: Vec<(u32, u32, u32)> = s
            .compatriot_games
            .iter()
            .map(|x| (x.round, x.white, x.black))
            .collect();
        assert_eq!(shown, from_schedule, "{tid}");
        assert_eq!(
            shown.len(),
            3 + 1 + 1,
            "{tid}: ESP meet 3 times, FRA and GER once"
        );
        let last = rounds;
        for x in &s.compatriot_games {
            let group = group_of(x.white);
            let rounds: Vec<u64> = table["derived_same_group_meeting_rounds"][&group]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_u64().unwrap())
                .collect();
            assert!(
                rounds.contains(&(x.round as u64)),
                "{tid}: {x:?} is not a meeting round of group {group}: {rounds:?}"
            );
            if n >= 10 && !(size == 12 && group == "C") {
                assert!(x.round + 3 <= last, "{tid}: {x:?} in the last three rounds");
            }
        }
        // The public schedule page says how the numbers were drawn and when compatriots meet.
        let (status, page) = http_get(server.http.as_ref().unwrap(), &format!("/t/{tid}/schedule"));
        assert_eq!(status, 200, "{page}");
        assert!(
            page.contains("Varma tables") && page.contains(&seed),
            "{tid}: {page}"
        );
        assert_eq!(
            page.matches("<li>round ").count(),
            shown.len(),
            "{tid}: one line per compatriots' game"
        );
        // Drawn once.
        let e = draw(&mut c, &tid, true, "another seed", vec![])
            .await
            .unwrap_err();
        assert!(e.message().contains("already drawn"), "{}", e.message());
    }

    // The same seed draws the same numbers on another event with the same field: anyone
    // holding the seed re-derives the draw.
    create(&mut c, "varma-12-again", false, 11).await;
    register_federations(&mut c, "varma-12-again", 12).await;
    draw(
        &mut c,
        "varma-12-again",
        true,
        "lots of varma-12, published before the draw",
        vec![],
    )
    .await
    .unwrap();
    assert_eq!(
        numbers_by_federation(&mut c, "varma-12-again").await,
        numbers_by_federation(&mut c, "varma-12").await
    );

    // No later entry once drawn.
    let e = c
        .reg
        .register_player(reg::RegisterPlayerRequest {
            confirm_same_name: false,
            header: header("varma-12", "after-the-draw"),
            player: Some(arbiter_proto::registration::v1::PlayerDetails {
                name: "After, The Draw".into(),
                federation: "ESP".into(),
                ..Default::default()
            }),
        })
        .await
        .unwrap_err();
    assert!(e.message().contains("C.05 §6.4"), "{}", e.message());

    // Numbers drawn in the hall. Table 9-10: A 3,4,8  B 5,7,9  C 1,6  D 2,10.
    create(&mut c, "hall-10", false, 9).await;
    register_federations(&mut c, "hall-10", 10).await;
    let players = numbers_by_federation(&mut c, "hall-10").await;
    let before =
        c.rd.get_tournament(rd::GetTournamentRequest {
            tournament: tref("hall-10"),
        })
        .await
        .unwrap()
        .into_inner()
        .version;
    // ESP over A and C: refused naming ESP.
    let mut pool_a = vec![3u32, 4, 8];
    let mut pool_b = vec![5u32, 7, 9];
    let mut pool_c = vec![1u32, 6];
    let mut pool_d = vec![2u32, 10];
    let mut split = vec![0u32; players.len()];
    let mut good = vec![0u32; players.len()];
    let mut esp_seen = 0;
    for (i, (_, fed)) in players.iter().enumerate() {
        match fed.as_str() {
            "ESP" => {
                good[i] = pool_a.pop().unwrap();
                split[i] = if esp_seen == 0 {
                    1
                } else {
                    [3, 4][esp_seen - 1]
                };
                esp_seen += 1;
            }
            "FRA" => good[i] = pool_b.pop().unwrap(),
            "GER" => good[i] = pool_c.pop().unwrap(),
            _ => {
                good[i] = pool_d.pop().or_else(|| pool_b.pop()).unwrap();
            }
        }
    }
    // `split` gives ESP 1 (group C), 3 and 4 (A); the others as in `good`, with 8 for the
    // player `good` gave 1.
    for (i, (_, fed)) in players.iter().enumerate() {
        if fed != "ESP" {
            split[i] = if good[i] == 1 { 8 } else { good[i] };
        }
    }
    let e = draw(&mut c, "hall-10", true, "", split).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(
        e.message().contains("federation \"ESP\"") && e.message().contains("one envelope"),
        "{}",
        e.message()
    );
    let after =
        c.rd.get_tournament(rd::GetTournamentRequest {
            tournament: tref("hall-10"),
        })
        .await
        .unwrap()
        .into_inner()
        .version;
    assert_eq!(before, after, "a refused draw appends nothing");
    draw(&mut c, "hall-10", true, "", good.clone())
        .await
        .unwrap_or_else(|e| panic!("hall draw: {e:?}"));
    let drawn = numbers_by_federation(&mut c, "hall-10").await;
    let mut want_feds: Vec<(u32, String)> = players
        .iter()
        .zip(&good)
        .map(|((_, f), &x)| (x, f.clone()))
        .collect();
    want_feds.sort();
    let mut got = drawn.clone();
    got.sort();
    assert_eq!(
        got, want_feds,
        "every player holds the number drawn in the hall"
    );

    // Numbers for a list that has grown since it was read: refused, nothing drawn.
    create(&mut c, "hall-stale", false, 9).await;
    register_federations(&mut c, "hall-stale", 9).await;
    c.reg
        .register_player(reg::RegisterPlayerRequest {
            confirm_same_name: false,
            header: header("hall-stale", "tenth"),
            player: Some(arbiter_proto::registration::v1::PlayerDetails {
                name: "Tenth, Player".into(),
                federation: "ITA".into(),
                ..Default::default()
            }),
        })
        .await
        .unwrap();
    let e = draw(&mut c, "hall-stale", false, "", (1..=9).rev().collect())
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(
        e.message().contains("9 numbers for 10 players"),
        "{}",
        e.message()
    );
    // An unrestricted draw from a seed: a permutation of 1..=10.
    draw(&mut c, "hall-stale", false, "open draw", vec![])
        .await
        .unwrap();

    // A Swiss event has no drawing of lots; a round robin under way neither.
    create_as(&mut c, "swiss-lots", pb::PairingSystem::Dutch, 5).await;
    register_federations(&mut c, "swiss-lots", 10).await;
    let e = draw(&mut c, "swiss-lots", false, "x", vec![])
        .await
        .unwrap_err();
    assert!(e.message().contains("not by lots"), "{}", e.message());
    create(&mut c, "rr-started", false, 5).await;
    register(&mut c, "rr-started", 6).await;
    start(&mut c, "rr-started", 1).await.unwrap();
    let e = draw(&mut c, "rr-started", false, "x", vec![])
        .await
        .unwrap_err();
    assert!(e.message().contains("before round 1"), "{}", e.message());

    server.terminate();
    for tid in ["varma-9", "varma-12", "varma-24", "hall-10", "hall-stale"] {
        let out = replay(&data, tid);
        assert!(
            out.contains("re-derived, identical")
                || out.contains("checked against the procedure, identical"),
            "{tid}:\n{out}"
        );
    }
}

/// The manual's Scheveningen table for `k` boards (Arbiters' Manual 2023 ch. IV §3, transcribed), by pairing
/// numbers: A's board-i player is i, B's board-j player k + j.
fn scheveningen_table(k: u32) -> Vec<Round> {
    let g = golden_file("scheveningen.json");
    let number = |cell: &Value| {
        let s = cell.as_str().unwrap();
        let board: u32 = s[1..].parse().unwrap();
        if s.starts_with('A') { board } else { k + board }
    };
    g["tables"][k.to_string()]["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let games = r
                .as_array()
                .unwrap()
                .iter()
                .map(|x| (number(&x[0]), number(&x[1])))
                .collect();
            (games, None)
        })
        .collect()
}

/// Scheveningen matches run by the service (Arbiters' Manual 2023 ch. IV §3): for two teams of 2 to 10 boards
/// (players 1..k team A, k+1..2k team B, registered in board order) GetSchedule is exactly the
/// manual's table; a 3-board match is played through, every proposal the table's round. A
/// semi-Scheveningen of two teams of 8 plays the 4-board table for each half (Arbiters' Manual 2023 ch. IV §3's
/// example). An odd field or rounds that do not fit are refused at round start; `arbiter
/// replay` re-derives every round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scheveningen_matches_publish_the_manuals_tables() {
    let (_work, data, mut server) = serve("arbiter-scheveningen");
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    for k in 2..=10u32 {
        let tid = format!("schev-{k}");
        create_as(&mut c, &tid, pb::PairingSystem::Scheveningen, k).await;
        register(&mut c, &tid, 2 * k).await;
        let want = scheveningen_table(k);
        assert_eq!(schedule(&mut c, &tid).await, want, "{tid}");
        if k == 3 {
            play(&mut c, &tid, &want, |_, _, _| None).await;
        }
    }
    // The schedule page of the played match: its teams and their points. `play` has White win
    // on odd boards and draws the even ones: team A's points follow from the table.
    let (status, page) = http_get(server.http.as_ref().unwrap(), "/t/schev-3/schedule");
    assert_eq!(status, 200, "{page}");
    // One table row each (the markup has no line breaks to go by).
    let teams: Vec<&str> = page
        .split("<tr>")
        .filter(|l| l.contains("<td class=\"name\">Team "))
        .collect();
    assert_eq!(teams.len(), 2, "{page}");
    assert!(
        teams[0].contains("Team A") && teams[0].contains(">1-3<"),
        "{}",
        teams[0]
    );
    assert!(
        teams[1].contains("Team B") && teams[1].contains(">4-6<"),
        "{}",
        teams[1]
    );
    let points = |l: &str| -> f64 {
        let a = l.rfind("<td class=\"pts\">").unwrap() + "<td class=\"pts\">".len();
        l[a..l[a..].find('<').unwrap() + a].parse().unwrap()
    };
    let mut team_a = 0.0;
    for (games, _) in scheveningen_table(3) {
        for (i, &(w, _)) in games.iter().enumerate() {
            team_a += match (i % 2 == 0, w <= 3) {
                (true, true) => 1.0,
                (true, false) => 0.0,
                (false, _) => 0.5,
            };
        }
    }
    assert_eq!(points(teams[0]), team_a, "{}", teams[0]);
    assert_eq!(points(teams[1]), 9.0 - team_a, "{}", teams[1]);
    // Semi-Scheveningen, teams of 8: A1-A4 v B1-B4 (9-12) and A5-A8 v B5-B8 (13-16).
    create_as(&mut c, "semi-8", pb::PairingSystem::SemiScheveningen, 4).await;
    register(&mut c, "semi-8", 16).await;
    let lift = |x: u32, half: u32| {
        if x <= 4 {
            x + 4 * half
        } else {
            8 + (x - 4) + 4 * half
        }
    };
    let want: Vec<Round> = scheveningen_table(4)
        .into_iter()
        .map(|(games, _)| {
            let all = (0..2)
                .flat_map(|h| games.iter().map(move |&(w, b)| (lift(w, h), lift(b, h))))
                .collect();
            (all, None)
        })
        .collect();
    assert_eq!(schedule(&mut c, "semi-8").await, want);
    play(&mut c, "semi-8", &want, |_, _, _| None).await;

    // The numbers are the teams' boards: no drawing of lots.
    let e = draw(&mut c, "schev-4", false, "any seed", vec![])
        .await
        .unwrap_err();
    assert!(e.message().contains("by team and board"), "{}", e.message());
    // Refused at round start: an odd field, and rounds that do not fit the teams.
    create_as(&mut c, "schev-odd", pb::PairingSystem::Scheveningen, 3).await;
    register(&mut c, "schev-odd", 7).await;
    let e = start(&mut c, "schev-odd", 1).await.unwrap_err();
    assert!(
        e.message().contains("two teams of equal size"),
        "{}",
        e.message()
    );
    create_as(&mut c, "schev-rounds", pb::PairingSystem::Scheveningen, 5).await;
    register(&mut c, "schev-rounds", 8).await;
    let e = start(&mut c, "schev-rounds", 1).await.unwrap_err();
    assert!(
        e.message()
            .contains("a Scheveningen of 8 players has 4 rounds, not 5"),
        "{}",
        e.message()
    );

    server.terminate();
    for tid in ["schev-3", "semi-8"] {
        let out = replay(&data, tid);
        assert!(
            out.contains("round 1: re-paired, identical"),
            "{tid}:\n{out}"
        );
    }
}

/// The manual's Hilton table for `teams` teams (transcribed, corrections included), by
/// pairing numbers: team t's board-k player is t·(T − 1) + k, games board by board.
fn hilton_table(teams: u32) -> Vec<Round> {
    let g = golden_file("hilton.json");
    let block = g["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["teams"].as_str().unwrap().len() as u32 == teams)
        .unwrap()
        .clone();
    let boards = teams - 1;
    let player =
        |team: &Value, k: u32| (team.as_str().unwrap().as_bytes()[0] - b'A') as u32 * boards + k;
    let table = block["table"].as_array().unwrap();
    (0..3)
        .map(|r| {
            let games = table
                .iter()
                .enumerate()
                .flat_map(|(k, rounds)| {
                    rounds[r]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| (player(&x[0], k as u32 + 1), player(&x[1], k as u32 + 1)))
                        .collect::<Vec<_>>()
                })
                .collect();
            (games, None)
        })
        .collect()
}

/// The team tables beside Scheveningen, run by the service: the Skalitzka system's six-board table
/// exactly as the manual prints it (Arbiters' Manual 2023 ch. IV §5; capitals 1-6, small letters 7-12, numbers
/// 13-18), played through; every Hilton table of the manual (4-12 teams, with the two corrections
/// of docs/src/auditors/agreement.md) published by GetSchedule, the 4-team one played through; a
/// field with no table refused at round start naming the sizes there are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skalitzka_and_hilton_publish_the_manuals_tables() {
    let (_work, data, mut server) = serve("arbiter-team-tables");
    let mut c = Clients::new(&Endpoints::one(&server.grpc));

    // The manual's six-board table (Arbiters' Manual 2023 ch. IV §5): capitals 1-6, small letters 7-12, numbers
    // 13-18.
    let p = |s: &str| -> u32 {
        let ch = s.as_bytes()[0];
        match ch {
            b'A'..=b'F' => (ch - b'A') as u32 + 1,
            b'a'..=b'f' => (ch - b'a') as u32 + 7,
            _ => s.parse::<u32>().unwrap() + 12,
        }
    };
    let want: Vec<Round> = golden_file("skalitzka.json")["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|round| {
            let games = round
                .as_array()
                .unwrap()
                .iter()
                .map(|x| {
                    let (w, b) = x.as_str().unwrap().split_once('-').unwrap();
                    (p(w), p(b))
                })
                .collect();
            (games, None)
        })
        .collect();
    create_as(&mut c, "skalitzka-6", pb::PairingSystem::Skalitzka, 2).await;
    register(&mut c, "skalitzka-6", 18).await;
    assert_eq!(schedule(&mut c, "skalitzka-6").await, want);
    play(&mut c, "skalitzka-6", &want, |_, _, _| None).await;

    for teams in [4u32, 6, 8, 10, 12] {
        let tid = format!("hilton-{teams}");
        create_as(&mut c, &tid, pb::PairingSystem::Hilton, 3).await;
        register(&mut c, &tid, teams * (teams - 1)).await;
        let want = hilton_table(teams);
        assert_eq!(schedule(&mut c, &tid).await, want, "{tid}");
        if teams == 4 {
            play(&mut c, &tid, &want, |_, _, _| None).await;
        }
    }

    create_as(&mut c, "hilton-20", pb::PairingSystem::Hilton, 3).await;
    register(&mut c, "hilton-20", 20).await;
    let e = start(&mut c, "hilton-20", 1).await.unwrap_err();
    assert!(
        e.message().contains("12, 30, 56, 90 or 132 players"),
        "{}",
        e.message()
    );
    create_as(&mut c, "skalitzka-odd", pb::PairingSystem::Skalitzka, 2).await;
    register(&mut c, "skalitzka-odd", 15).await;
    let e = start(&mut c, "skalitzka-odd", 1).await.unwrap_err();
    assert!(
        e.message().contains("even number of boards"),
        "{}",
        e.message()
    );

    server.terminate();
    for tid in ["skalitzka-6", "hilton-4"] {
        let out = replay(&data, tid);
        assert!(
            out.contains("round 2: re-paired, identical"),
            "{tid}:\n{out}"
        );
    }
}

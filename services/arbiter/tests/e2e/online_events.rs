//! Online and hybrid events over gRPC (`arbiter serve`), the scenarios of
//! docs/src/guide/online-hybrid.md: scenario 11
//! (a hybrid event with traditional boards and a 10 s increment is a configuration error) and
//! scenario 12 (without the fair-play consent a player of an online supervised event is not
//! paired), each checked on the events appended and on what is refused with nothing appended.
//! `arbiter replay` re-derives the round paired without him.

use crate::support::*;
use arbiter_auth::Role;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::registration::v1::registration_client::RegistrationClient;
use arbiter_proto::reporting::v1 as rep;
use std::time::Duration;
use tonic::Code;
use tonic::transport::Channel;

const REGS: &str = "Online Open 2026, v1";

fn date(day: u32) -> Option<pb::Date> {
    Some(pb::Date {
        year: 2026,
        month: 5,
        day,
    })
}

fn event(
    format: pb::EventFormat,
    increment: u32,
    traditional_boards: bool,
) -> arbiter_proto::registration::v1::TournamentSettings {
    arbiter_proto::registration::v1::TournamentSettings {
        name: "Online Open".into(),
        start_date: date(1),
        end_date: date(3),
        chief_arbiter: Some(pb::Arbiter {
            name: "Arbiter, Chief".into(),
            fide_id: None,
            title: "IA".into(),
        }),
        pairing_system: pb::PairingSystem::Dutch as i32,
        rounds: 3,
        rating_kind: pb::RatingKind::Rapid as i32,
        conduct: Some(pb::Conduct {
            format: format as i32,
            periods: vec![pb::TimeControlPeriod {
                moves: 0,
                base_seconds: 900,
                increment_seconds: increment,
                delay_seconds: 0,
            }],
            traditional_boards,
            require_fair_play_consent: false,
            regulations_version: REGS.into(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// Creates `e` as tournament `tid` and registers `n` players, "Player, 1" to "Player, n",
/// rated 2500 - 20 i, each with a FIDE id.
async fn create_event(
    c: &mut Clients,
    tid: &str,
    e: arbiter_proto::registration::v1::TournamentSettings,
    n: u32,
) {
    c.reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header(tid, "create"),
            tournament: Some(e),
        })
        .await
        .unwrap_or_else(|e| panic!("{tid}: create: {e:?}"));
    for i in 1..=n {
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                confirm_same_name: false,
                header: header(tid, &format!("register-{i}")),
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: format!("Player, {i}"),
                    rating: 2500 - 20 * i,
                    fide_id: Some(4_100_000 + u64::from(i)),
                    ..Default::default()
                }),
            })
            .await
            .unwrap_or_else(|e| panic!("{tid}: register {i}: {e:?}"));
    }
}

/// The kinds of the tournament's events, in log order (empty when it has none).
async fn kinds_of(c: &mut Clients, tid: &str) -> Vec<&'static str> {
    let events = match collect_log(c.rep.stream_events(whole_log(tid, false)).await).await {
        Ok(events) => events,
        Err(e) if e.code() == Code::NotFound => return Vec::new(),
        Err(e) => panic!("stream {tid}: {e:?}"),
    };
    kinds(&events).into_iter().map(|(_, k)| k).collect()
}

fn consent(
    player_id: u32,
    items: &[pb::ConsentItem],
    account: &str,
) -> reg::RecordFairPlayConsentRequest {
    reg::RecordFairPlayConsentRequest {
        header: None,
        pairing_number: player_id,
        entry: 0,
        numbering_version: None,
        consent: Some(arbiter_proto::registration::v1::FairPlayConsent {
            regulations_version: REGS.into(),
            accepted_by: format!("player {player_id}"),
            by_guardian: false,
            items: items.iter().map(|i| *i as i32).collect(),
            platform_account: account.into(),
        }),
    }
}

const ALL: [pb::ConsentItem; 5] = [
    pb::ConsentItem::AnalysisAndSanctions,
    pb::ConsentItem::RealName,
    pb::ConsentItem::RemoteSupervision,
    pb::ConsentItem::Recording,
    pb::ConsentItem::ComplaintsProcedure,
];

fn as_player(
    url: &str,
    tid: &str,
    entry: u32,
) -> RegistrationClient<arbiter_auth::client::WithToken<Channel>> {
    let keys = &token::auth().keys;
    let t = token::issue(
        keys,
        &format!("player-{entry}"),
        Role::Player,
        &[tid],
        Some(entry),
        3600,
    );
    let ch = Channel::from_shared(url.to_string())
        .unwrap()
        .connect_timeout(Duration::from_secs(5))
        .connect_lazy();
    RegistrationClient::new(arbiter_auth::client::WithToken::new(ch, Some(&t)).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenario_11_and_12_over_grpc() {
    let work = TempDir::new("arbiter-online").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));

    // --- scenario 11 ------------------------------------------------------------------------
    let e = c
        .reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header("hybrid", "create"),
            tournament: Some(event(pb::EventFormat::Hybrid, 10, true)),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(
        e.message().contains("conduct.periods[0].increment_seconds")
            && e.message().contains("E.04 Art. 20"),
        "{}",
        e.message()
    );
    assert!(
        kinds_of(&mut c, "hybrid").await.is_empty(),
        "a refused creation appends nothing"
    );
    c.reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header("hybrid", "create-30"),
            tournament: Some(event(pb::EventFormat::Hybrid, 30, true)),
        })
        .await
        .expect("30 s from move 1 is allowed");
    assert_eq!(kinds_of(&mut c, "hybrid").await, vec!["TournamentCreated"]);

    // --- scenario 12 ------------------------------------------------------------------------
    let tid = "online";
    create_event(
        &mut c,
        tid,
        event(pb::EventFormat::OnlineSupervised, 5, false),
        5,
    )
    .await;
    // Players 1-3 give their own consent with their player tokens; player 4's is recorded by
    // the arbiter (given on paper).
    for entry in 1..=3u32 {
        let mut own = as_player(&server.grpc, tid, entry);
        let mut r = consent(0, &ALL, &format!("acc{entry}"));
        r.entry = entry;
        r.header = header(tid, &format!("consent-{entry}"));
        own.record_fair_play_consent(r).await.unwrap();
    }
    let mut r = consent(4, &ALL, "acc4");
    r.header = header(tid, "consent-4");
    c.reg.record_fair_play_consent(r).await.unwrap();
    let before = kinds_of(&mut c, tid).await;
    assert_eq!(
        before
            .iter()
            .filter(|k| **k == "FairPlayConsentRecorded")
            .count(),
        4
    );

    // Refused, nothing appended: another player's consent with a player token, a consent
    // missing the remote-supervision items, a second consent.
    let mut other = as_player(&server.grpc, tid, 1);
    let mut r = consent(0, &ALL, "acc5");
    r.entry = 5;
    r.header = header(tid, "consent-5-by-1");
    let e = other.record_fair_play_consent(r).await.unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    let mut r = consent(
        5,
        &[
            pb::ConsentItem::AnalysisAndSanctions,
            pb::ConsentItem::RealName,
        ],
        "acc5",
    );
    r.header = header(tid, "consent-5-short");
    let e = c.reg.record_fair_play_consent(r).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(
        e.message().contains("REMOTE_SUPERVISION"),
        "{}",
        e.message()
    );
    let mut r = consent(2, &ALL, "other");
    r.header = header(tid, "consent-2-again");
    let e = c.reg.record_fair_play_consent(r).await.unwrap_err();
    assert_eq!(e.code(), Code::AlreadyExists, "{e:?}");
    assert_eq!(
        kinds_of(&mut c, tid).await,
        before,
        "refusals append nothing"
    );

    let players = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(tid),
        })
        .await
        .unwrap()
        .into_inner();
    let status: Vec<i32> = players.players.iter().map(|p| p.status).collect();
    let active = reg::PlayerStatus::Active as i32;
    assert_eq!(
        status,
        vec![
            active,
            active,
            active,
            active,
            reg::PlayerStatus::ConsentMissing as i32
        ]
    );

    // Round 1: the pairing worker pairs players 1-4; player 5 is listed unpaired with zero.
    let mut d = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    d.start_round(1).await;
    let proposal = d.wait_proposal(1, Duration::from_secs(60)).await;
    let (boards, bye) = pairing_of(&proposal);
    let mut paired: Vec<u32> = boards.iter().flat_map(|&(w, b)| [w, b]).collect();
    paired.sort_unstable();
    assert_eq!(paired, vec![1, 2, 3, 4], "{proposal:?}");
    assert_eq!(bye, None);
    assert_eq!(
        proposal
            .unpaired
            .iter()
            .map(|u| (u.player_id, u.code))
            .collect::<Vec<_>>(),
        vec![(5, pb::ResultCode::ZeroBye as i32)]
    );
    d.publish(1).await;
    drop(d);
    drop(server);
    let out = run(&["replay", "--data", data.to_str().unwrap(), tid]);
    assert_eq!(out.code, 0, "replay:\n{}\n{}", out.stdout, out.stderr);
}

/// A channel to `url` sending `token`.
fn authed(url: &str, token: &str) -> arbiter_auth::client::WithToken<Channel> {
    let ch = Channel::from_shared(url.to_string())
        .unwrap()
        .connect_timeout(Duration::from_secs(5))
        .connect_lazy();
    arbiter_auth::client::WithToken::new(ch, Some(token)).unwrap()
}

/// The round director at `url`, called with `token`.
fn director_as(
    url: &str,
    token: &str,
) -> arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient<
    arbiter_auth::client::WithToken<Channel>,
> {
    arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient::new(authed(
        url, token,
    ))
}

/// Scenario 6: the platform posts a game it scored a draw by timeout, though the side whose
/// flag fell faced a queen; the Laws make it a win (E.04 4.5), the discrepancy is appended
/// with the game, and the arbiter overrides the result with a reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenario_6_a_platform_result_the_laws_contradict_is_overridden() {
    use arbiter_proto::round_director::v1 as rd;
    use arbiter_proto::screening::v1 as scr;
    use arbiter_proto::screening::v1::screening_client::ScreeningClient;
    let work = TempDir::new("arbiter-online-6").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "online-6";
    let mut e = event(pb::EventFormat::OnlineUnsupervised, 2, false);
    e.conduct.as_mut().unwrap().regulations_version.clear();
    create_event(&mut c, tid, e, 4).await;
    let mut d = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    d.start_round(1).await;
    let proposal = d.wait_proposal(1, Duration::from_secs(60)).await;
    d.publish(1).await;
    let (boards, _) = pairing_of(&proposal);
    let (w, b) = boards[0];
    // White mates nothing yet: after 1. Qc1 Black's clock runs out with White a queen up.
    let pgn = format!(
        "[Event \"Online Open\"]\n[White \"Player, {w}\"]\n[Black \"Player, {b}\"]\n\
         [Result \"1/2-1/2\"]\n[Termination \"Time forfeit\"]\n[SetUp \"1\"]\n\
         [FEN \"7k/8/8/8/8/8/8/KQ6 w - - 0 1\"]\n\n1. Qc1 {{ [%clk 0:00:41] }} 1/2-1/2\n"
    );
    let keys = &token::auth().keys;
    let platform = token::issue(keys, "lichess-like", Role::Platform, &[tid], None, 3600);
    let mut scr_platform = ScreeningClient::new(authed(&server.grpc, &platform));
    // The platform may post games, and nothing else.
    let mut director_as_platform = director_as(&server.grpc, &platform);
    let refused = director_as_platform
        .record_result(rd::RecordResultRequest {
            header: header(tid, "platform-result"),
            round: 1,
            board: 1,
            result: pb::BoardResult::Draw as i32,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    scr_platform
        .submit_game(scr::SubmitGameRequest {
            header: header(tid, "platform-game-1"),
            round: 1,
            board: 1,
            pgn,
        })
        .await
        .expect("the platform posts the game");
    let k = kinds_of(&mut c, tid).await;
    let n = k.len();
    assert_eq!(
        &k[n - 2..],
        ["GameSubmitted", "ResultDiscrepancyDetected"],
        "{k:?}"
    );

    // Recording a result other than the score's is refused, naming the override.
    let e =
        c.rd.record_result(rd::RecordResultRequest {
            header: header(tid, "result-1"),
            round: 1,
            board: 1,
            result: pb::BoardResult::WhiteWins as i32,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(
        e.message().contains("OverridePlatformResult"),
        "{}",
        e.message()
    );
    c.rd.override_platform_result(rd::OverridePlatformResultRequest {
        header: header(tid, "override-1"),
        round: 1,
        board: 1,
        result: pb::BoardResult::WhiteWins as i32,
        reason: "Black's flag fell with White a queen up (E.04 4.5)".into(),
    })
    .await
    .expect("the arbiter overrides");
    let k = kinds_of(&mut c, tid).await;
    assert_eq!(&k[n..], ["ResultOverridden", "ResultRecorded"], "{k:?}");

    // Board 2 through the platforms' webhook (the same call over HTTP): a resignation the
    // moves do not decide, so no discrepancy; the arbiter confirms it with RecordResult.
    let (w2, b2) = boards[1];
    let game2 = format!(
        "[White \"Player, {w2}\"]\n[Black \"Player, {b2}\"]\n[Result \"0-1\"]\n\
         [Termination \"Normal\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"
    );
    let http = server.http.clone().expect("the HTTP port");
    let path = format!("/api/platform/v1/tournaments/{tid}/rounds/1/boards/2/game");
    let (status, body) = http_request(&http, "POST", &path, &[], &game2);
    assert_eq!(status, 401, "{body}");
    let player = token::issue(keys, "p1", Role::Player, &[tid], Some(1), 3600);
    let (status, body) = http_request(
        &http,
        "POST",
        &path,
        &[format!("Authorization: Bearer {player}")],
        &game2,
    );
    assert_eq!(status, 403, "{body}");
    let with_key = [
        format!("Authorization: Bearer {platform}"),
        "Idempotency-Key: board-2".to_string(),
        "Content-Type: application/x-chess-pgn".to_string(),
    ];
    let (status, body) = http_request(&http, "POST", &path, &with_key, "1. e4 e5 2. Ke3 *");
    assert_eq!(status, 422, "an illegal move: {body}");
    let (status, body) = http_request(&http, "POST", &path, &with_key, &game2);
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(answer["replayed"], false, "{body}");
    // The same key again: answered once, nothing appended.
    let (status, again) = http_request(&http, "POST", &path, &with_key, &game2);
    assert_eq!(status, 200, "{again}");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&again).unwrap()["replayed"],
        true
    );
    let k = kinds_of(&mut c, tid).await;
    assert_eq!(&k[n + 2..], ["GameSubmitted"], "{k:?}");
    // (The mate is Black's: 0-1 agrees with the Laws.)
    c.rd.record_result(rd::RecordResultRequest {
        header: header(tid, "result-2"),
        round: 1,
        board: 2,
        result: pb::BoardResult::BlackWins as i32,
        ..Default::default()
    })
    .await
    .expect("the arbiter confirms the platform's result");
    let standings = c
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref(tid),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let winners: Vec<(u32, i32)> = standings
        .rows
        .iter()
        .filter(|r| arbiter_proto::tenths(r.score.as_ref()) == 10)
        .map(|r| (r.pairing_number, arbiter_proto::tenths(r.score.as_ref())))
        .collect();
    assert_eq!(winners.len(), 2, "{standings:?}");
    assert!(winners.iter().any(|&(p, _)| p == w), "{standings:?}");
    assert!(winners.iter().any(|&(p, _)| p == b2), "{standings:?}");
    drop(d);
    drop(server);
    let out = run(&["replay", "--data", data.to_str().unwrap(), tid]);
    assert_eq!(out.code, 0, "replay:\n{}\n{}", out.stdout, out.stderr);
}

/// An event of `format` (5 s a move) and `n` players who have all consented; `policy` sets
/// the reconnection window and the video-conference cards.
async fn consenting_event(
    c: &mut Clients,
    tid: &str,
    n: u32,
    format: pb::EventFormat,
    policy: (u32, u32),
) {
    let mut e = event(format, 5, false);
    if let Some(conduct) = e.conduct.as_mut() {
        (conduct.reconnection_window_s, conduct.vcs_red_card_after) = policy;
    }
    create_event(c, tid, e, n).await;
    for i in 1..=n {
        let mut r = consent(0, &ALL, &format!("acc{i}"));
        r.entry = i;
        r.header = header(tid, &format!("consent-{i}"));
        c.reg.record_fair_play_consent(r).await.unwrap();
    }
}

/// Scenarios 5 (colours reversed), 7 (a correction after the next pairing) and 9 (a sanction
/// on statistics alone) of docs/src/guide/online-hybrid.md, over gRPC.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenarios_5_7_and_9_over_grpc() {
    use arbiter_proto::round_director::v1 as rd;
    let work = TempDir::new("arbiter-online-579").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "online-579";
    consenting_event(&mut c, tid, 4, pb::EventFormat::OnlineSupervised, (0, 0)).await;
    let mut d = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    d.start_round(1).await;
    let p1 = pairing_of(&d.wait_proposal(1, Duration::from_secs(60)).await);
    d.publish(1).await;

    // Scenario 5: colours reversed, noticed after 8 moves each (restart) and after 10 (go on).
    for (board, plies, want) in [
        (
            1u32,
            16u32,
            pb::IrregularityDecision::RestartWithCorrectColours,
        ),
        (2, 20, pb::IrregularityDecision::Continue),
    ] {
        c.rd.record_irregularity(rd::RecordIrregularityRequest {
            header: header(tid, &format!("colours-{board}")),
            round: 1,
            board,
            kind: pb::IrregularityKind::ColoursReversed as i32,
            plies,
            decision: 0,
            note: "noticed by the supervising arbiter".into(),
        })
        .await
        .unwrap();
        let events = d.events().await;
        let Some(pb::event::Kind::IrregularityRecorded(i)) = events
            .last()
            .and_then(|e| e.payload.as_ref())
            .and_then(|p| p.kind.clone())
        else {
            panic!("{:?}", kinds(&events))
        };
        assert_eq!(i.decision, want as i32, "board {board}");
        assert_eq!(i.article, "E.04 Art. 15.2");
    }

    // Scenario 9: "game lost" resting on the screening alone is refused, nothing appended;
    // with an observed breach it stands and the game is the opponent's.
    let (w2, b2) = p1.0[1];
    let statistical = pb::Evidence {
        kind: pb::EvidenceKind::Statistical as i32,
        reference: "PlayerScreeningComputed z 4.1".into(),
        note: String::new(),
    };
    let before = kinds_of(&mut c, tid).await.len();
    let sanction = |evidence: Vec<pb::Evidence>, id: &str| rd::ImposeSanctionRequest {
        pairing_number: b2,
        header: header(tid, id),
        sanction: Some(arbiter_proto::round_director::v1::SanctionTerms {
            kind: pb::SanctionKind::GameLost as i32,
            round: 1,
            evidence,
            ..Default::default()
        }),
        entry: 0,
        numbering_version: None,
    };
    let e =
        c.rd.impose_sanction(sanction(vec![statistical.clone()], "sanction-stats"))
            .await
            .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(
        e.message().contains("evidence other than statistics"),
        "{}",
        e.message()
    );
    assert_eq!(
        kinds_of(&mut c, tid).await.len(),
        before,
        "nothing appended"
    );
    let breach = pb::Evidence {
        kind: pb::EvidenceKind::ObservedBreach as i32,
        reference: "video-conference recording 14:32".into(),
        note: "second screen seen on the room camera".into(),
    };
    c.rd.impose_sanction(sanction(vec![statistical, breach], "sanction-breach"))
        .await
        .expect("with an observed breach");
    let k = kinds_of(&mut c, tid).await;
    assert_eq!(&k[before..], ["SanctionImposed", "ResultRecorded"], "{k:?}");
    // The public stream keeps the sanction's place, not its evidence; its result is public.
    let public = public_events(&server.grpc, tid).await;
    let sanction_event = &public[before];
    assert!(sanction_event.payload.is_none(), "{sanction_event:?}");
    assert!(public[before + 1].payload.is_some());

    // Scenario 7: board 1's result corrected after round 2 was paired, before it ended: it
    // counts for later pairings and the standings, not for round 2's pairing (C.04.2 D.8).
    let (w1, b1) = p1.0[0];
    c.rd.record_result(rd::RecordResultRequest {
        header: header(tid, "result-1-1"),
        round: 1,
        board: 1,
        result: pb::BoardResult::WhiteWins as i32,
        ..Default::default()
    })
    .await
    .unwrap();
    d.close(1).await;
    d.start_round(2).await;
    d.wait_proposal(2, Duration::from_secs(60)).await;
    d.publish(2).await;
    c.rd.correct_result(rd::CorrectResultRequest {
        header: header(tid, "correct-1-1"),
        round: 1,
        board: 1,
        corrected: pb::BoardResult::Draw as i32,
        reason: "the players reported a draw agreed before the flag fell".into(),
        ..Default::default()
    })
    .await
    .unwrap();
    let state =
        c.rd.get_tournament(rd::GetTournamentRequest {
            tournament: tref(tid),
        })
        .await
        .unwrap()
        .into_inner();
    let corrections: Vec<(u32, u32, i32)> = state
        .corrections
        .iter()
        .map(|c| (c.round, c.board, c.effect))
        .collect();
    assert_eq!(
        corrections,
        vec![(1, 1, rd::CorrectionEffect::LaterPairings as i32)],
        "players {w1}-{b1}, {w2}-{b2}"
    );
    drop(d);
    drop(server);
    let out = run(&["replay", "--data", data.to_str().unwrap(), tid]);
    assert_eq!(out.code, 0, "replay:\n{}\n{}", out.stdout, out.stderr);
}

/// The tournament's events as a caller without a token reads them.
async fn public_events(url: &str, tid: &str) -> Vec<pb::Envelope> {
    let mut public =
        arbiter_proto::reporting::v1::reporting_client::ReportingClient::connect(url.to_string())
            .await
            .unwrap();
    collect_log(public.stream_events(whole_log(tid, false)).await)
        .await
        .unwrap()
}

/// The tournament's events as the holder of `token` reads them.
async fn events_as(url: &str, tid: &str, token: &str) -> Vec<pb::Envelope> {
    let mut client =
        arbiter_proto::reporting::v1::reporting_client::ReportingClient::new(authed(url, token));
    collect_log(client.stream_events(whole_log(tid, true)).await)
        .await
        .unwrap()
}

/// The kinds the pages' event feed (`/t/{tid}/events`, server-sent events) names for the
/// whole stream up to `last`, as a client with `token` (or none) receives them.
fn feed_kinds(http: &str, tid: &str, token: Option<&str>, last: u64) -> Vec<String> {
    use std::io::{BufRead, BufReader, Write};
    let addr = http.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect http");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    write!(
        s,
        "GET /t/{tid}/events?after=0 HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n"
    )
    .expect("send");
    let mut kinds = Vec::new();
    let mut lines = BufReader::new(s).lines();
    let first = lines.next().expect("a status line").expect("read");
    assert!(first.contains(" 200 "), "{first}");
    for line in lines {
        let line = line.expect("the feed's next line");
        let Some(data) = line.strip_prefix("data:") else {
            continue;
        };
        let v: serde_json::Value = serde_json::from_str(data.trim()).expect("JSON data");
        for k in v["events"].as_array().into_iter().flatten() {
            kinds.push(k.as_str().unwrap().to_string());
        }
        if v["version"].as_u64() >= Some(last) && v.get("events").is_some() {
            break;
        }
    }
    kinds
}

/// The last event of the tournament's stream, decoded.
async fn last_event(d: &mut Driver) -> pb::event::Kind {
    let events = d.events().await;
    events
        .last()
        .and_then(|e| e.payload.as_ref())
        .and_then(|p| p.kind.clone())
        .expect("an event")
}

/// Scenarios 1-4 of docs/src/guide/online-hybrid.md over gRPC: disconnections as facts, then the
/// chief arbiter's ruling under the event's policy (E.04 11, 13, 18.9).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenarios_1_to_4_disconnections_over_grpc() {
    use arbiter_proto::round_director::v1 as rd;
    let work = TempDir::new("arbiter-online-1234").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let t0 = 1_780_000_000_000i64;
    let incident = |tid: &str,
                    id: &str,
                    board: u32,
                    player: u32,
                    channel: pb::ConnectionChannel,
                    clock_s: u32,
                    away_s: Option<i64>,
                    moved: bool| {
        rd::ReportConnectionIncidentRequest {
            header: header(tid, id),
            incident: Some(arbiter_proto::round_director::v1::ConnectionIncident {
                round: 1,
                board,
                pairing_number: player,
                channel: channel as i32,
                disconnected_at_unix_ms: t0,
                reconnected_at_unix_ms: away_s.map_or(0, |a| t0 + a * 1000),
                clock_at_disconnect_ms: clock_s * 1000,
                moved_while_vcs_down: moved,
                reported_by: pb::IncidentReporter::Platform as i32,
                ..Default::default()
            }),
        }
    };
    let ruling = |tid: &str, id: &str, n: u32, outcome: pb::DisconnectionOutcome, fen: &str| {
        rd::RuleOnDisconnectionRequest {
            header: header(tid, id),
            ruling: Some(arbiter_proto::round_director::v1::DisconnectionRuling {
                incident: n,
                outcome: outcome as i32,
                fen: fen.into(),
                ..Default::default()
            }),
        }
    };

    // An online supervised event: a 5-minute reconnection window, red card at the second
    // breach of the video-conference rule.
    let tid = "online-dc";
    consenting_event(&mut c, tid, 6, pb::EventFormat::OnlineSupervised, (300, 2)).await;
    let mut d = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    d.start_round(1).await;
    let (boards, _) = pairing_of(&d.wait_proposal(1, Duration::from_secs(60)).await);
    d.publish(1).await;

    // 1: 3:00 on his clock, back after 2:00: the game goes on with 1:00.
    let (_, b1) = boards[0];
    c.rd.report_connection_incident(incident(
        tid,
        "dc-1",
        1,
        b1,
        pb::ConnectionChannel::Platform,
        180,
        Some(120),
        false,
    ))
    .await
    .unwrap();
    c.rd.rule_on_disconnection(ruling(
        tid,
        "rule-1",
        1,
        pb::DisconnectionOutcome::Continue,
        "",
    ))
    .await
    .unwrap();
    let pb::event::Kind::DisconnectionRuled(r) = last_event(&mut d).await else {
        panic!("no ruling")
    };
    assert_eq!(
        (r.remaining_ms, r.article.as_str()),
        (60_000, "E.04 Art. 11.4.1")
    );

    // 2: never back, and his opponent has a bare king: not a loss but a draw.
    let (w3, _) = boards[2];
    c.rd.report_connection_incident(incident(
        tid,
        "dc-2",
        3,
        w3,
        pb::ConnectionChannel::Platform,
        40,
        None,
        false,
    ))
    .await
    .unwrap();
    let bare_king = "7k/8/8/8/8/8/8/KQ6 w - - 0 70";
    let e =
        c.rd.rule_on_disconnection(ruling(
            tid,
            "rule-2-loss",
            2,
            pb::DisconnectionOutcome::LossByDisconnection,
            bare_king,
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(
        e.message().contains("DrawNoMatingMaterial"),
        "{}",
        e.message()
    );
    let before = kinds_of(&mut c, tid).await.len();
    c.rd.rule_on_disconnection(ruling(
        tid,
        "rule-2",
        2,
        pb::DisconnectionOutcome::DrawNoMatingMaterial,
        bare_king,
    ))
    .await
    .unwrap();
    let k = kinds_of(&mut c, tid).await;
    assert_eq!(
        &k[before..],
        ["DisconnectionRuled", "ResultRecorded"],
        "{k:?}"
    );

    // 3: moving while off the video-conference, twice: a yellow card, then a red one that
    // loses the game.
    let (w2, _) = boards[1];
    for (id, want) in [
        (
            "dc-3a",
            &["ConnectionIncidentReported", "SanctionImposed"][..],
        ),
        (
            "dc-3b",
            &[
                "ConnectionIncidentReported",
                "SanctionImposed",
                "ResultRecorded",
            ][..],
        ),
    ] {
        let before = kinds_of(&mut c, tid).await.len();
        c.rd.report_connection_incident(incident(
            tid,
            id,
            2,
            w2,
            pb::ConnectionChannel::VideoConference,
            200,
            Some(15),
            true,
        ))
        .await
        .unwrap();
        let k = kinds_of(&mut c, tid).await;
        assert_eq!(&k[before..], want, "{id}");
    }

    // The arbiter's record lists them in log order; it is not a public read.
    let record =
        c.rd.arbiter_record(rd::GetTournamentRequest {
            tournament: tref(tid),
        })
        .await
        .unwrap()
        .into_inner();
    let listed: Vec<&str> = kinds(&record.events).into_iter().map(|(_, k)| k).collect();
    assert_eq!(
        listed,
        [
            "ConnectionIncidentReported",
            "DisconnectionRuled",
            "ConnectionIncidentReported",
            "DisconnectionRuled",
            "ConnectionIncidentReported",
            "SanctionImposed",
            "ConnectionIncidentReported",
            "SanctionImposed",
        ]
    );
    let mut public =
        arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient::connect(
            server.grpc.clone(),
        )
        .await
        .unwrap();
    let e = public
        .arbiter_record(rd::GetTournamentRequest {
            tournament: tref(tid),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated, "{e:?}");

    // 4: a hybrid event's venue loses its internet at move 12; the venue's technical arbiter
    // reports it and the chief arbiter resumes from the stored position and clocks.
    let tid = "hybrid-dc";
    consenting_event(&mut c, tid, 2, pb::EventFormat::Hybrid, (0, 0)).await;
    let mut h = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    h.start_round(1).await;
    let (hb, _) = pairing_of(&h.wait_proposal(1, Duration::from_secs(60)).await);
    h.publish(1).await;
    let mut report = incident(
        tid,
        "venue-down",
        1,
        hb[0].0,
        pb::ConnectionChannel::Platform,
        900,
        Some(600),
        false,
    );
    report.incident.as_mut().unwrap().reported_by =
        pb::IncidentReporter::LocalTechnicalArbiter as i32;
    // The venue's technical arbiter reports with his own token; he may not rule.
    let lta = token::issue(
        &token::auth().keys,
        "lta-venue-2",
        Role::LocalTechnicalArbiter,
        &[tid],
        None,
        3600,
    );
    let mut as_lta = director_as(&server.grpc, &lta);
    as_lta.report_connection_incident(report).await.unwrap();
    let e = as_lta
        .rule_on_disconnection(ruling(
            tid,
            "lta-rules",
            1,
            pb::DisconnectionOutcome::RestartSameTimeControl,
            "",
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 12";
    let mut resume = ruling(
        tid,
        "resume",
        1,
        pb::DisconnectionOutcome::ResumeFromPosition,
        fen,
    );
    if let Some(r) = resume.ruling.as_mut() {
        (r.white_ms, r.black_ms) = (540_000, 610_000);
    }
    c.rd.rule_on_disconnection(resume).await.unwrap();
    let pb::event::Kind::DisconnectionRuled(r) = last_event(&mut h).await else {
        panic!("no ruling")
    };
    assert_eq!(
        (r.fen.as_str(), r.white_ms, r.black_ms),
        (fen, 540_000, 610_000)
    );
    assert_eq!(r.article, "E.04 Art. 18.9 a");
    // A bad position is named.
    let e =
        c.rd.rule_on_disconnection(ruling(
            tid,
            "bad-fen",
            1,
            pb::DisconnectionOutcome::ResumeFromPosition,
            "8/8 w",
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    drop((d, h));
    drop(server);
    for tid in ["online-dc", "hybrid-dc"] {
        let out = run(&["replay", "--data", data.to_str().unwrap(), tid]);
        assert_eq!(out.code, 0, "replay {tid}:\n{}\n{}", out.stdout, out.stderr);
    }
}

/// libfaketime, which CI installs (Debian package faketime): a process started with it reads
/// the clock shifted; tokio's timers keep the real monotonic clock.
const FAKETIME: &str = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

/// Scenario 10 of docs/src/guide/online-hybrid.md: a complaint within 24 hours of the last round is
/// admitted; the same server restarted 30 hours later (its clock shifted by libfaketime, the
/// log's times real) rejects one as late (E.04 Appendix I G.2.1). Complaints are confidential:
/// StreamEvents sends them without content to the public, GetScreening to the fair-play roles.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenario_10_a_complaint_30_hours_after_the_last_round_is_late() {
    use arbiter_proto::screening::v1 as scr;
    use arbiter_proto::screening::v1::screening_client::ScreeningClient;
    assert!(
        std::path::Path::new(FAKETIME).exists(),
        "{FAKETIME} (apt-get install faketime; .ci/run installs it)"
    );
    let work = TempDir::new("arbiter-online-10").unwrap();
    let data = work.path().join("data");
    let mut server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "online-10";
    let mut e = event(pb::EventFormat::OnlineUnsupervised, 2, false);
    e.rounds = 1;
    e.conduct.as_mut().unwrap().regulations_version.clear();
    create_event(&mut c, tid, e, 2).await;
    let mut d = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    d.start_round(1).await;
    let (boards, _) = pairing_of(&d.wait_proposal(1, Duration::from_secs(60)).await);
    d.publish(1).await;
    d.results(1, &(boards.clone(), None), 0..1).await;
    d.close(1).await;
    let (white, black) = boards[0];
    let complaint = |id: &str| scr::FileComplaintRequest {
        header: header(tid, id),
        entry: 0,
        pairing_number: black,
        numbering_version: None,
        accused: white,
        grounds: "a second voice could be heard on his stream".into(),
        evidence: vec![pb::Evidence {
            kind: pb::EvidenceKind::Testimony as i32,
            reference: "statement of a spectator".into(),
            note: String::new(),
        }],
        only_rating_performance: false,
    };
    // The complainant with his own player token (entry = pairing number: registered in
    // rating order).
    let keys = &token::auth().keys;
    // Valid for two days: the restarted server's clock reads 30 hours on.
    let own = token::issue(
        keys,
        "complainant",
        Role::Player,
        &[tid],
        Some(black),
        2 * 86400,
    );
    let mut as_player = ScreeningClient::new(authed(&server.grpc, &own));
    as_player
        .file_complaint(complaint("complaint-now"))
        .await
        .unwrap();

    server.terminate();
    server.env = vec![
        ("LD_PRELOAD".into(), FAKETIME.into()),
        ("FAKETIME".into(), "+30h".into()),
        ("FAKETIME_DONT_FAKE_MONOTONIC".into(), "1".into()),
    ];
    server.restart();
    let mut as_player = ScreeningClient::new(authed(&server.grpc, &own));
    as_player
        .file_complaint(complaint("complaint-30h"))
        .await
        .unwrap();
    let mut admin = ScreeningClient::new(authed(&server.grpc, &token::auth().admin));
    let report = admin
        .get_screening(scr::GetScreeningRequest {
            tournament: tref(tid),
            reason: "complaint intake".into(),
        })
        .await
        .unwrap()
        .into_inner();
    let outcomes: Vec<(u32, i32, String)> = report
        .complaints
        .iter()
        .map(|c| (c.complaint, c.outcome, c.article.clone()))
        .collect();
    assert_eq!(
        outcomes,
        vec![
            (
                1,
                pb::ComplaintOutcome::Admitted as i32,
                "E.04 Appendix I G.2".into()
            ),
            (
                2,
                pb::ComplaintOutcome::RejectedAsLate as i32,
                "E.04 Appendix I G.2.1".into()
            ),
        ]
    );
    let late = &report.complaints[1];
    assert!(late.filed_at_unix_ms > late.deadline_unix_ms, "{late:?}");
    // The public stream keeps their place in the chain, not their content (nor who filed
    // them: the command id and actor are withheld too).
    let filed: Vec<u64> = kinds(&d.events().await)
        .into_iter()
        .filter(|(_, k)| *k == "ComplaintFiled")
        .map(|(v, _)| v)
        .collect();
    assert_eq!(filed.len(), 2);
    let complaints: Vec<pb::Envelope> = public_events(&server.grpc, tid)
        .await
        .into_iter()
        .filter(|e| filed.contains(&e.version))
        .collect();
    assert_eq!(complaints.len(), 2);
    assert!(
        complaints
            .iter()
            .all(|e| e.redacted && e.payload.is_none() && e.command_id.is_empty()),
        "{complaints:?}"
    );
    drop(d);
}

/// Appeals (GR 10; E.04 9.14, 17.11): a player appeals a sanction with his own token
/// within the announced 30 minutes; the committee (three members) upholds it and sets the
/// result, which corrects the sanction's; an appeal received an hour later (the server
/// restarted an hour on under libfaketime) is recorded as not admitted and cannot be decided.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appeals_within_and_after_the_deadline() {
    use arbiter_proto::round_director::v1 as rd;
    let work = TempDir::new("arbiter-appeals").unwrap();
    let data = work.path().join("data");
    let mut server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "appeals";
    let mut e = event(pb::EventFormat::OnlineUnsupervised, 2, false);
    if let Some(conduct) = e.conduct.as_mut() {
        conduct.regulations_version.clear();
        conduct.appeal_deadline_minutes = 30;
    }
    create_event(&mut c, tid, e, 2).await;
    let mut d = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    d.start_round(1).await;
    let (boards, _) = pairing_of(&d.wait_proposal(1, Duration::from_secs(60)).await);
    d.publish(1).await;
    let (_, black) = boards[0];
    c.rd.impose_sanction(rd::ImposeSanctionRequest {
        pairing_number: black,
        header: header(tid, "sanction"),
        sanction: Some(arbiter_proto::round_director::v1::SanctionTerms {
            kind: pb::SanctionKind::GameLost as i32,
            round: 1,
            evidence: vec![pb::Evidence {
                kind: pb::EvidenceKind::ObservedBreach as i32,
                reference: "room camera".into(),
                note: String::new(),
            }],
            ..Default::default()
        }),
        entry: 0,
        numbering_version: None,
    })
    .await
    .unwrap();
    let events = d.events().await;
    let decision = kinds(&events)
        .into_iter()
        .find(|(_, k)| *k == "SanctionImposed")
        .map(|(v, _)| v)
        .expect("the sanction");
    let keys = &token::auth().keys;
    let own = token::issue(
        keys,
        "appellant",
        Role::Player,
        &[tid],
        Some(black),
        2 * 86400,
    );
    let appeal = |id: &str, version: u64| rd::FileAppealRequest {
        header: header(tid, id),
        entry: 0,
        pairing_number: black,
        numbering_version: None,
        decision_version: version,
        grounds: "the device was the venue's own".into(),
        deposit: "50 EUR".into(),
    };
    let mut as_player = director_as(&server.grpc, &own);
    // Not a decision: refused.
    let e = as_player
        .file_appeal(appeal("appeal-bad", 1))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    // A token whose role may not appeal is refused before the log is read for it, and the
    // refusal appends nothing.
    let platform = token::issue(keys, "platform-x", Role::Platform, &[tid], None, 3600);
    let before = d.events().await.len();
    let e = director_as(&server.grpc, &platform)
        .file_appeal(appeal("appeal-platform", decision))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    assert_eq!(d.events().await.len(), before);
    as_player
        .file_appeal(appeal("appeal-1", decision))
        .await
        .unwrap();
    let decide = |id: &str, n: u32, members: usize| rd::DecideAppealRequest {
        header: header(tid, id),
        appeal: n,
        upheld: true,
        deposit_returned: true,
        committee: (1..=members).map(|i| format!("Member {i}")).collect(),
        note: String::new(),
        round: 1,
        board: 1,
        result: pb::BoardResult::Draw as i32,
        white_code: 0,
        black_code: 0,
    };
    let e =
        c.rd.decide_appeal(decide("decide-2", 1, 2))
            .await
            .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    let before = kinds_of(&mut c, tid).await.len();
    c.rd.decide_appeal(decide("decide-1", 1, 3)).await.unwrap();
    let k = kinds_of(&mut c, tid).await;
    assert_eq!(&k[before..], ["AppealDecided", "ResultCorrected"], "{k:?}");

    // Confidential means confidential (README "What each reader sees"): the sanction, the
    // appeal and its decision reach an anonymous client and another player as their place in
    // the chain only, over gRPC and on the pages' event feed; the arbiter's token and the
    // appellant's own receive them whole.
    let (white, _) = boards[0];
    let arbiter = token::issue(keys, "Arbiter, Ann", Role::Arbiter, &[tid], None, 3600);
    let other = token::issue(keys, "other", Role::Player, &[tid], Some(white), 3600);
    let anonymous = public_events(&server.grpc, tid).await;
    let whole = events_as(&server.grpc, tid, &arbiter).await;
    let mine = events_as(&server.grpc, tid, &own).await;
    let theirs = events_as(&server.grpc, tid, &other).await;
    let confidential = ["SanctionImposed", "AppealFiled", "AppealDecided"];
    let grounds = "the device was the venue's own";
    // A signed head may be appended between the reads: the prefix all four read.
    let n = [anonymous.len(), whole.len(), mine.len(), theirs.len()]
        .into_iter()
        .min()
        .unwrap();
    assert!(n >= before + 2, "{n} events");
    for (i, w) in whole.iter().enumerate().take(n) {
        let kind = w.payload.as_ref().map(arbiter_eventlog::kind_name).unwrap();
        assert!(!w.redacted && !w.payload_bytes.is_empty(), "{kind}");
        for (who, seen) in [("anonymous", &anonymous[i]), ("another player", &theirs[i])] {
            let chain = |e: &pb::Envelope| (e.version, e.previous_hash.clone(), e.hash.clone());
            assert_eq!(chain(seen), chain(w), "{who}: {kind}");
            if confidential.contains(&kind) {
                assert!(
                    seen.redacted && seen.payload.is_none() && seen.payload_bytes.is_empty(),
                    "{who} reads {kind}: {seen:?}"
                );
                assert!(
                    seen.actor.is_empty() && seen.command_id.is_empty(),
                    "{seen:?}"
                );
            } else {
                assert_eq!(seen.payload, w.payload, "{who}: {kind}");
            }
        }
        // The appellant is the player sanctioned: all three are his.
        assert_eq!(mine[i], *w, "the appellant's own: {kind}");
    }
    assert!(format!("{whole:?}").contains(grounds));
    for seen in [&anonymous, &theirs] {
        let text = format!("{seen:?}");
        assert!(
            !text.contains(grounds) && !text.contains("SanctionImposed"),
            "{text}"
        );
    }
    let http = server.http.clone().expect("the HTTP port");
    let last = whole.last().unwrap().version;
    let public_feed = feed_kinds(&http, tid, None, last);
    let arbiter_feed = feed_kinds(&http, tid, Some(&arbiter), last);
    for k in confidential {
        assert!(!public_feed.iter().any(|f| f == k), "{k}: {public_feed:?}");
        assert!(arbiter_feed.iter().any(|f| f == k), "{k}: {arbiter_feed:?}");
    }
    assert!(
        public_feed.iter().any(|f| f == "Confidential")
            && public_feed.iter().any(|f| f == "ResultCorrected"),
        "{public_feed:?}"
    );
    // `arbiter replay --server` verifies the chain through the server with a token that
    // reads everything; without one it says which event it cannot hash, not what it is.
    let replay = run(&["replay", tid, "--server", &server.grpc]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    assert!(
        replay.stdout.contains("hash chain: intact"),
        "{}",
        replay.stdout
    );
    let anon = std::process::Command::new(bin())
        .args(["replay", tid, "--server", &server.grpc])
        .env("RUST_LOG", "warn")
        .env_remove("ARBITER_TOKEN")
        .output()
        .expect("replay without a token");
    let stderr = String::from_utf8_lossy(&anon.stderr);
    assert_eq!(anon.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("confidential")
            && stderr.contains("ARBITER_TOKEN")
            && !stderr.contains("Sanction"),
        "{stderr}"
    );
    // Another player cannot appeal a decision he may not read, and the refusal does not say
    // what it is.
    // (Signed heads may be appended meanwhile: they are the server's, not the refusal's.)
    let own_events =
        |k: Vec<&'static str>| k.into_iter().filter(|k| *k != "ChainHeadSigned").count();
    let before = own_events(kinds_of(&mut c, tid).await);
    let e = director_as(&server.grpc, &other)
        .file_appeal(rd::FileAppealRequest {
            pairing_number: white,
            ..appeal("appeal-other", decision)
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    assert!(
        e.message().contains("decision_version") && !e.message().contains("Sanction"),
        "{}",
        e.message()
    );
    assert_eq!(
        own_events(kinds_of(&mut c, tid).await),
        before,
        "nothing appended"
    );

    server.terminate();
    server.env = vec![
        ("LD_PRELOAD".into(), FAKETIME.into()),
        ("FAKETIME".into(), "+1h".into()),
        ("FAKETIME_DONT_FAKE_MONOTONIC".into(), "1".into()),
    ];
    server.restart();
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let mut as_player = director_as(&server.grpc, &own);
    as_player
        .file_appeal(appeal("appeal-late", decision))
        .await
        .unwrap();
    let events = events_as(&server.grpc, tid, &own).await;
    let Some(pb::event::Kind::AppealFiled(late)) = events
        .last()
        .and_then(|e| e.payload.as_ref())
        .and_then(|p| p.kind.clone())
    else {
        panic!("no appeal")
    };
    assert!(!late.admitted, "{late:?}");
    assert_eq!((late.appeal, late.appellant), (2, black));
    let e =
        c.rd.decide_appeal(decide("decide-late", 2, 3))
            .await
            .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(e.message().contains("deadline"), "{}", e.message());
    drop(d);
}

/// One line of `arbiter platform-sim --json`: what the platform posted for a board.
#[derive(Debug, Clone)]
struct Posted {
    board: u32,
    white: u32,
    black: u32,
    result: String,
    termination: String,
    final_fen: String,
    /// The version of the disconnection the platform reported (0: none).
    incident_version: u64,
    replayed: bool,
}

/// Runs the simulated platform, a process of its own with the platform's token, on `round`.
fn platform_plays(
    server: &Server,
    tid: &str,
    token: &str,
    round: u32,
    extra: &[&str],
) -> Vec<Posted> {
    let http = server.http.clone().expect("the HTTP port");
    let round_s = round.to_string();
    let mut args = vec![
        "platform-sim",
        tid,
        &round_s,
        "--server",
        &server.grpc,
        "--http",
        &http,
        "--token",
        token,
        "--seed",
        "2026",
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(
        out.code, 0,
        "platform-sim {args:?}:\n{}\n{}",
        out.stdout, out.stderr
    );
    out.stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            Posted {
                board: v["board"].as_u64().unwrap() as u32,
                white: v["white"].as_u64().unwrap() as u32,
                black: v["black"].as_u64().unwrap() as u32,
                result: v["result"].as_str().unwrap().to_string(),
                termination: v["termination"].as_str().unwrap().to_string(),
                final_fen: v["final_fen"].as_str().unwrap().to_string(),
                incident_version: v["incident_version"].as_u64().unwrap(),
                replayed: v["replayed"].as_bool().unwrap(),
            }
        })
        .collect()
}

fn board_result(r: &str) -> pb::BoardResult {
    match r {
        "1-0" => pb::BoardResult::WhiteWins,
        "0-1" => pb::BoardResult::BlackWins,
        "1/2-1/2" => pb::BoardResult::Draw,
        other => panic!("result {other:?}"),
    }
}

/// The must-show of issue 16: an online supervised event of 40 players and 7 rounds played end
/// to end by a platform in a process of its own (`arbiter platform-sim`), which posts every
/// game through the webhook and reports its disconnections with a platform token. The chief
/// arbiter rules on a drop the player came back from and one he did not, overrides a platform
/// result the Laws contradict, sanctions a supervision breach that is appealed and upheld, and
/// confirms the other results; every round is screened after it closes; `arbiter replay`
/// re-derives all of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_supervised_40_player_event_played_by_a_platform_process() {
    use arbiter_proto::round_director::v1 as rd;
    use arbiter_proto::screening::v1 as scr;
    use arbiter_proto::screening::v1::screening_client::ScreeningClient;
    const PLAYERS: u32 = 40;
    const ROUNDS: u32 = 7;
    let engine =
        arbiter_screening::uci::find_engine(None).expect("Stockfish is installed (.ci/run)");
    let work = TempDir::new("arbiter-online-40").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &[
            "--data",
            data.to_str().unwrap(),
            "--stockfish",
            engine.to_str().unwrap(),
            // A small budget keeps the test quick; the shipped baseline's profile is larger,
            // which the results record.
            "--screening-nodes",
            "1000",
        ],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "online-40";
    let mut e = event(pb::EventFormat::OnlineSupervised, 5, false);
    e.rounds = ROUNDS;
    if let Some(conduct) = e.conduct.as_mut() {
        conduct.reconnection_window_s = 300;
        conduct.appeal_deadline_minutes = 60;
    }
    create_event(&mut c, tid, e, PLAYERS).await;
    for i in 1..=PLAYERS {
        let mut r = consent(0, &ALL, &format!("account-{i}"));
        r.entry = i;
        r.header = header(tid, &format!("consent-{i}"));
        c.reg.record_fair_play_consent(r).await.unwrap();
    }
    let keys = &token::auth().keys;
    let platform = token::issue(keys, "platform-sim", Role::Platform, &[tid], None, 3600);
    let mut d = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    let results = |round: u32| {
        let mut rep = c.rep.clone();
        async move {
            rep.get_pairings(rep::GetPairingsRequest {
                tournament: tref(tid),
                round,
            })
            .await
            .unwrap()
            .into_inner()
            .boards
        }
    };
    let mut played = 0usize;
    for round in 1..=ROUNDS {
        d.start_round(round).await;
        d.wait_proposal(round, Duration::from_secs(60)).await;
        d.publish(round).await;
        let extra: &[&str] = match round {
            2 => &["--disconnect", "3:white:90", "--disconnect", "5:black:gone"],
            3 => &["--timeout-draw", "2"],
            _ => &[],
        };
        let before = d.events().await.len();
        let posted = platform_plays(&server, tid, &platform, round, extra);
        assert_eq!(
            posted.len(),
            (PLAYERS / 2) as usize,
            "round {round}: {posted:?}"
        );
        assert!(posted.iter().all(|p| !p.replayed), "round {round}");
        played += posted.len();
        let events = d.events().await;
        let new: Vec<&str> = kinds(&events[before..])
            .into_iter()
            .map(|(_, k)| k)
            .collect();
        let count = |k: &str| new.iter().filter(|&&x| x == k).count();
        assert_eq!(
            count("GameSubmitted"),
            posted.len(),
            "round {round}: {new:?}"
        );
        if round == 1 {
            // A platform that crashed and starts again posts nothing twice.
            let again = platform_plays(&server, tid, &platform, round, extra);
            assert!(again.iter().all(|p| p.replayed), "{again:?}");
            assert_eq!(d.events().await.len(), events.len(), "nothing appended");
        }
        let by_board = |b: u32| posted.iter().find(|p| p.board == b).cloned().unwrap();
        match round {
            2 => {
                assert_eq!(count("ConnectionIncidentReported"), 2, "{new:?}");
                assert!(by_board(3).incident_version > 0 && by_board(5).incident_version > 0);
                let incidents: Vec<pb::ConnectionIncidentReported> = events[before..]
                    .iter()
                    .filter_map(|e| match e.payload.as_ref()?.kind.clone()? {
                        pb::event::Kind::ConnectionIncidentReported(i) => Some(i),
                        _ => None,
                    })
                    .collect();
                let back = incidents
                    .iter()
                    .find(|i| i.board == 3)
                    .expect("board 3's drop");
                assert_eq!(back.player_id, by_board(3).white);
                assert_eq!(back.reported_by, pb::IncidentReporter::Platform as i32);
                assert!(back.reconnected_at_unix_ms > back.disconnected_at_unix_ms);
                let gone = incidents
                    .iter()
                    .find(|i| i.board == 5)
                    .expect("board 5's drop");
                assert_eq!(
                    (gone.player_id, gone.reconnected_at_unix_ms),
                    (by_board(5).black, 0)
                );
                // The platform may not report a video-conference drop, nor as an arbiter.
                let mut as_platform = director_as(&server.grpc, &platform);
                for (channel, by) in [
                    (
                        pb::ConnectionChannel::VideoConference,
                        pb::IncidentReporter::Platform,
                    ),
                    (
                        pb::ConnectionChannel::Platform,
                        pb::IncidentReporter::Arbiter,
                    ),
                ] {
                    let e = as_platform
                        .report_connection_incident(rd::ReportConnectionIncidentRequest {
                            header: header(tid, &format!("forged-{channel:?}-{by:?}")),
                            incident: Some(arbiter_proto::round_director::v1::ConnectionIncident {
                                channel: channel as i32,
                                reported_by: by as i32,
                                ..arbiter_proto::recorded::as_payload(gone)
                            }),
                        })
                        .await
                        .unwrap_err();
                    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
                }
                // The chief arbiter rules: board 3 goes on, board 5 is lost by disconnection.
                for (i, outcome, fen) in [
                    (back, pb::DisconnectionOutcome::Continue, String::new()),
                    (
                        gone,
                        pb::DisconnectionOutcome::LossByDisconnection,
                        by_board(5).final_fen,
                    ),
                ] {
                    c.rd.rule_on_disconnection(rd::RuleOnDisconnectionRequest {
                        header: header(tid, &format!("rule-{}", i.incident)),
                        ruling: Some(arbiter_proto::round_director::v1::DisconnectionRuling {
                            incident: i.incident,
                            outcome: outcome as i32,
                            fen,
                            ..Default::default()
                        }),
                    })
                    .await
                    .unwrap_or_else(|e| panic!("ruling on {i:?}: {e:?}"));
                }
                assert_eq!(by_board(5).termination, "Abandoned");
            }
            3 => {
                assert_eq!(count("ResultDiscrepancyDetected"), 1, "{new:?}");
                let Some(pb::event::Kind::ResultDiscrepancyDetected(x)) = events[before..]
                    .iter()
                    .find_map(|e| match e.payload.as_ref()?.kind.clone()? {
                        k @ pb::event::Kind::ResultDiscrepancyDetected(_) => Some(k),
                        _ => None,
                    })
                else {
                    unreachable!()
                };
                assert_eq!((x.board, x.platform_result.as_str()), (2, "1/2-1/2"));
                assert_eq!(x.article, "E.04 Art. 4.5");
                c.rd.override_platform_result(rd::OverridePlatformResultRequest {
                    header: header(tid, "override-3-2"),
                    round,
                    board: 2,
                    result: board_result(&x.laws_result) as i32,
                    reason: format!("{} (E.04 4.5)", x.reason),
                })
                .await
                .expect("the arbiter overrides");
            }
            4 => {
                // A supervision breach seen on the room camera: the game is lost; the player
                // appeals and the committee upholds it, restoring the game's own result.
                let b1 = by_board(1);
                c.rd.impose_sanction(rd::ImposeSanctionRequest {
                    pairing_number: b1.white,
                    header: header(tid, "sanction-4-1"),
                    sanction: Some(arbiter_proto::round_director::v1::SanctionTerms {
                        kind: pb::SanctionKind::GameLost as i32,
                        round,
                        article: "E.04 Art. 8.2".into(),
                        evidence: vec![pb::Evidence {
                            kind: pb::EvidenceKind::ObservedBreach as i32,
                            reference: "room camera, round 4, 15:12".into(),
                            note: "a second person in the playing area".into(),
                        }],
                        ..Default::default()
                    }),
                    entry: 0,
                    numbering_version: None,
                })
                .await
                .unwrap();
                let events = d.events().await;
                let decision = kinds(&events)
                    .into_iter()
                    .rfind(|(_, k)| *k == "SanctionImposed")
                    .map(|(v, _)| v)
                    .unwrap();
                let entry_of = c
                    .reg
                    .list_players(reg::ListPlayersRequest {
                        tournament: tref(tid),
                    })
                    .await
                    .unwrap()
                    .into_inner()
                    .players
                    .into_iter()
                    .find(|p| p.pairing_number == b1.white)
                    .map(|p| p.entry)
                    .unwrap();
                let own = token::issue(
                    keys,
                    "appellant",
                    Role::Player,
                    &[tid],
                    Some(entry_of),
                    3600,
                );
                director_as(&server.grpc, &own)
                    .file_appeal(rd::FileAppealRequest {
                        header: header(tid, "appeal-4-1"),
                        entry: entry_of,
                        pairing_number: 0,
                        numbering_version: None,
                        decision_version: decision,
                        grounds: "the person was the assistant the arbiter had allowed (8.2)"
                            .into(),
                        deposit: "50 EUR".into(),
                    })
                    .await
                    .unwrap();
                c.rd.decide_appeal(rd::DecideAppealRequest {
                    header: header(tid, "decide-4-1"),
                    appeal: 1,
                    upheld: true,
                    deposit_returned: true,
                    committee: vec!["Member, A".into(), "Member, B".into(), "Member, C".into()],
                    note: "the assistant had been allowed before the round".into(),
                    round,
                    board: 1,
                    result: board_result(&b1.result) as i32,
                    white_code: 0,
                    black_code: 0,
                })
                .await
                .unwrap();
            }
            _ => {}
        }
        // The arbiter confirms every other platform result as proposed.
        for b in results(round).await {
            let number = b.board.as_ref().unwrap().number;
            if b.result != pb::BoardResult::Unspecified as i32 {
                continue;
            }
            let p = by_board(number);
            c.rd.record_result(rd::RecordResultRequest {
                header: header(tid, &format!("result-{round}-{number}")),
                round,
                board: number,
                result: board_result(&p.result) as i32,
                ..Default::default()
            })
            .await
            .unwrap_or_else(|e| panic!("round {round} board {number}: {e:?}"));
        }
        // What stands: the platform's result, but for the override and the ruling.
        for b in results(round).await {
            let number = b.board.as_ref().unwrap().number;
            let p = by_board(number);
            let want = match (round, number) {
                // The ruling's result: an arbiter's decision, the game played (1 and 0).
                (2, 5) => {
                    assert_eq!(
                        (b.result, b.white_code, b.black_code),
                        (
                            pb::BoardResult::ArbiterDecision as i32,
                            pb::ResultCode::Win as i32,
                            pb::ResultCode::Loss as i32
                        ),
                        "{p:?}"
                    );
                    continue;
                }
                (3, 2) => {
                    assert_ne!(b.result, pb::BoardResult::Draw as i32);
                    continue;
                }
                _ => board_result(&p.result),
            };
            assert_eq!(b.result, want as i32, "round {round} board {number}: {p:?}");
        }
        d.close(round).await;
    }
    assert_eq!(played, (PLAYERS / 2 * ROUNDS) as usize);
    c.rd.finish_tournament(rd::FinishTournamentRequest {
        header: header(tid, "finish"),
    })
    .await
    .unwrap();

    // Every player screened through the last round, on the games the platform posted.
    let mut screening = ScreeningClient::new(channel(&server.grpc));
    let deadline = std::time::Instant::now() + Duration::from_secs(600);
    let report = loop {
        let r = screening
            .get_screening(scr::GetScreeningRequest {
                tournament: tref(tid),
                reason: "end-to-end test".into(),
            })
            .await
            .unwrap()
            .into_inner();
        let last = r
            .performances
            .iter()
            .filter(|p| p.through_round == ROUNDS)
            .count();
        if last == PLAYERS as usize {
            break r;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{last} of {PLAYERS} players screened through round {ROUNDS}"
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
    };
    for p in report
        .performances
        .iter()
        .filter(|p| p.through_round == ROUNDS)
    {
        assert_eq!(p.games, ROUNDS, "{p:?}");
        assert!(p.moves > 0, "{p:?}");
    }
    let k = kinds_of(&mut c, tid).await;
    let count = |name: &str| k.iter().filter(|&&x| x == name).count();
    assert_eq!(count("GameSubmitted"), played);
    assert_eq!(
        count("ResultDiscrepancyDetected"),
        1,
        "one platform error, one discrepancy"
    );
    assert_eq!(count("ConnectionIncidentReported"), 2);
    assert_eq!(count("DisconnectionRuled"), 2);
    assert_eq!(count("ResultOverridden"), 1);
    assert_eq!(count("AppealDecided"), 1);
    drop(d);
    drop(server);
    let out = run(&["replay", "--data", data.to_str().unwrap(), tid]);
    assert_eq!(out.code, 0, "replay:\n{}\n{}", out.stdout, out.stderr);
}

/// E.04 8, 12-14 and the supervising arbiter's role (13.4 comment) over gRPC: the supervision an
/// online supervised event's regulations ask for, fixed at creation; breaches recorded by a
/// supervising arbiter's token (only of rules the event has, only by a board's player, confidential
/// on the public stream); the supervising arbiter and the appeals committee each limited to their
/// own calls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn supervision_requirements_breaches_and_their_roles() {
    use arbiter_proto::round_director::v1 as rd;
    let work = TempDir::new("arbiter-supervision").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let requirements = pb::SupervisionRequirements {
        playing_area_camera: true,
        vcs_connect_minutes_before: 15,
        recording: true,
        ..Default::default()
    };
    // Supervision requirements on an unsupervised event: a configuration error, nothing written.
    let mut e = event(pb::EventFormat::OnlineUnsupervised, 5, false);
    e.conduct.as_mut().unwrap().supervision = Some(requirements);
    let refused = c
        .reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header("unsupervised", "create"),
            tournament: Some(e),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert!(
        refused.message().contains("conduct.supervision"),
        "{}",
        refused.message()
    );
    assert!(kinds_of(&mut c, "unsupervised").await.is_empty());

    // A platform that accepts illegal moves needs the regulations' policy for them.
    let mut platform = pb::PlatformProfile {
        name: "Board Online".into(),
        version: "4.2".into(),
        url: "https://board.example".into(),
        features: vec![pb::PlatformFeature::Premove as i32],
        accepts_illegal_moves: true,
        ..Default::default()
    };
    let mut e = event(pb::EventFormat::OnlineSupervised, 5, false);
    e.conduct.as_mut().unwrap().platform = Some(platform.clone());
    let refused = c
        .reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header("no-policy", "create"),
            tournament: Some(e),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert!(
        refused
            .message()
            .contains("conduct.platform.illegal_move_policy"),
        "{}",
        refused.message()
    );
    assert!(kinds_of(&mut c, "no-policy").await.is_empty());
    platform.illegal_move_policy = "an illegal move is taken back; the second loses".into();

    let tid = "supervised";
    let mut e = event(pb::EventFormat::OnlineSupervised, 5, false);
    e.conduct.as_mut().unwrap().supervision = Some(requirements);
    e.conduct.as_mut().unwrap().platform = Some(platform.clone());
    create_event(&mut c, tid, e, 4).await;
    // The players' page says where and under what supervision they play (E.04 2.4, 8, 13).
    let (status, page) = http_get(server.http.as_deref().unwrap(), &format!("/t/{tid}"));
    assert_eq!(status, 200, "{page}");
    for shown in [
        "online supervised",
        "Board Online 4.2 (https://board.example)",
        "15 min + 5 s a move",
        "an illegal move is taken back; the second loses",
        "playing area on camera; video-conference joined 15 min before the start; video recorded",
    ] {
        assert!(page.contains(shown), "{shown:?} not on the page:\n{page}");
    }
    for i in 1..=4 {
        let mut r = consent(0, &ALL, &format!("acc{i}"));
        r.entry = i;
        r.header = header(tid, &format!("consent-{i}"));
        c.reg.record_fair_play_consent(r).await.unwrap();
    }
    let mut d = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    let created = d.events().await;
    let Some(pb::event::Kind::TournamentCreated(t)) =
        created[0].payload.as_ref().and_then(|p| p.kind.clone())
    else {
        panic!("{:?}", kinds(&created))
    };
    let conduct = t.conduct.unwrap_or_default();
    assert_eq!(
        (conduct.supervision, conduct.platform),
        (Some(requirements), Some(platform)),
        "the requirements and the platform are part of the event's record"
    );
    d.start_round(1).await;
    let (boards, _) = pairing_of(&d.wait_proposal(1, Duration::from_secs(60)).await);
    d.publish(1).await;
    let (w1, b1) = boards[0];
    let (_, b2) = boards[1];

    let keys = &token::auth().keys;
    let supervisor = token::issue(
        keys,
        "Supervisor, Ana",
        Role::SupervisingArbiter,
        &[tid],
        None,
        3600,
    );
    let mut as_supervisor = director_as(&server.grpc, &supervisor);
    let breach = |id: &str, board: u32, player: u32, item: pb::SupervisionItem| {
        rd::RecordSupervisionBreachRequest {
            header: header(tid, id),
            round: 1,
            board,
            pairing_number: player,
            item: item as i32,
            note: "seen on the room camera at 15:12".into(),
        }
    };
    as_supervisor
        .record_supervision_breach(breach(
            "b1",
            1,
            w1,
            pb::SupervisionItem::PersonInPlayingArea,
        ))
        .await
        .expect("the supervising arbiter records a breach");
    let pb::event::Kind::SupervisionBreachRecorded(recorded) = last_event(&mut d).await else {
        panic!("no breach")
    };
    assert_eq!(
        (
            recorded.breach,
            recorded.player_id,
            recorded.article.as_str()
        ),
        (1, w1, "E.04 Art. 8.2")
    );
    let actor = d.events().await.last().unwrap().actor.clone();
    assert_eq!(actor, "Supervisor, Ana", "the token's subject is the actor");

    // Refused, each naming why, and nothing appended: a rule this event does not have, a
    // player not on the board, a call outside the role.
    let before = d.events().await.len();
    let e = as_supervisor
        .record_supervision_breach(breach(
            "b2",
            1,
            w1,
            pb::SupervisionItem::RoomInspectionRefused,
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains("room_inspection"), "{}", e.message());
    let e = as_supervisor
        .record_supervision_breach(breach("b3", 1, b2, pb::SupervisionItem::Headphones))
        .await
        .unwrap_err();
    assert_ne!(e.code(), Code::Ok, "{e:?}");
    let e = as_supervisor
        .impose_sanction(rd::ImposeSanctionRequest {
            pairing_number: w1,
            header: header(tid, "supervisor-sanction"),
            sanction: Some(arbiter_proto::round_director::v1::SanctionTerms {
                kind: pb::SanctionKind::Warning as i32,
                ..Default::default()
            }),
            entry: 0,
            numbering_version: None,
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    assert!(
        e.message().contains("supervising-arbiter"),
        "{}",
        e.message()
    );
    // A video-conference drop he saw is his to report, as an arbiter, not as the platform.
    let vcs_drop = |id: &str, by: pb::IncidentReporter| rd::ReportConnectionIncidentRequest {
        header: header(tid, id),
        incident: Some(arbiter_proto::round_director::v1::ConnectionIncident {
            round: 1,
            board: 1,
            pairing_number: b1,
            channel: pb::ConnectionChannel::VideoConference as i32,
            disconnected_at_unix_ms: 1_780_000_000_000,
            reconnected_at_unix_ms: 1_780_000_030_000,
            clock_at_disconnect_ms: 600_000,
            reported_by: by as i32,
            ..Default::default()
        }),
    };
    let e = as_supervisor
        .report_connection_incident(vcs_drop("vcs-as-platform", pb::IncidentReporter::Platform))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    assert_eq!(d.events().await.len(), before, "refusals append nothing");
    as_supervisor
        .report_connection_incident(vcs_drop("vcs", pb::IncidentReporter::Arbiter))
        .await
        .unwrap();

    // The CLI records one too, and the arbiter's record lists both.
    let out = run(&[
        "client",
        "--server",
        &server.grpc,
        "supervision-breach",
        tid,
        "1",
        "2",
        &b2.to_string(),
        "headphones",
        "--note",
        "earbuds seen when he turned",
    ]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("supervision breach recorded"),
        "{}",
        out.stdout
    );
    let out = run(&["client", "--server", &server.grpc, "record", tid]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("breach 1:") && out.stdout.contains("breach 2:"),
        "{}",
        out.stdout
    );
    let out = run(&[
        "client",
        "--server",
        &server.grpc,
        "supervision-breach",
        tid,
        "1",
        "2",
        &b2.to_string(),
        "smoking",
    ]);
    assert_eq!(out.code, 3, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("person-in-playing-area"),
        "{}",
        out.stderr
    );

    // The platform posts the round's games in one file through the webhook: all or nothing.
    let platform_token = token::issue(keys, "Board Online", Role::Platform, &[tid], None, 3600);
    let names = |p: u32| format!("Player, {p}");
    let game = |w: u32, b: u32, moves: &str, result: &str| {
        format!(
            "[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n",
            names(w),
            names(b)
        )
    };
    let (w2, _) = boards[1];
    let good = game(w1, b1, "1. e4 e5 2. Nf3", "1-0") + &game(w2, b2, "1. d4 d5", "1/2-1/2");
    let bad = game(w1, b1, "1. e4 e5 2. Nf3", "1-0") + &game(b2, w2, "1. d4 d5", "1/2-1/2");
    let http = server.http.clone().unwrap();
    let path = format!("/api/platform/v1/tournaments/{tid}/rounds/1/games");
    let with = |key: &str| {
        vec![
            format!("Authorization: Bearer {platform_token}"),
            format!("Idempotency-Key: {key}"),
        ]
    };
    let before_games = d.events().await.len();
    let (status, body) = http_request(&http, "POST", &path, &with("round-bad"), &bad);
    assert!(status == 409 || status == 422, "{status}: {body}");
    assert!(
        body.contains("game 2"),
        "the refusal names the game: {body}"
    );
    assert_eq!(d.events().await.len(), before_games, "all or nothing");
    let (status, body) = http_request(&http, "POST", &path, &with("round-1"), &good);
    assert_eq!(status, 200, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
    let placed: Vec<(u64, u64)> = answer["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["index"].as_u64().unwrap(), g["board"].as_u64().unwrap()))
        .collect();
    assert_eq!(placed, vec![(1, 1), (2, 2)], "{body}");
    let k = kinds_of(&mut c, tid).await;
    assert_eq!(
        &k[before_games..],
        ["GameSubmitted", "GameSubmitted"],
        "{k:?}"
    );

    // The public stream keeps the breaches' place, not their content.
    let public = public_events(&server.grpc, tid).await;
    let all = d.events().await;
    for (p, a) in public.iter().zip(&all) {
        let is_breach = matches!(
            a.payload.as_ref().and_then(|x| x.kind.as_ref()),
            Some(pb::event::Kind::SupervisionBreachRecorded(_))
        );
        assert_eq!(p.version, a.version);
        if is_breach {
            assert!(p.payload.is_none(), "breach {} is public", a.version);
        }
    }

    // The sanction resting on the breach is the chief arbiter's; the appeal is the committee's.
    c.rd.impose_sanction(rd::ImposeSanctionRequest {
        pairing_number: w1,
        header: header(tid, "warning"),
        sanction: Some(arbiter_proto::round_director::v1::SanctionTerms {
            kind: pb::SanctionKind::Warning as i32,
            round: 1,
            article: "E.04 Art. 8.2".into(),
            evidence: vec![pb::Evidence {
                kind: pb::EvidenceKind::ObservedBreach as i32,
                reference: "supervision breach 1".into(),
                note: String::new(),
            }],
            ..Default::default()
        }),
        entry: 0,
        numbering_version: None,
    })
    .await
    .unwrap();
    let decision = d.events().await.last().unwrap().version;
    let appellant = token::issue(keys, "appellant", Role::Player, &[tid], Some(w1), 3600);
    director_as(&server.grpc, &appellant)
        .file_appeal(rd::FileAppealRequest {
            header: header(tid, "appeal"),
            entry: w1,
            pairing_number: 0,
            numbering_version: None,
            decision_version: decision,
            grounds: "the person was my allowed assistant".into(),
            deposit: String::new(),
        })
        .await
        .unwrap();
    let committee = token::issue(
        keys,
        "Committee",
        Role::AppealsCommittee,
        &[tid],
        None,
        3600,
    );
    let mut as_committee = director_as(&server.grpc, &committee);
    let e = as_committee
        .record_result(rd::RecordResultRequest {
            header: header(tid, "committee-result"),
            round: 1,
            board: 1,
            result: pb::BoardResult::Draw as i32,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    as_committee
        .decide_appeal(rd::DecideAppealRequest {
            header: header(tid, "decide"),
            appeal: 1,
            upheld: false,
            deposit_returned: false,
            committee: vec!["Member, A".into(), "Member, B".into(), "Member, C".into()],
            note: "no permission for an assistant was asked".into(),
            ..Default::default()
        })
        .await
        .expect("the committee decides");
    let record = as_committee
        .arbiter_record(rd::GetTournamentRequest {
            tournament: tref(tid),
        })
        .await
        .expect("the committee reads the record")
        .into_inner();
    let record_kinds: Vec<&str> = kinds(&record.events).into_iter().map(|(_, k)| k).collect();
    for k in [
        "SupervisionBreachRecorded",
        "SanctionImposed",
        "AppealFiled",
        "AppealDecided",
    ] {
        assert!(record_kinds.contains(&k), "{k}: {record_kinds:?}");
    }

    // Over the board there is no remote supervision to breach.
    let otb = "otb-supervision";
    create_event(&mut c, otb, event(pb::EventFormat::Otb, 5, false), 2).await;
    let mut d2 = Driver::new(c.clone(), otb, Plan::swiss_40x9(), work.path());
    // The pairing officer runs the pairing and publishes it, and may record nothing else.
    let officer = token::issue(
        keys,
        "Officer, Pat",
        Role::PairingOfficer,
        &[otb],
        None,
        3600,
    );
    let mut as_officer = director_as(&server.grpc, &officer);
    as_officer
        .start_round(rd::StartRoundRequest {
            header: header(otb, "officer-start-1"),
            round: 1,
            scheduled_unix_ms: 0,
        })
        .await
        .expect("the officer starts the round");
    let (ob, _) = pairing_of(&d2.wait_proposal(1, Duration::from_secs(60)).await);
    as_officer
        .publish_pairing(rd::PublishPairingRequest {
            header: header(otb, "officer-publish-1"),
            round: 1,
            ..Default::default()
        })
        .await
        .expect("the officer publishes");
    let e = as_officer
        .record_result(rd::RecordResultRequest {
            header: header(otb, "officer-result"),
            round: 1,
            board: 1,
            result: pb::BoardResult::Draw as i32,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "{e:?}");
    assert!(e.message().contains("pairing-officer"), "{}", e.message());
    let e =
        c.rd.record_supervision_breach(rd::RecordSupervisionBreachRequest {
            header: header(otb, "b"),
            round: 1,
            board: 1,
            pairing_number: ob[0].0,
            item: pb::SupervisionItem::Headphones as i32,
            note: String::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains("online supervised"), "{}", e.message());
    drop(d);
    drop(d2);
    drop(server);
    let out = run(&["replay", "--data", data.to_str().unwrap(), tid]);
    assert_eq!(out.code, 0, "replay:\n{}\n{}", out.stdout, out.stderr);
}

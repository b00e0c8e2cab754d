//! Online and hybrid events over gRPC (`arbiter serve`), spec online-hybrid §15: scenario 11
//! (a hybrid event with traditional boards and a 10 s increment is a configuration error) and
//! scenario 12 (without the fair-play consent a player of an online supervised event is not
//! paired), each checked on the events appended and on what is refused with nothing appended.
//! `arbiter replay` re-derives the round paired without him.

mod support;

use arbiter_auth::Role;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::registration::v1::registration_client::RegistrationClient;
use arbiter_proto::reporting::v1 as rep;
use std::time::Duration;
use support::*;
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
) -> pb::TournamentCreated {
    pb::TournamentCreated {
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
        }),
        ..Default::default()
    }
}

/// The kinds of the tournament's events, in log order (empty when it has none).
async fn kinds(c: &mut Clients, tid: &str) -> Vec<String> {
    let s = c
        .rep
        .stream_events(rep::StreamEventsRequest {
            tournament_id: tid.into(),
            from_version: 1,
            follow: false,
            raw_payload: false,
        })
        .await;
    let mut s = match s {
        Ok(s) => s.into_inner(),
        Err(e) if e.code() == Code::NotFound => return Vec::new(),
        Err(e) => panic!("stream {tid}: {e:?}"),
    };
    let mut out = Vec::new();
    while let Some(e) = futures::StreamExt::next(&mut s).await {
        let payload = e.expect("event").payload.expect("a payload");
        out.push(arbiter_eventlog::kind_name(&payload).to_string());
    }
    out
}

fn consent(
    player_id: u32,
    items: &[pb::ConsentItem],
    account: &str,
) -> reg::RecordFairPlayConsentRequest {
    reg::RecordFairPlayConsentRequest {
        header: None,
        player_id,
        entry: 0,
        numbering_version: None,
        consent: Some(pb::FairPlayConsentRecorded {
            player_id: 0,
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
        kinds(&mut c, "hybrid").await.is_empty(),
        "a refused creation appends nothing"
    );
    c.reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header("hybrid", "create-30"),
            tournament: Some(event(pb::EventFormat::Hybrid, 30, true)),
        })
        .await
        .expect("30 s from move 1 is allowed");
    assert_eq!(kinds(&mut c, "hybrid").await, vec!["TournamentCreated"]);

    // --- scenario 12 ------------------------------------------------------------------------
    let tid = "online";
    c.reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header(tid, "create"),
            tournament: Some(event(pb::EventFormat::OnlineSupervised, 5, false)),
        })
        .await
        .unwrap();
    for i in 1..=5u32 {
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                header: header(tid, &format!("register-{i}")),
                player: Some(pb::Player {
                    name: format!("Player, {i}"),
                    rating: 2500 - 100 * i,
                    ..Default::default()
                }),
            })
            .await
            .unwrap();
    }
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
    let before = kinds(&mut c, tid).await;
    assert_eq!(
        before
            .iter()
            .filter(|k| *k == "FairPlayConsentRecorded")
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
    assert_eq!(kinds(&mut c, tid).await, before, "refusals append nothing");

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

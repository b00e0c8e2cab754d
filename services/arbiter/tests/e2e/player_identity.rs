//! A command always reaches the player it names: through gRPC against `arbiter serve` (the real
//! binary, embedded, sled data folder). Players registered out of rating order, round 1 played,
//! then a late entry inserted at pairing number 3. A bye by the stale number 3 with the
//! numbering read before the late entry is refused and appends nothing; the same by entry
//! number reaches the same person before and after the late entry; an amended pairing named
//! by stale numbers is refused and the same pairing by entry numbers is published.

use crate::support::*;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use std::time::{Duration, Instant};
use tonic::Code;

const TID: &str = "identity";

/// Events of the tournament's own services (the rating worker appends on its own schedule).
async fn own_events(c: &mut Clients) -> usize {
    log_of(c, TID)
        .await
        .iter()
        .filter(|e| e.actor != arbiter_rating_worker::SERVICE)
        .count()
}

async fn list(c: &mut Clients) -> reg::ListPlayersResponse {
    c.reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(TID),
        })
        .await
        .expect("list players")
        .into_inner()
}

fn by_entry(l: &reg::ListPlayersResponse, entry: u32) -> (u32, String, Vec<u32>) {
    let p = l
        .players
        .iter()
        .find(|p| p.entry == entry)
        .unwrap_or_else(|| panic!("entry {entry} in {l:?}"));
    let pl = p.player.as_ref().unwrap();
    (p.pairing_number, pl.name.clone(), p.rounds_off.clone())
}

async fn register(
    c: &mut Clients,
    name: &str,
    rating: u32,
    late: bool,
) -> arbiter_proto::common::v1::CommandResult {
    let player = Some(arbiter_proto::registration::v1::PlayerDetails {
        name: name.into(),
        rating,
        ..Default::default()
    });
    let h = header(TID, &format!("register-{name}"));
    if late {
        c.reg
            .enter_late(reg::EnterLateRequest {
                header: h,
                confirm_same_name: false,
                player,
                first_round: 2,
                missed_rounds: pb::ByeKind::ZeroPoint as i32,
            })
            .await
    } else {
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                header: h,
                player,
                confirm_same_name: false,
            })
            .await
    }
    .expect("register")
    .into_inner()
}

async fn proposal(c: &mut Clients, round: u32) -> rep::RoundPairings {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match c
            .rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(TID),
                round,
            })
            .await
        {
            Ok(p) => return p.into_inner(),
            Err(s) if s.code() == Code::NotFound && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(s) => panic!("round {round}: no proposal: {s:?}"),
        }
    }
}

fn bye(
    player_id: u32,
    entry: u32,
    round: u32,
    numbering_version: Option<u64>,
) -> reg::RequestByeRequest {
    reg::RequestByeRequest {
        header: header(
            TID,
            &format!("bye-{player_id}-{entry}-{round}-{numbering_version:?}"),
        ),
        pairing_number: player_id,
        entry,
        round,
        kind: pb::ByeKind::HalfPoint as i32,
        numbering_version,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_pairing_number_is_refused_and_the_entry_number_reaches_the_same_player() {
    let work = TempDir::new("arbiter-e2e-identity").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    retry("create", || {
        let mut reg = c.reg.clone();
        async move {
            reg.create_tournament(reg::CreateTournamentRequest {
                header: header(TID, "create"),
                tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                    name: "Identity Open".into(),
                    start_date: Some(pb::Date {
                        year: 2026,
                        month: 3,
                        day: 1,
                    }),
                    rounds: 4,
                    chief_arbiter: Some(pb::Arbiter {
                        name: "Chief, C".into(),
                        ..Default::default()
                    }),
                    initial_color: pb::Color::White as i32,
                    ..Default::default()
                }),
            })
            .await
        }
    })
    .await
    .expect("create");

    // Registered out of rating order: the second player goes above the first.
    let r = register(&mut c, "Second, S", 2300, false).await;
    assert_eq!((r.entry, r.pairing_number), (1, 1));
    let r = register(&mut c, "First, F", 2400, false).await;
    assert_eq!((r.entry, r.pairing_number), (2, 1), "{r:?}");
    let renumbered_at = r.first_version;
    for (i, (name, rating)) in [
        ("Third, T", 2200),
        ("Fourth, F", 2100),
        ("Fifth, F", 2000),
        ("Sixth, S", 1900),
    ]
    .into_iter()
    .enumerate()
    {
        let r = register(&mut c, name, rating, false).await;
        assert_eq!(
            (r.entry, r.pairing_number),
            (i as u32 + 3, i as u32 + 3),
            "{name}"
        );
    }
    let l = list(&mut c).await;
    assert_eq!(l.numbering_version, renumbered_at, "the last renumbering");
    assert_eq!(by_entry(&l, 1).0, 2);
    assert_eq!(by_entry(&l, 3), (3, "Third, T".into(), vec![]));

    // Round 1 played and closed.
    c.rd.start_round(rd::StartRoundRequest {
        header: header(TID, "start-1"),
        round: 1,
        scheduled_unix_ms: 0,
    })
    .await
    .expect("start 1");
    let p = proposal(&mut c, 1).await;
    c.rd.publish_pairing(rd::PublishPairingRequest {
        header: header(TID, "publish-1"),
        round: 1,
        ..Default::default()
    })
    .await
    .expect("publish 1");
    for b in &p.boards {
        let board = b.board.unwrap().number;
        c.rd.record_result(rd::RecordResultRequest {
            header: header(TID, &format!("result-1-{board}")),
            round: 1,
            board,
            result: pb::BoardResult::WhiteWins as i32,
            ..Default::default()
        })
        .await
        .expect("result");
    }
    c.rd.close_round(rd::CloseRoundRequest {
        header: header(TID, "close-1"),
        round: 1,
    })
    .await
    .expect("close 1");

    // A client reads the list; by entry 3 it asks a bye for round 3 (number 3 then).
    let read = list(&mut c).await;
    let (number_before, name, _) = by_entry(&read, 3);
    assert_eq!(number_before, 3);
    c.reg
        .request_bye(bye(0, 3, 3, None))
        .await
        .expect("bye by entry before the late entry");

    // A late entry rated between numbers 2 and 3 takes number 3.
    let late = register(&mut c, "Late, L", 2250, true).await;
    assert_eq!((late.entry, late.pairing_number), (7, 3), "{late:?}");
    let after = list(&mut c).await;
    assert_eq!(after.numbering_version, late.first_version);
    assert_eq!(by_entry(&after, 3).0, 4, "entry 3 moved down one");

    // (a) The stale number 3 with the numbering read before: refused, nothing appended.
    let before = own_events(&mut c).await;
    let err = c
        .reg
        .request_bye(bye(3, 0, 2, Some(read.version)))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::FailedPrecondition, "{err:?}");
    for part in [
        "pairing number 3".to_string(),
        format!("version {}", late.first_version),
        "entry 7".to_string(),
        "ListPlayers".to_string(),
    ] {
        assert!(
            err.message().contains(&part),
            "{part:?} in {}",
            err.message()
        );
    }
    // Without a version, after round 1 is published: the same.
    let err = c.reg.request_bye(bye(3, 0, 2, None)).await.unwrap_err();
    assert_eq!(err.code(), Code::FailedPrecondition, "{err:?}");
    assert!(err.message().contains("round 1"), "{}", err.message());
    // Withdrawal, absence and cancellation are checked the same way.
    let err = c
        .reg
        .withdraw_player(reg::WithdrawPlayerRequest {
            header: header(TID, "withdraw-stale"),
            pairing_number: 5,
            numbering_version: Some(read.version),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::FailedPrecondition, "{err:?}");
    let err = c
        .reg
        .cancel_bye(reg::CancelByeRequest {
            header: header(TID, "cancel-stale"),
            pairing_number: 3,
            round: 3,
            numbering_version: Some(read.version),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::FailedPrecondition, "{err:?}");
    // Entry and number that disagree, and a version from the future.
    let err = c.reg.request_bye(bye(3, 3, 2, None)).await.unwrap_err();
    assert_eq!(err.code(), Code::FailedPrecondition, "{err:?}");
    assert!(
        err.message().contains("entry 3 has pairing number 4"),
        "{}",
        err.message()
    );
    let err = c
        .reg
        .request_bye(bye(4, 0, 2, Some(after.version + 100)))
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::InvalidArgument, "{err:?}");
    assert_eq!(own_events(&mut c).await, before, "refusals append nothing");

    // A number the late entry did not move (1) is still good with the old numbering.
    c.reg
        .declare_absence(reg::DeclareAbsenceRequest {
            header: header(TID, "absent-1-4"),
            pairing_number: 1,
            round: 4,
            reason: "announced".into(),
            numbering_version: Some(read.version),
            ..Default::default()
        })
        .await
        .expect("number 1 was not moved");
    assert_eq!(by_entry(&list(&mut c).await, 2).2, vec![4]);

    // (b) By entry: the same person after the late entry.
    c.reg
        .request_bye(bye(0, 3, 2, None))
        .await
        .expect("bye by entry after the late entry");
    let now = list(&mut c).await;
    assert_eq!(by_entry(&now, 3), (4, name.clone(), vec![2, 3]));
    assert_eq!(
        by_entry(&now, 7).2,
        Vec::<u32>::new(),
        "the late entrant is untouched"
    );

    // Round 2: an amended pairing by the numbers read before the late entry is refused; the
    // same boards by entry numbers are published.
    c.rd.start_round(rd::StartRoundRequest {
        header: header(TID, "start-2"),
        round: 2,
        scheduled_unix_ms: 0,
    })
    .await
    .expect("start 2");
    let p = proposal(&mut c, 2).await;
    let boards: Vec<pb::Board> = p.boards.iter().filter_map(|b| b.board).collect();
    assert!(
        boards.iter().any(|b| b.white >= 3 || b.black >= 3),
        "{boards:?}"
    );
    let err =
        c.rd.publish_pairing(rd::PublishPairingRequest {
            header: header(TID, "publish-2-stale"),
            round: 2,
            boards: boards.clone(),
            note: "arbiter's pairing".into(),
            numbering_version: Some(read.version),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), Code::FailedPrecondition, "{err:?}");
    assert!(err.message().contains("boards["), "{}", err.message());
    let entry_of = |pn: u32| {
        now.players
            .iter()
            .find(|p| p.pairing_number == pn)
            .unwrap()
            .entry
    };
    let by_entries: Vec<pb::Board> = boards
        .iter()
        .map(|b| pb::Board {
            number: b.number,
            white: entry_of(b.white),
            black: entry_of(b.black),
        })
        .collect();
    c.rd.publish_pairing(rd::PublishPairingRequest {
        header: header(TID, "publish-2-entries"),
        round: 2,
        boards: by_entries,
        note: "arbiter's pairing".into(),
        by_entry: true,
        ..Default::default()
    })
    .await
    .expect("publish by entries");
    let published = proposal(&mut c, 2).await;
    assert!(published.published);
    let published: Vec<pb::Board> = published.boards.iter().filter_map(|b| b.board).collect();
    assert_eq!(published, boards, "the same boards, by current numbers");

    // The JSON player data shows the entry number beside the current pairing number.
    let http = server.http.clone().expect("http address");
    let json = |path: &str| -> serde_json::Value {
        let (status, body) = http_get(&http, path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
    };
    let v = json(&format!("/api/tournaments/{TID}/standings"));
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 7, "{v}");
    for row in rows {
        let (no, e) = (
            row["player_id"].as_u64().unwrap(),
            row["entry"].as_u64().unwrap(),
        );
        let (pn, name, _) = by_entry(&now, e as u32);
        assert_eq!(
            (no, row["name"].as_str().unwrap()),
            (pn as u64, name.as_str()),
            "{row}"
        );
    }
    let v = json(&format!("/api/tournaments/{TID}/crosstable"));
    let late_row = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player"]["name"] == "Late, L")
        .expect("the late entrant");
    assert_eq!(
        (
            late_row["player"]["no"].as_u64(),
            late_row["player"]["entry"].as_u64()
        ),
        (Some(3), Some(7))
    );
    let v = json(&format!("/api/tournaments/{TID}/players/4"));
    assert_eq!(v["player"]["entry"].as_u64(), Some(3), "{v}");
    assert_eq!(v["player"]["name"], name.as_str());
    let v = json(&format!("/api/tournaments/{TID}/players"));
    assert_eq!(v["numbering_version"].as_u64(), Some(late.first_version));
    let listed: Vec<(u64, u64, String)> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["no"].as_u64().unwrap(),
                p["entry"].as_u64().unwrap(),
                p["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected: Vec<(u64, u64, String)> = now
        .players
        .iter()
        .map(|p| {
            let pl = p.player.as_ref().unwrap();
            (p.pairing_number as u64, p.entry as u64, pl.name.clone())
        })
        .collect();
    assert_eq!(listed, expected, "the same list as ListPlayers");

    // The export carries the same players document beside the TRF.
    let out = work.path().join("players.json");
    let trf = work.path().join("identity.trf");
    let r = run(&[
        "export",
        TID,
        "--server",
        &server.grpc,
        "-o",
        trf.to_str().unwrap(),
        "--players",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let exported: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        exported, v,
        "export --players writes the JSON API's document"
    );
    drop(server);
    // And from the data folder, with the server stopped.
    let offline = work.path().join("players-offline.json");
    let r = run(&[
        "export",
        TID,
        "--data",
        data.to_str().unwrap(),
        "-o",
        trf.to_str().unwrap(),
        "--players",
        offline.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let exported: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&offline).unwrap()).unwrap();
    assert_eq!(exported["players"], v["players"]);
    assert_eq!(exported["numbering_version"], v["numbering_version"]);
}

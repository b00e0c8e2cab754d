//! `arbiter ratings import/show` on generated FIDE lists, and the rating worker inside
//! `arbiter serve`: embedded (every service in one process) and alone (`--only rating-worker`)
//! over NATS JetStream.

use crate::support::*;
use arbiter_core::tournament::BoardResult;
use arbiter_eventlog::testing::NatsServer;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::rating_worker::v1 as rw;
use arbiter_proto::rating_worker::v1::rating_worker_client::RatingWorkerClient;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use arbiter_rating_list::synthetic::{record, text_column, write_text_list};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

const FIRST_ID: u64 = 2_000_000;

fn write_list(path: &Path, players: u64, corrupt_lines: &[(usize, &str, &str)]) {
    let mut v = Vec::new();
    write_text_list(&mut v, FIRST_ID, players).unwrap();
    let text = String::from_utf8(v).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for &(line, label, with) in corrupt_lines {
        let col = text_column(label).unwrap() - 1;
        let mut chars: Vec<char> = lines[line - 1].chars().collect();
        for (i, c) in with.chars().enumerate() {
            chars[col + i] = c;
        }
        lines[line - 1] = chars.into_iter().collect();
    }
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn ratings_import_reports_bad_lines_and_show_prints_players() {
    let work = TempDir::new("arbiter-ratings-cli").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap();
    let list = work.path().join("players_list_foa.txt");
    // Line 102 is player 100: a letter in the standard rating; line 5002: a bad federation.
    write_list(
        &list,
        10_000,
        &[(102, "SRtng", "2x"), (5_002, "Fed", "N0R")],
    );

    let r = run(&[
        "ratings",
        "import",
        list.to_str().unwrap(),
        "--data",
        data_arg,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("imported 9998 players"), "{}", r.stdout);
    assert!(r.stdout.contains("2 unreadable"), "{}", r.stdout);
    let rating_col = text_column("SRtng").unwrap();
    let fed_col = text_column("Fed").unwrap();
    assert!(
        r.stderr.contains(&format!(
            "line 102, column {rating_col}, field standard_rating"
        )),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains(&format!("line 5002, column {fed_col}, field federation")),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("players read (100% of the file)"),
        "{}",
        r.stderr
    );

    let want = record(FIRST_ID, 50);
    let id = (FIRST_ID + 50).to_string();
    let r = run(&["ratings", "show", &id, "--data", data_arg]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(&want.name), "{}", r.stdout);
    assert!(r.stdout.contains("title      GM"), "{}", r.stdout);
    let std = want.standard;
    assert!(
        r.stdout.contains(&format!(
            "standard   {} (games {}, K {})",
            std.rating.unwrap(),
            std.games.unwrap(),
            std.k.unwrap()
        )),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("(9998 players)"), "{}", r.stdout);

    // The unreadable player is not in the list; neither is a stranger.
    let r = run(&[
        "ratings",
        "show",
        &(FIRST_ID + 100).to_string(),
        "--data",
        data_arg,
    ]);
    assert_eq!(r.code, 3);
    assert!(
        r.stderr.contains("is not in the rating list"),
        "{}",
        r.stderr
    );
    let r = run(&["ratings", "show", "12x", "--data", data_arg]);
    assert_eq!(r.code, 3);
    assert!(r.stderr.contains("expected a number"), "{}", r.stderr);

    // --strict: the bad lines fail the import and the list in use stays.
    let small = work.path().join("small.txt");
    write_list(&small, 20, &[(3, "SRtng", "x")]);
    let r = run(&[
        "ratings",
        "import",
        small.to_str().unwrap(),
        "--data",
        data_arg,
        "--strict",
    ]);
    assert_eq!(r.code, 3, "{}", r.stdout);
    assert!(
        r.stderr.contains("1 records could not be read"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("line 3"), "{}", r.stderr);
    let r = run(&["ratings", "show", &id, "--data", data_arg]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // A file that is not a list; a file that is not there.
    let bad = work.path().join("notes.txt");
    std::fs::write(&bad, "hello\nworld\n").unwrap();
    let r = run(&[
        "ratings",
        "import",
        bad.to_str().unwrap(),
        "--data",
        data_arg,
    ]);
    assert_eq!(r.code, 3);
    assert!(r.stderr.contains("line 1: header"), "{}", r.stderr);
    let r = run(&[
        "ratings",
        "import",
        "/nonexistent/list.txt",
        "--data",
        data_arg,
    ]);
    assert_eq!(r.code, 5);
    // Still the first list.
    let r = run(&["ratings", "show", &id, "--data", data_arg]);
    assert!(r.stdout.contains("(9998 players)"), "{}", r.stdout);
}

/// Every event of a tournament, from reporting.
async fn stream_of(d: &mut Driver) -> Vec<pb::Envelope> {
    d.events().await
}

fn is_trigger(e: &pb::Envelope) -> bool {
    use pb::event::Kind;
    matches!(
        e.payload.as_ref().and_then(|p| p.kind.as_ref()),
        Some(Kind::ResultCorrected(_))
            | Some(Kind::RoundClosed(_))
            | Some(Kind::TournamentFinished(_))
    )
}

/// Waits until every trigger of the stream is answered by the rating worker, then checks each
/// is answered by exactly one append; returns the stream.
async fn answered_once(d: &mut Driver) -> Vec<pb::Envelope> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let events = stream_of(d).await;
        let triggers: BTreeSet<String> = events
            .iter()
            .filter(|e| is_trigger(e))
            .map(|e| format!("rating-worker:{}", e.event_id))
            .collect();
        let mut appends: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        for e in events.iter().filter(|e| e.actor == "rating-worker") {
            appends
                .entry(e.command_id.clone())
                .or_default()
                .push(e.version);
        }
        let answered: BTreeSet<String> = appends.keys().cloned().collect();
        if answered == triggers {
            for (id, versions) in &appends {
                let contiguous = versions.windows(2).all(|w| w[1] == w[0] + 1);
                assert!(contiguous, "{id}: one append, versions {versions:?}");
            }
            return events;
        }
        assert!(answered.is_subset(&triggers), "answers without a trigger");
        assert!(
            Instant::now() < deadline,
            "{} of {} triggers answered after 60 s",
            answered.len(),
            triggers.len()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn small_plan(players: u32, rounds: u32) -> Plan {
    Plan {
        players,
        rounds,
        seed: 77,
        early_byes: Vec::new(),
        late_byes: Vec::new(),
        withdrawals: Vec::new(),
        forfeit_permille: 0,
    }
}

/// The last `RatingChangesComputed` of a stream.
fn last_changes(events: &[pb::Envelope]) -> pb::RatingChangesComputed {
    events
        .iter()
        .rev()
        .find_map(|e| match e.payload.as_ref().and_then(|p| p.kind.as_ref()) {
            Some(pb::event::Kind::RatingChangesComputed(r)) => Some(r.clone()),
            _ => None,
        })
        .expect("rating changes in the stream")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_runs_the_rating_worker_embedded() {
    let work = TempDir::new("arbiter-serve-ratings").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap();
    let mut server = Server::start(&["--data", data_arg], &work.path().join("serve.log"));
    let plan = small_plan(12, 3);
    let mut d = Driver::new(
        Clients::new(&Endpoints::one(&server.grpc)),
        "rated-2025",
        plan.clone(),
        work.path(),
    );
    d.create().await;
    d.register_all().await;
    for round in 1..=plan.rounds {
        d.play_round(round).await;
    }
    d.finish().await;
    let events = answered_once(&mut d).await;
    let last = last_changes(&events);
    assert_eq!(last.through_round, 3);
    assert_eq!(last.regulations, "b02-2024");
    assert_eq!(last.changes.len(), 12);
    // Zero-sum among rated players of equal K is not guaranteed; every player played 3 games.
    assert!(last.changes.iter().all(|c| c.games == 3), "{last:?}");
    assert!(
        events.iter().any(|e| matches!(
            e.payload.as_ref().and_then(|p| p.kind.as_ref()),
            Some(pb::event::Kind::NormResult(_))
        )),
        "norm results at the end"
    );

    let mut client = RatingWorkerClient::connect(server.grpc.clone())
        .await
        .unwrap();
    let ev = client
        .get_event_ratings(rw::GetEventRatingsRequest {
            tournament: tref("rated-2025"),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((ev.through_round, ev.changes), (3, last.changes.clone()));

    let status = server.interrupt();
    assert!(status.success(), "serve exited with {status:?}");
    assert!(
        data.join("checkpoints").is_dir(),
        "the checkpoint store the services share"
    );
    let replay = run(&["replay", "rated-2025", "--data", data_arg]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    assert!(
        replay.stdout.contains("hash chain: intact"),
        "{}",
        replay.stdout
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_only_rating_worker_over_nats_catches_up_and_restarts_cleanly() {
    let nats = NatsServer::start()
        .await
        .expect("nats-server (apt-get install nats-server)");
    let url = nats.url();
    let work = TempDir::new("arbiter-ratings-nats").unwrap();
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
            ],
            &work.path().join(format!("{name}.log")),
        )
    };
    let registration = service("registration");
    let director = service("round-director");
    let _pairing = service("pairing-worker");
    let reporting = service("reporting");
    let endpoints = Endpoints {
        registration: registration.grpc.clone(),
        director: director.grpc.clone(),
        reporting: reporting.grpc.clone(),
    };
    let plan = small_plan(10, 3);
    let mut d = Driver::new(
        Clients::new(&endpoints),
        "rated-nats",
        plan.clone(),
        work.path(),
    );
    d.create().await;
    d.register_all().await;
    // Round 1 is played before the rating worker exists: it catches up from the log.
    d.play_round(1).await;
    let mut ratings = service("rating-worker");
    d.play_round(2).await;
    // Killed with SIGKILL and restarted: nothing is answered twice.
    ratings.kill9();
    d.play_round(3).await;
    ratings.restart();
    d.finish().await;
    let events = answered_once(&mut d).await;
    assert_eq!(last_changes(&events).through_round, 3);
    let mut client = RatingWorkerClient::connect(ratings.grpc.clone())
        .await
        .unwrap();
    let p = client
        .get_player_rating(rw::GetPlayerRatingRequest {
            tournament: tref("rated-nats"),
            pairing_number: 1,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(p.games.len(), 3);
    assert_eq!(
        p.total.unwrap().games as usize,
        p.games.iter().filter(|g| g.rated).count()
    );
    let status = ratings.interrupt();
    assert!(status.success(), "rating worker exited with {status:?}");
}

/// A list imported into the data folder is used by `arbiter serve`'s registration: a player
/// registered by FIDE id alone gets name, rating, K and federation from the list; what the
/// registration gives is kept; an id the list does not have still needs a name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_completes_registrations_from_the_rating_list() {
    let work = TempDir::new("arbiter-ratings-registration").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap();
    let list = work.path().join("players_list_foa.txt");
    write_list(&list, 50, &[]);
    let r = run(&[
        "ratings",
        "import",
        list.to_str().unwrap(),
        "--data",
        data_arg,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);

    let server = Server::start(&["--data", data_arg], &work.path().join("serve.log"));
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let mut d = Driver::new(c, "listed", small_plan(0, 1), work.path());
    d.create().await;
    let mut regc = d.c.reg.clone();
    let listed = record(FIRST_ID, 7);
    let by_id = |id: u64, name: &str, n: u32| reg::RegisterPlayerRequest {
        confirm_same_name: false,
        header: header("listed", &format!("register-{n}")),
        player: Some(arbiter_proto::registration::v1::PlayerDetails {
            name: name.into(),
            fide_id: Some(id),
            ..Default::default()
        }),
    };
    regc.register_player(by_id(listed.fide_id, "", 1))
        .await
        .expect("registered from the list");
    regc.register_player(by_id(record(FIRST_ID, 8).fide_id, "Given, Name", 2))
        .await
        .expect("registered with a name of its own");
    let unknown = regc
        .register_player(by_id(FIRST_ID + 10_000, "", 3))
        .await
        .expect_err("not in the list and no name");
    assert_eq!(unknown.code(), tonic::Code::InvalidArgument, "{unknown:?}");
    assert!(unknown.message().contains("name"), "{unknown:?}");

    let players: Vec<arbiter_proto::registration::v1::PlayerDetails> = regc
        .list_players(reg::ListPlayersRequest {
            tournament: tref("listed"),
        })
        .await
        .unwrap()
        .into_inner()
        .players
        .into_iter()
        .filter_map(|p| p.player)
        .collect();
    assert_eq!(players.len(), 2);
    let first = players
        .iter()
        .find(|p| p.fide_id == Some(listed.fide_id))
        .expect("the listed player");
    assert_eq!(first.name, listed.name);
    assert_eq!(Some(first.rating as u16), listed.standard.rating);
    assert_eq!(Some(first.k_factor as u8), listed.standard.k);
    assert_eq!(
        first.federation,
        listed
            .federation
            .map(|f| f.as_str().to_string())
            .unwrap_or_default()
    );
    let second = players
        .iter()
        .find(|p| p.fide_id == Some(record(FIRST_ID, 8).fide_id))
        .expect("the named player");
    assert_eq!(second.name, "Given, Name");
    assert_eq!(
        Some(second.rating as u16),
        record(FIRST_ID, 8).standard.rating
    );
}

/// Board 1 of `round` as reporting has it: (result on the wire, White, Black).
async fn board_one(d: &mut Driver, round: u32) -> (i32, u32, u32) {
    let p =
        d.c.rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(&d.tid),
                round,
            })
            .await
            .expect("pairings")
            .into_inner();
    let b = &p.boards[0];
    let board = b.board.as_ref().expect("board");
    (b.result, board.white, board.black)
}

/// Corrects board 1 of `round` to `to`.
async fn correct_board_one(d: &mut Driver, round: u32, to: BoardResult, command_id: &str) {
    let (res, wc, bc) = wire(to);
    d.c.rd
        .correct_result(rd::CorrectResultRequest {
            header: header(&d.tid, command_id),
            round,
            board: 1,
            corrected: res,
            white_code: wc,
            black_code: bc,
            reason: "scoresheets show otherwise".into(),
        })
        .await
        .unwrap_or_else(|s| panic!("{}: correction: {s:?}", d.tid));
}

async fn standings_rows(d: &mut Driver) -> Vec<rep::StandingRow> {
    d.c.rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref(&d.tid),
            after_round: 0,
        })
        .await
        .expect("standings")
        .into_inner()
        .rows
}

fn change_of(c: &pb::RatingChangesComputed, pn: u32) -> i32 {
    c.changes
        .iter()
        .find(|c| c.player_id == pn)
        .map(|c| c.change_tenths)
        .expect("a rating change")
}

fn card_json(http: &str, tid: &str, pn: u32) -> serde_json::Value {
    let (status, body) = http_get(http, &format!("/api/tournaments/{tid}/players/{pn}"));
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("card JSON")
}

/// C.04.2 D.8 over the running server. Three tournaments with the same players and results: a
/// correction after the end of the next round changes the rating worker's figures, the card's
/// per-game change and the finished tournament's TRF rating report, with the note on the pages
/// and in `arbiter client show`, while the standings, the next pairing's input (the TRF the
/// engine pairs from) and the next pairing itself stay those of the uncorrected twin; a
/// correction before the next pairing changes standings, pairing input and rating alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_correction_changes_the_rating_change_and_not_the_standings_or_the_next_pairing() {
    let work = TempDir::new("arbiter-late-correction").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap();
    let server = Server::start(&["--data", data_arg], &work.path().join("serve.log"));
    let http = server.http.clone().expect("http");
    let plan = small_plan(8, 3);
    let driver = |tid: &str| {
        Driver::new(
            Clients::new(&Endpoints::one(&server.grpc)),
            tid,
            plan.clone(),
            work.path(),
        )
    };
    let (mut late, mut twin, mut timely) = (driver("late"), driver("twin"), driver("timely"));
    for d in [&mut late, &mut twin, &mut timely] {
        d.create().await;
        d.register_all().await;
        d.play_round(1).await;
    }
    let flip = |r: i32| {
        if r == pb::BoardResult::WhiteWins as i32 {
            BoardResult::BlackWins
        } else {
            BoardResult::WhiteWins
        }
    };

    // Timely (round 2 not paired yet): standings, the pairing input and rating all change.
    let (was, white, _) = board_one(&mut timely, 1).await;
    let twin_export = twin.export().await;
    let twin_changes = last_changes(&answered_once(&mut twin).await);
    correct_board_one(&mut timely, 1, flip(was), "timely-correction").await;
    assert_ne!(
        standings_rows(&mut timely).await,
        standings_rows(&mut twin).await
    );
    assert_ne!(
        timely.export().await,
        twin_export,
        "the round-2 pairing input"
    );
    let timely_changes = last_changes(&answered_once(&mut timely).await);
    assert_ne!(
        change_of(&timely_changes, white),
        change_of(&twin_changes, white)
    );

    // Late (round 2 over): only the rating changes.
    for d in [&mut late, &mut twin] {
        d.play_round(2).await;
    }
    let before = last_changes(&answered_once(&mut late).await);
    let standings_before = standings_rows(&mut late).await;
    let export_before = late.export().await;
    let card_before = card_json(&http, "late", white);
    let (was, white, black) = board_one(&mut late, 1).await;
    let to = flip(was);
    correct_board_one(&mut late, 1, to, "late-correction").await;
    let after = last_changes(&answered_once(&mut late).await);
    assert_eq!(after.through_round, 2);
    for pn in [white, black] {
        assert_ne!(change_of(&after, pn), change_of(&before, pn), "player {pn}");
    }
    assert_eq!(standings_rows(&mut late).await, standings_before);
    assert_eq!(
        late.export().await,
        export_before,
        "the round-3 pairing input"
    );
    assert_eq!(board_one(&mut late, 1).await.0, was, "the pairings keep it");

    // The note, as the pages, the JSON and the command line say it.
    let shown = arbiter_proto::convert::board_result_from_wire(was, 0, 0).expect("a result");
    let note = format!(
        "result corrected after round 2 ended: counts as {shown} for standings, {to} for rating (C.04.2 D.8)"
    );
    let card = card_json(&http, "late", white);
    assert_eq!(card["games"][0]["note"], note.as_str(), "{card}");
    assert_eq!(
        card["games"][0]["result"],
        card_before["games"][0]["result"]
    );
    assert_ne!(
        card["games"][0]["rating_change"], card_before["games"][0]["rating_change"],
        "the card's change of the corrected game follows the rating result"
    );
    let tenths = change_of(&after, white);
    let total = format!(
        "{}{}.{}",
        if tenths > 0 {
            "+"
        } else if tenths < 0 {
            "-"
        } else {
            ""
        },
        tenths.abs() / 10,
        tenths.abs() % 10
    );
    assert_eq!(card["rating_change"]["total"], total.as_str(), "{card}");
    assert!(card_before["games"][0].get("note").is_none());
    let crosstable: serde_json::Value =
        serde_json::from_str(&http_get(&http, "/api/tournaments/late/crosstable").1).unwrap();
    assert_eq!(
        crosstable["notes"][0]["players"],
        serde_json::json!([white, black])
    );
    for path in [
        "/t/late/crosstable".to_string(),
        "/t/late/pairings/1".to_string(),
        format!("/t/late/players/{white}"),
    ] {
        let (status, html) = http_get(&http, &path);
        assert_eq!(status, 200, "{path}");
        assert!(html.contains(&note), "{path}: no note");
        assert!(html.contains("<sup class=\"fn\">"), "{path}: no marker");
    }
    let (_, html) = http_get(&http, "/t/late/pairings/2");
    assert!(
        !html.contains("class=\"fn\""),
        "round 2 has no corrected game"
    );
    let show = run(&["client", "--server", &server.grpc, "show", "late"]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    assert!(
        show.stdout.contains(&format!("round 1, board 1: {note}")),
        "{}",
        show.stdout
    );

    // The next pairing is the twin's.
    for d in [&mut late, &mut twin] {
        d.play_round(3).await;
    }
    let pairing = |p: rep::RoundPairings| pairing_of(&p);
    let mut rep_late = late.c.rep.clone();
    let mut rep_twin = twin.c.rep.clone();
    let get = |tid: &str| rep::GetPairingsRequest {
        tournament: tref(tid),
        round: 3,
    };
    assert_eq!(
        pairing(
            rep_late
                .get_pairings(get("late"))
                .await
                .unwrap()
                .into_inner()
        ),
        pairing(
            rep_twin
                .get_pairings(get("twin"))
                .await
                .unwrap()
                .into_inner()
        )
    );

    // The finished tournament's TRF is the rating report: the rating result in the round
    // block, a file every reader (and `arbiter rate`) accepts, the note as a comment.
    late.finish().await;
    let trf = late
        .c
        .rep
        .export_trf(rep::ExportTrfRequest {
            tournament: tref("late"),
            format: arbiter_proto::common::v1::TrfFormat::Trf2026 as i32,
        })
        .await
        .expect("export")
        .into_inner()
        .trf;
    let text = String::from_utf8(trf).unwrap();
    let file = arbiter_trf::parse(&text).expect("the report parses").file;
    let (w, b) = to.codes();
    assert_eq!(file.player(white).unwrap().rounds[0].unwrap().result, w);
    assert_eq!(file.player(black).unwrap().rounds[0].unwrap().result, b);
    assert!(
        text.lines()
            .any(|l| l.starts_with("###") && l.contains(&note)),
        "{text}"
    );
    let path = work.path().join("late-report.trf");
    std::fs::write(&path, &text).unwrap();
    let rate = run(&["rate", path.to_str().unwrap()]);
    assert_eq!(rate.code, 0, "{}\n{}", rate.stdout, rate.stderr);
}

//! Faults and bad input against `arbiter serve` (the real binary over loopback gRPC): every
//! refusal has a clear status and appends nothing; the same command id twice is one event;
//! racing writers on one stream: one wins and the other conflicts (with an expected version)
//! or retries (without); `arbiter import` and `arbiter replay` on real sled files, including a
//! flipped byte on disk.

use crate::support::*;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::pairing_worker::v1 as pw;
use arbiter_proto::pairing_worker::v1::pairing_worker_client::PairingWorkerClient;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use futures::StreamExt;
use std::time::Duration;
use tonic::Code;

fn player(
    name: &str,
    rating: u32,
    fide_id: u64,
) -> Option<arbiter_proto::registration::v1::PlayerDetails> {
    Some(arbiter_proto::registration::v1::PlayerDetails {
        name: name.into(),
        rating,
        fide_id: Some(fide_id),
        ..Default::default()
    })
}

/// A server with a 2-round tournament "bad" of six players.
async fn small_tournament(work: &TempDir) -> (Server, Driver) {
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let plan = Plan {
        players: 6,
        rounds: 2,
        seed: 7,
        early_byes: vec![],
        late_byes: vec![],
        withdrawals: vec![],
        forfeit_permille: 0,
    };
    let mut d = Driver::new(c, "bad", plan, work.path());
    d.create().await;
    d.register_all().await;
    (server, d)
}

/// Asserts a refusal: its code, that its message names what and where, and that nothing was
/// appended for it (`before`: [`Driver::own_events`] just before the request).
async fn refused<T: std::fmt::Debug>(
    d: &mut Driver,
    before: usize,
    what: &str,
    got: Result<tonic::Response<T>, tonic::Status>,
    code: Code,
    words: &[&str],
) {
    let s = got.expect_err(what);
    assert_eq!(s.code(), code, "{what}: {s:?}");
    for w in words {
        assert!(
            s.message().contains(w),
            "{what}: {:?} lacks {w:?}",
            s.message()
        );
    }
    assert_eq!(d.own_events().await, before, "{what}: nothing appended");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_refused_with_a_clear_status_and_appends_nothing() {
    let work = TempDir::new("arbiter-e2e-bad").unwrap();
    let (server, mut d) = small_tournament(&work).await;
    let mut c = d.c.clone();
    let v0 = d.version().await;

    // The same FIDE id registered twice.
    let before = d.own_events().await;
    let r = c
        .reg
        .register_player(reg::RegisterPlayerRequest {
            header: header("bad", "dup-fide"),
            confirm_same_name: false,
            player: player("Copy, Cat", 1500, 1_000_001),
        })
        .await;
    refused(
        &mut d,
        before,
        "duplicate FIDE id",
        r,
        Code::AlreadyExists,
        &["bad", "FIDE id 1000001"],
    )
    .await;

    // A result for a round not started, then for a round started but not published.
    let result = |round, board| rd::RecordResultRequest {
        header: header("bad", &format!("r{round}b{board}")),
        round,
        board,
        result: pb::BoardResult::WhiteWins as i32,
        white_code: 0,
        black_code: 0,
    };
    let before = d.own_events().await;
    let r = c.rd.record_result(result(1, 1)).await;
    refused(
        &mut d,
        before,
        "result, round not started",
        r,
        Code::FailedPrecondition,
        &["round 1"],
    )
    .await;
    d.start_round(1).await;
    let proposal = d.wait_proposal(1, Duration::from_secs(30)).await;
    let before = d.own_events().await;
    let r = c.rd.record_result(result(1, 1)).await;
    refused(
        &mut d,
        before,
        "result, round not published",
        r,
        Code::FailedPrecondition,
        &["round 1", "not published"],
    )
    .await;
    d.publish(1).await;

    // An unknown board; an unspecified result.
    let before = d.own_events().await;
    let r = c.rd.record_result(result(1, 99)).await;
    refused(
        &mut d,
        before,
        "unknown board",
        r,
        Code::NotFound,
        &["round 1", "board 99"],
    )
    .await;
    let mut unspecified = result(1, 1);
    unspecified.result = 0;
    let before = d.own_events().await;
    let r = c.rd.record_result(unspecified).await;
    refused(
        &mut d,
        before,
        "unspecified result",
        r,
        Code::InvalidArgument,
        &["result"],
    )
    .await;

    // A bye for a round whose pairing is already published.
    let before = d.own_events().await;
    let r = c
        .reg
        .request_bye(reg::RequestByeRequest {
            header: header("bad", "late-bye"),
            pairing_number: 2,
            round: 1,
            kind: pb::ByeKind::HalfPoint as i32,
            ..Default::default()
        })
        .await;
    refused(
        &mut d,
        before,
        "bye after the pairing",
        r,
        Code::FailedPrecondition,
        &["round 1", "already published"],
    )
    .await;

    // An unknown tournament: commands and queries.
    let r =
        c.rd.start_round(rd::StartRoundRequest {
            header: header("nope", "x"),
            round: 1,
            scheduled_unix_ms: 0,
        })
        .await;
    let s = r.unwrap_err();
    assert_eq!(s.code(), Code::NotFound, "{s:?}");
    assert!(
        s.message().contains("tournament nope does not exist"),
        "{s:?}"
    );
    let s = c
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref("nope"),
            after_round: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(s.code(), Code::NotFound, "{s:?}");
    let s = c
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref("not valid"),
            after_round: 0,
        })
        .await
        .unwrap_err();
    assert_eq!(s.code(), Code::InvalidArgument, "{s:?}");

    // Finish the tournament, then ask for another pairing.
    let pairing = pairing_of(&proposal);
    d.results(1, &pairing, 0..pairing.0.len()).await;
    d.close(1).await;
    d.play_round(2).await;
    d.finish().await;
    let before = d.own_events().await;
    let r =
        c.rd.start_round(rd::StartRoundRequest {
            header: header("bad", "start-3"),
            round: 3,
            scheduled_unix_ms: 0,
        })
        .await;
    refused(
        &mut d,
        before,
        "pairing a finished tournament",
        r,
        Code::FailedPrecondition,
        &["finished"],
    )
    .await;
    let before = d.own_events().await;
    let r =
        c.rd.request_repairing(rd::RequestRepairingRequest {
            header: header("bad", "repair-2"),
            round: 2,
            reason: "again".into(),
        })
        .await;
    refused(
        &mut d,
        before,
        "re-pairing a finished tournament",
        r,
        Code::FailedPrecondition,
        &["finished"],
    )
    .await;
    let mut worker = PairingWorkerClient::new(
        tonic::transport::Channel::from_shared(server.grpc.clone())
            .unwrap()
            .connect_lazy(),
    );
    let before = d.own_events().await;
    let r = worker
        .pair(pw::PairRequest {
            tournament: tref("bad"),
            round: 0,
            rule_set: String::new(),
        })
        .await;
    refused(
        &mut d,
        before,
        "dry-run pairing of a finished tournament",
        r,
        Code::FailedPrecondition,
        &["no round is left"],
    )
    .await;
    assert!(d.version().await > v0);
    d.check_stream().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_command_id_twice_is_one_event() {
    let work = TempDir::new("arbiter-e2e-idem").unwrap();
    let (_server, mut d) = small_tournament(&work).await;
    let v0 = d.version().await;
    let req = reg::RegisterPlayerRequest {
        header: header("bad", "register-once"),
        confirm_same_name: false,
        player: player("Once, Only", 1800, 77),
    };
    let first =
        d.c.reg
            .register_player(req.clone())
            .await
            .unwrap()
            .into_inner();
    let second = d.c.reg.register_player(req).await.unwrap().into_inner();
    assert!(!first.replayed);
    assert!(second.replayed);
    assert_eq!(first.event_ids, second.event_ids);
    assert_eq!(
        (second.first_version, second.last_version),
        (v0 + 1, v0 + 1)
    );
    assert_eq!(d.version().await, v0 + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_writers_one_wins_the_other_conflicts_or_takes_turns() {
    let work = TempDir::new("arbiter-e2e-race").unwrap();
    let (server, mut d) = small_tournament(&work).await;

    // With an expected version: exactly one of two writers wins, the other is told to re-read.
    let v = d.version().await;
    let send = |i: u32| {
        let mut reg = d.c.reg.clone();
        async move {
            let mut h = header("bad", &format!("racer-{i}"));
            h.as_mut().unwrap().expected_version = Some(v);
            reg.register_player(reg::RegisterPlayerRequest {
                header: h,
                confirm_same_name: false,
                player: player(&format!("Racer, {i}"), 1700 + i, 500 + i as u64),
            })
            .await
        }
    };
    let (a, b) = tokio::join!(send(1), send(2));
    let outcomes = [a, b];
    let won = outcomes.iter().filter(|r| r.is_ok()).count();
    assert_eq!(won, 1, "{outcomes:?}");
    let lost = outcomes.iter().find_map(|r| r.as_ref().err()).unwrap();
    assert_eq!(lost.code(), Code::Aborted);
    assert!(lost.message().contains("expected version"), "{lost:?}");
    assert_eq!(d.version().await, v + 1);

    // Without one: every writer succeeds, each on the state the one before left; in one
    // process they take turns (no conflict, no retry).
    for batch in 0..2 {
        let v = d.version().await;
        let mut tasks = Vec::new();
        for i in 0..16u32 {
            let mut reg = d.c.reg.clone();
            tasks.push(tokio::spawn(async move {
                reg.register_player(reg::RegisterPlayerRequest {
                    header: header("bad", &format!("crowd-{batch}-{i}")),
                    confirm_same_name: false,
                    player: player(
                        &format!("Crowd, {batch}-{i:02}"),
                        1000 + i,
                        10_000 + (batch * 100 + i) as u64,
                    ),
                })
                .await
            }));
        }
        let mut versions = Vec::new();
        for t in tasks {
            let r = t
                .await
                .unwrap()
                .expect("every writer succeeds")
                .into_inner();
            versions.push(r.first_version);
        }
        versions.sort_unstable();
        versions.dedup();
        assert_eq!(versions.len(), 16, "each writer got its own version");
        assert_eq!(d.version().await, v + 16);
    }
    assert!(
        !server
            .log()
            .contains("version conflict: re-reading and deciding again"),
        "writers of one process conflicted"
    );
}

/// Flips one byte in the middle of the `n`-th on-disk copy of `needle` under `dir` (files in
/// name order); false when there is no such copy.
fn flip_nth(dir: &std::path::Path, needle: &[u8], n: usize) -> bool {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(p) = dirs.pop() {
        for e in std::fs::read_dir(&p).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut seen = 0;
    for p in files {
        let mut bytes = std::fs::read(&p).unwrap();
        let mut at = 0;
        while let Some(i) = bytes[at..].windows(needle.len()).position(|w| w == needle) {
            if seen == n {
                bytes[at + i + needle.len() / 2] ^= 0x01;
                std::fs::write(&p, &bytes).unwrap();
                return true;
            }
            seen += 1;
            at += i + needle.len();
        }
    }
    false
}

#[test]
fn import_replay_and_a_flipped_byte() {
    let work = TempDir::new("arbiter-e2e-import").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap();
    let golden = root().join("tests/golden/dutch-2017/t0009.trf");
    let golden_arg = golden.to_str().unwrap();

    // A tournament paired by a reference engine: imported, audited, every round identical.
    let im = run(&[
        "import",
        golden_arg,
        "--data",
        data_arg,
        "--rule-set",
        "dutch-2017",
    ]);
    assert_eq!(im.code, 0, "{}", im.stderr);
    assert_eq!(im.stdout.trim(), "t0009");
    let replay = run(&["replay", "t0009", "--data", data_arg, "--strict"]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    assert!(
        replay.stdout.contains("9 rounds re-paired, 0 differing"),
        "{}",
        replay.stdout
    );
    // Importing again appends nothing (every command id is already there).
    let again = run(&[
        "import",
        golden_arg,
        "--data",
        data_arg,
        "--rule-set",
        "dutch-2017",
    ]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stderr.contains("at version 125"), "{}", again.stderr);
    // The export of the imported tournament re-pairs identically too.
    let export = run(&["export", "t0009", "--data", data_arg]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let path = work.path().join("t0009-export.trf");
    std::fs::write(&path, &export.stdout).unwrap();
    let check = run(&["check", path.to_str().unwrap(), "--system", "dutch-2017"]);
    assert_eq!(check.code, 0, "{}", check.stdout);

    // Unknown tournament; a broken file (nothing is written).
    let unknown = run(&["replay", "nope", "--data", data_arg]);
    assert_eq!(unknown.code, 3, "{}", unknown.stderr);
    let broken = work.path().join("broken.trf");
    let text = std::fs::read_to_string(&golden).unwrap();
    let damaged = text.replacen("    13 b 1     1 b 0", "    13 b =     1 b 0", 1);
    assert_ne!(damaged, text);
    std::fs::write(&broken, damaged).unwrap();
    let bad = run(&["import", broken.to_str().unwrap(), "--data", data_arg]);
    assert_eq!(bad.code, 3, "{}", bad.stderr);
    assert!(bad.stderr.contains("line"), "{}", bad.stderr);
    assert_eq!(run(&["replay", "broken", "--data", data_arg]).code, 3);

    // One flipped byte in the sled files, in each copy sled keeps on disk in turn (a fresh
    // import each time): the audit refuses the log with exit code 4, naming the damage.
    let mut cases = 0;
    for copy in 0.. {
        let dir = work.path().join(format!("tamper-{copy}"));
        let dir_arg = dir.to_str().unwrap();
        let im = run(&[
            "import",
            golden_arg,
            "--data",
            dir_arg,
            "--rule-set",
            "dutch-2017",
        ]);
        assert_eq!(im.code, 0, "{}", im.stderr);
        if !flip_nth(&dir, b"Test0005 Player0005", copy) {
            break;
        }
        let tampered = run(&["replay", "t0009", "--data", dir_arg]);
        assert_eq!(
            tampered.code, 4,
            "copy {copy}: stdout:\n{}\nstderr:\n{}",
            tampered.stdout, tampered.stderr
        );
        assert!(
            tampered.stderr.contains("damaged"),
            "copy {copy}: {}",
            tampered.stderr
        );
        cases += 1;
    }
    eprintln!("{cases} damaged copies detected");
    assert!(cases >= 1, "the payload was not found on disk");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queries_watch_explain_check_and_crosstable() {
    use arbiter_proto::pairing_worker::v1::pairing_worker_client::PairingWorkerClient;
    let work = TempDir::new("arbiter-e2e-queries").unwrap();
    let (server, mut d) = small_tournament(&work).await;
    let mut c = d.c.clone();

    // WatchTournament: the current state first, then one message per change.
    let mut watch =
        c.rd.watch_tournament(rd::GetTournamentRequest {
            tournament: tref("bad"),
        })
        .await
        .unwrap()
        .into_inner();
    let first = watch.next().await.unwrap().unwrap();
    assert_eq!(first.phase, rd::Phase::Registration as i32);
    d.start_round(1).await;
    let proposal = d.wait_proposal(1, Duration::from_secs(30)).await;
    let mut seen = first.version;
    while seen < first.version + 3 {
        let s = tokio::time::timeout(Duration::from_secs(30), watch.next())
            .await
            .expect("a state within 30 s")
            .unwrap()
            .unwrap();
        assert!(s.version >= seen, "states arrive in order");
        seen = s.version;
    }

    // The worker's dry run agrees with its proposal; Explain returns the proposal's reasoning.
    let mut worker = PairingWorkerClient::new(
        tonic::transport::Channel::from_shared(server.grpc.clone())
            .unwrap()
            .connect_lazy(),
    );
    let dry = worker
        .pair(pw::PairRequest {
            tournament: tref("bad"),
            round: 1,
            rule_set: String::new(),
        })
        .await
        .unwrap()
        .into_inner();
    let dry_boards: Vec<(u32, u32)> = dry.boards.iter().map(|b| (b.white, b.black)).collect();
    assert_eq!(dry_boards, pairing_of(&proposal).0);
    assert_eq!(dry.input_digest.len(), 32);
    let explained = worker
        .explain(pw::ExplainRequest {
            tournament: tref("bad"),
            round: 1,
            pairing_number: 0,
        })
        .await
        .unwrap()
        .into_inner();
    assert!(explained.explanation.contains("Round 1"), "{explained:?}");
    assert!(explained.proposal_version > 0);

    // Before publication, Check judges a pairing changed by hand against the engine's: the
    // proposal itself agrees; board 1's colours swapped are the same pairs with the colours
    // the engine did not choose (the verdict names the engine's board, white first).
    let (boards, bye) = pairing_of(&proposal);
    let candidate = |swap_first: bool| pw::CheckRequest {
        tournament: tref("bad"),
        round: 1,
        candidate_boards: boards
            .iter()
            .enumerate()
            .map(|(i, &(w, b))| {
                let (white, black) = if swap_first && i == 0 { (b, w) } else { (w, b) };
                pb::Board {
                    number: i as u32 + 1,
                    white,
                    black,
                }
            })
            .collect(),
        candidate_unpaired: bye
            .map(|p| pb::Unpaired {
                player_id: p,
                code: pb::ResultCode::PairingBye as i32,
            })
            .into_iter()
            .collect(),
    };
    let same = worker.check(candidate(false)).await.unwrap().into_inner();
    assert!(same.matches && same.verdict.is_empty(), "{same:?}");
    let swapped = worker.check(candidate(true)).await.unwrap().into_inner();
    assert!(!swapped.matches, "{swapped:?}");
    assert_eq!(swapped.differences.len(), 1, "{swapped:?}");
    assert!(
        swapped
            .verdict
            .contains(&format!("colours of {} - {}", boards[0].0, boards[0].1)),
        "{swapped:?}"
    );
    assert!(!swapped.deciding_rule.is_empty(), "{swapped:?}");

    // After publication, Check re-runs the engine on the history before it; a candidate is
    // no longer judged.
    d.publish(1).await;
    let late = worker.check(candidate(false)).await.unwrap_err();
    assert_eq!(late.code(), tonic::Code::FailedPrecondition, "{late:?}");
    assert!(late.message().contains("published already"), "{late:?}");
    let check = worker
        .check(pw::CheckRequest {
            tournament: tref("bad"),
            round: 1,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(check.matches, "{check:?}");
    assert_eq!(check.published_input_digest, check.recomputed_input_digest);

    let pairing = pairing_of(&proposal);
    d.results(1, &pairing, 0..pairing.0.len()).await;
    d.close(1).await;
    let x = c
        .rep
        .get_crosstable(rep::GetCrosstableRequest {
            tournament: tref("bad"),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(x.rows.len(), 6);
    assert!(x.rows.iter().all(|r| r.cells.len() == 1));
    let list = c
        .reg
        .list_tournaments(reg::ListTournamentsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(list.tournaments.len(), 1);
    assert_eq!(list.tournaments[0].players, 6);
    // The event feed of the tournament, from a version on.
    let mut events = c
        .rep
        .stream_events(rep::StreamEventsRequest {
            tournament: Some(arbiter_proto::common::v1::TournamentRef {
                tournament_id: "bad".into(),
                as_of_version: 0,
            }),
            from_version: 5,
            follow: false,
            raw_payload: false,
        })
        .await
        .unwrap()
        .into_inner();
    let first = events.next().await.unwrap().unwrap();
    assert_eq!(first.version, 5);
    assert_eq!(first.hash.len(), 32);
}

/// An arbiter publishes an amended pairing (board 1's colours swapped): the pairing worker's
/// Check reports the difference and the colour rule the engine followed on that board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn amended_publication_is_checked_with_its_deciding_rule() {
    let work = TempDir::new("arbiter-e2e-amended").unwrap();
    let (server, mut d) = small_tournament(&work).await;
    d.start_round(1).await;
    let proposal = d.wait_proposal(1, Duration::from_secs(30)).await;
    let mut boards: Vec<pb::Board> = proposal.boards.iter().filter_map(|b| b.board).collect();
    let first = boards[0];
    boards[0] = pb::Board {
        number: first.number,
        white: first.black,
        black: first.white,
    };
    let mut rdc = d.c.rd.clone();
    rdc.publish_pairing(rd::PublishPairingRequest {
        header: header("bad", "publish-amended-1"),
        round: 1,
        proposal_version: 0,
        boards,
        unpaired: proposal.unpaired.clone(),
        note: "colours of board 1 changed by the arbiter".into(),
        ..Default::default()
    })
    .await
    .expect("publish the amended pairing");
    let mut worker = PairingWorkerClient::new(
        tonic::transport::Channel::from_shared(server.grpc.clone())
            .unwrap()
            .connect_lazy(),
    );
    let check = worker
        .check(pw::CheckRequest {
            tournament: tref("bad"),
            round: 1,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(!check.matches, "{check:?}");
    assert_eq!(check.differences.len(), 1, "{check:?}");
    // Round 1: nobody has a colour history, so only the initial-colour rule can decide.
    assert!(
        check.deciding_rule == "E.5" || check.deciding_rule == "5.2.5",
        "{check:?}"
    );
    assert!(
        check
            .verdict
            .contains(&format!("colours of {} - {}", first.white, first.black)),
        "{check:?}"
    );
}

/// A byte flipped in the middle of a served tournament's stream, behind the snapshot the
/// server resumes from: the audit exits 4 naming the version in plain words; the restarted
/// server finds it at start, says so on `/healthz` and the tournament's pages, and refuses
/// every change to that tournament (FAILED_PRECONDITION naming the version), while the
/// others are served as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_stream_is_found_at_start_and_refuses_changes() {
    let work = TempDir::new("arbiter-e2e-damaged").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap();
    let golden = root().join("tests/golden/dutch-2017/t0009.trf");
    let im = run(&[
        "import",
        golden.to_str().unwrap(),
        "--data",
        data_arg,
        "--rule-set",
        "dutch-2017",
    ]);
    assert_eq!(im.code, 0, "{}", im.stderr);

    // Served once: the pages fold the stream and the shutdown writes its snapshot.
    let mut server = Server::start(
        &["--data", data_arg, "--snapshot-min-events", "0"],
        &work.path().join("serve.log"),
    );
    let http = server.http.clone().expect("http address");
    let (status, _) = http_get(&http, "/t/t0009");
    assert_eq!(status, 200);
    // Another tournament on the same server, untouched by the damage.
    let mut other = Driver::new(
        Clients::new(&Endpoints::one(&server.grpc)),
        "healthy",
        Plan {
            players: 4,
            rounds: 1,
            seed: 1,
            early_byes: vec![],
            late_byes: vec![],
            withdrawals: vec![],
            forfeit_permille: 0,
        },
        work.path(),
    );
    other.create().await;
    assert!(server.interrupt().success());

    // Each on-disk copy of one player's registration flipped in turn (on a fresh copy of the
    // folder): the audit exits 4 in plain words, whether sled's own recovery trips on it (the
    // log cannot be opened: "corrupt data on disk") or the event fails its hash.
    let pristine = work.path().join("pristine");
    copy_tree(&data, &pristine);
    let mut flipped = 0;
    for copy in 0.. {
        std::fs::remove_dir_all(&data).unwrap();
        copy_tree(&pristine, &data);
        if !flip_nth(&data.join("log"), b"Test0005 Player0005", copy) {
            break;
        }
        let audit = run(&["replay", "t0009", "--data", data_arg]);
        assert_eq!(
            audit.code, 4,
            "copy {copy}: {}\n{}",
            audit.stdout, audit.stderr
        );
        for debug in ["Inline(", "backtrace", "Corruption"] {
            assert!(
                !audit.stderr.contains(debug),
                "copy {copy}: {}",
                audit.stderr
            );
        }
        assert!(
            audit.stderr.contains("damaged"),
            "copy {copy}: {}",
            audit.stderr
        );
        flipped += 1;
    }
    assert!(flipped >= 1, "the payload was not found in the log's files");

    // One event in the middle changed under sled's checksums (sled opens the log; the event
    // fails its own hash): the audit names its version.
    std::fs::remove_dir_all(&data).unwrap();
    copy_tree(&pristine, &data);
    let damaged = arbiter_eventlog::testing::damage_stored_event(
        &data.join("log"),
        "tournament-t0009",
        40,
        |record| {
            let mid = record.len() / 2;
            record[mid] ^= 0x01;
        },
    );
    assert_eq!(damaged, Ok(true));
    let audit = run(&["replay", "t0009", "--data", data_arg]);
    assert_eq!(audit.code, 4, "{}\n{}", audit.stdout, audit.stderr);
    assert!(
        audit.stderr.contains("the event at version 40 of stream"),
        "{}",
        audit.stderr
    );

    server.restart();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let health = loop {
        let (status, body) = http_get(&http, "/healthz");
        assert_eq!(status, 200, "{body}");
        if body.starts_with("degraded") {
            break body;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the damage was not found at start: {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        health.contains("tournament t0009: the event at version 40"),
        "{health}"
    );
    assert!(!health.contains("tournament healthy"), "{health}");

    let (status, page) = http_get(&http, "/t/t0009");
    assert_ne!(status, 200, "{page}");
    assert!(page.contains("damaged"), "{page}");
    let (status, _) = http_get(&http, "/t/healthy");
    assert_eq!(status, 200, "the other tournaments are served");

    let c = Clients::new(&Endpoints::one(&server.grpc));
    let refused = c
        .reg
        .clone()
        .register_player(reg::RegisterPlayerRequest {
            header: header("t0009", "register-after-damage"),
            confirm_same_name: false,
            player: player("Late, Comer", 1800, 4_100_001),
        })
        .await
        .expect_err("a change to a damaged stream");
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert!(
        refused.message().contains("damaged") && refused.message().contains("version 40"),
        "{refused:?}"
    );
    // The healthy tournament still takes changes.
    other.c = c;
    other.register_all().await;
    assert!(server.interrupt().success());
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

//! Command ids bound to their request, and validation at the gRPC edge, against `arbiter serve`
//! (the real binary over loopback gRPC, real sled files; a real nats-server for JetStream):
//!
//! - every command RPC of registration and round director: the same command id with another
//!   request is ALREADY_EXISTS naming the command id, the first command and its version, and
//!   appends nothing; the same request again is its first outcome (`replayed`), also after the
//!   stream moved on and after restarts (kill -9: folded from the log; SIGINT: from the snapshot);
//! - unknown tie-breaks, unsupported pairing systems, unknown rule sets, overlong or reserved
//!   actors and bad free text are INVALID_ARGUMENT naming the field, with nothing appended.

use crate::support::*;
use arbiter_eventlog::testing::NatsServer;
use arbiter_proto::common::v1::{CommandHeader, CommandResult};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use arbiter_service_kit::edge::{MAX_ACTOR_CHARS, MAX_LINE_CHARS, MAX_NOTE_CHARS};
use std::future::Future;
use std::time::{Duration, Instant};
use tonic::{Code, Response, Status};

/// The actor of every request of these tests (`crate::support::header`).
const ACTOR: &str = "e2e";

/// Events of `tid` appended by this test's requests (the workers append on their own time).
async fn ours(c: &mut Clients, tid: &str) -> Vec<pb::Envelope> {
    match collect_log(c.rep.stream_events(whole_log(tid, false)).await).await {
        Ok(events) => events.into_iter().filter(|e| e.actor == ACTOR).collect(),
        Err(s) if s.code() == Code::NotFound => Vec::new(),
        Err(s) => panic!("stream events of {tid}: {s:?}"),
    }
}

/// `first` is appended; `other`, another request with the same command id, is refused naming
/// the command id, `command` and the version of the first outcome, and appends nothing; `first`
/// again answers with the first outcome.
async fn binds<R, F, Fut>(
    c: &mut Clients,
    tid: &str,
    id: &str,
    command: &str,
    mut send: F,
    first: R,
    other: R,
) -> CommandResult
where
    R: Clone,
    F: FnMut(R) -> Fut,
    Fut: Future<Output = Result<Response<CommandResult>, Status>>,
{
    let a = send(first.clone())
        .await
        .unwrap_or_else(|s| panic!("{command} {id}: {s:?}"))
        .into_inner();
    assert!(!a.replayed, "{command} {id}");
    refused_as_reused(c, tid, id, command, &a, send(other).await).await;
    let again = send(first).await.expect(command).into_inner();
    assert!(
        again.replayed,
        "{command} {id}: the same request again is a replay"
    );
    assert_eq!(again.event_ids, a.event_ids, "{command} {id}");
    assert_eq!(
        (again.first_version, again.last_version),
        (a.first_version, a.last_version)
    );
    a
}

async fn refused_as_reused(
    c: &mut Clients,
    tid: &str,
    id: &str,
    command: &str,
    first: &CommandResult,
    got: Result<Response<CommandResult>, Status>,
) {
    let before = ours(c, tid).await.len();
    let s = got.expect_err("another request with a used command id");
    assert_eq!(s.code(), Code::AlreadyExists, "{command} {id}: {s:?}");
    for w in [
        format!("header.command_id {id:?}"),
        format!("by {command} at stream version {}", first.first_version),
        "nothing was appended".to_string(),
    ] {
        assert!(s.message().contains(&w), "{w:?} not in {:?}", s.message());
    }
    let events = ours(c, tid).await;
    assert_eq!(events.len(), before, "{command} {id}: nothing appended");
    let with_id = events.iter().filter(|e| e.command_id == id).count() as u64;
    assert_eq!(with_id, first.last_version - first.first_version + 1);
}

async fn wait_phase(c: &mut Clients, tid: &str, phase: rd::Phase) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let t = retry("get tournament", || {
            let mut rd = c.rd.clone();
            async move {
                rd.get_tournament(rd::GetTournamentRequest {
                    tournament: tref(tid),
                })
                .await
            }
        })
        .await
        .expect("get tournament")
        .into_inner();
        if t.phase == phase as i32 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{tid}: not in {phase:?} after 60 s"
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

async fn boards(c: &mut Clients, tid: &str, round: u32) -> usize {
    c.rep
        .get_pairings(rep::GetPairingsRequest {
            tournament: tref(tid),
            round,
        })
        .await
        .expect("pairings")
        .into_inner()
        .boards
        .len()
}

fn new_player(name: &str, rating: u32) -> Option<arbiter_proto::registration::v1::PlayerDetails> {
    Some(arbiter_proto::registration::v1::PlayerDetails {
        name: name.into(),
        rating,
        ..Default::default()
    })
}

fn tournament(name: &str) -> arbiter_proto::registration::v1::TournamentSettings {
    arbiter_proto::registration::v1::TournamentSettings {
        name: name.into(),
        start_date: Some(pb::Date {
            year: 2025,
            month: 9,
            day: 1,
        }),
        rounds: 3,
        chief_arbiter: Some(pb::Arbiter {
            name: "Arbiter, Chief".into(),
            fide_id: None,
            title: "IA".into(),
        }),
        ..Default::default()
    }
}

fn result(
    tid: &str,
    id: &str,
    round: u32,
    board: u32,
    r: pb::BoardResult,
) -> rd::RecordResultRequest {
    rd::RecordResultRequest {
        header: header(tid, id),
        round,
        board,
        result: r as i32,
        white_code: 0,
        black_code: 0,
    }
}

fn six_players(work: &std::path::Path, c: Clients, tid: &str) -> Driver {
    let plan = Plan {
        players: 6,
        rounds: 2,
        seed: 11,
        early_byes: vec![],
        late_byes: vec![],
        withdrawals: vec![],
        forfeit_permille: 0,
    };
    Driver::new(c, tid, plan, work)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_binds_its_id_to_the_request() {
    let work = TempDir::new("arbiter-e2e-bind").unwrap();
    let data = work.path().join("data");
    let mut server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let t = "bind";
    let mut d = six_players(work.path(), c.clone(), t);
    d.create().await;
    d.register_all().await;

    let reg_ = c.reg.clone();
    let rd_ = c.rd.clone();
    macro_rules! reg {
        ($m:ident) => {
            |r| {
                let mut s = reg_.clone();
                async move { s.$m(r).await }
            }
        };
    }
    macro_rules! rd {
        ($m:ident) => {
            |r| {
                let mut s = rd_.clone();
                async move { s.$m(r).await }
            }
        };
    }

    // Registration.
    let create = |name: &str| reg::CreateTournamentRequest {
        header: header("bind-2", "create-2"),
        tournament: Some(tournament(name)),
    };
    let (a, b) = (create("First Open"), create("Second Open"));
    binds(
        &mut c,
        "bind-2",
        "create-2",
        "CreateTournament",
        reg!(create_tournament),
        a,
        b,
    )
    .await;

    let update = |place: &str| reg::UpdateTournamentRequest {
        header: header(t, "place"),
        update: Some(arbiter_proto::registration::v1::TournamentChanges {
            place: Some(place.into()),
            ..Default::default()
        }),
    };
    let (a, b) = (update("Oslo"), update("Bergen"));
    binds(
        &mut c,
        t,
        "place",
        "UpdateTournament",
        reg!(update_tournament),
        a,
        b,
    )
    .await;

    let register = |name: &str| reg::RegisterPlayerRequest {
        header: header(t, "reg-7"),
        confirm_same_name: false,
        player: new_player(name, 1500),
    };
    let (a, b) = (register("Seventh, Ann"), register("Seventh, Bob"));
    let first_registration = binds(
        &mut c,
        t,
        "reg-7",
        "RegisterPlayer",
        reg!(register_player),
        a,
        b,
    )
    .await;

    let bye = |kind: pb::ByeKind| reg::RequestByeRequest {
        header: header(t, "bye-1"),
        pairing_number: 1,
        round: 2,
        kind: kind as i32,
        ..Default::default()
    };
    let (a, b) = (bye(pb::ByeKind::HalfPoint), bye(pb::ByeKind::FullPoint));
    binds(&mut c, t, "bye-1", "RequestBye", reg!(request_bye), a, b).await;

    let cancel = |player_id| reg::CancelByeRequest {
        header: header(t, "cancel-1"),
        pairing_number: player_id,
        round: 2,
        ..Default::default()
    };
    binds(
        &mut c,
        t,
        "cancel-1",
        "CancelBye",
        reg!(cancel_bye),
        cancel(1),
        cancel(2),
    )
    .await;

    let absence = |reason: &str| reg::DeclareAbsenceRequest {
        header: header(t, "absent-2"),
        pairing_number: 2,
        round: 2,
        reason: reason.into(),
        ..Default::default()
    };
    let (a, b) = (absence("ill"), absence("travelling"));
    binds(
        &mut c,
        t,
        "absent-2",
        "DeclareAbsence",
        reg!(declare_absence),
        a,
        b,
    )
    .await;

    let withdraw = |reason: &str| reg::WithdrawPlayerRequest {
        header: header(t, "withdraw-3"),
        pairing_number: 3,
        from_round: 2,
        reason: reason.into(),
        ..Default::default()
    };
    let (a, b) = (withdraw("left"), withdraw("went home"));
    binds(
        &mut c,
        t,
        "withdraw-3",
        "WithdrawPlayer",
        reg!(withdraw_player),
        a,
        b,
    )
    .await;

    // Round director: round 1 with every command.
    let start = |at: i64| rd::StartRoundRequest {
        header: header(t, "start-1"),
        round: 1,
        scheduled_unix_ms: at,
    };
    binds(
        &mut c,
        t,
        "start-1",
        "StartRound",
        rd!(start_round),
        start(0),
        start(1_000),
    )
    .await;
    wait_phase(&mut c, t, rd::Phase::PairingProposed).await;

    let repair = |reason: &str| rd::RequestRepairingRequest {
        header: header(t, "repair-1"),
        round: 1,
        reason: reason.into(),
    };
    let (a, b) = (repair("a player arrived late"), repair("wrong colours"));
    binds(
        &mut c,
        t,
        "repair-1",
        "RequestRepairing",
        rd!(request_repairing),
        a,
        b,
    )
    .await;
    wait_phase(&mut c, t, rd::Phase::PairingProposed).await;

    let publish = |note: &str| rd::PublishPairingRequest {
        header: header(t, "publish-1"),
        round: 1,
        note: note.into(),
        ..Default::default()
    };
    let (a, b) = (publish(""), publish("published early"));
    binds(
        &mut c,
        t,
        "publish-1",
        "PublishPairing",
        rd!(publish_pairing),
        a,
        b,
    )
    .await;

    let (a, b) = (
        result(t, "result-1-1", 1, 1, pb::BoardResult::WhiteWins),
        result(t, "result-1-1", 1, 1, pb::BoardResult::BlackWins),
    );
    let first_result = binds(
        &mut c,
        t,
        "result-1-1",
        "RecordResult",
        rd!(record_result),
        a,
        b,
    )
    .await;
    let n = boards(&mut c, t, 1).await;
    for board in 2..=n as u32 {
        let id = format!("result-1-{board}");
        let r = result(t, &id, 1, board, pb::BoardResult::Draw);
        c.rd.record_result(r).await.expect("result");
    }

    let correct = |reason: &str| rd::CorrectResultRequest {
        header: header(t, "correct-1-1"),
        round: 1,
        board: 1,
        corrected: pb::BoardResult::Draw as i32,
        reason: reason.into(),
        ..Default::default()
    };
    let (a, b) = (correct("scoresheet"), correct("scoresheet, signed by both"));
    binds(
        &mut c,
        t,
        "correct-1-1",
        "CorrectResult",
        rd!(correct_result),
        a,
        b,
    )
    .await;

    let late = |name: &str| reg::EnterLateRequest {
        header: header(t, "late-8"),
        confirm_same_name: false,
        player: new_player(name, 1400),
        first_round: 2,
        missed_rounds: pb::ByeKind::ZeroPoint as i32,
    };
    let (a, b) = (late("Late, Lea"), late("Late, Max"));
    binds(&mut c, t, "late-8", "EnterLate", reg!(enter_late), a, b).await;

    let close = |round| rd::CloseRoundRequest {
        header: header(t, "close-1"),
        round,
    };
    binds(
        &mut c,
        t,
        "close-1",
        "CloseRound",
        rd!(close_round),
        close(1),
        close(2),
    )
    .await;

    // Round 2 as usual, then the finish: its request has no body, so the id is tried on
    // another command.
    d.start_round(2).await;
    let p = d.wait_proposal(2, Duration::from_secs(60)).await;
    d.publish(2).await;
    let pairing = pairing_of(&p);
    d.results(2, &pairing, 0..pairing.0.len()).await;
    d.close(2).await;
    let finish = rd::FinishTournamentRequest {
        header: header(t, "finish"),
    };
    let done =
        c.rd.finish_tournament(finish.clone())
            .await
            .expect("finish")
            .into_inner();
    let other = rd::CorrectResultRequest {
        header: header(t, "finish"),
        round: 1,
        board: 1,
        corrected: pb::BoardResult::WhiteWins as i32,
        reason: "after the end".into(),
        ..Default::default()
    };
    let got = c.rd.correct_result(other.clone()).await;
    refused_as_reused(&mut c, t, "finish", "FinishTournament", &done, got).await;
    assert!(
        c.rd.finish_tournament(finish)
            .await
            .unwrap()
            .into_inner()
            .replayed
    );

    // The binding is in the log: after kill -9 (folded from the log) and after a clean stop
    // (resumed from the snapshot), the second registration is still refused and the first
    // still answered; so is the first result.
    for restart in ["kill -9", "SIGINT"] {
        if restart == "kill -9" {
            server.kill9();
        } else {
            assert!(server.interrupt().success());
        }
        server.restart();
        let again = retry("register after restart", || {
            let mut s = c.reg.clone();
            async move { s.register_player(register("Seventh, Ann")).await }
        })
        .await
        .expect(restart)
        .into_inner();
        assert!(again.replayed, "{restart}");
        assert_eq!(again.event_ids, first_registration.event_ids, "{restart}");
        let got = c.reg.register_player(register("Seventh, Bob")).await;
        refused_as_reused(
            &mut c,
            t,
            "reg-7",
            "RegisterPlayer",
            &first_registration,
            got,
        )
        .await;
        let r = result(t, "result-1-1", 1, 1, pb::BoardResult::BlackWins);
        let got = c.rd.record_result(r).await;
        refused_as_reused(&mut c, t, "result-1-1", "RecordResult", &first_result, got).await;
    }
}

/// Asserts an edge refusal: INVALID_ARGUMENT whose message starts with `field`, mentions
/// `words`, and nothing appended to `tid` (or the stream still absent).
async fn invalid<T: std::fmt::Debug>(
    c: &mut Clients,
    tid: &str,
    before: usize,
    field: &str,
    words: &[&str],
    got: Result<Response<T>, Status>,
) {
    let s = got.expect_err(field);
    assert_eq!(s.code(), Code::InvalidArgument, "{field}: {s:?}");
    assert!(
        s.message().starts_with(&format!("{field}: ")),
        "{field}: {:?}",
        s.message()
    );
    for w in words {
        assert!(
            s.message().contains(w),
            "{field}: {w:?} not in {:?}",
            s.message()
        );
    }
    assert_eq!(
        ours(c, tid).await.len(),
        before,
        "{field}: nothing appended"
    );
}

fn as_actor(mut h: Option<CommandHeader>, actor: &str) -> Option<CommandHeader> {
    h.as_mut().expect("header").actor = actor.into();
    h
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_edge_refuses_bad_fields_by_name_and_appends_nothing() {
    let work = TempDir::new("arbiter-e2e-edge").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));

    // Creation: nothing is created for a refused request.
    let try_create = |c: &Clients, t: arbiter_proto::registration::v1::TournamentSettings| {
        let mut reg = c.reg.clone();
        async move {
            reg.create_tournament(reg::CreateTournamentRequest {
                header: header("edge-new", "create"),
                tournament: Some(t),
            })
            .await
        }
    };
    let _ = retry("server up", || {
        let mut reg = c.reg.clone();
        async move { reg.list_tournaments(reg::ListTournamentsRequest {}).await }
    })
    .await
    .expect("server up");
    let with = |f: &dyn Fn(&mut arbiter_proto::registration::v1::TournamentSettings)| {
        let mut t = tournament("Edge Open");
        f(&mut t);
        t
    };
    let cases: Vec<(
        arbiter_proto::registration::v1::TournamentSettings,
        &str,
        Vec<&str>,
    )> = vec![
        (
            with(&|t| t.tie_breaks = vec!["BH/C1".into(), "FOO".into()]),
            "tournament.tie_breaks[1]",
            vec!["FOO", "unknown tie-break"],
        ),
        (
            with(&|t| t.tie_breaks = vec!["BH/C99".into()]),
            "tournament.tie_breaks[0]",
            vec!["BH/C99"],
        ),
        (
            with(&|t| t.rule_set = "dutch-2099".into()),
            "tournament.rule_set",
            vec!["dutch-2099", "dutch-2017, dutch-2025"],
        ),
        (
            with(&|t| t.name = "N".repeat(MAX_LINE_CHARS + 1)),
            "tournament.name",
            vec!["the limit is 200"],
        ),
        (
            with(&|t| t.place = "Bilbao\nSpain".into()),
            "tournament.place",
            vec!["control character"],
        ),
        (
            with(&|t| t.time_control = "90'\u{1b}+30\"".into()),
            "tournament.time_control",
            vec!["control character"],
        ),
    ];
    for (t, field, words) in cases {
        let got = try_create(&c, t).await;
        invalid(&mut c, "edge-new", 0, field, &words, got).await;
    }
    // A pairing system the schema does not have.
    let t = with(&|t| t.pairing_system = 99);
    let got = try_create(&c, t).await;
    invalid(
        &mut c,
        "edge-new",
        0,
        "tournament.pairing_system",
        &["99"],
        got,
    )
    .await;
    let nothing =
        c.rd.get_tournament(rd::GetTournamentRequest {
            tournament: tref("edge-new"),
        })
        .await
        .expect_err("no tournament was created");
    assert_eq!(nothing.code(), Code::NotFound);

    // A tournament to change: four players, round 1 published, board 1 played.
    let t = "edge";
    let mut d = Driver::new(
        c.clone(),
        t,
        Plan {
            players: 4,
            rounds: 3,
            seed: 5,
            early_byes: vec![],
            late_byes: vec![],
            withdrawals: vec![],
            forfeit_permille: 0,
        },
        work.path(),
    );
    d.create().await;
    d.register_all().await;
    let before = ours(&mut c, t).await.len();

    let update = |tie_breaks: Vec<String>| reg::UpdateTournamentRequest {
        header: header(t, "tb"),
        update: Some(arbiter_proto::registration::v1::TournamentChanges {
            tie_breaks,
            replace_tie_breaks: true,
            ..Default::default()
        }),
    };
    let got = c
        .reg
        .update_tournament(update(vec!["BH".into(), "FOO".into()]))
        .await;
    invalid(&mut c, t, before, "update.tie_breaks[1]", &["FOO"], got).await;
    let got = c
        .reg
        .update_tournament(update(vec!["BH/C99, SB".into()]))
        .await;
    invalid(&mut c, t, before, "update.tie_breaks[0]", &["C99"], got).await;

    let register = |h: Option<CommandHeader>, p: arbiter_proto::registration::v1::PlayerDetails| {
        reg::RegisterPlayerRequest {
            confirm_same_name: false,
            header: h,
            player: Some(p),
        }
    };
    let named = |name: &str| arbiter_proto::registration::v1::PlayerDetails {
        name: name.into(),
        rating: 1500,
        ..Default::default()
    };
    // A 100 kB actor, a control character in the actor, a reserved actor name.
    for (actor, words) in [
        (
            "x".repeat(100_000),
            vec!["100000 characters", "the limit is 128"],
        ),
        ("x".repeat(MAX_ACTOR_CHARS + 1), vec!["129 characters"]),
        ("Chief\u{0}Arbiter".to_string(), vec!["control character"]),
        ("rating-worker".to_string(), vec!["reserved"]),
    ] {
        let h = as_actor(header(t, "actor"), &actor);
        let got = c
            .reg
            .register_player(register(h, named("Actor, Test")))
            .await;
        invalid(&mut c, t, before, "header.actor", &words, got).await;
    }
    // No actor in the header: the token's subject is recorded, as always.
    let h = as_actor(header(t, "nameless"), "");
    let o = c
        .reg
        .register_player(register(h, named("Nameless, N")))
        .await
        .expect("a command without an actor")
        .into_inner();
    let e = d.events().await;
    let e = e.iter().find(|e| e.version == o.first_version).unwrap();
    assert_eq!(e.actor, crate::support::token::SUBJECT);
    // ...and so it is one of ours from now on.
    let before = before + 1;
    let long = arbiter_proto::registration::v1::PlayerDetails {
        name: "L".repeat(300),
        ..named("")
    };
    let got = c.reg.register_player(register(header(t, "p1"), long)).await;
    invalid(&mut c, t, before, "player.name", &["300 characters"], got).await;
    let tabbed = arbiter_proto::registration::v1::PlayerDetails {
        club: "Club\tTab".into(),
        ..named("Club, Tab")
    };
    let got = c
        .reg
        .register_player(register(header(t, "p2"), tabbed))
        .await;
    invalid(
        &mut c,
        t,
        before,
        "player.club",
        &["control character"],
        got,
    )
    .await;
    let got = c
        .reg
        .withdraw_player(reg::WithdrawPlayerRequest {
            header: header(t, "w"),
            pairing_number: 1,
            reason: "two\nlines".into(),
            ..Default::default()
        })
        .await;
    invalid(&mut c, t, before, "reason", &["one line"], got).await;
    let got =
        c.rd.start_round(rd::StartRoundRequest {
            header: header(t, &"c".repeat(201)),
            round: 1,
            scheduled_unix_ms: 0,
        })
        .await;
    invalid(&mut c, t, before, "header.command_id", &["200"], got).await;
    // An id of the pairing worker's answer, sent first by a client, would stop round 1 from
    // ever being paired; one of a signed head would stop the head from being signed.
    for id in ["pairing-worker:round-1:attempt-1", "chain-head-9"] {
        let got =
            c.rd.start_round(rd::StartRoundRequest {
                header: header(t, id),
                round: 1,
                scheduled_unix_ms: 0,
            })
            .await;
        invalid(
            &mut c,
            t,
            before,
            "header.command_id",
            &[id, "services' own"],
            got,
        )
        .await;
    }

    d.start_round(1).await;
    d.wait_proposal(1, Duration::from_secs(60)).await;
    let before = ours(&mut c, t).await.len();
    let got =
        c.rd.publish_pairing(rd::PublishPairingRequest {
            header: header(t, "publish-long"),
            round: 1,
            note: "n".repeat(MAX_NOTE_CHARS + 1),
            ..Default::default()
        })
        .await;
    invalid(&mut c, t, before, "note", &["the limit is 2000"], got).await;
    d.publish(1).await;
    let r = result(t, "r1", 1, 1, pb::BoardResult::WhiteWins);
    c.rd.record_result(r).await.expect("result");

    // A result correction under a worker's name, or with an overlong reason: refused; the same
    // correction under the arbiter's own name is accepted.
    let correction = |actor: &str, reason: &str| rd::CorrectResultRequest {
        header: as_actor(header(t, "fix-1"), actor),
        round: 1,
        board: 1,
        corrected: pb::BoardResult::BlackWins as i32,
        reason: reason.into(),
        ..Default::default()
    };
    let before = ours(&mut c, t).await.len();
    for actor in [
        "pairing-worker",
        "Pairing-Worker",
        "round-director",
        "import",
    ] {
        let got = c.rd.correct_result(correction(actor, "scoresheet")).await;
        invalid(&mut c, t, before, "header.actor", &["reserved"], got).await;
    }
    let long = "r".repeat(MAX_LINE_CHARS + 1);
    let got = c.rd.correct_result(correction("Chief", &long)).await;
    invalid(&mut c, t, before, "reason", &["201 characters"], got).await;
    let got = c.rd.correct_result(correction("Chief", "two\nlines")).await;
    invalid(&mut c, t, before, "reason", &["one line"], got).await;
    let ok =
        c.rd.correct_result(correction("Chief Arbiter", "scoresheet signed by both"))
            .await
            .expect("the correction itself is valid")
            .into_inner();
    assert_eq!(ok.first_version, ok.last_version, "one ResultCorrected");
    let fix = d.events().await;
    let fix = fix
        .iter()
        .find(|e| e.version == ok.first_version)
        .expect("the correction");
    // The header says "Chief Arbiter"; the log records who the token says.
    assert_eq!(fix.actor, crate::support::token::SUBJECT);
    let origin = fix
        .payload
        .as_ref()
        .and_then(|p| p.origin.as_ref())
        .expect("the request's origin is stored");
    assert_eq!(origin.command, "CorrectResult");
    assert_eq!(origin.request_digest.len(), 32);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_ids_stay_bound_over_jetstream() {
    let nats = NatsServer::start()
        .await
        .expect("nats-server (apt-get install nats-server)");
    let url = nats.url();
    let work = TempDir::new("arbiter-e2e-bind-nats").unwrap();
    let data = work.path().join("data");
    let mut server = Server::start(
        &["--nats", &url, "--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let t = "bind-nats";
    let mut d = six_players(work.path(), c.clone(), t);
    d.create().await;
    d.register_all().await;
    let register = |name: &str| reg::RegisterPlayerRequest {
        header: header(t, "reg-7"),
        confirm_same_name: false,
        player: new_player(name, 1500),
    };
    let reg_ = c.reg.clone();
    let send = |r| {
        let mut s = reg_.clone();
        async move { s.register_player(r).await }
    };
    let first = binds(
        &mut c,
        t,
        "reg-7",
        "RegisterPlayer",
        send,
        register("Seventh, Ann"),
        register("Seventh, Bob"),
    )
    .await;
    // The stream moves on; a restarted server reads the binding back from JetStream.
    let more = reg::RegisterPlayerRequest {
        header: header(t, "reg-8"),
        confirm_same_name: false,
        player: new_player("Eighth, Eve", 1600),
    };
    c.reg.register_player(more).await.expect("register");
    server.kill9();
    server.restart();
    let again = retry("register after restart", || {
        let mut s = c.reg.clone();
        async move { s.register_player(register("Seventh, Ann")).await }
    })
    .await
    .expect("replay")
    .into_inner();
    assert!(again.replayed);
    assert_eq!(again.event_ids, first.event_ids);
    let got = c.reg.register_player(register("Seventh, Bob")).await;
    refused_as_reused(&mut c, t, "reg-7", "RegisterPlayer", &first, got).await;
}

// --- the HTTP port --------------------------------------------------------------------------

/// One HTTP/1.1 request on a fresh loopback connection to `base` (`http://host:port`):
/// status, head (lower case) and body (none for an event stream, which stays open).
async fn http(
    base: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    extra: &str,
    body: &[u8],
) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let auth = token.map_or(String::new(), |t| format!("authorization: Bearer {t}\r\n"));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n{auth}{extra}\r\n"
    );
    s.write_all(head.as_bytes()).await.expect("send");
    // A refusal may come before the body is sent, and close the connection.
    let _ = s.write_all(body).await;
    let mut got = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let read = async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
            let text = String::from_utf8_lossy(&got).to_ascii_lowercase();
            if text.contains("\r\n\r\n") && text.contains("content-type: text/event-stream") {
                break;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), read)
        .await
        .unwrap_or_else(|_| panic!("{method} {path}: no complete answer"));
    let text = String::from_utf8_lossy(&got).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{method} {path}: no status in {head:?}"));
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// `serve --private-reads`: every route of the HTTP port (the table the port authenticates
/// by, so a route added to the router and not to the table needs a token even without the
/// flag) refuses an anonymous request with 401 in its documented shape, and takes a token
/// (a player's, the least role) by the same rule as gRPC.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_reads_cover_every_http_route() {
    let work = TempDir::new("arbiter-e2e-http-private").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap(), "--private-reads"],
        &work.path().join("serve.log"),
    );
    let base = server.http.clone().expect("an HTTP port");
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "private-http";
    let mut d = six_players(work.path(), c, tid);
    d.create().await;
    d.register_all().await;
    d.start_round(1).await;
    d.wait_proposal(1, Duration::from_secs(30)).await;
    d.publish(1).await;
    let player = token::issue(
        &token::auth().keys,
        "Player One",
        arbiter_auth::Role::Player,
        &[tid],
        Some(1),
        600,
    );
    for (route, method) in arbiter_auth::http::HTTP_ROUTES {
        let path = route
            .replace("{id}", tid)
            .replace("{tournament}", tid)
            .replace("{round}", "1")
            .replace("{board}", "1")
            .replace("{pn}", "1")
            .replace("{service}", "arbiter.reporting.v1.Reporting")
            .replace("{method}", "GetStandings");
        let json_api = *route == arbiter_json_api::ROUTE;
        let verb = if route.starts_with("/api/platform/") || json_api {
            "POST"
        } else {
            "GET"
        };
        if json_api {
            // Open at the edge: the gRPC call it makes is authorized by the gRPC rule, which
            // --private-reads closes; the answer is the gRPC status as JSON.
            let (status, head, body) =
                http(&base, verb, &path, None, "content-length: 0\r\n", b"").await;
            assert_eq!(status, 401, "anonymous {path}: {head}\n{body}");
            assert!(head.contains("www-authenticate: bearer"), "{path}: {head}");
            let v: serde_json::Value = serde_json::from_str(&body).expect(&path);
            assert_eq!(v["status"], "UNAUTHENTICATED", "{path}: {body}");
            let (status, _, body) = http(
                &base,
                verb,
                &path,
                Some(&player),
                "content-length: 2\r\n",
                b"{}",
            )
            .await;
            assert_eq!(
                status, 400,
                "a player's {path} without a tournament: {body}"
            );
            let v: serde_json::Value = serde_json::from_str(&body).expect(&path);
            assert_eq!(v["status"], "INVALID_ARGUMENT", "{path}: {body}");
            let (status, _, _) = http(
                &base,
                verb,
                &path,
                Some("not.a.jwt"),
                "content-length: 0\r\n",
                b"",
            )
            .await;
            assert_eq!(status, 401, "a bad token on {path}");
            continue;
        }
        let (status, head, body) =
            http(&base, verb, &path, None, "content-length: 0\r\n", b"").await;
        if route.starts_with("/console") {
            // The console's screens open only with a session (tests/e2e/console.rs): without
            // one, the sign-in page, a redirect to it, its assets or "POST only".
            assert!(
                matches!(status, 200 | 308 | 401 | 405),
                "anonymous {path}: {head}\n{body}"
            );
            if status == 200 {
                assert!(
                    path.starts_with("/console/assets/"),
                    "anonymous {path}: {body}"
                );
            }
            if status == 401 {
                assert!(body.contains("Sign in"), "anonymous {path}: {body}");
            }
            continue;
        }
        if method.is_none() {
            assert_eq!(status, 200, "{path} is open: {body}");
            continue;
        }
        assert_eq!(status, 401, "anonymous {verb} {path}: {head}\n{body}");
        assert!(head.contains("www-authenticate: bearer"), "{path}: {head}");
        if path.starts_with("/api/platform/") {
            let v: serde_json::Value = serde_json::from_str(&body).expect(&path);
            assert_eq!(v["code"], "Unauthenticated", "{path}: {body}");
        } else if path.starts_with("/api/") {
            let v: serde_json::Value = serde_json::from_str(&body).expect(&path);
            let e = v["error"].as_str().unwrap_or_default();
            assert!(e.contains("needs a bearer token"), "{path}: {body}");
        } else {
            assert!(head.contains("content-type: text/html"), "{path}: {head}");
            assert!(body.contains("needs a bearer token"), "{path}: {body}");
        }
        let (status, head, body) = http(
            &base,
            verb,
            &path,
            Some(&player),
            "content-length: 0\r\n",
            b"",
        )
        .await;
        if verb == "POST" {
            // Authenticated; the service's rule then refuses a player's game submission.
            assert_eq!(status, 403, "player {path}: {body}");
        } else if route.ends_with("/schedule") {
            // A Swiss event has no schedule: past the authentication, the page's own 404.
            assert_eq!(status, 404, "player {path}: {head}\n{body}");
        } else {
            assert_eq!(status, 200, "player {path}: {head}\n{body}");
        }
        // A token that does not verify is refused whatever the route, as over gRPC.
        let (status, _, _) = http(&base, "GET", &path, Some("not.a.jwt"), "", b"").await;
        assert_eq!(status, 401, "a bad token on {path}");
    }
}

/// What one anonymous request may cost: a tie-break list of at most 30 items (as at creation),
/// the webhook's token checked before its body is read and its body bounded, the framework's
/// own errors as the documented JSON, and the security headers on every answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_http_requests_are_bounded() {
    let work = TempDir::new("arbiter-e2e-http-bounds").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let base = server.http.clone().expect("an HTTP port");
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "bounded-http";
    let mut d = six_players(work.path(), c, tid);
    d.create().await;
    d.register_all().await;

    let list = |n: usize| vec!["BH"; n].join(",");
    let (status, head, body) = http(
        &base,
        "GET",
        &format!("/api/tournaments/{tid}/ranking?tiebreaks={}", list(31)),
        None,
        "",
        b"",
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(head.contains("content-type: application/json"), "{head}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"], "tiebreaks: 31 tie-breaks, the limit is 30");
    let (status, head, body) = http(
        &base,
        "GET",
        &format!("/t/{tid}/standings?tiebreaks={}", list(5000)),
        None,
        "",
        b"",
    )
    .await;
    assert_eq!(status, 400);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(
        body.contains("tiebreaks: 5000 tie-breaks, the limit is 30"),
        "{body}"
    );
    let (status, _, body) = http(
        &base,
        "GET",
        &format!("/api/tournaments/{tid}/ranking?tiebreaks={}", list(30)),
        None,
        "",
        b"",
    )
    .await;
    assert_eq!(status, 200, "{body}");

    // The framework's own rejections, as the README's JSON errors.
    for path in [
        format!("/api/tournaments/{tid}/pairings/first"),
        format!("/api/tournaments/{tid}/standings?after_round=last"),
    ] {
        let (status, head, body) = http(&base, "GET", &path, None, "", b"").await;
        assert_eq!(status, 400, "{path}");
        assert!(
            head.contains("content-type: application/json"),
            "{path}: {head}"
        );
        let v: serde_json::Value = serde_json::from_str(&body).expect(&path);
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{body}");
    }
    let (status, head, _) = http(
        &base,
        "GET",
        &format!("/t/{tid}/pairings/first"),
        None,
        "",
        b"",
    )
    .await;
    assert_eq!(status, 400);
    assert!(head.contains("content-type: text/html"), "{head}");

    // No token: refused from the head alone, the announced 8 MB never sent.
    let round = format!("/api/platform/v1/tournaments/{tid}/rounds/1/games");
    let (status, _, body) = http(
        &base,
        "POST",
        &round,
        None,
        "content-length: 8000000\r\n",
        b"",
    )
    .await;
    assert_eq!(status, 401, "{body}");
    // With a token: a body over the webhook's limit is 413, as JSON.
    let game = format!("/api/platform/v1/tournaments/{tid}/rounds/1/boards/1/game");
    let big = vec![b' '; arbiter_service_kit::edge::MAX_GAME_PGN_BYTES + 128 * 1024];
    let (status, head, body) = http(
        &base,
        "POST",
        &game,
        Some(&token::auth().admin),
        &format!("content-length: {}\r\n", big.len()),
        &big,
    )
    .await;
    assert_eq!(status, 413, "{head}\n{body}");
    let v: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(v["code"], "ResourceExhausted", "{body}");

    // Every answer, page, JSON or error, carries the security headers.
    for path in [
        "/".to_string(),
        format!("/t/{tid}/standings"),
        "/api/tournaments".into(),
        "/nowhere".into(),
    ] {
        let (_, head, _) = http(&base, "GET", &path, None, "", b"").await;
        for h in [
            "content-security-policy: default-src 'none'",
            "frame-ancestors 'none'",
            "x-content-type-options: nosniff",
            "x-frame-options: deny",
            "referrer-policy: no-referrer",
        ] {
            assert!(head.contains(h), "{path}: {h} missing in {head}");
        }
    }
}

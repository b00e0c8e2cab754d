//! `arbiter client`, subcommand by subcommand, against a real `arbiter serve` (embedded, sled
//! data folder): a two-round tournament run only from the command line, with what each command
//! did read back over gRPC. Set-up (create, update, tie-breaks), registration (register prints
//! the pairing number and the entry number), byes, a cancelled bye, an absence, a withdrawal,
//! a late entry, a stale pairing number refused and the entry number accepted, a new pairing
//! requested, an amended pairing published, forfeit, unrated and 0-0 results, a correction,
//! closing, finishing, standings, export, show and list.

use crate::support::*;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use std::time::{Duration, Instant};

const TID: &str = "cli";

/// `arbiter client --server URL ARGS...`
fn cli(server: &Server, args: &[&str]) -> Run {
    let mut all = vec!["client", "--server", server.grpc.as_str()];
    all.extend_from_slice(args);
    run(&all)
}

/// Runs and expects exit 0; returns stdout.
fn ok(server: &Server, args: &[&str]) -> String {
    let r = cli(server, args);
    assert_eq!(
        r.code, 0,
        "arbiter client {args:?}: exit {}\nstdout: {}\nstderr: {}",
        r.code, r.stdout, r.stderr
    );
    r.stdout
}

/// The number after `key` in `text` ("version 12" -> 12).
fn number_after(text: &str, key: &str) -> u64 {
    let at = text
        .find(key)
        .unwrap_or_else(|| panic!("{key:?} in {text:?}"))
        + key.len();
    text[at..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or_else(|_| panic!("a number after {key:?} in {text:?}"))
}

async fn players(c: &mut Clients) -> reg::ListPlayersResponse {
    c.reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(TID),
        })
        .await
        .expect("players")
        .into_inner()
}

fn entry(l: &reg::ListPlayersResponse, entry: u32) -> (u32, String, Vec<u32>, i32) {
    let p = l.players.iter().find(|p| p.entry == entry).expect("entry");
    let pl = p.player.as_ref().unwrap();
    (
        p.pairing_number,
        pl.name.clone(),
        p.rounds_off.clone(),
        p.status,
    )
}

async fn pairings(c: &mut Clients, round: u32) -> rep::RoundPairings {
    c.rep
        .get_pairings(rep::GetPairingsRequest {
            tournament: tref(TID),
            round,
        })
        .await
        .expect("pairings")
        .into_inner()
}

/// The tournament's data events as the log holds them.
async fn events(c: &mut Clients) -> Vec<pb::event::Kind> {
    log_of(c, TID)
        .await
        .into_iter()
        .filter_map(|e| e.payload?.kind)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_client_subcommand_against_a_real_server() {
    let work = TempDir::new("arbiter-e2e-cli").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));

    // The help reads as a checklist, in the order of the tournament.
    let help = run(&["client", "--help"]).stdout;
    let order = [
        "create",
        "update",
        "tie-breaks",
        "register",
        "late-entry",
        "players",
        "correct-player",
        "bye",
        "cancel-bye",
        "absent",
        "withdraw",
        "start-round",
        "pairings",
        "repair",
        "publish",
        "result",
        "correct",
        "close",
        "finish",
        "standings",
        "export",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|s| {
            help.find(&format!("\n  {s} "))
                .unwrap_or_else(|| panic!("{s} in {help}"))
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{help}");

    // 1. Set-up.
    let out = ok(
        &server,
        &[
            "create",
            "--id",
            TID,
            "--name",
            "CLI Open",
            "--rounds",
            "2",
            "--start",
            "2026-02-01",
            "--arbiter",
            "Chief, C",
            "--place",
            "Bergen",
            "--federation",
            "NOR",
            "--time-control",
            "90'+30\"",
            "--tie-breaks",
            "BH/C1,SB",
            "--deputy",
            "Deputy, D",
        ],
    );
    assert_eq!(out.trim(), TID);
    let out = ok(
        &server,
        &[
            "update",
            TID,
            "--place",
            "Oslo",
            "--federation",
            "SWE",
            "--arbiter",
            "Chief, E",
            "--deputy",
            "Deputy, F",
            "--deputy",
            "Deputy, G",
            "--time-control",
            "60'+30\"",
            "--rating-kind",
            "rapid",
        ],
    );
    assert!(out.starts_with("updated: tournament cli version"), "{out}");
    ok(&server, &["tie-breaks", TID, "BH/C1,BH,SB"]);
    let bad = cli(&server, &["tie-breaks", TID, "FOO"]);
    assert_eq!(bad.code, 3, "an unknown tie-break code: {}", bad.stderr);
    let updates: Vec<pb::TournamentUpdated> = events(&mut c)
        .await
        .into_iter()
        .filter_map(|k| match k {
            pb::event::Kind::TournamentUpdated(u) => Some(u),
            _ => None,
        })
        .collect();
    assert_eq!(updates.len(), 2, "{updates:?}");
    let u = &updates[0];
    assert_eq!(
        (
            u.place.as_deref(),
            u.federation.as_deref(),
            u.time_control.as_deref(),
            u.rating_kind,
            u.chief_arbiter.as_ref().map(|a| a.name.as_str()),
            u.replace_deputy_arbiters,
            u.deputy_arbiters.len(),
        ),
        (
            Some("Oslo"),
            Some("SWE"),
            Some("60'+30\""),
            pb::RatingKind::Rapid as i32,
            Some("Chief, E"),
            true,
            2
        )
    );
    assert!(updates[1].replace_tie_breaks);
    assert_eq!(updates[1].tie_breaks, ["BH/C1", "BH", "SB"]);

    // 2. Players: registered out of rating order; register prints both numbers.
    let field = [
        ("Alpha, A", "2000"),
        ("Bravo, B", "2200"),
        ("Charlie, C", "2100"),
        ("Delta, D", "1900"),
        ("Echo, E", "1800"),
        ("Foxtrot, F", "1700"),
    ];
    let mut printed = Vec::new();
    for (name, rating) in field {
        let out = ok(
            &server,
            &["register", TID, "--name", name, "--rating", rating],
        );
        printed.push(out);
    }
    assert!(
        printed[0].contains("pairing number 1, entry E1"),
        "{}",
        printed[0]
    );
    assert!(
        printed[1].contains("pairing number 1, entry E2"),
        "{}",
        printed[1]
    );
    assert!(
        printed[2].contains("pairing number 2, entry E3"),
        "{}",
        printed[2]
    );
    assert!(
        printed[5].contains("pairing number 6, entry E6"),
        "{}",
        printed[5]
    );
    let list = ok(&server, &["players", TID]);
    let read_at = number_after(&list, "Players (version");
    // The server from the environment, given as host:port as `serve` prints it.
    let host_port = server.grpc.trim_start_matches("http://");
    let from_env = run_with(
        &["client", "players", TID],
        &[("ARBITER_SERVER", host_port)],
    );
    assert_eq!(from_env.code, 0, "{}", from_env.stderr);
    assert_eq!(from_env.stdout, list);
    assert!(
        list.lines()
            .any(|l| l.split_whitespace().take(3).collect::<Vec<_>>() == ["3", "E1", "Alpha,"]),
        "{list}"
    );

    // 3. Byes, a cancelled bye, an absence.
    ok(&server, &["bye", TID, "E4", "2", "--kind", "half"]);
    ok(&server, &["cancel-bye", TID, "E4", "2"]);
    ok(&server, &["absent", TID, "6", "2", "--reason", "exam"]);
    let l = players(&mut c).await;
    assert_eq!(entry(&l, 4).2, Vec::<u32>::new(), "the bye was cancelled");
    assert_eq!(
        entry(&l, 6).2,
        vec![2],
        "Foxtrot (number 6) absent in round 2"
    );

    // A corrected rating before round 1: Echo (E5, number 5) moves above Delta to number 4.
    let out = ok(
        &server,
        &[
            "correct-player",
            TID,
            "E5",
            "--rating",
            "1950",
            "--reason",
            "rating list misread",
        ],
    );
    assert!(out.starts_with("player corrected"), "{out}");
    let l = players(&mut c).await;
    assert_eq!(entry(&l, 5).0, 4);
    assert_eq!(entry(&l, 4).0, 5);
    // Number 5 read before the correction (Echo) is now Delta's: refused, naming the cause.
    let stale = cli(
        &server,
        &["bye", TID, "5", "2", "--as-of", &read_at.to_string()],
    );
    assert_eq!(stale.code, 2, "{}", stale.stderr);
    assert!(
        stale.stderr.contains("pairing number 5") && stale.stderr.contains("correction of Echo"),
        "{}",
        stale.stderr
    );
    let bad = cli(
        &server,
        &["correct-player", TID, "E5", "--reason", "nothing"],
    );
    assert_eq!(bad.code, 3, "{}", bad.stderr);

    // 4. Pairing: start, ask for a new pairing, wait for it.
    let out = ok(&server, &["start-round", TID, "1", "--wait", "60"]);
    assert!(out.contains("Round 1 (proposed"), "{out}");
    let out = ok(
        &server,
        &["repair", TID, "1", "--reason", "ratings re-checked"],
    );
    let asked_at = number_after(&out, "version");
    let deadline = Instant::now() + Duration::from_secs(60);
    let proposal = loop {
        let p = c
            .rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(TID),
                round: 1,
            })
            .await;
        match p {
            Ok(p) if p.get_ref().version > asked_at => break p.into_inner(),
            _ if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(50)).await,
            other => panic!("no new proposal after {asked_at}: {other:?}"),
        }
    };
    let shown = ok(&server, &["pairings", TID, "1"]);
    assert!(shown.contains("Bravo, B"), "{shown}");

    // 5. Publish an amended pairing: board 1's colours swapped, named by entry numbers.
    let l = players(&mut c).await;
    let entry_of = |pn: u32| {
        l.players
            .iter()
            .find(|p| p.pairing_number == pn)
            .unwrap()
            .entry
    };
    let boards: Vec<pb::Board> = proposal.boards.iter().filter_map(|b| b.board).collect();
    assert_eq!(boards.len(), 3, "{proposal:?}");
    let mut args: Vec<String> = vec!["publish".into(), TID.into(), "1".into()];
    for (i, b) in boards.iter().enumerate() {
        let text = if i == 0 {
            format!("E{}-E{}", entry_of(b.black), entry_of(b.white))
        } else {
            format!("{}-{}", b.white, b.black)
        };
        args.extend(["--board".into(), text]);
    }
    args.extend(["--note".into(), "colours of board 1 swapped".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = ok(&server, &args);
    assert!(out.starts_with("amended pairing published"), "{out}");
    let published = pairings(&mut c, 1).await;
    assert!(published.published);
    let first = published.boards[0].board.unwrap();
    assert_eq!(
        (first.white, first.black),
        (boards[0].black, boards[0].white)
    );

    // 6. Results: a forfeit written -/+, an unrated win, an arbiter's 0-0.
    ok(&server, &["result", TID, "1", "1", "-/+"]);
    ok(&server, &["result", TID, "1", "2", "W/L"]);
    ok(&server, &["result", TID, "1", "3", "0-0"]);
    let bad = cli(&server, &["result", TID, "1", "3", "2-0"]);
    assert_eq!(bad.code, 3, "{}", bad.stderr);
    let r = pairings(&mut c, 1).await;
    let results: Vec<(i32, i32, i32)> = r
        .boards
        .iter()
        .map(|b| (b.result, b.white_code, b.black_code))
        .collect();
    assert_eq!(results[0].0, pb::BoardResult::BlackWinsForfeit as i32);
    assert_eq!(results[1].0, pb::BoardResult::WhiteWinsUnrated as i32);
    assert_eq!(
        results[2],
        (
            pb::BoardResult::ArbiterDecision as i32,
            pb::ResultCode::Loss as i32,
            pb::ResultCode::Loss as i32
        )
    );

    // 7. A correction: board 3 becomes an unrated draw; 8. close.
    ok(
        &server,
        &[
            "correct",
            TID,
            "1",
            "3",
            "D/D",
            "--reason",
            "agreed before move 1",
        ],
    );
    let r = pairings(&mut c, 1).await;
    assert_eq!(r.boards[2].result, pb::BoardResult::DrawUnrated as i32);
    ok(&server, &["close", TID, "1"]);

    // A late entry rated between numbers 1 and 2 takes number 2.
    let out = ok(
        &server,
        &[
            "late-entry",
            TID,
            "--name",
            "Late, L",
            "--rating",
            "2150",
            "--first-round",
            "2",
        ],
    );
    assert!(out.contains("pairing number 2, entry E7"), "{out}");
    // Number 2 read before the late entry (Charlie) is now Late: refused.
    let stale = cli(
        &server,
        &["bye", TID, "2", "2", "--as-of", &read_at.to_string()],
    );
    assert_eq!(stale.code, 2, "{}", stale.stderr);
    assert!(
        stale.stderr.contains("pairing number 2"),
        "{}",
        stale.stderr
    );
    // By entry: Charlie, wherever he is now.
    ok(&server, &["bye", TID, "E3", "2"]);
    // By the current number, read just before the command.
    ok(&server, &["withdraw", TID, "4", "--reason", "ill"]);
    let l = players(&mut c).await;
    assert_eq!(
        entry(&l, 3),
        (
            3,
            "Charlie, C".into(),
            vec![2],
            reg::PlayerStatus::Active as i32
        )
    );
    assert_eq!(
        entry(&l, 1).3,
        reg::PlayerStatus::Withdrawn as i32,
        "Alpha was 4"
    );

    // Round 2 by the plain path, then the end.
    ok(&server, &["start-round", TID, "2", "--wait", "60"]);
    ok(&server, &["publish", TID, "2"]);
    // The requested bye and the withdrawal in words, as the pages say them.
    let shown = ok(&server, &["pairings", TID, "2"]);
    assert!(
        shown
            .lines()
            .any(|l| l.contains("Charlie, C") && l.ends_with("half-point bye (H)")),
        "{shown}"
    );
    let r = pairings(&mut c, 2).await;
    for (i, b) in r.boards.iter().enumerate() {
        let number = b.board.unwrap().number.to_string();
        let result = if i == 0 { "+/-" } else { "1/2" };
        ok(&server, &["result", TID, "2", &number, result]);
    }
    ok(&server, &["close", TID, "2"]);
    let out = ok(&server, &["finish", TID]);
    assert!(out.starts_with("finished"), "{out}");
    let table = ok(&server, &["standings", TID]);
    for (name, _) in field {
        assert!(table.contains(name), "{name} in {table}");
    }
    let file = work.path().join("cli.trf");
    ok(&server, &["export", TID, "-o", file.to_str().unwrap()]);
    let trf = std::fs::read_to_string(&file).unwrap();
    assert!(trf.contains("Late, L"), "{trf}");
    let show = ok(&server, &["show", TID]);
    assert!(
        show.contains("PhaseFinished") || show.contains("Finished"),
        "{show}"
    );
    let all = ok(&server, &["list"]);
    assert!(all.contains("cli  CLI Open"), "{all}");
}

/// A knockout of four created and run from the command line only: `create --system knockout`
/// refuses a missing regulation by name (the rules fix none), then every game goes to the
/// side with White, so each mini-match is level after its classical and rapid games and the
/// Armageddon game (higher seed White) decides it; seeds 1 and 2 reach the final, seed 1 wins
/// it in round 10 (2 knockout rounds x 5 games).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knockout_created_and_run_from_the_command_line() {
    use arbiter_proto::round_director::v1 as rd;
    const KO: &str = "cli-knockout";
    let work = TempDir::new("arbiter-e2e-cli-knockout").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let base = [
        "create",
        "--id",
        KO,
        "--name",
        "CLI Knockout",
        "--rounds",
        "10",
        "--start",
        "2026-03-01",
        "--system",
        "knockout",
    ];
    let missing = cli(&server, &base);
    assert_ne!(missing.code, 0, "{}", missing.stdout);
    assert!(
        missing.stderr.contains("knockout.seeding"),
        "{}",
        missing.stderr
    );
    let bad = cli(
        &server,
        &[&base[..], &["--ko-seeding", "alphabet"]].concat(),
    );
    assert_eq!(bad.code, 3, "{}", bad.stderr);
    assert!(bad.stderr.contains("--ko-seeding"), "{}", bad.stderr);
    let regulations = [
        "--ko-seeding",
        "rating",
        "--ko-classical-games",
        "2",
        "--ko-tie-breaks",
        "rapid:2:25m+10s",
        "--ko-first-colour",
        "higher-seed-white",
        "--ko-tie-break-colours",
        "continue",
        "--ko-armageddon-colour",
        "higher-seed-white",
        "--ko-armageddon-time-control",
        "5m/4m",
    ];
    // Regulations on another system are refused, not dropped.
    let swiss = cli(
        &server,
        &[
            &[
                "create",
                "--id",
                "cli-ko-swiss",
                "--name",
                "S",
                "--rounds",
                "3",
            ][..],
            &regulations,
        ]
        .concat(),
    );
    assert_ne!(swiss.code, 0, "{}", swiss.stdout);
    // A rule set given as the system (as `arbiter pair --system` takes it) is answered with
    // the options that say it.
    let rule_set = cli(
        &server,
        &[
            "create",
            "--name",
            "S",
            "--rounds",
            "3",
            "--system",
            "dutch-2025",
        ],
    );
    assert_eq!(rule_set.code, 3, "{}", rule_set.stdout);
    assert!(
        rule_set
            .stderr
            .contains("use --system dutch --rule-set dutch-2025"),
        "{}",
        rule_set.stderr
    );
    ok(&server, &[&base[..], &regulations].concat());
    for (name, rating) in [
        ("Alpha, A", "2400"),
        ("Bravo, B", "2300"),
        ("Charlie, C", "2200"),
        ("Delta, D", "2100"),
    ] {
        ok(
            &server,
            &["register", KO, "--name", name, "--rating", rating],
        );
    }
    for round in 1..=10u32 {
        let r = round.to_string();
        let out = ok(&server, &["start-round", KO, &r, "--wait", "60"]);
        assert!(out.contains(&format!("Round {round} (proposed")), "{out}");
        ok(&server, &["publish", KO, &r]);
        let boards = if round <= 5 { 2 } else { 1 };
        let p = c
            .rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(KO),
                round,
            })
            .await
            .expect("pairings")
            .into_inner();
        assert!(p.published, "round {round}: {p:?}");
        assert_eq!(p.boards.len(), boards, "round {round}: {p:?}");
        for board in 1..=boards {
            ok(&server, &["result", KO, &r, &board.to_string(), "1-0"]);
        }
        ok(&server, &["close", KO, &r]);
    }
    let s =
        c.rd.get_schedule(rd::GetTournamentRequest {
            tournament: tref(KO),
        })
        .await
        .expect("schedule")
        .into_inner();
    let b = s.bracket.expect("a knockout's bracket");
    assert_eq!(b.seeds, vec![1, 2, 3, 4], "seeded by rating");
    assert_eq!((b.winner, b.decided_in_round), (1, 10));
    for view in &b.rounds {
        for m in &view.matches {
            assert_eq!(m.decided_by, "Armageddon", "{m:?}");
            assert_eq!(m.winner, m.high, "{m:?}");
            let kinds: Vec<&str> = m.games.iter().map(|g| g.kind.as_str()).collect();
            assert_eq!(
                kinds,
                ["classical", "classical", "rapid", "rapid", "Armageddon"],
                "{m:?}"
            );
        }
    }
    let finalists: Vec<(u32, u32)> = b.rounds[1]
        .matches
        .iter()
        .map(|m| (m.high, m.low))
        .collect();
    assert_eq!(finalists, [(1, 2)]);
}

/// An arbiter's undo from the command line: `create` without `--start` takes today's date and
/// says so (CreateTournament without a start date is refused naming the field); a second
/// player of an existing name needs `--same-name-ok`; a registration made in error is
/// cancelled before round 1 (the numbers close up; a number read before is refused naming the
/// cancellation; the event names the entry and its actor is the token's subject) and leaves no
/// trace in standings, crosstable or TRF export; a paired player's cancellation is refused
/// naming the round; `register` after round 1 is paired says it is a late entry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registration_made_in_error_is_cancelled_before_the_player_is_paired() {
    const UNDO: &str = "cli-undo";
    let work = TempDir::new("arbiter-e2e-cli-undo").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));

    // The start date decides the rules in force: the API requires it, the CLI says its default.
    let e = c
        .reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header("no-start", "create"),
            tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                name: "No Start".into(),
                rounds: 2,
                chief_arbiter: Some(pb::Arbiter {
                    name: "Chief, C".into(),
                    ..Default::default()
                }),
                ..Default::default()
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::InvalidArgument);
    assert!(e.message().contains("start_date"), "{}", e.message());
    let r = cli(
        &server,
        &[
            "create",
            "--id",
            UNDO,
            "--name",
            "Undo Open",
            "--rounds",
            "2",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let said = r
        .stderr
        .split("start date ")
        .nth(1)
        .and_then(|t| t.get(..10))
        .unwrap_or_else(|| panic!("the default start date said: {}", r.stderr));
    assert!(r.stderr.contains("(today;"), "{}", r.stderr);
    let listed = c
        .reg
        .list_tournaments(reg::ListTournamentsRequest {})
        .await
        .unwrap()
        .into_inner();
    let d = listed
        .tournaments
        .iter()
        .find(|t| t.tournament_id == UNDO)
        .and_then(|t| t.start_date)
        .unwrap();
    assert_eq!(format!("{:04}-{:02}-{:02}", d.year, d.month, d.day), said);

    for (name, rating) in [
        ("Alpha, A", "2000"),
        ("Bravo, B", "2200"),
        ("Typo, T", "2150"),
        ("Charlie, C", "2100"),
    ] {
        ok(
            &server,
            &["register", UNDO, "--name", name, "--rating", rating],
        );
    }
    // The same name (spaces and case aside), no FIDE id: refused naming the entry, then confirmed.
    let twin = ["register", UNDO, "--name", "alpha,  A", "--rating", "1800"];
    let refused = cli(&server, &twin);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("entry 1") && refused.stderr.contains("--same-name-ok"),
        "{}",
        refused.stderr
    );
    let out = ok(&server, &[&twin[..], &["--same-name-ok"]].concat());
    assert!(out.contains("pairing number 5, entry E5"), "{out}");
    assert!(!out.contains("late entry"), "{out}");

    // Typo (E3) has number 2; cancelled, the numbers below close up.
    let list = ok(&server, &["players", UNDO]);
    let read_at = number_after(&list, "Players (version");
    let out = ok(
        &server,
        &[
            "cancel-registration",
            UNDO,
            "E3",
            "--reason",
            "registered in error",
        ],
    );
    assert!(out.starts_with("registration cancelled"), "{out}");
    let l = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(UNDO),
        })
        .await
        .unwrap()
        .into_inner();
    let numbers: Vec<(u32, u32)> = l
        .players
        .iter()
        .map(|p| (p.pairing_number, p.entry))
        .collect();
    assert_eq!(numbers, [(1, 2), (2, 4), (3, 1), (4, 5)]);
    // Number 2 read before the cancellation named Typo: refused, naming why.
    let stale = cli(
        &server,
        &["bye", UNDO, "2", "1", "--as-of", &read_at.to_string()],
    );
    assert_eq!(stale.code, 2, "{}", stale.stderr);
    assert!(
        stale
            .stderr
            .contains("cancelled registration of Typo, T (entry 3)"),
        "{}",
        stale.stderr
    );
    let again = cli(&server, &["cancel-registration", UNDO, "E3"]);
    assert_eq!(again.code, 2, "{}", again.stderr);
    assert!(again.stderr.contains("was cancelled"), "{}", again.stderr);
    // The event names the entry; its actor is the token's subject.
    let cancelled: Vec<_> = kinds_by_actor(&mut c, UNDO)
        .await
        .into_iter()
        .filter_map(|(actor, k)| match k {
            pb::event::Kind::RegistrationCancelled(k) => {
                Some((k.entry, k.player_id, k.reason, actor))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        cancelled,
        [(
            3,
            2,
            "registered in error".to_string(),
            token::SUBJECT.to_string()
        )]
    );

    // Round 1: once paired, a player is withdrawn, not cancelled.
    ok(&server, &["start-round", UNDO, "1", "--wait", "60"]);
    ok(&server, &["publish", UNDO, "1"]);
    let refused = cli(&server, &["cancel-registration", UNDO, "E1"]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("entry 1")
            && refused.stderr.contains("round 1")
            && refused.stderr.contains("withdraw him instead"),
        "{}",
        refused.stderr
    );
    for board in ["1", "2"] {
        ok(&server, &["result", UNDO, "1", board, "1/2"]);
    }
    ok(&server, &["close", UNDO, "1"]);
    // A registration now is a late entry, and the command says so.
    let out = ok(
        &server,
        &["register", UNDO, "--name", "Echo, E", "--rating", "1500"],
    );
    assert!(
        out.contains("a late entry (C.04.2.C): paired from round 2"),
        "{out}"
    );

    ok(&server, &["start-round", UNDO, "2", "--wait", "60"]);
    ok(&server, &["publish", UNDO, "2"]);
    let r = c
        .rep
        .get_pairings(rep::GetPairingsRequest {
            tournament: tref(UNDO),
            round: 2,
        })
        .await
        .unwrap()
        .into_inner();
    for b in &r.boards {
        let number = b.board.unwrap().number.to_string();
        ok(&server, &["result", UNDO, "2", &number, "1-0"]);
    }
    ok(&server, &["close", UNDO, "2"]);
    ok(&server, &["finish", UNDO]);

    // No trace of Typo: standings, crosstable page, TRF export (five players, numbered 1-5).
    let table = ok(&server, &["standings", UNDO]);
    assert!(
        table.contains("Echo, E") && !table.contains("Typo"),
        "{table}"
    );
    let http = server.http.as_deref().expect("the HTTP address");
    let (status, page) = http_get(http, &format!("/t/{UNDO}/crosstable"));
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains("Charlie, C") && !page.contains("Typo"),
        "{page}"
    );
    let file = work.path().join("undo.trf");
    ok(&server, &["export", UNDO, "-o", file.to_str().unwrap()]);
    let trf = std::fs::read_to_string(&file).unwrap();
    assert!(!trf.contains("Typo"), "{trf}");
    let numbers: Vec<u32> = trf
        .lines()
        .filter(|l| l.starts_with("001 "))
        .map(|l| l[4..8].trim().parse().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5], "{trf}");

    // The audit folds the log with its cancellation and re-pairs both rounds identically.
    let mut server = server;
    assert!(server.interrupt().success());
    let replay = run(&["replay", UNDO, "--data", data.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    assert!(
        replay.stdout.contains("2 rounds re-paired, 0 differing"),
        "{}",
        replay.stdout
    );
}

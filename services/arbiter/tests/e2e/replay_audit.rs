//! `arbiter replay` as an auditor uses it, on real sled files and a real `arbiter serve`:
//!
//! - through a running server (`--server`), while the data folder is locked by it (a plain
//!   `--data` replay then says to use `--server`);
//! - a doctored round (an arbiter-amended pairing published through the API, and a pairing
//!   rewritten directly in a copy of the log) makes it exit 2 and count the round;
//! - signed chain heads: the round director signs the head after each publication, closed
//!   round and the finish, and after any other change once the tournament is quiet (a
//!   correction after the finish too); `arbiter export --heads` writes them; a rollback of the
//!   data folder (log and head journal restored from an older copy, also one taken just before
//!   that correction) and a rewritten history are caught by `replay --against`, while the plain
//!   audit of the older copy passes; with `--key`, a rebuilt log that lacks the deployment's
//!   heads is refused outright; a server started on the rewritten log signs the heads it lacks
//!   with a key of its own, and the published heads and the key still catch it.

use crate::support::*;
use arbiter_eventlog::{EventLog, ExpectedVersion, SledLog, encode_events};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_proto::round_director::v1 as rd;
use std::path::Path;

fn small_plan(rounds: u32) -> Plan {
    Plan {
        players: 12,
        rounds,
        seed: 9_090,
        early_byes: vec![],
        late_byes: vec![],
        withdrawals: vec![],
        forfeit_permille: 0,
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn show(r: &Run) -> String {
    format!("exit {}\n{}\n{}", r.code, r.stdout, r.stderr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_through_a_live_server_counts_an_amended_round() {
    let work = TempDir::new("arbiter-replay-live").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap();
    // Only the heads signed at once (publications, closed rounds): the quiet-time signing of
    // other changes is left out of this test's counts.
    let server = Server::start(
        &["--data", data_arg, "--head-signing-quiet-ms", "600000"],
        &work.path().join("serve.log"),
    );
    let url = server.grpc.clone();
    let c = Clients::new(&Endpoints::one(&url));
    let mut d = Driver::new(c, "live-audit", small_plan(3), work.path());
    d.create().await;
    d.register_all().await;
    d.play_round(1).await;
    d.play_round(2).await;

    // The server holds the data folder: the plain replay says how to get through.
    let locked = run(&["replay", "live-audit", "--data", data_arg]);
    assert_eq!(locked.code, 5, "{}", show(&locked));
    assert!(
        locked.stderr.contains("--server"),
        "the message points to --server: {}",
        show(&locked)
    );

    let live = run(&["replay", "live-audit", "--server", &url]);
    assert_eq!(live.code, 0, "{}", show(&live));
    assert!(
        live.stdout.contains("hash chain: intact"),
        "{}",
        show(&live)
    );
    assert!(
        live.stdout.contains("2 rounds re-paired, 0 differing"),
        "{}",
        show(&live)
    );
    assert!(
        live.stdout
            .contains("signed heads in the log: 4 of 4 verify"),
        "{}",
        show(&live)
    );

    // The heads are published over HTTP (the document `replay --against` reads) and the
    // tournament pages name the key and the latest signed head.
    let http = server.http.clone().expect("http address");
    let (status, body) = http_get(&http, "/api/tournaments/live-audit/heads");
    assert_eq!(status, 200, "{body}");
    let doc: serde_json::Value = serde_json::from_str(&body).unwrap();
    let heads = doc["heads"].as_array().unwrap();
    assert_eq!(heads.len(), 4, "{doc}");
    let key_id = heads[3]["key_id"].as_str().unwrap().to_string();
    let public_key = heads[3]["public_key"].as_str().unwrap();
    assert_eq!(public_key.len(), 64, "{doc}");
    let (status, page) = http_get(&http, "/t/live-audit/standings");
    assert_eq!(status, 200);
    assert!(page.contains("Signed chain head"), "{page}");
    assert!(page.contains(&key_id), "the page names the key {key_id}");
    assert!(
        page.contains(&format!(
            "version {} (RoundClosed round 2)",
            heads[3]["version"]
        )),
        "{page}"
    );
    let published = work.path().join("published-heads.json");
    std::fs::write(&published, &body).unwrap();
    let against = run(&[
        "replay",
        "live-audit",
        "--server",
        &url,
        "--against",
        published.to_str().unwrap(),
    ]);
    assert_eq!(against.code, 0, "{}", show(&against));
    assert_eq!(
        against.stdout.matches(": held").count(),
        4,
        "{}",
        show(&against)
    );

    // Round 3: the arbiter publishes the proposal with board 1's colours swapped.
    d.start_round(3).await;
    let proposal = d.wait_proposal(3, std::time::Duration::from_secs(60)).await;
    let (mut boards, bye) = pairing_of(&proposal);
    let (w, b) = boards[0];
    boards[0] = (b, w);
    let published =
        d.c.rd
            .publish_pairing(rd::PublishPairingRequest {
                header: header("live-audit", "publish-3-amended"),
                round: 3,
                boards: boards
                    .iter()
                    .enumerate()
                    .map(|(i, &(white, black))| pb::Board {
                        number: i as u32 + 1,
                        white,
                        black,
                    })
                    .collect(),
                unpaired: bye
                    .map(|p| pb::Unpaired {
                        player_id: p,
                        code: pb::ResultCode::PairingBye as i32,
                    })
                    .into_iter()
                    .collect(),
                note: "colours of board 1 swapped by the arbiter".into(),
                ..Default::default()
            })
            .await;
    assert!(published.is_ok(), "{published:?}");

    let amended = run(&["replay", "live-audit", "--server", &url]);
    assert_eq!(amended.code, 2, "{}", show(&amended));
    assert!(
        amended
            .stdout
            .contains("3 rounds re-paired, 1 differing (1 published by hand)"),
        "{}",
        show(&amended)
    );
    assert!(
        amended
            .stdout
            .contains(&format!("board 1: published {b}-{w}, engine {w}-{b}"))
            || amended.stdout.contains("DIFFERS"),
        "{}",
        show(&amended)
    );
    assert!(
        amended.stderr.contains("1 round(s) differ"),
        "{}",
        show(&amended)
    );
    assert!(
        amended
            .stdout
            .contains("signed heads in the log: 5 of 5 verify"),
        "{}",
        show(&amended)
    );
    // Leaving hand-published rounds out is a choice the auditor makes, and it says so.
    let lenient = run(&["replay", "live-audit", "--server", &url, "--lenient"]);
    assert_eq!(lenient.code, 0, "{}", show(&lenient));
    assert!(
        lenient
            .stdout
            .contains("1 more published by hand, not counted"),
        "{}",
        show(&lenient)
    );
    let unknown = run(&["replay", "nope", "--server", &url]);
    assert_eq!(unknown.code, 3, "{}", show(&unknown));
}

/// Appends `events` into a fresh log at `dir`, one append per command as in the original
/// (same command id and actor), leaving out the signed heads and passing each payload
/// through `edit`.
async fn rebuild_log(
    dir: &Path,
    stream: &str,
    events: &[arbiter_eventlog::StoredEvent],
    mut edit: impl FnMut(&mut pb::Event),
) {
    let log = SledLog::open(dir).unwrap();
    let mut version = 0;
    let mut batches: Vec<(String, String, Vec<pb::Event>)> = Vec::new();
    for e in events {
        let mut ev = e.decode_event().unwrap();
        if matches!(ev.kind, Some(Kind::ChainHeadSigned(_))) {
            continue;
        }
        edit(&mut ev);
        match batches.last_mut() {
            Some((id, _, list)) if *id == e.command_id => list.push(ev),
            _ => batches.push((e.command_id.clone(), e.actor.clone(), vec![ev])),
        }
    }
    for (command_id, actor, list) in batches {
        let o = log
            .append(
                stream,
                ExpectedVersion::Exact(version),
                &command_id,
                &actor,
                encode_events(&list),
            )
            .await
            .unwrap();
        version = o.last_version;
    }
    log.flush().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rollback_or_a_rewrite_is_caught_against_a_signed_head() {
    let work = TempDir::new("arbiter-replay-heads").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap().to_string();
    // A short quiet time: the changes that are not signed at once are signed quickly.
    let mut server = Server::start(
        &["--data", &data_arg, "--head-signing-quiet-ms", "200"],
        &work.path().join("serve.log"),
    );
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let mut d = Driver::new(c, "heads", small_plan(2), work.path());
    d.create().await;
    d.register_all().await;
    d.play_round(1).await;
    assert!(server.interrupt().success());

    // The key was made on first start, private to its owner.
    let key = data.join("head-signing.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the signing key is private");
    }
    let older = work.path().join("older");
    copy_dir(&data, &older);

    server.restart();
    d.play_round(2).await;
    d.finish().await;
    assert!(server.interrupt().success());
    // The finished tournament, before the correction below.
    let finished = work.path().join("finished");
    copy_dir(&data, &finished);

    // A correction after the finish is signed once the tournament is quiet.
    server.restart();
    let (_, last) = d.last_result.clone().expect("a result was recorded");
    let corrected = if last.result == pb::BoardResult::Draw as i32 {
        pb::BoardResult::WhiteWins
    } else {
        pb::BoardResult::Draw
    };
    let outcome =
        d.c.rd
            .correct_result(rd::CorrectResultRequest {
                header: header("heads", "correct-after-finish"),
                round: last.round,
                board: last.board,
                corrected: corrected as i32,
                reason: "scoresheet checked after the finish".into(),
                ..Default::default()
            })
            .await
            .expect("correction after the finish")
            .into_inner();
    let http = server.http.clone().expect("http address");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let (_, body) = http_get(&http, "/api/tournaments/heads/heads");
        let newest = serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| {
                v["heads"]
                    .as_array()?
                    .iter()
                    .filter_map(|h| h["version"].as_u64())
                    .max()
            })
            .unwrap_or(0);
        if newest >= outcome.last_version {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the correction at version {} was not signed: {body}",
            outcome.last_version
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let heads = work.path().join("heads.json");
    let export = run(&[
        "export",
        "heads",
        "--server",
        &server.grpc,
        "--heads",
        heads.to_str().unwrap(),
        "--out",
        work.path().join("heads.trf").to_str().unwrap(),
    ]);
    assert_eq!(export.code, 0, "{}", show(&export));
    assert!(server.interrupt().success());

    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&heads).unwrap()).unwrap();
    let list = file["heads"].as_array().unwrap();
    let covers: Vec<&str> = list.iter().map(|h| h["covers"].as_str().unwrap()).collect();
    // Publications, closed rounds and the finish each have their own head, in order; the
    // quiet-time heads (results, ratings, the correction) come between and after them.
    let at_once: Vec<&str> = covers
        .iter()
        .copied()
        .filter(|c| !c.starts_with("latest change: "))
        .collect();
    assert_eq!(
        at_once,
        [
            "PairingPublished round 1",
            "RoundClosed round 1",
            "PairingPublished round 2",
            "RoundClosed round 2",
            "TournamentFinished"
        ],
        "{covers:?}"
    );
    assert!(
        covers
            .iter()
            .any(|c| *c == "latest change: ResultCorrected")
            || list
                .iter()
                .any(|h| h["version"].as_u64() > Some(outcome.first_version)),
        "{covers:?}"
    );
    assert!(
        list.iter().all(|h| h["key_id"] == list[0]["key_id"]),
        "one key per deployment: {file}"
    );
    let heads_arg = heads.to_str().unwrap();

    // The log as it is holds every published head.
    let good = run(&[
        "replay",
        "heads",
        "--data",
        &data_arg,
        "--against",
        heads_arg,
    ]);
    assert_eq!(good.code, 0, "{}", show(&good));
    assert_eq!(
        good.stdout.matches(": held").count(),
        list.len(),
        "{}",
        show(&good)
    );
    let good_copy = work.path().join("good");
    copy_dir(&data, &good_copy);
    let good_arg = good_copy.to_str().unwrap();

    // The correction rolled back: the log and its head journal restored from the copy taken
    // at the finish. On its own a consistent log; against the heads published since, caught.
    std::fs::remove_dir_all(&data).unwrap();
    copy_dir(&finished, &data);
    let plain = run(&["replay", "heads", "--data", &data_arg]);
    assert_eq!(plain.code, 0, "{}", show(&plain));
    let undone = run(&[
        "replay",
        "heads",
        "--data",
        &data_arg,
        "--against",
        heads_arg,
    ]);
    assert_eq!(undone.code, 4, "{}", show(&undone));
    assert!(undone.stderr.contains("ROLLBACK"), "{}", show(&undone));

    // Rollback: the log and its head journal restored from the copy taken after round 1.
    std::fs::remove_dir_all(&data).unwrap();
    copy_dir(&older, &data);
    let plain = run(&["replay", "heads", "--data", &data_arg]);
    assert_eq!(
        plain.code,
        0,
        "on its own the older copy is a consistent log: {}",
        show(&plain)
    );
    let rolled = run(&[
        "replay",
        "heads",
        "--data",
        &data_arg,
        "--against",
        heads_arg,
    ]);
    assert_eq!(rolled.code, 4, "{}", show(&rolled));
    assert!(rolled.stderr.contains("ROLLBACK"), "{}", show(&rolled));
    assert!(
        rolled.stdout.contains("PairingPublished") || rolled.stdout.contains("FAILS"),
        "{}",
        show(&rolled)
    );

    // A rewritten history: the same events appended again into a fresh log (a valid chain of
    // its own) with the last round's first board turned around, and without the signed heads.
    let stream = "tournament-heads";
    let events = {
        let log = SledLog::open(good_copy.join("log")).unwrap();
        log.read(stream, 1).await.unwrap()
    };
    let forged = work.path().join("forged");
    rebuild_log(&forged.join("log"), stream, &events, |ev| {
        if let Some(Kind::PairingPublished(p)) = ev.kind.as_mut()
            && p.round == 2
        {
            let b = &mut p.boards[0];
            std::mem::swap(&mut b.white, &mut b.black);
        }
    })
    .await;
    let forged_arg = forged.to_str().unwrap();
    let doctored = run(&["replay", "heads", "--data", forged_arg]);
    assert_eq!(doctored.code, 2, "{}", show(&doctored));
    assert!(
        doctored.stdout.contains("2 rounds re-paired, 1 differing"),
        "{}",
        show(&doctored)
    );
    assert!(
        doctored.stdout.contains("not covered by a signed head"),
        "{}",
        show(&doctored)
    );
    // Knowing the deployment's key, a log without its heads is refused outright, naming what
    // no head of that key covers.
    let key_id = list[0]["key_id"].as_str().unwrap();
    let unsigned = run(&["replay", "heads", "--data", forged_arg, "--key", key_id]);
    assert_eq!(unsigned.code, 4, "{}", show(&unsigned));
    assert!(
        unsigned.stderr.contains(&format!(
            "not covered by a head signed by {key_id}: round 1 published"
        )),
        "{}",
        show(&unsigned)
    );
    let rewritten = run(&[
        "replay",
        "heads",
        "--data",
        forged_arg,
        "--against",
        heads_arg,
    ]);
    assert_eq!(rewritten.code, 4, "{}", show(&rewritten));
    assert!(
        rewritten.stderr.contains("REWRITTEN"),
        "{}",
        show(&rewritten)
    );

    // The forger serves the rewritten log: the server signs the heads it lacks, with a key of
    // its own (the deployment's key stayed behind). The published heads still catch it.
    let mut forger = Server::start(&["--data", forged_arg], &work.path().join("forger.log"));
    let forger_http = forger.http.clone().expect("http address");
    // The rebuilt log holds the original's events but its heads: the last is at this version.
    let rebuilt_last = events
        .iter()
        .filter(|e| {
            !matches!(
                e.decode_event().unwrap().kind,
                Some(Kind::ChainHeadSigned(_))
            )
        })
        .count() as u64;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let (status, body) = http_get(&forger_http, "/api/tournaments/heads/heads");
        let newest = serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| {
                v["heads"]
                    .as_array()?
                    .iter()
                    .filter_map(|h| h["version"].as_u64())
                    .max()
            })
            .unwrap_or(0);
        if status == 200 && newest >= rebuilt_last {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the missing heads were not signed at start: {status} {body}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(forger.interrupt().success());
    let resigned = run(&[
        "replay",
        "heads",
        "--data",
        forged_arg,
        "--against",
        heads_arg,
    ]);
    assert_eq!(resigned.code, 4, "{}", show(&resigned));
    let counted: Vec<&str> = resigned
        .stdout
        .lines()
        .find(|l| l.starts_with("signed heads in the log: "))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    assert!(
        counted.len() > 7 && counted[5] == counted[7] && counted[5] != "0",
        "every head the forger's server signed verifies: {}",
        show(&resigned)
    );
    assert!(
        resigned
            .stdout
            .contains("note: the heads given are signed by"),
        "{}",
        show(&resigned)
    );
    assert!(resigned.stderr.contains("REWRITTEN"), "{}", show(&resigned));
    // Knowing only the deployment's published key is enough to reject the re-signed log.
    let pinned = run(&["replay", "heads", "--data", forged_arg, "--key", key_id]);
    assert_eq!(pinned.code, 4, "{}", show(&pinned));
    assert!(
        pinned
            .stderr
            .contains(&format!("not by the deployment's key {key_id}")),
        "{}",
        show(&pinned)
    );
    let public_key = list[0]["public_key"].as_str().unwrap();
    let genuine = run(&["replay", "heads", "--data", good_arg, "--key", public_key]);
    assert_eq!(genuine.code, 0, "{}", show(&genuine));
    let bad_key = run(&["replay", "heads", "--data", good_arg, "--key", "ed25519:zz"]);
    assert_eq!(bad_key.code, 3, "{}", show(&bad_key));

    // A head file altered by hand does not verify.
    let mut altered = file.clone();
    altered["heads"][0]["version"] = serde_json::json!(list[0]["version"].as_u64().unwrap() - 1);
    let altered_path = work.path().join("altered.json");
    std::fs::write(&altered_path, altered.to_string()).unwrap();
    let bad_sig = run(&[
        "replay",
        "heads",
        "--data",
        good_arg,
        "--against",
        altered_path.to_str().unwrap(),
    ]);
    assert_eq!(bad_sig.code, 4, "{}", show(&bad_sig));
    assert!(
        bad_sig.stderr.contains("signature does not verify"),
        "{}",
        show(&bad_sig)
    );
    let garbage = work.path().join("garbage.json");
    std::fs::write(&garbage, "{\"heads\": [{\"version\": 1}]}").unwrap();
    let bad_file = run(&[
        "replay",
        "heads",
        "--data",
        good_arg,
        "--against",
        garbage.to_str().unwrap(),
    ]);
    assert_eq!(bad_file.code, 3, "{}", show(&bad_file));
    assert!(bad_file.stderr.contains("heads[0]"), "{}", show(&bad_file));
    // Heads of another tournament are a wrong argument, not a finding about this log.
    let other = run(&[
        "replay",
        "other",
        "--data",
        good_arg,
        "--against",
        heads_arg,
    ]);
    assert_eq!(other.code, 3, "{}", show(&other));
    assert!(
        other.stderr.contains("not of tournament other"),
        "{}",
        show(&other)
    );
}

/// A round robin's drawing of lots is audited too: set up with the CLI (twelve players, a Varma
/// draw from a published seed), the plain replay re-derives the draw; a copy of the log whose
/// `LotsDrawn` gives two players each other's numbers (a valid chain of its own) makes it exit
/// 2, naming the players and the numbers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drawing_of_lots_that_its_seed_does_not_give_is_caught() {
    let work = TempDir::new("arbiter-replay-lots").unwrap();
    let data = work.path().join("data");
    let data_arg = data.to_str().unwrap().to_string();
    let mut server = Server::start(&["--data", &data_arg], &work.path().join("serve.log"));
    let client = |args: &[&str]| {
        let mut all = vec!["client", "--server", server.grpc.as_str()];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_eq!(out.code, 0, "{args:?}: {}", show(&out));
        out.stdout
    };
    let created = client(&[
        "create",
        "--name",
        "Lots",
        "--rounds",
        "11",
        "--system",
        "round-robin",
    ]);
    let tid = created.split_whitespace().last().unwrap().to_string();
    let feds = [
        "ESP", "FRA", "ESP", "GER", "ESP", "FRA", "ITA", "ESP", "GER", "NED", "FRA", "POR",
    ];
    for (i, f) in feds.iter().enumerate() {
        let name = format!("Player {i:02}, {f}");
        client(&["register", &tid, "--name", &name, "--federation", f]);
    }
    client(&[
        "draw-lots",
        &tid,
        "--varma",
        "--seed",
        "published on the notice board",
    ]);
    let schedule = client(&["schedule", &tid]);
    assert!(
        schedule.contains("lots: Varma draw, drawn from seed \"published on the notice board\""),
        "{schedule}"
    );
    assert!(server.interrupt().success());

    let good = run(&["replay", &tid, "--data", &data_arg]);
    assert_eq!(good.code, 0, "{}", show(&good));
    assert!(
        good.stdout.contains(
            "lots (Varma draw from seed \"published on the notice board\"): re-derived, identical"
        ),
        "{}",
        show(&good)
    );

    let stream = format!("tournament-{tid}");
    let events = {
        let log = SledLog::open(data.join("log")).unwrap();
        log.read(&stream, 1).await.unwrap()
    };
    let forged = work.path().join("forged");
    rebuild_log(&forged.join("log"), &stream, &events, |ev| {
        if let Some(Kind::LotsDrawn(l)) = &mut ev.kind {
            l.numbers.swap(0, 1);
        }
    })
    .await;
    let bad = run(&["replay", &tid, "--data", forged.to_str().unwrap()]);
    assert_eq!(bad.code, 2, "{}", show(&bad));
    assert!(bad.stdout.contains("re-derived, DIFFERS"), "{}", show(&bad));
    assert!(
        bad.stdout
            .contains("player 1 (Player 00, ESP): recorded number"),
        "{}",
        show(&bad)
    );
    assert!(
        bad.stderr.contains("is not what its seed"),
        "{}",
        show(&bad)
    );
}

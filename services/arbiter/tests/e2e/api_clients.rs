//! The API as outside programs use it: the examples of docs/examples/ run against a real
//! `arbiter serve` — the Python one over native gRPC (grpcio), gRPC-Web and JSON over HTTP,
//! the Node one (@grpc/grpc-js), the curl one — and each drives the same whole tournament.
//! Their outputs (pairings, standings, the refusal's code and the log's event kinds) are the
//! same; the signed chain heads are left out of the comparison, since the signer appends them
//! on its own time. Then every refusal type carries structured google.rpc details, over gRPC
//! and over JSON.
//!
//! Python comes from `ARBITER_PYTHON` (default `python3`) with grpcio-tools; the Node example's
//! packages from `npm ci` in docs/examples/node (both installed by .ci/run).

use crate::support::*;
use arbiter_proto::common::v1::CommandHeader;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use tonic::Code;
use tonic_types::StatusExt;

fn examples() -> PathBuf {
    root().join("docs/examples")
}

fn python() -> String {
    std::env::var("ARBITER_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Runs `cmd`, failing with its output when it fails; its standard output.
fn output_of(what: &str, cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what}: {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The Python message classes generated from proto/ into `dir`.
fn python_messages(dir: &Path) {
    let protos: Vec<PathBuf> = [
        "common",
        "events",
        "registration",
        "round_director",
        "reporting",
    ]
    .iter()
    .map(|p| root().join(format!("proto/arbiter/{p}/v1/{p}.proto")))
    .collect();
    output_of(
        "grpc_tools.protoc (pip install grpcio-tools)",
        Command::new(python())
            .args(["-m", "grpc_tools.protoc", "-I"])
            .arg(root().join("proto"))
            .arg(format!("--python_out={}", dir.display()))
            .args(&protos),
    );
}

/// An example's JSON output without the signed heads among the event kinds.
fn comparable(text: &str, what: &str) -> Value {
    let mut v: Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {text}"));
    if let Some(events) = v.get_mut("events").and_then(Value::as_array_mut) {
        events.retain(|k| k != "chain_head_signed");
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_examples_drive_the_same_tournament_over_every_transport() {
    let work = TempDir::new("arbiter-api-clients").unwrap();
    let data = work.path().join("data");
    let log = work.path().join("serve.log");
    let server = Server::start(&["--data", data.to_str().unwrap()], &log);
    let grpc = server.grpc.trim_start_matches("http://").to_string();
    let http = server.http.clone().expect("an HTTP port");
    let http_addr = http.trim_start_matches("http://").to_string();
    let token_file = work.path().join("admin.token");
    std::fs::write(&token_file, &token::auth().admin).unwrap();
    let messages = work.path().join("py");
    std::fs::create_dir_all(&messages).unwrap();
    python_messages(&messages);

    let mut outputs = Vec::new();
    for transport in ["grpc", "grpc-web", "json"] {
        let text = output_of(
            &format!("the Python example over {transport}"),
            Command::new(python())
                .arg(examples().join("python/tournament.py"))
                .args([
                    "--transport",
                    transport,
                    "--grpc",
                    &grpc,
                    "--http",
                    &http_addr,
                ])
                .arg("--token-file")
                .arg(&token_file)
                .env("PYTHONPATH", &messages),
        );
        outputs.push((format!("python {transport}"), comparable(&text, transport)));
    }
    let node = examples().join("node");
    assert!(
        node.join("node_modules/@grpc/grpc-js").is_dir(),
        "the Node example's packages are not installed: npm ci --prefix docs/examples/node"
    );
    let text = output_of(
        "the Node example",
        Command::new("node")
            .arg(node.join("tournament.mjs"))
            .args(["--grpc", &grpc])
            .arg("--token-file")
            .arg(&token_file),
    );
    outputs.push(("node".to_string(), comparable(&text, "node")));

    let (first_name, first) = &outputs[0];
    for (name, out) in &outputs[1..] {
        assert_eq!(out, first, "{name} differs from {first_name}");
    }
    // What they agree on is a real tournament: two rounds of two boards, everyone paired once
    // a round, the results in the standings, the round closed twice refused.
    for round in ["1", "2"] {
        let boards = first["pairings"][round].as_array().expect("pairings");
        let mut seen: Vec<u64> = boards
            .iter()
            .flat_map(|b| b.as_array().expect("a board").iter())
            .filter_map(Value::as_u64)
            .collect();
        seen.sort();
        assert_eq!(seen, [1, 2, 3, 4], "round {round}: {boards:?}");
    }
    // Points as decimals with one place ("1.5"): in tenths, 4 games of a point each.
    let points: Vec<i64> = first["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .filter_map(|r| r[2].as_str()?.replace('.', "").parse().ok())
        .collect();
    assert_eq!(points.len(), 4, "{:?}", first["standings"]);
    assert_eq!(
        points.iter().sum::<i64>(),
        40,
        "4 games of a point each: {points:?}"
    );
    assert_eq!(first["refusal"], "FAILED_PRECONDITION");
    let kinds = first["events"].as_array().expect("events");
    assert_eq!(
        kinds.iter().filter(|k| *k == "result_recorded").count(),
        4,
        "{kinds:?}"
    );
    assert_eq!(
        kinds.first().and_then(Value::as_str),
        Some("tournament_created")
    );

    // curl over JSON: the same standings (its tournament id is its own).
    let text = output_of(
        "the curl example",
        Command::new("bash")
            .arg(examples().join("curl/tournament.sh"))
            .env("HTTP", &http)
            .env("TOKEN_FILE", &token_file),
    );
    let standings: Value = serde_json::from_str(text.trim()).expect("standings JSON");
    let rows: Vec<Value> = standings["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            // The proto3 JSON form of a Decimal: {"units": "15", "scale": 1}.
            let score = arbiter_proto::common::v1::Decimal {
                units: r["score"]["units"]
                    .as_str()
                    .and_then(|u| u.parse().ok())
                    .expect("units"),
                scale: r["score"]["scale"].as_u64().expect("scale") as u32,
            };
            serde_json::json!([r["place"], r["name"], score.text()])
        })
        .collect();
    assert_eq!(Value::Array(rows), first["standings"], "curl's standings");

    // Pairings name their players (no ListPlayers join), with their stable entry numbers.
    let (status, p) = post_json(
        &http,
        "arbiter.reporting.v1.Reporting/GetPairings",
        None,
        r#"{"tournament": {"tournamentId": "example-open-curl"}, "round": 1}"#,
    );
    assert_eq!(status, 200, "{p}");
    let (_, players) = post_json(
        &http,
        "arbiter.registration.v1.Registration/ListPlayers",
        None,
        r#"{"tournament": {"tournamentId": "example-open-curl"}}"#,
    );
    let name_of = |pn: &Value| -> Value {
        players["players"]
            .as_array()
            .and_then(|ps| ps.iter().find(|x| x["pairingNumber"] == *pn))
            .map(|x| x["player"]["name"].clone())
            .unwrap_or(Value::Null)
    };
    for b in p["boards"].as_array().expect("boards") {
        assert_eq!(b["whiteName"], name_of(&b["board"]["white"]), "{b}");
        assert_eq!(b["blackName"], name_of(&b["board"]["black"]), "{b}");
        assert!(
            b["whiteEntry"]
                .as_u64()
                .is_some_and(|e| (1..=4).contains(&e)),
            "{b}"
        );
    }
}

/// A refusal's ErrorInfo reason and metadata.
fn reason(s: &tonic::Status) -> (String, std::collections::HashMap<String, String>) {
    let info = s
        .get_details_error_info()
        .unwrap_or_else(|| panic!("no ErrorInfo in {s:?}"));
    assert_eq!(info.domain, arbiter_proto::ERROR_DOMAIN);
    (info.reason, info.metadata)
}

fn header(tid: &str, command_id: &str, expected: Option<u64>) -> Option<CommandHeader> {
    Some(CommandHeader {
        tournament_id: tid.to_string(),
        command_id: command_id.to_string(),
        expected_version: expected,
        ..Default::default()
    })
}

/// POST `body` to the JSON route of `method`; the HTTP status and the answer.
fn post_json(http: &str, method: &str, token: Option<&str>, body: &str) -> (u16, Value) {
    let mut headers = vec!["content-type: application/json".to_string()];
    if let Some(t) = token {
        headers.push(format!("authorization: Bearer {t}"));
    }
    let (status, text) = http_request(http, "POST", &format!("/api/v1/{method}"), &headers, body);
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method}: {e}: {text}"));
    (status, v)
}

fn json_reason(v: &Value) -> &str {
    v["details"]
        .as_array()
        .and_then(|d| {
            d.iter()
                .find(|d| d["@type"] == "type.googleapis.com/google.rpc.ErrorInfo")
        })
        .and_then(|d| d["reason"].as_str())
        .unwrap_or_else(|| panic!("no ErrorInfo in {v}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refusal_carries_structured_details() {
    let work = TempDir::new("arbiter-api-refusals").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("log"),
    );
    let http = server.http.clone().expect("an HTTP port");
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "refusals";
    let mut driver = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    driver.create().await;

    // ABORTED: a stale expected version; the current one is in the metadata.
    let current = driver.version().await;
    let s =
        c.rd.start_round(rd::StartRoundRequest {
            header: header(tid, "stale", Some(current - 1)),
            round: 1,
            scheduled_unix_ms: 0,
        })
        .await
        .expect_err("a stale version is refused");
    assert_eq!(s.code(), Code::Aborted);
    let (r, m) = reason(&s);
    assert_eq!(r, "VERSION_CONFLICT");
    assert_eq!(m.get("current_version"), Some(&current.to_string()));
    assert_eq!(m.get("expected_version"), Some(&(current - 1).to_string()));

    // INVALID_ARGUMENT: the missing field, in a BadRequest field violation.
    let s = c
        .reg
        .register_player(reg::RegisterPlayerRequest {
            header: header(tid, "no-player", None),
            player: None,
            confirm_same_name: false,
        })
        .await
        .expect_err("a request without its player is refused");
    assert_eq!(s.code(), Code::InvalidArgument);
    assert_eq!(reason(&s).0, "INVALID_FIELD");
    let violations = s
        .get_details_bad_request()
        .expect("BadRequest")
        .field_violations;
    assert_eq!(violations[0].field, "player", "{violations:?}");

    // FAILED_PRECONDITION: the rule's reason, and a PreconditionFailure naming the tournament.
    let s =
        c.rd.close_round(rd::CloseRoundRequest {
            header: header(tid, "close-early", None),
            round: 1,
        })
        .await
        .expect_err("closing a round not started is refused");
    assert_eq!(s.code(), Code::FailedPrecondition);
    let (r, m) = reason(&s);
    assert_eq!(m.get("tournament_id").map(String::as_str), Some(tid));
    let v = s
        .get_details_precondition_failure()
        .expect("PreconditionFailure")
        .violations;
    assert_eq!(
        (v[0].r#type.as_str(), v[0].subject.as_str()),
        (r.as_str(), "tournament/refusals")
    );

    // PERMISSION_DENIED: an arbiter of another tournament; the role and method in metadata.
    let other = token::issue(
        &token::auth().keys,
        "other-arbiter",
        arbiter_auth::Role::Arbiter,
        &["another"],
        None,
        600,
    );
    let mut as_other = reg::registration_client::RegistrationClient::new(
        arbiter_auth::client::WithToken::new(
            tonic::transport::Channel::from_shared(server.grpc.clone())
                .expect("url")
                .connect_lazy(),
            Some(&other),
        )
        .expect("an ASCII token"),
    );
    let s = as_other
        .register_player(reg::RegisterPlayerRequest {
            header: header(tid, "foreign", None),
            player: None,
            confirm_same_name: false,
        })
        .await
        .expect_err("another tournament's arbiter is refused");
    assert_eq!(s.code(), Code::PermissionDenied);
    let (r, m) = reason(&s);
    assert_eq!(r, "ROLE_NOT_ALLOWED");
    assert_eq!(m.get("role").map(String::as_str), Some("arbiter"));
    assert_eq!(m.get("method").map(String::as_str), Some("RegisterPlayer"));

    // The same refusals over JSON: the HTTP status of the code, the same reasons.
    let admin = token::auth().admin.as_str();
    let (status, v) = post_json(
        &http,
        "arbiter.round_director.v1.RoundDirector/CloseRound",
        Some(admin),
        &format!(
            r#"{{"header": {{"tournamentId": "{tid}", "commandId": "close-early-json"}}, "round": 1}}"#
        ),
    );
    assert_eq!(
        (status, v["status"].as_str()),
        (400, Some("FAILED_PRECONDITION"))
    );
    assert_eq!(json_reason(&v), reason(&s_close(&mut c, tid).await).0);
    let (status, v) = post_json(
        &http,
        "arbiter.round_director.v1.RoundDirector/StartRound",
        Some(admin),
        &format!(
            r#"{{"header": {{"tournamentId": "{tid}", "commandId": "stale-json", "expectedVersion": "{}"}}, "round": 1}}"#,
            current - 1
        ),
    );
    assert_eq!((status, json_reason(&v)), (409, "VERSION_CONFLICT"), "{v}");
    let (status, v) = post_json(
        &http,
        "arbiter.registration.v1.Registration/RegisterPlayer",
        None,
        &format!(r#"{{"header": {{"tournamentId": "{tid}"}}}}"#),
    );
    assert_eq!((status, json_reason(&v)), (401, "TOKEN_REQUIRED"), "{v}");
    let (status, v) = post_json(
        &http,
        "arbiter.registration.v1.Registration/RegisterPlayer",
        Some(admin),
        r#"{"header": {"tournamentId": "refusals"}, "playr": {}}"#,
    );
    assert_eq!((status, json_reason(&v)), (400, "INVALID_JSON"), "{v}");
    assert!(v["message"].as_str().unwrap_or("").contains("playr"), "{v}");
    let (status, v) = post_json(
        &http,
        "arbiter.registration.v1.Registration/Nothing",
        None,
        "{}",
    );
    assert_eq!(
        (status, v["status"].as_str()),
        (501, Some("UNIMPLEMENTED")),
        "{v}"
    );
    // A public read needs no token, and answers every field.
    let (status, v) = post_json(
        &http,
        "arbiter.registration.v1.Registration/ListPlayers",
        None,
        &format!(r#"{{"tournament": {{"tournamentId": "{tid}"}}}}"#),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["players"].as_array().map(Vec::len), Some(0), "{v}");
}

/// The gRPC refusal of closing round 1 of `tid` before it started.
async fn s_close(c: &mut Clients, tid: &str) -> tonic::Status {
    c.rd.close_round(rd::CloseRoundRequest {
        header: header(tid, "close-early-again", None),
        round: 1,
    })
    .await
    .expect_err("refused")
}

/// A page in a real browser (headless Chromium) calls the gRPC port over gRPC-Web with
/// `fetch`: the CORS preflight passes (the bearer token is a header), a call answers its
/// message and an OK trailer, and a refusal's status and details headers are readable by the
/// page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_page_calls_the_grpc_port_over_grpc_web() {
    use crate::support::browser::{Driver, browser, tool};
    use prost::Message;
    let chromium = tool("CHROMIUM", "chromium");
    let chromedriver = tool("CHROMEDRIVER", "chromedriver");
    let work = TempDir::new("arbiter-grpc-web").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("log"),
    );
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let mut d = crate::support::Driver::new(c, "grpc-web-open", Plan::swiss_40x9(), work.path());
    d.create().await;

    let driver = Driver::start(&chromedriver, &work.path().join("chromedriver.log"));
    let profile = work.path().join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let b = browser(&driver, &chromium, &profile).await;
    // A platform's page: another origin than the gRPC port's.
    let page = platform_page();
    b.goto(&page).await.expect("the platform's page");
    let call = |method: &str, token: &str| {
        format!(
            r#"const done = arguments[arguments.length - 1];
            fetch("{}/{method}", {{
              method: "POST",
              headers: {{"content-type": "application/grpc-web+proto", "x-grpc-web": "1",
                         "authorization": "Bearer {token}"}},
              body: new Uint8Array([0, 0, 0, 0, 0]),
            }}).then(async r => done({{
              http: r.status,
              status: r.headers.get("grpc-status"),
              details: r.headers.get("grpc-status-details-bin"),
              bytes: Array.from(new Uint8Array(await r.arrayBuffer())),
            }})).catch(e => done({{error: String(e)}}));"#,
            server.grpc
        )
    };
    let answer = b
        .execute_async(
            &call(
                "arbiter.registration.v1.Registration/ListTournaments",
                &token::auth().admin,
            ),
            Vec::new(),
        )
        .await
        .expect("the script runs");
    assert_eq!(answer["http"], 200, "{answer}");
    let bytes: Vec<u8> = answer["bytes"]
        .as_array()
        .expect("bytes")
        .iter()
        .filter_map(|b| b.as_u64().map(|b| b as u8))
        .collect();
    // A data frame (flag 0) with the reply, then a trailer frame (flag 0x80): grpc-status 0.
    assert_eq!(bytes.first(), Some(&0), "{answer}");
    let len = u32::from_be_bytes(bytes[1..5].try_into().expect("a frame length")) as usize;
    let reply = reg::ListTournamentsResponse::decode(&bytes[5..5 + len]).expect("the reply");
    assert!(
        reply
            .tournaments
            .iter()
            .any(|t| t.tournament_id == "grpc-web-open"),
        "{reply:?}"
    );
    assert_eq!(bytes[5 + len], 0x80, "{answer}");
    let trailer = String::from_utf8_lossy(&bytes[5 + len + 5..]).to_lowercase();
    assert!(trailer.contains("grpc-status:0"), "{trailer}");

    // A refusal: trailers-only, its status and details exposed to the page.
    let answer = b
        .execute_async(
            &call(
                "arbiter.registration.v1.Registration/CreateTournament",
                "not.a.jwt",
            ),
            Vec::new(),
        )
        .await
        .expect("the script runs");
    assert_eq!(answer["status"], "16", "{answer}");
    let details = answer["details"]
        .as_str()
        .expect("grpc-status-details-bin is readable");
    use base64::Engine;
    let raw = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(details.trim_end_matches('='))
        .expect("base64");
    let status = tonic::Status::with_details(Code::Unauthenticated, "", raw.into());
    assert_eq!(reason(&status).0, "TOKEN_INVALID");
    b.close().await.expect("close the browser");
}

/// A web server of its own origin (another loopback port) serving one empty page, as a
/// platform's site would; it serves until the test process ends.
fn platform_page() -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let addr = listener.local_addr().expect("its address");
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut head = [0u8; 4096];
            let _ = conn.read(&mut head);
            let body = "<!doctype html><title>platform</title>";
            let _ = write!(
                conn,
                "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://{addr}/")
}

/// The next view of a FollowTournament stream that `wanted` accepts (views before it are
/// skipped: each is checked by the caller only when it is the one awaited).
async fn view_until(
    views: &mut tonic::Streaming<rep::TournamentView>,
    what: &str,
    wanted: impl Fn(&rep::TournamentView) -> bool,
) -> rep::TournamentView {
    // A bound on a failure, not a pause: every view arrives as soon as its events are appended.
    let bound = std::time::Duration::from_secs(60);
    loop {
        let v = tokio::time::timeout(bound, views.message())
            .await
            .unwrap_or_else(|_| panic!("no view with {what} within {bound:?}"))
            .expect("a view")
            .unwrap_or_else(|| panic!("the stream ended before {what}"));
        if wanted(&v) {
            return v;
        }
    }
}

/// A view is what GetPairings and GetStandings answer at its version: one source of truth.
async fn check_view(c: &mut Clients, tid: &str, v: &rep::TournamentView) {
    let at = Some(arbiter_proto::common::v1::TournamentRef {
        tournament_id: tid.to_string(),
        as_of_version: v.version,
    });
    let standings = c
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: at.clone(),
            after_round: 0,
        })
        .await
        .expect("GetStandings")
        .into_inner();
    assert_eq!(
        v.standings.as_ref(),
        Some(&standings),
        "version {}",
        v.version
    );
    if v.round > 0 {
        let pairings = c
            .rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: at,
                round: v.round,
            })
            .await
            .expect("GetPairings")
            .into_inner();
        assert_eq!(
            v.pairings.as_ref(),
            Some(&pairings),
            "version {}",
            v.version
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_follow_stream_pushes_the_proposal_the_publication_the_results_and_the_standings() {
    let work = TempDir::new("arbiter-api-follow").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "follow";
    let mut driver = Driver::new(c.clone(), tid, Plan::swiss_40x9(), work.path());
    driver.create().await;
    driver.register_all().await;
    let mut views = c
        .rep
        .follow_tournament(rep::FollowTournamentRequest {
            tournament: tref(tid),
        })
        .await
        .expect("FollowTournament")
        .into_inner();
    let first = view_until(&mut views, "the first view", |_| true).await;
    assert_eq!(
        (first.round, first.pairings.is_none()),
        (0, true),
        "{first:?}"
    );
    assert_eq!(first.standings.as_ref().map(|s| s.rows.len()), Some(40));
    check_view(&mut c, tid, &first).await;

    driver.start_round(1).await;
    let proposed = view_until(&mut views, "round 1's proposal", |v| {
        v.round == 1 && v.pairings.as_ref().is_some_and(|p| !p.published)
    })
    .await;
    check_view(&mut c, tid, &proposed).await;
    driver
        .wait_proposal(1, std::time::Duration::from_secs(60))
        .await;
    driver.publish(1).await;
    let published = view_until(&mut views, "round 1 published", |v| {
        v.pairings
            .as_ref()
            .is_some_and(|p| p.round == 1 && p.published)
    })
    .await;
    check_view(&mut c, tid, &published).await;
    let pairing = pairing_of(published.pairings.as_ref().expect("pairings"));
    let boards = pairing.0.len();
    driver.results(1, &pairing, 0..1).await;
    let one = view_until(&mut views, "board 1's result", |v| {
        v.pairings
            .as_ref()
            .is_some_and(|p| p.boards.first().is_some_and(|b| b.result != 0))
    })
    .await;
    check_view(&mut c, tid, &one).await;
    driver.results(1, &pairing, 1..boards).await;
    driver.close(1).await;
    // The standings count round 1 once its results are all in: every board gives a point (the
    // driver's forfeits are single ones), the byes on top.
    let after = view_until(&mut views, "the standings after round 1", |v| {
        v.standings.as_ref().is_some_and(|s| s.after_round == 1)
    })
    .await;
    check_view(&mut c, tid, &after).await;
    let total: i32 = after
        .standings
        .as_ref()
        .expect("standings")
        .rows
        .iter()
        .map(|r| arbiter_proto::tenths(r.score.as_ref()))
        .sum();
    assert!(
        total >= boards as i32 * 10,
        "{total} tenths over {boards} boards"
    );
}

//! Authentication and roles over real gRPC against `arbiter serve`: every call that is not a
//! public read needs a token (each such method of the descriptor set is tried without one);
//! a player's token for an arbiter's command, an arbiter's token of another tournament, an
//! expired, foreign or wrongly signed token are refused with the right status and append
//! nothing; the actor of every event is the token's subject. Also: an OIDC issuer's tokens
//! (a JWKS the test makes), `arbiter token issue`, and the embedded default's first start
//! (DATA/admin.token, used by `arbiter demo` with no extra step).

use crate::support::token::{SUBJECT, auth, issue};
use crate::support::{Server, TempDir, collect_log, header, tref, whole_log};
use arbiter_auth::client::WithToken;
use arbiter_auth::keys::{Jwk, KeySet};
use arbiter_auth::{AUDIENCE, Role};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::registration::v1::registration_client::RegistrationClient;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use arbiter_proto::round_director::v1 as rd;
use arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient;
use prost::Message as _;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;
use tonic::Code;
use tonic::transport::Channel;

type Authed = WithToken<Channel>;

fn raw(url: &str) -> Channel {
    Channel::from_shared(url.to_string())
        .unwrap()
        .connect_timeout(Duration::from_secs(5))
        .timeout(Duration::from_secs(60))
        .connect_lazy()
}

struct As {
    reg: RegistrationClient<Authed>,
    rd: RoundDirectorClient<Authed>,
}

fn with(url: &str, token: Option<&str>) -> As {
    let ch = WithToken::new(raw(url), token).unwrap();
    As {
        reg: RegistrationClient::new(ch.clone()),
        rd: RoundDirectorClient::new(ch),
    }
}

fn tournament(name: &str) -> arbiter_proto::registration::v1::TournamentSettings {
    arbiter_proto::registration::v1::TournamentSettings {
        name: name.into(),
        start_date: Some(pb::Date {
            year: 2026,
            month: 3,
            day: 1,
        }),
        chief_arbiter: Some(pb::Arbiter {
            name: "Arbiter, Chief".into(),
            fide_id: None,
            title: "IA".into(),
        }),
        pairing_system: pb::PairingSystem::Dutch as i32,
        rounds: 5,
        ..Default::default()
    }
}

fn wire_player(name: &str, rating: u32) -> Option<arbiter_proto::registration::v1::PlayerDetails> {
    Some(arbiter_proto::registration::v1::PlayerDetails {
        name: name.into(),
        rating,
        ..Default::default()
    })
}

/// Every event of `tid`: (version, actor).
async fn events(url: &str, tid: &str) -> Vec<(u64, String)> {
    let mut c = ReportingClient::new(raw(url));
    collect_log(c.stream_events(whole_log(tid, false)).await)
        .await
        .expect("stream events")
        .into_iter()
        .map(|e| (e.version, e.actor))
        .collect()
}

fn refused<T: std::fmt::Debug>(
    what: &str,
    got: Result<T, tonic::Status>,
    code: Code,
    words: &[&str],
) {
    let s = match got {
        Ok(v) => panic!("{what}: accepted ({v:?}), expected {code:?}"),
        Err(s) => s,
    };
    assert_eq!(s.code(), code, "{what}: {s:?}");
    for w in words {
        assert!(
            s.message().contains(w),
            "{what}: {:?} does not say {w:?}",
            s.message()
        );
    }
}

fn bye(tid: &str, cmd: &str, entry: u32) -> reg::RequestByeRequest {
    reg::RequestByeRequest {
        header: header(tid, cmd),
        entry,
        round: 2,
        kind: pb::ByeKind::HalfPoint as i32,
        ..Default::default()
    }
}

fn start(tid: &str, cmd: &str) -> rd::StartRoundRequest {
    rd::StartRoundRequest {
        header: header(tid, cmd),
        round: 1,
        ..Default::default()
    }
}

/// Every method of the descriptor set that is not a public read, called without a token
/// (with an empty request) is UNAUTHENTICATED; every public read listed exists.
async fn every_method_needs_a_token(url: &str) {
    let set = prost_types::FileDescriptorSet::decode(arbiter_proto::FILE_DESCRIPTOR_SET).unwrap();
    let mut guarded = Vec::new();
    let mut listed = 0;
    for f in &set.file {
        for s in &f.service {
            let service = format!("{}.{}", f.package(), s.name());
            for m in &s.method {
                let path = format!("/{service}/{}", m.name());
                if arbiter_auth::layer::is_public_read(&path) {
                    listed += 1;
                } else {
                    guarded.push(path);
                }
            }
        }
    }
    let public: usize = arbiter_auth::layer::PUBLIC_READS
        .iter()
        .map(|(_, m)| m.len())
        .sum();
    assert_eq!(
        listed, public,
        "a public read is listed that the descriptor set does not have"
    );
    assert!(guarded.len() >= 16, "the commands: {guarded:?}");
    let mut grpc = tonic::client::Grpc::new(raw(url));
    for path in &guarded {
        grpc.ready().await.unwrap();
        let got = grpc
            .unary(
                tonic::Request::new(()),
                path.parse().unwrap(),
                tonic_prost::ProstCodec::<(), ()>::default(),
            )
            .await;
        refused(path, got, Code::Unauthenticated, &["needs a bearer token"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_are_authenticated_and_authorized_per_tournament() {
    let work = TempDir::new("arbiter-auth").unwrap();
    let data = work.path().join("data");
    let idp = KeySet {
        keys: vec![Jwk::generate().unwrap()],
    };
    // The OIDC issuer's key set, made here and published by a local HTTP server, as an
    // issuer's jwks_uri.
    let published = idp.public().to_json();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let jwks = format!("http://{}/jwks.json", listener.local_addr().unwrap());
    tokio::spawn(
        axum::serve(
            listener,
            axum::Router::new().route(
                "/jwks.json",
                axum::routing::get(move || async move { published }),
            ),
        )
        .into_future(),
    );
    let server = Server::start(
        &[
            "--data",
            data.to_str().unwrap(),
            "--oidc-jwks",
            &jwks,
            "--oidc-issuer",
            "https://idp.example",
            "--oidc-audience",
            "chess-platform",
        ],
        &work.path().join("serve.log"),
    );
    let url = server.grpc.clone();
    let keys = &auth().keys;

    every_method_needs_a_token(&url).await;

    let mut admin = with(&url, Some(&auth().admin));
    for t in ["t1", "t2"] {
        crate::support::retry("create", || {
            let mut reg = admin.reg.clone();
            async move {
                reg.create_tournament(reg::CreateTournamentRequest {
                    header: header(t, "create"),
                    tournament: Some(tournament(t)),
                })
                .await
            }
        })
        .await
        .expect("the admin creates");
    }
    for (i, name) in ["Alpha, A", "Beta, B", "Gamma, C", "Delta, D"]
        .iter()
        .enumerate()
    {
        admin
            .reg
            .register_player(reg::RegisterPlayerRequest {
                header: header("t1", &format!("p{i}")),
                confirm_same_name: false,
                player: wire_player(name, 2000 - i as u32 * 50),
            })
            .await
            .expect("the admin registers");
    }
    let t1 = events(&url, "t1").await;
    assert!(t1.iter().all(|(_, a)| a == SUBJECT), "{t1:?}");

    // `arbiter token issue` with the deployment's key set.
    let arbiter_t1 = crate::support::run(&[
        "token",
        "issue",
        "--token-keys",
        auth().path.to_str().unwrap(),
        "--role",
        "arbiter",
        "--tournament",
        "t1",
        "--subject",
        "Ana Arbiter",
        "--expires",
        "1h",
    ]);
    assert_eq!(arbiter_t1.code, 0, "{}", arbiter_t1.stderr);
    let arbiter_t1 = arbiter_t1.stdout.trim().to_string();
    let arbiter_t2 = issue(keys, "Bo Arbiter", Role::Arbiter, &["t2"], None, 3600);
    let player_1 = issue(keys, "Alpha", Role::Player, &["t1"], Some(1), 3600);
    let officer = issue(keys, "Fay", Role::FairPlayOfficer, &["*"], None, 3600);
    let expired = issue(keys, "Old", Role::Admin, &["*"], None, -3600);
    let foreign = issue(
        &KeySet {
            keys: vec![Jwk::generate().unwrap()],
        },
        "Mallory",
        Role::Admin,
        &["*"],
        None,
        3600,
    );
    // Signed by another key under the deployment's key id.
    let mut forger = KeySet {
        keys: vec![Jwk::generate().unwrap()],
    };
    forger.keys[0].kid = keys.keys[0].kid.clone();
    let forged = issue(&forger, "Mallory", Role::Admin, &["*"], None, 3600);

    let before = events(&url, "t1").await.len();
    let cases: Vec<(&str, Option<&str>, Code, Vec<&str>)> = vec![
        (
            "no token",
            None,
            Code::Unauthenticated,
            vec!["needs a bearer token"],
        ),
        (
            "expired",
            Some(&expired),
            Code::Unauthenticated,
            vec!["expired"],
        ),
        (
            "foreign key",
            Some(&foreign),
            Code::Unauthenticated,
            vec!["does not know"],
        ),
        (
            "wrong signature",
            Some(&forged),
            Code::Unauthenticated,
            vec!["signature"],
        ),
        (
            "garbage",
            Some("not-a-jwt"),
            Code::Unauthenticated,
            vec!["not a JWT"],
        ),
        (
            "player",
            Some(&player_1),
            Code::PermissionDenied,
            vec!["\"t1\"", "arbiter"],
        ),
        (
            "arbiter of t2",
            Some(&arbiter_t2),
            Code::PermissionDenied,
            vec!["\"t1\"", "arbiter", "t2"],
        ),
        (
            "fair-play officer",
            Some(&officer),
            Code::PermissionDenied,
            vec!["fair-play officer"],
        ),
    ];
    for (who, token, code, words) in &cases {
        let mut c = with(&url, *token);
        let got = c.rd.start_round(start("t1", &format!("start-{who}"))).await;
        refused(&format!("StartRound by {who}"), got, *code, words);
    }
    let mut player = with(&url, Some(&player_1));
    refused(
        "a player's bye for another entry",
        player.reg.request_bye(bye("t1", "bye-2", 2)).await,
        Code::PermissionDenied,
        &["entry 2"],
    );
    refused(
        "a player records a result",
        player
            .rd
            .record_result(rd::RecordResultRequest {
                header: header("t1", "result"),
                round: 1,
                board: 1,
                ..Default::default()
            })
            .await,
        Code::PermissionDenied,
        &["record"],
    );
    refused(
        "a player registers",
        player
            .reg
            .register_player(reg::RegisterPlayerRequest {
                header: header("t1", "self"),
                confirm_same_name: false,
                player: wire_player("Self, S", 1500),
            })
            .await,
        Code::PermissionDenied,
        &["self registration"],
    );
    refused(
        "an arbiter creates a tournament",
        with(&url, Some(&arbiter_t1))
            .reg
            .create_tournament(reg::CreateTournamentRequest {
                header: header("t3", "create"),
                tournament: Some(tournament("t3")),
            })
            .await,
        Code::PermissionDenied,
        &["admin"],
    );
    assert_eq!(
        events(&url, "t1").await.len(),
        before,
        "refusals append nothing"
    );
    assert!(
        events(&url, "t2").await.len() == 1,
        "t2 has only its creation"
    );

    // What each may do is recorded under its subject, whatever the header claims.
    let own = player
        .reg
        .request_bye(bye("t1", "bye-1", 1))
        .await
        .expect("a player's own bye")
        .into_inner();
    let mut arbiter = with(&url, Some(&arbiter_t1));
    let upd = arbiter
        .reg
        .update_tournament(reg::UpdateTournamentRequest {
            header: header("t1", "rename"),
            update: Some(arbiter_proto::registration::v1::TournamentChanges {
                name: Some("t1 renamed".into()),
                ..Default::default()
            }),
        })
        .await
        .expect("the arbiter of t1 updates t1")
        .into_inner();
    // The OIDC issuer's arbiter of t1 (tournaments as a space-separated string).
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // As a platform's issuer writes them: tournaments as one space-separated string.
    let oidc_claims = |aud: &str| {
        serde_json::json!({
            "sub": "idp|carla",
            "role": "arbiter",
            "tournaments": "t0 t1",
            "iss": "https://idp.example",
            "aud": aud,
            "exp": now + 600,
            "iat": now,
        })
    };
    let oidc = idp.issue(&oidc_claims("chess-platform"), None).unwrap();
    let mut c = with(&url, Some(&oidc));
    let by_oidc = c
        .reg
        .withdraw_player(reg::WithdrawPlayerRequest {
            header: header("t1", "withdraw-4"),
            entry: 4,
            reason: "left".into(),
            ..Default::default()
        })
        .await
        .expect("the OIDC issuer's arbiter withdraws a player")
        .into_inner();
    let wrong_aud = idp.issue(&oidc_claims(AUDIENCE), None).unwrap();
    refused(
        "an OIDC token for another audience",
        with(&url, Some(&wrong_aud))
            .rd
            .start_round(start("t1", "s-aud"))
            .await,
        Code::Unauthenticated,
        &["audience"],
    );
    let all = events(&url, "t1").await;
    let actor = |v: u64| all.iter().find(|(n, _)| *n == v).map(|(_, a)| a.as_str());
    assert_eq!(actor(own.first_version), Some("Alpha"));
    assert_eq!(actor(upd.first_version), Some("Ana Arbiter"));
    assert_eq!(actor(by_oidc.first_version), Some("idp|carla"));
    assert_eq!(all.len(), before + 3, "{all:?}");

    // Reads stay public.
    let mut rd_public = RoundDirectorClient::new(raw(&url));
    let st = rd_public
        .get_tournament(rd::GetTournamentRequest {
            tournament: tref("t1"),
        })
        .await
        .expect("a public read")
        .into_inner();
    assert_eq!(st.name, "t1 renamed");
}

#[test]
fn the_first_start_writes_an_admin_token_that_the_cli_uses() {
    let work = TempDir::new("arbiter-auth-default").unwrap();
    let data = work.path().join("data");
    let mut child = Command::new(crate::support::bin())
        .args([
            "serve",
            "--data",
            data.to_str().unwrap(),
            "--grpc-port",
            "0",
            "--http-port",
            "0",
        ])
        .env_remove("ARBITER_TOKEN_KEYS")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("grpc="))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let run = |args: &[&str], token_env: bool| {
        let mut c = Command::new(crate::support::bin());
        c.args(args)
            .env_remove("ARBITER_TOKEN")
            .env_remove("ARBITER_TOKEN_KEYS");
        if token_env {
            c.env("ARBITER_TOKEN", "not-a-jwt");
        }
        c.output().unwrap()
    };
    let d = data.to_str().unwrap();
    let demo = run(
        &[
            "demo",
            "--server",
            &url,
            "--data",
            d,
            "--players",
            "4",
            "--rounds",
            "1",
        ],
        false,
    );
    let elsewhere = work.path().join("elsewhere");
    let no_token = run(
        &[
            "demo",
            "--server",
            &url,
            "--data",
            elsewhere.to_str().unwrap(),
        ],
        false,
    );
    let bad_env = run(&["demo", "--server", &url, "--data", d], true);
    let _ = child.kill();
    let mut err = String::new();
    let _ = std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err);
    let _ = child.wait();
    assert!(
        demo.status.success(),
        "{}",
        String::from_utf8_lossy(&demo.stderr)
    );
    #[cfg(unix)]
    for f in ["admin.token", "token-keys.json"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(data.join(f))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{f}");
        assert!(err.contains(f), "the server says where {f} is: {err}");
    }
    assert_eq!(no_token.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_token.stderr).contains("Unauthenticated"));
    // ARBITER_TOKEN comes before the data folder's token.
    assert_eq!(bad_env.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_env.stderr).contains("not a JWT"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_reads_need_a_token_too() {
    let work = TempDir::new("arbiter-auth-private").unwrap();
    let data = work.path().join("data");
    // An OIDC issuer's JWKS given as a file.
    let idp = KeySet {
        keys: vec![Jwk::generate().unwrap()],
    };
    let jwks = work.path().join("jwks.json");
    std::fs::write(&jwks, idp.public().to_json()).unwrap();
    let server = Server::start(
        &[
            "--data",
            data.to_str().unwrap(),
            "--private-reads",
            "--oidc-jwks",
            jwks.to_str().unwrap(),
            "--oidc-issuer",
            "https://idp.example",
            "--oidc-audience",
            "chess-platform",
        ],
        &work.path().join("serve.log"),
    );
    let list = |token: Option<&str>| {
        let mut c = with(&server.grpc, token).reg;
        async move {
            c.list_tournaments(reg::ListTournamentsRequest::default())
                .await
        }
    };
    refused(
        "a read without a token",
        crate::support::retry("list", || list(None)).await,
        Code::Unauthenticated,
        &["needs a bearer token"],
    );
    let player = issue(&auth().keys, "Alpha", Role::Player, &["t1"], Some(1), 600);
    list(Some(&player)).await.expect("any role reads");
    list(Some(&auth().admin)).await.expect("the admin reads");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let officer = idp
        .issue(
            &serde_json::json!({
                "sub": "idp|fay", "role": "fair-play-officer", "tournaments": ["*"],
                "iss": "https://idp.example", "aud": "chess-platform",
                "exp": now + 600, "iat": now,
            }),
            None,
        )
        .unwrap();
    list(Some(&officer))
        .await
        .expect("the OIDC issuer's officer reads");
}

#[test]
fn token_issue_refuses_flags_that_make_no_sense() {
    let keys = auth().path.to_str().unwrap().to_string();
    let issue = |extra: &[&str]| {
        let mut args = vec!["token", "issue", "--token-keys", &keys, "--expires", "1h"];
        args.extend_from_slice(extra);
        crate::support::run(&args)
    };
    for (args, says) in [
        (
            &["--role", "player", "--tournament", "t1", "--entry", "0"][..],
            "--entry: entry numbers start at 1",
        ),
        (
            &["--role", "arbiter", "--tournament", "../x"][..],
            "--tournament: tournament_id \"../x\"",
        ),
        (
            &["--role", "admin", "--tournament", "t1"][..],
            "--tournament: an admin token covers every tournament",
        ),
        (
            &["--role", "arbiter", "--tournament", "t1", "--subject", " "][..],
            "--subject: empty",
        ),
    ] {
        let r = issue(args);
        assert_eq!(r.code, 3, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(r.stdout.trim().is_empty(), "{args:?}: no token printed");
    }
    // The roles offered are the server's, all eleven.
    let r = issue(&["--role", "root", "--tournament", "t1"]);
    assert_ne!(r.code, 0);
    for role in Role::TOKEN_ROLES {
        assert!(r.stderr.contains(role.as_str()), "{role}: {}", r.stderr);
    }
    let ok = issue(&["--role", "player", "--tournament", "t1", "--entry", "1"]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
}

//! The console's sign-in through an OpenID Connect issuer (authorization code with PKCE), in a
//! real browser against `arbiter serve`. The issuer is a small one of the test's own on
//! loopback: discovery document, an authorization endpoint that signs the user in at once, a
//! token endpoint that checks the code (single use), the client, the redirect address and the
//! PKCE verifier, and ID tokens signed with its own key (its JWKS given to the server with
//! --oidc-jwks). The signed-in subject is the actor of what he does; a callback replayed, one
//! finished in another browser, and an ID token with another nonce are refused with the reason.

use crate::console::{fill, flash, submit, wait_for};
use crate::support::browser::{Driver, browser, text, tool};
use crate::support::*;
use arbiter_auth::keys::KeySet;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use axum::extract::{Form, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use base64::Engine as _;
use sha2::Digest as _;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

const TID: &str = "oidc-open";
const CLIENT: &str = "arbiter-console";
const SUBJECT: &str = "Arbiter, Federation";

/// The test's issuer.
struct Issuer {
    url: String,
    keys: KeySet,
    /// Code → (nonce, PKCE challenge, redirect address).
    codes: Mutex<HashMap<String, (String, String, String)>>,
    /// Signs its next ID tokens with another nonce than the one asked for.
    wrong_nonce: Mutex<bool>,
    /// The last address it sent a browser back to.
    last_redirect: Mutex<String>,
}

type Idp = State<Arc<Issuer>>;

async fn discovery(State(i): Idp) -> Response {
    axum::Json(serde_json::json!({
        "issuer": i.url,
        "authorization_endpoint": format!("{}/authorize", i.url),
        "token_endpoint": format!("{}/token", i.url),
        "jwks_uri": format!("{}/jwks", i.url),
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
    }))
    .into_response()
}

/// Signs the user in at once and sends the browser back with a code.
async fn authorize(State(i): Idp, Query(q): Query<HashMap<String, String>>) -> Response {
    let get = |k: &str| q.get(k).cloned().unwrap_or_default();
    assert_eq!(get("response_type"), "code");
    assert_eq!(get("client_id"), CLIENT);
    assert_eq!(get("code_challenge_method"), "S256");
    assert!(get("scope").split(' ').any(|s| s == "openid"));
    let code = format!("code-{}", i.codes.lock().unwrap().len() + 1);
    i.codes.lock().unwrap().insert(
        code.clone(),
        (get("nonce"), get("code_challenge"), get("redirect_uri")),
    );
    let back = format!(
        "{}?{}",
        get("redirect_uri"),
        serde_urlencoded::to_string([("code", code.as_str()), ("state", get("state").as_str())])
            .unwrap()
    );
    *i.last_redirect.lock().unwrap() = back.clone();
    Redirect::to(&back).into_response()
}

fn token_error(what: &str) -> Response {
    (
        axum::http::StatusCode::BAD_REQUEST,
        axum::Json(serde_json::json!({ "error": "invalid_grant", "error_description": what })),
    )
        .into_response()
}

async fn token(State(i): Idp, Form(f): Form<HashMap<String, String>>) -> Response {
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    if get("grant_type") != "authorization_code" || get("client_id") != CLIENT {
        return token_error("not this client's code grant");
    }
    let Some((nonce, challenge, redirect)) = i.codes.lock().unwrap().remove(&get("code")) else {
        return token_error("unknown or used code");
    };
    let verifier = get("code_verifier");
    let computed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(sha2::Sha256::digest(verifier.as_bytes()));
    if computed != challenge {
        return token_error("the PKCE verifier does not match the challenge");
    }
    if redirect != get("redirect_uri") {
        return token_error("another redirect address");
    }
    let nonce = if *i.wrong_nonce.lock().unwrap() {
        "another-nonce".to_string()
    } else {
        nonce
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let id_token = i
        .keys
        .issue(
            &serde_json::json!({
                "iss": i.url, "aud": CLIENT, "sub": SUBJECT, "exp": now + 300, "iat": now,
                "nonce": nonce, "role": "arbiter", "tournaments": [TID],
            }),
            None,
        )
        .unwrap();
    axum::Json(serde_json::json!({ "access_token": "opaque", "token_type": "Bearer", "id_token": id_token }))
        .into_response()
}

/// A plain HTTP/1.1 GET with headers: (status, response headers, body).
fn get_raw(url: &str, headers: &[String]) -> (u16, Vec<(String, String)>, String) {
    use std::io::{Read, Write};
    let rest = url.trim_start_matches("http://");
    let (addr, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .ok();
    let mut head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for h in headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    write!(s, "{head}\r\n").unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

fn header_value<'a>(h: &'a [(String, String)], name: &str) -> &'a str {
    h.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_default()
}

/// A sign-in started over plain HTTP and taken through the issuer: the callback address
/// and the state cookie the console set.
fn started(base: &str) -> (String, String) {
    let (status, h, _) = get_raw(&format!("{base}/console/oidc/start"), &[]);
    assert_eq!(status, 303);
    let cookie = header_value(&h, "set-cookie")
        .split(';')
        .next()
        .unwrap()
        .to_string();
    assert!(cookie.starts_with("arbiter_oidc="), "{cookie}");
    let (status, h, _) = get_raw(header_value(&h, "location"), &[]);
    assert_eq!(status, 303);
    (header_value(&h, "location").to_string(), cookie)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_through_an_openid_connect_issuer() {
    let chromium = tool("CHROMIUM", "chromium");
    let chromedriver = tool("CHROMEDRIVER", "chromedriver");
    let work = TempDir::new("arbiter-console-oidc").unwrap();

    // The issuer, on loopback.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let mut keys = KeySet::default();
    keys.add_generated().unwrap();
    let jwks = work.path().join("issuer-jwks.json");
    std::fs::write(&jwks, keys.public().to_json()).unwrap();
    let issuer = Arc::new(Issuer {
        url: url.clone(),
        keys,
        codes: Mutex::default(),
        wrong_nonce: Mutex::new(false),
        last_redirect: Mutex::default(),
    });
    let app = axum::Router::new()
        .route(
            "/.well-known/openid-configuration",
            axum::routing::get(discovery),
        )
        .route("/authorize", axum::routing::get(authorize))
        .route("/token", axum::routing::post(token))
        .with_state(issuer.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    // The server reads the issuer's discovery document at start; the issuer sends browsers
    // back to the console's own address, so the test chooses its HTTP port.
    let data = work.path().join("data");
    let mut tries = 0;
    let server = loop {
        let port = arbiter_eventlog::testing::free_port().unwrap();
        let console_url = format!("http://127.0.0.1:{port}");
        match Server::try_start_with_http_port(
            &[
                "--data",
                data.to_str().unwrap(),
                "--oidc-jwks",
                jwks.to_str().unwrap(),
                "--oidc-issuer",
                &url,
                "--oidc-audience",
                "arbiter-api",
                "--console-oidc-client-id",
                CLIENT,
                "--console-url",
                &console_url,
            ],
            &work.path().join("serve.log"),
            port,
        ) {
            Ok(s) => break s,
            Err(e) => {
                tries += 1;
                assert!(tries < 5, "{e}");
            }
        }
    };
    let base = server.http.clone().expect("http address");
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    c.reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header(TID, "create"),
            tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                name: "OIDC Open".into(),
                start_date: Some(pb::Date {
                    year: 2026,
                    month: 12,
                    day: 5,
                }),
                chief_arbiter: Some(pb::Arbiter {
                    name: "Arbiter, Chief".into(),
                    fide_id: None,
                    title: "IA".into(),
                }),
                rounds: 5,
                ..Default::default()
            }),
        })
        .await
        .expect("create");

    // In the browser: the sign-in page offers the issuer; through it, the console.
    let driver = Driver::start(&chromedriver, &work.path().join("chromedriver.log"));
    let profile = work.path().join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let b = browser(&driver, &chromium, &profile).await;
    b.goto(&format!("{base}/console/")).await.unwrap();
    wait_for(&b, "h1", "Sign in").await;
    submit(&b, "sign-in-oidc").await;
    wait_for(&b, "h1", "Tournaments").await;
    assert!(text(&b, "header").await.contains(SUBJECT));
    b.goto(&format!("{base}/console/t/{TID}/players"))
        .await
        .unwrap();
    wait_for(&b, "h1", "Players").await;
    fill(&b, "p-name", "Signed, In").await;
    fill(&b, "p-rating", "1800").await;
    submit(&b, "add-player").await;
    assert_eq!(flash(&b).await, "", "register");

    // The same callback again (with the state cookie it had): the sign-in is spent.
    let replayed = issuer.last_redirect.lock().unwrap().clone();
    let state = replayed.split("state=").nth(1).unwrap().to_string();
    let (status, _, body) = get_raw(&replayed, &[format!("Cookie: arbiter_oidc={state}")]);
    assert_eq!(status, 401);
    assert!(body.contains("used already"), "{body}");
    // Finished in another browser (no state cookie): refused, and the sign-in is not spent
    // by it.
    let (callback, cookie) = started(&base);
    let (status, _, body) = get_raw(&callback, &[]);
    assert_eq!(status, 401);
    assert!(body.contains("not started in this browser"), "{body}");
    let (status, h, _) = get_raw(&callback, &[format!("Cookie: {cookie}")]);
    assert_eq!(status, 303, "the rightful browser still finishes it");
    assert!(header_value(&h, "set-cookie").starts_with("arbiter_console="));
    // An ID token with another nonce: refused with the reason.
    *issuer.wrong_nonce.lock().unwrap() = true;
    let (callback, cookie) = started(&base);
    let (status, _, body) = get_raw(&callback, &[format!("Cookie: {cookie}")]);
    assert_eq!(status, 401);
    assert!(body.contains("nonce"), "{body}");

    // The registration's actor is the issuer's subject.
    let actors: Vec<String> = kinds_by_actor(&mut c, TID)
        .await
        .into_iter()
        .filter(|(_, k)| matches!(k, pb::event::Kind::PlayerRegistered(_)))
        .map(|(actor, _)| actor)
        .collect();
    assert_eq!(actors, [SUBJECT]);
}

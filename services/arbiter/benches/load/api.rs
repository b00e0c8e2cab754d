//! `--api [--calls N]`: the same reads over each transport the API offers, against one `arbiter
//! serve`: native gRPC (tonic, one HTTP/2 connection), gRPC-Web (HTTP/1.1 to the gRPC port,
//! a kept-alive connection) and JSON (`POST /api/v1/...` on the HTTP port, a kept-alive
//! connection, which the server answers by one gRPC call to its own port). One event of
//! `--players` players and `--rounds` rounds is played first; then `GetStandings` and the last
//! round's `GetPairings` are read N times (default 500) over each, one call at a time, and the
//! three answers are checked to be the same message. Prints p50/p99/max per read and transport,
//! the answer's size, and each transport's p50 as a ratio to gRPC's.

use crate::load::*;
use arbiter_proto::common::v1::TournamentRef;
use arbiter_proto::reporting::v1 as rep;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use prost::Message;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

type Http = Client<HttpConnector, Full<Bytes>>;

async fn post(http: &Http, url: &str, content_type: &str, body: Vec<u8>) -> (u16, Bytes) {
    let req = hyper::Request::post(url)
        .header("content-type", content_type)
        .header("x-grpc-web", "1")
        .body(Full::new(Bytes::from(body)))
        .expect("a request");
    let res = http.request(req).await.expect("an answer");
    let status = res.status().as_u16();
    let bytes = res
        .into_body()
        .collect()
        .await
        .expect("the body")
        .to_bytes();
    (status, bytes)
}

/// The first data frame of a gRPC-Web answer (flag 0, 4-byte length, message).
fn grpc_web_message(body: &[u8]) -> &[u8] {
    assert!(body.len() >= 5 && body[0] == 0, "no data frame: {body:?}");
    let n = u32::from_be_bytes([body[1], body[2], body[3], body[4]]) as usize;
    &body[5..5 + n]
}

/// `calls` POSTs of `body` to `url`, one at a time: their times, and the first answer's status
/// and body (the one the transports are compared on).
async fn timed_posts(
    http: &Http,
    url: &str,
    content_type: &str,
    body: Vec<u8>,
    calls: u32,
) -> (Vec<Duration>, u16, Bytes) {
    let mut times = Vec::new();
    let mut first = None;
    for _ in 0..calls {
        let t = Instant::now();
        let answer = post(http, url, content_type, body.clone()).await;
        times.push(t.elapsed());
        first.get_or_insert(answer);
    }
    let (status, bytes) = first.unwrap_or_default();
    (times, status, bytes)
}

fn frame(message: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8];
    out.extend_from_slice(&(message.len() as u32).to_be_bytes());
    out.extend_from_slice(message);
    out
}

fn at(sorted: &[Duration], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3
}

struct Row {
    read: &'static str,
    transport: &'static str,
    times: Vec<Duration>,
    bytes: usize,
}

pub async fn run(bin: &Path, work: &Path, cfg: &LoadConfig, calls: u32) -> bool {
    let server = ServerProc::start(bin, &work.join("data"), &work.join("serve.log"));
    let event = LoadConfig {
        events: 1,
        concurrency: 1,
        ..cfg.clone()
    };
    let stats = Arc::new(Stats::default());
    let played = play(&Urls::one(&server.url), &event, stats.clone()).await;
    if stats.error_count() > 0 {
        println!("the event failed: {:?}", stats.errors());
        return false;
    }
    let tid = event.tournament_id(0);
    println!(
        "one event of {} players x {} rounds played in {:.1} s; {calls} calls per read and transport",
        event.players,
        event.rounds,
        played.as_secs_f64()
    );
    let tref = Some(TournamentRef {
        tournament_id: tid.clone(),
        as_of_version: 0,
    });
    let standings = rep::GetStandingsRequest {
        tournament: tref.clone(),
        after_round: 0,
    };
    let pairings = rep::GetPairingsRequest {
        tournament: tref,
        round: event.rounds,
    };
    let mut grpc = rep::reporting_client::ReportingClient::connect(server.url.clone())
        .await
        .expect("the gRPC port");
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    let grpc_base = format!("http://127.0.0.1:{}", server.grpc_port);
    let json_base = format!("http://127.0.0.1:{}/api/v1", server.http_port);
    let json_body = |round: Option<u32>| {
        let mut v = serde_json::json!({"tournament": {"tournamentId": tid}});
        if let Some(r) = round {
            v["round"] = r.into();
        }
        v.to_string().into_bytes()
    };
    let mut rows = Vec::new();
    let mut ok = true;
    for read in ["GetStandings", "GetPairings"] {
        let path = format!("/arbiter.reporting.v1.Reporting/{read}");
        let (request, json) = match read {
            "GetStandings" => (standings.encode_to_vec(), json_body(None)),
            _ => (pairings.encode_to_vec(), json_body(Some(event.rounds))),
        };
        let (mut times, mut reference) = (Vec::new(), Vec::new());
        for _ in 0..calls {
            let t = Instant::now();
            reference = match read {
                "GetStandings" => grpc
                    .get_standings(standings.clone())
                    .await
                    .expect("GetStandings")
                    .into_inner()
                    .encode_to_vec(),
                _ => grpc
                    .get_pairings(pairings.clone())
                    .await
                    .expect("GetPairings")
                    .into_inner()
                    .encode_to_vec(),
            };
            times.push(t.elapsed());
        }
        rows.push(Row {
            read,
            transport: "gRPC",
            times,
            bytes: reference.len(),
        });

        let url = format!("{grpc_base}{path}");
        let (times, status, body) = timed_posts(
            &http,
            &url,
            "application/grpc-web+proto",
            frame(&request),
            calls,
        )
        .await;
        if status != 200 || grpc_web_message(&body) != reference.as_slice() {
            println!("{read} over gRPC-Web is not gRPC's answer (HTTP {status})");
            ok = false;
        }
        rows.push(Row {
            read,
            transport: "gRPC-Web",
            times,
            bytes: body.len(),
        });

        let url = format!("{json_base}{path}");
        let (times, status, body) =
            timed_posts(&http, &url, "application/json", json.clone(), calls).await;
        // The same answer: its version and as many rows (or boards).
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let key = if read == "GetStandings" {
            "rows"
        } else {
            "boards"
        };
        let listed = v[key].as_array().map_or(0, Vec::len);
        let expected = match read {
            "GetStandings" => {
                rep::Standings::decode(reference.as_slice()).map(|s| (s.version, s.rows.len()))
            }
            _ => rep::RoundPairings::decode(reference.as_slice())
                .map(|p| (p.version, p.boards.len())),
        }
        .expect("gRPC's answer");
        let version = v["version"].as_str().and_then(|s| s.parse().ok());
        if status != 200 || (version, listed) != (Some(expected.0), expected.1) {
            println!("{read} over JSON is not gRPC's answer (HTTP {status})");
            ok = false;
        }
        let bytes = body.len();
        rows.push(Row {
            read,
            transport: "JSON",
            times,
            bytes,
        });
    }
    println!("read           transport      p50 ms   p99 ms   max ms   answer B   p50 / gRPC");
    for read in ["GetStandings", "GetPairings"] {
        let base = rows
            .iter()
            .find(|r| r.read == read && r.transport == "gRPC")
            .map(|r| {
                let mut t = r.times.clone();
                t.sort();
                at(&t, 0.5)
            })
            .unwrap_or(1.0);
        for r in rows.iter().filter(|r| r.read == read) {
            let mut t = r.times.clone();
            t.sort();
            println!(
                "{:<14} {:<12} {:>8.2} {:>8.2} {:>8.2} {:>10} {:>11.2}",
                r.read,
                r.transport,
                at(&t, 0.5),
                at(&t, 0.99),
                at(&t, 1.0),
                r.bytes,
                at(&t, 0.5) / base
            );
        }
    }
    ok
}

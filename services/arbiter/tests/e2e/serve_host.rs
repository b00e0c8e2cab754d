//! What the service host gives `arbiter serve`, over real gRPC: server reflection lists every
//! service of the process and serves their descriptors; the standard health service answers
//! SERVING while running and turns NOT_SERVING as soon as SIGTERM arrives, while calls are
//! still open, and the process then exits 0 within the shutdown budget; both ports listen on
//! the `--listen` address.

use crate::support::*;
use arbiter_proto::common::v1::TournamentRef;
use arbiter_proto::round_director::v1 as rd;
use futures::StreamExt;
use prost::Message;
use std::collections::BTreeSet;
use std::time::Duration;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

/// The full names of arbiter's six services, as their generated servers name them.
fn arbiter_services() -> [&'static str; 6] {
    [
        arbiter_proto::registration::v1::registration_server::SERVICE_NAME,
        arbiter_proto::round_director::v1::round_director_server::SERVICE_NAME,
        arbiter_proto::pairing_worker::v1::pairing_worker_server::SERVICE_NAME,
        arbiter_proto::reporting::v1::reporting_server::SERVICE_NAME,
        arbiter_proto::rating_worker::v1::rating_worker_server::SERVICE_NAME,
        arbiter_proto::screening::v1::screening_server::SERVICE_NAME,
    ]
}

async fn channel(url: &str) -> Channel {
    arbiter_service_kit::net::endpoint(url)
        .expect("url")
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .unwrap_or_else(|e| panic!("connect to {url}: {e}"))
}

/// One reflection request on a v1 `ServerReflectionInfo` stream, and its answer.
async fn reflect(
    client: &mut ServerReflectionClient<Channel>,
    ask: MessageRequest,
) -> MessageResponse {
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(ask.clone()),
    };
    let mut answers = client
        .server_reflection_info(futures::stream::iter([request]))
        .await
        .unwrap_or_else(|s| panic!("ServerReflectionInfo {ask:?}: {s}"))
        .into_inner();
    let answer = answers
        .message()
        .await
        .unwrap_or_else(|s| panic!("ServerReflectionInfo {ask:?}: {s}"))
        .unwrap_or_else(|| panic!("ServerReflectionInfo {ask:?}: no answer"));
    answer
        .message_response
        .unwrap_or_else(|| panic!("ServerReflectionInfo {ask:?}: an empty answer"))
}

async fn check(client: &mut HealthClient<Channel>, service: &str) -> ServingStatus {
    let r = client
        .check(HealthCheckRequest {
            service: service.to_string(),
        })
        .await
        .unwrap_or_else(|s| panic!("health Check({service:?}): {s}"));
    r.into_inner().status()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reflection_lists_every_service_and_serves_their_descriptors() {
    let work = TempDir::new("arbiter-reflection").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut client = ServerReflectionClient::new(channel(&server.grpc).await);

    let listed: BTreeSet<String> =
        match reflect(&mut client, MessageRequest::ListServices(String::new())).await {
            MessageResponse::ListServicesResponse(l) => {
                l.service.into_iter().map(|s| s.name).collect()
            }
            other => panic!("ListServices answered {other:?}"),
        };
    let health = tonic_health::pb::health_server::SERVICE_NAME;
    for name in arbiter_services().into_iter().chain([health]) {
        assert!(
            listed.contains(name),
            "{name} not listed by reflection: {listed:?}"
        );
    }

    // A client (grpcurl, a gateway) then asks for the file declaring a service.
    for name in arbiter_services().into_iter().chain([health]) {
        let files = match reflect(
            &mut client,
            MessageRequest::FileContainingSymbol(name.into()),
        )
        .await
        {
            MessageResponse::FileDescriptorResponse(f) => f.file_descriptor_proto,
            other => panic!("FileContainingSymbol({name}) answered {other:?}"),
        };
        let declared: Vec<String> = files
            .iter()
            .map(|raw| {
                prost_types::FileDescriptorProto::decode(raw.as_slice()).expect("a file descriptor")
            })
            .flat_map(|f| {
                let package = f.package().to_string();
                f.service
                    .into_iter()
                    .map(move |s| format!("{package}.{}", s.name()))
            })
            .collect();
        assert!(
            declared.iter().any(|d| d == name),
            "the descriptor for {name} declares {declared:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_turns_not_serving_on_sigterm_before_open_calls_drain() {
    let work = TempDir::new("arbiter-health").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let ch = channel(&server.grpc).await;
    let mut health = HealthClient::new(ch.clone());
    assert_eq!(check(&mut health, "").await, ServingStatus::Serving);
    for name in arbiter_services() {
        assert_eq!(
            check(&mut health, name).await,
            ServingStatus::Serving,
            "{name}"
        );
    }
    let unknown = health
        .check(HealthCheckRequest {
            service: "arbiter.nothing.v1.Nothing".into(),
        })
        .await
        .expect_err("a service the process does not serve");
    assert_eq!(unknown.code(), tonic::Code::NotFound, "{unknown:?}");

    // Open calls: a tournament watch (a stream that only ends with the server) and a health
    // watch, each past its first message.
    let mut driver = Driver::new(
        Clients::new(&Endpoints::one(&server.grpc)),
        "draining",
        Plan::swiss_40x9(),
        work.path(),
    );
    driver.create().await;
    let mut tournament = rd::round_director_client::RoundDirectorClient::new(ch.clone())
        .watch_tournament(rd::GetTournamentRequest {
            tournament: Some(TournamentRef {
                tournament_id: "draining".into(),
                as_of_version: 0,
            }),
        })
        .await
        .expect("WatchTournament")
        .into_inner();
    let first = tournament
        .next()
        .await
        .expect("a first state")
        .expect("a state");
    assert_eq!(first.tournament_id, "draining");
    let mut watch = health
        .watch(HealthCheckRequest {
            service: String::new(),
        })
        .await
        .expect("health Watch")
        .into_inner();
    let now = watch
        .next()
        .await
        .expect("a first status")
        .expect("a status");
    assert_eq!(now.status(), ServingStatus::Serving);

    let mut server = server;
    let stopping = tokio::task::spawn_blocking(move || {
        let (status, took) = server.terminate();
        (server, status, took)
    });
    let next = tokio::time::timeout(Duration::from_secs(5), watch.next())
        .await
        .expect("a status change within 5 s of SIGTERM")
        .expect("the watch still open")
        .expect("a status");
    assert_eq!(next.status(), ServingStatus::NotServing);
    let (server, status, took) = stopping.await.unwrap();
    eprintln!("exit {status:?} {took:?} after SIGTERM");
    assert!(
        status.success(),
        "exit status {status:?}:\n{}",
        server.log()
    );
    assert!(
        took < Duration::from_secs(5),
        "stopped {took:?} after SIGTERM:\n{}",
        server.log()
    );
    // The open tournament watch was held until the drain ended, then closed.
    let rest = tokio::time::timeout(Duration::from_secs(5), tournament.next())
        .await
        .expect("the tournament watch ends with the process");
    assert!(
        !matches!(rest, Some(Ok(_))),
        "a tournament state after the stop: {rest:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_ports_listen_on_the_listen_address() {
    let work = TempDir::new("arbiter-listen").unwrap();
    let data = work.path().join("data");
    // Another loopback address than the default 127.0.0.1 (all of 127/8 is loopback).
    let server = Server::start(
        &["--data", data.to_str().unwrap(), "--listen", "127.0.0.2"],
        &work.path().join("serve.log"),
    );
    assert!(
        server.grpc.starts_with("http://127.0.0.2:"),
        "gRPC on {}",
        server.grpc
    );
    let http = server.http.clone().expect("an HTTP port");
    assert!(http.starts_with("http://127.0.0.2:"), "HTTP on {http}");
    let mut health = HealthClient::new(channel(&server.grpc).await);
    assert_eq!(check(&mut health, "").await, ServingStatus::Serving);
    let (code, body) = http_get(&http, "/healthz");
    assert_eq!((code, body.as_str()), (200, "ok"));

    let bad = run(&[
        "serve",
        "--data",
        data.to_str().unwrap(),
        "--listen",
        "localhost:7070",
    ]);
    assert_eq!(bad.code, 3, "{}", bad.stderr);
    assert!(bad.stderr.contains("--listen"), "{}", bad.stderr);
}

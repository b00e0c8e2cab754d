//! The service host over real gRPC on loopback and a real sled log: the layers given to
//! `Host::layer` see every call of a registered service (the last layer given first) and no
//! health or reflection call; health reports the registered service; a shutdown stops the
//! followers and ends `run`; a port that cannot be bound is named in the error.

use arbiter_eventlog::{EventLog, SledLog};
use arbiter_proto::rating_worker::v1 as api;
use arbiter_proto::rating_worker::v1::rating_worker_client::RatingWorkerClient;
use arbiter_proto::rating_worker::v1::rating_worker_server::{
    RatingWorker, RatingWorkerServer, SERVICE_NAME as SERVICE,
};
use arbiter_service_kit::Host;
use arbiter_service_kit::store::{Feed, TournamentStore};
use axum::extract::Request;
use axum::middleware::{Next, from_fn};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;
use tonic::{Code, Response, Status};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// A service that knows no tournament: what is under test is the host around it.
struct NoTournaments;

#[tonic::async_trait]
impl RatingWorker for NoTournaments {
    async fn get_player_rating(
        &self,
        _: tonic::Request<api::GetPlayerRatingRequest>,
    ) -> Result<Response<api::PlayerRating>, Status> {
        Err(Status::not_found("no such tournament"))
    }
    async fn get_event_ratings(
        &self,
        _: tonic::Request<api::GetEventRatingsRequest>,
    ) -> Result<Response<api::EventRatings>, Status> {
        Err(Status::not_found("no such tournament"))
    }
    async fn get_norms(
        &self,
        _: tonic::Request<api::GetNormsRequest>,
    ) -> Result<Response<api::Norms>, Status> {
        Err(Status::not_found("no such tournament"))
    }
}

fn host() -> Host {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().expect("sled"));
    let store = Arc::new(TournamentStore::new(log.clone(), "test", None));
    Host::new(store, Feed::Subscription(log), None)
}

fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

/// A layer that notes `tag` and the path of every call it sees in `seen`.
macro_rules! noting {
    ($tag:expr, $seen:expr) => {{
        let seen = $seen.clone();
        from_fn(move |req: Request, next: Next| {
            let seen = seen.clone();
            async move {
                let call = format!("{} {}", $tag, req.uri().path());
                seen.lock().unwrap().push(call);
                next.run(req).await
            }
        })
    }};
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn layers_wrap_the_registered_services_and_shutdown_stops_followers() {
    let mut host = host();
    let seen = Arc::new(Mutex::new(Vec::new()));
    host.grpc(RatingWorkerServer::new(NoTournaments));
    host.layer(noting!("inner", seen));
    host.layer(noting!("outer", seen));
    let (stopped_tx, stopped_rx) = oneshot::channel();
    let mut stopping = host.stopping();
    host.follower("test-follower", async move {
        let _ = stopping.wait_for(|s| *s).await;
        let _ = stopped_tx.send(());
        Ok::<(), String>(())
    });
    assert_eq!(
        host.services(),
        [SERVICE],
        "the registered service's full name"
    );

    let bound = host.bind(loopback(), loopback()).await.expect("bind");
    assert_eq!(bound.http_addr(), None, "no router given, no HTTP port");
    let url = format!("http://{}", bound.grpc_addr());
    let (stop, stop_rx) = oneshot::channel::<()>();
    let running = tokio::spawn(bound.run(async move {
        let _ = stop_rx.await;
    }));

    let channel = arbiter_service_kit::net::endpoint(&url)
        .unwrap()
        .connect()
        .await
        .expect("connect");
    let refused = RatingWorkerClient::new(channel.clone())
        .get_norms(api::GetNormsRequest::default())
        .await
        .expect_err("the service knows no tournament");
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    let mut health = HealthClient::new(channel);
    for service in ["", SERVICE] {
        let status = health
            .check(HealthCheckRequest {
                service: service.into(),
            })
            .await
            .unwrap_or_else(|s| panic!("Check({service:?}): {s}"))
            .into_inner()
            .status();
        assert_eq!(status, ServingStatus::Serving, "{service:?}");
    }
    assert_eq!(
        *seen.lock().unwrap(),
        [
            format!("outer /{SERVICE}/GetNorms"),
            format!("inner /{SERVICE}/GetNorms"),
        ],
        "the layers saw the service's call, the last layer first, and no health call"
    );

    stop.send(()).unwrap();
    running.await.unwrap().expect("a clean stop");
    stopped_rx.await.expect("the follower saw the stop");
}

#[tokio::test]
async fn a_port_in_use_is_named_in_the_error() {
    let taken = tokio::net::TcpListener::bind(loopback()).await.unwrap();
    let addr = taken.local_addr().unwrap();
    let e = host()
        .bind(addr, loopback())
        .await
        .err()
        .expect("the gRPC port is taken");
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("cannot listen on {addr} for gRPC: ")),
        "{message}"
    );
}

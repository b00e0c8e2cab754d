//! One trace for one round over the distributed topology (`deploy/local/cluster.sh`: one
//! `arbiter serve --only` process per service over a JetStream cluster). The test is the
//! client: it opens a root span and plays a round through clients that send the W3C trace
//! context; the services export their spans over OTLP to a trace receiver running in this
//! process. Every service's spans must carry the root's trace id, and the chain must cross
//! the log: the pairing worker handles the round director's append as a child of the
//! director's span, and reporting handles the pairing worker's append as a child of its span.

use crate::cluster::LocalCluster;
use crate::support::{TempDir, header, retry, tref, wire};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::registration::v1::registration_client::RegistrationClient;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use arbiter_proto::round_director::v1 as rd;
use arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient;
use arbiter_telemetry::{TelemetryConfig, init_with};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tracing::Instrument as _;

/// One span as the receiver got it.
#[derive(Debug, Clone)]
struct Got {
    service: String,
    name: String,
    trace_id: Vec<u8>,
    span_id: Vec<u8>,
    parent_span_id: Vec<u8>,
}

/// An OTLP/gRPC trace receiver that keeps every span it is sent.
#[derive(Clone, Default)]
struct Receiver {
    spans: Arc<Mutex<Vec<Got>>>,
}

#[tonic::async_trait]
impl TraceService for Receiver {
    async fn export(
        &self,
        req: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        let mut spans = self.spans.lock().unwrap();
        for rs in req.into_inner().resource_spans {
            let service = rs
                .resource
                .iter()
                .flat_map(|r| r.attributes.iter())
                .find(|kv| kv.key == "service.name")
                .and_then(|kv| match kv.value.as_ref()?.value.as_ref()? {
                    Value::StringValue(s) => Some(s.clone()),
                    _ => None,
                })
                .unwrap_or_default();
            for s in rs.scope_spans.into_iter().flat_map(|ss| ss.spans) {
                spans.push(Got {
                    service: service.clone(),
                    name: s.name,
                    trace_id: s.trace_id,
                    span_id: s.span_id,
                    parent_span_id: s.parent_span_id,
                });
            }
        }
        Ok(tonic::Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

const CLIENT: &str = "arbiter-trace-client";
const ROOT: &str = "one round";

/// Create, register four players, start round 1, wait for the proposal, publish, results.
async fn play_one_round(c: &LocalCluster) {
    // The tests' admin token, and the trace context of the current span.
    let channel =
        |name: &str| arbiter_telemetry::Traced::new(crate::support::channel(&c.grpc(name)));
    let regc = RegistrationClient::new(channel("registration"));
    let rdc = RoundDirectorClient::new(channel("round-director"));
    let mut repc = ReportingClient::new(channel("reporting"));
    let tid = "traced-open";

    retry("create", || {
        let mut r = regc.clone();
        async move {
            r.create_tournament(reg::CreateTournamentRequest {
                header: header(tid, "create"),
                tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                    name: "Traced Open".into(),
                    place: "Loopback".into(),
                    federation: "NOR".into(),
                    start_date: Some(pb::Date {
                        year: 2026,
                        month: 3,
                        day: 1,
                    }),
                    end_date: Some(pb::Date {
                        year: 2026,
                        month: 3,
                        day: 3,
                    }),
                    chief_arbiter: Some(pb::Arbiter {
                        name: "Arbiter, Chief".into(),
                        fide_id: None,
                        title: "IA".into(),
                    }),
                    pairing_system: pb::PairingSystem::Dutch as i32,
                    rounds: 3,
                    initial_color: pb::Color::White as i32,
                    rating_kind: pb::RatingKind::Standard as i32,
                    fide_rated: true,
                    ..Default::default()
                }),
            })
            .await
        }
    })
    .await
    .expect("create");
    for i in 1..=4u32 {
        regc.clone()
            .register_player(reg::RegisterPlayerRequest {
                confirm_same_name: false,
                header: header(tid, &format!("register-{i}")),
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: format!("Player, {i:03}"),
                    fide_id: Some(2_000_000 + i as u64),
                    rating: 2400 - 100 * i,
                    federation: "NOR".into(),
                    ..Default::default()
                }),
            })
            .await
            .expect("register");
    }
    retry("start round", || {
        let mut r = rdc.clone();
        async move {
            r.start_round(rd::StartRoundRequest {
                header: header(tid, "start-1"),
                round: 1,
                scheduled_unix_ms: 0,
            })
            .await
        }
    })
    .await
    .expect("start round");
    let deadline = Instant::now() + Duration::from_secs(60);
    let proposal = loop {
        match repc
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(tid),
                round: 1,
            })
            .await
        {
            Ok(p) => break p.into_inner(),
            Err(s)
                if matches!(s.code(), tonic::Code::NotFound | tonic::Code::Unavailable)
                    && Instant::now() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(s) => panic!("no proposal for round 1: {s:?}"),
        }
    };
    let pairing = crate::support::pairing_of(&proposal);
    assert_eq!(pairing.0.len(), 2, "four players, two boards: {pairing:?}");
    rdc.clone()
        .publish_pairing(rd::PublishPairingRequest {
            header: header(tid, "publish-1"),
            round: 1,
            ..Default::default()
        })
        .await
        .expect("publish");
    for board in 1..=2u32 {
        let (result, white_code, black_code) =
            wire(arbiter_core::tournament::BoardResult::WhiteWins);
        rdc.clone()
            .record_result(rd::RecordResultRequest {
                header: header(tid, &format!("result-1-{board}")),
                round: 1,
                board,
                result,
                white_code,
                black_code,
            })
            .await
            .expect("record result");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_round_is_one_trace_across_every_service() {
    let receiver = Receiver::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(TraceServiceServer::new(receiver.clone()))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );

    let work = TempDir::new("arbiter-traces").unwrap();
    let mut cluster = LocalCluster::start_with_env(
        &work.path().join("cluster"),
        &[
            "registration",
            "round-director",
            "pairing-worker",
            "reporting",
        ],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
            ("OTEL_BSP_SCHEDULE_DELAY", "200"),
        ],
    );
    let telemetry = init_with(TelemetryConfig {
        otlp_endpoint: Some(endpoint.clone()),
        ..TelemetryConfig::from_env(CLIENT)
    })
    .expect("client telemetry");
    assert!(telemetry.exporting(), "the client exports its spans");

    let root = tracing::info_span!(ROOT);
    play_one_round(&cluster).instrument(root.clone()).await;
    drop(root);
    telemetry.shutdown().await.expect("client spans exported");
    // SIGTERM: each service flushes its spans before it exits.
    let stopped = cluster.stop();
    assert!(stopped.ok, "cluster.sh stop:\n{}", stopped.output);
    server.abort();

    let spans = receiver.spans.lock().unwrap().clone();
    let summary = |of: &str| {
        spans
            .iter()
            .filter(|s| s.service == of)
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
    };
    let root = spans
        .iter()
        .find(|s| s.service == CLIENT && s.name == ROOT)
        .unwrap_or_else(|| panic!("no root span; the client sent {:?}", summary(CLIENT)));
    let mut per_service = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    for s in &spans {
        let e = per_service.entry(s.service.as_str()).or_default();
        e.0 += 1;
        e.1 += (s.trace_id == root.trace_id) as usize;
    }
    eprintln!("spans received (all, in the round's trace): {per_service:?}");
    assert_eq!(root.trace_id.len(), 16);
    assert!(root.parent_span_id.is_empty(), "the root has no parent");
    let in_trace = |service: &str, name: &str| -> Vec<&Got> {
        spans
            .iter()
            .filter(|s| s.service == service && s.name == name && s.trace_id == root.trace_id)
            .collect()
    };
    for service in [
        "arbiter-registration",
        "arbiter-round-director",
        "arbiter-pairing-worker",
        "arbiter-reporting",
    ] {
        assert!(
            spans
                .iter()
                .any(|s| s.service == service && s.trace_id == root.trace_id),
            "{service} has no span in the round's trace; it sent {:?}",
            summary(service)
        );
    }
    // Calls: the registration and director calls are children of the client's root.
    for (service, call) in [
        (
            "arbiter-registration",
            "arbiter.registration.v1.Registration/RegisterPlayer",
        ),
        (
            "arbiter-round-director",
            "arbiter.round_director.v1.RoundDirector/StartRound",
        ),
    ] {
        let calls = in_trace(service, call);
        assert!(
            !calls.is_empty() && calls.iter().all(|s| s.parent_span_id == root.span_id),
            "{service}: {call} spans {calls:?} are not children of the root"
        );
    }
    // Through the log: a service handling an append is a child of the appender's span.
    let span_of = |id: &[u8]| spans.iter().find(|s| s.span_id == id);
    let crossings = |follower: &str, appender: &str| {
        in_trace(follower, "events")
            .into_iter()
            .filter(|s| span_of(&s.parent_span_id).is_some_and(|p| p.service == appender))
            .count()
    };
    assert!(
        crossings("arbiter-pairing-worker", "arbiter-round-director") > 0,
        "no pairing-worker span is a child of a round-director span: {:?}",
        in_trace("arbiter-pairing-worker", "events")
    );
    assert!(
        crossings("arbiter-reporting", "arbiter-pairing-worker") > 0,
        "no reporting span is a child of a pairing-worker span: {:?}",
        in_trace("arbiter-reporting", "events")
    );
}

//! With an OTLP endpoint: `tracing` spans reach a collector (a real gRPC server implementing
//! the OTLP trace service) by the time shutdown returns.

use arbiter_telemetry::{TelemetryConfig, init_with};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone, Default)]
struct Collector {
    spans: Arc<Mutex<Vec<(String, String)>>>, // (service.name, span name)
}

#[tonic::async_trait]
impl TraceService for Collector {
    async fn export(
        &self,
        req: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        for rs in req.into_inner().resource_spans {
            let service = rs
                .resource
                .iter()
                .flat_map(|r| r.attributes.iter())
                .find(|kv| kv.key == "service.name")
                .and_then(|kv| kv.value.as_ref())
                .map(|v| format!("{:?}", v.value))
                .unwrap_or_default();
            for ss in rs.scope_spans {
                for s in ss.spans {
                    self.spans.lock().unwrap().push((service.clone(), s.name));
                }
            }
        }
        Ok(tonic::Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

fn cfg(endpoint: String) -> TelemetryConfig {
    TelemetryConfig {
        otlp_endpoint: Some(endpoint),
        export_timeout: Duration::from_secs(2),
        ..TelemetryConfig::from_env("round-director")
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tracing_spans_reach_the_collector() {
    let collector = Collector::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(TraceServiceServer::new(collector.clone()))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let guard = init_with(cfg(format!("http://{addr}"))).unwrap();
    assert!(guard.exporting());
    assert!(guard.installed());
    {
        let span = tracing::info_span!("start_round", round = 3);
        let _entered = span.enter();
        tracing::info!("pairing requested");
    }
    guard.shutdown().await.unwrap();
    let spans = collector.spans.lock().unwrap().clone();
    assert!(
        spans
            .iter()
            .any(|(service, name)| name == "start_round" && service.contains("round-director")),
        "collector got {spans:?}"
    );
    server.abort();
}

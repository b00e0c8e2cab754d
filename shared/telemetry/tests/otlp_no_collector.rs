//! With an OTLP endpoint but no collector: no panic, no hang.

use arbiter_telemetry::{TelemetryConfig, TelemetryError, init_with};
use std::time::{Duration, Instant};

fn cfg(endpoint: String) -> TelemetryConfig {
    TelemetryConfig {
        otlp_endpoint: Some(endpoint),
        export_timeout: Duration::from_secs(2),
        ..TelemetryConfig::from_env("rating-worker")
    }
}

#[test]
fn outside_a_runtime_is_an_error_not_a_panic() {
    let err = init_with(cfg("http://127.0.0.1:9".into()))
        .err()
        .expect("must fail");
    assert!(matches!(err, TelemetryError::NoRuntime));
}

#[tokio::test]
async fn missing_collector_does_not_hang_even_on_a_current_thread_runtime() {
    // Nothing listens on this port once the listener is dropped.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let guard = init_with(cfg(format!("http://{closed}"))).unwrap();
    assert!(guard.exporting());
    tracing::info_span!("lost_span").in_scope(|| tracing::warn!("nobody is listening"));
    let started = Instant::now();
    let _ = guard.shutdown().await; // the export error, if reported, is not the point here
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "shutdown took {:?}",
        started.elapsed()
    );
}

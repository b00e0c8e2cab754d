//! Without OTEL_EXPORTER_OTLP_ENDPOINT: logging only, and a second init is harmless.

use arbiter_telemetry::{TelemetryConfig, init_with};

#[tokio::test]
async fn logging_only_and_idempotent() {
    let cfg = TelemetryConfig {
        otlp_endpoint: None,
        ..TelemetryConfig::from_env("test-service")
    };
    let guard = init_with(cfg.clone()).unwrap();
    assert!(guard.installed());
    assert!(!guard.exporting());
    tracing::info!(answer = 42, "logged to stderr");
    assert!(tracing::enabled!(tracing::Level::INFO) || std::env::var("RUST_LOG").is_ok());

    let second = init_with(cfg).unwrap();
    assert!(!second.installed(), "the first subscriber stays in place");
    second.shutdown().await.unwrap();
    guard.shutdown().await.unwrap();
}

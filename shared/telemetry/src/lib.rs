//! tracing and OpenTelemetry set-up shared by every service.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let telemetry = arbiter_telemetry::init("round-director")?;
//! tracing::info!("started");
//! // ... serve ...
//! telemetry.shutdown().await?; // flushes pending spans
//! # Ok(()) }
//! ```
//!
//! - Logs go to **stderr** (stdout stays free for command output such as TRF exports), filtered
//!   by `RUST_LOG` (default `info`).
//! - Spans are exported over OTLP/gRPC only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (and not
//!   empty). The exporter needs a Tokio runtime: call `init` from inside one (e.g. in
//!   `#[tokio::main]`); outside one it returns [`TelemetryError::NoRuntime`] instead of panicking.
//! - W3C trace-context propagation is installed globally, so gRPC layers can carry traces
//!   across services.
//! - [`propagation`]: the trace context across gRPC ([`inject`] on clients, [`GrpcLayer`] on
//!   servers) and across the log's message headers; [`metrics`]: the Prometheus series.
//! - The returned [`TelemetryGuard`] flushes and shuts the exporter down in
//!   [`TelemetryGuard::shutdown`] (on a blocking thread, so it works on any runtime flavour).
//!   Dropping the guard without calling it shuts down in the background, best effort.

pub mod metrics;
pub mod propagation;

pub use propagation::{GrpcLayer, Traced, TracedChannel, inject, traced};

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig as _;
use opentelemetry_sdk::trace::SdkTracerProvider;
use std::time::Duration;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, fmt};

/// The environment variable that turns on span export.
pub const OTLP_ENDPOINT_ENV: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";

/// How telemetry is set up. [`TelemetryConfig::from_env`] is what [`init`] uses.
#[derive(Debug, Clone)]
pub struct TelemetryConfig {
    /// The `service.name` resource attribute and tracer name.
    pub service_name: String,
    /// OTLP/gRPC endpoint, e.g. `http://localhost:4317`; `None` = no export.
    pub otlp_endpoint: Option<String>,
    /// Filter used when `RUST_LOG` is not set (or does not parse).
    pub default_filter: String,
    /// Upper bound for one export call (so a black-holed collector cannot stall shutdown).
    pub export_timeout: Duration,
}

impl TelemetryConfig {
    /// Reads `OTEL_EXPORTER_OTLP_ENDPOINT`; logs at `info` unless `RUST_LOG` says otherwise.
    pub fn from_env(service_name: &str) -> TelemetryConfig {
        TelemetryConfig {
            service_name: service_name.to_string(),
            otlp_endpoint: std::env::var(OTLP_ENDPOINT_ENV)
                .ok()
                .filter(|s| !s.trim().is_empty()),
            default_filter: "info".into(),
            export_timeout: Duration::from_secs(3),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error("the OTLP exporter must be set up inside a Tokio runtime")]
    NoRuntime,
    #[error("cannot build the OTLP exporter for {endpoint}: {message}")]
    Exporter { endpoint: String, message: String },
    #[error("telemetry shutdown failed: {0}")]
    Shutdown(String),
}

/// Keeps the exporter alive; shut it down with [`TelemetryGuard::shutdown`].
#[must_use = "dropping the guard shuts span export down"]
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
    installed: bool,
}

impl TelemetryGuard {
    /// Spans are being exported over OTLP.
    pub fn exporting(&self) -> bool {
        self.provider.is_some()
    }

    /// This call installed the global subscriber (`false` when one was already installed, e.g.
    /// by an earlier `init` in the same process, which is then left in place).
    pub fn installed(&self) -> bool {
        self.installed
    }

    /// Exports pending spans and stops the exporter.
    pub async fn shutdown(mut self) -> Result<(), TelemetryError> {
        let Some(provider) = self.provider.take() else {
            return Ok(());
        };
        tokio::task::spawn_blocking(move || provider.shutdown())
            .await
            .map_err(|e| TelemetryError::Shutdown(e.to_string()))?
            .map_err(|e| TelemetryError::Shutdown(e.to_string()))
    }
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take() {
            // Never block here: on a current-thread runtime the export needs this very thread.
            std::thread::spawn(move || {
                let _ = provider.shutdown();
            });
        }
    }
}

/// Sets up logging (and span export when `OTEL_EXPORTER_OTLP_ENDPOINT` is set) for a service.
pub fn init(service_name: &str) -> Result<TelemetryGuard, TelemetryError> {
    init_with(TelemetryConfig::from_env(service_name))
}

/// [`init`] with explicit settings.
pub fn init_with(cfg: TelemetryConfig) -> Result<TelemetryGuard, TelemetryError> {
    let filter = std::env::var("RUST_LOG")
        .ok()
        .and_then(|s| EnvFilter::try_new(s).ok())
        .unwrap_or_else(|| EnvFilter::new(&cfg.default_filter));
    let fmt_layer = fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(true);

    let provider = match &cfg.otlp_endpoint {
        None => None,
        Some(endpoint) => {
            if tokio::runtime::Handle::try_current().is_err() {
                return Err(TelemetryError::NoRuntime);
            }
            let exporter = opentelemetry_otlp::SpanExporter::builder()
                .with_tonic()
                .with_endpoint(endpoint.clone())
                .with_timeout(cfg.export_timeout)
                .build()
                .map_err(|e| TelemetryError::Exporter {
                    endpoint: endpoint.clone(),
                    message: e.to_string(),
                })?;
            Some(
                SdkTracerProvider::builder()
                    .with_batch_exporter(exporter)
                    .with_resource(
                        opentelemetry_sdk::Resource::builder()
                            .with_service_name(cfg.service_name.clone())
                            .build(),
                    )
                    .build(),
            )
        }
    };

    let otel_layer = provider.as_ref().map(|p| {
        opentelemetry::global::set_tracer_provider(p.clone());
        opentelemetry::global::set_text_map_propagator(
            opentelemetry_sdk::propagation::TraceContextPropagator::new(),
        );
        tracing_opentelemetry::layer().with_tracer(p.tracer(cfg.service_name.clone()))
    });

    let installed = tracing_subscriber::registry()
        .with(filter)
        .with(fmt_layer)
        .with(otel_layer)
        .try_init()
        .is_ok();
    Ok(TelemetryGuard {
        provider,
        installed,
    })
}

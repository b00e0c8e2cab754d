//! The services' Prometheus metrics, one registry per process, served as text by [`serve`]
//! (`arbiter serve --metrics-port`) at `/metrics`:
//!
//! | series | labels | what |
//! |---|---|---|
//! | `arbiter_grpc_requests_total` | service, method, code | gRPC calls by outcome (status code name) |
//! | `arbiter_grpc_request_duration_seconds` | service, method | histogram of call durations |
//! | `arbiter_refusals_total` | code, reason | commands refused, by the rule that refused them |
//! | `arbiter_pairing_duration_seconds` | | histogram of the pairing engine's runs |
//! | `arbiter_pairing_engines_running` | | pairing engines running now in this process |
//! | `arbiter_log_append_duration_seconds` | | histogram of appends to the event log |
//! | `arbiter_log_commit_stage_seconds` | stage | the embedded log writer's group commits: `apply` (the group's writes), `flush` (sled durable), `journal` (the head journal's sync) |
//! | `arbiter_log_commit_group_size` | | appends per group commit of the embedded log |
//! | `arbiter_log_head_position` | | the highest log position this process appended or saw |
//! | `arbiter_consumer_lag_events` | follower | appends in the log not yet handled by a follower |

use prometheus::{
    Encoder as _, Histogram, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, IntGaugeVec,
    Opts, Registry, TextEncoder,
};
use std::sync::LazyLock;
use std::time::Duration;

struct Metrics {
    registry: Registry,
    grpc_requests: IntCounterVec,
    grpc_duration: HistogramVec,
    refusals: IntCounterVec,
    pairing: Histogram,
    pairing_running: IntGauge,
    append: Histogram,
    commit_stage: HistogramVec,
    commit_group: Histogram,
    head: IntGauge,
    lag: IntGaugeVec,
}

/// Buckets from 0.5 ms to about 30 s (engine runs and appends over a slow cluster included).
fn buckets() -> Vec<f64> {
    prometheus::exponential_buckets(0.0005, 2.5, 13).expect("valid buckets")
}

/// Buckets from 0.1 ms to about 1.6 s, for the stages of a commit.
fn fine_buckets() -> Vec<f64> {
    prometheus::exponential_buckets(0.0001, 2.0, 15).expect("valid buckets")
}

static METRICS: LazyLock<Metrics> = LazyLock::new(|| {
    let registry = Registry::new();
    let m = Metrics {
        grpc_requests: IntCounterVec::new(
            Opts::new(
                "arbiter_grpc_requests_total",
                "gRPC calls to the services, by service, method and status code",
            ),
            &["service", "method", "code"],
        )
        .expect("valid metric"),
        grpc_duration: HistogramVec::new(
            HistogramOpts::new(
                "arbiter_grpc_request_duration_seconds",
                "Duration of gRPC calls (until the response headers)",
            )
            .buckets(buckets()),
            &["service", "method"],
        )
        .expect("valid metric"),
        refusals: IntCounterVec::new(
            Opts::new(
                "arbiter_refusals_total",
                "Commands refused, by gRPC code and the rule that refused them",
            ),
            &["code", "reason"],
        )
        .expect("valid metric"),
        pairing: Histogram::with_opts(
            HistogramOpts::new(
                "arbiter_pairing_duration_seconds",
                "Duration of the pairing engine's runs",
            )
            .buckets(buckets()),
        )
        .expect("valid metric"),
        pairing_running: IntGauge::new(
            "arbiter_pairing_engines_running",
            "Pairing engines running now in this process",
        )
        .expect("valid metric"),
        append: Histogram::with_opts(
            HistogramOpts::new(
                "arbiter_log_append_duration_seconds",
                "Latency of appends to the event log (until durable)",
            )
            .buckets(buckets()),
        )
        .expect("valid metric"),
        commit_stage: HistogramVec::new(
            HistogramOpts::new(
                "arbiter_log_commit_stage_seconds",
                "Time of each stage of the embedded log's group commits",
            )
            .buckets(fine_buckets()),
            &["stage"],
        )
        .expect("valid metric"),
        commit_group: Histogram::with_opts(
            HistogramOpts::new(
                "arbiter_log_commit_group_size",
                "Appends per group commit of the embedded log",
            )
            .buckets(prometheus::exponential_buckets(1.0, 2.0, 12).expect("valid buckets")),
        )
        .expect("valid metric"),
        head: IntGauge::new(
            "arbiter_log_head_position",
            "The highest log position this process appended or was delivered",
        )
        .expect("valid metric"),
        lag: IntGaugeVec::new(
            Opts::new(
                "arbiter_consumer_lag_events",
                "Appends in the log not yet handled by a follower",
            ),
            &["follower"],
        )
        .expect("valid metric"),
        registry,
    };
    let r = &m.registry;
    for c in [
        Box::new(m.grpc_requests.clone()) as Box<dyn prometheus::core::Collector>,
        Box::new(m.grpc_duration.clone()),
        Box::new(m.refusals.clone()),
        Box::new(m.pairing.clone()),
        Box::new(m.pairing_running.clone()),
        Box::new(m.append.clone()),
        Box::new(m.commit_stage.clone()),
        Box::new(m.commit_group.clone()),
        Box::new(m.head.clone()),
        Box::new(m.lag.clone()),
    ] {
        r.register(c).expect("metric names are unique");
    }
    m
});

/// A gRPC call answered with `code` after `took`.
pub fn grpc_call(service: &str, method: &str, code: tonic::Code, took: Duration) {
    let m = &*METRICS;
    m.grpc_requests
        .with_label_values(&[service, method, &format!("{code:?}")])
        .inc();
    m.grpc_duration
        .with_label_values(&[service, method])
        .observe(took.as_secs_f64());
}

/// A command refused with `code` by the rule `reason` (e.g. `RoundNotStarted`).
pub fn refusal(code: tonic::Code, reason: &str) {
    METRICS
        .refusals
        .with_label_values(&[&format!("{code:?}"), reason])
        .inc();
}

/// A run of the pairing engine has started (`true`) or ended (`false`).
pub fn pairing_running(started: bool) {
    METRICS.pairing_running.add(if started { 1 } else { -1 });
}

/// One run of the pairing engine.
pub fn pairing(took: Duration) {
    METRICS.pairing.observe(took.as_secs_f64());
}

/// One append to the event log, durable at log `position`.
pub fn log_append(took: Duration, position: u64) {
    METRICS.append.observe(took.as_secs_f64());
    log_head(position);
}

/// One group commit of the embedded log: `group` appends, written in `apply`, made durable in
/// `flush`, recorded in the head journal in `journal`.
pub fn log_commit(group: usize, apply: Duration, flush: Duration, journal: Duration) {
    let m = &*METRICS;
    m.commit_group.observe(group as f64);
    for (stage, took) in [("apply", apply), ("flush", flush), ("journal", journal)] {
        m.commit_stage
            .with_label_values(&[stage])
            .observe(took.as_secs_f64());
    }
}

/// The log has reached at least `position` (an append or a delivery seen by this process).
pub fn log_head(position: u64) {
    let position = i64::try_from(position).unwrap_or(i64::MAX);
    if position > METRICS.head.get() {
        METRICS.head.set(position);
    }
}

/// `follower` has handled the log up to `position`; `pending` is what the log's server says is
/// still to be delivered to it, when it says (JetStream), otherwise the head this process knows
/// is the reference.
pub fn consumer_position(follower: &str, position: u64, pending: Option<u64>) {
    log_head(position);
    let lag = match pending {
        Some(p) => i64::try_from(p).unwrap_or(i64::MAX),
        None => (METRICS.head.get() - i64::try_from(position).unwrap_or(i64::MAX)).max(0),
    };
    METRICS.lag.with_label_values(&[follower]).set(lag);
}

/// Every series in the Prometheus text format.
pub fn render() -> String {
    let mut out = Vec::new();
    TextEncoder::new()
        .encode(&METRICS.registry.gather(), &mut out)
        .expect("text encoding into memory");
    String::from_utf8(out).expect("the text format is UTF-8")
}

/// Serves `GET /metrics` on `listener` until `stop` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = axum::Router::new().route(
        "/metrics",
        axum::routing::get(|| async {
            (
                [(
                    axum::http::header::CONTENT_TYPE,
                    "text/plain; version=0.0.4; charset=utf-8",
                )],
                render(),
            )
        }),
    );
    axum::serve(listener, app)
        .with_graceful_shutdown(stop)
        .await
}

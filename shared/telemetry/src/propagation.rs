//! W3C trace context (`traceparent`, `tracestate`) across process boundaries: gRPC metadata
//! (client: [`inject`]; server: [`GrpcLayer`]) and log message headers ([`current_headers`],
//! [`set_parent`]), so that one trace covers a request from the client through every service
//! that reacts to what it appended.
//!
//! Without span export (no OTLP endpoint) spans carry no trace context: nothing is injected,
//! and an incoming context is only recorded when spans are exported.

use crate::metrics;
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator as _};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;
use tonic::codegen::http;
use tracing::Instrument as _;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

/// The trace-context headers of the current span (empty when it has none).
pub fn current_headers() -> Vec<(String, String)> {
    struct Pairs(Vec<(String, String)>);
    impl Injector for Pairs {
        fn set(&mut self, key: &str, value: String) {
            self.0.push((key.to_string(), value));
        }
    }
    let cx = tracing::Span::current().context();
    let mut pairs = Pairs(Vec::new());
    TraceContextPropagator::new().inject_context(&cx, &mut pairs);
    pairs.0
}

/// Makes `span` a child of the context that `get` reads from a carrier's headers. Call it
/// before the span is first entered; a carrier without a context leaves the span as it was.
pub fn set_parent<'a>(span: &tracing::Span, get: impl Fn(&str) -> Option<&'a str>) {
    // The marker ties the headers' lifetime to the extractor's, so `get` may return them.
    struct Get<'a, F>(F, std::marker::PhantomData<&'a str>);
    impl<'a, F: Fn(&str) -> Option<&'a str>> Extractor for Get<'a, F> {
        fn get(&self, key: &str) -> Option<&str> {
            (self.0)(key)
        }
        fn keys(&self) -> Vec<&str> {
            vec!["traceparent", "tracestate"]
        }
    }
    let extractor = Get(get, std::marker::PhantomData);
    if extractor.get("traceparent").is_none() {
        return;
    }
    let cx = TraceContextPropagator::new().extract(&extractor);
    // Refused only when the span is disabled or already started: it then stays as it is.
    let _ = span.set_parent(cx);
}

/// A tonic client interceptor that sends the current span's trace context in the request
/// metadata: `XClient::with_interceptor(channel, arbiter_telemetry::inject)`.
pub fn inject(mut req: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
    inject_metadata(req.metadata_mut());
    Ok(req)
}

/// Adds the current span's trace context to gRPC metadata (for interceptors that do more).
pub fn inject_metadata(metadata: &mut tonic::metadata::MetadataMap) {
    for (k, v) in current_headers() {
        if let (Ok(k), Ok(v)) = (
            tonic::metadata::MetadataKey::from_bytes(k.as_bytes()),
            tonic::metadata::MetadataValue::try_from(v.as_str()),
        ) {
            metadata.insert(k, v);
        }
    }
}

/// The server side, for every registered gRPC service (`Host::layer`): each call runs in a
/// `grpc` span whose parent is the caller's trace context, and is counted in the metrics
/// (service, method, status code, duration).
#[derive(Debug, Clone, Default)]
pub struct GrpcLayer;

impl<S> tower::Layer<S> for GrpcLayer {
    type Service = GrpcService<S>;
    fn layer(&self, inner: S) -> GrpcService<S> {
        GrpcService { inner }
    }
}

#[derive(Debug, Clone)]
pub struct GrpcService<S> {
    inner: S,
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

impl<S, B, R> tower::Service<http::Request<B>> for GrpcService<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
    S::Error: 'static,
{
    type Response = http::Response<R>;
    type Error = S::Error;
    type Future = BoxFuture<Result<http::Response<R>, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        // "/arbiter.registration.v1.Registration/RegisterPlayer"
        let path = req.uri().path().trim_start_matches('/');
        let (service, method) = path.split_once('/').unwrap_or((path, ""));
        let (service, method) = (service.to_string(), method.to_string());
        let span = tracing::info_span!(
            "grpc",
            otel.name = %format!("{service}/{method}"),
            rpc.system = "grpc",
            rpc.service = %service,
            rpc.method = %method,
            rpc.grpc.status_code = tracing::field::Empty,
        );
        let headers = req.headers();
        set_parent(&span, |k| headers.get(k).and_then(|v| v.to_str().ok()));
        let started = Instant::now();
        let call = self.inner.call(req).instrument(span.clone());
        Box::pin(async move {
            let response = call.await?;
            // A refusal is a trailers-only response: its status is in the headers. A call
            // that answered has its status in the trailers: 0 (or a failure while streaming).
            let code = response
                .headers()
                .get("grpc-status")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<i32>().ok())
                .unwrap_or(0);
            span.record("rpc.grpc.status_code", code);
            metrics::grpc_call(
                &service,
                &method,
                tonic::Code::from_i32(code),
                started.elapsed(),
            );
            Ok(response)
        })
    }
}

/// A client channel (any tower service of HTTP requests, e.g. tonic's `Channel`) whose calls
/// carry the current span's trace context; responses are passed through unchanged, so it
/// composes with other wrappers (`XClient::new(Traced::new(channel))`).
#[derive(Debug, Clone)]
pub struct Traced<S> {
    inner: S,
}

impl<S> Traced<S> {
    pub fn new(inner: S) -> Traced<S> {
        Traced { inner }
    }
}

impl<S, B> tower::Service<http::Request<B>> for Traced<S>
where
    S: tower::Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<B>) -> S::Future {
        for (k, v) in current_headers() {
            if let (Ok(k), Ok(v)) = (
                http::HeaderName::from_bytes(k.as_bytes()),
                http::HeaderValue::from_str(&v),
            ) {
                req.headers_mut().insert(k, v);
            }
        }
        self.inner.call(req)
    }
}

/// tonic's channel with the trace context on every call.
pub type TracedChannel = Traced<tonic::transport::Channel>;

/// Wraps `channel` so that every call made on it carries the trace context.
pub fn traced(channel: tonic::transport::Channel) -> TracedChannel {
    Traced::new(channel)
}

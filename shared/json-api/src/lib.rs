//! JSON over HTTP for every gRPC method of the project:
//! `POST /api/v1/<package.Service>/<Method>` with the request in the proto3 JSON mapping.
//!
//! No second implementation: the request is checked against the method's input message (the
//! descriptor set the services are generated from, read by prost-reflect), forwarded as one
//! gRPC call to the process's own gRPC port with the caller's `authorization` header, and the
//! answer is mapped back. So the tokens, the authorization rule, the command path, the
//! refusals and their structured details are the gRPC ones.
//!
//! Answers:
//! - a unary method: `200` and the reply message as JSON (every field, defaults included, so
//!   a client sees the same shape every time; 64-bit integers as strings, per the mapping);
//! - a server-streaming method: `200` and `application/x-ndjson`, one message per line as the
//!   server sends them; a failure after the first message ends the stream with one line
//!   `{"error": STATUS}`;
//! - a refusal: the HTTP status of the gRPC code (the mapping of google.rpc.Code) and the
//!   status as JSON — `{"code", "status", "message", "details"}` with the google.rpc details
//!   (`ErrorInfo`, `BadRequest`, `PreconditionFailure`, …) each with its `@type`.

mod codec;
mod error;

pub use error::{http_status, status_json};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use futures::StreamExt;
use prost_reflect::{DescriptorPool, DynamicMessage, MethodDescriptor, SerializeOptions};
use std::net::SocketAddr;
use std::sync::{Arc, LazyLock, OnceLock};
use std::time::Duration;
use tonic::Status;
use tonic::transport::{Channel, Endpoint};

/// The route, in axum's path syntax.
pub const ROUTE: &str = "/api/v1/{service}/{method}";

/// The largest body: the gRPC port's largest message (tonic's default, 4 MiB), which the JSON
/// form of a message is never smaller than.
pub const BODY_LIMIT: usize = 4 * 1024 * 1024;

/// Headers passed on to the gRPC call: the bearer token and the trace context.
const FORWARDED: &[&str] = &["authorization", "traceparent", "tracestate"];

/// The project's descriptor set (every service, method and message of `proto/`).
pub fn descriptors() -> &'static DescriptorPool {
    static POOL: LazyLock<DescriptorPool> = LazyLock::new(|| {
        DescriptorPool::decode(arbiter_proto::FILE_DESCRIPTOR_SET)
            .expect("the descriptor set built from proto/ decodes (checked by the crate's tests)")
    });
    &POOL
}

/// Where the JSON calls are forwarded.
pub enum Target {
    /// This process's own gRPC port (set when it is bound), serving `services` (full names,
    /// e.g. `arbiter.registration.v1.Registration`); a method of another service answers
    /// UNIMPLEMENTED, as the gRPC port would.
    Own {
        grpc: Arc<OnceLock<SocketAddr>>,
        services: Vec<&'static str>,
    },
    /// A gRPC address serving every service (e.g. `http://arbiter-grpc:7070`, where the
    /// services run as separate processes behind one address).
    Given(String),
}

#[derive(Clone)]
struct Gateway {
    target: Arc<Target>,
    channel: Arc<OnceLock<Channel>>,
}

impl Gateway {
    fn channel(&self) -> Result<Channel, Status> {
        if let Some(c) = self.channel.get() {
            return Ok(c.clone());
        }
        let url = match &*self.target {
            Target::Given(url) => url.clone(),
            Target::Own { grpc, .. } => arbiter_service_kit::net::own_url(
                *grpc
                    .get()
                    .ok_or_else(|| Status::unavailable("the gRPC port is not bound yet"))?,
            ),
        };
        let channel = Endpoint::from_shared(url.clone())
            .map_err(|e| Status::internal(format!("gRPC address {url}: {e}")))?
            .connect_timeout(Duration::from_secs(5))
            .tcp_nodelay(true)
            .connect_lazy();
        Ok(self.channel.get_or_init(|| channel).clone())
    }

    fn serves(&self, service: &str) -> bool {
        match &*self.target {
            Target::Own { services, .. } => services.contains(&service),
            Target::Given(_) => true,
        }
    }
}

/// The JSON route ([`ROUTE`]), forwarding to `target`.
pub fn router(target: Target) -> axum::Router {
    let gateway = Gateway {
        target: Arc::new(target),
        channel: Arc::default(),
    };
    axum::Router::new()
        .route(
            ROUTE,
            axum::routing::post(call).layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT)),
        )
        .with_state(gateway)
}

/// The method `service`/`method` of the descriptor set, if this process serves it.
fn method(gateway: &Gateway, service: &str, method: &str) -> Result<MethodDescriptor, Status> {
    let unknown = || {
        Status::unimplemented(format!(
            "no method {service}/{method} here: POST /api/v1/<package.Service>/<Method>, e.g. \
             /api/v1/arbiter.registration.v1.Registration/ListTournaments"
        ))
    };
    if !gateway.serves(service) {
        return Err(unknown());
    }
    descriptors()
        .get_service_by_name(service)
        .and_then(|s| s.methods().find(|m| m.name() == method))
        .ok_or_else(unknown)
}

/// The request body as the method's input message (an empty body is the empty message).
fn request_message(m: &MethodDescriptor, body: &[u8]) -> Result<DynamicMessage, Status> {
    let input = m.input();
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(DynamicMessage::new(input));
    }
    let mut de = serde_json::Deserializer::from_slice(body);
    let mut track = serde_path_to_error::Track::new();
    let parsed = DynamicMessage::deserialize(
        input.clone(),
        serde_path_to_error::Deserializer::new(&mut de, &mut track),
    )
    // The field's path as the request names it (`player.rating`); "." is the body.
    .map_err(|e| (track.path().to_string(), e.to_string()))
    .and_then(|m| {
        de.end()
            .map(|()| m)
            .map_err(|e| (".".to_string(), e.to_string()))
    });
    let message = parsed.map_err(|(path, why)| {
        let field = if path == "." {
            "body".to_string()
        } else {
            path
        };
        error::bad_json(
            &format!(
                "{field}: {why} (the body must be the message {} in the proto3 JSON mapping)",
                input.full_name()
            ),
            &field,
            input.full_name(),
        )
    })?;
    Ok(message)
}

/// A message as JSON text, its fields in the order of their numbers (as the .proto lists them).
fn json_of(message: &DynamicMessage) -> Vec<u8> {
    let options = SerializeOptions::new().skip_default_fields(false);
    let mut out = Vec::new();
    match message.serialize_with_options(&mut serde_json::Serializer::new(&mut out), &options) {
        Ok(()) => out,
        Err(e) => serde_json::json!({ "unserializable": e.to_string() })
            .to_string()
            .into_bytes(),
    }
}

fn grpc_request(
    message: DynamicMessage,
    headers: &HeaderMap,
) -> Result<tonic::Request<DynamicMessage>, Status> {
    let mut request = tonic::Request::new(message);
    for name in FORWARDED {
        if let Some(v) = headers.get(*name) {
            let value = v
                .to_str()
                .ok()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| {
                    Status::invalid_argument(format!("header {name}: not a visible ASCII value"))
                })?;
            request.metadata_mut().insert(*name, value);
        }
    }
    Ok(request)
}

async fn call(
    State(gateway): State<Gateway>,
    Path((service, method_name)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    match forward(&gateway, &service, &method_name, &headers, &body).await {
        Ok(r) => r,
        Err(status) => error::response(&status),
    }
}

async fn forward(
    gateway: &Gateway,
    service: &str,
    method_name: &str,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Response, Status> {
    let m = method(gateway, service, method_name)?;
    if m.is_client_streaming() {
        return Err(Status::unimplemented(format!(
            "{service}/{method_name} takes a stream of messages: use gRPC or gRPC-Web"
        )));
    }
    let message = request_message(&m, body)?;
    let request = grpc_request(message, headers)?;
    let path: tonic::codegen::http::uri::PathAndQuery = format!("/{service}/{method_name}")
        .parse()
        .map_err(|e| Status::internal(format!("method path: {e}")))?;
    let mut grpc = tonic::client::Grpc::new(gateway.channel()?);
    grpc.ready()
        .await
        .map_err(|e| Status::unavailable(format!("the gRPC port: {e}")))?;
    let codec = codec::DynamicCodec::new(m.output());
    if !m.is_server_streaming() {
        let reply = grpc.unary(request, path, codec).await?.into_inner();
        let mut response = Response::new(Body::from(json_of(&reply)));
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        return Ok(response);
    }
    let stream = grpc
        .server_streaming(request, path, codec)
        .await?
        .into_inner();
    // One line per message; a failure ends the stream with its status, then nothing more.
    let lines = stream
        .scan(false, |failed, item| {
            let line = if *failed {
                None
            } else {
                match item {
                    Ok(m) => Some(json_of(&m)),
                    Err(s) => {
                        *failed = true;
                        Some(
                            serde_json::json!({ "error": status_json(&s) })
                                .to_string()
                                .into_bytes(),
                        )
                    }
                }
            };
            futures::future::ready(line)
        })
        .map(|mut line| {
            line.push(b'\n');
            Ok::<_, std::convert::Infallible>(Bytes::from(line))
        });
    let mut response = Response::new(Body::from_stream(lines));
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method_of(service: &str, name: &str) -> MethodDescriptor {
        descriptors()
            .get_service_by_name(service)
            .and_then(|s| s.methods().find(|m| m.name() == name))
            .expect("a method of the descriptor set")
    }

    #[test]
    fn every_service_of_the_project_is_in_the_descriptor_set() {
        for service in [
            "arbiter.registration.v1.Registration",
            "arbiter.round_director.v1.RoundDirector",
            "arbiter.pairing_worker.v1.PairingWorker",
            "arbiter.reporting.v1.Reporting",
            "arbiter.rating_worker.v1.RatingWorker",
            "arbiter.screening.v1.Screening",
        ] {
            assert!(
                descriptors().get_service_by_name(service).is_some(),
                "{service}"
            );
        }
    }

    #[test]
    fn a_body_is_read_as_the_methods_request_in_the_json_mapping() {
        let m = method_of("arbiter.round_director.v1.RoundDirector", "StartRound");
        let both = request_message(
            &m,
            br#"{"header": {"tournament_id": "t", "commandId": "c"}, "round": 2}"#,
        )
        .expect("snake_case and lowerCamelCase names are both read");
        let round = both.get_field_by_name("round").expect("round");
        assert_eq!(round.as_u32(), Some(2));
        let empty = request_message(&m, b"  \n").expect("an empty body is the empty message");
        assert_eq!(
            empty.get_field_by_name("round").and_then(|v| v.as_u32()),
            Some(0)
        );

        let refused = request_message(&m, br#"{"rounds": 2}"#).expect_err("an unknown field");
        assert_eq!(refused.code(), tonic::Code::InvalidArgument);
        assert!(
            refused.message().contains("rounds"),
            "{}",
            refused.message()
        );
        let details = status_json(&refused);
        assert_eq!(details["details"][0]["reason"], "INVALID_JSON");
        let refused = request_message(&m, br#"{"round": "two"}"#).expect_err("a wrong type");
        assert!(
            refused.message().contains("line 1"),
            "{}",
            refused.message()
        );
        let register = method_of("arbiter.registration.v1.Registration", "RegisterPlayer");
        let refused = request_message(&register, br#"{"player": {"name": "A", "rating": "abc"}}"#)
            .expect_err("a rating that is not a number");
        assert!(
            refused.message().starts_with("player.rating: "),
            "{}",
            refused.message()
        );
        assert_eq!(
            status_json(&refused)["details"][1]["fieldViolations"][0]["field"],
            "player.rating"
        );
        let refused = request_message(&m, br#"{"round": 2} trailing"#).expect_err("trailing text");
        assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    }

    #[test]
    fn replies_show_every_field_and_64_bit_integers_as_strings() {
        let m = method_of("arbiter.registration.v1.Registration", "CreateTournament");
        let mut reply = DynamicMessage::new(m.output());
        reply.set_field_by_name("last_version", prost_reflect::Value::U64(7));
        let text = String::from_utf8(json_of(&reply)).expect("JSON is UTF-8");
        // The fields in the order of their numbers.
        assert!(text.starts_with(r#"{"tournamentId":"#), "{text}");
        let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(json["lastVersion"], "7");
        assert_eq!(json["replayed"], false);
        assert_eq!(json["tournamentId"], "");
    }

    #[test]
    fn codes_map_to_the_http_statuses_of_google_rpc_code() {
        use axum::http::StatusCode as H;
        use tonic::Code as C;
        for (code, http) in [
            (C::InvalidArgument, H::BAD_REQUEST),
            (C::FailedPrecondition, H::BAD_REQUEST),
            (C::NotFound, H::NOT_FOUND),
            (C::AlreadyExists, H::CONFLICT),
            (C::Aborted, H::CONFLICT),
            (C::PermissionDenied, H::FORBIDDEN),
            (C::Unauthenticated, H::UNAUTHORIZED),
            (C::Unimplemented, H::NOT_IMPLEMENTED),
            (C::Unavailable, H::SERVICE_UNAVAILABLE),
            (C::DataLoss, H::INTERNAL_SERVER_ERROR),
        ] {
            assert_eq!(http_status(code), http, "{code:?}");
        }
    }
}

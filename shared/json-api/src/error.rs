//! gRPC statuses as HTTP answers: the status code of google.rpc.Code's HTTP mapping and the
//! status as JSON with its details.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetail, StatusExt};

const TYPE_PREFIX: &str = "type.googleapis.com/google.rpc.";

/// The HTTP status of a gRPC code (the mapping google.rpc.Code documents).
pub fn http_status(code: Code) -> StatusCode {
    match code {
        Code::Ok => StatusCode::OK,
        Code::Cancelled => StatusCode::from_u16(499).unwrap_or(StatusCode::BAD_REQUEST),
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => {
            StatusCode::BAD_REQUEST
        }
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted => StatusCode::CONFLICT,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::Unknown | Code::Internal | Code::DataLoss => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// A status in the JSON form of google.rpc.Status, with the code's name beside its number
/// and each detail as the proto3 JSON mapping writes an `Any` (`@type` first).
pub fn status_json(status: &Status) -> Value {
    let details: Vec<Value> = status
        .get_error_details_vec()
        .into_iter()
        .filter_map(|d| detail_json(&d))
        .collect();
    json!({
        "code": status.code() as i32,
        "status": arbiter_proto::code_name(status.code()),
        "message": status.message(),
        "details": details,
    })
}

fn detail_json(detail: &ErrorDetail) -> Option<Value> {
    Some(match detail {
        ErrorDetail::ErrorInfo(i) => json!({
            "@type": format!("{TYPE_PREFIX}ErrorInfo"),
            "reason": i.reason,
            "domain": i.domain,
            "metadata": i.metadata.iter().collect::<BTreeMap<_, _>>(),
        }),
        ErrorDetail::BadRequest(b) => json!({
            "@type": format!("{TYPE_PREFIX}BadRequest"),
            "fieldViolations": b.field_violations.iter().map(|v| json!({
                "field": v.field,
                "description": v.description,
            })).collect::<Vec<_>>(),
        }),
        ErrorDetail::PreconditionFailure(p) => json!({
            "@type": format!("{TYPE_PREFIX}PreconditionFailure"),
            "violations": p.violations.iter().map(|v| json!({
                "type": v.r#type,
                "subject": v.subject,
                "description": v.description,
            })).collect::<Vec<_>>(),
        }),
        ErrorDetail::LocalizedMessage(m) => json!({
            "@type": format!("{TYPE_PREFIX}LocalizedMessage"),
            "locale": m.locale,
            "message": m.message,
        }),
        ErrorDetail::Help(h) => json!({
            "@type": format!("{TYPE_PREFIX}Help"),
            "links": h.links.iter().map(|l| json!({
                "description": l.description,
                "url": l.url,
            })).collect::<Vec<_>>(),
        }),
        // The services send none of the others.
        _ => return None,
    })
}

/// A refusal as the HTTP answer.
pub fn response(status: &Status) -> Response {
    let mut r = (http_status(status.code()), axum::Json(status_json(status))).into_response();
    if status.code() == Code::Unauthenticated {
        r.headers_mut().insert(
            axum::http::header::WWW_AUTHENTICATE,
            axum::http::HeaderValue::from_static("Bearer"),
        );
    }
    r
}

/// A request body that is not the method's input message; `field` is the path it fails at
/// (`body` for the body as a whole).
pub(crate) fn bad_json(message: &str, field: &str, input: &str) -> Status {
    arbiter_proto::refusal(
        Code::InvalidArgument,
        message,
        "INVALID_JSON",
        &[("message_type", input), ("field", field)],
    )
}

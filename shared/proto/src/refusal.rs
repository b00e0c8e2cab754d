//! Refusals with google.rpc details, the one way every crate builds them (the services'
//! statuses, the authorization's, the JSON route's): an `ErrorInfo` of [`crate::ERROR_DOMAIN`]
//! with a reason and metadata, a `BadRequest` naming the field of an INVALID_ARGUMENT, a
//! `PreconditionFailure` for a FAILED_PRECONDITION.

use std::collections::HashMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// A status with an `ErrorInfo` of `reason` and `metadata`; for INVALID_ARGUMENT a
/// `BadRequest` violation of `metadata.field` (else of the field the message names first,
/// `field.path: why`), for FAILED_PRECONDITION a `PreconditionFailure` of type `reason` whose
/// subject is `tournament/ID` when `metadata.tournament_id` is given.
pub fn refusal(
    code: Code,
    message: impl Into<String>,
    reason: &str,
    metadata: &[(&str, &str)],
) -> Status {
    let message = message.into();
    let metadata: HashMap<String, String> = metadata
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let subject = match metadata.get("tournament_id") {
        Some(t) => format!("tournament/{t}"),
        None => String::new(),
    };
    let named = field_of(&message);
    let violation = match (metadata.get("field"), named) {
        (Some(f), Some((g, why))) if f == g => Some((f.clone(), why.to_string())),
        (Some(f), _) => Some((f.clone(), message.clone())),
        (None, Some((g, why))) => Some((g.to_string(), why.to_string())),
        (None, None) => None,
    };
    let mut details = ErrorDetails::with_error_info(reason, crate::ERROR_DOMAIN, metadata);
    match code {
        Code::InvalidArgument => {
            if let Some((field, why)) = violation {
                details.add_bad_request_violation(field, why);
            }
        }
        Code::FailedPrecondition => {
            details.add_precondition_failure_violation(reason, subject, message.clone());
        }
        _ => {}
    }
    Status::with_error_details(code, message, details)
}

/// The field an INVALID_ARGUMENT message names first, by the services' convention
/// (`player.title: …`, after an optional `tournament ID: ` and `invalid `), and the rest.
pub fn field_of(message: &str) -> Option<(&str, &str)> {
    let rest = match message.strip_prefix("tournament ") {
        Some(r) => r.split_once(": ").map(|(_, r)| r).unwrap_or(message),
        None => message,
    };
    let rest = rest.strip_prefix("invalid ").unwrap_or(rest);
    let (field, why) = rest.split_once(": ")?;
    let path = !field.is_empty()
        && field.starts_with(|c: char| c.is_ascii_lowercase())
        && field
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_.[]".contains(c));
    path.then_some((field, why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_is_read_from_the_services_message_convention() {
        assert_eq!(
            field_of("player.title: not a FIDE title"),
            Some(("player.title", "not a FIDE title"))
        );
        assert_eq!(
            field_of("tournament t1: invalid rounds: must be at least 1"),
            Some(("rounds", "must be at least 1"))
        );
        assert_eq!(field_of("tournament t1: round 2 is already closed"), None);
        assert_eq!(field_of("Round 2: closed"), None);
    }

    #[test]
    fn an_explicit_field_names_the_violation() {
        let s = refusal(
            Code::InvalidArgument,
            "chiefArbiter.name: expected a string",
            "INVALID_JSON",
            &[("field", "chiefArbiter.name")],
        );
        let v = s
            .get_details_bad_request()
            .expect("BadRequest")
            .field_violations;
        assert_eq!(v[0].field, "chiefArbiter.name");
        let s = refusal(
            Code::FailedPrecondition,
            "closed",
            "ROUND_CLOSED",
            &[("tournament_id", "t")],
        );
        let p = s
            .get_details_precondition_failure()
            .expect("PreconditionFailure");
        assert_eq!(
            (
                p.violations[0].r#type.as_str(),
                p.violations[0].subject.as_str()
            ),
            ("ROUND_CLOSED", "tournament/t")
        );
        assert_eq!(
            s.get_details_error_info().expect("ErrorInfo").domain,
            crate::ERROR_DOMAIN
        );
    }
}

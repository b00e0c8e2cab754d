//! The gRPC layer: every call to a registered service passes here first.
//!
//! - A call with `authorization: Bearer TOKEN` whose token verifies carries the [`Principal`]
//!   in its extensions (tonic hands them to the handler); a token that does not verify is
//!   refused with `UNAUTHENTICATED` saying why, whatever the method.
//! - A call without a token: the methods of [`PUBLIC_READS`] run as [`Principal::public`]
//!   (unless reads are private); every other method is refused with `UNAUTHENTICATED`. A new
//!   method thus needs a token until it is listed here.
//!
//! What a principal may do is decided by the handler ([`Principal::authorize`]), which knows
//! the tournament.

use crate::Principal;
use crate::verify::Verifier;
use axum::extract::Request;
use axum::response::Response;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tonic::Status;

/// The methods that append nothing and show what the public pages show: open without a token.
pub const PUBLIC_READS: &[(&str, &[&str])] = &[
    (
        "arbiter.registration.v1.Registration",
        &["ListPlayers", "ListTournaments"],
    ),
    (
        "arbiter.round_director.v1.RoundDirector",
        &["GetTournament", "WatchTournament", "GetSchedule"],
    ),
    (
        "arbiter.reporting.v1.Reporting",
        &[
            "GetStandings",
            "GetPairings",
            "GetCrosstable",
            "ExportTrf",
            "StreamEvents",
            "FollowTournament",
        ],
    ),
    (
        "arbiter.pairing_worker.v1.PairingWorker",
        &["Pair", "PairTrf", "Explain", "Check"],
    ),
    (
        "arbiter.rating_worker.v1.RatingWorker",
        &["GetPlayerRating", "GetEventRatings", "GetNorms"],
    ),
];

/// Whether the gRPC path `/package.Service/Method` is one of [`PUBLIC_READS`].
pub fn is_public_read(path: &str) -> bool {
    let Some((service, method)) = path.trim_start_matches('/').split_once('/') else {
        return false;
    };
    PUBLIC_READS
        .iter()
        .any(|(s, ms)| *s == service && ms.contains(&method))
}

/// The bearer token of a request's `authorization` header: `None` when there is none.
pub fn bearer(headers: &axum::http::HeaderMap) -> Result<Option<&str>, String> {
    let Some(v) = headers.get(axum::http::header::AUTHORIZATION) else {
        return Ok(None);
    };
    let v = v
        .to_str()
        .map_err(|_| "the authorization header is not text".to_string())?;
    match v.split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() =>
        {
            Ok(Some(token.trim()))
        }
        _ => Err("the authorization header is not \"Bearer TOKEN\"".into()),
    }
}

/// Authenticates every call (see the module documentation).
#[derive(Clone)]
pub struct AuthLayer {
    verifier: Arc<Verifier>,
    private_reads: bool,
}

impl AuthLayer {
    pub fn new(verifier: Arc<Verifier>) -> AuthLayer {
        AuthLayer {
            verifier,
            private_reads: false,
        }
    }

    /// Reads need a token too (any role).
    pub fn private_reads(mut self, private: bool) -> AuthLayer {
        self.private_reads = private;
        self
    }

    /// The principal of a call, or why it is refused.
    #[allow(clippy::result_large_err)]
    pub fn authenticate(
        &self,
        path: &str,
        headers: &axum::http::HeaderMap,
    ) -> Result<Principal, Status> {
        let invalid = |m: String| {
            arbiter_proto::refusal(
                tonic::Code::Unauthenticated,
                m,
                "TOKEN_INVALID",
                &[("method", path)],
            )
        };
        match bearer(headers).map_err(invalid)? {
            Some(token) => self.verifier.verify(token).map_err(|e| invalid(e.0)),
            None if !self.private_reads && is_public_read(path) => Ok(Principal::public()),
            None => Err(arbiter_proto::refusal(
                tonic::Code::Unauthenticated,
                format!(
                    "{path} needs a bearer token (metadata authorization: Bearer TOKEN; `arbiter \
                     token issue` makes one, and `arbiter serve` writes an admin token to \
                     DATA/admin.token)"
                ),
                "TOKEN_REQUIRED",
                &[("method", path)],
            )),
        }
    }
}

impl<S> tower::Layer<S> for AuthLayer {
    type Service = Auth<S>;
    fn layer(&self, inner: S) -> Auth<S> {
        Auth {
            inner,
            layer: self.clone(),
        }
    }
}

/// The service of [`AuthLayer`].
#[derive(Clone)]
pub struct Auth<S> {
    inner: S,
    layer: AuthLayer,
}

impl<S> tower::Service<Request> for Auth<S>
where
    S: tower::Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        match self
            .layer
            .authenticate(request.uri().path(), request.headers())
        {
            Ok(principal) => {
                request.extensions_mut().insert(principal);
                // The clone that was made ready is the one called.
                let clone = self.inner.clone();
                let mut inner = std::mem::replace(&mut self.inner, clone);
                Box::pin(inner.call(request))
            }
            Err(status) => {
                let response = status.into_http::<axum::body::Body>();
                Box::pin(async move { Ok(response) })
            }
        }
    }
}

/// The principal the layer put in a request's extensions; `UNAUTHENTICATED` when there is
/// none (a service served without the layer refuses every command).
#[allow(clippy::result_large_err)]
pub fn principal<T>(request: &tonic::Request<T>) -> Result<Principal, Status> {
    request
        .extensions()
        .get::<Principal>()
        .cloned()
        .ok_or_else(|| {
            Status::unauthenticated("no authenticated caller: the server authenticates no call")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_reads_by_path() {
        assert!(is_public_read(
            "/arbiter.reporting.v1.Reporting/GetStandings"
        ));
        assert!(!is_public_read(
            "/arbiter.registration.v1.Registration/CreateTournament"
        ));
        assert!(!is_public_read(
            "/arbiter.reporting.v1.Registration/GetStandings"
        ));
        assert!(!is_public_read("nonsense"));
    }

    #[test]
    fn bearer_header() {
        let mut h = axum::http::HeaderMap::new();
        assert_eq!(bearer(&h), Ok(None));
        h.insert("authorization", "Bearer abc".parse().unwrap());
        assert_eq!(bearer(&h), Ok(Some("abc")));
        h.insert("authorization", "Basic abc".parse().unwrap());
        assert!(bearer(&h).is_err());
    }
}

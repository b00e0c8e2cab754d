//! The client side: a channel wrapper that sends the bearer token with every call.

use axum::http::{HeaderValue, Request, header::AUTHORIZATION};
use std::task::{Context, Poll};

/// Wraps a gRPC channel (any tower service of HTTP requests, e.g. tonic's `Channel`) so that
/// every call carries `authorization: Bearer TOKEN`; without a token calls go out unchanged.
#[derive(Debug, Clone)]
pub struct WithToken<T> {
    inner: T,
    value: Option<HeaderValue>,
}

impl<T> WithToken<T> {
    /// `token`: the token itself (without "Bearer "). Refused when it is not printable ASCII.
    pub fn new(inner: T, token: Option<&str>) -> Result<WithToken<T>, String> {
        let value = token
            .map(|t| {
                HeaderValue::from_str(&format!("Bearer {}", t.trim()))
                    .map_err(|_| "the token is not printable ASCII".to_string())
            })
            .transpose()?;
        Ok(WithToken { inner, value })
    }
}

impl<T, B> tower::Service<Request<B>> for WithToken<T>
where
    T: tower::Service<Request<B>>,
{
    type Response = T::Response;
    type Error = T::Error;
    type Future = T::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        if let Some(v) = &self.value {
            request.headers_mut().insert(AUTHORIZATION, v.clone());
        }
        self.inner.call(request)
    }
}

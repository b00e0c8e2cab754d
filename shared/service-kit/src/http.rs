//! The HTTP port's edge: what every HTTP request and connection goes through before a route
//! sees it, so that no anonymous client can hold more than a bounded share of the server.
//!
//! - Authentication ([`wrap`]): each route is authenticated as the gRPC method it stands for
//!   (`arbiter_auth::http::HTTP_ROUTES`), by the gRPC layer's own [`AuthLayer`], before any
//!   byte of the body is read. Refusals are 401: JSON on `/api/...`, a page elsewhere.
//! - A small body limit for every route that does not set its own ([`HttpLimits::body_limit`]).
//! - Errors the framework answers itself (a bad path parameter or query, a body too large, an
//!   unknown route or method) in the documented shapes: `{"error": "..."}` on `/api/...`
//!   (`{"code", "message"}` on the platform webhook), a page elsewhere.
//! - Security headers on every response: the pages' Content-Security-Policy,
//!   `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy:
//!   no-referrer`.
//! - The connections ([`serve`]): a header-read timeout that also bounds an idle keep-alive
//!   connection (slowloris), a write timeout for a client that stops reading, a cap on
//!   connections in all and per client IP address (over the cap: a 503 and close), and a
//!   bounded read buffer.

use arbiter_auth::layer::AuthLayer;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tracing::debug;

/// The bounds of the HTTP port (`arbiter serve --http-*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpLimits {
    /// A request's head must arrive whole within this time of the connection's start or of
    /// the end of the previous response (so it is also the keep-alive idle limit).
    pub header_timeout: Duration,
    /// A response write that makes no progress for this long closes the connection.
    pub write_timeout: Duration,
    /// Connections open at once, in all.
    pub max_connections: usize,
    /// Connections open at once from one IP address.
    pub max_connections_per_ip: usize,
    /// Body bytes a route reads unless it sets its own limit (the webhook does).
    pub body_limit: usize,
    /// Pages and JSON documents rendered at once (the others wait for a slot).
    pub render_slots: usize,
    /// Bytes of rendered public pages kept to answer the same page again.
    pub page_cache_bytes: usize,
}

/// Largest request head (request line and headers) a connection buffers.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

impl Default for HttpLimits {
    fn default() -> HttpLimits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        HttpLimits {
            header_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(20),
            max_connections: 2048,
            max_connections_per_ip: 256,
            body_limit: 16 * 1024,
            render_slots: (cores / 2).max(1),
            page_cache_bytes: 32 * 1024 * 1024,
        }
    }
}

// --- requests ------------------------------------------------------------------------------

/// The router with the request side of the edge (see the module documentation): `auth`, when
/// given, authenticates every route; the principal goes in the request's extensions.
pub fn wrap(router: axum::Router, auth: Option<AuthLayer>, limits: &HttpLimits) -> axum::Router {
    let mut router = router.layer(DefaultBodyLimit::max(limits.body_limit));
    if let Some(auth) = auth {
        router = router.layer(axum::middleware::from_fn(move |req: Request, next| {
            let auth = auth.clone();
            async move { authenticate(&auth, req, next).await }
        }));
    }
    router
        .layer(axum::middleware::from_fn(error_shape))
        .layer(axum::middleware::map_response(security_headers))
}

async fn authenticate(
    auth: &AuthLayer,
    mut req: Request,
    next: axum::middleware::Next,
) -> Response {
    // No matched route: the fallback answers 404, there is nothing to protect.
    let Some(route) = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_string())
    else {
        return next.run(req).await;
    };
    match auth.authenticate_http(&route, req.headers()) {
        Ok(Some(p)) => {
            req.extensions_mut().insert(p);
            next.run(req).await
        }
        Ok(None) => next.run(req).await,
        Err(status) => {
            let mut r = refusal(req.uri().path(), StatusCode::UNAUTHORIZED, status.message());
            r.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            r
        }
    }
}

/// A refusal in the shape the path's documentation gives.
pub fn refusal(path: &str, status: StatusCode, message: &str) -> Response {
    if path.starts_with("/api/platform/") {
        let code = match status {
            StatusCode::UNAUTHORIZED => "Unauthenticated",
            StatusCode::FORBIDDEN => "PermissionDenied",
            StatusCode::NOT_FOUND => "NotFound",
            StatusCode::PAYLOAD_TOO_LARGE => "ResourceExhausted",
            StatusCode::METHOD_NOT_ALLOWED => "Unimplemented",
            s if s.is_client_error() => "InvalidArgument",
            _ => "Internal",
        };
        (
            status,
            axum::Json(serde_json::json!({ "code": code, "message": message })),
        )
            .into_response()
    } else if path.starts_with("/api/") || path == "/healthz" {
        (status, axum::Json(serde_json::json!({ "error": message }))).into_response()
    } else {
        let title = status.canonical_reason().unwrap_or("Error");
        (
            status,
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static(arbiter_pages::CONTENT_TYPE),
                ),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            arbiter_pages::render_message(title, message),
        )
            .into_response()
    }
}

/// Errors answered as plain text or with no body (the framework's own rejections) get the
/// path's documented shape.
async fn error_shape(req: Request, next: axum::middleware::Next) -> Response {
    let path = req.uri().path().to_string();
    let response = next.run(req).await;
    let status = response.status();
    let plain = match response.headers().get(header::CONTENT_TYPE) {
        None => true,
        Some(v) => v.as_bytes().starts_with(b"text/plain"),
    };
    if status.as_u16() < 400 || !plain {
        return response;
    }
    let (parts, body) = response.into_parts();
    // The framework's messages are one line; a long text is not one of them.
    let text = match axum::body::to_bytes(body, 16 * 1024).await {
        Ok(b) => String::from_utf8_lossy(&b).trim().to_string(),
        Err(_) => String::new(),
    };
    let message = if text.is_empty() {
        match status {
            StatusCode::NOT_FOUND => format!("no page or document at {path}"),
            StatusCode::METHOD_NOT_ALLOWED => format!("{path} does not take this method"),
            s => s.canonical_reason().unwrap_or("error").to_string(),
        }
    } else {
        text
    };
    let mut shaped = refusal(&path, status, &message);
    for (name, value) in parts.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            shaped.headers_mut().insert(name.clone(), value.clone());
        }
    }
    shaped
}

async fn security_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    let csp = HeaderValue::from_static(arbiter_pages::content_security_policy());
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, csp),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
    ] {
        h.entry(name).or_insert(value);
    }
    response
}

// --- connections ---------------------------------------------------------------------------

/// Connections open per IP address.
#[derive(Default)]
struct PerIp(Mutex<HashMap<IpAddr, usize>>);

/// One connection's place in [`PerIp`], given back when dropped.
struct IpSlot(Arc<PerIp>, IpAddr);

impl PerIp {
    fn take(self: &Arc<Self>, ip: IpAddr, max: usize) -> Option<IpSlot> {
        let mut m = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = m.entry(ip).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(IpSlot(self.clone(), ip))
    }
}

impl Drop for IpSlot {
    fn drop(&mut self) {
        let mut m = self.0.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&self.1) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.1);
            }
        }
    }
}

/// A socket whose writes fail once they have made no progress for `timeout` (a client that
/// stops reading holds its response, and the connection, only that long).
struct WriteDeadline {
    io: TcpStream,
    timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl WriteDeadline {
    fn pending<T>(&mut self, cx: &mut Context<'_>, r: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match r {
            Poll::Ready(r) => {
                self.stalled = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let timeout = self.timeout;
                let sleep = self
                    .stalled
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
                match sleep.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client read nothing within the write timeout",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncRead for WriteDeadline {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteDeadline {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, buf);
        self.pending(cx, r)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.pending(cx, r)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let r = Pin::new(&mut self.io).poll_flush(cx);
        self.pending(cx, r)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// Refuses a connection over a cap: a short 503 if the socket takes it at once, then close.
fn turn_away(tcp: TcpStream, why: &str) {
    let body = serde_json::json!({ "error": why }).to_string();
    let reply = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tcp.try_write(reply.as_bytes());
}

/// Serves `router` on `listener` within `limits` until `stop` turns true; then stops
/// accepting, asks every connection to close after its response in flight, and returns when
/// they have (the caller bounds the wait).
pub async fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: HttpLimits,
    mut stop: watch::Receiver<bool>,
) {
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let per_ip = Arc::new(PerIp::default());
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .keep_alive(true);
    let builder = Arc::new(builder);
    loop {
        let accepted = tokio::select! {
            _ = stop.wait_for(|s| *s) => break,
            accepted = listener.accept() => accepted,
        };
        let (tcp, peer): (TcpStream, SocketAddr) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of file descriptors and the like: wait instead of spinning.
                debug!(error = %e, "accepting an HTTP connection");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(slot) = open.clone().try_acquire_owned() else {
            turn_away(
                tcp,
                &format!(
                    "the server has {} connections open, its limit",
                    limits.max_connections
                ),
            );
            continue;
        };
        let Some(ip_slot) = per_ip.take(peer.ip(), limits.max_connections_per_ip) else {
            turn_away(
                tcp,
                &format!(
                    "{} has {} connections open, the limit per address",
                    peer.ip(),
                    limits.max_connections_per_ip
                ),
            );
            continue;
        };
        if let Err(e) = tcp.set_nodelay(true) {
            debug!(error = %e, "cannot set TCP_NODELAY on an HTTP connection");
        }
        let io = hyper_util::rt::TokioIo::new(WriteDeadline {
            io: tcp,
            timeout: limits.write_timeout,
            stalled: None,
        });
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
            req.extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            let router = router.clone();
            async move {
                use tower::ServiceExt as _;
                router.oneshot(req.map(Body::new)).await
            }
        });
        let builder = builder.clone();
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let conn = builder.serve_connection(io, service).with_upgrades();
            tokio::pin!(conn);
            let ended = tokio::select! {
                r = conn.as_mut() => Some(r),
                _ = stop.wait_for(|s| *s) => None,
            };
            let r = match ended {
                Some(r) => r,
                None => {
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
            };
            if let Err(e) = r {
                debug!(error = %e, %peer, "HTTP connection ended");
            }
            drop((slot, ip_slot));
        });
    }
    // Every connection gives its slot back as it ends.
    let _ = open.acquire_many(limits.max_connections as u32).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use std::time::Instant;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A router with a small and a big document, served within `limits` on a free port.
    async fn server(limits: HttpLimits) -> (SocketAddr, watch::Sender<bool>) {
        let big = axum::body::Bytes::from(vec![b'x'; 8 << 20]);
        let router = axum::Router::new()
            .route("/healthz", get(|| async { "ok" }))
            .route("/big", get(move || async move { big.clone() }))
            .route(
                "/api/n/{n}",
                get(
                    |axum::extract::Path(n): axum::extract::Path<u32>| async move { n.to_string() },
                ),
            );
        let router = wrap(router, None, &limits);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopping) = watch::channel(false);
        tokio::spawn(serve(listener, router, limits, stopping));
        (addr, stop)
    }

    /// A connection from the loopback address `from` (each test its own: the per-address cap).
    async fn connect(from: [u8; 4], to: SocketAddr) -> TcpStream {
        let s = tokio::net::TcpSocket::new_v4().unwrap();
        s.bind(SocketAddr::from((from, 0))).unwrap();
        s.connect(to).await.unwrap()
    }

    /// Everything the server sends until it closes (bounded by `within`).
    async fn until_closed(s: &mut TcpStream, within: Duration) -> String {
        let mut out = Vec::new();
        tokio::time::timeout(within, s.read_to_end(&mut out))
            .await
            .expect("the server closes the connection")
            .ok();
        String::from_utf8_lossy(&out).into_owned()
    }

    async fn get_once(from: [u8; 4], to: SocketAddr, path: &str) -> String {
        let mut s = connect(from, to).await;
        s.write_all(
            format!("GET {path} HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
        until_closed(&mut s, Duration::from_secs(5)).await
    }

    fn limits() -> HttpLimits {
        HttpLimits {
            header_timeout: Duration::from_millis(300),
            write_timeout: Duration::from_millis(300),
            max_connections: 5,
            max_connections_per_ip: 3,
            ..HttpLimits::default()
        }
    }

    #[tokio::test]
    async fn a_request_head_that_never_ends_is_closed_after_the_header_timeout() {
        let (addr, _stop) = server(limits()).await;
        let mut s = connect([127, 0, 0, 11], addr).await;
        let started = Instant::now();
        s.write_all(b"GET /healthz HTTP/1.1\r\nhost: t\r\nx-slow: 1")
            .await
            .unwrap();
        let got = until_closed(&mut s, Duration::from_secs(5)).await;
        assert!(!got.contains("200 OK"), "{got}");
        assert!(started.elapsed() >= Duration::from_millis(250));
        // A silent connection too (the keep-alive idle limit is the same timer).
        let mut idle = connect([127, 0, 0, 11], addr).await;
        assert_eq!(until_closed(&mut idle, Duration::from_secs(5)).await, "");
    }

    #[tokio::test]
    async fn connections_over_the_caps_are_answered_503_and_closed() {
        let (addr, _stop) = server(HttpLimits {
            header_timeout: Duration::from_secs(30),
            ..limits()
        })
        .await;
        // Three from one address: the per-address cap.
        let mut held = Vec::new();
        for _ in 0..3 {
            held.push(connect([127, 0, 0, 21], addr).await);
        }
        let mut fourth = connect([127, 0, 0, 21], addr).await;
        let refused = until_closed(&mut fourth, Duration::from_secs(5)).await;
        assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
        assert!(
            refused.contains("127.0.0.21 has 3 connections open, the limit per address"),
            "{refused}"
        );
        // Two more from another: the server's cap of 5 is reached.
        for _ in 0..2 {
            held.push(connect([127, 0, 0, 22], addr).await);
        }
        let refused = get_once([127, 0, 0, 23], addr, "/healthz").await;
        assert!(
            refused.contains("the server has 5 connections open, its limit"),
            "{refused}"
        );
        // One closes: the next is served.
        drop(held.pop());
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let got = get_once([127, 0, 0, 23], addr, "/healthz").await;
            if got.starts_with("HTTP/1.1 200") {
                break;
            }
            assert!(Instant::now() < deadline, "never served again: {got}");
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_client_that_stops_reading_loses_its_connection_after_the_write_timeout() {
        let (addr, _stop) = server(HttpLimits {
            header_timeout: Duration::from_secs(30),
            max_connections_per_ip: 1,
            ..limits()
        })
        .await;
        // A small receive buffer, and nothing read: the 8 MiB answer stalls.
        let s = tokio::net::TcpSocket::new_v4().unwrap();
        s.set_recv_buffer_size(4096).unwrap();
        s.bind(SocketAddr::from(([127, 0, 0, 31], 0))).unwrap();
        let mut reader = s.connect(addr).await.unwrap();
        reader
            .write_all(b"GET /big HTTP/1.1\r\nhost: t\r\n\r\n")
            .await
            .unwrap();
        // While it holds the address's one connection, another is refused; once the server
        // has dropped it for not reading, another is served.
        let started = Instant::now();
        loop {
            let got = get_once([127, 0, 0, 31], addr, "/healthz").await;
            if got.starts_with("HTTP/1.1 200") {
                break;
            }
            assert!(got.starts_with("HTTP/1.1 503"), "{got}");
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "the stalled connection was never dropped"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(started.elapsed() >= Duration::from_millis(250));
        let mut rest = Vec::new();
        let _ = reader.read_to_end(&mut rest).await;
        assert!(rest.len() < 8 << 20, "the whole answer was sent");
    }

    #[tokio::test]
    async fn framework_errors_have_the_documented_shape_and_every_answer_the_headers() {
        let (addr, _stop) = server(limits()).await;
        let bad = get_once([127, 0, 0, 41], addr, "/api/n/abc").await;
        assert!(bad.starts_with("HTTP/1.1 400"), "{bad}");
        assert!(bad.contains("content-type: application/json"), "{bad}");
        let body = bad.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("abc"), "{body}");
        let missing = get_once([127, 0, 0, 41], addr, "/nowhere").await;
        assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
        assert!(missing.contains("text/html"), "{missing}");
        assert!(
            missing.contains("no page or document at /nowhere"),
            "{missing}"
        );
        for answer in [
            bad,
            missing,
            get_once([127, 0, 0, 41], addr, "/healthz").await,
        ] {
            let head = answer
                .split("\r\n\r\n")
                .next()
                .unwrap()
                .to_ascii_lowercase();
            for h in [
                "content-security-policy: default-src 'none'",
                "frame-ancestors 'none'",
                "x-content-type-options: nosniff",
                "x-frame-options: deny",
                "referrer-policy: no-referrer",
            ] {
                assert!(head.contains(h), "{h} missing in {head}");
            }
        }
    }
}

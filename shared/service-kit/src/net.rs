//! How every service listens and every client connects: one place for the socket and HTTP/2
//! settings.
//!
//! - `TCP_NODELAY` on every accepted and every connected socket. Without it a reply of a few
//!   KB written in two segments waits for the client's delayed ACK (Nagle): a ~40 ms floor on
//!   every such call. tonic's own `Server::tcp_nodelay` applies only to `serve(addr)`, not to
//!   the listeners the services bind themselves, so [`incoming`] sets it on each connection.
//! - HTTP/2 keep-alive pings, so that a dead peer's connection (and its streams) is dropped in
//!   seconds rather than kept until the kernel gives up, and TCP keep-alive under them for
//!   idle connections.
//! - A bound on concurrent streams per connection, so that one client cannot hold an unbounded
//!   share of the server; many clients each get their own connection.

use std::time::Duration;
use tokio::net::TcpListener;
use tonic::transport::server::TcpIncoming;
use tonic::transport::{Endpoint, Server};

/// Interval of HTTP/2 keep-alive pings on an otherwise quiet connection.
pub const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(20);
/// A ping not answered in this time closes the connection.
pub const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);
/// TCP keep-alive on accepted sockets (idle time before the first probe).
pub const TCP_KEEPALIVE: Duration = Duration::from_secs(60);
/// Concurrent requests one HTTP/2 connection may have open on a server.
pub const MAX_CONCURRENT_STREAMS: u32 = 256;

/// A gRPC server builder with the settings above (add services, then serve with
/// [`incoming`]).
pub fn grpc_server() -> Server {
    Server::builder()
        .tcp_nodelay(true)
        .http2_keepalive_interval(Some(KEEPALIVE_INTERVAL))
        .http2_keepalive_timeout(Some(KEEPALIVE_TIMEOUT))
        .max_concurrent_streams(Some(MAX_CONCURRENT_STREAMS))
}

/// The connections accepted on `listener`, each with `TCP_NODELAY` and TCP keep-alive set.
pub fn incoming(listener: TcpListener) -> TcpIncoming {
    TcpIncoming::from(listener)
        .with_nodelay(Some(true))
        .with_keepalive(Some(TCP_KEEPALIVE))
}

/// The HTTP port's connections, each with `TCP_NODELAY` set (why: see above).
pub fn http_incoming(
    listener: TcpListener,
) -> axum::serve::TapIo<TcpListener, fn(&mut tokio::net::TcpStream)> {
    use axum::serve::ListenerExt;
    fn nodelay(tcp: &mut tokio::net::TcpStream) {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY on an HTTP connection");
        }
    }
    listener.tap_io(nodelay as fn(&mut tokio::net::TcpStream))
}

/// A client endpoint for `url` with `TCP_NODELAY` and HTTP/2 keep-alive (also while idle, so
/// that a long-lived client notices a restarted server).
pub fn endpoint(url: &str) -> Result<Endpoint, tonic::transport::Error> {
    Ok(Endpoint::from_shared(url.to_string())?
        .tcp_nodelay(true)
        .http2_keep_alive_interval(KEEPALIVE_INTERVAL)
        .keep_alive_timeout(KEEPALIVE_TIMEOUT)
        .keep_alive_while_idle(true))
}

/// The URL a process calls its own gRPC port bound at `addr` by: on the loopback interface
/// when it listens on every one (`0.0.0.0`, `::`).
pub fn own_url(mut addr: std::net::SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr {
            std::net::SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            std::net::SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    format!("http://{addr}")
}

/// CORS for gRPC-Web calls from pages of any origin: the bearer token is a header, never a
/// cookie, so another origin's page gains nothing it could not send itself. The answer's
/// gRPC status headers are exposed to the page.
pub fn grpc_web_cors() -> tower_http::cors::CorsLayer {
    use tonic::codegen::http::{HeaderName, Method};
    tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([Method::POST, Method::OPTIONS])
        .allow_headers(
            [
                "authorization",
                "content-type",
                "x-grpc-web",
                "x-user-agent",
                "grpc-timeout",
                "traceparent",
            ]
            .map(HeaderName::from_static),
        )
        .expose_headers(
            ["grpc-status", "grpc-message", "grpc-status-details-bin"].map(HeaderName::from_static),
        )
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_own_port_is_called_on_loopback_when_listening_everywhere() {
        assert_eq!(
            own_url("0.0.0.0:7070".parse().unwrap()),
            "http://127.0.0.1:7070"
        );
        assert_eq!(own_url("[::]:7070".parse().unwrap()), "http://[::1]:7070");
        assert_eq!(
            own_url("10.0.0.5:7070".parse().unwrap()),
            "http://10.0.0.5:7070"
        );
    }
    use super::*;
    use futures::StreamExt;

    #[tokio::test]
    async fn accepted_connections_have_nodelay_set() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut accepted = incoming(listener);
        let client = tokio::net::TcpStream::connect(addr).await.unwrap();
        let server_side = accepted.next().await.expect("a connection").unwrap();
        // The option as the kernel reports it (getsockopt), on the server's socket.
        assert!(server_side.nodelay().unwrap(), "TCP_NODELAY not set");
        drop(client);
    }
}

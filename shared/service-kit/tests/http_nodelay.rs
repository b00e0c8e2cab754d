//! The HTTP port's accepted connections have TCP_NODELAY set (as the kernel reports it), so
//! that a page or JSON reply written in several segments does not wait for the client's
//! delayed ACK.

use axum::serve::Listener;

#[tokio::test]
async fn accepted_http_connections_have_nodelay_set() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut incoming = arbiter_service_kit::net::http_incoming(listener);
    let client = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (server_side, _) = incoming.accept().await;
    assert!(server_side.nodelay().unwrap(), "TCP_NODELAY not set");
    drop(client);
}

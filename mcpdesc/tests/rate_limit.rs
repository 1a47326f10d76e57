//! Per-client rate limits over real HTTP (`HttpServer::rate_limit`): a burst from
//! one client gets `429` with `Retry-After` while another client is served; clients
//! are told apart by their principal when authenticated, else by their IP address
//! (127.0.0.1 and 127.0.0.2 on loopback), or by a key function.

#![cfg(feature = "rate-limit")]

#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;
use std::time::Duration;

use hyper::StatusCode;
use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::http::{HttpServer, RateLimit};
use mcpdesc::{Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;

use wire::{Client, Reply};

const PING: ToolSpec = ToolSpec::new(
    "ping",
    &[],
    r#"{"name": "ping", "inputSchema": {"type": "object"}}"#,
);

const SECURITY: &str = r#"{
    "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    "security": [{"bearer": []}]
}"#;

fn router() -> Router {
    Router::new(ServerInfo::new("limited", "1.0.0")).tool(PING, |_, _| {
        Box::pin(async { Ok(ToolResult::text("pong")) })
    })
}

async fn start(server: HttpServer) -> SocketAddr {
    let bound = server.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.run());
    addr
}

/// A JSON-RPC `ping` with no session: rmcp answers it with an error status, but
/// the rate limit comes first.
async fn ping(client: &Client) -> Reply {
    client
        .post(json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .await
}

/// The statuses of `n` requests sent one after the other.
async fn burst(client: &Client, n: usize) -> Vec<Reply> {
    let mut replies = Vec::new();
    for _ in 0..n {
        replies.push(ping(client).await);
    }
    replies
}

fn assert_limited(replies: &[Reply], allowed: usize) {
    let limited: Vec<&Reply> = replies
        .iter()
        .filter(|r| r.status == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    // The GCRA refills while the burst runs: at least the rest of the burst beyond
    // the allowance plus one is refused, for a burst much faster than the rate.
    assert!(
        limited.len() >= replies.len() - allowed - 1,
        "{} of {} refused",
        limited.len(),
        replies.len()
    );
    assert!(replies[..allowed]
        .iter()
        .all(|r| r.status != StatusCode::TOO_MANY_REQUESTS));
    for reply in limited {
        let retry_after: u64 = reply.headers["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=60).contains(&retry_after), "{retry_after}");
    }
}

#[tokio::test]
async fn a_burst_gets_429_with_retry_after_and_another_principal_is_served() {
    let tokens = StaticTokens::new()
        .token("token-a", Principal::new("alice"))
        .token("token-b", Principal::new("bob"));
    let router = router().security(Some(SECURITY)).authenticator(tokens);
    let limit = RateLimit::per_second(1).unwrap().burst(3).unwrap();
    let addr = start(HttpServer::new(router).rate_limit(limit)).await;

    let alice = Client::bearer(addr, "token-a");
    assert_limited(&burst(&alice, 8).await, 3);
    // Bob has his own allowance.
    let bob = Client::bearer(addr, "token-b");
    let mut bob_session = bob.clone();
    assert_eq!(bob_session.initialize().await.status, StatusCode::OK);
    assert_eq!(bob_session.tool_text(2, "ping").await, "pong");
    // Alice again after her wait.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_ne!(ping(&alice).await.status, StatusCode::TOO_MANY_REQUESTS);
}

/// `POST /mcp` with a `ping` from `source` (a loopback address), on a fresh
/// connection; the status code.
async fn ping_from(source: &str, server: SocketAddr) -> u16 {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    let mut stream = socket.connect(server).await.unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nhost: {server}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    response
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("{response}"))
}

#[tokio::test]
async fn anonymous_clients_are_told_apart_by_ip_address() {
    let limit = RateLimit::per_second(1).unwrap().burst(2).unwrap();
    let addr = start(HttpServer::new(router()).rate_limit(limit)).await;
    let mut first = Vec::new();
    for _ in 0..6 {
        first.push(ping_from("127.0.0.1", addr).await);
    }
    assert!(first[..2].iter().all(|&s| s != 429), "{first:?}");
    assert!(first[3..].iter().all(|&s| s == 429), "{first:?}");
    // Another address (every connection has its own port: the port is not the key).
    assert_ne!(ping_from("127.0.0.2", addr).await, 429);
}

#[tokio::test]
async fn a_key_function_groups_clients() {
    let limit = RateLimit::per_second(1)
        .unwrap()
        .burst(2)
        .unwrap()
        .key(|client| {
            client
                .headers
                .get("x-tenant")
                .and_then(|v| v.to_str().ok())
                .map_or_else(|| client.default_key(), |t| format!("tenant:{t}"))
        });
    let addr = start(HttpServer::new(router()).rate_limit(limit)).await;
    let acme = Client::new(addr).header("x-tenant", "acme");
    assert_limited(&burst(&acme, 6).await, 2);
    let globex = Client::new(addr).header("x-tenant", "globex");
    assert_ne!(ping(&globex).await.status, StatusCode::TOO_MANY_REQUESTS);
}

#[test]
fn zero_is_no_limit() {
    assert!(RateLimit::per_second(0).is_none());
    assert!(RateLimit::per_second(1).unwrap().burst(0).is_none());
}

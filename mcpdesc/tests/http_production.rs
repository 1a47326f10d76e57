//! The production bounds of `mcpdesc::http` on the wire: the `Origin` check and
//! CORS, the session cap and the handshake timeout, the header read timeout,
//! graceful shutdown with a call in flight, and the endpoint as a tower service and
//! an axum router merged into an application with its own routes.

#![cfg(feature = "http")]

#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use hyper::StatusCode;
use mcpdesc::http::HttpServer;
use mcpdesc::{ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wire::{send, Client};

const ECHO: ToolSpec = ToolSpec::new(
    "echo",
    &[],
    r#"{"name": "echo", "inputSchema": {"type": "object"}}"#,
);

/// Answers after 600 ms, with a progress notification halfway.
const SLOW: ToolSpec = ToolSpec::new(
    "slow",
    &[],
    r#"{"name": "slow", "inputSchema": {"type": "object"}}"#,
);

fn router() -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_11_25],
        ..ServerInfo::new("production", "1.0.0")
    };
    Router::new(info)
        .tool(ECHO, |_, _| {
            Box::pin(async { Ok(ToolResult::text("echo")) })
        })
        .tool(SLOW, |_, cx| {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                cx.progress(1.0, Some(2.0), None).await;
                tokio::time::sleep(Duration::from_millis(300)).await;
                Ok(ToolResult::text("slow done"))
            })
        })
}

async fn start(server: HttpServer) -> (SocketAddr, mcpdesc::http::BoundHttpServer) {
    let bound = server.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.clone().run());
    (addr, bound)
}

fn header(reply: &wire::Reply, name: &str) -> String {
    reply
        .headers
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_foreign_origin_gets_403_and_an_allowed_one_gets_cors() {
    let (addr, _server) =
        start(HttpServer::new(router()).allowed_origins(["http://app.example"])).await;
    let mut evil = Client::new(addr).header("origin", "http://evil.example");
    assert_eq!(evil.initialize().await.status, StatusCode::FORBIDDEN);

    let mut app = Client::new(addr).header("origin", "http://app.example");
    let reply = app.initialize().await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert_eq!(
        header(&reply, "access-control-allow-origin"),
        "http://app.example"
    );
    assert!(header(&reply, "access-control-expose-headers").contains("Mcp-Session-Id"));
    assert_eq!(app.tool_text(1, "echo").await, "echo");

    let preflight = send(
        addr,
        "OPTIONS",
        "/mcp",
        &[
            ("origin".into(), "http://app.example".into()),
            ("access-control-request-method".into(), "POST".into()),
        ],
        Vec::new(),
    )
    .await;
    assert_eq!(preflight.status, StatusCode::NO_CONTENT);
    assert_eq!(
        header(&preflight, "access-control-allow-origin"),
        "http://app.example"
    );
    let allowed = header(&preflight, "access-control-allow-headers").to_ascii_lowercase();
    for name in [
        "content-type",
        "authorization",
        "mcp-session-id",
        "mcp-protocol-version",
        "last-event-id",
    ] {
        assert!(allowed.contains(name), "{name} in {allowed}");
    }
    let exposed = header(&preflight, "access-control-expose-headers").to_ascii_lowercase();
    assert!(exposed.contains("mcp-session-id") && exposed.contains("www-authenticate"));
    assert!(header(&preflight, "access-control-allow-methods").contains("POST"));

    // A request without an origin still passes.
    assert_eq!(Client::new(addr).initialize().await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_loopback_server_allows_loopback_origins_by_default() {
    let (addr, _server) = start(HttpServer::new(router())).await;
    for origin in [
        "http://localhost:3000",
        "http://127.0.0.1:6274",
        "http://[::1]:8080",
    ] {
        let mut browser = Client::new(addr).header("origin", origin);
        let reply = browser.initialize().await;
        assert_eq!(reply.status, StatusCode::OK, "{origin}: {reply:?}");
        assert_eq!(header(&reply, "access-control-allow-origin"), origin);
    }
    // Any other origin still needs `allowed_origins`.
    for origin in ["http://evil.example", "http://localhost.evil.example:3000"] {
        let mut evil = Client::new(addr).header("origin", origin);
        assert_eq!(
            evil.initialize().await.status,
            StatusCode::FORBIDDEN,
            "{origin}"
        );
    }
    assert_eq!(Client::new(addr).initialize().await.status, StatusCode::OK);

    // A server bound to every address is not local: no origin by default.
    let bound = HttpServer::new(router()).bind("0.0.0.0:0").await.unwrap();
    let addr = SocketAddr::from(([127, 0, 0, 1], bound.local_addr().port()));
    tokio::spawn(bound.clone().run());
    let mut browser = Client::new(addr).header("origin", "http://localhost:3000");
    assert_eq!(browser.initialize().await.status, StatusCode::FORBIDDEN);
    assert_eq!(Client::new(addr).initialize().await.status, StatusCode::OK);
    bound.shutdown_token().cancel();
}

#[tokio::test]
async fn sessions_past_the_cap_get_503_and_open_sessions_keep_working() {
    let (addr, _server) = start(HttpServer::new(router()).max_sessions(2)).await;
    let mut first = Client::new(addr);
    assert_eq!(first.initialize().await.status, StatusCode::OK);
    let mut second = Client::new(addr);
    assert_eq!(second.initialize().await.status, StatusCode::OK);
    for _ in 0..3 {
        let refused = Client::new(addr).initialize().await;
        assert_eq!(
            refused.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{refused:?}"
        );
        assert!(!header(&refused, "retry-after").is_empty());
    }
    assert_eq!(first.tool_text(1, "echo").await, "echo");
    assert_eq!(second.tool_text(1, "echo").await, "echo");
}

#[tokio::test]
async fn a_session_silent_after_initialize_is_closed() {
    let (addr, _server) = start(
        HttpServer::new(router())
            .max_sessions(1)
            .initialize_timeout(Duration::from_millis(300)),
    )
    .await;
    // `initialize` only, never `notifications/initialized`.
    let silent = Client::new(addr)
        .post(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": wire::VERSION, "capabilities": {},
            "clientInfo": {"name": "silent", "version": "1.0.0"}}}),
        )
        .await;
    assert_eq!(silent.status, StatusCode::OK);
    assert_eq!(
        Client::new(addr).initialize().await.status,
        StatusCode::SERVICE_UNAVAILABLE
    );
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let mut later = Client::new(addr);
    assert_eq!(later.initialize().await.status, StatusCode::OK);
    // A session that completed its handshake outlives the timeout.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(later.tool_text(1, "echo").await, "echo");
}

#[tokio::test]
async fn a_half_sent_request_head_is_closed_after_the_timeout() {
    let (addr, _server) =
        start(HttpServer::new(router()).header_read_timeout(Duration::from_millis(500))).await;
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl")
        .await
        .unwrap();
    let started = Instant::now();
    let mut buffer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut buffer))
        .await
        .expect("the server closes the connection within 5 s");
    // Closed (EOF or reset), after the timeout and not long after.
    let _ = read;
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(400), "{waited:?}");
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    // The server still answers others.
    assert_eq!(Client::new(addr).initialize().await.status, StatusCode::OK);
}

#[tokio::test]
async fn shutdown_lets_a_call_in_flight_finish_and_refuses_new_ones() {
    let (addr, server) = start(HttpServer::new(router())).await;
    let mut client = Client::new(addr);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let caller = client.clone();
    let call = tokio::spawn(async move {
        caller
            .post(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                "params": {"name": "slow", "arguments": {}, "_meta": {"progressToken": "p"}}}))
            .await
    });
    tokio::time::sleep(Duration::from_millis(150)).await;
    let stopper = server.clone();
    let shutdown = tokio::spawn(async move { stopper.shutdown(Duration::from_secs(10)).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Draining: new work is refused while the call finishes.
    let refused = client.call_tool(6, "echo").await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{refused:?}"
    );
    let reply = call.await.unwrap();
    assert_eq!(reply.status, StatusCode::OK);
    let progress = reply
        .messages()
        .into_iter()
        .filter(|m| m["method"] == "notifications/progress")
        .count();
    assert_eq!(progress, 1, "{}", reply.body);
    assert_eq!(
        reply.answer(5)["result"]["content"][0]["text"],
        "slow done",
        "{}",
        reply.body
    );
    let cut = tokio::time::timeout(Duration::from_secs(10), shutdown)
        .await
        .expect("shutdown returns once drained")
        .unwrap();
    assert_eq!(cut.requests_cut, 0);
    // The listener is closed.
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn the_grace_period_bounds_the_drain() {
    let (addr, server) = start(HttpServer::new(router())).await;
    let mut client = Client::new(addr);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let caller = client.clone();
    let call = tokio::spawn(async move { caller.call_tool(5, "slow").await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let cut = server.shutdown(Duration::from_millis(100)).await;
    assert_eq!(cut.requests_cut, 1);
    assert!(started.elapsed() < Duration::from_secs(3));
    let _ = call.await;
}

#[cfg(feature = "axum")]
#[tokio::test]
async fn the_router_and_the_service_mount_in_an_axum_application() {
    use mcpdesc::http::HttpListener;

    let nested = HttpServer::new(router()).into_service().unwrap();
    let app = axum::Router::new()
        .route("/healthz", axum::routing::get(|| async { "ok" }))
        .nest_service("/tenant/a", nested)
        .merge(HttpServer::new(router()).into_router().unwrap());
    let listener = HttpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr();
    tokio::spawn(listener.serve(app, std::future::pending()));

    let health = send(addr, "GET", "/healthz", &[], Vec::new()).await;
    assert_eq!(
        (health.status, health.body.as_str()),
        (StatusCode::OK, "ok")
    );
    for path in ["/mcp", "/tenant/a"] {
        let mut client = Client::new(addr).path(path);
        assert_eq!(client.initialize().await.status, StatusCode::OK, "{path}");
        assert_eq!(client.tool_text(1, "echo").await, "echo", "{path}");
    }
    let missing = send(addr, "GET", "/elsewhere", &[], Vec::new()).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

/// Counts the session handlers alive (made by the factory, not yet dropped).
struct Counted {
    inner: mcpdesc::McpServer,
    live: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.live.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl mcpdesc::rmcp::ServerHandler for Counted {
    fn get_info(&self) -> mcpdesc::rmcp::model::ServerConfig {
        self.inner.get_info()
    }
}

#[tokio::test]
async fn sessions_that_expire_are_dropped() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let server = mcpdesc::McpServer::new(router());
    let live = Arc::new(AtomicUsize::new(0));
    let made = live.clone();
    let http = HttpServer::with_handler(move || {
        made.fetch_add(1, Ordering::SeqCst);
        Counted {
            inner: server.new_session(),
            live: made.clone(),
        }
    })
    .initialize_timeout(Duration::from_millis(200));
    let bound = http.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.clone().run());
    // A small flood: `initialize` only, never `notifications/initialized`.
    for _ in 0..20 {
        let reply = Client::new(addr)
            .post(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": wire::VERSION, "capabilities": {},
                "clientInfo": {"name": "flood", "version": "1.0.0"}}}),
            )
            .await;
        assert_eq!(reply.status, StatusCode::OK);
    }
    assert_eq!(bound.open_sessions().await, 20);
    // Both counters reach 0 once the handshake timeout closed them (bounded wait).
    let deadline = Instant::now() + Duration::from_secs(20);
    while (bound.open_sessions().await > 0 || live.load(Ordering::SeqCst) > 0)
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        bound.open_sessions().await,
        0,
        "sessions left in rmcp's map"
    );
    assert_eq!(
        live.load(Ordering::SeqCst),
        0,
        "session handlers not dropped"
    );
}

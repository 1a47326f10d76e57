//! `HttpServer::health_routes` on the wire: `/healthz` answers `200` before and
//! during a drain, `/readyz` turns `503` the moment the drain starts (while a call
//! is still in flight) and stays so after it.

#![cfg(feature = "axum")]

#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;
use std::time::Duration;

use hyper::StatusCode;
use mcpdesc::http::{HttpListener, HttpServer};
use mcpdesc::{ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use wire::{send, Client};

/// Answers after 800 ms: the call in flight that keeps the drain going.
const SLOW: ToolSpec = ToolSpec::new(
    "slow",
    &[],
    r#"{"name": "slow", "inputSchema": {"type": "object"}}"#,
);

fn router() -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_11_25],
        ..ServerInfo::new("health", "1.0.0")
    };
    Router::new(info).tool(SLOW, |_, _| {
        Box::pin(async {
            tokio::time::sleep(Duration::from_millis(800)).await;
            Ok(ToolResult::text("done"))
        })
    })
}

/// (status, body) of `GET path`.
async fn probe(addr: SocketAddr, path: &str) -> (StatusCode, String) {
    let reply = send(addr, "GET", path, &[], Vec::new()).await;
    (reply.status, reply.body)
}

#[tokio::test]
async fn readyz_turns_503_once_a_drain_starts_and_healthz_stays_200() {
    let server = HttpServer::new(router());
    let drain = server.drain();
    let app = server.health_routes().merge(server.into_router().unwrap());
    let listener = HttpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr();
    tokio::spawn(listener.serve(app, std::future::pending()));

    assert_eq!(probe(addr, "/healthz").await, (StatusCode::OK, "ok".into()));
    assert_eq!(
        probe(addr, "/readyz").await,
        (StatusCode::OK, "ready".into())
    );
    let cache = send(addr, "GET", "/readyz", &[], Vec::new()).await;
    assert_eq!(cache.headers["cache-control"], "no-store");

    // A call in flight keeps the drain from finishing.
    let mut client = Client::new(addr);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let call = tokio::spawn(async move { client.tool_text(2, "slow").await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let draining = {
        let drain = drain.clone();
        tokio::spawn(async move { drain.shutdown(Duration::from_secs(5)).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        !draining.is_finished(),
        "the drain ended with a call in flight"
    );

    assert_eq!(
        probe(addr, "/readyz").await,
        (StatusCode::SERVICE_UNAVAILABLE, "draining".into())
    );
    assert_eq!(probe(addr, "/healthz").await, (StatusCode::OK, "ok".into()));
    // The MCP endpoint refuses new work the same way.
    let refused = Client::new(addr).initialize().await;
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);

    assert_eq!(call.await.unwrap(), "done");
    assert_eq!(draining.await.unwrap().requests_cut, 0);
    // Drained: still alive (the process decides when to exit), never ready again.
    assert_eq!(
        probe(addr, "/readyz").await,
        (StatusCode::SERVICE_UNAVAILABLE, "draining".into())
    );
    assert_eq!(probe(addr, "/healthz").await, (StatusCode::OK, "ok".into()));
}

#[tokio::test]
async fn the_probes_answer_head_and_refuse_other_methods() {
    let server = HttpServer::new(router());
    let app = server.health_routes();
    let listener = HttpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr();
    tokio::spawn(listener.serve(app, std::future::pending()));
    for path in ["/healthz", "/readyz"] {
        let head = send(addr, "HEAD", path, &[], Vec::new()).await;
        assert_eq!(
            (head.status, head.body.as_str()),
            (StatusCode::OK, ""),
            "{path}"
        );
        let post = send(addr, "POST", path, &[], Vec::new()).await;
        assert_eq!(post.status, StatusCode::METHOD_NOT_ALLOWED, "{path}");
    }
}

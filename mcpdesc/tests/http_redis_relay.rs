//! A session's messages across stateful instances sharing one real Redis
//! (`HttpServer::shared_state`; `http/relay.rs`): the client's `GET` stream is held
//! by one instance while its requests run on another, as under plain round robin.
//! A log message a handler sends on instance B reaches the client's stream on
//! instance A; a `notifications/cancelled` posted to A stops the handler running on
//! B (which says so in a log message A's stream hears).
//!
//! Each test starts its own `redis-server` (skipped with a notice without one; a
//! failure under `MCPDESC_REQUIRE_TOOLS=1`).

#[path = "../../tests/prereq.rs"]
mod prereq;
#[path = "support/redis.rs"]
mod redis;
#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::body::Incoming;
use hyper::StatusCode;
use mcpdesc::http::HttpServer;
use mcpdesc::state::RedisState;
use mcpdesc::{LogLevel, ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use redis::Redis;
use serde_json::json;
use wire::{Client, VERSION};

/// A `redis-server` of the test's own; `None` (a notice) without the program.
fn redis_server(test: &str) -> Option<Redis> {
    let program = prereq::program(test, redis::CANDIDATES, &["--version"], redis::HOW)?;
    Some(Redis::start(program))
}

/// Logs a line naming the instance that ran it.
const SPEAK: ToolSpec = ToolSpec::new(
    "speak",
    &[],
    r#"{"name": "speak", "inputSchema": {"type": "object"}}"#,
);

/// Runs until cancelled, then logs that it stopped, naming the instance.
const SLOW: ToolSpec = ToolSpec::new(
    "slow",
    &[],
    r#"{"name": "slow", "inputSchema": {"type": "object"}}"#,
);

fn router(instance: &'static str) -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
        capabilities: Some(r#"[{"logging": {}}]"#),
        ..ServerInfo::new("relay", "1.0.0")
    };
    Router::new(info)
        .tool(SPEAK, move |_, cx| {
            Box::pin(async move {
                cx.log(LogLevel::Info, format!("spoken on {instance}")).await;
                Ok(ToolResult::text("said"))
            })
        })
        .tool(SLOW, move |_, cx| {
            Box::pin(async move {
                tokio::select! {
                    () = cx.cancelled() => {
                        cx.log(LogLevel::Info, format!("slow cancelled on {instance}")).await;
                        Ok(ToolResult::text("cancelled"))
                    }
                    () = tokio::time::sleep(Duration::from_secs(60)) => Ok(ToolResult::text("done")),
                }
            })
        })
}

/// One instance on a free port; `redis`: its sessions in that Redis, else in memory.
async fn instance(redis: Option<&Redis>, name: &'static str) -> SocketAddr {
    let mut server = HttpServer::new(router(name));
    if let Some(redis) = redis {
        let state = RedisState::open(&redis.url).unwrap().with_prefix("relay:");
        server = server.shared_state(Arc::new(state));
    }
    let bound = server.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(async move {
        let _ = bound.run().await;
    });
    addr
}

/// `client` pointed at another instance, same session.
fn at(client: &Client, addr: SocketAddr) -> Client {
    Client {
        addr,
        ..client.clone()
    }
}

/// The client's standalone `GET` stream of its session, on `addr`.
async fn open_stream(client: &Client, addr: SocketAddr) -> Incoming {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(connection);
    let get = hyper::Request::get("/mcp")
        .header("host", addr.to_string())
        .header("accept", "text/event-stream")
        .header("mcp-session-id", client.session.clone().unwrap())
        .header("mcp-protocol-version", VERSION)
        .body(Empty::<Bytes>::new())
        .unwrap();
    let response = sender.send_request(get).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.into_body()
}

/// Whether `events` carries `text` within `wait`.
async fn hears(events: &mut Incoming, text: &str, wait: Duration) -> bool {
    tokio::time::timeout(wait, async {
        let mut seen = String::new();
        while let Some(frame) = events.frame().await {
            let Ok(frame) = frame else { return false };
            if let Ok(data) = frame.into_data() {
                seen.push_str(&String::from_utf8_lossy(&data));
                if seen.contains(text) {
                    return true;
                }
            }
        }
        false
    })
    .await
    .unwrap_or(false)
}

/// Two instances, a session opened on A with its stream held on A.
async fn pair(redis: Option<&Redis>) -> (Client, SocketAddr, Incoming) {
    let a = instance(redis, "A").await;
    let b = instance(redis, "B").await;
    let mut client = Client::new(a);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let events = open_stream(&client, a).await;
    (client, b, events)
}

#[tokio::test]
async fn a_log_message_sent_on_one_instance_reaches_the_stream_held_by_another() {
    let Some(redis) =
        redis_server("a_log_message_sent_on_one_instance_reaches_the_stream_held_by_another")
    else {
        return;
    };
    let (client, b, mut events) = pair(Some(&redis)).await;
    assert_eq!(at(&client, b).tool_text(1, "speak").await, "said");
    assert!(
        hears(&mut events, "spoken on B", Duration::from_secs(10)).await,
        "the stream on A did not hear B's log message"
    );
}

#[tokio::test]
async fn a_cancellation_posted_to_one_instance_stops_the_handler_on_another() {
    let Some(redis) =
        redis_server("a_cancellation_posted_to_one_instance_stops_the_handler_on_another")
    else {
        return;
    };
    let (client, b, mut events) = pair(Some(&redis)).await;
    let on_b = at(&client, b);
    let call = tokio::spawn(async move { on_b.call_tool(7, "slow").await });
    // Give B time to start the handler (its request is in flight).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let cancelled = client
        .post(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": 7, "reason": "the test cancels"}}),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::ACCEPTED, "{cancelled:?}");
    assert!(
        hears(&mut events, "slow cancelled on B", Duration::from_secs(10)).await,
        "the handler on B did not stop (or its log did not reach A's stream)"
    );
    call.abort();
}

//! A session's messages across stateful instances sharing one real Redis
//! (`HttpServer::shared_state`; `http/relay.rs`): the client's `GET` stream is held
//! by one instance while its requests run on another, as under plain round robin.
//! A log message a handler sends on instance B reaches the client's stream on
//! instance A; a `notifications/cancelled` posted to A stops the handler running on
//! B (which says so in a log message A's stream hears). With the events of SSE
//! streams kept in Redis (`RedisState::with_resumable_streams`), a client whose
//! stream on A broke resumes it with `Last-Event-ID` on B: it hears what was sent
//! meanwhile on any instance, then goes on live.
//!
//! Each test starts its own `redis-server` (skipped with a notice without one; a
//! failure under `MCPDESC_REQUIRE_TOOLS=1`).

#[path = "../../tests/prereq.rs"]
mod prereq;
#[path = "support/redis.rs"]
mod redis;
#[path = "support/sse.rs"]
mod sse;
#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::StatusCode;
use mcpdesc::http::HttpServer;
use mcpdesc::state::RedisState;
use mcpdesc::{LogLevel, ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use redis::Redis;
use serde_json::json;
use sse::Stream;
use wire::Client;

/// A `redis-server` of the test's own; `None` (a notice) without the program.
fn redis_server(test: &str) -> Option<Redis> {
    Redis::for_test(test, prereq::program)
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

/// One instance on a free port, its sessions in `redis`; `resumable`: the events of
/// its SSE streams there too.
async fn instance(redis: &Redis, name: &'static str, resumable: bool) -> SocketAddr {
    let mut state = RedisState::open(&redis.url).unwrap().with_prefix("relay:");
    if resumable {
        state = state.with_resumable_streams(Duration::from_secs(60));
    }
    let server = HttpServer::new(router(name)).shared_state(Arc::new(state));
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

/// Two instances, a session opened on A with its stream held on A.
async fn pair(redis: &Redis, resumable: bool) -> (Client, SocketAddr, Stream) {
    let a = instance(redis, "A", resumable).await;
    let b = instance(redis, "B", resumable).await;
    let mut client = Client::new(a);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let events = Stream::open(&client).await;
    (client, b, events)
}

const WAIT: Duration = Duration::from_secs(10);

#[tokio::test]
async fn a_log_message_sent_on_one_instance_reaches_the_stream_held_by_another() {
    let Some(redis) =
        redis_server("a_log_message_sent_on_one_instance_reaches_the_stream_held_by_another")
    else {
        return;
    };
    let (client, b, mut events) = pair(&redis, false).await;
    assert_eq!(at(&client, b).tool_text(1, "speak").await, "said");
    assert!(
        events.next_log("spoken on B", WAIT).await.is_some(),
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
    let (client, b, mut events) = pair(&redis, false).await;
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
        events.next_log("slow cancelled on B", WAIT).await.is_some(),
        "the handler on B did not stop (or its log did not reach A's stream)"
    );
    call.abort();
}

#[tokio::test]
async fn a_broken_stream_resumes_on_another_instance_with_last_event_id() {
    let Some(redis) =
        redis_server("a_broken_stream_resumes_on_another_instance_with_last_event_id")
    else {
        return;
    };
    let (client, b, mut events) = pair(&redis, true).await;
    // A log message on A's stream, with its event id.
    assert_eq!(client.tool_text(1, "speak").await, "said");
    let (last, _) = events
        .next_log("spoken on A", WAIT)
        .await
        .expect("A's stream heard A's log message");
    assert!(last.contains(":common#"), "a stored event's id: {last:?}");
    // The stream breaks; meanwhile B's handler logs.
    drop(events);
    let on_b = at(&client, b);
    assert_eq!(on_b.tool_text(2, "speak").await, "said");
    // Resumed on B: the message sent while the client had no stream, then live.
    let mut resumed = Stream::resume(&on_b, Some(&last)).await;
    assert!(
        resumed.next_log("spoken on B", WAIT).await.is_some(),
        "the replay on B did not hold B's message sent while the stream was broken"
    );
    assert_eq!(client.tool_text(3, "speak").await, "said");
    assert!(
        resumed.next_log("spoken on A", WAIT).await.is_some(),
        "the resumed stream did not go on live"
    );
}

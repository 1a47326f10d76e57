//! Change notifications across stateful instances sharing one real Redis
//! (`HttpServer::shared_state`, `mcpdesc::state::RedisState`): a `resources/updated`
//! or `list_changed` announced on one instance reaches the sessions subscribed on
//! another (once, never twice on the announcing one); a session restored on another
//! instance keeps its subscriptions and its log level; with Redis paused the
//! announcing request answers at once, and announcements cross again once it
//! resumes, and after Redis restarts (each instance subscribes again).
//!
//! Each test starts its own `redis-server` (skipped with a notice without one; a
//! failure under `MCPDESC_REQUIRE_TOOLS=1`). Clients listen on the session's
//! standalone SSE stream (`GET /mcp`), where notifications outside a request go.

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
use std::time::{Duration, Instant};

use hyper::StatusCode;
use mcpdesc::http::HttpServer;
use mcpdesc::state::RedisState;
use mcpdesc::{
    LogLevel, ProtocolVersion, ResourceResult, ResourceSpec, Router, ServerInfo, ToolResult,
    ToolSpec,
};
use redis::Redis;
use serde_json::{json, Value};
use sse::Stream;
use wire::Client;

/// The key prefix of the tests' instances; the announcements' channel is
/// `{PREFIX}changes`.
const PREFIX: &str = "notify:";

/// A `redis-server` of the test's own; `None` (a notice) without the program.
fn redis_server(test: &str) -> Option<Redis> {
    Redis::for_test(test, prereq::program)
}

const WATCHED: ResourceSpec = ResourceSpec::new(
    "test://watched",
    &[],
    r#"{"uri": "test://watched", "name": "watched"}"#,
);

/// Announces that `test://watched` changed.
const TOUCH: ToolSpec = ToolSpec::new(
    "touch",
    &[],
    r#"{"name": "touch", "inputSchema": {"type": "object"}}"#,
);

/// Announces that the tool list changed.
const GROW: ToolSpec = ToolSpec::new(
    "grow",
    &[],
    r#"{"name": "grow", "inputSchema": {"type": "object"}}"#,
);

/// Logs one message at `info` and one at `warning`.
const SPEAK: ToolSpec = ToolSpec::new(
    "speak",
    &[],
    r#"{"name": "speak", "inputSchema": {"type": "object"}}"#,
);

fn router(instance: &'static str) -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_11_25],
        capabilities: Some(
            r#"[{"protocolVersions": ["2025-11-25"], "logging": {},
                 "tools": {"listChanged": true}, "resources": {"subscribe": true}}]"#,
        ),
        ..ServerInfo::new("notify", "1.0.0")
    };
    Router::new(info)
        .resource(WATCHED, |uri, _cx| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "text/plain", "v")) })
        })
        .tool(TOUCH, move |_, cx| {
            Box::pin(async move {
                let here = cx.changes().resource_updated("test://watched").await;
                Ok(ToolResult::text(format!("{instance} {here}")))
            })
        })
        .tool(GROW, move |_, cx| {
            Box::pin(async move {
                let here = cx.changes().tools_list_changed().await;
                Ok(ToolResult::text(format!("{instance} {here}")))
            })
        })
        .tool(SPEAK, move |_, cx| {
            Box::pin(async move {
                cx.log(LogLevel::Info, "info from speak").await;
                cx.log(LogLevel::Warning, "warning from speak").await;
                Ok(ToolResult::text(instance))
            })
        })
}

/// One instance on a free port, its state in `redis`, each Redis operation bounded
/// by `timeout`, a session's record read again after `recheck`.
async fn instance(
    redis: &Redis,
    name: &'static str,
    timeout: Duration,
    recheck: Duration,
) -> SocketAddr {
    let state = RedisState::open(&redis.url)
        .unwrap()
        .with_prefix(PREFIX)
        .with_timeout(timeout)
        .with_recheck(recheck);
    let bound = HttpServer::new(router(name))
        .shared_state(Arc::new(state))
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let addr = bound.local_addr();
    tokio::spawn(async move {
        let _ = bound.run().await;
    });
    addr
}

/// `instances` instances, returned once each one's announcement feed is subscribed
/// (an announcement published before that would not reach it: pub/sub keeps
/// nothing).
async fn instances<const N: usize>(redis: &Redis, recheck: Duration) -> [SocketAddr; N] {
    const NAMES: [&str; 3] = ["A", "B", "C"];
    let mut addrs = [SocketAddr::from(([127, 0, 0, 1], 0)); N];
    for (at, addr) in addrs.iter_mut().enumerate() {
        *addr = instance(redis, NAMES[at], Duration::from_secs(2), recheck).await;
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while redis.subscribers(&format!("{PREFIX}changes")) < N {
        assert!(
            Instant::now() < deadline,
            "the instances did not subscribe to {PREFIX}changes"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    addrs
}

/// `client` pointed at another instance, same session.
fn at(client: &Client, addr: SocketAddr) -> Client {
    Client {
        addr,
        ..client.clone()
    }
}

/// A client with an open session on `addr`.
async fn opened(addr: SocketAddr) -> Client {
    let mut client = Client::new(addr);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    client
}

/// Sends request `method` with `params` as `id`; asserts it succeeded.
async fn request(client: &Client, id: i64, method: &str, params: Value) -> Value {
    let reply = client
        .post(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        .await;
    let answer = reply.answer(id);
    assert!(answer.get("result").is_some(), "{method}: {answer}");
    answer
}

async fn subscribe(client: &Client, id: i64) {
    request(
        client,
        id,
        "resources/subscribe",
        json!({"uri": "test://watched"}),
    )
    .await;
}

/// The text of a tool call's answer.
async fn call(client: &Client, id: i64, tool: &str) -> String {
    client.tool_text(id, tool).await
}

const UPDATED: &str = "notifications/resources/updated";
const TOOLS_CHANGED: &str = "notifications/tools/list_changed";
const LOGGED: &str = "notifications/message";
const QUIET: Duration = Duration::from_millis(700);
const WAIT: Duration = Duration::from_secs(5);

#[tokio::test]
async fn an_update_announced_on_one_instance_reaches_a_session_subscribed_on_another() {
    let Some(redis) =
        redis_server("an_update_announced_on_one_instance_reaches_a_session_subscribed_on_another")
    else {
        return;
    };
    let [a, b] = instances::<2>(&redis, Duration::from_secs(1)).await;
    let listener = opened(a).await;
    subscribe(&listener, 1).await;
    let mut stream = Stream::open(&listener).await;
    let other = opened(b).await;
    // Announced on B, where no session is subscribed: B sent it to none of its own.
    assert_eq!(call(&other, 2, "touch").await, "B 0");
    let heard = stream.next(UPDATED, WAIT).await.expect("heard on A");
    assert_eq!(heard["params"], json!({"uri": "test://watched"}));
    assert!(stream.next(UPDATED, QUIET).await.is_none(), "heard twice");
    // Announced on A itself: delivered once, not again when Redis hands it back.
    assert_eq!(call(&listener, 3, "touch").await, "A 1");
    assert!(stream.next(UPDATED, WAIT).await.is_some());
    assert!(stream.next(UPDATED, QUIET).await.is_none(), "heard twice");
    // Unsubscribed on A: nothing comes.
    request(
        &listener,
        4,
        "resources/unsubscribe",
        json!({"uri": "test://watched"}),
    )
    .await;
    assert_eq!(call(&other, 5, "touch").await, "B 0");
    assert!(stream.next(UPDATED, QUIET).await.is_none(), "unsubscribed");
}

#[tokio::test]
async fn list_changed_announced_on_one_instance_reaches_the_sessions_of_another() {
    let Some(redis) =
        redis_server("list_changed_announced_on_one_instance_reaches_the_sessions_of_another")
    else {
        return;
    };
    let [a, b] = instances::<2>(&redis, Duration::from_secs(1)).await;
    let listener = opened(a).await;
    let mut stream = Stream::open(&listener).await;
    let other = opened(b).await;
    assert!(call(&other, 1, "grow").await.starts_with("B "));
    assert!(
        stream.next(TOOLS_CHANGED, WAIT).await.is_some(),
        "heard on A"
    );
    assert!(
        stream.next(TOOLS_CHANGED, QUIET).await.is_none(),
        "heard twice"
    );
}

/// The messages of `method` on `stream` until it stays quiet, and those of `reply`.
async fn logged(stream: &mut Stream, reply: wire::Reply) -> Vec<Value> {
    let mut logged = Vec::new();
    while let Some(message) = stream.next(LOGGED, QUIET).await {
        logged.push(message["params"]["data"].clone());
    }
    logged.extend(
        reply
            .messages()
            .into_iter()
            .filter(|m| m["method"] == LOGGED)
            .map(|m| m["params"]["data"].clone()),
    );
    logged
}

#[tokio::test]
async fn a_session_keeps_its_subscriptions_and_log_level_on_every_instance() {
    let Some(redis) =
        redis_server("a_session_keeps_its_subscriptions_and_log_level_on_every_instance")
    else {
        return;
    };
    let [a, b, c] = instances::<3>(&redis, Duration::from_secs(1)).await;
    let client = opened(a).await;
    // B restores the session before it subscribes: B's worker of it is live, and
    // learns what changes on A through the session announcements.
    let on_b = at(&client, b);
    assert_eq!(call(&on_b, 1, "touch").await, "B 0");
    request(&client, 2, "logging/setLevel", json!({"level": "warning"})).await;
    subscribe(&client, 3).await;
    let mut stream_b = Stream::open(&on_b).await;
    // C restores it after: from the record in Redis.
    let on_c = at(&client, c);
    let mut stream_c = Stream::open(&on_c).await;
    // An update announced on A, by another session, reaches it on B and on C.
    let other = opened(a).await;
    assert!(call(&other, 4, "touch").await.starts_with("A "));
    for (stream, name) in [(&mut stream_b, "B"), (&mut stream_c, "C")] {
        let heard = stream
            .next(UPDATED, WAIT)
            .await
            .unwrap_or_else(|| panic!("not heard on {name}"));
        assert_eq!(heard["params"], json!({"uri": "test://watched"}));
    }
    // The level holds on both: the warning alone, not the info below it (log
    // messages go to the standalone stream).
    for (client, stream, id) in [(&on_b, &mut stream_b, 5), (&on_c, &mut stream_c, 6)] {
        let reply = client.call_tool(id, "speak").await;
        assert!(reply.answer(id)["result"]["content"][0]["text"].is_string());
        assert_eq!(logged(stream, reply).await, [json!("warning from speak")]);
    }
    // Unsubscribed on C: B stops hearing too.
    request(
        &on_c,
        7,
        "resources/unsubscribe",
        json!({"uri": "test://watched"}),
    )
    .await;
    // (C's announcement of it is ordered before this update, both from C.)
    assert!(call(&at(&other, c), 8, "touch").await.starts_with("C "));
    assert!(
        stream_b.next(UPDATED, QUIET).await.is_none(),
        "unsubscribed"
    );
    assert!(
        stream_c.next(UPDATED, QUIET).await.is_none(),
        "unsubscribed"
    );
}

#[tokio::test]
async fn with_redis_paused_the_announcing_request_does_not_hang() {
    let Some(redis) = redis_server("with_redis_paused_the_announcing_request_does_not_hang") else {
        return;
    };
    // Sessions are read again after a minute only: requests need no Redis while it
    // is paused, but announcements do.
    let [a, b] = instances::<2>(&redis, Duration::from_secs(60)).await;
    let listener = opened(a).await;
    subscribe(&listener, 1).await;
    let mut stream = Stream::open(&listener).await;
    let other = opened(b).await;
    assert_eq!(call(&other, 2, "touch").await, "B 0");
    assert!(stream.next(UPDATED, WAIT).await.is_some());

    redis.signal("STOP");
    for id in 3..=5 {
        let started = Instant::now();
        assert_eq!(call(&other, id, "touch").await, "B 0");
        // The store's timeout is 2 s: the request does not wait for it.
        assert!(
            started.elapsed() < Duration::from_millis(1_500),
            "the announcing request waited {:?}",
            started.elapsed()
        );
    }
    redis.signal("CONT");
    // Once Redis answers again announcements cross again (the feed checks its
    // connection and subscribes again if it was lost).
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut id = 10;
    loop {
        // Drain what was queued during the pause.
        while stream
            .next(UPDATED, Duration::from_millis(200))
            .await
            .is_some()
        {}
        assert_eq!(call(&other, id, "touch").await, "B 0");
        if stream.next(UPDATED, Duration::from_secs(1)).await.is_some() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "announcements did not cross again"
        );
        id += 1;
    }
}

#[tokio::test]
async fn announcements_cross_again_after_redis_restarts() {
    let Some(mut redis) = redis_server("announcements_cross_again_after_redis_restarts") else {
        return;
    };
    let [a, b] = instances::<2>(&redis, Duration::from_secs(1)).await;
    // Redis dies (its data with it) and comes back on the same port: each
    // instance's pub/sub connection closed, and each subscribes again on its own.
    redis.restart(true);
    let channel = format!("{PREFIX}changes");
    let deadline = Instant::now() + Duration::from_secs(30);
    while redis.subscribers(&channel) < 2 {
        assert!(
            Instant::now() < deadline,
            "the instances did not subscribe again"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The sessions went with the data; new ones hear each other's announcements.
    let listener = opened(a).await;
    subscribe(&listener, 1).await;
    let mut stream = Stream::open(&listener).await;
    let other = opened(b).await;
    assert_eq!(call(&other, 2, "touch").await, "B 0");
    assert!(stream.next(UPDATED, WAIT).await.is_some(), "heard on A");
}

//! Several stateful instances sharing one real Redis (`HttpServer::shared_state`,
//! `mcpdesc::state::RedisState`): a session opened on one instance is served by the
//! other at its next request (round robin, request by request), survives the end of
//! the instance that opened it, stays bound to its principal on every instance, and
//! ends everywhere with its `DELETE`; Redis paused gives `503` with `Retry-After` in
//! bounded time, and sessions work again when it resumes; Redis restarted without
//! its data gives `404` (the client initializes again, and that works).
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
use std::time::{Duration, Instant};

use hyper::StatusCode;
use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::http::HttpServer;
use mcpdesc::state::RedisState;
use mcpdesc::{CancellationToken, ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use redis::Redis;
use wire::{send, Client, Reply, VERSION};

/// A `redis-server` of the test's own; `None` (a notice) without the program.
fn redis_server(test: &str) -> Option<Redis> {
    Redis::for_test(test, prereq::program)
}

/// Answers the session's negotiated version, the caller and the instance.
const WHO: ToolSpec = ToolSpec::new(
    "who",
    &[],
    r#"{"name": "who", "inputSchema": {"type": "object"}}"#,
);

const SECURITY: &str = r#"{
    "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    "security": [{"bearer": []}]
}"#;

fn router(instance: &'static str, secured: bool) -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
        ..ServerInfo::new("shared", "1.0.0")
    };
    let router = Router::new(info).tool(WHO, move |_, cx| {
        let who = cx
            .principal()
            .map_or("anonymous", |p| p.subject())
            .to_owned();
        let version = cx.protocol_version();
        Box::pin(async move {
            Ok(ToolResult::text(format!(
                "{} {who} {instance}",
                version.as_str()
            )))
        })
    });
    match secured {
        true => router.security(Some(SECURITY)).authenticator(
            StaticTokens::new()
                .token("alice-token", Principal::new("alice"))
                .token("bob-token", Principal::new("bob")),
        ),
        false => router,
    }
}

/// One instance on a free port, its state in `redis` under `prefix`; the token
/// stops it (its listener closes).
async fn instance(
    redis: &Redis,
    name: &'static str,
    secured: bool,
    timeout: Duration,
) -> (
    SocketAddr,
    CancellationToken,
    Arc<tokio::task::JoinHandle<()>>,
) {
    let state = RedisState::open(&redis.url)
        .unwrap()
        .with_prefix("test:")
        .with_timeout(timeout);
    let bound = HttpServer::new(router(name, secured))
        .shared_state(Arc::new(state))
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let addr = bound.local_addr();
    let stop = bound.shutdown_token();
    let task = tokio::spawn(async move {
        let _ = bound.run().await;
    });
    (addr, stop, Arc::new(task))
}

/// `client` pointed at another instance, same session and credentials.
fn at(client: &Client, addr: SocketAddr) -> Client {
    Client {
        addr,
        ..client.clone()
    }
}

async fn delete(client: &Client) -> Reply {
    let mut headers = client.headers.clone();
    headers.push(("mcp-session-id".into(), client.session.clone().unwrap()));
    headers.push(("mcp-protocol-version".into(), VERSION.into()));
    send(client.addr, "DELETE", "/mcp", &headers, Vec::new()).await
}

#[tokio::test]
async fn a_session_is_served_by_every_instance_in_turn() {
    let Some(redis) = redis_server("a_session_is_served_by_every_instance_in_turn") else {
        return;
    };
    let timeout = Duration::from_secs(2);
    let (a, _, _) = instance(&redis, "A", false, timeout).await;
    let (b, _, _) = instance(&redis, "B", false, timeout).await;
    let mut client = Client::new(a);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    // Round robin: every request on the other instance than the one before.
    for id in 1..=6 {
        let (addr, name) = if id % 2 == 1 { (b, "B") } else { (a, "A") };
        assert_eq!(
            at(&client, addr).tool_text(id, "who").await,
            format!("{VERSION} anonymous {name}"),
            "request {id}"
        );
    }
}

#[tokio::test]
async fn a_session_outlives_the_instance_that_opened_it() {
    let Some(redis) = redis_server("a_session_outlives_the_instance_that_opened_it") else {
        return;
    };
    let timeout = Duration::from_secs(2);
    let (a, stop_a, task_a) = instance(&redis, "A", true, timeout).await;
    let (b, _, _) = instance(&redis, "B", true, timeout).await;
    let mut alice = Client::bearer(a, "alice-token");
    assert_eq!(alice.initialize().await.status, StatusCode::OK);
    assert_eq!(
        alice.tool_text(1, "who").await,
        format!("{VERSION} alice A")
    );
    // A goes away mid-session: its listener and its sessions' workers.
    task_a.abort();
    stop_a.cancel();
    let down = tokio::time::timeout(Duration::from_secs(5), async {
        while tokio::net::TcpStream::connect(a).await.is_ok() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(down.is_ok(), "instance A still listens");
    let alice = at(&alice, b);
    assert_eq!(
        alice.tool_text(2, "who").await,
        format!("{VERSION} alice B")
    );
    // Bound to Alice on B too: Bob gets the unknown-session answer.
    let bob = Client {
        session: alice.session.clone(),
        ..Client::bearer(b, "bob-token")
    };
    let refused = bob.call_tool(3, "who").await;
    let unknown = Client {
        session: Some("9a3c1e7e-2b6f-4f3e-8d1a-0c4b5e6f7a8b".into()),
        ..bob.clone()
    }
    .call_tool(3, "who")
    .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{refused:?}");
    assert_eq!(
        (refused.status, &refused.body),
        (unknown.status, &unknown.body)
    );
    assert_eq!(delete(&bob).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        alice.tool_text(4, "who").await,
        format!("{VERSION} alice B")
    );
}

#[tokio::test]
async fn delete_on_one_instance_ends_the_session_on_every_one() {
    let Some(redis) = redis_server("delete_on_one_instance_ends_the_session_on_every_one") else {
        return;
    };
    let timeout = Duration::from_secs(2);
    let (a, _, _) = instance(&redis, "A", false, timeout).await;
    let (b, _, _) = instance(&redis, "B", false, timeout).await;
    let mut client = Client::new(a);
    client.initialize().await;
    // Live on both.
    assert!(at(&client, b).tool_text(1, "who").await.ends_with('B'));
    assert!(client.tool_text(2, "who").await.ends_with('A'));
    assert_eq!(delete(&client).await.status, StatusCode::NO_CONTENT);
    for addr in [a, b] {
        // B read the session's record less than a second ago: it notices the
        // `DELETE` at its next read (`RedisState::with_recheck`).
        let deadline = Instant::now() + Duration::from_secs(5);
        let gone = loop {
            let reply = at(&client, addr).call_tool(3, "who").await;
            if reply.status != StatusCode::OK || Instant::now() > deadline {
                break reply;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(gone.status, StatusCode::NOT_FOUND, "{gone:?}");
        assert_eq!(
            delete(&at(&client, addr)).await.status,
            StatusCode::NOT_FOUND
        );
    }
}

#[tokio::test]
async fn redis_paused_gives_503_in_bounded_time_and_sessions_come_back() {
    let Some(redis) = redis_server("redis_paused_gives_503_in_bounded_time_and_sessions_come_back")
    else {
        return;
    };
    let timeout = Duration::from_millis(500);
    let (a, _, _) = instance(&redis, "A", false, timeout).await;
    let (b, _, _) = instance(&redis, "B", false, timeout).await;
    let mut client = Client::new(a);
    client.initialize().await;
    assert!(client.tool_text(1, "who").await.ends_with('A'));

    redis.signal("STOP");
    // Past the time an instance serves a session it read lately without reading it
    // again (`RedisState::with_recheck`, 1 s).
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    for (addr, id) in [(a, 2), (b, 3)] {
        let started = Instant::now();
        let refused = at(&client, addr).call_tool(id, "who").await;
        assert_eq!(
            refused.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{refused:?}"
        );
        assert!(refused.headers.contains_key("retry-after"), "{refused:?}");
        // Bounded by the store's timeout, not by Redis (the client's own guard is
        // 20 s).
        assert!(started.elapsed() < Duration::from_secs(10));
    }
    let opening = Client::new(b).initialize().await;
    assert_eq!(
        opening.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{opening:?}"
    );

    redis.signal("CONT");
    // The connection manager reconnects on its own: the session works again on
    // both instances.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let reply = at(&client, b).call_tool(4, "who").await;
        if reply.status == StatusCode::OK {
            assert!(reply.answer(4)["result"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .ends_with('B'));
            break;
        }
        assert!(Instant::now() < deadline, "{reply:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(client.tool_text(5, "who").await.ends_with('A'));
}

#[tokio::test]
async fn redis_lost_its_data_the_session_is_gone_and_a_new_one_works() {
    let Some(mut redis) =
        redis_server("redis_lost_its_data_the_session_is_gone_and_a_new_one_works")
    else {
        return;
    };
    let timeout = Duration::from_millis(500);
    let (a, _, _) = instance(&redis, "A", false, timeout).await;
    let mut client = Client::new(a);
    client.initialize().await;
    assert!(client.tool_text(1, "who").await.ends_with('A'));
    // Down: 503 (once the session's last read is older than the recheck time).
    redis.restart(false);
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let refused = client.call_tool(2, "who").await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{refused:?}"
    );
    // Back, empty: the session is gone (404) once the connection is made again.
    redis.restart(true);
    let deadline = Instant::now() + Duration::from_secs(20);
    let gone = loop {
        let reply = client.call_tool(3, "who").await;
        if reply.status != StatusCode::SERVICE_UNAVAILABLE || Instant::now() > deadline {
            break reply;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{gone:?}");
    let mut again = Client::new(a);
    assert_eq!(again.initialize().await.status, StatusCode::OK);
    assert!(again.tool_text(4, "who").await.ends_with('A'));
}

//! Hibernation of idle HTTP sessions on the wire (`HttpServer::hibernate_after`):
//! an idle session loses its worker and is restored by its next request with its
//! negotiated version; sessions whose handler keeps state, or with an open `GET`
//! stream, stay live; `DELETE`, the idle timeout, the handshake timeout and the
//! session cap treat a dormant session as an open one.
//!
//! Every wait polls the server's counters until a deadline: nothing here asserts
//! how long anything takes.

#![cfg(feature = "http")]

#[path = "support/wire.rs"]
mod wire;

use std::future::Future;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::StatusCode;
use mcpdesc::http::{BoundHttpServer, HttpServer};
use mcpdesc::{
    ProtocolVersion, ResourceResult, ResourceSpec, Router, ServerInfo, ToolResult, ToolSpec,
};
use serde_json::{json, Value};
use wire::{send, Client, Reply};

/// Answers the session's negotiated protocol version.
const VERSION: ToolSpec = ToolSpec::new(
    "version",
    &[],
    r#"{"name": "version", "inputSchema": {"type": "object"}}"#,
);
/// Answers the least severe log level the session's client wants.
const LEVEL: ToolSpec = ToolSpec::new(
    "level",
    &[],
    r#"{"name": "level", "inputSchema": {"type": "object"}}"#,
);
/// Announces a change of the watched resource and of the tool list; answers to how
/// many sessions each went.
const TOUCH: ToolSpec = ToolSpec::new(
    "touch",
    &[],
    r#"{"name": "touch", "inputSchema": {"type": "object"}}"#,
);
/// May run as a task.
const SLOW: ToolSpec = ToolSpec::new(
    "slow",
    &[],
    r#"{"name": "slow", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}"#,
);
const WATCHED: ResourceSpec = ResourceSpec::new(
    "test://watched",
    &[],
    r#"{"uri": "test://watched", "name": "watched"}"#,
);

/// How long a session waits before hibernating in these tests.
const HIBERNATE_AFTER: Duration = Duration::from_millis(150);

fn router() -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
        capabilities: Some(
            r#"[{"tools": {"listChanged": true}, "logging": {},
                 "resources": {"subscribe": true}}]"#,
        ),
        ..ServerInfo::new("hibernate", "1.0.0")
    };
    Router::new(info)
        .tool(VERSION, |_, cx| {
            Box::pin(async move { Ok(ToolResult::text(cx.protocol_version().as_str())) })
        })
        .tool(LEVEL, |_, cx| {
            Box::pin(async move { Ok(ToolResult::text(format!("{:?}", cx.log_level()))) })
        })
        .tool(TOUCH, |_, cx| {
            Box::pin(async move {
                let updated = cx.changes().resource_updated("test://watched").await;
                let tools = cx.changes().tools_list_changed().await;
                Ok(ToolResult::text(format!("{updated} {tools}")))
            })
        })
        .tool(SLOW, |_, _| {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Ok(ToolResult::text("slow done"))
            })
        })
        .resource(WATCHED, |uri, _| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "text/plain", "v")) })
        })
}

async fn start(server: HttpServer) -> (SocketAddr, BoundHttpServer) {
    let bound = server.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.clone().run());
    (addr, bound)
}

fn hibernating() -> HttpServer {
    HttpServer::new(router()).hibernate_after(Some(HIBERNATE_AFTER))
}

/// Polls `state` until it holds, for at most 20 s; whether it came to hold.
async fn eventually<F: Future<Output = bool>>(mut state: impl FnMut() -> F) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if state().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

/// Waits until the server holds `open` sessions of which `live` are live.
async fn until_counts(server: &BoundHttpServer, open: usize, live: usize) {
    let reached = eventually(|| async {
        server.open_sessions().await == open && server.live_sessions().await == live
    })
    .await;
    assert!(
        reached,
        "expected {open} open / {live} live sessions, have {} / {}",
        server.open_sessions().await,
        server.live_sessions().await
    );
}

/// A session initialized with `version` (and `notifications/initialized`).
async fn session(addr: SocketAddr, version: &str) -> Client {
    let mut client = Client::new(addr);
    let reply = client
        .post(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "hibernate-test", "version": "1.0.0"}}}),
        )
        .await;
    assert_eq!(reply.answer(0)["result"]["protocolVersion"], version);
    client.session = Some(reply.headers["mcp-session-id"].to_str().unwrap().to_owned());
    client.version_header = version.into();
    let initialized = client
        .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    assert_eq!(initialized.status, StatusCode::ACCEPTED, "{initialized:?}");
    client
}

/// Sends `method` with `params` as request `id`; the reply.
async fn request(client: &Client, id: i64, method: &str, params: Value) -> Reply {
    client
        .post(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        .await
}

async fn session_request(client: &Client, method: &str) -> Reply {
    let headers = [
        ("mcp-session-id".to_owned(), client.session.clone().unwrap()),
        (
            "mcp-protocol-version".to_owned(),
            client.version_header.clone(),
        ),
    ];
    send(client.addr, method, "/mcp", &headers, Vec::new()).await
}

#[tokio::test]
async fn an_idle_session_hibernates_and_its_next_call_restores_it() {
    let (addr, server) = start(hibernating()).await;
    let old = session(addr, "2025-06-18").await;
    let new = session(addr, "2025-11-25").await;
    assert_eq!(old.tool_text(1, "version").await, "2025-06-18");
    assert_eq!(new.tool_text(1, "version").await, "2025-11-25");

    until_counts(&server, 2, 0).await;
    // The same session ids, restored by their next request, each with its version.
    assert_eq!(old.tool_text(2, "version").await, "2025-06-18");
    assert_eq!(server.open_sessions().await, 2);
    assert!(server.live_sessions().await >= 1);
    assert_eq!(new.tool_text(2, "version").await, "2025-11-25");
    // The restored session lists the tools with the members rmcp drops put back,
    // and sleeps again.
    let listed = request(&new, 3, "tools/list", json!({})).await.answer(3);
    let slow = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "slow")
        .cloned()
        .unwrap();
    assert_eq!(slow["execution"]["taskSupport"], "optional", "{slow}");
    until_counts(&server, 2, 0).await;
    assert_eq!(old.tool_text(4, "version").await, "2025-06-18");
}

#[tokio::test]
async fn concurrent_requests_on_a_dormant_session_all_answer() {
    let (addr, server) = start(hibernating()).await;
    let client = session(addr, "2025-06-18").await;
    until_counts(&server, 1, 0).await;
    // Four calls at once on the dormant session: one restores it, the others wait
    // for that restore (rmcp serializes them); each gets its answer.
    let calls = (1..=4).map(|id| {
        let client = client.clone();
        async move { client.tool_text(id, "version").await }
    });
    for answer in futures::future::join_all(calls).await {
        assert_eq!(answer, "2025-06-18");
    }
    assert_eq!(server.open_sessions().await, 1);
    until_counts(&server, 1, 0).await;
}

#[tokio::test]
async fn sessions_whose_handler_keeps_state_stay_live() {
    let (addr, server) = start(hibernating()).await;
    let quiet = session(addr, "2025-11-25").await;
    let answer = request(&quiet, 1, "logging/setLevel", json!({"level": "error"})).await;
    assert!(answer.answer(1)["error"].is_null(), "{answer:?}");
    let subscriber = session(addr, "2025-11-25").await;
    let answer = request(
        &subscriber,
        1,
        "resources/subscribe",
        json!({"uri": "test://watched"}),
    )
    .await;
    assert!(answer.answer(1)["error"].is_null(), "{answer:?}");
    let tasked = session(addr, "2025-11-25").await;
    let created = request(
        &tasked,
        1,
        "tools/call",
        json!({"name": "slow", "arguments": {}, "task": {"ttl": 60000}}),
    )
    .await
    .answer(1);
    let task_id = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("{created}"))
        .to_owned();
    // The last one to speak: once it is dormant, the others were idle as long.
    let plain = session(addr, "2025-11-25").await;
    assert_eq!(plain.tool_text(1, "version").await, "2025-11-25");

    until_counts(&server, 4, 3).await;
    // Many more hibernation periods: still three live.
    tokio::time::sleep(HIBERNATE_AFTER * 6).await;
    assert_eq!(server.live_sessions().await, 3);
    assert_eq!(server.open_sessions().await, 4);

    // Their state is intact: the log level, the subscription (one session told),
    // the task.
    assert_eq!(quiet.tool_text(2, "level").await, "Some(Error)");
    let told = plain.tool_text(2, "touch").await;
    assert!(told.starts_with("1 "), "subscribers told: {told}");
    let status = request(&tasked, 2, "tasks/get", json!({"taskId": task_id}))
        .await
        .answer(2);
    assert!(status["result"]["status"].is_string(), "{status}");
    // A session that never set one has the default.
    let loud = session(addr, "2025-11-25").await;
    assert_eq!(loud.tool_text(1, "level").await, "Some(Debug)");
}

#[tokio::test]
async fn an_open_get_stream_keeps_its_session_live_and_hears_list_changes() {
    let (addr, server) = start(hibernating()).await;
    let listener = session(addr, "2025-11-25").await;
    // The standalone stream, held open.
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(connection);
    let get = hyper::Request::get("/mcp")
        .header("host", addr.to_string())
        .header("accept", "text/event-stream")
        .header("mcp-session-id", listener.session.clone().unwrap())
        .header("mcp-protocol-version", "2025-11-25")
        .body(Empty::<Bytes>::new())
        .unwrap();
    let response = sender.send_request(get).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut events = response.into_body();

    let other = session(addr, "2025-11-25").await;
    other.tool_text(1, "version").await;
    // The other session goes dormant; the listener does not.
    until_counts(&server, 2, 1).await;
    tokio::time::sleep(HIBERNATE_AFTER * 6).await;
    assert_eq!(server.live_sessions().await, 1);

    // A list change reaches the listener's stream (the dormant session has no
    // stream to hear it on).
    other.tool_text(2, "touch").await;
    let heard = tokio::time::timeout(Duration::from_secs(20), async {
        let mut seen = String::new();
        while let Some(frame) = events.frame().await {
            if let Ok(data) = frame.unwrap().into_data() {
                seen.push_str(&String::from_utf8_lossy(&data));
                if seen.contains("notifications/tools/list_changed") {
                    return true;
                }
            }
        }
        false
    })
    .await;
    assert_eq!(heard, Ok(true));

    // Closing the stream lets it hibernate too.
    drop(events);
    until_counts(&server, 2, 0).await;
}

#[tokio::test]
async fn delete_of_a_dormant_session_gives_204_then_404() {
    let (addr, server) = start(hibernating()).await;
    let client = session(addr, "2025-11-25").await;
    until_counts(&server, 1, 0).await;
    assert_eq!(
        session_request(&client, "DELETE").await.status,
        StatusCode::NO_CONTENT
    );
    assert_eq!(server.open_sessions().await, 0);
    let gone = client.call_tool(1, "version").await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{gone:?}");
    assert_eq!(server.open_sessions().await, 0);
}

#[tokio::test]
async fn a_dormant_session_past_the_idle_timeout_gives_404() {
    let (addr, server) =
        start(hibernating().session_idle_timeout(Some(Duration::from_millis(600)))).await;
    let client = session(addr, "2025-11-25").await;
    until_counts(&server, 1, 0).await;
    // Expired: no session left at all.
    until_counts(&server, 0, 0).await;
    let gone = client.call_tool(1, "version").await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{gone:?}");
}

#[tokio::test]
async fn the_session_cap_counts_dormant_sessions() {
    let (addr, server) = start(hibernating().max_sessions(2)).await;
    let first = session(addr, "2025-11-25").await;
    let second = session(addr, "2025-06-18").await;
    until_counts(&server, 2, 0).await;
    let refused = Client::new(addr).initialize().await;
    assert_eq!(
        refused.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{refused:?}"
    );
    // Both dormant sessions still answer.
    assert_eq!(first.tool_text(1, "version").await, "2025-11-25");
    assert_eq!(second.tool_text(1, "version").await, "2025-06-18");
    assert_eq!(server.open_sessions().await, 2);
}

#[tokio::test]
async fn a_session_silent_after_initialize_neither_hibernates_nor_stays() {
    let (addr, server) = start(hibernating().initialize_timeout(Duration::from_millis(1500))).await;
    let reply = Client::new(addr)
        .post(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": wire::VERSION, "capabilities": {},
            "clientInfo": {"name": "silent", "version": "1.0.0"}}}),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    let mut silent = Client::new(addr);
    silent.session = Some(reply.headers["mcp-session-id"].to_str().unwrap().to_owned());
    // In its handshake it stays live (it is never seen dormant), then the timeout
    // ends it for good: nothing is left to restore.
    let ended = eventually(|| async {
        let open = server.open_sessions().await;
        assert_eq!(
            server.live_sessions().await,
            open,
            "a dormant session in its handshake"
        );
        open == 0
    })
    .await;
    assert!(ended, "the handshake timeout closed it");
    let gone = silent.call_tool(1, "version").await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{gone:?}");
}

#[tokio::test]
async fn without_hibernation_sessions_stay_live() {
    let (addr, server) = start(HttpServer::new(router()).hibernate_after(None)).await;
    let client = session(addr, "2025-11-25").await;
    assert_eq!(client.tool_text(1, "version").await, "2025-11-25");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(server.live_sessions().await, 1);
    assert_eq!(server.open_sessions().await, 1);
    assert_eq!(
        session_request(&client, "DELETE").await.status,
        StatusCode::NO_CONTENT
    );
    until_counts(&server, 0, 0).await;
}

//! `resources/subscribe`, `resources/unsubscribe` and the change notifications on the
//! wire: raw JSON-RPC sessions (newline-delimited, as on stdio) against `McpServer`,
//! two sessions of one router at once, and a version whose declaration has none.

#![cfg(feature = "rmcp")]

use std::time::Duration;

use mcpdesc::rmcp::ServiceExt;
use mcpdesc::{
    McpServer, ProtocolVersion, ResourceResult, ResourceSpec, Router, ServerInfo, ToolResult,
    ToolSpec,
};
use serde_json::{json, Value};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

const WATCHED: ResourceSpec = ResourceSpec::new(
    "test://watched",
    &[],
    r#"{"uri": "test://watched", "name": "watched"}"#,
);
const TOUCH: ToolSpec = ToolSpec::new(
    "touch",
    &[],
    r#"{"name": "touch", "inputSchema": {"type": "object"}}"#,
);

/// Subscriptions and list changes declared for 2025-11-25 only; 2025-06-18 declares
/// none.
fn router() -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
        capabilities: Some(
            r#"[{"protocolVersions": ["2025-11-25"],
                 "tools": {"listChanged": true}, "resources": {"subscribe": true}},
                {"protocolVersions": ["2025-06-18"], "resources": {}}]"#,
        ),
        ..ServerInfo::new("subscriptions", "1.0.0")
    };
    Router::new(info)
        .resource(WATCHED, |uri, _cx| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "text/plain", "v")) })
        })
        // Announces that the watched resource and the tool list changed; says to how
        // many sessions each went.
        .tool(TOUCH, |_args, cx| {
            Box::pin(async move {
                let updated = cx.changes().resource_updated("test://watched").await;
                let tools = cx.changes().tools_list_changed().await;
                let prompts = cx.changes().prompts_list_changed().await;
                Ok(ToolResult::text(format!("{updated} {tools} {prompts}")))
            })
        })
}

/// One raw client session.
struct Session {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    write: WriteHalf<DuplexStream>,
    next_id: u64,
}

impl Session {
    /// Connects to `server` and initializes with `version`; the capabilities.
    async fn open(server: McpServer, version: &str) -> (Session, Value) {
        let (server_io, client_io) = tokio::io::duplex(256 * 1024);
        tokio::spawn(async move {
            let running = server.into_service().serve(server_io).await?;
            running.waiting().await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        });
        let (read, write): (ReadHalf<_>, WriteHalf<_>) = tokio::io::split(client_io);
        let mut session = Session {
            lines: BufReader::new(read).lines(),
            write,
            next_id: 0,
        };
        let (answer, _) = session
            .request(
                "initialize",
                json!({"protocolVersion": version, "capabilities": {},
                       "clientInfo": {"name": "raw-test", "version": "0.0.1"}}),
            )
            .await;
        session
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        (session, answer["result"]["capabilities"].clone())
    }

    async fn send(&mut self, message: Value) {
        self.write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }

    /// Sends a request; its answer and the notifications that came before it.
    async fn request(&mut self, method: &str, params: Value) -> (Value, Vec<Value>) {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let mut notifications = Vec::new();
        loop {
            let line = self.lines.next_line().await.unwrap().expect("an answer");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return (message, notifications);
            }
            notifications.push(message);
        }
    }

    /// The notifications that arrive within `wait` without a request.
    async fn pending(&mut self, wait: Duration) -> Vec<Value> {
        let mut notifications = Vec::new();
        while let Ok(line) = tokio::time::timeout(wait, self.lines.next_line()).await {
            let line = line.unwrap().expect("a notification");
            notifications.push(serde_json::from_str(&line).unwrap());
        }
        notifications
    }
}

fn methods(notifications: &[Value]) -> Vec<(&str, Value)> {
    notifications
        .iter()
        .map(|n| (n["method"].as_str().unwrap(), n["params"].clone()))
        .collect()
}

async fn subscriptions_and_list_changes() {
    let server = McpServer::new(router());
    let (mut a, caps) = Session::open(server.new_session(), "2025-11-25").await;
    assert_eq!(
        caps,
        json!({"tools": {"listChanged": true}, "resources": {"subscribe": true}})
    );
    let (mut b, _) = Session::open(server.new_session(), "2025-11-25").await;
    let (old, old_caps) = Session::open(server.new_session(), "2025-06-18").await;
    assert_eq!(old_caps, json!({"tools": {}, "resources": {}}));

    let (answer, _) = a
        .request("resources/subscribe", json!({"uri": "test://watched"}))
        .await;
    assert_eq!(answer["result"], json!({}), "{answer}");

    // Session b calls the tool: the update goes to a (subscribed), the list change
    // to a and b (2025-11-25 declares tools.listChanged), not to the 2025-06-18
    // session; no session hears of prompts (not declared).
    let (answer, before) = b.request("tools/call", json!({"name": "touch"})).await;
    assert_eq!(answer["result"]["content"][0]["text"], "1 2 0", "{answer}");
    assert_eq!(
        methods(&before),
        vec![("notifications/tools/list_changed", Value::Null)]
    );
    let to_a = a.pending(Duration::from_millis(300)).await;
    assert_eq!(
        methods(&to_a),
        vec![
            (
                "notifications/resources/updated",
                json!({"uri": "test://watched"})
            ),
            ("notifications/tools/list_changed", Value::Null),
        ]
    );

    // Unsubscribed (twice: the second is no error), a gets no more updates.
    for _ in 0..2 {
        let (answer, _) = a
            .request("resources/unsubscribe", json!({"uri": "test://watched"}))
            .await;
        assert_eq!(answer["result"], json!({}), "{answer}");
    }
    let (answer, _) = a.request("tools/call", json!({"name": "touch"})).await;
    assert_eq!(answer["result"]["content"][0]["text"], "0 2 0", "{answer}");

    // A closed session drops out of the registry.
    drop(old);
    drop(b);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (answer, _) = a.request("tools/call", json!({"name": "touch"})).await;
    assert_eq!(answer["result"]["content"][0]["text"], "0 1 0", "{answer}");
}

async fn undeclared_subscriptions_are_unknown_methods() {
    let (mut old, _) = Session::open(McpServer::new(router()), "2025-06-18").await;
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        let (answer, _) = old.request(method, json!({"uri": "test://watched"})).await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
}

#[tokio::test]
async fn subscribed_sessions_get_updates_and_declared_ones_list_changes() {
    tokio::time::timeout(Duration::from_secs(30), subscriptions_and_list_changes())
        .await
        .expect("within 30 s");
}

#[tokio::test]
async fn a_version_without_the_declaration_refuses_subscriptions() {
    tokio::time::timeout(
        Duration::from_secs(30),
        undeclared_subscriptions_are_unknown_methods(),
    )
    .await
    .expect("within 30 s");
}

//! Streamable HTTP on the wire: a hand-rolled HTTP/1.1 client (hyper) speaks raw
//! JSON-RPC to `mcpdesc::http` on a loopback port and reads exactly what a client
//! reads. Checks the `execution` write-back (SSE answers; a stateless server's JSON
//! answers list no task support), argument
//! validation and version projection as over stdio, a 2026-07-28 input-required round,
//! and the HTTP bad-input rules (unknown session 404, body limit 413, wrong path,
//! foreign `Host`).

#![cfg(feature = "http")]

mod common;

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, StatusCode};
use mcpdesc::http::HttpServer;
use mcpdesc::{ProtocolVersion, Router, ToolResult, ToolSpec};
use serde_json::{json, Value};
use tokio::net::TcpStream;

/// A 2025-11-25 tool with `execution`, a member rmcp's `Tool` type has no field for.
const BACKGROUND_ANALYSIS: ToolSpec = ToolSpec::new(
    "background_analysis",
    &[ProtocolVersion::V2025_11_25],
    r#"{
        "name": "background_analysis",
        "protocolVersions": ["2025-11-25"],
        "inputSchema": {"type": "object", "properties": {"pgn": {"type": "string"}}},
        "execution": {"taskSupport": "optional"}
    }"#,
);

/// A 2026-07-28 tool that asks the client to confirm.
const CONFIRM: ToolSpec = ToolSpec::new(
    "confirm",
    &[ProtocolVersion::V2026_07_28],
    r#"{"name": "confirm", "protocolVersions": ["2026-07-28"], "inputSchema": {"type": "object"}}"#,
);

fn router() -> Router {
    common::router()
        .tool(BACKGROUND_ANALYSIS, |_, _| {
            Box::pin(async { Ok(ToolResult::text("queued")) })
        })
        .tool(CONFIRM, |_, cx| {
            Box::pin(async move {
                let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
                let answer = cx.elicit_form("Sure?", schema).await?;
                Ok(ToolResult::text(format!("{:?}", answer.action)))
            })
        })
}

/// What the client reads back.
struct Reply {
    status: StatusCode,
    session: Option<String>,
    content_type: String,
    body: String,
}

impl Reply {
    /// The JSON-RPC messages of the body: the JSON body, or each SSE `data:` line.
    fn messages(&self) -> Vec<Value> {
        if self.content_type.starts_with("application/json") {
            return vec![serde_json::from_str(&self.body).unwrap()];
        }
        self.body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .filter(|data| !data.is_empty())
            .map(|data| serde_json::from_str(data).unwrap())
            .collect()
    }

    /// The message answering request `id`.
    fn answer(&self, id: i64) -> Value {
        self.messages()
            .into_iter()
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no answer to {id} in {}", self.body))
    }
}

/// Sends one HTTP request on a fresh connection and reads the whole response.
async fn send(
    addr: std::net::SocketAddr,
    host: &str,
    headers: &[(&str, &str)],
    body: Vec<u8>,
    path: &str,
) -> Reply {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .unwrap();
    tokio::spawn(connection);
    let mut request = Request::post(path)
        .header("host", host)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = sender
        .send_request(request.body(Full::new(Bytes::from(body))).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        session,
        content_type,
        body: String::from_utf8(body.to_vec()).unwrap(),
    }
}

async fn post(addr: std::net::SocketAddr, headers: &[(&str, &str)], message: Value) -> Reply {
    send(
        addr,
        &addr.to_string(),
        headers,
        message.to_string().into_bytes(),
        "/mcp",
    )
    .await
}

/// Starts `server` on a free loopback port; the token stops it.
async fn start(server: HttpServer) -> (std::net::SocketAddr, mcpdesc::CancellationToken) {
    let bound = server.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    assert_eq!(bound.url(), format!("http://{addr}/mcp"));
    let stop = bound.shutdown_token();
    tokio::spawn(bound.run());
    (addr, stop)
}

async fn with_timeout<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), future)
        .await
        .expect("the exchange finishes within 30 s")
}

/// `initialize` + `notifications/initialized` for `version`; returns the session id.
async fn initialize(addr: std::net::SocketAddr, version: &str) -> String {
    let init = post(
        addr,
        &[],
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "http-test", "version": "0.0.1"}}}),
    )
    .await;
    assert_eq!(init.status, StatusCode::OK, "{}", init.body);
    assert_eq!(
        init.answer(1)["result"]["protocolVersion"],
        version,
        "{}",
        init.body
    );
    let session = init.session.expect("a stateful server opens a session");
    let initialized = post(
        addr,
        &[
            ("mcp-session-id", &session),
            ("mcp-protocol-version", version),
        ],
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(
        initialized.status,
        StatusCode::ACCEPTED,
        "{}",
        initialized.body
    );
    session
}

#[tokio::test]
async fn a_stateful_session_lists_every_member_and_validates_arguments() {
    with_timeout(async {
        let (addr, stop) = start(HttpServer::new(router())).await;
        let session = initialize(addr, "2025-11-25").await;
        let headers = [
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", "2025-11-25"),
        ];

        // tools/list over SSE: `execution` is back, the listing is the router's.
        let list = post(
            addr,
            &headers,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        )
        .await;
        assert!(list.content_type.starts_with("text/event-stream"));
        let tools = list.answer(2)["result"]["tools"].clone();
        let background = tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "background_analysis")
            .unwrap();
        assert_eq!(background["execution"], json!({"taskSupport": "optional"}));
        assert_eq!(
            tools,
            Value::Array(router().list_tools(ProtocolVersion::V2025_11_25))
        );

        // Invalid arguments: a tool error, as over stdio.
        let invalid = post(
            addr,
            &headers,
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                   "params": {"name": "analyze_game", "arguments": {"pgn": "1. e4", "depth": 0}}}),
        )
        .await;
        let result = &invalid.answer(3)["result"];
        assert_eq!(result["isError"], true);
        assert!(result["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Invalid arguments for tool `analyze_game`:\n- `/depth`: "));

        // An unknown session: 404, the client must initialize again.
        let unknown = post(
            addr,
            &[
                ("mcp-session-id", "no-such-session"),
                ("mcp-protocol-version", "2025-11-25"),
            ],
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}),
        )
        .await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.body);
        stop.cancel();
    })
    .await;
}

#[tokio::test]
async fn an_older_session_gets_its_own_projection() {
    with_timeout(async {
        let (addr, stop) = start(HttpServer::new(router())).await;
        let session = initialize(addr, "2025-03-26").await;
        let list = post(
            addr,
            &[
                ("mcp-session-id", session.as_str()),
                ("mcp-protocol-version", "2025-03-26"),
            ],
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        )
        .await;
        assert_eq!(
            list.answer(2)["result"]["tools"],
            Value::Array(router().list_tools(ProtocolVersion::V2025_03_26))
        );
        stop.cancel();
    })
    .await;
}

/// A stateless server runs no task (no session would keep it; see
/// `stateless_tasks.rs`): its JSON answer lists the tools without
/// `execution.taskSupport`, and the write-back does not put it back.
#[tokio::test]
async fn stateless_json_answers_list_no_task_support() {
    with_timeout(async {
        let server = HttpServer::new(router())
            .stateless(true)
            .json_response(true);
        let (addr, stop) = start(server).await;
        let list = post(
            addr,
            &[("mcp-protocol-version", "2025-11-25")],
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}),
        )
        .await;
        assert_eq!(list.status, StatusCode::OK, "{}", list.body);
        assert!(list.session.is_none());
        assert!(
            list.content_type.starts_with("application/json"),
            "{}",
            list.content_type
        );
        let mut expected = router().list_tools(ProtocolVersion::V2025_11_25);
        for tool in &mut expected {
            // `execution` holds only `taskSupport` in 2025-11-25.
            tool.as_object_mut().unwrap().remove("execution");
        }
        let tools = list.answer(7)["result"]["tools"].clone();
        assert_eq!(tools, Value::Array(expected), "{tools}");
        stop.cancel();
    })
    .await;
}

#[tokio::test]
async fn a_stateless_server_refuses_subscriptions_and_a_session_keeps_them() {
    with_timeout(async {
        let subscribing = || {
            mcpdesc::Router::new(mcpdesc::ServerInfo {
                capabilities: Some(r#"[{"resources": {"subscribe": true}}]"#),
                ..common::info()
            })
        };
        let subscribe = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/subscribe",
                               "params": {"uri": "test://x"}});
        // Stateless: no session would remember the subscription.
        let (addr, stop) = start(HttpServer::new(subscribing()).stateless(true)).await;
        let refused = post(
            addr,
            &[("mcp-protocol-version", "2025-11-25")],
            subscribe.clone(),
        )
        .await;
        assert_eq!(
            refused.answer(3)["error"]["code"],
            -32600,
            "{}",
            refused.body
        );
        stop.cancel();
        // Stateful: the session's subscription is accepted.
        let (addr, stop) = start(HttpServer::new(subscribing())).await;
        let session = initialize(addr, "2025-11-25").await;
        let accepted = post(
            addr,
            &[
                ("mcp-session-id", &session),
                ("mcp-protocol-version", "2025-11-25"),
            ],
            subscribe,
        )
        .await;
        assert_eq!(accepted.answer(3)["result"], json!({}), "{}", accepted.body);
        stop.cancel();
    })
    .await;
}

#[tokio::test]
async fn a_2026_call_runs_input_required_rounds_over_http() {
    with_timeout(async {
        let (addr, stop) = start(HttpServer::new(router())).await;
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "http-test", "version": "0.0.1"}
        });
        let headers = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "confirm"),
        ];
        let first = post(
            addr,
            &headers,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": "confirm", "arguments": {}, "_meta": meta}}),
        )
        .await;
        let result = &first.answer(1)["result"];
        assert_eq!(result["resultType"], "input_required", "{}", first.body);
        let request = &result["inputRequests"]["input-0"];
        assert_eq!(request["method"], "elicitation/create");
        let state = result["requestState"].clone();

        let second = post(
            addr,
            &headers,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": "confirm", "arguments": {}, "_meta": meta,
                              "requestState": state,
                              "inputResponses": {"input-0": {"action": "accept", "content": {}}}}}),
        )
        .await;
        let result = &second.answer(2)["result"];
        assert_eq!(result["resultType"], "complete", "{}", second.body);
        assert_eq!(result["content"][0]["text"], "Accept");
        stop.cancel();
    })
    .await;
}

#[tokio::test]
async fn bad_http_input_gets_clear_statuses() {
    with_timeout(async {
        let server = HttpServer::new(router()).max_request_body_bytes(1024);
        let (addr, stop) = start(server).await;

        // Over the limit: 413 naming the limit.
        let big = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                         "params": {"_meta": {"padding": "x".repeat(2000)}}});
        let too_large = post(addr, &[], big).await;
        assert_eq!(too_large.status, StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(
            too_large.body,
            "Payload Too Large: the request body exceeds the limit of 1024 bytes"
        );

        // Another path: 404 naming the endpoint.
        let elsewhere = send(addr, &addr.to_string(), &[], b"{}".to_vec(), "/").await;
        assert_eq!(elsewhere.status, StatusCode::NOT_FOUND);
        assert_eq!(elsewhere.body, "Not Found: the MCP endpoint is /mcp");

        // A foreign Host (DNS rebinding): 403 by default.
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "http-test", "version": "0.0.1"}}});
        let foreign = send(
            addr,
            "evil.example",
            &[],
            init.to_string().into_bytes(),
            "/mcp",
        )
        .await;
        assert_eq!(foreign.status, StatusCode::FORBIDDEN, "{}", foreign.body);
        stop.cancel();

        // ... answered once the deployment names it.
        let server = HttpServer::new(router()).allowed_hosts(["mcp.example.com"]);
        let (addr, stop) = start(server).await;
        let named = send(
            addr,
            "mcp.example.com",
            &[],
            init.to_string().into_bytes(),
            "/mcp",
        )
        .await;
        assert_eq!(named.status, StatusCode::OK, "{}", named.body);
        stop.cancel();
    })
    .await;
}

#[tokio::test]
async fn a_router_with_errors_does_not_start() {
    let broken = Router::new(mcpdesc::ServerInfo::new("broken", "1"))
        .tool(ToolSpec::new("x", &[], "{not json"), |_, _| {
            Box::pin(async { Ok(ToolResult::text("")) })
        });
    let err = HttpServer::new(broken)
        .bind("127.0.0.1:0")
        .await
        .unwrap_err();
    assert!(matches!(err, mcpdesc::Error::InvalidRouter(_)), "{err}");
}

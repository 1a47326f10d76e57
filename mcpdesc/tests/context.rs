//! The `Context` of a call over a live MCP connection: cancellation
//! (`notifications/cancelled`), progress (only for a client that sent a
//! `progressToken`, increasing values only) and logging (only when the description
//! declares `logging`, at the level of `logging/setLevel`, or in 2026-07-28 of the
//! request's `_meta`).
//!
//! Most tests speak raw newline-delimited JSON-RPC to the adapter over an in-memory
//! pipe (as on stdio), so they see exactly what a client reads; the 2026-07-28 test
//! uses rmcp's client, which sends the per-request `_meta` that version needs.

#![cfg(feature = "rmcp")]
// The log messages of the 2026-07-28 test use the type rmcp deprecates for that
// version (SEP-2577); the notification remains on the wire.
#![allow(deprecated)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcpdesc::rmcp::model::{ClientRequest, LoggingMessageNotificationParam, RequestMetaObject};
use mcpdesc::rmcp::service::{NotificationContext, PeerRequestOptions};
use mcpdesc::rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient};
use mcpdesc::{LogLevel, McpServer, ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::{json, Value};
use tokio::io::{split, WriteHalf};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf};
use tokio::sync::{mpsc, Notify};

const COUNT: ToolSpec = ToolSpec::new(
    "count",
    &[],
    r#"{"name": "count", "inputSchema": {"type": "object"}}"#,
);
const CHATTY: ToolSpec = ToolSpec::new(
    "chatty",
    &[],
    r#"{"name": "chatty", "inputSchema": {"type": "object"}}"#,
);
const WAIT: ToolSpec = ToolSpec::new(
    "wait",
    &[],
    r#"{"name": "wait", "inputSchema": {"type": "object"}}"#,
);

/// What the `wait` tool saw: it signals `started`, then reports how it ended.
#[derive(Clone)]
struct WaitProbe {
    started: Arc<Notify>,
    ended: mpsc::UnboundedSender<&'static str>,
}

/// A router with `count` (progress 1, 2, 3 of 3, then a stale 2), `chatty` (a log
/// message at debug, info and error) and `wait` (waits for cancellation); with the
/// `logging` capability declared when `logging` is true.
fn router(logging: bool, probe: WaitProbe) -> Router {
    let info = ServerInfo {
        capabilities: logging.then_some(r#"[{"logging": {}}]"#),
        ..ServerInfo::new("context-test", "1.0.0")
    };
    Router::new(info)
        .tool(COUNT, |_, cx| {
            Box::pin(async move {
                for step in 1..=3 {
                    let message = format!("step {step}");
                    cx.progress(f64::from(step), Some(3.0), Some(&message))
                        .await;
                }
                // Not greater than the last value: MCP forbids sending it.
                cx.progress(2.0, Some(3.0), None).await;
                Ok(ToolResult::text("counted"))
            })
        })
        .tool(CHATTY, |_, cx| {
            Box::pin(async move {
                cx.log(LogLevel::Debug, "d").await;
                cx.log(LogLevel::Info, "i").await;
                cx.log_as(LogLevel::Error, "engine", json!({"code": 1}))
                    .await;
                Ok(ToolResult::text(format!("{:?}", cx.log_level())))
            })
        })
        .tool(WAIT, move |_, cx| {
            let probe = probe.clone();
            Box::pin(async move {
                probe.started.notify_one();
                let ended = tokio::select! {
                    () = cx.cancelled() => "cancelled",
                    () = tokio::time::sleep(Duration::from_secs(20)) => "not cancelled",
                };
                assert!(ended != "cancelled" || cx.is_cancelled());
                let _ = probe.ended.send(ended);
                Ok(ToolResult::text(ended))
            })
        })
}

fn probe() -> (WaitProbe, mpsc::UnboundedReceiver<&'static str>) {
    let (ended, receiver) = mpsc::unbounded_channel();
    let probe = WaitProbe {
        started: Arc::new(Notify::new()),
        ended,
    };
    (probe, receiver)
}

/// A raw JSON-RPC client on one end of a pipe, the adapter on the other.
struct Raw {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
}

impl Raw {
    async fn start(router: Router) -> Raw {
        let (server_io, client_io) = tokio::io::duplex(256 * 1024);
        tokio::spawn(async move {
            use mcpdesc::rmcp::ServiceExt;
            let running = McpServer::new(router)
                .into_service()
                .serve(server_io)
                .await?;
            running.waiting().await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        });
        let (read, write) = split(client_io);
        Raw {
            write,
            lines: BufReader::new(read).lines(),
        }
    }

    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.write.write_all(line.as_bytes()).await.unwrap();
    }

    /// The messages up to the answer to `id`: the notifications before it, and it.
    async fn until_answer(&mut self, id: i64) -> (Vec<Value>, Value) {
        let mut before = Vec::new();
        loop {
            let line = self
                .lines
                .next_line()
                .await
                .unwrap()
                .expect("the server answers");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id && message.get("method").is_none() {
                return (before, message);
            }
            before.push(message);
        }
    }

    /// `initialize` with `version` and `notifications/initialized`; returns the
    /// `initialize` result.
    async fn initialize(&mut self, version: &str) -> Value {
        self.send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "context-test", "version": "0.0.1"}}}),
        )
        .await;
        let (_, answer) = self.until_answer(1).await;
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        answer["result"].clone()
    }

    async fn call(&mut self, id: i64, tool: &str, meta: Option<Value>) -> (Vec<Value>, Value) {
        let mut params = json!({"name": tool, "arguments": {}});
        if let Some(meta) = meta {
            params["_meta"] = meta;
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}))
            .await;
        self.until_answer(id).await
    }
}

fn methods(messages: &[Value]) -> Vec<&str> {
    messages
        .iter()
        .filter_map(|m| m["method"].as_str())
        .collect()
}

async fn with_timeout<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), future)
        .await
        .expect("the exchange finishes within 30 s")
}

#[tokio::test]
async fn progress_goes_to_a_client_that_asked_for_it() {
    with_timeout(async {
        let mut client = Raw::start(router(false, probe().0)).await;
        client.initialize("2025-11-25").await;

        // No progressToken: no progress notification.
        let (before, answer) = client.call(2, "count", None).await;
        assert_eq!(answer["result"]["content"][0]["text"], "counted");
        assert!(before.is_empty(), "{before:?}");

        // A progressToken: 1, 2, 3 of 3 with their messages; the stale 2 is not sent.
        let (before, _) = client
            .call(3, "count", Some(json!({"progressToken": "analysis-7"})))
            .await;
        let params: Vec<&Value> = before.iter().map(|m| &m["params"]).collect();
        assert_eq!(methods(&before), ["notifications/progress"; 3]);
        assert_eq!(
            params,
            [
                &json!({"progressToken": "analysis-7", "progress": 1.0, "total": 3.0, "message": "step 1"}),
                &json!({"progressToken": "analysis-7", "progress": 2.0, "total": 3.0, "message": "step 2"}),
                &json!({"progressToken": "analysis-7", "progress": 3.0, "total": 3.0, "message": "step 3"}),
            ]
        );

        // 2024-11-05 has no progress `message`; an integer token stays an integer.
        let mut old = Raw::start(router(false, probe().0)).await;
        old.initialize("2024-11-05").await;
        let (before, _) = old.call(2, "count", Some(json!({"progressToken": 42}))).await;
        assert_eq!(
            before[0]["params"],
            json!({"progressToken": 42, "progress": 1.0, "total": 3.0})
        );
    })
    .await;
}

#[tokio::test]
async fn a_cancelled_call_sees_its_cancellation() {
    with_timeout(async {
        let (probe, mut ended) = probe();
        let started = probe.started.clone();
        let mut client = Raw::start(router(false, probe)).await;
        client.initialize("2025-11-25").await;
        client
            .send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "wait", "arguments": {}}}))
            .await;
        started.notified().await;
        client
            .send(
                json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                         "params": {"requestId": 2, "reason": "the user gave up"}}),
            )
            .await;
        assert_eq!(ended.recv().await, Some("cancelled"));

        // The session goes on.
        let (_, answer) = client.call(3, "count", None).await;
        assert_eq!(answer["result"]["content"][0]["text"], "counted");
    })
    .await;
}

#[tokio::test]
async fn logging_follows_the_declaration_and_set_level() {
    with_timeout(async {
        // Declared: advertised, every level before setLevel, then from the level on.
        let mut client = Raw::start(router(true, probe().0)).await;
        let init = client.initialize("2025-11-25").await;
        assert_eq!(init["capabilities"]["logging"], json!({}));
        let (before, answer) = client.call(2, "chatty", None).await;
        assert_eq!(answer["result"]["content"][0]["text"], "Some(Debug)");
        assert_eq!(
            before,
            [
                json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "debug", "data": "d"}}),
                json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "i"}}),
                json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "error", "data": {"code": 1}, "logger": "engine"}}),
            ]
        );
        client
            .send(json!({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "warning"}}))
            .await;
        let (_, set) = client.until_answer(3).await;
        assert_eq!(set["result"], json!({}), "{set}");
        let (before, _) = client.call(4, "chatty", None).await;
        assert_eq!(methods(&before), ["notifications/message"]);
        assert_eq!(before[0]["params"]["level"], "error");

        // A new session starts from every level again.
        let mut other = Raw::start(router(true, probe().0)).await;
        other.initialize("2025-11-25").await;
        assert_eq!(other.call(2, "chatty", None).await.0.len(), 3);

        // Not declared: not advertised, nothing sent, setLevel unknown.
        let mut silent = Raw::start(router(false, probe().0)).await;
        let init = silent.initialize("2025-11-25").await;
        assert_eq!(init["capabilities"], json!({"tools": {}}));
        let (before, answer) = silent.call(2, "chatty", None).await;
        assert!(before.is_empty(), "{before:?}");
        assert_eq!(answer["result"]["content"][0]["text"], "None");
        silent
            .send(json!({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "debug"}}))
            .await;
        let (_, refused) = silent.until_answer(3).await;
        assert_eq!(refused["error"]["code"], -32601, "{refused}");
    })
    .await;
}

/// Collects the log messages a client receives.
#[derive(Clone, Default)]
struct LogCollector(Arc<Mutex<Vec<LoggingMessageNotificationParam>>>);

impl ClientHandler for LogCollector {
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.0.lock().unwrap().push(params);
    }
}

#[tokio::test]
async fn in_2026_the_log_level_rides_in_the_request() {
    with_timeout(async {
        let (server_io, client_io) = tokio::io::duplex(256 * 1024);
        tokio::spawn(async move {
            use mcpdesc::rmcp::ServiceExt;
            let server = McpServer::new(router(true, probe().0)).into_service();
            if let Ok(running) = server.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let collector = LogCollector::default();
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![mcpdesc::rmcp::model::ProtocolVersion::V_2026_07_28],
        };
        let client = collector
            .clone()
            .serve_with_lifecycle(client_io, lifecycle)
            .await
            .unwrap();
        let call = |meta: Option<RequestMetaObject>| {
            let request: ClientRequest = serde_json::from_value(
                json!({"method": "tools/call", "params": {"name": "chatty", "arguments": {}}}),
            )
            .unwrap();
            let mut options = PeerRequestOptions::no_options();
            options.meta = meta;
            let peer = client.peer().clone();
            async move {
                let handle = peer
                    .send_request_with_option(request, options)
                    .await
                    .unwrap();
                serde_json::to_value(handle.await_response().await.unwrap()).unwrap()
            }
        };

        // No level in `_meta`: nothing is logged.
        let answer = call(None).await;
        assert_eq!(answer["content"][0]["text"], "None");
        // `info` in `_meta`: info and error.
        let mut meta = RequestMetaObject::new();
        meta.0
             .0
            .insert("io.modelcontextprotocol/logLevel".into(), json!("info"));
        let answer = call(Some(meta)).await;
        assert_eq!(answer["content"][0]["text"], "Some(Info)");
        // The notifications were sent before the answer; let the client handle them.
        for _ in 0..50 {
            if collector.0.lock().unwrap().len() >= 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let levels: Vec<Value> = collector
            .0
            .lock()
            .unwrap()
            .iter()
            .map(|p| serde_json::to_value(p).unwrap()["level"].clone())
            .collect();
        assert_eq!(levels, [json!("info"), json!("error")]);
        assert_eq!(ProtocolVersion::LATEST, ProtocolVersion::V2026_07_28);
        client.cancel().await.unwrap();
    })
    .await;
}

//! MCP 2025-11-25 core tasks on the wire: raw JSON-RPC sessions (newline-delimited,
//! as on stdio, through `mcpdesc::tasks::routed`) against `McpServer` with one
//! `optional`, one `required` and one `forbidden` tool.

#![cfg(feature = "rmcp")]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mcpdesc::rmcp::ServiceExt;
use mcpdesc::{
    McpServer, ProtocolVersion, Router, ServerInfo, TaskLimits, ToolError, ToolResult, ToolSpec,
};
use serde_json::{json, Value};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

const SLOW: ToolSpec = ToolSpec::new(
    "slow",
    &[],
    r#"{"name": "slow", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}"#,
);
const BATCH: ToolSpec = ToolSpec::new(
    "batch",
    &[],
    r#"{"name": "batch", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}}"#,
);
const PLAIN: ToolSpec = ToolSpec::new(
    "plain",
    &[],
    r#"{"name": "plain", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "forbidden"}}"#,
);

/// The fixture; `cancelled` turns true when a `slow` call with `{"hold": true}` sees
/// its cancellation.
fn router(cancelled: Arc<AtomicBool>) -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
        ..ServerInfo::new("tasks", "1.0.0")
    };
    Router::new(info)
        // Reports progress, then answers after a moment; `hold` waits for
        // cancellation instead.
        .tool(SLOW, move |args, cx| {
            let cancelled = cancelled.clone();
            Box::pin(async move {
                if args["hold"] == json!(true) {
                    cx.cancelled().await;
                    cancelled.store(true, Ordering::SeqCst);
                    return Err(ToolError::new("cancelled"));
                }
                cx.progress(1.0, Some(2.0), Some("half")).await;
                tokio::time::sleep(Duration::from_millis(150)).await;
                Ok(ToolResult::text(format!("slow: {}", args["say"])))
            })
        })
        .tool(BATCH, |args, _cx| {
            Box::pin(async move {
                if args["fail"] == json!(true) {
                    return Err(ToolError::new("the batch failed"));
                }
                Ok(ToolResult::text("batch done"))
            })
        })
        .tool(PLAIN, |_args, _cx| {
            Box::pin(async move { Ok(ToolResult::text("plain done")) })
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
            let (read, write) = tokio::io::split(server_io);
            let io = mcpdesc::tasks::routed(read, write);
            let running = server.into_service().serve(io).await?;
            running.waiting().await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        });
        let (read, write) = tokio::io::split(client_io);
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

    /// A request's result; panics on an error answer.
    async fn result(&mut self, method: &str, params: Value) -> Value {
        let (answer, _) = self.request(method, params).await;
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// A request's error code.
    async fn error(&mut self, method: &str, params: Value) -> i64 {
        let (answer, _) = self.request(method, params).await;
        answer["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("{method}: expected an error, got {answer}"))
    }

    /// Starts `tool` as a task; its `Task`.
    async fn start(&mut self, tool: &str, arguments: Value) -> Value {
        let created = self
            .result(
                "tools/call",
                json!({"name": tool, "arguments": arguments, "task": {"ttl": 60000}}),
            )
            .await;
        created["task"].clone()
    }
}

fn server() -> McpServer {
    McpServer::new(router(Arc::default()))
}

async fn capabilities_follow_task_support() {
    let (mut new, caps) = Session::open(server(), "2025-11-25").await;
    assert_eq!(
        caps,
        json!({"tools": {}, "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}})
    );
    let tools = new.result("tools/list", json!({})).await;
    assert_eq!(
        tools["tools"][1]["execution"],
        json!({"taskSupport": "required"})
    );
    // 2025-06-18 has no tasks: no capability, `tasks/*` unknown, `task` ignored, and
    // the `required` tool is called plainly.
    let (mut old, caps) = Session::open(server(), "2025-06-18").await;
    assert_eq!(caps, json!({"tools": {}}));
    assert_eq!(
        old.error("tasks/get", json!({"taskId": "task-1"})).await,
        -32601
    );
    assert_eq!(old.error("tasks/list", json!({})).await, -32601);
    let plain = old
        .result("tools/call", json!({"name": "batch", "task": {}}))
        .await;
    assert_eq!(plain["content"][0]["text"], "batch done");
}

async fn a_task_runs_in_the_background_and_gives_its_result() {
    let (mut s, _) = Session::open(server(), "2025-11-25").await;
    let (answer, mut notified) = s
        .request(
            "tools/call",
            json!({"name": "slow", "arguments": {"say": "hi"}, "task": {"ttl": 60000},
                   "_meta": {"progressToken": "p1"}}),
        )
        .await;
    let task = &answer["result"]["task"];
    assert_eq!(task["status"], "working", "{answer}");
    assert_eq!(task["ttl"], 60000);
    assert_eq!(task["pollInterval"], 200);
    assert!(task["createdAt"].as_str().unwrap().ends_with('Z'), "{task}");
    let id = task["taskId"].as_str().unwrap().to_owned();

    // tasks/result blocks until the tool is done; the progress came before (even
    // before the CreateTaskResult at times: the handler starts at once).
    let (answer, before) = s.request("tasks/result", json!({"taskId": id})).await;
    notified.extend(before);
    let result = &answer["result"];
    assert_eq!(result["content"][0]["text"], "slow: \"hi\"", "{answer}");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"],
        json!({"taskId": id})
    );
    assert!(
        notified
            .iter()
            .any(|n| n["method"] == "notifications/progress"
                && n["params"]["progressToken"] == "p1"
                && n["params"]["progress"] == 1.0),
        "{notified:?}"
    );
    let got = s.result("tasks/get", json!({"taskId": id})).await;
    assert_eq!(got["status"], "completed", "{got}");
    assert_eq!(got["taskId"], id.as_str());

    // The same optional tool still answers a plain call.
    let plain = s
        .result(
            "tools/call",
            json!({"name": "slow", "arguments": {"say": 1}}),
        )
        .await;
    assert_eq!(plain["content"][0]["text"], "slow: 1");
}

async fn task_support_decides_which_calls_are_refused() {
    let (mut s, _) = Session::open(server(), "2025-11-25").await;
    assert_eq!(
        s.error("tools/call", json!({"name": "batch"})).await,
        -32601
    );
    assert_eq!(
        s.error("tools/call", json!({"name": "plain", "task": {}}))
            .await,
        -32601
    );
    let plain = s.result("tools/call", json!({"name": "plain"})).await;
    assert_eq!(plain["content"][0]["text"], "plain done");
    assert_eq!(
        s.error("tools/call", json!({"name": "nope", "task": {}}))
            .await,
        -32602
    );

    let task = s.start("batch", json!({})).await;
    let result = s
        .result("tasks/result", json!({"taskId": task["taskId"]}))
        .await;
    assert_eq!(result["content"][0]["text"], "batch done");

    // A tool execution error fails the task; its result is still the tool's.
    let task = s.start("batch", json!({"fail": true})).await;
    let result = s
        .result("tasks/result", json!({"taskId": task["taskId"]}))
        .await;
    assert_eq!(result["isError"], true, "{result}");
    let got = s
        .result("tasks/get", json!({"taskId": task["taskId"]}))
        .await;
    assert_eq!(got["status"], "failed");

    assert_eq!(
        s.error("tasks/get", json!({"taskId": "task-99"})).await,
        -32602
    );
    assert_eq!(s.error("tasks/result", json!({})).await, -32602);
}

async fn cancel_stops_the_handler() {
    let cancelled = Arc::new(AtomicBool::new(false));
    let (mut s, _) = Session::open(McpServer::new(router(cancelled.clone())), "2025-11-25").await;
    let task = s.start("slow", json!({"hold": true})).await;
    let id = task["taskId"].clone();
    let after = s.result("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(after["status"], "cancelled", "{after}");
    assert_eq!(s.error("tasks/cancel", json!({"taskId": id})).await, -32602);
    assert_eq!(s.error("tasks/result", json!({"taskId": id})).await, -32600);
    for _ in 0..50 {
        if cancelled.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        cancelled.load(Ordering::SeqCst),
        "the handler saw no cancellation"
    );
}

async fn tasks_are_listed_in_pages_and_bounded() {
    let limits = TaskLimits {
        max_live: 2,
        page_size: 2,
        ..TaskLimits::default()
    };
    let server = server().task_limits(limits);
    let (mut s, _) = Session::open(server.new_session(), "2025-11-25").await;
    let first = s.start("slow", json!({"hold": true})).await;
    s.start("slow", json!({"hold": true})).await;
    // Two are working: a third is refused until one ends.
    assert_eq!(
        s.error("tools/call", json!({"name": "batch", "task": {}}))
            .await,
        -32600
    );
    s.result("tasks/cancel", json!({"taskId": first["taskId"]}))
        .await;
    s.start("batch", json!({})).await;

    let page = s.result("tasks/list", json!({})).await;
    let ids: Vec<&Value> = page["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["taskId"])
        .collect();
    assert_eq!(ids, [&json!("task-1"), &json!("task-2")], "{page}");
    let next = page["nextCursor"].clone();
    let page = s.result("tasks/list", json!({"cursor": next})).await;
    assert_eq!(page["tasks"][0]["taskId"], "task-3", "{page}");
    assert!(page.get("nextCursor").is_none(), "{page}");
    assert_eq!(s.error("tasks/list", json!({"cursor": "x"})).await, -32602);

    // Another session sees none of them.
    let (mut other, _) = Session::open(server.new_session(), "2025-11-25").await;
    let page = other.result("tasks/list", json!({})).await;
    assert_eq!(page["tasks"], json!([]));
    assert_eq!(
        other.error("tasks/get", json!({"taskId": "task-1"})).await,
        -32602
    );
}

/// `mcpdesc::client`: `Session::call_tool_as_task` and its handle.
#[cfg(feature = "client")]
async fn the_client_handle_follows_a_task() {
    let (server_io, client_io) = tokio::io::duplex(256 * 1024);
    let server = server();
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_io);
        let running = server
            .into_service()
            .serve(mcpdesc::tasks::routed(read, write))
            .await?;
        running.waiting().await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    });
    let (read, write) = tokio::io::split(client_io);
    let session = mcpdesc::client::Options::new()
        .io(read, write)
        .await
        .unwrap();
    let task = session
        .call_tool_as_task("batch", json!({}), Some(1000))
        .await
        .unwrap();
    assert_eq!(task.created()["ttl"], 1000);
    let result = task.result().await.unwrap();
    assert_eq!(result["content"][0]["text"], "batch done", "{result}");
    assert_eq!(task.status().await.unwrap()["status"], "completed");
    let held = session
        .call_tool_as_task("slow", json!({"hold": true}), None)
        .await
        .unwrap();
    assert_eq!(held.cancel().await.unwrap()["status"], "cancelled");
    // The forbidden tool creates no task.
    let refused = session.call_tool_as_task("plain", json!({}), None).await;
    assert!(refused.is_err(), "{refused:?}");
}

/// `slow` for 2025-11-25 (`execution.taskSupport: optional`) and for 2026-07-28, where
/// a description cannot declare `execution` (the core tasks of 2025-11-25 are gone; the
/// `io.modelcontextprotocol/tasks` extension takes their place).
const SLOW_2025: ToolSpec = ToolSpec::new(
    "slow",
    &[ProtocolVersion::V2025_11_25],
    r#"{"name": "slow", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}"#,
);
const SLOW_2026: ToolSpec = ToolSpec::new(
    "slow",
    &[ProtocolVersion::V2026_07_28],
    r#"{"name": "slow", "inputSchema": {"type": "object"}}"#,
);

/// What a 2026-07-28 client gets for a tool whose 2025-11-25 variant runs as a task
/// (docs/serving.md, "Not served: the 2026-07-28 extension"): no `tasks` capability and
/// no `io.modelcontextprotocol/tasks` extension in discovery, no `execution` in
/// `tools/list`, a plain (`complete`) result for a call that asks for a task or
/// declares the extension, and `-32601` for the extension's `tasks/get`, `tasks/update`
/// and `tasks/cancel`. A 2025-11-25 session of the same server still runs it as a task.
#[tokio::test]
async fn a_2026_07_28_client_gets_no_tasks() {
    fn handler(
        _args: Value,
        cx: mcpdesc::Context,
    ) -> mcpdesc::BoxFuture<'static, Result<ToolResult, ToolError>> {
        Box::pin(async move {
            Ok(ToolResult::text(format!(
                "slow in {}",
                cx.protocol_version()
            )))
        })
    }
    let router = || {
        let info = ServerInfo {
            protocol_versions: &[ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28],
            ..ServerInfo::new("tasks-2026", "1.0.0")
        };
        Router::new(info)
            .tool(SLOW_2025, handler)
            .tool(SLOW_2026, handler)
    };
    let run = async {
        let (mut old, caps) = Session::open(McpServer::new(router()), "2025-11-25").await;
        assert!(caps.get("tasks").is_some(), "{caps}");
        let task = old.start("slow", json!({})).await;
        assert_eq!(task["status"], "working", "{task}");

        let (server_io, client_io) = tokio::io::duplex(256 * 1024);
        let server = McpServer::new(router());
        tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_io);
            let running = server
                .into_service()
                .serve(mcpdesc::tasks::routed(read, write))
                .await?;
            running.waiting().await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        });
        let (read, write) = tokio::io::split(client_io);
        let mut new = Session {
            lines: BufReader::new(read).lines(),
            write,
            next_id: 0,
        };
        // Every 2026-07-28 request carries its version and client in `_meta`; this
        // client declares the tasks extension.
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":
                {"extensions": {"io.modelcontextprotocol/tasks": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "0.0.1"}
        });
        let discovered = new.result("server/discover", json!({"_meta": meta})).await;
        let caps = &discovered["capabilities"];
        assert!(caps.get("tasks").is_none(), "{discovered}");
        assert!(
            caps.pointer("/extensions/io.modelcontextprotocol~1tasks")
                .is_none(),
            "{discovered}"
        );
        let tools = new.result("tools/list", json!({"_meta": meta})).await;
        assert_eq!(tools["tools"][0]["name"], "slow", "{tools}");
        assert!(tools["tools"][0].get("execution").is_none(), "{tools}");
        let called = new
            .result(
                "tools/call",
                json!({"name": "slow", "arguments": {}, "task": {"ttl": 60000}, "_meta": meta}),
            )
            .await;
        assert_eq!(called["resultType"], "complete", "{called}");
        assert!(called.get("task").is_none(), "{called}");
        assert_eq!(
            called["content"][0]["text"], "slow in 2026-07-28",
            "{called}"
        );
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            let code = new
                .error(method, json!({"taskId": "task-1", "_meta": meta}))
                .await;
            assert_eq!(code, -32601, "{method}");
        }
    };
    tokio::time::timeout(Duration::from_secs(30), run)
        .await
        .expect("the 2026-07-28 test finishes in time");
}

#[tokio::test]
async fn tasks_on_the_wire() {
    let all = async {
        capabilities_follow_task_support().await;
        a_task_runs_in_the_background_and_gives_its_result().await;
        task_support_decides_which_calls_are_refused().await;
        cancel_stops_the_handler().await;
        tasks_are_listed_in_pages_and_bounded().await;
        #[cfg(feature = "client")]
        the_client_handle_follows_a_task().await;
    };
    tokio::time::timeout(Duration::from_secs(60), all)
        .await
        .expect("the task tests finish in time");
}

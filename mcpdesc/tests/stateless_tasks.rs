//! MCP 2025-11-25 tasks and stateless HTTP, on the wire (a hyper client speaking raw
//! JSON-RPC to `mcpdesc::http` on a loopback port): a stateless server keeps no task,
//! so it advertises no `tasks` capability, lists no `execution.taskSupport`, serves
//! every tool plainly (a `required` one too), answers a task-augmented call as the
//! plain call (MCP 2025-11-25: a receiver without the capability "MUST process
//! requests of that type normally") and `tasks/*` with `-32601` naming stateless
//! mode; the same router served with sessions advertises and runs tasks. A
//! hand-written handler that delegates to `McpServer` behaves the same, and MCP
//! 2026-07-28 (no core tasks) is unchanged.

#![cfg(feature = "http")]

#[path = "support/wire.rs"]
mod wire;

use std::time::Duration;

use mcpdesc::http::HttpServer;
use mcpdesc::rmcp::model as m;
use mcpdesc::rmcp::service::RequestContext;
use mcpdesc::rmcp::{ErrorData, RoleServer, ServerHandler};
use mcpdesc::{McpServer, ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::{json, Value};
use wire::{Client, Reply, VERSION};

/// Runs plainly or as a task.
const ANALYZE: ToolSpec = ToolSpec::new(
    "analyze",
    &[ProtocolVersion::V2025_11_25],
    r#"{"name": "analyze", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"},
        "execution": {"taskSupport": "optional"}}"#,
);
/// Runs only as a task where tasks are served.
const BATCH: ToolSpec = ToolSpec::new(
    "batch",
    &[ProtocolVersion::V2025_11_25],
    r#"{"name": "batch", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"},
        "execution": {"taskSupport": "required"}}"#,
);
/// Declares no task support; served in 2026-07-28 too.
const ECHO: ToolSpec = ToolSpec::new(
    "echo",
    &[],
    r#"{"name": "echo", "inputSchema": {"type": "object"}}"#,
);

fn router() -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28],
        ..ServerInfo::new("stateless-tasks", "1.0.0")
    };
    Router::new(info)
        .tool(ANALYZE, |args, _| {
            Box::pin(async move { Ok(ToolResult::text(format!("analyzed {}", args["game"]))) })
        })
        .tool(BATCH, |_, _| {
            Box::pin(async { Ok(ToolResult::text("batch done")) })
        })
        .tool(ECHO, |_, _| {
            Box::pin(async { Ok(ToolResult::text("echo")) })
        })
}

/// The tasks capability of a server with a task-capable tool.
fn tasks_capability() -> Value {
    json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
}

/// Serves `server` on a free loopback port; the token stops it.
async fn start<H: ServerHandler>(
    server: HttpServer<H>,
) -> (std::net::SocketAddr, mcpdesc::CancellationToken) {
    let bound = server.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    let stop = bound.shutdown_token();
    tokio::spawn(bound.run());
    (addr, stop)
}

async fn with_timeout<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), future)
        .await
        .expect("the exchange finishes within 30 s")
}

/// A request's JSON-RPC message.
fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// The `result` of the answer to `id`; panics on an error answer.
fn result(reply: &Reply, id: i64) -> Value {
    let answer = reply.answer(id);
    assert!(answer.get("error").is_none(), "{answer}");
    answer["result"].clone()
}

/// The `error` of the answer to `id`; panics on a result.
fn error(reply: &Reply, id: i64) -> Value {
    let answer = reply.answer(id);
    assert!(answer.get("result").is_none(), "{answer}");
    answer["error"].clone()
}

/// The router's 2025-11-25 listing as a server without the `tasks` capability lists
/// it: `execution` (which holds only `taskSupport` in 2025-11-25) left out.
fn listed_without_tasks() -> Value {
    let mut tools = router().list_tools(ProtocolVersion::V2025_11_25);
    for tool in &mut tools {
        tool.as_object_mut().unwrap().remove("execution");
    }
    Value::Array(tools)
}

/// `initialize` at 2025-11-25 on a stateless server: its capabilities (and no
/// session).
async fn stateless_initialize(addr: std::net::SocketAddr) -> Value {
    let reply = Client::new(addr)
        .post(request(
            1,
            "initialize",
            json!({"protocolVersion": VERSION, "capabilities": {},
                   "clientInfo": {"name": "stateless-test", "version": "1.0.0"}}),
        ))
        .await;
    assert!(reply.headers.get("mcp-session-id").is_none(), "{reply:?}");
    let result = result(&reply, 1);
    assert_eq!(result["protocolVersion"], VERSION, "{result}");
    result["capabilities"].clone()
}

/// The checks of a stateless server of [`router`], whatever handler serves it.
async fn a_stateless_server_serves_no_task(addr: std::net::SocketAddr) {
    // No `tasks`, and its `experimental` carrier through rmcp is not left behind.
    let capabilities = stateless_initialize(addr).await;
    assert_eq!(capabilities, json!({"tools": {}}), "{capabilities}");

    // Stateless requests name their version in the header.
    let client = Client::new(addr).header("mcp-protocol-version", VERSION);
    let list = client.post(request(2, "tools/list", json!({}))).await;
    let tools = result(&list, 2)["tools"].clone();
    assert_eq!(tools, listed_without_tasks(), "{tools}");
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t.get("execution").is_none()),
        "{tools}"
    );

    // The optional tool plainly; the required one plainly too (nothing else could
    // call it here).
    let plain = client
        .post(request(
            3,
            "tools/call",
            json!({"name": "analyze", "arguments": {"game": "e4"}}),
        ))
        .await;
    assert_eq!(result(&plain, 3)["content"][0]["text"], "analyzed \"e4\"");
    let batch = client
        .post(request(4, "tools/call", json!({"name": "batch"})))
        .await;
    assert_eq!(result(&batch, 4)["content"][0]["text"], "batch done");

    // A task-augmented call anyway: the plain call's result, no task.
    let augmented = client
        .post(request(
            5,
            "tools/call",
            json!({"name": "analyze", "arguments": {"game": "e4"}, "task": {"ttl": 60000}}),
        ))
        .await;
    let answered = result(&augmented, 5);
    assert_eq!(answered, result(&plain, 3), "{answered}");
    assert!(answered.get("task").is_none(), "{answered}");

    // `tasks/*` are methods this server does not have, and it says why.
    for (id, method, params) in [
        (6, "tasks/get", json!({"taskId": "task-1"})),
        (7, "tasks/result", json!({"taskId": "task-1"})),
        (8, "tasks/list", json!({})),
        (9, "tasks/cancel", json!({"taskId": "task-1"})),
    ] {
        let reply = client.post(request(id, method, params)).await;
        let refused = error(&reply, id);
        assert_eq!(refused["code"], -32601, "{method}: {refused}");
        let message = refused["message"].as_str().unwrap();
        assert!(
            message.contains(method) && message.contains("stateless mode"),
            "{method}: {message}"
        );
    }
}

#[tokio::test]
async fn a_stateless_server_advertises_lists_and_runs_no_task() {
    with_timeout(async {
        let (addr, stop) = start(HttpServer::new(router()).stateless(true)).await;
        a_stateless_server_serves_no_task(addr).await;
        stop.cancel();
    })
    .await;
}

#[tokio::test]
async fn the_same_router_with_sessions_advertises_and_runs_tasks() {
    with_timeout(async {
        let (addr, stop) = start(HttpServer::new(router())).await;
        let mut client = Client::new(addr);
        let init = client.initialize().await;
        assert!(client.session.is_some(), "{init:?}");
        assert_eq!(
            result(&init, 0)["capabilities"],
            json!({"tools": {}, "tasks": tasks_capability()})
        );
        let list = client.post(request(2, "tools/list", json!({}))).await;
        assert_eq!(
            result(&list, 2)["tools"],
            Value::Array(router().list_tools(ProtocolVersion::V2025_11_25))
        );
        assert_eq!(
            result(&list, 2)["tools"][0]["execution"],
            json!({"taskSupport": "optional"})
        );

        // The task-augmented call creates a task; its result is the plain call's.
        let created = client
            .post(request(
                3,
                "tools/call",
                json!({"name": "analyze", "arguments": {"game": "e4"}, "task": {"ttl": 60000}}),
            ))
            .await;
        let task = result(&created, 3)["task"].clone();
        assert_eq!(task["status"], "working", "{task}");
        let id = task["taskId"].as_str().unwrap();
        let done = client
            .post(request(4, "tasks/result", json!({"taskId": id})))
            .await;
        let done = result(&done, 4);
        assert_eq!(done["content"][0]["text"], "analyzed \"e4\"", "{done}");
        assert_eq!(
            done["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
            id
        );

        // Here the required tool runs only as a task.
        let plain = client
            .post(request(5, "tools/call", json!({"name": "batch"})))
            .await;
        assert_eq!(error(&plain, 5)["code"], -32601);
        stop.cancel();
    })
    .await;
}

/// A hand-written handler that delegates to `McpServer` (initialize included), as
/// `docs/serving.md`'s composition section does.
#[derive(Clone)]
struct Delegating {
    tools: McpServer,
}

impl ServerHandler for Delegating {
    fn get_info(&self) -> m::ServerConfig {
        self.tools.get_info()
    }

    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [m::ProtocolVersion]> {
        self.tools.supported_protocol_versions()
    }

    async fn initialize(
        &self,
        request: m::InitializeRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<m::InitializeResult, ErrorData> {
        self.tools.initialize(request, cx).await
    }

    async fn list_tools(
        &self,
        request: Option<m::PaginatedRequestParams>,
        cx: RequestContext<RoleServer>,
    ) -> Result<m::ListToolsResult, ErrorData> {
        self.tools.list_tools(request, cx).await
    }

    async fn call_tool(
        &self,
        request: m::CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<m::CallToolResponse, ErrorData> {
        self.tools.call_tool(request, cx).await
    }

    async fn on_custom_request(
        &self,
        request: m::CustomRequest,
        cx: RequestContext<RoleServer>,
    ) -> Result<m::CustomResult, ErrorData> {
        self.tools.on_custom_request(request, cx).await
    }
}

#[tokio::test]
async fn a_delegating_handler_learns_the_mode_too() {
    with_timeout(async {
        let tools = McpServer::new(router());
        let listings = tools.tool_listings().clone();
        let server = HttpServer::with_handler(move || Delegating {
            tools: tools.new_session(),
        })
        .restore_tool_members(listings)
        .stateless(true);
        let (addr, stop) = start(server).await;
        a_stateless_server_serves_no_task(addr).await;
        stop.cancel();
    })
    .await;
}

#[tokio::test]
async fn a_stateless_2026_request_is_served_as_before() {
    with_timeout(async {
        let (addr, stop) = start(HttpServer::new(router()).stateless(true)).await;
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "stateless-test", "version": "1.0.0"}
        });
        let client = |method: &str| {
            Client::new(addr)
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", method)
        };
        let list = client("tools/list")
            .post(request(1, "tools/list", json!({"_meta": meta})))
            .await;
        assert_eq!(
            result(&list, 1)["tools"],
            Value::Array(router().list_tools(ProtocolVersion::V2026_07_28))
        );
        // No core tasks in 2026-07-28: `tasks/list` is unknown, for the version's
        // own reason.
        let tasks = client("tasks/list")
            .post(request(2, "tasks/list", json!({"_meta": meta})))
            .await;
        // (2026-07-28 gives a JSON-RPC error its HTTP status: 404 for -32601.)
        assert_eq!(tasks.status, hyper::StatusCode::NOT_FOUND, "{tasks:?}");
        let refused = tasks.json()["error"].clone();
        assert_eq!(refused["code"], -32601, "{refused}");
        let message = refused["message"].as_str().unwrap();
        assert!(
            message.contains("no tool of this protocol version runs as a task")
                && !message.contains("stateless"),
            "{message}"
        );
        stop.cancel();
    })
    .await;
}

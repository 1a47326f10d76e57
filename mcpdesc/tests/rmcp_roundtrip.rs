//! An rmcp client talks to the adapter over an in-memory duplex pipe: initialize,
//! `tools/list`, `tools/call` (ok, invalid arguments, unknown tool), and tools that ask
//! the client for elicitation and roots through their `Context`.

#![cfg(feature = "rmcp")]
// The test client answers `roots/list`, which rmcp marks deprecated (roots leave MCP
// in 2026-07-28, but the earlier versions served here have them).
#![allow(deprecated)]

mod common;

use std::time::Duration;

use mcpdesc::rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ErrorCode, ListRootsResult, Root,
};
use mcpdesc::rmcp::service::{QuitReason, RequestContext, RunningService};
use mcpdesc::rmcp::{
    ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, RoleClient, ServiceError,
    ServiceExt,
};
use mcpdesc::{McpServer, ProtocolVersion, Router, ToolResult, ToolSpec};
use serde_json::{json, Value};

const ALL_BUT_OLDEST: &[ProtocolVersion] = &[
    ProtocolVersion::V2025_06_18,
    ProtocolVersion::V2025_11_25,
    ProtocolVersion::V2026_07_28,
];

const CONFIRM_MOVE: ToolSpec = ToolSpec::new(
    "confirm_move",
    ALL_BUT_OLDEST,
    r#"{
        "name": "confirm_move",
        "protocolVersions": ["2025-06-18", "2025-11-25", "2026-07-28"],
        "inputSchema": {"type": "object", "properties": {"move": {"type": "string"}}, "required": ["move"]},
        "elicitations": [{"name": "confirm", "mode": "form", "message": "Play it?", "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}}}]
    }"#,
);

const WORKSPACE: ToolSpec = ToolSpec::new(
    "workspace",
    &[],
    r#"{"name": "workspace", "inputSchema": {"type": "object", "additionalProperties": false}}"#,
);

/// The fixture router plus two tools that use the client through their `Context`.
fn router() -> Router {
    common::router()
        .tool(CONFIRM_MOVE, |args, cx| {
            Box::pin(async move {
                let schema = json!({
                    "type": "object",
                    "properties": {"confirm": {"type": "boolean"}},
                    "required": ["confirm"]
                });
                let message = format!("Play {}?", args["move"].as_str().unwrap_or("?"));
                let answer = cx.elicit_form(message, schema).await?;
                Ok(ToolResult::text(format!(
                    "{:?}: {}",
                    answer.action,
                    Value::Object(answer.content.unwrap_or_default())
                )))
            })
        })
        .tool(WORKSPACE, |_args, cx| {
            Box::pin(async move {
                // Named: in 2026-07-28 the input request is keyed `workspace_roots`.
                let roots = cx.input_key("workspace_roots").list_roots().await?;
                let uris: Vec<String> = roots.into_iter().map(|r| r.uri).collect();
                Ok(ToolResult::text(uris.join(", ")))
            })
        })
}

/// A client that accepts every form (echoing the message) and exposes one root.
struct TestClient {
    config: ClientConfig,
}

impl TestClient {
    fn new(version: &str, capabilities: Value) -> Self {
        let config = serde_json::from_value(json!({
            "protocolVersion": version,
            "capabilities": capabilities,
            "clientInfo": {"name": "roundtrip-test", "version": "0.0.1"}
        }))
        .unwrap();
        TestClient { config }
    }
}

impl ClientHandler for TestClient {
    fn get_info(&self) -> ClientConfig {
        self.config.clone()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        match request {
            ElicitRequestParams::FormElicitationParams { message, .. } => {
                Ok(ElicitResult::new(ElicitationAction::Accept)
                    .with_content(json!({"confirm": true, "asked": message})))
            }
            _ => Ok(ElicitResult::new(ElicitationAction::Decline)),
        }
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        Ok(ListRootsResult::new(vec![Root::new("file:///workspace")]))
    }
}

type Server = tokio::task::JoinHandle<Result<QuitReason, String>>;

/// Starts the adapter on one end of a duplex pipe and connects `client` on the other.
async fn connect(
    client: TestClient,
    lifecycle: ClientLifecycleMode,
) -> (RunningService<RoleClient, TestClient>, Server) {
    let (server_io, client_io) = tokio::io::duplex(256 * 1024);
    let server: Server = tokio::spawn(async move {
        let running = McpServer::new(router())
            .into_service()
            .serve(server_io)
            .await
            .map_err(|e| e.to_string())?;
        running.waiting().await.map_err(|e| e.to_string())
    });
    let client = client
        .serve_with_lifecycle(client_io, lifecycle)
        .await
        .expect("the client connects");
    (client, server)
}

/// A client with `capabilities` in a 2026-07-28 session (no `initialize`: discovery).
async fn connect_2026(capabilities: Value) -> RunningService<RoleClient, TestClient> {
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![mcpdesc::rmcp::model::ProtocolVersion::V_2026_07_28],
    };
    connect(TestClient::new("2026-07-28", capabilities), lifecycle)
        .await
        .0
}

fn full_capabilities() -> Value {
    json!({"elicitation": {"form": {}}, "roots": {}, "sampling": {}})
}

async fn call(
    client: &RunningService<RoleClient, TestClient>,
    name: &'static str,
    arguments: Value,
) -> Result<Value, ServiceError> {
    let params =
        CallToolRequestParams::new(name).with_arguments(arguments.as_object().unwrap().clone());
    let result = client.call_tool(params).await?;
    Ok(serde_json::to_value(result).unwrap())
}

async fn with_timeout<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), future)
        .await
        .expect("the round trip finishes within 30 s")
}

#[tokio::test]
async fn initialize_list_and_call_over_a_duplex_pipe() {
    with_timeout(async {
        let (client, server) = connect(
            TestClient::new("2025-11-25", full_capabilities()),
            ClientLifecycleMode::Initialize,
        )
        .await;

        // initialize
        let info = client.peer_info().expect("the server answered initialize");
        assert_eq!(info.protocol_version.as_str(), "2025-11-25");
        let implementation = info.server_info.as_ref().unwrap();
        assert_eq!(implementation.name, "chess");
        assert_eq!(implementation.version, "1.2.3");
        assert_eq!(implementation.title.as_deref(), Some("Chess"));
        assert_eq!(info.instructions.as_deref(), Some("Analyze games, then record results."));
        assert!(info.capabilities.tools.is_some());

        // tools/list is the router's projection for the negotiated version.
        let tools = client.list_all_tools().await.unwrap();
        assert_eq!(
            serde_json::to_value(&tools).unwrap(),
            Value::Array(router().list_tools(ProtocolVersion::V2025_11_25))
        );

        // tools/call: success with structured content
        let ok = call(&client, "analyze_game", json!({"pgn": "1. e4 e5", "depth": 6})).await.unwrap();
        assert_eq!(
            ok,
            json!({
                "content": [{"type": "text", "text": "{\"evaluation\":0.3,\"best_move\":\"Nf3 (depth 6)\"}"}],
                "structuredContent": {"evaluation": 0.3, "best_move": "Nf3 (depth 6)"}
            })
        );

        // tools/call: invalid arguments are a tool execution error
        let invalid = call(&client, "analyze_game", json!({"pgn": "1. e4", "depth": 0})).await.unwrap();
        assert_eq!(invalid["isError"], true);
        let text = invalid["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("Invalid arguments for tool `analyze_game`:\n- `/depth`: "), "{text}");

        // tools/call: an unknown tool is a JSON-RPC error
        match call(&client, "resign", json!({})).await {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
                assert_eq!(e.message, "Unknown tool: `resign`");
            }
            other => panic!("expected a protocol error, got {other:?}"),
        }

        // A panicking handler does not take the session down.
        let panicked = call(&client, "analyze_game", json!({"pgn": "PANIC"})).await.unwrap();
        assert_eq!(panicked["isError"], true);
        let again = call(&client, "get_player_rating", json!({"player_id": "judit"})).await.unwrap();
        assert_eq!(again["content"][0]["text"], "judit is rated 1500 (MCP 2025-11-25)");

        // The server serves until the client disconnects.
        client.cancel().await.unwrap();
        let reason = server.await.unwrap().unwrap();
        assert!(matches!(reason, QuitReason::Closed | QuitReason::Cancelled), "{reason:?}");
    })
    .await;
}

#[tokio::test]
async fn a_tool_asks_the_client_for_elicitation_and_roots() {
    with_timeout(async {
        let (client, _server) = connect(
            TestClient::new("2025-11-25", full_capabilities()),
            ClientLifecycleMode::Initialize,
        )
        .await;

        let confirmed = call(&client, "confirm_move", json!({"move": "Nf3"})).await.unwrap();
        assert_eq!(
            confirmed,
            json!({"content": [{"type": "text", "text": "Accept: {\"confirm\":true,\"asked\":\"Play Nf3?\"}"}]})
        );

        let roots = call(&client, "workspace", json!({})).await.unwrap();
        assert_eq!(roots["content"][0]["text"], "file:///workspace");
        client.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn client_requests_respect_declared_capabilities() {
    with_timeout(async {
        let (client, _server) = connect(
            TestClient::new("2025-06-18", json!({})),
            ClientLifecycleMode::Initialize,
        )
        .await;
        let refused = call(&client, "confirm_move", json!({"move": "e4"})).await.unwrap();
        assert_eq!(refused["isError"], true);
        assert_eq!(
            refused["content"][0]["text"],
            "the client did not declare the `elicitation` capability that `elicitation/create` needs"
        );
        client.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn an_older_session_sees_only_its_tools_and_shapes() {
    with_timeout(async {
        let (client, _server) = connect(
            TestClient::new("2025-03-26", full_capabilities()),
            ClientLifecycleMode::Initialize,
        )
        .await;
        assert_eq!(
            client.peer_info().unwrap().protocol_version.as_str(),
            "2025-03-26"
        );
        let tools = client.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["get_player_rating", "search", "workspace"]);

        match call(&client, "analyze_game", json!({"pgn": "1. e4"})).await {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
                assert!(
                    e.message
                        .contains("not available in MCP protocol version 2025-03-26"),
                    "{}",
                    e.message
                );
            }
            other => panic!("expected a protocol error, got {other:?}"),
        }
        // No structuredContent before 2025-06-18: the JSON text block carries it.
        let search = call(&client, "search", json!({"q": "caro-kann"}))
            .await
            .unwrap();
        assert_eq!(
            search,
            json!({"content": [{"type": "text", "text": "{\"query\":\"caro-kann\",\"hits\":0}"}]})
        );
        client.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_2026_session_gets_result_type_complete() {
    with_timeout(async {
        let client = connect_2026(full_capabilities()).await;
        let tools = client.list_all_tools().await.unwrap();
        assert_eq!(
            serde_json::to_value(&tools).unwrap(),
            Value::Array(router().list_tools(ProtocolVersion::V2026_07_28))
        );
        let rating = call(&client, "get_player_rating", json!({"player_id": "hou"}))
            .await
            .unwrap();
        assert_eq!(rating["resultType"], "complete");
        assert_eq!(
            rating["content"][0]["text"],
            "hou is rated 1500 (MCP 2026-07-28)"
        );

        client.cancel().await.unwrap();
    })
    .await;
}

/// A 2025-11-25 tool with `execution`, a member rmcp's `Tool` type has no field for.
const BACKGROUND_ANALYSIS: ToolSpec = ToolSpec::new(
    "background_analysis",
    &[ProtocolVersion::V2025_11_25],
    r#"{
        "name": "background_analysis",
        "protocolVersions": ["2025-11-25"],
        "inputSchema": {"type": "object", "properties": {"pgn": {"type": "string"}}},
        "annotations": {"readOnlyHint": true},
        "execution": {"taskSupport": "optional"}
    }"#,
);

/// Plays a raw JSON-RPC session (newline-delimited, as on stdio) against the adapter:
/// `initialize` with `version`, `notifications/initialized`, then `tools/list`. Returns
/// the `tools/list` response as the client reads it off the wire.
async fn raw_tools_list(router: Router, version: &str) -> Value {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (server_io, client_io) = tokio::io::duplex(256 * 1024);
    tokio::spawn(async move {
        let running = McpServer::new(router)
            .into_service()
            .serve(server_io)
            .await?;
        running.waiting().await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    });
    let (read, mut write) = tokio::io::split(client_io);
    let mut lines = BufReader::new(read).lines();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "0.0.1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ] {
        write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    loop {
        let line = lines
            .next_line()
            .await
            .unwrap()
            .expect("the server answers tools/list");
        let message: Value = serde_json::from_str(&line).unwrap();
        if message["id"] == 2 {
            return message;
        }
    }
}

#[tokio::test]
async fn tools_list_on_the_wire_keeps_members_rmcp_has_no_field_for() {
    with_timeout(async {
        let router = || {
            router().tool(BACKGROUND_ANALYSIS, |_args, _cx| {
                Box::pin(async { Ok(ToolResult::text("queued")) })
            })
        };

        let response = raw_tools_list(router(), "2025-11-25").await;
        let tools = &response["result"]["tools"];
        let listed = tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "background_analysis")
            .expect("background_analysis is listed");
        assert_eq!(
            listed["execution"],
            json!({"taskSupport": "optional"}),
            "{listed}"
        );
        assert_eq!(listed["annotations"], json!({"readOnlyHint": true}));
        // The whole answer is the router's projection, member for member.
        assert_eq!(
            *tools,
            Value::Array(router().list_tools(ProtocolVersion::V2025_11_25))
        );

        // An older session neither lists the tool nor gets `execution` anywhere.
        let older = raw_tools_list(router(), "2025-06-18").await;
        assert_eq!(
            older["result"]["tools"],
            Value::Array(router().list_tools(ProtocolVersion::V2025_06_18))
        );
        assert!(!older.to_string().contains("execution"), "{older}");
    })
    .await;
}

/// MCP 2026-07-28 has no server-to-client requests during a call: the adapter answers
/// with input-required results and replays the handler, and rmcp's client fulfils the
/// requests through its handler and retries, round after round.
#[tokio::test]
async fn a_2026_call_gets_client_input_through_input_required_rounds() {
    with_timeout(async {
        let client = connect_2026(full_capabilities()).await;

        // One elicitation: two rounds, then the result the handler built from the answer.
        let confirmed = call(&client, "confirm_move", json!({"move": "e4"}))
            .await
            .unwrap();
        assert_eq!(
            confirmed,
            json!({"resultType": "complete", "content": [{"type": "text",
                "text": "Accept: {\"confirm\":true,\"asked\":\"Play e4?\"}"}]})
        );
        let roots = call(&client, "workspace", json!({})).await.unwrap();
        assert_eq!(roots["content"][0]["text"], "file:///workspace");

        // The first round on the wire: an input-required result with the request
        // keyed `input-0` and a `requestState` to echo.
        let params = CallToolRequestParams::new("confirm_move")
            .with_arguments(json!({"move": "d4"}).as_object().unwrap().clone());
        let first = match client.call_tool_once(params).await.unwrap() {
            CallToolResponse::InputRequired(first) => serde_json::to_value(first).unwrap(),
            other => panic!("expected an input-required result, got {other:?}"),
        };
        assert_eq!(first["resultType"], "input_required", "{first}");
        assert_eq!(
            first["inputRequests"]["input-0"],
            json!({"method": "elicitation/create", "params": {
                "mode": "form", "message": "Play d4?",
                "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}}})
        );
        assert!(first["requestState"].is_string(), "{first}");

        // A state replayed against other arguments is refused.
        let params = CallToolRequestParams::new("confirm_move")
            .with_arguments(json!({"move": "c4"}).as_object().unwrap().clone())
            .with_request_state(first["requestState"].as_str().unwrap())
            .with_input_responses([("input-0".to_owned(), json!({"action": "accept", "content": {"confirm": true}}))].into());
        match client.call_tool_once(params).await {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
                assert!(e.message.contains("belongs to another call"), "{}", e.message);
            }
            other => panic!("expected a protocol error, got {other:?}"),
        }
        client.cancel().await.unwrap();
    })
    .await;
}

/// A handler names the key of its input request (`Context::input_key`), and an
/// `inputResponses` entry the server did not ask for is ignored (SEP-2322).
#[tokio::test]
async fn a_2026_round_uses_the_handlers_key_and_ignores_unasked_responses() {
    with_timeout(async {
        let client = connect_2026(full_capabilities()).await;
        let params = CallToolRequestParams::new("workspace").with_arguments(Default::default());
        let first = match client.call_tool_once(params).await.unwrap() {
            CallToolResponse::InputRequired(first) => serde_json::to_value(first).unwrap(),
            other => panic!("expected an input-required result, got {other:?}"),
        };
        let requests = first["inputRequests"].as_object().unwrap();
        assert_eq!(
            requests.keys().collect::<Vec<_>>(),
            ["workspace_roots"],
            "{first}"
        );
        assert_eq!(requests["workspace_roots"], json!({"method": "roots/list"}));
        let params = CallToolRequestParams::new("workspace")
            .with_arguments(Default::default())
            .with_request_state(first["requestState"].as_str().unwrap())
            .with_input_responses(
                [
                    (
                        "workspace_roots".to_owned(),
                        json!({"roots": [{"uri": "file:///named"}]}),
                    ),
                    ("never-asked".to_owned(), json!({"action": "accept"})),
                ]
                .into(),
            );
        match client.call_tool_once(params).await.unwrap() {
            CallToolResponse::Complete(done) => {
                let done = serde_json::to_value(done).unwrap();
                assert_eq!(done["content"][0]["text"], "file:///named", "{done}");
            }
            other => panic!("expected a complete result, got {other:?}"),
        }
        client.cancel().await.unwrap();
    })
    .await;
}

/// A client that declared no elicitation gets the handler's tool error, and no
/// input-required round, in a 2026-07-28 session too.
#[tokio::test]
async fn a_2026_call_does_not_ask_for_undeclared_capabilities() {
    with_timeout(async {
        let client = connect_2026(json!({})).await;
        let refused = call(&client, "confirm_move", json!({"move": "e4"}))
            .await
            .unwrap();
        assert_eq!(refused["isError"], true);
        assert_eq!(
            refused["content"][0]["text"],
            "the client did not declare the `elicitation` capability that `elicitation/create` needs"
        );
        client.cancel().await.unwrap();
    })
    .await;
}

//! Protocol-scoped variants built into one module (`tests/fixtures/generator/variants.mcpdesc.json`,
//! snapshot `generator-variants.rs`), on the wire: one server, two sessions that
//! negotiate different protocol versions, each listing and calling its own variant of
//! each tool, prompt and resource through the typed `Client`, answered by the
//! `ExampleServer` mock from that variant's examples.

use mcpdesc::client::{Options, Session};
use mcpdesc::ProtocolVersion;
use serde_json::{json, Value};

#[allow(dead_code)]
mod generated {
    include!("../snapshots/generator-variants.rs");
}

use generated::{types, Client, ExampleServer};

/// One session over an in-process byte stream to a server of `router`, accepting
/// only `version`.
async fn connect(router: mcpdesc::Router, version: ProtocolVersion) -> Session {
    let (server_io, client_io) = tokio::io::duplex(256 * 1024);
    let service = mcpdesc::McpServer::new(router).into_service();
    // `tasks::routed`: the MCP 2025-11-25 task requests, as `serve_stdio` routes them.
    let (read, write) = tokio::io::split(server_io);
    let io = mcpdesc::tasks::routed(read, write);
    tokio::spawn(async move {
        if let Ok(running) = rmcp::ServiceExt::serve(service, io).await {
            let _ = running.waiting().await;
        }
    });
    let (read, write) = tokio::io::split(client_io);
    Options::new()
        .protocol_versions(&[version])
        .io(read, write)
        .await
        .unwrap_or_else(|e| panic!("{version}: {e}"))
}

/// The listed item named `name`.
fn listed<'a>(items: &'a [Value], key: &str, name: &str) -> &'a Value {
    let found: Vec<&Value> = items.iter().filter(|t| t[key] == name).collect();
    assert_eq!(found.len(), 1, "{name} listed once: {items:?}");
    found[0]
}

fn input<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).unwrap()
}

#[tokio::test]
async fn each_negotiated_version_lists_and_calls_its_own_variant() {
    let old = connect(
        generated::router(ExampleServer::new()),
        ProtocolVersion::V2025_06_18,
    )
    .await;
    let new = connect(
        generated::router(ExampleServer::new()),
        ProtocolVersion::V2025_11_25,
    )
    .await;
    assert_eq!(old.protocol_version(), ProtocolVersion::V2025_06_18);
    assert_eq!(new.protocol_version(), ProtocolVersion::V2025_11_25);

    // tools/list: each version sees its own declaration of `analyze_game`,
    // `reset_board` and `export_game`, and `ping` (no variants) in both.
    let old_tools = old.list_tools().await.unwrap().items;
    let new_tools = new.list_tools().await.unwrap().items;
    assert_eq!(old_tools.len(), 4, "{old_tools:?}");
    assert_eq!(new_tools.len(), 4, "{new_tools:?}");
    let old_analyze = listed(&old_tools, "name", "analyze_game");
    let new_analyze = listed(&new_tools, "name", "analyze_game");
    assert_eq!(old_analyze["inputSchema"]["required"], json!(["pgn"]));
    assert_eq!(
        new_analyze["inputSchema"]["required"],
        json!(["pgn", "depth"])
    );
    assert_eq!(
        listed(&old_tools, "name", "reset_board").get("annotations"),
        None
    );
    assert_eq!(
        listed(&new_tools, "name", "reset_board")["annotations"]["idempotentHint"],
        json!(true)
    );
    listed(&old_tools, "name", "ping");
    listed(&new_tools, "name", "ping");
    let old_export = listed(&old_tools, "name", "export_game");
    let new_export = listed(&new_tools, "name", "export_game");
    assert_eq!(old_export["description"], json!("Export a game as PGN."));
    assert_eq!(old_export.get("execution"), None);
    assert_eq!(new_export["execution"], json!({"taskSupport": "optional"}));
    assert_eq!(new_export["annotations"]["readOnlyHint"], json!(true));

    // The typed client calls the variant of its session; the mock answers from that
    // variant's examples.
    let old_client = Client::new(old.clone());
    let new_client = Client::new(new.clone());
    let out = old_client
        .analyze_game_v20250618(input::<types::AnalyzeGameV20250618Input>(
            json!({"pgn": "1. e4 e5"}),
        ))
        .await
        .unwrap();
    assert_eq!(out.evaluation, 0.3);
    let out = new_client
        .analyze_game_v20251125(input::<types::AnalyzeGameV20251125Input>(
            json!({"pgn": "1. e4 e5", "depth": 20}),
        ))
        .await
        .unwrap();
    assert_eq!(out.evaluation, 0.25);
    // The two `reset_board` variants differ in annotations only: one method (one
    // handler trait, one input type), each session answered from its variant.
    let board = || input::<types::ResetBoardInput>(json!({"board": "main"}));
    let old_reset = old_client.reset_board(board()).await.unwrap();
    let new_reset = new_client.reset_board(board()).await.unwrap();
    assert!(
        format!("{old_reset:?}").contains("\"main reset\""),
        "{old_reset:?}"
    );
    assert!(
        format!("{new_reset:?}").contains("main reset (idempotent)"),
        "{new_reset:?}"
    );
    // The other version's variant is refused before anything is sent.
    let refused = old_client
        .analyze_game_v20251125(input::<types::AnalyzeGameV20251125Input>(
            json!({"pgn": "1. e4", "depth": 2}),
        ))
        .await;
    assert!(refused.is_err(), "{refused:?}");
    // `export_game` (description, annotations and execution differ): one typed
    // method, each version's example.
    let game = |g: &str| input::<types::ExportGameInput>(json!({ "game": g }));
    assert_eq!(
        old_client.export_game(game("g1")).await.unwrap().pgn,
        "1. e4"
    );
    assert_eq!(
        new_client.export_game(game("g2")).await.unwrap().pgn,
        "1. d4 d5"
    );

    // `export_game` runs as a task in 2025-11-25 (its variant there says
    // `execution.taskSupport: optional`): the task's result is the plain call's; in
    // 2025-06-18 the typed client refuses before sending.
    let task = new_client.export_game_as_task(game("g2")).await.unwrap();
    assert_eq!(task.result().await.unwrap().pgn, "1. d4 d5");
    assert_eq!(
        task.status().await.unwrap().status,
        mcpdesc::client::TaskStatus::Completed
    );
    let refused = old_client
        .export_game_as_task(game("g1"))
        .await
        .unwrap_err();
    assert!(
        matches!(refused, mcpdesc::CallError::NoTask { .. }),
        "{refused:?}"
    );

    // Prompts and resources the same way.
    let old_prompts = old.list_prompts().await.unwrap().items;
    let new_prompts = new.list_prompts().await.unwrap().items;
    assert_eq!(
        listed(&old_prompts, "name", "review").get("arguments"),
        None
    );
    assert_eq!(
        listed(&new_prompts, "name", "review")["arguments"][0]["name"],
        json!("focus")
    );
    let plain = old_client
        .get_review_v20250618(input::<types::ReviewV20250618Arguments>(json!({})))
        .await
        .unwrap();
    assert!(
        format!("{plain:?}").contains("Review the game."),
        "{plain:?}"
    );
    let focused = new_client
        .get_review_v20251125(input::<types::ReviewV20251125Arguments>(
            json!({"focus": "endgame"}),
        ))
        .await
        .unwrap();
    assert!(
        format!("{focused:?}").contains("Review the endgame."),
        "{focused:?}"
    );

    let old_resources = old.list_resources().await.unwrap().items;
    let new_resources = new.list_resources().await.unwrap().items;
    assert_eq!(
        listed(&old_resources, "uri", "chess://rules")["mimeType"],
        json!("text/plain")
    );
    assert_eq!(
        listed(&new_resources, "uri", "chess://rules")["mimeType"],
        json!("text/markdown")
    );
    let text = old_client.read_rules_v20250618().await.unwrap();
    let markdown = new_client.read_rules_v20251125().await.unwrap();
    assert!(format!("{text:?}").contains("FIDE rules") && !format!("{text:?}").contains("# FIDE"));
    assert!(
        format!("{markdown:?}").contains("# FIDE rules"),
        "{markdown:?}"
    );
}

/// A hand-written implementation: each variant's handler answers for its version.
struct Board;

impl generated::AnalyzeGameV20250618 for Board {
    async fn analyze_game_v20250618(
        &self,
        _input: types::AnalyzeGameV20250618Input,
        _cx: mcpdesc::Context,
    ) -> Result<types::AnalyzeGameOutput, mcpdesc::ToolError> {
        Ok(types::AnalyzeGameOutput { evaluation: 1.0 })
    }
}

impl generated::AnalyzeGameV20251125 for Board {
    async fn analyze_game_v20251125(
        &self,
        input: types::AnalyzeGameV20251125Input,
        _cx: mcpdesc::Context,
    ) -> Result<types::AnalyzeGameOutput, mcpdesc::ToolError> {
        Ok(types::AnalyzeGameOutput {
            evaluation: input.depth as f64,
        })
    }
}

/// One handler for both `reset_board` variants: the session's version is in the context.
impl generated::ResetBoard for Board {
    async fn reset_board(
        &self,
        _input: types::ResetBoardInput,
        cx: mcpdesc::Context,
    ) -> Result<mcpdesc::ToolResult, mcpdesc::ToolError> {
        Ok(mcpdesc::ToolResult::text(format!(
            "reset in {}",
            cx.protocol_version()
        )))
    }
}

impl generated::ExportGame for Board {
    async fn export_game(
        &self,
        input: types::ExportGameInput,
        _cx: mcpdesc::Context,
    ) -> Result<types::ExportGameOutput, mcpdesc::ToolError> {
        Ok(types::ExportGameOutput {
            pgn: format!("[Game \"{}\"] 1. c4", input.game),
        })
    }
}

impl generated::Ping for Board {
    async fn ping(
        &self,
        _input: types::PingInput,
        cx: mcpdesc::Context,
    ) -> Result<mcpdesc::ToolResult, mcpdesc::ToolError> {
        Ok(mcpdesc::ToolResult::text(cx.protocol_version().as_str()))
    }
}

impl generated::ReviewV20250618Prompt for Board {
    async fn get_review_v20250618(
        &self,
        _arguments: types::ReviewV20250618Arguments,
        _cx: mcpdesc::Context,
    ) -> Result<mcpdesc::PromptResult, mcpdesc::RequestError> {
        Ok(mcpdesc::PromptResult::new(vec![
            mcpdesc::PromptMessage::user("review"),
        ]))
    }
}

impl generated::ReviewV20251125Prompt for Board {
    async fn get_review_v20251125(
        &self,
        arguments: types::ReviewV20251125Arguments,
        _cx: mcpdesc::Context,
    ) -> Result<mcpdesc::PromptResult, mcpdesc::RequestError> {
        Ok(mcpdesc::PromptResult::new(vec![
            mcpdesc::PromptMessage::user(format!("review the {}", arguments.focus)),
        ]))
    }
}

impl generated::RulesV20250618Resource for Board {
    async fn read_rules_v20250618(
        &self,
        _cx: mcpdesc::Context,
    ) -> Result<mcpdesc::ResourceResult, mcpdesc::RequestError> {
        Ok(mcpdesc::ResourceResult::text(
            "chess://rules",
            "text/plain",
            "rules",
        ))
    }
}

impl generated::RulesV20251125Resource for Board {
    async fn read_rules_v20251125(
        &self,
        _cx: mcpdesc::Context,
    ) -> Result<mcpdesc::ResourceResult, mcpdesc::RequestError> {
        Ok(mcpdesc::ResourceResult::text(
            "chess://rules",
            "text/markdown",
            "# rules",
        ))
    }
}

/// One router of a hand-written implementation: the handler of each session's variant
/// runs, whatever the other session negotiated.
#[tokio::test]
async fn one_implementation_serves_each_version_with_its_variant_handler() {
    let old = Client::new(connect(generated::router(Board), ProtocolVersion::V2025_06_18).await);
    let new = Client::new(connect(generated::router(Board), ProtocolVersion::V2025_11_25).await);
    let pgn = json!({"pgn": "1. d4"});
    let got = old.analyze_game_v20250618(input(pgn)).await.unwrap();
    assert_eq!(got.evaluation, 1.0);
    let got = new
        .analyze_game_v20251125(input(json!({"pgn": "1. d4", "depth": 7})))
        .await
        .unwrap();
    assert_eq!(got.evaluation, 7.0);
    // One handler behind both variants of `reset_board` and `export_game`.
    let board = || input::<types::ResetBoardInput>(json!({}));
    assert_eq!(
        old.reset_board(board()).await.unwrap(),
        mcpdesc::ToolResult::text("reset in 2025-06-18")
    );
    assert_eq!(
        new.reset_board(board()).await.unwrap(),
        mcpdesc::ToolResult::text("reset in 2025-11-25")
    );
    for client in [&old, &new] {
        let out = client
            .export_game(input(json!({"game": "g7"})))
            .await
            .unwrap();
        assert_eq!(out.pgn, "[Game \"g7\"] 1. c4");
    }
    // `ping` has no variants: one handler, each session's version in its context.
    let empty = || input::<types::PingInput>(json!({}));
    assert_eq!(
        old.ping(empty()).await.unwrap(),
        mcpdesc::ToolResult::text("2025-06-18")
    );
    assert_eq!(
        new.ping(empty()).await.unwrap(),
        mcpdesc::ToolResult::text("2025-11-25")
    );
    let focused = new
        .get_review_v20251125(input(json!({"focus": "opening"})))
        .await
        .unwrap();
    assert!(
        format!("{focused:?}").contains("review the opening"),
        "{focused:?}"
    );
    let rules = old.read_rules_v20250618().await.unwrap();
    assert!(format!("{rules:?}").contains("text/plain"), "{rules:?}");
}

#[path = "../e2e/harness.rs"]
mod harness;

/// The official TypeScript client against one generated multi-variant server over
/// streamable HTTP, once offering MCP 2025-06-18 and once 2025-11-25: each session's
/// `tools/list`, `prompts/list` and `resources/list` equal the router's projection of
/// its version, and every example of that version's variants is answered exactly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_client_sees_the_variants_of_its_version() {
    if !harness::client_ready(
        "mcpdesc-tests/variants::the_typescript_client_sees_the_variants_of_its_version",
    ) {
        return;
    }
    let bound = mcpdesc::http::HttpServer::new(generated::router(ExampleServer::new()))
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let url = format!("http://{}/mcp", bound.local_addr());
    let shutdown = bound.shutdown_token();
    tokio::spawn(bound.run());

    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/generator/variants.mcpdesc.json"
    );
    let desc = mcpdesc_codegen::Description::from_path(
        std::path::Path::new(path),
        &mcpdesc_codegen::Limits::default(),
    )
    .unwrap();
    let doc = desc.validation.as_ref().unwrap().resolution.value.clone();
    let router = generated::router(ExampleServer::new());
    for version in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        let applies = |d: &&Value| {
            d["protocolVersions"]
                .as_array()
                .is_none_or(|list| list.iter().any(|v| v == version.as_str()))
        };
        let calls: Vec<Value> = doc["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter(applies)
            .flat_map(harness::example_calls)
            .collect();
        assert_eq!(calls.len(), 4, "{version}: {calls:?}");
        let primitives = harness::primitive_plan(
            &doc,
            version.as_str(),
            [
                router.list_prompts(version),
                router.list_resources(version),
                router.list_resource_templates(version),
            ],
            &["prompts", "resources"],
        );
        let plan = json!({
            "url": url,
            "protocolVersion": version.as_str(),
            "serverName": "generator-variants",
            "expectedTools": router.list_tools(version),
            "calls": calls,
            "unknownTool": "mcpdesc_e2e_no_such_tool",
            "primitives": primitives,
        });
        let name = format!("variants-{version}");
        let out = tokio::task::spawn_blocking(move || harness::run_client(&name, &plan))
            .await
            .unwrap();
        assert!(
            out.contains("ok   initialize: negotiated protocol version"),
            "{out}"
        );
    }
    shutdown.cancel();
}

/// The contract check runs each example in the scope of the variant that declares it.
#[test]
fn the_contract_check_runs_each_variant_example_in_its_version() {
    generated::check_against_examples(
        ExampleServer::new(),
        &[
            ("analyze_game", "opening"),
            ("analyze_game", "deep"),
            ("prompt:review", "plain"),
            ("prompt:review", "endgame"),
            ("resource:chess://rules", "text"),
            ("resource:chess://rules", "markdown"),
        ],
    )
    .unwrap();
    let wrong = generated::check_against_examples(Board, &[("analyze_game", "deep")]);
    assert!(wrong.unwrap_err().contains("deep"));
}

//! The generated typed `Client` of the chess description against the chess server over
//! stdio, and against a scripted server whose answers break the description. The
//! server crate generates the server side only (its build does not compile the MCP
//! client); this test generates the client side with the `mcpdesc!` macro.
//!
//! - Every tool, the prompt, the resource, the resource template and the completions
//!   through their typed methods.
//! - Inputs are checked against the `inputSchema` before anything is sent (the JSON
//!   pointer is named), unless the client turns that off.
//! - A `structuredContent` that breaks the `outputSchema` or the Rust type, or that is
//!   missing, is a contract violation naming its pointer in the result; a tool error is
//!   `CallError::Tool` with its content; a JSON-RPC error is `CallError::Protocol`.
//! - `analyze_game_as_task` over stdio and HTTP; `CallError::NoTask` before sending in
//!   2025-06-18 and against a stateless HTTP server (no `tasks` capability).

use std::time::Duration;

use chess::types::{
    AnalyzeGameInput, GetPlayerRatingInput, OpeningStudyArguments, OpeningVariables,
    RecordGameResultInput, RecordGameResultInputResult,
};
use chess::Client;
use mcpdesc::client::{Options, TaskStatus};
use mcpdesc::{CallError, CompletionRequest, Content, ResourceContents};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// The client side of the chess description.
#[allow(missing_docs, dead_code)]
mod chess {
    mcpdesc::mcpdesc!(
        path = "../chess/chess.mcpdesc.json",
        side = "client",
        tests = false,
        derives = [PartialEq],
    );
}

async fn bounded<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), future)
        .await
        .expect("the test finishes within 60 s")
}

async fn chess_client() -> Client {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_chess-server"));
    Client::new(mcpdesc::client::stdio(command).await.unwrap())
}

fn analyze(pgn: &str, depth: Option<i64>) -> AnalyzeGameInput {
    AnalyzeGameInput {
        pgn: pgn.to_owned(),
        depth,
    }
}

#[tokio::test]
async fn every_primitive_through_its_typed_method() {
    bounded(async {
        let client = chess_client().await;
        let analysis = client
            .analyze_game(analyze("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#", Some(4)))
            .await
            .unwrap();
        assert!(analysis.evaluation.is_some(), "{analysis:?}");
        assert!(analysis.best_move.is_some(), "{analysis:?}");

        // With content: the JSON text block of the output comes first.
        let typed = client
            .analyze_game_with_content(analyze("1. e4 e5", None))
            .await
            .unwrap();
        match &typed.content[0] {
            Content::Text(text) => {
                let json: Value = serde_json::from_str(&text.text).unwrap();
                assert_eq!(json, serde_json::to_value(&typed.output).unwrap());
            }
            other => panic!("expected the output's JSON text first, got {other:?}"),
        }

        let rating = client
            .get_player_rating(GetPlayerRatingInput {
                player_id: "magnus".into(),
                rating_type: None,
            })
            .await
            .unwrap();
        assert!(!rating.content.is_empty());
        let recorded = client
            .record_game_result(RecordGameResultInput {
                white_player_id: "magnus".into(),
                black_player_id: "hikaru".into(),
                result: RecordGameResultInputResult::X10,
                pgn: None,
                time_control: Some("3+2".into()),
            })
            .await
            .unwrap();
        assert_ne!(recorded.is_error, Some(true));

        let prompt = client
            .get_opening_study(OpeningStudyArguments {
                eco: "C60".into(),
                color: None,
            })
            .await
            .unwrap();
        assert!(!prompt.messages.is_empty());
        let pools = client.read_rating_pools().await.unwrap();
        assert_eq!(pools.contents.len(), 1);
        let opening = client
            .read_opening(OpeningVariables { eco: "C60".into() })
            .await
            .unwrap();
        match &opening.contents[0] {
            ResourceContents::Text(text) => assert_eq!(text.uri, "chess://openings/C60"),
            other => panic!("expected a text resource, got {other:?}"),
        }
        let completions = client
            .complete_opening(CompletionRequest::new("eco", "C6"))
            .await
            .unwrap();
        assert!(
            completions
                .completion
                .values
                .iter()
                .all(|v| v.starts_with("C6")),
            "{completions:?}"
        );
        client.session().close().await;
    })
    .await;
}

#[tokio::test]
async fn inputs_are_checked_before_sending_unless_turned_off() {
    bounded(async {
        let client = chess_client().await;
        // depth 99 breaks `maximum: 40`: refused locally, with the pointer.
        let err = client
            .analyze_game(analyze("1. e4", Some(99)))
            .await
            .unwrap_err();
        assert!(matches!(err, CallError::InvalidInput { .. }), "{err}");
        assert_eq!(err.violations()[0].pointer, "/depth");
        assert!(err.to_string().contains("(nothing was sent)"), "{err}");

        // Turned off, the server checks it and answers with a tool error.
        let unchecked = client.clone().validate_inputs(false);
        let err = unchecked
            .analyze_game(analyze("1. e4", Some(99)))
            .await
            .unwrap_err();
        let result = err.tool_result().expect("a tool error");
        match &result.content[0] {
            Content::Text(text) => assert!(text.text.contains("`/depth`"), "{}", text.text),
            other => panic!("{other:?}"),
        }
        client.session().close().await;
    })
    .await;
}

/// A server on an in-memory pipe that answers `initialize` and every `tools/call`
/// with `answer` (a JSON-RPC `result`, or `{"error": ...}` for an error response).
async fn scripted(answer: Value) -> Client {
    let (client_side, server_side) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let (read, mut write) = tokio::io::split(server_side);
        let mut lines = BufReader::new(read).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let request: Value = serde_json::from_str(&line).unwrap();
            let Some(id) = request.get("id") else {
                continue;
            };
            let reply = match request["method"].as_str().unwrap_or_default() {
                "initialize" => json!({"jsonrpc": "2.0", "id": id, "result": {
                    "protocolVersion": request["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "scripted", "version": "0"}}}),
                "tools/call" if answer.get("error").is_some() => {
                    json!({"jsonrpc": "2.0", "id": id, "error": answer["error"]})
                }
                "tools/call" => json!({"jsonrpc": "2.0", "id": id, "result": answer}),
                _ => {
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no"}})
                }
            };
            if write
                .write_all(format!("{reply}\n").as_bytes())
                .await
                .is_err()
            {
                return;
            }
        }
    });
    let (read, write) = tokio::io::split(client_side);
    let options = Options::new().protocol_versions(&[mcpdesc::ProtocolVersion::V2025_11_25]);
    Client::new(options.io(read, write).await.unwrap())
}

#[tokio::test]
async fn contract_violations_name_their_pointer() {
    bounded(async {
        // Breaks the outputSchema (`evaluation` is a number).
        let client = scripted(json!({
            "content": [{"type": "text", "text": "{}"}],
            "structuredContent": {"evaluation": "winning", "best_move": "Nf3"}
        }))
        .await;
        let err = client.analyze_game(analyze("1. e4", None)).await.unwrap_err();
        assert!(matches!(err, CallError::Contract { .. }), "{err}");
        assert_eq!(err.violations()[0].pointer, "/structuredContent/evaluation");
        assert_eq!(
            err.to_string(),
            "the answer to `analyze_game` breaks the description:\n\
             - `/structuredContent/evaluation`: \"winning\" is not of type \"number\" (outputSchema)"
        );

        // Fits the outputSchema (an integer) but not the Rust type (`i64`).
        let client = scripted(json!({
            "content": [],
            "structuredContent": {"blunders": [{"move_number": 9_223_372_036_854_775_808u64}]}
        }))
        .await;
        let err = client.analyze_game(analyze("1. e4", None)).await.unwrap_err();
        assert_eq!(
            err.violations()[0].pointer,
            "/structuredContent/blunders/0/move_number",
            "{err}"
        );
        assert!(err.violations()[0].message.ends_with("(Rust type)"), "{err}");

        // No structuredContent at all.
        let client = scripted(json!({"content": [{"type": "text", "text": "42"}]})).await;
        let err = client.analyze_game(analyze("1. e4", None)).await.unwrap_err();
        assert_eq!(err.violations()[0].pointer, "/structuredContent");

        // A tool error is not a contract violation: its content comes back.
        let client = scripted(json!({
            "content": [{"type": "text", "text": "engine offline"}],
            "isError": true
        }))
        .await;
        let err = client.analyze_game(analyze("1. e4", None)).await.unwrap_err();
        assert_eq!(err.to_string(), "the tool `analyze_game` failed: engine offline");

        // A JSON-RPC error: code and message.
        let client = scripted(json!({"error": {"code": -32602, "message": "Unknown tool"}})).await;
        let err = client.analyze_game(analyze("1. e4", None)).await.unwrap_err();
        let protocol = err.protocol_error().expect("a JSON-RPC error");
        assert_eq!((protocol.code, protocol.message.as_str()), (-32602, "Unknown tool"));
    })
    .await;
}

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

/// `analyze_game_as_task` on a session of 2025-11-25 (whose `analyze_game` says
/// `execution.taskSupport: optional`): the task's status, then its result equal to the
/// plain call's, a tool error as the plain call's, and a cancelled task.
async fn tasks_through_the_typed_client(client: &Client) {
    let game = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#";
    let plain = client.analyze_game(analyze(game, Some(6))).await.unwrap();
    let task = client
        .analyze_game_as_task(analyze(game, Some(6)))
        .await
        .unwrap();
    assert!(task.id().starts_with("task-"), "{task:?}");
    let status = task.status().await.unwrap();
    assert!(
        matches!(status.status, TaskStatus::Working | TaskStatus::Completed),
        "{status:?}"
    );
    assert_eq!(task.result().await.unwrap(), plain);
    assert_eq!(task.status().await.unwrap().status, TaskStatus::Completed);
    // An ended task cannot be cancelled.
    let late = task.cancel().await.unwrap_err();
    assert_eq!(
        late.protocol_error().map(|e| e.code),
        Some(-32602),
        "{late}"
    );

    // A tool error: the task fails, its result is the plain call's `CallError::Tool`.
    let plain = client.analyze_game(analyze("", None)).await.unwrap_err();
    let task = client
        .analyze_game_as_task(analyze("", None))
        .await
        .unwrap();
    let failed = task.result().await.unwrap_err();
    assert_eq!(failed.tool_result(), plain.tool_result(), "{failed}");
    assert!(failed.tool_result().is_some(), "{failed}");
    assert_eq!(task.status().await.unwrap().status, TaskStatus::Failed);

    // A long analysis, cancelled: no result (`-32600`).
    let task = client
        .analyze_game_as_task(analyze(LONG_GAME, None))
        .await
        .unwrap();
    let cancelled = task.cancel().await.unwrap();
    assert_eq!(cancelled.status, TaskStatus::Cancelled, "{cancelled:?}");
    let none = task.result().await.unwrap_err();
    assert_eq!(
        none.protocol_error().map(|e| e.code),
        Some(-32600),
        "{none}"
    );
}

/// 40 plies: at 20 ms each, long enough to be cancelled while it runs.
const LONG_GAME: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 \
    7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 \
    14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 \
    20. Nbd2 Nxd6";

#[tokio::test]
async fn analyze_game_as_a_task_over_stdio() {
    bounded(async {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_chess-server"));
        command.args(["--think-ms", "20"]);
        let client = Client::new(mcpdesc::client::stdio(command).await.unwrap());
        assert_eq!(
            client.session().protocol_version(),
            mcpdesc::ProtocolVersion::V2025_11_25
        );
        tasks_through_the_typed_client(&client).await;
    })
    .await;
}

#[tokio::test]
async fn analyze_game_as_a_task_over_streamable_http() {
    let server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_chess-server"),
        &["--http", "127.0.0.1:0", "--think-ms", "20"],
    );
    bounded(async {
        let client = Client::new(mcpdesc::client::http(&server.url).await.unwrap());
        tasks_through_the_typed_client(&client).await;
    })
    .await;
}

/// In 2025-06-18 `analyze_game` does not run as a task: `CallError::NoTask` at once,
/// nothing sent; the plain call works.
#[tokio::test]
async fn as_a_task_in_2025_06_18_is_refused_before_sending() {
    bounded(async {
        let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_chess-server"));
        let session = Options::new()
            .protocol_versions(&[mcpdesc::ProtocolVersion::V2025_06_18])
            .stdio(command)
            .await
            .unwrap();
        let client = Client::new(session);
        let err = client
            .analyze_game_as_task(analyze("1. e4 e5", None))
            .await
            .unwrap_err();
        match &err {
            CallError::NoTask { name, version, .. } => {
                assert_eq!(name, "analyze_game");
                assert_eq!(*version, mcpdesc::ProtocolVersion::V2025_06_18);
            }
            other => panic!("expected NoTask, got {other:?}"),
        }
        assert!(
            err.to_string()
                .contains("cannot run as a task in MCP 2025-06-18"),
            "{err}"
        );
        client
            .analyze_game(analyze("1. e4 e5", None))
            .await
            .unwrap();
    })
    .await;
}

/// A stateless server (`--stateless`) keeps no task and advertises no `tasks`
/// capability (docs/serving.md): in 2025-11-25, whose `analyze_game` declaration
/// says `optional`, `analyze_game_as_task` is `CallError::NoTask` before anything is
/// sent, naming the capability; the plain call works.
#[tokio::test]
async fn as_a_task_against_a_stateless_server_is_refused_before_sending() {
    let server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_chess-server"),
        &["--http", "127.0.0.1:0", "--stateless"],
    );
    bounded(async {
        let client = Client::new(mcpdesc::client::http(&server.url).await.unwrap());
        let version = client.session().protocol_version();
        assert_eq!(version, mcpdesc::ProtocolVersion::V2025_11_25);
        assert_eq!(
            client.session().server_capabilities().unwrap()["tasks"],
            Value::Null
        );
        let err = client
            .analyze_game_as_task(analyze("1. e4 e5", None))
            .await
            .unwrap_err();
        match &err {
            CallError::NoTask { name, reason, .. } => {
                assert_eq!(name, "analyze_game");
                assert!(reason.contains("capabilities.tasks"), "{reason}");
            }
            other => panic!("expected NoTask, got {other:?}"),
        }
        client
            .analyze_game(analyze("1. e4 e5", None))
            .await
            .unwrap();
    })
    .await;
}

//! The runtime's MCP client (`mcpdesc::client`) against the chess server: over stdio
//! (the session spawns this crate's binary) and streamable HTTP (`--http`), and over
//! an rmcp client that already runs (`Session::from_running_service`). The listing is
//! the router's projection, every Tool Example answers with its result, a call that
//! outlives the request timeout is cancelled and the session goes on.

use std::time::Duration;

use mcpdesc::client::{Options, RequestError, Session};
use mcpdesc::rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use mcpdesc::rmcp::ServiceExt;
use mcpdesc::{McpServer, ProtocolVersion};
use serde_json::{json, Value};

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

fn description() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess/chess.mcpdesc.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn chess_server(args: &[&str]) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_chess-server"));
    command.args(args);
    command
}

async fn bounded<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), future)
        .await
        .expect("the test finishes within 60 s")
}

/// The listing is the router's; every example answers with its result.
async fn check(session: &Session) {
    assert_eq!(session.protocol_version(), ProtocolVersion::V2025_11_25);
    assert_eq!(
        session.initialize_result()["serverInfo"]["name"],
        "chess-server"
    );
    let tools = session.list_tools().await.unwrap().items;
    assert_eq!(
        tools,
        chess_server::router().list_tools(ProtocolVersion::V2025_11_25)
    );
    for tool in description()["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        for (label, example) in tool["examples"].as_object().unwrap() {
            let result = session
                .call_tool(name, example["input"].clone())
                .await
                .unwrap();
            assert_eq!(result, example["result"], "{name}/{label}");
        }
    }
}

#[tokio::test]
async fn stdio() {
    bounded(async {
        let session = mcpdesc::client::stdio(chess_server(&[])).await.unwrap();
        check(&session).await;
        let status = session.close().await.unwrap();
        assert!(status.success(), "{status}");
    })
    .await;
}

#[tokio::test]
async fn streamable_http() {
    let server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_chess-server"),
        &["--http", "127.0.0.1:0"],
    );
    bounded(async {
        let session = mcpdesc::client::http(&server.url).await.unwrap();
        check(&session).await;
        session.close().await;
    })
    .await;
}

/// 20 plies at 100 ms each: two seconds of analysis.
const LONG_GAME: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 \
    7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7";

#[tokio::test]
async fn a_call_past_the_request_timeout_is_cancelled_and_the_session_goes_on() {
    bounded(async {
        let session = Options::new()
            .request_timeout(Duration::from_millis(300))
            .stdio(chess_server(&["--think-ms", "100"]))
            .await
            .unwrap();
        let err = session
            .call_tool("analyze_game", json!({"pgn": LONG_GAME}))
            .await
            .unwrap_err();
        assert!(matches!(err, RequestError::Timeout { .. }), "{err}");
        assert!(session.is_alive());
        let rating = session
            .call_tool("get_player_rating", json!({"player_id": "magnus"}))
            .await
            .unwrap();
        assert!(rating.get("isError").is_none(), "{rating}");
        // A longer timeout for one request.
        let result = session
            .request_within(
                "tools/call",
                Some(json!({"name": "analyze_game", "arguments": {"pgn": "1. e4 e5 2. Nf3"}})),
                Duration::from_secs(30),
            )
            .await
            .unwrap();
        assert!(
            result["structuredContent"]["evaluation"].is_number(),
            "{result}"
        );
        session.close().await;
    })
    .await;
}

/// A session over an rmcp client the caller runs: typed results re-serialized.
#[tokio::test]
async fn a_session_over_a_running_rmcp_client() {
    bounded(async {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        tokio::spawn(async move {
            let running = McpServer::new(chess_server::router())
                .into_service()
                .serve(server_io)
                .await
                .expect("the server starts");
            let _ = running.waiting().await;
        });
        let config = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("test", "0"),
        )
        .with_protocol_version(mcpdesc::rmcp::model::ProtocolVersion::V_2025_06_18);
        let client = config.serve(client_io).await.unwrap();
        let session = Session::from_running_service(client, &Options::new()).unwrap();
        assert!(!session.is_raw());
        assert_eq!(session.protocol_version(), ProtocolVersion::V2025_06_18);
        assert_eq!(
            session.initialize_result()["serverInfo"]["name"],
            "chess-server"
        );
        let tools = session.list_tools().await.unwrap().items;
        assert_eq!(tools.len(), 3);
        let err = session
            .call_tool("no_such_tool", json!({}))
            .await
            .unwrap_err();
        assert_eq!(err.protocol_error().unwrap().code, -32602);
        session.close().await;
        assert!(!session.is_alive());
    })
    .await;
}

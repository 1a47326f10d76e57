//! Composition: a hand-written rmcp handler serves the generated chess tools (through
//! `McpServer`) beside its own prompt and instructions; an rmcp client sees both.

use std::time::Duration;

use chess_server::composed::{ChessWithPrompts, INSTRUCTIONS};
use mcpdesc::rmcp::model::{CallToolRequestParams, ErrorCode, GetPromptRequestParams};
use mcpdesc::rmcp::{ServiceError, ServiceExt};
use mcpdesc::ProtocolVersion;
use serde_json::{json, Value};

#[tokio::test]
async fn a_hand_written_prompt_beside_the_generated_tools() {
    tokio::time::timeout(Duration::from_secs(30), async {
        let server = ChessWithPrompts::new(chess_server::router());
        let listings = server.tools.tool_listings().clone();
        let (server_io, client_io) = tokio::io::duplex(256 * 1024);
        tokio::spawn(async move {
            let service = mcpdesc::RestoreDropped::new(server, listings);
            if let Ok(running) = service.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let client = ().serve(client_io).await.expect("the client connects");

        // The handler's own instructions; the generated server's identity and
        // capabilities, plus prompts.
        let info = client.peer_info().unwrap();
        assert_eq!(info.instructions.as_deref(), Some(INSTRUCTIONS));
        assert_eq!(info.server_info.as_ref().unwrap().name, "chess-server");
        let capabilities = serde_json::to_value(&info.capabilities).unwrap();
        assert_eq!(capabilities["tools"], json!({}));
        assert_eq!(capabilities["logging"], json!({}));
        assert!(capabilities.get("prompts").is_some(), "{capabilities}");

        // The generated tools, as the router projects them, and a call through them.
        let version: ProtocolVersion = info.protocol_version.as_str().parse().unwrap();
        let tools = client.list_all_tools().await.unwrap();
        // rmcp's client-side `Tool` has no `execution` (rmcp 3.11 models tasks as the
        // 2026-07-28 extension): its copy of `analyze_game` lacks the 2025-11-25
        // `execution.taskSupport`, which the router does list.
        let mut expected = chess_server::router().list_tools(version);
        let mut executions = 0;
        for tool in &mut expected {
            executions += usize::from(tool.as_object_mut().unwrap().remove("execution").is_some());
        }
        assert_eq!(
            executions,
            usize::from(version == ProtocolVersion::V2025_11_25)
        );
        assert_eq!(
            serde_json::to_value(&tools).unwrap(),
            Value::Array(expected)
        );
        let args = json!({"pgn": "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#", "depth": 8});
        let analysis = client
            .call_tool(
                CallToolRequestParams::new("analyze_game")
                    .with_arguments(args.as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        let analysis = serde_json::to_value(analysis).unwrap();
        assert_eq!(analysis["structuredContent"]["best_move"], "Qxf7#");

        // The hand-written prompt.
        let prompts = client.list_all_prompts().await.unwrap();
        let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
        // The description's own prompt, then the hand-written one.
        assert_eq!(names, ["opening_study", "explain_opening"]);
        // The description's resource template, through the generated server.
        let opening = client
            .read_resource(mcpdesc::rmcp::model::ReadResourceRequestParams::new(
                "chess://openings/C60",
            ))
            .await
            .unwrap();
        let opening = serde_json::to_value(opening).unwrap();
        assert_eq!(opening["contents"][0]["uri"], "chess://openings/C60");
        let arguments = json!({"pgn": "1. e4 c5"});
        let prompt = client
            .get_prompt(
                GetPromptRequestParams::new("explain_opening")
                    .with_arguments(arguments.as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        let prompt = serde_json::to_value(prompt).unwrap();
        assert_eq!(prompt["messages"][0]["role"], "user");
        assert!(prompt["messages"][0]["content"]["text"]
            .as_str()
            .unwrap()
            .ends_with("1. e4 c5"));
        match client
            .get_prompt(GetPromptRequestParams::new("explain_opening"))
            .await
        {
            Err(ServiceError::McpError(e)) => assert_eq!(e.code, ErrorCode::INVALID_PARAMS),
            other => panic!("expected invalid params, got {other:?}"),
        }
        client.cancel().await.unwrap();
    })
    .await
    .expect("the session finishes within 30 s");
}

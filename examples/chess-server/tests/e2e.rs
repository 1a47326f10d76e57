//! End to end with the official TypeScript MCP client (`@modelcontextprotocol/sdk`,
//! pinned with a committed lockfile in `tests/e2e/`): the client starts this crate's
//! binary over stdio, initializes, compares `tools/list` with the router's projection
//! for the negotiated version (2025-11-25, the SDK's newest), calls every tool with each
//! example input and checks the results, sends invalid arguments (expects
//! `isError: true`) and calls an unknown tool (expects a JSON-RPC error).
//!
//! `tests/e2e/harness.rs` runs the client (installing it when missing; without Node.js
//! the test fails, it is never skipped).

use mcpdesc::ProtocolVersion;
use serde_json::{json, Value};

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

fn plan() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess/chess.mcpdesc.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut calls = Vec::new();
    for tool in doc["tools"].as_array().unwrap() {
        for (label, example) in tool["examples"].as_object().unwrap() {
            let result = &example["result"];
            let is_error = result["isError"].as_bool().unwrap_or(false);
            let kinds: Vec<&Value> = result["content"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| &c["type"])
                .collect();
            calls.push(json!({
                "label": label,
                "tool": tool["name"],
                "arguments": example["input"],
                "expectError": is_error,
                "expectKinds": kinds,
                "outputSchema": if is_error { Value::Null } else { tool.get("outputSchema").cloned().unwrap_or(Value::Null) },
                "expectStructured": result.get("structuredContent").cloned().unwrap_or(Value::Null),
            }));
        }
    }
    let expected = chess_server::router().list_tools(ProtocolVersion::V2025_11_25);
    json!({
        "command": env!("CARGO_BIN_EXE_chess-server"),
        "args": [],
        "serverName": "chess-server",
        "expectedTools": expected,
        "calls": calls,
        "invalidCalls": [
            {"label": "missing pgn, depth above the maximum", "tool": "analyze_game", "arguments": {"depth": 99}},
            {"label": "result outside the enum", "tool": "record_game_result",
             "arguments": {"white_player_id": "a", "black_player_id": "b", "result": "2-0"}}
        ],
        "unknownTool": "no_such_tool"
    })
}

#[test]
fn typescript_client_talks_to_the_chess_server() {
    let stdout = harness::run_client("chess-server", &plan());
    // Every example call and the protocol checks ran.
    assert!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count() >= 15,
        "{stdout}"
    );
}

//! End to end with the official TypeScript MCP client (`@modelcontextprotocol/sdk`,
//! pinned with a committed lockfile in `tests/e2e/`): the client starts this crate's
//! binary over stdio, initializes, compares `tools/list` with the router's projection
//! for the negotiated version (2025-11-25, the SDK's newest), calls every tool with each
//! example input and checks that each result equals the example's, sends invalid arguments (expects
//! `isError: true`) and calls an unknown tool (expects a JSON-RPC error).
//!
//! `tests/e2e/harness.rs` runs the client (installing it when missing; without Node.js
//! the test prints a notice and passes, or fails under `MCPDESC_REQUIRE_NODE=1`).

use mcpdesc::ProtocolVersion;
use serde_json::{json, Value};

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

fn plan() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess/chess.mcpdesc.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let calls: Vec<Value> = doc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(harness::example_calls)
        .collect();
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
    if !harness::client_ready("chess-server/e2e::typescript_client_talks_to_the_chess_server") {
        return;
    }
    let stdout = harness::run_client("chess-server", &plan());
    // Every example call ran, down to the whole-result comparison.
    let compared = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && l.ends_with("result equals the example result"))
        .count();
    assert_eq!(compared, 4, "{stdout}");
}

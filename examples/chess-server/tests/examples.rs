//! The server reproduces every Tool Example of the description when called through the
//! generated router: same `isError`, same `structuredContent`, same content blocks.
//!
//! The examples were written to match this implementation; they remain illustrations of
//! the contract, and this test is what keeps the two in step.

use futures::executor::block_on;
use mcpdesc::{Context, ProtocolVersion};
use serde_json::Value;

fn description() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess/chess.mcpdesc.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_example_is_reproduced_in_declaration_order() {
    let doc = description();
    // One server for all calls: `get_player_rating` sees a fresh player because the
    // rating example runs before the recording example.
    let router = chess_server::router();
    let mut checked = 0;
    for tool in doc["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        for (example, body) in tool["examples"].as_object().unwrap() {
            let cx = Context::new(ProtocolVersion::V2025_11_25);
            let got = block_on(router.call_tool(name, Some(body["input"].clone()), cx))
                .unwrap_or_else(|e| panic!("{name}/{example}: protocol error {e}"));
            let got = serde_json::to_value(&got).unwrap();
            let want = &body["result"];
            assert_eq!(
                got["isError"].as_bool().unwrap_or(false),
                want["isError"].as_bool().unwrap_or(false),
                "{name}/{example}: {got}"
            );
            assert_eq!(
                got.get("structuredContent"),
                want.get("structuredContent"),
                "{name}/{example}"
            );
            assert_eq!(got["content"], want["content"], "{name}/{example}");
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}

/// The same promise through the generated opt-in contract check, which is what a user
/// writes: every example named explicitly, rating before recording (one server).
#[test]
fn the_generated_contract_check_passes() {
    chess_server::contract::check_against_examples(
        chess_server::ChessServer::new(),
        &[
            ("analyze_game", "scholars-mate"),
            ("analyze_game", "empty-pgn"),
            ("get_player_rating", "new-player-blitz"),
            ("record_game_result", "white-wins"),
        ],
    )
    .unwrap_or_else(|diff| panic!("{diff}"));
}

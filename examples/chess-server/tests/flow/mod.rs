//! The chess flow both official SDKs' end-to-end tests play (`e2e.rs`: TypeScript,
//! `python_sdk.rs`: Python): its plan, in the shape of `tests/e2e/client.mjs`'s (which
//! `tests/python/examples.py` reads too). The including test declares the TypeScript
//! harness (`tests/e2e/harness.rs`) as `mod harness`.

use mcpdesc::ProtocolVersion;
use serde_json::{json, Value};

use super::harness;

/// 40 plies: at 50 ms each, two seconds of analysis to cancel.
pub const LONG_GAME: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 \
    7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 \
    14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 \
    20. Nbd2 Nxd6";

/// The description as JSON.
pub fn description() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess/chess.mcpdesc.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The example calls of the tool declarations that apply to `version` (each
/// protocol-scoped variant of `analyze_game` in its own version).
pub fn calls_in(doc: &Value, version: ProtocolVersion) -> Vec<Value> {
    doc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| {
            t["protocolVersions"]
                .as_array()
                .is_none_or(|list| list.iter().any(|v| v == version.as_str()))
        })
        .flat_map(harness::example_calls)
        .collect()
}

/// The client's plan (MCP 2025-11-25) with `transport` (`{"command", "args"}` or
/// `{"url"}`). `analyze_game` runs as a task in 2025-11-25: the plan expects the
/// `tasks` capability and asks for its progress as a task too (`taskProgressCall`, read
/// by the TypeScript client).
pub fn plan(transport: Value) -> Value {
    let doc = description();
    let v = ProtocolVersion::V2025_11_25;
    let calls = calls_in(&doc, v);
    let router = chess_server::router();
    let expected = router.list_tools(v);
    let primitives = harness::primitive_plan(
        &doc,
        v.as_str(),
        [
            router.list_prompts(v),
            router.list_resources(v),
            router.list_resource_templates(v),
        ],
        &["prompts", "resources", "completions"],
    );
    let mut plan = json!({
        "serverName": "chess-server",
        "expectedTools": expected,
        "calls": calls,
        "invalidCalls": [
            {"label": "missing pgn, depth above the maximum", "tool": "analyze_game", "arguments": {"depth": 99}},
            {"label": "result outside the enum", "tool": "record_game_result",
             "arguments": {"white_player_id": "a", "black_player_id": "b", "result": "2-0"}}
        ],
        "unknownTool": "no_such_tool",
        "primitives": primitives,
        "progressCall": {
            "tool": "analyze_game",
            "arguments": {"pgn": "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#"},
            "minNotifications": 7
        },
        "expectTasksCapability": true,
        "taskProgressCall": {
            "tool": "analyze_game",
            "arguments": {"pgn": "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#"},
            "minNotifications": 7
        },
        "cancelCall": {
            "tool": "analyze_game",
            "arguments": {"pgn": LONG_GAME},
            "expectLog": "analyze_game cancelled after"
        }
    });
    plan.as_object_mut()
        .unwrap()
        .extend(transport.as_object().unwrap().clone());
    plan
}

/// `plan` for a stateless server (`--stateless`), which keeps no task
/// (`docs/serving.md`): no `tasks` capability, no tool listed with
/// `execution.taskSupport` (in 2025-11-25 `execution` holds nothing else), and
/// `analyze_game` asked as a task answered as the plain call (`taskCallsAnsweredPlainly`,
/// read by the TypeScript client); no task is asked for progress.
pub fn stateless(plan: &mut Value) {
    let fields = plan.as_object_mut().unwrap();
    for tool in fields["expectedTools"].as_array_mut().unwrap() {
        tool.as_object_mut().unwrap().remove("execution");
    }
    fields.insert("expectTasksCapability".into(), json!(false));
    fields.insert("taskCallsAnsweredPlainly".into(), json!(["analyze_game"]));
    fields.remove("taskProgressCall");
}

//! The chess server with the official Python MCP SDK (`mcp` 2.3.0 on PyPI, pinned in
//! `tests/python/requirements.txt`; its clients are `tests/python/*.py`, run by
//! `tests/python/harness.rs`).
//!
//! The SDK's default negotiation (`mode="auto"`) first sends `server/discover` at MCP
//! 2026-07-28; the chess description declares 2025-06-18 and 2025-11-25 only, so the
//! server refuses it and the SDK falls back to `initialize` at 2025-11-25, its newest
//! handshake version. Each test checks that this is the version negotiated.
//!
//! - Through nginx in front of two `--stateless` instances (`balanced/mod.rs`, shared
//!   with the TypeScript client's test in `e2e.rs`): the chess flow of `flow/mod.rs`
//!   (`tests/python/examples.py`): `tools/list` (without `execution.taskSupport`: a
//!   stateless server runs no task), `prompts/list`, `resources/list` and
//!   `resources/templates/list` equal the router's projections, every tool example's
//!   call gets exactly the example's result (structured content valid against the
//!   output schema), invalid arguments a tool error, an unknown tool a JSON-RPC error,
//!   `analyze_game` its progress notifications, and the prompt, resource, template and
//!   completion examples their results and bad requests their JSON-RPC errors. Both
//!   instances must have served requests. The TypeScript flow's cancellation step is
//!   left out here as there (a stateless server sends the handler's log on the
//!   request's own stream, which the cancelling client has closed).
//! - The same flow through nginx round robin in front of two stateful instances
//!   sharing one Redis (`--redis URL`): the session is restored on each instance
//!   that has not seen it, and `tools/list` shows the task support a stateful
//!   server keeps.
//! - Over stdio (the SDK starts `chess-server`): `record_game_result`'s interaction
//!   example `short-decisive-game` (`tests/python/interaction.py`): the client declares
//!   the elicitation capability, the server sends the `confirm_unusual` elicitation
//!   (its message and `requestedSchema` equal the description's), the client accepts
//!   with `{"record": true}`, and the final result equals the example's. A client
//!   without the elicitation capability (`tests/python/without_capability.py`) gets a
//!   tool error saying the result was not recorded: `record_game_result` declares no
//!   `clientRequirements` (the elicitation is asked only for an unusual result), so the
//!   call is not refused before the handler runs; the refusal of declared
//!   requirements is tested against `serve-mock` in `tests/tests/python_sdk.rs` and
//!   `mcpdesc-cli/tests/serve_mock_python.rs`.
//!
//! Without the SDK the tests print a notice and pass (`MCPDESC_REQUIRE_TOOLS=1`, set by
//! `.ci/run`, fails instead); without nginx the load-balancer test does the same.

use mcpdesc::ProtocolVersion;
use serde_json::{json, Value};

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

#[path = "../../../tests/python/harness.rs"]
mod python;

mod balanced;
mod flow;
#[path = "../../../mcpdesc/tests/support/redis.rs"]
mod redis;

/// The version the SDK negotiates with the chess server (see the module comment).
const NEGOTIATED: ProtocolVersion = ProtocolVersion::V2025_11_25;

/// The chess description as JSON.
fn description() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess/chess.mcpdesc.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Checks the output of `examples.py`'s chess flow: every example's whole result, the
/// lists, structured content, progress, and the JSON-RPC errors of the bad requests.
fn assert_chess_flow(stdout: &str) {
    // 4 tool examples, 1 prompt, 2 reads, 3 completions.
    assert_eq!(
        python::passed(stdout, "result equals the example result"),
        10,
        "{stdout}"
    );
    for check in [
        "tools/list: 3 tools equal the router's projection",
        "prompts/list equals the router's projection",
        "resources/list equals the router's projection",
        "resources/templates/list equals the router's projection",
        "structured content valid against outputSchema",
        "at least 7 progress notification(s)",
    ] {
        assert!(python::passed(stdout, check) > 0, "{check}: {stdout}");
    }
    // The bad prompt, resource and completion requests and the unknown tool.
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("ok ") && l.contains(": JSON-RPC error -"))
            .count(),
        6,
        "{stdout}"
    );
}

#[test]
fn python_client_through_nginx_in_front_of_two_stateless_instances() {
    let test =
        "chess-server/python_sdk::python_client_through_nginx_in_front_of_two_stateless_instances";
    let Some(python) = harness::prereq::python_sdk(test) else {
        return;
    };
    let Some(balanced) = balanced::Balanced::start(test) else {
        return;
    };
    let mut plan = flow::plan(json!({"url": balanced.url, "protocolVersion": NEGOTIATED.as_str()}));
    plan.as_object_mut().unwrap().remove("cancelCall");
    // A stateless server lists no task support (docs/serving.md).
    flow::stateless(&mut plan);
    let stdout = python::run(&python, "examples.py", "chess-server-nginx-python", &plan);
    assert_chess_flow(&stdout);
    balanced.assert_each_instance_served();
}

/// The chess flow through nginx round robin in front of two stateful instances sharing
/// one Redis (`--redis URL`, `deploy/nginx-stateful.conf`): the session's requests land
/// on both instances in turn, each restoring the session from Redis when it has not
/// seen it; the tools are listed with their task support (a stateful server keeps
/// tasks). The same results as through the stateless pair.
#[test]
fn python_client_through_nginx_in_front_of_two_stateful_instances_sharing_redis() {
    let test = "chess-server/python_sdk::python_client_through_nginx_in_front_of_two_stateful_instances_sharing_redis";
    let Some(python) = harness::prereq::python_sdk(test) else {
        return;
    };
    let Some(balanced) = balanced::Balanced::start_stateful(test, &[]) else {
        return;
    };
    let mut plan = flow::plan(json!({"url": balanced.url, "protocolVersion": NEGOTIATED.as_str()}));
    // `examples.py` plays neither tasks nor cancellation (the TypeScript flow does).
    plan.as_object_mut().unwrap().remove("cancelCall");
    let stdout = python::run(
        &python,
        "examples.py",
        "chess-server-nginx-stateful-python",
        &plan,
    );
    assert_chess_flow(&stdout);
    balanced.assert_each_instance_served();
}

/// `record_game_result`'s interaction example, as the plan of `interaction.py`, with
/// the SDK starting `chess-server` (stdio).
fn interaction_plan() -> Value {
    let mut plan = python::interaction_plan(
        &description(),
        "record_game_result",
        "short-decisive-game",
        NEGOTIATED,
    );
    assert_eq!(plan["steps"][0]["declaration"], "confirm_unusual");
    plan["command"] = json!(env!("CARGO_BIN_EXE_chess-server"));
    plan["args"] = json!([]);
    plan
}

#[test]
fn python_client_answers_the_confirm_unusual_elicitation_over_stdio() {
    let test =
        "chess-server/python_sdk::python_client_answers_the_confirm_unusual_elicitation_over_stdio";
    let Some(python) = harness::prereq::python_sdk(test) else {
        return;
    };
    let stdout = python::run(
        &python,
        "interaction.py",
        "chess-server-elicitation-python",
        &interaction_plan(),
    );
    for check in [
        "step 0: elicitation message",
        "step 0: elicitation requestedSchema",
        "all 1 step(s) requested, in order",
        "record_game_result: the final result equals the example result",
    ] {
        assert_eq!(python::passed(&stdout, check), 1, "{check}: {stdout}");
    }
}

#[test]
fn python_client_without_elicitation_gets_a_tool_error_over_stdio() {
    let test =
        "chess-server/python_sdk::python_client_without_elicitation_gets_a_tool_error_over_stdio";
    let Some(python) = harness::prereq::python_sdk(test) else {
        return;
    };
    let mut plan = interaction_plan();
    let plan_object = plan.as_object_mut().unwrap();
    plan_object.remove("steps");
    plan_object.remove("expectResult");
    plan_object.insert(
        "expectToolError".into(),
        json!("Not recorded: the unusual result could not be confirmed"),
    );
    let stdout = python::run(
        &python,
        "without_capability.py",
        "chess-server-no-elicitation-python",
        &plan,
    );
    assert_eq!(
        python::passed(&stdout, "could not be confirmed'"),
        1,
        "{stdout}"
    );
}

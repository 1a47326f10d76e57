//! `mcpdesc serve-mock` end to end with the official TypeScript MCP client
//! (`@modelcontextprotocol/sdk`, pinned in `tests/e2e/`): for the chess example and each
//! real-world description, the client starts `mcpdesc serve-mock FILE` over stdio, and
//! talks to `mcpdesc serve-mock FILE --http 127.0.0.1:0` over streamable HTTP; it
//! initializes (MCP 2025-11-25, the SDK's newest), compares `tools/list` with the mock
//! router's projection, calls every tool with each example input and checks that the
//! whole result equals the example's, and checks that arguments no example has get a
//! tool error and an unknown tool a JSON-RPC error. For the interaction-example fixture
//! the client answers the mock's roots, sampling and elicitation requests from the
//! example's steps, checking each request against its step.
//!
//! The descriptions: the chess example and the repository's own interaction-example
//! case (`tests/conformance/`) always, the shared real-world descriptions and the
//! shared interaction-example fixture on top when the shared corpus is there
//! (`tests/prereq.rs`).
//!
//! `tests/e2e/harness.rs` runs the client (installing it when missing; without Node.js
//! the test prints a notice and passes, or fails under `MCPDESC_REQUIRE_NODE=1`; a
//! client that hangs is killed and reported).

use std::path::{Path, PathBuf};

use mcpdesc::ProtocolVersion;
use mcpdesc_cli::serve_mock::mock_router;
use mcpdesc_codegen::{Description, Limits};
use serde_json::{json, Value};

#[path = "../../tests/e2e/harness.rs"]
mod harness;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The client's plan for one description over stdio: every Tool Example of every
/// tool, expecting exactly the example's result.
fn plan(path: &Path) -> Value {
    let desc = Description::from_path(path, &Limits::default()).unwrap();
    let router = mock_router(&desc, None, &[]).unwrap();
    let doc = &desc.validation.as_ref().unwrap().resolution.value;
    let tools = doc["tools"].as_array().unwrap();
    // The tools served in 2025-11-25 (the client's version).
    let served = || {
        tools.iter().filter(|t| {
            t.get("protocolVersions")
                .and_then(Value::as_array)
                .is_none_or(|list| list.iter().any(|v| v == "2025-11-25"))
        })
    };
    let calls: Vec<Value> = served().flat_map(harness::example_calls).collect();
    let interactions: Vec<Value> = served()
        .flat_map(|t| {
            let examples = t["interactionExamples"].as_object().into_iter().flatten();
            examples.map(|(label, e)| {
                json!({
                    "label": label, "tool": t["name"], "arguments": e["input"],
                    "steps": e["steps"], "expectResult": e["result"],
                })
            })
        })
        .collect();
    assert!(
        !calls.is_empty() || !interactions.is_empty(),
        "{} has no examples",
        path.display()
    );
    // Every member, `execution` included (rmcp's `Tool` has no field for it; the
    // adapter writes it back into the answer).
    let expected = router.list_tools(ProtocolVersion::V2025_11_25);
    json!({
        "command": env!("CARGO_BIN_EXE_mcpdesc"),
        "args": ["serve-mock", path],
        "serverName": doc["info"]["name"],
        "expectedTools": expected,
        "calls": calls,
        "interactions": interactions,
        "invalidCalls": [
            {"label": "arguments no example has", "tool": tools[0]["name"],
             "arguments": {"mcpdesc-e2e-no-such-argument": 1}}
        ],
        "unknownTool": "mcpdesc_e2e_no_such_tool"
    })
}

/// The chess example and the repository's interaction-example case; the shared
/// real-world descriptions and interaction fixture on top when the corpus is there (a
/// notice naming `test` otherwise).
fn files(test: &str) -> Vec<PathBuf> {
    let mut files = vec![
        root().join("examples/chess/chess.mcpdesc.json"),
        root().join("tests/conformance/expected-valid/interaction-examples.json"),
    ];
    let shared_part = format!("{test} (its shared real-world descriptions)");
    if let Some(shared) = harness::prereq::shared_conformance(&shared_part) {
        for entry in std::fs::read_dir(shared.join("real-world")).unwrap() {
            files.push(entry.unwrap().path());
        }
        files.push(
            shared.join("fixtures-0.8.0-rc.1/expected-valid/named-tool-interaction-examples.json"),
        );
    }
    files.sort();
    files
}

/// Runs the client on `plan` and checks that each example call reached the
/// whole-result comparison.
fn run(name: &str, plan: &Value) {
    let calls =
        plan["calls"].as_array().unwrap().len() + plan["interactions"].as_array().unwrap().len();
    let stdout = harness::run_client(name, plan);
    let compared = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && l.ends_with("result equals the example result"))
        .count();
    assert_eq!(compared, calls, "{name}: {stdout}");
}

#[test]
fn typescript_client_gets_the_example_results_from_serve_mock_over_http() {
    const TEST: &str = "mcpdesc-cli/serve_mock_e2e::typescript_client_gets_the_example_results_from_serve_mock_over_http";
    if !harness::client_ready(TEST) {
        return;
    }
    for path in &files(TEST) {
        let server = harness::HttpServerProcess::start(
            env!("CARGO_BIN_EXE_mcpdesc"),
            &[
                "serve-mock",
                path.to_str().unwrap(),
                "--http",
                "127.0.0.1:0",
            ],
        );
        let mut plan = plan(path);
        let plan_map = plan.as_object_mut().unwrap();
        plan_map.remove("command");
        plan_map.remove("args");
        plan_map.insert("url".into(), json!(server.url));
        let name = format!("{}-http", path.file_name().unwrap().to_string_lossy());
        run(&name, &plan);
    }
}

#[test]
fn typescript_client_gets_the_example_results_from_serve_mock() {
    const TEST: &str =
        "mcpdesc-cli/serve_mock_e2e::typescript_client_gets_the_example_results_from_serve_mock";
    if !harness::client_ready(TEST) {
        return;
    }
    for path in &files(TEST) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        run(&name, &plan(path));
    }
}

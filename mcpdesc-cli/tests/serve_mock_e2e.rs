//! `mcpdesc serve-mock` end to end with the official TypeScript MCP client
//! (`@modelcontextprotocol/sdk`, pinned in `tests/e2e/`): for the chess example, the
//! generator's primitives fixture and every valid or warning case of the repository
//! (`tests/conformance/`), and on top, when the shared corpus is there
//! (`tests/prereq.rs`), each real-world description and every valid or warning fixture
//! of the shared corpus, the client starts `mcpdesc serve-mock FILE`
//! over stdio, and talks to `mcpdesc serve-mock FILE --http 127.0.0.1:0` over
//! streamable HTTP; it initializes (MCP 2025-11-25, the SDK's newest, or the newest
//! version the description has before it). Then, for the declarations of that version,
//! on both transports:
//!
//! - tools: `tools/list` equals the mock router's projection; every Tool Example's
//!   input gets exactly the example's result; arguments no example has get a tool error
//!   and an unknown tool a JSON-RPC error; interaction examples are played with the
//!   client answering the mock's roots, sampling and elicitation requests from the steps;
//! - prompts, resources, resource templates and completions (`tests/e2e/primitives.mjs`):
//!   the lists equal the router's projections; every Prompt, Resource, Resource Template
//!   and completion example's request gets exactly the example's whole result; bad
//!   requests get their JSON-RPC errors and the server keeps serving.
//!
//! Nothing here is specific to a description: the plan is built from the description
//! alone, so the test is the same for descriptions outside the repository.
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

/// The version the TypeScript client ends up with: 2025-11-25 when the description has
/// it, else the newest version before it (rmcp falls back to the newest version with an
/// `initialize` handshake); `None` when the description has neither (2026-07-28 only).
fn negotiated(root: &[&str]) -> Option<ProtocolVersion> {
    let versions: Vec<ProtocolVersion> = root.iter().filter_map(|v| v.parse().ok()).collect();
    if versions.contains(&ProtocolVersion::V2025_11_25) {
        return Some(ProtocolVersion::V2025_11_25);
    }
    versions
        .into_iter()
        .filter(|v| *v < ProtocolVersion::V2025_11_25)
        .max()
}

/// The client's plan for one description (see `tests/e2e/client.mjs` and
/// `primitives.mjs`), and the number of example answers it compares; `None` when the
/// TypeScript client cannot talk to it or it has no examples.
fn plan(path: &Path) -> Option<(Value, usize)> {
    let desc = Description::from_path(path, &Limits::default()).unwrap();
    if !desc.is_valid() {
        return None;
    }
    // A declaration the runtime refuses (an external `$ref` it cannot resolve offline)
    // stops `serve-mock` at start-up, as documented; tests/tests/serve_mock.rs covers it.
    let router = match mock_router(&desc, None, &[]) {
        Ok(router) => router,
        Err(e) => {
            println!("note: {} is not served: {e}", path.display());
            return None;
        }
    };
    let doc = &desc.validation.as_ref().unwrap().resolution.value;
    let root_versions: Vec<&str> = doc["protocolVersions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let version = negotiated(&root_versions)?;
    let applies = |d: &&Value| {
        d.get("protocolVersions")
            .and_then(Value::as_array)
            .is_none_or(|list| list.iter().any(|v| v == version.as_str()))
    };
    let tools: Vec<&Value> = doc["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(applies)
        .collect();
    let calls: Vec<Value> = tools
        .iter()
        .copied()
        .flat_map(harness::example_calls)
        .collect();
    let interactions: Vec<Value> = tools
        .iter()
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
    let mut capabilities = Vec::new();
    let caps = router.capabilities(version);
    for name in ["prompts", "resources", "completions"] {
        if caps.get(name).is_some() {
            capabilities.push(name);
        }
    }
    let primitives = harness::primitive_plan(
        doc,
        version.as_str(),
        [
            router.list_prompts(version),
            router.list_resources(version),
            router.list_resource_templates(version),
        ],
        &capabilities,
    );
    let answers = ["prompts", "reads", "completions"]
        .iter()
        .map(|k| primitives[k].as_array().map_or(0, Vec::len))
        .sum::<usize>();
    let compared = calls.len() + interactions.len() + answers;
    if compared == 0 {
        return None;
    }
    let mut plan = json!({
        "command": env!("CARGO_BIN_EXE_mcpdesc"),
        "args": ["serve-mock", path],
        "serverName": doc["info"]["name"],
        // Every member, `execution` included (rmcp's `Tool` has no field for it; the
        // adapter writes it back into the answer).
        "expectedTools": router.list_tools(version),
        "calls": calls,
        "interactions": interactions,
        "primitives": primitives,
    });
    if let Some(tool) = tools.first() {
        plan["invalidCalls"] = json!([{"label": "arguments no example has", "tool": tool["name"],
            "arguments": {"mcpdesc-e2e-no-such-argument": 1}}]);
        plan["unknownTool"] = json!("mcpdesc_e2e_no_such_tool");
    }
    Some((plan, compared))
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn typescript_client_gets_the_example_results_from_serve_mock() {
    const TEST: &str =
        "mcpdesc-cli/serve_mock_e2e::typescript_client_gets_the_example_results_from_serve_mock";
    if !harness::client_ready(TEST) {
        return;
    }
    let mut all = vec![
        root().join("examples/chess/chess.mcpdesc.json"),
        root().join("tests/fixtures/generator/primitives.mcpdesc.json"),
    ];
    for folder in ["expected-valid", "expected-warning"] {
        all.extend(files(&root().join("tests/conformance").join(folder)));
    }
    let shared_part = format!("{TEST} (its shared descriptions)");
    let shared = harness::prereq::shared_conformance(&shared_part);
    if let Some(shared) = &shared {
        all.extend(files(&shared.join("real-world")));
        for folder in ["expected-valid", "expected-warning"] {
            all.extend(files(&shared.join("fixtures-0.8.0-rc.1").join(folder)));
        }
    }
    let mut served = Vec::new();
    for path in &all {
        let Some((plan, compared_wanted)) = plan(path) else {
            continue;
        };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let stdout = harness::run_client(&name, &plan);
        // Each example produced its checks, including the whole-result comparison.
        let compared = stdout
            .lines()
            .filter(|l| l.starts_with("ok ") && l.ends_with("result equals the example result"))
            .count();
        assert_eq!(compared, compared_wanted, "{name}: {stdout}");
        // The same plan over streamable HTTP.
        let server = harness::HttpServerProcess::start(
            env!("CARGO_BIN_EXE_mcpdesc"),
            &[
                "serve-mock",
                path.to_str().unwrap(),
                "--http",
                "127.0.0.1:0",
            ],
        );
        let mut over_http = plan.clone();
        let map = over_http.as_object_mut().unwrap();
        map.remove("command");
        map.remove("args");
        map.insert("url".into(), json!(server.url));
        let stdout = harness::run_client(&format!("{name}-http"), &over_http);
        let compared = stdout
            .lines()
            .filter(|l| l.starts_with("ok ") && l.ends_with("result equals the example result"))
            .count();
        assert_eq!(compared, compared_wanted, "{name} over HTTP: {stdout}");
        drop(server);
        // Examples that an earlier example's request hides: one run each, with the
        // example selected (`--select`).
        for (i, shadowed) in plan["primitives"]["shadowed"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let select = shadowed["select"].as_str().unwrap();
            let kind = shadowed["kind"].as_str().unwrap();
            let selected = json!({
                "command": env!("CARGO_BIN_EXE_mcpdesc"),
                "args": ["serve-mock", path, "--select", select],
                "serverName": plan["serverName"],
                "expectedTools": plan["expectedTools"],
                "calls": [],
                "primitives": {
                    kind: [shadowed["call"]],
                    "changeFlags": plan["primitives"]["changeFlags"],
                },
            });
            let stdout = harness::run_client(&format!("{name}-selected-{i}"), &selected);
            assert!(
                stdout.contains("result equals the example result"),
                "{name} --select {select}: {stdout}"
            );
        }
        served.push(name);
    }
    println!("served {}: {served:?}", served.len());
    let mut must = vec![
        "chess.mcpdesc.json",
        "primitives.mcpdesc.json",
        "bookshelf.json",
        "interaction-examples.json",
        "resources-prompts-completions.json",
        "yaml-rendering.yaml",
    ];
    if shared.is_some() {
        must.extend([
            "named-prompt-examples.json",
            "named-resource-examples.json",
            "named-completion-examples.json",
            "resource-example-consistency.json",
            "legacy-completion-examples.json",
            "named-tool-interaction-examples.json",
        ]);
    }
    for must in must {
        assert!(
            served.iter().any(|s| s == must),
            "{must} was not served: {served:?}"
        );
    }
}

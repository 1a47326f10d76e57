//! Protocol-scoped variants, interaction examples and client requirements with the
//! official Python MCP SDK (`mcp` 2.3.0 on PyPI, pinned in
//! `tests/python/requirements.txt`; its clients are `tests/python/*.py`, run by
//! `tests/python/harness.rs`), over streamable HTTP to servers run in process.
//!
//! **The SDK's versions.** `mcp` 2.3.0 speaks MCP 2024-11-05 to 2025-11-25 through
//! `initialize` and 2026-07-28 through `server/discover` (no `initialize`; the
//! capabilities in each request's `_meta`). Its default (`mode="auto"`) probes
//! `server/discover` at 2026-07-28 and falls back to `initialize` at 2025-11-25 when the
//! server does not speak 2026-07-28; `mode="legacy"` always uses `initialize` at
//! 2025-11-25. It cannot offer an older version than 2025-11-25 in `initialize`, so the
//! 2025-06-18 variants are seen by the TypeScript client only (`variants.rs`).
//!
//! - The generated multi-variant server (`tests/fixtures/generator/variants.mcpdesc.json`,
//!   snapshot `generator-variants.rs`, answered by its `ExampleServer` mock) declares
//!   2025-06-18 and 2025-11-25: the SDK falls back to 2025-11-25, `tools/list`,
//!   `prompts/list` and `resources/list` equal the router's projections for that
//!   version, each of that version's variant examples is answered exactly, and the
//!   2025-06-18 variant's input of `analyze_game` (without the `depth` the 2025-11-25
//!   variant requires) is a tool error.
//! - `tests/fixtures/python/versions.mcpdesc.json`, which declares 2025-11-25 and
//!   2026-07-28, served by `serve-mock`'s router (`mcpdesc_cli::serve_mock::mock_router`,
//!   the runtime's router that `mcpdesc serve-mock` serves) and generated into one
//!   module (`mcpdesc!`, answered by its `ExampleServer`): the SDK negotiates
//!   2026-07-28 by default and sees the 2026-07-28 variant of `analyze_game` (its
//!   `depth` and its result), and with `mode="legacy"` the 2025-11-25 one, from the
//!   same server.
//! - Interaction examples: the fixture's `resign` (in both versions: an elicitation
//!   request before 2026-07-28, an input-required round from it on; against the mock
//!   and the generated server) and the chess description's `record_game_result`
//!   `short-decisive-game` (2025-11-25) against the mock: the client declares the elicitation capability, checks the request against
//!   the example's step, accepts with the step's content, and gets the example's result.
//! - Client requirements: `resign` declares `clientRequirements: {elicitation: {form:
//!   {}}}`; a client without the elicitation capability is refused before anything runs,
//!   with `-32021` and `data.requiredCapabilities` in 2026-07-28 and `-32602` with the
//!   same data in 2025-11-25, and a client with it is served (the mock and the
//!   generated server alike).
//!
//! **Tasks.** Not tested with this SDK: `mcp` 2.3.0 has the 2025-11-25 task types
//! (`CreateTaskResult`, `tasks/get`...) but no client API that sends a task-augmented
//! `tools/call` or polls a task, and no client for the 2026-07-28
//! `io.modelcontextprotocol/tasks` extension. The TypeScript SDK's task flow
//! (`callToolStream`) is tested in `mcpdesc-cli/tests/serve_mock_e2e.rs`.
//!
//! Without the SDK the tests print a notice and pass (`MCPDESC_REQUIRE_TOOLS=1`, set by
//! `.ci/run`, fails instead).

use std::path::{Path, PathBuf};

use mcpdesc::ProtocolVersion;
use mcpdesc_cli::serve_mock::mock_router;
use mcpdesc_codegen::{Description, Limits};
use serde_json::{json, Value};

#[allow(dead_code)]
mod generated {
    include!("../snapshots/generator-variants.rs");
}

/// The versions fixture generated into one module (both variants of `analyze_game`),
/// served by its `ExampleServer` mock.
#[allow(dead_code)]
mod versions {
    mcpdesc::mcpdesc!(path = "fixtures/python/versions.mcpdesc.json");
}

#[path = "../e2e/harness.rs"]
mod harness;

#[path = "../python/harness.rs"]
mod python;

/// A description of the repository and its resolved document.
fn load(path: &str) -> (Description, Value) {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    let desc = Description::from_path(&path, &Limits::default()).unwrap();
    let doc = desc.validation.as_ref().unwrap().resolution.value.clone();
    (desc, doc)
}

/// Serves `router` over streamable HTTP on a free loopback port until the returned
/// token is cancelled; returns the MCP endpoint.
async fn serve(router: mcpdesc::Router) -> (String, mcpdesc::CancellationToken) {
    let bound = mcpdesc::http::HttpServer::new(router)
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let url = format!("http://{}/mcp", bound.local_addr());
    let shutdown = bound.shutdown_token();
    tokio::spawn(bound.run());
    (url, shutdown)
}

/// Runs `script` on `plan` off the runtime's threads (the server runs on them).
async fn run(python: &Path, script: &'static str, name: &str, plan: Value) -> String {
    let (python, name) = (python.to_path_buf(), name.to_owned());
    tokio::task::spawn_blocking(move || python::run(&python, script, &name, &plan))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_client_sees_the_generated_server_variants_of_2025_11_25() {
    let Some(python) = harness::prereq::python_sdk(
        "mcpdesc-tests/python_sdk::python_client_sees_the_generated_server_variants_of_2025_11_25",
    ) else {
        return;
    };
    let (_, doc) = load("tests/fixtures/generator/variants.mcpdesc.json");
    let router = generated::router(generated::ExampleServer::new());
    let v = ProtocolVersion::V2025_11_25;
    let calls: Vec<Value> = python::declared(&doc, "tools", v)
        .into_iter()
        .flat_map(harness::example_calls)
        .collect();
    // analyze_game, reset_board, export_game (2025-11-25 variants) and ping.
    assert_eq!(calls.len(), 4, "{calls:?}");
    // The 2025-06-18 variant's example input: no `depth`, which 2025-11-25 requires.
    let old_input = &python::tool(&doc, "analyze_game", ProtocolVersion::V2025_06_18)["examples"]
        ["opening"]["input"];
    let plan = json!({
        "protocolVersion": v.as_str(),
        "serverName": "generator-variants",
        "expectedTools": router.list_tools(v),
        "calls": calls,
        "invalidCalls": [{"label": "with the 2025-06-18 variant's input", "tool": "analyze_game",
            "arguments": old_input}],
        "unknownTool": "mcpdesc_python_no_such_tool",
        "primitives": harness::primitive_plan(
            &doc,
            v.as_str(),
            [router.list_prompts(v), router.list_resources(v), router.list_resource_templates(v)],
            &["prompts", "resources"],
        ),
    });
    let (url, shutdown) = serve(generated::router(generated::ExampleServer::new())).await;
    let mut plan = plan;
    plan["url"] = json!(url);
    let stdout = run(&python, "examples.py", "variants-python", plan).await;
    shutdown.cancel();
    for check in [
        "negotiated protocol version 2025-11-25",
        "tools/list: 4 tools equal the router's projection",
        "analyze_game deep: result equals the example result",
        "reset_board main: result equals the example result",
        "export_game long: result equals the example result",
        "analyze_game with the 2025-06-18 variant's input: a tool error",
        "prompt review endgame: result equals the example result",
        "read chess://rules markdown: result equals the example result",
    ] {
        assert_eq!(python::passed(&stdout, check), 1, "{check}: {stdout}");
    }
}

/// The plan of `examples.py` for the versions fixture in `version` (the SDK's mode:
/// `auto` for 2026-07-28, `legacy` for 2025-11-25), without `resign` (it needs the
/// elicitation capability, which `examples.py` does not declare; see the tests below).
fn versions_plan(url: &str, router: &mcpdesc::Router, version: ProtocolVersion) -> Value {
    let (_, doc) = load("tests/fixtures/python/versions.mcpdesc.json");
    let calls: Vec<Value> = python::declared(&doc, "tools", version)
        .into_iter()
        .filter(|t| t["name"] != "resign")
        .flat_map(harness::example_calls)
        .map(|mut call| {
            call["expectResult"] = python::expected_result(&call["expectResult"], version);
            call
        })
        .collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    json!({
        "url": url,
        "mode": python::mode(version),
        "protocolVersion": version.as_str(),
        "serverName": "python-sdk-versions",
        "expectedTools": router.list_tools(version),
        "calls": calls,
        "unknownTool": "mcpdesc_python_no_such_tool",
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_client_sees_the_variant_of_the_version_it_negotiates() {
    let Some(python) = harness::prereq::python_sdk(
        "mcpdesc-tests/python_sdk::python_client_sees_the_variant_of_the_version_it_negotiates",
    ) else {
        return;
    };
    let (desc, _) = load("tests/fixtures/python/versions.mcpdesc.json");
    let routers = || {
        [
            ("serve-mock", mock_router(&desc, None, &[]).unwrap()),
            (
                "generated",
                versions::router(versions::ExampleServer::new()),
            ),
        ]
    };
    for ((server, router), (_, served)) in routers().into_iter().zip(routers()) {
        let (url, shutdown) = serve(served).await;
        let modern = versions_plan(&url, &router, ProtocolVersion::V2026_07_28);
        let legacy = versions_plan(&url, &router, ProtocolVersion::V2025_11_25);
        let modern = run(
            &python,
            "examples.py",
            &format!("{server}-2026-python"),
            modern,
        )
        .await;
        let legacy = run(
            &python,
            "examples.py",
            &format!("{server}-2025-python"),
            legacy,
        )
        .await;
        shutdown.cancel();
        assert_variants_seen(&modern, &legacy);
    }
}

/// The checks that show each session saw its version's variant.
fn assert_variants_seen(modern: &str, legacy: &str) {
    for (stdout, checks) in [
        (
            modern,
            [
                "negotiated protocol version 2026-07-28",
                "tools/list: 3 tools equal the router's projection",
                "analyze_game deep: result equals the example result",
            ],
        ),
        (
            legacy,
            [
                "negotiated protocol version 2025-11-25",
                "tools/list: 3 tools equal the router's projection",
                "analyze_game opening: result equals the example result",
            ],
        ),
    ] {
        for check in checks {
            assert_eq!(python::passed(stdout, check), 1, "{check}: {stdout}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_client_answers_the_elicitation_of_an_interaction_example_in_each_version() {
    let Some(python) = harness::prereq::python_sdk(
        "mcpdesc-tests/python_sdk::python_client_answers_the_elicitation_of_an_interaction_example_in_each_version",
    ) else {
        return;
    };
    let (desc, doc) = load("tests/fixtures/python/versions.mcpdesc.json");
    let (url, shutdown) = serve(mock_router(&desc, None, &[]).unwrap()).await;
    let (generated_url, generated_shutdown) =
        serve(versions::router(versions::ExampleServer::new())).await;
    let (chess, chess_doc) = load("examples/chess/chess.mcpdesc.json");
    let (chess_url, chess_shutdown) = serve(mock_router(&chess, None, &[]).unwrap()).await;
    // The chess mock speaks 2025-06-18 and 2025-11-25 only: the SDK's default mode
    // falls back to 2025-11-25 there.
    let plans = [
        (
            "resign-2026-python",
            &url,
            python::mode(ProtocolVersion::V2026_07_28),
            python::interaction_plan(&doc, "resign", "confirmed", ProtocolVersion::V2026_07_28),
        ),
        (
            "resign-2025-python",
            &url,
            python::mode(ProtocolVersion::V2025_11_25),
            python::interaction_plan(&doc, "resign", "confirmed", ProtocolVersion::V2025_11_25),
        ),
        (
            "resign-generated-2026-python",
            &generated_url,
            python::mode(ProtocolVersion::V2026_07_28),
            python::interaction_plan(&doc, "resign", "confirmed", ProtocolVersion::V2026_07_28),
        ),
        (
            "resign-generated-2025-python",
            &generated_url,
            python::mode(ProtocolVersion::V2025_11_25),
            python::interaction_plan(&doc, "resign", "confirmed", ProtocolVersion::V2025_11_25),
        ),
        (
            "chess-mock-python",
            &chess_url,
            "auto",
            python::interaction_plan(
                &chess_doc,
                "record_game_result",
                "short-decisive-game",
                ProtocolVersion::V2025_11_25,
            ),
        ),
    ];
    for (name, url, mode, mut plan) in plans {
        plan["url"] = json!(url);
        plan["mode"] = json!(mode);
        let tool = plan["tool"].as_str().unwrap().to_owned();
        let stdout = run(&python, "interaction.py", name, plan).await;
        for check in [
            "step 0: elicitation message".to_owned(),
            "step 0: elicitation requestedSchema".to_owned(),
            "all 1 step(s) requested, in order".to_owned(),
            format!("{tool}: the final result equals the example result"),
        ] {
            assert_eq!(python::passed(&stdout, &check), 1, "{check}: {stdout}");
        }
    }
    shutdown.cancel();
    generated_shutdown.cancel();
    chess_shutdown.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_client_without_elicitation_is_refused_as_client_requirements_say() {
    let Some(python) = harness::prereq::python_sdk(
        "mcpdesc-tests/python_sdk::python_client_without_elicitation_is_refused_as_client_requirements_say",
    ) else {
        return;
    };
    let (desc, doc) = load("tests/fixtures/python/versions.mcpdesc.json");
    for (server, router) in [
        ("serve-mock", mock_router(&desc, None, &[]).unwrap()),
        (
            "generated",
            versions::router(versions::ExampleServer::new()),
        ),
    ] {
        let (url, shutdown) = serve(router).await;
        refused_in_each_version(&python, server, &url, &doc).await;
        shutdown.cancel();
    }
}

/// `resign` without the elicitation capability, refused in 2026-07-28 and
/// 2025-11-25 by the server at `url`, and served with it.
async fn refused_in_each_version(python: &Path, server: &str, url: &str, doc: &Value) {
    for (version, code) in [
        (ProtocolVersion::V2026_07_28, -32021),
        (ProtocolVersion::V2025_11_25, -32602),
    ] {
        let resign = python::tool(doc, "resign", version);
        let example = &resign["examples"]["unconfirmed"];
        let plan = json!({
            "url": url,
            "mode": python::mode(version),
            "protocolVersion": version.as_str(),
            "tool": "resign",
            "arguments": example["input"],
            "expectRefusal": {
                "code": code,
                "data": {"requiredCapabilities": resign["clientRequirements"]},
                "message": "tool `resign` requires the client capability elicitation.form",
            },
            "expectResult": python::expected_result(&example["result"], version),
        });
        let stdout = run(
            python,
            "without_capability.py",
            &format!("{server}-refused-{version}"),
            plan,
        )
        .await;
        for check in [
            format!("resign without elicitation: JSON-RPC error {code}"),
            "resign without elicitation: error data".to_owned(),
            "resign with elicitation declared: served".to_owned(),
        ] {
            assert_eq!(python::passed(&stdout, &check), 1, "{check}: {stdout}");
        }
    }
}

//! `mcpdesc serve-mock`'s router, in process: every valid description of the corpus
//! (the chess example, the memory example's YAML description and the repository's own
//! valid and warning cases always; the shared conformance fixtures and real-world
//! descriptions on top when the shared corpus is there) becomes a mock
//! whose `tools/call` answers each example's input with exactly the example's result,
//! interaction examples replayed through a scripted client of their steps, in every
//! protocol version of the tool's scope (2026-07-28 interaction examples over rmcp, as
//! input-required rounds). The command's exit codes and messages are
//! checked through `mcpdesc_cli::run`; the spawned binary talking to the TypeScript SDK
//! client is `mcpdesc-cli/tests/serve_mock_e2e.rs`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures::executor::block_on;
use mcpdesc::testing::{canonical, ScriptedClient};
use mcpdesc::{Context, ProtocolVersion, ToolResult};
use mcpdesc_cli::serve_mock::{mock_router, MockError};
use mcpdesc_codegen::{Description, Limits};
use serde_json::{json, Value};

#[path = "../prereq.rs"]
mod prereq;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn load(path: &Path) -> Description {
    Description::from_path(path, &Limits::default()).unwrap()
}

fn sorted_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    files
}

/// Every description that must validate: the chess example, the memory example's YAML
/// description and the repository's valid and warning cases, then (when `shared` is
/// there) the shared valid and warning fixtures and the real-world corpus.
fn valid_corpus(shared: Option<&Path>) -> Vec<PathBuf> {
    let mut files = vec![
        repo("examples/chess/chess.mcpdesc.json"),
        repo("examples/memory-server-macro/memory.mcpdesc.yaml"),
    ];
    for dir in ["expected-valid", "expected-warning"] {
        files.extend(sorted_files(&repo("tests/conformance").join(dir)));
    }
    if let Some(shared) = shared {
        for dir in [
            "fixtures-0.8.0-rc.1/expected-valid",
            "fixtures-0.8.0-rc.1/expected-warning",
            "real-world",
        ] {
            files.extend(sorted_files(&shared.join(dir)));
        }
    }
    files
}

fn runtime_version(name: &str) -> ProtocolVersion {
    *ProtocolVersion::ALL
        .iter()
        .find(|v| v.as_str() == name)
        .unwrap_or_else(|| panic!("unknown version {name}"))
}

/// Calls `tool` with `input` in `version` and returns the result as JSON, with the
/// scripted client of `steps` (if any) as the peer; the client must be finished.
fn call(
    router: &mcpdesc::Router,
    tool: &str,
    input: &Value,
    steps: Option<&Value>,
    version: ProtocolVersion,
    what: &str,
) -> Value {
    let (cx, client) = match steps {
        Some(steps) => {
            let client = Arc::new(ScriptedClient::new(what, "", steps).unwrap());
            (Context::with_peer(version, client.clone()), Some(client))
        }
        None => (Context::new(version), None),
    };
    let result: ToolResult = block_on(router.call_tool(tool, Some(input.clone()), cx))
        .unwrap_or_else(|e| panic!("{what}: protocol error {e:?}"));
    if let Some(client) = client {
        client.finish().unwrap_or_else(|e| panic!("{e}"));
    }
    // What the server sends for this version.
    result.to_wire(version)
}

#[test]
fn the_mock_answers_every_example_with_its_result_in_every_version() {
    let shared = prereq::shared_conformance(
        "mcpdesc-tests/serve_mock::the_mock_answers_every_example_with_its_result_in_every_version (its shared part)",
    );
    let (mut checked, mut replayed, mut refused) = (0, 0, 0);
    for path in valid_corpus(shared.as_deref()) {
        let desc = load(&path);
        assert!(desc.is_valid(), "{}", desc.render_diagnostics());
        let router = match mock_router(&desc, None, &[]) {
            Ok(router) => router,
            // The runtime never fetches a schema, so a tool whose `inputSchema` needs an
            // external `$ref` cannot check its arguments and is refused (documented on
            // `Router`); the description is valid with a warning.
            Err(MockError::Router {
                kind,
                name,
                message,
            }) if path.ends_with("external-schema-reference.json")
                || path.ends_with("unresolved-external-tool-example-ref.json") =>
            {
                assert_eq!((kind, name.as_str()), ("tool", "lookup"));
                assert!(
                    message.contains("https://schemas.example.invalid/"),
                    "{message}"
                );
                refused += 1;
                continue;
            }
            Err(e) => panic!("{}: {e}", path.display()),
        };
        let doc: Value =
            serde_json::to_value(desc.validation.as_ref().unwrap().resolution.value.clone())
                .unwrap();
        let root: Vec<&str> = doc["protocolVersions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for tool in doc["tools"].as_array().into_iter().flatten() {
            let name = tool["name"].as_str().unwrap();
            let scope: Vec<&str> = match tool.get("protocolVersions") {
                Some(list) => list
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(Value::as_str)
                    .collect(),
                None => root.clone(),
            };
            for version in scope.iter().map(|v| runtime_version(v)) {
                let plain = tool.get("examples").and_then(Value::as_object);
                for (example, e) in plain.into_iter().flatten() {
                    let what = format!(
                        "{}: tool `{name}`, example `{example}`, MCP {version}",
                        path.display()
                    );
                    let got = call(&router, name, &e["input"], None, version, &what);
                    assert_eq!(canonical(&got), canonical(&e["result"]), "{what}");
                    checked += 1;
                }
                // MCP 2026-07-28 has no server-to-client requests during a call: its
                // client input goes through input-required rounds on the wire, checked
                // by the test after this one.
                if version == ProtocolVersion::V2026_07_28 {
                    continue;
                }
                let interactions = tool.get("interactionExamples").and_then(Value::as_object);
                for (example, e) in interactions.into_iter().flatten() {
                    let what = format!(
                        "{}: tool `{name}`, interaction example `{example}`, MCP {version}",
                        path.display()
                    );
                    let got = call(
                        &router,
                        name,
                        &e["input"],
                        Some(&e["steps"]),
                        version,
                        &what,
                    );
                    assert_eq!(canonical(&got), canonical(&e["result"]), "{what}");
                    replayed += 1;
                }
            }
        }
    }
    // The corpus has more examples than this; the floor catches a loop that silently
    // stopped finding them.
    let with_shared = usize::from(shared.is_some());
    assert!(
        checked >= 15 + 20 * with_shared,
        "only {checked} example calls checked"
    );
    // MCP 2025-11-25 (2026-07-28 is skipped above): `interaction-examples` and
    // `interaction-requirements-contradiction` of the repository, and the shared
    // `named-tool-interaction-examples`; chess's `short-decisive-game` in 2025-06-18
    // and 2025-11-25.
    assert_eq!(replayed, 4 + with_shared);
    // `external-schema-reference` and the shared `unresolved-external-tool-example-ref`.
    assert_eq!(refused, 1 + with_shared);
}

/// The memory server's description, in the YAML of the `mcpdesc!` example (the same data
/// as the shared real-world `memory.mcpdesc.json`).
fn memory_path() -> PathBuf {
    repo("examples/memory-server-macro/memory.mcpdesc.yaml")
}

fn memory() -> Description {
    load(&memory_path())
}

#[test]
fn unmatched_arguments_get_a_tool_error_naming_the_examples() {
    let router = mock_router(&memory(), None, &[]).unwrap();
    let got = call(
        &router,
        "read_graph",
        &json!({"unexpected": true}),
        None,
        ProtocolVersion::V2025_11_25,
        "read_graph",
    );
    assert_eq!(got["isError"], json!(true), "{got}");
    let text = got["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("no example of tool `read_graph` matches"),
        "{text}"
    );
    assert!(text.contains("does not predict live behaviour"), "{text}");
}

#[test]
fn a_selected_example_answers_every_call_of_its_tool() {
    let desc = load(&repo("examples/chess/chess.mcpdesc.json"));
    let doc = &desc.validation.as_ref().unwrap().resolution.value;
    let examples = &doc["tools"][0]["examples"];
    let (success, error) = (&examples["scholars-mate"], &examples["empty-pgn"]);
    assert_eq!(error["result"]["isError"], json!(true));
    let v = ProtocolVersion::V2025_11_25;

    // By input: each example answers its own input.
    let by_input = mock_router(&desc, None, &[]).unwrap();
    let got = call(
        &by_input,
        "analyze_game",
        &success["input"],
        None,
        v,
        "by input",
    );
    assert_eq!(canonical(&got), canonical(&success["result"]));

    // Selected: the error example answers the success example's input too.
    let selection = ["analyze_game=empty-pgn".parse().unwrap()];
    let selected = mock_router(&desc, None, &selection).unwrap();
    let got = call(
        &selected,
        "analyze_game",
        &success["input"],
        None,
        v,
        "selected",
    );
    assert_eq!(canonical(&got), canonical(&error["result"]));

    let bad = ["analyze_game=no_such".parse().unwrap()];
    let err = mock_router(&desc, None, &bad).unwrap_err();
    assert!(
        matches!(&err, MockError::Selection(m) if m.contains("has no example `no_such`")
            && m.contains("`empty-pgn`") && m.contains("`scholars-mate`")),
        "{err}"
    );
}

#[test]
fn a_protocol_version_restricts_the_tools_and_the_server() {
    let desc = load(&repo(
        "tests/conformance/expected-valid/interaction-examples.json",
    ));
    let all = mock_router(&desc, None, &[]).unwrap();
    for version in all.info().protocol_versions {
        let v = mcpdesc_codegen::ProtocolVersion::parse(version.as_str()).unwrap();
        let only = mock_router(&desc, Some(v), &[]).unwrap();
        assert_eq!(only.info().protocol_versions, &[*version]);
        assert_eq!(
            only.list_tools(*version),
            all.list_tools(*version),
            "MCP {version}"
        );
    }
}

fn run(args: &[&str]) -> (u8, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut argv = vec!["mcpdesc", "serve-mock"];
    argv.extend_from_slice(args);
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    assert!(out.is_empty(), "serve-mock must keep stdout for MCP");
    (code, String::from_utf8(err).unwrap())
}

#[test]
fn an_invalid_description_is_refused_with_its_diagnostics() {
    let path = repo("tests/conformance/expected-invalid/tool-members.json");
    let (code, err) = run(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error["), "{err}");
    assert!(
        err.contains("a mock is only served from a valid description"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_two() {
    let memory = memory_path();
    let memory = memory.to_str().unwrap();
    let (code, err) = run(&[memory, "--select", "read_graph"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("expected TOOL=EXAMPLE"), "{err}");
    let (code, err) = run(&[memory, "--select", "read_graph=nope"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("tool `read_graph` has no example `nope`"),
        "{err}"
    );
    let (code, err) = run(&["/no/such/file.mcpdesc.json"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn an_http_address_that_cannot_be_served_is_refused() {
    let chess = repo("examples/chess/chess.mcpdesc.json");
    let (code, err) = run(&[chess.to_str().unwrap(), "--http", "not-an-address"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "error: cannot serve HTTP at not-an-address: the HTTP server failed: cannot listen:"
        ),
        "{err}"
    );
}

#[test]
fn a_version_the_description_does_not_describe_is_refused() {
    let chess = repo("examples/chess/chess.mcpdesc.json");
    let (code, err) = run(&[chess.to_str().unwrap(), "--protocol-version", "2024-11-05"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("does not describe MCP 2024-11-05"), "{err}");
}

#[test]
fn a_yaml_description_serves_the_same_mock_as_its_json_original() {
    let Some(shared) = prereq::shared_conformance(
        "mcpdesc-tests/serve_mock::a_yaml_description_serves_the_same_mock_as_its_json_original",
    ) else {
        return;
    };
    let from_yaml = mock_router(&memory(), None, &[]).unwrap();
    let json = load(&shared.join("real-world/memory.mcpdesc.json"));
    let from_json = mock_router(&json, None, &[]).unwrap();
    let v = ProtocolVersion::V2025_11_25;
    assert_eq!(from_yaml.list_tools(v), from_json.list_tools(v));
    assert_eq!(from_yaml.list_tools(v).len(), 9);
    let input = json!({});
    let graph = call(&from_yaml, "read_graph", &input, None, v, "yaml");
    assert!(graph.get("structuredContent").is_some(), "{graph}");
    assert_eq!(
        graph,
        call(&from_json, "read_graph", &input, None, v, "json")
    );
}

/// The client of the 2026-07-28 test: answers the requests an input-required result
/// carries from an interaction example's steps, checking each against its step.
struct StepsClient {
    steps: Arc<ScriptedClient>,
    config: rmcp::model::ClientConfig,
}

impl StepsClient {
    fn answer<T: serde::de::DeserializeOwned>(
        &self,
        answer: Result<Value, mcpdesc::ClientError>,
    ) -> Result<T, rmcp::ErrorData> {
        let answer = answer.map_err(|e| rmcp::ErrorData::invalid_params(e.to_string(), None))?;
        serde_json::from_value(answer)
            .map_err(|e| rmcp::ErrorData::internal_error(e.to_string(), None))
    }
}

#[allow(deprecated)] // Sampling and roots are deprecated in 2026-07-28, not removed.
impl rmcp::ClientHandler for StepsClient {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        self.config.clone()
    }

    async fn create_elicitation(
        &self,
        request: rmcp::model::ElicitRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::ErrorData> {
        let params = serde_json::to_value(request).unwrap();
        self.answer(mcpdesc::ClientPeer::elicit(&*self.steps, params).await)
    }

    async fn create_message(
        &self,
        params: rmcp::model::CreateMessageRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleClient>,
    ) -> Result<rmcp::model::CreateMessageResult, rmcp::ErrorData> {
        let params = serde_json::to_value(params).unwrap();
        self.answer(mcpdesc::ClientPeer::create_message(&*self.steps, params).await)
    }

    async fn list_roots(
        &self,
        _context: rmcp::service::RequestContext<rmcp::RoleClient>,
    ) -> Result<rmcp::model::ListRootsResult, rmcp::ErrorData> {
        self.answer(mcpdesc::ClientPeer::list_roots(&*self.steps).await)
    }
}

/// In MCP 2026-07-28 the mock plays an interaction example over the wire through
/// input-required rounds: rmcp's client gets the step requests as `inputRequests`,
/// answers them from the steps (each checked against its step), and retries until the
/// mock returns the example's result.
#[tokio::test]
async fn the_mock_plays_2026_interaction_examples_through_input_required_rounds() {
    use rmcp::{ClientLifecycleMode, ClientServiceExt, ServiceExt};

    let shared = prereq::shared_conformance(
        "mcpdesc-tests/serve_mock::the_mock_plays_2026_interaction_examples_through_input_required_rounds (its shared part)",
    );
    let mut replayed = 0;
    for path in valid_corpus(shared.as_deref()) {
        let desc = load(&path);
        let Ok(router) = mock_router(&desc, None, &[]) else {
            continue;
        };
        let doc: Value =
            serde_json::to_value(desc.validation.as_ref().unwrap().resolution.value.clone())
                .unwrap();
        let tools = router.list_tools(ProtocolVersion::V2026_07_28);
        for tool in doc["tools"].as_array().into_iter().flatten() {
            let name = tool["name"].as_str().unwrap();
            let served = tools.iter().any(|t| t["name"] == name);
            let scope = tool
                .get("protocolVersions")
                .unwrap_or(&doc["protocolVersions"]);
            let in_scope = scope.as_array().unwrap().iter().any(|v| v == "2026-07-28");
            if !served || !in_scope {
                continue;
            }
            let interactions = tool.get("interactionExamples").and_then(Value::as_object);
            for (example, e) in interactions.into_iter().flatten() {
                let what = format!(
                    "{}: tool `{name}`, interaction example `{example}`, MCP 2026-07-28",
                    path.display()
                );
                let steps = Arc::new(ScriptedClient::new(&what, "", &e["steps"]).unwrap());
                let config = serde_json::from_value(json!({
                    "protocolVersion": "2026-07-28",
                    "capabilities": {"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}}, "roots": {}},
                    "clientInfo": {"name": "steps-client", "version": "0.0.1"}
                }))
                .unwrap();
                let (server_io, client_io) = tokio::io::duplex(256 * 1024);
                let server =
                    mcpdesc::McpServer::new(mock_router(&desc, None, &[]).unwrap()).into_service();
                tokio::spawn(async move {
                    if let Ok(running) = server.serve(server_io).await {
                        let _ = running.waiting().await;
                    }
                });
                let client = StepsClient {
                    steps: steps.clone(),
                    config,
                }
                .serve_with_lifecycle(
                    client_io,
                    ClientLifecycleMode::Discover {
                        preferred_versions: vec![rmcp::model::ProtocolVersion::V_2026_07_28],
                    },
                )
                .await
                .unwrap_or_else(|e| panic!("{what}: {e}"));
                let params = rmcp::model::CallToolRequestParams::new(name.to_owned())
                    .with_arguments(e["input"].as_object().unwrap().clone());
                let result = tokio::time::timeout(
                    std::time::Duration::from_secs(30),
                    client.call_tool(params),
                )
                .await
                .unwrap_or_else(|_| panic!("{what}: no answer within 30 s"))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
                steps.finish().unwrap_or_else(|e| panic!("{e}"));
                let got = serde_json::to_value(result).unwrap();
                assert_eq!(canonical(&got), canonical(&e["result"]), "{what}");
                client.cancel().await.unwrap();
                replayed += 1;
            }
        }
    }
    // `interaction-examples`: `signed-in`; the shared `named-tool-interaction-examples`:
    // `authorized-release`.
    assert_eq!(replayed, 1 + usize::from(shared.is_some()));
}

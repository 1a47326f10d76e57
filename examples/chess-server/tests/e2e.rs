//! End to end with the official TypeScript MCP client (`@modelcontextprotocol/sdk`,
//! pinned with a committed lockfile in `tests/e2e/`), over stdio (the client starts
//! this crate's binary) and over streamable HTTP (`chess-server --http`, the client's
//! `StreamableHTTPClientTransport`): the client initializes, compares `tools/list`
//! with the router's projection for the negotiated version (2025-11-25, the SDK's
//! newest), calls every tool with each example input and checks that each result
//! equals the example's, sends invalid arguments (expects `isError: true`), calls an
//! unknown tool (expects a JSON-RPC error), receives progress during `analyze_game`,
//! and cancels an `analyze_game` call at its first progress notification: the handler
//! notices, stops early and says so in a log message the client receives while the
//! session goes on. `analyze_game` runs as a task in 2025-11-25 (its declaration for
//! that version says `execution.taskSupport: optional`): every example is also called
//! with `client.experimental.tasks.callToolStream` (taskCreated, then the plain call's
//! result), and one call asks for progress as a task (progress notifications, task
//! statuses, the plain call's result). A client offering 2025-06-18 sees that
//! version's declaration: no `execution`, no `tasks` capability. It also lists the prompts, resources and resource templates (equal
//! to the router's projections), gets the prompt, reads the resource and the template
//! and completes with each example's request (each answer equal to the example's whole
//! result), and sends bad prompt, resource and completion requests (each a JSON-RPC
//! error: -32602, or -32002 for an unknown resource). A second client declares the
//! elicitation capability and answers `record_game_result`'s `confirm_unusual`
//! elicitation (declined, then accepted as the `short-decisive-game` interaction
//! example), over stdio and HTTP. Through nginx round robin in front of two stateful
//! instances sharing one Redis, the whole flow and the elicitation run as well: the
//! session's requests, tasks, cancellation and elicitation answer land on either
//! instance (the session's messages relayed between them).
//!
//! The server runs with `--think-ms 50` (50 ms per analysed ply) so that a call lasts
//! long enough to be cancelled midway. `tests/e2e/harness.rs` runs the client
//! (installing it when missing; without Node.js the test prints a notice and passes, or
//! fails under `MCPDESC_REQUIRE_NODE=1`).

use flow::plan;
use mcpdesc::ProtocolVersion;
use serde_json::{json, Value};

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

mod balanced;
mod flow;
#[path = "../../../mcpdesc/tests/support/redis.rs"]
mod redis;

/// Runs the client and checks that every example call reached the whole-result
/// comparison and that progress and cancellation were observed.
fn run(name: &str, plan: &Value) -> String {
    let stdout = harness::run_client(name, plan);
    let compared = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && l.ends_with("result equals the example result"))
        .count();
    // 4 tool examples, 1 prompt, 2 reads, 3 completions.
    assert_eq!(compared, 10, "{stdout}");
    // The bad prompt, resource and completion requests got their JSON-RPC errors.
    let errors = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && l.contains(": JSON-RPC error -"))
        .count();
    assert_eq!(errors, 5, "{stdout}");
    for check in [
        "with a progressToken: at least 7 progress notification(s)",
        "cancelled at its first progress: the handler stopped early",
        "initialize: tasks capability advertised",
        // Each example of `analyze_game`, as a task too.
        "analyze_game (scholars-mate) as a task: the same result as the plain call",
        "analyze_game (empty-pgn) as a task: the same result as the plain call",
        "as a task with a progressToken: taskCreated first",
        "as a task with a progressToken: task statuses working, then completed",
        "as a task with a progressToken: the same result as the plain call",
        "as a task with a progressToken: at least 7 progress notification(s)",
        "as a task with a progressToken: progress increases under one token",
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("ok ") && l.ends_with(check)),
            "{check}: {stdout}"
        );
    }
    stdout
}

#[test]
fn typescript_client_talks_to_the_chess_server_over_stdio() {
    if !harness::client_ready(
        "chess-server/e2e::typescript_client_talks_to_the_chess_server_over_stdio",
    ) {
        return;
    }
    run(
        "chess-server-stdio",
        &plan(json!({"command": env!("CARGO_BIN_EXE_chess-server"), "args": ["--think-ms", "50"]})),
    );
}

#[test]
fn typescript_client_talks_to_the_chess_server_over_http() {
    if !harness::client_ready(
        "chess-server/e2e::typescript_client_talks_to_the_chess_server_over_http",
    ) {
        return;
    }
    let server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_chess-server"),
        &["--http", "127.0.0.1:0", "--think-ms", "50"],
    );
    assert!(server.url.ends_with("/mcp"), "{}", server.url);
    run("chess-server-http", &plan(json!({"url": server.url})));
    // The handler's own account of the early stop, on the server's stderr.
    let stderr = server.stderr();
    assert!(
        stderr.contains("chess-server: analyze_game cancelled after"),
        "{stderr}"
    );
}

/// The plan of the elicitation check: the client declares the elicitation capability
/// and calls `record_game_result` with an unusual result (a decisive game of one full
/// move), answering the server's `elicitation/create` (checked against the
/// `confirm_unusual` declaration's message and `requestedSchema`): first declining,
/// which the description documents as `onDecline: "The result is not recorded."` and
/// the implementation answers with a tool error, then accepting with `{"record": true}`
/// as the `short-decisive-game` interaction example does, which records the result. The
/// ratings the accepted call reports are the first change for those players: the
/// declined call recorded nothing.
fn elicitation_plan(transport: Value) -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess/chess.mcpdesc.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let tool = doc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "record_game_result")
        .unwrap();
    let example = &tool["interactionExamples"]["short-decisive-game"];
    let step = &example["steps"][0];
    assert_eq!(step["declaration"], "confirm_unusual");
    // The step's request is the declaration's message and schema.
    let declaration = &tool["elicitations"][0];
    assert_eq!(step["request"]["message"], declaration["message"]);
    assert_eq!(
        step["request"]["requestedSchema"],
        declaration["requestedSchema"]
    );
    let mut declined = step.clone();
    declined["response"] = json!({"action": "decline"});
    let router = chess_server::router();
    let mut plan = json!({
        "serverName": "chess-server",
        "expectedTools": router.list_tools(ProtocolVersion::V2025_11_25),
        "calls": [],
        "interactions": [
            {
                "label": "declined",
                "tool": "record_game_result",
                "arguments": example["input"],
                "steps": [declined],
                "expectResult": {
                    "content": [{"type": "text", "text": "Not recorded: the unusual result was not confirmed."}],
                    "isError": true
                }
            },
            {
                "label": "short-decisive-game",
                "tool": "record_game_result",
                "arguments": example["input"],
                "steps": example["steps"],
                "expectResult": example["result"]
            }
        ]
    });
    plan.as_object_mut()
        .unwrap()
        .extend(transport.as_object().unwrap().clone());
    plan
}

/// Runs the elicitation plan and checks that both calls got their whole result after
/// every step was requested and matched.
fn run_elicitation(name: &str, plan: &Value) {
    let stdout = harness::run_client(name, plan);
    for label in ["declined", "short-decisive-game"] {
        for check in [
            "every request matched its step",
            "every step was requested",
            "result equals the example result",
        ] {
            let line = format!("ok   tools/call record_game_result (interaction {label}): {check}");
            assert!(stdout.lines().any(|l| l == line), "{line}: {stdout}");
        }
    }
}

#[test]
fn typescript_client_answers_record_game_results_elicitation_over_stdio() {
    if !harness::client_ready(
        "chess-server/e2e::typescript_client_answers_record_game_results_elicitation_over_stdio",
    ) {
        return;
    }
    run_elicitation(
        "chess-server-elicitation-stdio",
        &elicitation_plan(json!({"command": env!("CARGO_BIN_EXE_chess-server"), "args": []})),
    );
}

#[test]
fn typescript_client_answers_record_game_results_elicitation_over_http() {
    if !harness::client_ready(
        "chess-server/e2e::typescript_client_answers_record_game_results_elicitation_over_http",
    ) {
        return;
    }
    let server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_chess-server"),
        &["--http", "127.0.0.1:0"],
    );
    run_elicitation(
        "chess-server-elicitation-http",
        &elicitation_plan(json!({"url": server.url})),
    );
}

/// The elicitation through nginx round robin in front of two stateful instances
/// sharing one Redis: the client's answer to `confirm_unusual` is posted to whichever
/// instance nginx picks, and reaches the handler waiting for it on the other (the
/// session's messages are relayed between instances through Redis).
#[test]
fn typescript_client_answers_record_game_results_elicitation_through_two_stateful_instances() {
    let test = "chess-server/e2e::typescript_client_answers_record_game_results_elicitation_through_two_stateful_instances";
    if !harness::client_ready(test) {
        return;
    }
    let Some(balanced) = balanced::Balanced::start_stateful(test, &[]) else {
        return;
    };
    run_elicitation(
        "chess-server-elicitation-nginx-stateful",
        &elicitation_plan(json!({"url": balanced.url})),
    );
    balanced.assert_each_instance_served();
}

/// nginx (`deploy/nginx.conf`) round-robin in front of two `--stateless`
/// instances (`balanced/mod.rs`, shared with the Python SDK's test in
/// `python_sdk.rs`); the TypeScript client's chess flow through nginx, except the
/// cancellation check (a stateless server sends the handler's log on the request's
/// own stream, which the cancelling client has closed) and tasks (`flow::stateless`:
/// none advertised or listed, a task-augmented call answered plainly). Both
/// instances must have served requests.
#[test]
fn typescript_client_through_nginx_in_front_of_two_stateless_instances() {
    let test =
        "chess-server/e2e::typescript_client_through_nginx_in_front_of_two_stateless_instances";
    if !harness::client_ready(test) {
        return;
    }
    let Some(balanced) = balanced::Balanced::start(test) else {
        return;
    };
    let mut plan = plan(json!({"url": balanced.url}));
    plan.as_object_mut().unwrap().remove("cancelCall");
    // No session, no task (docs/serving.md): no capability, no task support listed,
    // the task-augmented calls answered as plain ones.
    flow::stateless(&mut plan);
    let stdout = harness::run_client("chess-server-nginx", &plan);
    let compared = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && l.ends_with("result equals the example result"))
        .count();
    assert_eq!(compared, 10, "{stdout}");
    for check in [
        "with a progressToken: at least 7 progress notification(s)",
        "initialize: tasks capability absent",
        "tools/list: no tool has execution",
        "tools/list equals the router's projection",
        "analyze_game (scholars-mate): the task-augmented call is answered as the plain call (no tasks capability)",
        "analyze_game (empty-pgn): the task-augmented call is answered as the plain call (no tasks capability)",
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("ok ") && l.ends_with(check)),
            "{check}: {stdout}"
        );
    }
    balanced.assert_each_instance_served();
}

/// The whole flow through nginx round robin in front of two stateful instances that
/// share one Redis (`--redis URL`, `deploy/nginx-stateful.conf`): every request of the
/// session may land on either instance, so the session is restored from Redis on the
/// instance that has not seen it, tasks created on one are read and fetched on the
/// other, and the cancellation sent to one instance stops the handler running on the
/// other. The same checks as over one instance's HTTP ([`run`]). Both instances must
/// have served requests.
#[test]
fn typescript_client_through_nginx_in_front_of_two_stateful_instances_sharing_redis() {
    let test = "chess-server/e2e::typescript_client_through_nginx_in_front_of_two_stateful_instances_sharing_redis";
    if !harness::client_ready(test) {
        return;
    }
    let Some(balanced) = balanced::Balanced::start_stateful(test, &[]) else {
        return;
    };
    run(
        "chess-server-nginx-stateful",
        &plan(json!({"url": balanced.url})),
    );
    balanced.assert_each_instance_served();
}

/// A client offering MCP 2025-06-18 over stdio: the 2025-06-18 declaration of
/// `analyze_game` (no `execution`), no `tasks` capability, and every example of that
/// version answered exactly by plain calls.
#[test]
fn a_2025_06_18_client_sees_no_tasks() {
    if !harness::client_ready("chess-server/e2e::a_2025_06_18_client_sees_no_tasks") {
        return;
    }
    let v = ProtocolVersion::V2025_06_18;
    let doc = flow::description();
    let expected = chess_server::router().list_tools(v);
    let analyze = expected
        .iter()
        .find(|t| t["name"] == "analyze_game")
        .expect("analyze_game listed in 2025-06-18");
    assert_eq!(analyze.get("execution"), None, "{analyze}");
    let plan = json!({
        "command": env!("CARGO_BIN_EXE_chess-server"),
        "protocolVersion": v.as_str(),
        "serverName": "chess-server",
        "expectedTools": expected,
        "calls": flow::calls_in(&doc, v),
        "expectTasksCapability": false,
    });
    let stdout = harness::run_client("chess-server-stdio-2025-06-18", &plan);
    for check in [
        "initialize: tasks capability absent",
        "tools/list: no tool has execution",
        "tools/list equals the router's projection",
        "tools/call analyze_game (scholars-mate): result equals the example result",
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("ok ") && l.ends_with(check)),
            "{check}: {stdout}"
        );
    }
    assert!(!stdout.contains("as a task"), "{stdout}");
}

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
//! session goes on. It also lists the prompts, resources and resource templates (equal
//! to the router's projections), gets the prompt, reads the resource and the template
//! and completes with each example's request (each answer equal to the example's whole
//! result), and sends bad prompt, resource and completion requests (each a JSON-RPC
//! error: -32602, or -32002 for an unknown resource).
//!
//! The server runs with `--think-ms 50` (50 ms per analysed ply) so that a call lasts
//! long enough to be cancelled midway. `tests/e2e/harness.rs` runs the client
//! (installing it when missing; without Node.js the test prints a notice and passes, or
//! fails under `MCPDESC_REQUIRE_NODE=1`).

use flow::plan;
use serde_json::{json, Value};

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

mod balanced;
mod flow;

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
        "at least 7 progress notification(s)",
        "cancelled at its first progress: the handler stopped early",
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

/// nginx (`deploy/nginx.conf`) round-robin in front of two `--stateless`
/// instances (`balanced/mod.rs`, shared with the Python SDK's test in
/// `python_sdk.rs`); the TypeScript client's chess flow through nginx, except the
/// cancellation check (a stateless server sends the handler's log on the request's
/// own stream, which the cancelling client has closed). Both instances must have
/// served requests.
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
    let stdout = harness::run_client("chess-server-nginx", &plan);
    let compared = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && l.ends_with("result equals the example result"))
        .count();
    assert_eq!(compared, 10, "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("ok ") && l.ends_with("at least 7 progress notification(s)")),
        "{stdout}"
    );
    balanced.assert_each_instance_served();
}

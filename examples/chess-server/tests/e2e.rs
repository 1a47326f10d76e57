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
//! error: -32602, or -32002 for an unknown resource).
//!
//! The server runs with `--think-ms 50` (50 ms per analysed ply) so that a call lasts
//! long enough to be cancelled midway. `tests/e2e/harness.rs` runs the client
//! (installing it when missing; without Node.js the test prints a notice and passes, or
//! fails under `MCPDESC_REQUIRE_NODE=1`).

use mcpdesc::ProtocolVersion;
use serde_json::{json, Value};

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

/// 40 plies: at 50 ms each, two seconds of analysis to cancel.
const LONG_GAME: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 \
    7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 \
    14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 \
    20. Nbd2 Nxd6";

/// The description as JSON.
fn description() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess/chess.mcpdesc.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The example calls of the tool declarations that apply to `version` (each
/// protocol-scoped variant of `analyze_game` in its own version).
fn calls_in(doc: &Value, version: ProtocolVersion) -> Vec<Value> {
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

/// The client's plan with `transport` (`{"command", "args"}` or `{"url"}`).
fn plan(transport: Value) -> Value {
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

/// A client offering MCP 2025-06-18 over stdio: the 2025-06-18 declaration of
/// `analyze_game` (no `execution`), no `tasks` capability, and every example of that
/// version answered exactly by plain calls.
#[test]
fn a_2025_06_18_client_sees_no_tasks() {
    if !harness::client_ready("chess-server/e2e::a_2025_06_18_client_sees_no_tasks") {
        return;
    }
    let v = ProtocolVersion::V2025_06_18;
    let doc = description();
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
        "calls": calls_in(&doc, v),
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

/// A free loopback port (bound and released: a small race, fine for a test).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `deploy/nginx.conf` as shipped, with its three ports replaced.
fn nginx_conf(listen: u16, first: u16, second: u16) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/nginx.conf");
    let conf = std::fs::read_to_string(path).unwrap();
    for port in ["127.0.0.1:8080;", "127.0.0.1:8081;", "127.0.0.1:8082;"] {
        assert!(conf.contains(port), "{port} in deploy/nginx.conf");
    }
    conf.replace("127.0.0.1:8080;", &format!("127.0.0.1:{listen};"))
        .replace("127.0.0.1:8081;", &format!("127.0.0.1:{first};"))
        .replace("127.0.0.1:8082;", &format!("127.0.0.1:{second};"))
}

/// nginx (`deploy/nginx.conf`) round-robin in front of two `--stateless`
/// instances; the TypeScript client's chess flow through nginx, except the
/// cancellation check (a stateless server sends the handler's log on the request's
/// own stream, which the cancelling client has closed). Both instances must have
/// served requests.
#[test]
fn typescript_client_through_nginx_in_front_of_two_stateless_instances() {
    let test =
        "chess-server/e2e::typescript_client_through_nginx_in_front_of_two_stateless_instances";
    let Some(nginx) = harness::prereq::program(
        test,
        &["nginx", "/usr/sbin/nginx"],
        &["-v"],
        "apt-get install nginx-light; CI: .ci/setup.d/20-nginx.sh",
    ) else {
        return;
    };
    if !harness::client_ready(test) {
        return;
    }
    let (first_port, second_port, listen) = (free_port(), free_port(), free_port());
    let instances: Vec<_> = [first_port, second_port]
        .iter()
        .map(|port| {
            harness::HttpServerProcess::start_with_env(
                env!("CARGO_BIN_EXE_chess-server"),
                &[
                    "--http",
                    &format!("127.0.0.1:{port}"),
                    "--stateless",
                    "--think-ms",
                    "20",
                ],
                &[("RUST_LOG", "mcpdesc=info")],
            )
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("mcpdesc-nginx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("nginx.conf"),
        nginx_conf(listen, first_port, second_port),
    )
    .unwrap();
    let mut proxy = std::process::Command::new(&nginx)
        .arg("-p")
        .arg(&dir)
        .args(["-c", "nginx.conf", "-e", "stderr"])
        .stdin(std::process::Stdio::null())
        // Not the test's own pipes: nothing may hold them open after the test.
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    /// SIGTERM, not SIGKILL: the master then stops its worker too.
    struct Stop<'a>(&'a mut std::process::Child);
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &self.0.id().to_string()])
                .status();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while std::time::Instant::now() < deadline {
                if let Ok(Some(_)) = self.0.try_wait() {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _stop = Stop(&mut proxy);
    // Wait for nginx to listen.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", listen)).is_err() {
        assert!(std::time::Instant::now() < deadline, "nginx did not start");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }

    let mut plan = plan(json!({"url": format!("http://127.0.0.1:{listen}/mcp")}));
    let fields = plan.as_object_mut().unwrap();
    fields.remove("cancelCall");
    // No session, no task (docs/serving.md): the task-augmented calls are refused.
    fields.remove("taskProgressCall");
    fields.insert("stateless".into(), json!(true));
    let stdout = harness::run_client("chess-server-nginx", &plan);
    let compared = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && l.ends_with("result equals the example result"))
        .count();
    assert_eq!(compared, 10, "{stdout}");
    for check in [
        "with a progressToken: at least 7 progress notification(s)",
        "analyze_game (scholars-mate): the task-augmented call is refused with -32600 (no session)",
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("ok ") && l.ends_with(check)),
            "{check}: {stdout}"
        );
    }
    for instance in &instances {
        let served = instance.stderr().matches("mcp request").count();
        assert!(
            served > 0,
            "an instance served nothing: {}",
            instance.stderr()
        );
    }
}

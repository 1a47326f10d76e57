//! The runtime's MCP client (`mcpdesc::client`) against `mcpdesc serve-mock` over
//! stdio and streamable HTTP, and against scripted servers for the failure modes.
//!
//! - Raw results: `tools/list` is exactly the mock router's listing (members rmcp's
//!   typed `Tool` drops, like `execution`, included), and every Tool Example of the
//!   chess description and of each shared real-world description answers with exactly
//!   the example's result.
//! - Version negotiation: MCP 2026-07-28 through `server/discover`, and the fallback
//!   to `initialize` when the server does not serve it.
//! - JSON-RPC errors apart from results; arguments that break the schema; liveness.
//! - Failures with clear errors: a program that does not exist, a server that exits,
//!   writes garbage, never answers, dies during a session; request timeouts;
//!   pagination loops. A spawned server (and its process group) never outlives its
//!   session.

use std::path::{Path, PathBuf};
use std::time::Duration;

use mcpdesc::client::{ConnectError, Options, RequestError, Session};
use mcpdesc::ProtocolVersion;
use mcpdesc_cli::serve_mock::mock_router;
use mcpdesc_codegen::{Description, Limits};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

#[path = "../../tests/e2e/harness.rs"]
mod harness;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn chess() -> PathBuf {
    root().join("examples/chess/chess.mcpdesc.json")
}

fn eras() -> PathBuf {
    root().join("tests/fixtures/client/eras.mcpdesc.json")
}

/// The chess example and every shared real-world description.
fn described_servers() -> Vec<PathBuf> {
    let mut files = vec![chess()];
    let real_world = root().join("../shared/conformance/real-world");
    for entry in
        std::fs::read_dir(&real_world).unwrap_or_else(|e| panic!("{}: {e}", real_world.display()))
    {
        files.push(entry.unwrap().path());
    }
    files.sort();
    files
}

fn serve_mock(file: &Path) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcpdesc"));
    command.arg("serve-mock").arg(file);
    command
}

fn resolved(file: &Path) -> (Description, Value) {
    let desc = Description::from_path(file, &Limits::default()).unwrap();
    let doc = desc.validation.as_ref().unwrap().resolution.value.clone();
    (desc, doc)
}

/// A whole test within 60 seconds: a hang guard, not a performance check.
async fn bounded<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), future)
        .await
        .expect("the test finishes within 60 s")
}

/// Checks a session to `file`'s mock in 2025-11-25: the raw listing is the router's,
/// and every Tool Example answers with exactly its result.
async fn check_listing_and_examples(session: &Session, file: &Path) {
    let (desc, doc) = resolved(file);
    assert_eq!(session.protocol_version(), ProtocolVersion::V2025_11_25);
    let router = mock_router(&desc, None, &[]).unwrap();
    let listing = session.list_tools().await.unwrap();
    assert_eq!(
        listing.items,
        router.list_tools(ProtocolVersion::V2025_11_25),
        "{}",
        file.display()
    );
    assert_eq!(listing.pages.len(), 1);
    // The other listings, where the description has them.
    let version = ProtocolVersion::V2025_11_25;
    if doc.get("prompts").is_some() {
        let prompts = session.list_prompts().await.unwrap().items;
        assert_eq!(prompts, router.list_prompts(version), "{}", file.display());
    }
    if doc.get("resources").is_some() {
        let resources = session.list_resources().await.unwrap().items;
        assert_eq!(
            resources,
            router.list_resources(version),
            "{}",
            file.display()
        );
    }
    if doc.get("resourceTemplates").is_some() {
        let templates = session.list_resource_templates().await.unwrap().items;
        assert_eq!(
            templates,
            router.list_resource_templates(version),
            "{}",
            file.display()
        );
    }
    let mut calls = 0;
    for tool in doc["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        for (label, example) in tool["examples"].as_object().into_iter().flatten() {
            let result = session
                .call_tool(name, example["input"].clone())
                .await
                .unwrap_or_else(|e| panic!("{name}/{label}: {e}"));
            assert_eq!(
                result,
                example["result"],
                "{}: {name}/{label}",
                file.display()
            );
            calls += 1;
        }
    }
    assert!(calls > 0, "{} has no Tool Examples", file.display());
}

#[tokio::test]
async fn stdio_sessions_get_every_example_result_as_sent() {
    bounded(async {
        for file in described_servers() {
            let session = Options::new()
                .protocol_versions(&[ProtocolVersion::V2025_11_25])
                .stdio(serve_mock(&file))
                .await
                .unwrap();
            assert!(session.is_raw());
            check_listing_and_examples(&session, &file).await;
            assert!(session.is_alive());
            let status = session.close().await.expect("the mock exits");
            assert!(status.success(), "{status}");
        }
    })
    .await;
}

#[tokio::test]
async fn http_sessions_get_every_example_result_as_sent() {
    for file in described_servers() {
        let server = harness::HttpServerProcess::start(
            env!("CARGO_BIN_EXE_mcpdesc"),
            &[
                "serve-mock",
                file.to_str().unwrap(),
                "--http",
                "127.0.0.1:0",
            ],
        );
        bounded(async {
            let session = Options::new()
                .protocol_versions(&[ProtocolVersion::V2025_11_25])
                .http(&server.url)
                .await
                .unwrap_or_else(|e| panic!("{e}\n{}", server.stderr()));
            assert_eq!(session.server(), server.url);
            check_listing_and_examples(&session, &file).await;
            session.close().await;
        })
        .await;
    }
}

/// rmcp's typed `Tool` has no `execution`; the session's listing keeps it.
#[tokio::test]
async fn execution_survives_on_both_transports() {
    let execution = json!({"taskSupport": "forbidden"});
    bounded(async {
        let session = mcpdesc::client::stdio(serve_mock(&eras())).await.unwrap();
        // The default offers MCP 2026-07-28 first; the mock serves it.
        assert_eq!(session.protocol_version(), ProtocolVersion::V2026_07_28);
        session.close().await;

        let session = Options::new()
            .protocol_versions(&[ProtocolVersion::V2025_11_25])
            .stdio(serve_mock(&eras()))
            .await
            .unwrap();
        let tools = session.list_tools().await.unwrap().items;
        assert_eq!(tools.len(), 1);
        assert_eq!(tools[0]["execution"], execution);
        session.close().await;
    })
    .await;

    let server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_mcpdesc"),
        &[
            "serve-mock",
            eras().to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
        ],
    );
    bounded(async {
        let session = Options::new()
            .protocol_versions(&[ProtocolVersion::V2025_11_25])
            .http(&server.url)
            .await
            .unwrap();
        let tools = session.list_tools().await.unwrap().items;
        assert_eq!(tools[0]["execution"], execution);
        session.close().await;
    })
    .await;
}

#[tokio::test]
async fn mcp_2026_07_28_is_negotiated_by_discovery_on_both_transports() {
    let check = |session: Session| async move {
        assert_eq!(session.protocol_version(), ProtocolVersion::V2026_07_28);
        // The handshake result is the `server/discover` answer, as sent.
        let handshake = session.initialize_result();
        assert!(
            handshake["supportedVersions"]
                .as_array()
                .is_some_and(|v| v.contains(&json!("2026-07-28"))),
            "{handshake}"
        );
        let tools = session.list_tools().await.unwrap().items;
        let names: Vec<&Value> = tools.iter().map(|t| &t["name"]).collect();
        assert_eq!(names, [&json!("echo_2026")]);
        let result = session
            .call_tool("echo_2026", json!({"word": "hello"}))
            .await
            .unwrap();
        assert_eq!(result["resultType"], "complete");
        assert_eq!(result["structuredContent"], json!({"echo": "hello"}));
        session.close().await;
    };
    bounded(async {
        let session = Options::new()
            .protocol_versions(&[ProtocolVersion::V2026_07_28])
            .stdio(serve_mock(&eras()))
            .await
            .unwrap();
        check(session).await;
    })
    .await;

    let server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_mcpdesc"),
        &[
            "serve-mock",
            eras().to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
        ],
    );
    bounded(async {
        let session = mcpdesc::client::http(&server.url).await.unwrap();
        check(session).await;
    })
    .await;
}

#[tokio::test]
async fn a_server_without_mcp_2026_07_28_falls_back_to_initialize() {
    bounded(async {
        // chess declares 2025-06-18 and 2025-11-25: discovery is refused.
        let session = mcpdesc::client::stdio(serve_mock(&chess())).await.unwrap();
        assert_eq!(session.protocol_version(), ProtocolVersion::V2025_11_25);
        let handshake = session.initialize_result();
        assert_eq!(handshake["protocolVersion"], "2025-11-25");
        assert_eq!(handshake["serverInfo"]["name"], "chess-server");
        let capabilities = session.server_capabilities().unwrap();
        assert_eq!(capabilities["tools"], json!({}));
        assert_eq!(capabilities["prompts"], json!({}));
        session.close().await;

        // Only versions the server does not serve: a clear error.
        let err = Options::new()
            .protocol_versions(&[ProtocolVersion::V2026_07_28])
            .stdio(serve_mock(&chess()))
            .await
            .unwrap_err();
        let message = err.to_string();
        assert!(message.contains("2025-06-18, 2025-11-25"), "{message}");
    })
    .await;
}

#[tokio::test]
async fn protocol_errors_are_told_apart_from_results() {
    bounded(async {
        let session = Options::new()
            .protocol_versions(&[ProtocolVersion::V2025_11_25])
            .stdio(serve_mock(&chess()))
            .await
            .unwrap();
        // An unknown tool: a JSON-RPC error, code and message.
        let err = session.call_tool("resign", json!({})).await.unwrap_err();
        let protocol = err.protocol_error().expect("a JSON-RPC error");
        assert_eq!(protocol.code, -32602);
        assert!(protocol.message.contains("resign"), "{}", protocol.message);
        assert_eq!(err.method(), "tools/call");

        // Arguments that break the schema are sent as given; the server answers
        // with a tool error, and the session goes on.
        let invalid = session
            .call_tool("analyze_game", json!({"pgn": 42, "depth": "deep"}))
            .await
            .unwrap();
        assert_eq!(invalid["isError"], true, "{invalid}");
        let not_an_object = session.call_tool("analyze_game", json!([1, 2])).await;
        match not_an_object {
            Ok(result) => assert_eq!(result["isError"], true, "{result}"),
            Err(err) => assert!(err.protocol_error().is_some(), "{err}"),
        }
        assert!(session.is_alive());
        // A method the server does not have.
        let err = session
            .request("mcpdesc/no-such-method", None)
            .await
            .unwrap_err();
        assert_eq!(err.protocol_error().map(|e| e.code), Some(-32601), "{err}");
        // Still alive after all of it.
        assert!(session.list_tools().await.is_ok());
        session.ping().await.unwrap();
        session.close().await;
    })
    .await;
}

// ---- scripted servers ---------------------------------------------------------------

/// Connects with `options` to a server on the other end of an in-memory pipe: it
/// answers `initialize` (and refuses `server/discover`), then writes whatever `answer`
/// returns for each other request (raw lines, so that it can misbehave). The messages
/// it gets come out of the returned channel.
async fn scripted<F>(
    options: Options,
    answer: F,
) -> (Session, tokio::sync::mpsc::UnboundedReceiver<Value>)
where
    F: Fn(&Value) -> Vec<String> + Send + 'static,
{
    let (client_side, server_side) = tokio::io::duplex(1 << 16);
    let (seen_tx, seen) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let (read, mut write) = tokio::io::split(server_side);
        let mut lines = BufReader::new(read).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).unwrap();
            let _ = seen_tx.send(message.clone());
            let (Some(id), Some(method)) = (message.get("id"), message["method"].as_str()) else {
                continue;
            };
            let replies = match method {
                "initialize" => vec![json!({"jsonrpc": "2.0", "id": id, "result": {
                    "protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "scripted", "version": "0"},
                    "x-unknown-member": true
                }})
                .to_string()],
                "server/discover" => vec![json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32601, "message": "Method not found"}})
                .to_string()],
                _ => answer(&message),
            };
            for reply in replies {
                if write
                    .write_all(format!("{reply}\n").as_bytes())
                    .await
                    .is_err()
                {
                    return;
                }
            }
        }
    });
    let (read, write) = tokio::io::split(client_side);
    (options.io(read, write).await.unwrap(), seen)
}

fn reply(request: &Value, result: Value) -> Vec<String> {
    vec![json!({"jsonrpc": "2.0", "id": request["id"], "result": result}).to_string()]
}

#[tokio::test]
async fn listings_follow_every_page_and_keep_unknown_members() {
    bounded(async {
        let (session, _seen) = scripted(Options::new(), |request| {
            let cursor = request["params"]["cursor"].as_str();
            match (request["method"].as_str().unwrap(), cursor) {
                ("tools/list", None) => reply(
                    request,
                    json!({
                        "tools": [{"name": "a", "inputSchema": {"type": "object"},
                                   "execution": {"taskSupport": "optional"}, "x-extra": 1}],
                        "nextCursor": "page-2"
                    }),
                ),
                ("tools/list", Some("page-2")) => reply(
                    request,
                    json!({
                        "tools": [{"name": "b", "inputSchema": {"type": "object"}}],
                        "_meta": {"last": true}
                    }),
                ),
                ("resources/list", _) => {
                    reply(request, json!({"resources": [], "nextCursor": "again"}))
                }
                ("prompts/list", _) => reply(request, json!({"prompts": "none"})),
                _ => vec![],
            }
        })
        .await;
        // The handshake result as sent, unknown members included.
        assert_eq!(session.initialize_result()["x-unknown-member"], true);

        let tools = session.list_tools().await.unwrap();
        assert_eq!(tools.items.len(), 2);
        assert_eq!(
            tools.items[0]["execution"],
            json!({"taskSupport": "optional"})
        );
        assert_eq!(tools.items[0]["x-extra"], 1);
        assert_eq!(tools.pages.len(), 2);
        assert_eq!(tools.pages[1]["_meta"], json!({"last": true}));

        match session.list_resources().await.unwrap_err() {
            RequestError::InvalidResult {
                method, message, ..
            } => {
                assert_eq!(method, "resources/list");
                assert!(message.contains("`again`"), "{message}");
            }
            other => panic!("expected a pagination loop, got {other}"),
        }
        match session.list_prompts().await.unwrap_err() {
            RequestError::InvalidResult { message, .. } => {
                assert_eq!(message, "the page has no `prompts` array")
            }
            other => panic!("expected a malformed page, got {other}"),
        }
    })
    .await;
}

#[tokio::test]
async fn a_request_without_an_answer_times_out_and_is_cancelled() {
    bounded(async {
        let options = Options::new().request_timeout(Duration::from_millis(300));
        let (session, mut seen) = scripted(options, |request| {
            match request["method"].as_str().unwrap() {
                "tools/call" => vec![], // never answered
                "prompts/get" => vec![json!({"jsonrpc": "2.0", "id": request["id"], "error":
                    {"code": -32602, "message": "Unknown prompt", "data": {"name": "x"}}})
                .to_string()],
                _ => reply(request, json!({})),
            }
        })
        .await;
        let err = session.call_tool("slow", json!({})).await.unwrap_err();
        assert!(matches!(err, RequestError::Timeout { .. }), "{err}");
        assert_eq!(err.to_string(), "`tools/call` got no answer within 0.3 s");
        // The server was told.
        let call_id = loop {
            let message = seen.recv().await.unwrap();
            if message["method"] == "tools/call" {
                break message["id"].clone();
            }
        };
        loop {
            let message = seen.recv().await.unwrap();
            if message["method"] == "notifications/cancelled" {
                assert_eq!(message["params"]["requestId"], call_id);
                break;
            }
        }
        // A JSON-RPC error keeps its code, message and data.
        let err = session.get_prompt("x", json!({})).await.unwrap_err();
        let protocol = err.protocol_error().unwrap();
        assert_eq!(
            (protocol.code, protocol.message.as_str(), &protocol.data),
            (-32602, "Unknown prompt", &Some(json!({"name": "x"})))
        );
        assert!(session.is_alive());
    })
    .await;
}

#[tokio::test]
async fn garbage_after_the_handshake_ends_the_session_with_its_line() {
    bounded(async {
        let (session, _seen) =
            scripted(
                Options::new(),
                |_| vec!["Listening on port 3000".to_owned()],
            )
            .await;
        let err = session.call_tool("x", json!({})).await.unwrap_err();
        assert!(matches!(err, RequestError::Disconnected { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            "`tools/call` got no answer: the server wrote a line that is not a JSON-RPC \
             message: `Listening on port 3000` on stdout"
        );
        assert!(!session.is_alive());

        // Tolerated, the line is kept and the session goes on.
        let options = Options::new().tolerate_stdout_noise(true);
        let (session, _seen) = scripted(options, |request| {
            let mut lines = vec!["debug: called".to_owned()];
            lines.extend(reply(request, json!({"content": []})));
            lines
        })
        .await;
        assert_eq!(
            session.call_tool("x", json!({})).await.unwrap(),
            json!({"content": []})
        );
        assert_eq!(session.stdout_noise(), ["debug: called"]);
    })
    .await;
}

#[cfg(unix)]
mod processes {
    use super::*;

    fn sh(script: &str) -> tokio::process::Command {
        let mut command = tokio::process::Command::new("sh");
        command.arg("-c").arg(script);
        command
    }

    #[tokio::test]
    async fn a_program_that_does_not_exist_is_named() {
        let command = tokio::process::Command::new("mcpdesc-no-such-server");
        let err = mcpdesc::client::stdio(command).await.unwrap_err();
        assert!(matches!(err, ConnectError::Spawn { .. }), "{err:?}");
        assert!(
            err.to_string()
                .starts_with("could not start the MCP server `mcpdesc-no-such-server`: "),
            "{err}"
        );
    }

    #[tokio::test]
    async fn a_server_that_exits_is_reported_with_its_status_and_stderr() {
        let err = bounded(mcpdesc::client::stdio(sh(
            "echo 'cannot open database' >&2; exit 3",
        )))
        .await
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "the MCP server `sh -c echo 'cannot open database' >&2; exit 3` exited (exit \
             status: 3) before the handshake completed; its stderr ended with:\ncannot open database"
        );
    }

    #[tokio::test]
    async fn garbage_on_stdout_is_reported_with_the_line() {
        let err = bounded(mcpdesc::client::stdio(sh("echo 'Server ready!'; sleep 30")))
            .await
            .unwrap_err();
        assert!(matches!(err, ConnectError::NotJsonRpc { .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            "the MCP server `sh -c echo 'Server ready!'; sleep 30` wrote a line that is not a \
             JSON-RPC message: `Server ready!` on stdout"
        );
    }

    #[tokio::test]
    async fn a_server_that_never_answers_times_out_and_is_killed() {
        let dir = tempdir("never-answers");
        let pid_file = dir.join("pid");
        let script = format!("echo $$ > {}; exec sleep 60", pid_file.display());
        let started = std::time::Instant::now();
        let err = Options::new()
            .connect_timeout(Duration::from_millis(500))
            .stdio(sh(&script))
            .await
            .unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(matches!(err, ConnectError::Timeout { .. }), "{err:?}");
        assert!(
            err.to_string()
                .ends_with("did not complete the handshake within 0.5 s"),
            "{err}"
        );
        let pid: u32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(
            gone_within(pid, Duration::from_secs(5)).await,
            "pid {pid} still runs"
        );
    }

    #[tokio::test]
    async fn a_server_that_dies_during_the_session_is_reported() {
        bounded(async {
            let session = Options::new()
                .protocol_versions(&[ProtocolVersion::V2025_11_25])
                .stdio(serve_mock(&chess()))
                .await
                .unwrap();
            let pid = session.process_id().unwrap();
            kill(pid);
            assert!(gone_within(pid, Duration::from_secs(5)).await);
            let err = session.list_tools().await.unwrap_err();
            assert!(matches!(err, RequestError::Disconnected { .. }), "{err:?}");
            assert!(
                err.to_string()
                    .starts_with("`tools/list` got no answer: the server exited (signal: 9"),
                "{err}"
            );
            assert!(!session.is_alive());
            assert!(session.exit_status().is_some());
        })
        .await;
    }

    /// The server is a grandchild (a shell script starting it, like `npx`): dropping
    /// the session ends the whole process group.
    #[tokio::test]
    async fn dropping_the_session_ends_the_process_group() {
        let dir = tempdir("group");
        let pid_file = dir.join("pid");
        let script = format!(
            "sleep 300 & echo $! > {}; exec {} serve-mock {}",
            pid_file.display(),
            env!("CARGO_BIN_EXE_mcpdesc"),
            chess().display()
        );
        let session = bounded(mcpdesc::client::stdio(sh(&script))).await.unwrap();
        let server = session.process_id().unwrap();
        let sleeper: u32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(!gone_within(sleeper, Duration::ZERO).await);
        drop(session);
        assert!(
            gone_within(server, Duration::from_secs(5)).await,
            "the server still runs"
        );
        assert!(
            gone_within(sleeper, Duration::from_secs(5)).await,
            "its child still runs"
        );
    }

    #[tokio::test]
    async fn close_ends_a_server_that_ignores_its_closed_stdin() {
        let session = Options::new()
            .close_grace(Duration::from_millis(200))
            .protocol_versions(&[ProtocolVersion::V2025_11_25])
            .stdio(sh(&format!(
                "trap '' TERM; {} serve-mock {}; sleep 60",
                env!("CARGO_BIN_EXE_mcpdesc"),
                chess().display()
            )))
            .await
            .unwrap();
        let pid = session.process_id().unwrap();
        let started = std::time::Instant::now();
        let status = session.close().await;
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(gone_within(pid, Duration::from_secs(5)).await);
        // SIGTERM was ignored: SIGKILL ended it.
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.and_then(|s| s.signal()), Some(9));
    }

    fn kill(pid: u32) {
        std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
    }

    /// Whether `pid` is gone (or a zombie) within `within`.
    async fn gone_within(pid: u32, within: Duration) -> bool {
        let deadline = std::time::Instant::now() + within;
        loop {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status"));
            let gone = match status {
                Err(_) => true,
                Ok(text) => text
                    .lines()
                    .any(|l| l.starts_with("State:") && l.contains('Z')),
            };
            if gone || std::time::Instant::now() >= deadline {
                return gone;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn tempdir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mcpdesc-client-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}

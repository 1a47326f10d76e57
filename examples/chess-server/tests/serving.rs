//! `chess-server --http` as an operator runs it: the axum application's
//! `/healthz` and `/readyz` (503 while draining), the `Origin` check, a session that hibernates
//! (`--hibernate-after-s`) and answers when called again, and a drain on SIGTERM
//! that lets a progress-reporting `analyze_game` (`--think-ms 200`) deliver its whole
//! result before the process exits 0. A raw HTTP/1.1 client on `std::net`, so that the
//! bytes on the wire are what is checked.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

/// One request on its own connection (`Connection: close`); the raw response.
fn exchange(url: &str, method: &str, headers: &[(&str, &str)], body: &str) -> String {
    let mut stream = open(url, method, headers, body);
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

/// Sends one request; the connection, to read its response from.
fn open(url: &str, method: &str, headers: &[(&str, &str)], body: &str) -> TcpStream {
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, _) = rest.split_once('/').unwrap();
    let path = url.strip_prefix("http://").unwrap()[authority.len()..].to_owned();
    let mut stream = TcpStream::connect(authority).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    stream
}

fn status(response: &str) -> u16 {
    response[9..12].parse().unwrap()
}

fn session_of(response: &str) -> String {
    response
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .starts_with("mcp-session-id:")
                .then(|| l[15..].trim().to_owned())
        })
        .unwrap_or_else(|| panic!("no session in {response}"))
}

/// `initialize` and `notifications/initialized`; the session id.
fn initialize(url: &str) -> String {
    let init = exchange(
        url,
        "POST",
        &[],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "serving-test", "version": "1"}}})
        .to_string(),
    );
    assert_eq!(status(&init), 200, "{init}");
    let session = session_of(&init);
    let done = exchange(
        url,
        "POST",
        &[
            ("Mcp-Session-Id", &session),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    );
    assert_eq!(status(&done), 202, "{done}");
    session
}

#[test]
fn healthz_and_the_origin_check() {
    let server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_chess-server"),
        &[
            "--http",
            "127.0.0.1:0",
            "--allowed-origin",
            "http://inspector.example:6274",
        ],
    );
    let health_url = server.url.replace("/mcp", "/healthz");
    let health = exchange(&health_url, "GET", &[], "");
    assert_eq!(status(&health), 200, "{health}");
    assert!(health.ends_with("\r\n\r\nok"), "{health}");
    let ready = exchange(&server.url.replace("/mcp", "/readyz"), "GET", &[], "");
    assert_eq!(status(&ready), 200, "{ready}");

    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    let foreign = exchange(
        &server.url,
        "POST",
        &[("Origin", "http://evil.example")],
        &body,
    );
    assert_eq!(status(&foreign), 403, "{foreign}");
    let preflight = exchange(
        &server.url,
        "OPTIONS",
        &[
            ("Origin", "http://inspector.example:6274"),
            ("Access-Control-Request-Method", "POST"),
        ],
        "",
    );
    assert_eq!(status(&preflight), 204, "{preflight}");
    assert!(
        preflight
            .to_ascii_lowercase()
            .contains("access-control-allow-origin: http://inspector.example:6274"),
        "{preflight}"
    );
}

#[test]
fn an_idle_session_hibernates_and_answers_when_called_again() {
    let server = harness::HttpServerProcess::start_with_env(
        env!("CARGO_BIN_EXE_chess-server"),
        &["--http", "127.0.0.1:0", "--hibernate-after-s", "1"],
        // rmcp says when it restores a session from the dormant state.
        &[("RUST_LOG", "rmcp::transport::streamable_http_server=debug")],
    );
    let session = initialize(&server.url);
    let call = |id: u32| {
        let response = exchange(
            &server.url,
            "POST",
            &[
                ("Mcp-Session-Id", &session),
                ("MCP-Protocol-Version", "2025-11-25"),
            ],
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                "name": "get_player_rating", "arguments": {"player_id": "magnus"}}})
            .to_string(),
        );
        assert_eq!(status(&response), 200, "{response}");
        assert!(response.contains(r#""result":{"content""#), "{response}");
    };
    // Each pause is longer than `--hibernate-after-s`: one of them (normally the
    // first) ends with a restore; the session answers after every one.
    let restored = (1..=10).any(|id| {
        std::thread::sleep(Duration::from_millis(1500));
        call(id);
        server
            .stderr()
            .contains("session restored from external store")
    });
    assert!(restored, "no restore: {}", server.stderr());
}

#[cfg(unix)]
#[test]
fn sigterm_drains_a_call_in_flight_and_exits_0() {
    let mut server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_chess-server"),
        &["--http", "127.0.0.1:0", "--think-ms", "200"],
    );
    let session = initialize(&server.url);
    // 8 plies at 200 ms: 1.6 s of analysis, progress after each ply.
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "analyze_game",
        "arguments": {"pgn": "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#"},
        "_meta": {"progressToken": "drain"}}})
    .to_string();
    let mut stream = open(
        &server.url,
        "POST",
        &[
            ("Mcp-Session-Id", &session),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        &call,
    );
    // Read until the first progress notification, then SIGTERM.
    let mut seen = Vec::new();
    let mut chunk = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains("notifications/progress") {
        let n = stream.read(&mut chunk).unwrap();
        assert!(n > 0, "{}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&chunk[..n]);
    }
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // While the call drains, the instance is alive but no longer ready.
    let ready_url = server.url.replace("/mcp", "/readyz");
    let deadline = std::time::Instant::now() + Duration::from_secs(1);
    let ready = loop {
        let ready = exchange(&ready_url, "GET", &[], "");
        if status(&ready) == 503 || std::time::Instant::now() > deadline {
            break ready;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status(&ready), 503, "{ready}");
    assert!(ready.ends_with("\r\n\r\ndraining"), "{ready}");
    let health = exchange(&server.url.replace("/mcp", "/healthz"), "GET", &[], "");
    assert_eq!(status(&health), 200, "{health}");
    stream.read_to_end(&mut seen).unwrap();
    let response = String::from_utf8_lossy(&seen).into_owned();
    let answer: Value = response
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .find(|m| m["id"] == 7)
        .unwrap_or_else(|| panic!("no answer in {response}"));
    assert!(
        answer["result"]["structuredContent"].is_object(),
        "{answer}"
    );
    let progress = response.matches("notifications/progress").count();
    assert!(
        progress >= 7,
        "{progress} progress notifications: {response}"
    );
    let exit = server
        .wait_exit(Duration::from_secs(20))
        .expect("the server exits after draining");
    assert_eq!(exit.code(), Some(0), "{}", server.stderr());
    assert!(server.stderr().contains("draining"), "{}", server.stderr());
    assert!(
        server
            .stderr()
            .contains("drained: 0 request(s) cut, 0 task(s) finished, 0 task(s) failed"),
        "{}",
        server.stderr()
    );
}

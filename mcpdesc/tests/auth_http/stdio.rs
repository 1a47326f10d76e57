//! stdio is trusted (its client started the process); other transports fail closed.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::games::{games_router, Counters};

/// Plays `requests` after `initialize` in a raw newline-delimited session with
/// `server` (as on stdio) and returns the answers by id.
async fn raw_session(server: mcpdesc::McpServer, requests: &[Value]) -> Vec<Value> {
    use mcpdesc::rmcp::ServiceExt;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (server_io, client_io) = tokio::io::duplex(256 * 1024);
    tokio::spawn(async move {
        let running = server.into_service().serve(server_io).await?;
        running.waiting().await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    });
    let (read, mut write) = tokio::io::split(client_io);
    let mut lines = BufReader::new(read).lines();
    let mut messages = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (i, request) in requests.iter().enumerate() {
        let mut request = request.clone();
        request["jsonrpc"] = json!("2.0");
        request["id"] = json!(i + 1);
        messages.push(request);
    }
    for message in messages {
        write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    let mut answers = vec![Value::Null; requests.len() + 1];
    let mut missing = answers.len();
    let read_all = async {
        while missing > 0 {
            let line = lines
                .next_line()
                .await
                .unwrap()
                .expect("the server answers");
            let message: Value = serde_json::from_str(&line).unwrap();
            if let Some(id) = message["id"].as_u64() {
                answers[id as usize] = message;
                missing -= 1;
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(20), read_all)
        .await
        .expect("answers within 20 s");
    answers
}

#[tokio::test]
async fn stdio_is_trusted_and_other_transports_fail_closed() {
    let call =
        [json!({"method": "tools/call", "params": {"name": "record_game", "arguments": {}}})];
    // What `serve_stdio` serves: not enforced, no principal.
    let counters = Arc::new(Counters::default());
    let trusted = mcpdesc::McpServer::new(games_router(&counters)).trusted_transport();
    let answers = raw_session(trusted, &call).await;
    assert_eq!(
        answers[1]["result"]["content"][0]["text"], "anonymous",
        "{}",
        answers[1]
    );
    assert_eq!(counters.record.load(Ordering::SeqCst), 1);

    // Another rmcp transport without `mcpdesc::http` in front: no credentials, so
    // the protected tool is refused and does not run.
    let counters = Arc::new(Counters::default());
    let answers = raw_session(mcpdesc::McpServer::new(games_router(&counters)), &call).await;
    assert_eq!(
        answers[1]["error"]["code"],
        mcpdesc::auth::FORBIDDEN_CODE,
        "{}",
        answers[1]
    );
    assert_eq!(answers[1]["error"]["data"]["status"], 401);
    assert_eq!(counters.record.load(Ordering::SeqCst), 0);
}

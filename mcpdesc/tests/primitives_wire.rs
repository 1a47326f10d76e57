//! Prompts, resources, resource templates and completions on the wire: raw JSON-RPC
//! sessions (newline-delimited, as on stdio) against `McpServer`, reading the answers
//! as a client reads them, and an rmcp client in a 2026-07-28 session.

#![cfg(feature = "rmcp")]

use std::time::Duration;

use mcpdesc::rmcp::model::{ErrorCode, ReadResourceRequestParams};
use mcpdesc::rmcp::{ClientLifecycleMode, ClientServiceExt, ServiceError, ServiceExt};
use mcpdesc::{
    CompletionResult, CompletionTarget, McpServer, PromptMessage, PromptResult, PromptSpec,
    ProtocolVersion, RequestError, ResourceResult, ResourceTemplateSpec, Router, ServerInfo,
};
use serde_json::{json, Value};

const BRIEF: PromptSpec = PromptSpec::new(
    "brief",
    &[],
    r#"{"name": "brief", "arguments": [{"name": "city", "title": "City", "required": true}], "tags": ["t"]}"#,
);
const GAME: ResourceTemplateSpec = ResourceTemplateSpec::new(
    "chess://games/{id}",
    &[],
    r#"{"uriTemplate": "chess://games/{id}", "name": "game", "title": "Game"}"#,
);

fn router() -> Router {
    let info = ServerInfo {
        protocol_versions: &[
            ProtocolVersion::V2025_03_26,
            ProtocolVersion::V2025_11_25,
            ProtocolVersion::V2026_07_28,
        ],
        capabilities: Some(
            r#"[{"prompts": {"listChanged": true}, "resources": {"subscribe": true}}]"#,
        ),
        ..ServerInfo::new("wire", "1.0.0")
    };
    Router::new(info)
        .prompt(BRIEF, |args, _cx| {
            Box::pin(async move {
                let city = args["city"].as_str().unwrap_or_default().to_owned();
                Ok(PromptResult::new(vec![PromptMessage::user(format!(
                    "Brief {city}"
                ))]))
            })
        })
        .resource_template(GAME, |uri, variables, _cx| {
            Box::pin(async move {
                match variables["id"].as_str() {
                    Some("gone") => Err(RequestError::resource_not_found(&uri)),
                    Some(id) => Ok(ResourceResult::text(uri.clone(), "text/plain", id)),
                    None => Err(RequestError::new("no id")),
                }
            })
        })
        .completion(CompletionTarget::prompt("brief"), &[], |request, _cx| {
            Box::pin(async move {
                Ok(CompletionResult::new(vec![format!(
                    "{}aris",
                    request.value
                )]))
            })
        })
}

/// Plays `requests` after `initialize` (with `version`) in a raw session and returns
/// the answers by id (the `initialize` answer under id 0).
async fn raw_session(version: &str, requests: &[Value]) -> Vec<Value> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (server_io, client_io) = tokio::io::duplex(256 * 1024);
    tokio::spawn(async move {
        let running = McpServer::new(router())
            .into_service()
            .serve(server_io)
            .await?;
        running.waiting().await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    });
    let (read, mut write) = tokio::io::split(client_io);
    let mut lines = BufReader::new(read).lines();
    let mut messages = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "0.0.1"}}}),
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
    answers
}

async fn with_timeout<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), future)
        .await
        .expect("the session finishes within 30 s")
}

#[tokio::test]
async fn a_2025_11_25_session_on_the_wire() {
    let answers = with_timeout(raw_session(
        "2025-11-25",
        &[
            json!({"method": "prompts/list"}),
            json!({"method": "prompts/get", "params": {"name": "brief", "arguments": {"city": "Paris"}}}),
            json!({"method": "prompts/get", "params": {"name": "brief", "arguments": {}}}),
            json!({"method": "resources/templates/list"}),
            json!({"method": "resources/read", "params": {"uri": "chess://games/42"}}),
            json!({"method": "resources/read", "params": {"uri": "chess://players/42"}}),
            json!({"method": "resources/read", "params": {"uri": "chess://games/%zz"}}),
            json!({"method": "resources/read", "params": {"uri": "chess://games/gone"}}),
            json!({"method": "completion/complete", "params": {
                "ref": {"type": "ref/prompt", "name": "brief"}, "argument": {"name": "city", "value": "P"}}}),
            json!({"method": "completion/complete", "params": {
                "ref": {"type": "ref/prompt", "name": "brief"}, "argument": {"name": "country", "value": "F"}}}),
            json!({"method": "prompts/list"}),
        ],
    ))
    .await;
    // Capabilities: declared and served, with the declared listChanged and subscribe.
    assert_eq!(
        answers[0]["result"]["capabilities"],
        json!({"prompts": {"listChanged": true}, "resources": {"subscribe": true}, "completions": {}})
    );
    // The argument title (2025-06-18 and later) reaches the client; `tags` does not.
    assert_eq!(
        answers[1]["result"]["prompts"],
        json!([{"name": "brief", "arguments": [{"name": "city", "title": "City", "required": true}]}])
    );
    assert_eq!(
        answers[2]["result"],
        json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Brief Paris"}}]})
    );
    assert_eq!(answers[3]["error"]["code"], -32602, "{}", answers[3]);
    assert_eq!(
        answers[4]["result"]["resourceTemplates"],
        json!([{"uriTemplate": "chess://games/{id}", "name": "game", "title": "Game"}])
    );
    assert_eq!(
        answers[5]["result"],
        json!({"contents": [{"uri": "chess://games/42", "mimeType": "text/plain", "text": "42"}]})
    );
    assert_eq!(answers[6]["error"]["code"], -32002, "{}", answers[6]);
    assert_eq!(
        answers[6]["error"]["data"],
        json!({"uri": "chess://players/42"})
    );
    assert_eq!(answers[7]["error"]["code"], -32602, "{}", answers[7]);
    assert_eq!(answers[8]["error"]["code"], -32002, "{}", answers[8]);
    assert_eq!(
        answers[9]["result"],
        json!({"completion": {"values": ["Paris"]}})
    );
    assert_eq!(answers[10]["error"]["code"], -32602, "{}", answers[10]);
    // Still serving after the errors.
    assert_eq!(answers[11]["result"], answers[1]["result"]);
}

#[tokio::test]
async fn an_older_session_gets_the_older_shapes() {
    let answers = with_timeout(raw_session(
        "2025-03-26",
        &[
            json!({"method": "prompts/list"}),
            json!({"method": "resources/templates/list"}),
        ],
    ))
    .await;
    assert_eq!(answers[0]["result"]["protocolVersion"], "2025-03-26");
    assert_eq!(
        answers[1]["result"]["prompts"],
        json!([{"name": "brief", "arguments": [{"name": "city", "required": true}]}])
    );
    assert_eq!(
        answers[2]["result"]["resourceTemplates"],
        json!([{"uriTemplate": "chess://games/{id}", "name": "game"}])
    );
}

#[tokio::test]
async fn a_2026_session_gets_result_types_cache_hints_and_invalid_params() {
    with_timeout(async {
        let (server_io, client_io) = tokio::io::duplex(256 * 1024);
        tokio::spawn(async move {
            let running = McpServer::new(router())
                .into_service()
                .serve(server_io)
                .await?;
            running.waiting().await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
        });
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![mcpdesc::rmcp::model::ProtocolVersion::V_2026_07_28],
        };
        let client =
            ().serve_with_lifecycle(client_io, lifecycle)
                .await
                .expect("the client connects");
        let read = client
            .read_resource(ReadResourceRequestParams::new("chess://games/7"))
            .await
            .unwrap();
        let read = serde_json::to_value(read).unwrap();
        assert_eq!(
            (&read["resultType"], &read["ttlMs"], &read["cacheScope"]),
            (&json!("complete"), &json!(0), &json!("private")),
            "{read}"
        );
        match client
            .read_resource(ReadResourceRequestParams::new("chess://players/7"))
            .await
        {
            Err(ServiceError::McpError(e)) => assert_eq!(e.code, ErrorCode::INVALID_PARAMS),
            other => panic!("expected invalid params, got {other:?}"),
        }
        client.cancel().await.unwrap();
    })
    .await;
}

//! The games server over HTTP: 401 with `resource_metadata`, unknown tokens, scopes per
//! tool (the refused handler never runs: counters), Protected Resource Metadata,
//! malformed and misplaced credentials, oversized headers, a router without an
//! authenticator.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use hyper::StatusCode;
use mcpdesc::http::HttpServer;
use mcpdesc::{Router, ServerInfo, ToolResult};
use serde_json::json;

use crate::games::{games_router, Counters, GAMES_SECURITY, LIST_GAMES};
use crate::support::{start, VERSIONS};
use crate::wire::{send, Client};

#[tokio::test]
async fn no_token_gets_401_with_the_metadata_url() {
    let counters = Arc::new(Counters::default());
    let addr = start(HttpServer::new(games_router(&counters))).await;
    let reply = Client::new(addr).initialize().await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        reply.challenges(),
        [format!(
            r#"Bearer scope="games:read", resource_metadata="http://{addr}/.well-known/oauth-protected-resource/mcp""#
        )]
    );
    assert_eq!(reply.json()["error"], "unauthorized");
    // Not even a tool call without initialize reaches rmcp.
    let call = Client::new(addr).call_tool(1, "list_games").await;
    assert_eq!(call.status, StatusCode::UNAUTHORIZED);
    assert_eq!(counters.list.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn an_unknown_token_gets_401_invalid_token() {
    let counters = Arc::new(Counters::default());
    let addr = start(HttpServer::new(games_router(&counters))).await;
    let reply = Client::bearer(addr, "who-knows").initialize().await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    let challenge = &reply.challenges()[0];
    assert!(
        challenge.starts_with(r#"Bearer error="invalid_token""#),
        "{challenge}"
    );
    assert!(challenge.contains("resource_metadata="), "{challenge}");
    assert_eq!(reply.json()["error"], "invalid_token");
    assert!(!reply.body.contains("who-knows"));
}

#[tokio::test]
async fn a_read_token_runs_the_read_tool_and_not_the_write_tool() {
    let counters = Arc::new(Counters::default());
    let addr = start(HttpServer::new(games_router(&counters))).await;
    let mut reader = Client::bearer(addr, "reader-token");
    assert_eq!(reader.initialize().await.status, StatusCode::OK);
    assert_eq!(
        reader.tool_text(1, "list_games").await,
        "reader [games:read]"
    );

    let refused = reader.call_tool(2, "record_game").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{refused:?}");
    assert_eq!(
        refused.challenges(),
        [format!(
            r#"Bearer error="insufficient_scope", scope="games:write", resource_metadata="http://{addr}/.well-known/oauth-protected-resource/mcp""#
        )]
    );
    assert_eq!(refused.json()["error"], "insufficient_scope");
    assert_eq!(counters.list.load(Ordering::SeqCst), 1);
    assert_eq!(
        counters.record.load(Ordering::SeqCst),
        0,
        "the write tool ran"
    );

    // The lists are not filtered: the reader sees the write tool it may not call.
    let listed = reader
        .post(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}))
        .await
        .answer(3);
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["list_games", "record_game"]);
}

#[tokio::test]
async fn a_token_with_both_scopes_runs_both_tools() {
    let counters = Arc::new(Counters::default());
    let addr = start(HttpServer::new(games_router(&counters))).await;
    let mut both = Client::bearer(addr, "both-token");
    assert_eq!(both.initialize().await.status, StatusCode::OK);
    assert_eq!(
        both.tool_text(1, "list_games").await,
        "both [games:read games:write]"
    );
    assert_eq!(
        both.tool_text(2, "record_game").await,
        "both [games:read games:write]"
    );
    assert_eq!(counters.list.load(Ordering::SeqCst), 1);
    assert_eq!(counters.record.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_write_only_token_may_connect_and_write_but_not_read() {
    let counters = Arc::new(Counters::default());
    let addr = start(HttpServer::new(games_router(&counters))).await;
    let mut writer = Client::bearer(addr, "writer-token");
    assert_eq!(writer.initialize().await.status, StatusCode::OK);
    assert_eq!(
        writer.tool_text(1, "record_game").await,
        "writer [games:write]"
    );
    let refused = writer.call_tool(2, "list_games").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(refused.challenges()[0].contains(r#"scope="games:read""#));
    assert_eq!(counters.list.load(Ordering::SeqCst), 0);

    // A token that can do nothing is refused at once, asking for the basic scope.
    let nobody = Client::bearer(addr, "no-scope-token").initialize().await;
    assert_eq!(nobody.status, StatusCode::FORBIDDEN);
    assert!(nobody.challenges()[0].contains(r#"error="insufficient_scope", scope="games:read""#));
}

#[tokio::test]
async fn protected_resource_metadata_lists_both_scopes() {
    let counters = Arc::new(Counters::default());
    let addr = start(HttpServer::new(games_router(&counters))).await;
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let reply = send(addr, "GET", path, &[], Vec::new()).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert_eq!(
            reply.headers.get("access-control-allow-origin").unwrap(),
            "*"
        );
        assert_eq!(
            reply.json(),
            json!({
                "resource": format!("http://{addr}/mcp"),
                "authorization_servers": ["https://auth.games.example"],
                "scopes_supported": ["games:read", "games:write"],
                "bearer_methods_supported": ["header"],
                "resource_name": "games"
            })
        );
    }
    let other = send(
        addr,
        "GET",
        "/.well-known/oauth-protected-resource/elsewhere",
        &[],
        Vec::new(),
    )
    .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn metadata_overrides_in_code() {
    let counters = Arc::new(Counters::default());
    let server = HttpServer::new(games_router(&counters))
        .resource_url("https://games.example.com/mcp")
        .authorization_servers(["https://login.example.com/tenant"]);
    let addr = start(server).await;
    let reply = send(
        addr,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        &[],
        Vec::new(),
    )
    .await;
    let metadata = reply.json();
    assert_eq!(metadata["resource"], "https://games.example.com/mcp");
    assert_eq!(
        metadata["authorization_servers"],
        json!(["https://login.example.com/tenant"])
    );
    let refused = Client::new(addr).initialize().await;
    assert!(refused.challenges()[0].contains(
        r#"resource_metadata="https://games.example.com/.well-known/oauth-protected-resource/mcp""#
    ));
}

#[tokio::test]
async fn malformed_and_misplaced_credentials_get_401_and_run_nothing() {
    let counters = Arc::new(Counters::default());
    let addr = start(HttpServer::new(games_router(&counters))).await;
    let mut good = Client::bearer(addr, "both-token");
    assert_eq!(good.initialize().await.status, StatusCode::OK);
    let session = good.session.clone();
    for bad in [
        vec![("authorization", "Bearer")],
        vec![("authorization", "Bearer both-token extra")],
        vec![("authorization", "Bearer bo\"th")],
        vec![("authorization", "bearer")],
        vec![("authorization", "Basic Ym90aDp0b2tlbg==")],
        vec![("authorization", "Token both-token")],
        vec![("authorization", "both-token")],
        vec![
            ("authorization", "Bearer both-token"),
            ("authorization", "Bearer both-token"),
        ],
    ] {
        let mut client = Client::new(addr);
        client.session = session.clone();
        for (name, value) in &bad {
            client = client.header(name, value);
        }
        let reply = client.call_tool(7, "record_game").await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{bad:?}: {reply:?}");
        assert!(
            reply.challenges()[0].contains(r#"error="invalid_request""#),
            "{bad:?}: {:?}",
            reply.challenges()
        );
    }
    // The token in the URL query instead of the header.
    let mut query = Client::new(addr).path("/mcp?access_token=both-token");
    query.session = session.clone();
    let reply = query.call_tool(8, "record_game").await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert!(
        reply.body.contains("never in the URL query"),
        "{}",
        reply.body
    );
    // A non-ASCII header value.
    let mut raw = Client::new(addr);
    raw.session = session;
    let mut headers = raw.headers.clone();
    headers.push(("authorization".into(), "Bearer b\u{f6}th".into()));
    raw.headers = headers;
    let reply = raw.call_tool(9, "record_game").await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(counters.record.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn oversized_headers_get_431() {
    let counters = Arc::new(Counters::default());
    let addr = start(HttpServer::new(games_router(&counters)).max_header_bytes(16 * 1024)).await;
    let huge = format!("Bearer {}", "a".repeat(20 * 1024));
    let reply = Client::new(addr)
        .header("authorization", &huge)
        .initialize()
        .await;
    assert_eq!(reply.status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    let mut many = Client::bearer(addr, "both-token");
    for i in 0..120 {
        many = many.header(&format!("x-filler-{i}"), "1");
    }
    assert_eq!(
        many.initialize().await.status,
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE
    );
    // The server still serves.
    assert_eq!(
        Client::bearer(addr, "both-token").initialize().await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_router_without_an_authenticator_does_not_start() {
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("games", "1.0.0")
    };
    let router = Router::new(info)
        .security(Some(GAMES_SECURITY))
        .tool(LIST_GAMES, |_, _| {
            Box::pin(async { Ok(ToolResult::text("x")) })
        });
    let error = HttpServer::new(router)
        .bind("127.0.0.1:0")
        .await
        .unwrap_err();
    assert!(error.to_string().contains("no authenticator"), "{error}");

    // Opting out explicitly serves without checks (and without metadata).
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("games", "1.0.0")
    };
    let router = Router::new(info)
        .security(Some(GAMES_SECURITY))
        .tool(LIST_GAMES, |_, cx| {
            Box::pin(async move { Ok(ToolResult::text(format!("{:?}", cx.principal()))) })
        })
        .without_authentication();
    let addr = start(HttpServer::new(router)).await;
    let mut anonymous = Client::new(addr);
    assert_eq!(anonymous.initialize().await.status, StatusCode::OK);
    assert_eq!(anonymous.tool_text(1, "list_games").await, "None");
    let metadata = send(
        addr,
        "GET",
        "/.well-known/oauth-protected-resource",
        &[],
        Vec::new(),
    )
    .await;
    assert_eq!(metadata.status, StatusCode::NOT_FOUND);
}

//! Sessions bound to their principal over real HTTP (`mcpdesc::http`'s `binding`):
//! a request of another principal on a session, its `DELETE` and its `tasks/*` get
//! the very answer of an unknown session (status, headers, body); `DELETE` answers
//! `204` for one's own session and `404` for an unknown one; a session opened
//! anonymously belongs to the first principal that uses it; session ids are random
//! UUIDs (122 random bits).

#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;

use hyper::StatusCode;
use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::http::HttpServer;
use mcpdesc::{ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::{json, Value};
use wire::{send, Client, Reply, VERSION};

/// Bearer tokens for `games:read`, required at the endpoint.
const SECURITY: &str = r#"{
    "securitySchemes": {"games-oauth": {"type": "oauth2", "flows": {"authorizationCode": {
        "authorizationUrl": "https://auth.games.example/authorize",
        "tokenUrl": "https://auth.games.example/token",
        "scopes": {"games:read": "Read games"}}}}},
    "security": [{"games-oauth": ["games:read"]}]
}"#;

/// The same scheme, optional at the endpoint (anonymous requests pass).
const OPTIONAL: &str = r#"{
    "securitySchemes": {"games-oauth": {"type": "oauth2", "flows": {"authorizationCode": {
        "authorizationUrl": "https://auth.games.example/authorize",
        "tokenUrl": "https://auth.games.example/token",
        "scopes": {"games:read": "Read games"}}}}},
    "security": [{}, {"games-oauth": ["games:read"]}]
}"#;

/// Answers with the caller; runs as a task when asked.
const WHOAMI: ToolSpec = ToolSpec::new(
    "whoami",
    &[],
    r#"{"name": "whoami", "inputSchema": {"type": "object"},
        "execution": {"taskSupport": "optional"}}"#,
);

fn router(security: Option<&'static str>) -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_11_25],
        ..ServerInfo::new("binding", "1.0.0")
    };
    let router = Router::new(info).tool(WHOAMI, |_, cx| {
        let who = cx
            .principal()
            .map_or("anonymous".to_owned(), |p| p.subject().to_owned());
        Box::pin(async move { Ok(ToolResult::text(who)) })
    });
    match security {
        Some(security) => router.security(Some(security)).authenticator(
            StaticTokens::new()
                .token(
                    "alice-token",
                    Principal::new("alice").with_scopes(["games:read"]),
                )
                .token(
                    "bob-token",
                    Principal::new("bob").with_scopes(["games:read"]),
                ),
        ),
        None => router,
    }
}

async fn start(router: Router) -> SocketAddr {
    let bound = HttpServer::new(router).bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.run());
    addr
}

/// `client`'s session, used with `other`'s credentials.
fn on_session(client: &Client, other: &Client) -> Client {
    Client {
        session: client.session.clone(),
        ..other.clone()
    }
}

/// A session id nobody was given (the same shape as a real one).
fn unknown(client: &Client) -> Client {
    Client {
        session: Some("5f0c7a52-35c4-4b0e-9d0e-2c6b1c2f9a11".into()),
        ..client.clone()
    }
}

/// `DELETE` of `client`'s session, with its credentials.
async fn delete(client: &Client) -> Reply {
    let mut headers = client.headers.clone();
    if let Some(session) = &client.session {
        headers.push(("mcp-session-id".into(), session.clone()));
    }
    headers.push(("mcp-protocol-version".into(), VERSION.into()));
    send(client.addr, "DELETE", "/mcp", &headers, Vec::new()).await
}

/// `GET` (the standalone stream) of `client`'s session: status only (a stream that
/// opens does not end).
async fn get_status(client: &Client) -> Option<StatusCode> {
    let mut headers = client.headers.clone();
    headers.push(("mcp-session-id".into(), client.session.clone().unwrap()));
    headers.push(("mcp-protocol-version".into(), VERSION.into()));
    headers.push(("accept".into(), "text/event-stream".into()));
    let get = send(client.addr, "GET", "/mcp", &headers, Vec::new());
    tokio::time::timeout(std::time::Duration::from_secs(2), get)
        .await
        .ok()
        .map(|reply| reply.status)
}

/// The same answer, header for header (except `date`), byte for byte.
fn assert_same(refused: &Reply, unknown: &Reply) {
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{refused:?}");
    assert_eq!(refused.status, unknown.status);
    assert_eq!(refused.body, unknown.body);
    let names = |r: &Reply| {
        let mut headers: Vec<_> = r
            .headers
            .iter()
            .filter(|(name, _)| *name != "date")
            .map(|(name, value)| format!("{name}: {value:?}"))
            .collect();
        headers.sort();
        headers
    };
    assert_eq!(names(refused), names(unknown));
}

fn whoami(id: i64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "whoami", "arguments": {}}})
}

#[tokio::test]
async fn another_principal_on_a_session_gets_the_unknown_session_answer() {
    let addr = start(router(Some(SECURITY))).await;
    let mut alice = Client::bearer(addr, "alice-token");
    assert_eq!(alice.initialize().await.status, StatusCode::OK);
    let bob = Client::bearer(addr, "bob-token");
    let intruder = on_session(&alice, &bob);

    let refused = intruder.post(whoami(1)).await;
    assert_same(&refused, &unknown(&bob).post(whoami(1)).await);
    assert_eq!(refused.body, "Not Found: Session not found");
    assert_eq!(get_status(&intruder).await, Some(StatusCode::NOT_FOUND));
    // A request without credentials does not reach the session either (401 first).
    let anonymous = on_session(&alice, &Client::new(addr));
    assert_eq!(
        anonymous.post(whoami(2)).await.status,
        StatusCode::UNAUTHORIZED
    );
    // The owner is still served, as herself.
    assert_eq!(alice.tool_text(3, "whoami").await, "alice");
}

#[tokio::test]
async fn delete_answers_204_for_ones_own_session_and_404_otherwise() {
    let addr = start(router(Some(SECURITY))).await;
    let mut alice = Client::bearer(addr, "alice-token");
    alice.initialize().await;
    let bob = Client::bearer(addr, "bob-token");

    // Bob cannot end Alice's session, and learns nothing from trying.
    let refused = delete(&on_session(&alice, &bob)).await;
    assert_same(&refused, &delete(&unknown(&bob)).await);
    assert_eq!(alice.tool_text(1, "whoami").await, "alice");

    let own = delete(&alice).await;
    assert_eq!(own.status, StatusCode::NO_CONTENT, "{own:?}");
    assert_eq!(own.body, "");
    // Gone: the next request and a second DELETE get 404.
    assert_eq!(alice.post(whoami(2)).await.status, StatusCode::NOT_FOUND);
    assert_same(&delete(&alice).await, &delete(&unknown(&alice)).await);
}

#[tokio::test]
async fn delete_without_security_answers_204_and_404() {
    let addr = start(router(None)).await;
    let mut client = Client::new(addr);
    client.initialize().await;
    assert_eq!(
        delete(&unknown(&client)).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(delete(&client).await.status, StatusCode::NO_CONTENT);
    assert_eq!(delete(&client).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn another_principals_tasks_are_refused_like_unknown_ones() {
    let addr = start(router(Some(SECURITY))).await;
    let mut alice = Client::bearer(addr, "alice-token");
    alice.initialize().await;
    let created = alice
        .post(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "whoami", "arguments": {}, "task": {"ttl": 60000}}}))
        .await
        .answer(1);
    let task = created["result"]["task"]["taskId"].clone();
    assert!(task.is_string(), "{created}");

    let bob = Client::bearer(addr, "bob-token");
    let intruder = on_session(&alice, &bob);
    for (id, method, params) in [
        (2, "tasks/get", json!({"taskId": task})),
        (3, "tasks/result", json!({"taskId": task})),
        (4, "tasks/list", json!({})),
        (5, "tasks/cancel", json!({"taskId": task})),
    ] {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let refused = intruder.post(message.clone()).await;
        assert_same(&refused, &unknown(&bob).post(message).await);
    }
    // Untouched: Alice gets her result.
    let result = alice
        .post(json!({"jsonrpc": "2.0", "id": 6, "method": "tasks/result",
            "params": {"taskId": task}}))
        .await
        .answer(6);
    assert_eq!(result["result"]["content"][0]["text"], "alice", "{result}");
}

#[tokio::test]
async fn an_anonymous_session_belongs_to_its_first_principal() {
    let addr = start(router(Some(OPTIONAL))).await;
    let mut opener = Client::new(addr);
    assert_eq!(opener.initialize().await.status, StatusCode::OK);
    assert_eq!(opener.tool_text(1, "whoami").await, "anonymous");
    let alice = on_session(&opener, &Client::bearer(addr, "alice-token"));
    assert_eq!(alice.tool_text(2, "whoami").await, "alice");
    // Claimed: neither Bob nor an anonymous request reaches it any more.
    let bob = on_session(&opener, &Client::bearer(addr, "bob-token"));
    assert_same(
        &bob.post(whoami(3)).await,
        &unknown(&bob).post(whoami(3)).await,
    );
    assert_eq!(opener.post(whoami(4)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(alice.tool_text(5, "whoami").await, "alice");
}

#[tokio::test]
async fn session_ids_are_random_uuids() {
    let addr = start(router(None)).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let mut client = Client::new(addr);
        client.initialize().await;
        ids.push(client.session.unwrap());
    }
    for id in &ids {
        // Version 4, variant 10xx: 122 random bits.
        let hex: String = id.chars().filter(|c| *c != '-').collect();
        assert_eq!(hex.len(), 32, "{id}");
        assert!(hex.chars().all(|c| c.is_ascii_hexdigit()), "{id}");
        assert_eq!(&hex[12..13], "4", "{id}");
        assert!("89ab".contains(&hex[16..17]), "{id}");
    }
    assert_ne!(ids[0], ids[1]);
}

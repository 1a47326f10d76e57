//! Every scheme type (bearer, oauth2, openIdConnect, apiKey in header/query/cookie,
//! basic), public and anonymous-or-authenticated tools, `security: []` and `[{}]`.

use std::net::SocketAddr;

use hyper::StatusCode;
use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::http::HttpServer;
use mcpdesc::{Router, ServerInfo};
use serde_json::json;

use crate::support::{start, tool, who, VERSIONS};
use crate::wire::{send, Client};

/// Every scheme type, public and anonymous-or-authenticated tools, no root security.
const MIXED_SECURITY: &str = r#"{
    "securitySchemes": {
        "header-key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
        "query-key": {"type": "apiKey", "in": "query", "name": "api_key"},
        "cookie-key": {"type": "apiKey", "in": "cookie", "name": "session"},
        "basic": {"type": "http", "scheme": "basic"},
        "bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
        "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://id.example.com/realms/games/.well-known/openid-configuration"}
    }
}"#;

async fn mixed_server() -> SocketAddr {
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("mixed", "1.0.0")
    };
    let router = Router::new(info)
        .security(Some(MIXED_SECURITY))
        .tool(tool("open", None), who())
        .tool(tool("cleared", Some("[]")), who())
        .tool(tool("header_only", Some(r#"[{"header-key": []}]"#)), who())
        .tool(tool("query_only", Some(r#"[{"query-key": []}]"#)), who())
        .tool(tool("cookie_only", Some(r#"[{"cookie-key": []}]"#)), who())
        .tool(tool("basic_only", Some(r#"[{"basic": []}]"#)), who())
        .tool(tool("bearer_only", Some(r#"[{"bearer": []}]"#)), who())
        .tool(
            tool("oidc_profile", Some(r#"[{"oidc": ["profile"]}]"#)),
            who(),
        )
        .tool(tool("anyone_or_oidc", Some(r#"[{}, {"oidc": []}]"#)), who())
        .tool(
            tool(
                "key_and_bearer",
                Some(r#"[{"header-key": [], "bearer": []}]"#),
            ),
            who(),
        )
        .authenticator(
            StaticTokens::new()
                .token("key-1", Principal::new("key holder"))
                .token(
                    "tok-1",
                    Principal::new("token holder").with_scopes(["profile"]),
                ),
        );
    start(HttpServer::new(router)).await
}

/// A client with the `extra` headers on `path`, its session opened with them.
async fn opened(addr: std::net::SocketAddr, extra: &[(&str, &str)], path: &str) -> Client {
    let mut client = Client::new(addr).path(path);
    for (name, value) in extra {
        client = client.header(name, value);
    }
    client.initialize().await;
    client
}

#[tokio::test]
async fn every_scheme_type() {
    let addr = mixed_server().await;
    // Public tools: no root security, `security: []`, `[{}, ...]`.
    let mut anonymous = Client::new(addr);
    assert_eq!(anonymous.initialize().await.status, StatusCode::OK);
    assert_eq!(anonymous.tool_text(1, "open").await, "anonymous");
    assert_eq!(anonymous.tool_text(2, "cleared").await, "anonymous");
    assert_eq!(anonymous.tool_text(3, "anyone_or_oidc").await, "anonymous");

    // Each protected tool without credentials: 401 with its scheme's challenge.
    let expected = [
        (
            "header_only",
            r#"ApiKey realm="mixed", in="header", name="X-API-Key""#.to_owned(),
        ),
        (
            "query_only",
            r#"ApiKey realm="mixed", in="query", name="api_key""#.to_owned(),
        ),
        (
            "cookie_only",
            r#"ApiKey realm="mixed", in="cookie", name="session""#.to_owned(),
        ),
        (
            "basic_only",
            r#"Basic realm="mixed", charset="UTF-8""#.to_owned(),
        ),
        (
            "bearer_only",
            format!(
                r#"Bearer resource_metadata="http://{addr}/.well-known/oauth-protected-resource/mcp""#
            ),
        ),
        (
            "oidc_profile",
            format!(
                r#"Bearer scope="profile", resource_metadata="http://{addr}/.well-known/oauth-protected-resource/mcp""#
            ),
        ),
    ];
    for (i, (name, challenge)) in expected.iter().enumerate() {
        let reply = anonymous.call_tool(10 + i as i64, name).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{name}");
        assert_eq!(
            reply.challenges(),
            std::slice::from_ref(challenge),
            "{name}"
        );
    }
    let both = anonymous.call_tool(20, "key_and_bearer").await;
    assert_eq!(both.challenges().len(), 2, "{:?}", both.challenges());

    // With the credential each needs, each on a session of its own (a session
    // belongs to the first principal that uses it).
    assert_eq!(
        opened(addr, &[("x-api-key", "key-1")], "/mcp")
            .await
            .tool_text(30, "header_only")
            .await,
        "key holder"
    );
    assert_eq!(
        opened(addr, &[], "/mcp?api_key=key-1")
            .await
            .tool_text(31, "query_only")
            .await,
        "key holder"
    );
    assert_eq!(
        opened(addr, &[("cookie", "theme=dark; session=key-1")], "/mcp")
            .await
            .tool_text(32, "cookie_only")
            .await,
        "key holder"
    );
    // "ana:tok-1": the mock table takes any user with a known token as password.
    assert_eq!(
        opened(addr, &[("authorization", "Basic YW5hOnRvay0x")], "/mcp")
            .await
            .tool_text(33, "basic_only")
            .await,
        "ana"
    );
    assert_eq!(
        opened(addr, &[("authorization", "Bearer tok-1")], "/mcp")
            .await
            .tool_text(34, "bearer_only")
            .await,
        "token holder"
    );
    assert_eq!(
        opened(addr, &[("authorization", "Bearer tok-1")], "/mcp")
            .await
            .tool_text(35, "oidc_profile")
            .await,
        "token holder"
    );
    assert_eq!(
        opened(addr, &[("authorization", "Bearer tok-1")], "/mcp")
            .await
            .tool_text(36, "anyone_or_oidc")
            .await,
        "token holder"
    );
    assert_eq!(
        opened(
            addr,
            &[("authorization", "Bearer tok-1"), ("x-api-key", "key-1")],
            "/mcp",
        )
        .await
        .tool_text(37, "key_and_bearer")
        .await,
        "key holder"
    );
    // A wrong key is refused even for a public tool; a key in the wrong place too.
    let wrong = opened(addr, &[("x-api-key", "nope")], "/mcp")
        .await
        .call_tool(40, "open")
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    let misplaced = opened(addr, &[], "/mcp?X-API-Key=key-1")
        .await
        .call_tool(41, "header_only")
        .await;
    assert_eq!(misplaced.status, StatusCode::UNAUTHORIZED);
    assert!(
        misplaced.body.contains("goes in the header"),
        "{}",
        misplaced.body
    );

    let metadata = send(
        addr,
        "GET",
        "/.well-known/oauth-protected-resource",
        &[],
        Vec::new(),
    )
    .await
    .json();
    assert_eq!(
        metadata["authorization_servers"],
        json!(["https://id.example.com/realms/games"])
    );
    assert_eq!(metadata["scopes_supported"], json!(["profile"]));
}

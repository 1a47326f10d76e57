//! Per-transport security: the served transport decides what primitives inherit.

use hyper::StatusCode;
use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::http::HttpServer;
use mcpdesc::{Router, ServerInfo};

use crate::support::{start, tool, who, VERSIONS};
use crate::wire::{send, Client};

/// Root oauth, and two HTTP transports: one needs an API key, one is public.
const TRANSPORT_SECURITY: &str = r#"{
    "securitySchemes": {
        "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://auth.example.com/token", "scopes": {"x": ""}}}},
        "key": {"type": "apiKey", "in": "header", "name": "X-API-Key"}
    },
    "security": [{"oauth": ["x"]}],
    "transports": [
        {"type": "stdio", "command": "games", "security": []},
        {"type": "streamable-http", "url": "https://keyed.example.com/mcp", "security": [{"key": []}]},
        {"type": "streamable-http", "url": "https://open.example.com/mcp", "security": []},
        {"type": "streamable-http", "url": "https://rooted.example.com/mcp"}
    ]
}"#;

fn transport_router() -> Router {
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("transports", "1.0.0")
    };
    Router::new(info)
        .security(Some(TRANSPORT_SECURITY))
        .tool(tool("inherits", None), who())
        .tool(tool("own", Some(r#"[{"oauth": ["x"]}]"#)), who())
        .authenticator(
            StaticTokens::new()
                .token("key-1", Principal::new("key holder"))
                .token("tok-1", Principal::new("token holder").with_scopes(["x"])),
        )
}

#[tokio::test]
async fn the_served_transport_decides_what_primitives_inherit() {
    // Default: the first streamable-http entry (the keyed one).
    let keyed = start(HttpServer::new(transport_router())).await;
    let refused = Client::new(keyed).initialize().await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        refused.challenges(),
        [
            r#"Bearer scope="x", resource_metadata="https://keyed.example.com/.well-known/oauth-protected-resource/mcp""#.to_owned(),
            r#"ApiKey realm="transports", in="header", name="X-API-Key""#.to_owned(),
        ]
    );
    let mut key = Client::new(keyed).header("x-api-key", "key-1");
    assert_eq!(key.initialize().await.status, StatusCode::OK);
    assert_eq!(key.tool_text(1, "inherits").await, "key holder");
    assert_eq!(
        key.call_tool(2, "own").await.status,
        StatusCode::UNAUTHORIZED
    );
    let metadata = send(
        keyed,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        &[],
        Vec::new(),
    )
    .await
    .json();
    assert_eq!(metadata["resource"], "https://keyed.example.com/mcp");

    // The public transport.
    let open =
        start(HttpServer::new(transport_router()).transport_url("https://open.example.com/mcp"))
            .await;
    let mut anonymous = Client::new(open);
    assert_eq!(anonymous.initialize().await.status, StatusCode::OK);
    assert_eq!(anonymous.tool_text(1, "inherits").await, "anonymous");
    assert_eq!(
        anonymous.call_tool(2, "own").await.status,
        StatusCode::UNAUTHORIZED
    );

    // A transport without security inherits the root's.
    let rooted =
        start(HttpServer::new(transport_router()).transport_url("https://rooted.example.com/mcp"))
            .await;
    assert_eq!(
        Client::new(rooted).initialize().await.status,
        StatusCode::UNAUTHORIZED
    );
    let mut token = Client::bearer(rooted, "tok-1");
    assert_eq!(token.initialize().await.status, StatusCode::OK);
    assert_eq!(token.tool_text(1, "inherits").await, "token holder");

    // An unknown transport URL is a start-up error.
    let error = HttpServer::new(transport_router())
        .transport_url("https://nowhere.example.com/mcp")
        .bind("127.0.0.1:0")
        .await
        .unwrap_err();
    assert!(error.to_string().contains("nowhere.example.com"), "{error}");
}

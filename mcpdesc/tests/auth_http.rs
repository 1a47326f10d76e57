//! The description's security over real HTTP (loopback, hyper client): 401 with
//! `resource_metadata`, unknown tokens, scopes per tool (the refused handler never
//! runs: counters), Protected Resource Metadata, the principal in `Context`, every
//! scheme type (bearer, oauth2, openIdConnect, apiKey in header/query/cookie,
//! basic), per-transport security, `security: []` and `[{}]`, malformed and
//! misplaced credentials, oversized headers, and the adapter's JSON-RPC refusal when
//! the HTTP layer cannot know the session's version.

#![cfg(feature = "http")]

#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use hyper::StatusCode;
use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::http::HttpServer;
use mcpdesc::{ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::{json, Value};
use wire::{send, Client};

const VERSIONS: &[ProtocolVersion] = &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25];

/// The issue's description: root `oauth2` scope `games:read`, a tool that needs
/// `games:write`.
const GAMES_SECURITY: &str = r#"{
    "securitySchemes": {"games-oauth": {"type": "oauth2", "flows": {"authorizationCode": {
        "authorizationUrl": "https://auth.games.example/authorize",
        "tokenUrl": "https://auth.games.example/token",
        "scopes": {"games:read": "Read games", "games:write": "Record games"}}}}},
    "security": [{"games-oauth": ["games:read"]}]
}"#;

const LIST_GAMES: ToolSpec = ToolSpec::new(
    "list_games",
    &[],
    r#"{"name": "list_games", "inputSchema": {"type": "object"}}"#,
);
const RECORD_GAME: ToolSpec = ToolSpec::new(
    "record_game",
    &[],
    r#"{"name": "record_game", "inputSchema": {"type": "object"}, "security": [{"games-oauth": ["games:write"]}]}"#,
);

#[derive(Default)]
struct Counters {
    list: AtomicUsize,
    record: AtomicUsize,
}

fn tokens() -> StaticTokens {
    StaticTokens::new()
        .token(
            "reader-token",
            Principal::new("reader").with_scopes(["games:read"]),
        )
        .token(
            "writer-token",
            Principal::new("writer").with_scopes(["games:write"]),
        )
        .token(
            "both-token",
            Principal::new("both").with_scopes(["games:read", "games:write"]),
        )
        .token("no-scope-token", Principal::new("nobody"))
}

/// A tool handler that counts its runs and answers with the caller.
fn counting(
    counter: impl Fn() -> &'static str + Send + Sync + 'static,
    counters: Arc<Counters>,
) -> impl Fn(
    Value,
    mcpdesc::Context,
) -> mcpdesc::BoxFuture<'static, Result<ToolResult, mcpdesc::ToolError>>
       + Send
       + Sync
       + 'static {
    move |_args, cx| {
        let which = counter();
        match which {
            "list" => counters.list.fetch_add(1, Ordering::SeqCst),
            _ => counters.record.fetch_add(1, Ordering::SeqCst),
        };
        let who = match cx.principal() {
            Some(p) => format!(
                "{} [{}]",
                p.subject(),
                p.scopes().collect::<Vec<_>>().join(" ")
            ),
            None => "anonymous".to_owned(),
        };
        Box::pin(async move { Ok(ToolResult::text(who)) })
    }
}

fn games_router(counters: &Arc<Counters>) -> Router {
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("games", "1.0.0")
    };
    Router::new(info)
        .security(Some(GAMES_SECURITY))
        .tool(LIST_GAMES, counting(|| "list", counters.clone()))
        .tool(RECORD_GAME, counting(|| "record", counters.clone()))
        .authenticator(tokens())
}

async fn start<H: mcpdesc::rmcp::ServerHandler>(server: HttpServer<H>) -> SocketAddr {
    let bound = server.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.run());
    addr
}

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

fn tool(name: &'static str, security: Option<&str>) -> ToolSpec {
    let declaration = match security {
        Some(s) => {
            format!(r#"{{"name": "{name}", "inputSchema": {{"type": "object"}}, "security": {s}}}"#)
        }
        None => format!(r#"{{"name": "{name}", "inputSchema": {{"type": "object"}}}}"#),
    };
    ToolSpec::new(name, &[], Box::leak(declaration.into_boxed_str()))
}

fn who() -> impl Fn(
    Value,
    mcpdesc::Context,
) -> mcpdesc::BoxFuture<'static, Result<ToolResult, mcpdesc::ToolError>>
       + Send
       + Sync
       + 'static {
    |_, cx| {
        let who = cx
            .principal()
            .map_or("anonymous".to_owned(), |p| p.subject().to_owned());
        Box::pin(async move { Ok(ToolResult::text(who)) })
    }
}

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

    // With the credential each needs.
    let session = anonymous.session.clone();
    let with = |extra: &[(&str, &str)], path: &str| {
        let mut c = Client::new(addr).path(path);
        c.session = session.clone();
        for (n, v) in extra {
            c = c.header(n, v);
        }
        c
    };
    assert_eq!(
        with(&[("x-api-key", "key-1")], "/mcp")
            .tool_text(30, "header_only")
            .await,
        "key holder"
    );
    assert_eq!(
        with(&[], "/mcp?api_key=key-1")
            .tool_text(31, "query_only")
            .await,
        "key holder"
    );
    assert_eq!(
        with(&[("cookie", "theme=dark; session=key-1")], "/mcp")
            .tool_text(32, "cookie_only")
            .await,
        "key holder"
    );
    // "ana:tok-1": the mock table takes any user with a known token as password.
    assert_eq!(
        with(&[("authorization", "Basic YW5hOnRvay0x")], "/mcp")
            .tool_text(33, "basic_only")
            .await,
        "ana"
    );
    assert_eq!(
        with(&[("authorization", "Bearer tok-1")], "/mcp")
            .tool_text(34, "bearer_only")
            .await,
        "token holder"
    );
    assert_eq!(
        with(&[("authorization", "Bearer tok-1")], "/mcp")
            .tool_text(35, "oidc_profile")
            .await,
        "token holder"
    );
    assert_eq!(
        with(&[("authorization", "Bearer tok-1")], "/mcp")
            .tool_text(36, "anyone_or_oidc")
            .await,
        "token holder"
    );
    assert_eq!(
        with(
            &[("authorization", "Bearer tok-1"), ("x-api-key", "key-1")],
            "/mcp"
        )
        .tool_text(37, "key_and_bearer")
        .await,
        "key holder"
    );
    // A wrong key is refused even for a public tool; a key in the wrong place too.
    let wrong = with(&[("x-api-key", "nope")], "/mcp")
        .call_tool(40, "open")
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    let misplaced = with(&[], "/mcp?X-API-Key=key-1")
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

const VARIANT_SECURITY: &str = r#"{
    "securitySchemes": {"oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://auth.example.com/token", "scopes": {"w": ""}}}}}
}"#;

#[tokio::test]
async fn the_adapter_refuses_when_http_cannot_know_the_version() {
    // `variant` is public in 2025-06-18 and needs scope `w` in 2025-11-25.
    const OLD: ToolSpec = ToolSpec::new(
        "variant",
        &[ProtocolVersion::V2025_06_18],
        r#"{"name": "variant", "protocolVersions": ["2025-06-18"], "inputSchema": {"type": "object"}}"#,
    );
    const NEW: ToolSpec = ToolSpec::new(
        "variant",
        &[ProtocolVersion::V2025_11_25],
        r#"{"name": "variant", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"}, "security": [{"oauth": ["w"]}]}"#,
    );
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = {
        let runs = runs.clone();
        move |_: Value,
              _: mcpdesc::Context|
              -> mcpdesc::BoxFuture<'static, Result<ToolResult, mcpdesc::ToolError>> {
            runs.fetch_add(1, Ordering::SeqCst);
            Box::pin(async { Ok(ToolResult::text("ran")) })
        }
    };
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("variants", "1.0.0")
    };
    let router = Router::new(info)
        .security(Some(VARIANT_SECURITY))
        .tool(OLD, counted.clone())
        .tool(NEW, counted)
        .authenticator(StaticTokens::new().token("plain", Principal::new("p")));
    let addr = start(HttpServer::new(router)).await;

    // The session speaks 2025-11-25; the request claims 2025-06-18 in its header.
    let mut liar = Client::bearer(addr, "plain");
    assert_eq!(liar.initialize().await.status, StatusCode::OK);
    liar.version_header = "2025-06-18".into();
    let answer = liar.call_tool(1, "variant").await.answer(1);
    assert_eq!(answer["error"]["code"], mcpdesc::auth::FORBIDDEN_CODE);
    assert_eq!(
        answer["error"]["data"],
        json!({"status": 403, "error": "insufficient_scope", "scope": "w"})
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    // With the truthful header the HTTP layer answers 403 itself.
    liar.version_header = "2025-11-25".into();
    assert_eq!(
        liar.call_tool(2, "variant").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// A hand-written handler that delegates to the generated server and records what
/// the HTTP request looked like when it reached rmcp.
#[derive(Clone)]
struct Inspecting {
    inner: mcpdesc::McpServer,
    seen: Arc<std::sync::Mutex<Vec<String>>>,
}

impl mcpdesc::rmcp::ServerHandler for Inspecting {
    fn get_info(&self) -> mcpdesc::rmcp::model::ServerConfig {
        mcpdesc::rmcp::ServerHandler::get_info(&self.inner)
    }

    async fn call_tool(
        &self,
        request: mcpdesc::rmcp::model::CallToolRequestParams,
        cx: mcpdesc::rmcp::service::RequestContext<mcpdesc::rmcp::RoleServer>,
    ) -> Result<mcpdesc::rmcp::model::CallToolResponse, mcpdesc::rmcp::ErrorData> {
        let parts = cx.extensions.get::<http::request::Parts>().unwrap();
        let mut seen: Vec<String> = parts.headers.keys().map(|k| k.to_string()).collect();
        seen.push(parts.uri.to_string());
        seen.extend(
            parts
                .headers
                .get("cookie")
                .map(|c| c.to_str().unwrap().to_owned()),
        );
        *self.seen.lock().unwrap() = seen;
        mcpdesc::rmcp::ServerHandler::call_tool(&self.inner, request, cx).await
    }
}

#[tokio::test]
async fn credentials_are_removed_before_rmcp_and_composed_handlers_are_guarded() {
    const SECURITY: &str = r#"{
        "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"},
            "query-key": {"type": "apiKey", "in": "query", "name": "api_key"},
            "cookie-key": {"type": "apiKey", "in": "cookie", "name": "sid"}
        },
        "security": [{"bearer": [], "query-key": [], "cookie-key": []}]
    }"#;
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("strip", "1.0.0")
    };
    let router = Router::new(info)
        .security(Some(SECURITY))
        .tool(tool("inherits", None), who())
        .authenticator(StaticTokens::new().token("t-1", Principal::new("holder")));
    let server = mcpdesc::McpServer::new(router);
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let factory = {
        let (server, seen) = (server.clone(), seen.clone());
        move || Inspecting {
            inner: server.new_session(),
            seen: seen.clone(),
        }
    };
    let guarded = start(
        HttpServer::with_handler(factory.clone())
            .restore_tool_members(server.tool_listings().clone())
            .enforce_security_of(&server),
    )
    .await;
    let mut client = Client::bearer(guarded, "t-1")
        .header("cookie", "theme=dark; sid=t-1")
        .path("/mcp?api_key=t-1&lang=en");
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    assert_eq!(client.tool_text(1, "inherits").await, "holder");
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.iter().any(|s| s == "authorization"), "{seen:?}");
    assert!(seen.contains(&"/mcp?lang=en".to_owned()), "{seen:?}");
    assert!(seen.contains(&"theme=dark".to_owned()), "{seen:?}");
    assert!(!seen.iter().any(|s| s.contains("t-1")), "{seen:?}");

    // Without `enforce_security_of`, the delegated calls still check, with no
    // credentials: the protected tool is refused by the adapter.
    let unguarded = start(
        HttpServer::with_handler(factory).restore_tool_members(server.tool_listings().clone()),
    )
    .await;
    let mut client = Client::bearer(unguarded, "t-1");
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let answer = client.call_tool(1, "inherits").await.answer(1);
    assert_eq!(
        answer["error"]["code"],
        mcpdesc::auth::FORBIDDEN_CODE,
        "{answer}"
    );
    assert_eq!(answer["error"]["data"]["status"], 401);
}

/// Prompts, resources, templates and completions: each checked with its own
/// requirement (a completion with its prompt's or template's).
fn primitives_router() -> Router {
    use mcpdesc::{
        CompletionResult, CompletionTarget, PromptMessage, PromptResult, PromptSpec,
        ResourceResult, ResourceSpec, ResourceTemplateSpec,
    };
    const BRIEF: PromptSpec = PromptSpec::new(
        "brief",
        &[],
        r#"{"name": "brief", "arguments": [{"name": "game", "required": false}], "security": [{"games-oauth": ["games:write"]}]}"#,
    );
    const LATEST: ResourceSpec = ResourceSpec::new(
        "games://latest",
        &[],
        r#"{"uri": "games://latest", "name": "latest"}"#,
    );
    const SECRET: ResourceSpec = ResourceSpec::new(
        "games://secret",
        &[],
        r#"{"uri": "games://secret", "name": "secret", "security": [{"games-oauth": ["games:write"]}]}"#,
    );
    const GAME: ResourceTemplateSpec = ResourceTemplateSpec::new(
        "games://games/{id}",
        &[],
        r#"{"uriTemplate": "games://games/{id}", "name": "game", "security": [{"games-oauth": ["games:write"]}]}"#,
    );
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("games", "1.0.0")
    };
    Router::new(info)
        .security(Some(GAMES_SECURITY))
        .prompt(BRIEF, |_, cx| {
            let who = cx
                .principal()
                .map_or("anonymous".to_owned(), |p| p.subject().to_owned());
            Box::pin(async move { Ok(PromptResult::new(vec![PromptMessage::user(who)])) })
        })
        .resource(LATEST, |uri, _| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "text/plain", "latest")) })
        })
        .resource(SECRET, |uri, _| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "text/plain", "secret")) })
        })
        .resource_template(GAME, |uri, _, _| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "text/plain", "game")) })
        })
        .completion(CompletionTarget::prompt("brief"), &[], |_, _| {
            Box::pin(async { Ok(CompletionResult::new(vec!["g1".to_owned()])) })
        })
        .authenticator(tokens())
}

#[tokio::test]
async fn prompts_resources_templates_and_completions_have_their_requirements() {
    let addr = start(HttpServer::new(primitives_router())).await;
    let mut reader = Client::bearer(addr, "reader-token");
    assert_eq!(reader.initialize().await.status, StatusCode::OK);
    let mut writer = Client::bearer(addr, "both-token");
    assert_eq!(writer.initialize().await.status, StatusCode::OK);
    let requests = [
        (
            "prompt",
            json!({"method": "prompts/get", "params": {"name": "brief", "arguments": {}}}),
        ),
        (
            "secret resource",
            json!({"method": "resources/read", "params": {"uri": "games://secret"}}),
        ),
        (
            "template",
            json!({"method": "resources/read", "params": {"uri": "games://games/7"}}),
        ),
        (
            "completion",
            json!({"method": "completion/complete", "params": {
            "ref": {"type": "ref/prompt", "name": "brief"}, "argument": {"name": "game", "value": "g"}}}),
        ),
    ];
    for (i, (what, request)) in requests.iter().enumerate() {
        let mut request = request.clone();
        request["jsonrpc"] = json!("2.0");
        request["id"] = json!(i);
        let refused = reader.post(request.clone()).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{what}: {refused:?}");
        assert!(
            refused.challenges()[0].contains(r#"scope="games:write""#),
            "{what}"
        );
        let answer = writer.post(request).await.answer(i as i64);
        assert!(answer.get("result").is_some(), "{what}: {answer}");
    }
    // The resource without its own security inherits the root's read scope.
    let latest = json!({"jsonrpc": "2.0", "id": 9, "method": "resources/read", "params": {"uri": "games://latest"}});
    assert!(reader.post(latest).await.answer(9).get("result").is_some());
    let prompt =
        json!({"jsonrpc": "2.0", "id": 10, "method": "prompts/get", "params": {"name": "brief"}});
    assert_eq!(
        writer.post(prompt).await.answer(10)["result"]["messages"][0]["content"]["text"],
        "both"
    );
}

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

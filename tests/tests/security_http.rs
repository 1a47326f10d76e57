//! Generated code over real HTTP: `fixtures/generator/security.mcpdesc.json` through
//! the `mcpdesc!` macro, the handlers of `security/handlers.rs` and an
//! `Authenticator` implementation, served by `mcpdesc::http`. Each scheme's
//! credential reaches its own generated method (a counter per method), the
//! principal reaches the handler, a refused handler never runs, and
//! `router_behind_gateway` enforces nothing.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};

use hyper::StatusCode;
use mcpdesc::auth::{AuthError, AuthRequest, BasicCredentials, Principal};
use mcpdesc::http::HttpServer;
use serde_json::json;

mod games {
    mcpdesc::mcpdesc!(path = "fixtures/generator/security.mcpdesc.json");
}

include!("../security/handlers.rs");

#[path = "../../mcpdesc/tests/support/wire.rs"]
mod wire;

use wire::Client;

/// How often each authenticator method ran.
static OAUTH: AtomicUsize = AtomicUsize::new(0);
static KEY: AtomicUsize = AtomicUsize::new(0);
static SSO: AtomicUsize = AtomicUsize::new(0);

impl games::Authenticator for Games {
    async fn authenticate_api_key(
        &self,
        key: &str,
        _: &AuthRequest,
    ) -> Result<Principal, AuthError> {
        KEY.fetch_add(1, Ordering::SeqCst);
        (key == "partner-key")
            .then(|| Principal::new("partner").with_scopes(["games:read"]))
            .ok_or_else(|| AuthError::rejected("unknown key"))
    }
    async fn authenticate_api_key_2(
        &self,
        key: &str,
        r: &AuthRequest,
    ) -> Result<Principal, AuthError> {
        self.authenticate_api_key(key, r).await
    }
    async fn authenticate_basic(
        &self,
        c: &BasicCredentials,
        _: &AuthRequest,
    ) -> Result<Principal, AuthError> {
        (c.password() == "pw")
            .then(|| Principal::new(c.user()))
            .ok_or_else(|| AuthError::rejected("wrong password"))
    }
    async fn authenticate_games_oauth(
        &self,
        token: &str,
        request: &AuthRequest,
    ) -> Result<Principal, AuthError> {
        OAUTH.fetch_add(1, Ordering::SeqCst);
        assert!(
            request.resource().starts_with("http://127.0.0.1:"),
            "{}",
            request.resource()
        );
        match token {
            "reader" => Ok(Principal::new("reader").with_scopes(["games:read"])),
            "writer" => Ok(Principal::new("writer").with_scopes(["games:read", "games:write"])),
            _ => Err(AuthError::rejected("unknown token")),
        }
    }
    async fn authenticate_sso(
        &self,
        _token: &str,
        _: &AuthRequest,
    ) -> Result<Principal, AuthError> {
        SSO.fetch_add(1, Ordering::SeqCst);
        Err(AuthError::unavailable("the identity provider is down"))
    }
}

async fn start(router: mcpdesc::Router, transport: Option<&str>) -> SocketAddr {
    let mut server = HttpServer::new(router).served_resource_url();
    if let Some(url) = transport {
        server = server.transport_url(url);
    }
    let bound = server.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.run());
    addr
}

#[tokio::test]
async fn the_generated_authenticator_over_http() {
    let addr = start(games::router(Games), None).await;

    // `server_status` has `security: []`; everything else inherits oauth2 games:read.
    let mut anonymous = Client::new(addr);
    assert_eq!(anonymous.initialize().await.status, StatusCode::OK);
    assert_eq!(anonymous.tool_text(1, "server_status").await, "ok");
    assert_eq!(
        anonymous.call_tool(2, "list_games").await.status,
        StatusCode::UNAUTHORIZED
    );

    let mut reader = Client::bearer(addr, "reader");
    assert_eq!(reader.initialize().await.status, StatusCode::OK);
    assert_eq!(reader.tool_text(3, "list_games").await, "games for reader");
    let write = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "record_game", "arguments": {"pgn": "1. e4"}}});
    assert_eq!(
        reader.post(write.clone()).await.status,
        StatusCode::FORBIDDEN
    );
    let mut writer = Client::bearer(addr, "writer");
    assert_eq!(writer.initialize().await.status, StatusCode::OK);
    let recorded = writer.post(write).await.answer(4);
    assert_eq!(recorded["result"]["content"][0]["text"], "recorded 1. e4");

    // The prompt needs `sso`: the same bearer token goes to `authenticate_sso` too,
    // which cannot decide now: 503, and the prompt does not run.
    let before = SSO.load(Ordering::SeqCst);
    let prompt = json!({"jsonrpc": "2.0", "id": 5, "method": "prompts/get",
        "params": {"name": "game_review", "arguments": {"game": "g1"}}});
    assert_eq!(
        writer.post(prompt).await.status,
        StatusCode::SERVICE_UNAVAILABLE
    );
    assert!(SSO.load(Ordering::SeqCst) > before);
    // An API key is not a credential of the default transport's schemes (the
    // partners transport has them): not even looked at.
    assert_eq!(
        Client::new(addr)
            .header("x-api-key", "partner-key")
            .call_tool(6, "list_games")
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert!(OAUTH.load(Ordering::SeqCst) >= 2);
}

#[tokio::test]
async fn the_partners_transport_takes_api_keys_and_basic() {
    let addr = start(
        games::router(Games),
        Some("https://partners.example.com/mcp"),
    )
    .await;
    let before = KEY.load(Ordering::SeqCst);
    let mut partner = Client::new(addr).header("x-api-key", "partner-key");
    assert_eq!(partner.initialize().await.status, StatusCode::OK);
    assert_eq!(
        partner.tool_text(1, "list_games").await,
        "games for partner"
    );
    assert!(KEY.load(Ordering::SeqCst) > before);
    // "ana:pw"
    let mut basic = Client::new(addr).header("authorization", "Basic YW5hOnB3");
    assert_eq!(basic.initialize().await.status, StatusCode::OK);
    assert_eq!(basic.tool_text(2, "list_games").await, "games for ana");
    // The write tool has its own requirement (oauth2 games:write), whatever the
    // transport.
    let refused = basic.call_tool(3, "record_game").await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert!(refused.challenges()[0].contains(r#"scope="games:write""#));
}

#[tokio::test]
async fn behind_a_gateway_nothing_is_enforced() {
    let addr = start(games::router_behind_gateway(Games), None).await;
    let mut anonymous = Client::new(addr);
    assert_eq!(anonymous.initialize().await.status, StatusCode::OK);
    assert_eq!(
        anonymous.tool_text(1, "list_games").await,
        "games for anonymous"
    );
}

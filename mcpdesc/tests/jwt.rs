//! JWT bearer tokens over real HTTP: a JWKS served by the test (RSA, P-256 and
//! Ed25519 keys it generates), an MCP server enforcing an `oauth2` requirement with
//! `JwtAuthenticator`, and tokens valid, expired, not yet valid, for another audience
//! or issuer, with an unknown `kid`, a bad signature, `alg: none`, HMAC with the
//! public key, scopes in `scope` and `scp`, a missing scope; key rotation (a new
//! `kid` refetches the JWKS, at most once per interval).

#![cfg(feature = "jwt")]

#[path = "support/jwks.rs"]
mod jwks;
#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use hyper::StatusCode;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcpdesc::auth::jwt::JwtAuthenticator;
use mcpdesc::http::HttpServer;
use mcpdesc::{ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::{json, Value};

use jwks::{ec_key, ed_key, key_set, rsa_key, JwksServer, TestKey};
use wire::Client;

const ISSUER: &str = "https://id.test.example/";

const SECURITY: &str = r#"{
    "securitySchemes": {"oauth": {"type": "oauth2", "flows": {"clientCredentials": {
        "tokenUrl": "https://id.test.example/token",
        "scopes": {"games:read": "Read games", "games:write": "Record games"}}}}},
    "security": [{"oauth": ["games:read"]}]
}"#;

const LIST_GAMES: ToolSpec = ToolSpec::new(
    "list_games",
    &[],
    r#"{"name": "list_games", "inputSchema": {"type": "object"}}"#,
);
const RECORD_GAME: ToolSpec = ToolSpec::new(
    "record_game",
    &[],
    r#"{"name": "record_game", "inputSchema": {"type": "object"}, "security": [{"oauth": ["games:write"]}]}"#,
);

/// The keys, made once per test binary (RSA key generation takes a while).
struct Keys {
    rsa: TestKey,
    rsa_next: TestKey,
    ec: TestKey,
    ed: TestKey,
    /// An RSA key with the kid of `rsa` that the issuer never published.
    rsa_forged: TestKey,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| Keys {
        rsa: rsa_key("rsa-1"),
        rsa_next: rsa_key("rsa-2"),
        ec: ec_key("ec-1"),
        ed: ed_key("ed-1"),
        rsa_forged: rsa_key("rsa-1"),
    })
}

fn who() -> impl Fn(
    Value,
    mcpdesc::Context,
) -> mcpdesc::BoxFuture<'static, Result<ToolResult, mcpdesc::ToolError>>
       + Send
       + Sync
       + 'static {
    |_, cx| {
        let who = cx.principal().map_or("anonymous".to_owned(), |p| {
            format!(
                "{} [{}]",
                p.subject(),
                p.scopes().collect::<Vec<_>>().join(" ")
            )
        });
        Box::pin(async move { Ok(ToolResult::text(who)) })
    }
}

/// The MCP server verifying tokens with `authenticator`, on a free loopback port.
async fn serve(authenticator: JwtAuthenticator) -> SocketAddr {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25],
        ..ServerInfo::new("games", "1.0.0")
    };
    let router = Router::new(info)
        .security(Some(SECURITY))
        .tool(LIST_GAMES, who())
        .tool(RECORD_GAME, who())
        .authenticator(authenticator);
    let bound = HttpServer::new(router).bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.run());
    addr
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// Claims valid for the server at `addr` for ten minutes, with `extra` merged in.
fn claims(addr: SocketAddr, extra: Value) -> Value {
    let mut claims = json!({
        "iss": ISSUER,
        "sub": "user-1",
        "aud": format!("http://{addr}/mcp"),
        "iat": now(),
        "exp": now() + 600,
        "scope": "games:read",
    });
    for (name, value) in extra.as_object().unwrap() {
        claims[name] = value.clone();
    }
    claims
}

/// Asserts a 401 with `error="invalid_token"` for `token`; the description sent.
async fn refused(addr: SocketAddr, token: &str) -> String {
    let reply = Client::bearer(addr, token).initialize().await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{reply:?}");
    let challenges = reply.challenges();
    assert!(
        challenges
            .iter()
            .any(|c| c.starts_with(r#"Bearer error="invalid_token""#)),
        "{challenges:?}"
    );
    assert_eq!(reply.json()["error"], "invalid_token");
    reply.json()["error_description"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn accepted(addr: SocketAddr, token: &str) -> Client {
    let mut client = Client::bearer(addr, token);
    let reply = client.initialize().await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    client
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[tokio::test]
async fn valid_tokens_of_each_algorithm_are_accepted() {
    let k = keys();
    let jwks = JwksServer::start(key_set(&[&k.rsa, &k.ec, &k.ed])).await;
    let addr = serve(JwtAuthenticator::from_jwks_url(&jwks.url, ISSUER)).await;
    for key in [&k.rsa, &k.ec, &k.ed] {
        let client = accepted(addr, &key.sign(&claims(addr, json!({})))).await;
        assert_eq!(
            client.tool_text(1, "list_games").await,
            "user-1 [games:read]"
        );
    }
    // Fetched once, then cached.
    assert_eq!(jwks.fetches(), 1);
}

#[tokio::test]
async fn invalid_tokens_get_401_invalid_token() {
    let k = keys();
    let jwks = JwksServer::start(key_set(&[&k.rsa, &k.ec])).await;
    let addr = serve(JwtAuthenticator::from_jwks_url(&jwks.url, ISSUER)).await;

    let expired = k.rsa.sign(&claims(addr, json!({"exp": now() - 3600})));
    assert!(refused(addr, &expired).await.contains("expired"));
    let early = k.ec.sign(&claims(addr, json!({"nbf": now() + 3600})));
    assert!(refused(addr, &early).await.contains("not valid yet"));
    let other_audience = k
        .rsa
        .sign(&claims(addr, json!({"aud": "https://other.example/mcp"})));
    assert!(refused(addr, &other_audience)
        .await
        .contains("another audience"));
    let other_issuer = k
        .rsa
        .sign(&claims(addr, json!({"iss": "https://evil.example/"})));
    assert!(refused(addr, &other_issuer)
        .await
        .contains("another issuer"));
    let forged = k.rsa_forged.sign(&claims(addr, json!({})));
    assert!(refused(addr, &forged).await.contains("signature"));
    let unknown_kid = k.rsa_next.sign(&claims(addr, json!({})));
    assert!(refused(addr, &unknown_kid).await.contains("kid"));
    let no_sub = {
        let mut c = claims(addr, json!({}));
        c.as_object_mut().unwrap().remove("sub");
        k.rsa.sign(&c)
    };
    assert!(refused(addr, &no_sub).await.contains("sub"));
    refused(addr, "not-a-jwt").await;

    // `alg: none`, unsigned.
    let header = b64(br#"{"alg":"none","typ":"JWT"}"#);
    let body = b64(claims(addr, json!({})).to_string().as_bytes());
    refused(addr, &format!("{header}.{body}.")).await;

    // HS256 with the public key as the secret (the algorithm confusion attack).
    let public = serde_json::to_vec(&k.rsa.jwk).unwrap();
    let mut hmac_header = Header::new(Algorithm::HS256);
    hmac_header.kid = Some("rsa-1".into());
    let hmac = jsonwebtoken::encode(
        &hmac_header,
        &claims(addr, json!({})),
        &EncodingKey::from_secret(&public).unwrap(),
    )
    .unwrap();
    assert!(refused(addr, &hmac).await.contains("HS256"));

    // The genuine token passes on the same server.
    accepted(addr, &k.rsa.sign(&claims(addr, json!({})))).await;
}

#[tokio::test]
async fn scopes_come_from_scope_or_scp() {
    let k = keys();
    let jwks = JwksServer::start(key_set(&[&k.rsa, &k.ec])).await;
    let addr = serve(JwtAuthenticator::from_jwks_url(&jwks.url, ISSUER)).await;

    let both = k
        .rsa
        .sign(&claims(addr, json!({"scope": "games:read games:write"})));
    let client = accepted(addr, &both).await;
    assert_eq!(
        client.tool_text(1, "record_game").await,
        "user-1 [games:read games:write]"
    );

    let scp = k.ec.sign(&claims(
        addr,
        json!({"scope": null, "scp": ["games:read", "games:write"]}),
    ));
    let client = accepted(addr, &scp).await;
    assert_eq!(
        client.tool_text(2, "record_game").await,
        "user-1 [games:read games:write]"
    );

    // Reading only: the write tool is refused with 403 insufficient_scope.
    let reader = accepted(addr, &k.rsa.sign(&claims(addr, json!({})))).await;
    let refused = reader.call_tool(3, "record_game").await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{refused:?}");
    let challenge = &refused.challenges()[0];
    assert!(
        challenge.starts_with(r#"Bearer error="insufficient_scope", scope="games:write""#),
        "{challenge}"
    );

    // No scope at all: not even the endpoint.
    let none = k.rsa.sign(&claims(addr, json!({"scope": null})));
    let reply = Client::bearer(addr, &none).initialize().await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{reply:?}");
}

#[tokio::test]
async fn a_new_kid_refetches_the_jwks_at_most_once_per_interval() {
    let k = keys();
    let jwks = JwksServer::start(key_set(&[&k.rsa])).await;
    let interval = Duration::from_millis(400);
    let addr =
        serve(JwtAuthenticator::from_jwks_url(&jwks.url, ISSUER).refetch_interval(interval)).await;
    accepted(addr, &k.rsa.sign(&claims(addr, json!({})))).await;
    assert_eq!(jwks.fetches(), 1);

    // The issuer rotates to a new key.
    jwks.publish(key_set(&[&k.rsa_next]));
    tokio::time::sleep(interval + Duration::from_millis(100)).await;
    accepted(addr, &k.rsa_next.sign(&claims(addr, json!({})))).await;
    assert_eq!(jwks.fetches(), 2);

    // Unknown key ids within the interval do not fetch again.
    let ghost = ec_key("ghost");
    for _ in 0..3 {
        refused(addr, &ghost.sign(&claims(addr, json!({})))).await;
    }
    assert_eq!(jwks.fetches(), 2);
    // After the interval, one more fetch.
    tokio::time::sleep(interval + Duration::from_millis(100)).await;
    refused(addr, &ghost.sign(&claims(addr, json!({})))).await;
    assert_eq!(jwks.fetches(), 3);
    // The retired key is gone from the new set.
    refused(addr, &k.rsa.sign(&claims(addr, json!({})))).await;
}

#[tokio::test]
async fn a_static_key_set_and_a_set_audience() {
    let k = keys();
    let set = JwkSet {
        keys: vec![k.ed.jwk.clone()],
    };
    let addr = serve(
        JwtAuthenticator::from_keys(set, ISSUER)
            .audience(["https://games.example/mcp"])
            .leeway(Duration::from_secs(5)),
    )
    .await;
    let token =
        k.ed.sign(&claims(addr, json!({"aud": "https://games.example/mcp"})));
    accepted(addr, &token).await;
    // The resource's own URL is no longer the audience.
    refused(addr, &k.ed.sign(&claims(addr, json!({})))).await;
    // Expired 30 s ago: beyond the 5 s leeway.
    let late = k.ed.sign(&claims(
        addr,
        json!({"aud": "https://games.example/mcp", "exp": now() - 30}),
    ));
    refused(addr, &late).await;
}

#[tokio::test]
async fn an_unreachable_jwks_is_503_not_a_verdict() {
    let k = keys();
    // A port nothing listens on.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/jwks.json", listener.local_addr().unwrap());
    drop(listener);
    let addr = serve(JwtAuthenticator::from_jwks_url(url, ISSUER)).await;
    for _ in 0..2 {
        let reply = Client::bearer(addr, &k.rsa.sign(&claims(addr, json!({}))))
            .initialize()
            .await;
        assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    }
}

#[tokio::test]
async fn a_failing_jwks_is_not_fetched_for_every_request() {
    let k = keys();
    let jwks = JwksServer::start("not a key set".into()).await;
    let interval = Duration::from_millis(400);
    let addr =
        serve(JwtAuthenticator::from_jwks_url(&jwks.url, ISSUER).refetch_interval(interval)).await;
    for _ in 0..3 {
        let reply = Client::bearer(addr, &k.rsa.sign(&claims(addr, json!({}))))
            .initialize()
            .await;
        assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{reply:?}");
    }
    assert_eq!(jwks.fetches(), 1, "one fetch per refetch interval");
    // The provider recovers; after the interval the next token fetches the set.
    jwks.publish(key_set(&[&k.rsa]));
    tokio::time::sleep(interval + Duration::from_millis(100)).await;
    accepted(addr, &k.rsa.sign(&claims(addr, json!({})))).await;
    assert_eq!(jwks.fetches(), 2);
}

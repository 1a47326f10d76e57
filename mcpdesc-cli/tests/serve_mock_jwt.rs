//! `mcpdesc serve-mock FILE --http ADDR --jwks URL --issuer ISS [--audience AUD]` over
//! real HTTP (the binary on a loopback port, a JWKS served by the test with keys it
//! made): a valid token runs the read tool and is refused the write tool (403), a
//! token with both scopes (`scp`) runs both, expired, foreign and unsigned tokens get
//! 401 `invalid_token`, and `--audience` replaces the default audience (the URL
//! served).

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use hyper::StatusCode;
use serde_json::{json, Value};

#[path = "../../tests/e2e/harness.rs"]
mod harness;
#[path = "../../mcpdesc/tests/support/jwks.rs"]
mod jwks;
#[path = "../../mcpdesc/tests/support/wire.rs"]
mod wire;

use harness::HttpServerProcess;
use jwks::{ec_key, ed_key, key_set, JwksServer};
use wire::Client;

const ISSUER: &str = "https://id.games.example/";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn serve(jwks_url: &str, extra: &[&str]) -> HttpServerProcess {
    let file = fixture("games-oauth.mcpdesc.json").display().to_string();
    let mut args = vec![
        "serve-mock",
        &file,
        "--http",
        "127.0.0.1:0",
        "--jwks",
        jwks_url,
        "--issuer",
        ISSUER,
    ];
    args.extend_from_slice(extra);
    HttpServerProcess::start(env!("CARGO_BIN_EXE_mcpdesc"), &args)
}

fn addr_of(url: &str) -> std::net::SocketAddr {
    url.trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .unwrap()
}

fn claims(aud: &str, extra: Value) -> Value {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let mut claims = json!({"iss": ISSUER, "sub": "player-1", "aud": aud,
        "exp": now + 600, "scope": "games:read"});
    for (name, value) in extra.as_object().unwrap() {
        claims[name] = value.clone();
    }
    if claims["exp"] == json!("past") {
        claims["exp"] = json!(now - 3600);
    }
    claims
}

async fn status_of_initialize(addr: std::net::SocketAddr, token: &str) -> (StatusCode, String) {
    let reply = Client::bearer(addr, token).initialize().await;
    (reply.status, reply.challenges().join(" | "))
}

#[tokio::test]
async fn serve_mock_verifies_jwts_against_a_jwks() {
    let (ec, ed) = (ec_key("ec-1"), ed_key("ed-1"));
    let jwks = JwksServer::start(key_set(&[&ec, &ed])).await;
    let server = serve(&jwks.url, &[]);
    let addr = addr_of(&server.url);
    let aud = server.url.clone();

    // A reader: the read tool runs, the write tool is refused.
    let mut reader = Client::bearer(addr, &ec.sign(&claims(&aud, json!({}))));
    assert_eq!(reader.initialize().await.status, StatusCode::OK);
    assert_eq!(reader.tool_text(1, "list_games").await, "2 games");
    let write = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "record_game", "arguments": {"pgn": "1. e4 e5 2. Qh5"}}});
    let forbidden = reader.post(write.clone()).await;
    assert_eq!(forbidden.status, StatusCode::FORBIDDEN);
    assert!(forbidden.challenges()[0]
        .starts_with(r#"Bearer error="insufficient_scope", scope="games:write""#));

    // Both scopes in `scp`, EdDSA: both tools run.
    let both = ed.sign(&claims(
        &aud,
        json!({"scope": null, "scp": ["games:read", "games:write"]}),
    ));
    let mut writer = Client::bearer(addr, &both);
    assert_eq!(writer.initialize().await.status, StatusCode::OK);
    let recorded = writer.post(write).await.answer(2);
    assert_eq!(
        recorded["result"]["content"][0]["text"], "recorded",
        "{recorded}"
    );

    // Refused tokens: 401 invalid_token.
    let unsigned = format!(
        "{}.{}.",
        "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0", "eyJzdWIiOiJ4In0"
    );
    for token in [
        ec.sign(&claims(&aud, json!({"exp": "past"}))),
        ec.sign(&claims("https://elsewhere.example/mcp", json!({}))),
        ec.sign(&claims(&aud, json!({"iss": "https://evil.example/"}))),
        ec_key("ec-1").sign(&claims(&aud, json!({}))),
        unsigned,
    ] {
        let (status, challenges) = status_of_initialize(addr, &token).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{challenges}");
        assert!(
            challenges.contains(r#"error="invalid_token""#),
            "{challenges}"
        );
    }

    let stderr = server.stderr();
    assert!(
        stderr.contains(&format!(
            "JWT bearer tokens of {ISSUER} (keys: {}",
            jwks.url
        )),
        "{stderr}"
    );
    assert_eq!(jwks.fetches(), 1, "the JWKS is cached");
}

#[tokio::test]
async fn serve_mock_audience_replaces_the_url_served() {
    let ec = ec_key("ec-1");
    let jwks = JwksServer::start(key_set(&[&ec])).await;
    let server = serve(&jwks.url, &["--audience", "https://games.example/mcp"]);
    let addr = addr_of(&server.url);
    let (status, _) = status_of_initialize(
        addr,
        &ec.sign(&claims("https://games.example/mcp", json!({}))),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = status_of_initialize(addr, &ec.sign(&claims(&server.url, json!({})))).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
